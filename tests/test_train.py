"""Self-play training (mjsim.sim.train, ``mjsim train``): deterministic per seed, resumed
runs equal to runs never stopped, the player file it writes, bad input refused.

Tiny budgets (64 hands a seating, 4 candidates a generation, 64 hands a seating to test a
promotion) on Changsha, whose tuned engine the test session's warm-up compiles; the Dask
run equals the local one in tests/test_cluster.py.
"""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.game.players import player_document, read_player
from mjsim.game.tuned import EFFICIENCY, PARAMS
from mjsim.rules import load_rules
from mjsim.sim import train as T

SMALL = {"hands": 64, "population": 4, "final_hands": 64, "promote_hands": 64}


def run(tmp_path, name, **kw):
    out = tmp_path / name
    doc = T.train("changsha", out, seed=7, **{**SMALL, **kw})
    return out, doc


def test_unit_box_round_trip_and_bounds():
    x = T.to_unit(np.array(EFFICIENCY))
    assert ((x >= 0) & (x <= 1)).all()
    assert np.allclose(T.from_unit(x), EFFICIENCY)
    assert (T.from_unit(np.full(len(PARAMS), 2.0)) == [p.high for p in PARAMS]).all()


def test_deterministic_per_seed(tmp_path):
    a, doc_a = run(tmp_path, "a.json", budget=3000)
    _, doc_b = run(tmp_path, "b.json", budget=3000)
    assert doc_a["parameters"] == doc_b["parameters"]
    assert doc_a["training"]["final"] == doc_b["training"]["final"]
    assert doc_a["training"]["generations"] == 3 and doc_a["training"]["hands_played"] == 3072
    assert not (tmp_path / "a.json.train").exists()  # the checkpoint goes with the file
    rules = load_rules("changsha")
    assert np.array_equal(read_player(a, rules), [doc_a["parameters"][p.name] for p in PARAMS])
    final = doc_a["training"]["final"]
    assert final["hands"] == 64 and final["ci95"][0] <= final["mean"] <= final["ci95"][1]


def test_a_resumed_run_is_the_run_never_stopped(tmp_path):
    """Stopped after two generations (the checkpoint kept), resumed to five: the player
    and every generation's figures equal those of five generations in one go."""
    _, doc = run(tmp_path, "whole.json", budget=5 * 1024)
    part = tmp_path / "part.json"
    stop = {"at": 0}

    def interrupt(state, row):
        stop["at"] = state.generation
        if state.generation == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        T.train("changsha", part, seed=7, budget=5 * 1024, progress=interrupt, **SMALL)
    assert stop["at"] == 2 and (tmp_path / "part.json.train").exists()
    resumed = T.train("changsha", part, seed=7, budget=5 * 1024, resume=True, **SMALL)
    assert resumed["parameters"] == doc["parameters"]
    assert resumed["training"]["promotions"] == doc["training"]["promotions"]
    assert resumed["training"]["final"] == doc["training"]["final"]


def test_a_checkpoint_of_another_training_is_refused(tmp_path):
    out = tmp_path / "p.json"
    check = tmp_path / "p.json.train"
    check.write_bytes(b"not a pickle")
    with pytest.raises(ValueError, match="not readable"):
        T.train("changsha", out, seed=7, budget=1000, resume=True, **SMALL)
    settings = T.Settings("changsha", "0", 1, 1000, None)
    state = T.State(settings, None, 0, 0, 0.0, list(EFFICIENCY), [], [])
    check.write_bytes(pickle.dumps(state))
    with pytest.raises(ValueError, match="of another training"):
        T.train("changsha", out, seed=7, budget=1000, resume=True, **SMALL)


