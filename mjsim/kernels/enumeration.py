"""The kernels of the exact deal-time enumeration (:mod:`mjsim.stats.exact_shanten`, which
describes the method): a hash store of int8 state rows with their weights, every vector of
a tile group reduced to its class (:func:`group_classes`), a state merged with a group
(:func:`merge_step`), and the last group joined into counts by cost (:func:`final_counts`).

Weights have the dtype of the arrays given (uint64, wrapping, or float64); every value in a
row is capped at ``U``. The layout of a row (which features, at which offsets) comes from
the driver as small int64 spec arrays whose row kinds are the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..tables.flagged import N_FLAGS
from ..tables.suits import N_COLS, N_PAIR
from . import constrained

# ---- feature kinds of a merged state (rows of the ``feats`` spec) ----
F_ROW, F_MIN, F_MIXED, F_CARRY, F_PAIRS, F_ADD, F_FLAG = range(7)
# ---- signature parts of one group (rows of the ``gspec`` spec) ----
G_ROW, G_ONESUIT, G_ALLHON, G_PAIRS, G_258, G_HON, G_FLAG = range(7)
# ---- cost terms of the final state (rows of the ``cspec`` spec) ----
C_ROW, C_SCALAR, C_PAIRS, C_ADD, C_FLAG = range(5)
SPEC_COLS = 6
HONOUR = 3  # group index of the honours; suits are 0, 1, 2


# --------------------------------------------------------------------------------------
# hash store of int8 rows with weights (the dtype of the weights given: uint64, float64)


@njit(cache=True, inline="always")
def _hash(row, L):
    h = np.uint64(1469598103934665603)
    for i in range(L):
        h = (h ^ np.uint64(np.int64(row[i]) + 128)) * np.uint64(1099511628211)
    return h ^ (h >> np.uint64(29))


@njit(cache=True)
def _rehash(keys, n, L, size):
    table = np.full(size, -1, dtype=np.int64)
    mask = np.uint64(size - 1)
    for i in range(n):
        slot = np.int64(_hash(keys[i], L) & mask)
        while table[slot] >= 0:
            slot = (slot + 1) & (size - 1)
        table[slot] = i
    return table


@njit(cache=True)
def _insert(keys, weights, table, n, row, w, L):
    """Add weight ``w`` to ``row``'s entry (new if absent); returns the arrays and n."""
    size = table.shape[0]
    slot = np.int64(_hash(row, L) & np.uint64(size - 1))
    while True:
        j = table[slot]
        if j < 0:
            break
        same = True
        for i in range(L):
            if keys[j, i] != row[i]:
                same = False
                break
        if same:
            weights[j] += w
            return keys, weights, table, n
        slot = (slot + 1) & (size - 1)
    if n == keys.shape[0]:
        cap = 2 * keys.shape[0]
        nk = np.empty((cap, L), dtype=np.int8)
        nk[:n] = keys[:n]
        nw = np.zeros(cap, dtype=weights.dtype)
        nw[:n] = weights[:n]
        keys, weights = nk, nw
    keys[n, :] = row[:L]
    weights[n] = w
    table[slot] = n
    n += 1
    if 2 * n > size:
        table = _rehash(keys, n, L, 2 * size)
    return keys, weights, table, n


@njit(cache=True)
def _new_store(L, cap, like):
    """An empty store of ``cap`` rows whose weights have ``like``'s dtype."""
    return (
        np.empty((cap, L), dtype=np.int8),
        np.zeros(cap, dtype=like.dtype),
        np.full(4 * cap, -1, dtype=np.int64),
    )


# --------------------------------------------------------------------------------------
# per-group classes


@njit(cache=True, inline="always")
def pack_flags(flags, need):
    """Index of the flag set ``flags`` ⊆ ``need`` among the 2^|need| subsets of ``need``
    (the bits of ``flags`` that ``need`` has, packed).

    >>> pack_flags(0b100, 0b101), pack_flags(0b101, 0b101), pack_flags(0b110, 0b111)  # YAO of PUNG|YAO …
    (2, 3, 6)
    """
    i = 0
    bit = 1
    for b in range(3):
        if need >> b & 1:
            if flags >> b & 1:
                i |= bit
            bit <<= 1
    return i


