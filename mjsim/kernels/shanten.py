"""Exact shanten kernels for every winning family, on ``uint8[34]`` counts.

Method: a hand's *cost* for a family is the fewest tiles missing from the nearest winning
hand of that family (all counts ≤ 4); shanten = cost − 1 for hands of 13/14 (16/17) tiles,
so −1 is a win and 0 is ready. Regular families combine the per-suit distance rows of
:mod:`mjsim.tables.suits` by min-plus over the four groups (m, p, s, honours), as in the
table-driven riichi calculators (tomohxx; Mortal ``algo/shanten``); irregular families
(seven / eight pairs, all-258, all-honours) are greedy counts proven optimal in
``tests/test_shanten.py`` against brute force. Held wildcards are free tiles: they are
removed from the counts and subtracted from the cost. Deviation from block counting:
nothing here is a formula; a fifth copy can never be waited on.

Per-hand inputs beside the counts: ``n_melds`` exposed melds (the concealed part then
needs ``melds - n_melds`` melds and a pair), ``meld_flags`` (bits below: what the exposed
melds rule out; 0 means compatible with every family) and ``void`` (定缺 suit, −1 for
free choice, −2 for none).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..tables.flagged_merged import FlagTables
from ..tables.merged import ID_BITS, ID_MASK, STATS_SHIFT
from ..tables.suits import INF, MAX_MELDS, N_COLS, N_PAIR
from . import constrained
from .callref import address_for, call_as_given
from .jit import njit_borrowed, njit_counted

# family forms (column 0 of a family row)
(
    STANDARD,
    SEVEN_PAIRS,
    ONE_SUIT,
    ALL_PUNGS,
    ALL_258,
    ALL_HONOURS,
    EIGHT_PAIRS,
    MIXED_ONE_SUIT,
    QUANQIUREN,
    CONSTRAINED,
) = range(10)
FORMS = {
    "standard": STANDARD,
    "seven_pairs": SEVEN_PAIRS,
    "one_suit": ONE_SUIT,
    "all_pungs": ALL_PUNGS,
    "all_258": ALL_258,
    "all_honours": ALL_HONOURS,
    "eight_pairs": EIGHT_PAIRS,
    "mixed_one_suit": MIXED_ONE_SUIT,
    "quanqiuren": QUANQIUREN,
}
#: columns of a family row: form, pair type, a form flag (quads for the pair forms, any
#: arrangement for all_honours), then for CONSTRAINED the condition
#: flags (mjsim.tables.flagged PUNG | CHOW | YAO), 中 pair as pung, and minimum suits
FAMILY_COLUMNS = 6
PAIR_ANY, PAIR_258 = 1, 2

# meld_flags bits: what the exposed melds contain
HAS_CHOW = 1
HAS_NON258 = 2
SUIT_M, SUIT_P, SUIT_S, SUIT_Z = 4, 8, 16, 32
HAS_CONCEALED_KONG = 64
HAS_PUNG_MELD = constrained.HAS_PUNG_MELD
HAS_YAO_MELD = constrained.HAS_YAO_MELD

#: meld types of a meld row ``(first kind, type, …)``
MELD_TYPES = ("chow", "pung", "kong", "concealed_kong")
MELD_CHOW, MELD_PUNG, MELD_KONG, MELD_CKONG = range(len(MELD_TYPES))

#: returned when no hand of the family can be reached (e.g. 全求人 without four melds)
IMPOSSIBLE = 99
#: the standard tables at the head of ``tabs`` (see :func:`hand_cost_inline`)
N_MERGED = 10

_SUIT_BITS = (SUIT_M, SUIT_P, SUIT_S)


@njit_borrowed
def meld_flags(melds, n, ckong_is_exposed):
    """The ``meld_flags`` bits of the first ``n`` meld rows ``(first kind, MELD_*, …)``
    (``ckong_is_exposed``: a concealed kong does not break 全求人).

    >>> int(meld_flags(np.array([[0, MELD_CHOW], [31, MELD_PUNG]]), 2, 0)) == (
    ...     HAS_CHOW | HAS_NON258 | SUIT_M | SUIT_Z | HAS_PUNG_MELD | HAS_YAO_MELD)
    True
    """
    flags = 0
    for i in range(n):
        kind, mtype = melds[i, 0], melds[i, 1]
        if mtype == MELD_CHOW:
            flags |= HAS_CHOW
            flags |= HAS_NON258
        else:
            flags |= HAS_PUNG_MELD
            if kind >= 27 or kind % 9 not in (1, 4, 7):
                flags |= HAS_NON258
        if mtype == MELD_CKONG and not ckong_is_exposed:
            flags |= HAS_CONCEALED_KONG
        flags |= (SUIT_M, SUIT_P, SUIT_S, SUIT_Z)[kind // 9]
        first = kind % 9
        if kind >= 27 or first == 0 or first == 8 or (mtype == MELD_CHOW and first == 6):
            flags |= HAS_YAO_MELD
    return flags


@njit(cache=True, inline="always")
def _base5(counts, wild_mask, first, last):
    """Base-5 index of kinds ``first``..``last`` (wildcards count as absent) and the
    wildcards among them."""
    x = 0
    wild = 0
    for k in range(last, first - 1, -1):
        c = np.int64(counts[k])
        w = c * wild_mask[k]  # branch-free: most hands hold no wildcard kind
        wild += w
        x = x * 5 + (c - w)
    return x, wild


@njit(cache=True, inline="always")
def _group_indices(counts, wild_mask):
    """Row indices of the suits m, p, s and the honours, and the wildcards held."""
    i0, w0 = _base5(counts, wild_mask, 0, 8)
    i1, w1 = _base5(counts, wild_mask, 9, 17)
    i2, w2 = _base5(counts, wild_mask, 18, 26)
    i3, w3 = _base5(counts, wild_mask, 27, 33)
    return i0, i1, i2, i3, w0 + w1 + w2 + w3


@njit_counted
def honour_row(counts, honour_mask, wild_mask, caps, out):
    """Costs of the honour group (pungs and pairs only) when only some honours exist or
    some kinds are capped below four; wildcard kinds count as empty."""
    # dp[m, p] over honour kinds: each kind takes nothing, a pair or a pung (not both: 5 > 4)
    dp = np.full((6, 2), INF, dtype=np.int64)
    dp[0, 0] = 0
    for k in range(7):
        if not honour_mask[k]:
            continue
        c = 0 if wild_mask[27 + k] else np.int64(counts[27 + k])
        pair_cost = max(0, 2 - c) if caps[27 + k] >= 2 else INF
        pung_cost = max(0, 3 - c) if caps[27 + k] >= 3 else INF
        for m in range(5, -1, -1):
            for p in range(1, -1, -1):
                best = dp[m, p]
                if p == 1:
                    best = min(best, dp[m, 0] + pair_cost)
                if m >= 1:
                    best = min(best, dp[m - 1, p] + pung_cost)
                dp[m, p] = best
    for m in range(6):
        out[m * N_PAIR] = min(dp[m, 0], INF)
        out[m * N_PAIR + 1] = min(dp[m, 1], INF)
        out[m * N_PAIR + 2] = INF


@njit_counted
def _suit_row_capped(counts, wild_mask, caps, g, chows, out):
    """A suit's row computed directly, with per-kind caps (copies in exposed melds).

    DP over the ranks; the state is (chows begun one and two ranks back, melds, pair:
    none / not 258 / 258), and each rank chooses new chows, a pung and the pair.
    """
    dp = np.full((5, 5, MAX_MELDS + 1, 3), INF, dtype=np.int64)
    nd = np.empty_like(dp)
    dp[0, 0, 0, 0] = 0
    for r in range(9):
        k = 9 * g + r
        have = 0 if wild_mask[k] else np.int64(counts[k])
        nd[:] = INF
        max_new = 4 if chows and r < 7 else 0
        for c1 in range(5):
            for c2 in range(5):
                for m in range(MAX_MELDS + 1):
                    for p in range(3):
                        v = dp[c1, c2, m, p]
                        if v >= INF:
                            continue
                        for new in range(max_new + 1):
                            for pung in range(2):
                                for pr in range(2 if p == 0 else 1):
                                    mm = m + new + pung
                                    t = c1 + c2 + new + 3 * pung + 2 * pr
                                    if mm > MAX_MELDS or t > caps[k]:
                                        continue
                                    p2 = p if pr == 0 else (2 if r % 3 == 1 else 1)
                                    cost = v + max(t - have, 0)
                                    if cost < nd[new, c1, mm, p2]:
                                        nd[new, c1, mm, p2] = cost
        dp[:] = nd
    for m in range(MAX_MELDS + 1):
        out[m * N_PAIR] = min(dp[0, 0, m, 0], INF)
        out[m * N_PAIR + 1] = min(dp[0, 0, m, 1], dp[0, 0, m, 2], INF)
        out[m * N_PAIR + 2] = min(dp[0, 0, m, 2], INF)


@njit(cache=True, inline="always")
def _fill_rows(counts, wild_mask, tab, hon_tab, honour_mask, full_honours, caps, capped, rows, t):
    """Copy the four groups' rows of ``tab`` into ``rows[t]`` (``t`` = 1: the all-pung
    table); with ``capped`` they are computed under ``caps`` instead."""
    for g in range(3):
        if capped:
            _suit_row_capped(counts, wild_mask, caps, g, t == 0, rows[t, g])
            continue
        idx, _ = _base5(counts, wild_mask, 9 * g, 9 * g + 8)
        for col in range(N_COLS):
            rows[t, g, col] = tab[idx, col]
    if full_honours and not capped:
        idx, _ = _base5(counts, wild_mask, 27, 33)
        for col in range(N_COLS):
            rows[t, 3, col] = hon_tab[idx, col]
    else:
        honour_row(counts, honour_mask, wild_mask, caps, rows[t, 3])


@njit(cache=True, inline="always")
def _merge(rows, t, need, pair, allowed, nonempty, left, right):
    """Min-plus over the four group rows: ``need`` melds and one pair of type ``pair``.

    ``allowed`` and ``nonempty`` are bit sets over the groups (m, p, s, honours): a barred
    group offers only the empty target, a nonempty one must take part.
    """
    for half in range(2):
        out = left if half == 0 else right
        ga = 2 * half
        gb = ga + 1
        for m in range(need + 1):
            best0 = INF
            best1 = INF
            for m1 in range(m + 1):
                m2 = m - m1
                a0 = _entry(rows, t, ga, m1, 0, allowed, nonempty)
                a1 = _entry(rows, t, ga, m1, pair, allowed, nonempty)
                b0 = _entry(rows, t, gb, m2, 0, allowed, nonempty)
                b1 = _entry(rows, t, gb, m2, pair, allowed, nonempty)
                best0 = min(best0, a0 + b0)
                best1 = min(best1, a1 + b0, a0 + b1)
            out[m, 0] = best0
            out[m, 1] = best1
    best = INF
    for m in range(need + 1):
        best = min(best, left[m, 0] + right[need - m, 1], left[m, 1] + right[need - m, 0])
    return best


@njit(cache=True, inline="always")
def _entry(rows, t, g, m, p, allowed, nonempty):
    if not (allowed >> g) & 1:
        return 0 if m == 0 and p == 0 else INF
    if m == 0 and p == 0:
        return INF if (nonempty >> g) & 1 else 0
    return rows[t, g, m * N_PAIR + p]


@njit(cache=True, inline="always")
def _pairs_cost(counts, wild_mask, kind_mask, void, n_pairs, quads, single):
    """Cost of ``n_pairs`` pairs (and one free ``single`` tile, for 八对) over allowed kinds."""
    stats = 0
    for k in range(34):
        if kind_mask[k] and not wild_mask[k] and k // 9 != void:
            c = counts[k]
            stats += (
                np.int64(c == 1)
                + (np.int64(c >= 2) << 8)
                + (np.int64(c == 3) << 16)
                + (np.int64(c == 4) << 24)
            )
    return _pairs_from_stats(stats, n_pairs, quads, single)


@njit(cache=True, inline="always")
def _pairs_from_stats(stats, n_pairs, quads, single):
    """:func:`_pairs_cost` from the allowed kinds' :func:`mjsim.tables.merged.pair_stats`.

    Each kind offers pair slots (two with ``quads``, when four of a kind are two pairs);
    a slot gains the tiles it covers (2, 1 or 0) and gains shrink along a kind, so taking
    the largest gains first is optimal.
    """
    ones = stats & 255
    twos = (stats >> 8) & 255
    threes = (stats >> 16) & 255
    fours = (stats >> 24) & 255
    total = ones + 2 * twos + threes + 2 * fours
    if quads:
        ones += threes
        twos += fours
    take2 = min(twos, n_pairs)
    overlap = 2 * take2 + min(ones, n_pairs - take2)
    size = 2 * n_pairs
    if single:
        size += 1
        if total > overlap:
            overlap += 1
    return size - overlap


@njit(cache=True, inline="always")
def _only_cost(counts, wild_mask, kind_mask, form, size):
    """Cost of a target made only of 258 tiles (将一色) or honours (风一色), any arrangement."""
    have = 0
    for k in range(34):
        if not kind_mask[k] or wild_mask[k]:
            continue
        if (form == ALL_258 and k < 27 and k % 9 in (1, 4, 7)) or (form == ALL_HONOURS and k >= 27):
            have += counts[k]
    return size - min(have, size)


@njit(cache=True)
def _cost(
    counts,
    n_melds,
    meld_flags,
    void,
    family,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    caps,
    capped,
    rows,
    left,
    right,
    flag_tabs,
    cwork,
):
    """Fewest non-wild tiles missing for one family (``INF`` when out of reach).

    ``rows[0]`` must hold the group rows of the chow-and-pung table and, for 碰碰胡,
    ``rows[1]`` those of the all-pung table (:func:`_fill_rows`).
    """
    form, pair, quads = family[0], family[1], family[2]
    need = melds - n_melds
    if need < 0 or (void >= 0 and meld_flags & _SUIT_BITS[void]):
        return INF
    if form == CONSTRAINED:
        return constrained.constrained_cost(
            counts,
            wild_mask,
            honour_mask,
            caps,
            capped,
            meld_flags,
            need,
            family[3],
            family[4],
            family[5],
            flag_tabs.suit_ids,
            flag_tabs.suit_rows,
            cwork,
        )
    if form == SEVEN_PAIRS or form == EIGHT_PAIRS:
        if n_melds > 0:
            return INF
        return _pairs_cost(
            counts,
            wild_mask,
            kind_mask,
            void,
            7 if form == SEVEN_PAIRS else 8,
            quads,
            form == EIGHT_PAIRS,
        )
    if form == ALL_258 or form == ALL_HONOURS:
        if form == ALL_258 and meld_flags & HAS_NON258:
            return INF
        if form == ALL_HONOURS and meld_flags & (SUIT_M | SUIT_P | SUIT_S):
            return INF
        if quads or form == ALL_258:  # column 2 of all_honours: any arrangement (乱风)
            return _only_cost(counts, wild_mask, kind_mask, form, 3 * need + 2)
        return _merge(rows, 0, need, pair, 8, 0, left, right)
    if form == QUANQIUREN and (n_melds != melds or meld_flags & HAS_CONCEALED_KONG):
        return INF
    if form == ALL_PUNGS and meld_flags & HAS_CHOW:
        return INF
    t = 1 if form == ALL_PUNGS else 0
    allowed = 7 | (8 if honour_mask.any() else 0)
    if void >= 0:
        allowed &= ~(1 << void)
    if form != ONE_SUIT and form != MIXED_ONE_SUIT:
        return _merge(rows, t, need, pair, allowed, 0, left, right)
    suits = meld_flags & (SUIT_M | SUIT_P | SUIT_S | SUIT_Z)
    best = INF
    for s in range(3):
        if not (allowed >> s) & 1 or suits & ~(_SUIT_BITS[s] | SUIT_Z):
            continue
        if form == ONE_SUIT and suits & SUIT_Z:
            continue
        only = 1 << s
        nonempty = 0
        if form == MIXED_ONE_SUIT:
            only |= allowed & 8
            nonempty = 0 if suits & SUIT_Z else 8
        best = min(best, _merge(rows, t, need, pair, only, nonempty, left, right))
    return best


@njit(cache=True, inline="always")
def _merge_ids(left_pairs, right_pairs, vecs, a, b, c, h, need, pair):
    """:func:`_merge` over all four groups through :mod:`mjsim.tables.merged`: the merged
    vectors of (m + p) and (s + honours), from the groups' vector ids ``a, b, c, h``,
    joined on ``need`` melds and one pair."""
    left = left_pairs[a, b]
    right = right_pairs[c, h]
    best = INF
    for m in range(need + 1):
        best = min(
            best,
            np.int64(vecs[left, m * N_PAIR]) + vecs[right, (need - m) * N_PAIR + pair],
            np.int64(vecs[left, m * N_PAIR + pair]) + vecs[right, (need - m) * N_PAIR],
        )
    return best


@njit(cache=True, inline="always")
def _suit_and_honours(tab, hon, i_suit, i_hon, need, pair):
    """混一色: one suit plus a nonempty honour part, ``need`` melds and a pair."""
    best = INF
    for mh in range(need + 1):
        ms = need - mh
        suit0 = np.int64(tab[i_suit, ms * N_PAIR])
        suitp = np.int64(tab[i_suit, ms * N_PAIR + pair])
        if mh > 0:
            best = min(
                best, suit0 + hon[i_hon, mh * N_PAIR + pair], suitp + hon[i_hon, mh * N_PAIR]
            )
        else:
            best = min(best, suit0 + hon[i_hon, pair])  # the honours hold just the pair
    return best


@njit(cache=True, inline="always")
def hand_cost_inline(
    counts,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    caps,
    tabs,
    rows,
    left,
    right,
    cwork,
    per_family,
):
    """Fewest tiles missing over ``families`` (rows of ``FAMILY_COLUMNS``), wildcards free.

    ``tabs`` is the chow-and-pung, all-pung and honour tables, the suit row infos, honour
    row infos, the four pair merges and the merged vectors of :mod:`mjsim.tables.merged`
    (:data:`N_MERGED` arrays), then the arrays of the shape conditions'
    :class:`mjsim.tables.flagged_merged.FlagTables` (one flat tuple: numba's parallel
    loops do not take nested ones); when the rule set has no honours the honour table is the
    one-row :func:`no_honours` table and the honour infos the one word of that row. ``caps`` are
    the copies of each kind the concealed part may still hold (4 minus those in exposed
    melds). Common families read the tables directly; the rest, and capped hands, go
    through :func:`_cost` on copied or computed rows. Each family's own cost is left in
    ``per_family``.
    """
    std_tab, pung_tab, hon_tab, suit_info, hon_info, ss, sh, pp, ph, vecs = tabs[:N_MERGED]
    flag_tabs = FlagTables(*tabs[N_MERGED:])
    i0, i1, i2, i3, wild = _group_indices(counts, wild_mask)
    if hon_info.shape[0] == 1:  # no honours: the one row of the empty target
        i3 = 0
    lowest_cap = 4
    for k in range(34):
        lowest_cap = min(lowest_cap, caps[k])
    capped = lowest_cap < 4
    # table paths: all four copies free, and no void suit or a given one. A rule set with
    # only some honour kinds may still read the full honour table: a target group on an
    # absent honour kind (cost 3 or 2) can always move to a suit kind the target leaves
    # free, at no more cost; under shape conditions a terminal kind, with the same flags (a
    # target's five groups touch at most five of the six terminal kinds). A given void suit
    # reads as an empty suit, by the same argument (its tiles are surplus; two other suits
    # have a kind free for any group it would take)
    fast = void != -1 and not capped
    simple = fast and void == -2
    blocked = melds - n_melds < 0 or (void >= 0 and (meld_flags & _SUIT_BITS[max(void, 0)]) != 0)
    i0 = i0 * (void != 0)
    i1 = i1 * (void != 1)
    i2 = i2 * (void != 2)
    # one info word per group: vector ids and pair statistics (mjsim.tables.merged); the
    # hand holds no tile outside the rule set's kinds, so the statistics of the four groups
    # are those of the allowed kinds. (Read unconditionally: names bound in a branch are
    # miscompiled once this body is inlined into a parallel batch driver.)
    w_m, w_p, w_s, w_z = suit_info[i0], suit_info[i1], suit_info[i2], hon_info[i3]
    stats = (
        (w_m >> STATS_SHIFT) + (w_p >> STATS_SHIFT) + (w_s >> STATS_SHIFT) + (w_z >> STATS_SHIFT)
    )
    need = melds - n_melds
    best = INF
    rows_ready = False
    first, last = (0, 2) if void == -1 else (void, void)
    for f in range(families.shape[0]):
        form = families[f, 0]
        pair = families[f, 1]
        cost = INF
        tabled = constrained.NOT_TABLED
        red = families[f, 4] * np.int64(honour_mask[6])  # a 中 pair as a pung needs 中
        if simple and form == CONSTRAINED and not blocked:
            tabled = constrained.table_cost(
                i0,
                i1,
                i2,
                np.int64(i3),
                meld_flags,
                need,
                families[f, 3],
                red,
                families[f, 5],
                flag_tabs,
            )
        if blocked:
            pass
        elif tabled != constrained.NOT_TABLED:
            cost = tabled
        elif fast and form == STANDARD:
            cost = _merge_ids(
                ss, sh, vecs, w_m & ID_MASK, w_p & ID_MASK, w_s & ID_MASK, w_z & ID_MASK, need, pair
            )
        elif fast and form == ALL_PUNGS and not meld_flags & HAS_CHOW:
            cost = _merge_ids(
                pp,
                ph,
                vecs,
                (w_m >> ID_BITS) & ID_MASK,
                (w_p >> ID_BITS) & ID_MASK,
                (w_s >> ID_BITS) & ID_MASK,
                w_z & ID_MASK,
                need,
                pair,
            )
        elif fast and form == SEVEN_PAIRS:
            if n_melds == 0:
                cost = _pairs_from_stats(stats, 7, families[f, 2], False)
        elif fast and form == ONE_SUIT:
            # one suit s: its row alone, where the exposed melds are all of suit s
            col = need * N_PAIR + pair
            suits = meld_flags & (SUIT_M | SUIT_P | SUIT_S | SUIT_Z)
            if not suits & ~SUIT_M and void != 0:
                cost = min(cost, std_tab[i0, col])
            if not suits & ~SUIT_P and void != 1:
                cost = min(cost, std_tab[i1, col])
            if not suits & ~SUIT_S and void != 2:
                cost = min(cost, std_tab[i2, col])
        elif fast and form == EIGHT_PAIRS:
            if n_melds == 0:
                cost = _pairs_from_stats(stats, 8, families[f, 2], True)
        elif simple and form == ALL_258:
            if not meld_flags & HAS_NON258:
                cost = _only_cost(counts, wild_mask, kind_mask, form, 3 * need + 2)
        elif simple and form == ALL_HONOURS and families[f, 2]:
            if not meld_flags & (SUIT_M | SUIT_P | SUIT_S):
                cost = _only_cost(counts, wild_mask, kind_mask, form, 3 * need + 2)
        elif fast and form == QUANQIUREN:
            # every meld exposed: the concealed part is the pair alone
            if n_melds == melds and not meld_flags & HAS_CONCEALED_KONG:
                cost = _merge_ids(
                    ss,
                    sh,
                    vecs,
                    w_m & ID_MASK,
                    w_p & ID_MASK,
                    w_s & ID_MASK,
                    w_z & ID_MASK,
                    0,
                    pair,
                )
        elif simple and form == MIXED_ONE_SUIT and honour_mask.all():
            # one suit s and honours: exposed melds all of suit s or honours; the concealed
            # honours may be empty only where an exposed meld is an honour one
            suits = meld_flags & (SUIT_M | SUIT_P | SUIT_S | SUIT_Z)
            for s in range(3):
                if suits & ~(_SUIT_BITS[s] | SUIT_Z):
                    continue
                i_s = i0 if s == 0 else i1 if s == 1 else i2
                c = _suit_and_honours(std_tab, hon_tab, i_s, i3, need, pair)
                if suits & SUIT_Z:
                    c = min(c, np.int64(std_tab[i_s, need * N_PAIR + pair]))
                cost = min(cost, c)
        elif form == QUANQIUREN and n_melds != melds:
            pass
        elif form != ALL_PUNGS or not meld_flags & HAS_CHOW:
            if not rows_ready:
                full = honour_mask.all()
                _fill_rows(
                    counts, wild_mask, std_tab, hon_tab, honour_mask, full, caps, capped, rows, 0
                )
                _fill_rows(
                    counts, wild_mask, pung_tab, hon_tab, honour_mask, full, caps, capped, rows, 1
                )
                rows_ready = True
            for v in range(first, last + 1):
                cost = min(
                    cost,
                    _cost(
                        counts,
                        n_melds,
                        meld_flags,
                        v,
                        families[f],
                        melds,
                        kind_mask,
                        honour_mask,
                        wild_mask,
                        caps,
                        capped,
                        rows,
                        left,
                        right,
                        flag_tabs,
                        cwork,
                    ),
                )
        cost = INF if cost >= INF else max(cost - wild, 0)
        per_family[f] = cost
        best = min(best, cost)
    return best


@njit(cache=True, inline="always")
def melds_cost(counts, wild_mask, honour_mask, tabs, need):
    """Fewest non-wild tiles missing for ``counts`` to be ``need`` melds and nothing else (no
    pair), wildcards free: the merged tables' no-pair columns (a cheap read, no family
    loop; every kind's four copies free). 百搭's 吊 test uses it on a hand less its pair.

    >>> from mjsim.evaluate import compile_rules
    >>> from mjsim.notation import parse_hand
    >>> from mjsim.rules import load_rules
    >>> comp = compile_rules(load_rules("generic"))
    >>> no_wild = np.zeros(34, np.bool_)
    >>> [melds_cost(parse_hand(h).counts, no_wild, comp.honour_mask, comp.tables, 2)
    ...  for h in ("123m555z", "123m55z", "12m4p")]
    [0, 1, 3]
    """
    _std_tab, _pung_tab, _hon_tab, suit_info, hon_info, ss, sh, _pp, _ph, vecs = tabs[:N_MERGED]
    i0, i1, i2, i3, wild = _group_indices(counts, wild_mask)
    if hon_info.shape[0] == 1:
        i3 = 0
    cost = _merge_ids(
        ss,
        sh,
        vecs,
        suit_info[i0] & ID_MASK,
        suit_info[i1] & ID_MASK,
        suit_info[i2] & ID_MASK,
        hon_info[i3] & ID_MASK,
        need,
        0,
    )
    return INF if cost >= INF else max(cost - wild, 0)


def no_honours() -> np.ndarray:
    """The honour table of a rule set without honours: one row, only the empty target."""
    row = np.full((1, N_COLS), INF, dtype=np.uint8)
    row[0, 0] = 0
    return row


def make_scratch():
    """Work buffers of one thread: group rows of both tables, two merge tables, and the
    constrained DP's buffers."""
    return (
        np.empty((2, 4, N_COLS), np.int64),
        np.empty((6, 2), np.int64),
        np.empty((6, 2), np.int64),
        constrained.make_work(),
        np.empty(16, np.int64),
    )


