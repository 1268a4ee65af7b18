"""The report of ``mjsim compare --adapt --report DIR``: each rule change's effect with the
players unchanged and adapted, and what the players change under it (Markdown and a chart).

>>> [k for k in SHOWN][:2]
['rate.win', 'rate.draw']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..sim.parts import write_json, write_text
from ..stats.compare import slug
from . import charts
from .compare_report import COLOURS, KEY_METRICS, diff_cell, fmt_value, metric_name, unit_scale

#: the metrics of the chart and the tables, in order
SHOWN = (
    *KEY_METRICS["rate"],
    "rate.claimed",
    "rate.passed",
    *KEY_METRICS["score"],
    *KEY_METRICS["length"],
)
#: the three effects of each variant: key, English, Chinese
EFFECTS = (
    ("unchanged", "players unchanged", "玩家未调整"),
    ("adapted", "players adapted", "玩家已调整"),
    ("change", "what the players change", "玩家的改变"),
)


def effects(result: dict[str, Any], i: int) -> dict[str, list[tuple[dict, dict | None]]]:
    """Variant ``i``'s three effects: per effect, ``(metric, difference)`` for each metric of
    :data:`SHOWN` the comparison has."""
    keyed = {
        "unchanged": {
            m["metric"]: (m, m["variants"][i]["difference"]) for m in result["unchanged"]["metrics"]
        },
        "adapted": {
            m["metric"]: (m, m["variants"][i]["difference"]) for m in result["adapted"]["metrics"]
        },
        "change": {
            m["metric"]: (m, m["variants"][0]["difference"]) for m in result["change"][i]["metrics"]
        },
    }
    return {e: [keyed[e][k] for k in _keys(result) if k in keyed[e]] for e, _, _ in EFFECTS}


def _keys(result: dict[str, Any]) -> list[str]:
    have = {m["metric"] for m in result["unchanged"]["metrics"]}
    return [k for k in SHOWN if k in have]


def adapt_chart(result: dict[str, Any], path: Path) -> Path:
    """One panel per variant: each metric's three effects with their 95% intervals (rates in
    percentage points; hollow: the interval includes 0)."""
    import matplotlib.pyplot as plt

    names = [v["name"] for v in result["unchanged"]["variants"]]
    keys = _keys(result)
    fig, axes = plt.subplots(
        1, len(names), figsize=(6.5 * len(names), 0.42 * len(keys) + 1.6), squeeze=False
    )
    for i, (ax, name) in enumerate(zip(axes[0], names, strict=True)):
        for j, (effect, en, zh) in enumerate(EFFECTS):
            label = charts.label(zh, en)
            for y, (m, d) in enumerate(effects(result, i)[effect]):
                if d is None or d.get("identical"):
                    continue
                k = unit_scale(m)
                ax.errorbar(
                    k * d["diff"],
                    y + (j - 1) * 0.25,
                    xerr=[[k * (d["diff"] - d["ci"][0])], [k * (d["ci"][1] - d["diff"])]],
                    fmt="o",
                    mfc=None if d["excludes_zero"] else "white",
                    color=COLOURS[j],
                    capsize=2,
                    ms=4,
                    label=label,
                )
                label = None  # one legend entry an effect
        ax.axvline(0, color="black", linewidth=0.8)
        metrics = [m for m, _ in effects(result, i)["unchanged"]]
        ax.set_yticks(range(len(metrics)), [metric_name(m) for m in metrics], fontsize=8)
        ax.invert_yaxis()
        ax.set_title(name)
        ax.set_xlabel(charts.label("差（比率：百分点）", "difference (rates: percentage points)"))
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="best", fontsize=7)
        else:
            ax.text(
                0.5,
                0.5,
                charts.label("完全相同", "identical hands"),
                ha="center",
                transform=ax.transAxes,
            )
    fig.suptitle(
        charts.label(
            f"{result['rules']}：玩家调整前后的规则影响（同一牌墙配对，95% 区间）",
            f"{result['rules']}: rule changes before and after the players adapt "
            "(paired on the same walls, 95% intervals)",
        )
    )
    fig.tight_layout()
    return charts.save(fig, path)


def adapt_markdown(result: dict[str, Any], chart: str) -> str:
    """The report as Markdown, ``chart`` the chart's file name."""
    unchanged = result["unchanged"]
    training = result["training"]
    sizes = " ".join(
        f"{flag} {training[key]}"
        for key, flag in (("hands", "--hands"), ("test_hands", "--test-hands"))
        if training.get(key)
    )
    lines = [
        f"# Rule changes after the players adapt — {result['rules']}",
        "",
        f"Four tuned seats play every hand. The baseline and each variant have their own "
        f"player, trained by `mjsim train` with seed {training['seed']} and "
        f"{training['budget']:,} hands"
        + (f" (`{sizes}`)" if sizes else "")
        + (f", each continued from `{training['from']}`" if training.get("from") else "")
        + f". Each effect is measured on the same "
        f"{unchanged['n_hands']:,} hands (seed {result['seed']}), paired hand by hand, with "
        "games as the independent units: **players unchanged** (the variant played by the "
        "baseline's player), **players adapted** (by its own) and **what the players "
        "change** (its own player against the baseline's, under the variant's rules). "
        "**Bold**: the 95% interval excludes 0; rates in percentage points.",
        "",
        "| player of | parameters away from the efficiency bot |",
        "|---|---|",
    ]
    for p in result["players"]:
        moved = ", ".join(f"`{k}` {v:g}" for k, v in p["moved"].items()) or "none"
        lines.append(f"| {p['rules']} | {moved} |")
    lines += ["", f"![before and after the players adapt]({chart})", ""]
    for i, v in enumerate(unchanged["variants"]):
        changes = ", ".join(f"`{k}={val}`" for k, val in v["changes"].items())
        lines += [
            f"## {v['name']} ({changes})",
            "",
            "### What players change under this rule",
            "",
            "| metric | baseline | players unchanged | players adapted | what the players change |",
            "|---|---:|---:|---:|---:|",
        ]
        rows = effects(result, i)
        for (m, d0), (_, d1), (_, d2) in zip(
            rows["unchanged"], rows["adapted"], rows["change"], strict=True
        ):
            lines.append(
                f"| {m['label']} {m['label_zh']} | {fmt_value(m['baseline'].get('value'), m['unit'])} "
                f"| {diff_cell(d0, m['unit'])} | {diff_cell(d1, m['unit'])} "
                f"| {diff_cell(d2, m['unit'])} |"
            )
        lines.append("")
    return "\n".join(lines)


def write_adapt_report(result: dict[str, Any], out: Path) -> Path:
    """Write ``report.md``, ``summary.json`` and the chart into
    ``out/<rules>-adapt-<variants>/``; the report's path."""
    names = "+".join(v["name"] for v in result["unchanged"]["variants"])
    folder = Path(out) / f"{result['rules']}-adapt-{slug(names)[:80]}"
    folder.mkdir(parents=True, exist_ok=True)
    charts.setup()
    chart = adapt_chart(result, folder / "adapt.png").name
    write_json(folder / "summary.json", result)
    path = folder / "report.md"
    write_text(path, adapt_markdown(result, chart) + "\n")
    return path
