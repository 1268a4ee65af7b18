"""起手胡 frequencies: Monte Carlo estimates beside the exact deal-time values.

For each pattern (and ``any_basic``: at least one of the enabled basic patterns) and each
seat class — ``dealer`` (14 tiles), ``non_dealer`` (13 tiles) and ``any_player`` (someone
at the table) — the frequency of a count of at least one, its standard error, a 95%
interval and the exact probability where the exact engine has it (dealer, non-dealer;
the four hands of a table are dependent, so ``any_player`` is estimated only).

Non-dealer frequencies pool the three non-dealer seats of each deal; their standard
error is computed from per-deal averages (the seats of one deal are not independent) and
the interval is Wilson's at the matching effective sample size.

>>> out = qishou_study("changsha", n=20_000, seed=1, exact=False, progress=False)
>>> out["patterns"]["santong"]
{'off': True}
>>> 0.01 < out["patterns"]["banban"]["any_player"]["p"] < 0.02
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..kernels import qishou as Q
from ..progress import progress_bar
from ..rules import RulesError, RuleSet, load_rules
from ..sim.deals import DEFAULT_CHUNK, deal_columns, has_qishou
from .proportions import Z95, odds_text, proportion, wilson

SEATS = ("dealer", "non_dealer", "any_player")


@dataclass
class SeatTally:
    """Running sums of one pattern's hits over deals (seat 0 the dealer): what the three
    seat classes' estimates need, in memory that does not grow with the deals.

    >>> t = SeatTally()
    >>> t.add(np.array([[True, False, True, True], [False, False, False, False]]))
    >>> t.deals, t.dealer, t.others, t.others_sq, t.anyone
    (2, 1, 2, 4, 1)
    """

    deals: int = 0
    dealer: int = 0  # deals whose dealer hit
    others: int = 0  # non-dealer seat-hands that hit
    others_sq: int = 0  # the sum over deals of the square of their non-dealer hits
    anyone: int = 0  # deals where some seat hit

    def add(self, hits: np.ndarray) -> None:
        """Count ``hits`` (bool[deals, 4])."""
        k = hits[:, 1:].sum(axis=1, dtype=np.int64)
        self.deals += hits.shape[0]
        self.dealer += int(hits[:, 0].sum())
        self.others += int(k.sum())
        self.others_sq += int((k * k).sum())
        self.anyone += int(hits.any(axis=1).sum())

    def classes(self) -> dict[str, dict[str, Any]]:
        """The three seat classes' estimates (see the module doc)."""
        return {
            "dealer": _binomial(self.dealer, self.deals),
            "non_dealer": self._clustered(),
            "any_player": _binomial(self.anyone, self.deals),
        }

    def _clustered(self) -> dict[str, Any]:
        """Frequency over the non-dealer seat-hands, per-deal clustered standard error."""
        n = self.deals
        p = self.others / (3 * n)
        if n > 1:  # the per-deal shares k/3: their sample variance, from the two sums
            var = max(self.others_sq / 9 - n * p * p, 0.0) / (n - 1)
            se = math.sqrt(var / n)
        else:
            se = float("nan")
        n_eff = p * (1 - p) / se**2 if se > 0 else 3 * n
        lo, hi = wilson(p * n_eff, n_eff) if n_eff > 0 else (0.0, 1.0)
        return {"p": p, "se": se, "ci": [lo, hi], "odds": odds_text(p), "n": 3 * n}


def _binomial(k: int, n: int) -> dict[str, Any]:
    """Frequency of ``k`` in ``n`` independent trials: ``p``, ``se``, Wilson ``ci``, ``odds``."""
    e = proportion(k, n)
    return {"p": e.p, "se": e.se, "ci": list(e.ci), "odds": e.odds, "n": e.n}


def seat_classes(hits: np.ndarray) -> dict[str, dict[str, Any]]:
    """hits: bool[n_deals, 4] (seat 0 the dealer) → the three seat classes."""
    tally = SeatTally()
    tally.add(hits)
    return tally.classes()


