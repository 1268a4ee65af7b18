"""The main study: 起手胡 odds and shanten at the deal, as a Markdown report with charts.

``build_report(rules, n, seed, out)`` writes ``out/<rules id>/report.md``, its PNG charts
and ``summary.json`` (every file atomically), and returns the summary.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

from ..game.play import compile_beside
from ..kernels import qishou as Q
from ..rules import RuleSet
from ..sim.deals import deal_frame
from ..sim.parts import write_text
from ..stats.exact import exact_summary
from ..stats.proportions import percent
from ..stats.qishou_freq import agrees, qishou_study, seat_classes
from ..version import __version__
from . import charts
from .compare_report import build_rule_changes, compare_markdown
from .play_report import DEFAULT_HANDS, REPORT_LINEUP, build_play_report, check_hands, play_markdown
from .play_report import echo_summary as echo_play

PINYIN = {
    "banban": "banban hu",
    "sixi": "sixi",
    "liuliushun": "liuliushun",
    "queyise": "que yi se",
    "santong": "santong",
    "yizhihua": "yi zhi hua",
    "bubugao": "bubugao",
    "jintongyunv": "jintong yunü",
    "any_basic": "any basic",
}
ZH = {p.id: p.name_zh for p in Q.TABLE} | {"any_basic": "任一基本"}
SEAT_LABEL = {
    "dealer": ("庄家", "dealer"),
    "non_dealer": ("闲家", "non-dealer"),
    "any_player": ("任一玩家", "any player"),
}
#: this report's percentages: 3 decimals
_pct = partial(percent, digits=3)


def _name(pattern: str) -> str:
    return charts.label(ZH[pattern], PINYIN[pattern])


def _freq_chart(study: dict, path: Path) -> Path:
    import matplotlib.pyplot as plt

    pats = [p for p, e in study["patterns"].items() if not e.get("off")]
    seats = ("dealer", "non_dealer", "any_player")
    fig, ax = plt.subplots(figsize=(9, 4.2))
    width = 0.26
    x = np.arange(len(pats))
    for j, seat in enumerate(seats):
        ps = np.array([study["patterns"][p][seat]["p"] for p in pats]) * 100
        lo = np.array([study["patterns"][p][seat]["ci"][0] for p in pats]) * 100
        hi = np.array([study["patterns"][p][seat]["ci"][1] for p in pats]) * 100
        ax.bar(
            x + (j - 1) * width,
            ps,
            width,
            yerr=charts.error_bars(ps, lo, hi),
            capsize=2,
            label=charts.label(*SEAT_LABEL[seat]),
        )
        exact = [study["patterns"][p][seat].get("exact") for p in pats]
        ex_x = [x[i] + (j - 1) * width for i, e in enumerate(exact) if e is not None]
        ex_y = [100 * e for e in exact if e is not None]
        if ex_x:
            ax.scatter(
                ex_x,
                ex_y,
                marker="_",
                s=220,
                color="black",
                zorder=3,
                label=charts.label("精确值", "exact") if j == 0 else None,
            )
    ax.set_xticks(x, [_name(p) for p in pats])
    ax.set_ylabel("%")
    ax.set_title(
        charts.label(
            f"起手胡频率（{study['n_deals']:,} 局，95% 区间）",
            f"Starting-hand wins ({study['n_deals']:,} deals, 95% intervals)",
        )
    )
    ax.legend(frameon=False)
    return charts.save(fig, path)


def _shanten_chart(frame, exact: dict, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
    for ax, (is_dealer, key, title) in zip(
        axes,
        (
            (True, "14 tiles", ("庄家 14 张", "dealer, 14 tiles")),
            (False, "13 tiles", ("闲家 13 张", "non-dealer, 13 tiles")),
        ),
    ):
        values = frame.loc[frame["dealer"] == is_dealer, "shanten"].to_numpy()
        ks = np.arange(values.min(), values.max() + 1)
        freq = np.array([(values == k).mean() for k in ks]) * 100
        ax.bar(ks, freq, color="#4C72B0", label=charts.label("模拟", "simulated"))
        dist = exact.get(key, {})
        if dist:
            ax.scatter(
                list(dist),
                [100 * p for p in dist.values()],
                marker="_",
                s=300,
                color="black",
                zorder=3,
                label=charts.label("精确值", "exact"),
            )
        ax.set_xticks(ks)
        ax.set_title(charts.label(*title))
        ax.set_xlabel(charts.label("向听数", "shanten"))
    axes[0].set_ylabel("%")
    axes[0].legend(frameon=False)
    return charts.save(fig, path)


def _optional_chart(base: dict, full: dict, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6))
    seats = ("dealer", "non_dealer", "any_player")
    x = np.arange(len(seats))
    for j, (study, name) in enumerate(
        ((base, ("基本四种", "four basic")), (full, ("加上约定四种", "with the four optional")))
    ):
        ps = [100 * study[s]["p"] for s in seats]
        ax.bar(x + (j - 0.5) * 0.38, ps, 0.38, label=charts.label(*name))
    ax.set_xticks(x, [charts.label(*SEAT_LABEL[s]) for s in seats])
    ax.set_ylabel("%")
    ax.set_title(charts.label("至少一个起手胡", "At least one starting-hand win"))
    ax.legend(frameon=False)
    return charts.save(fig, path)


def _any_pattern(rules: RuleSet, frame) -> dict[str, Any]:
    """P(any enabled 起手胡) per seat class from a deal frame (same deals as the study)."""
    n = len(frame) // 4
    cols = [f"qs_{p}" for p, on in zip(Q.PATTERNS, Q.qishou_config(rules).enabled) if on]
    hit = (frame[cols].to_numpy() > 0).any(axis=1).reshape(n, 4)
    return seat_classes(hit)


def build_report(
    rules: RuleSet,
    n: int = 1_000_000,
    seed: int = 0,
    out: Path = Path("reports"),
    progress: bool = True,
    echo: Callable | None = print,
    hands: int = DEFAULT_HANDS,
    bots: tuple[str, ...] = REPORT_LINEUP,
) -> dict[str, Any]:
    """Run the study and write the report; return its summary (also ``summary.json``).

    ``hands`` > 0 adds the "Expected scores" section (:mod:`mjsim.report.play_report`,
    ``bots`` the line-up compared), its summary under the key ``play``, and the "Rule
    changes" section
    (:func:`mjsim.report.compare_report.build_rule_changes`, ``hands`` hands per variant),
    under ``rule_changes``.
    """
    t0 = time.perf_counter()
    folder = report_folder(rules, out, hands)
    if hands:
        compile_beside(rules, bots)  # the engine compiles while the deals are studied
    study = qishou_study(rules, n=n, seed=seed, progress=progress)
    exact = exact_summary(rules)
    m = min(n, 200_000)
    frame = deal_frame(rules, m, seed)
    optional = rules.with_options(**{p.option: True for p in Q.TABLE if not p.basic})
    any_base = _any_pattern(rules, frame)
    any_full = _any_pattern(optional, deal_frame(optional, m, seed))
    files = {
        "frequencies": _freq_chart(study, folder / "qishou_frequencies.png"),
        "shanten": _shanten_chart(frame, exact.get("shanten", {}), folder / "shanten_at_deal.png"),
        "optional": _optional_chart(any_base, any_full, folder / "optional_patterns.png"),
    }
    checks = {
        p: all(agrees(e[s]) for s in ("dealer", "non_dealer"))
        for p, e in study["patterns"].items()
        if not e.get("off")
    }
    play = (
        build_play_report(rules, hands, seed, out, bots, progress=progress, echo=None)
        if hands
        else None
    )
    changes = build_rule_changes(rules, hands, seed, folder, progress) if hands else None
    summary = {
        "rules": rules.id,
        "options_hash": rules.options_hash,
        "seed": seed,
        "n_deals": n,
        "mjsim": __version__,
        "qishou": study,
        "exact": exact,
        "any_pattern": {"enabled": any_base, "with_optional": any_full, "n_deals": m},
        "agreement_4se": checks,
        "seconds": round(time.perf_counter() - t0, 1),
        "files": {k: v.name for k, v in files.items()},
    }
    if play is not None:
        summary["play"] = play
        summary["rule_changes"] = changes
    return write_report(
        folder,
        summary,
        _markdown(rules, summary),
        echo,
        lambda: _echo_summary(echo, rules, summary, folder),
    )


def report_folder(rules: RuleSet, out: Path, hands: int) -> Path:
    """``out/<rules id>/``, made, after checking the number of ``hands`` to play (0: none);
    the charts' style set."""
    if hands:
        check_hands(rules, hands)
    folder = Path(out) / rules.id
    folder.mkdir(parents=True, exist_ok=True)
    charts.setup()
    return folder


