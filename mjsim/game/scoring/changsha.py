"""Changsha scoring (RULES.md §2.4–§2.10): big wins, birds (扎鸟), 起手胡 and payments.

A win's families come from the shanten kernel's per-family costs (a family is complete at
cost 0); :data:`ROLE_OF_FORM` says what each winning form means here, and
:data:`PATTERNS` lists the big wins with their units. Payment per payer ``p`` to winner
``W`` (§2.10): ``unit(p) · min(max(U, 1) · f(p), cap) + π_W + π_p`` where ``unit = small
+ d`` for a small win and ``big + d`` per big unit (``big · mult + d`` without
``dealer_bonus_per_unit``), ``d`` the dealer bonus and ``f`` the bird factor (``1 + h`` or
``2^h``). 起手胡 and mid-game 四喜/六六顺 are each settled as a self-drawn small win.

>>> [p.id for p in PATTERNS][:2], PATTERNS[1].units
(['qidui', 'haohua_qidui'], 2)
"""

from __future__ import annotations

import numpy as np

from ...kernels import qishou as Q
from ...kernels import shanten as K
from ...kernels.jit import njit_borrowed
from ...kernels.rng import below_seeded
from ...rules import RulesError
from .. import record as R
from .. import values as V
from ..state import P_DEALER, P_HEAD, P_TAIL, ST_LLS_DONE, ST_LOCKED, ST_QS_DONE, ST_SIXI_DONE

#: the big wins (大胡): bit b of a winner's ``patterns`` is PATTERNS[b]; a win's units are
#: the sum over its patterns (``compound = "single"``: at most 1)
PATTERNS = (
    R.Pattern("qidui", "七对", 1, "seven pairs, no quad"),
    R.Pattern("haohua_qidui", "豪华七对", 2, "seven pairs with one quad"),
    R.Pattern("chaohaohua_qidui", "超豪华七对", 3, "seven pairs with two quads"),
    R.Pattern("chaochaohaohua_qidui", "超超豪华七对", 4, "seven pairs with three quads"),
    R.Pattern("qingyise", "清一色", 1, "one suit (the one_suit form, or seven pairs in one suit)"),
    R.Pattern("jiangyise", "将一色", 1, "all 258 tiles (the all_258 form)"),
    R.Pattern("pengpenghu", "碰碰胡", 1, "all pungs (the all_pungs form)"),
    R.Pattern("quanqiuren", "全求人", 1, "every meld exposed (self-drawn only with qqr_selfdraw)"),
    R.Pattern("gangshang_kaihua", "杠上开花", 1, "won as gangshang_kaihua"),
    R.Pattern("gangshang_pao", "杠上炮", 1, "won as gangshang_pao (with pao_big_wins)"),
    R.Pattern("qianggang", "抢杠胡", 1, "won as qianggang (with pao_big_wins)"),
    R.Pattern("haidi_laoyue", "海底捞月", 1, "won as haidi_laoyue"),
    R.Pattern("haidi_pao", "海底炮", 1, "won as haidi_pao (with pao_big_wins)"),
)
(
    P_QIDUI,
    P_HAOHUA,
    P_CHAOHAOHUA,
    P_CHAOCHAO,
    P_QINGYISE,
    P_JIANGYISE,
    P_PENGPENG,
    P_QUANQIUREN,
    P_GANGKAI,
    P_GANGPAO,
    P_QIANGGANG,
    P_HAIDILAO,
    P_HAIDIPAO,
) = range(len(PATTERNS))
_UNITS = np.array([p.units for p in PATTERNS], dtype=np.int64)

