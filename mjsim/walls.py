"""Walls and opening deals for every rule set, reproducible from (seed, deal index) alone.

A :class:`WallSpec` is what the wall needs from a rule set (RULES.md §7.2 item 5), read from
the rule data: the tile multiset, the hand size and the dealer's extra tile, the bonus tiles,
the wildcard indicator and the reserved tail. Wall ``i`` of seed ``s`` is a shuffle keyed by
``(s, spec.stream, i)`` (:mod:`mjsim.kernels.rng`); ``spec.stream`` depends on the tile
multiset only, so rule sets with the same tiles deal the same walls (common random numbers)
and deal ``i`` is the same whatever the chunking, thread count or machine. The dice have a
stream of their own, shared by all rule sets.

Layouts (tail = the end of the wall, replacements drawn from its last slot inward):

- no wildcard (generic, dingque, changsha, Shanghai 清混碰/敲麻): no dead wall; 136 − 53 = 83,
  108 − 53 = 55 live tiles, and in Shanghai one fewer per bonus tile set aside.
- ``caishen`` (§3.2–3.3): after the deal the next tail tile is turned as the 财神 indicator
  and set aside; ``cai_reserve_tiles`` (16) more stay when the hand is drawn: 136 − 65 − 1 −
  16 = 54 live tiles.
- ``baida`` (§5.9): after the bonus replacements the next tail tile is the indicator (turned
  again while it is bonus; those tiles are dead); 百搭 = next(indicator).
- ``bao`` (§4.2, also ne_alt §4.11): the last 12 tiles (six stacks) are reserved; the 宝
  indicator is slot :attr:`WallSpec.indicator_slot` from the end (stack #4, top) and is not
  turned at the deal, so ``indicator`` is −1: 112 − 53 − 12 = 47 live tiles (71 for ne_alt).

>>> spec = WallSpec.from_rules(load_rules("changsha"))
>>> batch = deal_batch(spec, seed=1, start=0, n=3)
>>> batch.hands.shape, batch.hands[0].sum(axis=1).tolist(), batch.live_left.tolist()
((3, 4, 34), [14, 13, 13, 13], [55, 55, 55])
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from mjsim.kernels import deal as _deal
from mjsim.kernels.rng import stream_key
from mjsim.rules import RuleSet, load_rules

#: hongzhong112 / ne_alt: the last six stacks stay in reserve (RULES.md §4.2)
BAO_RESERVED = 12
#: the 宝 indicator is the top tile of stack #4 from the end: slot 7 counting from the end
BAO_INDICATOR_SLOT = 7
#: the dice stream, shared by every rule set
DICE_STREAM = int.from_bytes(hashlib.sha256(b"mjsim.dice").digest()[:8], "little")

_INDICATOR_MODES = {"none": _deal.IND_NONE, "tail": _deal.IND_TAIL, "reserved": _deal.IND_RESERVED}
_NEXT = _deal.next_kinds()


def _multiset_stream(multiset: np.ndarray) -> int:
    digest = hashlib.sha256(b"mjsim.wall:" + multiset.astype(np.int8).tobytes()).digest()
    return int.from_bytes(digest[:8], "little")


@dataclass(frozen=True, eq=False)
class WallSpec:
    """What the wall and the deal need from a rule set. Build it with :meth:`from_rules`.

    ``multiset`` is the tile multiset, ``int8[T]`` sorted by kind (kinds 0–33 four times
    each, flowers 34–41 once each). ``indicator`` is ``"none"``, ``"tail"`` (turned from
    the tail at the deal; the wild kind is ``wild_step`` applications of next() to it) or
    ``"reserved"`` (kept face down at ``indicator_slot``, counted from the end, 1-based).
    ``reserved`` tail tiles are never drawn in normal play. ``stream`` is a hash of the
    multiset alone.

    >>> spec = WallSpec.from_rules(load_rules("hongzhong112"))
    >>> spec.size, spec.dealt, spec.reserved, spec.indicator, spec.live_at_deal
    (112, 53, 12, 'reserved', 47)
    >>> WallSpec.from_rules(load_rules("generic")).stream == WallSpec.from_rules(
    ...     load_rules("changsha_classic_1980s")).stream
    True
    """

    multiset: np.ndarray
    hand_size: int
    dealer_extra: int
    bonus_kinds: tuple[int, ...]
    wild: str
    indicator: str
    wild_step: int
    reserved: int
    indicator_slot: int
    kaibao: bool
    stream: int

    @classmethod
    def from_rules(cls, rules: RuleSet | str) -> WallSpec:
        """The spec of ``rules`` (a :class:`RuleSet` or a preset id), from its data only."""
        rules = load_rules(rules)
        counts = np.zeros(42, dtype=np.int64)
        counts[list(rules.kinds)] = 4
        flowers = tuple(range(34, 42)) if rules.has_flowers else ()
        counts[list(flowers)] = 1
        multiset = np.repeat(np.arange(42, dtype=np.int8), counts)
        if multiset.size != rules.tile_set:
            raise ValueError(f"{rules!r}: {multiset.size} tiles, but tile_set is {rules.tile_set}")
        options = rules.options
        indicator, wild_step, reserved, slot = "none", 0, 0, 0
        if rules.wild == "caishen":
            indicator = "tail"
            rule = options.get("cai_caishen_rule", "flipped")
            wild_step = {"flipped": 0, "flipped_plus_one": 1}[rule]
            reserved = int(options.get("cai_reserve_tiles", 16))
        elif rules.wild == "baida":
            indicator, wild_step = "tail", 1
        elif rules.wild == "bao":
            indicator, reserved, slot = "reserved", BAO_RESERVED, BAO_INDICATOR_SLOT
        multiset.flags.writeable = False
        spec = cls(
            multiset=multiset,
            hand_size=rules.hand_size,
            dealer_extra=1,
            bonus_kinds=tuple(sorted(set(flowers) | set(rules.bonus_kinds))),
            wild=rules.wild,
            indicator=indicator,
            wild_step=wild_step,
            reserved=reserved,
            indicator_slot=slot,
            kaibao=bool(options.get("sh_kaibao", False)),
            stream=_multiset_stream(multiset),
        )
        n_bonus = int(np.isin(multiset, spec.bonus_kinds).sum())
        if spec.dealt + 3 + 2 * n_bonus + 1 + reserved > spec.size:
            raise ValueError(f"{rules!r}: the wall is too short for the deal and its reserve")
        return spec

    @property
    def size(self) -> int:
        """Tiles in the wall, T."""
        return int(self.multiset.size)

    @property
    def dealt(self) -> int:
        """Tiles dealt from the head: ``4 * hand_size + dealer_extra``."""
        return 4 * self.hand_size + self.dealer_extra

    @property
    def is_bonus(self) -> np.ndarray:
        """``bool[42]``: which kinds are set aside and replaced."""
        mask = np.zeros(42, dtype=np.bool_)
        mask[list(self.bonus_kinds)] = True
        return mask

    @property
    def deal_seats(self) -> np.ndarray:
        """``int8[dealt]``: the seat that receives each head slot (see ``mjsim.kernels.deal``)."""
        return _deal.deal_seats(self.hand_size, self.dealer_extra)

    @property
    def live_at_deal(self) -> int:
        """Live tiles after the deal before any bonus replacement (55 for changsha)."""
        return self.size - self.dealt - self.reserved - (self.indicator == "tail")

    def _key(self) -> tuple:
        return (
            self.multiset.tobytes(),
            self.hand_size,
            self.dealer_extra,
            self.bonus_kinds,
            self.wild,
            self.indicator,
            self.wild_step,
            self.reserved,
            self.indicator_slot,
            self.kaibao,
            self.stream,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WallSpec):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


@dataclass(eq=False)
class DealBatch:
    """Deals ``start .. start + n - 1`` of ``seed``; row ``i`` is deal ``start + i``.

    - ``hands`` ``uint8[n, 4, 34]``: seat 0 (the dealer) holds ``hand_size + 1`` tiles,
      seats 1–3 ``hand_size``; bonus tiles are already set aside and replaced.
    - ``bonus`` ``uint8[n, 4]``: bonus tiles each seat set aside during the deal.
    - ``first_draw`` ``int8[n, 4]``: the tile seats 1–3 draw first if nobody claims
      (bonus-replaced), −1 for the dealer.
    - ``indicator``, ``wild`` ``int8[n]``: the indicator turned at the deal and the wild
      kind, −1 where none (always −1 for the 宝 game, whose indicator waits in the reserve).
    - ``dice`` ``uint8[n, 2]``, ``kaibao`` ``bool[n]`` (开宝, only where ``sh_kaibao``).
    - ``live_left`` ``int16[n]``: tiles left to draw in the live wall.
    - ``tail_used`` ``int16[n]``: tiles taken from the tail (replacements, indicators).
    """

    seed: int
    start: int
    hands: np.ndarray
    bonus: np.ndarray
    first_draw: np.ndarray
    indicator: np.ndarray
    wild: np.ndarray
    dice: np.ndarray
    kaibao: np.ndarray
    live_left: np.ndarray
    tail_used: np.ndarray

    ARRAYS = (
        "hands",
        "bonus",
        "first_draw",
        "indicator",
        "wild",
        "dice",
        "kaibao",
        "live_left",
        "tail_used",
    )

    def __len__(self) -> int:
        return int(self.hands.shape[0])

    @classmethod
    def concat(cls, batches: Iterable[DealBatch]) -> DealBatch:
        """Consecutive batches of one seed joined into one.

        >>> spec = WallSpec.from_rules(load_rules("generic"))
        >>> joined = DealBatch.concat([deal_batch(spec, 5, 0, 2), deal_batch(spec, 5, 2, 3)])
        >>> len(joined), bool((joined.hands == deal_batch(spec, 5, 0, 5).hands).all())
        (5, True)
        """
        batches = list(batches)
        if not batches:
            raise ValueError("no batches to join")
        first = batches[0]
        at = first.start
        for batch in batches:
            if batch.seed != first.seed or batch.start != at:
                raise ValueError("batches must share a seed and follow one another")
            at += len(batch)
        arrays = {name: np.concatenate([getattr(b, name) for b in batches]) for name in cls.ARRAYS}
        return cls(seed=first.seed, start=first.start, **arrays)


def _as_spec(spec: WallSpec | RuleSet | str) -> WallSpec:
    return spec if isinstance(spec, WallSpec) else WallSpec.from_rules(spec)


def _check_range(start: int, n: int) -> None:
    for label, value in (("start", start), ("n", n)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(f"{label} must be an integer, got {type(value).__name__}")
        if value < 0:
            raise ValueError(f"{label} must be >= 0, got {value}")
    if start + n > 2**62:
        raise ValueError(f"deal indices must stay below 2**62 (start + n = {start + n})")


def walls(spec: WallSpec | RuleSet | str, seed: int, start: int, n: int) -> np.ndarray:
    """Walls ``start .. start + n - 1`` of ``seed`` as ``int8[n, T]``, head first.

    >>> w = walls("changsha", 1, 0, 2)
    >>> w.shape, sorted(w[0].tolist()) == sorted(WallSpec.from_rules("changsha").multiset)
    ((2, 108), True)
    """
    spec = _as_spec(spec)
    _check_range(start, n)
    out = np.empty((n, spec.size), dtype=np.int8)
    _deal.walls_kernel(spec.multiset, stream_key(seed, spec.stream), np.int64(start), out)
    return out


def wall(spec: WallSpec | RuleSet | str, seed: int, index: int) -> np.ndarray:
    """Wall ``index`` of ``seed``: ``int8[T]`` in draw order, head first, tail last.

    >>> w = wall("shanghai_qhp", 7, 123)
    >>> w.size, int((w >= 34).sum()), bool((w == walls("shanghai_baida", 7, 120, 5)[3]).all())
    (144, 8, True)
    """
    return walls(spec, seed, index, 1)[0]


def deal_batch(spec: WallSpec | RuleSet | str, seed: int, start: int, n: int) -> DealBatch:
    """Deal ``start .. start + n - 1`` of ``seed`` (see :class:`DealBatch`), in parallel.

    >>> batch = deal_batch("caishen16", seed=3, start=10, n=2)
    >>> batch.hands.sum(axis=2).tolist(), batch.live_left.tolist()
    ([[17, 16, 16, 16], [17, 16, 16, 16]], [54, 54])
    >>> bool((batch.wild == batch.indicator).all())
    True
    """
    spec = _as_spec(spec)
    _check_range(start, n)
    out = DealBatch(
        seed=int(seed),
        start=int(start),
        hands=np.empty((n, 4, 34), dtype=np.uint8),
        bonus=np.empty((n, 4), dtype=np.uint8),
        first_draw=np.empty((n, 4), dtype=np.int8),
        indicator=np.empty(n, dtype=np.int8),
        wild=np.empty(n, dtype=np.int8),
        dice=np.empty((n, 2), dtype=np.uint8),
        kaibao=np.empty(n, dtype=np.bool_),
        live_left=np.empty(n, dtype=np.int16),
        tail_used=np.empty(n, dtype=np.int16),
    )
    _deal.deal_kernel(
        spec.multiset,
        spec.is_bonus,
        spec.deal_seats,
        spec.reserved,
        _INDICATOR_MODES[spec.indicator],
        spec.wild_step,
        _NEXT,
        spec.kaibao,
        stream_key(seed, spec.stream),
        stream_key(seed, DICE_STREAM),
        np.int64(start),
        out.hands,
        out.bonus,
        out.first_draw,
        out.indicator,
        out.wild,
        out.dice,
        out.kaibao,
        out.live_left,
        out.tail_used,
    )
    return out
