"""What played hands are worth: expected scores per seat and per bot, table rates, win kinds,
big wins and the payment distribution, from a frame of hand records (:mod:`mjsim.game.record`).

Every mean has its standard error (sample s.d. / √n over hands) and normal 95% interval;
every proportion its binomial standard error and Wilson 95% interval
(:mod:`mjsim.stats.proportions`). A bot that plays several seats is scored by the per-hand
average of its seats, so the correlation between those seats is in its standard error; the
difference between two bots is likewise the mean of a per-hand difference (paired).

Hands are treated as independent. Within a game (the ``game`` column) the dealer seat depends on
earlier hands, so seat scores are slightly correlated along a game; :func:`play_summary`
also reports ``se_by_game`` (the standard error from per-game totals) so the two can be
compared.

>>> from mjsim.game.play import columns, to_frame
>>> COL = {c: i for i, c in enumerate(columns("changsha"))}
>>> rows = np.zeros((2, len(COL)), np.int32)
>>> rows[0, COL["outcome"]], rows[0, COL["win_kind"]], rows[0, COL["winners"]] = 1, 2, 0b10
>>> rows[0, COL["discarder"]], rows[1, COL["discarder"]] = 3, -1
>>> rows[0, [COL["pay_1"], COL["pay_3"]]] = 6, -6
>>> s = play_summary(to_frame("changsha", rows, 0), "changsha", "x", 0, ("efficiency",) * 4)
>>> [e["mean_score"] for e in s["seats"]], s["win_rate"]["p"], s["win_kinds"]["dianpao"]
([0.0, 3.0, 0.0, -3.0], 0.5, 1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from ..game.config import game_config
from ..game.record import COMMON, OUT_DRAW, OUT_WIN, OUTCOMES, SELF_DRAWN, WIN_KINDS, seat_bits
from .hand_metrics import model_metrics, model_per_hand, receipts
from .paired import RatioMoments, ratio_value
from .proportions import Z95, proportion

SEATS = range(4)
#: quantiles of the payment distribution, in percent
QUANTILES = (1, 5, 25, 50, 75, 95, 99)


def _num(x: float) -> float | None:
    """A JSON-ready float (None for NaN)."""
    x = float(x)
    return None if math.isnan(x) else x


def _total(x: np.ndarray) -> int | float:
    """The sum of an array as a Python number: exact (an int) for integer arrays."""
    return int(x.sum()) if x.dtype.kind in "iub" else float(x.sum())


class MeanMoments:
    """Running sums for a mean and its standard errors, fed chunk by chunk.

    Keeps n, Σx and Σx² of the values (shifted by the first one), and with groups (one label
    per value, equal labels adjacent; a group may continue into the next chunk) the per-group
    sums S_g over n_g values as Σ S_g², Σ S_g·n_g and Σ n_g². Integer values are summed
    exactly (Python ints); a value is ``numerator / scale``, so averages of integers (a bot's
    seats, a difference of two bots) are exact too. :meth:`result` is :func:`mean_se`'s.

    >>> m = MeanMoments(scale=2).add(np.array([1, 3])).add(np.array([5]))
    >>> m.result()["mean"], m.result()["se"]
    (1.5, 0.5773502691896258)
    """

    def __init__(self, scale: int = 1):
        self.scale = scale
        self.n = 0
        self.shift: int | float | None = None
        self.s1: int | float = 0
        self.s2: int | float = 0
        self.grouped: bool | None = None
        #: closed groups: their number, Σ S_g², Σ S_g·n_g, Σ n_g²
        self.g, self.gs2, self.gsn, self.gn2 = 0, 0, 0, 0
        #: the last group seen (label, S_g, n_g), which the next chunk may continue
        self.open: tuple[Any, int | float, int] | None = None

    def add(self, values: np.ndarray, groups: np.ndarray | None = None) -> MeanMoments:
        """Add values (and their group labels); returns self."""
        x = np.asarray(values)
        x = x.astype(np.int64 if x.dtype.kind in "iub" else np.float64, copy=False).reshape(-1)
        if self.grouped is None:
            self.grouped = groups is not None
        elif self.grouped != (groups is not None):
            raise ValueError("give groups with every chunk or with none")
        if x.size == 0:
            return self
        if self.shift is None:
            self.shift = x[0].item()
        d = x - self.shift
        self.n += d.size
        self.s1 += _total(d)
        self.s2 += _total(d * d)
        if groups is not None:
            self._add_groups(d, np.asarray(groups).reshape(-1))
        return self

    def _add_groups(self, d: np.ndarray, groups: np.ndarray) -> None:
        if groups.size != d.size:
            raise ValueError(f"need one group label per value ({d.size}), got {groups.size}")
        starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
        sums = np.add.reduceat(d, starts)
        sizes = np.diff(np.r_[starts, d.size])
        first: tuple[int | float, int] = (sums[0].item(), int(sizes[0]))
        if self.open is not None:
            label, s, k = self.open
            if label == groups[0]:
                first = (first[0] + s, first[1] + k)
            else:
                self._close(s, k)
        if len(starts) > 1:
            self._close(first[0], first[1])
            inner_s, inner_n = sums[1:-1], sizes[1:-1]
            self.g += inner_s.size
            self.gs2 += _total(inner_s * inner_s)
            self.gsn += _total(inner_s * inner_n)
            self.gn2 += _total(inner_n * inner_n)
            first = (sums[-1].item(), int(sizes[-1]))
        self.open = (groups[-1], first[0], first[1])

    def _close(self, s: float, k: int) -> None:
        self.g += 1
        self.gs2 += s * s
        self.gsn += s * k
        self.gn2 += k * k

    def result(self) -> dict[str, Any]:
        """``n``, ``mean``, ``se`` (sample s.d. / √n), normal 95% ``ci``; with groups also
        ``se_by_game`` (from the per-group sums; None with one group). JSON-ready."""
        n, k = self.n, self.scale
        if n == 0:
            return {"n": 0, "mean": None, "se": None, "ci": [None, None]}
        s1 = self.s1
        m = (s1 + n * self.shift) / (n * k)
        if n > 1:  # n·Σd² − (Σd)² = n·Σ(d − d̄)², exact for integers
            se = math.sqrt(max(n * self.s2 - s1 * s1, 0) / (n * (n - 1))) / k / math.sqrt(n)
        else:
            se = float("nan")
        out = {
            "n": int(n),
            "mean": m,
            "se": _num(se),
            "ci": [_num(m - Z95 * se), _num(m + Z95 * se)],
        }
        if self.grouped:
            g, gs2, gsn, gn2 = self.g, self.gs2, self.gsn, self.gn2
            if self.open is not None:
                _, s, c = self.open
                g, gs2, gsn, gn2 = g + 1, gs2 + s * s, gsn + s * c, gn2 + c * c
            if g > 1:  # n²·Σ_g (S_g − n_g·d̄)², exact for integers
                q = n * n * gs2 - 2 * n * s1 * gsn + s1 * s1 * gn2
                out["se_by_game"] = float(math.sqrt(g / (g - 1) * max(q, 0) / (n * n)) / n / k)
            else:
                out["se_by_game"] = None
        return out


def mean_se(values: np.ndarray, groups: np.ndarray | None = None) -> dict[str, Any]:
    """Mean, standard error and normal 95% interval of ``values`` (JSON-ready).

    With ``groups`` (one label per value, equal labels adjacent), ``se_by_game`` is the
    standard error from the per-group sums (a cluster-robust s.e.). Chunk by chunk:
    :class:`MeanMoments`.

    >>> mean_se(np.array([1.0, 2.0, 3.0]))["se"]
    0.5773502691896258
    """
    return MeanMoments().add(values, groups).result()


def rate(hits: np.ndarray | int, n: int | None = None) -> dict[str, Any] | None:
    """A proportion (``k``, ``n``, ``p``, ``se``, Wilson ``ci``) of a boolean array, or of
    ``k`` in ``n``; None when there are no trials."""
    if n is None:
        hits = np.asarray(hits, dtype=bool)
        k, n = int(hits.sum()), hits.size
    else:
        k = int(hits)
    return proportion(k, n).to_dict() if n > 0 else None


def _seat_matrix(df: pd.DataFrame, name: str) -> np.ndarray:
    return df[[f"{name}_{s}" for s in SEATS]].to_numpy(dtype=np.int64)


def quantile_positions(n: int, percents: tuple[int, ...] = QUANTILES) -> np.ndarray:
    """Where each percentile falls in ``n`` sorted values (0-based), as numpy's
    ``percentile(..., method="inverted_cdf")`` takes it: the first value whose empirical
    distribution function reaches the percentile.

    >>> quantile_positions(16, (1, 25, 50, 99)).tolist()
    [0, 3, 7, 15]
    """
    index = n * (np.asarray(percents) / 100) - 1  # numpy's own arithmetic, to the last bit
    below = np.floor(index)
    return np.clip(np.where(index == below, below, below + 1), 0, n - 1).astype(np.int64)


class Distribution:
    """A value → count histogram of integer amounts, fed chunk by chunk; :meth:`result` gives
    quantiles (amounts that occurred: the inverse of the empirical distribution), mean, s.d.,
    range and the histogram.

    >>> Distribution().add(np.array([3, 1])).add(np.array([3])).result()["histogram"]
    {'1': 1, '3': 2}
    """

    def __init__(self) -> None:
        self.counts: dict[int, int] = {}

    def add(self, values: np.ndarray) -> Distribution:
        """Add integer amounts; returns self."""
        uniq, counts = np.unique(np.asarray(values, dtype=np.int64), return_counts=True)
        for v, c in zip(uniq.tolist(), counts.tolist()):
            self.counts[v] = self.counts.get(v, 0) + c
        return self

    def result(self) -> dict[str, Any]:
        if not self.counts:
            return {"n": 0}
        values = sorted(self.counts)
        counts = [self.counts[v] for v in values]
        n = sum(counts)
        s1 = sum(v * c for v, c in zip(values, counts))
        s2 = sum(v * v * c for v, c in zip(values, counts))
        ends = np.cumsum(counts)  # sorted positions 0 .. ends[i]-1 hold values[:i+1]
        at = np.searchsorted(ends, quantile_positions(n), side="right")
        return {
            "n": n,
            "mean": s1 / n,
            "sd": math.sqrt((n * s2 - s1 * s1) / (n * (n - 1))) if n > 1 else None,
            "min": values[0],
            "max": values[-1],
            "quantiles": {f"{q}%": float(values[i]) for q, i in zip(QUANTILES, at)},
            "histogram": {str(v): c for v, c in zip(values, counts)},
        }


def _score(e: dict[str, Any]) -> dict[str, Any]:
    """A :func:`mean_se` result with ``mean`` named ``mean_score`` (and no ``n``)."""
    return {"mean_score": e["mean"], **{k: v for k, v in e.items() if k not in ("mean", "n")}}


def _bot_sums(pay: np.ndarray, bots: tuple[str, ...]) -> dict[str, tuple[np.ndarray, int]]:
    """Per bot (in seat order of first appearance): the sum of its seats' net payments per
    hand and its number of seats (its per-hand value is the sum over the number)."""
    out = {}
    for b in dict.fromkeys(bots):
        seats = [s for s in SEATS if bots[s] == b]
        out[b] = pay[:, seats].sum(axis=1), len(seats)
    return out


def _pair_sums(
    sums: dict[str, tuple[np.ndarray, int]],
) -> dict[tuple[str, str], tuple[np.ndarray, int]]:
    """For every pair of bots, their per-hand difference (first minus second) as an integer
    numerator over a denominator: ``Ta/ka - Tb/kb = (kb·Ta - ka·Tb) / (ka·kb)``."""
    return {
        (a, b): (kb * ta - ka * tb, ka * kb)
        for (a, (ta, ka)), (b, (tb, kb)) in combinations(sums.items(), 2)
    }


def rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The four seatings of a lineup, each bot moved one seat on each time.

    >>> rotations(("a", "b", "c", "d"))[1]
    ('b', 'c', 'd', 'a')
    """
    lineup = tuple(lineup)
    return [lineup[r:] + lineup[:r] for r in SEATS]