#: what a winning family means here, by its form; ``std_any`` is the auxiliary any-pair
#: standard family of 假将 (fake_pair)
ROLES = ("small", "qingyise", "pengpeng", "qidui", "jiangyise", "quanqiuren", "std_any")
R_SMALL, R_QINGYISE, R_PENGPENG, R_QIDUI, R_JIANGYISE, R_QQR, R_STD_ANY = range(len(ROLES))
ROLE_OF_FORM = {
    "standard": R_SMALL,
    "one_suit": R_QINGYISE,
    "all_pungs": R_PENGPENG,
    "seven_pairs": R_QIDUI,
    "all_258": R_JIANGYISE,
    "quanqiuren": R_QQR,
}
_BIG_ROLES = (R_QINGYISE, R_PENGPENG, R_QIDUI, R_JIANGYISE)
#: the big win a family of each role sets (−1: none; 七对 is counted by its quads)
_ROLE_BIT = np.array(
    [-1, P_QINGYISE, P_PENGPENG, -1, P_JIANGYISE, P_QUANQIUREN, -1], dtype=np.int64
)
#: per win kind (the order of WIN_KINDS): the big win it adds (−1 none), and whether that
#: needs ``pao_big_wins`` (the ron-type situational wins)
_SITUATIONAL_BIT = np.array(
    [-1, -1, -1, P_QIANGGANG, P_GANGKAI, P_GANGPAO, P_HAIDILAO, P_HAIDIPAO, -1], dtype=np.int64
)
_NEEDS_PAO = np.array([0, 0, 0, 1, 0, 1, 0, 1, 0], dtype=np.int64)
#: situational wins that 假将 lets a 258-free shape win
_FAKE_PAIR_KINDS = (R.WIN_GANGKAI, R.WIN_QIANGGANG, R.WIN_HAIDILAO, R.WIN_HAIDIPAO)

#: the model's values: name -> (choices, or type, default); changsha.toml's [game] sets them
PARAMS = {
    "qqr_selfdraw": (bool, False),
    "compound": (("full", "single"), "full"),
    "multi_gangkai": (("add", "mul"), "add"),
    "birds": (int, 2),
    "bird_mode": (("add", "mul"), "add"),
    "bird_origin": (("winner", "dealer"), "winner"),
    "haidi_bird": (("none", "winning_tile"), "none"),
    "piao": (int, 0),
    "qishou_birds": (("none", "dice"), "none"),
    "dealer_bonus": (int, 1),
    "dealer_bonus_scope": (("involved", "winner_only"), "involved"),
    "dealer_bonus_per_unit": (bool, True),
    "cap": (int, 6),
    "ron_payers": (("discarder", "all"), "discarder"),
    "small_unit": (int, 1),
    "big_unit": (int, 6),
    "pao_big_wins": (bool, True),
    "big_wins": (bool, True),
    "mid_sixi": (bool, True),
    "mid_liuliushun": (bool, True),
    # derived from the 起手胡 options (kernels.qishou.qishou_config), not set in [game]
    "qs_enabled": (int, 0),
    "qs_binary": (bool, False),
    "qs_reuse_quad": (bool, False),
    "qs_yizhihua_mode": (int, 0),
}
(
    QQR_SELFDRAW,
    COMPOUND,
    MULTI_GANGKAI,
    BIRDS,
    BIRD_MODE,
    BIRD_ORIGIN,
    HAIDI_BIRD,
    PIAO,
    QISHOU_BIRDS,
    DEALER_BONUS,
    DEALER_BONUS_SCOPE,
    DEALER_BONUS_PER_UNIT,
    CAP,
    RON_PAYERS,
    SMALL_UNIT,
    BIG_UNIT,
    PAO_BIG_WINS,
    BIG_WINS,
    MID_SIXI,
    MID_LIULIUSHUN,
    QS_ENABLED,
    QS_BINARY,
    QS_REUSE_QUAD,
    QS_YIZHIHUA_MODE,
) = range(len(PARAMS))
_DERIVED = ("qs_enabled", "qs_binary", "qs_reuse_quad", "qs_yizhihua_mode")


#: payment sources, in the order of the record's pay_<source> columns
SOURCES = ("win", "qishou", "mid")
#: the sources that pay a win (a winner's receipt for it)
WIN_SOURCES = ("win",)
#: the model's own record columns: the birds of the hand's win, the hits of its first
#: winner, and each seat's 起手胡 and mid-game win counts
COLUMNS = (
    "n_birds",
    *R.seat_columns("bird"),
    *R.seat_columns("hits"),
    *R.seat_columns("qishou"),
    *R.seat_columns("mid"),
)
C_N_BIRDS, C_BIRD, C_HITS, C_QISHOU, C_MID = 0, 1, 5, 9, 13
#: its columns wider than int8 (none)
WIDE: tuple[str, ...] = ()
#: what its patterns are called in summaries
PATTERNS_TITLE = "big wins (大胡)"
#: what summaries report of its own columns beyond the common ones (nothing)
FACTS: tuple = ()


def big_worth(big_unit: int, small_unit: int) -> int:
    """The engine value ``big_worth``: a big win's unit over a small win's, in 256ths of the
    rule text's (§2.10, the [game] defaults: 6 to 1); a small unit below 1 counts as 1.

    >>> big_worth(6, 1), big_worth(3, 1), big_worth(6, 2), big_worth(4, 1)
    (256, 128, 128, 170)
    """
    written = PARAMS["big_unit"][1] // PARAMS["small_unit"][1]
    return 256 * big_unit // (max(small_unit, 1) * written)


