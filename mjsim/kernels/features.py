"""Simple per-hand features for datasets, in one pass over ``uint8[N, 34]`` counts.

>>> import numpy as np
>>> h = np.zeros((1, 34), np.uint8); h[0, [1, 4, 9, 27]] = 1
>>> hand_features(h).tolist()
[[4, 2, 2, 1]]
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .shanten import row_ok

#: columns of :func:`hand_features`
FEATURES = ("n_tiles", "suits_held", "n_258", "n_honours")


@njit(cache=True, parallel=True)
def hand_features(hands):
    """int8[N, 4]: tiles, suits of m/p/s held, tiles of rank 2/5/8, honour tiles."""
    n = hands.shape[0]
    out = np.empty((n, 4), dtype=np.int8)
    for i in prange(n):
        total = 0
        suits = 0
        n258 = 0
        for s in range(3):
            in_suit = 0
            for r in range(9):
                c = np.int64(hands[i, 9 * s + r])
                in_suit += c
                if r % 3 == 1:
                    n258 += c
            total += in_suit
            if in_suit > 0:
                suits += 1
        honours = 0
        for k in range(27, 34):
            honours += np.int64(hands[i, k])
        out[i, 0] = total + honours
        out[i, 1] = suits
        out[i, 2] = n258
        out[i, 3] = honours
    return out


@njit(cache=True, parallel=True)
def first_bad_row(hands, n_melds, hand_size, kind_mask):
    """The first row with a count above 4, a tile outside ``kind_mask``, or whose tiles
    with ``3 * n_melds[i]`` for its exposed melds are neither ``hand_size`` nor one more;
    −1 when every row is sound.

    >>> h = np.zeros((2, 34), np.uint8); h[:, 0] = 4; h[:, 1:10] = 1
    >>> kinds, melds = np.ones(34, np.bool_), np.zeros(2, np.int64)
    >>> int(first_bad_row(h, melds, 13, kinds)), int(first_bad_row(h, melds, 14, kinds))
    (-1, 0)
    """
    n = hands.shape[0]
    chunk = 4096
    n_chunks = (n + chunk - 1) // chunk
    firsts = np.full(n_chunks, -1, dtype=np.int64)
    for c in prange(n_chunks):
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            if not row_ok(hands[i], n_melds[i], hand_size, kind_mask):
                firsts[c] = i
                break
    for c in range(n_chunks):
        if firsts[c] >= 0:
            return firsts[c]
    return -1
