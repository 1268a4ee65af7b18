"""``mjsim compare``: what a rule change does, played on the same walls and paired by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from ..game.play import with_rollouts
from ..rules import RulesError
from ..sim import executor
from ..stats.compare import (
    DEFAULT_CHUNK,
    Variant,
    parse_variant,
    run_compare,
    sweep_variants,
)
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
from .play_cmd import BOTS_HELP, SEARCH_ROLLOUTS
from .study_cmd import JSON, QUIET, RULES, SEED, SET

VARIANT_HELP = (
    "A variant: 'name: option=value [option=value ...]' (repeatable), e.g. "
    "--variant 'birds multiply: cs_bird_mode=mul'."
)


def _cell(d: dict[str, Any] | None, unit: str) -> str:
    """A difference as ``+0.033 ± 0.030 ● ×57``: value, 95% half-width, ● when the interval
    excludes 0, the pairing gain."""
    if d is None:
        return "—"
    if d.get("identical"):
        return "0 (same)"
    k = 100 if unit == "rate" else 1
    mark = " ●" if d["excludes_zero"] else ""
    gain = f" ×{d['variance_ratio']:.0f}" if d.get("variance_ratio") else ""
    return f"{k * d['diff']:+.3g} ± {k * (d['ci'][1] - d['diff']):.2g}{mark}{gain}"


def _value(e: dict[str, Any], unit: str) -> str:
    if e.get("value") is None:
        return "—"
    return f"{100 * e['value']:.2f}%" if unit == "rate" else f"{e['value']:.3f}"


def _groups(metrics: list[dict[str, Any]]) -> dict[str, list[int]]:
    """The metrics' indices by group, in order."""
    groups: dict[str, list[int]] = {}
    for j, m in enumerate(metrics):
        groups.setdefault(m["group"], []).append(j)
    return groups


def print_compare(result: dict[str, Any]) -> None:
    """The differences as one rich table per group of metrics."""
    names = [v["name"] for v in result["variants"]]
    head = (
        f"{result['rules']}: {', '.join(names)} against {result['baseline']['name']}, "
        f"{result['n_hands']:,} hands each, seed {result['seed']}"
        + ("" if result["paired"] else " (UNPAIRED)")
    )
    console.print(f"[bold]{head}[/]")
    for group, rows in _groups(result["metrics"]).items():
        items = [result["metrics"][j] for j in rows]
        table = Table(title=group.replace("_", " "), title_justify="left")
        table.add_column("metric")
        table.add_column("baseline", justify="right")
        for name in names:
            table.add_column(f"Δ {name}", justify="right")
        for m in items:
            table.add_row(
                f"{m['metric']} {m['label_zh']}",
                _value(m["baseline"], m["unit"]),
                *(_cell(v["difference"], m["unit"]) for v in m["variants"]),
            )
        console.print(table)
    console.print(
        "[dim]Δ: variant minus baseline ± the 95% half-width (rates in percentage "
        "points); ● the interval excludes 0; ×N: pairing on the same walls made it as "
        "precise as N× more independent hands; 0 (same): identical hands.[/]"
    )
    if "precision" in result:
        p = result["precision"]
        state = "reached" if p["reached"] else f"not reached by {p['max_hands']:,} hands"
        console.print(
            f"precision of {p['metric']}: ±{p['half_width']:.4g} (target ±{p['target']:g}, {state})"
        )
    for note in result["notes"]:
        console.print(f"[yellow]note:[/] {note}")