def params(rules, values: dict) -> tuple[np.ndarray, dict]:
    """The model's ``int64`` parameters from its [game] ``values`` (choices as their index),
    and the engine values
    it derives (起手胡 and mid-game wins exist when any of their patterns is on)."""
    o = rules.options
    if o.get("cs_outside_birds"):
        raise RulesError(
            "cs_outside_birds (外围马, birds for spectators) is not modelled by the "
            "game engine; set it to false"
        )
    if o.get("cs_penalty_mode", "lenient") != "lenient":
        raise RulesError(
            "cs_penalty_mode only matters with an error model, and the bots make no "
            "errors; keep it 'lenient' for play"
        )
    qs = Q.qishou_config(rules)
    values = dict(
        values,
        qs_enabled=sum(1 << i for i, on in enumerate(qs.enabled) if on),
        qs_binary=qs.binary,
        qs_reuse_quad=qs.reuse_quad,
        qs_yizhihua_mode=qs.yizhihua_mode,
        cap=0 if values["cap"] is None else values["cap"],
    )
    out = np.array([int(values[name]) for name in PARAMS], dtype=np.int64)
    engine = {
        "qishou": any(qs.enabled),
        "mid_game": bool(values["mid_sixi"] or values["mid_liuliushun"]),
        "deal_in": V.deal_in(1, int(values["ron_payers"])),  # discarder 0, all 1
        "big_worth": big_worth(int(values["big_unit"]), int(values["small_unit"])),
    }
    return out, engine


def roles(rules) -> tuple[np.ndarray, np.ndarray]:
    """Per scoring family: its role, and whether it is a big-win family (the value bot's)."""
    codes = np.array([ROLE_OF_FORM[f.form] for f in rules.families], dtype=np.int64)
    return codes, np.isin(codes, _BIG_ROLES)


def aux_families(rules) -> np.ndarray:
    """假将 (cs_fake_pair): the any-pair standard family, evaluated beside the scoring ones."""
    if not rules.options.get("cs_fake_pair"):
        return np.zeros((0, K.FAMILY_COLUMNS), dtype=np.int64)
    return np.array([[K.STANDARD, K.PAIR_ANY, 0, 0, 0, 0]], dtype=np.int64)


#: roles of the auxiliary families the tuned player also weighs as big wins (none)
CHASE_ROLES: tuple[int, ...] = ()


def aux_roles(rules) -> np.ndarray:
    """The roles of :func:`aux_families`."""
    return np.full(len(aux_families(rules)), R_STD_ANY, dtype=np.int64)


# --------------------------------------------------------------------------- hand value


@njit_borrowed
def single_suit(counts, melds, n_melds):
    """Whether every tile (``counts`` concealed, ``melds[:n_melds, 0]``) is in one suit."""
    suit = -1
    for k in range(34):
        if counts[k] > 0:
            s = k // 9
            if s == 3 or (suit >= 0 and s != suit):
                return False
            suit = s
    for i in range(n_melds):
        s = melds[i, 0] // 9
        if s == 3 or (suit >= 0 and s != suit):
            return False
        suit = s
    return True


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, units, pattern bits)`` of seat ``s``'s complete hand ``counts`` won as
    ``win_kind``; ``W.per_family`` holds each family's cost (scoring and auxiliary)."""
    p = G.score
    small = False
    std_any = False
    qidui = False
    bits = 0
    tsumo = R.self_drawn(win_kind)
    for f in range(G.roles.size):
        if W.per_family[f] != 0:
            continue
        role = G.roles[f]
        if role == R_SMALL:
            small = True
        elif role == R_STD_ANY:
            std_any = True
        elif role == R_QIDUI:
            qidui = True
        elif role != R_QQR or not tsumo or p[QQR_SELFDRAW]:
            bits |= 1 << _ROLE_BIT[role]
    if qidui:
        quads = 0
        for k in range(34):
            quads += counts[k] == 4
        bits |= 1 << (P_QIDUI + quads)
        if single_suit(counts, S.melds[s], S.n_melds[s]):
            bits |= 1 << P_QINGYISE
    legal = small or bits != 0
    if not legal and std_any:
        for kind in _FAKE_PAIR_KINDS:
            legal = legal or win_kind == kind
    if not legal or not p[BIG_WINS]:
        return legal, 0, 0
    situational = _SITUATIONAL_BIT[win_kind]
    if situational >= 0 and (p[PAO_BIG_WINS] or not _NEEDS_PAO[win_kind]):
        bits |= 1 << situational
    units = 0
    for b in range(_UNITS.size):
        units += _UNITS[b] * ((bits >> b) & 1)
    if p[COMPOUND] == 1 and units > 1:
        units = 1
    return True, units, bits


