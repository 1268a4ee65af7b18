"""``mjsim advise``: which tile to throw (or whether to claim one), and what each choice is
worth, by play to the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from .output import console, emit_json, rules_from, user_errors
from .study_cmd import JSON, RULES, SEED, SET


def _pm(e: dict[str, Any] | None) -> str:
    return "—" if e is None else f"{e['mean']:+.3f} ± {e['se']:.3f}"


def _ci(e: dict[str, Any] | None) -> str:
    return "—" if e is None else f"{e['ci'][0]:+.3f} … {e['ci'][1]:+.3f}"


def _rows(doc: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The choices weighed and their labels: the discards' tiles, or the claims."""
    rows = doc[doc["decision"] + "s"]
    return rows, [r["tile"] if doc["decision"] == "discard" else r["claim"] for r in rows]


def print_advice(doc: dict[str, Any]) -> None:
    """The discards (or claims) ranked, as a rich table."""
    wild = f", wild {' '.join(doc['wild'])}" if doc["wild"] else ""
    what = doc["decision"]
    on = f"; {doc['tile']} from seat {doc['discarder']}" if what == "claim" else ""
    table = Table(
        title=f"{doc['rules']}: {doc['hand']} — seat {doc['seat']}, turn "
        f"{doc['turn']}{wild}{on}; {doc['rollouts']:,} worlds a {what}, "
        f"seed {doc['seed']}",
        caption="* the efficiency bot's choice; vs efficiency: the paired "
        "difference in the same worlds"
        + ("; shanten, ukeire: after the best discard" if what == "claim" else ""),
    )
    for col in (what, "mean score", "95% interval", "wins", "vs efficiency", "shanten", "ukeire"):
        table.add_column(col, justify="left" if col == what else "right")
    rows, labels = _rows(doc)
    for r, label in zip(rows, labels):
        mark = " *" if r["efficiency_choice"] else ""
        table.add_row(
            f"{label}{mark}",
            _pm(r),
            _ci(r),
            f"{100 * r['win_rate']:.1f}%",
            _pm(r["vs_efficiency"]),
            str(r["shanten"]),
            "—" if r["ukeire"] is None else str(r["ukeire"]),
        )
    console.print(table)
    if doc.get("pays"):
        best = doc["discards"][0]["tile"]
        pays = Table(
            title=f"after {best}: what each winning tile pays seat {doc['seat']}",
            caption="net; a mean where the birds or dice are not known",
        )
        for col in ("wins on", "live", "self-drawn", "on a discard", "patterns"):
            pays.add_column(col, justify="left" if col in ("wins on", "patterns") else "right")
        for r in doc["pays"]:
            pays.add_row(
                r["tile"],
                str(r["live"]),
                _amount(r["self_drawn"]),
                _amount(r["on_discard"]),
                " ".join(dict.fromkeys(r["self_drawn_patterns"] + r["on_discard_patterns"])),
            )
        console.print(pays)


def _amount(x: float | None) -> str:
    return "no win" if x is None else f"{x:+.1f}"


def chart(doc: dict[str, Any], path: Path) -> Path:
    """A bar chart of the discards' (or claims') mean scores with their 95% intervals."""
    import numpy as np

    from ..report import charts

    charts.setup()
    rows, labels = _rows(doc)
    mean = np.array([r["mean"] for r in rows])
    lo = np.array([r["ci"][0] for r in rows])
    hi = np.array([r["ci"][1] for r in rows])
    fig, ax = charts.plt.subplots(figsize=(1.0 + 0.6 * len(rows), 3.6))
    colours = ["#c0392b" if r["efficiency_choice"] else "#34495e" for r in rows]
    ax.bar(range(len(rows)), mean, yerr=charts.error_bars(mean, lo, hi), color=colours, capsize=3)
    ax.set_xticks(range(len(rows)), labels)
    ax.axhline(0, color="#888", lw=0.8)
    ax.set_ylabel(charts.label("每手平均得分", "mean score of the hand"))
    zh, en = (
        ("打哪张", "which discard")
        if doc["decision"] == "discard"
        else (f"碰吃 {doc['tile']}", f"claim {doc['tile']}")
    )
    ax.set_title(
        charts.label(
            f"{zh}：{doc['hand']}（红：效率机器人之选）",
            f"{en}: {doc['hand']} (red: the efficiency bot's)",
        ),
        fontsize=10,
    )
    return charts.save(fig, path)


def advise_cmd(
    hand: str = typer.Argument(
        ...,
        help="The hand of the seat to move: its "
        "concealed tiles (14, or 17 in caishen16, less 3 a "
        "meld) and melds, e.g. '[555p] 123m456p78s99m3s'.",
    ),
    rules: str = RULES,
    settings: list[str] = SET,
    seen: str = typer.Option(
        "", "--seen", help="Tiles already discarded by the others, e.g. 1m9m5p."
    ),
    turn: int | None = typer.Option(
        None, "--turn", help="Discards made so far (default: the number of --seen)."
    ),
    seat: int = typer.Option(0, "--seat", help="The seat to move (0-3)."),
    dealer: int = typer.Option(0, "--dealer", help="The dealer (0-3)."),
    rollouts: int = typer.Option(
        400, "--rollouts", help="Sampled worlds each discard is played out in."
    ),
    claim: str | None = typer.Option(
        None,
        "--claim",
        help="Weigh the claims "
        "of this tile, just discarded (the hand "
        "holds one tile fewer), e.g. 4m.",
    ),
    discarder: int | None = typer.Option(
        None, "--from", help="The seat that discarded the --claim tile (default: the seat's 上家)."
    ),
    seed: int = SEED,
    json: bool = JSON,
    chart_path: Path | None = typer.Option(
        None, "--chart", help="Write a bar chart of the discards (PNG) here."
    ),
) -> None:
    """Each legal discard weighed by play to the end of the hand: mean score with its 95%
    interval, win rate, the paired difference to the efficiency bot's choice, shanten and
    ukeire. With --claim, each pung or chow of that tile and declining it instead. The
    other hands and the wall are sampled from the tiles the seat cannot see; every seat
    plays on as the efficiency bot."""
    from ..game.advise import advise

    doc = advise(
        rules_from(rules, settings),
        hand,
        seen=seen,
        turn=turn,
        seat=seat,
        dealer=dealer,
        rollouts=rollouts,
        seed=seed,
        claim=claim,
        discarder=discarder,
    )
    if chart_path is not None:
        doc["chart"] = str(chart(doc, chart_path))
    if json:
        emit_json(doc)
        return
    print_advice(doc)
    if chart_path is not None:
        console.print(f"chart: {doc['chart']}")


def register(app: typer.Typer) -> None:
    app.command("advise")(user_errors(advise_cmd))
