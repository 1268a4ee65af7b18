"""Every decomposition of a complete hand, for scoring: melds, pair, wait shape, wildcards.

A standard decomposition splits the concealed tiles into melds and one pair (exposed melds
are fixed). With a winning tile (``+5s`` in notation) each decomposition is repeated for
every place that tile can sit, with the wait shape: 两面 (``ryanmen``), 边 (``edge``),
嵌 (``closed``), 单吊 (``single``) or 对倒 (``shanpon``). Held wildcards are tried as every
kind they could stand for; ``wilds`` records what each stood for.

>>> [d.wait for d in decompose("123m456p789s345s2z +2z")]
['single']
>>> sorted({d.wait for d in decompose("11123m456p789s11z +1m")})
['ryanmen', 'shanpon']
>>> [d.wait for d in decompose("12m 456p 789s 111z 55z +3m")]
['edge']
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from .evaluate import HandError, as_hand, check_size, wild_mask
from .notation import counts_to_compact
from .rules import RuleSet, load_rules
from .tiles import N_KINDS, Hand, is_258

#: the most held wildcards :func:`decompose` tries as every kind: four copies of a wildcard
#: kind, the most a rule set deals (five take seconds, each one more about ten times longer)
MAX_WILDS = 4


@dataclass(frozen=True)
class Decomposition:
    """One reading of a complete hand.

    ``melds``: ``(type, first kind, concealed?)`` for every meld, exposed ones included;
    ``pair``: the pair's kind (``None`` for seven/eight pairs, listed in ``pairs``);
    ``wait``: the winning tile's shape, or ``None`` without a winning tile;
    ``wilds``: ``(wildcard kind, kind it stands for)`` pairs.
    """

    form: str
    melds: tuple[tuple[str, int, bool], ...]
    pair: int | None
    pairs: tuple[int, ...] = ()
    wait: str | None = None
    wilds: tuple[tuple[int, int], ...] = ()

    @property
    def has_chow(self) -> bool:
        return any(m[0] == "chow" for m in self.melds)

    @property
    def has_pung(self) -> bool:
        return any(m[0] in ("pung", "kong") for m in self.melds)

    def describe(self) -> str:
        """Compact text, e.g. ``123m 456p 789s 345s 22z (single)``."""
        groups = [_kinds(t, k) for t, k, _ in self.melds]
        groups += [(self.pair,) * 2] if self.pair is not None else []
        groups += [(k, k) for k in self.pairs]
        text = " ".join(counts_to_compact(np.bincount(g, minlength=N_KINDS)) for g in groups)
        return text + (f" ({self.wait})" if self.wait else "")


def _kinds(mtype: str, first: int) -> tuple[int, ...]:
    if mtype == "chow":
        return (first, first + 1, first + 2)
    return (first,) * (4 if mtype == "kong" else 3)


def _standard(counts: np.ndarray, need: int) -> list[tuple[list[tuple[str, int]], int]]:
    """All splits of ``counts`` into ``need`` melds and one pair (plain recursion)."""
    out: list[tuple[list[tuple[str, int]], int]] = []

    def rec(c: np.ndarray, melds: list[tuple[str, int]], pair: int | None) -> None:
        nz = np.flatnonzero(c)
        if nz.size == 0:
            if pair is not None and len(melds) == need:
                out.append((list(melds), pair))
            return
        k = int(nz[0])
        if pair is None and c[k] >= 2:
            c[k] -= 2
            rec(c, melds, k)
            c[k] += 2
        if c[k] >= 3:
            c[k] -= 3
            rec(c, melds + [("pung", k)], pair)
            c[k] += 3
        if k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
            c[k] -= 1
            c[k + 1] -= 1
            c[k + 2] -= 1
            rec(c, melds + [("chow", k)], pair)
            c[k] += 1
            c[k + 1] += 1
            c[k + 2] += 1

    rec(counts.astype(np.int64).copy(), [], None)
    return out


def _pairs_reading(counts: np.ndarray, n_pairs: int, single: bool) -> list[int] | None:
    pairs = [k for k in range(N_KINDS) for _ in range(int(counts[k]) // 2)]
    left = int(counts.sum()) - 2 * len(pairs)
    if len(pairs) == n_pairs and left == (1 if single else 0):
        return pairs
    return None


def _wait_shapes(melds, pair, tile: int) -> list[str]:
    shapes = []
    if pair == tile:
        shapes.append("single")
    for mtype, first, concealed in melds:
        if not concealed:
            continue
        if mtype == "pung" and first == tile:
            shapes.append("shanpon")
        elif mtype == "chow" and first <= tile <= first + 2:
            pos, rank = tile - first, first % 9 + 1
            if pos == 1:
                shapes.append("closed")
            elif (pos == 0 and rank == 7) or (pos == 2 and rank == 1):
                shapes.append("edge")
            else:
                shapes.append("ryanmen")
    return sorted(set(shapes))


def decompose(
    hand: Hand | str, rules: str | RuleSet = "generic", wild: Any = None
) -> list[Decomposition]:
    """Every decomposition of a complete hand (14 tiles, 17 in ``caishen16``) under the
    rule set's melds; seven pairs (and eight pairs + 1) readings are included where the
    rule set has those forms. Pair and form restrictions are left to the caller
    (``d.pair`` and ``is_258``)."""
    rules = load_rules(rules)
    hand = as_hand(hand, rules)
    check_size(hand, rules, (rules.hand_size + 1,))
    mask = wild_mask(wild)
    natural = hand.counts.astype(np.int64)
    n_wild = int(natural[mask].sum())
    if n_wild > MAX_WILDS:
        raise HandError(
            f"decompose tries each wildcard as every kind: at most {MAX_WILDS} wildcard tiles, "
            f"this hand holds {n_wild}"
        )
    natural[mask] = 0
    exposed = tuple((m.type, m.first, m.concealed) for m in hand.melds)
    need = rules.melds - len(hand.melds)
    forms = {f.form for f in rules.families}
    owned = np.asarray(hand.all_counts()) - hand.counts + natural
    out: set[Decomposition] = set()
    for subst in combinations_with_replacement(sorted(rules.kinds), n_wild):
        counts = natural.copy()
        for k in subst:
            counts[k] += 1
        if (counts + owned - natural > 4).any():
            continue
        wild_kinds = [int(k) for k in np.flatnonzero(mask) for _ in range(int(hand.counts[k]))]
        wilds = tuple(zip(wild_kinds, subst))
        readings: list[tuple[str, tuple, int | None, tuple[int, ...]]] = []
        for melds, pair in _standard(counts, need):
            concealed = tuple(sorted((t, k, True) for t, k in melds))
            readings.append(("standard", concealed + exposed, pair, ()))
        for form, n_pairs, single in (("seven_pairs", 7, False), ("eight_pairs", 8, True)):
            if form in forms and not hand.melds:
                pairs = _pairs_reading(counts, n_pairs, single)
                if pairs is not None:
                    readings.append((form, (), None, tuple(pairs)))
        for form, melds, pair, pairs in readings:
            shapes = (
                [None]
                if hand.win_tile is None
                else (
                    _wait_shapes(melds, pair, hand.win_tile) if form == "standard" else ["single"]
                )
            )
            for shape in shapes:
                out.add(Decomposition(form, melds, pair, pairs, shape, wilds))
    return sorted(out, key=lambda d: (d.form, d.melds, d.pair or -1, d.wait or "", d.wilds))


__all__ = ["Decomposition", "decompose", "is_258"]
