"""The record of one played hand: a row of int32 columns, named here once.

Every record has the common columns (:data:`COMMON`); then the scoring model's own columns
(for Changsha: birds and 起手胡 counts) and one ``pay_<source>_<seat>`` group per payment
source the model registers (:func:`layout`). The engine (:mod:`mjsim.game.engine`) writes
``int32[n, len(columns)]``; :func:`to_frame` turns it into a DataFrame. Per-seat columns end
in ``_0`` … ``_3`` (seat numbers, not positions relative to the dealer). Amounts are net:
positive received, negative paid.

>>> COMMON[:4]
('index', 'game', 'dealer', 'next_dealer')
>>> WIN_KINDS[WIN_ZIMO], layout(("n_birds",), ("win", "kong"))[-8:-4]
('zimo', ('pay_win_0', 'pay_win_1', 'pay_win_2', 'pay_win_3'))
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
import pandas as pd

from ..kernels.jit import njit_borrowed

SEATS = range(4)

#: the hand's outcome
OUTCOMES = ("draw", "win", "qishou_end")
OUT_DRAW, OUT_WIN, OUT_QISHOU_END = range(3)

#: how the hand was won (one kind per hand; several winners share it)
WIN_KINDS = (
    "none",
    "zimo",
    "dianpao",
    "qianggang",
    "gangshang_kaihua",
    "gangshang_pao",
    "haidi_laoyue",
    "haidi_pao",
    "bonus",
)
(
    WIN_NONE,
    WIN_ZIMO,
    WIN_DIANPAO,
    WIN_QIANGGANG,
    WIN_GANGKAI,
    WIN_GANGPAO,
    WIN_HAIDILAO,
    WIN_HAIDIPAO,
    WIN_BONUS,
) = range(9)
WIN_KINDS_ZH = ("", "自摸", "点炮", "抢杠", "杠上开花", "杠上炮", "海底捞月", "海底炮", "花胡")
#: win kinds that all three others pay (self-drawn); ``bonus`` is a win by bonus tiles set
#: aside (八花齐, values.bonus_win)
SELF_DRAWN = (WIN_ZIMO, WIN_GANGKAI, WIN_HAIDILAO, WIN_BONUS)


@njit_borrowed
def self_drawn(win_kind):
    """Whether a win of this kind is self-drawn (all three others pay): 自摸, 杠上开花, 海底捞月."""
    for kind in SELF_DRAWN:
        if win_kind == kind:
            return True
    return False


#: what a scoring model's own columns measure, for summaries and comparisons: ``kind`` is
#: ``winner_share`` (the share of wins whose ``<column>_<seat>`` is each of ``codes`` but the
#: first), ``winner_mean`` (the mean of ``<column>_<seat>`` over wins) or ``hand_rate`` (the
#: share of hands whose ``column`` is not 0)
Fact = namedtuple("Fact", "key label label_zh kind column codes codes_zh")
#: a scoring model's pattern (bit b of a winner's ``patterns`` is its PATTERNS[b]): id,
#: Chinese name, units (or the factor it applies), what sets it
Pattern = namedtuple("Pattern", "id name_zh units set_by")

#: bots, by code
#: (``search``: :mod:`mjsim.game.search`; ``tuned``: :mod:`mjsim.game.tuned`; elsewhere than
#: their own choices both play as efficiency)
BOTS = ("efficiency", "value", "cautious", "search", "tuned")
BOT_EFFICIENCY, BOT_VALUE, BOT_CAUTIOUS, BOT_SEARCH, BOT_TUNED = range(5)


def seat_columns(name: str) -> tuple[str, ...]:
    """``name_0`` … ``name_3``."""
    return tuple(f"{name}_{s}" for s in SEATS)


#: the columns every record has, in order
COMMON = (
    "index",
    "game",
    "dealer",
    "next_dealer",
    "outcome",
    "win_kind",
    "winners",
    "n_winners",
    "discarder",
    "win_tile",
    "wild_kind",
    *seat_columns("units"),
    *seat_columns("patterns"),
    *seat_columns("void"),
    *seat_columns("bonus"),
    *seat_columns("pay"),
    "turns",
    "tiles_left",
    "kongs",
    "open_kongs",
    "declared",
    "locked",
    "passed",
    "ready_end",
    *seat_columns("ready_turn"),
    *seat_columns("ready_waits_lo"),
    *seat_columns("ready_waits_hi"),
    *seat_columns("ready_live"),
    *seat_columns("ready_shape"),
    "ready_open",
    *seat_columns("declare_turn"),
    "claimed",
)
_AT = {name: i for i, name in enumerate(COMMON)}
(
    C_INDEX,
    C_GAME,
    C_DEALER,
    C_NEXT_DEALER,
    C_OUTCOME,
    C_WIN_KIND,
    C_WINNERS,
    C_N_WINNERS,
    C_DISCARDER,
    C_WIN_TILE,
    C_WILD_KIND,
) = range(11)
C_UNITS, C_PATTERNS, C_VOID, C_BONUS, C_PAY = (
    _AT[f"{g}_0"] for g in ("units", "patterns", "void", "bonus", "pay")
)
C_READY_TURN, C_READY_WAITS_LO, C_READY_WAITS_HI, C_READY_LIVE, C_READY_SHAPE, C_DECLARE_TURN = (
    _AT[f"{g}_0"]
    for g in (
        "ready_turn",
        "ready_waits_lo",
        "ready_waits_hi",
        "ready_live",
        "ready_shape",
        "declare_turn",
    )
)
C_READY_OPEN, C_CLAIMED = _AT["ready_open"], _AT["claimed"]
#: ``ready_waits_lo`` holds the winning kinds 0–16 (bit k), ``ready_waits_hi`` 17–33
WAITS_SPLIT = 17
C_TURNS, C_TILES_LEFT, C_KONGS, C_OPEN_KONGS, C_DECLARED, C_LOCKED, C_PASSED, C_READY_END = (
    _AT[c]
    for c in (
        "turns",
        "tiles_left",
        "kongs",
        "open_kongs",
        "declared",
        "locked",
        "passed",
        "ready_end",
    )
)
N_COMMON = len(COMMON)
#: the readiness columns: recorded only in runs that ask for them (the waits study)
READINESS = (
    *seat_columns("ready_turn"),
    *seat_columns("ready_waits_lo"),
    *seat_columns("ready_waits_hi"),
    *seat_columns("ready_live"),
    *seat_columns("ready_shape"),
    "ready_open",
)

#: bitmask columns (bit s is seat s); ``ready_end`` marks the seats ready when a hand is
#: drawn (0 for other outcomes), ``passed`` the seats that passed a win on another's discard
#: (the value bot waiting for a big win, a search seat's rollouts preferring the pass).
#: ``bonus_<s>`` counts the bonus tiles (flowers, and dragons where they are bonus tiles)
#: seat ``s`` set aside. The first time seat ``s``'s tiles (as
#: dealt, or after one of its discards) won on some kind: the wait's shape
#: (``ready_shape_<s>``, :data:`mjsim.game.shape.SHAPES`; 0: never ready), ``ready_turn_<s>``
#: (the hand's discard count then; 0: as dealt), the winning kinds (``ready_waits_lo/hi``),
#: their copies it could not see (``ready_live``; a wild kind's too), and ``ready_open``
#: the seats that had an exposed meld then; ``declare_turn_<s>`` the discard on which seat
#: ``s`` declared ready (报听, 敲; 0: never); ``claimed`` the seats that melded another's
#: discard (an exposed meld at the hand's end)
SEAT_MASKS = ("winners", "declared", "locked", "passed", "ready_end", "ready_open", "claimed")


def seat_bits(masks) -> np.ndarray:
    """Seat bitmasks (a :data:`SEAT_MASKS` column) ``int[n]`` → ``bool[n, 4]``.

    >>> seat_bits(np.array([0b0101])).tolist()
    [[True, False, True, False]]
    """
    return (np.asarray(masks, dtype=np.int64)[:, None] >> np.arange(4)) & 1 == 1


_WIDE = {
    "index",
    "game",
    "turns",
    "tiles_left",
    *seat_columns("pay"),
    *seat_columns("patterns"),
    *seat_columns("units"),
    *seat_columns("ready_turn"),
    *seat_columns("ready_waits_lo"),
    *seat_columns("ready_waits_hi"),
    *seat_columns("declare_turn"),
}


def layout(model_columns: tuple[str, ...], sources: tuple[str, ...]) -> tuple[str, ...]:
    """Every column of a record: :data:`COMMON`, the model's own, then per source
    ``pay_<source>_0..3``."""
    pays = tuple(c for src in sources for c in seat_columns(f"pay_{src}"))
    return COMMON + tuple(model_columns) + pays


def to_frame(
    rows: np.ndarray, seed: int, columns: tuple[str, ...], wide: tuple[str, ...] = ()
) -> pd.DataFrame:
    """A DataFrame of records (``int32[n, len(columns)]``), with ``seed`` as its first column;
    counts and amounts are int32, the ``wide`` model columns too, the rest int8.

    >>> cols = layout((), ("win",))
    >>> df = to_frame(np.zeros((2, len(cols)), np.int32), seed=7, columns=cols)
    >>> list(df.columns[:3]), df["seed"].tolist()
    (['seed', 'index', 'game'], [7, 7])
    """
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] != len(columns):
        raise ValueError(f"records must be int[n, {len(columns)}], got shape {rows.shape}")
    data = {"seed": np.full(len(rows), seed, dtype=np.int64)}
    for i, name in enumerate(columns):
        is_wide = name in _WIDE or name in wide or name.startswith("pay_")
        data[name] = rows[:, i].astype(
            np.int64 if name == "index" else np.int32 if is_wide else np.int8
        )
    return pd.DataFrame(data)