@njit_borrowed
def hand_cost(
    counts,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    caps,
    tabs,
    scratch,
):
    """Fewest tiles missing from the nearest win of any family; shanten is this minus one.

    ``void`` is the 定缺 suit (−1 tries every suit, −2 none); ``scratch`` is
    :func:`make_scratch`'s buffers. Returns ``INF`` when no family is in reach. Compiled
    without reference counting: the game engine calls it in its decisions.
    """
    rows, left, right, cwork, per_family = scratch
    return hand_cost_inline(
        counts,
        n_melds,
        meld_flags,
        void,
        families,
        melds,
        kind_mask,
        honour_mask,
        wild_mask,
        caps,
        tabs,
        rows,
        left,
        right,
        cwork,
        per_family,
    )


#: :func:`make_scratch` compiled, for the batch drivers that allocate one set per thread
make_scratch_jit = njit(cache=True)(make_scratch)

CHUNK = 2048
#: the batch result of a row that fails the input check (see :func:`shanten_many`)
BAD_ROW = -128


@njit(cache=True, inline="always")
def row_ok(counts, n_melds, hand_size, kind_mask):
    """Whether every count is 0–4, every tile is of the rule set's kinds, and the tiles
    with the melds' are ``hand_size`` or one more."""
    total = 3 * n_melds
    top = 0
    stray = 0
    for k in range(34):
        c = np.int64(counts[k])
        total += c
        top = max(top, c)
        stray += c * (1 - kind_mask[k])
    return top <= 4 and stray == 0 and (total == hand_size or total == hand_size + 1)


