"""Counter-based random numbers for kernels: a pure function of (key, index, counter).

Method: SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014; the output function is Stafford's "Mix13" 64-bit finalizer), used as a
counter-based generator in the manner of Salmon et al., "Parallel random numbers: as easy as
1, 2, 3" (SC 2011). Deviation from plain SplitMix64: nothing is stepped. The draw for
``(key, index, counter)`` is

    seed  = mix(key + (index + 1) * GAMMA)        # one SplitMix64 stream per index
    value = mix(seed + (counter + 1) * GAMMA2)    # its counter-th output

so deal ``index`` gets the same numbers whatever the chunking, thread count or machine,
and no state is shared. ``key = stream_key(seed, stream)`` separates runs (``seed``) and
the uses within a run (``stream``: walls of one tile set, dice, ...).

:func:`below` is Lemire's multiply-shift ("Fast random integer generation in an interval",
ACM TOMS 2019) on 32-bit words, exactly unbiased: a rejected word (probability below
``n / 2**32``) is replaced by the other half of the same draw, then by draws at counters
``counter + k * 2**48``; callers therefore keep their counters below ``2**48``.

>>> key = stream_key(2024, 7)
>>> int(draw(key, 0, 0)) == int(draw(key, 0, 0)), int(below(key, 5, 3, 6)) in range(6)
(True, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's golden-ratio increment
_GAMMA2 = 0xD1B54A32D192ED03  # a second odd constant for the counter layer
_MUL1 = 0xBF58476D1CE4E5B9
_MUL2 = 0x94D049BB133111EB
_KEY_SALT = 0x6D6A73696D2D726E  # "mjsim-rn"

#: callers' counters must stay below this; rejection retries live above it
COUNTER_LIMIT = 1 << 48

GAMMA = np.uint64(_GAMMA)
GAMMA2 = np.uint64(_GAMMA2)
MUL1 = np.uint64(_MUL1)
MUL2 = np.uint64(_MUL2)
ONE = np.uint64(1)
LOW32 = np.uint64(0xFFFFFFFF)
S27, S30, S31, S32, S48 = (np.uint64(s) for s in (27, 30, 31, 32, 48))
S11 = np.uint64(11)
TWO_POW_M53 = 1.0 / (1 << 53)


def _mix_py(z: int) -> int:
    """:func:`mix` on a Python int (keys are made from seeds of any size, masked to 64 bits)."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * _MUL1) & MASK64
    z = ((z ^ (z >> 27)) * _MUL2) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, stream: int) -> np.uint64:
    """The key of stream ``stream`` of run ``seed`` (both integers in [0, 2**64)).

    >>> int(stream_key(1, 2)) == int(stream_key(1, 2)) != int(stream_key(2, 1))
    True
    """
    for label, value in (("seed", seed), ("stream", stream)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{label} must be an integer, got {type(value).__name__}")
        if not 0 <= int(value) <= MASK64:
            raise ValueError(f"{label} must be in [0, 2**64), got {value}")
    inner = _mix_py(int(seed) ^ _KEY_SALT)
    return np.uint64(_mix_py(inner + (int(stream) + 1) * _GAMMA))


def mix_array(z: np.ndarray) -> np.ndarray:
    """:func:`mix` of every word of a uint64 array, in numpy (many draws at once outside a
    kernel, e.g. the bootstrap weights of :func:`mjsim.stats.paired.poisson_weights`).

    >>> z = np.array([1, 2], dtype=np.uint64)
    >>> mix_array(z).tolist() == [int(mix(np.uint64(1))), int(mix(np.uint64(2)))]
    True
    """
    with np.errstate(over="ignore"):  # the same code as the kernel's, run by numpy
        return mix.py_func(z)


@njit(cache=True, inline="always")
def mix(z):
    """SplitMix64's output function (Stafford Mix13) on a uint64."""
    z = (z ^ (z >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def index_seed(key, index):
    """The per-index seed of :func:`draw` (hoist it out of loops over counters)."""
    return mix(np.uint64(key) + (np.uint64(index) + ONE) * GAMMA)


@njit(cache=True, inline="always")
def draw_seeded(seed, counter):
    """:func:`draw` given ``index_seed(key, index)``."""
    return mix(np.uint64(seed) + (np.uint64(counter) + ONE) * GAMMA2)


@njit(cache=True)
def draw(key, index, counter):
    """Uniform uint64 for (key, index, counter).

    >>> key = stream_key(1, 0)
    >>> int(draw(key, 0, 1)) != int(draw(key, 0, 2)) != int(draw(key, 1, 1))
    True
    """
    return draw_seeded(index_seed(key, index), counter)


@njit(cache=True, inline="always")
def below_seeded(seed, counter, n):
    """:func:`below` given ``index_seed(key, index)``."""
    bound = np.uint64(n)
    counter = np.uint64(counter)
    attempt = np.uint64(0)
    while True:
        word = draw_seeded(seed, counter + (attempt >> ONE << S48))
        half = (word >> S32) if (attempt & ONE) == 0 else (word & LOW32)
        product = half * bound
        low = product & LOW32
        # accept unless low < 2**32 mod n (< n): the division runs only when low < n
        if low >= bound or low >= ((LOW32 + ONE) - bound) % bound:
            return np.int64(product >> S32)
        attempt += ONE


@njit(cache=True)
def below(key, index, counter, n):
    """Unbiased integer in [0, n) for (key, index, counter); 1 <= n <= 2**32.

    >>> key = stream_key(3, 1)
    >>> sorted({int(below(key, 0, c, 3)) for c in range(50)})
    [0, 1, 2]
    """
    return below_seeded(index_seed(key, index), counter, n)


@njit(cache=True)
def uniform(key, index, counter):
    """Float64 in [0, 1) with 53 random bits, for (key, index, counter).

    >>> 0.0 <= uniform(stream_key(3, 1), 9, 0) < 1.0
    True
    """
    return np.float64(draw(key, index, counter) >> S11) * TWO_POW_M53