def qishou_study(
    rules: str | RuleSet = "changsha",
    n: int = 200_000,
    seed: int = 0,
    exact: bool = True,
    chunk: int = DEFAULT_CHUNK,
    progress: bool = True,
) -> dict[str, Any]:
    """Estimate every 起手胡 pattern on ``n`` deals (JSON-ready dict; see the module doc),
    dealt in chunks of ``chunk`` and tallied as they come: memory does not grow with ``n``."""
    rules = load_rules(rules)
    if not has_qishou(rules):
        raise RulesError(f"rule set {rules.id!r} has no 起手胡; use changsha or its presets")
    if n < 2:
        raise ValueError(f"n must be at least 2 deals, got {n}")
    config = Q.qishou_config(rules)
    names = [f"qs_{p}" for p in Q.PATTERNS] + ["qs_any_basic"]
    tallies = {name: SeatTally() for name in names}
    dealt = dict.fromkeys(names[:-1], 0)  # each pattern's count summed over the dealers
    others = dict.fromkeys(names[:-1], 0)  # ... and over the non-dealers
    with progress_bar("deals", n, enabled=progress) as advance:
        for start in range(0, n, chunk):
            m = min(chunk, n - start)
            cols = deal_columns(rules, seed, start, m)
            for name in names:
                values = np.asarray(cols[name]).reshape(m, 4)
                tallies[name].add(values > 0)
                if name in dealt:
                    dealt[name] += int(values[:, 0].sum(dtype=np.int64))
                    others[name] += int(values[:, 1:].sum(dtype=np.int64))
            advance(m)
    exact_values = _exact(rules) if exact else {}
    patterns: dict[str, Any] = {}
    for pattern in (*Q.PATTERNS, "any_basic"):
        on = pattern == "any_basic" or config.enabled[Q.PATTERNS.index(pattern)]
        if not on:
            patterns[pattern] = {"off": True}
            continue
        est = tallies[f"qs_{pattern}"].classes()
        for seat in ("dealer", "non_dealer"):
            est[seat]["exact"] = exact_values.get(pattern, {}).get(seat)
        est["any_player"]["exact"] = None
        if pattern != "any_basic":
            est["mean_count"] = {
                "dealer": dealt[f"qs_{pattern}"] / n,
                "non_dealer": others[f"qs_{pattern}"] / (3 * n),
            }
        patterns[pattern] = est
    return {
        "rules": rules.id,
        "options_hash": rules.options_hash,
        "n_deals": n,
        "seed": seed,
        "count_mode": config.count_mode,
        "eval": config.eval,
        "patterns": patterns,
    }


def _exact(rules: RuleSet) -> dict[str, dict[str, float]]:
    """Exact dealer / non-dealer probabilities, or nothing where the engine has none."""
    from .exact_qishou import exact_qishou

    if rules["cs_qs_eval"] != "dealt":
        return {}  # the first drawn tile is not in the exact engine
    try:
        table = exact_qishou(rules)
    except (NotImplementedError, ValueError):
        return {}
    out = {}
    for pattern, seats in table.items():
        if isinstance(seats, dict) and not seats.get("off"):
            out[pattern] = {s: seats[s]["p"] for s in ("dealer", "non_dealer") if s in seats}
    return out


def agrees(estimate: dict[str, Any], sigmas: float = 4.0) -> bool:
    """Whether an estimate lies within ``sigmas`` standard errors of its exact value; the
    standard error is the larger of the estimate's own and the binomial one at the exact
    value (so that an estimate with no hits is not judged by a standard error of 0).

    >>> agrees({"p": 0.0, "se": 0.0, "exact": 0.2, "n": 1000})
    False
    """
    exact = estimate.get("exact")
    if exact is None:
        return True
    se = max(estimate["se"], math.sqrt(exact * (1 - exact) / estimate["n"]))
    return abs(estimate["p"] - exact) <= sigmas * se


__all__ = ["SEATS", "Z95", "agrees", "qishou_study"]
