"""The "Expected scores" part of the main report: what a hand is worth, played by bots.

:func:`build_play_report` plays two tables under the same rules and seed:

* **the baseline**: four ``efficiency`` bots, ``n_hands`` hands — the expected net score
  per seat and for the dealer, table rates, win kinds, big wins and the distribution of
  payments. With the same strategy at every seat, differences between seats are position
  and dealer effects only;
* **bots compared**: a mixed lineup (by default efficiency, value, cautious, efficiency)
  in its four seatings (each bot moved one seat on each time), ``n_hands / 4`` hands each,
  on the same hands and so the same walls (common random numbers). Every bot plays every
  seat equally often, so seat effects cancel, and much of the luck of the cards cancels
  in the paired differences.

It writes three charts (atomically) into ``out/<rules id>/`` and returns a JSON-ready
summary; :func:`play_markdown` renders it as the report's section.
:func:`mjsim.report.qishou_report.build_report` calls both.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rich.table import Table

from ..game.config import game_config
from ..game.play import game_length, most_hands, parse_bots, play_frame
from ..game.record import WIN_KINDS, WIN_KINDS_ZH
from ..rules import RuleSet
from ..stats.play_summary import play_summary, rotation_scores, rotations
from ..stats.proportions import percent, rate_ci_percent, rate_percent
from ..stats.waits_study import ready_seats, waits_study, win_by_live_and_shape
from . import charts
from .waits_report import live_chart

#: the lineup whose four seatings are compared
REPORT_LINEUP = ("efficiency", "value", "cautious", "efficiency")
BASELINE = ("efficiency",) * 4
#: hands of the baseline table (the comparison plays as many, split over four seatings)
DEFAULT_HANDS = 20_000


def _payment_chart(s: dict[str, Any], path: Path) -> Path:
    import matplotlib.pyplot as plt

    dist = s["payments"]["per_seat"]
    values = np.array([int(v) for v in dist["histogram"]])
    counts = np.array(list(dist["histogram"].values()))
    share = 100 * counts / counts.sum()
    fig, ax = plt.subplots(figsize=(9, 3.8))
    ax.bar(values, share, width=1.0, color="#4C72B0")
    ax.set_yscale("log")
    q = dist["quantiles"]
    for key, style in (("5%", ":"), ("50%", "--"), ("95%", ":")):
        ax.axvline(q[key], color="black", linestyle=style, linewidth=0.8)
    ax.set_xlabel(charts.label("每手净得分（负数为付出）", "net score per hand (negative: paid)"))
    ax.set_ylabel(charts.label("% 座位·手（对数）", "% of seat-hands (log scale)"))
    ax.set_title(
        charts.label(
            f"每个座位每手的净得分，{s['n_hands']:,} 手（虚线：中位数，点线：5% 与 95%）",
            f"Net score of a seat per hand, {s['n_hands']:,} hands (dashed: median; dotted: 5%, 95%)",
        )
    )
    return charts.save(fig, path)


def _win_kind_chart(s: dict[str, Any], path: Path) -> Path:
    import matplotlib.pyplot as plt

    kinds = [(k, name) for k, name in enumerate(WIN_KINDS) if k and s["win_kind_rates"][name]]
    fig, ax = plt.subplots(figsize=(9, 3.8))
    if kinds:
        rates = [s["win_kind_rates"][name] for _, name in kinds]
        p = np.array([100 * r["p"] for r in rates])
        lo = np.array([100 * r["ci"][0] for r in rates])
        hi = np.array([100 * r["ci"][1] for r in rates])
        x = np.arange(len(kinds))
        ax.bar(x, p, yerr=charts.error_bars(p, lo, hi), capsize=3, color="#55A868")
        ax.set_xticks(
            x, [charts.label(WIN_KINDS_ZH[k], name.replace("_", "\n")) for k, name in kinds]
        )
    ax.set_ylabel(charts.label("% 胡牌的手", "% of won hands"))
    ax.set_title(
        charts.label(
            f"怎么胡的（{sum(s['win_kinds'].values()):,} 手胡牌，95% 区间）",
            f"How hands are won ({sum(s['win_kinds'].values()):,} won hands, 95% intervals)",
        )
    )
    return charts.save(fig, path)


def _bots_chart(c: dict[str, Any], path: Path) -> Path:
    import matplotlib.pyplot as plt

    bots = c["bots"]
    means = np.array([b["mean_score"] for b in bots])
    lo = np.array([b["ci"][0] for b in bots])
    hi = np.array([b["ci"][1] for b in bots])
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    x = np.arange(len(bots))
    ax.bar(
        x,
        means,
        yerr=charts.error_bars(means, lo, hi),
        capsize=4,
        color=["#4C72B0", "#DD8452", "#55A868", "#C44E52"][: len(bots)],
    )
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [b["bot"] for b in bots])
    ax.set_ylabel(charts.label("每手平均净得分", "mean net score per hand"))
    ax.set_title(
        charts.label(
            f"机器人对比：{'、'.join(c['lineup'])}\n四种座次各 {c['n_hands']:,} 手（95% 区间）",
            f"Bots compared: {', '.join(c['lineup'])}\nfour seatings x {c['n_hands']:,} hands "
            "(95% intervals)",
        )
    )
    return charts.save(fig, path)


def check_hands(rules: RuleSet, n_hands: int) -> None:
    """The play part needs two games (the bots are compared over them) and holds its hands
    in memory."""
    least = 2 * game_length(rules)
    if not least <= n_hands <= most_hands(rules):
        raise ValueError(
            f"the expected scores of {rules.id} play two games ({least} hands) to "
            f"{most_hands(rules):,} hands (held in memory on this machine), got --hands "
            f"{n_hands:,}"
        )


def build_play_report(
    rules: RuleSet,
    n_hands: int = DEFAULT_HANDS,
    seed: int = 0,
    out: Path = Path("reports"),
    bots: tuple[str, ...] = REPORT_LINEUP,
    progress: bool = True,
    echo: Callable | None = print,
) -> dict[str, Any]:
    """Play the baseline and the bot comparison, draw the charts; return the summary.

    ``out`` is the reports folder: charts go to ``out/<rules id>/``.
    """
    lineup = parse_bots(bots)
    check_hands(rules, n_hands)
    t0 = time.perf_counter()
    folder = Path(out) / rules.id
    folder.mkdir(parents=True, exist_ok=True)
    charts.setup()
    frame = play_frame(rules, n_hands, seed=seed, bots=BASELINE, progress=progress, readiness=True)
    base = play_summary(frame, rules.id, rules.options_hash, seed, BASELINE)
    seats = ready_seats(frame)
    files = {
        "payments": _payment_chart(base, folder / "payment_distribution.png"),
        "win_kinds": _win_kind_chart(base, folder / "win_kinds.png"),
    }
    waits = None
    if len(seats):
        waits = waits_study(seats, n_hands)
        files["waits"] = live_chart(
            win_by_live_and_shape(seats),
            folder / "waits_by_live.png",
            charts.label(
                f"{rules.id}：听牌后胡牌概率，{n_hands:,} 手（95% 区间）",
                f"{rules.id}: win once ready, {n_hands:,} hands (95% intervals)",
            ),
        )
    compared = None
    if len(set(lineup)) > 1:
        m = max(8, n_hands // 4)
        frames = [
            play_frame(rules, m, seed=seed, bots=seating, progress=progress)
            for seating in rotations(lineup)
        ]
        compared = rotation_scores(frames, lineup)
        files["bots"] = _bots_chart(compared, folder / "bots_compared.png")
    summary = {
        "rules": rules.id,
        "options_hash": rules.options_hash,
        "seed": seed,
        "n_hands": n_hands,
        "baseline": base,
        "bots_compared": compared,
        "waits": waits,
        "seconds": round(time.perf_counter() - t0, 1),
        "files": {k: v.name for k, v in files.items()},
    }
    if echo is not None:
        echo_summary(echo, summary)
    return summary


def _f(x: float | None, digits: int = 3, sign: bool = True) -> str:
    return "—" if x is None else (f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}")


def _mean(e: dict[str, Any]) -> str:
    return f"{_f(e['mean_score'])} ± {_f(e['se'], sign=False)}"


def _ci(e: dict[str, Any]) -> str:
    return f"{_f(e['ci'][0])} … {_f(e['ci'][1])}"


def _figures_markdown(b: dict[str, Any]) -> list[str]:
    """The scoring model's figures (ratios with their s.e. by game and 95% intervals)."""
    lines = [
        f"### What the {b['scoring']} model records",
        "",
        "Each figure is a ratio over the hands played (a share of hands or of wins, or a "
        "mean per win), with its standard error by game (hands of a game depend on each "
        "other) and 95% interval.",
        "",
        "| figure | estimate | s.e. | 95% interval |",
        "|---|---:|---:|---|",
    ]
    for e in b["model_figures"].values():
        if e["value"] is None:
            continue
        k, end = (100, "%") if e["unit"] == "rate" else (1, "")
        lines.append(
            f"| {e['label_zh']} {e['label']} | {k * e['value']:.3f}{end} "
            f"| {k * e['se']:.3f}{end} | {k * e['ci'][0]:.3f} – "
            f"{k * e['ci'][1]:.3f}{end} |"
        )
    return lines + [""]


