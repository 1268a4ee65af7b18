"""The wall and draws: tiles left, the head and tail draws, the reserve, the indicator, the deal.

A seat's draw sets bonus tiles aside and replaces them from the tail; the reserve (the
wall's last tiles) gives replacement tiles and the indicator of wild tiles (宝, 换宝). The
deal is the deal pipeline's own (:func:`mjsim.kernels.deal.deal_one`), so a played hand and
a dealt hand with the same seed and index start from the same tiles.
"""

from __future__ import annotations

import numpy as np

from ..kernels.deal import deal_one
from ..kernels.jit import njit_borrowed
from ..kernels.shanten import MELD_CHOW, MELD_PUNG
from . import values as V
from .state import (
    P_BAO,
    P_BAO_CHANGES,
    P_BAO_SLOT,
    P_DEAD,
    P_HEAD,
    P_REPLACED,
    P_RESERVED,
    P_TAIL,
    ST_BONUS,
    add_meld,
    is_wild_kind,
)

#: no tile (a draw from an empty wall, no tile drawn this turn)
NO_TILE = -1
#: no tile: the bonus tiles just set aside win at once (八花齐)
BONUS_WON = -2


@njit_borrowed
def tiles_left(G, S):
    """Tiles left to draw: the live wall less the reserve."""
    return S.pos[P_TAIL] - S.pos[P_HEAD] - G.cfg[V.RESERVE]


@njit_borrowed
def reserve_take(G, S, wall, lo, hi):
    """The tile of the first unused reserve slot ``lo .. hi`` (0: the wall's last tile), the
    face-down indicator's slot skipped, now used; −1 when none is left."""
    for r in range(lo, min(hi, G.cfg[V.RESERVE] - 1) + 1):
        if (S.pos[P_RESERVED] >> r) & 1 == 0 and r != S.pos[P_BAO_SLOT]:
            S.pos[P_RESERVED] |= 1 << r
            return np.int64(wall[wall.size - 1 - r])
    return np.int64(-1)


@njit_borrowed
def tail_tile(G, S, wall):
    """The next replacement tile: from a reserve that stays in place while it has some
    (``reserve_replace``), else the end of the live wall (past a fixed reserve)."""
    if G.cfg[V.RESERVE_REPLACE] > 0:
        t = reserve_take(G, S, wall, np.int64(0), G.cfg[V.RESERVE_REPLACE])
        if t >= 0:
            return t
        S.pos[P_TAIL] -= 1
        return np.int64(wall[S.pos[P_TAIL] - G.cfg[V.RESERVE]])
    S.pos[P_TAIL] -= 1
    return np.int64(wall[S.pos[P_TAIL]])


@njit_borrowed
def draw(G, S, wall, s, from_tail):
    """The next tile for seat ``s`` from the head (or the tail), bonus tiles set aside and
    replaced from the tail, now in its hand; :data:`NO_TILE` when nothing is left,
    :data:`BONUS_WON` when the bonus tiles set aside win (``bonus_win``: the caller settles
    it). ``P_REPLACED`` says whether a bonus tile was replaced."""
    tail = from_tail
    S.pos[P_REPLACED] = 0
    while tiles_left(G, S) > 0:
        if tail:
            t = tail_tile(G, S, wall)
        else:
            t = np.int64(wall[S.pos[P_HEAD]])
            S.pos[P_HEAD] += 1
        if not G.is_bonus[t]:
            S.concealed[s, t] += 1
            return t
        S.status[s, ST_BONUS] += 1
        S.pos[P_REPLACED] = 1
        if 0 < G.cfg[V.BONUS_WIN] <= S.status[s, ST_BONUS]:
            return BONUS_WON
        tail = True
    return NO_TILE


@njit_borrowed
def to_pile(S, s, t):
    """Seat ``s``'s tile ``t`` thrown on its pile, seen by everyone."""
    S.seen[t] += 1
    S.discards[s, t] += 1


