"""Exact deal-time probabilities of the 起手胡 patterns (RULES.md §2.8).

Method: a dealt hand of n tiles from a wall of 4 copies of each kind is a count vector c
with weight ∏ C(4, c_k); there are C(4·kinds, n) hands in all. Every count vector of one
suit (5⁹ of them, cut at 14 tiles) is enumerated once with numpy and reduced to the few
features a pattern reads (a *signature*: quads, triplets, 258 tiles, pair runs, …), so a
suit becomes a table {(tiles, signature): weight}. The suits m, p, s (and the honours, if
the rule set has them, which take hand slots and can make 四喜/六六顺) are then combined
by a DP over the groups that carries only the state the pattern needs, with Python
integers throughout, so every probability is an exact fraction. 三同 would need the AND of
three 9-bit pair-rank masks; it is done by inclusion–exclusion instead: the hands whose
masks all contain a rank set R factorise over the suits (superset sums), and R needs
6·|R| tiles, so only |R| ≤ 2 occurs.

The figures are for the dealt tiles: 13 for a non-dealer, 14 for the dealer (§6.3 C15).
With ``cs_qs_eval = "before_first_discard"`` a non-dealer whose first tile is a wall draw
is evaluated on 14 uniform tiles, i.e. the dealer figures; claimed tiles are not modelled.

>>> from mjsim.rules import load_rules
>>> r = exact_qishou(load_rules("changsha"))
>>> e = r["banban"]["non_dealer"]  # no 258 tile: 13 of the 72 other tiles
>>> e["numerator"] == comb(72, 13), e["denominator"] == comb(108, 13), round(e["p"], 6)
(True, True, 0.003443)
>>> round(r["queyise"]["dealer"]["p"], 5), r["santong"]
(0.00642, {'off': True})
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from ..kernels.qishou import LONE_258_FIVE, PATTERNS, TABLE, QishouConfig, qishou_config
from ..rules import load_rules

#: hand sizes reported: the non-dealer's 13 dealt tiles and the dealer's 14
SEATS = (("non_dealer", 13), ("dealer", 14))
MAX_TILES = 14
_C4 = np.array([comb(4, c) for c in range(5)], dtype=np.int64)


# --------------------------------------------------------------------------- one group


@cache
def _vectors(n_kinds: int, max_tiles: int = MAX_TILES) -> np.ndarray:
    """Every count vector of ``n_kinds`` kinds (0–4 copies) with at most ``max_tiles`` tiles."""
    vecs = np.zeros((1, 0), dtype=np.uint8)
    for _ in range(n_kinds):
        vecs = np.concatenate(
            [np.hstack([vecs, np.full((len(vecs), 1), c, np.uint8)]) for c in range(5)]
        )
        vecs = vecs[vecs.sum(axis=1, dtype=np.int64) <= max_tiles]
    return vecs


@cache
def _suit_features() -> dict[str, np.ndarray]:
    """Per-suit features of every suit vector (ranks 1–9) with at most 14 tiles."""
    c = _vectors(9).astype(np.int64)
    n258 = c[:, 1] + c[:, 4] + c[:, 7]
    five_only = (n258 == 1) & (c[:, 4] == 1)
    n = c.sum(axis=1)
    # 步步高: greedy packing of runs of three consecutive pairs, from the lowest rank
    d = c // 2
    runs = np.zeros(len(c), dtype=np.int64)
    x0, x1 = d[:, 0].copy(), d[:, 1].copy()
    for i in range(7):
        x2 = d[:, i + 2]
        k = np.minimum(np.minimum(x0, x1), x2)
        runs += k
        x0, x1 = x1 - k, x2 - k
    return {
        "n": n,
        "w": np.prod(_C4[c], axis=1),
        "has258": (n258 > 0).astype(np.int64),
        # 0: no 258 tile; 1: the only 258 tile is one 5; 2: as 1 and the suit is that 5
        # alone; 3: any other 258 content
        "five": np.where(five_only, 1 + (n == 1), np.where(n258 > 0, 3, 0)),
        "quads": (c == 4).sum(axis=1),
        "trips": (c == 3).sum(axis=1),
        "pairmask": ((c >= 2) << np.arange(9)).sum(axis=1),
        "runs": runs,
        "pair2": (c[:, 1] >= 2).astype(np.int64),
        "absent": (n == 0).astype(np.int64),
    }


@cache
def _honour_features(n_kinds: int) -> dict[str, np.ndarray]:
    c = _vectors(n_kinds).astype(np.int64)
    zero = np.zeros(len(c), dtype=np.int64)
    return {
        "n": c.sum(axis=1),
        "w": np.prod(_C4[c], axis=1),
        "quads": (c == 4).sum(axis=1),
        "trips": (c == 3).sum(axis=1),
        "zero": zero,
    }


def _table(features: dict[str, np.ndarray], sig: np.ndarray) -> dict[tuple[int, int], int]:
    """{(tiles, signature): total weight} of one group."""
    n, w = features["n"], features["w"]
    size = int(sig.max()) + 1
    sums = np.bincount(n * size + sig, weights=w)  # float64, exact: every sum < 2**53
    assert sums.max() < 2**53
    return {(int(k // size), int(k % size)): int(v) for k, v in enumerate(sums) if v}


# --------------------------------------------------------------------------- the folds


@dataclass(frozen=True)
class _Fold:
    """How one pattern reads the groups: a signature per suit (by suit index 0–2) and for
    the honours, a state with its start value and merge, and the count of a final state."""

    suit_sig: Callable[[dict, int], np.ndarray]
    honour_sig: Callable[[dict], np.ndarray]
    start: object
    merge: Callable[[object, int], object]
    value: Callable[[object], int]


def _add(state: int, sig: int) -> int:
    return state + sig


def _zero(h: dict) -> np.ndarray:
    return h["zero"]


def _five_merge(state, sig):
    five_only, lone, other = state
    return (
        min(five_only + (sig in (1, 2)), 2),
        min(lone + (sig == 2), 2),
        min(other + (sig == 3), 1),
    )


def _folds(config: QishouConfig) -> dict[str, _Fold]:
    """The DP of each pattern (三同 is done apart, by inclusion–exclusion)."""
    reuse = config.reuse_quad

    def trips(f, *_):
        return f["trips"] + f["quads"] if reuse else f["trips"]

    if config.yizhihua_mode == LONE_258_FIVE:

        def five_value(s):
            return int(s[0] == 1)
    else:

        def five_value(s):
            return int((s[0] == 1 and s[2] == 0) or s[1] == 1)

    return {
        "banban": _Fold(lambda f, g: f["has258"], _zero, 0, max, lambda s: 1 - s),
        "sixi": _Fold(lambda f, g: f["quads"], lambda h: h["quads"], 0, _add, lambda s: s),
        "liuliushun": _Fold(trips, trips, 0, _add, lambda s: s // 2),
        "queyise": _Fold(lambda f, g: f["absent"], _zero, 0, _add, lambda s: s),
        "yizhihua": _Fold(lambda f, g: f["five"], _zero, (0, 0, 0), _five_merge, five_value),
        "bubugao": _Fold(lambda f, g: f["runs"], _zero, 0, _add, lambda s: s),
        "jintongyunv": _Fold(
            lambda f, g: f["pair2"] if g > 0 else 0 * f["pair2"],
            _zero,
            0,
            _add,
            lambda s: int(s == 2),
        ),
    }


def _any_basic_fold(config: QishouConfig) -> _Fold:
    """At least one enabled basic pattern: state (any 258, quads, triplets, absent suits),
    each capped where the answer stops changing."""
    on = dict(zip(PATTERNS, config.enabled))
    reuse = config.reuse_quad

    def suit_sig(f, g):
        t = f["trips"] + f["quads"] if reuse else f["trips"]
        return ((f["has258"] * 2 + np.minimum(f["quads"], 1)) * 3 + np.minimum(t, 2)) * 2 + f[
            "absent"
        ]

    def honour_sig(h):
        t = h["trips"] + h["quads"] if reuse else h["trips"]
        return (np.minimum(h["quads"], 1)) * 6 + np.minimum(t, 2) * 2

    def merge(state, sig):
        any258, quads, trips, absent = state
        sig, a = divmod(sig, 2)
        sig, t = divmod(sig, 3)
        h, q = divmod(sig, 2)
        return (any258 | h, min(quads + q, 1), min(trips + t, 2), min(absent + a, 1))

    def value(state):
        any258, quads, trips, absent = state
        return int(
            (on["banban"] and not any258)
            or (on["sixi"] and quads >= 1)
            or (on["liuliushun"] and trips >= 2)
            or (on["queyise"] and absent >= 1)
        )

    return _Fold(suit_sig, honour_sig, (0, 0, 0, 0), merge, value)


def _run_fold(fold: _Fold, n_honours: int, sizes: tuple[int, ...]) -> dict[int, dict[int, int]]:
    """{hand size: {count: number of weighted hands}} for one pattern."""
    suits = _suit_features()
    groups = [_table(suits, np.asarray(fold.suit_sig(suits, g), dtype=np.int64)) for g in range(3)]
    if n_honours:
        hon = _honour_features(n_honours)
        groups.append(_table(hon, np.asarray(fold.honour_sig(hon), dtype=np.int64)))
    n_max = max(sizes)
    states: dict = {(0, fold.start): 1}
    for table in groups:
        new: dict = defaultdict(int)
        for (n1, s1), w1 in states.items():
            for (n2, sig), w2 in table.items():
                if n1 + n2 <= n_max:
                    new[(n1 + n2, fold.merge(s1, sig))] += w1 * w2
        states = new
    out: dict[int, dict[int, int]] = {n: defaultdict(int) for n in sizes}
    for (n, state), w in states.items():
        if n in out:
            out[n][fold.value(state)] += w
    return {n: dict(dist) for n, dist in out.items()}


def _poly_mul(a: list[int], b: list[int], n_max: int) -> list[int]:
    out = [0] * (n_max + 1)
    for i, x in enumerate(a):
        if x:
            for j in range(n_max + 1 - i):
                out[i + j] += x * b[j]
    return out


def _santong(n_honours: int, sizes: tuple[int, ...]) -> dict[int, dict[int, int]]:
    """三同 by inclusion–exclusion over rank sets R (only |R| ≤ 2 fit in 14 tiles)."""
    n_max = max(sizes)
    f = _suit_features()
    size = 512
    dense = np.bincount(
        f["n"] * size + f["pairmask"], weights=f["w"], minlength=(MAX_TILES + 1) * size
    ).reshape(MAX_TILES + 1, size)
    dense = np.rint(dense).astype(np.int64)
    for bit in range(9):  # superset sums: sup[:, R] = weight of suits whose mask ⊇ R
        b = 1 << bit
        has = (np.arange(size) & b) != 0
        dense[:, ~has] += dense[:, np.flatnonzero(~has) | b]
    if n_honours:
        h = _honour_features(n_honours)
        honours = [int(x) for x in np.bincount(h["n"], weights=h["w"], minlength=n_max + 1)]
    else:
        honours = [1]
    honours = (honours + [0] * (n_max + 1))[: n_max + 1]
    sets = [r for r in range(size) if 6 * r.bit_count() <= n_max]
    both = {}  # hands whose three masks all contain R, by hand size
    for r in sets:
        col = [int(x) for x in dense[: n_max + 1, r]]
        both[r] = _poly_mul(_poly_mul(_poly_mul(col, col, n_max), col, n_max), honours, n_max)
    out = {}
    for n in sizes:
        dist: dict[int, int] = defaultdict(int)
        for s in sets:  # exactly the ranks S: Möbius inversion of the superset counts
            exact = sum((-1) ** (r & ~s).bit_count() * both[r][n] for r in sets if r & s == s)
            if exact:
                dist[s.bit_count()] += exact
        out[n] = dict(dist)
    return out


def _honour_kinds(rules) -> int:
    if rules.has_flowers or rules.bonus_kinds:
        raise NotImplementedError(
            f"exact 起手胡 odds need a wall without flowers or bonus tiles "
            f"(rule set {rules.id!r} has tile set {rules.tile_set})"
        )
    kinds = rules.kinds
    if tuple(k for k in kinds if k < 27) != tuple(range(27)):
        raise NotImplementedError(f"exact 起手胡 odds need all three suits (rule set {rules.id!r})")
    return sum(1 for k in kinds if k >= 27)


def count_distributions(
    rules, sizes: tuple[int, ...] = (13, 14)
) -> dict[str, dict[int, dict[int, int]]]:
    """Exact distribution of every raw pattern count (enabled or not) and of ``any_basic``
    (0/1: some enabled basic pattern counts), as ``{pattern: {size: {count: hands}}}``,
    where ``hands`` is a number of weighted hands out of C(tiles, size).

    >>> from mjsim.rules import load_rules
    >>> count_distributions(load_rules("changsha"), sizes=(4,))["sixi"]
    {4: {0: 5359068, 1: 27}}
    """
    if not sizes or min(sizes) < 0 or max(sizes) > MAX_TILES:
        raise ValueError(f"sizes must lie in 0..{MAX_TILES}, got {sizes}")
    config = qishou_config(rules)
    n_honours = _honour_kinds(rules)
    sizes = tuple(sorted(set(sizes)))
    folds = _folds(config)
    out = {}
    for p in PATTERNS:
        out[p] = (
            _santong(n_honours, sizes) if p == "santong" else _run_fold(folds[p], n_honours, sizes)
        )
    out["any_basic"] = _run_fold(_any_basic_fold(config), n_honours, sizes)
    total = 4 * len(rules.kinds)
    for p, by_size in out.items():
        for n, dist in by_size.items():
            assert sum(dist.values()) == comb(total, n), (p, n)
    return out


def exact_qishou(rules, *, include_off: bool = False) -> dict[str, dict]:
    """Exact deal-time odds of each 起手胡 pattern for the dealer (14 tiles) and a
    non-dealer (13), under the rule set's ``cs_qs_*`` options (``rules``: a rule set or
    its id).

    Each seat entry holds ``p`` (P(count ≥ 1)), its exact ``numerator`` / ``denominator``
    (C(tiles, 13) or C(tiles, 14)), ``mean`` (expected count; in ``"binary"`` count mode
    this equals ``p``) with ``mean_numerator``, and ``n_tiles``. ``any_basic`` is P(some
    enabled basic pattern — 板板胡 四喜 六六顺 缺一色 — counts). Patterns switched off are
    ``{"off": True}``, or carry their figures beside ``"off": True`` with ``include_off``.

    >>> from mjsim.rules import load_rules
    >>> r = exact_qishou(load_rules("changsha", cs_qs_yizhihua=True,
    ...                             cs_qs_yizhihua_mode="lone_258_five"))
    >>> round(r["yizhihua"]["non_dealer"]["p"], 4)
    0.2824
    >>> exact_qishou("changsha")["banban"]["dealer"]["p"] > 0
    True
    """
    rules = load_rules(rules)
    config = qishou_config(rules)
    dists = count_distributions(rules, tuple(n for _, n in SEATS))
    total = 4 * len(rules.kinds)
    on = dict(zip(PATTERNS, config.enabled))
    on["any_basic"] = any(o for o, p in zip(config.enabled, TABLE) if p.basic)
    out: dict[str, dict] = {}
    for p, by_size in dists.items():
        if not on[p] and not include_off:
            out[p] = {"off": True}
            continue
        entry: dict = {} if on[p] else {"off": True}
        for seat, n in SEATS:
            dist, den = by_size[n], comb(total, n)
            num = sum(w for k, w in dist.items() if k >= 1)
            mean_num = num if config.binary else sum(k * w for k, w in dist.items())
            entry[seat] = {
                "p": num / den,
                "numerator": num,
                "denominator": den,
                "mean": mean_num / den,
                "mean_numerator": mean_num,
                "n_tiles": n,
            }
        out[p] = entry
    return out