def play_markdown(rules: RuleSet, p: dict[str, Any]) -> str:
    """The "Expected scores" section of ``report.md`` from :func:`build_play_report`'s summary."""
    b, c = p["baseline"], p["bots_compared"]
    lines = [
        "## Expected scores",
        "",
        (
            f"{b['n_hands']:,} hands played by four `efficiency` bots (seed {p['seed']}), in "
            f"games of {game_config(rules).game_length} hands (game g starts with seat g mod 4 dealing; the dealer then rotates "
            "as the rules say). A score is the net number "
            "of points a seat receives (negative: pays) in one hand, all payments included; the "
            "four seats' scores add up to zero. Each mean has its standard error over hands and a "
            "95% interval; each rate its Wilson interval."
        ),
        "",
        "| seat | mean score per hand | 95% interval | wins | deals in |",
        "|---|---:|---|---:|---:|",
    ]
    for e in b["seats"]:
        lines.append(
            f"| {e['seat']} | {_mean(e)} | {_ci(e)} | {rate_percent(e['win_rate'])} "
            f"| {rate_percent(e['deal_in_rate'])} |"
        )
    d = b["dealer"]
    lines += [
        f"| the dealer (庄家) | {_mean(d)} | {_ci(d)} | {rate_percent(d['win_rate'])} | |",
        "",
    ]
    if d.get("keeps_deal"):
        lines += [f"The dealer deals again after {rate_percent(d['keeps_deal'], 1)} of hands.", ""]
    t = b["mean_turns"]
    lines += [
        "| per hand | estimate | 95% interval |",
        "|---|---:|---|",
        f"| someone wins | {rate_percent(b['win_rate'])} | {rate_ci_percent(b['win_rate'])} |",
        f"| drawn (流局) | {rate_percent(b['draw_rate'])} | {rate_ci_percent(b['draw_rate'])} |",
        (
            f"| someone deals in (点炮) | {rate_percent(b['deal_in_rate'])} "
            f"| {rate_ci_percent(b['deal_in_rate'])} |"
        ),
        (
            f"| self-drawn, of won hands | {rate_percent(b['self_draw_share'])} "
            f"| {rate_ci_percent(b['self_draw_share'])} |"
        ),
        (
            f"| several winners, of won hands | {rate_percent(b['multi_win_rate'])} "
            f"| {rate_ci_percent(b['multi_win_rate'])} |"
        ),
        f"| turns | {_f(t['mean'], 2, False)} ± {_f(t['se'], 2, False)} | |",
        "",
        "### How hands are won",
        "",
        "| win kind | hands | share of won hands | 95% interval |",
        "|---|---:|---:|---|",
    ]
    for k, name in enumerate(WIN_KINDS):
        if k:
            r = b["win_kind_rates"][name]
            lines.append(
                f"| {WIN_KINDS_ZH[k]} {name} | {b['win_kinds'][name]:,} "
                f"| {rate_percent(r)} | {rate_ci_percent(r)} |"
            )
    lines += ["", f"![win kinds]({p['files']['win_kinds']})", ""]
    if b["patterns"]:
        title = b["patterns_title"]
        lines += [
            f"### {title[0].upper()}{title[1:]}",
            "",
            (
                f"Share of wins (one per winner; {b['n_wins']:,} wins) that score each; a hand "
                "may score several."
            ),
            "",
            "| pattern | wins | share | 95% interval |",
            "|---|---:|---:|---|",
        ]
        for pattern in b["patterns"]:
            name, zh = pattern["id"], pattern["name_zh"]
            r = b["big_win_rates"][name]
            lines.append(
                f"| {zh} {name} | {b['big_wins'][name]:,} | {rate_percent(r)} "
                f"| {rate_ci_percent(r)} |"
            )
        a = b["any_big_win"]
        lines += [
            f"| any of them | {a['k'] if a else 0:,} | {rate_percent(a)} | {rate_ci_percent(a)} |",
            "",
        ]
    lines += _figures_markdown(b)
    dist, rec = b["payments"]["per_seat"], b["payments"]["winner_receipt"]
    qs = list(dist["quantiles"])
    lines += [
        "### Payments",
        "",
        "| amount | mean | " + " | ".join(qs) + " |",
        "|---|---:|" + "---:|" * len(qs),
        f"| net score of a seat per hand | {_f(dist['mean'], 2)} | "
        + " | ".join(f"{v:g}" for v in dist["quantiles"].values())
        + " |",
    ]
    if rec.get("n"):
        lines.append(
            f"| a winner's receipt for the win | {_f(rec['mean'], 2)} | "
            + " | ".join(f"{v:g}" for v in rec["quantiles"].values())
            + " |"
        )
    lines += [
        "",
        f"![payment distribution]({p['files']['payments']})",
        "",
        "Mean score per hand by source:",
        "",
        "| seat | " + " | ".join(b["seats"][0]["by_source"]) + " |",
        "|---|" + "---:|" * len(b["seats"][0]["by_source"]),
    ]
    for e in b["seats"]:
        lines.append(
            f"| {e['seat']} | "
            + " | ".join(f"{_f(v['mean'])}" for v in e["by_source"].values())
            + " |"
        )
    lines.append("")
    lines += _waits_markdown(rules, p)
    if c:
        lines += [
            "### Bots compared",
            "",
            (
                f"The lineup {', '.join(f'`{x}`' for x in c['lineup'])} played in its four seatings "
                f"(each bot moved one seat on each time), {c['n_hands']:,} hands each on the same "
                "walls (common random numbers), so every bot plays every seat equally often and "
                "much of the luck of the deal cancels. A bot's score per hand is the average over "
                "its seats and the four seatings; differences are paired hand by hand."
            ),
            "",
            "| bot | mean score per hand | 95% interval |",
            "|---|---:|---|",
        ]
        for e in c["bots"]:
            lines.append(f"| {e['bot']} | {_mean(e)} | {_ci(e)} |")
        for e in c["bot_differences"]:
            lines.append(f"| {e['bots'][0]} − {e['bots'][1]} | {_mean(e)} | {_ci(e)} |")
        lines += ["", f"![bots compared]({p['files']['bots']})", ""]
    sets = "".join(f" --set {k}={v}" for k, v in rules.overrides.items())
    lines.append(
        f"Reproduce the baseline: `mjsim play --rules {rules.id} -n {b['n_hands']} "
        f"--seed {p['seed']}{sets}`"
        + (
            f"; one seating of the comparison: `mjsim play --rules {rules.id} "
            f"-n {c['n_hands']} --seed {p['seed']} --bots {','.join(c['lineup'])}{sets}`"
            if c
            else ""
        )
        + "."
    )
    return "\n".join(lines) + "\n"


