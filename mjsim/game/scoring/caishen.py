"""The 16-tile 财神 game's scoring (RULES.md §3.4–§3.6): hand types and tiers read with the
财神 at their best, 跑马 (self-draw only), 跟风 and the three losers' payments.

A win's types (:data:`TYPES`, bit b of a winner's ``patterns``) are read from the engine's
evaluation of every family with the seat's 财神 wild, and once more with them as their
own kind (归位): a natural (硬) reading is taken wherever one exists, a soft one only where
none does (§3.5). The tier is the highest of the types' (软 1, 硬 2, 双翻 4 by default;
``stack``: several 双翻 types multiply), ×2 for a self-drawn 单吊 / 碰碰胡 / 清一色
(``selfdraw_scope``) and ×2 for 杠后开花. That product is the win's units; every loser p
pays ``B(W, p) · units + C + K`` (§3.6), into the ``win`` source.

A player whose 16 tiles are in a 跑马 state (三财神, 八对, 财神牛 or 财神单吊: any tile
completes them) wins by self-draw only. 跟风: a discarded honour followed by the next three
discards costs its discarder 2^(k−1) (or k) to each other player, the ``genfeng`` source.

>>> TYPES[:3], SOURCES
(('ruan', 'pinghu', 'zimo'), ('win', 'genfeng'))
>>> rank(1 << T_DANDIAO) > rank(1 << T_YING_BADUI) > rank(1 << T_QIANGGANG) > rank(1 << T_ZIMO)
True
"""

from __future__ import annotations

import numpy as np

from ...kernels import shanten as K
from ...kernels.jit import njit_borrowed
from ...kernels.shanten import MELD_CKONG, MELD_KONG
from .. import record as R
from .. import values as V
from ..evaluation import kernel_cost, lone_wild
from ..state import (
    M_TYPE,
    P_DEALER,
    P_LAST,
    P_TURNS,
    dealer_first_turn,
    exposed_melds,
    wild_held,
)

# fmt: off
#: the types of §3.5, in the order of their pattern bits; then the multipliers' bits
TYPES = ("ruan", "pinghu", "zimo", "qianggang", "ruan_badui", "sancai_ruan", "caishen_niu",
         "sancai_ying", "ying_badui", "tianhu", "dihu", "dandiao", "pengpeng", "qingyise")
TYPES_ZH = ("软牌", "平胡", "自摸", "抢杠胡", "软八对", "三财神软胡", "财神牛", "三财神硬胡",
            "硬八对", "天胡", "地胡", "单吊", "碰碰胡", "清一色")
T_RUAN, T_PINGHU, T_ZIMO, T_QIANGGANG, T_RUAN_BADUI, T_SANCAI_RUAN, T_NIU, T_SANCAI_YING, \
    T_YING_BADUI, T_TIANHU, T_DIHU, T_DANDIAO, T_PENGPENG, T_QINGYISE = range(len(TYPES))
# fmt: on
N_TYPES = len(TYPES)
B_GANGKAI, B_ZIMO_DOUBLE, B_PAOMA = N_TYPES, N_TYPES + 1, N_TYPES + 2
#: each type's tier: 0 软, 1 硬, 2 双翻
TIER = np.array([0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2], dtype=np.int64)
TIERS = ("none", "ruan", "ying", "shuangfan")
TIERS_ZH = ("", "软", "硬", "双翻")
#: §3.4's order inside a tier (higher wins the tile); 天胡 and 地胡 add no rank of their own
_RANK = np.array([0, 0, 0, 1, 0, 0, 0, 1, 4, -1, -1, 5, 2, 3], dtype=np.int64)
#: types 自摸翻倍 doubles by default (``selfdraw_scope`` listed)
_LISTED = (1 << T_DANDIAO) | (1 << T_PENGPENG) | (1 << T_QINGYISE)
#: the type a win is recorded as (``type_<seat>``): its first type in this order
# fmt: off
_SHOWN = (T_DANDIAO, T_YING_BADUI, T_QINGYISE, T_PENGPENG, T_SANCAI_YING, T_TIANHU, T_DIHU,
          T_QIANGGANG, T_NIU, T_SANCAI_RUAN, T_RUAN_BADUI, T_ZIMO, T_PINGHU, T_RUAN)
