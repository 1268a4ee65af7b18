"""Generic scoring (大众, RULES.md §1.6; also 定缺 §1.8): one amount per payer.

A win on a discard is paid by the discarder, a self-draw by each of the other three, each
``win_pay``; an exposed kong on a discard by its discarder, an added or concealed kong by
each other player, ``kong_pay``; 报听 by each other player, ``declare_pay``. There are no
big wins and no dealer bonus. The amounts are the preset's ``[game]`` values.

>>> PARAMS["win_pay"], SOURCES
((<class 'int'>, 1), ('win', 'kong', 'baoting'))
"""

from __future__ import annotations

import numpy as np

from ...kernels.jit import njit_borrowed
from .. import values as V
from ..record import self_drawn

#: the model's values: name -> (type, default); a preset's [game] table sets them
PARAMS = {"win_pay": (int, 1), "kong_pay": (int, 1), "declare_pay": (int, 1)}
WIN_PAY, KONG_PAY, DECLARE_PAY = range(len(PARAMS))


#: payment sources, in the order of the record's pay_<source> columns
SOURCES = ("win", "kong", "baoting")
#: the sources that pay a win (a winner's receipt for it)
WIN_SOURCES = ("win",)
#: the model's own record columns (none)
COLUMNS: tuple[str, ...] = ()
#: its columns wider than int8 (none)
WIDE: tuple[str, ...] = ()
#: what its patterns are called in summaries (it has none)
PATTERNS_TITLE = "patterns"
#: what summaries report of its own columns beyond the common ones (nothing)
FACTS: tuple = ()
#: big-win patterns (none): id, name_zh, units, what sets it
PATTERNS: tuple = ()


def params(rules, values: dict) -> tuple[np.ndarray, dict]:
    """The model's ``int64`` parameter array from its [game] ``values`` (and no derived
    engine values)."""
    return np.array([int(values[name]) for name in PARAMS], dtype=np.int64), {}


def roles(rules) -> tuple[np.ndarray, np.ndarray]:
    """Per scoring family: its role (all plain) and whether it is a big win (never)."""
    n = len(rules.families)
    return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.bool_)


def aux_families(rules) -> np.ndarray:
    """Auxiliary family rows the engine evaluates beside the scoring ones (none)."""
    return np.zeros((0, 6), dtype=np.int64)


#: roles of the auxiliary families the tuned player also weighs as big wins (none)
CHASE_ROLES: tuple[int, ...] = ()


def aux_roles(rules) -> np.ndarray:
    """The roles of :func:`aux_families` (none)."""
    return np.zeros(0, dtype=np.int64)


@njit_borrowed
def win_value(G, W, counts, S, s, win_kind, tile):
    """``(legal, units, bits)``: every complete hand of a scoring family wins, worth 0."""
    return np.bool_(True), np.int64(0), np.int64(0)


@njit_borrowed
def settle(G, S, W, wall, rec, order, n_win, discarder, win_kind, tile):
    """Pay the win of the ``n_win`` seats in ``order``: each by the discarder alone, or by
    all three others for a self-draw."""
    value = G.score[WIN_PAY]
    row = S.pay[G.cfg[V.SRC_WIN]]
    tsumo = self_drawn(win_kind)
    for i in range(n_win):
        winner = order[i]
        for p in range(4):
            if p != winner and (tsumo or p == discarder):
                row[p] -= value
                row[winner] += value


@njit_borrowed
def pay_kong(G, S, s, payers):
    """A kong by seat ``s``: each seat in the ``payers`` bitmask pays ``kong_pay``."""
    value = G.score[KONG_PAY]
    row = S.pay[G.cfg[V.SRC_KONG]]
    for p in range(4):
        if p != s and (payers >> p) & 1:
            row[p] -= value
            row[s] += value


@njit_borrowed
def pay_declare(G, S, s):
    """报听 by seat ``s``: each other seat pays ``declare_pay``."""
    value = G.score[DECLARE_PAY]
    row = S.pay[G.cfg[V.SRC_DECLARE]]
    for p in range(4):
        if p != s:
            row[p] -= value
            row[s] += value
