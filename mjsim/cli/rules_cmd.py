"""``mjsim rules list`` and ``mjsim rules show NAME``."""

from __future__ import annotations

import typer
from rich.table import Table

from ..rules import list_rules
from .output import console, emit_json, rules_from, user_errors

app = typer.Typer(help="The rule sets and their options.", no_args_is_help=True)

SET_HELP = "Override an option, e.g. --set cs_birds=4 (repeatable)."


@app.command("list")
@user_errors
def list_cmd(json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Every rule set with its Chinese name, tiles and hand size."""
    presets = list_rules()
    if json:
        emit_json(
            [
                {
                    "id": r.id,
                    "name": r.name,
                    "name_zh": r.name_zh,
                    "tiles": r.tile_set,
                    "hand_size": r.hand_size,
                    "summary": r.summary,
                    "section": r.section,
                }
                for r in presets
            ]
        )
        return
    table = Table(title="mjsim rule sets")
    table.add_column("id", no_wrap=True)
    for col in ("name", "中文", "tiles", "hand", "RULES.md"):
        table.add_column(col)
    for r in presets:
        table.add_row(r.id, r.name, r.name_zh, str(r.tile_set), str(r.hand_size), f"§{r.section}")
    console.print(table)


@app.command("show")
@user_errors
def show_cmd(
    name: str = typer.Argument(..., help="Rule set id, e.g. changsha."),
    settings: list[str] = typer.Option(None, "--set", help=SET_HELP),
    json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Every option of a rule set with its value, default and Chinese name."""
    rules = rules_from(name, settings)
    if json:
        emit_json(rules.to_dict())
        return
    console.print(f"[bold]{rules.id}[/] — {rules.name} {rules.name_zh}: {rules.summary}")
    console.print(
        f"tiles {rules.tile_set}, hand {rules.hand_size}, winning forms: "
        + ", ".join(
            f.form + (f" ({f.pair} pair)" if f.pair != "any" else "") for f in rules.families
        )
        + f"; options hash {rules.options_hash}"
    )
    table = Table()
    table.add_column("option", no_wrap=True)
    for col in ("value", "default", "中文", "meaning", "source"):
        table.add_column(col, overflow="fold")
    for opt in rules.schema:
        value = rules[opt.name]
        shown = f"[bold yellow]{value}[/]" if value != opt.default else str(value)
        table.add_row(opt.name, shown, str(opt.default), opt.name_zh, opt.meaning, opt.source)
    console.print(table)