# fmt: on
#: how the winner's 财神 were read: none held, all as their own kind (归位), some standing
#: for another kind (代替), or no shape at all (三财神软胡)
READINGS = ("none", "guiwei", "daiti", "free")
READINGS_ZH = ("", "归位", "代替", "无形")
RD_NONE, RD_GUIWEI, RD_DAITI, RD_FREE = range(4)
#: 跑马 states of a 16-tile hand (self-draw only)
PAOMA = ("none", "sancai", "badui", "niu")
PAOMA_ZH = ("", "三财神", "八对", "财神牛")
PS_NONE, PS_SANCAI, PS_BADUI, PS_NIU = range(4)
#: honours a 跟风 follows (白 is not in the list, §3.4)
GENFENG_KINDS = np.zeros(34, dtype=np.bool_)
GENFENG_KINDS[[27, 28, 29, 30, 32, 33]] = True

PATTERNS = (
    *(
        R.Pattern(t, zh, (1, 2, 4)[TIER[i]], "§3.5")
        for i, (t, zh) in enumerate(zip(TYPES, TYPES_ZH))
    ),
    R.Pattern("gangkai", "杠后开花", 2, "won on a kong's replacement (G = 2)"),
    R.Pattern("zimo_double", "自摸翻倍", 2, "a self-drawn 单吊, 碰碰胡 or 清一色 (S = 2)"),
    R.Pattern("paoma", "跑马", 0, "the winner's 16 tiles were in a 跑马 state"),
)
PATTERNS_TITLE = "types and multipliers (牌型与倍数)"

#: roles of the scoring families, by form; the all-pungs (碰碰胡) and one-suit (清一色)
#: families are auxiliary
ROLE_OF_FORM = {"standard": 0, "eight_pairs": 1, "all_pungs": 2, "one_suit": 3}
R_STANDARD, R_PAIRS, R_PUNGS, R_ONE_SUIT = range(4)
#: the auxiliary families the tuned player weighs as big wins beside 八对: both pay 双翻,
#: and each is a standard hand of a narrower shape, so its cost is never the hand's
CHASE_ROLES = (R_PUNGS, R_ONE_SUIT)

#: the model's values: name -> (choices, or type, default); the preset's [game] sets them
PARAMS = {
    "tier_mult": (tuple, (1, 2, 4)),
    "stack": (bool, False),
    "selfdraw_scope": (("listed", "all"), "listed"),
    "difen": (int, 1),
    "maidi": (int, 0),
    "dingdi": (int, 0),
    "caishen_points": (int, 0),
    "kong_points": (int, 0),
    "discarder_pays_all": (bool, False),
    "dihu_scope": (("first_discard", "first_round"), "first_discard"),
    "genfeng": (bool, True),
    "genfeng_growth": (("double", "linear"), "double"),
}
#: slots of the model's int64 array (tier_mult spread over three)
(
    P_SOFT,
    P_HARD,
    P_DOUBLE,
    P_STACK,
    P_SCOPE,
    P_DIFEN,
    P_MAIDI,
    P_DINGDI,
    P_CAI_POINTS,
    P_KONG_POINTS,
    P_DISCARDER_ALL,
    P_DIHU,
    P_GENFENG,
    P_GROWTH,
) = range(14)
SCOPE_LISTED, SCOPE_ALL = range(2)
DIHU_FIRST, DIHU_ROUND = range(2)
GROWTH_DOUBLE, GROWTH_LINEAR = range(2)


