"""Shanghai scoring (RULES.md §5.3–§5.10): hand types, the flower count H, the value V with
the 勒子 cap, 开宝, 荒番, 承包 liability and the customs of §5.8.

One model for the three Shanghai games; they differ by values (their presets' ``[game]``
tables), never by name: ``value`` is how a hand's value is made — ``"lezi"`` (清混碰,
§5.5: tiers of 勒子 and a cap), ``"doubling"`` (百搭, §5.9: ``(b0 + H) · 2^n``) or ``"flat"``
(敲麻, §5.10: ``b0 + H``). A win's value V is its ``units_<seat>`` in the record; its items
(门清, 大吊车, 杠开, 吊百搭, 开宝, 荒番, the cap binding …) are its pattern bits
(:data:`PATTERNS`); its type (:data:`TYPES`) and H are the model's columns.

Payments (§5.7): a ron is paid by the discarder (or as ``ron_payment`` says), a self-drawn
win by each other seat, a robbed kong (抢杠) by the konger alone, 3V. A winner in a liability
relation (承包: at least ``baopai_threshold`` claims one way or, with ``baopai_mutual``, the
other) is paid as the §5.7 table says, each relation on its own; those payments are the
``baopai`` source, every other win's the ``win`` source.

>>> TYPES[T_QINGPENG], [p.id for p in PATTERNS][:3]
('qingpeng', ['menqing', 'dadiaoche', 'gangkai'])
>>> SOURCES
('win', 'baopai')
"""

from __future__ import annotations

import numpy as np

from ...kernels import shanten as K
from ...kernels.jit import njit_borrowed
from ...kernels.rng import below_seeded
from ...kernels.shanten import MELD_PUNG
from ...rules import RulesError
from .. import record as R
from .. import values as V
from ..evaluation import lone_wild
from ..state import M_FROM, M_KIND, M_TYPE, ST_BONUS, ST_TENPAI, claims, exposed_melds

#: the items of a win's value: bit b of a winner's ``patterns`` is PATTERNS[b]
PATTERNS = (
    R.Pattern("menqing", "门清", 2, "no chow, pung or exposed kong (concealed kongs allowed)"),
    R.Pattern("dadiaoche", "大吊车", 0, "four exposed melds (kongs included) and a single wait"),
    R.Pattern("gangkai", "杠开", 0, "won on a kong's or a flower's replacement tile"),
    R.Pattern("diao_baida", "吊百搭", 2, "the pair is a 百搭 and the winning tile (doubling)"),
    R.Pattern("kaibao", "开宝", 2, "the opening dice opened 开宝 (×2)"),
    R.Pattern("huangfan", "荒番", 2, "the 荒番 counter was at least 1 (×2)"),
    R.Pattern("capped", "封顶", 0, "the 勒子 cap bound the value"),
    R.Pattern("raised", "升勒子", 0, "杠开 or 大吊车 raised a below-cap hand to one 勒子"),
    R.Pattern("diao_double", "清吊混碰吊", 2, "a 大吊车 清一色 or 混碰 doubled (diao_double)"),
)
(
    B_MENQING,
    B_DADIAO,
    B_GANGKAI,
    B_DIAO_BAIDA,
    B_KAIBAO,
    B_HUANGFAN,
    B_CAPPED,
    B_RAISED,
    B_DIAO_DOUBLE,
) = range(len(PATTERNS))

#: the legal type of a win (§5.3), from its tiles; ``standard`` is any other standard hand
#: (百搭, 敲麻), ``bahua`` 八花齐
TYPES = (
    "none",
    "standard",
    "pengpeng",
    "hunyise",
    "qingyise",
    "hunpeng",
    "qingpeng",
    "fengyise",
    "fengpeng",
    "bahua",
)
TYPES_ZH = ("", "平胡", "碰碰胡", "混一色", "清一色", "混碰", "清碰", "风一色", "风碰", "八花齐")
(
    T_NONE,
    T_STANDARD,
    T_PENGPENG,
    T_HUNYISE,
    T_QINGYISE,
    T_HUNPENG,
    T_QINGPENG,
    T_FENGYISE,
    T_FENGPENG,
    T_BAHUA,
) = range(len(TYPES))
#: 勒子 tiers of the types worth a fixed value (§5.5): R = tier · L (0: counted from H)
_TIER = np.array([0, 0, 0, 0, 1, 1, 2, 2, 4, 2], dtype=np.int64)

