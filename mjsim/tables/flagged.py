"""Per-suit distance tables with shape flags, for constrained winning families.

The 112-tile 红中 game needs a pung, a chow, a 1/9/中 tile and two suits; the second
Northeast block needs a pung, a terminal or honour and three suits (RULES.md §4.5,
§4.11). Block counting is not exact under such conditions, so these tables extend
:mod:`mjsim.tables.suits` with what the target must contain: ``dist[h, m, p, F]`` is the
fewest tiles to add to the suit vector ``h`` so that it contains ``m`` melds and ``p``
pairs whose shape has *at least* the flags ``F`` (``PUNG``, ``CHOW``, ``YAO`` = a rank 1
or 9 tile). Built by the same two lattice sweeps (peel a meld or the pair, then add one
tile at a time); generated on first use (about 10 s) and cached on disk. The honours get
the same table from the same sweeps (:func:`honour_flagged`: every kind a ``YAO``, no
chows, and optionally a 中 pair as a ``PUNG``); :mod:`mjsim.tables.flagged_merged` reduces
both to distinct rows and merges them by pairs.

>>> from mjsim.tables.suits import suit_index
>>> t = load_flagged()
>>> h = suit_index([0, 1, 1, 0, 0, 0, 0, 0, 0])            # 23 of one suit
>>> int(t[h, column(1, 0, 0)]), int(t[h, column(1, 0, CHOW | YAO)]), int(t[h, column(1, 0, PUNG)])
(1, 1, 2)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .suits import HONOUR_DIGITS, INF, SUIT_DIGITS, cache_dir, cached_array, count_digits

PUNG, CHOW, YAO = 1, 2, 4
N_FLAGS = 8
MAX_MELDS = 4
N_COLS = (MAX_MELDS + 1) * 2 * N_FLAGS


def column(m: int, p: int, flags: int) -> int:
    """Column of ``m`` melds, ``p`` pairs (0/1) and at least ``flags``."""
    return (m * 2 + p) * N_FLAGS + flags


@njit(cache=True)
def _build(n_digits, honours, red):
    """The table of one tile group: a suit (ranks 1 and 9 are ``YAO``, chows exist) or, with
    ``honours``, the honour kinds (each one ``YAO``, pungs and pairs only); with ``red`` a
    pair of the last kind (中) also has ``PUNG`` (RULES.md §4.5)."""
    size = 5**n_digits
    dig = count_digits(n_digits)
    pow5 = np.ones(n_digits, dtype=np.int64)
    for i in range(1, n_digits):
        pow5[i] = pow5[i - 1] * 5
    n_shapes = n_digits if honours else 2 * n_digits - 2  # pungs, then chows
    terminal = np.zeros(n_digits, dtype=np.int64)
    for r in range(n_digits):
        if honours or r == 0 or r == n_digits - 1:
            terminal[r] = YAO
    holds = np.zeros((MAX_MELDS + 1, 2, N_FLAGS, size), dtype=np.bool_)
    holds[0, 0, 0, :] = True
    for m in range(MAX_MELDS + 1):
        for p in range(2):
            if m == 0 and p == 0:
                continue
            for f in range(N_FLAGS):
                for idx in range(size):
                    found = False
                    if p == 1:  # peel the pair
                        for r in range(n_digits):
                            if dig[idx, r] >= 2:
                                own = terminal[r] | (PUNG if red and r == n_digits - 1 else 0)
                                if holds[m, 0, f & ~own, idx - 2 * pow5[r]]:
                                    found = True
                                    break
                    if not found and m >= 1:  # peel a meld
                        for s in range(n_shapes):
                            if s < n_digits:
                                r = s
                                if dig[idx, r] < 3:
                                    continue
                                own = PUNG | terminal[r]
                                rest = idx - 3 * pow5[r]
                            else:
                                r = s - n_digits
                                if dig[idx, r] < 1 or dig[idx, r + 1] < 1 or dig[idx, r + 2] < 1:
                                    continue
                                own = CHOW | terminal[r] | terminal[r + 2]
                                rest = idx - pow5[r] - pow5[r + 1] - pow5[r + 2]
                            if holds[m - 1, p, f & ~own, rest]:
                                found = True
                                break
                    holds[m, p, f, idx] = found
    table = np.full((size, N_COLS), INF, dtype=np.uint8)
    for m in range(MAX_MELDS + 1):
        for p in range(2):
            for f in range(N_FLAGS):
                col = (m * 2 + p) * N_FLAGS + f
                for idx in range(size - 1, -1, -1):
                    if holds[m, p, f, idx]:
                        table[idx, col] = 0
                        continue
                    best = INF
                    for i in range(n_digits):
                        if dig[idx, i] < 4:
                            best = min(best, table[idx + pow5[i], col])
                    if best < INF:
                        table[idx, col] = best + 1
    return table


_TABLE: np.ndarray | None = None


def load_flagged() -> np.ndarray:
    """The flagged table (``uint8[5**9, 80]``), from the cache or generated once."""
    global _TABLE
    if _TABLE is None:
        _TABLE = cached_array(
            cache_dir() / "flagged",
            (5**SUIT_DIGITS, N_COLS),
            lambda: _build(SUIT_DIGITS, False, False),
        )
    return _TABLE


def honour_flagged(red: bool) -> np.ndarray:
    """The honours' flagged table (``uint8[5**7, 80]``, every kind allowed; with ``red`` a
    中 pair has ``PUNG``): built in well under a second, so not cached.

    >>> from mjsim.tables.suits import suit_index
    >>> h = suit_index([0, 0, 0, 0, 0, 0, 2])                   # 7z7z
    >>> [int(honour_flagged(red)[h, column(0, 1, PUNG | YAO)]) for red in (False, True)]
    [99, 0]
    """
    return _build(HONOUR_DIGITS, True, red)
