"""The shape of a ready hand's wait — 两面, 边张, 嵌张, 单吊, 对倒 or several — read from the
decompositions of its concealed tiles with each winning kind added.

In one decomposition the winning tile plays a role (:data:`ROLE_EDGE` …): it completes
12→3 or 89→7 (边), the middle of a chow (嵌), the pair (单吊), a pung (对倒), or an
open-ended chow (两面). Each winning kind takes its widest role over the decompositions a
meld family of the rule set accepts (two-sided, then pung, closed, edge, pair). A wait has
a shape when all its kinds take one role, on no more kinds than the shape has (one for
边/嵌/单吊, two for 两面/对倒); otherwise it is *several* (三面, or 1112m waiting on 2m as
单吊 and 3m as 边). Seven-pair waits are 单吊; a hand holding a wild tile is *wild*, and a
kind wild for the seat is not read (drawn, it completes any ready hand); a kind won only
by another special form (将将胡, 风一色 in any arrangement, 八对 + 1) makes it *other*.

>>> SHAPES[SHAPE_OPEN], SHAPES_ZH[SHAPE_OPEN]
('open', '两面')
"""

from __future__ import annotations

import numpy as np

from ..kernels import shanten as K
from ..kernels.jit import njit_borrowed
from ..tables.flagged import CHOW, PUNG, YAO
from .state import M_KIND, M_TYPE, wild_held

#: the winning tile's roles in a decomposition (bits); :data:`ROLE_OTHER`: won by a
#: special form only
ROLE_EDGE, ROLE_CLOSED, ROLE_SINGLE, ROLE_OPEN, ROLE_PUNG, ROLE_OTHER = 1, 2, 4, 8, 16, 32

#: wait shapes, by code (0: not ready)
SHAPES = ("none", "open", "edge", "closed", "single", "double_pung", "several", "wild", "other")
SHAPES_ZH = ("", "两面", "边张", "嵌张", "单吊", "对倒", "多面", "含百搭", "特殊")
(
    SHAPE_NONE,
    SHAPE_OPEN,
    SHAPE_EDGE,
    SHAPE_CLOSED,
    SHAPE_SINGLE,
    SHAPE_DOUBLE_PUNG,
    SHAPE_SEVERAL,
    SHAPE_WILD,
    SHAPE_OTHER,
) = range(len(SHAPES))
#: a winning kind's role where decompositions differ: the widest first (45567s waiting on
#: 6s is 两面 as 456 + 57, though 567 + 45 reads it 嵌)
_WIDEST = np.array(
    [ROLE_OPEN, ROLE_PUNG, ROLE_CLOSED, ROLE_EDGE, ROLE_SINGLE, ROLE_OTHER], dtype=np.int64
)
#: a wait all of one role: that role, its shape, the most kinds it has
_ONE_ROLE = np.array(
    [
        [ROLE_OPEN, SHAPE_OPEN, 2],
        [ROLE_EDGE, SHAPE_EDGE, 1],
        [ROLE_CLOSED, SHAPE_CLOSED, 1],
        [ROLE_SINGLE, SHAPE_SINGLE, 1],
        [ROLE_PUNG, SHAPE_DOUBLE_PUNG, 2],
        [ROLE_OTHER, SHAPE_OTHER, 34],
    ],
    dtype=np.int64,
)


