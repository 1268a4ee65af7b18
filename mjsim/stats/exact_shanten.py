"""Exact deal-time shanten distributions: every hand of ``n`` tiles from a rule set's wall.

Each multiset of kinds is weighted by prod C(4, c_k) (the number of tile sets that give
it), so the counts are exact integers over the C(T, n) hands. The cost of a hand is that
of :mod:`mjsim.kernels.shanten` (fewest tiles missing from the nearest win of any of the
rule set's families; shanten = cost − 1), reached without visiting hands:

1. **Per-group classes.** Every vector of a tile group (9 ranks of a suit, or the honour
   kinds) with at most ``n`` tiles is reduced to its *signature*: what the families' costs
   read from that group (its chow-and-pung and pung-only distance rows for up to ``melds``
   melds with and without the pair, its own one-suit cost, the pair-slot counts of seven /
   eight pairs, its 258 tiles …). Vectors with equal (tiles, signature) are summed.
2. **Merge.** Groups are folded into a state one at a time: rows by min-plus (melds ≤
   ``melds``, pair 0/1), pair-slot counts and tile counts by capped sums, one-suit costs by
   min. Equal merged states are summed after each group, so the state stays small. Two
   groups with the same classes (two suits of a full wall) are merged in one step, each
   pair of classes once.
3. **Last group.** The last group is joined without storing states: each pair with
   ``n`` tiles in all gets its cost, and its weight product goes to that cost's count.

**Shape conditions** (hongzhong112's pung / chow / 1-9-中 / two suits, ne_alt's 叉 /
terminal or honour / three suits: RULES.md §4.5, §4.11) as :mod:`mjsim.kernels.constrained`
reads them. A group's signature holds its flagged row: for m ≤ ``melds`` melds, p ≤ 1
pairs and each set F of the flags needed, the fewest tiles for a part with *at least* F
(:mod:`mjsim.tables.flagged` for a suit, the kernel's own DP for the honours, where a 中
pair may count as the pung). A suit is used when its part holds a meld or the pair, so
the state keeps (m, p, F, e): at least F, at most e of the three suits empty (e up to
3 − the suits needed). Merging takes the min over the splits of m, p and F into the
state's part and the group's (F1 ⊆ F and F − F1: with "at least" rows no other split is
cheaper), e + 1 where a suit's part is empty; the cost is the entry (``melds``, 1, every
flag needed, the most empties allowed).

Every value is capped at ``U`` (so states stay few); a hand whose capped cost is ``U`` is
re-run with a larger ``U`` until none is left, so the counts are exact. Bonus tiles
(flowers, Shanghai's bonus dragons) are not in the wall: a hand is dealt from the rule
set's playing kinds, as after bonus replacement.

**Indicator wildcards** (百搭, 财神: an indicator turned up from the wall after the deal,
its wild kind w read from the :class:`~mjsim.walls.WallSpec`). Given one seat's hand,
the indicator is any of the T − n tiles it does not hold, so the counts are of (hand,
indicator tile) pairs, C(T, n)·(T − n) in all. For each indicator kind i and count h of w
held, the hands of the other kinds with n − h tiles are run as above, i weighted
C(4, c)·(4 − c) instead of C(4, c), and each cost drops by h (at least 0), as in the
kernel. Runs equal up to a permutation of the suits or honours are done once; each
knows its h, so the counts are also kept by the wild tiles held.

**A wildcard not turned up at the deal** (hongzhong112's and ne_alt's 宝: its indicator
waits face down in the reserve, :class:`~mjsim.walls.WallSpec` ``indicator``
``"reserved"``) makes no tile wild at the deal, so deal-time hands are counted without
wildcards, as the deals (:func:`mjsim.sim.deals.deal_frame`, wild kind −1) score them.

**Counts past 2^64** (caishen16's 16 and 17 tiles of 136: C(136, 17)·119 ≈ 2^77.5).
Weights are uint64 and wrap, so every count comes out exact modulo 2^64. A run with 2^64
hands or more is run a second time with float64 weights: group classes are exact (below
2^37), and every other weight is a sum of products of them that passes through at most D
roundings (a product per merge, at most |states|·|classes| sums into one entry), so with
nonnegative terms each float count is within γ_D·N of the exact one (γ_D = D·u/(1 − D·u),
u = 2^-53, N the run's hands). When that bound is below 2^62 the exact count is the one
integer ≡ the wrapped count (mod 2^64) within 2^63 of the float count; else the result is
refused as not tractable. Runs below 2^64 hands are not run twice.

The compiled steps (the store, the classes, the merges, the costs) are in
:mod:`mjsim.kernels.enumeration`; this module lays out the rows from the rule set's
families and drives the runs.

>>> r = exact_shanten("changsha", 14)          # the dealer's 14 tiles, 108-tile wall
>>> r.counts[-1], r.total                      # complete at deal, out of C(108, 14)
(2640251750544, 139737927523546800)
"""