def portable(summary: dict[str, Any]) -> dict[str, Any]:
    """``summary`` without its timings (``seconds``, its own and its played hands').

    >>> portable({"seed": 0, "seconds": 3.1, "play": {"seconds": 1.0, "n_hands": 8}})
    {'seed': 0, 'play': {'n_hands': 8}}
    """
    out = {k: v for k, v in summary.items() if k != "seconds"}
    if isinstance(out.get("play"), dict):
        out["play"] = {k: v for k, v in out["play"].items() if k != "seconds"}
    return out


def write_report(
    folder: Path,
    summary: dict[str, Any],
    markdown: str,
    echo: Callable | None,
    echo_rest: Callable[[], None],
) -> dict[str, Any]:
    """Write ``summary.json`` and ``report.md`` (atomically); with ``echo``, show the played
    hands' summary (if any), then call ``echo_rest``. Returns ``summary``. The file leaves
    out the run's timings (``seconds``, the machine's, not the run's): rerun on an unchanged
    tree, a report rewrites the same bytes."""
    write_text(folder / "summary.json", json.dumps(portable(summary), indent=2, ensure_ascii=False))
    write_text(folder / "report.md", markdown)
    if echo is not None:
        if summary.get("play") is not None:
            echo_play(echo, summary["play"])
        echo_rest()
    return summary


