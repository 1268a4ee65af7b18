"""Rule-change studies: paired statistics against slow references, and ``mjsim compare``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.game import record as R
from mjsim.game.play import play_frame
from mjsim.rules import RulesError, load_rules
from mjsim.stats import paired as P
from mjsim.stats.compare import Variant, check_variants, parse_variant, run_compare, sweep_variants
from mjsim.stats.hand_metrics import metrics, per_hand
from mjsim.stats.play_summary import play_summary

RNG = np.random.default_rng(20261201)


def _data(n_games=300, length=8, n_variants=3):
    """Synthetic ratio data: y, x as ``[hand, metric, variant]``, correlated across variants."""
    n = n_games * length
    common = RNG.normal(size=(n, 2))
    x = (RNG.random((n, 2, 1)) < 0.7).astype(float).repeat(n_variants, axis=2)
    x[:, 0, :] = 1.0
    y = (
        np.stack(
            [common + 0.3 * v + RNG.normal(scale=0.5, size=(n, 2)) for v in range(n_variants)],
            axis=-1,
        )
        * x
    )
    return y, x, np.arange(n) // length


def _reference(y, x, games, j, v, base, f=lambda r: r, df=lambda r: 1.0):
    """The delta-method cluster variance written out per hand (no streaming, no algebra)."""
    n = len(games)
    out = []
    for c in (v, base):
        r = y[:, j, c].sum() / x[:, j, c].sum()
        z = df(r) * (y[:, j, c] - r * x[:, j, c]) / x[:, j, c].mean()
        out.append((f(r), np.array([z[games == g].sum() for g in np.unique(games)])))
    (fv, zv), (fb, zb) = out
    g = len(zv)
    var = g / (g - 1) * ((zv - zb) ** 2).sum() / n**2
    var_ind = g / (g - 1) * ((zv**2).sum() + (zb**2).sum()) / n**2
    return fv - fb, math.sqrt(var), math.sqrt(var_ind)


@pytest.mark.parametrize("transform", ["id", "sqrt"])
def test_ratio_difference_matches_reference(transform):
    y, x, games = _data()
    if transform == "sqrt":
        y = y**2
    m = P.RatioMoments.empty(2, 3)
    for lo in range(0, len(games), 800):  # streamed in chunks of whole games
        m.add(y[lo : lo + 800], x[lo : lo + 800], games[lo : lo + 800])
    f, df = (
        (math.sqrt, lambda r: 0.5 / math.sqrt(r))
        if transform == "sqrt"
        else (lambda r: r, lambda r: 1.0)
    )
    for j in range(2):
        for v in (1, 2):
            d = P.ratio_difference(m, j, v, 0, transform)
            diff, se, se_ind = _reference(y, x, games, j, v, 0, f, df)
            assert d["diff"] == pytest.approx(diff, rel=1e-12)
            assert d["se"] == pytest.approx(se, rel=1e-9)
            assert d["se_independent"] == pytest.approx(se_ind, rel=1e-9)
            assert d["variance_ratio"] == pytest.approx((se_ind / se) ** 2, rel=1e-9)
            assert d["se"] < d["se_independent"]  # the variants share ``common``


def test_paired_estimate_covers_a_known_difference():
    """Hands won under the baseline stay won; the variant adds wins with probability 0.05:
    the true difference of the win rate is 0.05 × (1 − 0.3) = 0.035."""
    n = 40_000
    base = RNG.random(n) < 0.3
    variant = base | (RNG.random(n) < 0.05)
    y = np.stack([base, variant], axis=-1).astype(float)[:, None, :]
    m = P.RatioMoments.empty(1, 2)
    m.add(y, np.ones_like(y), np.arange(n) // 8)
    d = P.ratio_difference(m, 0, 1, 0, "id")
    assert abs(d["diff"] - 0.035) < 4 * d["se"]
    assert d["variance_ratio"] > 5  # pairing removes the shared 30% of wins


def test_identical_variants_differ_by_exactly_zero():
    y, x, games = _data(n_variants=1)
    y, x = np.repeat(y, 2, axis=2), np.repeat(x, 2, axis=2)
    m = P.RatioMoments.empty(2, 2)
    m.add(y, x, games)
    d = P.ratio_difference(m, 1, 1, 0, "id")
    assert (d["diff"], d["se"], d["identical"]) == (0.0, 0.0, True)
    alone = P.ratio_value(m, 1, 0, "id")["se"]
    assert d["se_independent"] == pytest.approx(math.sqrt(2) * alone, rel=1e-9)


def test_bootstrap_weights_and_quantiles():
    w = P.poisson_weights(3, np.arange(5000))
    assert abs(w.mean() - 1) < 0.01 and abs(w.var() - 1) < 0.02
    assert np.array_equal(P.poisson_weights(3, np.arange(100, 200)), w[100:200])
    pays = [RNG.integers(-20, 21, size=(800, 4)) for _ in range(2)]
    games = np.arange(800) // 8
    one, two = P.Histograms.empty(2), P.Histograms.empty(2)
    one.add(pays, games, 3)
    two.add([p[:400] for p in pays], games[:400], 3)
    two.add([p[400:] for p in pays], games[400:], 3)
    assert np.array_equal(one.values, two.values) and np.array_equal(one.counts, two.counts)
    for q in (1, 5, 50, 95, 99):
        want = np.percentile(pays[1].reshape(-1), q, method="inverted_cdf")
        assert P.quantile_stats(one, 1, f"payment.q{q:02d}")[0] == want
    assert P.quantile_stats(one, 0, "payment.largest_loss")[0] == -pays[0].min()


def test_metrics_agree_with_play_summary():
    rules = load_rules("changsha")
    bots = ("efficiency", "value", "cautious", "efficiency")
    df = play_frame(rules, 800, seed=5, bots=bots)
    ms = metrics(rules, bots)
    y, x = per_hand(df, ms, bots, rules)
    r = {m.key: y[:, j].sum() / x[:, j].sum() for j, m in enumerate(ms)}
    s = play_summary(df, rules.id, rules.options_hash, 5, bots)
    assert r["mean_score.dealer"] == pytest.approx(s["dealer"]["mean_score"])
    assert r["rate.win"] == pytest.approx(s["win_rate"]["p"])
    assert r["rate.self_drawn"] == pytest.approx(s["self_draw_share"]["p"])
    assert r["big_win.any"] == pytest.approx(s["any_big_win"]["p"])
    assert r["mean_score.bot_value"] == pytest.approx(s["bots"][1]["mean_score"])
    assert r["length.turns"] == pytest.approx(s["mean_turns"]["mean"])
    for k, e in s["win_kind_rates"].items():
        assert r[f"win_kind.{k}"] == pytest.approx(e["p"] if e else 0)
    assert r["payment.receipt"] == pytest.approx(s["payments"]["winner_receipt"]["mean"])
    assert math.sqrt(r["payment.sd"]) == pytest.approx(s["payments"]["per_seat"]["sd"], rel=1e-3)
    # how each bot plays, counted from the records by hand
    seats = {"efficiency": [0, 3], "value": [1], "cautious": [2]}
    won = df["outcome"].to_numpy() == R.OUT_WIN
    self_drawn = np.isin(df["win_kind"].to_numpy(), R.SELF_DRAWN)
    for bot, ss in seats.items():
        wins = np.array([won & ((df["winners"].to_numpy() >> s) & 1 == 1) for s in ss])
        big = np.array([df[f"patterns_{s}"].to_numpy() != 0 for s in ss])
        deal_in = sum((won & (df["discarder"].to_numpy() == s)).sum() for s in ss)
        assert r[f"play.{bot}.win"] == pytest.approx(wins.sum() / (len(df) * len(ss)))
        assert r[f"play.{bot}.deal_in"] == pytest.approx(deal_in / (len(df) * len(ss)))
        assert r[f"play.{bot}.self_drawn"] == pytest.approx((wins & self_drawn).sum() / wins.sum())
        assert r[f"play.{bot}.big_win"] == pytest.approx((wins & big).sum() / wins.sum())
        passed = sum(((df["passed"].to_numpy() >> s) & 1).sum() for s in ss)
        assert r[f"play.{bot}.passed"] == pytest.approx(passed / (len(df) * len(ss)))
        claimed = sum(((df["claimed"].to_numpy() >> s) & 1).sum() for s in ss)
        assert r[f"play.{bot}.claimed"] == pytest.approx(claimed / (len(df) * len(ss)))
    assert r["play.efficiency.passed"] == 0  # the efficiency bot never passes a win


@pytest.fixture(scope="module")
def study():
    base = load_rules("changsha")
    variants = [
        parse_variant("mul: cs_bird_mode=mul", base),
        parse_variant("same: cs_bird_mode=add", base),
    ]
    return run_compare(
        Variant("baseline", base), variants, n=1600, seed=2, chunk=400, progress=False
    )


def test_compare_identical_variant_and_bird_mode(study):
    assert study["paired"] and study["n_hands"] == 1600
    assert any("same effective options" in note for note in study["notes"])
    by = {m["metric"]: m for m in study["metrics"]}
    for m in study["metrics"]:
        same = m["variants"][1]["difference"]
        assert same is None or (same["diff"] == 0.0 and same["se"] == 0.0), m["metric"]
    # birds pay, not play: the hands are the same, the payments are not
    assert by["rate.win"]["variants"][0]["difference"]["identical"]
    sd = by["payment.sd"]["variants"][0]["difference"]
    assert sd["diff"] > 0 and sd["excludes_zero"] and sd["variance_ratio"] > 1
    frame = play_frame("changsha", 1600, seed=2)
    assert by["mean_score.dealer"]["baseline"]["value"] == pytest.approx(
        frame["pay_0"]
        .where(frame["dealer"] == 0, 0)
        .add(sum(frame[f"pay_{s}"].where(frame["dealer"] == s, 0) for s in (1, 2, 3)))
        .mean()
    )


def test_exact_deal_time_differences():
    base = load_rules("changsha")
    r = run_compare(
        Variant("baseline", base),
        [parse_variant("yzh: cs_qs_yizhihua=true", base)],
        n=160,
        seed=0,
        progress=False,
    )
    diff = r["exact"]["variants"][0]["difference"]
    assert diff["qishou.yizhihua.dealer"] > 0 and diff["complete_at_deal"] == 0


def test_precision_stops_at_target_and_resumes(tmp_path):
    base = load_rules("changsha")
    v = [parse_variant("four birds: cs_birds=4", base)]
    loose = run_compare(
        Variant("baseline", base),
        v,
        seed=1,
        chunk=200,
        precision=10.0,
        metric="mean_score.dealer",
        max_hands=8000,
        progress=False,
        exact=False,
    )
    assert loose["precision"]["reached"] and loose["n_hands"] == 800  # one round of 4 chunks
    tight = run_compare(
        Variant("baseline", base),
        v,
        seed=1,
        chunk=200,
        precision=1e-6,
        max_hands=1600,
        progress=False,
        exact=False,
        out=tmp_path / "c",
    )
    assert not tight["precision"]["reached"] and tight["n_hands"] == 1600
    assert tight["precision"]["half_width"] > 1e-6
    parts = sorted((tmp_path / "c").glob("1-*/part-*.parquet"))
    assert len(parts) == 8
    parts[3].unlink()
    again = run_compare(
        Variant("baseline", base),
        v,
        seed=1,
        chunk=200,
        precision=1e-6,
        max_hands=1600,
        progress=False,
        exact=False,
        out=tmp_path / "c",
    )
    for key in ("metrics", "payments", "n_hands", "precision"):
        assert json.dumps(again[key]) == json.dumps(tight[key])


def test_variant_errors():
    base = load_rules("changsha")
    with pytest.raises(RulesError, match=r"variant 'x'.*cs_birds must be one of"):
        parse_variant("x: cs_birds=5", base)
    with pytest.raises(RulesError, match=r"variant 'y'.*unknown option"):
        parse_variant("y: no_such_option=1", base)
    with pytest.raises(RulesError, match="changes nothing"):
        parse_variant("z:", base)
    assert [v.rules["cs_birds"] for v in sweep_variants("cs_birds=0,4", base)] == [0, 4]
    tiles = [parse_variant("honours: cs_tiles=136", base)]
    with pytest.raises(RulesError, match=r"changes the tile set.*--unpaired"):
        check_variants(Variant("baseline", base), tiles, unpaired=False)
    notes, paired = check_variants(Variant("baseline", base), tiles, unpaired=True)
    assert any("unpaired" in n for n in notes) and paired == [False]
    with pytest.raises(RulesError, match="names must differ"):
        check_variants(
            Variant("baseline", base), [parse_variant("baseline: cs_birds=4", base)], unpaired=False
        )


def test_pairing_is_per_variant():
    """With --unpaired, a variant on the baseline's walls stays paired."""
    base = load_rules("changsha")
    r = run_compare(
        Variant("baseline", base),
        [parse_variant("136: cs_tiles=136", base), parse_variant("mul: cs_bird_mode=mul", base)],
        n=800,
        seed=0,
        unpaired=True,
        progress=False,
        exact=False,
    )
    assert [v["paired"] for v in r["variants"]] == [False, True] and r["paired"] is False
    d = next(m for m in r["metrics"] if m["metric"] == "mean_score.dealer")["variants"]
    assert d[0]["difference"]["variance_ratio"] == pytest.approx(1.0)
    assert d[1]["difference"]["variance_ratio"] > 5
    with pytest.raises(ValueError, match=r"unknown metric 'payment.largest_loss'"):
        run_compare(
            Variant("baseline", base),
            [parse_variant("mul: cs_bird_mode=mul", base)],
            precision=1.0,
            metric="payment.largest_loss",
            progress=False,
        )


