"""Exact cost of a standard win under shape conditions (RULES.md §4.5 红中, §4.11 东北).

A condition set asks the whole hand (concealed target plus exposed melds) for some of:
a pung or kong (``PUNG``; a 中 pair may stand for it), a chow (``CHOW``), a terminal or
honour tile (``YAO``), and tiles of at least ``min_suits`` suits. Each group (suit or
honours) has a row of :mod:`mjsim.tables.flagged`: the fewest tiles for m melds, p pairs
and *at least* the flags F.

Fast path (:func:`table_cost`, after the merged vectors of the standard family): the
suits' and honours' rows are reduced to ids and merged two by two in advance
(:mod:`mjsim.tables.flagged_merged`): a left pair of two suits and a right pair of the
third suit with the honours, each merged row keeping the flags (at least) and how many of
its suits are non-empty. A hand then costs four id reads, two pair reads and a join of
the two merged rows over the melds split, the pair's side, the wanted flags split
(``F`` on the left, the rest on the right) and the suit count split; the join without
flags is a lower bound (met by three random hands in four), where the splits stop.
Exposed melds give flags and suits, and the suits take their sides so that the left
pair's two are both still to count or both present already. Exact because every target
splits into its groups' parts, each part's flags are covered by some F of its row, and a
suit is present exactly when its part is non-empty. The honour rows allow every honour
kind: where a rule set has fewer (红中: 7z alone), a target group on an absent kind can
move at no more cost to a terminal kind the target leaves free, with the same flags
(the caller drops the 中 pair's pung where there is no 中).

Fallback (:func:`constrained_cost`): a DP over the four groups that tracks (melds, pair,
flags met, suits used) and keeps the cheapest state meeting every condition. It serves
the hands the tables do not: kinds capped by exposed melds (rows computed under the
caps), a 定缺 suit, and hands beyond the merged pairs'
:data:`mjsim.tables.flagged_merged.MAX_TILES` natural tiles.

Wildcards are free tiles on both paths: their kinds count as absent in the rows and the
caller subtracts the wildcards held from the cost.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..tables.flagged import CHOW, N_FLAGS, PUNG, YAO
from ..tables.flagged_merged import MAX_NEED, NO_PAIR, vector_index
from ..tables.suits import INF
from .jit import njit_counted

HAS_PUNG_MELD = 128
HAS_YAO_MELD = 256
#: what :func:`table_cost` returns for a hand beyond the merged pairs
NOT_TABLED = -1


@njit(cache=True)
def make_work():
    """Work buffers: two DP layers, the rows of the four groups, and one group's options."""
    shape = (MAX_NEED + 1, 2, N_FLAGS, 4)
    return (
        np.empty(shape, np.int64),
        np.empty(shape, np.int64),
        np.empty((4, MAX_NEED + 1, 2, N_FLAGS), np.int64),
        np.empty(((MAX_NEED + 1) * 2 * N_FLAGS, 4), np.int64),
    )


@njit(cache=True, inline="always")
def _options(rows, g, need, need_flags, opts):
    """The useful (melds, pair, flags, cost) choices of group ``g``: finite, flags within
    ``need_flags``, and not beaten by a choice with more flags at the same cost (rows are
    "at least" rows, so more flags never cost less). Returns how many."""
    k = 0
    for mg in range(need + 1):
        for pg in range(2):
            for f in range(N_FLAGS):
                if f & ~need_flags:
                    continue
                v = rows[g, mg, pg, f]
                if v >= INF:
                    continue
                free = need_flags & ~f  # flags this choice could still gain
                if (
                    (free & PUNG and rows[g, mg, pg, f | PUNG] == v)
                    or (free & CHOW and rows[g, mg, pg, f | CHOW] == v)
                    or (free & YAO and rows[g, mg, pg, f | YAO] == v)
                ):
                    continue
                opts[k, 0] = mg
                opts[k, 1] = pg
                opts[k, 2] = f
                opts[k, 3] = v
                k += 1
    return k