def compare_cmd(
    rules: str = RULES,
    settings: list[str] = SET,
    variant: list[str] = typer.Option(None, "--variant", "-V", help=VARIANT_HELP),
    sweep: str | None = typer.Option(
        None, "--sweep", help="One variant per value of an option, e.g. --sweep cs_birds=0,2,4."
    ),
    n: int = typer.Option(
        20_000, "-n", min=1, max=MAX_COUNT, help="Hands per variant (without --precision)."
    ),
    seed: int = SEED,
    bots: str = typer.Option("efficiency", "--bots", "-b", help=BOTS_HELP),
    search_rollouts: int | None = SEARCH_ROLLOUTS,
    precision: float | None = typer.Option(
        None,
        "--precision",
        help="Play until this 95% half-width of --metric's difference (or --max-hands).",
    ),
    metric: str = typer.Option(
        "mean_score.dealer", "--metric", help="The metric --precision aims at."
    ),
    max_hands: int = typer.Option(
        1_000_000, "--max-hands", min=1, help="Most hands per variant with --precision."
    ),
    chunk: int = typer.Option(DEFAULT_CHUNK, "--chunk", min=1, help="Hands per chunk."),
    out: Path | None = typer.Option(
        None,
        "--out",
        "-o",
        parser=folder,
        help="Keep every variant's records as Parquet parts here (resumable).",
    ),
    report: Path | None = typer.Option(
        None,
        "--report",
        parser=folder,
        help="Write a Markdown report with charts into this folder (e.g. reports/compare).",
    ),
    unpaired: bool = typer.Option(
        False,
        "--unpaired",
        help="Allow variants that change the tile set (other walls: differences are not paired).",
    ),
    adapt: bool = typer.Option(
        False,
        "--adapt",
        help="Four tuned seats, each rule set with its own player (trained once, kept): the "
        "effect with the players unchanged and adapted, and what the players change "
        "(with --report, a report and its chart).",
    ),
    adapt_budget: int = typer.Option(
        1_000_000, "--adapt-budget", min=1000, max=MAX_COUNT, help="Hands a player trains for."
    ),
    adapt_seed: int = typer.Option(1, "--adapt-seed", min=0, help="The players' training seed."),
    adapt_hands: int | None = typer.Option(
        None,
        "--adapt-hands",
        min=16,
        max=MAX_COUNT,
        help="Hands a candidate plays in each seating each generation of a player's "
        "training (train --hands).",
    ),
    adapt_test_hands: int | None = typer.Option(
        None,
        "--adapt-test-hands",
        min=16,
        max=MAX_COUNT,
        help="Hands (each seating) of a training's test for promotion (train --test-hands).",
    ),
    adapt_from: str | None = typer.Option(
        None,
        "--adapt-from",
        help="Train every rule set's player on from this one (tuned: the shipped player, "
        "tuned:FILE) instead of from the efficiency bot.",
    ),
    players: Path | None = typer.Option(
        None,
        "--players",
        parser=folder,
        help="Where --adapt keeps trained players (default: $MJSIM_PLAYERS or "
        "~/.cache/mjsim/players).",
    ),
    scheduler: str | None = SCHEDULER,
    quiet: bool = QUIET,
    json: bool = JSON,
) -> None:
    """Compare rule variants with the baseline on the same walls: paired differences.

    Every variant plays the same hands (walls, dice, bots) as the baseline (the rule set's
    defaults with --set); each metric's difference comes with its standard error (by game),
    95% interval and how much the pairing saved. With --adapt, players trained for each
    rule set play it too, and the effect is given before and after they adapt.
    """
    base = rules_from(rules, settings)
    baseline = Variant("baseline", base)
    variants = [parse_variant(text, base) for text in variant or []]
    if sweep:
        variants += sweep_variants(sweep, base)
    if not variants:
        raise RulesError("give at least one --variant 'name: option=value' or a --sweep")
    lineup = with_rollouts(bots, search_rollouts)
    progress = not (quiet or json)
    given = {"--adapt-hands": adapt_hands, "--adapt-test-hands": adapt_test_hands}
    given["--adapt-from"] = adapt_from
    if not adapt and any(v is not None for v in given.values()):
        flag = next(k for k, v in given.items() if v is not None)
        raise fail(f"{flag} sets how --adapt trains its players: give --adapt too")
    if adapt:
        if bots != "efficiency" or search_rollouts is not None:
            raise fail("--adapt plays four tuned seats: leave out --bots and --search-rollouts")
        if precision is not None or unpaired:
            raise fail(
                "--adapt plays -n hands on the same walls: leave out --precision and --unpaired"
            )
        start = None
        if adapt_from is not None:
            from .train_cmd import player_to_start

            theta = player_to_start(base, "--adapt-from", adapt_from, any_options=True)
            start = (tuple(float(x) for x in theta), adapt_from)
        run = {
            "baseline": baseline,
            "variants": variants,
            "n": n,
            "seed": seed,
            "train_seed": adapt_seed,
            "budget": adapt_budget,
            "folder": players,
            "out": out,
            "start": start,
            "hands": adapt_hands,
            "test_hands": adapt_test_hands,
        }
        kept: dict[str, Any] = {}
        if out is not None:
            write_resumable(out, lambda: kept.update(r=_adapted(run, scheduler, progress)))
        else:
            kept["r"] = _adapted(run, scheduler, progress)
        result = kept["r"]
        if report is not None:
            from ..report.adapt_report import write_adapt_report

            result["report"] = str(write_adapt_report(result, report))
        if json:
            emit_json(result)
        else:
            print_adapt(result)
            if report is not None:
                console.print(f"report: {result['report']}")
        return
    if report is not None:
        report.mkdir(parents=True, exist_ok=True)  # an unwritable folder fails before playing

    def run() -> dict[str, Any]:
        with executor.cluster(scheduler) as handle:
            return run_compare(
                baseline,
                variants,
                n=n,
                seed=seed,
                bots=lineup,
                chunk=chunk,
                precision=precision,
                metric=metric,
                max_hands=max_hands,
                out=out,
                scheduler=handle,
                unpaired=unpaired,
                progress=progress,
                sweep=sweep.partition("=")[0].strip() if sweep else None,
            )

    holder: dict[str, Any] = {}
    if out is not None:
        write_resumable(out, lambda: holder.update(result=run()))
    else:
        holder["result"] = run()
    result = holder["result"]
    if report is not None:
        from ..report.compare_report import write_compare_report

        result["report"] = str(write_compare_report(result, report))
    if json:
        emit_json(result)
        return
    print_compare(result)
    if report is not None:
        console.print(f"report: {result['report']}")