@njit_borrowed
def meld_facts(S, s):
    """``(condition flags, suits bitmask, has a chow)`` of seat ``s``'s melds (flags:
    :data:`mjsim.tables.flagged.PUNG` | ``CHOW`` | ``YAO``)."""
    flags = 0
    suits = 0
    chow = False
    for i in range(S.n_melds[s]):
        kind, mtype = S.melds[s, i, M_KIND], S.melds[s, i, M_TYPE]
        if mtype == K.MELD_CHOW:
            flags |= CHOW
            chow = True
            if kind % 9 == 0 or kind % 9 == 6:
                flags |= YAO
        else:
            flags |= PUNG
            if kind >= 27 or kind % 9 == 0 or kind % 9 == 8:
                flags |= YAO
        if kind < 27:
            suits |= 1 << (kind // 9)
    return flags, suits, chow


@njit_borrowed
def split(work, mask, tile):
    """Decompose ``work`` (the hand less its pair) into melds, kind by kind, taking a pung
    where bit j of ``mask`` is set for the j-th kind holding three or more; returns
    ``(done, has pung, has chow, roles of the winning tile)``. ``work`` is used up."""
    j = 0
    pung = False
    chow = False
    roles = 0
    for k in range(34):
        c = np.int64(work[k])
        if c >= 3:
            if (mask >> j) & 1:
                c -= 3
                pung = True
                if tile == k:
                    roles |= ROLE_PUNG
            j += 1
        if c == 0:
            continue
        if k >= 27 or k % 9 > 6 or work[k + 1] < c or work[k + 2] < c:
            return False, False, False, 0
        work[k + 1] -= c
        work[k + 2] -= c
        chow = True
        if tile == k + 1:
            roles |= ROLE_CLOSED
        if tile == k:
            roles |= ROLE_EDGE if k % 9 == 6 else ROLE_OPEN
        if tile == k + 2:
            roles |= ROLE_EDGE if k % 9 == 0 else ROLE_OPEN
    return True, pung, chow, roles


@njit_borrowed
def hand_facts(S, s, counts):
    """``(flags, suits, honours, tiles)`` of seat ``s`` holding ``counts`` with its melds:
    :data:`~mjsim.tables.flagged.PUNG` / ``CHOW`` for its melds, ``YAO`` where it holds a 1,
    9 or honour anywhere; the suits held (bitmask); whether it holds an honour; how many
    concealed tiles."""
    flags, suits, _ = meld_facts(S, s)
    honours = False
    for i in range(S.n_melds[s]):
        honours = honours or S.melds[s, i, M_KIND] >= 27
    n = 0
    for k in range(34):
        if counts[k] > 0:
            n += counts[k]
            if k < 27:
                suits |= 1 << (k // 9)
            else:
                honours = True
            if k >= 27 or k % 9 == 0 or k % 9 == 8:
                flags |= YAO
    return flags, suits, honours, n


@njit_borrowed
def family_takes(G, f, pair, pung, chow, flags, suits, honours, n_concealed):
    """Whether meld family ``f`` accepts a decomposition with this pair kind and a pung or
    chow among its concealed melds or not, for a hand of :func:`hand_facts`: its pair type
    (2/5/8), 碰碰胡's no chow, one suit (and no honours), 全求人's lone pair, and the
    conditions of a constrained family (pung, chow, 1/9/honour, suits; a 中 pair as a pung
    where it says so). Pair forms (seven pairs …) take no decomposition."""
    form, pair_type = G.families[f, 0], G.families[f, 1]
    if pair_type == K.PAIR_258 and (pair >= 27 or pair % 9 % 3 != 1):
        return False
    n_suits = (suits & 1) + ((suits >> 1) & 1) + ((suits >> 2) & 1)
    has_chow = chow or (flags & CHOW) != 0
    if form == K.STANDARD:
        return True
    if form == K.CONSTRAINED:
        need = G.families[f, 3]
        has_pung = pung or (flags & PUNG) != 0 or (G.families[f, 4] != 0 and pair == 33)
        return (
            n_suits >= G.families[f, 5]
            and ((need & YAO) == 0 or (flags & YAO) != 0)
            and ((need & PUNG) == 0 or has_pung)
            and ((need & CHOW) == 0 or has_chow)
        )
    if form == K.ALL_PUNGS:
        return not has_chow
    if form == K.ONE_SUIT:
        return n_suits == 1 and not honours
    if form == K.MIXED_ONE_SUIT:
        return n_suits == 1
    if form == K.QUANQIUREN:
        return n_concealed == 2
    return False


@njit_borrowed
def _has_pair_form(G, n_families):
    for f in range(n_families):
        if G.families[f, 0] == K.SEVEN_PAIRS or G.families[f, 0] == K.EIGHT_PAIRS:
            return True
    return False


@njit_borrowed
def win_roles(G, S, W, s, counts, tile, n_families):
    """The roles (bits) of ``tile`` in seat ``s``'s complete concealed hand ``counts`` (its
    melds as they stand), over the decompositions the first ``n_families`` families accept
    (:func:`family_takes`); :data:`ROLE_SINGLE` for a hand of pairs where the rule set has
    a pair form, :data:`ROLE_OTHER` when none."""
    flags, suits, honours, n_concealed = hand_facts(S, s, counts)
    pairs_only = True
    for k in range(34):
        pairs_only = pairs_only and counts[k] % 2 == 0
    work = W.tiles34[:]
    roles = 0
    for pair in range(34):
        if counts[pair] < 2:
            continue
        n_big = 0
        for k in range(34):
            n_big += (counts[k] - (2 if k == pair else 0)) >= 3
        for mask in range(1 << n_big):
            for k in range(34):
                work[k] = counts[k] - (2 if k == pair else 0)
            done, pung, chow, found = split(work, mask, tile)
            if not done:
                continue
            for f in range(n_families):
                if family_takes(G, f, pair, pung, chow, flags, suits, honours, n_concealed):
                    roles |= found | (ROLE_SINGLE if pair == tile else 0)
                    break
    if roles == 0:
        return ROLE_SINGLE if pairs_only and _has_pair_form(G, n_families) else ROLE_OTHER
    return roles


@njit_borrowed
def _widest(roles):
    """The first of ``roles`` in :data:`_WIDEST` order."""
    for i in range(_WIDEST.size):
        if roles & _WIDEST[i]:
            return _WIDEST[i]
    return ROLE_OTHER


@njit_borrowed
def wait_shape(G, S, W, s, counts, n_families):
    """The :data:`SHAPES` code of seat ``s``'s wait: ``counts`` its concealed tiles (used
    and restored), the winning kinds those marked in ``W.waits``. A kind wild for the seat
    is left out (a wild tile drawn completes any ready hand); a wait on nothing else is
    *wild* too."""
    if wild_held(S, s, counts) > 0:
        return SHAPE_WILD
    roles = 0
    n = 0
    for t in range(34):
        if W.waits[t] and not S.wild[s, t]:
            n += 1
            counts[t] += 1
            roles |= _widest(win_roles(G, S, W, s, counts, t, n_families))
            counts[t] -= 1
    if n == 0:
        return SHAPE_WILD
    for i in range(_ONE_ROLE.shape[0]):
        if roles == _ONE_ROLE[i, 0] and n <= _ONE_ROLE[i, 2]:
            return _ONE_ROLE[i, 1]
    return SHAPE_SEVERAL