def _markdown(rules: RuleSet, s: dict[str, Any]) -> str:
    study, exact = s["qishou"], s["exact"]
    lines = [
        f"# 起手胡 and the deal — {rules.name} ({rules.name_zh})",
        "",
        provenance(rules, s),
        "",
        rules.summary + ".",
        "",
        "Each estimate is the share of hands with a count of at least one, with its standard",
        "error and 95% Wilson interval; the exact value comes from enumerating every dealt hand",
        "(per-suit enumeration weighted by ∏C(4,c)). The four hands of a table are dependent, so",
        "'any player' has no exact value here.",
        "",
        "## Starting-hand wins (起手胡)",
        "",
        "| pattern | seat | estimate | s.e. | 95% interval | exact | odds | within 4 s.e. |",
        "|---|---|---:|---:|---|---:|---:|:---:|",
    ]
    for pattern, est in study["patterns"].items():
        name = f"{ZH[pattern]} {pattern}"
        if est.get("off"):
            lines.append(f"| {name} | off (option) | | | | | | |")
            continue
        for seat in ("dealer", "non_dealer", "any_player"):
            e = est[seat]
            ok = "—" if e["exact"] is None else ("yes" if agrees(e) else "**no**")
            lines.append(
                f"| {name if seat == 'dealer' else ''} | {seat.replace('_', '-')} | "
                f"{_pct(e['p'])} | {_pct(e['se'])} | {_pct(e['ci'][0])} – {_pct(e['ci'][1])} "
                f"| {_pct(e['exact'])} | {e['odds']} | {ok} |"
            )
    lines += ["", f"![起手胡 frequencies]({s['files']['frequencies']})", ""]
    lines += ["## Shanten at the deal", ""]
    for key in ("complete_at_deal", "ready_at_deal"):
        if key in exact:
            e = exact[key]
            lines.append(
                f"- {key.replace('_', ' ')}: exactly {e['numerator']:,} / "
                f"{e['denominator']:,} = {e['p']:.4g} ({e['odds']})"
            )
    if exact.get("shanten"):
        keys = sorted({int(k) for d in exact["shanten"].values() for k in d})
        heads = list(exact["shanten"])
        lines += ["", "| shanten | " + " | ".join(heads) + " |", "|---:|" + "---:|" * len(heads)]
        for k in keys:
            lines.append(
                f"| {k} | "
                + " | ".join(_pct(exact["shanten"][h].get(k, 0.0)) for h in heads)
                + " |"
            )
    lines += ["", f"![shanten at the deal]({s['files']['shanten']})", ""]
    a, f = s["any_pattern"]["enabled"], s["any_pattern"]["with_optional"]
    lines += [
        "## What the optional patterns add",
        "",
        f"On {s['any_pattern']['n_deals']:,} deals (the same walls for both), the share of hands with at least one 起手胡:",
        "",
        "| seat | enabled patterns | with 三同, 一枝花, 步步高, 金童玉女 |",
        "|---|---:|---:|",
    ]
    for seat in ("dealer", "non_dealer", "any_player"):
        lines.append(
            f"| {seat.replace('_', '-')} | {_pct(a[seat]['p'])} ± {_pct(a[seat]['se'])} "
            f"| {_pct(f[seat]['p'])} ± {_pct(f[seat]['se'])} |"
        )
    lines += ["", f"![optional patterns]({s['files']['optional']})", ""]
    if s.get("play"):
        lines += [play_markdown(rules, s["play"])]
    if s.get("rule_changes"):
        lines += [compare_markdown(s["rule_changes"], s["rule_changes"]["files"], level=2)]
    return "\n".join(lines + report_end(rules, s, exact.get("notes", []))) + "\n"


