"""Everything the exact engine knows about one rule set's deal, as one JSON-ready summary.

>>> s = exact_summary("changsha")
>>> s["complete_at_deal"]["odds"], round(s["ready_at_deal"]["p"], 6)
('1 in 52,900', 0.000411)
"""

from __future__ import annotations

from typing import Any

from ..rules import RuleSet, load_rules
from .deal_odds import bonus_win_law
from .exact_qishou import exact_qishou
from .exact_shanten import ExactUnsupported, exact_shanten
from .proportions import odds_text


def _share(numerator: int, denominator: int) -> dict[str, Any]:
    p = numerator / denominator
    return {"p": p, "numerator": numerator, "denominator": denominator, "odds": odds_text(p)}


def exact_summary(rules: str | RuleSet) -> dict[str, Any]:
    """Complete hands at the deal (the dealer's tiles), ready hands (a non-dealer's), the
    shanten distributions of both, 起手胡 odds and a win by the bonus tiles at the deal
    (八花齐, ``bonus_win`` per seat class) where the rule set has them; what the
    engine cannot enumerate is listed in ``notes``."""
    rules = load_rules(rules)
    out: dict[str, Any] = {"rules": rules.id, "options_hash": rules.options_hash, "notes": []}
    try:
        dealer = exact_shanten(rules, rules.hand_size + 1)
        other = exact_shanten(rules, rules.hand_size)
    except ExactUnsupported as error:
        out["notes"].append(f"shanten: {error}")
    else:
        for key, result, s in (("complete_at_deal", dealer, -1), ("ready_at_deal", other, 0)):
            if result.tractable:
                out[key] = _share(result.counts.get(s, 0), result.total)
            else:
                out["notes"].append(f"{key}: {result.reason}")
        out["shanten"] = {
            f"{r.n_tiles} tiles": {int(s): p for s, p in r.probabilities.items()}
            for r in (dealer, other)
            if r.tractable
        }
    bonus_win = bonus_win_law(rules)
    if bonus_win is not None:
        out["bonus_win"] = {
            seat: _share(p.numerator, p.denominator) for seat, p in bonus_win.items()
        }
    if all(opt in rules.options for opt in ("cs_qs_banban", "cs_qs_eval")):
        if rules["cs_qs_eval"] == "dealt":
            out["qishou"] = exact_qishou(rules)
        else:
            out["notes"].append("起手胡: the exact engine evaluates the dealt tiles only")
    return out
