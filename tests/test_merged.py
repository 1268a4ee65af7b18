"""The merged tables of the shanten fast path against the distance tables they come from.

End to end, ``tests/test_shanten.py`` checks the kernels against brute force; here each
piece is checked on its own: a row's info word names a vector equal to the row, a pair
merge equals the min-plus of the two rows written out, and the pair statistics count
the row's digits.
"""

from __future__ import annotations

import numpy as np

from mjsim.tables.merged import ID_BITS, ID_MASK, STATS_SHIFT, load_merged, pair_stats
from mjsim.tables.suits import INF, MAX_MELDS, N_PAIR, load_tables


def min_plus(a: np.ndarray, b: np.ndarray) -> list[int]:
    """Row of two groups together, by definition: every split of the melds, the pair in
    neither or in one of them."""
    out = []
    for m in range(MAX_MELDS + 1):
        for p in range(N_PAIR):
            best = INF
            for x in range(m + 1):
                best = min(best, int(a[x * N_PAIR]) + int(b[(m - x) * N_PAIR + p]))
                if p:
                    best = min(best, int(a[x * N_PAIR + p]) + int(b[(m - x) * N_PAIR]))
            out.append(best)
    return out


def digits(index: int, n: int) -> np.ndarray:
    return np.array([(index // 5**i) % 5 for i in range(n)])


def test_info_words_name_the_rows():
    t, g = load_tables(), load_merged()
    rng = np.random.default_rng(1)
    std_vectors = {}
    for i in rng.integers(0, len(t.std), 3000):
        info = int(g.suit_info[i])
        std_vectors.setdefault(info & ID_MASK, t.std[i].tobytes())
        assert std_vectors[info & ID_MASK] == t.std[i].tobytes()  # one id, one vector
        assert info >> STATS_SHIFT == int(pair_stats(digits(int(i), 9)[None, :])[0])


def test_pair_merges_are_min_plus():
    t, g = load_tables(), load_merged()
    rng = np.random.default_rng(2)
    cases = [
        (t.std, t.std, 0, 0, False),
        (t.std, t.honour, 1, 0, True),
        (t.pung, t.pung, 2, ID_BITS, False),
        (t.pung, t.honour, 3, ID_BITS, True),
    ]
    for left, right, k, shift, honours in cases:
        for _ in range(400):
            i = int(rng.integers(0, len(left)))
            j = int(rng.integers(0, len(right)))
            a = (int(g.suit_info[i]) >> shift) & ID_MASK
            word = int(g.honour_info[j]) if honours else int(g.suit_info[j]) >> shift
            b = word & ID_MASK
            merged = g.vectors[g.pairs[k][a, b]]
            assert merged.tolist() == [min(v, INF) for v in min_plus(left[i], right[j])]


def test_no_honour_word_is_the_empty_target():
    g = load_merged()
    assert g.no_honour_info >> STATS_SHIFT == 0
    t = load_tables()
    i = 12345
    merged = g.vectors[g.pairs[1][int(g.suit_info[i]) & ID_MASK, g.no_honour_info & ID_MASK]]
    assert merged.tolist() == t.std[i].tolist()  # nothing to add from the honours