@njit(cache=True)
def group_classes(g, ways, n_max, gspec, L, U, melds, std, pung, hon, honour_mask, flag_tab):
    """Classes (signature rows, weights of ``ways``'s dtype) of every vector of group ``g``.

    ``ways[i, c]`` is the weight of holding ``c`` tiles of the group's kind ``i`` (9 for a
    suit, 7 honours), 0 where it cannot be held; ``hon`` holds the honour group's rows by
    base-5 index, ``flag_tab`` the suits' flagged rows (:mod:`mjsim.tables.flagged`; the
    honours' come from the kernel's own DP). Row 0 of a signature is the tile count.
    """
    nd = 9 if g < HONOUR else 7
    keys, weights, table = _new_store(L, 1024, ways)
    one = np.ones(1, dtype=ways.dtype)[0]
    n = 0
    row = np.zeros(L, dtype=np.int8)
    hrow = np.empty(N_COLS, dtype=np.int64)
    dig = np.zeros(nd, dtype=np.int64)
    # the honour group's flagged rows: the kernel's DP on a hand of these honours
    hand = np.zeros(34, dtype=np.uint8)
    no_wild = np.zeros(34, dtype=np.bool_)
    caps = np.full(34, 4, dtype=np.int64)
    frow = np.empty((constrained.MAX_NEED + 1, 2, N_FLAGS), dtype=np.int64)
    total = 5**nd
    for idx in range(total):
        x = idx
        c = 0
        w = one
        ok = True
        for i in range(nd):
            dig[i] = x % 5
            x //= 5
            if ways[i, dig[i]] == 0:
                ok = False
                break
            c += dig[i]
            w *= ways[i, dig[i]]
        if not ok or c > n_max:
            continue
        row[:] = 0
        row[0] = c
        if g == HONOUR:
            for col in range(N_COLS):
                hrow[col] = hon[idx, col]
        for s in range(gspec.shape[0]):
            kind, off, a, b = gspec[s, 0], gspec[s, 1], gspec[s, 2], gspec[s, 3]
            if kind == G_ROW:  # a: 0 std, 1 pung; b: pair column
                for m in range(melds + 1):
                    for p in range(2):
                        col = m * N_PAIR + (b if p == 1 else 0)
                        if g == HONOUR:
                            v = hrow[col]
                        elif a == 0:
                            v = np.int64(std[idx, col])
                        else:
                            v = np.int64(pung[idx, col])
                        row[off + 2 * m + p] = min(v, U)
            elif kind == G_ONESUIT:
                row[off] = U if g == HONOUR else min(np.int64(std[idx, melds * N_PAIR + a]), U)
            elif kind == G_ALLHON:
                row[off] = min(hrow[melds * N_PAIR + a], U) if g == HONOUR else U
            elif kind == G_PAIRS:  # a: pairs wanted, b: quads count twice
                twos = 0
                ones = 0
                for i in range(nd):
                    if g == HONOUR and not honour_mask[i]:
                        continue
                    d = dig[i]
                    if d >= 2:
                        twos += 1
                    elif d == 1:
                        ones += 1
                    if b:
                        if d == 4:
                            twos += 1
                        elif d == 3:
                            ones += 1
                    # total tiles of allowed kinds, for the single of eight pairs
                    row[off + 2] += d
                twos = min(twos, a)
                row[off] = twos
                row[off + 1] = min(ones, a - twos)
                row[off + 2] = min(np.int64(row[off + 2]), 2 * a + 1)
            elif kind == G_258:
                row[off] = 0 if g == HONOUR else dig[1] + dig[4] + dig[7]
            elif kind == G_HON:
                row[off] = c if g == HONOUR else 0
            elif kind == G_FLAG:  # a: the flags needed, b: a 中 pair counts as a pung
                if g == HONOUR:
                    for i in range(nd):
                        hand[27 + i] = dig[i]
                    constrained.honour_rows(hand, honour_mask, no_wild, caps, b, melds, frow)
                for m in range(melds + 1):
                    for p in range(2):
                        for f in range(N_FLAGS):
                            if f & ~a:
                                continue
                            if g == HONOUR:
                                v = frow[m, p, f]
                            else:
                                v = np.int64(flag_tab[idx, (m * 2 + p) * N_FLAGS + f])
                            row[off + (m * 2 + p) * (pack_flags(a, a) + 1) + pack_flags(f, a)] = (
                                min(v, U)
                            )
        keys, weights, table, n = _insert(keys, weights, table, n, row, w, L)
    return keys[:n].copy(), weights[:n].copy()


# --------------------------------------------------------------------------------------
# merging a state with a group, and the final cost