def rotation_scores(frames: list[pd.DataFrame], lineup: tuple[str, ...]) -> dict[str, Any]:
    """Bots compared over the four :func:`rotations` of ``lineup``, ``frames[r]`` played
    with seating ``r`` on the same hand indices (and so the same walls: common random numbers).

    Each bot plays every seat equally often, so seat and dealer effects cancel. A bot's
    per-hand value is its seat average in each seating, averaged over the four seatings;
    its mean, standard error and interval, and the paired differences between bots, are
    taken over those per-hand values.
    """
    seatings = rotations(lineup)
    if len(frames) != len(seatings):
        raise ValueError(f"need one frame per seating ({len(seatings)}), got {len(frames)}")
    index = frames[0]["index"].to_numpy()
    for frame in frames[1:]:
        if not np.array_equal(frame["index"].to_numpy(), index):
            raise ValueError("the seatings must be played on the same hands")
    totals: dict[str, np.ndarray] = {}  # per bot: its seats' payments, summed over seatings
    for frame, seating in zip(frames, seatings):
        for b, (t, _) in _bot_sums(_seat_matrix(frame, "pay"), seating).items():
            totals[b] = totals.get(b, 0) + t
    sums = {b: (t, len(frames) * lineup.count(b)) for b, t in totals.items()}
    groups = frames[0]["game"].to_numpy()
    return {
        "lineup": list(lineup),
        "seatings": [list(s) for s in seatings],
        "n_hands": len(index),
        "bots": [
            {
                "bot": b,
                "seats_per_seating": lineup.count(b),
                **_score(MeanMoments(k).add(t, groups).result()),
            }
            for b, (t, k) in sums.items()
        ],
        "bot_differences": [
            {"bots": list(pair), **_score(MeanMoments(k).add(d, groups).result())}
            for pair, (d, k) in _pair_sums(sums).items()
        ],
    }


