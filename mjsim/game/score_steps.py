"""The words of a score (:mod:`mjsim.game.score`): each payment of a settled win told as
arithmetic, each step naming its rule and RULES.md section; and why a hand that does not
win does not.

The payments themselves are the engine's; these steps restate them from the rule set's
values and the facts the settlement recorded, and the tests check that the two agree.

>>> from mjsim.game.score import score
>>> print(*score("generic", "123m456p789s111z2z +2z").steps[-3:], sep="\\n")
seat 1 pays 1 (self-draw: each other seat pays win_pay = 1, §1.6)
seat 2 pays 1 (self-draw: each other seat pays win_pay = 1, §1.6)
seat 3 pays 1 (self-draw: each other seat pays win_pay = 1, §1.6)
"""

from __future__ import annotations

from typing import Any

from ..evaluate import shanten
from ..rules import RuleSet
from ..tiles import Hand, name
from . import record as R
from . import values as V
from .config import game_config

#: where each model's rules live in RULES.md: (values, payments)
SECTIONS = {
    "generic": ("§1.6", "§1.6"),
    "changsha": ("§2.4, §2.5", "§2.6, §2.10"),
    "caishen": ("§3.5", "§3.6"),
    "bao": ("§4.7", "§4.9"),
    "shanghai": ("§5.4, §5.5", "§5.7"),
}


#: why a complete shape may still not win, by scoring model
NO_WIN = {
    "generic": "the seat's void suit or a barred claim (§1.4, §1.8)",
    "changsha": "a small win needs a 258 pair (§2.2) and no big win applies (§2.4)",
    "caishen": "the 财神 game's shapes and its claim rules (§3.4, §3.5)",
    "bao": "the 宝 game's win predicate: a pung, a chow, a terminal or honour, and the "
    "suits it asks (§4.5)",
    "shanghai": "a legal hand of the rule set (§5.3, §5.9, §5.10), e.g. one suit with "
    "honours or all pungs in 清混碰",
}

#: why a model refuses a ron that the same tiles win self-drawn
ONLY_SELF_DRAWN = {
    "caishen": "its 16 tiles before the win were in a 跑马 state (三财神, 八对, 财神牛 or "
    "财神单吊), which wins only self-drawn (§3.4)",
}


def _reading(rs: RuleSet, form: str) -> str:
    """A family's name for a message: its form and what it needs beside melds and a pair.

    >>> from mjsim.rules import load_rules
    >>> _reading(load_rules("hongzhong112"), "standard")
    'standard (a pung, a chow, a terminal or honour, 2 suits)'
    """
    fam = next(f for f in rs.families if f.form == form)
    needs = [
        what
        for what, on in (
            ("a 258 pair", fam.pair == "258"),
            ("a pung", fam.need_pung),
            ("a chow", fam.need_chow),
            ("a terminal or honour", fam.need_yao),
            (f"{fam.min_suits} suits", fam.min_suits > 0),
            ("no tile of the void suit", fam.void_suit),
        )
        if on
    ]
    return f"{form} ({', '.join(needs)})" if needs else form


def not_a_win(
    rs: RuleSet, hand: Hand, wild: int | None, seat: int, declared, self_drawn_wins: bool = False
) -> str:
    """Why ``hand`` does not win for ``seat`` (``declared``: the seats that declared;
    ``self_drawn_wins``: a ron refused that the same tiles self-drawn win): the closest
    reading and what it lacks."""
    forms = sorted({f.form for f in rs.families})
    wild = [wild] if wild is not None else None
    by_form = {f: shanten(hand, rs, form=f, wild=wild) for f in forms}
    reached = {f: v for f, v in by_form.items() if v is not None}
    if not reached or min(reached.values()) >= 0:
        best = min(reached, key=reached.get) if reached else forms[0]
        n = reached.get(best)
        far = f"{n + 1} tile(s) from complete" if n is not None else "out of reach"
        return f"not a complete hand: its closest reading, {_reading(rs, best)}, is {far}"
    complete = ", ".join(_reading(rs, f) for f, v in reached.items() if v < 0)
    g = game_config(rs)
    if g.cfg[V.DECLARE] == V.DECLARE_REQUIRED and seat not in declared:
        return (
            f"complete as {complete}, but {rs.id} lets only a declared (报听) seat win: "
            f"declare seat {seat}"
        )
    if self_drawn_wins:
        why = ONLY_SELF_DRAWN.get(g.model, NO_WIN[g.model])
        return f"complete as {complete}, but under {rs.id} it wins only self-drawn here: {why}"
    return f"complete as {complete}, but no win under {rs.id} here: {NO_WIN[g.model]}"


def _seat_word(s: int, dealer: int) -> str:
    return f"seat {s}" + (" (dealer)" if s == dealer else "")


def _payers(sc) -> list[tuple[int, int]]:
    """``(seat, amount paid)`` of each paying seat of the most likely outcome."""
    pays = sc.outcomes[0].payments
    return [(q, -pays[q]) for q in range(4) if pays[q] < 0]


