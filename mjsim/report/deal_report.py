"""The report of a rule set without 起手胡: the deal and the game, as Markdown with charts.

``build_deal_report(rules, n, seed, out, hands)`` writes ``out/<rules id>/report.md``, its
PNG charts and ``summary.json`` (every file atomically) and returns the summary: the
deal-time odds of :func:`mjsim.stats.deal_odds.deal_odds` (bonus tiles at the deal and a
win by them, a complete hand, readiness, shanten by family, and with a wildcard indicator
the wild tiles held and the dealer's 天胡 by type — exact beside simulated) and
the expected scores of played hands (:mod:`mjsim.report.play_report`, with the scoring
model's own figures). Nothing here names a rule set: what a section shows comes from the
rule set's wall, families and scoring model.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

from ..game.play import compile_beside
from ..rules import RuleSet
from ..stats.deal_odds import SEATS, deal_odds
from ..stats.proportions import odds_text, percent
from ..version import __version__
from . import charts
from .play_report import REPORT_LINEUP, build_play_report, play_markdown
from .qishou_report import SEAT_LABEL, provenance, report_end, report_folder, write_report

#: the x labels of the laws charted (Chinese, pinyin)
BONUS_LABEL = ("起手补花数", "bonus tiles set aside at the deal")
WILD_LABEL = ("起手万能牌数", "wild tiles held at the deal")
#: this report's percentages: 4 significant figures
_pct = partial(percent, digits=4, style="g")


def _law_chart(laws: dict[str, Any], xlabel: tuple[str, str], path: Path) -> Path:
    """A count's law per seat class (``laws[seat]["law"]``: count → estimate), simulated
    bars with the exact values marked; ``xlabel``: the count, in Chinese and pinyin."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    for ax, seat in zip(axes, SEATS):
        law = laws[seat]["law"]
        ks = np.array(list(law))
        ax.bar(
            ks,
            [100 * e["p"] for e in law.values()],
            color="#4C72B0",
            label=charts.label("模拟", "simulated"),
        )
        exact = [(k, 100 * e["exact"]) for k, e in law.items() if e["exact"] is not None]
        if exact:
            ax.scatter(
                *zip(*exact),
                marker="_",
                s=300,
                color="black",
                zorder=3,
                label=charts.label("精确值", "exact"),
            )
        ax.set_xticks(ks)
        ax.set_title(charts.label(*SEAT_LABEL[seat]))
        ax.set_xlabel(charts.label(*xlabel))
    axes[0].set_ylabel("%")
    axes[0].legend(frameon=False)
    return charts.save(fig, path)


def _shanten_chart(shanten: dict[str, Any], path: Path) -> Path:
    import matplotlib.pyplot as plt

    forms = list(shanten)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    width = 0.8 / len(forms)
    for ax, seat in zip(axes, SEATS):
        keys = sorted({k for f in forms for k in shanten[f][seat] if k < 20})
        for i, form in enumerate(forms):
            d = shanten[form][seat]
            x = np.array(keys) + (i - (len(forms) - 1) / 2) * width
            ax.bar(x, [100 * d[k]["p"] if k in d else 0 for k in keys], width, label=form)
            exact = [
                (xx, 100 * d[k]["exact"])
                for xx, k in zip(x, keys)
                if k in d and d[k]["exact"] is not None
            ]
            if exact:
                ax.scatter(*zip(*exact), marker="_", s=60, color="black", zorder=3)
        ax.set_xticks(keys)
        ax.set_title(charts.label(*SEAT_LABEL[seat]))
        ax.set_xlabel(
            charts.label("向听数（横线：精确值）", "shanten (bars: simulated, ticks: exact)")
        )
    axes[0].set_ylabel("%")
    axes[0].legend(frameon=False, fontsize=8)
    return charts.save(fig, path)