#: the record columns a summary reads besides the per-seat ``pay_*``, ``patterns_*`` and
#: ``units_*`` ones and the scoring model's own
_FIELDS = ("game", "dealer", "next_dealer", "outcome", "win_kind", "winners", "discarder", "turns")
_COMMON = frozenset(COMMON)


def summary_columns(columns: tuple[str, ...] | list[str]) -> list[str]:
    """Of a rule set's record columns (:func:`mjsim.game.play.columns`), those a summary reads.

    >>> summary_columns(["seed", "game", "tiles_left", "pay_0", "patterns_0", "units_0", "bird_0"])
    ['game', 'pay_0', 'patterns_0', 'units_0', 'bird_0']
    """
    return [
        c
        for c in columns
        if c in _FIELDS
        or c.startswith(("pay_", "patterns_", "units_", "declare_turn_"))
        or (c not in _COMMON and c != "seed")
    ]


class PlaySummary:
    """:func:`play_summary` fed chunk by chunk: :meth:`add` frames of records in hand order,
    then :meth:`result`. Only counts, sums (:class:`MeanMoments`) and integer histograms
    (:class:`Distribution`) are kept, so memory does not grow with the number of hands, and
    the result does not depend on how the hands were chunked.

    >>> from mjsim.game.play import columns, to_frame
    >>> COL = {c: i for i, c in enumerate(columns("changsha"))}
    >>> rows = np.zeros((16, len(COL)), np.int32)
    >>> rows[:, COL["game"]] = np.arange(16) // 8
    >>> rows[::2, COL["pay_0"]], rows[::2, COL["pay_1"]] = 1, -1
    >>> acc = PlaySummary("changsha", "x", 0, ("efficiency",) * 4)
    >>> for part in (rows[:8], rows[8:]):
    ...     _ = acc.add(to_frame("changsha", part, 0))
    >>> acc.result()["seats"][0]["mean_score"], acc.n_hands
    (0.5, 16)
    """

    def __init__(self, rules_id: str, options_hash: str, seed: int, bots: tuple[str, ...]):
        if len(bots) != 4:
            raise ValueError(f"bots: need four names (seats 0-3), got {len(bots)}")
        self.rules_id, self.options_hash, self.seed = rules_id, options_hash, int(seed)
        self.bots = tuple(bots)
        self.patterns = game_config(rules_id).patterns
        self.n_hands = 0
        #: payment sources and whether ``next_dealer`` is recorded: set by the first frame
        self.sources: list[str] | None = None
        self.has_next_dealer = False
        #: named integer counts (hands, wins, seats' wins, ...)
        self.counts: dict[Any, int] = {}
        self.seat_pay = [MeanMoments() for _ in SEATS]
        self.source_pay: dict[tuple[str, int], MeanMoments] = {}
        self.bot_pay = {b: MeanMoments(self.bots.count(b)) for b in dict.fromkeys(self.bots)}
        self.pair_pay = {
            (a, b): MeanMoments(self.bots.count(a) * self.bots.count(b))
            for a, b in combinations(self.bot_pay, 2)
        }
        self.dealer_pay = MeanMoments()
        self.turns = MeanMoments()
        self.per_seat = Distribution()
        self.receipts = Distribution()
        #: the scoring model's figures (its facts), as ratios with s.e. by game
        self.model_ms = model_metrics(game_config(rules_id))
        self.model_sums = RatioMoments.empty(len(self.model_ms), 1)
        #: the last game seen, whose hands may go on in the next frame: (label, sums, hands)
        self._open_game: tuple[Any, np.ndarray, int] | None = None

    def _count(self, key: Any, hits: np.ndarray | int) -> None:
        self.counts[key] = self.counts.get(key, 0) + int(np.sum(hits))

    def add(self, df: pd.DataFrame) -> PlaySummary:
        """Add the records of a frame (hands in order, after those added before); returns
        self."""
        if self.sources is None:
            self.sources = [
                c[4:-2]
                for c in df.columns
                if c.startswith("pay_") and c.endswith("_0") and c != "pay_0"
            ]
            self.has_next_dealer = "next_dealer" in df
            self.source_pay = {(src, s): MeanMoments() for src in self.sources for s in SEATS}
        n = len(df)
        if n == 0:
            return self
        self.n_hands += n
        pay = _seat_matrix(df, "pay")
        games = df["game"].to_numpy() if "game" in df else None
        outcome = df["outcome"].to_numpy()
        won = outcome == OUT_WIN
        kind = df["win_kind"].to_numpy()
        winners = seat_bits(df["winners"].to_numpy()) & won[:, None]
        discarder = df["discarder"].to_numpy()
        dealt_in = won & (discarder >= 0)
        self_drawn = won & np.isin(kind, SELF_DRAWN)

        for s in SEATS:
            self.seat_pay[s].add(pay[:, s], games)
            self._count(("wins", s), winners[:, s])
            self._count(("deal_ins", s), dealt_in & (discarder == s))
            self._count(("self_draws", s), winners[:, s] & self_drawn)
            for src in self.sources:
                self.source_pay[src, s].add(df[f"pay_{src}_{s}"].to_numpy())
        sums = _bot_sums(pay, self.bots)
        for b, (t, _) in sums.items():
            self.bot_pay[b].add(t, games)
        for pair, (d, _) in _pair_sums(sums).items():
            self.pair_pay[pair].add(d, games)

        dealer = df["dealer"].to_numpy().astype(np.int64)
        rows = np.arange(n)
        self.dealer_pay.add(pay[rows, dealer], games)
        self._count("dealer_wins", winners[rows, dealer])
        if self.has_next_dealer:
            self._count("keeps_deal", df["next_dealer"].to_numpy() == dealer)
        for k in range(len(OUTCOMES)):
            self._count(("outcome", k), outcome == k)
        self._count("dealt_in", dealt_in)
        self._count("self_drawn", self_drawn)
        self._count("multi_win", winners.sum(axis=1) > 1)
        self.turns.add(df["turns"].to_numpy(), games)
        for k in range(1, len(WIN_KINDS)):
            self._count(("kind", k), won & (kind == k))
        patterns = _seat_matrix(df, "patterns")
        for bit in range(len(self.patterns)):
            self._count(("big", bit), ((patterns >> bit) & 1 == 1) & winners)
        self._count("any_big", (patterns != 0) & winners)
        self._count("wins", winners)
        self.per_seat.add(pay.reshape(-1))
        self.receipts.add(receipts(df, game_config(self.rules_id)).astype(np.int64)[winners])
        labels = games if games is not None else np.arange(self.n_hands - n, self.n_hands)
        self._add_model(df, labels)
        return self

    def _add_model(self, df: pd.DataFrame, games: np.ndarray) -> None:
        """The model figures' sums by game; a game may go on in the next frame."""
        y, x = model_per_hand(df, self.model_ms, self.rules_id)
        starts = np.flatnonzero(np.r_[True, games[1:] != games[:-1]])
        per_game = np.add.reduceat(np.stack([y, x], axis=-1), starts, axis=0)
        sizes = np.diff(np.r_[starts, len(df)])
        if self._open_game is not None:
            label, sums, hands = self._open_game
            if label == games[0]:
                per_game[0] += sums
                sizes[0] += hands
            else:
                self.model_sums.add_games(sums[None], hands)
        self.model_sums.add_games(per_game[:-1], int(sizes[:-1].sum()))
        self._open_game = (games[-1], per_game[-1], int(sizes[-1]))

    def _model_figures(self) -> dict[str, Any]:
        sums = RatioMoments(
            self.model_sums.n_hands,
            self.model_sums.n_games,
            self.model_sums.s.copy(),
            self.model_sums.ss.copy(),
        )
        if self._open_game is not None:
            sums.add_games(self._open_game[1][None], self._open_game[2])
        return {
            m.key: {
                "label": m.label,
                "label_zh": m.label_zh,
                "unit": m.unit,
                **ratio_value(sums, j, 0, m.transform),
            }
            for j, m in enumerate(self.model_ms)
        }

    def result(self) -> dict[str, Any]:
        """The summary of every hand added (:func:`play_summary`'s keys)."""
        n = self.n_hands
        if n < 1:
            raise ValueError("no hands to summarise")
        c = self.counts
        bots = self.bots
        n_won = c[("outcome", OUT_WIN)]
        wins_flat = c["wins"]
        kind_counts = {name: c[("kind", k)] for k, name in enumerate(WIN_KINDS) if k != 0}
        big_counts = {p.id: c[("big", bit)] for bit, p in enumerate(self.patterns)}
        seats = [
            {
                "seat": s,
                "bot": bots[s],
                **_score(self.seat_pay[s].result()),
                "win_rate": rate(c[("wins", s)], n),
                "deal_in_rate": rate(c[("deal_ins", s)], n),
                "self_draw_rate": rate(c[("self_draws", s)], n),
                "by_source": {
                    src: {k: self.source_pay[src, s].result()[k] for k in ("mean", "se")}
                    for src in self.sources
                },
            }
            for s in SEATS
        ]
        return {
            "rules": self.rules_id,
            "options_hash": self.options_hash,
            "seed": self.seed,
            "bots": [
                {"bot": b, "seats": [s for s in SEATS if bots[s] == b], **_score(m.result())}
                for b, m in self.bot_pay.items()
            ],
            "lineup": list(bots),
            "n_hands": int(n),
            "patterns": [{"id": p.id, "name_zh": p.name_zh} for p in self.patterns],
            "sources": list(self.sources),
            "seats": seats,
            "bot_differences": [
                {"bots": list(pair), **_score(m.result())} for pair, m in self.pair_pay.items()
            ],
            "dealer": {
                **_score(self.dealer_pay.result()),
                "win_rate": rate(c["dealer_wins"], n),
                "keeps_deal": rate(c["keeps_deal"], n) if self.has_next_dealer else None,
            },
            "win_rate": rate(n_won, n),
            "draw_rate": rate(c[("outcome", OUT_DRAW)], n),
            "deal_in_rate": rate(c["dealt_in"], n),
            "self_draw_share": rate(c["self_drawn"], n_won),
            "multi_win_rate": rate(c["multi_win"], n_won),
            "outcomes": {name: rate(c[("outcome", k)], n) for k, name in enumerate(OUTCOMES)},
            "mean_turns": self.turns.result(),
            "win_kinds": kind_counts,
            "win_kind_rates": {name: rate(k, n_won) for name, k in kind_counts.items()},
            "big_wins": big_counts,
            "big_win_rates": {name: rate(k, wins_flat) for name, k in big_counts.items()},
            "any_big_win": rate(c["any_big"], wins_flat),
            "n_wins": wins_flat,
            "payments": {
                "per_seat": self.per_seat.result(),
                "winner_receipt": self.receipts.result(),
            },
            "scoring": game_config(self.rules_id).model,
            "patterns_title": game_config(self.rules_id).patterns_title,
            "model_figures": self._model_figures(),
        }


