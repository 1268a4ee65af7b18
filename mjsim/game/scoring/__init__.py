"""Scoring models: what a win is worth and who pays, one module per scoring system.

A preset names its model in its ``[game]`` table (``scoring = "changsha"``). Each model
module has its pattern table (``PATTERNS``: id, name_zh, units, what sets it), its values
(``PARAMS``, set by the preset's ``[game]`` table), the payment sources it registers
(``SOURCES``, one ``pay_<source>`` group of record columns each), its own record columns
(``COLUMNS``), its mark (``MARK``) and the compiled functions the engine calls through
this module, the hooks below:

- :mod:`mjsim.game.scoring.changsha`: big wins, birds, 起手胡 (RULES.md §2);
- :mod:`mjsim.game.scoring.generic`: one amount per payer (§1.6; also 定缺);
- :mod:`mjsim.game.scoring.shanghai`: types, flowers, 勒子, 开宝, 荒番, 承包 (§5);
- :mod:`mjsim.game.scoring.caishen`: the 财神 game's types and tiers, 跑马, 跟风 (§3);
- :mod:`mjsim.game.scoring.bao`: the 宝 games' multiplicative items, all three pay (§4).

**The engine is compiled once per model, with that model alone.** A rule set's arrays
(:data:`mjsim.game.config.GameRules`) carry its model's mark (``model``: an instance of the
model's own empty type, e.g. ``ChangshaModel()``), so numba compiles every engine function
that takes them once for each model played, and each hook here is resolved while numba
types the call: it becomes a call of the function of that name in the model whose mark the
arrays carry (or of the default below where the model has none). Nothing branches on the
model at run time, and the code of a model that is not played is never typed or compiled:
a Changsha run compiles the Changsha engine only, and a sixth model adds its module and
its line in :data:`MODELS` and compiles only when a rule set of it plays. Payments that
several models share by their sources (kongs, 报听: :mod:`generic`'s ``pay_kong`` and
``pay_declare``) are engine values, read at run time.

>>> MODELS, model("generic").SOURCES, model("bao").MARK.__name__
(('changsha', 'generic', 'shanghai', 'caishen', 'bao'), ('win', 'kong', 'baoting'), 'BaoModel')
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
from numba.extending import overload

from ...kernels.jit import njit_borrowed
from ...rules import RulesError
from .. import values as V
from . import bao, caishen, changsha, generic, shanghai

MODELS = ("changsha", "generic", "shanghai", "caishen", "bao")
_MODULES = {
    "changsha": changsha,
    "generic": generic,
    "shanghai": shanghai,
    "caishen": caishen,
    "bao": bao,
}
_BY_MARK = {module.MARK: module for module in _MODULES.values()}
#: the field of a rule set's arrays that holds its model's mark
MARK_FIELD = "model"


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


# --------------------------------------------------------------------------- defaults
# A model without a hook gets its default: one function per hook, so that each compiles
# once per model (one shared default would compile once per hook that uses it).


@njit_borrowed
def _no_reset_record(G, rec):
    """No columns of the model's own to reset."""
    return None


@njit_borrowed
def _no_start_hand(G, S, rec, dice_seed):
    """No facts of a hand before play."""
    return None


@njit_borrowed
def _no_discarded(G, S, rec, s, t):
    """No payments or facts of discards."""
    return None


@njit_borrowed
def _no_end_hand(G, S, rec):
    """Nothing carried to the next hand."""
    return None


@njit_borrowed
def _no_declare(G, S, s):
    """No facts of a 报听 (its payments, if any, are the engine's)."""
    return None


@njit_borrowed
def _no_qishou(G, S, W, s, counts, rec, dice_seed):
    """No 起手胡: none settled."""
    return np.int64(0)


@njit_borrowed
def _no_mid_game(G, S, W, s, rec):
    """No mid-game wins: none settled."""
    return np.int64(0)


@njit_borrowed
def _units(G, units, bits):
    """Claims on one tile rank by their units."""
    return units


