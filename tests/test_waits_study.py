"""The waits study (:mod:`mjsim.stats.waits_study`, ``mjsim waits-study``): one row per
ready seat with how its hand ended, the estimates against a direct computation, the CLI's
tables and its errors."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.game import record as R
from mjsim.game.play import play_frame
from mjsim.stats.waits_study import RESULTS, deal_waits, estimate, ready_seats, waits_study

runner = CliRunner()
#: wins on another's tile (a robbed kong counts as its konger's discard)
ON_A_DISCARD = (R.WIN_DIANPAO, R.WIN_QIANGGANG, R.WIN_GANGPAO, R.WIN_HAIDIPAO)


@pytest.fixture(scope="module")
def played():
    return play_frame("generic", 800, seed=5, readiness=True)


def test_ready_seats_match_the_records(played):
    """One row per seat with a ready turn; a seat won exactly when its winner bit is set,
    dealt in only on its own discard, and a drawn hand is drawn for every ready seat."""
    seats = ready_seats(played)
    assert len(seats) == sum(int((played[f"ready_shape_{s}"] != 0).sum()) for s in range(4))
    hand = played.set_index("index")
    for _, row in seats.sample(200, random_state=0).iterrows():
        h, seat = hand.loc[row["index"]], row.seat
        winner = bool(int(h.winners) >> seat & 1)
        assert row.won == winner and row.result.startswith("won") == winner
        if row.result == "dealt_in":
            assert h.discarder == seat and h.outcome == R.OUT_WIN
        assert (row.result == "drawn") == (h.outcome == R.OUT_DRAW)
        assert row.pay == h[f"pay_{seat}"] and row.turn == h[f"ready_turn_{seat}"]


def test_estimate_is_the_clustered_mean():
    """``estimate``'s s.e. is the cluster-robust one, computed here from the group sums."""
    rng = np.random.default_rng(1)
    groups = np.repeat(np.arange(60), 5)
    x = rng.normal(size=300) + np.repeat(rng.normal(size=60), 5)
    e = estimate(x, groups)
    sums = pd.Series(x).groupby(groups).sum().to_numpy()
    sizes = np.bincount(groups)
    m = x.mean()
    g = len(sums)
    se = math.sqrt(g / (g - 1) * ((sums - m * sizes) ** 2).sum()) / len(x)
    assert e["mean"] == pytest.approx(m) and e["se"] == pytest.approx(se)
    assert e["ci"] == pytest.approx([m - 1.959963984540054 * se, m + 1.959963984540054 * se])


def test_study_tables_add_up(played):
    """Each table's groups cover the ready seats once; the overall win share and the
    dealt-in share are what the raw records give."""
    seats = ready_seats(played)
    s = waits_study(seats, len(played))
    for key in ("by_live", "by_shape", "by_round", "by_concealed"):
        assert sum(r["n"] for r in s[key]) == len(seats), key
    assert sum(r["n"] for r in s["self_draw_by_shape"]) == int(seats.won.sum())
    assert s["win"]["mean"] == pytest.approx(seats.won.mean())
    assert [r["group"] for r in s["results"]] == list(RESULTS)
    winners = played.winners.to_numpy().astype(np.int64)
    dealt_in = sum(
        int(
            (
                (played[f"ready_shape_{p}"] != 0)
                & (played.discarder == p)
                & played.win_kind.isin(ON_A_DISCARD)
                & ((winners >> p) & 1 == 0)
            ).sum()
        )
        for p in range(4)
    )
    assert s["results"][RESULTS.index("dealt_in")]["mean"] * len(seats) == pytest.approx(dealt_in)


def test_the_cli_prints_and_writes_json(tmp_path):
    """``mjsim waits-study --json`` gives the tables (and the deal-time share beside the
    exact value); the chart is written."""
    chart = tmp_path / "w.png"
    res = runner.invoke(
        app,
        [
            "waits-study",
            "--rules",
            "generic",
            "-n",
            "400",
            "--deals",
            "3000",
            "--chart",
            str(chart),
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    s = json.loads(res.stdout)
    assert s["rules"] == "generic" and s["n_hands"] == 400 and s["by_shape"]
    assert s["deal"]["exact"] == pytest.approx(8.2112e-05, rel=1e-3)
    assert chart.stat().st_size > 0
    res = runner.invoke(app, ["waits-study", "--rules", "changsha", "-n", "200", "--deals", "0"])
    assert res.exit_code == 0 and "by wait shape" in res.output


@pytest.mark.parametrize(
    "args,words",
    [
        (["--chart", "w.txt"], "--chart must name a .png"),
        (["--rules", "nope"], "nope"),
    ],
)
def test_bad_input_is_one_line(args, words):
    res = runner.invoke(app, ["waits-study", "-n", "10", "--deals", "0", *args])
    assert res.exit_code == 2 and res.stderr.startswith("error: ") and words in res.stderr
    assert res.stderr.count("\n") == 1, res.stderr


def test_the_deal_time_ready_share_agrees_with_the_exact_engine():
    """The share of non-dealers ready at the deal (300,000 Changsha deals) is within 4
    standard errors of the exact engine's value, which ``deal_waits`` reports beside it; the
    wait-count shares add to 1."""
    d = deal_waits("changsha", 300_000, seed=2)
    r = d["ready"]
    assert d["exact"] == pytest.approx(4.112557e-04, rel=1e-6)
    assert abs(r["mean"] - d["exact"]) < 4 * r["se"], (r, d["exact"])
    assert sum(x["mean"] for x in d["by_waits"]) == pytest.approx(1)
    assert all(x["group"] >= 1 for x in d["by_waits"])