def play_summary(
    df: pd.DataFrame | Iterable[pd.DataFrame],
    rules_id: str,
    options_hash: str,
    seed: int,
    bots: tuple[str, ...],
) -> dict[str, Any]:
    """Summarise played hands (one record per row) as a JSON-ready dict.

    ``df`` is a frame of records, or frames of them in hand order (each part of a dataset,
    :func:`mjsim.sim.games.iter_games`), summarised one at a time by :class:`PlaySummary`.

    Keys: ``rules``, ``options_hash``, ``seed``, ``bots``, ``n_hands``; ``seats`` (per seat:
    bot, ``mean_score``/``se``/``ci`` of the net payment per hand, ``win_rate``,
    ``deal_in_rate``, ``self_draw_rate``, ``by_source`` means); ``bots`` per bot and
    ``bot_differences`` (paired); ``dealer`` (the dealer's score and win rate, how often
    the deal is kept); ``win_rate``, ``draw_rate``, ``deal_in_rate``, ``self_draw_share``
    (of won hands), ``multi_win_rate``, ``outcomes``; ``mean_turns``; ``win_kinds`` and
    ``big_wins`` (counts) with ``win_kind_rates`` (share of won hands) and
    ``big_win_rates`` (share of wins, one per winner); ``payments`` (the net per-seat
    payment per hand, and the winner's receipt for the win); ``scoring`` (the scoring model)
    and ``model_figures`` (the scoring model's
    figures, each a ratio with its s.e. by game and 95% interval: the mean value of a win,
    its facts — for Shanghai the share of wins per type, the mean H, 开宝, 荒番 and 承包 hands
    — and the share of hands with payments from each source but the first).
    """
    summary = PlaySummary(rules_id, options_hash, seed, bots)
    for frame in [df] if isinstance(df, pd.DataFrame) else df:
        summary.add(frame)
    return summary.result()