@njit_borrowed
def _best_units(G, best_units, n_winning):
    """An opening kong's win is worth its best revealed tile's."""
    return best_units


def _hook(name: str, default=None):
    """A function for compiled code that calls the ``name`` function of the model whose mark
    the rule set's arrays carry (``default`` where that model has none), chosen at compile
    time from the arrays' numba type."""

    def hook(G, *args):
        raise TypeError(f"scoring hook {name} is called from compiled code only")

    @overload(hook, jit_options={"_nrt": False, "cache": True})
    def _typed(G, *args):
        mark = G.types[G.fields.index(MARK_FIELD)].instance_class
        f = getattr(_BY_MARK[mark], name, default)
        if f is None:
            raise RulesError(f"scoring model {_BY_MARK[mark].__name__} has no {name}")

        def call(G, *args):
            return f(G, *args)

        return call

    return hook


_win_value = _hook("win_value")
_win_rank = _hook("win_rank", _units)
_settle = _hook("settle")
_reset_record = _hook("reset_record", _no_reset_record)
_start_hand = _hook("start_hand", _no_start_hand)
_discarded = _hook("discarded", _no_discarded)
_end_hand = _hook("end_hand", _no_end_hand)
_open_kong_units = _hook("open_kong_units", _best_units)
_declare = _hook("declare", _no_declare)
_qishou = _hook("qishou", _no_qishou)
_mid_game = _hook("mid_game", _no_mid_game)


# --------------------------------------------------------------------------- the hooks


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, units, pattern bits)`` of seat ``s``'s complete hand ``counts``, won on
    ``tile`` (−1: no tile, a win by bonus tiles)."""
    return _win_value(G, W, counts, S, s, win_kind, tile)


@njit_borrowed
def rank(G, units, bits):
    """How a win of these ``units`` and pattern ``bits`` ranks among several claims on one
    tile (``multi_win`` largest): the model's order of hands (``win_rank``), else its
    units."""
    return _win_rank(G, units, bits)


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Pay one win by the ``n_win`` seats in ``order`` (and fill the model's columns)."""
    _settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile)


@njit_borrowed
def reset_record(G, rec):
    """The model's columns of a fresh record."""
    _reset_record(G, rec)


@njit_borrowed
def start_hand(G, S, rec, dice_seed):
    """The model's facts of a hand before play (its opening dice; what the game carried)."""
    _start_hand(G, S, rec, dice_seed)


@njit_borrowed
def discarded(G, S, rec, s, t):
    """Seat ``s`` discarded ``t`` (``S.pos[P_LAST]`` still the discard before, or −1 after a
    claim): the model's payments and facts of discards (跟风, 跑马 states)."""
    _discarded(G, S, rec, s, t)


@njit_borrowed
def end_hand(G, S, rec):
    """The model's facts carried to the next hand of the game, from the record just closed."""
    _end_hand(G, S, rec)


@njit_borrowed
def open_kong_units(G, best_units, n_winning):
    """Units of an opening kong's win when ``n_winning`` revealed tiles complete the hand."""
    return _open_kong_units(G, best_units, n_winning)


@njit_borrowed
def kong(G, S, s, payers):
    """Payments for seat ``s``'s kong by the seats in ``payers`` (where the model has any)."""
    if G.cfg[V.SRC_KONG] >= 0:
        generic.pay_kong(G, S, s, payers)


@njit_borrowed
def declare(G, S, s):
    """Seat ``s``'s 报听: the model's facts of it, and payments where it has any."""
    _declare(G, S, s)
    if G.cfg[V.SRC_DECLARE] >= 0:
        generic.pay_declare(G, S, s)


@njit_borrowed
def qishou(G, S, W, s, counts, rec, dice_seed):
    """起手胡 of seat ``s`` on ``counts``: the count settled (0 where the model has none)."""
    return _qishou(G, S, W, s, counts, rec, dice_seed)


@njit_borrowed
def mid_game(G, S, W, s, rec):
    """Mid-game wins right after seat ``s``'s draw: the count settled."""
    return _mid_game(G, S, W, s, rec)
