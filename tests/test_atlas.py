"""The atlas (issue 27): every rule set's report and the overview, from one command."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.game.config import playable_rules
from mjsim.report.atlas import (
    COLUMNS,
    build_all,
    estimate_cell,
    overview_markdown,
    rows_from_reports,
)
from mjsim.stats.exact import exact_summary

RULES = ("changsha", "caishen16")  # a 起手胡 report and a deal report


def test_build_all_writes_each_report_and_the_overview(tmp_path):
    rows = build_all(n=4000, seed=3, out=tmp_path, hands=80, rule_ids=RULES, progress=False)
    assert [r["rules"] for r in rows] == list(RULES)
    overview = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert json.loads((tmp_path / "atlas.json").read_text(encoding="utf-8")) == rows
    for row in rows:
        rid = row["rules"]
        summary = json.loads((tmp_path / rid / "summary.json").read_text(encoding="utf-8"))
        assert (tmp_path / rid / "report.md").exists()
        assert f"[`{rid}`]({rid}/report.md)" in overview
        # the exact columns are `mjsim exact --json`'s values
        exact = exact_summary(rid)
        assert row["complete_exact_value"] == exact["complete_at_deal"]["p"]
        assert row["ready_exact_value"] == exact["ready_at_deal"]["p"]
        assert row["lucky_exact_values"] == (
            {
                "qishou": {
                    seat: exact["qishou"]["any_basic"][seat]["p"]
                    for seat in ("non_dealer", "dealer")
                }
            }
            if rid == "changsha"
            else {}
        )
        # the simulated ones are the report's own, with their intervals
        base = summary["play"]["baseline"]
        assert row["win_rate"] == estimate_cell(base["win_rate"])
        assert row["mean_turns"] == estimate_cell(base["mean_turns"], "mean", percent=False)
        assert row["ready_win"] == estimate_cell(summary["play"]["waits"]["win"], "mean")
        assert row["agreement"] == "yes"
        line = next(x for x in overview.splitlines() if x.startswith(f"| [`{rid}`]"))
        assert line.count("|") == len(COLUMNS) + 1
        assert row["win_rate"] in line and row["complete_exact"] in line
    for chart in ("shanten_by_rules.png", "ready_by_live.png", "receipts_by_rules.png"):
        assert (tmp_path / chart).stat().st_size > 10_000
        assert f"]({chart})" in overview
    # the overview rebuilt from the reports on disk is the one written with them
    assert rows_from_reports(tmp_path, RULES) == rows
    for row in rows:  # the chart's law is the exact engine's: a distribution
        assert abs(sum(row["shanten_exact"].values()) - 1) < 1e-9
    assert not list(tmp_path.glob(".*tmp*"))


def test_report_all_refuses_settings(tmp_path):
    result = CliRunner().invoke(
        app, ["report", "--all", "--set", "cs_birds=4", "--out", str(tmp_path)]
    )
    assert result.exit_code != 0
    assert "--all writes every rule set at its defaults" in result.output
    assert not list(tmp_path.iterdir())


def test_the_committed_overview_is_the_committed_reports():
    """``reports/README.md``'s table is what the overview's code makes of the committed
    reports' summaries and the exact engine now: a report regenerated without its overview,
    or an exact value that changed, fails here."""
    reports = Path(__file__).resolve().parents[1] / "reports"
    committed = json.loads((reports / "atlas.json").read_text(encoding="utf-8"))
    ids = [row["rules"] for row in committed]
    assert ids == [r.id for r in playable_rules()]  # every playable rule set has its report
    rows = rows_from_reports(reports, ids)
    assert rows == committed
    table = [
        x
        for x in (reports / "README.md").read_text(encoding="utf-8").splitlines()
        if x.startswith("| [`")
    ]
    assert table == [
        x for x in overview_markdown(rows, 0, 0, 0).splitlines() if x.startswith("| [`")
    ]
    bahua = next(r for r in rows if r["rules"] == "shanghai_qhp")["lucky_exact_values"]
    assert bahua["bonus_win"]["dealer"] == float(Fraction(11305, 209004408899))
