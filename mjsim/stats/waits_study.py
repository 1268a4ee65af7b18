"""The waits study: once a seat is ready, how likely is it to win, and what moves that?

From the played records' readiness columns (:mod:`mjsim.game.record`: ``ready_turn``,
``ready_waits_lo/hi``, ``ready_live``, ``ready_shape``, ``ready_open``, ``declare_turn``)
:func:`ready_seats` makes one row per seat that became ready in a hand, with how the hand
ended for it (:data:`RESULTS`). :func:`waits_study` gives the probability of winning once
ready by live copies, wait shape, the round it became ready (巡: the hand's discards / 4,
rounded up), concealed or not and declared or not; the share of those wins by self-draw per
shape; how the hand ended; the mean score of a ready seat. A seat's four rows in a hand, and
a game's hands, are not independent (one seat's win is another's loss; the dealer stays), so
every standard error is from the per-game sums (``se_by_game``); a share's 95% interval is
Wilson's on the sample size that s.e. implies, a mean's ± 1.96 s.e.

>>> RESULTS[:2], RESULTS_ZH[:2]
(('won_self_draw', 'won_discard'), ('自摸', '点炮胡'))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..game import record as R
from ..game.shape import SHAPES, SHAPES_ZH
from ..sim.deals import deal_frame
from .exact_shanten import ExactUnsupported, p_ready
from .play_summary import mean_se
from .proportions import Z95, wilson

#: how the hand ended for a seat that became ready
RESULTS = ("won_self_draw", "won_discard", "dealt_in", "other_won", "drawn")
RESULTS_ZH = ("自摸", "点炮胡", "放炮", "他家胡", "流局")
#: the columns :func:`ready_seats` reads
READ = (
    "seed",
    "game",
    "index",
    "outcome",
    "win_kind",
    "winners",
    "discarder",
    "ready_open",
    *(
        f"{g}_{s}"
        for g in (
            "ready_turn",
            "ready_waits_lo",
            "ready_waits_hi",
            "ready_live",
            "ready_shape",
            "declare_turn",
            "pay",
        )
        for s in R.SEATS
    ),
)
#: live-copy groups of the tables: 0 … 7, then 8 or more
LIVE_TOP = 8
#: rounds (巡) of the tables: 0 (ready as dealt), 1 … 11, then 12 or more
ROUND_TOP = 12


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    n = np.zeros(len(x), np.int64)
    for b in range(R.WAITS_SPLIT):
        n += (x >> b) & 1
    return n


def ready_seats(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (hand, seat) that became ready, in hand order: ``seed``, ``game``,
    ``index``, ``seat``, ``turn`` (the hand's discards then; 0: as dealt), ``round`` (0: as
    dealt), ``n_waits``,
    ``live``, ``wait_shape`` (:data:`mjsim.game.shape.SHAPES`), ``concealed``, ``declared``,
    ``result`` (:data:`RESULTS`: a 花胡 win of bonus tiles counts as self-drawn, a robbed
    kong as dealt in), ``won``, ``self_draw``, ``pay`` (the seat's net score).

    >>> from mjsim.game.play import columns, to_frame
    >>> rows = np.zeros((1, len(columns("generic"))), np.int32)
    >>> rows[0, columns("generic").index("ready_turn_2")] = 9
    >>> rows[0, columns("generic").index("ready_shape_2")] = 1
    >>> df = to_frame("generic", rows, 0, readiness=True)
    >>> ready_seats(df)[["seat", "round", "result"]].values.tolist()
    [[2, 3, 'drawn']]
    """
    missing = [c for c in READ if c not in df.columns]
    if missing:
        raise ValueError(
            f"records lack the readiness columns ({missing[0]} …): play them "
            "again with this version"
        )
    parts = []
    for s in R.SEATS:
        turn = df[f"ready_turn_{s}"].to_numpy().astype(np.int64)
        rows = np.flatnonzero(df[f"ready_shape_{s}"].to_numpy() != 0)
        d = df.iloc[rows]
        won = ((d.winners.to_numpy().astype(np.int64) >> s) & 1).astype(bool)
        kind = d.win_kind.to_numpy().astype(np.int64)
        self_draw = np.isin(kind, R.SELF_DRAWN)
        drawn = d.outcome.to_numpy() == R.OUT_DRAW
        dealt_in = ~won & ~drawn & ~self_draw & (d.discarder.to_numpy() == s)
        result = np.select([won & self_draw, won, dealt_in, drawn], [0, 1, 2, 4], 3)
        parts.append(
            pd.DataFrame(
                {
                    "seed": d.seed.to_numpy(),
                    "game": d.game.to_numpy(),
                    "index": d["index"].to_numpy(),
                    "seat": np.full(len(d), s, np.int8),
                    "turn": turn[rows],
                    "round": (turn[rows] + 3) // 4,
                    "n_waits": _popcount(d[f"ready_waits_lo_{s}"].to_numpy())
                    + _popcount(d[f"ready_waits_hi_{s}"].to_numpy()),
                    "live": d[f"ready_live_{s}"].to_numpy().astype(np.int64),
                    "wait_shape": pd.Categorical.from_codes(
                        d[f"ready_shape_{s}"].to_numpy().astype(int), SHAPES
                    ),
                    "concealed": ((d.ready_open.to_numpy().astype(np.int64) >> s) & 1) == 0,
                    "declared": d[f"declare_turn_{s}"].to_numpy() > 0,
                    "result": pd.Categorical.from_codes(result, RESULTS),
                    "won": won,
                    "self_draw": won & self_draw,
                    "pay": d[f"pay_{s}"].to_numpy().astype(np.int64),
                }
            )
        )
    out = pd.concat(parts, ignore_index=True)
    return out.sort_values(["seed", "index", "seat"], kind="stable", ignore_index=True)


