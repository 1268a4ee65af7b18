"""The latest benchmark results as Markdown tables: the performance page's and the README's.

Run: ``python benchmarks/report.py`` prints both tables; ``--write`` puts them into
``docs/performance.md`` (between ``<!-- results:start -->`` and ``<!-- results:end -->``)
and ``README.md`` (between ``<!-- speed-table:start -->`` and ``<!-- speed-table:end -->``),
leaving the rest of each file as it is; ``--check`` exits 1 if either differs from what
the result files give (``tests/test_bench_results.py`` checks the same).

The tables are made from the result files under ``benchmarks/results/`` (:mod:`store`)
alone: for each benchmark and case, the figures of the latest file (by its ``date``; for
figures transcribed from the old README, the time of the commit that first wrote them
there). A figure's unit is its name's ending: ``_per_s`` a rate (``hands_per_s`` → hands/s),
``_s`` seconds, ``_mb`` / ``_gb`` memory, ``_share`` a percentage, ``ratio`` a ratio. A
transcribed figure the README gave as a range is a pair ``[low, high]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PAGE = ROOT / "docs" / "performance.md"
README = ROOT / "README.md"
PAGE_MARKERS = ("<!-- results:start -->", "<!-- results:end -->")
README_MARKERS = ("<!-- speed-table:start -->", "<!-- speed-table:end -->")

#: the README's rows: what, then (benchmark, case, the figures shown)
HEADLINE = [
    (
        "shanten, 14 tiles, `generic` (standard + seven pairs)",
        "bench_core",
        "shanten generic 14",
        ("hands_per_s",),
    ),
    (
        "shanten, 14 tiles, `changsha` (258 pair + big-win forms)",
        "bench_core",
        "shanten changsha 14",
        ("hands_per_s",),
    ),
    (
        "waits with live counts, random 13-tile hands",
        "bench_core",
        "waits generic 13",
        ("hands_per_s",),
    ),
    (
        "dataset rows: deal + 起手胡 + shanten + waits, `changsha`",
        "bench_deal",
        "dataset changsha",
        ("seat_hands_per_s",),
    ),
    ("played hands, `changsha`, 4 efficiency bots", "bench_game", "changsha", ("hands_per_s",)),
    (
        "played hands, one search seat (64 worlds a decision), `changsha`",
        "bench_search",
        "changsha",
        ("hands_per_s", "ms_per_decision"),
    ),
    (
        "`mjsim compare`, a baseline and two variants × 100,000 hands",
        "bench_compare",
        "changsha 3 variants",
        ("study_s", "peak_mb"),
    ),
    (
        "cold compile of the `changsha` game engine",
        "bench_compile",
        "game (changsha)",
        ("cold_compile_s", "peak_mb"),
    ),
    (
        "the main command on a fresh clone (install, compile, study)",
        "bench_firstrun",
        "main",
        ("wall_s", "peak_gb", "peak_mb"),
    ),
    (
        "the test command next, in the same clone (its numba cache as the main command left it)",
        "bench_firstrun",
        "tests",
        ("wall_s", "peak_gb", "peak_mb"),
    ),
]


def load(folder: Path = RESULTS) -> list[dict]:
    """Every result file under ``folder``, each with its path (``_path``, relative to
    ``folder``), in order of date (then path)."""
    runs = []
    for path in sorted(folder.glob("*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["_path"] = path.relative_to(folder).as_posix()
        runs.append(data)
    return sorted(runs, key=lambda r: (r["date"], r["_path"]))


def latest(runs: list[dict]) -> dict[tuple[str, str], tuple[dict, dict]]:
    """(benchmark, case) → (the latest run with that case, the case's figures), in the
    order of the benchmarks' names and each one's cases as its latest run lists them."""
    found: dict[tuple[str, str], tuple[dict, dict]] = {}
    for run in runs:  # in order of date: a later run replaces an earlier one's case
        for case, figures in run["results"].items():
            found[run["benchmark"], case] = (run, figures)
    return dict(sorted(found.items(), key=lambda item: item[0][0]))


def _number(value: float) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def _seconds(value: float) -> str:
    if value >= 120:
        return f"{value // 60:.0f} min {value % 60:.1f} s"
    return f"{value:.1f} s" if value >= 1 else f"{value:.2f} s"


def figure(name: str, value) -> str:
    """One figure as text, its unit taken from its name (see the module's account).

    >>> figure("hands_per_s", 15386.2)
    '15,386 hands/s'
    >>> figure("seat_hands_per_s", [5.0e6, 5.4e6]), figure("mjsim_ratio", [790, 960])
    ('5–5.4 M seat hands/s', 'mjsim ratio 790–960×')
    >>> figure("cold_compile_s", 64.0), figure("wall_s", 162.8), figure("peak_mb", 866)
    ('cold compile 64.0 s', 'wall 2 min 42.8 s', 'peak 866 MB')
    """
    values = value if isinstance(value, list) else [value]
    if name.endswith("_per_s"):
        what = name[: -len("_per_s")].replace("_", " ") + "/s"
        if all(v >= 1e6 for v in values):
            return "–".join(f"{v / 1e6:.3g}" for v in values) + f" M {what}"
        return "–".join(_number(v) for v in values) + f" {what}"
    if name.endswith("_s") or name.endswith("_ms"):
        unit = name.rsplit("_", 1)[1]
        show = _seconds if unit == "s" else (lambda v: f"{v:.1f} ms")
        label = name[: -len(unit) - 1].replace("_", " ")
        return f"{label} " + "–".join(show(v) for v in values)
    if name.startswith("ms_per_"):
        return "–".join(f"{v:.1f}" for v in values) + " ms a " + name[len("ms_per_") :]
    for unit in ("mb", "gb"):
        if name.endswith("_" + unit):
            fmt = "{:,.0f}" if unit == "mb" else "{:.2f}"
            return (
                name[:-3].replace("_", " ")
                + " "
                + "–".join(fmt.format(v) for v in values)
                + f" {unit.upper()}"
            )
    if name.endswith("_share"):
        return (
            name[: -len("_share")].replace("_", " ")
            + " "
            + "–".join(f"{100 * v:.1f}%" for v in values)
        )
    if "ratio" in name.split("_"):
        fmt = "{:,.0f}" if all(v >= 10 for v in values) else "{:.2f}"
        return name.replace("_", " ") + " " + "–".join(fmt.format(v) for v in values) + "×"
    return name.replace("_", " ") + " " + "–".join(_number(v) for v in values)


def figures(numbers: dict, names=None) -> str:
    """The figures ``names`` (all when None) of a case, joined by semicolons."""
    shown = [n for n in (names or numbers) if n in numbers]
    return "; ".join(figure(n, numbers[n]) for n in shown)


def _calibration(run: dict) -> str:
    c = run.get("calibration")
    return f"{c['loop_s']:.3f} s / {c['memory_s']:.3f} s" if c else "—"


def _measured(run: dict) -> str:
    date = run["date"][:16].replace("T", " ") + " UTC"
    commit = f"`{run['commit'][:7]}`" if run["commit"] else ""
    if run["source"] != "measured":  # the date is when the README first gave the figure
        return (f"at {commit}, " if commit else "") + f"by {date} (README)"
    return f"{date}, {commit or 'no commit'}" + (" and changes" if run["dirty"] else "")


def page_table(runs: list[dict]) -> str:
    """The performance page's table: every benchmark's cases, the latest figures of each,
    then the sources of the transcribed ones."""
    rows = [
        "| benchmark | case | figures | measured | calibration | file |",
        "|---|---|---|---|---|---|",
    ]
    notes: list[str] = []
    for (bench, case), (run, numbers) in latest(runs).items():
        file = f"`{run['_path']}`"
        if run["source"] != "measured":
            text = run["source"] + (f": {run['note']}" if run.get("note") else "")
            if text not in notes:
                notes.append(text)
            file += f" (note {notes.index(text) + 1})"
        rows.append(
            f"| {bench} | {case} | {figures(numbers)} | {_measured(run)} | "
            f"{_calibration(run)} | {file} |"
        )
    body = "\n".join(rows)
    if notes:
        body += "\n\nNotes on the figures transcribed from the README's old speed log:\n\n"
        body += "\n".join(f"{i}. {text}." for i, text in enumerate(notes, 1))
    return body


def readme_table(runs: list[dict]) -> str:
    """The README's table: the :data:`HEADLINE` rows, each the latest figures of its case."""
    found = latest(runs)
    rows = ["| what | speed | machine's loop |", "|---|---|---|"]
    for what, bench, case, names in HEADLINE:
        if (bench, case) in found:
            run, numbers = found[bench, case]
            loop = f"{run['calibration']['loop_s']:.3f} s" if run.get("calibration") else "—"
            mark = "" if run["source"] == "measured" else " ¹"
            rows.append(f"| {what} | {figures(numbers, names)}{mark} | {loop} |")
    rows.append("")
    rows.append(
        "The latest result of each benchmark, on a shared 2-core machine whose speed "
        "varies from hour to hour: the machine's loop is the benchmarks' calibration (a "
        "fixed Python loop; 0.125 s on a quiet hour, more when busy), so a figure beside "
        "a slow loop is a busy hour's. ¹ From the earlier speed log, at an earlier "
        "version. The dates, the commits and every other figure are on the "
        "[performance page](docs/performance.md)."
    )
    return "\n".join(rows)


def replace_block(text: str, markers: tuple[str, str], block: str) -> str | None:
    """``text`` with what lies between ``markers`` replaced by ``block`` (None when the
    markers are not there, once each, in order)."""
    start, end = markers
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        return None
    head, rest = text.split(start)
    tail = rest.split(end)[1]
    return f"{head}{start}\n{block}\n{end}{tail}"


def rendered(folder: Path = RESULTS) -> dict[Path, str | None]:
    """The page and the README as the result files make them (None for a file without
    its markers, or missing)."""
    runs = load(folder)
    out: dict[Path, str | None] = {}
    for path, markers, block in (
        (PAGE, PAGE_MARKERS, page_table(runs)),
        (README, README_MARKERS, readme_table(runs)),
    ):
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        out[path] = replace_block(text, markers, block)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="update the page and the README")
    group.add_argument(
        "--check",
        action="store_true",
        help="exit 1 if the page or the README is not what the results give",
    )
    args = parser.parse_args()
    if not (args.write or args.check):
        runs = load()
        print(page_table(runs), readme_table(runs), sep="\n\n")
        return
    stale = False
    for path, text in rendered().items():
        name = path.relative_to(ROOT)
        if text is None:
            print(f"{name}: no table markers, left alone")
        elif text != path.read_text(encoding="utf-8"):
            stale = True
            if args.write:
                path.write_text(text, encoding="utf-8")
                print(f"{name}: written")
            else:
                print(f"{name}: differs from benchmarks/results/")
        else:
            print(f"{name}: up to date")
    if args.check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()
