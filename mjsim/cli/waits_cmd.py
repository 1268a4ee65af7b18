"""``mjsim waits-study``: once a seat is ready, how likely is it to win, and what moves that?"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import typer
from rich.table import Table

from ..game.play import parse_bots
from ..stats.waits_study import READ, deal_waits, ready_seats, waits_study, win_by_live_and_shape
from .output import MAX_COUNT, SCHEDULER, console, emit_json, folder, rules_from, user_errors
from .play_cmd import BOTS_HELP, CHUNK_HELP, played
from .study_cmd import JSON, QUIET, RULES, SEED, SET


def _p(e: dict[str, Any]) -> str:
    return "—" if e["mean"] is None else f"{100 * e['mean']:.2f}%"


def _ci(e: dict[str, Any], k: float = 100, end: str = "%", digits: int = 2) -> str:
    lo, hi = e["ci"]
    return "—" if lo is None else f"{k * lo:.{digits}f} – {k * hi:.{digits}f}{end}"


def _table(
    title: str,
    head: str,
    rows: list[dict],
    name=str,
    value: str = "win",
    count: str = "ready seats",
) -> Table:
    t = Table(head, count, value, "95% interval", title=title)
    for r in rows:
        t.add_row(name(r), f"{r['n']:,}", _p(r), _ci(r))
    return t


def print_study(s: dict[str, Any], title: str) -> None:
    """The study's tables (rich)."""
    top, rtop = s["live_top"], s["round_top"]
    console.print(
        f"[bold]{title}[/]: {s['n_ready']:,} ready seats "
        f"({100 * s['ready_share']:.1f}% of seat-hands); win once ready "
        f"{_p(s['win'])} ({_ci(s['win'])}); s.e. by game"
    )
    console.print(
        _table(
            "win probability once ready, by live copies",
            "live copies",
            s["by_live"],
            lambda r: f"{r['group']}" + ("+" if r["group"] == top else ""),
        )
    )
    console.print(
        _table("by wait shape", "shape", s["by_shape"], lambda r: f"{r['group']} {r['group_zh']}")
    )
    console.print(
        _table(
            "by the round (巡) it became ready",
            "round",
            s["by_round"],
            lambda r: (
                "0 (as dealt)"
                if r["group"] == 0
                else f"{r['group']}" + ("+" if r["group"] == rtop else "")
            ),
        )
    )
    console.print(
        _table(
            "concealed or not",
            "concealed",
            s["by_concealed"],
            lambda r: "concealed 门清" if r["group"] else "with melds",
        )
    )
    if s["by_declared"]:
        console.print(
            _table(
                "declared (报听 / 敲) or not",
                "declared",
                s["by_declared"],
                lambda r: "declared" if r["group"] else "not declared",
            )
        )
    console.print(
        _table(
            "share of the wins by self-draw, by shape",
            "shape",
            s["self_draw_by_shape"],
            lambda r: f"{r['group']} {r['group_zh']}",
            "self-drawn",
            "wins",
        )
    )
    console.print(
        _table(
            "how the hand ended for a ready seat",
            "result",
            s["results"],
            lambda r: f"{r['group']} {r['group_zh']}",
            "share",
        )
    )
    t = Table(
        "ready seats", "n", "mean net score", "95% interval", title="score of a hand once ready"
    )
    for r in [{"group": "all", "group_zh": "", **s["score"]}, *s["score_by_result"]]:
        t.add_row(
            f"{r['group']} {r['group_zh']}", f"{r['n']:,}", f"{r['mean']:+.3f}", _ci(r, 1, "")
        )
    console.print(t)


def print_deal(d: dict[str, Any]) -> None:
    """The deal-time tables (rich)."""
    exact = "" if d["exact"] is None else f"; exact {100 * d['exact']:.4f}%"
    console.print(
        f"[bold]at the deal[/] ({d['n_deals']:,} deals, non-dealers): ready "
        f"{100 * d['ready']['mean']:.4f}% ({_ci(d['ready'], 100, '%', 4)}{exact})"
    )
    for key, head in (("by_waits", "winning kinds"), ("by_live", "live copies")):
        if d[key]:
            console.print(
                _table(
                    f"ready hands at the deal, by {head}",
                    head,
                    d[key],
                    lambda r: str(r["group"]),
                    "share",
                    "of ready hands",
                )
            )


def waits_cmd(
    rules: str = RULES,
    settings: list[str] = SET,
    n: int = typer.Option(20_000, "-n", min=1, max=MAX_COUNT, help="Number of hands played."),
    seed: int = SEED,
    bots: str = typer.Option("efficiency", "--bots", "-b", help=BOTS_HELP),
    deals: int = typer.Option(
        1_000_000, "--deals", min=0, help="Deals for the deal-time waits (0: skip)."
    ),
    chart: Path | None = typer.Option(
        None,
        "--chart",
        help="Write the chart (win probability against live copies, by shape) here.",
    ),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        parser=folder,
        help="Write the records as Parquet parts here (resumable) and study them.",
    ),
    chunk: int | None = typer.Option(None, "--chunk", min=1, help=CHUNK_HELP),
    scheduler: str | None = SCHEDULER,
    quiet: bool = QUIET,
    json: bool = JSON,
) -> None:
    """Play hands with bots and study the waits: the probability of winning once ready by
    live copies, wait shape, round and concealment; self-draw shares; the score once ready;
    and at the deal, the waits of ready hands (exact share beside the sample's)."""
    rs = rules_from(rules, settings)
    if chart is not None and chart.suffix.lower() != ".png":
        raise ValueError(f"--chart must name a .png file, got {chart}")
    lineup = parse_bots(bots)
    frames = played(
        rs, n, seed, lineup, out, chunk, scheduler, not (quiet or json), list(READ), readiness=True
    )
    if isinstance(frames, pd.DataFrame):
        frames = [frames]
    seats = pd.concat([ready_seats(f) for f in frames], ignore_index=True)
    study = waits_study(seats, n)
    study.update(rules=rs.id, seed=seed, bots=list(lineup))
    if deals:
        study["deal"] = deal_waits(rs, deals, seed)
    if chart is not None:
        from ..report.waits_report import live_chart

        study["chart"] = str(
            live_chart(win_by_live_and_shape(seats), chart, f"{rs.id}: {n:,} hands, seed {seed}")
        )
    if json:
        emit_json(study)
        return
    changed = "".join(f", {k}={v}" for k, v in rs.overrides.items())
    print_study(study, f"{rs.id}{changed} — {n:,} hands, seed {seed}, bots {','.join(lineup)}")
    if deals:
        print_deal(study["deal"])
    if chart is not None:
        console.print(f"chart: {study['chart']}")


def register(app: typer.Typer) -> None:
    app.command("waits-study")(user_errors(waits_cmd))