def provenance(rules: RuleSet, s: dict[str, Any]) -> str:
    """The line under a report's title: the rule set and its changed options, the run (deals,
    seed, mjsim version). No date and no timing: the same run writes the same report."""
    changed = ", ".join(f"{k}={v}" for k, v in rules.overrides.items())
    return (
        f"Rule set `{rules.id}`, options hash `{rules.options_hash}`"
        + (f" (changed: {changed})" if rules.overrides else " (defaults)")
        + f"; {s['n_deals']:,} simulated deals, seed {s['seed']}; mjsim {s['mjsim']}."
    )


def report_end(rules: RuleSet, s: dict[str, Any], notes: list[str]) -> list[str]:
    """The last lines of a report: its notes, and the command that reproduces it."""
    lines = ["## Notes", ""] + [f"- {n}" for n in notes] + [""] if notes else []
    compared = (s.get("play") or {}).get("bots_compared")
    lineup = tuple(compared["lineup"]) if compared else REPORT_LINEUP
    return lines + [
        f"Reproduce: `mjsim report --rules {rules.id} -n {s['n_deals']} "
        f"--seed {s['seed']} --hands {s['play']['n_hands'] if s.get('play') else 0}"
        + (f" --bots {','.join(lineup)}" if lineup != REPORT_LINEUP else "")
        + "".join(f" --set {k}={v}" for k, v in rules.overrides.items())
        + "`."
    ]


def _echo_summary(echo: Callable, rules: RuleSet, s: dict[str, Any], folder: Path) -> None:
    table = Table(title=f"起手胡 — {rules.id}, {s['n_deals']:,} deals (seed {s['seed']})")
    for col in ("pattern", "dealer", "non-dealer", "any player", "exact (dealer / non-dealer)"):
        table.add_column(col, justify="left" if col == "pattern" else "right")
    for pattern, est in s["qishou"]["patterns"].items():
        if est.get("off"):
            table.add_row(f"{pattern} {ZH[pattern]}", "off", "off", "off", "")
            continue
        cells = [
            f"{_pct(est[seat]['p'])} ±{_pct(est[seat]['se'])}"
            for seat in ("dealer", "non_dealer", "any_player")
        ]
        table.add_row(
            f"{pattern} {ZH[pattern]}",
            *cells,
            f"{_pct(est['dealer']['exact'])} / {_pct(est['non_dealer']['exact'])}",
        )
    echo(table)
    ex = s["exact"]
    for key in ("complete_at_deal", "ready_at_deal"):
        if key in ex:
            echo(f"{key.replace('_', ' ')}: {ex[key]['p']:.4g} ({ex[key]['odds']}), exact")
    bad = [p for p, ok in s["agreement_4se"].items() if not ok]
    echo(
        "simulation agrees with the exact values within 4 s.e."
        if not bad
        else f"[bold red]outside 4 s.e. of exact: {', '.join(bad)}[/]"
    )
    echo(f"report: {folder / 'report.md'} ({s['seconds']} s)")
