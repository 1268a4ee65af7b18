"""Simple per-hand features for datasets, in one pass over ``uint8[N, 34]`` counts.

>>> import numpy as np
>>> h = np.zeros((1, 34), np.uint8); h[0, [1, 4, 9, 27]] = 1
>>> hand_features(h).tolist()
[[4, 2, 2, 1]]
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

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