@njit_borrowed
def open_kong_units(G, best_units, n_winning):
    """Units when ``n_winning`` revealed tiles each complete the konger's hand (§2.5)."""
    p = G.score
    if n_winning <= 1:
        return best_units
    units = (
        best_units * 2 ** (n_winning - 1) if p[MULTI_GANGKAI] == 1 else best_units + n_winning - 1
    )
    if p[COMPOUND] == 1 and units > 1:
        units = 1
    return units


# --------------------------------------------------------------------------- payments


@njit_borrowed
def bird_rank(kind):
    """Rank a bird counts with: 1–9 in a suit; honours 1z–7z count 1–7 [mjsim]."""
    return kind % 9 + 1 if kind < 27 else kind - 26


@njit_borrowed
def bird_hits(birds, n_birds, origin, hits):
    """Birds hitting each seat (``hits`` int64[4]) counted from ``origin`` (§2.6)."""
    for s in range(4):
        hits[s] = 0
    for i in range(n_birds):
        hits[(origin + bird_rank(birds[i]) - 1) % 4] += 1


@njit_borrowed
def bird_factor(p, hits, winner, payer):
    """``f(p)``: ``1 + h`` (add) or ``2^h`` (mul), h = hits on the winner plus on the payer."""
    h = hits[winner] + hits[payer]
    return 2**h if p[BIRD_MODE] == 1 else 1 + h


@njit_borrowed
def amount(p, winner, payer, dealer, units, factor):
    """What ``payer`` pays ``winner`` for one win of ``units`` (0: small) and bird ``factor``
    (``p``: the model's parameters)."""
    d = 0
    if winner == dealer or (payer == dealer and p[DEALER_BONUS_SCOPE] == 0):
        d = p[DEALER_BONUS]
    mult = factor if units == 0 else units * factor
    if p[CAP] > 0 and mult > p[CAP]:
        mult = p[CAP]
    if units == 0:
        value = (p[SMALL_UNIT] + d) * mult
    elif p[DEALER_BONUS_PER_UNIT]:
        value = (p[BIG_UNIT] + d) * mult
    else:
        value = p[BIG_UNIT] * mult + d
    return value + 2 * p[PIAO]


@njit_borrowed
def pay_one(p, row, winner, payers, dealer, units, hits):
    """Move one win's payments into ``row`` (int64[4]); ``payers`` is a seat bitmask."""
    for q in range(4):
        if q != winner and (payers >> q) & 1:
            value = amount(p, winner, q, dealer, units, bird_factor(p, hits, winner, q))
            row[q] -= value
            row[winner] += value


@njit_borrowed
def reset_record(G, rec):
    """The model's columns of a record before play: no birds."""
    for i in range(4):
        rec[G.cfg[V.COL_MODEL] + C_BIRD + i] = -1


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Birds and payments of one win by the ``n_win`` seats in ``order`` (§2.6, §2.10)."""
    p = G.score
    col = G.cfg[V.COL_MODEL]
    hits, birds = W.hits[:], W.birds[:]
    left = S.pos[P_TAIL] - S.pos[P_HEAD]
    n_birds = p[BIRDS] if p[BIRDS] < left else left
    for i in range(n_birds):
        birds[i] = wall[S.pos[P_HEAD] + i]
    if left == 0 and p[BIRDS] > 0 and p[HAIDI_BIRD] == 1:
        n_birds = 1
        birds[0] = tile
    dealer = S.pos[P_DEALER]
    row = S.pay[G.cfg[V.SRC_WIN]]
    tsumo = R.self_drawn(win_kind)
    for i in range(n_win):
        w = order[i]
        bird_hits(birds, n_birds, dealer if p[BIRD_ORIGIN] == 1 else w, hits)
        if i == 0:
            for s in range(4):
                rec[col + C_HITS + s] = hits[s]
        payers = 15 & ~(1 << w)
        if not tsumo and p[RON_PAYERS] == 0:
            payers = 1 << discarder
        pay_one(p, row, w, payers, dealer, S.units[w], hits)
    rec[col + C_N_BIRDS] = n_birds
    for i in range(4):
        rec[col + C_BIRD + i] = birds[i] if i < n_birds else -1


@njit_borrowed
def _small_tsumos(G, W, row, s, dealer, n, dice_seed, counter):
    """Settle ``n`` counts of seat ``s``'s 起手胡 or mid-game win, each a self-drawn small
    win (§2.8, §2.9); with ``qishou_birds = "dice"`` (``counter`` ≥ 0) two dice are the
    birds' ranks."""
    p = G.score
    hits, birds = W.hits[:], W.birds[:]
    n_birds = 0
    if counter >= 0 and p[QISHOU_BIRDS] == 1:
        birds[0] = below_seeded(dice_seed, counter, 6)  # die d as the m tile of rank d
        birds[1] = below_seeded(dice_seed, counter + 1, 6)
        n_birds = 2
    bird_hits(birds, n_birds, dealer if p[BIRD_ORIGIN] == 1 else s, hits)
    for _ in range(n):
        pay_one(p, row, s, 15 & ~(1 << s), dealer, np.int64(0), hits)


