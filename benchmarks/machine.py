"""The lines every benchmark prints first: the machine, its speed now, and the versions.

The machine is shared and its speed varies (the Changsha engine played 15,386–16,072
hands/s one morning and 7,433–8,238 that evening, 2026-12-04), so every benchmark prints
a calibration beside its figures, measured in a child process (so it adds nothing to the
benchmark's own peak memory): the seconds of a fixed pure-Python loop and of fixed random
reads from memory, best of three each. A slower reading means a slower machine, not
slower code: figures measured at different hours compare after scaling by it.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time

import numba
import numpy as np

import mjsim

#: the calibration loop's additions
CALIBRATION_N = 5_000_000
#: the random reads, and the 8-byte values of the array they read from (256 MB)
READS, ARRAY = 1 << 23, 1 << 25


def calibration() -> tuple[float, float]:
    """Seconds of a loop of :data:`CALIBRATION_N` Python additions and of :data:`READS`
    random reads from an array of :data:`ARRAY` values, the best of three each."""
    loop = memory = float("inf")
    values = np.arange(ARRAY, dtype=np.int64)
    where = np.random.default_rng(0).integers(0, ARRAY, READS)
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(CALIBRATION_N):
            total += i
        loop = min(loop, time.perf_counter() - start)
        start = time.perf_counter()
        values[where].sum()
        memory = min(memory, time.perf_counter() - start)
    return loop, memory


def calibration_line() -> str:
    """:func:`calibration`, run in a child process, as one line."""
    code = "import machine; print(*machine.calibration())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.abspath(__file__)), check=True)
    loop, memory = map(float, out.stdout.split())
    return (f"calibration: {loop:.3f} s for {CALIBRATION_N:,} Python additions, {memory:.3f} s "
            f"for {READS:,} random reads over {ARRAY * 8 >> 20} MB (best of 3; lower is faster)")


def print_machine() -> None:
    """Print the machine, core and numba thread counts, its speed now
    (:func:`calibration_line`), and the library versions."""
    print(f"machine: {platform.machine()} {platform.processor() or ''} cores={os.cpu_count()} "
          f"numba threads={numba.get_num_threads()}")
    print(calibration_line())
    print(f"python {platform.python_version()} numpy {np.__version__} numba {numba.__version__} "
          f"mjsim {mjsim.__version__}")