def _generic(sc, values: dict, facts: dict) -> list[str]:
    why = "self-draw: each other seat pays" if _tsumo(sc) else "a discard: the discarder pays"
    return [
        f"seat {q} pays {a} ({why} win_pay = {values['win_pay']}, §1.6)" for q, a in _payers(sc)
    ]


def _tsumo(sc) -> bool:
    return R.self_drawn(R.WIN_KINDS.index(sc.how))


def _changsha(sc, v: dict, facts: dict) -> list[str]:
    out = []
    units = sc.units
    if units == 0:
        out.append("a small win (no big win): unit = small_unit (§2.2, §2.10)")
    else:
        names = " + ".join(f"{p.name_zh} {p.value}" for p in sc.patterns)
        cap = " (cs_compound single: at most 1)" if v["compound"] == 1 else ""
        out.append(f"U = {names} = {units} unit(s){cap} (§2.4, §2.5)")
    exact = sc.exact and "hits_0" in facts
    if exact:
        birds = [name(facts[f"bird_{i}"]) for i in range(facts["n_birds"])]
        hits = [facts[f"hits_{s}"] for s in range(4)]
        out.append(
            f"birds {' '.join(birds) or 'none'} hit seats {hits} (counted from the "
            f"{'dealer' if v['bird_origin'] else 'winner'}, §2.6)"
        )
    else:
        out.append(f"{v['birds']} birds not yet drawn: see the distribution (§2.6)")
    for q, paid in _payers(sc) if exact else []:
        d = (
            v["dealer_bonus"]
            if (sc.seat == sc.dealer or (q == sc.dealer and v["dealer_bonus_scope"] == 0))
            else 0
        )
        h = hits[sc.seat] + hits[q]
        f = 2**h if v["bird_mode"] == 1 else 1 + h
        fword = f"2^{h}" if v["bird_mode"] == 1 else f"1 + {h}"
        mult = f * max(units, 1)
        capped = min(mult, v["cap"]) if v["cap"] > 0 else mult
        unit = v["small_unit"] if units == 0 else v["big_unit"]
        if units and not v["dealer_bonus_per_unit"]:
            value = unit * capped + d
            text = f"{unit}·{capped} + {d}"
        else:
            value = (unit + d) * capped
            text = f"({unit} + {d})·{capped}"
        piao = 2 * v["piao"]
        value += piao
        extra = f" + {piao} 飘 (§2.7)" if piao else ""
        cap = f", capped at {capped}" if capped < mult else ""
        check = "" if value == paid else f" [the engine paid {paid}]"
        out.append(
            f"seat {q} pays {text}{extra} = {value}: dealer bonus {d}, bird factor "
            f"f = {fword} = {f}, multiple max(U,1)·f = {mult}{cap} (§2.10){check}"
        )
    return out


def _value_steps(sc, facts: dict, model: str) -> list[str]:
    """The win's value from the model's patterns, and each payment as a multiple of it."""
    values, payments = SECTIONS[model]
    items = ", ".join(f"{p.name_zh} ({p.id})" for p in sc.patterns) or "none"
    out = [f"value = {sc.units} from its items: {items} ({values})"]
    for key in ("type", "flowers", "tier", "cai", "reading", "how", "kaibao", "huangfan"):
        if key in facts:
            out.append(f"{key} = {facts[key]} (recorded by the settlement)")
    for q, paid in _payers(sc):
        times = f" = {paid // sc.units} × {sc.units}" if sc.units and paid % sc.units == 0 else ""
        out.append(f"seat {q} pays {paid}{times} ({payments})")
    return out


def _caishen(sc, v: dict, facts: dict) -> list[str]:
    return _value_steps(sc, facts, "caishen")


def _bao(sc, v: dict, facts: dict) -> list[str]:
    return _value_steps(sc, facts, "bao")


def _shanghai(sc, v: dict, facts: dict) -> list[str]:
    return _value_steps(sc, facts, "shanghai")


_BY_MODEL = {
    "generic": _generic,
    "changsha": _changsha,
    "caishen": _caishen,
    "bao": _bao,
    "shanghai": _shanghai,
}


def steps(sc, model: str, values: dict[str, Any]) -> tuple[str, ...]:
    """The steps of the won score ``sc`` under ``model`` with the model's ``values``."""
    how = R.WIN_KINDS.index(sc.how)
    tile = sc.hand.split("+")[-1].split()[0] if "+" in sc.hand else "?"
    source = "self-drawn" if _tsumo(sc) else f"on seat {sc.discarder}'s tile"
    out = [
        f"{_seat_word(sc.seat, sc.dealer)} wins {R.WIN_KINDS_ZH[how]} ({sc.how}) on {tile}, "
        f"{source}"
    ]
    out += _BY_MODEL[model](sc, values, sc.facts)
    if not sc.exact:
        out.append(
            f"the payments depend on what was not given: the mean over {sc.worlds:,} random "
            f"worlds, and {len(sc.outcomes)} outcomes"
        )
    return tuple(out)