def test_cli_errors_are_one_line(tmp_path):
    runner = CliRunner()
    (tmp_path / "notes.txt").write_text("a user's notes\n")
    for args, message in (
        (["train"], "give --budget HANDS or --minutes M"),
        (["train", "--budget", "10", "--minutes", "1"], "not both"),
        (["train", "--budget", "10", "--out", str(tmp_path)], "--out must be a file name"),
        (["train", "--rules", "nope", "--budget", "10"], "nope"),
        (["train", "--minutes", "1e999"], "less than or equal to"),  # the long fuzz's overflow
        (["train", "--budget", "10", "--out", str(tmp_path / "notes.txt")], "not a player file"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output


def test_cli_writes_a_player_file(tmp_path, monkeypatch):
    for name, value in (("HANDS", 64), ("POPULATION", 4), ("FINAL_HANDS", 64)):
        monkeypatch.setattr(T, name, value)
    out = tmp_path / "p.json"
    result = CliRunner().invoke(
        app, ["train", "--budget", "600", "--seed", "3", "--out", str(out), "--json", "-q"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert json.loads(result.output) == doc
    assert doc["rules"] == "changsha" and doc["training"]["command"].startswith("mjsim train")
    assert doc["training"]["settings"]["budget"] == 600
    assert doc["training"]["settings"]["hands"] == 64  # the default the test set


def test_cli_hands_of_a_generation_and_a_test(tmp_path, monkeypatch):
    monkeypatch.setattr(T, "POPULATION", 4)
    monkeypatch.setattr(T, "FINAL_HANDS", 64)
    out = tmp_path / "p.json"
    args = ["train", "--budget", "600", "--hands", "48", "--test-hands", "32", "-q"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    training = json.loads(out.read_text())["training"]
    assert training["settings"]["hands"] == 48 and training["settings"]["promote_hands"] == 32
    for flag in ("--hands", "--test-hands"):
        result = CliRunner().invoke(app, ["train", "--budget", "10", flag, "0"])
        assert result.exit_code == 2 and flag in result.output


def test_against_fixed_opponents(tmp_path):
    """Against three fixed seats of a player the training starts from that player and
    measures its final gain against them: stopped before any test for promotion, the player
    is theirs and gains exactly nothing (every hand's four seatings cancel). The test of
    promotion plays the two tested players only (the incumbent is still the opponents)
    and does not ask the efficiency point."""
    theta = np.array(EFFICIENCY)
    theta[[p.name for p in PARAMS].index("claim_bias")] = 1.5
    _, doc = run(tmp_path, "a.json", budget=1000, opponents=theta)
    assert [doc["parameters"][p.name] for p in PARAMS] == theta.tolist()
    final = doc["training"]["final"]
    assert final["vs"] == "three seats of the fixed opponents" and final["mean"] == 0.0
    assert list(doc["training"]["settings"]["opponents"]) == theta.tolist()
    out = tmp_path / "b.json"
    _, doc = run(tmp_path, "b.json", budget=5 * 1024, opponents=theta)
    assert doc["training"]["hands_played"] == 5 * 1024 + 2 * 4 * 64
    assert doc["training"]["final"]["vs"] == "three seats of the fixed opponents"
    assert not out.with_name("b.json.train").exists()


def test_cli_against_is_a_tuned_player(tmp_path):
    runner = CliRunner()
    rules = load_rules("changsha")
    wild = np.array(EFFICIENCY)
    wild[[p.name for p in PARAMS].index("claim_bias")] = 99.0  # outside the training's box
    (tmp_path / "wild.json").write_text(json.dumps(player_document(rules, wild, {})))
    (tmp_path / "own.json").write_text(json.dumps(player_document(rules, EFFICIENCY, {})))
    own = str(tmp_path / "own.json")
    for against, message, out in (
        ("value", "--against takes tuned or tuned:FILE", []),
        (f"tuned:{tmp_path / 'none.json'}", "does not exist", []),
        (f"tuned:{tmp_path / 'wild.json'}", "claim_bias outside the range", []),
        (f"tuned:{own}", "is the --against player's file", ["--out", own]),
    ):
        args = ["train", "--budget", "10", "--against", against, *out]
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and message in result.output, result.output
        assert "Traceback" not in result.output


def test_a_training_continues_from_a_player(tmp_path):
    """``start``: the search and the incumbents begin at a player's parameters — stopped
    before any test for promotion, the player written is that player, and the settings
    (so a checkpoint's) carry the start; a start and fixed opponents are refused together."""
    theta = np.array(EFFICIENCY)
    theta[[p.name for p in PARAMS].index("claim_bias")] = 1.0
    _, doc = run(tmp_path, "a.json", budget=1000, start=theta)
    assert [doc["parameters"][p.name] for p in PARAMS] == theta.tolist()
    assert list(doc["training"]["settings"]["start"]) == theta.tolist()
    assert doc["training"]["final"]["vs"] == "three efficiency seats"
    with pytest.raises(ValueError, match="give no start"):
        run(tmp_path, "b.json", budget=1000, start=theta, opponents=theta)


def test_cli_from_takes_a_player_of_other_options(tmp_path, monkeypatch):
    monkeypatch.setattr(T, "FINAL_HANDS", 16)
    theta = np.array(EFFICIENCY)
    theta[[p.name for p in PARAMS].index("claim_bias")] = 1.0
    other = tmp_path / "other.json"  # a player of Changsha without birds
    other.write_text(json.dumps(player_document(load_rules("changsha", cs_birds=0), theta, {})))
    out = tmp_path / "p.json"
    args = ["train", "--budget", "100", "--hands", "16", "--from", f"tuned:{other}", "-q"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert read_player(out, load_rules("changsha")).tolist() == theta.tolist()
    for extra, message in (
        (["--from", "value"], "--from takes tuned or tuned:FILE"),
        (["--from", "tuned", "--against", "tuned"], "leave out --from"),
    ):
        result = CliRunner().invoke(app, ["train", "--budget", "10", *extra])
        assert result.exit_code == 2 and message in result.output, result.output
