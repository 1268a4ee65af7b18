"""The report of a rule-change study (:func:`mjsim.stats.compare.run_compare`): Markdown and charts.

Charts (written atomically): a forest plot of the paired differences with their 95%
intervals, one panel per kind of quantity; the payment distributions of the baseline and the
variants overlaid; for a sweep of one option, the key metrics against the option's value.
:func:`compare_markdown` is also the rule-change section of the main report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..sim.parts import write_json, write_text
from ..stats.compare import slug as _slug
from . import charts

#: the metrics of the forest plot and the sweep chart, by panel
KEY_METRICS = {
    "score": ("mean_score.dealer", "payment.sd", "payment.receipt", "payment.q05", "payment.q95"),
    "loss": ("payment.largest_loss",),
    "rate": (
        "rate.win",
        "rate.draw",
        "rate.deal_in",
        "rate.self_drawn",
        "rate.multi_win",
        "rate.dealer_wins",
        "rate.dealer_keeps",
        "big_win.any",
    ),
    "length": ("length.turns", "length.tiles_left"),
}
_PANEL_ZH = {
    "score": ("分数（每手）", "score per hand"),
    "loss": ("分数", "score"),
    "rate": ("比率（百分点）", "rate (pp)"),
    "length": ("长度", "length"),
}
COLOURS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3")


def _by_key(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["metric"]: m for m in result["metrics"]}


def unit_scale(m: dict[str, Any]) -> float:
    """What a metric's values are multiplied by when shown (rates as percentage points)."""
    return 100.0 if m["unit"] == "rate" else 1.0


def metric_name(m: dict[str, Any]) -> str:
    """A metric's label for a chart (Chinese where a CJK font is available)."""
    return charts.label(m["label_zh"], m["label"])


def forest_chart(result: dict[str, Any], path: Path) -> Path:
    """Differences from the baseline with 95% intervals, one row per metric and variant
    (metrics every variant leaves exactly unchanged are left out)."""
    import matplotlib.pyplot as plt

    metrics = {
        k: m
        for k, m in _by_key(result).items()
        if not all((v["difference"] or {}).get("identical") for v in m["variants"])
    }
    panels = [(p, [metrics[k] for k in keys if k in metrics]) for p, keys in KEY_METRICS.items()]
    panels = [(p, ms) for p, ms in panels if ms] or [("score", [])]
    nv = len(result["variants"])
    heights = [len(ms) * (0.35 + 0.18 * nv) + 0.6 for _, ms in panels]
    fig, axes = plt.subplots(
        len(panels),
        1,
        figsize=(8.5, sum(heights)),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for ax, (panel, ms) in zip(axes[:, 0], panels):
        for i, m in enumerate(ms):
            for v, entry in enumerate(m["variants"]):
                d = entry["difference"]
                if d is None:
                    continue
                y = i + (v - (nv - 1) / 2) * 0.8 / max(nv, 1)
                k = unit_scale(m)
                ax.errorbar(
                    k * d["diff"],
                    y,
                    xerr=[[k * (d["diff"] - d["ci"][0])], [k * (d["ci"][1] - d["diff"])]],
                    fmt="o",
                    mfc=None if d["excludes_zero"] else "white",
                    color=COLOURS[v % len(COLOURS)],
                    capsize=2,
                    ms=4,
                    label=entry["variant"] if i == 0 else None,
                )
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(ms)), [metric_name(m) for m in ms])
        ax.invert_yaxis()
        ax.set_xlabel(
            charts.label(
                f"与基准之差：{_PANEL_ZH[panel][0]}",
                f"difference from the baseline: {_PANEL_ZH[panel][1]}",
            )
        )
    if any(ms for _, ms in panels):
        axes[0, 0].legend(loc="best", fontsize=8)
    zh, en = (
        ("同一牌墙配对", "paired on the same walls")
        if result["paired"]
        else ("未配对", "not all paired")
    )
    axes[0, 0].set_title(
        charts.label(
            f"规则改动的影响（{result['n_hands']:,} 手/方案，{zh}，95% 区间；空心：含 0）",
            f"Rule changes ({result['n_hands']:,} hands each, {en}, 95% intervals; hollow: "
            "includes 0)",
        )
    )
    if not any(ms for _, ms in panels):
        axes[0, 0].text(
            0.5,
            0.5,
            charts.label("各方案的每手结果完全相同", "every variant played identical hands"),
            ha="center",
            transform=axes[0, 0].transAxes,
        )
    fig.tight_layout()
    return charts.save(fig, path)