@njit_counted
def honour_rows(counts, honour_mask, wild_mask, caps, red_pair, need, out):
    """out[m, p, F]: fewest tiles for m honour pungs and p honour pairs with at least F."""
    exact = np.full((MAX_NEED + 1, 2, N_FLAGS), INF, dtype=np.int64)
    exact[0, 0, 0] = 0
    for k in range(7):
        if not honour_mask[k]:
            continue
        kind = 27 + k
        c = 0 if wild_mask[kind] else np.int64(counts[kind])
        pair_flags = YAO | (PUNG if red_pair and kind == 33 else 0)
        pair_cost = max(0, 2 - c) if caps[kind] >= 2 else INF
        pung_cost = max(0, 3 - c) if caps[kind] >= 3 else INF
        for m in range(need, -1, -1):
            for p in range(1, -1, -1):
                for f in range(N_FLAGS):
                    best = exact[m, p, f]
                    if p == 1:
                        for g in range(N_FLAGS):
                            if g | pair_flags == f:
                                best = min(best, exact[m, 0, g] + pair_cost)
                    if m >= 1:
                        for g in range(N_FLAGS):
                            if g | PUNG | YAO == f:
                                best = min(best, exact[m - 1, p, g] + pung_cost)
                    exact[m, p, f] = best
    _at_least(exact, need, out)


@njit(cache=True)
def _at_least(exact, need, out):
    """out[m, p, F] = the cheapest entry of ``exact`` whose flags include F."""
    for m in range(need + 1):
        for p in range(2):
            for f in range(N_FLAGS):
                best = INF
                for g in range(N_FLAGS):
                    if g & f == f:
                        best = min(best, exact[m, p, g])
                out[m, p, f] = best


@njit_counted
def _suit_rows_capped(counts, wild_mask, caps, g, need, out):
    """A suit's flagged row computed directly under per-kind caps (copies in exposed
    melds): DP over the ranks with (chows begun one and two ranks back, melds, pair,
    flags) as the state."""
    dp = np.full((5, 5, MAX_NEED + 1, 2, N_FLAGS), INF, dtype=np.int64)
    nd = np.empty_like(dp)
    dp[0, 0, 0, 0, 0] = 0
    for r in range(9):
        k = 9 * g + r
        have = 0 if wild_mask[k] else np.int64(counts[k])
        yao = YAO if r == 0 or r == 8 else 0
        nd[:] = INF
        for c1 in range(5):
            for c2 in range(5):
                for m in range(need + 1):
                    for p in range(2):
                        for f in range(N_FLAGS):
                            v = dp[c1, c2, m, p, f]
                            if v >= INF:
                                continue
                            for new in range(5 if r < 7 else 1):
                                for pung in range(2):
                                    for pr in range(2 - p):
                                        mm = m + new + pung
                                        t = c1 + c2 + new + 3 * pung + 2 * pr
                                        if mm > need or t > caps[k]:
                                            continue
                                        f2 = f
                                        if new:
                                            f2 |= CHOW | (YAO if r == 0 or r == 6 else 0)
                                        if pung:
                                            f2 |= PUNG | yao
                                        if pr:
                                            f2 |= yao
                                        cost = v + max(t - have, 0)
                                        if cost < nd[new, c1, mm, p + pr, f2]:
                                            nd[new, c1, mm, p + pr, f2] = cost
        dp[:] = nd
    _at_least(dp[0, 0], need, out)


@njit(cache=True, inline="always")
def _exposed_flags(meld_flags):
    """The flags (``PUNG | CHOW | YAO``) the exposed melds give, and how many suits."""
    have = 0
    if meld_flags & HAS_PUNG_MELD:
        have |= PUNG
    if meld_flags & 1:  # a chow among the exposed melds
        have |= CHOW
    if meld_flags & HAS_YAO_MELD:
        have |= YAO
    n_suits = 0
    for s in range(3):
        n_suits += (meld_flags >> (2 + s)) & 1  # the kernel's SUIT_M, SUIT_P, SUIT_S bits
    return have, n_suits


