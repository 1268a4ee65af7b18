"""``mjsim train``: train a tuned player for a rule set by self-play (:mod:`mjsim.sim.train`)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import typer
from rich.table import Table

from ..progress import progress_bar
from .output import (
    MAX_COUNT,
    SCHEDULER,
    Interrupted,
    console,
    emit_json,
    fail,
    rules_from,
    user_errors,
)
from .study_cmd import JSON, QUIET, RULES, SEED, SET

#: the longest training asked for in minutes (about two years): infinity has no hands
MAX_MINUTES = 1_000_000


def train_cmd(
    rules: str = RULES,
    settings: list[str] = SET,
    budget: int = typer.Option(
        None,
        "--budget",
        min=1,
        max=MAX_COUNT,
        help="Hands to play in training (the same player on any machine).",
    ),
    minutes: float = typer.Option(
        None,
        "--minutes",
        min=0.01,
        max=MAX_MINUTES,
        help="Minutes to train: stops after the first generation past them.",
    ),
    seed: int = SEED,
    hands: int = typer.Option(
        None,
        "--hands",
        min=16,
        max=MAX_COUNT,
        help="Hands a candidate plays in each seating each generation (default 1,000): more "
        "where payments vary much (big multipliers), so the search is not led by luck.",
    ),
    test_hands: int = typer.Option(
        None,
        "--test-hands",
        min=16,
        max=MAX_COUNT,
        help="Hands (each seating) of a test for promotion (default 4,000).",
    ),
    against: str = typer.Option(
        None,
        "--against",
        help="Train one seat against three fixed seats of this player (tuned: the shipped "
        "one, tuned:FILE), starting from it: how much a re-trained seat gains on it, how "
        "exploitable it is.",
    ),
    start: str = typer.Option(
        None,
        "--from",
        help="Start from this player (tuned: the shipped one, tuned:FILE, also a player of "
        "other options of the rule set) instead of the efficiency bot: a player continued, "
        "under changed rules say.",
    ),
    out: Path = typer.Option(
        None, "--out", "-o", help="The player file to write (default: RULES.player.json)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Go on from the checkpoint OUT.train of an interrupted run."
    ),
    scheduler: str = SCHEDULER,
    json_out: bool = JSON,
    quiet: bool = QUIET,
) -> None:
    """Train a tuned player: one seat against three incumbents on the same walls in the four
    seatings, CMA-ES over its parameters; writes a player file for --bots tuned:FILE."""
    from ..game.tuned import PARAMS
    from ..sim.executor import cluster
    from ..sim.train import train

    if budget is None and minutes is None:
        raise fail("give --budget HANDS or --minutes M")
    if budget is not None and minutes is not None:
        raise fail("give --budget or --minutes, not both")
    if against is not None and start is not None:
        raise fail("--against starts from its player: leave out --from")
    rs = rules_from(rules, settings)
    opponents = None if against is None else player_to_start(rs, "--against", against)
    begin = None if start is None else player_to_start(rs, "--from", start, any_options=True)
    path = out if out is not None else Path(f"{rs.id}.player.json")
    if str(path) == "" or path.is_dir():
        raise fail(f"--out must be a file name, got {str(path)!r}")
    if path.exists() and not _is_player_file(path):
        raise fail(
            f"--out {str(path)!r} is a file that is not a player file: give another name, "
            "or remove it (a player file is written over)"
        )
    for flag, name in (("--against", against), ("--from", start)):
        source = (name or "").partition(":")[2]
        if source not in ("", "efficiency") and Path(source).resolve() == path.resolve():
            raise fail(f"--out {str(path)!r} is the {flag} player's file: give another name")
    path.parent.mkdir(parents=True, exist_ok=True)  # before the training, not after it
    total = budget if budget is not None else int(60 * minutes)
    command = shlex.join(["mjsim", "train", *sys.argv[2:]])
    with cluster(scheduler) as handle, progress_bar("training", total, not quiet) as advance:
        done = [0]

        def show(state, row) -> None:
            now = state.hands if budget is not None else int(state.seconds)
            tests = row.get("test", {})
            gain = f"gen {state.generation}, best {row['best_gain']:+.3f}" + "".join(
                f", {name} vs incumbent {t['vs_incumbent']['mean']:+.3f} ± "
                f"{t['vs_incumbent']['se']:.3f}"
                for name, t in tests.items()
            )
            advance(min(now, total) - done[0], gain)
            done[0] = min(now, total)

        try:
            doc = train(
                rs,
                path,
                seed=seed,
                budget=budget,
                minutes=minutes,
                resume=resume,
                scheduler=handle,
                progress=show,
                command=command,
                hands=hands,
                promote_hands=test_hands,
                opponents=opponents,
                start=begin,
            )
        except KeyboardInterrupt:
            raise Interrupted(
                f"interrupted; the last generation is kept in {path}.train: run the same "
                f"command with --resume to go on"
            ) from None
    if json_out:
        emit_json(doc)
        return
    table = Table("parameter", "tuned", "efficiency bot", title=f"tuned player for {rs.id}")
    for p in PARAMS:
        table.add_row(p.name, f"{doc['parameters'][p.name]:.4g}", f"{p.efficiency:.4g}")
    console.print(table)
    final = doc["training"]["final"]
    lo, hi = final["ci95"]
    console.print(
        f"against {final['vs']}, {final['hands']:,} hands × 4 seatings (seed "
        f"{final['seed']}): {final['mean']:+.3f} a hand (95%: {lo:+.3f} … {hi:+.3f}); "
        f"{doc['training']['generations']} generations, {doc['training']['hands_played']:,} "
        f"hands; wrote {path}"
    )


def player_to_start(rs, flag: str, name: str, any_options: bool = False):
    """The parameters of the player ``name`` (``tuned`` or ``tuned:FILE``) a training starts
    from, refused where one lies outside the box a training searches."""
    from ..game.players import player_theta
    from ..game.tuned import PARAMS

    if name.partition(":")[0] != "tuned":
        raise fail(f"{flag} takes tuned or tuned:FILE (a player file), got {name!r}")
    theta = player_theta(rs, name, any_options)
    outside = [p.name for p, v in zip(PARAMS, theta, strict=True) if not p.low <= v <= p.high]
    if outside:
        raise fail(
            f"{flag} {name}: {', '.join(outside)} outside the range a training searches "
            "(mjsim.game.tuned.PARAMS): it could not start from that player"
        )
    return theta


def _is_player_file(path: Path) -> bool:
    """Whether ``path`` holds a player file (of any rules): one a training may write over."""
    import json

    from ..game.players import FORMAT

    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def register(app: typer.Typer) -> None:
    app.command("train")(user_errors(train_cmd))
