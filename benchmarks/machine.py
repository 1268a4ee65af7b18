"""The lines every benchmark prints first: the machine, its speed now, and the versions.

The speed is :mod:`calibrate`'s fixed work, timed in a child process (see there why).
:func:`print_machine` also returns what it printed, as data, for the run's result file
(:mod:`store`).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import numba
import numpy as np
from calibrate import ADDITIONS, ARRAY, READS

import mjsim

CALIBRATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibrate.py")


def machine() -> dict:
    """The machine, its core and numba thread counts, and the library versions."""
    return {
        "machine": platform.machine(),
        "processor": platform.processor() or "",
        "cores": os.cpu_count(),
        "numba_threads": numba.get_num_threads(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "mjsim": mjsim.__version__,
    }


def calibration() -> dict | None:
    """:func:`calibrate.calibration` run in a child process: ``{"loop_s", "memory_s"}``
    (lower is faster), or None when it could not run."""
    try:
        out = subprocess.run(
            [sys.executable, CALIBRATE], capture_output=True, text=True, check=True
        )
        loop, memory = map(float, out.stdout.split()[-2:])
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None
    return {"loop_s": loop, "memory_s": memory}


def calibration_line(figures: dict | None) -> str:
    """:func:`calibration`'s figures as one line (or that there are none)."""
    if figures is None:
        return "calibration: unavailable"
    return (
        f"calibration: {figures['loop_s']:.3f} s for {ADDITIONS:,} Python additions, "
        f"{figures['memory_s']:.3f} s for {READS:,} random reads over {ARRAY * 8 >> 20} MB "
        f"(best of 3; lower is faster)"
    )


def print_machine() -> tuple[dict, dict | None]:
    """Print the machine, core and numba thread counts, its speed now
    (:func:`calibration`), and the library versions; return :func:`machine` and
    :func:`calibration`."""
    about, figures = machine(), calibration()
    print(
        f"machine: {about['machine']} {about['processor']} cores={about['cores']} "
        f"numba threads={about['numba_threads']}"
    )
    print(calibration_line(figures))
    print(
        f"python {about['python']} numpy {about['numpy']} numba {about['numba']} "
        f"mjsim {about['mjsim']}"
    )
    return about, figures
