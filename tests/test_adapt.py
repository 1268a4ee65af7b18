"""``compare --adapt`` (issue 41): each rule set played by its own trained player, the
effect given with the players unchanged and adapted, on the same walls.

The trainings here are one generation of a few hands (the sizes of :mod:`mjsim.sim.train`
made small), so the players are whatever one generation promotes — the point is the
plumbing: which player plays which rule set, that a player is trained once and kept, and
that the three comparisons pair what they say they pair.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.game.tuned import EFFICIENCY, INDEX
from mjsim.report.adapt_report import write_adapt_report
from mjsim.rules import load_rules
from mjsim.sim import train as T
from mjsim.stats.adapt import adapt_compare, key_name, player_for
from mjsim.stats.compare import Variant, parse_variant, run_compare

runner = CliRunner()


@pytest.fixture
def small_training(monkeypatch):
    monkeypatch.setattr(T, "HANDS", 8)
    monkeypatch.setattr(T, "POPULATION", 4)
    monkeypatch.setattr(T, "FINAL_HANDS", 16)
    monkeypatch.setattr(T, "PROMOTE_HANDS", 8)


def test_a_player_is_trained_once_and_kept(tmp_path, small_training):
    rules = load_rules("changsha", cs_birds=0)
    player, path, fresh = player_for(rules, seed=3, budget=1000, folder=tmp_path)
    assert fresh and path == tmp_path / key_name(rules, 3, 1000) and path.exists()
    again, _, fresh = player_for(rules, seed=3, budget=1000, folder=tmp_path)
    assert not fresh and again == player
    assert "--set cs_birds=0 --budget 1000 --seed 3" in path.read_text(encoding="utf-8")


def test_adapt_pairs_what_it_says(tmp_path, small_training):
    base = load_rules("changsha")
    baseline = Variant("baseline", base)
    variant = parse_variant("no birds: cs_birds=0", base)
    result = adapt_compare(baseline, [variant], n=32, seed=5, budget=1000, folder=tmp_path)
    players = [p["file"] for p in result["players"]]
    assert len(set(players)) == 2 and all(p["trained_now"] for p in result["players"])
    base_player = player_for(base, budget=1000, folder=tmp_path)[0]
    own = player_for(variant.rules, budget=1000, folder=tmp_path)[0]
    # players unchanged: the variant played by the baseline's player, as a plain comparison
    plain = run_compare(
        baseline._replace(player=base_player),
        [variant._replace(player=base_player)],
        n=32,
        seed=5,
        bots=("tuned",) * 4,
        progress=False,
    )
    assert result["unchanged"]["metrics"] == plain["metrics"]
    # the baseline is the same hands in both
    for u, a in zip(result["unchanged"]["metrics"], result["adapted"]["metrics"], strict=True):
        assert u["baseline"] == a["baseline"]
    # what players change: the variant's own player against the baseline's, its rules
    change = result["change"][0]
    assert [v["name"] for v in change["variants"]] == ["no birds (players adapted)"]
    adapted_value = [m["variants"][0]["value"] for m in result["adapted"]["metrics"]]
    assert [m["variants"][0]["value"] for m in change["metrics"]] == adapted_value
    unchanged_value = [m["variants"][0]["value"] for m in result["unchanged"]["metrics"]]
    assert [m["baseline"]["value"] for m in change["metrics"]] == unchanged_value
    report = write_adapt_report(result, tmp_path / "report")
    text = report.read_text(encoding="utf-8")
    assert "### What players change under this rule" in text and "吃碰杠率" in text
    assert (report.parent / "adapt.png").stat().st_size > 0
    if np.allclose(own, base_player):  # the same player: the same hands
        diffs = [m["variants"][0]["difference"] for m in change["metrics"]]
        assert all(d is None or d.get("identical") or d["diff"] == 0 for d in diffs)


def test_cli_adapt_refuses_what_it_cannot_do():
    for extra in (["--bots", "value"], ["--precision", "0.1"], ["--unpaired"]):
        out = runner.invoke(app, ["compare", "--variant", "cs_birds=0", "--adapt", *extra])
        assert out.exit_code == 2, out.output
        lines = [x for x in out.output.splitlines() if x.strip()]
        assert len(lines) == 1 and lines[0].startswith("error:") and "--adapt" in lines[0]
    for extra in (["--adapt-hands", "2000"], ["--adapt-test-hands", "12000"]):
        out = runner.invoke(app, ["compare", "--variant", "cs_birds=0", *extra])
        assert out.exit_code == 2, out.output
        lines = [x for x in out.output.splitlines() if x.strip()]
        assert len(lines) == 1 and extra[0] in lines[0] and "give --adapt" in lines[0]


def test_training_sizes_are_part_of_a_players_name(tmp_path, small_training):
    """``hands`` and ``test_hands`` reach the training (its file's settings and command)
    and the player's name: a player of other sizes is another file."""
    rules = load_rules("changsha", cs_birds=0)
    _, path, _ = player_for(rules, seed=3, budget=100, folder=tmp_path, hands=16, test_hands=24)
    assert path.name == key_name(rules, 3, 100, hands=16, test_hands=24) != key_name(rules, 3, 100)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["training"]["settings"]["hands"] == 16
    assert doc["training"]["settings"]["promote_hands"] == 24
    assert "--hands 16 --test-hands 24" in doc["training"]["command"]


def test_every_player_continues_from_one_start(tmp_path, small_training):
    """``start``: the baseline's player and the variant's are both trained on from it, kept
    under names of their own (a player from the efficiency bot is another file)."""
    base = load_rules("changsha")
    theta = np.array(EFFICIENCY)
    theta[INDEX["claim_bias"]] = 1.0
    start = (tuple(theta.tolist()), "tuned:x")
    baseline = Variant("baseline", base)
    variant = parse_variant("no birds: cs_birds=0", base)
    result = adapt_compare(
        baseline, [variant], n=16, seed=5, budget=100, folder=tmp_path, start=start
    )
    assert result["training"]["from"] == "tuned:x"
    for p, rules in zip(result["players"], (base, variant.rules), strict=True):
        assert p["file"] == str(tmp_path / key_name(rules, 1, 100, start[0]))
        assert "--from tuned:x" in (tmp_path / p["file"]).read_text(encoding="utf-8")
    assert key_name(base, 1, 100, start[0]) != key_name(base, 1, 100)
