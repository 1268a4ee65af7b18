"""``mjsim score``: what one won hand pays, and why, by the engine's own settlement."""

from __future__ import annotations

import typer
from rich.table import Table

from ..rules.model import quote
from .output import console, emit_json, rules_from, user_errors
from .study_cmd import JSON, RULES, SEED, SET


def _pair(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.replace(",", " ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError(f"--dice takes two numbers 1-6 such as 3,4, got {text!r}")
    return int(parts[0]), int(parts[1])


def _seats(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    parts = text.replace(",", " ").split()
    if not all(p.isdigit() for p in parts):
        raise ValueError(f"seats are numbers 0-3 separated by commas such as 1,3, got {text!r}")
    return tuple(int(p) for p in parts)


def _counts(option: str, text: str | None) -> dict[int, int] | None:
    if text is None:
        return None
    out = {}
    for item in text.replace(",", " ").split():
        seat, _, count = item.partition(":")
        if not (seat.isdigit() and count.isdigit()):
            raise ValueError(f"{option} takes seat:count items such as 3:3, got {quote(text)}")
        out[int(seat)] = int(count)
    return out


def _also(items: list[str]) -> dict[int, str]:
    out = {}
    for item in items:
        seat, _, hand = item.partition(":")
        if not (seat.strip().isdigit() and hand.strip()) or int(seat) in out:
            raise ValueError(
                f"--also takes SEAT:HAND, one a seat, such as '3:123m456p789s11z23s +4s (ron)'; "
                f"got {quote(item)}"
            )
        out[int(seat)] = hand.strip()
    return out


def print_score(sc) -> None:
    """The verdict, the patterns, the payments (with their distribution) and the steps."""
    title = f"{sc.rules}: {sc.hand} — seat {sc.seat}, dealer {sc.dealer}, {sc.how}"
    if not sc.win:
        console.print(f"{title}\n[bold]no win[/bold]: {sc.reason}")
        return
    console.print(f"{title}\n[bold]win[/bold], value {sc.units}")
    if sc.patterns:
        table = Table(title="patterns")
        for col in ("pattern", "", "value", "what sets it"):
            table.add_column(col)
        for p in sc.patterns:
            table.add_row(p.name_zh, p.id, str(p.value), p.meaning)
        console.print(table)
    table = Table(
        title="payments (net; + received)",
        caption=None if sc.exact else f"mean ± s.e. over {sc.worlds:,} random worlds",
    )
    table.add_column("")
    for s in range(4):
        table.add_column(f"seat {s}" + (" (dealer)" if s == sc.dealer else ""), justify="right")
    if sc.exact:
        table.add_row("net", *(f"{x:+.0f}" for x in sc.payments))
    else:
        table.add_row("expected", *(f"{x:+.2f} ± {e:.2f}" for x, e in zip(sc.payments, sc.se)))
        for o in sc.outcomes:
            table.add_row(
                f"{100 * o.probability:.1f}% ± {100 * o.se:.1f}",
                *(f"{x:+d}" for x in o.payments),
            )
    console.print(table)
    for i, step in enumerate(sc.steps, 1):
        console.print(f"{i}. {step}")


def score_cmd(
    hand: str = typer.Argument(
        ...,
        help="The won hand: concealed tiles with the winning tile marked +, melds and "
        "flowers, e.g. '[222p] 555m777s99m11p +1p (ron)'.",
    ),
    rules: str = RULES,
    settings: list[str] = SET,
    how: str | None = typer.Option(
        None,
        "--how",
        help="How it was won: zimo, dianpao, qianggang, gangshang_kaihua, gangshang_pao, "
        "haidi_laoyue, haidi_pao, bonus (by bonus tiles set aside, the hand written without +) "
        "(default: zimo, or dianpao for a hand marked (ron)). 天胡 on the dealt tiles: "
        "--turn 0 by the dealer, the hand written without +.",
    ),
    seat: int = typer.Option(0, "--seat", help="The winner's seat (0-3)."),
    dealer: int = typer.Option(0, "--dealer", help="The dealer (0-3)."),
    discarder: int | None = typer.Option(
        None, "--from", help="The seat whose tile was won (default: the winner's 上家)."
    ),
    meld_from: str | None = typer.Option(
        None,
        "--meld-from",
        help="The seat each exposed meld was claimed from, in the hand's order, e.g. 1,1,2 "
        "(default: chows from the 上家; pungs and kongs from the 对家, 下家, 上家 in turn).",
    ),
    turn: int = typer.Option(
        8, "--turn", help="Discards made before the win (0: the dealer's first turn, 天胡)."
    ),
    wild: str | None = typer.Option(
        None, "--wild", help="The wildcard kind the deal turned (财神, 百搭), e.g. 5m."
    ),
    bao: str | None = typer.Option(
        None, "--bao", help="The 宝 indicator turned at the first 报听, e.g. 7p."
    ),
    declared: str | None = typer.Option(
        None, "--declared", help="The seats that declared 报听, e.g. 0,2."
    ),
    discarder_ready: bool = typer.Option(
        False, "--from-ready", help="The discarder's tiles were ready (承包 reads it)."
    ),
    wall: str = typer.Option(
        "", "--wall", help="The next tiles of the wall (Changsha's birds), e.g. 5p2s."
    ),
    dice: str | None = typer.Option(
        None, "--dice", help="The opening dice (Shanghai's 开宝), e.g. 3,3."
    ),
    huangfan: int | None = typer.Option(
        None, "--huangfan", help="荒番 carried from drawn hands (Shanghai)."
    ),
    after_draw: bool = typer.Option(
        False, "--after-draw", help="The hand follows a drawn hand (the 宝 game's 荒庄)."
    ),
    bonus: int | None = typer.Option(
        None,
        "--bonus",
        help="Bonus tiles set aside (flowers, and dragons where they are bonus tiles), "
        "instead of writing flowers in the hand.",
    ),
    claimed: str | None = typer.Option(
        None,
        "--claimed",
        help="Melds other seats claimed from the winner's discards, seat:count, e.g. 3:3 "
        "(承包 runs both ways).",
    ),
    left: int | None = typer.Option(
        None,
        "--left",
        help="Tiles left to draw when the hand is won (fewer than the birds: fewer birds).",
    ),
    revealed: str = typer.Option(
        "",
        "--revealed",
        help="The other tiles a 开杠 revealed beside the winning one, e.g. 5p (Changsha: "
        "each that wins too raises the units, §2.5).",
    ),
    also: list[str] = typer.Option(
        [],
        "--also",
        help="Another seat that won on the same discard, SEAT:HAND, e.g. '3:[111m] 234p "
        "+5s (ron)' (repeatable): the payments are then every winner's.",
    ),
    also_bonus: str | None = typer.Option(
        None,
        "--also-bonus",
        help="Another winner's bonus tiles where its hand does not write them as flowers, "
        "seat:count, e.g. 3:9.",
    ),
    on_ready: bool = typer.Option(
        False,
        "--on-ready",
        help="对宝: won at 报听 with the 宝 among the waits, no tile drawn (the hand's + tile "
        "is the 宝).",
    ),
    worlds: int = typer.Option(
        2000, "--worlds", help="Random worlds for what the settlement reads and is not given."
    ),
    seed: int = SEED,
    json: bool = JSON,
) -> None:
    """What a won hand pays under a rule set: whether it wins (and if not, why), its
    patterns and value, each seat's payment and the arithmetic step by step, each step
    naming its rule and RULES.md section. The payment is the engine's own settlement;
    what it reads and you do not give (birds, dice) is averaged over random worlds, with
    the distribution shown."""
    from ..game.score import score

    sc = score(
        rules_from(rules, settings),
        hand,
        how=how,
        seat=seat,
        dealer=dealer,
        discarder=discarder,
        meld_from=_seats(meld_from),
        turn=turn,
        wild=wild,
        bao=bao,
        declared=_seats(declared) or (),
        discarder_ready=discarder_ready,
        wall=wall,
        dice=_pair(dice),
        huangfan=huangfan,
        after_draw=after_draw,
        bonus=bonus,
        claimed=_counts("--claimed", claimed),
        left=left,
        revealed=revealed,
        on_ready=on_ready,
        also=_also(also),
        also_bonus=_counts("--also-bonus", also_bonus),
        worlds=worlds,
        seed=seed,
    )
    if json:
        emit_json(sc.to_dict())
        return
    print_score(sc)


def register(app: typer.Typer) -> None:
    app.command("score")(user_errors(score_cmd))
