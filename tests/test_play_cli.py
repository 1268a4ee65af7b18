"""``mjsim play`` and the "Expected scores" part of ``mjsim report``.

Most tests run on a stand-in engine (:func:`test_play_summary.synthetic_rows` in place of
``play_frame`` and ``play_rows``), so they check the command's plumbing quickly: JSON and tables,
Parquet parts, resume, a different run refused, interruption, the report's charts and
section. The tests marked ``engine`` run the real engine (mjsim/game/play.py); they are
skipped only while that file does not exist.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console
from test_play_summary import fake_table, synthetic_rows
from typer.testing import CliRunner

import mjsim.sim.games as games_module
from mjsim.cli import app, output, play_cmd
from mjsim.cli.output import Interrupted
from mjsim.game.play import to_frame
from mjsim.report import play_report
from mjsim.report.qishou_report import portable
from mjsim.sim.games import read_games
from mjsim.stats.play_summary import play_summary

runner = CliRunner()
ENGINE = Path(__file__).resolve().parents[1] / "mjsim" / "game" / "play.py"
engine = pytest.mark.skipif(
    not ENGINE.exists(), reason="the engine (mjsim/game/play.py) is not there yet"
)
MIXED = "efficiency,value,cautious,efficiency"


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    out = Console(width=200, color_system=None)
    monkeypatch.setattr(output, "console", out)
    monkeypatch.setattr(play_cmd, "console", out)
    monkeypatch.setattr(output, "err_console", Console(stderr=True, width=200, color_system=None))


@pytest.fixture
def fake_engine(monkeypatch):
    """The engine replaced by synthetic records (whatever the rules and bots)."""

    def play_frame(rules, n, seed=0, bots=("efficiency",) * 4, progress=False, readiness=False):
        return to_frame("changsha", synthetic_rows(seed, 0, n), seed, readiness)

    monkeypatch.setattr(play_cmd, "play_frame", play_frame)
    monkeypatch.setattr(play_report, "play_frame", play_frame)
    monkeypatch.setattr(games_module, "game_table", fake_table)


def run(*args: str, code: int = 0):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    return result


def user_error(*args: str) -> str:
    result = run(*args, code=2)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


# ---------------------------------------------------------------- input errors (no engine)


def test_help():
    text = run("play", "--help").stdout
    for option in (
        "--rules",
        "--set",
        "--seed",
        "--bots",
        "--out",
        "--chunk",
        "--json",
        "--quiet",
        "-n",
    ):
        assert option in text
    assert "play" in run("--help").stdout
    assert "--hands" in run("report", "--help").stdout


@pytest.mark.parametrize(
    "args, words",
    [
        (["--bots", "efficiency,value"], ["got 2"]),
        (["--bots", "greedy"], ["unknown bot 'greedy'", "efficiency, value, cautious"]),
        (["--set", "cs_birds=lots"], ["cs_birds"]),
        (["--rules", "nosuch"], ["nosuch"]),
    ],
    ids=["two-bots", "unknown-bot", "bad-option", "unknown-rules"],
)
def test_user_errors(args, words, tmp_path):
    line = user_error("play", "-n", "16", *args, "--out", str(tmp_path / "never"))
    assert all(w in line for w in words), line
    assert not (tmp_path / "never").exists()


@pytest.mark.parametrize("args", [["-n", "0"], ["-n", "8", "--chunk", "0"]])
def test_bad_sizes(args):
    result = run("play", *args, code=2)
    assert "-n" in result.stderr or "--chunk" in result.stderr


# ---------------------------------------------------------------- a stand-in engine


def test_json_in_memory(fake_engine):
    doc = json.loads(run("play", "-n", "200", "--seed", "3", "--bots", MIXED, "--json").stdout)
    rules_hash = doc["options_hash"]
    expected = play_summary(
        to_frame("changsha", synthetic_rows(3, 0, 200), 3),
        "changsha",
        rules_hash,
        3,
        tuple(MIXED.split(",")),
    )
    assert doc == json.loads(json.dumps(expected))
    assert doc["n_hands"] == 200 and doc["lineup"] == MIXED.split(",")
    assert [e["bot"] for e in doc["bots"]] == ["efficiency", "value", "cautious"]


def test_tables(fake_engine):
    text = run("play", "-n", "200", "--bots", MIXED, "--set", "cs_birds=4", "--quiet").stdout
    for words in (
        "changsha, cs_birds=4 — 200 hands, seed 0",
        "mean score / hand",
        "dealer",
        "efficiency − value",
        "win rate",
        "win kinds",
        "zimo 自摸",
        "big wins",
        "qingyise 清一色",
        "any of them",
    ):
        assert words in text, words
    text = run("play", "-n", "64", "--quiet").stdout
    assert "paired" not in text  # one bot: no comparison table


def test_out_writes_parts_and_resumes(fake_engine, tmp_path):
    out = tmp_path / "games"
    args = ["play", "-n", "100", "--seed", "2", "--chunk", "30", "--out", str(out), "--json"]
    doc = json.loads(run(*args).stdout)
    assert doc["parts"] == 4 and doc["out"] == str(out)  # chunks of 32 hands
    in_memory = json.loads(run("play", "-n", "100", "--seed", "2", "--json").stdout)
    assert {k: v for k, v in doc.items() if k not in ("out", "parts")} == in_memory
    pd.testing.assert_frame_equal(
        read_games(out), to_frame("changsha", synthetic_rows(2, 0, 100), 2)
    )
    assert read_games(out).attrs["run"]["chunk"] == 32
    sorted(out.glob("part-*.parquet"))[2].unlink()
    assert json.loads(run(*args).stdout) == doc
    text = run(*args[:-1], "--quiet").stdout
    assert f"records of 100 hands in 4 parts under {out}" in text


def test_out_refuses_another_run(fake_engine, tmp_path):
    out = tmp_path / "games"
    run("play", "-n", "40", "--out", str(out), "--quiet")
    line = user_error("play", "-n", "40", "--out", str(out), "--bots", "value")
    assert "bots" in line and "another --out" in line
    line = user_error("play", "-n", "40", "--out", str(out), "--set", "cs_birds=4")
    assert "options_hash" in line


def test_interrupted_then_resumed(fake_engine, tmp_path, monkeypatch):
    out = tmp_path / "games"
    calls = []

    def interrupt_second(rules, seed, start, n, bots, readiness=False):
        calls.append(start)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return fake_table(rules, seed, start, n, bots, readiness)

    monkeypatch.setattr(games_module, "game_table", interrupt_second)
    args = ["play", "-n", "48", "--chunk", "16", "--out", str(out), "--quiet"]
    stopped = runner.invoke(app, args)  # the console script prints it, status 130
    assert isinstance(stopped.exception, Interrupted), stopped.output
    line = str(stopped.exception)
    assert f"interrupted with 1 whole parts in {out}" in line and "resume" in line
    run(*args)
    assert calls == [0, 16, 16, 32]
    pd.testing.assert_frame_equal(
        read_games(out), to_frame("changsha", synthetic_rows(0, 0, 48), 0)
    )


def _check_report(tmp_path: Path, doc: dict, hands: int, waits: bool = True) -> None:
    from matplotlib.image import imread

    folder = tmp_path / "changsha"
    assert json.loads((folder / "summary.json").read_text()) == portable(doc)  # no timings
    play = doc["play"]
    assert play["n_hands"] == hands and play["baseline"]["n_hands"] == hands
    assert play["baseline"]["lineup"] == ["efficiency"] * 4
    compared = play["bots_compared"]
    assert compared["lineup"] == MIXED.split(",") and compared["n_hands"] == max(8, hands // 4)
    assert set(play["files"].values()) == {
        "payment_distribution.png",
        "win_kinds.png",
        "bots_compared.png",
        *["waits_by_live.png"] * waits,
    }
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    assert "## Expected scores" in markdown and "### Bots compared" in markdown
    assert "### Waits: how good is a ready hand?" in markdown
    assert ("notebooks/waits.ipynb" in markdown) == waits
    assert f"--hands {hands}" in markdown
    for name in play["files"].values():
        assert f"]({name})" in markdown
        image = imread(folder / name)
        assert image.ndim == 3 and image.shape[0] > 100 and image.std() > 0
    assert not list(folder.glob(".*tmp*"))


def test_report_section(fake_engine, tmp_path):
    """Synthetic records have no readiness: the waits section says no seat became ready."""
    result = run("report", "-n", "1000", "--hands", "64", "--out", str(tmp_path), "--json")
    _check_report(tmp_path, json.loads(result.stdout), 64, waits=False)
    text = run("report", "-n", "1000", "--hands", "64", "--out", str(tmp_path)).stdout
    assert "expected scores — changsha, 64 hands" in text and "bots compared" in text
    assert "won on a discard" in text and "deal-ins" not in text  # not a per-seat rate


def test_report_compares_the_bots_asked_for(fake_engine, tmp_path):
    """``--bots`` sets the bots-compared line-up (a search seat, say); the report's section
    and its reproduce line name it; a bad line-up, or one with ``--all``, is one line."""
    lineup = "search,efficiency,efficiency,efficiency"
    doc = json.loads(
        run(
            "report",
            "-n",
            "1000",
            "--hands",
            "64",
            "--bots",
            lineup,
            "--out",
            str(tmp_path),
            "--json",
        ).stdout
    )
    compared = doc["play"]["bots_compared"]
    assert compared["lineup"] == lineup.split(",")
    assert [e["bot"] for e in compared["bots"]] == ["search", "efficiency"]
    markdown = (tmp_path / "changsha" / "report.md").read_text(encoding="utf-8")
    assert "`search`, `efficiency`" in markdown and f"--bots {lineup}" in markdown
    run("report", "-n", "1000", "--hands", "64", "--out", str(tmp_path), "--json")
    default = (tmp_path / "changsha" / "report.md").read_text(encoding="utf-8")
    assert "--bots" not in default.split("Reproduce: ", 1)[1]
    assert "unknown bot 'greedy'" in user_error(
        "report", "-n", "1000", "--bots", "greedy", "--out", str(tmp_path)
    )
    assert "--all" in user_error("report", "--all", "--bots", lineup, "--out", str(tmp_path))
    assert "two bots or more" in user_error(
        "report", "-n", "1000", "--bots", "search", "--out", str(tmp_path)
    )
    assert "--hands 0" in user_error(
        "report", "-n", "1000", "--hands", "0", "--bots", lineup, "--out", str(tmp_path)
    )


def test_report_without_play(tmp_path):
    doc = json.loads(
        run("report", "-n", "1000", "--hands", "0", "--out", str(tmp_path), "--json").stdout
    )
    assert "play" not in doc
    markdown = (tmp_path / "changsha" / "report.md").read_text(encoding="utf-8")
    assert "Expected scores" not in markdown and "--hands 0" in markdown
    assert "hands" in user_error("report", "-n", "1000", "--hands", "3", "--out", str(tmp_path))


# ---------------------------------------------------------------- the real engine


@engine
def test_engine_play_json():
    doc = json.loads(run("play", "-n", "64", "--seed", "1", "--bots", MIXED, "--json").stdout)
    assert doc["n_hands"] == 64 and doc["rules"] == "changsha"
    assert sum(e["mean_score"] for e in doc["seats"]) == pytest.approx(0, abs=1e-9)
    assert doc["win_rate"]["k"] == sum(doc["win_kinds"].values())
    assert doc["win_rate"]["k"] + doc["draw_rate"]["k"] + doc["outcomes"]["qishou_end"]["k"] == 64
    text = run("play", "-n", "64", "--seed", "1", "--quiet").stdout
    assert "mean score / hand" in text


@engine
def test_engine_parts_match_in_memory(tmp_path):
    from mjsim.game.play import play_frame
    from mjsim.rules import load_rules

    out = tmp_path / "games"
    run("play", "-n", "70", "--seed", "4", "--chunk", "24", "--out", str(out), "--quiet")
    got = read_games(out)
    assert len(list(out.glob("part-*.parquet"))) == 3
    pd.testing.assert_frame_equal(got, play_frame(load_rules("changsha"), 70, seed=4))


@engine
def test_engine_report(tmp_path):
    result = run("report", "-n", "1000", "--hands", "64", "--out", str(tmp_path), "--json")
    _check_report(tmp_path, json.loads(result.stdout), 64)


def test_report_hands_beyond_memory_is_one_line(tmp_path):
    """``--hands`` past what the machine holds (the fuzz suite's 10**20 ran on, growing) is
    refused at once, naming the largest; so is a frame of as many hands from Python."""
    from mjsim.game.play import most_hands, play_frame

    most = most_hands("changsha")
    message = user_error("report", "--hands", str(10**20), "--out", str(tmp_path))
    assert f"{most:,}" in message and "--hands" in message
    assert not (tmp_path / "changsha").exists()
    with pytest.raises(ValueError, match="streams any number"):
        play_frame("changsha", most + 1)


def test_report_all_checks_every_rule_sets_hands_first(tmp_path):
    """``report --all --hands 20``: a 16-hand game's rule set needs 32 (two games, the bots
    compared over them); the atlas says so before its first report (the long fuzz profile
    met the line only after two reports' compiles)."""
    message = user_error("report", "--all", "--hands", "20", "--out", str(tmp_path))
    assert "two games (32 hands)" in message
    assert not any(tmp_path.iterdir())