@njit_borrowed
def _shanten_rows(
    lo,
    hi,
    hands,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
    hand_size,
    caps,
    rows,
    left,
    right,
    cwork,
    per_family,
    out,
    per,
):
    """Rows ``lo .. hi - 1`` of :func:`shanten_many` (one thread's chunk), compiled without
    reference counting (:mod:`mjsim.kernels.jit`)."""
    step_m = 1 if n_melds.shape[0] > 1 else 0
    step_f = 1 if meld_flags.shape[0] > 1 else 0
    step_v = 1 if void.shape[0] > 1 else 0
    for i in range(lo, hi):
        nm = n_melds[i * step_m]
        if hand_size > 0 and not row_ok(hands[i], nm, hand_size, kind_mask):
            out[i] = BAD_ROW
            continue
        cost = hand_cost_inline(
            hands[i],
            nm,
            meld_flags[i * step_f],
            void[i * step_v],
            families,
            melds,
            kind_mask,
            honour_mask,
            wild_mask,
            caps,
            tabs,
            rows,
            left,
            right,
            cwork,
            per_family,
        )
        out[i] = IMPOSSIBLE if cost >= INF else cost - 1
        for f in range(per.shape[1]):
            per[i, f] = IMPOSSIBLE if per_family[f] >= INF else per_family[f] - 1