@njit_borrowed
def turn_indicator(G, S, wall, r):
    """The reserve's tile at slot ``r`` becomes the indicator: face up (used, seen by all)
    unless ``wild_hidden``, where it stays in the reserve, seen by no one."""
    k = np.int64(wall[wall.size - 1 - r])
    S.pos[P_BAO] = k
    S.pos[P_BAO_SLOT] = r
    if not G.cfg[V.WILD_HIDDEN]:
        S.pos[P_RESERVED] |= 1 << r
        S.seen[k] += 1


@njit_borrowed
def change_indicator(G, S, wall):
    """换宝 (``wild_change``): while every usable wild tile (or three) is visible, the next
    unused reserve slot after the indicator's gives the new one (the old one stays dead)."""
    if G.cfg[V.WILD_CHANGE] == V.CHANGE_NEVER:
        return
    while S.pos[P_BAO] >= 0:
        k = S.pos[P_BAO]
        n = G.next_kinds[k]
        other = n != k and is_wild_kind(G, S, n)
        visible = S.seen[k] - (0 if G.cfg[V.WILD_HIDDEN] else 1) + (S.seen[n] if other else 0)
        usable = 3 + (4 if other else 0)
        if visible < (usable if G.cfg[V.WILD_CHANGE] == V.CHANGE_ALL else 3):
            return
        r = S.pos[P_BAO_SLOT] + 1
        while r < G.cfg[V.RESERVE] and (S.pos[P_RESERVED] >> r) & 1:
            r += 1
        if r >= G.cfg[V.RESERVE]:
            return  # no reserve tile left to turn
        S.pos[P_RESERVED] |= 1 << S.pos[P_BAO_SLOT]
        turn_indicator(G, S, wall, r)
        S.pos[P_BAO_CHANGES] += 1


@njit_borrowed
def deal(G, S, W, wall, dealer):
    """The deal pipeline's deal of ``wall`` (its seat 0 is the dealer here); returns the
    wild kind its indicator makes (−1: none), wild for every seat where ``wild`` says so."""
    indicator, wild, _, tail_used = deal_one(
        wall,
        G.is_bonus,
        G.seats,
        G.cfg[V.RESERVE],
        G.cfg[V.INDICATOR],
        G.cfg[V.WILD_STEP],
        G.next_kinds,
        W.pending[:],
        W.hands[:],
        W.dealt_bonus[:],
        W.first_draw[:],
        np.int64(0),
    )
    for r in range(4):
        s = (dealer + r) % 4
        for k in range(34):
            S.concealed[s, k] = W.hands[0, r, k]
        S.status[s, ST_BONUS] = W.dealt_bonus[0, r]
    S.pos[P_HEAD] = G.seats.size
    S.pos[P_TAIL] = wall.size - tail_used
    S.pos[P_BAO_SLOT] = G.cfg[V.INDICATOR_SLOT] - 1  # −1: no indicator kept in reserve
    if indicator >= 0:
        S.seen[indicator] += 1  # turned face up for everyone
        S.pos[P_DEAD] = tail_used - 1 - S.status[:, ST_BONUS].sum()
    if G.cfg[V.WILD] == V.WILD_INDICATOR and wild >= 0:
        S.wild[:, wild] = True
    return np.int64(wild)


@njit_borrowed
def apply_script(G, S, script):
    """A scripted start (tests): ``script[0]`` head tiles set aside after the deal, then
    ``(seat + 1, kind, MELD_*, source + 1)`` quadruples turning dealt tiles into melds
    claimed from seat ``source`` (0: the seat's own; 0 ends)."""
    if script.size == 0:
        return
    S.pos[P_HEAD] += script[0]
    m = 1
    while m + 3 < script.size and script[m] > 0:
        s, kind, mtype = script[m] - 1, script[m + 1], script[m + 2]
        if mtype == MELD_CHOW:
            for k in range(kind, kind + 3):
                S.concealed[s, k] -= 1
        else:
            S.concealed[s, kind] -= 3 if mtype == MELD_PUNG else 4
        add_meld(G, S, s, kind, mtype, script[m + 3] - 1)
        m += 4
