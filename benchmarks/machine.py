"""The line every benchmark prints first: the machine and the versions that measured it."""

from __future__ import annotations

import os
import platform

import numba
import numpy as np

import mjsim


def print_machine() -> None:
    """Print the machine, core and numba thread counts, and the library versions."""
    print(f"machine: {platform.machine()} {platform.processor() or ''} cores={os.cpu_count()} "
          f"numba threads={numba.get_num_threads()}")
    print(f"python {platform.python_version()} numpy {np.__version__} numba {numba.__version__} "
          f"mjsim {mjsim.__version__}")