def payments_chart(result: dict[str, Any], path: Path) -> Path:
    """The distribution of a seat's net score per hand, baseline and variants overlaid."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4))
    for i, (name, hist) in enumerate(result["payments"].items()):
        values = np.array([int(v) for v in hist])
        counts = np.array(list(hist.values()), dtype=float)
        order = np.argsort(values)
        ax.step(
            values[order],
            100 * counts[order] / counts.sum(),
            where="mid",
            color=COLOURS[i % len(COLOURS)],
            linewidth=1.2 if i else 2.0,
            label=name,
        )
    ax.set_yscale("log")
    ax.set_xlabel(charts.label("每手净得分（负数为付出）", "net score per hand (negative: paid)"))
    ax.set_ylabel(charts.label("% 座位·手（对数）", "% of seat-hands (log scale)"))
    ax.set_title(
        charts.label("各方案每个座位每手的净得分分布", "Net score of a seat per hand, by variant")
    )
    ax.legend(fontsize=8)
    return charts.save(fig, path)


def sweep_chart(result: dict[str, Any], path: Path) -> Path:
    """Each key metric against the swept option's value (the baseline's and the sweep's
    variants', with their own 95% intervals; other variants are left out)."""
    import matplotlib.pyplot as plt

    option = result["sweep"]
    keys = [
        k
        for k in (
            "mean_score.dealer",
            "rate.win",
            "rate.self_drawn",
            "payment.sd",
            "payment.receipt",
            "length.turns",
        )
        if k in _by_key(result)
    ]
    metrics = _by_key(result)
    # the baseline, and the variants that change the swept option alone (once per value)
    points = [(result["sweep_baseline"], None)] + [
        (v["changes"][option], i)
        for i, v in enumerate(result["variants"])
        if set(v["changes"]) == {option}
    ]
    labels = [str(p) for p, _ in points]
    order = sorted(range(len(points)), key=lambda i: (str(type(points[i][0])), points[i][0]))
    cols = 3
    rows = -(-len(keys) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(11, 3.2 * rows), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        m = metrics[key]
        k = unit_scale(m)
        xs, ys, lo, hi = [], [], [], []
        for pos, i in enumerate(order):
            e = m["baseline"] if points[i][1] is None else m["variants"][points[i][1]]
            if e.get("value") is None:
                continue
            xs.append(pos)
            ys.append(k * e["value"])
            lo.append(k * e["ci"][0])
            hi.append(k * e["ci"][1])
        ax.errorbar(
            xs,
            ys,
            yerr=charts.error_bars(np.array(ys), np.array(lo), np.array(hi)),
            fmt="o-",
            capsize=3,
            color=COLOURS[0],
        )
        ax.set_xticks(range(len(order)), [labels[i] for i in order])
        ax.set_title(metric_name(m) + (" (%)" if m["unit"] == "rate" else ""), fontsize=9)
        ax.set_xlabel(option)
    for ax in list(axes.flat)[len(keys) :]:
        ax.set_visible(False)
    fig.suptitle(
        charts.label(
            f"{option} 的取值与各项指标（95% 区间）", f"Metrics against {option} (95% intervals)"
        )
    )
    fig.tight_layout()
    return charts.save(fig, path)


def fmt_value(x: float | None, unit: str, sign: bool = False) -> str:
    """A value (or, with ``sign``, a difference) in its unit, for a table."""
    if x is None:
        return "—"
    k = 100 if unit == "rate" else 1
    return f"{k * x:+.3g}" if sign else (f"{k * x:.2f}%" if unit == "rate" else f"{x:.3f}")


def diff_cell(d: dict[str, Any] | None, unit: str) -> str:
    """A difference with its 95% interval for a Markdown table (bold: it excludes 0)."""
    if d is None:
        return "—"
    if d.get("identical"):
        return "0 (same)"
    text = (
        f"{fmt_value(d['diff'], unit, True)} [{fmt_value(d['ci'][0], unit, True)}, "
        f"{fmt_value(d['ci'][1], unit, True)}]"
    )
    gain = f" ×{d['variance_ratio']:.1f}" if d.get("variance_ratio") else ""
    return (f"**{text}**" if d["excludes_zero"] else text) + gain


def compare_markdown(result: dict[str, Any], files: dict[str, str], level: int = 1) -> str:
    """The study as Markdown (``level``: heading depth of its title); ``files`` the charts."""
    h = "#" * level
    names = [v["name"] for v in result["variants"]]
    lines = [f"{h} Rule changes — {result['rules']}", ""]
    lines += [
        f"Baseline: the rule set's {'defaults' if not result['baseline']['overrides'] else 'options ' + json.dumps(result['baseline']['overrides'], ensure_ascii=False)}. "
        f"Every variant plays the same {result['n_hands']:,} hands ({result['n_games']:,} "
        f"games, seed {result['seed']}, bots {', '.join(result['bots'])})"
        + (
            " on the same walls and dice, so each difference is paired hand by hand; "
            if result["paired"]
            else "; **the walls differ, so the differences are unpaired**; "
        )
        + "standard errors treat games as the independent units (hands of a game share the "
        "dealer's rotation). Quantiles and the largest loss get a Poisson bootstrap by game "
        "(200 replicates). **Bold**: the 95% interval excludes 0; ×N: pairing made the "
        "difference as precise as N× more independent hands would; 0 (same): the variant "
        "played exactly the same hands for this metric. Rates in percentage points.",
        "",
        "| variant | changes |",
        "|---|---|",
    ]
    for v in result["variants"]:
        changes = ", ".join(f"`{k}={val}`" for k, val in v["changes"].items()) or "none"
        lines.append(f"| {v['name']} | {changes} |")
    lines.append("")
    for note in result["notes"]:
        lines += [f"> {note}", ""]
    if "precision" in result:
        p = result["precision"]
        lines += [
            (
                f"Played until the 95% half-width of `{p['metric']}` was at most "
                f"{p['target']:g}: ±{p['half_width']:.4g} "
                f"({'reached' if p['reached'] else 'not reached by the hand limit'})."
            ),
            "",
        ]
    if files.get("forest"):
        lines += [f"![differences]({files['forest']})", ""]
    lines += [
        "| metric | baseline | " + " | ".join(f"Δ {n}" for n in names) + " |",
        "|---|---:|" + "---:|" * len(names),
    ]
    keys = [k for ks in KEY_METRICS.values() for k in ks]
    metrics = _by_key(result)
    for key in keys + [k for k in metrics if k not in keys]:
        if key not in metrics:
            continue
        m = metrics[key]
        lines.append(
            f"| {m['label']} {m['label_zh']} | {fmt_value(m['baseline'].get('value'), m['unit'])} | "
            + " | ".join(diff_cell(v["difference"], m["unit"]) for v in m["variants"])
            + " |"
        )
    lines.append("")
    exact = result.get("exact")
    if exact and any(any(abs(x) > 0 for x in v["difference"].values()) for v in exact["variants"]):
        lines += [
            "Exact deal-time probabilities (the exact engine), and their differences:",
            "",
            "| quantity | baseline | " + " | ".join(f"Δ {n}" for n in names) + " |",
            "|---|---:|" + "---:|" * len(names),
        ]
        for k, base in exact["baseline"].items():
            lines.append(
                f"| {k} | {base:.6g} | "
                + " | ".join(f"{v['difference'][k]:+.6g}" for v in exact["variants"])
                + " |"
            )
        lines.append("")
    elif exact and exact["baseline"]:
        lines += [
            (
                "The variants deal alike: the exact deal-time probabilities (起手胡, "
                "complete and ready at the deal) do not change."
            ),
            "",
        ]
    if files.get("payments"):
        lines += [f"![payments]({files['payments']})", ""]
    if files.get("sweep"):
        lines += [f"![sweep]({files['sweep']})", ""]
    return "\n".join(lines)


def draw_charts(result: dict[str, Any], folder: Path, prefix: str = "") -> dict[str, str]:
    """Draw the study's charts into ``folder``; return their file names."""
    charts.setup()
    files = {
        "forest": forest_chart(result, folder / f"{prefix}differences.png").name,
        "payments": payments_chart(result, folder / f"{prefix}payments.png").name,
    }
    if result.get("sweep"):
        files["sweep"] = sweep_chart(result, folder / f"{prefix}sweep.png").name
    return files


def write_compare_report(result: dict[str, Any], out: Path) -> Path:
    """Write ``report.md``, ``summary.json`` and the charts into ``out/<rules>-<variants>/``."""
    slug = _slug("+".join(v["name"] for v in result["variants"]))
    folder = Path(out) / f"{result['rules']}-{slug[:80]}"
    folder.mkdir(parents=True, exist_ok=True)
    files = draw_charts(result, folder)
    write_json(folder / "summary.json", result)
    path = folder / "report.md"
    write_text(path, compare_markdown(result, files) + "\n")
    return path


#: the house-rule changes of the main report's rule-change section (Changsha options)
REPORT_VARIANTS = (
    "birds multiply 鸟对鸟: cs_bird_mode=mul",
    "four birds 四鸟: cs_birds=4",
    "no cap 不封顶: cs_cap=none",
    "一枝花 allowed: cs_qs_yizhihua=true",
)


def build_rule_changes(
    rules: Any, hands: int, seed: int, folder: Path, progress: bool = True
) -> dict[str, Any]:
    """The main report's rule-change section: :data:`REPORT_VARIANTS` against ``rules`` on
    the same ``hands`` hands; the study's result with its ``markdown`` and chart ``files``."""
    from ..stats.compare import Variant, parse_variant, run_compare

    variants = [parse_variant(text, rules) for text in REPORT_VARIANTS]
    result = run_compare(
        Variant("baseline", rules), variants, n=hands, seed=seed, progress=progress
    )
    result["files"] = draw_charts(result, folder, prefix="rule_changes_")
    return result
