"""What a rule-change study measures in every played hand: ratio metrics ``Σy / Σx``.

Each metric is a per-hand numerator ``y`` and denominator ``x`` (``x = 1`` for a mean or a
rate per hand; the number of won hands for a share of won hands; the number of winners for
a share of wins), optionally transformed (``sqrt``: the s.d. of a seat's net score is the
root of its mean square, the mean being 0 since payments sum to zero). Quantiles of the
payment distribution are not ratios; :mod:`mjsim.stats.paired` bootstraps them.

>>> from mjsim.game.play import play_frame
>>> df = play_frame("changsha", 16, seed=1)
>>> ms = metrics("changsha", ("efficiency",) * 4)
>>> y, x = per_hand(df, ms, ("efficiency",) * 4, "changsha")
>>> y.shape == x.shape == (16, len(ms)), ms[0].key
(True, 'mean_score.dealer')
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from ..game.config import game_config
from ..game.record import (
    OUT_DRAW,
    OUT_QISHOU_END,
    OUT_WIN,
    SELF_DRAWN,
    WIN_KINDS,
    WIN_KINDS_ZH,
    seat_bits,
)
from ..rules import RuleSet

SEATS = range(4)


class Metric(NamedTuple):
    """One measured quantity: ``key`` (``group.name``), English and Chinese labels, how it is
    read (``unit``: score, rate, turns, tiles) and the transform of the ratio."""

    key: str
    label: str
    label_zh: str
    unit: str
    transform: str = "id"

    @property
    def group(self) -> str:
        return self.key.split(".", 1)[0]


#: how each bot plays, where a line-up has several (``play.<bot>.<name>``): its seats' wins
#: and deal-ins per seat-hand, the self-drawn and patterned shares of its wins, the seat-hands
#: in which it passed a win on another's discard, and those in which it melded one
PLAY = (
    ("win", "wins (per seat-hand)", "胡牌率"),
    ("deal_in", "deals in (per seat-hand)", "放铳率"),
    ("self_drawn", "self-drawn share of its wins", "自摸占其胡牌"),
    ("big_win", "big-win share of its wins", "大胡占其胡牌"),
    ("passed", "passed a win on a discard (per seat-hand)", "过胡 (每座每手)"),
    ("claimed", "claimed a discard: a pung, chow or kong (per seat-hand)", "吃碰杠 (每座每手)"),
)


#: quantiles of a seat's net score per hand (bootstrapped), in percent, and the largest loss
QUANTILES = (1, 5, 50, 95, 99)


def quantile_metrics() -> list[Metric]:
    """The payment-distribution metrics that are not ratios (see :mod:`mjsim.stats.paired`)."""
    return [
        Metric(
            f"payment.q{q:02d}",
            f"net score of a seat, {q}% quantile",
            f"座位净得分 {q}% 分位",
            "score",
        )
        for q in QUANTILES
    ] + [
        Metric(
            "payment.largest_loss", "largest loss of a seat in one hand", "单手最大输分", "score"
        )
    ]


def metrics(rules: str | RuleSet, bots: tuple[str, ...]) -> list[Metric]:
    """The ratio metrics of ``rules`` played by the lineup ``bots``.

    >>> [m.key for m in metrics("generic", ("efficiency",) * 4)][4:7]
    ['mean_score.seat_3', 'rate.win', 'rate.draw']
    """
    g = game_config(rules)
    out = [Metric("mean_score.dealer", "mean score of the dealer", "庄家平均得分", "score")]
    out += [
        Metric(f"mean_score.seat_{s}", f"mean score of seat {s}", f"座位 {s} 平均得分", "score")
        for s in SEATS
    ]
    distinct = list(dict.fromkeys(bots))
    if len(distinct) > 1:
        out += [
            Metric(f"mean_score.bot_{b}", f"mean score of bot {b}", f"{b} 平均得分", "score")
            for b in distinct
        ]
        out += [
            Metric(f"play.{b}.{name}", f"{b}: {label}", f"{b} {zh}", "rate")
            for b in distinct
            for name, label, zh in PLAY
        ]
    out += [
        Metric("rate.win", "someone wins", "有人胡牌", "rate"),
        Metric("rate.draw", "drawn hand", "流局", "rate"),
        Metric("rate.deal_in", "won on another's tile (discard or robbed kong)", "放铳", "rate"),
        Metric("rate.self_drawn", "self-drawn share of won hands", "自摸占胡牌", "rate"),
        Metric("rate.multi_win", "several winners (of won hands)", "一炮多响占胡牌", "rate"),
        Metric("rate.qishou_end", "hand ended by 起手胡", "起手胡结束", "rate"),
        Metric("rate.dealer_wins", "the dealer wins", "庄家胡牌", "rate"),
        Metric("rate.dealer_keeps", "the dealer keeps the deal", "连庄", "rate"),
        Metric("rate.claimed", "claimed a discard (per seat-hand)", "吃碰杠率", "rate"),
        Metric("rate.passed", "passed a win on a discard (per seat-hand)", "过胡率", "rate"),
    ]
    out += [
        Metric(f"win_kind.{name}", f"{name} (of won hands)", f"{WIN_KINDS_ZH[k]}占胡牌", "rate")
        for k, name in enumerate(WIN_KINDS)
        if k
    ]
    out += [
        Metric(f"big_win.{p.id}", f"{p.id} (of wins)", f"{p.name_zh}占胡", "rate")
        for p in g.patterns
    ]
    if g.patterns:
        out.append(Metric("big_win.any", "any big win (of wins)", "大胡占胡", "rate"))
    out += model_metrics(g)
    out.append(
        Metric("payment.sd", "s.d. of a seat's net score", "座位净得分标准差", "score", "sqrt")
    )
    if "win" in g.sources:
        out.append(Metric("payment.receipt", "mean receipt of a win", "每次胡牌所得", "score"))
    out += [
        Metric("length.turns", "turns per hand", "每手巡数", "turns"),
        Metric("length.tiles_left", "tiles left at the end", "剩余牌数", "tiles"),
    ]
    return out


def model_metrics(g) -> list[Metric]:
    """What the scoring model of game config ``g`` adds: the mean value of a win, the metrics
    of its own columns (its ``FACTS``) and the share of hands with payments from each source
    but the first.

    >>> [m.key for m in model_metrics(game_config("shanghai_qhp"))][:3]
    ['win.units', 'fact.type.standard', 'fact.type.pengpeng']
    """
    out = [Metric("win.units", "mean value (units) of a win", "每次胡牌的番值", "units")]
    for f in g.facts:
        if f.kind == "winner_share":
            out += [
                Metric(f"fact.{f.key}.{code}", f"{code} (of wins)", f"{zh}占胡", "rate")
                for code, zh in zip(f.codes[1:], f.codes_zh[1:])
            ]
        else:
            out.append(
                Metric(
                    f"fact.{f.key}",
                    f.label,
                    f.label_zh,
                    "rate" if f.kind == "hand_rate" else "count",
                )
            )
    out += [
        Metric(f"source.{src}", f"hands with {src} payments", f"有 {src} 付分的局", "rate")
        for src in g.sources[1:]
    ]
    return out


def _winners(df: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per hand and seat, whether it won; per hand, how many won."""
    won = df["outcome"].to_numpy() == OUT_WIN
    winners = seat_bits(df["winners"].to_numpy()) & won[:, None]
    return winners, winners.sum(axis=1).astype(np.float64)


