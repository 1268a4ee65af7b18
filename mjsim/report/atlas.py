"""The atlas: every playable rule set's report, and the games side by side (issue 27).

:func:`build_all` writes each rule set's report (``out/<rules>/``, the report its
``mjsim report`` writes) and the overview ``out/README.md``: one row per rule set from its
summary — the game's tiles and forms, how hands end and pay when four efficiency bots play
it, the deal's exact odds (:func:`mjsim.stats.exact.exact_summary`, the values ``mjsim
exact --json`` prints) and the waits study's win rate once ready — each estimate with its
95% interval. Payments are in each rule set's own units, so the overview shows them but
does not rank them.

>>> row = overview_row(load_rules("generic"), {"play": None}, {"notes": []})
>>> row["tiles"], row["hand"], row["wild"], row["forms"]
(136, 13, 'none', 'standard, seven_pairs')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ..game.config import game_config, playable_rules
from ..progress import progress_bar
from ..rules import RuleSet, load_rules
from ..sim.parts import write_text
from ..stats.exact import exact_summary
from . import charts

#: the overview's columns: key, heading
COLUMNS = (
    ("rules", "rule set"),
    ("tiles", "tiles"),
    ("hand", "hand"),
    ("wild", "wildcards"),
    ("forms", "hand forms"),
    ("win_rate", "win rate"),
    ("draw_rate", "draw rate"),
    ("mean_turns", "turns a hand"),
    ("self_draw", "self-drawn share"),
    ("dealer_edge", "dealer's edge (units a hand)"),
    ("win_payment", "a win's receipt: mean (s.d.)"),
    ("big_wins", "wins with a pattern"),
    ("complete_exact", "complete at the deal (exact)"),
    ("lucky_exact", "a win at the deal by 起手胡 / 八花齐 (exact)"),
    ("ready_exact", "ready at the deal (exact)"),
    ("ready_win", "win rate once ready"),
    ("agreement", "simulated within 4 s.e. of exact"),
)


def estimate_cell(item: dict[str, Any] | None, key: str = "p", percent: bool = True) -> str:
    """``value [low, high]`` of a summary's estimate (its 95% interval), or —."""
    if not item:
        return "—"
    scale, unit = (100, "%") if percent else (1, "")
    low, high = item["ci"]
    return f"{scale * item[key]:.2f}{unit} [{scale * low:.2f}, {scale * high:.2f}]"


def _exact(item: dict[str, Any] | None) -> str:
    return "—" if not item else f"{item['p']:.3g} ({item['odds']})"


def _lucky_wins(exact: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The deal's lucky wins beside 天胡 that the rule set has, exact: ``qishou`` (起手胡, any
    basic pattern) and ``bonus_win`` (八花齐), each per seat class."""
    qishou = (exact.get("qishou") or {}).get("any_basic") or {}
    items = {"qishou": qishou if "dealer" in qishou else None, "bonus_win": exact.get("bonus_win")}
    return {key: item for key, item in items.items() if item}


def _lucky(exact: dict[str, Any]) -> str:
    """The lucky wins' odds as text, a non-dealer's and the dealer's; — where none."""
    names = {"qishou": "起手胡", "bonus_win": "八花齐"}
    return (
        "; ".join(
            f"{names[key]}: {item['non_dealer']['p']:.3g} (a non-dealer), "
            f"{item['dealer']['p']:.3g} (the dealer)"
            for key, item in _lucky_wins(exact).items()
        )
        or "—"
    )


def _agreement(checks: bool | dict[str, bool] | None) -> str:
    """The report's own check of its simulated figures against their exact twins."""
    if checks is None:
        return "—"
    if isinstance(checks, dict):
        bad = [name for name, ok in checks.items() if not ok]
        return "yes" if not bad else "NO: " + ", ".join(bad)
    return "yes" if checks else "NO"


