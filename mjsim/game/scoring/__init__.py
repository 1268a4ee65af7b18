"""Scoring models: what a win is worth and who pays, one module per scoring system.

A preset names its model in its ``[game]`` table (``scoring = "changsha"``). Each model
module has its pattern table (``PATTERNS``: id, name_zh, units, what sets it), its values
(``PARAMS``, set by the preset's ``[game]`` table), the payment sources it registers
(``SOURCES``, one ``pay_<source>`` group of record columns each), its own record columns
(``COLUMNS``) and the compiled functions the engine calls through
this module, the hooks below:

- :mod:`mjsim.game.scoring.changsha`: big wins, birds, 起手胡 (RULES.md §2);
- :mod:`mjsim.game.scoring.generic`: one amount per payer (§1.6; also 定缺);
- :mod:`mjsim.game.scoring.shanghai`: types, flowers, 勒子, 开宝, 荒番, 承包 (§5);
- :mod:`mjsim.game.scoring.caishen`: the 财神 game's types and tiers, 跑马, 跟风 (§3);
- :mod:`mjsim.game.scoring.bao`: the 宝 games' multiplicative items, all three pay (§4).

**The engine is compiled once, for every model; each model's hooks once, apart.** A rule
set's arrays (:data:`mjsim.game.config.GameRules`) carry the addresses of its model's hook
functions in this process (``hooks``, in the order of :data:`HOOKS`: the function of that
name in the model's module, or the default below where it has none), and each hook here
calls the code at its address (:mod:`mjsim.kernels.callref`), its arguments cast to the
hook's one signature (:func:`signatures`). Nothing branches on the model at run time, the
engine's code holds no model's, and a model that is not played is never typed or compiled:
a Changsha run compiles the engine and the Changsha hooks; a second model then compiles
only its own hooks; a sixth model adds its module and its line in :data:`MODELS`. Payments
that several models share by their sources (kongs, 报听: :mod:`generic`'s ``pay_kong`` and
``pay_declare``) are engine values, read at run time.

>>> MODELS, model("generic").SOURCES, list(HOOKS)[:3]
(('changsha', 'generic', 'shanghai', 'caishen', 'bao'), ('win', 'kong', 'baoting'), \
['win_value', 'win_rank', 'settle'])
"""

from __future__ import annotations

import functools
from types import ModuleType

import numpy as np
from numba import typeof, types
from numba.core.typing import signature
from numba.core.typing.templates import Signature

from ...kernels.callref import address_of, caller
from ...kernels.jit import njit_borrowed
from ...rules import RulesError
from .. import values as V
from ..state import new_scratch, new_state
from . import bao, caishen, changsha, generic, shanghai

MODELS = ("changsha", "generic", "shanghai", "caishen", "bao")
_MODULES = {
    "changsha": changsha,
    "generic": generic,
    "shanghai": shanghai,
    "caishen": caishen,
    "bao": bao,
}


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
# A model without a hook gets its default, compiled once for every model that has none.


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


#: the hooks, in the order of their addresses in ``GameRules.hooks``: name -> the default
#: of a model without one (None: every model has it)
HOOKS = {
    "win_value": None,
    "win_rank": _units,
    "settle": None,
    "reset_record": _no_reset_record,
    "start_hand": _no_start_hand,
    "discarded": _no_discarded,
    "end_hand": _no_end_hand,
    "open_kong_units": _best_units,
    "declare": _no_declare,
    "qishou": _no_qishou,
    "mid_game": _no_mid_game,
}
(
    H_WIN_VALUE,
    H_WIN_RANK,
    H_SETTLE,
    H_RESET_RECORD,
    H_START_HAND,
    H_DISCARDED,
    H_END_HAND,
    H_OPEN_KONG_UNITS,
    H_DECLARE,
    H_QISHOU,
    H_MID_GAME,
) = range(len(HOOKS))


@functools.cache
def signatures(G: types.Type) -> dict[str, Signature]:
    """Each hook's one signature, with the rule set's arrays of numba type ``G`` (every rule
    set's are of one type): a model's function is compiled for it, and the engine's calls
    cast their arguments to it (``counts`` a seat's tiles, ``rec`` a record row, ``wall``
    the hand's wall, ``order`` the winners in payment order).

    >>> from mjsim.game.config import game_config
    >>> sig = signatures(typeof(game_config("generic").base_arrays))["win_rank"]
    >>> str(sig.args[1:]), str(sig.return_type)
    ('(int64, int64)', 'int64')
    """
    S, W = typeof(new_state()), typeof(new_scratch())
    i, u64, none = types.int64, types.uint64, types.none
    counts, wall, rec, order = (
        types.Array(dtype, 1, "C") for dtype in (types.uint8, types.int8, types.int32, i)
    )
    return {
        "win_value": signature(types.Tuple((types.boolean, i, i)), G, W, counts, S, i, i, i),
        "win_rank": signature(i, G, i, i),
        "settle": signature(none, G, S, W, wall, rec, order, i, i, i, i),
        "reset_record": signature(none, G, rec),
        "start_hand": signature(none, G, S, rec, u64),
        "discarded": signature(none, G, S, rec, i, i),
        "end_hand": signature(none, G, S, rec),
        "open_kong_units": signature(i, G, i, i),
        "declare": signature(none, G, S, i),
        "qishou": signature(i, G, S, W, i, counts, rec, u64),
        "mid_game": signature(i, G, S, W, i, rec),
    }


