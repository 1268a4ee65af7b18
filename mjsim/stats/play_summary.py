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
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from ..game.config import game_config
from ..game.record import OUT_DRAW, OUT_WIN, OUTCOMES, SELF_DRAWN, WIN_KINDS
from .proportions import Z95, proportion

SEATS = range(4)
#: quantiles of the payment distribution, in percent
QUANTILES = (1, 5, 25, 50, 75, 95, 99)


def _num(x: float) -> float | None:
    """A JSON-ready float (None for NaN)."""
    x = float(x)
    return None if math.isnan(x) else x


def mean_se(values: np.ndarray, groups: np.ndarray | None = None) -> dict[str, Any]:
    """Mean, standard error and normal 95% interval of ``values`` (JSON-ready).

    With ``groups`` (one label per value, equal labels adjacent), ``se_by_game`` is the
    standard error from the per-group sums (a cluster-robust s.e.).

    >>> mean_se(np.array([1.0, 2.0, 3.0]))["se"]
    0.5773502691896258
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.size
    if n == 0:
        return {"n": 0, "mean": None, "se": None, "ci": [None, None]}
    m = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    out = {"n": int(n), "mean": m, "se": _num(se),
           "ci": [_num(m - Z95 * se), _num(m + Z95 * se)]}
    if groups is not None:
        _, starts = np.unique(groups, return_index=True)
        g = len(starts)
        if g > 1:
            sums = np.add.reduceat(x - m, np.sort(starts))
            out["se_by_game"] = float(math.sqrt(g / (g - 1) * (sums**2).sum()) / n)
        else:
            out["se_by_game"] = None
    return out


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


def _bits(masks: np.ndarray) -> np.ndarray:
    """Seat bitmasks ``int[n]`` → ``bool[n, 4]``."""
    return (np.asarray(masks, dtype=np.int64)[:, None] >> np.arange(4)) & 1 == 1


def _distribution(values: np.ndarray) -> dict[str, Any]:
    """Quantiles (amounts that occurred: the inverse of the empirical distribution), mean,
    s.d. and a value → count histogram of integer amounts."""
    values = np.asarray(values, dtype=np.int64)
    if values.size == 0:
        return {"n": 0}
    uniq, counts = np.unique(values, return_counts=True)
    return {
        "n": int(values.size),
        "mean": float(values.mean()),
        "sd": _num(values.std(ddof=1)) if values.size > 1 else None,
        "min": int(values.min()),
        "max": int(values.max()),
        "quantiles": {f"{q}%": float(v)
                      for q, v in zip(QUANTILES, np.percentile(values, QUANTILES,
                                                                  method="inverted_cdf"))},
        "histogram": {str(int(v)): int(c) for v, c in zip(uniq, counts)},
    }


def _score(e: dict[str, Any]) -> dict[str, Any]:
    """A :func:`mean_se` result with ``mean`` named ``mean_score`` (and no ``n``)."""
    return {"mean_score": e["mean"], **{k: v for k, v in e.items() if k not in ("mean", "n")}}


def _per_hand(pay: np.ndarray, bots: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Per bot (in seat order of first appearance): the average net payment of its seats."""
    return {b: pay[:, [s for s in SEATS if bots[s] == b]].mean(axis=1)
            for b in dict.fromkeys(bots)}


def _compare(per_hand: dict[str, np.ndarray], groups: np.ndarray | None) -> list[dict]:
    """For every pair of bots, the mean per-hand difference (first minus second)."""
    return [{"bots": [a, b], **_score(mean_se(per_hand[a] - per_hand[b], groups))}
            for a, b in combinations(per_hand, 2)]


def bot_scores(pay: np.ndarray, bots: tuple[str, ...],
               groups: np.ndarray | None = None) -> tuple[list[dict], list[dict]]:
    """Per bot: the mean of its per-hand seat average; and the paired bot differences."""
    per_hand = _per_hand(pay, bots)
    scores = [{"bot": b, "seats": [s for s in SEATS if bots[s] == b],
               **_score(mean_se(x, groups))} for b, x in per_hand.items()]
    return scores, _compare(per_hand, groups)


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
    per_hand: dict[str, np.ndarray] = {}
    for frame, seating in zip(frames, seatings):
        for b, x in _per_hand(_seat_matrix(frame, "pay"), seating).items():
            per_hand[b] = per_hand.get(b, 0) + x / len(frames)
    groups = frames[0]["game"].to_numpy()
    return {
        "lineup": list(lineup),
        "seatings": [list(s) for s in seatings],
        "n_hands": len(index),
        "bots": [{"bot": b, "seats_per_seating": lineup.count(b), **_score(mean_se(x, groups))}
                 for b, x in per_hand.items()],
        "bot_differences": _compare(per_hand, groups),
    }