def overview_row(rules: RuleSet, summary: dict[str, Any], exact: dict[str, Any]) -> dict[str, Any]:
    """One rule set's row of the overview: raw values (``*_value``) and their text."""
    play = summary.get("play") or {}
    base = play.get("baseline") or {}
    receipt = (base.get("payments") or {}).get("winner_receipt")
    waits = (play.get("waits") or {}).get("win")
    return {
        "rules": rules.id,
        "name": f"{rules.name} ({rules.name_zh})",
        "summary": rules.summary,
        "tiles": int(game_config(rules).spec.multiset.size) if rules.game_spec else None,
        "hand": rules.hand_size,
        "wild": rules.wild,
        "forms": ", ".join(dict.fromkeys(f.form for f in rules.families)),
        "win_rate": estimate_cell(base.get("win_rate")),
        "draw_rate": estimate_cell(base.get("draw_rate")),
        "mean_turns": estimate_cell(base.get("mean_turns"), "mean", percent=False),
        "self_draw": estimate_cell(base.get("self_draw_share")),
        "dealer_edge": estimate_cell(base.get("dealer"), "mean_score", percent=False),
        "win_payment": "—" if not receipt else f"{receipt['mean']:.2f} ({receipt['sd']:.2f})",
        "big_wins": estimate_cell(base.get("any_big_win")),
        "complete_exact": _exact(exact.get("complete_at_deal")),
        "lucky_exact": _lucky(exact),
        "ready_exact": _exact(exact.get("ready_at_deal")),
        "ready_win": estimate_cell(waits, "mean"),
        "agreement": _agreement(summary.get("agreement_4se")),
        "units": base.get("scoring"),
        "complete_exact_value": (exact.get("complete_at_deal") or {}).get("p"),
        "ready_exact_value": (exact.get("ready_at_deal") or {}).get("p"),
        "lucky_exact_values": {
            key: {seat: e["p"] for seat, e in item.items()}
            for key, item in _lucky_wins(exact).items()
        },
        "notes": exact.get("notes", []),
        "ready_by_live": [
            {"live": g["group"], "n": g["n"], "mean": g["mean"], "ci": g["ci"]}
            for g in (play.get("waits") or {}).get("by_live", [])
        ],
        "receipts": (receipt or {}).get("histogram", {}),
        "shanten_exact": {
            str(k): p
            for k, p in (exact.get("shanten") or {}).get(f"{rules.hand_size} tiles", {}).items()
        },
    }


def shanten_chart(rows: list[dict[str, Any]], path: Path) -> Path:
    """Readiness at the deal: the exact shanten law of a non-dealer's hand, a line per rule
    set (rule sets whose deal the exact engine cannot enumerate are left out)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.2))
    for row in rows:
        law = row["shanten_exact"]
        if law:
            ks = sorted(law, key=int)
            ax.plot(
                [int(k) for k in ks], [100 * law[k] for k in ks], marker="o", label=row["rules"]
            )
    ax.set_xlabel(
        charts.label("发牌时向听数（闲家，精确值）", "shanten at the deal (non-dealer, exact)")
    )
    ax.set_ylabel("%")
    ax.set_title(charts.label("各规则发牌时的听牌远近", "How ready each game's deal is"))
    ax.legend(frameon=False, fontsize=8, ncol=2)
    return charts.save(fig, path)


def ready_chart(rows: list[dict[str, Any]], path: Path) -> Path:
    """The waits study's win rate once ready by live copies of the winning kinds, a panel
    per scoring model (its family of games), a line per rule set, 95% intervals; points
    over fewer than 100 ready seats are left out."""
    import matplotlib.pyplot as plt

    models = list(dict.fromkeys(row["units"] for row in rows if row["ready_by_live"]))
    fig, axes = plt.subplots(
        1, len(models), figsize=(3.2 * len(models), 3.6), sharey=True, squeeze=False
    )
    for ax, name in zip(axes[0], models):
        for row in rows:
            points = [g for g in row["ready_by_live"] if row["units"] == name and g["n"] >= 100]
            if points:
                x = np.array([g["live"] for g in points])
                y = np.array([g["mean"] for g in points])
                lo, hi = (np.array([g["ci"][i] for g in points]) for i in (0, 1))
                ax.errorbar(
                    x,
                    100 * y,
                    yerr=100 * charts.error_bars(y, lo, hi),
                    marker="o",
                    ms=3,
                    capsize=2,
                    label=row["rules"],
                )
        ax.set_title(name, fontsize=9)
        ax.set_xlabel(charts.label("未见的可胡张数", "live winning tiles"))
        if ax.get_legend_handles_labels()[0]:  # a small run may have no point of 100 seats
            ax.legend(frameon=False, fontsize=7)
    axes[0][0].set_ylabel(charts.label("听牌后胡牌概率（%）", "win once ready (%)"))
    return charts.save(fig, path)


def receipts_chart(rows: list[dict[str, Any]], path: Path) -> Path:
    """What a win pays its winner, in multiples of the rule set's mean receipt (the units
    differ between games; their shapes compare): the share of wins at each multiple."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.2))
    for row in rows:
        hist = {int(v): c for v, c in row["receipts"].items()}
        if hist:
            values = np.array(sorted(hist))
            counts = np.array([hist[v] for v in values], dtype=float)
            mean = (values * counts).sum() / counts.sum()
            ax.plot(
                values / mean,
                100 * np.cumsum(counts) / counts.sum(),
                drawstyle="steps-post",
                label=row["rules"],
            )
    ax.set_xscale("log")
    ax.set_xlabel(
        charts.label("赢家所得 ÷ 平均所得（对数轴）", "a win's receipt ÷ its mean (log axis)")
    )
    ax.set_ylabel(charts.label("累计胡牌占比（%）", "wins at or below (%)"))
    ax.legend(frameon=False, fontsize=7, ncol=2)
    return charts.save(fig, path)


