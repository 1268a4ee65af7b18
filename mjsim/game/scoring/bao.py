"""The 宝 games' scoring (RULES.md §4.7, §4.9, §4.11): multiplicative items, all three pay.

A win's items (:data:`ITEMS`, bit b of a winner's ``patterns``) each double the stake a
number of times (its 番, the preset's value; 0: not counted): 自摸, 边卡吊 (or 夹胡), 闷听,
推出, 摸宝, 宝中宝, 大风, 对宝, 立门胡, 飘胡, and 天胡 alone. The product is the win's multiplier
``M = 2^番`` (its units); each of the three others pays ``base · M · D(p) · N(p)``
(§4.9): ``D`` doubles where the dealer wins or pays, ``N`` where p discarded the tile (or
had his kong robbed) without having declared before that discard.

How a drawn tile was used comes from the engine (``pos[P_WILD_DRAW]``): a declared seat's
drawn 宝 or fourth tile standing for the tile valued here (``tile``); it is 宝中宝 (or 大风
at 16) when the tile stands for itself through a 边/卡/吊 reading. 边/卡/吊 are read from
the decompositions of the final hand that meet the family's conditions
(:func:`readings`); ``edge_rule`` single_wait (and 夹胡) asks for one winning kind too.

>>> ITEMS[:4], SOURCES
(('zimo', 'edge', 'menting', 'mobao'), ('win',))
"""

from __future__ import annotations

import numpy as np

from ...kernels import shanten as K
from ...kernels.jit import njit_borrowed
from ...tables.flagged import CHOW
from .. import record as R
from .. import values as V
from ..evaluation import n_waits
from ..shape import ROLE_CLOSED, ROLE_EDGE, ROLE_SINGLE, family_takes, hand_facts, split
from ..state import (
    DRAW_FOURTH,
    DRAW_ON_READY,
    DRAW_WILD,
    P_BAO_CHANGES,
    P_DEALER,
    P_TURNS,
    P_WILD_DRAW,
    P_WILD_TILE,
    PUSH_NONE,
    ST_PUSH,
    dealer_first_turn,
    exposed_melds,
)

#: the items of §4.7 / §4.11 in the order of their pattern bits
ITEMS = (
    "zimo",
    "edge",
    "menting",
    "mobao",
    "baozhongbao",
    "dafeng",
    "dafeng_edge",
    "duibao",
    "limen",
    "piao",
    "tianhu",
    "after_draw",
    "push",
)
ITEMS_ZH = (
    "自摸",
    "边卡吊",
    "闷听",
    "摸宝",
    "宝中宝",
    "大风",
    "大风宝中宝",
    "对宝",
    "立门胡",
    "飘胡",
    "天胡",
    "荒庄翻倍",
    "推出",
)
(
    I_ZIMO,
    I_EDGE,
    I_MENTING,
    I_MOBAO,
    I_BAOZHONGBAO,
    I_DAFENG,
    I_DAFENG_EDGE,
    I_DUIBAO,
    I_LIMEN,
    I_PIAO,
    I_TIANHU,
    I_AFTER_DRAW,
    I_PUSH,
) = range(len(ITEMS))

#: the model's values: name -> (choices, or type, default); each item's 番 is its name
PARAMS = {
    "base": (int, 1),
    **{f"fan_{item}": (int, 0) for item in ITEMS},
    "fan_dealer": (int, 1),
    "fan_feeder": (int, 1),
    "edge_rule": (("decomposition", "single_wait"), "decomposition"),
    "one_tile_piao_only": (bool, False),
}
P_BASE = 0
P_FAN = 1  # P_FAN + item
P_DEALER_FAN, P_FEEDER_FAN, P_EDGE_RULE, P_ONE_TILE = (1 + len(ITEMS) + i for i in range(4))
EDGE_DECOMPOSITION, EDGE_SINGLE_WAIT = range(2)

PATTERNS = tuple(
    R.Pattern(item, zh, 0, "§4.7 / §4.11: 2^番 of the preset") for item, zh in zip(ITEMS, ITEMS_ZH)
)
PATTERNS_TITLE = "items of the multiplier (番)"


