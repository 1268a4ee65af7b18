"""Exact deal-time shanten distributions (mjsim.stats.exact_shanten).

* the riichi anchor: standard + seven distinct pairs of the 136 wall, plus thirteen orphans
  counted apart, are complete at deal in exactly 12,859,078,207,674 of C(136, 14) hands;
* brute force: every hand of small walls (14 and 13 tiles from a few kinds, and 4 tiles
  from the full wall), weighted by prod C(copies, c) and scored by the shanten kernel, gives
  the same integer counts as the class merge, for every rule set the engine takes (also
  with two suits of the same kinds, merged in one step);
  the shape conditions (hongzhong112's pung / chow / 1-9-中 / two suits with the 中 pair
  as the pung or not, ne_alt's 叉 / terminal or honour / three suits, each condition
  dropped in turn) on walls with 中, with winds, with a suit missing;
* Monte Carlo: ``N_MC`` dealt hands scored by ``shanten_batch`` agree with the exact
  probabilities within 4 standard errors, for changsha (13 and 14 tiles) and generic (14);
  ``N_COND`` hongzhong112 and ne_alt deals (``deal_frame``, whose 宝 is not turned up at
  the deal) for the dealer and the non-dealers;
* indicator wildcards (shanghai_baida's 百搭, caishen16's 财神): every (hand, indicator
  kind) of 1–3 tiles, and of 13/14 (16/17) tiles from small walls, weighted prod
  C(copies, c)·(copies_i − c_i) and scored by the kernel with that indicator's wild kind,
  gives the same counts, also split by the wild tiles held; ``N_DEALS`` shanghai_baida and
  ``N_CAISHEN`` caishen16 deals (``deal_frame``) agree within 4 standard errors for the
  dealer and the non-dealers, in shanten and (caishen16) in the wild tiles held;
* counts past 2^64 (caishen16's 16 and 17 tiles): summed wrapping and lifted by a float64
  run — forced on small walls by wrapping at 2^16, where the brute force still counts
  them; the full wall's counts sum to C(136, n)·(136 − n) and the wild tiles held follow
  the hypergeometric law, for either 财神 rule;
* the rule sets it refuses (no family a dealt hand can reach) say why.

``MJSIM_FULL=1`` raises ``N_MC`` to 2,000,000, ``N_DEALS`` to 1,000,000, ``N_CAISHEN``
to 400,000 and ``N_COND`` to 1,000,000.
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import replace

import numpy as np
import pytest

from mjsim.evaluate import compile_rules, shanten_batch, wild_mask
from mjsim.kernels import shanten as K
from mjsim.kernels.deal import next_kinds
from mjsim.rules import load_rules
from mjsim.rules.model import FrozenDict
from mjsim.sim.deals import deal_frame
from mjsim.stats import exact_shanten as E
from mjsim.stats.exact_shanten import (
    IMPOSSIBLE,
    ExactUnsupported,
    exact_shanten,
    p_complete,
    p_ready,
)
from mjsim.tables.suits import INF
from mjsim.tiles import N_KINDS
from mjsim.walls import WallSpec, deal_batch

FULL = os.environ.get("MJSIM_FULL") == "1"
N_MC = 2_000_000 if FULL else 250_000
N_DEALS = 1_000_000 if FULL else 100_000
N_CAISHEN = 400_000 if FULL else 40_000
N_COND = 1_000_000 if FULL else 50_000
SUPPORTED = (
    "generic",
    "dingque",
    "changsha",
    "shanghai_qhp",
    "shanghai_qiaoma",
    "hongzhong112",
    "ne_alt",
)
INDICATOR = ("shanghai_baida", "caishen16")
BINOM = np.array([[math.comb(a, b) for b in range(5)] for a in range(5)], dtype=np.int64)


# ---- helpers -------------------------------------------------------------------------


def all_hands(copies: np.ndarray, n: int) -> np.ndarray:
    """Every count vector with ``n`` tiles and at most ``copies[k]`` of kind ``k``."""
    return _all_hands(tuple(int(c) for c in copies), n)


@functools.lru_cache(maxsize=8)
def _all_hands(copies: tuple[int, ...], n: int) -> np.ndarray:
    hands = np.zeros((1, N_KINDS), dtype=np.uint8)
    sums = np.zeros(1, dtype=np.int64)
    for k in np.flatnonzero(copies):
        parts, part_sums = [], []
        for c in range(copies[k] + 1):
            keep = sums + c <= n
            h = hands[keep].copy()
            h[:, k] = c
            parts.append(h)
            part_sums.append(sums[keep] + c)
        hands, sums = np.concatenate(parts), np.concatenate(part_sums)
    return hands[sums == n]


def kernel_shanten(rules, hands: np.ndarray, n: int, wild: list[int] | None = None) -> np.ndarray:
    """Shanten of ``n``-tile ``hands`` with the ``wild`` kinds free, by the kernel
    (``shanten_batch`` for 13/14 tiles, the per-hand kernel for other sizes)."""
    if n in (rules.hand_size, rules.hand_size + 1):
        return shanten_batch(hands, rules, wild=wild)
    comp = compile_rules(rules)
    scratch, caps, mask = K.make_scratch(), np.full(N_KINDS, 4, np.int64), wild_mask(wild)
    cost = np.array(
        [
            K.hand_cost(
                h,
                0,
                0,
                comp.void,
                comp.families,
                comp.melds,
                comp.kind_mask,
                comp.honour_mask,
                mask,
                caps,
                comp.tables,
                scratch,
            )
            for h in hands
        ]
    )
    return np.where(cost >= INF, IMPOSSIBLE, cost - 1)


def hand_weights(copies: np.ndarray, hands: np.ndarray) -> np.ndarray:
    """prod C(copies_k, c_k): the tile sets of each hand (a column at a time: the whole
    product table of a million hands would be 300 MB)."""
    copies = np.asarray(copies)
    w = np.ones(len(hands), dtype=BINOM.dtype)
    for k in np.flatnonzero(copies):
        w *= BINOM[copies[k], hands[:, k]]
    return w


def tally(counts: dict[int, int], s: np.ndarray, w: np.ndarray) -> dict[int, int]:
    """Add the weights ``w`` to ``counts`` by shanten ``s``."""
    for k in np.unique(s):
        counts[int(k)] = counts.get(int(k), 0) + int(w[s == k].sum())
    return counts


def brute_counts(rules, copies: np.ndarray, n: int) -> dict[int, int]:
    """Shanten → weighted number of hands, by direct enumeration and the kernel."""
    hands = all_hands(copies, n)
    return tally({}, kernel_shanten(rules, hands, n), hand_weights(copies, hands))


def brute_indicator_counts(rules, copies: np.ndarray, n: int) -> dict[int, dict[int, int]]:
    """Wild tiles held → shanten → weighted number of (hand, indicator tile) pairs: each
    hand and indicator kind i weighs prod C(copies_k, c_k)·(copies_i − c_i), scored with
    i's wild kind (``wild_step`` steps of next(), from the rule set's wall spec)."""
    hands = all_hands(copies, n)
    w = hand_weights(copies, hands)
    step, nxt = WallSpec.from_rules(rules).wild_step, next_kinds()
    by_wild: dict[int, dict[int, int]] = {}
    for i in np.flatnonzero(copies):
        wild = int(i)
        for _ in range(step):
            wild = int(nxt[wild])
        s = kernel_shanten(rules, hands, n, [wild])
        turned = w * (copies[i] - hands[:, i])
        for h in np.unique(hands[:, wild]):
            rows = hands[:, wild] == h
            tally(by_wild.setdefault(int(h), {}), s[rows], turned[rows])
    by_wild = {
        h: {k: c for k, c in sorted(counts.items()) if c} for h, counts in sorted(by_wild.items())
    }
    return {h: counts for h, counts in by_wild.items() if counts}


def summed(by_wild: dict[int, dict[int, int]]) -> dict[int, int]:
    """Shanten → count, summed over the wild tiles held."""
    counts: dict[int, int] = {}
    for by_shanten in by_wild.values():
        for k, c in by_shanten.items():
            counts[k] = counts.get(k, 0) + c
    return dict(sorted(counts.items()))


def assert_within_4se(hits: np.ndarray, p: float, label) -> None:
    """``hits`` (bool[deals, seats]) agree with ``p`` within 4 s.e. of the per-deal means
    (the seats of one deal share an indicator), the s.e. of independent seats as a floor
    for events never seen."""
    per_deal = hits.mean(axis=1)
    se = max(per_deal.std(ddof=1) / math.sqrt(per_deal.size), math.sqrt(p * (1 - p) / hits.size))
    assert abs(per_deal.mean() - p) <= 4 * se + 1e-12, (label, per_deal.mean(), p)


def deal(kinds: np.ndarray, n: int, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` hands of ``n`` tiles dealt from 4 copies of each of ``kinds``."""
    out = []
    for start in range(0, count, 50_000):
        size = min(50_000, count - start)
        pos = np.argpartition(rng.random((size, 4 * kinds.size)), n, axis=1)[:, :n]
        hands = np.zeros((size, N_KINDS), dtype=np.uint8)
        np.add.at(hands, (np.repeat(np.arange(size), n), kinds[pos // 4].ravel()), 1)
        out.append(hands)
    return np.concatenate(out)


def wall(spec: dict[int, int]) -> np.ndarray:
    copies = np.zeros(N_KINDS, dtype=np.int64)
    for k, c in spec.items():
        copies[k] = c
    return copies


# ---- the anchor ----------------------------------------------------------------------


def test_riichi_anchor():
    """Riichi's complete-at-deal count: standard or seven distinct pairs, plus 国士无双."""
    rules = load_rules("generic", gen_7p_quad_as_two_pairs=False)
    r = exact_shanten(rules, 14)
    assert r.total == math.comb(136, 14)
    kokushi = 13 * math.comb(4, 2) * 4**12
    assert r.counts[-1] + kokushi == 12_859_078_207_674
    assert sum(r.counts.values()) == r.total


# ---- brute force ---------------------------------------------------------------------

# small walls: a few kinds of every group, some with fewer than 4 copies
WALL_SUITS = wall(
    {
        0: 4,
        1: 4,
        2: 3,
        4: 4,
        8: 2,  # 1m 2m 3m 5m 9m
        10: 4,
        13: 3,
        14: 4,
        15: 2,  # 2p 5p 6p 7p
        18: 2,
        22: 4,
        25: 3,
    }
)  # 1s 5s 8s
WALL_HONOURS = wall(
    {
        0: 4,
        1: 3,
        2: 4,
        7: 2,  # 1m 2m 3m 8m
        13: 4,
        14: 3,  # 5p 6p
        22: 2,
        25: 4,  # 5s 8s
        27: 4,
        28: 2,
        29: 3,
    }
)  # 1z 2z 3z (winds)
WALL_RED = wall(
    {
        0: 2,
        2: 4,
        3: 4,
        4: 3,  # 1m 3m 4m 5m
        12: 3,
        13: 4,
        14: 4,
        17: 1,  # 4p 5p 6p 9p
        21: 2,
        22: 3,  # 4s 5s
        33: 4,
    }
)  # 7z (中)
WALL_TWO_SUITS = wall(
    {
        0: 3,
        1: 4,
        2: 4,
        6: 2,  # 1m 2m 3m 7m: no sou
        11: 4,
        12: 4,
        13: 3,
        16: 2,
        17: 2,  # 3p 4p 5p 8p 9p
        33: 3,
    }
)  # 7z
# the same kinds in each suit: two suits' classes are merged in one step
WALL_TWINS = wall(
    {**{9 * g + r: c for g in range(3) for r, c in ((0, 2), (1, 4), (2, 3), (6, 2))}, 33: 4}
)  # 1 2 3 7 of each suit, 7z


@pytest.mark.parametrize("name", SUPPORTED)
@pytest.mark.parametrize("n", [13, 14])
def test_small_walls_vs_brute_force(name, n):
    rules = load_rules(name)
    comp = compile_rules(rules)
    for copies in (WALL_SUITS, WALL_HONOURS):
        if (copies[~comp.kind_mask] > 0).any():
            continue
        r = exact_shanten(rules, n, wall=copies)
        assert r.counts == brute_counts(rules, copies, n), (name, n)
        assert r.total == math.comb(int(copies.sum()), n)


@pytest.mark.parametrize("name", SUPPORTED)
def test_four_tiles_full_wall_vs_brute_force(name):
    rules = load_rules(name)
    copies = np.where(compile_rules(rules).kind_mask, 4, 0)
    assert exact_shanten(rules, 4).counts == brute_counts(rules, copies, 4)


def test_one_suit_wall_vs_brute_force():
    """Only one suit in the wall: 清一色 and 将一色 carry the counts (changsha)."""
    rules = load_rules("changsha")
    copies = wall({k: 4 for k in range(9)})
    for n in (13, 14):
        assert exact_shanten(rules, n, wall=copies).counts == brute_counts(rules, copies, n)


@pytest.mark.parametrize(
    "name,options,copies,n",
    [
        ("hongzhong112", {}, WALL_RED, 14),
        ("hongzhong112", {"hrb_red_pair_substitutes": False}, WALL_RED, 13),
        ("hongzhong112", {}, WALL_TWO_SUITS, 13),
        ("ne_alt", {"neb_three_suits": False}, WALL_HONOURS, 14),
        ("ne_alt", {"neb_need_cha": False}, WALL_TWO_SUITS, 14),
        ("ne_alt", {"neb_need_terminal_or_honour": False}, WALL_HONOURS, 13),
        (
            "ne_alt",
            {"neb_need_cha": False, "neb_need_terminal_or_honour": False},
            WALL_TWO_SUITS,
            13,
        ),
    ],
    ids=[
        "hz-red",
        "hz-red-no-pair-pung",
        "hz-two-suits",
        "ne-any-suits",
        "ne-no-cha",
        "ne-simples",
        "ne-suits-only",
    ],
)
def test_shape_conditions_vs_brute_force(name, options, copies, n):
    rules = load_rules(name, **options)
    r = exact_shanten(rules, n, wall=copies)
    assert r.counts == brute_counts(rules, copies, n), (name, options, n)


@pytest.mark.parametrize("name,n", [("generic", 14), ("hongzhong112", 13)])
def test_twin_suits_vs_brute_force(name, n):
    rules = load_rules(name)
    assert exact_shanten(rules, n, wall=WALL_TWINS).counts == brute_counts(rules, WALL_TWINS, n)


# ---- Monte Carlo ---------------------------------------------------------------------


@pytest.mark.parametrize("name,n", [("changsha", 13), ("changsha", 14), ("generic", 14)])
def test_monte_carlo_agrees(name, n):
    rules = load_rules(name)
    exact = exact_shanten(rules, n)
    kinds = np.flatnonzero(compile_rules(rules).kind_mask)
    s = shanten_batch(deal(kinds, n, N_MC, np.random.default_rng(20240607 + n)), rules)
    assert set(np.unique(s).tolist()) <= set(exact.counts)
    for k in exact.counts:
        p = exact.probability(k)
        se = math.sqrt(p * (1 - p) / N_MC)
        assert abs((s == k).mean() - p) <= 4 * se + 1e-12, (name, n, k)


@pytest.mark.parametrize("name", ["hongzhong112", "ne_alt"])
def test_shape_conditions_monte_carlo_agrees(name):
    """Dealt hongzhong112 / ne_alt hands: the 宝 indicator waits face down in the reserve,
    so the deal scores them without wildcards, as the exact engine counts them. The
    dealer's 14 tiles and the non-dealers' 13 agree with the exact shanten law, complete
    (天胡 shape) and ready included."""
    rules = load_rules(name)
    assert (deal_batch(WallSpec.from_rules(rules), 20240609, 0, 1000).wild == -1).all()
    frame = deal_frame(rules, N_COND, seed=20240609)
    shanten = frame["shanten"].to_numpy().reshape(N_COND, 4)
    assert (frame["n_tiles"].to_numpy().reshape(N_COND, 4) == [14, 13, 13, 13]).all()
    exact = {n: exact_shanten(rules, n) for n in (13, 14)}
    for n, seats in ((14, shanten[:, :1]), (13, shanten[:, 1:])):
        assert set(np.unique(seats).tolist()) <= set(exact[n].counts)
        for k in exact[n].counts:
            assert_within_4se(seats == k, exact[n].probability(k), (name, n, k))
    complete = frame["complete"].to_numpy().reshape(N_COND, 4)[:, :1]
    ready = frame["ready"].to_numpy().reshape(N_COND, 4)[:, 1:]
    assert_within_4se(complete, exact[14].probability(-1), (name, "complete"))
    assert_within_4se(ready, exact[13].probability(0), (name, "ready"))


# ---- indicator wildcards ------------------------------------------------------------


@pytest.mark.parametrize("name", INDICATOR)
@pytest.mark.parametrize("n", [1, 2, 3])
def test_indicator_wilds_few_tiles_vs_brute_force(name, n):
    rules = load_rules(name)
    copies = np.where(compile_rules(rules).kind_mask, 4, 0)
    r = exact_shanten(rules, n)
    T = int(copies.sum())
    assert r.total == math.comb(T, n) * (T - n)
    brute = brute_indicator_counts(rules, copies, n)
    assert r.counts == summed(brute) and r.by_wild == brute


@pytest.mark.parametrize(
    "name,copies",
    [("shanghai_baida", WALL_SUITS), ("shanghai_baida", WALL_HONOURS), ("caishen16", WALL_HONOURS)],
    ids=["baida-suits", "baida-honours", "caishen16-honours"],
)
def test_indicator_wilds_small_walls_vs_brute_force(name, copies):
    """Wild kinds in and out of the wall (百搭: 1m → 2m, 3m → 4m, 9m → 1m, 3z → 4z …)."""
    rules = load_rules(name)
    T = int(copies.sum())
    for n in (rules.hand_size, rules.hand_size + 1):
        r = exact_shanten(rules, n, wall=copies)
        brute = brute_indicator_counts(rules, copies, n)
        assert r.counts == summed(brute) and r.by_wild == brute, (name, n)
        assert r.total == math.comb(T, n) * (T - n)


def test_baida_monte_carlo_agrees():
    """Dealt shanghai_baida hands, scored with each deal's 百搭: the dealer's 14 tiles and
    the non-dealers' 13 (their s.e. from per-deal means: one indicator for three seats)."""
    frame = deal_frame("shanghai_baida", N_DEALS, seed=20240607)
    shanten = frame["shanten"].to_numpy().reshape(N_DEALS, 4)
    assert (frame["dealer"].to_numpy().reshape(N_DEALS, 4)[:, 0]).all()
    assert (frame["n_tiles"].to_numpy().reshape(N_DEALS, 4) == [14, 13, 13, 13]).all()
    for n, seats in ((14, shanten[:, :1]), (13, shanten[:, 1:])):
        exact = exact_shanten("shanghai_baida", n)
        assert set(np.unique(seats).tolist()) <= set(exact.counts)
        for k in (-1, 0, 1, 2):
            assert_within_4se(seats == k, exact.probability(k), (n, k))


def test_baida_result():
    r13, r14 = exact_shanten("shanghai_baida", 13), exact_shanten("shanghai_baida", 14)
    assert r14.total == math.comb(124, 14) * 110 and "indicator" in r14.info["total"]
    assert -1 not in r13.counts and IMPOSSIBLE not in r14.counts
    assert p_complete("shanghai_baida", exact=True) == r14.fraction(-1)
    assert p_ready("shanghai_baida", exact=True) == r13.fraction(0)


def test_caishen16_monte_carlo_agrees():
    """Dealt caishen16 hands, scored with each deal's 财神: the dealer's 17 tiles and the
    non-dealers' 16 agree with the exact shanten law and the law of the 财神 held."""
    frame = deal_frame("caishen16", N_CAISHEN, seed=20240608)
    shanten = frame["shanten"].to_numpy().reshape(N_CAISHEN, 4)
    held = frame["wild_held"].to_numpy().reshape(N_CAISHEN, 4)
    assert (frame["n_tiles"].to_numpy().reshape(N_CAISHEN, 4) == [17, 16, 16, 16]).all()
    for n, cols in ((17, slice(0, 1)), (16, slice(1, 4))):
        exact = exact_shanten("caishen16", n)
        assert set(np.unique(shanten[:, cols]).tolist()) <= set(exact.counts)
        assert set(np.unique(held[:, cols]).tolist()) <= set(exact.by_wild)
        for k in exact.counts:
            assert_within_4se(shanten[:, cols] == k, exact.probability(k), (n, "shanten", k))
        for h, counts in exact.by_wild.items():
            p = sum(counts.values()) / exact.total
            assert_within_4se(held[:, cols] == h, p, (n, "held", h))


# ---- counts past 2^64 -----------------------------------------------------------------


@pytest.mark.parametrize(
    "name,copies",
    [("changsha", WALL_SUITS), ("caishen16", WALL_HONOURS)],
    ids=["changsha-suits", "caishen16-honours"],
)
def test_wrapped_counts_lifted_by_float_vs_brute_force(monkeypatch, name, copies):
    """Summed in uint16, every run of these walls (10^8 hands and more) wraps past 2^16 and
    is lifted by its float64 run: the counts are the uint64 ones and the brute force's."""
    rules = load_rules(name)
    n = rules.hand_size + 1
    plain = exact_shanten(rules, n, wall=copies)
    monkeypatch.setattr(E, "_WRAP", np.uint16)
    lifted = exact_shanten(rules, n, wall=copies)
    runs = lifted.info.get("runs", 1)  # one run without an indicator
    assert lifted.info.get("float_runs", runs) == runs and lifted.info["float_bound"] < 2**14
    assert lifted.counts == plain.counts and lifted.by_wild == plain.by_wild
    assert max(lifted.counts.values()) > 2**32
    if name == "caishen16":
        brute = brute_indicator_counts(rules, copies, n)
        assert lifted.counts == summed(brute) and lifted.by_wild == brute
    else:
        assert lifted.counts == brute_counts(rules, copies, n)


def test_float_error_bound_refuses(monkeypatch):
    """Wrapping at 2^16, the float64 run of 2^70 hands cannot be trusted to 2^14."""
    monkeypatch.setattr(E, "_WRAP", np.uint16)
    r = exact_shanten("caishen16", 17)
    assert not r.tractable and "float64 error bound" in r.reason and r.counts == {}


@pytest.mark.parametrize(
    "rule,wild_copies,n", [("flipped", 3, 16), ("flipped", 3, 17), ("flipped_plus_one", 4, 17)]
)
def test_caishen16_past_64_bits(rule, wild_copies, n):
    """The dealer's 17 (a non-dealer's 16) tiles of 136 with the 财神: every (hand,
    indicator tile) pair, C(136, n)·(136 − n) > 2^64, counted. The wild tiles held follow
    the hypergeometric law: the indicator is any of the 136 tiles and the hand n of the
    other 135, which hold ``wild_copies`` wild tiles (the indicator's other 3 copies, or
    the 4 of the kind after it)."""
    r = exact_shanten(load_rules("caishen16", cai_caishen_rule=rule), n)
    assert r.tractable and r.total == math.comb(136, n) * (136 - n) > 2**64
    assert 0 < r.info["float_runs"] < r.info["runs"] and r.info["float_bound"] < 2**62
    assert sum(r.counts.values()) == r.total and summed(r.by_wild) == r.counts
    law = {h: sum(counts.values()) for h, counts in r.by_wild.items()}
    assert law == {
        h: 136 * math.comb(wild_copies, h) * math.comb(135 - wild_copies, n - h)
        for h in range(wild_copies + 1)
    }
    by_wild = r.as_dict()["by_wild"]  # counts as strings: past 2^53
    assert sum(int(c) for counts in by_wild.values() for c in counts.values()) == r.total


# ---- API -----------------------------------------------------------------------------


def test_helpers_and_result():
    r14 = exact_shanten("changsha", 14)
    assert p_complete("changsha", exact=True) == r14.fraction(-1)
    assert p_ready("changsha") == exact_shanten("changsha").probability(0)
    assert sum(r14.probabilities.values()) == pytest.approx(1.0)
    assert r14.as_dict()["counts"]["-1"] == str(r14.counts[-1])
    assert IMPOSSIBLE not in r14.counts


def test_a_result_asked_again_is_equal_and_its_own():
    """The counts asked for twice in a process are computed once; each caller gets its own
    copy, so one caller's change is not the next one's result."""
    first = exact_shanten("changsha", 13)
    first.counts.clear()
    again = exact_shanten("changsha", 13)
    assert again.counts and sum(again.counts.values()) == again.total
    assert again == exact_shanten("changsha", 13) and again is not exact_shanten("changsha", 13)


def test_state_budget_says_not_tractable():
    r = exact_shanten("generic", 14, max_states=10)
    assert not r.tractable and "max_states" in r.reason
    with pytest.raises(ValueError, match="not tractable"):
        r.probability(0)


def test_unreachable_families_refused():
    """全求人 alone needs four exposed melds: no dealt hand reaches it."""
    rules = load_rules("generic")
    alone = replace(
        rules,
        id="generic.quanqiuren",
        core_spec=FrozenDict(
            {**rules.core_spec, "families": ({"form": "quanqiuren", "pair": "any"},)}
        ),
    )
    with pytest.raises(ExactUnsupported, match="no family a dealt hand can reach"):
        exact_shanten(alone, 14)


def test_bad_arguments():
    with pytest.raises(ValueError, match="n_tiles"):
        exact_shanten("changsha", 15)
    with pytest.raises(ValueError, match="playing kinds"):
        exact_shanten("changsha", 13, wall=wall({27: 4}))