#: roles of the scoring families, by form (the value bot aims at the 勒子 ones)
ROLE_OF_FORM = {"standard": 0, "all_pungs": 1, "one_suit": 2, "mixed_one_suit": 3, "all_honours": 4}
R_STANDARD, R_PUNGS, R_ONE_SUIT, R_MIXED, R_HONOURS = range(5)
_LEZI_ROLES = (R_ONE_SUIT, R_HONOURS)

#: flower points of a meld (§5.4) by meld type (chow, pung, kong, concealed kong) and class
#: of kind (suited, wind, dragon)
_MELD_POINTS = np.array([[0, 0, 0], [0, 1, 2], [1, 2, 3], [2, 3, 4]], dtype=np.int64)

#: the model's values: name -> (choices, or type, default); the presets' [game] set them
PARAMS = {
    "value": (("lezi", "doubling", "flat"), "lezi"),
    "base": (int, 1),
    "lezi": (int, 20),
    "pph_mult": (int, 1),
    "hys_mult": (int, 1),
    "menqing_double": (bool, True),
    "kaibao": (bool, True),
    "huangfan": (bool, True),
    "baopai": (bool, True),
    "baopai_threshold": (int, 3),
    "baopai_mutual": (bool, True),
    "baopai_tsumo_shares": (int, 5),
    "ron_payment": (("discarder_only", "chuchong", "baochong"), "discarder_only"),
    "qys_nine_exposed": (bool, False),
    "session_loss_cap": (int, 0),
    "diao_double": (bool, False),
}
(
    VALUE,
    BASE,
    LEZI,
    PPH_MULT,
    HYS_MULT,
    MENQING_DOUBLE,
    KAIBAO,
    HUANGFAN,
    BAOPAI,
    BAOPAI_THRESHOLD,
    BAOPAI_MUTUAL,
    BAOPAI_TSUMO_SHARES,
    RON_PAYMENT,
    QYS_NINE_EXPOSED,
    SESSION_LOSS_CAP,
    DIAO_DOUBLE,
) = range(len(PARAMS))
VALUE_LEZI, VALUE_DOUBLING, VALUE_FLAT = range(3)
RON_DISCARDER, RON_CHUCHONG, RON_BAOCHONG = range(3)


#: payment sources, in the order of the record's pay_<source> columns
SOURCES = ("win", "baopai")
#: the sources that pay a win (a winner's receipt for it)
WIN_SOURCES = ("win", "baopai")
#: the model's own columns: each seat's win type (TYPES) and flower count H, the 开宝 flag
#: and the opening dice, the 荒番 counter at the start of the hand, the liability
#: relations (bit 4·A + B: A made ``baopai_threshold`` claims on B's discards)
COLUMNS = (
    *R.seat_columns("type"),
    *R.seat_columns("flowers"),
    "kaibao",
    "dice_0",
    "dice_1",
    "huangfan",
    "baopai_pairs",
)
C_TYPE, C_FLOWERS, C_KAIBAO, C_DICE, C_HUANGFAN, C_PAIRS = 0, 4, 8, 9, 11, 12
#: columns wider than int8
WIDE = ("baopai_pairs",)
#: what its patterns are called in summaries
PATTERNS_TITLE = "value items (计分项)"
#: what the summary and comparisons report of these columns (V is the win's units)
FACTS = (
    R.Fact(
        "type", "share of wins by type", "胡牌类型占比", "winner_share", "type", TYPES, TYPES_ZH
    ),
    R.Fact("flowers", "flower count H of a win", "胡牌花数 H", "winner_mean", "flowers", (), ()),
    R.Fact("kaibao", "开宝 hands", "开宝局", "hand_rate", "kaibao", (), ()),
    R.Fact(
        "huangfan",
        "hands under 荒番 (counter at least 1)",
        "荒番局",
        "hand_rate",
        "huangfan",
        (),
        (),
    ),
    R.Fact(
        "baopai",
        "hands with a 承包 relation",
        "有承包关系的局",
        "hand_rate",
        "baopai_pairs",
        (),
        (),
    ),
)