@njit_borrowed
def qishou(G, S, W, s, counts, rec, dice_seed):
    """起手胡 of seat ``s`` on ``counts`` (§2.8); returns the count settled."""
    p = G.score
    st = S.status
    st[s, ST_QS_DONE] = 1
    raw = W.counts[:]
    Q.fill_patterns(counts, p[QS_REUSE_QUAD], p[QS_YIZHIHUA_MODE], raw)
    total = 0
    for i in range(8):
        if (p[QS_ENABLED] >> i) & 1 and raw[i] > 0:
            total += 1 if p[QS_BINARY] else raw[i]
    if total == 0:
        return 0
    if (p[QS_ENABLED] >> 1) & 1 and raw[1] > 0:  # 四喜: its quads are counted
        for k in range(34):
            if counts[k] == 4:
                st[s, ST_SIXI_DONE] |= 1 << k
    if (p[QS_ENABLED] >> 2) & 1 and raw[2] > 0:  # 六六顺: 2·⌊t/2⌋ triplets counted
        high = 4 if p[QS_REUSE_QUAD] else 3
        left = 2 * raw[2]
        for k in range(34):
            if left > 0 and 3 <= counts[k] <= high:
                st[s, ST_LLS_DONE] |= 1 << k
                left -= 1
    _small_tsumos(
        G,
        W,
        S.pay[G.cfg[V.SRC_QISHOU]],
        s,
        S.pos[P_DEALER],
        np.int64(total),
        dice_seed,
        np.int64(2 * s),
    )
    rec[G.cfg[V.COL_MODEL] + C_QISHOU + s] += total
    return total


@njit_borrowed
def _lls_candidate(st, s, k, c, reuse):
    return (
        (c == 3 or (reuse and c == 4))
        and not (st[s, ST_LLS_DONE] >> k) & 1
        and (reuse or not (st[s, ST_SIXI_DONE] >> k) & 1)
    )


@njit_borrowed
def mid_game(G, S, W, s, rec):
    """中途四喜 / 中途六六顺 right after a draw (§2.9); returns the count settled."""
    p = G.score
    conc, st = S.concealed, S.status
    locked = st[s, ST_LOCKED]
    n = 0
    if p[MID_SIXI] and (not locked or G.cfg[V.MID_SIXI_LOCKED]):
        for k in range(34):
            if conc[s, k] == 4 and not (st[s, ST_SIXI_DONE] >> k) & 1:
                st[s, ST_SIXI_DONE] |= 1 << k
                n += 1
    if p[MID_LIULIUSHUN] and not locked:
        reuse = p[QS_REUSE_QUAD]
        found = 0
        for k in range(34):
            found += _lls_candidate(st, s, k, conc[s, k], reuse)
        pairs = found // 2
        left = 2 * pairs
        for k in range(34):
            if left > 0 and _lls_candidate(st, s, k, conc[s, k], reuse):
                st[s, ST_LLS_DONE] |= 1 << k
                left -= 1
        n += pairs
    if n > 0:
        _small_tsumos(
            G,
            W,
            S.pay[G.cfg[V.SRC_MID]],
            s,
            S.pos[P_DEALER],
            np.int64(n),
            np.uint64(0),
            np.int64(-1),
        )
        rec[G.cfg[V.COL_MODEL] + C_MID + s] += n
    return n