@njit(cache=True, inline="always")
def _join(left, right, left_count, right_count, left_flags, right_flags, need):
    """The cheapest split of ``need`` melds and the pair between a left and a right merged
    row, each part with at least its flags and its count of non-empty suits: lane x of the
    left block (m melds, p pairs) meets lane x of the right block from (need, 1) on, which
    holds (need - m, 1 - p)."""
    lb = vector_index(max(left_count, 1) - 1, left_flags, 0, 0, False)  # 0: one suit or more
    rb = vector_index(right_count, right_flags, need, 1, True)
    best = INF
    if left_count == 0 and left_flags == 0:  # the left part empty
        best = np.int64(right[rb])
    for m in range(MAX_NEED + 1):  # a fixed bound and a break: LLVM leaves it scalar
        if m > need:
            break
        x = 2 * m
        best = min(
            best,
            np.int64(left[lb + x]) + right[rb + x],
            np.int64(left[lb + x + 1]) + right[rb + x + 1],
        )
    return best


@njit(cache=True)
def table_cost(i_m, i_p, i_s, i_z, meld_flags, need, need_flags, red, min_suits, tabs):
    """Fewest tiles missing for ``need`` melds and a pair meeting the conditions, from the
    groups' base-5 indices (wildcards left out) through the merged tables ``tabs``
    (:class:`mjsim.tables.flagged_merged.FlagTables`); every kind's four copies free.
    :data:`NOT_TABLED` when two groups hold more natural tiles than the tables cover.

    ``need_flags`` is a set of ``PUNG | CHOW | YAO``, ``red`` (0/1) whether a 中 pair
    stands for a pung, ``meld_flags`` the exposed melds' kernel bits.
    """
    if need > MAX_NEED:
        return INF
    have, n_exposed = _exposed_flags(meld_flags)
    want = need_flags & ~have
    wanted_suits = max(min_suits - n_exposed, 0)
    # the right pair's suit: the exposed one, or the unexposed one when two are exposed,
    # so that the left pair's two suits are both counted or both not
    right = 2
    for s in range(3):
        exposed = (meld_flags >> (2 + s)) & 1
        if (n_exposed == 1 and exposed) or (n_exposed == 2 and not exposed):
            right = s
    left_countable = 2 if n_exposed <= 1 else 0  # the suits each pair can count
    right_countable = min(1 if n_exposed % 2 == 0 else 0, wanted_suits)
    i_a = i_m if right != 0 else i_s
    i_b = i_p if right != 1 else i_s
    i_c = i_m if right == 0 else i_p if right == 1 else i_s
    a = np.int64(tabs.suit_ids[i_a])
    b = np.int64(tabs.suit_ids[i_b])
    a, b = min(a, b), max(a, b)
    if b >= tabs.left_stop[a]:
        return NOT_TABLED
    right_id = tabs.right_pairs[tabs.honour_ids[red, i_z], tabs.suit_ids[i_c]]
    if right_id == NO_PAIR:
        return NOT_TABLED
    lv = tabs.left_vectors[tabs.left_pairs[tabs.left_start[a] + b - a]]
    rv = tabs.right_vectors[right_id]
    # the suits wanted split between the pairs (at most two ways). A first pass joins
    # without the flags: a lower bound, which most hands meet; the second splits the
    # flags wanted between the pairs (all on the left, the subsets, none) until it meets it
    bound = INF
    for flagged in range(2):
        best = INF
        for right_count in range(right_countable + 1):
            left_count = wanted_suits - right_count
            if left_count > left_countable:
                continue
            flags = want if flagged else 0
            while True:
                best = min(
                    best,
                    _join(
                        lv,
                        rv,
                        left_count,
                        right_count,
                        flags,
                        want & ~flags if flagged else 0,
                        need,
                    ),
                )
                if flagged and best <= bound:
                    return best
                if flags == 0:
                    break
                flags = (flags - 1) & want
        if want == 0 or best >= INF:
            break
        bound = best
    return min(best, INF)


