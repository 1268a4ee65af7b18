"""Distinct rows of the distance tables and their pairwise merges, for the fast path.

The 5^9 rows of :mod:`mjsim.tables.suits` hold few distinct vectors (870 for chows and
pungs, 301 for pungs only, 83 for the honours), so each row index maps to the id of its
vector, and the min-plus merge of two groups (m with p, s with the honours) is computed
once for every pair of ids, as in calculators that fold suits through precomputed states
(Cryolite's nyanten). A hand's cost is then four info reads, two pair reads and a final
min over ``need + 1`` splits (:func:`mjsim.kernels.shanten._merge_ids`), equal to the
min-plus of the four rows by associativity.

A merged vector has the layout of a table row: column ``m * 3 + pair`` for ``m`` melds
over both groups and the pair in neither (0) or in one of them (1 any, 2 rank 258).

Each row index maps to one int64 *info* word, so that a group costs one memory read: the
vector id in the chows-and-pungs table (bits 0–15) and in the pungs-only table (16–31),
and the group's pair statistics (:func:`pair_stats`) in bits 32–63, which add up over
the groups without carries (each field counts at most 34 kinds).

>>> from mjsim.tables.suits import load_tables, suit_index
>>> t, g = load_tables(), load_merged()
>>> a, b = suit_index([1, 1, 1, 0, 0, 0, 0, 0, 0]), suit_index([2, 0, 0, 0, 0, 0, 0, 0, 0])
>>> row = g.vectors[g.pairs[0][g.suit_info[a] & ID_MASK, g.suit_info[b] & ID_MASK]]
>>> int(row[1 * 3 + 1]), int(t.std[a, 3 + 1]), int(t.std[b, 1])   # 123m + 11p: one meld and a pair
(0, 2, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .suits import (
    HONOUR_DIGITS,
    INF,
    MAX_MELDS,
    N_COLS,
    N_PAIR,
    SUIT_DIGITS,
    count_digits,
    load_tables,
)

ID_BITS = 16
ID_MASK = (1 << ID_BITS) - 1
STATS_SHIFT = 32


@dataclass(frozen=True)
class Merged:
    """Row infos and pair merges (see the module docstring).

    ``suit_info``: the info word of each suit row; ``honour_info``: the same for the
    honour rows (its pungs-only id is unused), and ``no_honour_info`` the word of a rule
    set without honours (only the empty target); ``pairs`` = (std × std, std × honour,
    pung × pung, pung × honour): the row of ``vectors`` holding the merge of two ids.
    """

    suit_info: np.ndarray
    honour_info: np.ndarray
    no_honour_info: int
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    vectors: np.ndarray


def pair_stats(digits: np.ndarray) -> np.ndarray:
    """Kinds held once, at least twice, three times and four times, as bytes 0–3 of an
    int64 per row of count digits (what the pair families need; the tiles are
    ``ones + 2 * twos + threes + 2 * fours``).

    >>> int(pair_stats(np.array([[1, 2, 3, 4, 0]]))[0]) == 1 + (3 << 8) + (1 << 16) + (1 << 24)
    True
    """
    tests = (digits == 1, digits >= 2, digits == 3, digits == 4)
    return sum(t.sum(axis=1, dtype=np.int64) << (8 * i) for i, t in enumerate(tests))


def distinct_rows(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``table`` (sorted) and each row's id among them."""
    rows = np.ascontiguousarray(table).view(np.dtype((np.void, table.shape[1]))).ravel()
    _, first, ids = np.unique(rows, return_index=True, return_inverse=True)
    return table[first], ids.ravel()


@njit(cache=True)
def _merge_vectors(a, b):
    """Min-plus merge of every vector of ``a`` with every vector of ``b``: uint8[A, B, cols]."""
    out = np.empty((a.shape[0], b.shape[0], N_COLS), np.uint8)
    for i in range(a.shape[0]):
        for j in range(b.shape[0]):
            for m in range(MAX_MELDS + 1):
                for p in range(N_PAIR):
                    best = INF
                    for x in range(m + 1):
                        v = np.int64(a[i, x * N_PAIR]) + b[j, (m - x) * N_PAIR + p]
                        if p:
                            v = min(v, np.int64(a[i, x * N_PAIR + p]) + b[j, (m - x) * N_PAIR])
                        best = min(best, v)
                    out[i, j, m * N_PAIR + p] = best
    return out


def _build() -> Merged:
    t = load_tables()
    std, std_ids = distinct_rows(t.std)
    pung, pung_ids = distinct_rows(t.pung)
    hon, honour_ids = distinct_rows(t.honour)
    none = np.full((1, N_COLS), INF, dtype=np.uint8)
    none[0, 0] = 0
    hon = np.vstack([hon, none])
    pairs, vectors, offset = [], [], 0
    for a, b in ((std, std), (std, hon), (pung, pung), (pung, hon)):
        merged = _merge_vectors(a, b)
        distinct, ids = distinct_rows(merged.reshape(-1, N_COLS))
        pairs.append((ids + offset).astype(np.uint16).reshape(len(a), len(b)))
        vectors.append(distinct)
        offset += len(distinct)
    suit_info = (
        std_ids.astype(np.int64)
        | (pung_ids.astype(np.int64) << ID_BITS)
        | (pair_stats(count_digits(SUIT_DIGITS)) << STATS_SHIFT)
    )
    honour_info = honour_ids.astype(np.int64) | (
        pair_stats(count_digits(HONOUR_DIGITS)) << STATS_SHIFT
    )
    return Merged(
        suit_info=suit_info,
        honour_info=honour_info,
        no_honour_info=len(hon) - 1,
        pairs=tuple(pairs),
        vectors=np.vstack(vectors),
    )


_MERGED: Merged | None = None


def load_merged() -> Merged:
    """The merged tables, built once per process from :func:`load_tables` (about 2 s)."""
    global _MERGED
    if _MERGED is None:
        _MERGED = _build()
    return _MERGED