def build_deal_report(
    rules: RuleSet,
    n: int = 200_000,
    seed: int = 0,
    out: Path = Path("reports"),
    progress: bool = True,
    echo: Callable | None = print,
    hands: int = 20_000,
    bots: tuple[str, ...] = REPORT_LINEUP,
) -> dict[str, Any]:
    """Deal-time odds and played hands of ``rules`` (``bots`` the lineup compared); write
    the report, return its summary."""
    t0 = time.perf_counter()
    folder = report_folder(rules, out, hands)
    if hands:
        compile_beside(rules, bots)  # the engine compiles while the deals are studied
    odds = deal_odds(rules, n, seed)
    files = {"shanten": _shanten_chart(odds["shanten"], folder / "shanten_at_deal.png")}
    if "bonus" in odds:
        files["bonus"] = _law_chart(odds["bonus"], BONUS_LABEL, folder / "bonus_at_deal.png")
    if "wild" in odds:
        files["wild"] = _law_chart(odds["wild"], WILD_LABEL, folder / "wild_at_deal.png")
    play = (
        build_play_report(rules, hands, seed, out, bots, progress=progress, echo=None)
        if hands
        else None
    )
    summary = {
        "rules": rules.id,
        "options_hash": rules.options_hash,
        "seed": seed,
        "n_deals": n,
        "mjsim": __version__,
        "deal": odds,
        "play": play,
        "agreement_4se": odds["agreement_4se"],
        "seconds": round(time.perf_counter() - t0, 1),
        "files": {k: v.name for k, v in files.items()},
    }
    return write_report(
        folder,
        summary,
        _markdown(rules, summary),
        echo,
        lambda: _echo(echo, rules, summary, folder),
    )


def _row(label: str, e: dict[str, Any]) -> str:
    ok = "—" if e["exact"] is None else ("yes" if e["within_4se"] else "**no**")
    return f"| {label} | {_pct(e['p'])} | {_pct(e['se'])} | {_pct(e['exact'])} | {ok} |"


def _markdown(rules: RuleSet, s: dict[str, Any]) -> str:
    d = s["deal"]
    lines = [
        f"# The deal and the game — {rules.name} ({rules.name_zh})",
        "",
        provenance(rules, s),
        "",
        rules.summary + ".",
        "",
        "Each simulated share has its standard error (the deal is the unit: the dealer's hand, "
        "or the mean of the three non-dealers'); the exact value comes from enumerating every "
        "dealt hand (bonus tiles: the negative hypergeometric law of one seat's draws). "
        "'Within 4 s.e.' checks the two against each other.",
        "",
    ]
    if "bonus" in d:
        lines += [
            "## Bonus tiles at the deal",
            "",
            "Bonus tiles (flowers; dragons where they are bonus tiles) a seat sets aside "
            "and replaces before the first discard.",
            "",
            *_law_table(d["bonus"], "bonus tiles"),
        ]
        for seat in SEATS:
            e = d["bonus"][seat].get("bonus_win")
            if e:
                lines.append(
                    f"- a win by bonus tiles before the first discard ({e['at']} set "
                    f"aside, 八花齐), {SEAT_LABEL[seat][1]}: exactly {e['exact_fraction']}"
                    f" = {e['exact']:.3g}; simulated {_pct(e['p'])} ± {_pct(e['se'])}"
                )
        lines += ["", f"![bonus tiles at the deal]({s['files']['bonus']})", ""]
    if "wild" in d:
        lines += _wild_markdown(d, s["files"]["wild"])
    lines += [
        "## A legal hand and readiness at the deal",
        "",
        "| quantity | simulated | s.e. | exact | within 4 s.e. |",
        "|---|---:|---:|---:|:---:|",
        _row("the dealer's tiles are a win (天胡 shape)", d["complete"]),
        _row("a non-dealer's tiles are ready", d["ready"]),
        "",
    ]
    lines += [
        "## Shanten at the deal by family",
        "",
        "`all` is the rule set's shanten (the nearest of its winning families); each "
        "family alone follows.",
        "",
    ]
    for form, seats in d["shanten"].items():
        lines += [
            f"### {form}",
            "",
            "| seat | shanten | simulated | s.e. | exact | within 4 s.e. |",
            "|---|---:|---:|---:|---:|:---:|",
        ]
        for seat in SEATS:
            for k, e in seats[seat].items():
                lines.append(_row(f"{SEAT_LABEL[seat][1]} | {k}", e))
        lines.append("")
    lines += [f"![shanten at the deal]({s['files']['shanten']})", ""]
    if "dealer_win" in d:
        lines += _dealer_win_markdown(d["dealer_win"])
    if s.get("play"):
        lines += [play_markdown(rules, s["play"])]
    return "\n".join(lines + report_end(rules, s, d["notes"])) + "\n"


