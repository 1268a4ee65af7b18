"""Deal-time odds of any rule set, exact beside simulated: bonus tiles (flowers) set aside at
the deal, a win at the deal by them (八花齐), a complete hand, readiness, and shanten at the
deal for each winning family; where an indicator wildcard is turned up at the deal (百搭,
财神), the wild tiles held and the dealer's win as dealt (天胡) by type.

Exact values: the bonus count B of one seat is negative hypergeometric — a seat keeps drawing
until it holds its ``n`` playing tiles, so ``P(B = b) = C(n−1+b, b)·(N)_n·(F)_b / (T)_{n+b}``
for ``F`` bonus and ``N`` playing tiles of ``T`` (falling factorials; the replacement order
between seats does not change one seat's law); shanten from :func:`exact_shanten`, per family
on the rule set restricted to that family, and the wild tiles held from its counts by the
wild tiles held (``by_wild``). Simulated values come from the deal datasets
(:func:`mjsim.sim.deals.deal_frame`): the dealer's row per deal, and for the non-dealers the
mean of their three rows per deal (the deal is the independent unit), each with its standard
error and whether it lies within 4 of the exact value.

>>> d = bonus_law(144, 8, 13)
>>> float(sum(d.values())), round(float(d[0]), 4)
(1.0, 0.4598)
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from ..game import values as V
from ..game.config import game_config
from ..rules import RuleSet, load_rules
from ..rules.model import FrozenDict
from ..sim.deals import deal_frame
from ..walls import WallSpec
from .exact_shanten import ExactResult, ExactUnsupported, exact_shanten
from .qishou_freq import agrees

#: the two seat classes: the dealer's hand_size + 1 tiles, a non-dealer's hand_size
SEATS = ("dealer", "non_dealer")


def _falling(x: int, k: int) -> int:
    return math.perm(x, k) if 0 <= k <= x else 0


def bonus_law(total: int, bonus: int, n: int) -> dict[int, Fraction]:
    """``P(B = b)``: bonus tiles one seat sets aside at the deal before it holds ``n`` playing
    tiles, from a wall of ``total`` tiles of which ``bonus`` are bonus tiles."""
    playing = total - bonus
    return {
        b: Fraction(
            math.comb(n - 1 + b, b) * _falling(playing, n) * _falling(bonus, b),
            _falling(total, n + b),
        )
        for b in range(bonus + 1)
    }


def bonus_win_law(rules: RuleSet) -> dict[str, Fraction] | None:
    """``P(B ≥ bonus_win)`` per seat class (``dealer``, ``non_dealer``): a win at the deal by
    the bonus tiles set aside (八花齐); None where the rules have no such win.

    >>> {k: str(v) for k, v in bonus_win_law(load_rules("shanghai_qhp")).items()}
    {'dealer': '11305/209004408899', 'non_dealer': '1615/48231786669'}
    """
    spec = WallSpec.from_rules(rules)
    n_bonus = int(spec.is_bonus[spec.multiset].sum())
    win_at = int(game_config(rules).cfg[V.BONUS_WIN]) if rules.game_spec else 0
    if not n_bonus or win_at <= 0:
        return None
    sizes = {"dealer": rules.hand_size + 1, "non_dealer": rules.hand_size}
    return {
        seat: sum(
            (p for b, p in bonus_law(spec.size, n_bonus, sizes[seat]).items() if b >= win_at),
            Fraction(0),
        )
        for seat in SEATS
    }


def family_rules(rules: RuleSet, form: str) -> RuleSet:
    """``rules`` with its winning families restricted to those of ``form`` (an id of its
    own, ``<id>.<form>``, so that compiled forms are not shared)."""
    raw = tuple(f for f in rules.core_spec["families"] if f["form"] == form)
    return replace(
        rules, id=f"{rules.id}.{form}", core_spec=FrozenDict({**rules.core_spec, "families": raw})
    )


def _estimate(
    frame: pd.DataFrame, hit: np.ndarray, seat: str, exact: float | None
) -> dict[str, Any]:
    """The share of ``seat``'s hands with ``hit``, its s.e. by deal, and the exact value."""
    dealer = frame["dealer"].to_numpy()
    if seat == "dealer":
        per_deal = hit[dealer].astype(np.float64)
    else:
        per_deal = (
            pd.Series(hit[~dealer].astype(np.float64))
            .groupby(frame["deal"].to_numpy()[~dealer])
            .mean()
            .to_numpy()
        )
    n = per_deal.size
    p = float(per_deal.mean())
    se = float(per_deal.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
    out = {"p": p, "se": se, "n": n, "exact": exact}
    out["within_4se"] = agrees(out)
    return out


def _exact(rules: RuleSet, n: int) -> ExactResult | None:
    """The exact shanten counts of ``n``-tile hands; None where the engine does not
    enumerate them."""
    try:
        r = exact_shanten(rules, n)
    except ExactUnsupported:
        return None
    return r if r.tractable else None


def _wild_odds(frame: pd.DataFrame, exact: dict[str, ExactResult | None]) -> dict[str, Any]:
    """Per seat class, the law of the wild tiles held at the deal (simulated and, from the
    exact counts by the wild tiles held, exact) and its exact mean."""
    held = frame["wild_held"].to_numpy()
    out = {}
    for seat in SEATS:
        r = exact[seat]
        law = (
            {}
            if r is None
            else {h: Fraction(sum(c.values()), r.total) for h, c in r.by_wild.items()}
        )
        keys = sorted(set(law) | set(np.unique(held).tolist()))
        out[seat] = {
            "law": {
                int(h): _estimate(
                    frame, held == h, seat, None if r is None else float(law.get(h, 0))
                )
                for h in keys
            },
            "mean_exact": None if r is None else float(sum(h * p for h, p in law.items())),
        }
    return out


def _dealer_win(
    frame: pd.DataFrame,
    dealer: ExactResult | None,
    families: dict[str, ExactResult | None],
    wild_win: int,
) -> dict[str, Any]:
    """The dealer's win as dealt (天胡) by type: each family complete (by its form;
    ``families`` gives the dealer's exact counts on the rule set restricted to it),
    ``wild_win`` or more wild tiles held whatever the shape (``wild_win``: 三财神, where the
    engine has it), and ``any`` of them; exact from ``dealer``'s counts by the wild tiles
    held (None where not enumerated)."""
    shanten = frame["shanten"].to_numpy()
    held = frame["wild_held"].to_numpy()

    def estimate(hit: np.ndarray, r: ExactResult | None, count: int | None) -> dict[str, Any]:
        p = None if r is None else Fraction(count, r.total)
        return {
            **_estimate(frame, hit, "dealer", None if p is None else float(p)),
            "exact_fraction": None if p is None else str(p),
        }

    types = {
        form: estimate(
            frame[f"shanten_{form}"].to_numpy() == -1, r, None if r is None else r.counts.get(-1, 0)
        )
        for form, r in families.items()
    }
    hit_any = shanten == -1
    count_any = None if dealer is None else dealer.counts.get(-1, 0)
    if wild_win > 0:
        wins = {} if dealer is None else {h: c for h, c in dealer.by_wild.items() if h >= wild_win}
        types["wild_win"] = estimate(
            held >= wild_win, dealer, sum(n for c in wins.values() for n in c.values())
        )
        hit_any = hit_any | (held >= wild_win)
        if dealer is not None:  # complete hands are counted already
            count_any += sum(n for c in wins.values() for s, n in c.items() if s != -1)
    types["any"] = estimate(hit_any, dealer, count_any)
    return {"wild_win": wild_win, "types": types}


def deal_odds(rules: str | RuleSet, n: int = 200_000, seed: int = 0) -> dict[str, Any]:
    """Deal-time odds of ``rules`` from ``n`` simulated deals, with exact values beside.

    Keys: ``n_deals``; ``bonus`` (per seat class, the law of B — exact and simulated — and
    ``bonus_win``: B reaching the engine's ``bonus_win``, 八花齐, where the rules have it);
    ``complete`` (the dealer) and ``ready`` (a non-dealer); ``shanten`` per family
    (``all`` for the rule set) and seat class: shanten → estimate; where the deal turns up
    a wildcard indicator, ``wild`` (per seat class, the law of the wild tiles held) and
    ``dealer_win`` (天胡 by type, :func:`_dealer_win`); ``notes``.
    """
    rules = load_rules(rules)
    spec = WallSpec.from_rules(rules)
    frame = deal_frame(rules, n, seed)
    sizes = {"dealer": rules.hand_size + 1, "non_dealer": rules.hand_size}
    out: dict[str, Any] = {"rules": rules.id, "n_deals": n, "seed": seed, "notes": []}
    n_bonus = int(spec.is_bonus[spec.multiset].sum())
    if n_bonus:
        bonus = frame["bonus"].to_numpy()
        win_at = int(game_config(rules).cfg[V.BONUS_WIN]) if rules.game_spec else 0
        win_law = bonus_win_law(rules)
        out["bonus"] = {}
        for seat in SEATS:
            law = bonus_law(spec.size, n_bonus, sizes[seat])
            dist = {
                b: _estimate(frame, bonus == b, seat, float(p))
                for b, p in law.items()
                if p > 1e-12 or (bonus == b).any()
            }
            entry: dict[str, Any] = {
                "law": dist,
                "mean_exact": float(sum(b * p for b, p in law.items())),
            }
            if win_law is not None:
                p_win = win_law[seat]
                entry["bonus_win"] = {
                    **_estimate(frame, bonus >= win_at, seat, float(p_win)),
                    "exact_fraction": str(p_win),
                    "at": win_at,
                }
            out["bonus"][seat] = entry
    shanten = frame["shanten"].to_numpy()
    forms = [f.form for f in rules.families]
    exact = {
        form: {
            seat: _exact(rules if form == "all" else family_rules(rules, form), sizes[seat])
            for seat in SEATS
        }
        for form in ["all"] + (forms if len(forms) > 1 else [])
    }
    if exact["all"]["dealer"] is None:
        out["notes"].append(
            f"no exact shanten for {rules.id}: the exact engine does not enumerate its hands"
        )
    out["shanten"] = {}
    for form, by_seat in exact.items():
        column = shanten if form == "all" else frame[f"shanten_{form}"].to_numpy()
        out["shanten"][form] = {}
        for seat, r in by_seat.items():
            probs = None if r is None else r.probabilities
            keys = sorted(set(np.unique(column).tolist()) | set(probs or {}))
            out["shanten"][form][seat] = {
                int(k): _estimate(
                    frame, column == k, seat, None if probs is None else probs.get(int(k), 0.0)
                )
                for k in keys
            }
    if "wild_held" in frame:
        out["wild"] = _wild_odds(frame, exact["all"])
        families = {
            form: exact.get(form, exact["all"])["dealer"]
            for form in forms
            if f"shanten_{form}" in frame
        }
        wild_win = int(game_config(rules).cfg[V.WILD_WIN]) if rules.game_spec else 0
        out["dealer_win"] = _dealer_win(frame, exact["all"]["dealer"], families, wild_win)
    out["complete"] = out["shanten"]["all"]["dealer"].get(
        -1, _estimate(frame, shanten == -1, "dealer", None)
    )
    out["ready"] = out["shanten"]["all"]["non_dealer"].get(
        0, _estimate(frame, shanten == 0, "non_dealer", None)
    )
    out["agreement_4se"] = all(e["within_4se"] for e in _estimates(out))
    return out


def _estimates(node: Any):
    """Every estimate (a dict with ``within_4se``) in a nested result."""
    if isinstance(node, dict):
        if "within_4se" in node:
            yield node
        else:
            for v in node.values():
                yield from _estimates(v)