@njit(cache=True, inline="always")
def _minplus(a, ao, b, bo, m, U):
    """Row entries (m melds, no pair) and (m melds, the pair) of the min-plus of two rows."""
    best0 = U
    best1 = U
    for m1 in range(m + 1):
        i = ao + 2 * m1
        j = bo + 2 * (m - m1)
        a0 = np.int64(a[i])
        b0 = np.int64(b[j])
        best0 = min(best0, a0 + b0)
        best1 = min(best1, a0 + b[j + 1], a[i + 1] + b0)
    return best0, best1


@njit(cache=True, inline="always")
def n_empty(min_suits):
    """How many counts of empty suits a flagged state keeps: at most 0 … 3 − ``min_suits``
    of the three suits empty (one, not counted, without a suit condition).

    >>> n_empty(2), n_empty(3), n_empty(0)        # hongzhong112, ne_alt, no condition
    (2, 1, 1)
    """
    return 1 if min_suits == 0 else 4 - min_suits


@njit(cache=True)
def _flag_merge(state, so, grp, go, n_flags, min_suits, suit, melds, U, out, final):
    """The flagged feature of ``out``: ``state``'s (at ``so``) joined with a group's flagged
    rows (at ``go``; ``suit``: the group is a suit). Entry (m, p, F, e) is the fewest tiles
    for m melds, p pairs, at least the flags F and at most e empty suits, so it is the min
    over the splits of m and p, and of F into the state's part and the group's. Flag sets
    are packed (:func:`pack_flags`: ``n_flags`` subsets of the flags needed), which keeps
    subsets and differences. With ``final`` only the entry the cost reads: (``melds``, 1,
    every flag, the most empties)."""
    n_e = n_empty(min_suits)
    counted = suit and min_suits > 0
    for m in range(melds if final else 0, melds + 1):
        for p in range(1 if final else 0, 2):
            for f in range(n_flags - 1 if final else 0, n_flags):
                for e in range(n_e - 1 if final else 0, n_e):
                    best = np.int64(U)
                    for m1 in range(m + 1):
                        for p1 in range(p + 1):
                            # the group's part is empty: one more empty suit
                            e1 = e - 1 if counted and m1 == m and p1 == p else e
                            if e1 < 0:
                                continue
                            a = so + (m1 * 2 + p1) * n_flags * n_e + e1
                            b = go + ((m - m1) * 2 + p - p1) * n_flags
                            sub = f  # the state's part of the flags
                            while True:
                                best = min(
                                    best, np.int64(state[a + sub * n_e]) + grp[b + (f ^ sub)]
                                )
                                if sub == 0:
                                    break
                                sub = (sub - 1) & f
                    out[so + ((m * 2 + p) * n_flags + f) * n_e + e] = best


@njit(cache=True)
def _merge(state, grp, g, feats, melds, U, out, final):
    """``out`` = ``state`` with group ``g`` (signature ``grp``) added; with ``final`` only
    what :func:`_cost` reads is filled."""
    out[0] = state[0] + grp[0]
    for f in range(feats.shape[0]):
        kind, so, go, excl, a = feats[f, 0], feats[f, 1], feats[f, 2], feats[f, 3], feats[f, 4]
        skip = excl == g
        if kind == F_ROW:
            if skip:
                for i in range(2 * (melds + 1)):
                    out[so + i] = state[so + i]
            elif final:
                v0, v1 = _minplus(state, so, grp, go, melds, U)
                out[so + 2 * melds] = v0
                out[so + 2 * melds + 1] = v1
            else:
                for m in range(melds + 1):
                    v0, v1 = _minplus(state, so, grp, go, m, U)
                    out[so + 2 * m] = v0
                    out[so + 2 * m + 1] = v1
        elif kind == F_MIN:
            out[so] = state[so] if skip else min(state[so], grp[go])
        elif kind == F_MIXED:  # a: the carried honour row (state offset)
            v = np.int64(state[so])
            if not skip and g != HONOUR:
                _, v1 = _minplus(grp, go, state, a, melds, U)
                v = min(v, v1)
            out[so] = v
        elif kind == F_CARRY:
            if final:
                continue
            if g == HONOUR:
                for i in range(2 * (melds + 1)):
                    out[so + i] = grp[go + i]
                out[so] = U  # the honours must take part (混一色)
            else:
                for i in range(2 * (melds + 1)):
                    out[so + i] = state[so + i]
        elif kind == F_PAIRS:  # a: pairs wanted
            if skip:
                out[so] = state[so]
                out[so + 1] = state[so + 1]
                out[so + 2] = state[so + 2]
            else:
                twos = min(np.int64(state[so]) + grp[go], a)
                out[so] = twos
                out[so + 1] = min(np.int64(state[so + 1]) + grp[go + 1], a - twos)
                out[so + 2] = min(np.int64(state[so + 2]) + grp[go + 2], 2 * a + 1)
        elif kind == F_ADD:  # a: cap
            out[so] = state[so] if skip else min(np.int64(state[so]) + grp[go], a)
        else:  # F_FLAG, a: the flag sets, b: the suits needed
            _flag_merge(state, so, grp, go, a, feats[f, 5], g != HONOUR, melds, U, out, final)