#: slots of ``State.model`` (this hand) and ``State.carry`` (this game)
M_KAIBAO_ON, M_HUANGFAN_ON = range(2)
K_HUANGFAN, K_NET = 0, 4  # the 荒番 counter; each seat's net score in the session (4 slots)
#: where a win's type and H ride in its pattern bits until :func:`settle` records them
TYPE_SHIFT, H_SHIFT = 16, 20


def params(rules, values: dict) -> tuple[np.ndarray, dict]:
    """The model's ``int64`` parameters (a null 勒子 or session cap as 0: none) and the
    engine values it derives (the value below which a win is small: one 勒子; the claims on
    one player's discards that make a liability)."""
    values = dict(
        values, lezi=values["lezi"] or 0, session_loss_cap=values["session_loss_cap"] or 0
    )
    if values["value"] == VALUE_LEZI and values["lezi"] <= 0:
        raise RulesError(
            f"rule set {rules.id!r}: the 勒子 value needs sh_lezi (a number of "
            f"花); null is only for the doubling and flat values"
        )
    o = rules.options
    if not o.get("sh_honours_are_feng", True):
        raise RulesError(
            f"rule set {rules.id!r}: sh_honours_are_feng = false (风 as winds "
            f"only) is not modelled; the 风 types count every honour"
        )
    if o.get("sh_dragons_are_flowers") and rules.game_spec.get("bonus_win", 0):
        raise RulesError(
            f"rule set {rules.id!r}: 八花齐 counts the eight flowers, which the "
            f"engine cannot tell from dragons set aside; sh_dragons_are_flowers "
            f"is only modelled without 八花齐 (百搭, 敲麻)"
        )
    if values["baopai_tsumo_shares"] not in (3, 5):
        raise RulesError(f"rule set {rules.id!r}: baopai_tsumo_shares must be 3 or 5")
    out = np.array([int(values[name]) for name in PARAMS], dtype=np.int64)
    lezi = values["value"] == VALUE_LEZI
    return out, {
        "decline_below": values["lezi"] if lezi else 1,
        "feed_limit": values["baopai_threshold"] if values["baopai"] else 0,
        # 出冲: the discarder pays 2V, each other loser V; else the discarder alone
        "deal_in": V.deal_in(2, 1) if values["ron_payment"] == RON_CHUCHONG else V.deal_in(1, 0),
    }


def _lezi_value(rules) -> bool:
    spec = rules.game_spec.get("value", "lezi")
    return spec == "lezi"


def roles(rules) -> tuple[np.ndarray, np.ndarray]:
    """Per scoring family: its role, and whether it reaches a 勒子 tier (the value bot's
    target; none where the value is not counted in 勒子)."""
    codes = np.array([ROLE_OF_FORM[f.form] for f in rules.families], dtype=np.int64)
    big = np.isin(codes, _LEZI_ROLES) & _lezi_value(rules)
    return codes, big


def aux_families(rules) -> np.ndarray:
    """The all-pungs family where the scoring families lack it (a type of the record)."""
    if any(f.form == "all_pungs" for f in rules.families):
        return np.zeros((0, K.FAMILY_COLUMNS), dtype=np.int64)
    return np.array([[K.ALL_PUNGS, K.PAIR_ANY, 0, 0, 0, 0]], dtype=np.int64)


#: roles of the auxiliary families the tuned player also weighs as big wins (none)
CHASE_ROLES: tuple[int, ...] = ()


def aux_roles(rules) -> np.ndarray:
    """The roles of :func:`aux_families`."""
    return np.full(len(aux_families(rules)), R_PUNGS, dtype=np.int64)


