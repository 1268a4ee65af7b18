"""The lines every benchmark prints first: the machine, its speed now, and the versions.

The speed is :mod:`calibrate`'s fixed work, timed in a child process (see there why).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import numba
import numpy as np

import mjsim
from calibrate import ADDITIONS, ARRAY, READS

CALIBRATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibrate.py")


def calibration_line() -> str:
    """:func:`calibrate.calibration`, run in a child process, as one line (or why not)."""
    try:
        out = subprocess.run([sys.executable, CALIBRATE], capture_output=True, text=True,
                             check=True)
        loop, memory = map(float, out.stdout.split()[-2:])
    except (OSError, subprocess.CalledProcessError, ValueError) as error:
        return f"calibration: unavailable ({type(error).__name__})"
    return (f"calibration: {loop:.3f} s for {ADDITIONS:,} Python additions, {memory:.3f} s "
            f"for {READS:,} random reads over {ARRAY * 8 >> 20} MB (best of 3; lower is faster)")


def print_machine() -> None:
    """Print the machine, core and numba thread counts, its speed now
    (:func:`calibration_line`), and the library versions."""
    print(f"machine: {platform.machine()} {platform.processor() or ''} cores={os.cpu_count()} "
          f"numba threads={numba.get_num_threads()}")
    print(calibration_line())
    print(f"python {platform.python_version()} numpy {np.__version__} numba {numba.__version__} "
          f"mjsim {mjsim.__version__}")
