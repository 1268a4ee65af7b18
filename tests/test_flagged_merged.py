"""The merged tables of the shape conditions' fast path against the rows they come from.

End to end, ``tests/test_shanten.py`` checks the kernels against brute force and the table
path against the group DP; here each piece is checked on its own: a vector's id names its
flagged row, the honours' table agrees with the fallback's honour DP, a merged row equals
the min-plus of its two rows written out from the definition, and every pair of groups
that a hand of ``MAX_TILES`` tiles can hold has a merged row.
"""

from __future__ import annotations

import numpy as np
import pytest

from mjsim.kernels.constrained import MAX_NEED, honour_rows
from mjsim.tables.flagged import N_FLAGS, column, honour_flagged, load_flagged
from mjsim.tables.flagged_merged import MAX_TILES, NO_PAIR, load_flag_tables, vector_index
from mjsim.tables.suits import HONOUR_DIGITS, INF, SUIT_DIGITS, count_digits


def digits(index: int, n: int) -> np.ndarray:
    return np.array([(index // 5**i) % 5 for i in range(n)])


def merged_by_definition(a: np.ndarray, b: np.ndarray, left: bool) -> dict:
    """{(count index, flags, m, p): cost} of two flagged rows: every split of the melds
    and the pair, every subset of the flags on ``a``'s side, the parts that must be
    non-empty (left: some / both; right: any / ``a``'s)."""
    out = {}
    for f in range(N_FLAGS):
        for m in range(MAX_NEED + 1):
            for p in range(2):
                best = [INF, INF]
                for m1 in range(m + 1):
                    for p1 in range(p + 1):
                        cost = min(
                            int(a[column(m1, p1, g)]) + int(b[column(m - m1, p - p1, f & ~g)])
                            for g in range(N_FLAGS)
                            if g & f == g
                        )
                        a_used, b_used = m1 + p1 > 0, m - m1 + p - p1 > 0
                        if not left or a_used or b_used:
                            best[0] = min(best[0], cost)
                        if a_used and (b_used or not left):
                            best[1] = min(best[1], cost)
                for c in range(2):
                    out[c, f, m, p] = min(best[c], INF)
    return out


def assert_vector(vector: np.ndarray, want: dict, right: bool) -> None:
    for (c, f, m, p), cost in want.items():
        assert int(vector[vector_index(c, f, m, p, right)]) == cost, (c, f, m, p)


def test_suit_ids_name_the_rows():
    t, flagged = load_flag_tables(), load_flagged()
    rng = np.random.default_rng(3)
    for i in rng.integers(0, 5**SUIT_DIGITS, 3000):
        assert t.suit_rows[t.suit_ids[i]].tobytes() == flagged[i].tobytes()


@pytest.mark.parametrize("red", [0, 1])
def test_honour_table_matches_the_honour_dp(red):
    """The honours' flagged table (lattice sweeps) against the fallback's DP over kinds."""
    table = honour_flagged(bool(red))
    rng = np.random.default_rng(4 + red)
    every = np.ones(7, dtype=np.bool_)
    no_wild = np.zeros(34, dtype=np.bool_)
    caps = np.full(34, 4, dtype=np.int64)
    out = np.empty((MAX_NEED + 1, 2, N_FLAGS), dtype=np.int64)
    for x in rng.integers(0, 5**HONOUR_DIGITS, 600):
        counts = np.zeros(34, dtype=np.uint8)
        counts[27:] = digits(int(x), HONOUR_DIGITS)
        honour_rows(counts, every, no_wild, caps, red, MAX_NEED, out)
        assert table[x].tolist() == out.ravel().tolist(), counts[27:].tolist()


def test_merged_rows_by_definition():
    t = load_flag_tables()
    honours = np.vstack([honour_flagged(False), honour_flagged(True)]).reshape(2, -1, 80)
    rng = np.random.default_rng(5)
    for _ in range(150):
        x, y, z = (int(rng.integers(0, 5**SUIT_DIGITS)) for _ in range(3))
        while digits(x, 9).sum() + digits(y, 9).sum() > MAX_TILES:  # drop a random digit
            x, y = (x // 5, y) if rng.random() < 0.5 else (x, y // 5)
        a, b = sorted((int(t.suit_ids[x]), int(t.suit_ids[y])))
        left = t.left_vectors[t.left_pairs[t.left_start[a] + b - a]]
        assert_vector(left, merged_by_definition(load_flagged()[x], load_flagged()[y], True), False)
        h, red = int(rng.integers(0, 5**HONOUR_DIGITS)), int(rng.integers(2))
        while digits(h, 7).sum() + digits(z, 9).sum() > MAX_TILES:
            h, z = (h // 5, z) if rng.random() < 0.5 else (h, z // 5)
        right = t.right_vectors[t.right_pairs[t.honour_ids[red, h], t.suit_ids[z]]]
        assert_vector(right, merged_by_definition(load_flagged()[z], honours[red, h], False), True)


def test_pairs_cover_hands_of_max_tiles():
    """Two suits, or a suit and the honours, have a merged row exactly when some vectors
    of their rows hold at most MAX_TILES tiles together."""
    t = load_flag_tables()
    fewest = np.full(len(t.suit_rows), INF)
    np.minimum.at(fewest, t.suit_ids, count_digits(SUIT_DIGITS).sum(axis=1, dtype=np.int64))
    hon_fewest = np.full(t.right_pairs.shape[0], INF)
    for red in range(2):
        np.minimum.at(
            hon_fewest, t.honour_ids[red], count_digits(HONOUR_DIGITS).sum(axis=1, dtype=np.int64)
        )
    ids = np.arange(len(fewest))
    for a in ids:
        later = ids[a:]
        assert ((later < t.left_stop[a]) == (fewest[a] + fewest[later] <= MAX_TILES)).all()
    fits = hon_fewest[:, None] + fewest[None, :] <= MAX_TILES
    assert ((t.right_pairs != NO_PAIR) == fits).all()
