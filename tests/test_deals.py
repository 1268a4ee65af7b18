"""Dealt-hand datasets (mjsim.sim.deals), resumable Parquet parts (mjsim.sim.parts), the
起手胡 study (mjsim.stats.qishou_freq) and the study verbs ``deal``, ``qishou``, ``exact``
and ``report``.

* the same seed gives the same dataset whatever the chunk size or numba thread count;
* an interrupted run resumes to exactly the uninterrupted result: a chunk that raises
  in-process, and the real ``mjsim deal`` killed (SIGINT, SIGKILL) in a subprocess and run
  again; leftover temporary files and a damaged part do not break the resume; another
  seed, option or chunk size into the same folder is refused, naming what differs;
* the provenance in every part's Parquet metadata;
* Monte Carlo through the whole pipeline (walls → deal → 起手胡 / shanten columns → study)
  against the exact engines within 4 standard errors: every 起手胡 pattern and seat class
  with an exact value, under the defaults, with every optional pattern, and with the
  other readings (lone_258_five, reuse_quad, binary); the shanten distribution at the deal
  for changsha and generic (:data:`N_MC` deals each);
* the JSON shape of ``mjsim qishou``, the ``exact`` and ``report`` verbs, and bad input.

The RULES.md §2.8 examples are in tests/test_qishou.py.
"""

from __future__ import annotations

import json
import math
import signal
import subprocess
import sys
import time
from math import comb
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import mjsim.sim.deals as deals_module
from mjsim.cli import app
from mjsim.kernels.qishou import PATTERNS, TABLE
from mjsim.report.qishou_report import portable
from mjsim.rules import load_rules
from mjsim.sim.deals import deal_frame, has_qishou, run_params, write_deals
from mjsim.sim.parts import META_KEY, RunMismatch, read_parts
from mjsim.stats.exact_qishou import exact_qishou
from mjsim.stats.exact_shanten import exact_shanten
from mjsim.stats.qishou_freq import qishou_study

runner = CliRunner()
MJSIM = Path(sys.executable).parent / "mjsim"  # the console script of this environment
MJSIM_CMD = (
    [str(MJSIM)] if MJSIM.exists() else [sys.executable, "-c", "from mjsim.cli import main; main()"]
)

#: deals per Monte Carlo comparison (400,000 seat-hands); about 0.3 s each to deal
N_MC = 100_000
SIGMAS = 4.0
OPTIONAL = {
    "cs_qs_santong": True,
    "cs_qs_yizhihua": True,
    "cs_qs_bubugao": True,
    "cs_qs_jintong": True,
}
STUDY_PATTERNS = (*PATTERNS, "any_basic")
SEAT_KEYS = ("dealer", "non_dealer", "any_player")


def parts_of(folder: Path) -> list[Path]:
    return sorted(folder.glob("part-*.parquet"))


def assert_whole(frame: pd.DataFrame, n: int) -> None:
    """No lost or duplicated rows: deals 0 .. n-1, each with seats 0-3 once, in order."""
    assert len(frame) == 4 * n
    assert np.array_equal(np.bincount(frame["deal"].to_numpy(), minlength=n), np.full(n, 4))
    assert np.array_equal(frame["deal"].to_numpy(), np.repeat(np.arange(n), 4))
    assert np.array_equal(frame["seat"].to_numpy(), np.tile(np.arange(4), n))


# ---------------------------------------------------------------- reproducibility


@pytest.mark.parametrize("rule_id", ["changsha", "caishen16"])
def test_chunk_size_does_not_matter(tmp_path, rule_id):
    n, seed = 503, 7  # 503 = 71 * 7 + 6: a short last part
    expected = deal_frame(rule_id, n, seed)
    for chunk in (7, 1000):
        out = write_deals(rule_id, n, seed, tmp_path / f"c{chunk}", chunk=chunk, progress=False)
        assert len(parts_of(out)) == math.ceil(n / chunk)
        got = read_parts(out)
        pd.testing.assert_frame_equal(got, expected)
    assert_whole(expected, n)
    # a frame that starts later is the tail of the whole one
    tail = deal_frame(rule_id, 100, seed, start=n - 100)
    pd.testing.assert_frame_equal(tail, expected.iloc[4 * (n - 100) :].reset_index(drop=True))


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two numba threads")
@pytest.mark.parametrize("rule_id", ["changsha", "caishen16"])
def test_thread_count_does_not_matter(rule_id):
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = deal_frame(rule_id, 3000, 21)
        numba.set_num_threads(2)
        two = deal_frame(rule_id, 3000, 21)
    finally:
        numba.set_num_threads(before)
    assert numba.get_num_threads() == before
    pd.testing.assert_frame_equal(one, two)


