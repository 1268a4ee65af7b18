"""``mjsim deal``, ``mjsim qishou``, ``mjsim exact`` and ``mjsim report``: dealt-hand studies."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from ..kernels import qishou as Q
from ..sim.deals import DEFAULT_CHUNK, has_qishou, write_deals
from ..sim.executor import cluster
from ..stats.qishou_freq import qishou_study
from .output import (
    MAX_COUNT,
    SCHEDULER,
    console,
    emit_json,
    fail,
    folder,
    rules_from,
    user_errors,
    write_resumable,
)

RULES = typer.Option("changsha", "--rules", "-r", help="Rule set id (see `mjsim rules list`).")
SET = typer.Option(
    None, "--set", help="Override an option, e.g. --set cs_qs_yizhihua=true (repeatable)."
)
SEED = typer.Option(
    0, "--seed", "-s", min=0, help="Random seed: the same seed gives the same deals."
)
JSON = typer.Option(False, "--json", help="Print JSON.")
QUIET = typer.Option(False, "--quiet", "-q", help="No progress bar.")

_ZH = {p.id: p.name_zh for p in Q.TABLE} | {"any_basic": "任一基本起手胡"}


def _fmt_p(p: float | None) -> str:
    return "—" if p is None else f"{100 * p:.3f}%"


def deal_cmd(
    n: int = typer.Option(..., "-n", min=1, max=MAX_COUNT, help="Number of deals."),
    out: Path = typer.Option(
        ..., "--out", "-o", parser=folder, help="Output folder for Parquet parts."
    ),
    rules: str = RULES,
    settings: list[str] = SET,
    seed: int = SEED,
    chunk: int = typer.Option(DEFAULT_CHUNK, "--chunk", min=1, help="Deals per part."),
    scheduler: str | None = SCHEDULER,
    quiet: bool = QUIET,
    json: bool = JSON,
) -> None:
    """Write a dataset of dealt hands (one row per seat per deal) as Parquet parts.

    Interrupted runs resume: run the same command again.
    """
    rs = rules_from(rules, settings)
    with cluster(scheduler) as where:
        write_resumable(
            out,
            lambda: write_deals(
                rs, n, seed, out, chunk=chunk, progress=not (quiet or json), scheduler=where
            ),
        )
    parts = sorted(Path(out).glob("part-*.parquet"))
    if json:
        emit_json(
            {
                "out": str(out),
                "rules": rs.id,
                "options_hash": rs.options_hash,
                "n_deals": n,
                "seed": seed,
                "parts": len(parts),
            }
        )
        return
    console.print(
        f"wrote {n:,} deals ({4 * n:,} seat rows) of {rs.id} in {len(parts)} parts under {out}"
    )


def qishou_cmd(
    rules: str = RULES,
    settings: list[str] = SET,
    n: int = typer.Option(200_000, "-n", min=2, max=MAX_COUNT, help="Number of deals."),
    seed: int = SEED,
    quiet: bool = QUIET,
    json: bool = JSON,
) -> None:
    """起手胡 frequencies per seat class with standard errors, 95% intervals and exact values."""
    rs = rules_from(rules, settings)
    result = qishou_study(rs, n=n, seed=seed, progress=not (quiet or json))
    if json:
        emit_json(result)
        return
    table = Table(title=f"起手胡 — {rs.id}, {n:,} deals, seed {seed} ({result['count_mode']})")
    for col in ("pattern", "seat", "estimate", "± s.e.", "95% interval", "exact", "odds"):
        table.add_column(col, justify="right" if col not in ("pattern", "seat") else "left")
    for pattern, est in result["patterns"].items():
        label = f"{pattern} {_ZH.get(pattern, '')}"
        if est.get("off"):
            table.add_row(label, "off", "", "", "", "", "")
            continue
        for seat in ("dealer", "non_dealer", "any_player"):
            e = est[seat]
            table.add_row(
                label if seat == "dealer" else "",
                seat,
                _fmt_p(e["p"]),
                _fmt_p(e["se"]),
                f"{_fmt_p(e['ci'][0])} – {_fmt_p(e['ci'][1])}",
                _fmt_p(e["exact"]),
                e["odds"],
            )
    console.print(table)


def exact_cmd(rules: str = RULES, settings: list[str] = SET, json: bool = JSON) -> None:
    """Exact deal-time probabilities: 起手胡 patterns, complete and ready hands, shanten."""
    from ..stats.exact import exact_summary

    rs = rules_from(rules, settings)
    result = exact_summary(rs)
    if json:
        emit_json(result)
        return
    console.print(f"[bold]{rs.id}[/]: exact deal-time probabilities")
    for key in ("complete_at_deal", "ready_at_deal"):
        item = result.get(key)
        if item:
            console.print(
                f"{key.replace('_', ' ')}: {item['numerator']:,} / {item['denominator']:,}"
                f" = {item['p']:.6g} ({item['odds']})"
            )
    for label, dist in result.get("shanten", {}).items():
        table = Table("shanten", "probability", title=f"shanten at the deal, {label}")
        for s, p in dist.items():
            table.add_row(str(s), f"{p:.6f}")
        console.print(table)
    if result.get("qishou"):
        table = Table("pattern", "dealer", "non-dealer", title="起手胡 (count ≥ 1)")
        for pattern, seats in result["qishou"].items():
            if seats.get("off"):
                table.add_row(f"{pattern} {_ZH.get(pattern, '')}", "off", "off")
                continue
            table.add_row(
                f"{pattern} {_ZH.get(pattern, '')}",
                _fmt_p(seats["dealer"]["p"]),
                _fmt_p(seats["non_dealer"]["p"]),
            )
        console.print(table)
    for note in result.get("notes", []):
        console.print(f"[dim]{note}[/]")


def report_cmd(
    rules: str = RULES,
    settings: list[str] = SET,
    n: int = typer.Option(1_000_000, "-n", min=1000, max=MAX_COUNT, help="Number of deals."),
    seed: int = SEED,
    out: Path = typer.Option("reports", "--out", "-o", parser=folder, help="Reports folder."),
    hands: int = typer.Option(
        20_000, "--hands", min=0, help="Hands played for the expected scores (0: skip)."
    ),
    bots: str | None = typer.Option(
        None,
        "--bots",
        "-b",
        help="The line-up of the bots-compared section, played in its four seatings "
        "(paired), e.g. search,efficiency,efficiency,efficiency (default "
        "efficiency,value,cautious,efficiency).",
    ),
    quiet: bool = QUIET,
    json: bool = JSON,
    every: bool = typer.Option(
        False,
        "--all",
        help="Every playable rule set's report at its defaults, and the overview README.md.",
    ),
) -> None:
    """The main study: the odds at the deal (起手胡 where the rules have it; bonus tiles,
    legal hands and shanten by family, exact beside simulated), expected scores of played
    hands, charts and a Markdown report. With ``--all``, the atlas: every rule set's report
    and the games side by side (``reports/README.md``)."""
    from ..game.play import parse_bots
    from ..report.deal_report import build_deal_report
    from ..report.play_report import REPORT_LINEUP
    from ..report.qishou_report import build_report

    lineup = REPORT_LINEUP if bots is None else parse_bots(bots)
    if len(set(lineup)) < 2:
        raise fail(f"--bots compares a line-up of two bots or more, got {','.join(lineup)}")
    if bots is not None and hands == 0:
        raise fail("--bots sets the bots compared in the played hands; --hands 0 plays none")
    if every:
        from ..report.atlas import build_all

        if settings or bots is not None:
            raise fail(
                "--all writes every rule set at its defaults with the default bots; "
                "--set and --bots change one rule set's report (give --rules without "
                "--all)"
            )
        rows = build_all(
            n=n,
            seed=seed,
            out=out,
            hands=hands,
            progress=not (quiet or json),
            echo=None if json else console.print,
        )
        if json:
            emit_json(rows)
        return
    rs = rules_from(rules, settings)
    if not has_qishou(rs) and not rs.game_spec:
        raise fail(
            f"the report plays hands of {rs.id!r}, which the game engine does not play "
            "yet; rule sets with a report: the playable ones (`mjsim rules list`)"
        )
    build = build_report if has_qishou(rs) else build_deal_report
    summary = build(
        rs,
        n=n,
        seed=seed,
        out=out,
        progress=not (quiet or json),
        echo=None if json else console.print,
        hands=hands,
        bots=lineup,
    )
    if json:
        emit_json(summary)


def register(app: typer.Typer) -> None:
    for name, func in (
        ("deal", deal_cmd),
        ("qishou", qishou_cmd),
        ("exact", exact_cmd),
        ("report", report_cmd),
    ):
        app.command(name)(user_errors(func))