@njit(cache=True)
def _cost(state, cspec, melds, U):
    """Capped cost of a final state: min over the cost terms."""
    best = U
    for t in range(cspec.shape[0]):
        kind, so, a, b = cspec[t, 0], cspec[t, 1], cspec[t, 2], cspec[t, 3]
        if kind == C_ROW:
            v = np.int64(state[so + 2 * melds + 1])
        elif kind == C_SCALAR:
            v = np.int64(state[so])
        elif kind == C_FLAG:  # a: the flag sets, b: the suits needed (the last entry)
            v = np.int64(state[so + (2 * melds + 2) * a * n_empty(b) - 1])
        elif kind == C_PAIRS:  # a: pairs wanted, b: plus one single (八对)
            twos = np.int64(state[so])
            overlap = 2 * twos + state[so + 1]
            size = 2 * a
            if b:
                size += 1
                if state[so + 2] > overlap:
                    overlap += 1
            v = size - overlap
        else:  # C_ADD, a: the target size
            v = a - min(np.int64(state[so]), a)
        best = min(best, v)
    return best


@njit(cache=True)
def merge_step(skeys, sw, gkeys, gw, g, first_g, n_max, feats, melds, U, L, max_states):
    """Merge every state with every group class (at most ``n_max`` tiles in all). With
    ``first_g`` ≥ 0, the one state is first merged with each class as group ``first_g``:
    two groups of the same classes whose merge is symmetric, each pair of classes taken
    once (twice the weight for two different classes)."""
    pair = first_g >= 0
    n_rows = gkeys.shape[0] if pair else skeys.shape[0]
    cap = 1024
    while cap < 2 * n_rows:
        cap *= 2
    keys, weights, table = _new_store(L, cap, sw)
    n = 0
    first = np.zeros(L, dtype=np.int8)
    out = np.zeros(L, dtype=np.int8)
    for i in range(n_rows):
        if pair:
            _merge(skeys[0], gkeys[i], first_g, feats, melds, U, first, False)
            state, w_state = first, sw[0] * gw[i]
        else:
            state, w_state = skeys[i], sw[i]
        for j in range(i if pair else 0, gkeys.shape[0]):
            if np.int64(state[0]) + gkeys[j, 0] > n_max:
                continue
            _merge(state, gkeys[j], g, feats, melds, U, out, False)
            w = w_state * gw[j]
            if pair and j > i:
                w += w
            keys, weights, table, n = _insert(keys, weights, table, n, out, w, L)
            if n > max_states:
                return keys[:0].copy(), weights[:0].copy(), False
    return keys[:n].copy(), weights[:n].copy(), True


@njit(cache=True)
def final_counts(skeys, sw, gkeys, gw, g, n_tiles, feats, cspec, melds, U, L):
    """Counts by capped cost of every state joined with every group class of the rest."""
    # group classes by tile count
    nmax = n_tiles + 1
    order = np.argsort(gkeys[:, 0].astype(np.int64), kind="mergesort")
    start = np.zeros(nmax + 1, dtype=np.int64)
    for j in range(gkeys.shape[0]):
        c = np.int64(gkeys[j, 0])
        if c <= n_tiles:
            start[c + 1] += 1
    for c in range(nmax):
        start[c + 1] += start[c]
    hist = np.zeros(U + 1, dtype=sw.dtype)
    out = np.zeros(L, dtype=np.int8)
    for i in range(skeys.shape[0]):
        need = n_tiles - np.int64(skeys[i, 0])
        if need < 0:
            continue
        for jj in range(start[need], start[need + 1]):
            j = order[jj]
            _merge(skeys[i], gkeys[j], g, feats, melds, U, out, True)
            hist[_cost(out, cspec, melds, U)] += sw[i] * gw[j]
    return hist