def _waits_markdown(rules: RuleSet, p: dict[str, Any]) -> list[str]:
    """The "Waits" subsection: how often a seat got ready, and won from there, by shape."""
    w = p["waits"]
    if w is None:
        return ["### Waits: how good is a ready hand?", "", "No seat became ready.", ""]
    e = {"p": w["win"]["mean"], "ci": w["win"]["ci"]}
    lines = [
        "### Waits: how good is a ready hand?",
        "",
        (
            f"Of the baseline's seat-hands, {100 * w['ready_share']:.1f}% became ready (听牌: "
            "after one of its discards the seat's tiles won on some kind). A ready seat went on "
            f"to win {rate_percent(e)} ({rate_ci_percent(e)}) of those hands "
            f"({w['n_ready']:,} ready seats; s.e. by game). By the shape of the wait when it "
            "first became ready:"
        ),
        "",
        "| wait shape | ready seats | won | 95% interval | self-drawn, of its wins |",
        "|---|---:|---:|---|---:|",
    ]
    drawn = {r["group"]: r for r in w["self_draw_by_shape"]}
    for r in w["by_shape"]:
        e = {"p": r["mean"], "ci": r["ci"]}
        sd = drawn.get(r["group"])
        lines.append(
            f"| {r['group_zh']} {r['group']} | {r['n']:,} | {rate_percent(e)} "
            f"| {rate_ci_percent(e)} | {percent(sd['mean']) if sd else '—'} |"
        )
    sets = "".join(f" --set {k}={v}" for k, v in rules.overrides.items())
    lines += [
        "",
        f"![win once ready by live copies]({p['files']['waits']})",
        "",
        (
            f"The whole study (by live copies, round, concealment and declaration; the "
            f"score once ready; the waits at the deal beside the exact share): `mjsim "
            f"waits-study --rules {rules.id} -n {p['n_hands']} --seed {p['seed']}{sets}`; "
            "with pandas, and a paired follow-up on the same walls: "
            "[notebooks/waits.ipynb](../../notebooks/waits.ipynb)."
        ),
        "",
    ]
    return lines