def test_unpaired_study_says_so():
    base = load_rules("changsha")
    r = run_compare(
        Variant("baseline", base),
        [parse_variant("136: cs_tiles=136", base)],
        n=160,
        seed=0,
        unpaired=True,
        progress=False,
        exact=False,
    )
    assert r["paired"] is False
    d = next(m for m in r["metrics"] if m["metric"] == "rate.win")["variants"][0]["difference"]
    assert d["se"] == pytest.approx(d["se_independent"])


def test_cli_compare(tmp_path):
    runner = CliRunner()
    out = runner.invoke(
        app,
        [
            "compare",
            "--variant",
            "mul: cs_bird_mode=mul",
            "-n",
            "400",
            "--json",
            "--report",
            str(tmp_path / "rep"),
        ],
    )
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert result["variants"][0]["changes"] == {"cs_bird_mode": "mul"}
    report = tmp_path / "rep" / "changsha-mul"
    assert (report / "report.md").exists() and (report / "differences.png").exists()
    bad = runner.invoke(app, ["compare", "--variant", "m: cs_bird_mode=triple", "-n", "400"])
    assert bad.exit_code == 2 and "variant 'm'" in bad.output and "add" in bad.output
    bad = runner.invoke(
        app,
        [
            "compare",
            "--variant",
            "m: cs_birds=4",
            "-n",
            "400",
            "--precision",
            "0.1",
            "--metric",
            "nope",
        ],
    )
    assert bad.exit_code == 2 and "unknown metric 'nope'" in bad.output
    for target in ("inf", "0", "-1"):
        bad = runner.invoke(
            app, ["compare", "--variant", "m: cs_birds=4", "-n", "400", "--precision", target]
        )
        assert bad.exit_code == 2 and "positive, finite half-width" in bad.output, bad.output
    bad = runner.invoke(
        app, ["compare", "--variant", "m: cs_birds=4", "-n", "400", "--out", "/proc/x"]
    )
    assert bad.exit_code == 2 and "cannot write to /proc/x" in bad.output
    bad = runner.invoke(
        app, ["compare", "--variant", "m: cs_birds=4", "-n", "160", "--report", "/proc/x", "--json"]
    )
    assert bad.exit_code == 2 and "cannot write /proc/x" in bad.output
    bad = runner.invoke(
        app, ["compare", "--rules", "hongzhong112", "--variant", "m: hrb_huanbao_trigger=sometimes"]
    )
    assert bad.exit_code == 2 and "hrb_huanbao_trigger" in bad.output
    sweep = runner.invoke(
        app, ["compare", "--sweep", "cs_birds=0,4", "-n", "160", "--report", str(tmp_path / "rep")]
    )
    assert sweep.exit_code == 0, sweep.output
    assert (tmp_path / "rep" / "changsha-cs_birds=0+cs_birds=4" / "sweep.png").exists()


@pytest.mark.parametrize(
    "rules, change",
    [
        ("generic", "gen_seven_pairs=false"),
        ("dingque", "dq_allow_chow=true"),
        ("caishen16", "cai_caishen_rule=flipped_plus_one"),
    ],
)
def test_every_playable_rule_set_compares(rules, change):
    """A change that alters play moves the rates, paired on the same walls."""
    base = load_rules(rules)
    r = run_compare(
        Variant("baseline", base),
        [parse_variant(f"v: {change}", base)],
        n=800,
        seed=4,
        progress=False,
        exact=False,
    )
    by = {m["metric"]: m["variants"][0]["difference"] for m in r["metrics"]}
    assert r["paired"] and not by["rate.win"].get("identical")
    assert by["length.turns"]["se"] > 0 and by["length.turns"]["variance_ratio"] > 1