SOURCES = ("win", "genfeng")
SRC_GENFENG = 1
WIN_SOURCES = ("win",)
#: each winner's recorded type (1 + its index in TYPES; 0 none), tier, 财神 held, their
#: reading and the 跑马 state its 16 tiles were in (:data:`PAOMA`); the hand's 跟风 events
#: and the largest k among them; the seats whose 16 tiles were in a 跑马 state at the deal or
#: after a discard (bitmask)
COLUMNS = (
    *R.seat_columns("type"),
    *R.seat_columns("tier"),
    *R.seat_columns("cai"),
    *R.seat_columns("reading"),
    *R.seat_columns("paoma_state"),
    "genfeng",
    "genfeng_top",
    "paoma",
)
C_TYPE, C_TIER, C_CAI, C_READING, C_PAOMA_STATE, C_GENFENG, C_GENFENG_TOP, C_PAOMA = (
    0,
    4,
    8,
    12,
    16,
    20,
    21,
    22,
)
WIDE: tuple[str, ...] = ()
FACTS = (
    R.Fact(
        "type",
        "share of wins by type (the highest)",
        "胡牌类型占比",
        "winner_share",
        "type",
        ("none", *TYPES),
        ("", *TYPES_ZH),
    ),
    R.Fact(
        "tier", "share of wins by tier", "胡牌等级占比", "winner_share", "tier", TIERS, TIERS_ZH
    ),
    R.Fact(
        "reading",
        "share of wins by how the 财神 were read",
        "财神用法占比",
        "winner_share",
        "reading",
        READINGS,
        READINGS_ZH,
    ),
    R.Fact("cai", "财神 held by the winner", "胡牌者所持财神", "winner_mean", "cai", (), ()),
    R.Fact(
        "paoma_state",
        "share of wins from a 跑马 state",
        "跑马胡牌占比",
        "winner_share",
        "paoma_state",
        PAOMA,
        PAOMA_ZH,
    ),
    R.Fact("genfeng", "hands with a 跟风 event", "有跟风的局", "hand_rate", "genfeng", (), ()),
    R.Fact(
        "paoma",
        "hands where a seat reached a 跑马 state",
        "有跑马的局",
        "hand_rate",
        "paoma",
        (),
        (),
    ),
)

#: slots of ``State.model``: the honour a 跟风 may follow (its discarder + 1, 0: none), its
#: kind and followers so far; each seat's run of 跟风 events (4 slots); the 财神 kind + 1
M_LEAD, M_KIND, M_FOLLOW, M_RUN, M_CAI = 0, 1, 2, 3, 7
#: where a win's tier, reading, 财神 count (up to 4) and 跑马 state ride above its pattern
#: bits until settled
TIER_SHIFT, READING_SHIFT, CAI_SHIFT, PAOMA_SHIFT = 20, 22, 24, 27
_BITS_MASK = (1 << TIER_SHIFT) - 1


def params(rules, values: dict) -> tuple[np.ndarray, dict]:
    """The model's ``int64`` array and the engine value it derives (a win below 双翻 is
    small: the value bot may pass it while ready for a 双翻 hand)."""
    tm = [int(x) for x in values["tier_mult"]]  # three numbers ≥ 1: the option checks them
    rest = [int(values[name]) for name in PARAMS if name != "tier_mult"]
    alone = int(values["discarder_pays_all"])
    return np.array([*tm, *rest], dtype=np.int64), {
        "decline_below": tm[2],
        "deal_in": V.deal_in(1, 1 - alone),
    }


def roles(rules) -> tuple[np.ndarray, np.ndarray]:
    """Per scoring family: its role, and whether the value bot aims at it (八对)."""
    codes = np.array([ROLE_OF_FORM[f.form] for f in rules.families], dtype=np.int64)
    return codes, codes == R_PAIRS


def aux_families(rules) -> np.ndarray:
    """The all-pungs (碰碰胡) and one-suit (清一色) families, evaluated beside the scoring
    ones."""
    return np.array(
        [[K.ALL_PUNGS, K.PAIR_ANY, 0, 0, 0, 0], [K.ONE_SUIT, K.PAIR_ANY, 0, 0, 0, 0]],
        dtype=np.int64,
    )


def aux_roles(rules) -> np.ndarray:
    """The roles of :func:`aux_families`."""
    return np.array([R_PUNGS, R_ONE_SUIT], dtype=np.int64)


# --------------------------------------------------------------------------- the hand