def overview_markdown(rows: list[dict[str, Any]], seed: int, hands: int, n: int) -> str:
    """The overview page: the table, the rule sets in plain words, links to the reports."""
    lines = [
        "# The atlas: every rule set side by side",
        "",
        f"Each row is the rule set's own report (linked), seed {seed}: {n:,} simulated deals,",
        f"{hands:,} hands played by four efficiency bots. An estimate is shown with",
        "its 95% interval; exact values come from enumerating every dealt hand (`mjsim exact`):",
        "complete at the deal is the dealer's tiles, ready at the deal a non-dealer's. The",
        "dealer's edge and a win's receipt are in each rule set's own units (its scoring",
        "model's), which differ from game to game: read them within a row, not across rows.",
        "A win's pattern is whatever the scoring model pays beyond a plain win; the 财神",
        "game gives every win a type (软牌 and 平胡 are types too), so its share is 100% by",
        "construction there (its report has each type's share).",
        "",
        "![shanten at the deal, every rule set](shanten_by_rules.png)",
        "",
        "![win rate once ready by live winning tiles, by family](ready_by_live.png)",
        "",
        "![a win's receipt over its mean, every rule set](receipts_by_rules.png)",
        "",
        "| " + " | ".join(title for _, title in COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    for row in rows:
        cells = [f"[`{row['rules']}`]({row['rules']}/report.md)"]
        cells += [str(row[key]) if row[key] is not None else "—" for key, _ in COLUMNS[1:]]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## The games", ""]
    for row in rows:
        lines.append(
            f"- [`{row['rules']}`]({row['rules']}/report.md) — {row['name']}: "
            f"{row['summary']}; scoring model `{row['units']}`."
        )
        lines += [f"  - {note}" for note in row["notes"]]
    return "\n".join(lines) + "\n"


def write_overview(out: Path, rows: list[dict[str, Any]], seed: int, hands: int, n: int) -> Path:
    """The overview ``out/README.md``, its charts and ``out/atlas.json`` (its rows)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    charts.setup()
    shanten_chart(rows, out / "shanten_by_rules.png")
    ready_chart(rows, out / "ready_by_live.png")
    receipts_chart(rows, out / "receipts_by_rules.png")
    write_text(out / "atlas.json", json.dumps(rows, indent=2, ensure_ascii=False))
    write_text(out / "README.md", overview_markdown(rows, seed, hands, n))
    return out / "README.md"


def rows_from_reports(out: Path, rule_ids: Iterable[str]) -> list[dict[str, Any]]:
    """The overview's rows from the reports already under ``out`` (nothing replayed)."""
    rows = []
    for rid in rule_ids:
        rules = load_rules(rid)
        summary = json.loads((Path(out) / rid / "summary.json").read_text(encoding="utf-8"))
        rows.append(overview_row(rules, summary, exact_summary(rules)))
    return rows


def build_all(
    n: int = 1_000_000,
    seed: int = 0,
    out: Path = Path("reports"),
    hands: int = 20_000,
    rule_ids: Iterable[str] | None = None,
    progress: bool = True,
    echo: Callable | None = None,
) -> list[dict[str, Any]]:
    """Write the report of each rule set of ``rule_ids`` (default: every playable one) under
    ``out`` and the overview ``out/README.md`` (and ``out/atlas.json``, its rows); return the
    rows."""
    from ..sim.deals import has_qishou
    from .deal_report import build_deal_report
    from .play_report import check_hands
    from .qishou_report import build_report

    ids = list(rule_ids) if rule_ids is not None else [r.id for r in playable_rules()]
    if hands:  # every rule set's hands checked before the first report
        for rid in ids:
            check_hands(load_rules(rid), hands)
    rows = []
    with progress_bar("reports", len(ids), enabled=progress) as advance:
        for rid in ids:
            rules = load_rules(rid)
            build = build_report if has_qishou(rules) else build_deal_report
            summary = build(rules, n=n, seed=seed, out=out, progress=False, echo=None, hands=hands)
            rows.append(overview_row(rules, summary, exact_summary(rules)))
            advance(1, rid)
    path = write_overview(out, rows, seed, hands, n)
    if echo is not None:
        echo(f"wrote {len(rows)} reports and {path}")
    return rows
