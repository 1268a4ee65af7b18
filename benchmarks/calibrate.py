"""The machine's speed now, as fixed work timed: run by :mod:`machine` in a child process.

The machine is shared and its speed varies (the Changsha engine played 15,386–16,072
hands/s one morning and 7,433–8,238 that afternoon and evening, 2026-12-04), so every
benchmark prints this beside its figures: the seconds of a fixed pure-Python loop and of
fixed random reads from memory, best of three each. A slower reading means a slower
machine, not slower code. Run alone: ``python benchmarks/calibrate.py`` prints the two
figures. It needs numpy only, and about 400 MB (its own process, so a benchmark's peak
memory does not count it).
"""

from __future__ import annotations

import time

import numpy as np

#: the calibration loop's additions
ADDITIONS = 5_000_000
#: the random reads, and the 8-byte values of the array they read from (256 MB)
READS, ARRAY = 1 << 23, 1 << 25


def calibration() -> tuple[float, float]:
    """Seconds of a loop of :data:`ADDITIONS` Python additions and of :data:`READS` random
    reads from an array of :data:`ARRAY` values, the best of three each."""
    loop = memory = float("inf")
    values = np.arange(ARRAY, dtype=np.int64)
    where = np.random.default_rng(0).integers(0, ARRAY, READS)
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(ADDITIONS):
            total += i
        loop = min(loop, time.perf_counter() - start)
        start = time.perf_counter()
        values[where].sum()
        memory = min(memory, time.perf_counter() - start)
    return loop, memory


if __name__ == "__main__":
    print(*calibration())