def hook_addresses(name: str, G: types.Type) -> np.ndarray:
    """The addresses of model ``name``'s hook functions in this process for rule-set arrays
    of numba type ``G``, in the order of :data:`HOOKS` (each compiled for its signature, or
    loaded from numba's cache, first): ``GameRules.hooks``. A function whose result is not
    its hook's type is refused."""
    module = model(name)
    out = np.zeros(len(HOOKS), dtype=np.int64)
    for i, (hook, default) in enumerate(HOOKS.items()):
        f = getattr(module, hook, default)
        if f is None:
            raise RulesError(f"scoring model {name} has no {hook}")
        sig = signatures(G)[hook]
        out[i] = address_of(f, sig.args)
        got = f.overloads[sig.args].signature.return_type
        if got != sig.return_type:
            raise RulesError(
                f"scoring model {name}: {hook} returns {got}, the engine reads {sig.return_type}"
            )
    return out


def _caller(hook: str):
    """The intrinsic that calls a hook's code at its address, with its signature."""
    return caller(lambda args: signatures(args[0])[hook])


_win_value, _win_rank, _settle, _reset_record, _start_hand, _discarded = map(
    _caller, ("win_value", "win_rank", "settle", "reset_record", "start_hand", "discarded")
)
_end_hand, _open_kong_units, _declare, _qishou, _mid_game = map(
    _caller, ("end_hand", "open_kong_units", "declare", "qishou", "mid_game")
)


# --------------------------------------------------------------------------- the hooks


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, units, pattern bits)`` of seat ``s``'s complete hand ``counts``, won on
    ``tile`` (−1: no tile, a win by bonus tiles)."""
    return _win_value(G.hooks[H_WIN_VALUE], (G, W, counts, S, s, win_kind, tile))


@njit_borrowed
def rank(G, units, bits):
    """How a win of these ``units`` and pattern ``bits`` ranks among several claims on one
    tile (``multi_win`` largest): the model's order of hands (``win_rank``), else its
    units."""
    return _win_rank(G.hooks[H_WIN_RANK], (G, units, bits))


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Pay one win by the ``n_win`` seats in ``order`` (and fill the model's columns)."""
    _settle(G.hooks[H_SETTLE], (G, S, W, wall, rec, order, n_win, discarder, win_kind, tile))


@njit_borrowed
def reset_record(G, rec):
    """The model's columns of a fresh record."""
    _reset_record(G.hooks[H_RESET_RECORD], (G, rec))


@njit_borrowed
def start_hand(G, S, rec, dice_seed):
    """The model's facts of a hand before play (its opening dice; what the game carried)."""
    _start_hand(G.hooks[H_START_HAND], (G, S, rec, dice_seed))


@njit_borrowed
def discarded(G, S, rec, s, t):
    """Seat ``s`` discarded ``t`` (``S.pos[P_LAST]`` still the discard before, or −1 after a
    claim): the model's payments and facts of discards (跟风, 跑马 states)."""
    _discarded(G.hooks[H_DISCARDED], (G, S, rec, s, t))


@njit_borrowed
def end_hand(G, S, rec):
    """The model's facts carried to the next hand of the game, from the record just closed."""
    _end_hand(G.hooks[H_END_HAND], (G, S, rec))


@njit_borrowed
def open_kong_units(G, best_units, n_winning):
    """Units of an opening kong's win when ``n_winning`` revealed tiles complete the hand."""
    return _open_kong_units(G.hooks[H_OPEN_KONG_UNITS], (G, best_units, n_winning))


@njit_borrowed
def kong(G, S, s, payers):
    """Payments for seat ``s``'s kong by the seats in ``payers`` (where the model has any)."""
    if G.cfg[V.SRC_KONG] >= 0:
        generic.pay_kong(G, S, s, payers)


@njit_borrowed
def declare(G, S, s):
    """Seat ``s``'s 报听: the model's facts of it, and payments where it has any."""
    _declare(G.hooks[H_DECLARE], (G, S, s))
    if G.cfg[V.SRC_DECLARE] >= 0:
        generic.pay_declare(G, S, s)


@njit_borrowed
def qishou(G, S, W, s, counts, rec, dice_seed):
    """起手胡 of seat ``s`` on ``counts``: the count settled (0 where the model has none)."""
    return _qishou(G.hooks[H_QISHOU], (G, S, W, s, counts, rec, dice_seed))


@njit_borrowed
def mid_game(G, S, W, s, rec):
    """Mid-game wins right after seat ``s``'s draw: the count settled."""
    return _mid_game(G.hooks[H_MID_GAME], (G, S, W, s, rec))