def test_seed_changes_the_deals():
    a, b = deal_frame("changsha", 200, 1), deal_frame("changsha", 200, 2)
    assert not a.equals(b)
    assert a.equals(deal_frame("changsha", 200, 1))


# ---------------------------------------------------------------- resume


class Interrupted(RuntimeError):
    pass


def counting(real, calls: list[int], fail_after: int | None = None):
    """``deal_columns`` that records the chunk starts it makes (and raises after some)."""

    def wrapper(rules, seed, start, n):
        if fail_after is not None and len(calls) >= fail_after:
            raise Interrupted(f"interrupted before deal {start}")
        calls.append(start)
        return real(rules, seed, start, n)

    return wrapper


def test_interrupted_write_resumes(tmp_path, monkeypatch):
    rules = load_rules("changsha")
    n, chunk, seed = 1000, 150, 11  # 7 parts, the last of 100 deals
    starts = list(range(0, n, chunk))
    real = deals_module.deal_columns
    whole = write_deals(rules, n, seed, tmp_path / "whole", chunk=chunk, progress=False)

    out = tmp_path / "run"
    calls: list[int] = []
    monkeypatch.setattr(deals_module, "deal_columns", counting(real, calls, fail_after=3))
    with pytest.raises(Interrupted):
        write_deals(rules, n, seed, out, chunk=chunk, progress=False)
    assert calls == starts[:3]
    assert [p.name for p in parts_of(out)] == [p.name for p in parts_of(whole)][:3]
    assert not list(out.glob(".*.tmp"))  # the failed chunk never reached the disk

    # a crash mid-write leaves a temporary file; it must not be read or block the resume
    (out / f".part-{starts[3]:012d}-{chunk:09d}.parquet.424242.tmp").write_bytes(b"PAR1 half")
    calls.clear()
    monkeypatch.setattr(deals_module, "deal_columns", counting(real, calls))
    write_deals(rules, n, seed, out, chunk=chunk, progress=False)
    assert calls == starts[3:]  # whole parts are kept, not recomputed
    got = read_parts(out)
    pd.testing.assert_frame_equal(got, read_parts(whole))
    assert_whole(got, n)
    assert (out / "run.json").read_text() == (whole / "run.json").read_text()

    # running a finished run again computes nothing and changes nothing
    calls.clear()
    write_deals(rules, n, seed, out, chunk=chunk, progress=False)
    assert calls == []
    pd.testing.assert_frame_equal(read_parts(out), got)


def test_damaged_part_is_rewritten(tmp_path, monkeypatch):
    n, chunk, seed = 600, 200, 3
    out = write_deals("changsha", n, seed, tmp_path / "run", chunk=chunk, progress=False)
    expected = read_parts(out)
    middle = parts_of(out)[1]
    middle.write_bytes(middle.read_bytes()[:100])  # truncated: no Parquet footer
    calls: list[int] = []
    monkeypatch.setattr(deals_module, "deal_columns", counting(deals_module.deal_columns, calls))
    write_deals("changsha", n, seed, out, chunk=chunk, progress=False)
    assert calls == [200]
    pd.testing.assert_frame_equal(read_parts(out), expected)


@pytest.mark.parametrize(
    "change, keys",
    [
        ({"seed": 12}, ["seed"]),
        ({"chunk": 100}, ["chunk"]),
        ({"rules": load_rules("changsha", cs_qs_yizhihua=True)}, ["options", "options_hash"]),
        ({"rules": "changsha_classic_1980s"}, ["options", "options_hash", "rules"]),
    ],
    ids=["seed", "chunk", "option", "rules"],
)
def test_a_different_run_is_refused(tmp_path, change, keys):
    args = {"rules": "changsha", "n": 300, "seed": 11, "chunk": 150}
    out = write_deals(**args, out=tmp_path / "run", progress=False)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(RunMismatch) as info:
        write_deals(**(args | change), out=out, progress=False)
    message = str(info.value)
    named = sorted(
        k
        for k in ("chunk", "mjsim", "options", "options_hash", "rules", "seed", "total")
        if f"{k}: " in message
    )
    assert named == keys, message
    if "seed" in keys:
        assert "seed: 11 there, 12 now" in message
    assert "another --out" in message
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing touched