SOURCES = ("win",)
WIN_SOURCES = ("win",)
#: how each winner won (:data:`HOW`); whether each seat declared concealed (闷听); 换宝 in
#: the hand (the 报听 turn is the common ``declare_turn``)
HOW = ("none", "ron", "zimo", "mobao", "baozhongbao", "dafeng", "dafeng_edge", "duibao", "tianhu")
HOW_ZH = ("", "点炮", "自摸", "摸宝", "宝中宝", "大风", "大风宝中宝", "对宝", "天胡")
H_NONE, H_RON, H_ZIMO, H_MOBAO, H_BZB, H_DAFENG, H_DAFENG_EDGE, H_DUIBAO, H_TIANHU = range(len(HOW))
COLUMNS = (*R.seat_columns("how"), *R.seat_columns("menting"), "bao_changes")
C_HOW, C_MENTING, C_BAO_CHANGES = 0, 4, 8
WIDE: tuple[str, ...] = ()
FACTS = (
    R.Fact(
        "how", "share of wins by how they were won", "胡法占比", "winner_share", "how", HOW, HOW_ZH
    ),
    R.Fact(
        "menting",
        "share of wins declared concealed (闷听)",
        "闷听胡牌占比",
        "winner_share",
        "menting",
        ("no", "yes"),
        ("", "闷听"),
    ),
    R.Fact(
        "declare_turn",
        "the winner's 报听 discard (counted from 1)",
        "胡牌者报听巡数",
        "winner_mean",
        "declare_turn",
        (),
        (),
    ),
    R.Fact("bao_changes", "hands with a 换宝", "有换宝的局", "hand_rate", "bao_changes", (), ()),
)

#: slots of ``State.model``: each seat's 报听 turn (4), the seats that declared concealed
M_DECLARE_TURN, M_MENTING = 0, 4
#: ``State.carry``: the last hand was drawn
K_DRAWN = 0
#: :func:`readings` bits: the winning tile as 边, 卡 or 吊; a decomposition meeting the
#: conditions; one with no chow (exposed melds included); the other role bits of
#: :func:`mjsim.game.shape.split` (两面, 对倒) ride along unread
RD_EDGE, RD_CLOSED, RD_SINGLE = ROLE_EDGE, ROLE_CLOSED, ROLE_SINGLE
RD_ANY, RD_PUNGS = 64, 128


def params(rules, values: dict) -> tuple[np.ndarray, dict]:
    """The model's ``int64`` array, and the engine values its bots read: waits weighed by
    their units; every seat pays each win, so dealing in costs only the discarder's extra
    share (``fan_feeder``), and the cautious bot folds only from shanten 3 — never where
    there is none."""
    return np.array([int(values[name]) for name in PARAMS], dtype=np.int64), {
        "weigh_waits": True,
        "fold_from": 4 if int(values["fan_feeder"]) > 0 else 0,
        "deal_in": V.deal_in(1 << int(values["fan_feeder"]), 1),
    }


def roles(rules) -> tuple[np.ndarray, np.ndarray]:
    """Per scoring family: its role (all plain) and whether it is a big win (never)."""
    n = len(rules.families)
    return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.bool_)


def aux_families(rules) -> np.ndarray:
    """Auxiliary family rows (none)."""
    return np.zeros((0, K.FAMILY_COLUMNS), dtype=np.int64)


#: roles of the auxiliary families the tuned player also weighs as big wins (none)
CHASE_ROLES: tuple[int, ...] = ()


def aux_roles(rules) -> np.ndarray:
    """The roles of :func:`aux_families` (none)."""
    return np.zeros(0, dtype=np.int64)


# --------------------------------------------------------------------------- the hand


@njit_borrowed
def readings(G, S, W, s, counts, tile):
    """The :data:`RD_EDGE` … bits of seat ``s``'s complete hand ``counts`` (concealed, its
    melds as they stand) won on ``tile``, over the decompositions (any pair, four melds)
    that meet a scoring family's conditions (pung, chow, 1/9/honour, suits; a 中 pair as a
    pung where the family says so)."""
    flags, suits, honours, n_concealed = hand_facts(S, s, counts)
    work = W.tiles34[:]
    out = 0
    for f in range(G.cfg[V.N_SCORING]):
        form = G.families[f, 0]
        if form != K.STANDARD and form != K.CONSTRAINED:
            continue
        for pair in range(34):
            if counts[pair] < 2:
                continue
            n_big = 0
            for k in range(34):
                n_big += (counts[k] - (2 if k == pair else 0)) >= 3
            for mask in range(1 << n_big):
                for k in range(34):
                    work[k] = counts[k] - (2 if k == pair else 0)
                done, pung, chow, roles = split(work, mask, tile)
                if not done or not family_takes(
                    G, f, pair, pung, chow, flags, suits, honours, n_concealed
                ):
                    continue
                out |= RD_ANY | roles
                if pair == tile:
                    out |= RD_SINGLE
                if not (chow or (flags & CHOW) != 0):
                    out |= RD_PUNGS
    return out


