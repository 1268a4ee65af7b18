"""Waits and tile efficiency (ukeire) with live counts: the facade over :mod:`mjsim.kernels.waits`.

Live count of a kind = 4 − the player's own copies (concealed and in melds) − copies
visible elsewhere (``visible``: discards, other players' melds, indicators).

>>> [(w.tile, w.live) for w in waits("123m456p789s1122z")]
[('1z', 2), ('2z', 2)]
>>> best = ukeire("123m456p789s11223z")[0]
>>> best.discard, best.shanten, best.live
('3z', 0, 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .evaluate import (
    HandError,
    as_hand,
    beside_lone_wild,
    check_batch,
    check_size,
    compile_rules,
    meld_flags,
    per_row,
    row_voids,
    void_code,
    wild_mask,
)
from .kernels import waits as W
from .kernels.shanten import IMPOSSIBLE
from .notation import parse_tiles
from .rules import RuleSet, load_rules
from .tables.suits import INF
from .tiles import N_KINDS, Hand, name


@dataclass(frozen=True)
class Wait:
    """A winning or improving kind: ``tile`` in notation, ``kind`` index, ``live`` copies left."""

    tile: str
    kind: int
    live: int


@dataclass(frozen=True)
class Discard:
    """One discard of a 14-tile hand: the shanten after it and the kinds that improve it."""

    discard: str
    kind: int
    shanten: int
    tiles: tuple[Wait, ...]

    @property
    def live(self) -> int:
        """Live copies of all improving kinds together (the usual ukeire number)."""
        return sum(w.live for w in self.tiles)


def _visible(visible: Any) -> np.ndarray:
    if visible is None:
        return np.zeros(N_KINDS, dtype=np.int64)
    if isinstance(visible, str):
        return parse_tiles(visible)
    arr = np.asarray(visible, dtype=np.int64)
    if arr.shape != (N_KINDS,) or (arr < 0).any() or (arr > 4).any():
        raise HandError("visible must be tiles in notation or 34 counts of 0–4")
    return arr


def _owned(hand: Hand) -> np.ndarray:
    return np.asarray(hand.all_counts(), dtype=np.int64)


def _live(owned: np.ndarray, seen: np.ndarray, kinds: np.ndarray) -> list[Wait]:
    over = owned + seen > 4
    if over.any():
        k = int(np.flatnonzero(over)[0])
        raise HandError(f"more than four copies of {name(k)} between the hand and visible tiles")
    return [Wait(name(int(k)), int(k), int(4 - owned[k] - seen[k])) for k in kinds]


def _kernel_args(hand: Hand, rules: RuleSet, form, wild, void) -> tuple:
    comp = compile_rules(rules, form)
    one = np.ones(1, dtype=np.int64)
    return (
        hand.counts[None, :],
        _owned(hand)[None, :],
        one * len(hand.melds),
        one * meld_flags(hand),
        one * void_code(comp, void),
        comp.families,
        comp.melds,
        comp.kind_mask,
        comp.honour_mask,
        wild_mask(wild),
        comp.tables,
    )


def waits(
    hand: Hand | str,
    rules: str | RuleSet = "generic",
    visible: Any = None,
    form: str | None = None,
    wild: Any = None,
    void: Any = None,
) -> list[Wait]:
    """The winning kinds of a ready 13-tile hand (16 in ``caishen16``), with live counts:
    beside a lone 财神 every kind it holds fewer than four of (财神牛 / 财神单吊).

    An empty list means the hand is not ready.

    >>> len(waits("[888m][123p][456p][789s][111z]7z", rules="caishen16", wild="7z"))
    34
    """
    rules = load_rules(rules)
    hand = as_hand(hand, rules)
    check_size(hand, rules, (rules.hand_size,))
    owned = _owned(hand)
    if form in (None, "standard") and beside_lone_wild(hand.counts, len(hand.melds), rules, wild):
        mask = compile_rules(rules).kind_mask & (owned < 4)
    else:
        mask = W.waits_many(*_kernel_args(hand, rules, form, wild, void))[0]
    return _live(owned, _visible(visible), np.flatnonzero(mask))


def ukeire(
    hand: Hand | str,
    rules: str | RuleSet = "generic",
    visible: Any = None,
    form: str | None = None,
    wild: Any = None,
    void: Any = None,
) -> list[Discard]:
    """Each discard of a 14-tile hand (17 in ``caishen16``): shanten after it and the
    improving kinds with live counts, best first (lowest shanten, then most live tiles)."""
    rules = load_rules(rules)
    hand = as_hand(hand, rules)
    check_size(hand, rules, (rules.hand_size + 1,))
    after, improves = W.ukeire_many(*_kernel_args(hand, rules, form, wild, void))
    owned, seen = _owned(hand), _visible(visible)
    out = []
    for d in np.flatnonzero(after[0] < INF):
        kept = owned.copy()
        kept[d] -= 1
        out.append(
            Discard(
                name(int(d)),
                int(d),
                int(after[0, d]) - 1,
                tuple(_live(kept, seen, np.flatnonzero(improves[0, d]))),
            )
        )
    return sorted(out, key=lambda x: (x.shanten, -x.live, x.kind))


def waits_batch(
    hands: np.ndarray,
    rules: str | RuleSet = "generic",
    visible: Any = None,
    n_melds: Any = 0,
    form: str | None = None,
    wild: Any = None,
    void: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The waits of each 13-tile row, ``bool[N, 34]``, and the live copies of each kind,
    ``int8[N, 34]`` (4 − own copies − visible copies; meaningful where a kind is a wait).

    ``visible`` is ``int[N, 34]`` or ``int[34]`` counts seen elsewhere; exposed melds are
    counted by ``n_melds`` only, so their copies are not subtracted here. A row in the
    财神牛 / 财神单吊 state waits on every kind it holds fewer than four of, as
    :func:`waits` says.

    >>> from mjsim import parse_hand
    >>> hand = parse_hand("123m456p789s111z234m7z", "caishen16").counts[None, :]
    >>> int(waits_batch(hand, "caishen16", wild="7z")[0].sum())
    34
    """
    rules = load_rules(rules)
    hands = check_batch(hands, rules, n_melds)
    n = hands.shape[0]
    comp = compile_rules(rules, form)
    owned = hands.astype(np.int64)
    mask = W.waits_many(
        hands,
        owned,
        per_row(n_melds, n),
        per_row(0, n),
        row_voids(comp, void, n),
        comp.families,
        comp.melds,
        comp.kind_mask,
        comp.honour_mask,
        wild_mask(wild),
        comp.tables,
    )
    if rules.lone_wild and wild is not None and form in (None, "standard"):
        melds = per_row(n_melds, n)
        for i in range(n):  # 财神牛 / 财神单吊: every kind it holds fewer than four of
            if beside_lone_wild(hands[i], int(melds[i]), rules, wild):
                mask[i] = comp.kind_mask & (owned[i] < 4)
    seen = (
        np.zeros((n, N_KINDS), np.int64)
        if visible is None
        else np.broadcast_to(np.asarray(visible, dtype=np.int64), (n, N_KINDS))
    )
    return mask, np.clip(4 - owned - seen, 0, 4).astype(np.int8)


def ukeire_batch(
    hands: np.ndarray,
    rules: str | RuleSet = "generic",
    n_melds: Any = 0,
    form: str | None = None,
    wild: Any = None,
    void: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """For each 14-tile row and each kind held: the shanten after discarding it
    (``int8[N, 34]``, ``IMPOSSIBLE`` where the kind is not held) and the kinds that then
    improve the hand (``bool[N, 34, 34]``: discard × improving kind).
    """
    rules = load_rules(rules)
    hands = check_batch(hands, rules, n_melds)
    n = hands.shape[0]
    comp = compile_rules(rules, form)
    after, improves = W.ukeire_many(
        hands,
        hands.astype(np.int64),
        per_row(n_melds, n),
        per_row(0, n),
        row_voids(comp, void, n),
        comp.families,
        comp.melds,
        comp.kind_mask,
        comp.honour_mask,
        wild_mask(wild),
        comp.tables,
    )
    shanten = np.where(after >= INF, IMPOSSIBLE, after - 1).astype(np.int8)
    return shanten, improves