def test_cli_refuses_a_different_run(tmp_path):
    out = tmp_path / "run"
    base = ["deal", "-n", "300", "--chunk", "150", "--out", str(out), "--quiet"]
    first = runner.invoke(app, [*base, "--seed", "11"])
    assert first.exit_code == 0, first.output
    result = runner.invoke(app, [*base, "--seed", "12"])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert "seed: 11 there, 12 now" in lines[0]
    result = runner.invoke(app, [*base, "--seed", "11", "--set", "cs_qs_santong=true"])
    assert result.exit_code == 2 and "options_hash" in result.stderr


@pytest.mark.parametrize("text", ["[1, 2]", "{not json", "\udcff"], ids=["list", "text", "bytes"])
def test_cli_names_a_run_json_that_is_not_a_run(tmp_path, text):
    """A ``run.json`` that is not a JSON object (a list, not JSON, not UTF-8) is one line
    naming it, and nothing in the folder is touched."""
    out = tmp_path / "run"
    out.mkdir()
    manifest = out / "run.json"
    manifest.write_bytes(text.encode("utf-8", "surrogateescape"))
    result = runner.invoke(app, ["deal", "-n", "300", "--chunk", "150", "--out", str(out), "-q"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert str(manifest) in lines[0] and "not a run's parameters" in lines[0]
    assert [p.name for p in out.iterdir()] == ["run.json"]


def _interrupt(cmd: list[str], out: Path, sig: int) -> int:
    """Start ``cmd``, send ``sig`` as soon as one part is on disk; return the parts left."""
    # a job started in the background by a shell inherits SIGINT ignored, and Python then
    # never raises KeyboardInterrupt: give the child the default disposition back
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 180
    try:
        while not parts_of(out) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        proc.send_signal(sig)
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return len(parts_of(out))


@pytest.fixture(scope="module")
def uninterrupted_40k(tmp_path_factory) -> Path:
    return write_deals(
        "changsha",
        40_000,
        0,
        tmp_path_factory.mktemp("whole") / "deals",
        chunk=5000,
        progress=False,
    )


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_cli_deal_killed_then_rerun(tmp_path, sig, uninterrupted_40k):
    for attempt in range(4):  # the run is quick; retry if it finished before the signal
        out = tmp_path / f"deals{attempt}"
        cmd = [*MJSIM_CMD, "deal", "-n", "40000", "--chunk", "5000", "--out", str(out)]
        left = _interrupt(cmd, out, sig)
        if 1 <= left < 8:
            break
    else:
        pytest.fail("could not interrupt `mjsim deal` before it finished")
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "wrote 40,000 deals" in done.stdout
    assert len(parts_of(out)) == 8
    got = read_parts(out)
    pd.testing.assert_frame_equal(got, read_parts(uninterrupted_40k))
    assert_whole(got, 40_000)
    assert json.loads((out / "run.json").read_text()) == json.loads(
        (uninterrupted_40k / "run.json").read_text()
    )


# ---------------------------------------------------------------- provenance


def test_parquet_metadata(tmp_path):
    out = tmp_path / "deals"
    result = runner.invoke(
        app,
        [
            "deal",
            "-n",
            "100",
            "--chunk",
            "60",
            "--seed",
            "5",
            "--set",
            "cs_qs_yizhihua=true",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    rules = load_rules("changsha", cs_qs_yizhihua=True)
    assert doc == {
        "out": str(out),
        "rules": "changsha",
        "options_hash": rules.options_hash,
        "n_deals": 100,
        "seed": 5,
        "parts": 2,
    }
    assert rules.options_hash != load_rules("changsha").options_hash
    parts = parts_of(out)
    assert [p.name for p in parts] == [
        "part-000000000000-000000060.parquet",
        "part-000000000060-000000040.parquet",
    ]
    expected = run_params(rules, 5) | {"total": 100, "chunk": 60}
    for part in parts:
        meta = json.loads(pq.read_schema(part).metadata[META_KEY])
        assert META_KEY == b"mjsim"
        assert meta["rules"] == "changsha"
        assert meta["seed"] == 5
        assert meta["options_hash"] == rules.options_hash
        assert meta["options"]["cs_qs_yizhihua"] is True
        assert set(meta["options"]) == set(rules.options)
        assert meta == expected
    assert json.loads((out / "run.json").read_text()) == expected


# ---------------------------------------------------------------- Monte Carlo vs exact


def within(p_hat: float, p: float, se_hat: float, m: int) -> tuple[bool, float]:
    """|p̂ − p| ≤ 4 s.e.; the s.e. is the estimate's, or the binomial one at the exact p
    over ``m`` hands where that is larger (an estimate of 0 hits has s.e. 0)."""
    se = max(se_hat, math.sqrt(p * (1 - p) / m))
    return abs(p_hat - p) <= SIGMAS * se, se


def clustered(values: np.ndarray) -> tuple[float, float]:
    """Mean over deals × non-dealer seats ``values[n, 3]`` and its per-deal s.e."""
    per_deal = values.mean(axis=1)
    return float(per_deal.mean()), float(per_deal.std(ddof=1) / math.sqrt(len(per_deal)))


QISHOU_CASES = {
    "defaults": {},
    "all_optional": OPTIONAL,
    "lone_reuse_binary": OPTIONAL
    | {
        "cs_qs_yizhihua_mode": "lone_258_five",
        "cs_qs_reuse_quad": True,
        "cs_qs_count_mode": "binary",
    },
}


@pytest.mark.parametrize("case", list(QISHOU_CASES))
def test_qishou_monte_carlo_vs_exact(case):
    rules = load_rules("changsha", **QISHOU_CASES[case])
    seed = 100 + list(QISHOU_CASES).index(case)
    study = qishou_study(rules, n=N_MC, seed=seed, progress=False)
    exact = exact_qishou(rules)
    frame = deal_frame(rules, N_MC, seed)
    enabled = {p.id: bool(rules[p.option]) for p in TABLE} | {"any_basic": True}
    assert list(study["patterns"]) == list(STUDY_PATTERNS)
    checked = 0
    failures = []
    for pattern in STUDY_PATTERNS:
        est, ex = study["patterns"][pattern], exact[pattern]
        if not enabled[pattern]:
            assert est == {"off": True} and ex == {"off": True}
            assert not frame[f"qs_{pattern}"].any()
            continue
        col = frame[f"qs_{pattern}"].to_numpy().astype(np.float64).reshape(N_MC, 4)
        for seat, m in (("dealer", N_MC), ("non_dealer", 3 * N_MC)):
            e = est[seat]
            assert e["exact"] == ex[seat]["p"], (pattern, seat)  # the study's exact values
            ok, se = within(e["p"], e["exact"], e["se"], m)
            checked += 1
            if not ok:
                failures.append((pattern, seat, "p", e["p"], e["exact"], se))
            # the dataset's columns give the same frequency, and the mean count agrees
            hits = col > 0
            if seat == "dealer":
                assert hits[:, 0].mean() == e["p"]
                mean, mean_se = col[:, 0].mean(), col[:, 0].std(ddof=1) / math.sqrt(N_MC)
            else:
                assert math.isclose(hits[:, 1:].mean(), e["p"], rel_tol=1e-12, abs_tol=1e-15)
                mean, mean_se = clustered(col[:, 1:])
            if pattern != "any_basic":
                assert math.isclose(est["mean_count"][seat], mean, rel_tol=1e-12, abs_tol=1e-15)
                ok, se = within(mean, ex[seat]["mean"], mean_se, m)
                if not ok:
                    failures.append((pattern, seat, "mean", mean, ex[seat]["mean"], se))
        assert est["any_player"]["exact"] is None
    assert not failures, failures
    assert checked == 2 * sum(enabled.values())
    if rules["cs_qs_count_mode"] == "binary":
        assert frame[[f"qs_{p}" for p in PATTERNS]].to_numpy().max() <= 1


@pytest.mark.parametrize("rule_id", ["changsha", "generic"])
def test_shanten_at_the_deal_vs_exact(rule_id):
    rules = load_rules(rule_id)
    frame = deal_frame(rules, N_MC, seed=7)
    shanten = frame["shanten"].to_numpy().reshape(N_MC, 4)
    n_tiles = frame["n_tiles"].to_numpy().reshape(N_MC, 4)
    assert (n_tiles[:, 0] == rules.hand_size + 1).all()
    assert (n_tiles[:, 1:] == rules.hand_size).all()
    failures = []
    for seat, size, values in (("dealer", 14, shanten[:, :1]), ("non_dealer", 13, shanten[:, 1:])):
        ex = exact_shanten(rules, size)
        assert ex.tractable and ex.n_tiles == size
        seen = set(np.unique(values).tolist())
        assert seen <= set(ex.counts), (seat, seen - set(ex.counts))
        for k in ex.counts:
            p = ex.probability(k)
            if seat == "dealer":
                p_hat = float((values == k).mean())
                se_hat = math.sqrt(p_hat * (1 - p_hat) / N_MC)
            else:
                p_hat, se_hat = clustered((values == k).astype(np.float64))
            ok, se = within(p_hat, p, se_hat, values.size)
            if not ok:
                failures.append((seat, k, p_hat, p, se))
    assert not failures, failures
    # complete (天胡) only for the dealer; ready only for non-dealers, and only at shanten 0
    assert not frame.loc[~frame["dealer"], "complete"].any()
    assert (frame["ready"] == ((frame["shanten"] == 0) & ~frame["dealer"])).all()


# ---------------------------------------------------------------- the study verbs


def _qishou_json(*args: str) -> dict:
    result = runner.invoke(
        app, ["qishou", "--rules", "changsha", "-n", "20000", "--seed", "3", "--json", *args]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # --json: one document on stdout, no progress bar
    return json.loads(result.stdout)


def test_qishou_json_shape():
    doc = _qishou_json()
    rules = load_rules("changsha")
    assert {"rules", "options_hash", "n_deals", "seed", "patterns"} <= set(doc)
    assert (doc["rules"], doc["options_hash"], doc["n_deals"], doc["seed"]) == (
        "changsha",
        rules.options_hash,
        20000,
        3,
    )
    assert list(doc["patterns"]) == [
        "banban",
        "sixi",
        "liuliushun",
        "queyise",
        "santong",
        "yizhihua",
        "bubugao",
        "jintongyunv",
        "any_basic",
    ]
    for pattern in ("santong", "yizhihua", "bubugao", "jintongyunv"):
        assert doc["patterns"][pattern] == {"off": True}
    for pattern in ("banban", "sixi", "liuliushun", "queyise", "any_basic"):
        entry = doc["patterns"][pattern]
        assert set(SEAT_KEYS) <= set(entry)
        for seat in SEAT_KEYS:
            e = entry[seat]
            assert {"p", "se", "ci", "exact"} <= set(e), (pattern, seat)
            assert isinstance(e["p"], float) and isinstance(e["se"], float) and e["se"] >= 0
            assert len(e["ci"]) == 2 and 0 <= e["ci"][0] <= e["p"] <= e["ci"][1] <= 1
            if seat == "any_player":
                assert e["exact"] is None
            else:
                assert 0 < e["exact"] < 1
                assert abs(e["p"] - e["exact"]) <= SIGMAS * max(e["se"], 1e-4), (pattern, seat)
    # the same seed gives the same document; the library gives what the CLI prints
    assert doc == json.loads(json.dumps(qishou_study("changsha", n=20000, seed=3, progress=False)))


def test_qishou_set_turns_a_pattern_on():
    doc = _qishou_json("--set", "cs_qs_santong=true")
    assert doc["options_hash"] == load_rules("changsha", cs_qs_santong=True).options_hash
    assert doc["options_hash"] != load_rules("changsha").options_hash
    santong = doc["patterns"]["santong"]
    assert "off" not in santong
    for seat in ("dealer", "non_dealer"):
        assert 0 < santong[seat]["exact"] < 0.01
        assert abs(santong[seat]["p"] - santong[seat]["exact"]) <= SIGMAS * max(
            santong[seat]["se"], math.sqrt(santong[seat]["exact"] / 20000)
        )
    assert doc["patterns"]["yizhihua"] == {"off": True}


def test_exact_json_changsha():
    result = runner.invoke(app, ["exact", "--rules", "changsha", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    complete = doc["complete_at_deal"]
    assert complete["numerator"] == 2640251750544
    assert complete["denominator"] == comb(108, 14) == 139737927523546800
    assert complete["p"] == 2640251750544 / comb(108, 14)
    assert doc["ready_at_deal"]["denominator"] == comb(108, 13)
    assert set(doc["shanten"]) == {"14 tiles", "13 tiles"}
    for dist in doc["shanten"].values():
        assert math.isclose(sum(dist.values()), 1.0, rel_tol=1e-12)
    assert doc["qishou"]["banban"]["non_dealer"]["numerator"] == comb(72, 13)
    assert doc["qishou"]["santong"] == {"off": True}
    assert doc["notes"] == []


def test_exact_under_shape_conditions():
    """hongzhong112's pung + chow + 1/9/中 + two suits are exact at the deal too (the 宝 is
    face down then): the dealer's 14 tiles complete in 2562704683152 of C(112, 14) hands."""
    result = runner.invoke(app, ["exact", "--rules", "hongzhong112", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["rules"] == "hongzhong112" and doc["notes"] == []
    assert doc["complete_at_deal"]["numerator"] == 2562704683152
    assert doc["complete_at_deal"]["denominator"] == comb(112, 14)
    assert abs(sum(doc["shanten"]["13 tiles"].values()) - 1) < 1e-12


def test_report_writes_markdown_charts_and_summary(tmp_path):
    from matplotlib.image import imread

    result = runner.invoke(
        app, ["report", "-n", "5000", "--hands", "0", "--out", str(tmp_path), "--json"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    folder = tmp_path / "changsha"
    assert json.loads((folder / "summary.json").read_text()) == portable(doc)  # no timings
    assert doc["n_deals"] == 5000 and doc["qishou"]["n_deals"] == 5000
    assert set(doc["files"].values()) == {
        "qishou_frequencies.png",
        "shanten_at_deal.png",
        "optional_patterns.png",
    }
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    assert markdown.startswith("# 起手胡")
    for name in doc["files"].values():
        assert f"]({name})" in markdown
        image = imread(folder / name)
        assert image.ndim == 3 and image.shape[0] > 100 and image.shape[1] > 100
        assert image.shape[2] in (3, 4) and image.std() > 0  # not a blank canvas
    assert not list(folder.glob(".*tmp*"))


@pytest.mark.parametrize(
    "args, words",
    [
        (["qishou", "--rules", "generic", "-n", "100"], ["generic", "起手胡"]),
        (["qishou", "--rules", "nosuch", "-n", "100"], ["nosuch"]),
    ],
    ids=["qishou-generic", "unknown-rules"],
)
def test_study_verbs_refuse_rule_sets_without_qishou(args, words):
    """起手胡 needs a rule set that has it (every rule set is playable, so has a report)."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    assert all(w in lines[0] for w in words), lines[0]
    assert not has_qishou(load_rules("generic"))


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "-n", "0"],
        ["deal", "-n", "-5"],
        ["deal", "-n", "10", "--chunk", "0"],
        ["qishou", "-n", "1"],
    ],
    ids=["n0", "negative", "chunk0", "qishou-n1"],
)
def test_bad_sizes_exit_2(tmp_path, args):
    out = tmp_path / "never"
    result = runner.invoke(app, [*args, "--out", str(out)] if args[0] == "deal" else args)
    assert result.exit_code == 2, result.output
    assert "-n" in result.stderr or "--chunk" in result.stderr
    assert not out.exists()


def test_library_rejects_bad_sizes(tmp_path):
    with pytest.raises(ValueError, match="at least 1"):
        deal_frame("changsha", 0)
    with pytest.raises(ValueError, match="at least one item"):
        write_deals("changsha", 0, 1, tmp_path / "x", progress=False)


def test_seat_tally_is_the_estimate_of_all_hits_at_once():
    """The 起手胡 study tallies hits chunk by chunk (memory that does not grow with -n): the
    sums give each seat class the estimate the whole array gives, from the definitions —
    binomial for the dealer and anyone, per-deal shares with their sample deviation for
    the non-dealers."""
    from mjsim.stats.proportions import proportion
    from mjsim.stats.qishou_freq import SeatTally

    rng = np.random.default_rng(4)
    hits = rng.random((5000, 4)) < [0.05, 0.2, 0.2, 0.2]
    tally = SeatTally()
    for start in range(0, 5000, 700):
        tally.add(hits[start : start + 700])
    got = tally.classes()
    for name, column in (("dealer", hits[:, 0]), ("any_player", hits.any(axis=1))):
        want = proportion(int(column.sum()), column.size)
        assert got[name]["p"] == want.p and got[name]["se"] == pytest.approx(want.se)
    shares = hits[:, 1:].mean(axis=1)
    assert got["non_dealer"]["p"] == pytest.approx(shares.mean())
    assert got["non_dealer"]["se"] == pytest.approx(shares.std(ddof=1) / np.sqrt(5000))
    assert got["non_dealer"]["n"] == 15000