def game_labels(seats: pd.DataFrame) -> np.ndarray:
    """One label per row of :func:`ready_seats`, equal within a game (the groups of the
    standard errors)."""
    return seats.seed.to_numpy().astype(np.int64) * (1 << 32) + seats.game.to_numpy()


def estimate(values: np.ndarray, groups: np.ndarray) -> dict[str, Any]:
    """Mean of ``values`` with its s.e. from the per-game sums (the plain s.e. where there is
    one game) and a 95% interval: for a boolean ``values`` (a share), Wilson's on the
    effective sample size p(1 − p)/se² (the design effect of the games), else mean ± 1.96 s.e.

    >>> e = estimate(np.array([True, False, True, True]), np.array([0, 0, 1, 1]))
    >>> e["n"], e["mean"], 0 <= e["ci"][0] < e["ci"][1] <= 1
    (4, 0.75, True)
    """
    values = np.asarray(values)
    r = mean_se(values, np.asarray(groups))
    se = r.get("se_by_game") or r["se"]
    m = r["mean"]
    if m is None or se is None or not np.isfinite(se):
        return {"n": r["n"], "mean": m, "se": None, "ci": [None, None]}
    if values.dtype == np.bool_:
        n_eff = r["n"] if se == 0 else min(r["n"], m * (1 - m) / se**2)
        ci = list(wilson(m * n_eff, n_eff))
    else:
        ci = [m - Z95 * se, m + Z95 * se]
    return {"n": r["n"], "mean": m, "se": se, "ci": ci}


def _by(seats: pd.DataFrame, groups: pd.Series, labels: list, value: str) -> list[dict]:
    g = game_labels(seats)
    out = []
    for label in labels:
        rows = (groups == label).to_numpy()
        if rows.any():
            out.append({"group": label, **estimate(seats[value].to_numpy()[rows], g[rows])})
    return out