from __future__ import annotations

import copy
import itertools
import math
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..evaluate import compile_rules
from ..kernels import shanten as K
from ..kernels.deal import next_kinds
from ..kernels.enumeration import (
    C_ADD,
    C_FLAG,
    C_PAIRS,
    C_ROW,
    C_SCALAR,
    F_ADD,
    F_CARRY,
    F_FLAG,
    F_MIN,
    F_MIXED,
    F_PAIRS,
    F_ROW,
    G_258,
    G_ALLHON,
    G_FLAG,
    G_HON,
    G_ONESUIT,
    G_PAIRS,
    G_ROW,
    HONOUR,
    SPEC_COLS,
    final_counts,
    group_classes,
    merge_step,
    n_empty,
    pack_flags,
)
from ..rules import RuleSet, load_rules
from ..tables.flagged import MAX_MELDS as FLAG_MELDS
from ..tables.flagged import N_COLS as FLAG_COLS
from ..tables.flagged import load_flagged
from ..tables.suits import INF, N_COLS, load_tables
from ..walls import WallSpec

#: shanten key for hands no family can reach (the kernels' ``IMPOSSIBLE``)
IMPOSSIBLE = K.IMPOSSIBLE


class ExactUnsupported(ValueError):
    """A rule set the exact engine cannot enumerate (no family a dealt hand can reach)."""


