"""The record of one played hand: a fixed row of int32 columns, named here once.

The engine (:mod:`mjsim.game.engine`) writes ``int32[n, N_COLUMNS]``; :func:`to_frame`
turns it into a DataFrame. Per-seat columns end in ``_0`` … ``_3`` (seat numbers, not
positions relative to the dealer). Amounts are net: positive received, negative paid.

>>> COLUMNS[:4]
('index', 'dealer', 'next_dealer', 'outcome')
>>> WIN_KINDS[WIN_ZIMO], BIG_WINS[P_QINGYISE]
('zimo', 'qingyise')
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SEATS = range(4)

#: the hand's outcome
OUTCOMES = ("draw", "win", "qishou_end")
OUT_DRAW, OUT_WIN, OUT_QISHOU_END = range(3)

#: how the hand was won (one kind per hand; several winners share it)
WIN_KINDS = ("none", "zimo", "dianpao", "qianggang", "gangshang_kaihua", "gangshang_pao",
             "haidi_laoyue", "haidi_pao")
WIN_NONE, WIN_ZIMO, WIN_DIANPAO, WIN_QIANGGANG, WIN_GANGKAI, WIN_GANGPAO, WIN_HAIDILAO, \
    WIN_HAIDIPAO = range(8)
WIN_KINDS_ZH = ("", "自摸", "点炮", "抢杠", "杠上开花", "杠上炮", "海底捞月", "海底炮")
#: win kinds that all three others pay (self-drawn)
SELF_DRAWN = (WIN_ZIMO, WIN_GANGKAI, WIN_HAIDILAO)

#: big wins (大胡), bits of ``patterns_<seat>``; 七对 sets exactly one of its four bits
BIG_WINS = ("qidui", "haohua_qidui", "chaohaohua_qidui", "chaochaohaohua_qidui", "qingyise",
            "jiangyise", "pengpenghu", "quanqiuren", "gangshang_kaihua", "gangshang_pao",
            "qianggang", "haidi_laoyue", "haidi_pao")
BIG_WINS_ZH = ("七对", "豪华七对", "超豪华七对", "超超豪华七对", "清一色", "将一色", "碰碰胡",
               "全求人", "杠上开花", "杠上炮", "抢杠胡", "海底捞月", "海底炮")
P_QIDUI, P_HAOHUA, P_CHAOHAOHUA, P_CHAOCHAO, P_QINGYISE, P_JIANGYISE, P_PENGPENG, \
    P_QUANQIUREN, P_GANGKAI, P_GANGPAO, P_QIANGGANG, P_HAIDILAO, P_HAIDIPAO = range(13)

#: bots, by code
BOTS = ("efficiency", "value", "cautious")
BOT_EFFICIENCY, BOT_VALUE, BOT_CAUTIOUS = range(3)


def _seats(name: str) -> tuple[str, ...]:
    return tuple(f"{name}_{s}" for s in SEATS)


#: every column of a record, in order
COLUMNS = (
    "index", "dealer", "next_dealer", "outcome", "win_kind", "winners", "n_winners",
    "discarder", "win_tile",
    *_seats("units"), *_seats("patterns"),
    "n_birds", *_seats("bird"), *_seats("hits"),
    *_seats("pay"), *_seats("pay_win"), *_seats("pay_qishou"), *_seats("pay_mid"),
    *_seats("pay_kong"), *_seats("pay_baoting"),
    *_seats("qishou"), *_seats("mid"),
    "turns", "tiles_left", "kongs", "open_kongs", "baoting", "locked", "ready_end",
)
N_COLUMNS = len(COLUMNS)
COL = {name: i for i, name in enumerate(COLUMNS)}

# column offsets the engine writes (per-seat groups start at the _0 column)
C_INDEX, C_DEALER, C_NEXT_DEALER, C_OUTCOME, C_WIN_KIND, C_WINNERS, C_N_WINNERS, \
    C_DISCARDER, C_WIN_TILE = range(9)
C_UNITS = COL["units_0"]
C_PATTERNS = COL["patterns_0"]
C_N_BIRDS = COL["n_birds"]
C_BIRD = COL["bird_0"]
C_HITS = COL["hits_0"]
C_PAY = COL["pay_0"]
C_PAY_WIN = COL["pay_win_0"]
C_PAY_QISHOU = COL["pay_qishou_0"]
C_PAY_MID = COL["pay_mid_0"]
C_PAY_KONG = COL["pay_kong_0"]
C_PAY_BAOTING = COL["pay_baoting_0"]
C_QISHOU = COL["qishou_0"]
C_MID = COL["mid_0"]
C_TURNS, C_TILES_LEFT, C_KONGS, C_OPEN_KONGS, C_BAOTING, C_LOCKED, C_READY_END = (
    COL[c] for c in ("turns", "tiles_left", "kongs", "open_kongs", "baoting", "locked",
                     "ready_end"))

#: bitmask columns (bit s is seat s); ``ready_end`` marks the seats ready when a hand is
#: drawn (0 for other outcomes)
SEAT_MASKS = ("winners", "baoting", "locked", "ready_end")
_SMALL = {"dealer", "next_dealer", "outcome", "win_kind", "winners", "n_winners", "discarder",
          "win_tile", "n_birds", "kongs", "open_kongs", "baoting", "locked", "ready_end",
          *_seats("bird"), *_seats("hits"), *_seats("qishou"), *_seats("mid"),
          *_seats("units")}


def to_frame(rows: np.ndarray, seed: int) -> pd.DataFrame:
    """A DataFrame of records (``int32[n, N_COLUMNS]``), with ``seed`` as its first column.

    >>> df = to_frame(np.zeros((2, N_COLUMNS), np.int32), seed=7)
    >>> list(df.columns[:3]), df["seed"].tolist()
    (['seed', 'index', 'dealer'], [7, 7])
    """
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[1] != N_COLUMNS:
        raise ValueError(f"records must be int[n, {N_COLUMNS}], got shape {rows.shape}")
    data = {"seed": np.full(len(rows), seed, dtype=np.int64)}
    for i, name in enumerate(COLUMNS):
        col = rows[:, i]
        data[name] = col.astype(np.int64 if name == "index" else
                                np.int8 if name in _SMALL else np.int32)
    return pd.DataFrame(data)