@njit_borrowed
def _has_role(G, role):
    for f in range(G.cfg[V.N_SCORING]):
        if G.roles[f] == role:
            return True
    return False


@njit_borrowed
def paoma_state(G, S, s, counts):
    """The 跑马 state (:data:`PAOMA`) of seat ``s``'s hand ``counts`` between turns (16 tiles
    less its melds): 三财神 (``wild_win`` wild tiles), 八对 (eight pairs, a 财神 filling any
    single), 财神牛 / 财神单吊 (the hand less one 财神 is its missing melds: ``lone_wild``)."""
    w = wild_held(S, s, counts)
    if G.cfg[V.WILD_WIN] > 0 and w >= G.cfg[V.WILD_WIN]:
        return PS_SANCAI
    if S.n_melds[s] == 0 and _has_role(G, R_PAIRS):
        singles = 0
        for k in range(34):
            if not S.wild[s, k]:
                singles += counts[k] % 2
        if singles <= w:
            return PS_BADUI
    return PS_NIU if lone_wild(G, S, s, counts) else PS_NONE


@njit_borrowed
def _as_own_kind(S, s, counts, out):
    """``counts`` into ``out`` with every wild tile as the 财神 kind (归位; the engine may
    have moved them aside to test a natural 财神 won from another player)."""
    k = S.model[M_CAI] - 1
    for j in range(34):
        out[j] = counts[j]
    for j in range(34):
        if S.wild[s, j] and k >= 0 and j != k:
            out[k] += out[j]
            out[j] = 0
    return out


