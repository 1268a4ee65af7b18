"""The lines every benchmark prints first: the machine, its speed now, and the versions.

The machine is shared and its speed varies (two-fold within a day, 2026-12-04), so every
benchmark prints a calibration beside its figures: the seconds a fixed pure-Python loop
takes (best of three) — figures measured at different times compare after scaling by it.
"""

from __future__ import annotations

import os
import platform
import time

import numba
import numpy as np

import mjsim


#: the calibration loop's additions
CALIBRATION_N = 5_000_000


def calibration() -> float:
    """Seconds of a loop of :data:`CALIBRATION_N` Python additions, the best of three: a
    fixed amount of work, so a slower reading means a slower machine, not slower code."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(CALIBRATION_N):
            total += i
        best = min(best, time.perf_counter() - start)
    return best


def print_machine() -> None:
    """Print the machine, core and numba thread counts, its speed now (:func:`calibration`),
    and the library versions."""
    print(f"machine: {platform.machine()} {platform.processor() or ''} cores={os.cpu_count()} "
          f"numba threads={numba.get_num_threads()}")
    print(f"calibration: {calibration():.3f} s for {CALIBRATION_N:,} Python additions "
          "(best of 3; lower is faster)")
    print(f"python {platform.python_version()} numpy {np.__version__} numba {numba.__version__} "
          f"mjsim {mjsim.__version__}")
