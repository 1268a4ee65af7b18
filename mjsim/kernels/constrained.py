"""Exact cost of a standard win under shape conditions (RULES.md §4.5 红中, §4.11 东北).

A condition set asks the whole hand (concealed target plus exposed melds) for some of:
a pung or kong (``PUNG``; a 中 pair may stand for it), a chow (``CHOW``), a terminal or
honour tile (``YAO``), and tiles of at least ``min_suits`` suits. Each suit contributes a
row of :mod:`mjsim.tables.flagged` (fewest tiles for m melds, p pairs and *at least*
flags F); the honours get the same row from a small DP over their kinds. A DP over the
four groups then tracks (melds, pair, flags met, suits used) and keeps the cheapest
state that meets every condition. Exact because every target splits into its groups'
parts and each part's flags are covered by some F of its row.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..tables.flagged import CHOW, N_FLAGS, PUNG, YAO
from ..tables.suits import INF
from .jit import njit_counted

MAX_NEED = 4
HAS_PUNG_MELD = 128
HAS_YAO_MELD = 256


@njit(cache=True)
def make_work():
    """Work buffers: two DP layers, the rows of the four groups, and one group's options."""
    shape = (MAX_NEED + 1, 2, N_FLAGS, 4)
    return (np.empty(shape, np.int64), np.empty(shape, np.int64),
            np.empty((4, MAX_NEED + 1, 2, N_FLAGS), np.int64),
            np.empty(((MAX_NEED + 1) * 2 * N_FLAGS, 4), np.int64))


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
                if ((free & PUNG and rows[g, mg, pg, f | PUNG] == v)
                        or (free & CHOW and rows[g, mg, pg, f | CHOW] == v)
                        or (free & YAO and rows[g, mg, pg, f | YAO] == v)):
                    continue
                opts[k, 0] = mg
                opts[k, 1] = pg
                opts[k, 2] = f
                opts[k, 3] = v
                k += 1
    return k


@njit_counted
def _honour_rows(counts, honour_mask, wild_mask, caps, red_pair, need, out):
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


@njit_counted
def constrained_cost(counts, wild_mask, honour_mask, caps, capped, meld_flags, suits_exposed,
                     need, need_flags, red_pair, min_suits, flag_tab, work):
    """Fewest non-wild tiles missing for ``need`` melds and a pair meeting the conditions.

    ``need_flags`` is a set of ``PUNG | CHOW | YAO``; ``suits_exposed`` the suit bits
    (1, 2, 4 for m, p, s) of the exposed melds; ``meld_flags`` their kernel bits; with
    ``capped`` the suit rows are computed under ``caps`` instead of read from the table.
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
        for m in range(need + 1):
            for p in range(2):
                for f in range(N_FLAGS):
                    rows[g, m, p, f] = flag_tab[x, (m * 2 + p) * N_FLAGS + f]
    _honour_rows(counts, honour_mask, wild_mask, caps, red_pair, need, rows[3])
    have = 0
    if meld_flags & HAS_PUNG_MELD:
        have |= PUNG
    if meld_flags & 1:  # a chow among the exposed melds
        have |= CHOW
    if meld_flags & HAS_YAO_MELD:
        have |= YAO
    have &= need_flags
    n_suits = 0
    for s in range(3):
        if suits_exposed >> s & 1:
            n_suits += 1
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