def waits_study(seats: pd.DataFrame, n_hands: int) -> dict[str, Any]:
    """The study's tables from :func:`ready_seats` of ``n_hands`` played hands (JSON-ready):
    ``ready_share`` (of seat-hands), win probability ``by_live``, ``by_shape``, ``by_round``,
    ``by_concealed``, ``by_declared``; ``self_draw_by_shape`` (of the wins); ``results``
    (how the hand ended); ``score`` (mean net score once ready, and by result)."""
    if seats.empty:
        raise ValueError("no seat became ready in these hands: play more hands")
    g = game_labels(seats)
    live = seats.live.clip(upper=LIVE_TOP)
    rounds = seats["round"].clip(upper=ROUND_TOP)
    shapes = [s for s in SHAPES[1:] if (seats.wait_shape == s).any()]
    wins = seats[seats.won]
    out = {
        "n_hands": int(n_hands),
        "n_ready": len(seats),
        "ready_share": len(seats) / (4 * n_hands),
        "win": estimate(seats.won.to_numpy(), g),
        "by_live": _by(seats, live, list(range(LIVE_TOP + 1)), "won"),
        "by_shape": _by(seats, seats.wait_shape.astype(str), shapes, "won"),
        "by_round": _by(seats, rounds, list(range(ROUND_TOP + 1)), "won"),
        "by_concealed": _by(seats, seats.concealed, [True, False], "won"),
        "by_declared": _by(seats, seats.declared, [True, False], "won")
        if seats.declared.any()
        else [],
        "self_draw_by_shape": _by(wins, wins.wait_shape.astype(str), shapes, "self_draw"),
        "results": [{"group": r, **estimate((seats.result == r).to_numpy(), g)} for r in RESULTS],
        "score": estimate(seats.pay.to_numpy(), g),
        "score_by_result": _by(seats, seats.result.astype(str), list(RESULTS), "pay"),
        "live_top": LIVE_TOP,
        "round_top": ROUND_TOP,
    }
    for row in out["by_shape"] + out["self_draw_by_shape"]:
        row["group_zh"] = SHAPES_ZH[SHAPES.index(row["group"])]
    for row in out["results"] + out["score_by_result"]:
        row["group_zh"] = RESULTS_ZH[RESULTS.index(row["group"])]
    return out


def win_by_live_and_shape(seats: pd.DataFrame) -> pd.DataFrame:
    """Win probability by live copies (0 … :data:`LIVE_TOP`) for each shape: columns
    ``shape``, ``live``, ``n``, ``mean``, ``se``, ``lo``, ``hi`` (for the chart)."""
    g = game_labels(seats)
    live = seats.live.clip(upper=LIVE_TOP).to_numpy()
    rows = []
    for shape in SHAPES[1:]:
        of_shape = (seats.wait_shape == shape).to_numpy()
        for n_live in range(LIVE_TOP + 1):
            pick = of_shape & (live == n_live)
            if pick.sum() >= 2:
                e = estimate(seats.won.to_numpy()[pick], g[pick])
                rows.append(
                    {
                        "shape": shape,
                        "live": n_live,
                        "n": e["n"],
                        "mean": e["mean"],
                        "se": e["se"],
                        "lo": e["ci"][0],
                        "hi": e["ci"][1],
                    }
                )
    return pd.DataFrame(rows, columns=["shape", "live", "n", "mean", "se", "lo", "hi"])


def deal_waits(rules: Any, n: int, seed: int = 0) -> dict[str, Any]:
    """At the deal, the non-dealers' 13 tiles of ``n`` deals: the share ready beside the
    exact engine's value (None where it has none), and the distribution of wait counts and
    live copies (not in the hand) of the ready ones; s.e. by deal."""
    df = deal_frame(rules, n, seed=seed)
    df = df[~df.dealer]
    deals = df.deal.to_numpy()
    try:
        exact = float(p_ready(rules))
    except ExactUnsupported:
        exact = None
    ready = df[df.ready]
    out = {"n_deals": int(n), "ready": estimate(df.ready.to_numpy(), deals), "exact": exact}
    for col, key in (("n_waits", "by_waits"), ("live_waits", "by_live")):
        values = ready[col].to_numpy().astype(np.int64)
        out[key] = [
            {"group": int(v), **estimate(values == v, ready.deal.to_numpy())}
            for v in np.unique(values)
        ]
        out[f"mean_{col}"] = estimate(values, ready.deal.to_numpy()) if len(values) else None
    return out
