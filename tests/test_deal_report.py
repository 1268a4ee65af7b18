"""Deal-time odds beside their exact values, and the report of a rule set without 起手胡
(RULES.md §5: the three Shanghai games; §3: caishen16; §4.11: ne_alt's shape conditions):
bonus tiles at the deal, 八花齐 before the first discard, a legal hand and readiness,
shanten by family, the wild tiles held and the dealer's 天胡 by type; the report's files."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.report.deal_report import build_deal_report
from mjsim.report.qishou_report import portable
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
    assert {b: Fraction(c, len(orders)) for b, c in counts.items()} == {
        b: p for b, p in law.items() if p
    }


@pytest.mark.parametrize("rules", ["shanghai_qhp", "shanghai_qiaoma"])
def test_deal_odds_agree_with_the_exact_values(rules):
    """The simulated bonus-tile law, legal hands, readiness and shanten by family lie within
    4 s.e. of the exact values (30,000 deals)."""
    odds = deal_odds(rules, 30_000, seed=3)
    assert odds["agreement_4se"], [n for n in odds["notes"]]
    dealer = odds["bonus"]["dealer"]["law"]
    assert dealer[0]["exact"] == pytest.approx(
        float(bonus_law(144, 8 if rules == "shanghai_qhp" else 20, 14)[0])
    )
    forms = {f.form for f in load_rules(rules).families}
    assert set(odds["shanten"]) == {"all"} | (forms if len(forms) > 1 else set())
    if rules == "shanghai_qhp":  # 八花齐 at the deal: all eight flowers before the 14th tile
        e = odds["bonus"]["dealer"]["bonus_win"]
        assert e["at"] == 8 and Fraction(e["exact_fraction"]) == bonus_law(144, 8, 14)[8]


def test_deal_odds_exact_under_shape_conditions():
    """ne_alt (叉, a terminal or honour, three suits; its 宝 is not known at the deal): every
    shanten of both seat classes has its exact value, within 4 s.e. of 20,000 deals."""
    odds = deal_odds("ne_alt", 20_000, seed=5)
    assert odds["agreement_4se"] and odds["notes"] == []
    by_seat = odds["shanten"]["all"]
    assert all(e["exact"] is not None for seat in by_seat.values() for e in seat.values())
    assert odds["complete"]["exact"] > 0 and odds["ready"]["exact"] > 0


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

    result = runner.invoke(
        app,
        [
            "report",
            "--rules",
            "shanghai_qhp",
            "-n",
            "4000",
            "--hands",
            "320",
            "--out",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    folder = tmp_path / "shanghai_qhp"
    assert json.loads((folder / "summary.json").read_text()) == portable(doc)  # no timings
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    assert markdown.startswith("# The deal and the game")
    for heading in (
        "## Bonus tiles at the deal",
        "## Shanten at the deal by family",
        "## Expected scores",
        "### What the shanghai model records",
        "### Bots compared",
        "### Waits: how good is a ready hand?",
    ):
        assert heading in markdown
    assert "八花齐" in markdown and "清一色" in markdown
    figures = doc["play"]["baseline"]["model_figures"]
    assert (
        figures["fact.kaibao"]["ci"][0] < 8 / 36 < figures["fact.kaibao"]["ci"][1]
        or figures["fact.kaibao"]["denominator"] < 500
    )
    for name in {**doc["files"], **doc["play"]["files"]}.values():
        assert f"]({name})" in markdown
        image = imread(folder / name)
        assert image.ndim == 3 and image.shape[0] > 100 and image.std() > 0
    assert not list(folder.glob(".*tmp*"))


def test_report_of_a_wildcard_game(tmp_path):
    """caishen16's 财神 is turned up at the deal: the wild tiles held per seat class and the
    dealer's 天胡 by type (five melds, 八对, 三财神, any), exact beside 20,000 simulated
    deals, all within 4 s.e.; no hands played."""
    s = build_deal_report(
        load_rules("caishen16"), 20_000, seed=5, out=tmp_path, progress=False, echo=None, hands=0
    )
    d = s["deal"]
    assert s["agreement_4se"] and s["play"] is None
    for seat, n in (("dealer", 17), ("non_dealer", 16)):
        law = d["wild"][seat]["law"]  # the hand: n of the 135 tiles besides the indicator
        assert set(law) == {0, 1, 2, 3}
        for h, e in law.items():
            assert e["exact"] == pytest.approx(
                math.comb(3, h) * math.comb(132, n - h) / math.comb(135, n), rel=1e-12
            )
    win = d["dealer_win"]
    assert win["wild_win"] == 3
    assert set(win["types"]) == {"standard", "eight_pairs", "wild_win", "any"}
    assert all(e["exact"] is not None and e["within_4se"] for e in win["types"].values())
    exact = {k: Fraction(e["exact_fraction"]) for k, e in win["types"].items()}
    assert exact["wild_win"] == Fraction(math.comb(132, 14), math.comb(135, 17))
    # a complete hand is of one family or both; 天胡 is complete or three 财神, or both
    complete = d["complete"]["exact"]
    assert max(float(exact["standard"]), float(exact["eight_pairs"])) <= complete
    assert complete <= float(exact["standard"] + exact["eight_pairs"])
    assert max(complete, float(exact["wild_win"])) <= float(exact["any"])
    assert exact["any"] < exact["standard"] + exact["eight_pairs"] + exact["wild_win"]
    folder = tmp_path / "caishen16"
    markdown = (folder / "report.md").read_text(encoding="utf-8")
    for heading in ("## Wild tiles at the deal", "## The dealer's win as dealt (天胡) by type"):
        assert heading in markdown
    assert f"]({s['files']['wild']})" in markdown and (folder / s["files"]["wild"]).exists()
