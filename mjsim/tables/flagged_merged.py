"""Distinct flagged rows and their pairwise merges: the fast path of the shape conditions.

Method, as :mod:`mjsim.tables.merged` does for the standard family: the 5^9 suit rows of
:mod:`mjsim.tables.flagged` hold 4,346 distinct rows (melds 0–4 × pair 0/1 × 8 flag sets,
"at least" semantics), and the 2 × 5^7 honour rows (without and with the 中 pair as a
pung) 199; each row index maps to its row's id. A hand's four groups are joined two by
two, each pair merged here once for every pair of ids: a *left* pair of two suits and a
*right* pair of the third suit with the honours. A merged row holds, for ``m`` melds,
``p`` pairs, at least the flags ``F`` and at least ``c`` non-empty suits::

    row[c, F, m, p] = min over m1 ≤ m, p1 ≤ p, G ⊆ F of a[m1, p1, G] + b[m - m1, p - p1, F \\ G]

over the splits that leave at least ``c`` of the suits non-empty: the left pair stores
c = 1 and 2 (c = 0 differs from 1 only for the empty target), the right pair c = 0 and 1
(its suit; the honours count for no suit). Since a suit is present in the
target exactly when its part holds a meld or the pair, and every target splits into its
groups' parts whose flags each row covers, :func:`mjsim.kernels.constrained.table_cost`
is exact when it joins a left and a right row on the melds, the pair, the flags and the
suits still wanted.

Only the pairs that a hand of at most :data:`MAX_TILES` natural concealed tiles can hold
are merged: the ids are sorted by the fewest tiles of a vector with that row, so the
partners of id ``a`` are a prefix of the ids. The left pair is symmetric and stored for
``a ≤ b`` only. Generated on first use from :func:`mjsim.tables.flagged.load_flagged`
(about 5 s; 12 s when the flagged table is generated too) and cached on disk (19 MB).

>>> from mjsim.tables.flagged import CHOW, PUNG, YAO
>>> from mjsim.tables.suits import suit_index
>>> t = load_flag_tables()
>>> a = t.suit_ids[suit_index([1, 1, 1, 0, 0, 0, 0, 0, 0])]      # 123 of one suit
>>> b = t.suit_ids[suit_index([0, 0, 0, 0, 3, 0, 0, 0, 0])]      # 555 of another
>>> row = t.left_vectors[t.left_pairs[t.left_start[min(a, b)] + abs(int(a) - int(b))]]
>>> [int(row[vector_index(1, PUNG | CHOW | YAO, 2, p, False)]) for p in (0, 1)]
[0, 2]
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .flagged import MAX_MELDS as MAX_NEED
from .flagged import N_FLAGS, honour_flagged, load_flagged
from .merged import distinct_rows
from .suits import HONOUR_DIGITS, INF, SUIT_DIGITS, cache_dir, cached_array, count_digits

#: the most natural concealed tiles the merged pairs cover (a 13/14-tile hand)
MAX_TILES = 14
#: suit counts a merged row stores (see the module docstring)
N_COUNTS = 2
#: a merged row is a block per (count, flags): the (melds, pair) entries at lane 2m + p
#: (left rows) or 2(MAX_NEED - m) + 1 - p (right rows, reversed), so that a join of
#: ``need`` melds reads lanes 0 .. 2 need + 1 of the left block against as many lanes of
#: the right block from (need, 1) on
BLOCK = (MAX_NEED + 1) * 2
VECTOR = N_COUNTS * N_FLAGS * BLOCK
#: the layout's version, in the cache files' names (bump it when the build changes)
LAYOUT = 1
#: the right pair of two ids that no hand of MAX_TILES tiles holds
NO_PAIR = np.iinfo(np.uint32).max

#: table sizes (asserted when built: the definition fixes them)
N_SUIT_ROWS, N_HONOUR_ROWS = 4346, 199
N_LEFT_PAIRS, N_LEFT, N_RIGHT = 683_547, 32_673, 25_297

FlagTables = namedtuple(
    "FlagTables",
    [
        "suit_ids",  # uint16[5^9]: the id of each suit vector's flagged row
        "suit_rows",  # uint8[N_SUIT_ROWS, 80]: those rows (mjsim.tables.flagged columns)
        "honour_ids",  # uint8[2, 5^7]: the id of each honour vector's row, without / with red
        "left_start",  # int64[N_SUIT_ROWS]: where the left pairs of id a begin (b = a first)
        "left_stop",  # int64[N_SUIT_ROWS]: the ids b < left_stop[a] have a left pair with a
        "left_pairs",  # uint32[N_LEFT_PAIRS]: the left vector of each pair a ≤ b
        "right_pairs",  # uint32[N_HONOUR_ROWS, N_SUIT_ROWS]: the right vector, or NO_PAIR
        "left_vectors",  # uint8[N_LEFT, VECTOR]
        "right_vectors",  # uint8[N_RIGHT, VECTOR]
    ],
)


@njit(cache=True, inline="always")
def vector_index(count, flags, m, p, right):
    """Column of a merged row: ``count`` index (see the module docstring), at least
    ``flags``, ``m`` melds and ``p`` pairs, in a left or (``right``) a right row."""
    lane = 2 * (MAX_NEED - m) + 1 - p if right else 2 * m + p
    return (count * N_FLAGS + flags) * BLOCK + lane


@njit(cache=True)
def _merge(rows_a, rows_b, ids_a, ids_b, left):
    """The merged row (:data:`VECTOR` columns) of each pair ``rows_a[ids_a[i]]``,
    ``rows_b[ids_b[i]]`` of flagged rows; ``left``: two suits, else a suit and honours."""
    out = np.empty((ids_a.shape[0], VECTOR), np.uint8)
    for i in range(ids_a.shape[0]):
        a = rows_a[ids_a[i]]
        b = rows_b[ids_b[i]]
        for f in range(N_FLAGS):
            for m in range(MAX_NEED + 1):
                for p in range(2):
                    loose = INF  # count index 0: some suit (left) or none (right)
                    tight = INF  # count index 1: both suits (left) or the suit (right)
                    for m1 in range(m + 1):
                        for p1 in range(p + 1):
                            m2 = m - m1
                            p2 = p - p1
                            best = INF
                            g = f
                            while True:  # the subsets g of f
                                best = min(
                                    best,
                                    np.int64(a[(m1 * 2 + p1) * N_FLAGS + g])
                                    + np.int64(b[(m2 * 2 + p2) * N_FLAGS + (f & ~g)]),
                                )
                                if g == 0:
                                    break
                                g = (g - 1) & f
                            a_used = m1 + p1 > 0
                            b_used = m2 + p2 > 0
                            if not left or a_used or b_used:
                                loose = min(loose, best)
                            if a_used and (b_used or not left):
                                tight = min(tight, best)
                    out[i, vector_index(0, f, m, p, not left)] = min(loose, INF)
                    out[i, vector_index(1, f, m, p, not left)] = min(tight, INF)
    return out


def _sorted_rows(table: np.ndarray, n_digits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of ``table`` (rows: vectors of ``n_digits`` digits, repeated for
    each variant) sorted by the fewest tiles of a vector holding them, each vector's id
    among them, and those fewest tiles."""
    rows, ids = distinct_rows(table)
    tiles = np.tile(count_digits(n_digits).sum(axis=1, dtype=np.int64), len(table) // 5**n_digits)
    fewest = np.full(len(rows), INF, dtype=np.int64)
    np.minimum.at(fewest, ids, tiles)
    order = np.argsort(fewest, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return rows[order], rank[ids], fewest[order]


def _build() -> dict[str, np.ndarray]:
    suit_rows, suit_ids, suit_tiles = _sorted_rows(load_flagged(), SUIT_DIGITS)
    honours = np.vstack([honour_flagged(False), honour_flagged(True)])
    honour_rows, honour_ids, honour_tiles = _sorted_rows(honours, HONOUR_DIGITS)
    n = len(suit_rows)
    # left pairs a ≤ b < stop[a]: the ids b that fit beside a in MAX_TILES tiles
    stop = np.searchsorted(suit_tiles, MAX_TILES - suit_tiles, side="right")
    count = np.maximum(stop - np.arange(n), 0)
    start = np.cumsum(count) - count
    ids_a = np.repeat(np.arange(n), count)
    ids_b = ids_a + np.arange(len(ids_a)) - np.repeat(start, count)
    left_vectors, left_pairs = distinct_rows(_merge(suit_rows, suit_rows, ids_a, ids_b, True))
    fits = suit_tiles[None, :] + honour_tiles[:, None] <= MAX_TILES
    ids_z, ids_c = np.nonzero(fits)
    right_vectors, right_ids = distinct_rows(_merge(suit_rows, honour_rows, ids_c, ids_z, False))
    right_pairs = np.full(fits.shape, NO_PAIR, dtype=np.uint32)
    right_pairs[ids_z, ids_c] = right_ids
    return {
        "suit_ids": suit_ids.astype(np.uint16),
        "suit_rows": suit_rows,
        "honour_ids": honour_ids.astype(np.uint8).reshape(2, 5**HONOUR_DIGITS),
        "left_start": start,
        "left_stop": stop.astype(np.int64),
        "left_pairs": left_pairs.astype(np.uint32),
        "right_pairs": right_pairs,
        "left_vectors": left_vectors,
        "right_vectors": right_vectors,
    }


#: each array's shape and dtype (the cache checks them; the build must produce them)
_SPECS = {
    "suit_ids": ((5**SUIT_DIGITS,), np.uint16),
    "suit_rows": ((N_SUIT_ROWS, (MAX_NEED + 1) * 2 * N_FLAGS), np.uint8),
    "honour_ids": ((2, 5**HONOUR_DIGITS), np.uint8),
    "left_start": ((N_SUIT_ROWS,), np.int64),
    "left_stop": ((N_SUIT_ROWS,), np.int64),
    "left_pairs": ((N_LEFT_PAIRS,), np.uint32),
    "right_pairs": ((N_HONOUR_ROWS, N_SUIT_ROWS), np.uint32),
    "left_vectors": ((N_LEFT, VECTOR), np.uint8),
    "right_vectors": ((N_RIGHT, VECTOR), np.uint8),
}
_TABLES: FlagTables | None = None


def load_flag_tables() -> FlagTables:
    """The tables, loaded once per process from the cache (checked) or generated."""
    global _TABLES
    if _TABLES is None:
        built: dict[str, np.ndarray] = {}

        def part(name: str) -> np.ndarray:
            if not built:
                built.update(_build())
                for key, (shape, dtype) in _SPECS.items():
                    got = built[key]
                    assert got.shape == shape and got.dtype == dtype, (key, got.shape, got.dtype)
            return built[name]

        _TABLES = FlagTables(
            **{
                name: cached_array(
                    cache_dir() / f"flag{LAYOUT}-{name}", shape, lambda n=name: part(n), dtype
                )
                for name, (shape, dtype) in _SPECS.items()
            }
        )
    return _TABLES


def no_flag_tables() -> FlagTables:
    """Tables of the same types for a rule set without shape conditions (never read)."""
    return FlagTables(
        **{name: np.zeros((1,) * len(shape), dtype) for name, (shape, dtype) in _SPECS.items()}
    )