@dataclass(frozen=True)
class ExactResult:
    """Exact shanten counts of all ``n_tiles``-tile hands of one wall.

    ``counts`` maps shanten (cost − 1; :data:`IMPOSSIBLE` for unreachable hands) to the
    number of hands, out of ``total`` = C(T, n); with an indicator wildcard, to the number
    of (hand, indicator tile) pairs, out of C(T, n)·(T − n), and ``by_wild`` splits them
    by the number h of wild tiles in the hand: h → shanten → count (empty without an
    indicator). ``tractable`` is False (and ``counts`` empty) when the state budget
    ``max_states`` ran out or the float64 check of counts past 2^64 could be wrong;
    ``reason`` says why. ``info``: the cap ``U``, classes per group, states kept (with an
    indicator: what ``total`` counts and the number of runs), and past 2^64 the bound on
    the float64 counts' error (``float_bound``, below 2^62; ``float_runs`` of the runs).

    >>> r = exact_shanten("changsha", 1)           # one tile: 13 missing from any win
    >>> r.counts, r.fraction(12)
    ({12: 108}, Fraction(1, 1))
    """

    rules_id: str
    n_tiles: int
    total: int
    counts: dict[int, int]
    tractable: bool = True
    reason: str = ""
    seconds: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)
    by_wild: dict[int, dict[int, int]] = field(default_factory=dict)

    def fraction(self, shanten: int) -> Fraction:
        """Exact probability of ``shanten`` as a fraction."""
        self._check()
        return Fraction(self.counts.get(shanten, 0), self.total)

    def probability(self, shanten: int) -> float:
        """Probability of ``shanten`` (a float)."""
        return float(self.fraction(shanten))

    @property
    def probabilities(self) -> dict[int, float]:
        """Shanten → probability, in shanten order."""
        self._check()
        return {s: c / self.total for s, c in self.counts.items()}

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (counts as strings keyed by shanten, too big for doubles)."""
        return {
            "rules": self.rules_id,
            "n_tiles": self.n_tiles,
            "total": str(self.total),
            "tractable": self.tractable,
            "reason": self.reason,
            "counts": {str(s): str(c) for s, c in self.counts.items()},
            "probabilities": self.probabilities if self.tractable else {},
            "by_wild": {
                str(h): {str(s): str(c) for s, c in by_shanten.items()}
                for h, by_shanten in self.by_wild.items()
            },
            "seconds": round(self.seconds, 3),
        }

    def _check(self) -> None:
        if not self.tractable:
            raise ValueError(f"not tractable: {self.reason}")


# --------------------------------------------------------------------------------------
# layout from the families


@dataclass
class _Layout:
    gspec: np.ndarray
    g_len: int
    feats: np.ndarray
    s_len: int
    cspec: np.ndarray
    init: np.ndarray  # the empty state (before U is applied: -1 marks "U")
    honours_first: bool
    size: int
    has_pairs: bool
    flagged: bool


def _layout(comp, rules: RuleSet) -> _Layout:
    melds = comp.melds
    size = 3 * melds + 2
    R = 2 * (melds + 1)
    fams = [tuple(int(x) for x in row) for row in comp.families]
    gspec: list[list[int]] = []
    g_off = 1
    g_rows: dict[tuple[int, int], int] = {}

    def grow(table: int, pair: int) -> int:
        nonlocal g_off
        if (table, pair) not in g_rows:
            gspec.append([G_ROW, g_off, table, pair])
            g_rows[(table, pair)] = g_off
            g_off += R
        return g_rows[(table, pair)]

    def gscalar(kind: int, a: int = 0, b: int = 0) -> int:
        nonlocal g_off
        for row in gspec:
            if row[0] == kind and row[2] == a and row[3] == b:
                return row[1]
        off = g_off
        gspec.append([kind, off, a, b])
        g_off += 3 if kind == G_PAIRS else R * (pack_flags(a, a) + 1) if kind == G_FLAG else 1
        return off

    # features of one block (a block per possible void suit)
    block: list[tuple] = []  # (feature kind, group offset, param, cost kind, cost params, init)
    flagged: list[tuple[int, int, int]] = []  # (group offset, flags needed, suits needed)
    honours_first = False
    has_pairs = False
    for form, pair, flag, need, red_pair, min_suits in fams:
        if form == K.CONSTRAINED:
            if melds > FLAG_MELDS:
                raise ExactUnsupported(
                    f"shape conditions with {melds} melds: the flagged tables stop at {FLAG_MELDS}"
                )
            flagged.append((gscalar(G_FLAG, need, red_pair), need, min_suits))
        elif form in (K.STANDARD, K.ALL_PUNGS):
            block.append(("row", grow(1 if form == K.ALL_PUNGS else 0, pair)))
        elif form == K.ONE_SUIT:
            block.append(("min", gscalar(G_ONESUIT, pair)))
        elif form == K.MIXED_ONE_SUIT:
            honours_first = True
            block.append(("mixed", grow(0, pair)))
        elif form == K.ALL_HONOURS and not flag:
            block.append(("min", gscalar(G_ALLHON, pair)))
        elif form == K.ALL_HONOURS:
            block.append(("add", gscalar(G_HON), size))
        elif form == K.ALL_258:
            block.append(("add", gscalar(G_258), size))
        elif form in (K.SEVEN_PAIRS, K.EIGHT_PAIRS):
            has_pairs = True
            np_ = 7 if form == K.SEVEN_PAIRS else 8
            block.append(
                ("pairs", gscalar(G_PAIRS, np_, int(flag)), np_, int(form == K.EIGHT_PAIRS))
            )
        elif form == K.QUANQIUREN:
            continue  # needs every meld exposed: never a dealt hand
        else:  # pragma: no cover - the forms above are all of them
            raise ExactUnsupported(f"unknown family form {form}")
    blocks = [-1] if comp.void == -2 else [0, 1, 2]
    feats: list[list[int]] = []
    cspec: list[list[int]] = []
    init: list[int] = [0]
    s_off = 1
    for excl in blocks:
        for item in block:
            kind = item[0]
            if kind == "row":
                feats.append([F_ROW, s_off, item[1], excl, 0, 0])
                cspec.append([C_ROW, s_off, 0, 0, 0, 0])
                init += [0] + [-1] * (R - 1)
                s_off += R
            elif kind == "min":
                feats.append([F_MIN, s_off, item[1], excl, 0, 0])
                cspec.append([C_SCALAR, s_off, 0, 0, 0, 0])
                init += [-1]
                s_off += 1
            elif kind == "mixed":
                carry = s_off + 1
                feats.append([F_MIXED, s_off, item[1], excl, carry, 0])
                feats.append([F_CARRY, carry, item[1], -1, 0, 0])
                cspec.append([C_SCALAR, s_off, 0, 0, 0, 0])
                init += [-1] + [0] + [-1] * (R - 1)
                s_off += 1 + R
            elif kind == "pairs":
                feats.append([F_PAIRS, s_off, item[1], excl, item[2], 0])
                cspec.append([C_PAIRS, s_off, item[2], item[3], 0, 0])
                init += [0, 0, 0]
                s_off += 3
            else:  # add: the kernel's 将一色 / 风一色 ignore the void suit
                feats.append([F_ADD, s_off, item[1], -1, item[2], 0])
                cspec.append([C_ADD, s_off, item[2], 0, 0, 0])
                init += [0]
                s_off += 1
    for g_flag, need, min_suits in flagged:  # the kernel reads no void suit here
        n_flags = pack_flags(need, need) + 1
        feats.append([F_FLAG, s_off, g_flag, -1, n_flags, min_suits])
        cspec.append([C_FLAG, s_off, n_flags, min_suits, 0, 0])
        n_e = n_empty(min_suits)  # the empty target holds no flag and leaves every suit empty
        entries = R * n_flags * n_e
        init += [0] * n_e + [-1] * (entries - n_e)
        s_off += entries
    if not cspec:
        raise ExactUnsupported(f"rule set {rules.id!r} has no family a dealt hand can reach")

    def arr(rows: list[list[int]]) -> np.ndarray:
        out = np.zeros((max(len(rows), 1), SPEC_COLS), dtype=np.int64)
        for i, r in enumerate(rows):
            out[i, : len(r)] = r
        return out[: len(rows)] if rows else out[:0]

    return _Layout(
        gspec=arr(gspec),
        g_len=g_off,
        feats=arr(feats),
        s_len=s_off,
        cspec=arr(cspec),
        init=np.array(init, dtype=np.int64),
        honours_first=honours_first,
        size=size,
        has_pairs=has_pairs,
        flagged=bool(flagged),
    )


# --------------------------------------------------------------------------------------
# the driver


def _wall(comp, wall) -> np.ndarray:
    if wall is None:
        copies = np.where(comp.kind_mask, 4, 0).astype(np.int64)
    else:
        copies = np.asarray(wall, dtype=np.int64).reshape(-1)
        if copies.shape != (34,) or copies.min() < 0 or copies.max() > 4:
            raise ValueError("wall must give 34 copy counts, each 0–4")
        if (copies[~comp.kind_mask] > 0).any():
            raise ValueError("wall holds kinds that are not playing kinds of this rule set")
    return copies


def _partial_honour_rows(honour_mask: np.ndarray) -> np.ndarray:
    """Honour rows by base-5 index when only some honours play (the kernel's own DP);
    rows of vectors holding a non-playing honour are left at INF (never read)."""
    rows = np.full((5**7, N_COLS), INF, dtype=np.uint8)
    kinds = np.flatnonzero(honour_mask)
    counts = np.zeros(34, dtype=np.uint8)
    wild = np.zeros(34, dtype=np.bool_)
    caps = np.full(34, 4, dtype=np.int64)
    out = np.empty(N_COLS, dtype=np.int64)
    for combo in itertools.product(range(5), repeat=kinds.size):
        counts[27 + kinds] = combo
        K.honour_row(counts, honour_mask, wild, caps, out)
        rows[sum(c * 5 ** int(k) for c, k in zip(combo, kinds))] = np.minimum(out, INF)
    return rows


#: C(a, b): the ways to hold b of a kind's a copies
_BINOM = np.array([[math.comb(a, b) for b in range(5)] for a in range(5)], dtype=np.uint64)
#: C(a, b)·(a − b): hold b of the a copies, and the indicator is one of the others
_BINOM_TURNED = np.array(
    [[math.comb(a, b) * max(a - b, 0) for b in range(5)] for a in range(5)], dtype=np.uint64
)


def _wild_of(rules: RuleSet) -> np.ndarray | None:
    """The wild kind each indicator kind makes (``int64[34]``), for a rule set whose
    indicator is turned up at the deal (:class:`~mjsim.walls.WallSpec` ``indicator``
    ``"tail"``: ``wild_step`` steps of the deal's next()); None for any other.

    >>> _wild_of(load_rules("shanghai_baida"))[[8, 12, 30]].tolist()  # 9m→1m, 4p→5p, 4z→1z
    [0, 13, 27]
    >>> int(_wild_of(load_rules("caishen16"))[5]), _wild_of(load_rules("changsha"))  # 6m: 6m
    (5, None)
    """
    spec = WallSpec.from_rules(rules)
    if spec.indicator != "tail":
        return None
    kinds, nxt = np.arange(34), next_kinds().astype(np.int64)
    for _ in range(spec.wild_step):
        kinds = nxt[kinds]
    return kinds


def _symmetric_key(weights: np.ndarray, honour_mask: np.ndarray) -> tuple:
    """Equal for weight tables that differ by a permutation of the suits or of the playing
    honours, which no cost sees (the void suit, if any, is free: ``comp.void`` < 0)."""
    suits = sorted(weights[9 * g : 9 * g + 9].tobytes() for g in range(3))
    return tuple(suits) + tuple(sorted(row.tobytes() for row in weights[27:][honour_mask]))


def _runs(
    copies: np.ndarray, n_tiles: int, wild_of: np.ndarray | None, honour_mask: np.ndarray
) -> list[tuple[np.ndarray, int, int]]:
    """The enumerations behind one result: (weights[34, 5], tiles, multiplier).

    Without wildcards, the one run of C(copies_k, c). With an indicator kind i and wild
    kind w = ``wild_of[i]``, for each count h of w held: the hands of the other kinds with
    ``n_tiles`` − h tiles, i weighted C(copies_i, c)·(copies_i − c), times the ways to hold
    h of w (so w = i, 财神, is one of i's copies held). Runs equal up to symmetry are merged.

    >>> runs = _runs(np.full(34, 4), 14, _wild_of(load_rules("caishen16")), np.ones(7, bool))
    >>> len(runs), sum(m * _n_hands(w, n) for w, n, m in runs) == math.comb(136, 14) * 122
    (40, True)
    """
    base = _BINOM[copies]
    if wild_of is None:
        return [(base, n_tiles, 1)]
    runs: dict[tuple, list] = {}
    for i in np.flatnonzero(copies):
        w = wild_of[i]
        turned = base.copy()
        turned[i] = _BINOM_TURNED[copies[i]]
        for held in range(min(int(copies[w]), n_tiles) + 1):
            if turned[w, held] == 0:
                continue
            sub = turned.copy()
            sub[w] = _BINOM[0]
            key = (_symmetric_key(sub, honour_mask), n_tiles - held)
            runs.setdefault(key, [sub, n_tiles - held, 0])[2] += int(turned[w, held])
    return [(sub, n, m) for sub, n, m in runs.values()]


def _n_hands(weights: np.ndarray, n_tiles: int) -> int:
    """Total weight of the ``n_tiles``-tile vectors of ``weights`` (x^n in prod_k
    sum_c weights[k, c] x^c), exactly.

    >>> _n_hands(_BINOM[np.full(34, 4)], 14) == math.comb(136, 14)
    True
    """
    poly = [1] + [0] * n_tiles
    for row in weights.tolist():
        poly = [sum(row[c] * poly[m - c] for c in range(min(m, 4) + 1)) for m in range(n_tiles + 1)]
    return poly[n_tiles]


def _run(comp, lay: _Layout, weights, dtype, n_tiles, n_max, U, max_states, info, cache):
    """Counts by capped cost of the ``n_tiles``-tile vectors of ``weights``, summed in
    ``dtype`` (uint64 wraps modulo 2^64; float64 rounds); ``cache`` keeps the group classes
    (of up to ``n_max`` tiles, uint64 weights: exact, each group's below 2^37) of the runs
    of one result. ``info["roundings"]``: at most this many roundings on any float weight's
    way (a product per merge, and the sums into one entry, at most |states|·|classes|)."""
    t = load_tables()
    flag_tab = load_flagged() if lay.flagged else _NO_FLAGS
    melds = comp.melds
    groups = [0, 1, 2] + ([HONOUR] if comp.honour_mask.any() else [])
    classes, class_keys = {}, {}
    for g in groups:
        rows = weights[27:] if g == HONOUR else weights[9 * g : 9 * g + 9]
        key = class_keys[g] = (g == HONOUR, rows.tobytes(), U)
        if key not in cache:
            partial = g == HONOUR and not comp.honour_mask.all()
            hon = _partial_honour_rows(comp.honour_mask) if partial else t.honour
            cache[key] = group_classes(
                g,
                rows,
                n_max,
                lay.gspec,
                lay.g_len,
                U,
                melds,
                t.std,
                t.pung,
                hon,
                comp.honour_mask,
                flag_tab,
            )
        gk, gw = cache[key]
        classes[g] = gk, gw.astype(dtype, copy=False)
    info["group_classes"] = {("mpsz"[g]): int(classes[g][0].shape[0]) for g in groups}
    if lay.honours_first:
        order = ([HONOUR] if HONOUR in groups else []) + [0, 1, 2]
    else:  # the group with the fewest classes goes last (the join that is not stored)
        order = sorted(groups, key=lambda g: -classes[g][0].shape[0])
        if lay.flagged:
            # the last join pairs states and classes of exactly n tiles, a stored merge
            # all those of at most n: with flagged rows (a costly merge) most go last
            order = order[1:] + order[:1]
    init = np.where(lay.init < 0, U, lay.init).astype(np.int8)
    skeys = init[None, :].copy()
    sw = np.ones(1, dtype=dtype)
    info["states"] = []
    info["roundings"] = 0
    # the first two groups in one step when their classes are the same and no feature
    # tells them apart (a void suit's)
    pair = class_keys[order[0]] == class_keys[order[1]] and (lay.feats[:, 3] < 0).all()
    for k, g in enumerate(order[:-1]):
        gk, gw = classes[g]
        info["roundings"] += (gk.shape[0] if pair and k == 1 else skeys.shape[0]) * gk.shape[0] + 1
        if pair and k == 0:
            continue  # merged with the next group
        first_g = order[0] if pair and k == 1 else -1
        skeys, sw, ok = merge_step(
            skeys, sw, gk, gw, g, first_g, n_tiles, lay.feats, melds, U, lay.s_len, max_states
        )
        if not ok:
            raise _Intractable(f"more than {max_states:,} merged states (raise max_states)")
        info["states"].append(int(skeys.shape[0]))
    g = order[-1]
    gk, gw = classes[g]
    info["roundings"] += skeys.shape[0] * gk.shape[0] + 1
    return final_counts(skeys, sw, gk, gw, g, n_tiles, lay.feats, lay.cspec, melds, U, lay.s_len)


class _Intractable(Exception):
    """A run the engine gives up on (its message is the result's ``reason``)."""


#: the flagged table of a layout without shape conditions (never read)
_NO_FLAGS = np.zeros((1, FLAG_COLS), dtype=np.uint8)

#: the wrapping weights of every run (their counts are exact modulo 2^bits)
_WRAP = np.uint64


def _lift(wrapped: np.ndarray, approx: np.ndarray) -> list[int]:
    """The integers ≡ ``wrapped`` modulo 2^bits of ``_WRAP`` nearest ``approx``: the exact
    counts when ``approx`` is within 2^(bits − 1) of them.

    >>> x = [3, 2**70 + 5, 7 * 2**64 - 1]
    >>> _lift(np.array(x, dtype=object) % 2**64, np.array(x, dtype=np.float64)) == x
    True
    """
    half = 2 ** (np.iinfo(_WRAP).bits - 1)
    return [
        w + (int(a) - w + half) // (2 * half) * (2 * half)
        for w, a in zip(wrapped.tolist(), approx.tolist())
    ]


def _exact_hist(
    comp, lay: _Layout, weights, n_tiles, n_max, U, max_states, info, cache
) -> list[int]:
    """:func:`_run`'s counts by cost as integers, re-run with a larger cap ``U`` until no
    hand is left at the cap (index ``lay.size`` + 1: out of reach). A run of 2^bits hands
    or more (bits of ``_WRAP``) is run again with float64 weights, and each count is lifted
    from the two; :class:`_Intractable` when the state budget runs out or the float error
    bound reaches 2^(bits − 2)."""
    bits = np.iinfo(_WRAP).bits
    n_hands = _n_hands(weights, n_tiles)
    while True:
        info["U"] = U
        hist = _run(comp, lay, weights, _WRAP, n_tiles, n_max, U, max_states, info, cache)
        if n_hands >= 2**bits:
            # |float − exact| ≤ γ_D·n_hands, γ_D = D·u / (1 − D·u), u = 2^-53
            D = info["roundings"]
            if D * n_hands >= 2 ** (bits - 2) * (2**53 - D):
                raise _Intractable(
                    f"the float64 error bound of {n_hands:.3g} hands reaches "
                    f"2^{bits - 2}, too close to the 2^{bits} wrap"
                )
            approx = _run(comp, lay, weights, np.float64, n_tiles, n_max, U, max_states, {}, cache)
            counts = _lift(hist, approx)
            info["float_bound"] = D * n_hands / (2**53 - D)
        else:
            counts = [int(c) for c in hist.tolist()]
        if counts[U] == 0 or lay.size + 1 == U:
            return counts
        U = min(lay.size + 1, U + 3)


def exact_shanten(
    rules: str | RuleSet,
    n_tiles: int | None = None,
    *,
    wall: Any = None,
    max_states: int = 20_000_000,
) -> ExactResult:
    """Exact shanten counts of every ``n_tiles``-tile hand dealt from ``rules``'s wall.

    ``n_tiles`` defaults to the hand size (13); use ``hand_size + 1`` for the dealer.
    ``wall`` optionally gives the copies (0–4) of each of the 34 kinds left in the wall,
    e.g. after some tiles are seen; by default 4 of each playing kind. Shanten is the
    kernels' cost − 1 for any ``n_tiles`` (for fewer than 13 tiles it is only that: the
    tiles missing from a win, minus one).

    >>> exact_shanten("changsha", 13).probability(0)
    0.00041125573599975845

    Where an indicator is turned up at the deal (百搭, 财神), the counts are of (hand,
    indicator tile) pairs: the indicator is any of the T − n tiles not in the hand, and the
    hand's tiles of the wild kind it makes are free (cost − wilds, at least 0); ``by_wild``
    splits them by the wild tiles held.

    >>> r = exact_shanten("shanghai_baida", 14)    # the dealer's 14 of 124 tiles
    >>> r.total == math.comb(124, 14) * 110, r.counts[-1]
    (True, 30272892727798084)
    >>> sum(r.by_wild[4].values()) == 124 * math.comb(119, 10)  # all four 百搭 held
    True

    Shape conditions are counted as the kernel reads them (ne_alt: 叉, a terminal or
    honour, three suits; its 宝 is not known at the deal):

    >>> r = exact_shanten("ne_alt", 14)
    >>> r.total == math.comb(136, 14), r.counts[-1]
    (True, 2984254352640)
    """
    rules = load_rules(rules)
    comp = compile_rules(rules)
    if n_tiles is None:
        n_tiles = rules.hand_size
    if not 0 <= n_tiles <= rules.hand_size + 1:
        raise ValueError(f"n_tiles must be 0–{rules.hand_size + 1}, got {n_tiles}")
    copies = _wall(comp, wall)
    key = (rules, n_tiles, copies.tobytes(), max_states, _WRAP)
    if key not in _RESULTS:
        if len(_RESULTS) >= _KEEP:
            del _RESULTS[next(iter(_RESULTS))]  # the oldest
        _RESULTS[key] = _count(rules, comp, n_tiles, copies, max_states)
    return copy.deepcopy(_RESULTS[key])


#: the results of this process's :func:`exact_shanten` calls, oldest first (a report asks
#: for the same counts several times: its deal odds, its summary, the atlas's row)
_RESULTS: dict[tuple, ExactResult] = {}
_KEEP = 64


def _count(rules: RuleSet, comp, n_tiles: int, copies: np.ndarray, max_states: int) -> ExactResult:
    """:func:`exact_shanten`'s counts, computed."""
    wild_of = _wild_of(rules)
    lay = _layout(comp, rules)
    T = int(copies.sum())
    total = math.comb(T, n_tiles) * (1 if wild_of is None else T - n_tiles)
    runs = _runs(copies, n_tiles, wild_of, comp.honour_mask)
    t0 = time.perf_counter()
    # wild tiles held are free, so the other tiles' costs run higher by as many
    most_held = max(n_tiles - n for _, n, _ in runs)
    U = min(lay.size + 1, (8 if lay.has_pairs else 11 if lay.flagged else 10) + most_held)
    by_wild: dict[int, dict[int, int]] = {}
    cache: dict[tuple, tuple] = {}
    info: dict[str, Any] = {}
    top_u = 0
    float_bounds = []
    for weights, n_sub, mult in runs:
        held = n_tiles - n_sub
        info = {}
        try:
            hist = _exact_hist(comp, lay, weights, n_sub, n_tiles, U, max_states, info, cache)
        except _Intractable as why:
            return ExactResult(
                rules.id, n_tiles, total, {}, False, str(why), time.perf_counter() - t0, info
            )
        top_u = max(top_u, info["U"])
        float_bounds += [info["float_bound"]] if "float_bound" in info else []
        held_counts = by_wild.setdefault(held, {})
        for c, count in enumerate(hist):
            if count:
                key = IMPOSSIBLE if c == lay.size + 1 else max(c - held, 0) - 1
                held_counts[key] = held_counts.get(key, 0) + mult * count
    counts: dict[int, int] = {}
    for by_shanten in by_wild.values():
        for s, count in by_shanten.items():
            counts[s] = counts.get(s, 0) + count
    if wild_of is not None:
        info = {
            "total": "(hand, indicator tile) pairs: C(T, n)·(T − n)",
            "runs": len(runs),
            "U": top_u,
            "float_runs": len(float_bounds),
        }
        if float_bounds:
            info["float_bound"] = max(float_bounds)
    if sum(counts.values()) != total:  # pragma: no cover - a bug, never a result
        raise RuntimeError(f"exact counts sum to {sum(counts.values())}, not {total}")
    return ExactResult(
        rules.id,
        n_tiles,
        total,
        dict(sorted(counts.items())),
        True,
        "",
        time.perf_counter() - t0,
        info,
        {h: dict(sorted(c.items())) for h, c in sorted(by_wild.items())}
        if wild_of is not None
        else {},
    )


def p_complete(rules: str | RuleSet, exact: bool = False) -> float | Fraction:
    """Probability that the dealer's ``hand_size + 1`` tiles are a win (shanten −1).

    >>> p_complete("changsha", exact=True)
    Fraction(6111693867, 323467424823025)
    """
    rules = load_rules(rules)
    r = exact_shanten(rules, rules.hand_size + 1)
    return r.fraction(-1) if exact else r.probability(-1)


def p_ready(rules: str | RuleSet, exact: bool = False) -> float | Fraction:
    """Probability that ``hand_size`` dealt tiles are ready (shanten 0).

    >>> f"{p_ready('changsha'):.6e}"
    '4.112557e-04'
    """
    rules = load_rules(rules)
    r = exact_shanten(rules, rules.hand_size)
    return r.fraction(0) if exact else r.probability(0)


__all__ = [
    "IMPOSSIBLE",
    "ExactResult",
    "ExactUnsupported",
    "exact_shanten",
    "p_complete",
    "p_ready",
]