# --------------------------------------------------------------------------- hand value


@njit_borrowed
def _kind_class(k):
    """0 suited, 1 wind, 2 dragon."""
    return 0 if k < 27 else 1 if k < 31 else 2


@njit_borrowed
def flower_count(S, s, counts):
    """H (§5.4): seat ``s``'s bonus tiles, its melds, and the honour pungs among its
    concealed ``counts`` (three of a natural honour kind; suited pungs count nothing)."""
    h = S.status[s, ST_BONUS]
    for i in range(S.n_melds[s]):
        h += _MELD_POINTS[S.melds[s, i, M_TYPE], _kind_class(S.melds[s, i, M_KIND])]
    for k in range(27, 34):
        if counts[k] >= 3 and not S.wild[s, k]:
            h += _MELD_POINTS[MELD_PUNG, _kind_class(k)]
    return h


@njit_borrowed
def hand_type(G, W, counts, S, s):
    """The type (:data:`TYPES`) of seat ``s``'s complete hand from its natural tiles and
    melds, and whether some arrangement is all pungs (``W.per_family`` of all families)."""
    pungs = False
    for f in range(G.roles.size):
        if G.roles[f] == R_PUNGS and W.per_family[f] == 0:
            pungs = True
    suits = 0
    honours = False
    for k in range(34):
        if counts[k] > 0 and not S.wild[s, k]:
            if k >= 27:
                honours = True
            else:
                suits |= 1 << (k // 9)
    for i in range(S.n_melds[s]):
        k = S.melds[s, i, M_KIND]
        if k >= 27:
            honours = True
        else:
            suits |= 1 << (k // 9)
    if suits == 0:
        return T_FENGPENG if pungs else T_FENGYISE
    if suits == 1 or suits == 2 or suits == 4:
        if honours:
            return T_HUNPENG if pungs else T_HUNYISE
        return T_QINGPENG if pungs else T_QINGYISE
    return T_PENGPENG if pungs else T_STANDARD


@njit_borrowed
def _diao_baida(G, counts, S, s, tile):
    """吊百搭: the pair can be a wild tile and the winning ``tile`` — the concealed tiles less
    those two are the hand's missing melds (wildcards free)."""
    if tile < 0 or S.wild[s, tile]:
        return False
    counts[tile] -= 1
    done = lone_wild(G, S, s, counts)
    counts[tile] += 1
    return done


@njit_borrowed
def _menqing(S, s):
    return exposed_melds(S, s) == 0


@njit_borrowed
def value(p, typ, h, bits):
    """``(V, bits)``: the value of a win of type ``typ`` with H = ``h`` whose situational
    items are set in ``bits`` (门清, 大吊车, 杠开, 吊百搭, 开宝, 荒番), as ``p["value"]``
    says; the cap's and the raise's bits added (§5.5, §5.9, §5.10)."""
    L = p[LEZI]
    menqing = ((bits >> B_MENQING) & 1) * (p[MENQING_DOUBLE] != 0)
    lifted = ((bits >> B_GANGKAI) | (bits >> B_DADIAO)) & 1
    if p[VALUE] == VALUE_LEZI:
        cap = L * max(_TIER[typ], 1)
        r = L * _TIER[typ]
        if _TIER[typ] == 0:
            r = p[BASE] + h
            if typ == T_PENGPENG:
                r *= p[PPH_MULT]
            if typ == T_HUNYISE:
                r *= p[HYS_MULT]
        if menqing:
            r *= 2
            cap = max(cap, 2 * L)
        if r > cap:
            r = cap
            bits |= 1 << B_CAPPED
        if lifted and r < L:
            r = L
            bits |= 1 << B_RAISED
        if (
            p[DIAO_DOUBLE]
            and (bits >> B_DADIAO) & 1
            and (typ == T_QINGYISE or typ == T_QINGPENG or typ == T_HUNPENG)
        ):
            r *= 2
            bits |= 1 << B_DIAO_DOUBLE
    else:
        r = p[BASE] + h
        if p[VALUE] == VALUE_DOUBLING:
            n = (
                menqing
                + ((bits >> B_DADIAO) & 1)
                + ((bits >> B_DIAO_BAIDA) & 1)
                + ((bits >> B_GANGKAI) & 1)
            )
            r <<= n
        if L > 0 and r > L:
            r = L
            bits |= 1 << B_CAPPED
    if (bits >> B_KAIBAO) & 1:
        r *= 2
    if (bits >> B_HUANGFAN) & 1:
        r *= 2
    return r, bits


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, V, bits)`` of seat ``s``'s complete hand ``counts`` won on ``tile`` as
    ``win_kind`` (``W.per_family`` holds each family's cost); the bits carry the type and
    H above the items until :func:`settle` records them."""
    p = G.score
    if win_kind == R.WIN_BONUS:
        typ = T_BAHUA
    else:
        legal = False
        for f in range(G.cfg[V.N_SCORING]):
            legal = legal or W.per_family[f] == 0
        if not legal:
            return False, 0, 0
        typ = hand_type(G, W, counts, S, s)
    h = flower_count(S, s, counts)
    bits = 0
    if win_kind != R.WIN_BONUS:  # 八花齐 is worth 2L whatever the tiles
        if _menqing(S, s):
            bits |= 1 << B_MENQING
        if exposed_melds(S, s) == G.cfg[V.MELDS]:
            bits |= 1 << B_DADIAO
    if win_kind == R.WIN_GANGKAI:
        bits |= 1 << B_GANGKAI
    if S.model[M_KAIBAO_ON]:
        bits |= 1 << B_KAIBAO
    if S.model[M_HUANGFAN_ON]:
        bits |= 1 << B_HUANGFAN
    if p[VALUE] == VALUE_DOUBLING and _diao_baida(G, counts, S, s, tile):
        bits |= 1 << B_DIAO_BAIDA
    v, bits = value(p, np.int64(typ), h, np.int64(bits))
    return True, v, bits | (typ << TYPE_SHIFT) | (h << H_SHIFT)


# --------------------------------------------------------------------------- the hand


@njit_borrowed
def start_hand(G, S, rec, dice_seed):
    """The opening dice (开宝: doubles, or a 1 and a 4, §5.6) and the 荒番 counter."""
    p = G.score
    col = G.cfg[V.COL_MODEL]
    d0 = below_seeded(dice_seed, 100, 6) + 1
    d1 = below_seeded(dice_seed, 101, 6) + 1
    kaibao = d0 == d1 or (d0 + d1 == 5 and (d0 == 1 or d1 == 1))
    S.model[M_KAIBAO_ON] = 1 if p[KAIBAO] and kaibao else 0
    S.model[M_HUANGFAN_ON] = 1 if p[HUANGFAN] and S.carry[K_HUANGFAN] >= 1 else 0
    rec[col + C_KAIBAO] = S.model[M_KAIBAO_ON]
    rec[col + C_DICE] = d0
    rec[col + C_DICE + 1] = d1
    rec[col + C_HUANGFAN] = S.carry[K_HUANGFAN]


@njit_borrowed
def end_hand(G, S, rec):
    """荒番 (§5.6): a drawn hand adds 1 to the counter, a hand with a win takes 1 off."""
    if rec[R.C_OUTCOME] == R.OUT_DRAW:
        S.carry[K_HUANGFAN] += 1
    elif rec[R.C_OUTCOME] == R.OUT_WIN and S.carry[K_HUANGFAN] > 0:
        S.carry[K_HUANGFAN] -= 1


# --------------------------------------------------------------------------- payments


@njit_borrowed
def related(p, S, a, b):
    """Whether seats ``a`` and ``b`` are in a liability relation (承包, §5.7)."""
    if not p[BAOPAI] or a == b:
        return False
    t = p[BAOPAI_THRESHOLD]
    return claims(S, a, b) >= t or (p[BAOPAI_MUTUAL] and claims(S, b, a) >= t)


@njit_borrowed
def _pay(p, S, row, payer, winner, amount):
    """``payer`` pays ``winner`` ``amount`` into ``row``; a session loss cap stops a payer
    whose net score in the game reached it (he still collects)."""
    if p[SESSION_LOSS_CAP] > 0:
        room = p[SESSION_LOSS_CAP] + S.carry[K_NET + payer]
        amount = min(amount, max(room, 0))
    row[payer] -= amount
    row[winner] += amount
    S.carry[K_NET + payer] -= amount
    S.carry[K_NET + winner] += amount


@njit_borrowed
def _nine_exposed(S, w):
    """清一色九张落地: three of seat ``w``'s claimed melds are in one suit."""
    best = 0
    for suit in range(3):
        n = 0
        for i in range(S.n_melds[w]):
            if (
                S.melds[w, i, M_FROM] >= 0
                and S.melds[w, i, M_KIND] // 9 == suit
                and S.melds[w, i, M_KIND] < 27
            ):
                n += 1
        best = max(best, n)
    return best >= 3


@njit_borrowed
def _is_winner(order, n_win, x):
    for i in range(n_win):
        if order[i] == x:
            return True
    return False


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Pay the win of the ``n_win`` seats in ``order`` (§5.7, §5.8) and record each winner's
    type and H."""
    p = G.score
    col = G.cfg[V.COL_MODEL]
    plain = S.pay[G.cfg[V.SRC_WIN]]
    liable = S.pay[G.cfg[V.SRC_BAOPAI]]
    tsumo = R.self_drawn(win_kind)
    robbed = win_kind == R.WIN_QIANGGANG
    pairs = 0
    for a in range(4):
        for b in range(4):
            if a != b and p[BAOPAI] and claims(S, a, b) >= p[BAOPAI_THRESHOLD]:
                pairs |= 1 << (4 * a + b)
    rec[col + C_PAIRS] = pairs
    ready = S.status[discarder, ST_TENPAI] if discarder >= 0 else 0
    for i in range(n_win):
        w = order[i]
        packed = S.bits[w]
        rec[col + C_TYPE + w] = (packed >> TYPE_SHIFT) & 15
        rec[col + C_FLOWERS + w] = packed >> H_SHIFT
        S.bits[w] = packed & ((1 << TYPE_SHIFT) - 1)
        v = S.units[w]
        if not tsumo and not robbed and p[QYS_NINE_EXPOSED] and _nine_exposed(S, w):
            # 清一色九张落地: the feeder pays the whole win — what the ron would collect, at
            # least 3V — whatever the liability relations
            whole = 4 * v if p[RON_PAYMENT] == RON_CHUCHONG else 3 * v
            _pay(p, S, plain, discarder, w, whole)
            continue
        n_rel = 0
        for q in range(4):
            if not related(p, S, w, q):
                continue
            n_rel += 1
            if robbed:
                _pay(p, S, liable, q, w, 3 * v)  # the konger once if he is the liable one
            elif tsumo:
                _pay(p, S, liable, q, w, p[BAOPAI_TSUMO_SHARES] * v)
            elif q == discarder:
                _pay(p, S, liable, q, w, 2 * v)
            else:
                if _is_winner(order, n_win, q) or not ready:
                    _pay(p, S, liable, discarder, w, (1 if ready else 2) * v)
                else:
                    _pay(p, S, liable, discarder, w, v)
                    _pay(p, S, liable, q, w, v)
        if n_rel > 0:
            if robbed and not related(p, S, w, discarder):
                _pay(p, S, liable, discarder, w, 3 * v)
            continue
        if robbed:
            _pay(p, S, plain, discarder, w, 3 * v)
        elif tsumo:
            for q in range(4):
                if q != w:
                    _pay(p, S, plain, q, w, v)
        elif p[RON_PAYMENT] == RON_DISCARDER:
            _pay(p, S, plain, discarder, w, v)
        elif p[RON_PAYMENT] == RON_BAOCHONG:
            _pay(p, S, plain, discarder, w, 3 * v)
        else:
            for q in range(4):
                if q != w:
                    _pay(p, S, plain, q, w, 2 * v if q == discarder else v)
