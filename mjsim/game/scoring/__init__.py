"""Scoring models: what a win is worth and who pays, one module per scoring system.

A preset names its model in its ``[game]`` table (``scoring = "changsha"``). Each model
module has its pattern table (``PATTERNS``: id, name_zh, units, what sets it), its values
(``PARAMS``, set by the preset's ``[game]`` table), the payment sources it registers
(``SOURCES``, one ``pay_<source>`` group of record columns each), its own record columns
(``COLUMNS``) and the compiled functions the engine calls through this module:

- :mod:`mjsim.game.scoring.changsha`: big wins, birds, 起手胡 (RULES.md §2);
- :mod:`mjsim.game.scoring.generic`: one amount per payer (§1.6; also 定缺);
- :mod:`mjsim.game.scoring.shanghai`: types, flowers, 勒子, 开宝, 荒番, 承包 (§5);
- :mod:`mjsim.game.scoring.caishen`: the 财神 game's types and tiers, 跑马, 跟风 (§3);
- :mod:`mjsim.game.scoring.bao`: the 宝 games' multiplicative items, all three pay (§4).

The engine is compiled once for every model: it calls the functions below, which pick
the model by its code (``cfg[MODEL]``, the index in :data:`MODELS`).

>>> MODELS, model("generic").SOURCES
(('changsha', 'generic', 'shanghai', 'caishen', 'bao'), ('win', 'kong', 'baoting'))
"""

from __future__ import annotations

from types import ModuleType

from ...kernels.jit import njit_borrowed
from ...rules import RulesError
from .. import values as V
from . import bao, caishen, changsha, generic, shanghai

MODELS = ("changsha", "generic", "shanghai", "caishen", "bao")
M_CHANGSHA, M_GENERIC, M_SHANGHAI, M_CAISHEN, M_BAO = range(len(MODELS))
_MODULES = {"changsha": changsha, "generic": generic, "shanghai": shanghai,
            "caishen": caishen, "bao": bao}


def model(name: str) -> ModuleType:
    """The scoring module called ``name``.

    >>> model("riichi")
    Traceback (most recent call last):
    ...
    mjsim.rules.model.RulesError: unknown scoring model 'riichi'; models: changsha, generic, \
shanghai, caishen, bao
    """
    if name not in _MODULES:
        raise RulesError(f"unknown scoring model {name!r}; models: {', '.join(MODELS)}")
    return _MODULES[name]


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, units, pattern bits)`` of seat ``s``'s complete hand ``counts``, won on
    ``tile`` (−1: no tile, a win by bonus tiles)."""
    if G.cfg[V.MODEL] == M_CHANGSHA:
        return changsha.win_value(G, W, counts, S, s, win_kind)
    if G.cfg[V.MODEL] == M_SHANGHAI:
        return shanghai.win_value(G, W, counts, S, s, win_kind, tile)
    if G.cfg[V.MODEL] == M_CAISHEN:
        return caishen.win_value(G, W, counts, S, s, win_kind, tile)
    if G.cfg[V.MODEL] == M_BAO:
        return bao.win_value(G, W, counts, S, s, win_kind, tile)
    return generic.win_value(G, W, counts, S, s, win_kind)


@njit_borrowed
def rank(G, units, bits):
    """How a win of these ``units`` and pattern ``bits`` ranks among several claims on one
    tile (``multi_win`` largest): the model's order of hands, else its units."""
    if G.cfg[V.MODEL] == M_CAISHEN:
        return caishen.rank(bits)
    return units


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Pay one win by the ``n_win`` seats in ``order`` (and fill the model's columns)."""
    if G.cfg[V.MODEL] == M_CHANGSHA:
        changsha.settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile)
    elif G.cfg[V.MODEL] == M_SHANGHAI:
        shanghai.settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile)
    elif G.cfg[V.MODEL] == M_CAISHEN:
        caishen.settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile)
    elif G.cfg[V.MODEL] == M_BAO:
        bao.settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile)
    else:
        generic.settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile)


@njit_borrowed
def reset_record(G, rec):
    """The model's columns of a fresh record."""
    if G.cfg[V.MODEL] == M_CHANGSHA:
        changsha.reset_record(G, rec)


@njit_borrowed
def start_hand(G, S, rec, dice_seed):
    """The model's facts of a hand before play (its opening dice; what the game carried)."""
    if G.cfg[V.MODEL] == M_SHANGHAI:
        shanghai.start_hand(G, S, rec, dice_seed)
    elif G.cfg[V.MODEL] == M_CAISHEN:
        caishen.start_hand(G, S, rec)


@njit_borrowed
def discarded(G, S, rec, s, t):
    """Seat ``s`` discarded ``t`` (``S.pos[P_LAST]`` still the discard before, or −1 after a
    claim): the model's payments and facts of discards (跟风, 跑马 states)."""
    if G.cfg[V.MODEL] == M_CAISHEN:
        caishen.discarded(G, S, rec, s, t)


@njit_borrowed
def end_hand(G, S, rec):
    """The model's facts carried to the next hand of the game, from the record just closed."""
    if G.cfg[V.MODEL] == M_SHANGHAI:
        shanghai.end_hand(G, S, rec)
    elif G.cfg[V.MODEL] == M_BAO:
        bao.end_hand(G, S, rec)


@njit_borrowed
def open_kong_units(G, best_units, n_winning):
    """Units of an opening kong's win when ``n_winning`` revealed tiles complete the hand."""
    if G.cfg[V.MODEL] == M_CHANGSHA:
        return changsha.open_kong_units(G, best_units, n_winning)
    return best_units


@njit_borrowed
def kong(G, S, s, payers):
    """Payments for seat ``s``'s kong by the seats in ``payers`` (where the model has any)."""
    if G.cfg[V.SRC_KONG] >= 0:
        generic.kong(G, S, s, payers)


@njit_borrowed
def declare(G, S, s):
    """Seat ``s``'s 报听: the model's facts of it, and payments where it has any."""
    if G.cfg[V.MODEL] == M_BAO:
        bao.declare(G, S, s)
    if G.cfg[V.SRC_DECLARE] >= 0:
        generic.declare(G, S, s)


@njit_borrowed
def qishou(G, S, W, s, counts, rec, dice_seed):
    """起手胡 of seat ``s`` on ``counts``: the count settled (0 where the model has none)."""
    if G.cfg[V.MODEL] == M_CHANGSHA:
        return changsha.qishou(G, S, W, s, counts, rec, dice_seed)
    return 0


@njit_borrowed
def mid_game(G, S, W, s, rec):
    """Mid-game wins right after seat ``s``'s draw: the count settled."""
    if G.cfg[V.MODEL] == M_CHANGSHA:
        return changsha.mid_game(G, S, W, s, rec)
    return 0