def shanten_many(
    hands,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
    hand_size,
    by_family,
):
    """Batch driver: shanten of each row of ``hands`` (``IMPOSSIBLE`` if out of reach);
    with ``by_family`` also each family's own shanten (int8[N, F]; else int8[N, 0]).

    ``n_melds``, ``meld_flags`` and ``void`` hold one value per row, or one for all rows.
    With ``hand_size`` > 0 a row failing :func:`row_ok` gets :data:`BAD_ROW` instead.
    Rows are taken in chunks so that each thread allocates its work buffers once; the
    threads call the rows' code at its address (:mod:`mjsim.kernels.callref`), so the
    parallel driver is compiled without a copy of the kernel.
    """
    args = (hands, n_melds, meld_flags, void, families, melds, kind_mask, honour_mask)
    args += (wild_mask, tabs, hand_size)
    out, per = np.empty(0, np.int8), np.empty((0, 0), np.int8)
    caps = np.empty(34, np.int64)
    at = address_for(_shanten_rows, (0, 0, *args, caps, *make_scratch(), out, per))
    return _shanten_driver(at, *args, by_family)


@njit(cache=True, parallel=True)
def _shanten_driver(
    rows_at,
    hands,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
    hand_size,
    by_family,
):
    """:func:`shanten_many` on its threads, each chunk of rows by the code at ``rows_at``."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int8)
    per = np.empty((n, families.shape[0] if by_family else 0), dtype=np.int8)
    n_chunks = (n + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        rows, left, right, cwork, per_family = make_scratch_jit()
        caps = np.full(34, 4, dtype=np.int64)  # a batch knows no meld kinds: no caps
        call_as_given(
            rows_at,
            (
                np.int64(chunk * CHUNK),
                np.int64(min(n, (chunk + 1) * CHUNK)),
                hands,
                n_melds,
                meld_flags,
                void,
                families,
                melds,
                kind_mask,
                honour_mask,
                wild_mask,
                tabs,
                hand_size,
                caps,
                rows,
                left,
                right,
                cwork,
                per_family,
                out,
                per,
            ),
        )
    return out, per