def echo_summary(echo: Callable, p: dict[str, Any]) -> None:
    b, c = p["baseline"], p["bots_compared"]
    table = Table(
        title=f"expected scores — {p['rules']}, {b['n_hands']:,} hands, "
        f"4 × efficiency (seed {p['seed']})"
    )
    for col in ("seat", "mean score / hand", "95% interval", "wins", "deals in"):
        table.add_column(col, justify="left" if col == "seat" else "right")
    for e in b["seats"]:
        table.add_row(
            str(e["seat"]),
            _mean(e),
            _ci(e),
            rate_percent(e["win_rate"]),
            rate_percent(e["deal_in_rate"]),
        )
    table.add_row(
        "dealer", _mean(b["dealer"]), _ci(b["dealer"]), rate_percent(b["dealer"]["win_rate"]), ""
    )
    echo(table)
    if c:
        bots = Table(
            "bot",
            "mean score / hand",
            "95% interval",
            title=f"bots compared: {', '.join(c['lineup'])}, 4 seatings × {c['n_hands']:,} hands",
        )
        for e in c["bots"]:
            bots.add_row(e["bot"], _mean(e), _ci(e))
        for e in c["bot_differences"]:
            bots.add_row(" − ".join(e["bots"]), _mean(e), _ci(e))
        echo(bots)
    echo(
        f"win rate {rate_percent(b['win_rate'])}, draws {rate_percent(b['draw_rate'])}, "
        f"won on a discard {rate_percent(b['deal_in_rate'])} ({p['seconds']} s)"
    )