def _adapted(run: dict[str, Any], scheduler: str | None, progress: bool) -> dict[str, Any]:
    """``compare --adapt``'s run: :func:`mjsim.stats.adapt.adapt_compare` with the keyword
    arguments ``run``, on the cluster at ``scheduler`` where given, with a bar for each
    player trained."""
    from contextlib import ExitStack

    from ..progress import progress_bar
    from ..stats.adapt import adapt_compare

    with ExitStack() as stack:
        handle = stack.enter_context(executor.cluster(scheduler))

        budget = run["budget"]

        def on_training(rules):
            advance = stack.enter_context(
                progress_bar(f"training the {rules.id} player", budget, progress)
            )
            done = [0]

            def show(state, row) -> None:
                advance(min(state.hands, budget) - done[0], f"gen {state.generation}")
                done[0] = min(state.hands, budget)

            return show

        return adapt_compare(**run, scheduler=handle, progress=progress, on_training=on_training)


def print_adapt(result: dict[str, Any]) -> None:
    """Per group of metrics: each variant's effect with the players unchanged and adapted,
    and what the adapted players change under the variant's rules."""
    unchanged, adapted = result["unchanged"], result["adapted"]
    names = [v["name"] for v in unchanged["variants"]]
    console.print(
        f"[bold]{result['rules']}: {', '.join(names)} against the baseline, four tuned seats, "
        f"{unchanged['n_hands']:,} hands each, seed {result['seed']}[/]"
    )
    for p in result["players"]:
        moved = ", ".join(f"{k} {v:g}" for k, v in p["moved"].items()) or "the efficiency point"
        console.print(f"player of {p['rules']}: {moved} ({p['file']})")
    for group, rows in _groups(unchanged["metrics"]).items():
        table = Table(title=group.replace("_", " "), title_justify="left")
        table.add_column("metric")
        table.add_column("baseline", justify="right")
        for name in names:
            for what in ("unchanged", "adapted", "players change"):
                table.add_column(f"Δ {name}: {what}", justify="right")
        for j in rows:
            m = unchanged["metrics"][j]
            cells = []
            for i in range(len(names)):
                cells += [
                    _cell(m["variants"][i]["difference"], m["unit"]),
                    _cell(adapted["metrics"][j]["variants"][i]["difference"], m["unit"]),
                    _cell(
                        result["change"][i]["metrics"][j]["variants"][0]["difference"], m["unit"]
                    ),
                ]
            table.add_row(
                f"{m['metric']} {m['label_zh']}", _value(m["baseline"], m["unit"]), *cells
            )
        console.print(table)
    console.print(
        "[dim]unchanged: the variant played by the baseline's player; adapted: by its own; "
        "players change: its own player against the baseline's under the variant's rules. "
        "Δ ± the 95% half-width (rates in percentage points); ● the interval excludes 0; "
        "×N the pairing's gain.[/]"
    )


def register(app: typer.Typer) -> None:
    app.command("compare")(user_errors(compare_cmd))
