"""``mjsim shanten``, ``mjsim waits``, ``mjsim ukeire`` and ``mjsim decompose`` for one hand."""

from __future__ import annotations

import typer
from rich.table import Table

from ..decomposition import decompose
from ..efficiency import ukeire, waits
from ..evaluate import shanten
from ..kernels import shanten as K
from ..notation import parse_hand, to_chinese, to_compact
from ..progress import compile_notice
from ..tiles import zh_name
from .output import console, emit_json, rules_from, user_errors

HAND = typer.Argument(
    ..., help="A hand, e.g. '123m456p789s1122z', '[555p] 123m…' or '一万二万三万…'."
)
RULES = typer.Option("generic", "--rules", "-r", help="Rule set id (see `mjsim rules list`).")
SET = typer.Option(None, "--set", help="Override an option, e.g. --set cs_birds=4 (repeatable).")
FORM = typer.Option(None, "--form", help="One winning family only, e.g. seven_pairs.")
WILD = typer.Option(None, "--wild", help="Wildcard kinds held as free tiles, e.g. 7z.")
VISIBLE = typer.Option(
    None, "--visible", help="Tiles seen elsewhere (discards, melds), e.g. 5s5s1z."
)
JSON = typer.Option(False, "--json", help="Print JSON.")


#: first compiles of the hand verbs' kernels, cold, one at a time (2026-12-06): the
#: shanten kernel 10 s, the waits and tile-efficiency drivers about 20 s each
SHANTEN_SECONDS = 10
WAITS_SECONDS = 20


def _label(kind: int, tile: str) -> str:
    return f"{tile} {zh_name(kind)}"


def _shanten_word(value: int | None) -> str:
    if value is None:
        return "out of reach"
    return {-1: "complete (和了)", 0: "ready (听牌)"}.get(value, f"{value}-shanten ({value}向听)")


def shanten_cmd(
    hand: str = HAND,
    rules: str = RULES,
    settings: list[str] = SET,
    form: str = FORM,
    wild: str = WILD,
    json: bool = JSON,
) -> None:
    """Exact shanten (向听) of a 13- or 14-tile hand under a rule set."""
    rs = rules_from(rules, settings)
    parsed = parse_hand(hand, rs)
    with compile_notice(K.hand_cost, "the shanten kernel", SHANTEN_SECONDS):
        value = shanten(parsed, rs, form=form, wild=wild)
    per_form = {f.form: shanten(parsed, rs, form=f.form, wild=wild) for f in rs.families}
    if json:
        emit_json(
            {
                "hand": to_compact(parsed),
                "rules": rs.id,
                "options_hash": rs.options_hash,
                "form": form,
                "shanten": value,
                "by_form": per_form,
            }
        )
        return
    console.print(f"{to_compact(parsed)}  {to_chinese(parsed)}")
    console.print(f"[bold]{rs.id}[/]: {_shanten_word(value)}")
    if form is None and len(per_form) > 1:
        table = Table("form", "shanten")
        for name, v in per_form.items():
            table.add_row(name, "—" if v is None else str(v))
        console.print(table)


def waits_cmd(
    hand: str = HAND,
    rules: str = RULES,
    settings: list[str] = SET,
    visible: str = VISIBLE,
    form: str = FORM,
    wild: str = WILD,
    json: bool = JSON,
) -> None:
    """The winning tiles (听牌) of a ready 13-tile hand, with live copies left."""
    rs = rules_from(rules, settings)
    parsed = parse_hand(hand, rs)
    with compile_notice(None, "the waits kernel", WAITS_SECONDS):
        found = waits(parsed, rs, visible=visible, form=form, wild=wild)
    if json:
        emit_json(
            {
                "hand": to_compact(parsed),
                "rules": rs.id,
                "ready": bool(found),
                "waits": [{"tile": w.tile, "live": w.live} for w in found],
                "live_total": sum(w.live for w in found),
            }
        )
        return
    if not found:
        console.print(
            f"{to_compact(parsed)} is not ready: "
            f"{_shanten_word(shanten(parsed, rs, form=form, wild=wild))}"
        )
        return
    table = Table("wait", "live", title=f"{to_compact(parsed)} — {rs.id}")
    for w in found:
        table.add_row(_label(w.kind, w.tile), str(w.live))
    table.add_row("[bold]total[/]", f"[bold]{sum(w.live for w in found)}[/]")
    console.print(table)


def ukeire_cmd(
    hand: str = HAND,
    rules: str = RULES,
    settings: list[str] = SET,
    visible: str = VISIBLE,
    form: str = FORM,
    wild: str = WILD,
    json: bool = JSON,
) -> None:
    """For each discard of a 14-tile hand: shanten after it and the tiles that improve it."""
    rs = rules_from(rules, settings)
    parsed = parse_hand(hand, rs)
    with compile_notice(None, "the tile-efficiency kernel", WAITS_SECONDS):
        options = ukeire(parsed, rs, visible=visible, form=form, wild=wild)
    if json:
        emit_json(
            {
                "hand": to_compact(parsed),
                "rules": rs.id,
                "discards": [
                    {
                        "discard": d.discard,
                        "shanten": d.shanten,
                        "live": d.live,
                        "tiles": [{"tile": w.tile, "live": w.live} for w in d.tiles],
                    }
                    for d in options
                ],
            }
        )
        return
    table = Table(
        "discard", "shanten", "live", "improving tiles", title=f"{to_compact(parsed)} — {rs.id}"
    )
    for d in options:
        table.add_row(
            _label(d.kind, d.discard),
            str(d.shanten),
            str(d.live),
            " ".join(f"{w.tile}×{w.live}" for w in d.tiles),
        )
    console.print(table)


def decompose_cmd(
    hand: str = HAND,
    rules: str = RULES,
    settings: list[str] = SET,
    wild: str = WILD,
    json: bool = JSON,
) -> None:
    """Every way a complete hand splits into melds and a pair, with the wait shape."""
    rs = rules_from(rules, settings)
    parsed = parse_hand(hand, rs)
    found = decompose(parsed, rs, wild=wild)
    if json:
        emit_json(
            {
                "hand": to_compact(parsed),
                "rules": rs.id,
                "decompositions": [
                    {
                        "form": d.form,
                        "text": d.describe(),
                        "melds": [list(m) for m in d.melds],
                        "pair": d.pair,
                        "pairs": list(d.pairs),
                        "wait": d.wait,
                        "wilds": [list(w) for w in d.wilds],
                    }
                    for d in found
                ],
            }
        )
        return
    if not found:
        console.print(f"{to_compact(parsed)} has no decomposition into melds and a pair")
    for d in found:
        console.print(f"{d.form:12} {d.describe()}")


def register(app: typer.Typer) -> None:
    for name, func in (
        ("shanten", shanten_cmd),
        ("waits", waits_cmd),
        ("ukeire", ukeire_cmd),
        ("decompose", decompose_cmd),
    ):
        app.command(name)(user_errors(func))