def _law_table(laws: dict[str, Any], count: str) -> list[str]:
    """A count's law per seat class as a Markdown table (and a blank line)."""
    lines = [
        f"| seat | {count} | simulated | s.e. | exact | within 4 s.e. |",
        "|---|---:|---:|---:|---:|:---:|",
    ]
    for seat in SEATS:
        for k, e in laws[seat]["law"].items():
            lines.append(_row(f"{SEAT_LABEL[seat][1]} | {k}", e))
    return lines + [""]


def _wild_markdown(d: dict[str, Any], chart: str) -> list[str]:
    lines = [
        "## Wild tiles at the deal",
        "",
        "Tiles of the wild kind a seat holds once the indicator is turned up (the "
        "indicator is one of the tiles the seat does not hold; exact: every hand and "
        "indicator tile counted).",
        "",
        *_law_table(d["wild"], "wild tiles held"),
    ]
    for seat in SEATS:
        mean = d["wild"][seat]["mean_exact"]
        if mean is not None:
            lines.append(f"- mean wild tiles held, {SEAT_LABEL[seat][1]}: exactly {mean:.4f}")
    return lines + ["", f"![wild tiles at the deal]({chart})", ""]


def _dealer_win_markdown(win: dict[str, Any]) -> list[str]:
    at = win["wild_win"]
    label = {
        "any": "any of these (天胡)",
        "wild_win": f"{at} or more wild tiles held, any shape (as 三财神)",
    }
    lines = [
        "## The dealer's win as dealt (天胡) by type",
        "",
        "The dealer's starting tiles as a win: each winning family complete (the wild "
        "tiles standing in)"
        + (f", or {at} wild tiles held whatever the shape" if at else "")
        + "; one hand may be of several types.",
        "",
        "| type | simulated | s.e. | exact | within 4 s.e. |",
        "|---|---:|---:|---:|:---:|",
    ]
    for name, e in win["types"].items():
        lines.append(_row(label.get(name, f"`{name}` complete"), e))
    lines.append("")
    for name, e in win["types"].items():
        if e["exact_fraction"] is not None:
            lines.append(
                f"- {label.get(name, f'`{name}` complete')}: exactly "
                f"{e['exact_fraction']} = {e['exact']:.4g} ({odds_text(e['exact'])})"
            )
    return lines + [""]


def _echo(echo: Callable, rules: RuleSet, s: dict[str, Any], folder: Path) -> None:
    d = s["deal"]
    table = Table(title=f"the deal — {rules.id}, {s['n_deals']:,} deals (seed {s['seed']})")
    for col in ("quantity", "simulated", "exact", "within 4 s.e."):
        table.add_column(col, justify="left" if col == "quantity" else "right")
    rows = [("dealer complete", d["complete"]), ("non-dealer ready", d["ready"])]
    if "bonus" in d:
        rows += [
            (f"{seat.replace('_', '-')} bonus tiles = {b}", e)
            for seat in SEATS
            for b, e in list(d["bonus"][seat]["law"].items())[:4]
        ]
    if "wild" in d:
        rows += [
            (f"{seat.replace('_', '-')} wild tiles = {h}", e)
            for seat in SEATS
            for h, e in d["wild"][seat]["law"].items()
        ]
        rows += [
            (f"dealer win as dealt: {name}", e) for name, e in d["dealer_win"]["types"].items()
        ]
    for name, e in rows:
        table.add_row(
            name,
            f"{_pct(e['p'])} ± {_pct(e['se'])}",
            _pct(e["exact"]),
            "—" if e["exact"] is None else ("yes" if e["within_4se"] else "NO"),
        )
    echo(table)
    echo(f"report: {folder / 'report.md'}")