@njit_borrowed
def _fan(G, bits):
    total = 0
    for i in range(len(ITEMS)):
        if (bits >> i) & 1:
            total += G.score[P_FAN + i]
    return total


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, units = 2^番, item bits)`` of seat ``s``'s complete hand ``counts`` won on
    ``tile``; a hand of one concealed tile (手把一) wins only with no chow where
    ``one_tile_piao_only``."""
    if R.self_drawn(win_kind) and dealer_first_turn(S, s):
        return True, np.int64(1) << G.score[P_FAN + I_TIANHU], np.int64(1 << I_TIANHU)
    rd = readings(G, S, W, s, counts, tile) if tile >= 0 else 0
    if G.score[P_ONE_TILE] and counts.sum() == 2 and not rd & RD_PUNGS:
        return False, 0, 0
    edge = (rd & (RD_EDGE | RD_CLOSED | RD_SINGLE)) != 0
    if edge and G.score[P_EDGE_RULE] == EDGE_SINGLE_WAIT:
        counts[tile] -= 1
        edge = n_waits(G, S, W, s, counts, np.int64(0), np.int64(2)) == 1
        counts[tile] += 1
    how = S.pos[P_WILD_DRAW]
    natural = tile == S.pos[P_WILD_TILE]
    bits = 0
    if how == DRAW_WILD or how == DRAW_FOURTH:
        if natural and edge:
            bits |= 1 << (I_BAOZHONGBAO if how == DRAW_WILD else I_DAFENG_EDGE)
        else:
            bits |= 1 << (I_MOBAO if how == DRAW_WILD else I_DAFENG)
            if edge:
                bits |= 1 << I_EDGE
    elif how == DRAW_ON_READY:
        bits |= 1 << I_DUIBAO
    else:
        if R.self_drawn(win_kind):
            bits |= 1 << I_ZIMO
        if edge:
            bits |= 1 << I_EDGE
    if (S.model[M_MENTING] >> s) & 1:
        bits |= 1 << I_MENTING
    if S.status[s, ST_PUSH] > PUSH_NONE:
        bits |= 1 << I_PUSH
    if exposed_melds(S, s) == 0:
        bits |= 1 << I_LIMEN
    if rd & RD_PUNGS:
        bits |= 1 << I_PIAO
    for i in range(len(ITEMS)):
        if G.score[P_FAN + i] == 0:
            bits &= ~(1 << i)  # an item this rule set does not count
    return True, np.int64(1) << _fan(G, bits), np.int64(bits)


@njit_borrowed
def declare(G, S, s):
    """Seat ``s`` declared on its discard just counted: its turn, and 闷听 where it has no
    exposed meld."""
    S.model[M_DECLARE_TURN + s] = S.pos[P_TURNS]
    if exposed_melds(S, s) == 0:
        S.model[M_MENTING] |= 1 << s


@njit_borrowed
def _how(S, bits, win_kind, tsumo):
    for item, code in (
        (I_TIANHU, H_TIANHU),
        (I_BAOZHONGBAO, H_BZB),
        (I_DAFENG_EDGE, H_DAFENG_EDGE),
        (I_DAFENG, H_DAFENG),
        (I_MOBAO, H_MOBAO),
        (I_DUIBAO, H_DUIBAO),
    ):
        if (bits >> item) & 1:
            return code
    return H_ZIMO if tsumo else H_RON


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Each of the three others pays each winner ``base · M · D(p) · N(p)`` (天胡: base · M
    alone); ×2 more after a drawn hand where the preset doubles it."""
    row = S.pay[G.cfg[V.SRC_WIN]]
    dealer = S.pos[P_DEALER]
    tsumo = R.self_drawn(win_kind)
    col = G.cfg[V.COL_MODEL]
    for i in range(n_win):
        w = order[i]
        bits = S.bits[w]
        if S.carry[K_DRAWN] and G.score[P_FAN + I_AFTER_DRAW] > 0:
            bits |= 1 << I_AFTER_DRAW
            S.units[w] <<= G.score[P_FAN + I_AFTER_DRAW]
            S.bits[w] = bits
        tianhu = (bits >> I_TIANHU) & 1
        for p in range(4):
            if p == w:
                continue
            fan = 0
            if not tianhu:
                if p == dealer or w == dealer:
                    fan += G.score[P_DEALER_FAN]
                turn = S.model[M_DECLARE_TURN + p]
                if not tsumo and p == discarder and (turn == 0 or turn >= S.pos[P_TURNS]):
                    fan += G.score[P_FEEDER_FAN]
            amount = G.score[P_BASE] * (S.units[w] << fan)
            row[p] -= amount
            row[w] += amount
        rec[col + C_HOW + w] = _how(S, bits, win_kind, tsumo)


@njit_borrowed
def end_hand(G, S, rec):
    """The hand's 闷听 and 换宝 into the record; whether it was drawn, for the next hand."""
    col = G.cfg[V.COL_MODEL]
    for s in range(4):
        rec[col + C_MENTING + s] = (S.model[M_MENTING] >> s) & 1
    rec[col + C_BAO_CHANGES] = S.pos[P_BAO_CHANGES]
    S.carry[K_DRAWN] = 1 if rec[R.C_OUTCOME] == R.OUT_DRAW else 0