def _model_columns(
    df: pd.DataFrame, g, winners: np.ndarray, n_winners: np.ndarray
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``y, x`` of each of :func:`model_metrics`."""
    ones = np.ones(len(df))
    out = {"win.units": ((_seats(df, "units") * winners).sum(axis=1), n_winners)}
    for src in g.sources[1:]:
        out[f"source.{src}"] = (
            (_seats(df, f"pay_{src}") != 0).any(axis=1).astype(np.float64),
            ones,
        )
    for f in g.facts:
        if f.kind == "hand_rate":
            out[f"fact.{f.key}"] = ((df[f.column].to_numpy() != 0).astype(np.float64), ones)
            continue
        values = _seats(df, f.column)
        if f.kind == "winner_mean":
            out[f"fact.{f.key}"] = ((values * winners).sum(axis=1), n_winners)
            continue
        for c, code in enumerate(f.codes[1:], start=1):
            out[f"fact.{f.key}.{code}"] = (
                ((values == c) & winners).sum(axis=1).astype(np.float64),
                n_winners,
            )
    return out


def model_per_hand(
    df: pd.DataFrame, ms: list[Metric], rules: str | RuleSet
) -> tuple[np.ndarray, np.ndarray]:
    """``y, x`` of ``ms`` (of :func:`model_metrics`) from the columns a summary reads."""
    winners, n_winners = _winners(df)
    columns = _model_columns(df, game_config(rules), winners, n_winners)
    y = np.empty((len(df), len(ms)))
    x = np.empty((len(df), len(ms)))
    for j, m in enumerate(ms):
        y[:, j], x[:, j] = columns[m.key]
    return y, x


def receipts(df: pd.DataFrame, g) -> np.ndarray:
    """Per hand and seat, what it received for a win: its net from the sources that pay a
    win (the scoring model's ``WIN_SOURCES``; Shanghai's 承包 payments too)."""
    return sum(_seats(df, f"pay_{src}") for src in g.win_sources)


def _seats(df: pd.DataFrame, name: str) -> np.ndarray:
    return df[[f"{name}_{s}" for s in SEATS]].to_numpy(dtype=np.float64)


def per_hand(
    df: pd.DataFrame, ms: list[Metric], bots: tuple[str, ...], rules: str | RuleSet
) -> tuple[np.ndarray, np.ndarray]:
    """``y, x``: ``float64[n hands, len(ms)]`` numerators and denominators of ``ms`` (any of
    :func:`metrics`) in hands of ``rules``."""
    g = game_config(rules)
    n = len(df)
    pay = _seats(df, "pay")
    outcome = df["outcome"].to_numpy()
    won = (outcome == OUT_WIN).astype(np.float64)
    kind = df["win_kind"].to_numpy()
    winners, n_winners = _winners(df)
    rows = np.arange(n)
    dealer = df["dealer"].to_numpy(np.int64)
    patterns = _seats(df, "patterns").astype(np.int64)
    ones = np.ones(n)
    passed = seat_bits(df["passed"].to_numpy())
    claimed = seat_bits(df["claimed"].to_numpy())
    columns: dict[str, tuple[np.ndarray, np.ndarray]] = {
        "mean_score.dealer": (pay[rows, dealer], ones),
        "rate.win": (won, ones),
        "rate.draw": ((outcome == OUT_DRAW).astype(np.float64), ones),
        "rate.deal_in": (won * (df["discarder"].to_numpy() >= 0), ones),
        "rate.self_drawn": (won * np.isin(kind, SELF_DRAWN), won),
        "rate.multi_win": (won * (n_winners > 1), won),
        "rate.qishou_end": ((outcome == OUT_QISHOU_END).astype(np.float64), ones),
        "rate.dealer_wins": (winners[rows, dealer].astype(np.float64), ones),
        "rate.dealer_keeps": ((df["next_dealer"].to_numpy() == dealer).astype(np.float64), ones),
        "rate.claimed": (claimed.sum(axis=1).astype(np.float64), 4 * ones),
        "rate.passed": (passed.sum(axis=1).astype(np.float64), 4 * ones),
        "big_win.any": (((patterns != 0) & winners).sum(axis=1).astype(np.float64), n_winners),
        "payment.sd": ((pay**2).mean(axis=1), ones),
        "length.turns": (df["turns"].to_numpy(np.float64), ones),
        "length.tiles_left": (df["tiles_left"].to_numpy(np.float64), ones),
    }
    for s in SEATS:
        columns[f"mean_score.seat_{s}"] = (pay[:, s], ones)
    discarder = df["discarder"].to_numpy()
    for b in dict.fromkeys(bots):
        seats = [s for s in SEATS if bots[s] == b]
        columns[f"mean_score.bot_{b}"] = (pay[:, seats].mean(axis=1), ones)
        wins = winners[:, seats]
        n_wins = wins.sum(axis=1).astype(np.float64)
        columns[f"play.{b}.win"] = (n_wins, ones * len(seats))
        columns[f"play.{b}.deal_in"] = (won * np.isin(discarder, seats), ones * len(seats))
        columns[f"play.{b}.self_drawn"] = (
            (wins & np.isin(kind, SELF_DRAWN)[:, None]).sum(axis=1).astype(np.float64),
            n_wins,
        )
        columns[f"play.{b}.big_win"] = (
            (wins & (patterns[:, seats] != 0)).sum(axis=1).astype(np.float64),
            n_wins,
        )
        columns[f"play.{b}.passed"] = (
            passed[:, seats].sum(axis=1).astype(np.float64),
            ones * len(seats),
        )
        columns[f"play.{b}.claimed"] = (
            claimed[:, seats].sum(axis=1).astype(np.float64),
            ones * len(seats),
        )
    for k, name in enumerate(WIN_KINDS):
        columns[f"win_kind.{name}"] = (won * (kind == k), won)
    for bit, p in enumerate(g.patterns):  # bit b of patterns_<seat>: the model's pattern b
        columns[f"big_win.{p.id}"] = (
            (((patterns >> bit) & 1 == 1) & winners).sum(axis=1).astype(np.float64),
            n_winners,
        )
    columns.update(_model_columns(df, g, winners, n_winners))
    if "pay_win_0" in df:
        columns["payment.receipt"] = ((receipts(df, g) * winners).sum(axis=1), n_winners)
    y = np.empty((n, len(ms)))
    x = np.empty((n, len(ms)))
    for j, m in enumerate(ms):
        y[:, j], x[:, j] = columns[m.key]
    return y, x