def play_summary(df: pd.DataFrame, rules_id: str, options_hash: str, seed: int,
                 bots: tuple[str, ...]) -> dict[str, Any]:
    """Summarise played hands (one record per row) as a JSON-ready dict.

    Keys: ``rules``, ``options_hash``, ``seed``, ``bots``, ``n_hands``; ``seats`` (per seat:
    bot, ``mean_score``/``se``/``ci`` of the net payment per hand, ``win_rate``,
    ``deal_in_rate``, ``self_draw_rate``, ``by_source`` means); ``bots`` per bot and
    ``bot_differences`` (paired); ``dealer`` (the dealer's score and win rate, how often
    the deal is kept); ``win_rate``, ``draw_rate``, ``deal_in_rate``, ``self_draw_share``
    (of won hands), ``multi_win_rate``, ``outcomes``; ``mean_turns``; ``win_kinds`` and
    ``big_wins`` (counts) with ``win_kind_rates`` (share of won hands) and
    ``big_win_rates`` (share of wins, one per winner); ``payments`` (the net per-seat
    payment per hand, and the winner's receipt for the win).
    """
    if len(bots) != 4:
        raise ValueError(f"bots: need four names (seats 0-3), got {len(bots)}")
    n = len(df)
    if n < 1:
        raise ValueError("no hands to summarise")
    pay = _seat_matrix(df, "pay")
    games = df["game"].to_numpy() if "game" in df else None
    model_patterns = game_config(rules_id).patterns
    sources = [c[4:-2] for c in df.columns if c.startswith("pay_") and c.endswith("_0")
               and c != "pay_0"]
    outcome = df["outcome"].to_numpy()
    won = outcome == OUT_WIN
    n_won = int(won.sum())
    kind = df["win_kind"].to_numpy()
    winners = _bits(df["winners"].to_numpy()) & won[:, None]
    discarder = df["discarder"].to_numpy()
    dealt_in = won & (discarder >= 0)
    self_drawn = won & np.isin(kind, SELF_DRAWN)

    seats = []
    for s in SEATS:
        seats.append({
            "seat": s, "bot": bots[s], **_score(mean_se(pay[:, s], games)),
            "win_rate": rate(winners[:, s]),
            "deal_in_rate": rate(dealt_in & (discarder == s)),
            "self_draw_rate": rate(winners[:, s] & self_drawn),
            "by_source": {src: {k: mean_se(df[f"pay_{src}_{s}"].to_numpy())[k]
                                for k in ("mean", "se")} for src in sources},
        })
    scores, diffs = bot_scores(pay, tuple(bots), games)

    dealer = df["dealer"].to_numpy().astype(np.int64)
    rows = np.arange(n)
    wins_flat = winners.sum()
    patterns = _seat_matrix(df, "patterns")
    big_counts = {name: int((((patterns >> bit) & 1 == 1) & winners).sum())
                  for bit, name in enumerate(p.id for p in model_patterns)}
    any_big = int(((patterns != 0) & winners).sum())
    kind_counts = {name: int((won & (kind == k)).sum())
                   for k, name in enumerate(WIN_KINDS) if k != 0}
    receipts = _seat_matrix(df, "pay_win")[winners]

    return {
        "rules": rules_id,
        "options_hash": options_hash,
        "seed": int(seed),
        "bots": scores,
        "lineup": list(bots),
        "n_hands": int(n),
        "patterns": [{"id": p.id, "name_zh": p.name_zh} for p in model_patterns],
        "sources": sources,
        "seats": seats,
        "bot_differences": diffs,
        "dealer": {
            **_score(mean_se(pay[rows, dealer], games)),
            "win_rate": rate(winners[rows, dealer]),
            "keeps_deal": rate(df["next_dealer"].to_numpy() == dealer)
            if "next_dealer" in df else None,
        },
        "win_rate": rate(won),
        "draw_rate": rate(outcome == OUT_DRAW),
        "deal_in_rate": rate(dealt_in),
        "self_draw_share": rate(int(self_drawn.sum()), n_won),
        "multi_win_rate": rate(int((winners.sum(axis=1) > 1).sum()), n_won),
        "outcomes": {name: rate(outcome == k) for k, name in enumerate(OUTCOMES)},
        "mean_turns": mean_se(df["turns"].to_numpy(), games),
        "win_kinds": kind_counts,
        "win_kind_rates": {name: rate(c, n_won) for name, c in kind_counts.items()},
        "big_wins": big_counts,
        "big_win_rates": {name: rate(c, int(wins_flat)) for name, c in big_counts.items()},
        "any_big_win": rate(any_big, int(wins_flat)),
        "n_wins": int(wins_flat),
        "payments": {
            "per_seat": _distribution(pay.reshape(-1)),
            "winner_receipt": _distribution(receipts),
        },
    }