@njit_borrowed
def _one_suit(S, s, counts):
    """Whether seat ``s``'s natural tiles and melds are all of one suit (清一色: its 财神
    then stand for that suit's tiles)."""
    suits = 0
    for k in range(34):
        if counts[k] > 0 and not S.wild[s, k]:
            suits |= 1 << (k // 9)
    for i in range(S.n_melds[s]):
        suits |= 1 << (S.melds[s, i, 0] // 9)
    return suits == 1 or suits == 2 or suits == 4


@njit_borrowed
def _first_go_around(S):
    """No meld yet and at most four discards (地胡 over the first go-around)."""
    for s in range(4):
        if S.n_melds[s] > 0:
            return False
    return S.pos[P_TURNS] <= 4


@njit_borrowed
def tier_units(p, bits, tsumo, gangkai):
    """``(units, bits)`` of a win with types ``bits``: the tier multiplier T (the highest
    tier's; with ``stack`` the 双翻 one per 双翻 type), S and G (§3.6), their bits added."""
    top = -1
    n_double = 0
    for b in range(N_TYPES):
        if (bits >> b) & 1:
            top = max(top, TIER[b])
            n_double += TIER[b] == 2
    if top < 0:
        return 0, bits
    t = p[P_SOFT + top]
    if p[P_STACK] and n_double > 1:
        t = p[P_DOUBLE] ** n_double
    if tsumo and (p[P_SCOPE] == SCOPE_ALL or bits & _LISTED):
        t *= 2
        bits |= 1 << B_ZIMO_DOUBLE
    if gangkai:
        t *= 2
        bits |= 1 << B_GANGKAI
    return t, bits


@njit_borrowed
def rank(bits):
    """The order of §3.4 between wins on one tile: tier, then rank inside it (天胡 and 地胡
    count for neither)."""
    best = -1
    for b in range(N_TYPES):
        if (bits >> b) & 1 and _RANK[b] >= 0:
            best = max(best, 8 * TIER[b] + _RANK[b])
    return best


@njit_borrowed
def win_rank(G, units, bits):
    """How a win ranks among several claims on one tile: by :func:`rank`, not its units."""
    return rank(bits)


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, units, bits)`` of seat ``s``'s hand ``counts`` won on ``tile`` as
    ``win_kind`` (``W.per_family`` holds each family's cost with the 财神 wild); the bits
    carry the tier, the reading and the 财神 held above the types until :func:`settle`."""
    p = G.score
    n_sc = G.cfg[V.N_SCORING]
    std = pairs = pungs = False
    for f in range(G.roles.size):
        if W.per_family[f] == 0:
            std = std or G.roles[f] == R_STANDARD
            pairs = pairs or G.roles[f] == R_PAIRS
            pungs = pungs or G.roles[f] == R_PUNGS
    tsumo = R.self_drawn(win_kind)
    w = wild_held(S, s, counts)
    three = G.cfg[V.WILD_WIN] > 0 and w >= G.cfg[V.WILD_WIN]
    before = PS_NONE
    if tile >= 0:
        counts[tile] -= 1
        before = paoma_state(G, S, s, counts)
        counts[tile] += 1
    # 财神牛 / 财神单吊: the lone 财神 pairs with the drawn tile, whatever it is (不管摸什么),
    # even where it would stand for a fifth copy, which the family reading refuses
    std = std or (tsumo and before == PS_NIU)
    if not (std or pairs or (three and tsumo)):
        return False, 0, 0
    if before != PS_NONE and not tsumo:
        return False, 0, 0  # 跑马: self-draw only
    std_hard, pairs_hard = std, pairs
    if w > 0 and (std or pairs):
        # the 财神 as their own kind (归位): a natural reading
        natural = _as_own_kind(S, s, counts, W.tiles34[:])
        kernel_cost(
            G,
            S,
            W,
            s,
            natural,
            G.families[:n_sc],
            W.no_wild[:].view(np.bool_),
            W.caps[:],
            np.int64(0),
        )
        std_hard = pairs_hard = False
        for f in range(n_sc):
            if W.per_family[f] == 0:
                std_hard = std_hard or G.roles[f] == R_STANDARD
                pairs_hard = pairs_hard or G.roles[f] == R_PAIRS
    bits = 0
    if std:
        bits |= 1 << (T_PINGHU if std_hard else T_ZIMO if tsumo else T_RUAN)
    if tsumo:
        bits |= 1 << T_ZIMO
    if win_kind == R.WIN_QIANGGANG:
        bits |= 1 << T_QIANGGANG
    if pairs:
        bits |= 1 << (T_YING_BADUI if pairs_hard else T_RUAN_BADUI)
    if three and tsumo:
        bits |= 1 << T_SANCAI_RUAN
    if three and std:
        bits |= 1 << T_SANCAI_YING
    if tsumo and std and before == PS_NIU:
        bits |= 1 << T_NIU
    dealer = S.pos[P_DEALER]
    if tsumo and dealer_first_turn(S, s):
        bits |= 1 << T_TIANHU
    if (
        win_kind == R.WIN_DIANPAO
        and s != dealer
        and (S.pos[P_TURNS] == 1 if p[P_DIHU] == DIHU_FIRST else _first_go_around(S))
    ):
        bits |= 1 << T_DIHU
    if std and exposed_melds(S, s) == G.cfg[V.MELDS]:
        bits |= 1 << T_DANDIAO
    if pungs:
        bits |= 1 << T_PENGPENG
    if (std or pairs) and _one_suit(S, s, counts):
        bits |= 1 << T_QINGYISE
    if before != PS_NONE:
        bits |= 1 << B_PAOMA
    units, bits = tier_units(p, np.int64(bits), tsumo, win_kind == R.WIN_GANGKAI)
    top = 0
    for b in range(N_TYPES):
        if (bits >> b) & 1:
            top = max(top, TIER[b] + 1)
    reading = (
        RD_NONE
        if w == 0
        else RD_GUIWEI
        if std_hard or pairs_hard
        else RD_DAITI
        if std or pairs
        else RD_FREE
    )
    return (
        True,
        units,
        bits
        | (top << TIER_SHIFT)
        | (reading << READING_SHIFT)
        | (w << CAI_SHIFT)
        | (before << PAOMA_SHIFT),
    )


@njit_borrowed
def shown_type(bits):
    """The type a win is recorded as: 1 + its index in :data:`TYPES` (0: none)."""
    for t in _SHOWN:
        if (bits >> t) & 1:
            return t + 1
    return 0


# --------------------------------------------------------------------------- discards


@njit_borrowed
def discarded(G, S, rec, s, t):
    """After seat ``s`` discarded ``t``: its 跑马 state, and 跟风 (§3.4) — an honour of
    :data:`GENFENG_KINDS` followed by the next three discards in turn, with no claim between,
    costs its discarder 2^(k−1) (``genfeng_growth`` linear: k) to each other player, k his
    run of consecutive events."""
    p = G.score
    col = G.cfg[V.COL_MODEL]
    if paoma_state(G, S, s, S.concealed[s]) != PS_NONE:
        rec[col + C_PAOMA] |= 1 << s
    if not p[P_GENFENG]:
        return
    m = S.model[:]
    lead = m[M_LEAD] - 1
    if (
        lead >= 0
        and S.pos[P_LAST] == m[M_KIND]
        and t == m[M_KIND]
        and s == (lead + m[M_FOLLOW] + 1) % 4
    ):
        m[M_FOLLOW] += 1
        if m[M_FOLLOW] == 3:
            k = m[M_RUN + lead] + 1
            m[M_RUN + lead] = k
            amount = k if p[P_GROWTH] == GROWTH_LINEAR else 1 << (k - 1)
            row = S.pay[SRC_GENFENG]
            for q in range(4):
                if q != lead:
                    row[lead] -= amount
                    row[q] += amount
            rec[col + C_GENFENG] += 1
            rec[col + C_GENFENG_TOP] = max(rec[col + C_GENFENG_TOP], k)
            m[M_LEAD] = 0
        return
    if lead >= 0:
        m[M_RUN + lead] = 0  # the honour was not followed: the run is broken
    if GENFENG_KINDS[t]:
        m[M_LEAD] = s + 1
        m[M_KIND] = t
        m[M_FOLLOW] = 0
    else:
        m[M_LEAD] = 0
        m[M_RUN + s] = 0


# --------------------------------------------------------------------------- payments


@njit_borrowed
def start_hand(G, S, rec, dice_seed):
    """The 财神 kind of the hand, turned up at the deal; the non-dealers whose 16 dealt
    tiles are already in a 跑马 state."""
    S.model[M_CAI] = rec[R.C_WILD_KIND] + 1
    col = G.cfg[V.COL_MODEL]
    for s in range(4):
        if s != S.pos[P_DEALER] and paoma_state(G, S, s, S.concealed[s]) != PS_NONE:
            rec[col + C_PAOMA] |= 1 << s


@njit_borrowed
def _kongs(S, w):
    n = 0
    for i in range(S.n_melds[w]):
        n += S.melds[w, i, M_TYPE] == MELD_KONG or S.melds[w, i, M_TYPE] == MELD_CKONG
    return n


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Every loser p pays ``B(W, p) · units + C + K`` (§3.6; the discarder all three shares
    with ``discarder_pays_all``); the winner's type, tier, 财神 and reading recorded."""
    p = G.score
    col = G.cfg[V.COL_MODEL]
    row = S.pay[G.cfg[V.SRC_WIN]]
    dealer = S.pos[P_DEALER]
    tsumo = R.self_drawn(win_kind)
    for i in range(n_win):
        w = order[i]
        packed = S.bits[w]
        bits = packed & _BITS_MASK
        cai = (packed >> CAI_SHIFT) & 7
        rec[col + C_TYPE + w] = shown_type(bits)
        rec[col + C_TIER + w] = (packed >> TIER_SHIFT) & 3
        rec[col + C_READING + w] = (packed >> READING_SHIFT) & 3
        rec[col + C_CAI + w] = cai
        rec[col + C_PAOMA_STATE + w] = packed >> PAOMA_SHIFT
        S.bits[w] = bits
        extra = p[P_CAI_POINTS] * cai + p[P_KONG_POINTS] * _kongs(S, w)
        for q in range(4):
            if q == w:
                continue
            base = p[P_MAIDI] + p[P_DINGDI] + p[P_DIFEN] if w == dealer or q == dealer else 1
            amount = base * S.units[w] + extra
            payer = discarder if not tsumo and discarder >= 0 and p[P_DISCARDER_ALL] else q
            row[payer] -= amount
            row[w] += amount
