"""What a win is worth and who pays: big-win units, birds and payments (RULES.md §2.4–§2.10).

Kernels on plain arrays, read by :mod:`mjsim.game.engine`. A win's families come from the
shanten kernel's per-family costs (a family is satisfied when its cost is 0); the roles of
:mod:`mjsim.game.config` say what each family means. Generic mahjong (§1.6) uses the same
payment formula with its own unit, no dealer bonus, no birds and no big wins.

Payment per payer ``p`` to winner ``W`` (§2.10): ``unit(p) · min(max(U, 1) · f(p), cap) +
π_W + π_p`` where ``unit = small + d`` for a small win and ``big + d`` per big unit
(``big · mult + d`` without ``cs_dealer_bonus_per_unit``), ``d`` the dealer bonus and ``f``
the bird factor (``1 + h`` or ``2^h``).
"""

from __future__ import annotations

import numpy as np

from ..kernels.jit import njit_borrowed
from . import config as C
from . import record as R

#: situational wins (by win kind) that 假将 (cs_fake_pair) lets a 258-free shape win
_FAKE_PAIR_KINDS = (R.WIN_GANGKAI, R.WIN_QIANGGANG, R.WIN_HAIDILAO, R.WIN_HAIDIPAO)
#: per win kind (the order of WIN_KINDS): the big win it adds (−1 none), and whether that
#: needs ``cs_pao_big_wins`` (the ron-type situational wins)
_SITUATIONAL_BIT = np.array([-1, -1, -1, R.P_QIANGGANG, R.P_GANGKAI, R.P_GANGPAO,
                             R.P_HAIDILAO, R.P_HAIDIPAO], dtype=np.int64)
_NEEDS_PAO = np.array([0, 0, 0, 1, 0, 1, 0, 1], dtype=np.int64)


@njit_borrowed
def self_drawn(win_kind):
    """Whether a win of this kind is self-drawn (all three others pay): 自摸, 杠上开花, 海底捞月."""
    for kind in R.SELF_DRAWN:
        if win_kind == kind:
            return True
    return False


@njit_borrowed
def single_suit(counts, meld_kinds, n_melds):
    """Whether every tile (``counts`` concealed, ``meld_kinds[:n_melds, 0]`` melds) is in one suit."""
    suit = -1
    for k in range(34):
        if counts[k] > 0:
            s = k // 9
            if s == 3 or (suit >= 0 and s != suit):
                return False
            suit = s
    for i in range(n_melds):
        s = meld_kinds[i, 0] // 9
        if s == 3 or (suit >= 0 and s != suit):
            return False
        suit = s
    return True


@njit_borrowed
def win_value(cfg, roles, per_family, counts, meld_kinds, n_melds, win_kind):
    """``(legal, units, pattern bits)`` of a complete hand won as ``win_kind`` (record codes).

    ``per_family`` holds each family's cost for ``counts`` (the concealed tiles with the
    winning tile); ``meld_kinds`` rows are ``(first kind, type)`` of the exposed melds.
    """
    small = False
    std_any = False
    qidui = False
    bits = 0
    units = 0
    tsumo = self_drawn(win_kind)
    for f in range(roles.size):
        if per_family[f] != 0:
            continue
        role = roles[f]
        if role == C.R_PLAIN or role == C.R_SMALL:
            small = True
        elif role == C.R_STD_ANY:
            std_any = True
        elif role == C.R_QIDUI:
            qidui = True
        elif role == C.R_QINGYISE:
            bits |= 1 << R.P_QINGYISE
        elif role == C.R_PENGPENG:
            bits |= 1 << R.P_PENGPENG
        elif role == C.R_JIANGYISE:
            bits |= 1 << R.P_JIANGYISE
        elif role == C.R_QQR and (not tsumo or cfg[C.CFG_QQR_SELFDRAW]):
            bits |= 1 << R.P_QUANQIUREN
    if qidui:
        quads = 0
        for k in range(34):
            quads += counts[k] == 4
        bits |= 1 << (R.P_QIDUI + quads)
        units += quads  # 豪华: one more unit per quad
        if single_suit(counts, meld_kinds, n_melds):
            bits |= 1 << R.P_QINGYISE
    shape_big = bits != 0
    legal = small or shape_big
    if not legal and std_any and cfg[C.CFG_FAKE_PAIR]:
        for kind in _FAKE_PAIR_KINDS:
            legal = legal or win_kind == kind
    if not legal or not cfg[C.CFG_BIG_WINS]:
        return legal, 0, 0
    situational = _SITUATIONAL_BIT[win_kind]
    if situational >= 0 and (cfg[C.CFG_PAO_BIG] or not _NEEDS_PAO[win_kind]):
        bits |= 1 << situational
    for b in range(len(R.BIG_WINS)):
        units += (bits >> b) & 1
    if cfg[C.CFG_COMPOUND_SINGLE] and units > 1:
        units = 1
    return True, units, bits


@njit_borrowed
def multi_gangkai(cfg, best_units, n_winning):
    """Units when ``n_winning`` revealed tiles each complete the konger's hand (§2.5)."""
    if n_winning <= 1:
        return best_units
    units = best_units * 2 ** (n_winning - 1) if cfg[C.CFG_MULTI_GANGKAI_MUL] \
        else best_units + n_winning - 1
    if cfg[C.CFG_COMPOUND_SINGLE] and units > 1:
        units = 1
    return units


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
def bird_factor(cfg, hits, winner, payer):
    """``f(p)``: ``1 + h`` (add) or ``2^h`` (mul), h = hits on the winner plus on the payer."""
    h = hits[winner] + hits[payer]
    return 2 ** h if cfg[C.CFG_BIRD_MUL] else 1 + h


@njit_borrowed
def amount(cfg, winner, payer, dealer, units, factor):
    """What ``payer`` pays ``winner`` for one win of ``units`` (0: small) and bird ``factor``."""
    d = 0
    if winner == dealer or (payer == dealer and not cfg[C.CFG_DEALER_WINNER_ONLY]):
        d = cfg[C.CFG_DEALER_BONUS]
    mult = factor if units == 0 else units * factor
    if cfg[C.CFG_CAP] > 0 and mult > cfg[C.CFG_CAP]:
        mult = cfg[C.CFG_CAP]
    if units == 0:
        value = (cfg[C.CFG_SMALL_UNIT] + d) * mult
    elif cfg[C.CFG_DEALER_PER_UNIT]:
        value = (cfg[C.CFG_BIG_UNIT] + d) * mult
    else:
        value = cfg[C.CFG_BIG_UNIT] * mult + d
    return value + 2 * cfg[C.CFG_PIAO]


@njit_borrowed
def settle(cfg, pay, winner, payers, dealer, units, hits):
    """Move one win's payments into ``pay`` (int64[4]); ``payers`` is a seat bitmask."""
    for p in range(4):
        if p != winner and (payers >> p) & 1:
            value = amount(cfg, winner, p, dealer, units, bird_factor(cfg, hits, winner, p))
            pay[p] -= value
            pay[winner] += value

