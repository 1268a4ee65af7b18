"""Benchmark results as data: every result file under ``benchmarks/results/`` is complete,
and the performance page's table and the README's speed table are what
``benchmarks/report.py`` makes of them (regenerate with ``python benchmarks/report.py
--write``)."""

from __future__ import annotations

import ast
import doctest
import json
import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import report  # noqa: E402  (benchmarks/ is not a package)

#: the fields of every result file (``store.REQUIRED``; not imported, as ``store`` would
#: start numba for the machine lines)
REQUIRED = (
    "benchmark",
    "commit",
    "dirty",
    "date",
    "machine",
    "calibration",
    "args",
    "results",
    "source",
)
SCRIPTS = sorted(p.stem for p in BENCHMARKS.glob("bench_*.py"))
FILES = sorted(report.RESULTS.glob("*/*.json"))
DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _figure(value) -> bool:
    if isinstance(value, list):
        return (
            len(value) == 2
            and all(_figure(v) and not isinstance(v, bool) for v in value)
            and value[0] <= value[1]
        )
    return isinstance(value, (int, float)) and value == value  # no NaN


def test_store_fields_match():
    tree = ast.parse((BENCHMARKS / "store.py").read_text(encoding="utf-8"))
    found = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["REQUIRED"]
    ]
    assert found == [REQUIRED]


def test_every_benchmark_writes_a_result_file():
    assert SCRIPTS
    for name in SCRIPTS:
        text = (BENCHMARKS / f"{name}.py").read_text(encoding="utf-8")
        assert f'store.Run("{name}", args)' in text, name
        assert "store.add_arguments(parser)" in text, name
        assert "run.record(" in text, name


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_result_file(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    missing = [f for f in REQUIRED if f not in data]
    assert not missing, f"{path.name} lacks {missing}"
    assert data["benchmark"] == path.parent.name and data["benchmark"] in SCRIPTS
    assert DATE.fullmatch(data["date"]), data["date"]
    assert path.name.startswith(data["date"].replace("-", "").replace(":", ""))
    assert isinstance(data["args"], dict) and isinstance(data["machine"], dict)
    calibration = data["calibration"]
    assert calibration is None or (
        set(calibration) == {"loop_s", "memory_s"} and all(v > 0 for v in calibration.values())
    )
    assert data["results"] and isinstance(data["results"], dict)
    for case, numbers in data["results"].items():
        assert numbers and all(_figure(v) for v in numbers.values()), (case, numbers)
    if data["source"] == "measured":
        assert re.fullmatch(r"[0-9a-f]{40}", data["commit"] or ""), data["commit"]
        assert isinstance(data["dirty"], bool)
        assert path.name.endswith(f"-{data['commit'][:7]}.json")
        assert all(not isinstance(v, list) for n in data["results"].values() for v in n.values())
    else:
        assert re.fullmatch(
            r"transcribed from README\.md at [0-9a-f]{7,40} \(measured at "
            r"(?:[0-9a-f]{7,40}|a commit not named), [^)]+\)",
            data["source"],
        )


def test_results_exist_for_the_headline_rows():
    found = report.latest(report.load())
    for what, bench, case, names in report.HEADLINE:
        assert (bench, case) in found, what
        assert any(n in found[bench, case][1] for n in names), what


def test_performance_page_is_generated_from_the_results():
    text = report.rendered()[report.PAGE]
    assert text is not None, "docs/performance.md lacks its results markers"
    assert text == report.PAGE.read_text(encoding="utf-8"), (
        "docs/performance.md is stale: run python benchmarks/report.py --write"
    )


def test_readme_speed_table_is_generated_from_the_results():
    text = report.rendered()[report.README]
    assert text is not None, "README.md lacks the speed-table markers"
    assert text == report.README.read_text(encoding="utf-8"), (
        "README.md's speed table is stale: run python benchmarks/report.py --write"
    )


def test_report_doctests():
    assert doctest.testmod(report).failed == 0


def test_latest_takes_each_case_from_its_newest_run():
    runs = [
        {"benchmark": "bench_game", "date": d, "_path": p, "results": r}
        for d, p, r in [
            (
                "2026-12-01T00:00:00Z",
                "a",
                {"changsha": {"hands_per_s": 1}, "generic": {"hands_per_s": 2}},
            ),
            ("2026-12-02T00:00:00Z", "b", {"changsha": {"hands_per_s": 3}}),
        ]
    ]
    found = report.latest(runs)
    assert found["bench_game", "changsha"][1] == {"hands_per_s": 3}
    assert found["bench_game", "generic"][0]["_path"] == "a"


def test_replace_block():
    markers = ("<!-- a -->", "<!-- b -->")
    assert (
        report.replace_block("x\n<!-- a -->\nold\n<!-- b -->\ny", markers, "new")
        == "x\n<!-- a -->\nnew\n<!-- b -->\ny"
    )
    assert report.replace_block("x <!-- b --> <!-- a -->", markers, "new") is None
    assert report.replace_block("x", markers, "new") is None
