"""``mjsim play``: play full hands with bots and summarise what a hand is worth per seat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import typer
from rich.table import Table

from ..game.play import columns, play_frame, with_rollouts
from ..game.policy import DEFAULT_ROLLOUTS, MAX_ROLLOUTS
from ..game.record import WIN_KINDS, WIN_KINDS_ZH
from ..sim.executor import cluster
from ..sim.games import DEFAULT_CHUNK, iter_games, write_games
from ..stats.play_summary import play_summary, summary_columns
from ..stats.proportions import rate_ci_percent, rate_percent
from .output import (
    MAX_COUNT,
    SCHEDULER,
    console,
    emit_json,
    folder,
    rules_from,
    user_errors,
    write_resumable,
)
from .study_cmd import JSON, QUIET, RULES, SEED, SET

BOTS_HELP = (
    "Bots for seats 0-3, e.g. efficiency,value,cautious,efficiency, or one name for "
    "all four (efficiency, value, cautious, search, tuned; search:N plays N worlds a "
    "decision; tuned:FILE plays a player file of mjsim train, tuned the rule set's "
    "shipped player)."
)
CHUNK_HELP = (
    f"Hands per part (rounded up to whole games); default {DEFAULT_CHUNK:,}, fewer with "
    "search seats (about 30 s of their play), so an interrupted run loses little."
)
SEARCH_ROLLOUTS = typer.Option(
    None,
    "--search-rollouts",
    min=1,
    max=MAX_ROLLOUTS,
    help=f"Worlds a search seat plays out per discard, at most "
    f"(default {DEFAULT_ROLLOUTS}); sets every search "
    f"seat's budget.",
)


def _pm(e: dict[str, Any] | None, digits: int = 3) -> str:
    if e is None or e.get("mean_score") is None:
        return "—"
    se = "" if e.get("se") is None else f" ± {e['se']:.{digits}f}"
    return f"{e['mean_score']:+.{digits}f}{se}"


def _ci(e: dict[str, Any]) -> str:
    lo, hi = e["ci"]
    return "—" if lo is None else f"{lo:+.3f} … {hi:+.3f}"


def print_summary(s: dict[str, Any], title: str) -> None:
    """The summary as rich tables: seats, bots, table rates, win kinds, big wins."""
    seats = Table(title=title)
    for col in ("seat", "bot", "mean score / hand", "95% interval", "wins", "deals in"):
        seats.add_column(col, justify="left" if col in ("seat", "bot") else "right")
    for e in s["seats"]:
        seats.add_row(
            str(e["seat"]),
            e["bot"],
            _pm(e),
            _ci(e),
            rate_percent(e["win_rate"]),
            rate_percent(e["deal_in_rate"]),
        )
    d = s["dealer"]
    seats.add_row("dealer", "", _pm(d), _ci(d), rate_percent(d["win_rate"]), "")
    console.print(seats)
    if len(s["bots"]) > 1:
        bots = Table(title="bots (per-hand average over their seats)")
        for col in ("bot", "seats", "mean score / hand", "95% interval"):
            bots.add_column(col, justify="left" if col in ("bot", "seats") else "right")
        for e in s["bots"]:
            bots.add_row(e["bot"], ",".join(map(str, e["seats"])), _pm(e), _ci(e))
        for e in s["bot_differences"]:
            bots.add_row(" − ".join(e["bots"]), "paired", _pm(e), _ci(e))
        console.print(bots)
    rates = Table("per hand", "estimate", "95% interval", title="the table")
    for key in ("win_rate", "draw_rate", "deal_in_rate", "self_draw_share", "multi_win_rate"):
        rates.add_row(
            key.replace("_", " ")
            + (" (of won hands)" if key in ("self_draw_share", "multi_win_rate") else ""),
            rate_percent(s[key]),
            rate_ci_percent(s[key]),
        )
    t = s["mean_turns"]
    rates.add_row("turns", f"{t['mean']:.2f} ± {t['se'] or 0:.2f}", "")
    q = s["payments"]["per_seat"].get("quantiles", {})
    if q:
        rates.add_row(
            "net payment of a seat, 5% / 50% / 95%",
            f"{q['5%']:g} / {q['50%']:g} / {q['95%']:g}",
            "",
        )
    console.print(rates)
    kinds = Table(
        "win kind",
        "hands",
        "share of won hands",
        "95% interval",
        title=f"win kinds ({sum(s['win_kinds'].values()):,} won hands)",
    )
    for k, name in enumerate(WIN_KINDS):
        if k:
            r = s["win_kind_rates"][name]
            kinds.add_row(
                f"{name} {WIN_KINDS_ZH[k]}",
                f"{s['win_kinds'][name]:,}",
                rate_percent(r),
                rate_ci_percent(r),
            )
    console.print(kinds)
    big = Table(
        "pattern",
        "wins",
        "share of wins",
        "95% interval",
        title=f"{s['patterns_title']}, {s['n_wins']:,} wins (one per winner)",
    )
    for p in s["patterns"]:
        name, zh = p["id"], p["name_zh"]
        r = s["big_win_rates"][name]
        big.add_row(f"{name} {zh}", f"{s['big_wins'][name]:,}", rate_percent(r), rate_ci_percent(r))
    big.add_row(
        "any of them",
        f"{s['any_big_win']['k'] if s['any_big_win'] else 0:,}",
        rate_percent(s["any_big_win"]),
        rate_ci_percent(s["any_big_win"]),
    )
    if s["patterns"]:
        console.print(big)
    figures = Table(
        "figure",
        "estimate",
        "95% interval",
        title=f"the {s['scoring']} model's figures (s.e. by game)",
    )
    for e in s["model_figures"].values():
        if e["value"] is None:
            continue
        k, end = (100, "%") if e["unit"] == "rate" else (1, "")
        figures.add_row(
            f"{e['label']} {e['label_zh']}",
            f"{k * e['value']:.3f}{end}",
            f"{k * e['ci'][0]:.3f} – {k * e['ci'][1]:.3f}{end}",
        )
    console.print(figures)


def played(
    rs,
    n: int,
    seed: int,
    lineup: tuple[str, ...],
    out: Path | None,
    chunk: int | None,
    scheduler: str | None,
    progress: bool,
    read: list[str],
    readiness: bool = False,
) -> pd.DataFrame | Iterator[pd.DataFrame]:
    """The hands a verb studies: played in memory (one frame), or with ``out`` written as
    resumable Parquet parts (here or on ``scheduler``) and read back a part at a time, the
    columns ``read`` only (flat memory); the readiness columns with ``readiness``."""
    if out is None:
        if scheduler is not None:
            raise ValueError(
                "--scheduler needs --out (the records are written there as Parquet parts)"
            )
        return play_frame(rs, n, seed=seed, bots=lineup, progress=progress, readiness=readiness)
    with cluster(scheduler) as where:
        write_resumable(
            out,
            lambda: write_games(
                rs,
                n,
                seed,
                out,
                bots=lineup,
                chunk=chunk,
                progress=progress,
                scheduler=where,
                readiness=readiness,
            ),
        )
    return iter_games(out, read)


def play_cmd(
    rules: str = RULES,
    settings: list[str] = SET,
    n: int = typer.Option(10_000, "-n", min=1, max=MAX_COUNT, help="Number of hands."),
    seed: int = SEED,
    bots: str = typer.Option("efficiency", "--bots", "-b", help=BOTS_HELP),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        parser=folder,
        help="Write the records as Parquet parts here (resumable) and summarise from them.",
    ),
    chunk: int | None = typer.Option(None, "--chunk", min=1, help=CHUNK_HELP),
    scheduler: str | None = SCHEDULER,
    readiness: bool = typer.Option(
        False,
        "--readiness",
        help="Record the readiness columns (ready_*: "
        "when each seat became ready, its waits and "
        "their shape) in the --out records; about a "
        "fifth slower.",
    ),
    search_rollouts: int | None = SEARCH_ROLLOUTS,
    quiet: bool = QUIET,
    json: bool = JSON,
) -> None:
    """Play hands with bots and summarise expected scores per seat and per bot.

    Hands are played in games (8 hands; the dealer rotates inside a game). With --out the
    records are written as Parquet parts; an interrupted run resumes when run again.
    """
    rs = rules_from(rules, settings)
    lineup = with_rollouts(bots, search_rollouts)
    frame = played(
        rs,
        n,
        seed,
        lineup,
        out,
        chunk,
        scheduler,
        not (quiet or json),
        summary_columns(columns(rs)),
        readiness,
    )
    summary = play_summary(frame, rs.id, rs.options_hash, seed, lineup)
    if out is not None:
        summary["out"] = str(out)
        summary["parts"] = len(list(Path(out).glob("part-*.parquet")))
    if json:
        emit_json(summary)
        return
    changed = "".join(f", {k}={v}" for k, v in rs.overrides.items())
    print_summary(summary, f"{rs.id}{changed} — {n:,} hands, seed {seed}: net score per hand")
    if out is not None:
        console.print(f"records of {n:,} hands in {summary['parts']} parts under {out}")


def register(app: typer.Typer) -> None:
    app.command("play")(user_errors(play_cmd))