@njit_counted
def constrained_cost(
    counts,
    wild_mask,
    honour_mask,
    caps,
    capped,
    meld_flags,
    need,
    need_flags,
    red_pair,
    min_suits,
    suit_ids,
    suit_rows,
    work,
):
    """Fewest non-wild tiles missing for ``need`` melds and a pair meeting the conditions,
    by the group DP (see the module docstring).

    ``need_flags`` is a set of ``PUNG | CHOW | YAO``; ``meld_flags`` the exposed melds'
    kernel bits; a suit vector's flagged row is ``suit_rows[suit_ids[index]]``, or with
    ``capped`` it is computed under ``caps``.
    """
    if need < 0 or need > MAX_NEED:
        return INF
    cur, nxt, rows, opts = work
    for g in range(3):
        if capped:
            _suit_rows_capped(counts, wild_mask, caps, g, need, rows[g])
            continue
        x = 0
        for k in range(9 * g + 8, 9 * g - 1, -1):
            x = x * 5 + (0 if wild_mask[k] else np.int64(counts[k]))
        row = suit_rows[suit_ids[x]]
        for m in range(need + 1):
            for p in range(2):
                for f in range(N_FLAGS):
                    rows[g, m, p, f] = row[(m * 2 + p) * N_FLAGS + f]
    honour_rows(counts, honour_mask, wild_mask, caps, red_pair, need, rows[3])
    have, n_suits = _exposed_flags(meld_flags)
    have &= need_flags
    suits_exposed = (meld_flags >> 2) & 7
    # lb[g, m, p]: the fewest tiles groups g.. need for m melds and p pairs, conditions
    # aside — a lower bound that lets the DP below drop hopeless states
    lb = np.full((5, need + 1, 2), INF, dtype=np.int64)
    lb[4, 0, 0] = 0
    for g in range(3, -1, -1):
        for m in range(need + 1):
            for p in range(2):
                best = INF
                for mg in range(m + 1):
                    for pg in range(p + 1):
                        best = min(best, rows[g, mg, pg, 0] + lb[g + 1, m - mg, p - pg])
                lb[g, m, p] = best
    start_suits = min(n_suits, min_suits)  # suits are counted up to what is needed
    bound = lb[0, need, 1]
    while bound <= 3 * need + 2:  # no target misses more tiles than it has
        cur.fill(INF)
        cur[0, 0, have, start_suits] = 0
        for g in range(4):
            nxt.fill(INF)
            adds_suit = g < 3 and not (suits_exposed >> g & 1)
            n_opts = _options(rows, g, need, need_flags, opts)
            for m in range(need + 1):
                for p in range(2):
                    for r in range(N_FLAGS):
                        for s in range(min_suits + 1):
                            base = cur[m, p, r, s]
                            if base >= INF:
                                continue
                            for o in range(n_opts):
                                m2 = m + opts[o, 0]
                                p2 = p + opts[o, 1]
                                if m2 > need or p2 > 1:
                                    continue
                                v = base + opts[o, 3]
                                if v + lb[g + 1, need - m2, 1 - p2] > bound:
                                    continue
                                s2 = s
                                if adds_suit and m2 + p2 > m + p:
                                    s2 = min(s + 1, min_suits)
                                r2 = r | opts[o, 2]
                                if v < nxt[m2, p2, r2, s2]:
                                    nxt[m2, p2, r2, s2] = v
            cur, nxt = nxt, cur
        if cur[need, 1, need_flags, min_suits] <= bound:
            return cur[need, 1, need_flags, min_suits]
        bound += 1
    return INF
