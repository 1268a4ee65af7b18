"""Deal-time odds beside their exact values, and the report of a rule set without 起手胡
(RULES.md §5: the three Shanghai games): bonus tiles at the deal, 八花齐 before the first
discard, a legal hand and readiness, shanten by family; the report's files."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.rules import load_rules
from mjsim.stats.deal_odds import bonus_law, deal_odds, family_rules
from mjsim.stats.exact_shanten import exact_shanten

runner = CliRunner()


@pytest.mark.parametrize("total, bonus, n", [(6, 2, 3), (7, 3, 2), (7, 2, 4)])
def test_bonus_law_matches_small_walls_enumerated(total, bonus, n):
    """Every order of a small wall: a seat draws until it holds ``n`` playing tiles."""
    from itertools import permutations
    counts = {}
    orders = set(permutations("B" * bonus + "N" * (total - bonus)))
    for order in orders:
        held = b = 0
        for t in order:
            b += t == "B"
            held += t == "N"
            if held == n:
                break
        counts[b] = counts.get(b, 0) + 1
    law = bonus_law(total, bonus, n)
    assert sum(law.values()) == 1
    assert {b: Fraction(c, len(orders)) for b, c in counts.items()} == \
        {b: p for b, p in law.items() if p}


@pytest.mark.parametrize("rules", ["shanghai_qhp", "shanghai_qiaoma"])
def test_deal_odds_agree_with_the_exact_values(rules):
    """The simulated bonus-tile law, legal hands, readiness and shanten by family lie within
    4 s.e. of the exact values (30,000 deals)."""
    odds = deal_odds(rules, 30_000, seed=3)
    assert odds["agreement_4se"], [n for n in odds["notes"]]
    dealer = odds["bonus"]["dealer"]["law"]
    assert dealer[0]["exact"] == pytest.approx(float(bonus_law(144, 8 if rules == "shanghai_qhp"
                                                                 else 20, 14)[0]))
    forms = {f.form for f in load_rules(rules).families}
    assert set(odds["shanten"]) == {"all"} | (forms if len(forms) > 1 else set())
    if rules == "shanghai_qhp":  # 八花齐 at the deal: all eight flowers before the 14th tile
        e = odds["bonus"]["dealer"]["bonus_win"]
        assert e["at"] == 8 and Fraction(e["exact_fraction"]) == bonus_law(144, 8, 14)[8]


def test_family_rules_restrict_the_exact_engine():
    """Each 清混碰 family alone has its own odds; the rule set's are at least each family's."""
    rules = load_rules("shanghai_qhp")
    whole = exact_shanten(rules, 14).probabilities
    for f in rules.families:
        alone = exact_shanten(family_rules(rules, f.form), 14).probabilities
        assert alone.get(-1, 0) <= whole.get(-1, 0)
        assert family_rules(rules, f.form).families == (f,)


def test_report_of_a_shanghai_game(tmp_path):
    from matplotlib.image import imread

    result = runner.invoke(app, ["report", "--rules", "shanghai_qhp", "-n", "4000", "--hands",
                                 "320", "--out", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    folder = tmp_path / "shanghai_qhp"
    assert json.loads((folder / "summary.json").read_text()) == doc
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    assert markdown.startswith("# The deal and the game")
    for heading in ("## Bonus tiles at the deal", "## Shanten at the deal by family",
                    "## Expected scores", "### What the shanghai model records",
                    "### Bots compared"):
        assert heading in markdown
    assert "八花齐" in markdown and "清一色" in markdown
    figures = doc["play"]["baseline"]["model_figures"]
    assert figures["fact.kaibao"]["ci"][0] < 8 / 36 < figures["fact.kaibao"]["ci"][1] or \
        figures["fact.kaibao"]["denominator"] < 500
    for name in {**doc["files"], **doc["play"]["files"]}.values():
        assert f"]({name})" in markdown
        image = imread(folder / name)
        assert image.ndim == 3 and image.shape[0] > 100 and image.std() > 0
    assert not list(folder.glob(".*tmp*"))
