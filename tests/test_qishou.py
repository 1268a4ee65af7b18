"""起手胡 (RULES.md §2.8): the kernels of mjsim.kernels.qishou and the exact engine of
mjsim.stats.exact_qishou.

* the §2.8 examples table, in notation (hands written "+ any N tiles" get random fillers);
* the options: 四喜 quads reused for 六六顺, both 一枝花 readings, binary count mode,
  patterns switched off;
* every kernel against a slow reference written from the §2.8 text (below), on random and
  pair-heavy hands;
* the exact engine against full enumeration of every hand of up to 7 tiles (exact integers),
  and against Monte Carlo (200,000 hands of 13 and of 14 tiles) within 4 standard errors;
* the §2.8 claim that about 28% of dealt 13-tile hands are 一枝花 under ``lone_258_five``.
"""

from __future__ import annotations

import functools
import time
from math import comb

import numpy as np
import pytest
from numba import njit

from mjsim.kernels.qishou import (
    LONE_258_FIVE,
    PATTERNS,
    SINGLE_FIVE,
    TABLE,
    YIZHIHUA_MODES,
    QishouConfig,
    qishou,
    qishou_config,
    qishou_counts,
    qishou_many,
    score,
)
from mjsim.notation import parse_hand
from mjsim.rules import RulesError, load_rules
from mjsim.stats.exact_qishou import count_distributions, exact_qishou

IDX = {p: i for i, p in enumerate(PATTERNS)}


def counts_of(text: str) -> np.ndarray:
    return parse_hand(text).counts


def raw(text: str, reuse_quad: bool = False, mode: int = SINGLE_FIVE) -> dict[str, int]:
    return dict(zip(PATTERNS, qishou_counts(counts_of(text), reuse_quad, mode).tolist()))


# ---------------------------------------------------------------- a reference from the text


def naive_counts(counts, reuse_quad: bool, mode: int) -> list[int]:
    """Each §2.8 predicate read literally, on the list of tiles."""
    c = [int(x) for x in counts]
    suit = [c[9 * s : 9 * s + 9] for s in range(3)]  # suit[s][rank - 1]
    tiles = [(s, r + 1) for s in range(3) for r in range(9) for _ in range(suit[s][r])]
    t258 = [t for t in tiles if t[1] in (2, 5, 8)]
    banban = int(not t258)
    sixi = sum(x == 4 for x in c)
    liuliushun = sum(x == 3 or (reuse_quad and x == 4) for x in c) // 2
    queyise = sum(sum(suit[s]) == 0 for s in range(3))
    santong = sum(all(suit[s][r] >= 2 for s in range(3)) for r in range(9))
    lone_suits = [s for s in range(3) if [t for t in tiles if t[0] == s] == [(s, 5)]]
    five_suits = [s for s in range(3) if [t for t in t258 if t[0] == s] == [(s, 5)]]
    if mode == SINGLE_FIVE:
        a = len(t258) == 1 and t258[0][1] == 5
        yizhihua = int((a or len(lone_suits) == 1) and len(lone_suits) < 2)
    else:
        yizhihua = int(len(five_suits) == 1)
    bubugao = _max_runs(tuple(c[:27]))
    jintong = int(c[10] >= 2 and c[19] >= 2)
    return [banban, sixi, liuliushun, queyise, santong, yizhihua, bubugao, jintong]


@functools.cache
def _max_runs(c: tuple[int, ...]) -> int:
    """Largest number of tile-disjoint runs of three consecutive pairs, by trying every run."""
    best = 0
    for s in range(3):
        for r in range(7):
            k = 9 * s + r
            if c[k] >= 2 and c[k + 1] >= 2 and c[k + 2] >= 2:
                rest = list(c)
                for j in range(3):
                    rest[k + j] -= 2
                best = max(best, 1 + _max_runs(tuple(rest)))
    return best


def random_hands(rng, n_hands: int, size: int, n_kinds: int = 27) -> np.ndarray:
    """``n_hands`` uniform deals of ``size`` tiles from 4 copies of the first ``n_kinds`` kinds."""
    wall = np.repeat(np.arange(n_kinds, dtype=np.uint8), 4)
    draws = rng.permuted(np.tile(wall, (n_hands, 1)), axis=1)[:, :size]
    flat = np.bincount((np.arange(n_hands)[:, None] * 34 + draws).ravel(), minlength=n_hands * 34)
    return flat.reshape(n_hands, 34).astype(np.uint8)


def pair_heavy_hands(rng, n_hands: int, size: int) -> np.ndarray:
    """Hands built from pairs and triplets of a few kinds of one or two suits, so that
    三同, 步步高, 金童玉女 and the 一枝花 corner cases all occur."""
    out = np.zeros((n_hands, 34), dtype=np.uint8)
    for h in out:
        pool = rng.choice(27, size=rng.integers(4, 9), replace=False)  # room for 14
        if rng.random() < 0.3:  # same rank in every suit
            r = rng.integers(9)
            pool = np.concatenate([pool, [r, 9 + r, 18 + r]])
        while h.sum() < size:
            k = rng.choice(pool)
            h[k] = min(4, h[k] + min(rng.integers(1, 4), size - h.sum()))
    return out


# ---------------------------------------------------------------- the §2.8 examples table

EXAMPLES = [
    ("13467m1369p3479s", {"banban": 1}),
    ("1235667m234589s", {"queyise": 1}),
    ("1123345677899m", {"queyise": 2}),
    ("1347m5679p13469s", {"yizhihua": 1}),  # (A): the only 258 tile is 5p
    ("5m2346799p13479s", {"yizhihua": 1}),  # (B): suit m is the lone 5m
    ("13456m2288p2378s", {"yizhihua": 0}),  # single_five: not 一枝花
    ("5m5p11334467799s", {"yizhihua": 0}),  # two suits are each a lone 5
]


@pytest.mark.parametrize("text, expected", EXAMPLES)
def test_examples(text, expected):
    got = raw(text)
    assert sum(parse_hand(text).counts) == 13
    for pattern, count in expected.items():
        assert got[pattern] == count, (text, pattern, got)
    # the full vector agrees with the reference, and with the other mode where it must
    assert list(got.values()) == naive_counts(counts_of(text), False, SINGLE_FIVE)


def test_examples_full_vectors():
    assert raw("13467m1369p3479s") == dict.fromkeys(PATTERNS, 0) | {"banban": 1}
    assert raw("1235667m234589s") == dict.fromkeys(PATTERNS, 0) | {"queyise": 1}
    assert raw("5m2346799p13479s") == dict.fromkeys(PATTERNS, 0) | {"yizhihua": 1}


def _fill(rng, fixed: str, n_more: int, ok=lambda c: True, tries: int = 10_000) -> np.ndarray:
    """``fixed`` plus ``n_more`` random tiles from the rest of the 108 wall, kept if ``ok``."""
    base = counts_of(fixed).astype(np.int64)
    left = np.repeat(np.arange(27), 4 - base[:27])
    for _ in range(tries):
        c = base.copy()
        np.add.at(c, rng.choice(left, size=n_more, replace=False), 1)
        if ok(c):
            return c.astype(np.uint8)
    raise AssertionError(f"no filler found for {fixed}")


def _no_other_triplet(fixed_kinds):
    return lambda c: (
        all(c[k] < 3 for k in range(34) if k not in fixed_kinds)
        and all(c[k] == 3 for k in fixed_kinds)
    )


FILLED = [  # (fixed tiles, tiles added, filter, pattern, the count it must have)
    ("3333m", 9, lambda c: True, "sixi", lambda n: n >= 1),
    ("111p777s", 7, _no_other_triplet({9, 24}), "liuliushun", lambda n: n == 1),
    ("44m44p44s", 7, lambda c: True, "santong", lambda n: n >= 1),
    ("223344p", 7, lambda c: True, "bubugao", lambda n: n >= 1),
    ("22p22s", 9, lambda c: True, "jintongyunv", lambda n: n == 1),
]


@pytest.mark.parametrize("fixed, n_more, ok, pattern, check", FILLED, ids=[f[0] for f in FILLED])
def test_examples_with_any_other_tiles(fixed, n_more, ok, pattern, check):
    rng = np.random.default_rng(sum(map(ord, fixed)))
    for _ in range(200):
        c = _fill(rng, fixed, n_more, ok)
        got = qishou_counts(c, False, SINGLE_FIVE)
        assert check(got[IDX[pattern]]), (fixed, c, got)
        assert got.tolist() == naive_counts(c, False, SINGLE_FIVE)


def test_counting_readings():
    # 缺一色 counts twice in one suit; 六六顺 is ⌊t/2⌋
    assert raw("111222333m44456m")["liuliushun"] == 2
    assert raw("111222333m456p7s")["liuliushun"] == 1
    # 步步高: disjoint runs, in one suit or across suits; a triplet holds a pair
    assert raw("223344556677p1s")["bubugao"] == 2
    assert raw("223344p334455s1m")["bubugao"] == 2
    assert raw("22334455p1234s5m")["bubugao"] == 1
    assert raw("222333444p1234s")["bubugao"] == 1
    # 三同 counts ranks; 金童玉女 at most 1
    assert raw("4444m4444p4444s1m")["santong"] == 1
    assert raw("44m44p44s66m66p66s1m")["santong"] == 2
    assert raw("2222p2222s13579m")["jintongyunv"] == 1


# ---------------------------------------------------------------- options


def test_reuse_quad():
    text = "1111m222p333s4567m"  # a quad and two triplets
    assert raw(text, reuse_quad=False)["liuliushun"] == 1
    assert raw(text, reuse_quad=True)["liuliushun"] == 1
    text = "1111m222p3456789s"  # a quad and one triplet
    assert raw(text, reuse_quad=False)["sixi"] == 1
    assert raw(text, reuse_quad=False)["liuliushun"] == 0
    assert raw(text, reuse_quad=True)["liuliushun"] == 1
    assert raw(text, reuse_quad=True)["sixi"] == 1  # the quad still counts as 四喜
    assert raw("1111m2222p3333s4m", reuse_quad=True)["liuliushun"] == 1
    assert qishou_config(load_rules("changsha", cs_qs_reuse_quad=True)).reuse_quad
    with pytest.raises(RulesError, match="cs_qs_liuliushun"):
        load_rules("changsha", cs_qs_reuse_quad=True, cs_qs_liuliushun=False)


@pytest.mark.parametrize(
    "text, single_five, lone_258_five",
    [
        ("13456m2288p2378s", 0, 1),  # the §2.8 example: m's only 258 tile is 5m
        ("1347m5679p13469s", 1, 1),  # (A)
        ("5m2346799p13479s", 1, 1),  # (B); p's only 258 tile is 2p
        ("5m5p11334467799s", 0, 0),  # two lone-5 suits
        ("1345m3456p13469s", 0, 0),  # two suits whose only 258 tile is a 5, neither alone
        ("5m13456p1234679s", 1, 0),  # (B) lone 5m, but p's only 258 tile is also a 5
        ("5m13467p1234679s", 1, 1),  # (B) lone 5m; s's 258 tile is 2s
        ("13467m1369p3479s", 0, 0),  # no 258 tile at all
    ],
)
def test_yizhihua_modes(text, single_five, lone_258_five):
    c = counts_of(text)
    assert qishou_counts(c, False, SINGLE_FIVE)[IDX["yizhihua"]] == single_five
    assert qishou_counts(c, False, LONE_258_FIVE)[IDX["yizhihua"]] == lone_258_five
    for mode in (SINGLE_FIVE, LONE_258_FIVE):
        assert qishou_counts(c, False, mode).tolist() == naive_counts(c, False, mode)


def test_config_and_score():
    rules = load_rules("changsha")
    config = qishou_config(rules)
    assert config.enabled == (True,) * 4 + (False,) * 4
    assert (config.reuse_quad, config.yizhihua_mode, config.count_mode, config.eval) == (
        False,
        SINGLE_FIVE,
        "sum",
        "dealt",
    )
    assert [p.option for p in TABLE if p.basic] == [
        "cs_qs_banban",
        "cs_qs_sixi",
        "cs_qs_liuliushun",
        "cs_qs_queyise",
    ]
    every = load_rules(
        "changsha",
        **{p.option: True for p in TABLE},
        cs_qs_yizhihua_mode="lone_258_five",
        cs_qs_count_mode="binary",
        cs_qs_eval="before_first_discard",
    )
    c = qishou_config(every)
    assert c.enabled == (True,) * 8 and c.yizhihua_mode == LONE_258_FIVE and c.binary
    assert c.eval == "before_first_discard"
    assert YIZHIHUA_MODES[c.yizhihua_mode] == "lone_258_five"

    hand = counts_of("1123345677899m")  # 缺一色 ×2
    assert qishou(hand, rules).tolist() == [0, 0, 0, 2, 0, 0, 0, 0]
    assert qishou(hand, load_rules("changsha", cs_qs_count_mode="binary")).tolist() == [
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
    ]
    assert qishou(hand, load_rules("changsha", cs_qs_queyise=False)).tolist() == [0] * 8
    santong2 = counts_of("44m44p44s66m66p66s1m")
    assert qishou(santong2, rules)[IDX["santong"]] == 0  # off by default
    on = load_rules("changsha", cs_qs_santong=True)
    assert qishou(santong2, on)[IDX["santong"]] == 2
    assert qishou(santong2, on.with_options(cs_qs_count_mode="binary"))[IDX["santong"]] == 1

    batch = np.stack([hand, santong2])
    assert qishou(batch, on).shape == (2, 8)
    raw_batch = qishou_many(batch, False, SINGLE_FIVE)
    assert raw_batch.dtype == np.int16
    assert np.array_equal(score(raw_batch, qishou_config(on)), qishou(batch, on))
    assert np.array_equal(score(raw_batch, QishouConfig(enabled=(True,) * 8)), raw_batch)


def test_errors():
    with pytest.raises(RulesError, match="rule set 'generic' has no 起手胡"):
        qishou_config(load_rules("generic"))
    with pytest.raises(ValueError, match="axis of 8 patterns"):
        score(np.zeros((3, 7)), QishouConfig(enabled=(True,) * 8))
    with pytest.raises(ValueError, match="uint8\\[N, 34\\]"):
        qishou(np.zeros((2, 27), np.uint8), load_rules("changsha"))
    with pytest.raises(ValueError, match="sizes must lie"):
        count_distributions(load_rules("changsha"), sizes=(15,))


# ---------------------------------------------------------------- kernels vs the reference


@pytest.mark.parametrize("reuse_quad", [False, True])
@pytest.mark.parametrize("mode", [SINGLE_FIVE, LONE_258_FIVE])
def test_kernels_vs_naive(reuse_quad, mode):
    rng = np.random.default_rng(2800 + 2 * mode + reuse_quad)
    hands = np.concatenate(
        [
            random_hands(rng, 1_000, 13),
            random_hands(rng, 1_000, 14),
            random_hands(rng, 500, 13, n_kinds=34),
            pair_heavy_hands(rng, 1_500, 13),
            pair_heavy_hands(rng, 1_500, 14),
        ]
    )
    batch = qishou_many(hands, reuse_quad, mode)
    seen = np.zeros(8, dtype=bool)
    for h, row in zip(hands, batch):
        expected = naive_counts(h, reuse_quad, mode)
        assert row.tolist() == expected, (h.nonzero(), row, expected)
        assert qishou_counts(h, reuse_quad, mode).tolist() == expected
        assert [p.predicate(h, reuse_quad, mode) for p in TABLE] == expected
        seen |= row > 0
    assert seen.all(), "every pattern occurs in the sample"


# ---------------------------------------------------------------- exact vs full enumeration


@njit
def _enumerate(n_kinds, size, reuse_quad, mode, basic_on, out, any_out):
    """Weighted count distribution of every pattern over all hands of ``size`` tiles from
    4 copies of kinds 0..n_kinds-1 (``out[pattern, count]``, ``any_out[0/1]``)."""
    c4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)
    counts = np.zeros(34, dtype=np.uint8)
    seq = np.zeros(size, dtype=np.int64)  # a nondecreasing sequence of kinds
    while True:
        ok = True
        for k in range(n_kinds):
            counts[k] = 0
        for i in range(size):
            counts[seq[i]] += 1
            if counts[seq[i]] > 4:
                ok = False
        if ok:
            w = np.int64(1)
            for k in range(n_kinds):
                w *= c4[counts[k]]
            got = qishou_counts(counts, reuse_quad, mode)
            for p in range(8):
                out[p, got[p]] += w
            hit = 0
            for p in range(4):
                if basic_on[p] and got[p] > 0:
                    hit = 1
            any_out[hit] += w
        i = size - 1  # next nondecreasing sequence
        while i >= 0 and seq[i] == n_kinds - 1:
            i -= 1
        if i < 0:
            return
        seq[i] += 1
        for j in range(i + 1, size):
            seq[j] = seq[i]


@pytest.mark.parametrize("tiles, sizes", [(108, (1, 2, 3, 4, 5, 6, 7)), (136, (4, 5, 6))])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {
            "cs_qs_reuse_quad": True,
            "cs_qs_yizhihua_mode": "lone_258_five",
            "cs_qs_banban": False,
            "cs_qs_queyise": False,
        },
    ],
    ids=["defaults", "reuse_lone"],
)
def test_exact_vs_enumeration(tiles, sizes, options):
    rules = load_rules("changsha", cs_tiles=tiles, **options)
    config = qishou_config(rules)
    exact = count_distributions(rules, sizes)
    n_kinds = len(rules.kinds)
    basic_on = np.array(config.enabled[:4])
    for n in sizes:
        out = np.zeros((8, 16), dtype=np.int64)
        any_out = np.zeros(2, dtype=np.int64)
        _enumerate(n_kinds, n, config.reuse_quad, config.yizhihua_mode, basic_on, out, any_out)
        assert out[0].sum() == comb(4 * n_kinds, n)
        for p, pattern in enumerate(PATTERNS):
            brute = {k: int(w) for k, w in enumerate(out[p]) if w}
            assert exact[pattern][n] == brute, (pattern, n)
        assert exact["any_basic"][n] == {k: int(w) for k, w in enumerate(any_out) if w}


@njit
def _and_dp(table, n_max):
    """Hands by size and final AND of the three suits' pair-rank masks: a plain DP over
    the suits with every (tiles, mask) pair of the next suit (int64 is exact for 108 tiles:
    every entry counts hands, at most C(108, 14) < 2**63)."""
    state = np.zeros((n_max + 1, 512), dtype=np.int64)
    state[0, 511] = 1
    for _ in range(3):
        new = np.zeros_like(state)
        for n1 in range(n_max + 1):
            for m1 in range(512):
                w1 = state[n1, m1]
                if w1 == 0:
                    continue
                for n2 in range(n_max + 1 - n1):
                    for m2 in range(512):
                        if table[n2, m2]:
                            new[n1 + n2, m1 & m2] += w1 * table[n2, m2]
        state = new
    return state


def test_exact_santong_vs_and_dp():
    """三同 at 13 and 14 tiles (two ranks possible) by a DP on the AND of the pair masks,
    not by the engine's inclusion–exclusion."""
    vecs = np.indices((5,) * 9).reshape(9, -1).T
    n = vecs.sum(axis=1)
    keep = n <= 14
    vecs, n = vecs[keep], n[keep]
    w = np.prod(np.array([1, 4, 6, 4, 1])[vecs], axis=1)
    mask = ((vecs >= 2) * (1 << np.arange(9))).sum(axis=1)
    table = np.zeros((15, 512), dtype=np.int64)
    np.add.at(table, (n, mask), w)
    state = _and_dp(table, 14)
    popcount = np.array([m.bit_count() for m in range(512)])
    exact = count_distributions(load_rules("changsha"), (13, 14))["santong"]
    for size in (13, 14):
        dp = {int(k): int(state[size, popcount == k].sum()) for k in range(3)}
        assert exact[size] == {k: v for k, v in dp.items() if v}
        assert exact[size][2] > 0  # two ranks occur


# ---------------------------------------------------------------- exact vs Monte Carlo

N_MC = 200_000


@pytest.mark.parametrize("tiles", [108, 136])
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"cs_qs_reuse_quad": True, "cs_qs_yizhihua_mode": "lone_258_five", "cs_qs_sixi": False},
    ],
    ids=["defaults", "reuse_lone"],
)
def test_exact_vs_monte_carlo(tiles, options):
    every = {p.option: True for p in TABLE}
    rules = load_rules("changsha", cs_tiles=tiles, **(every | options))
    config = qishou_config(rules)
    exact = exact_qishou(rules)
    rng = np.random.default_rng([tiles, len(options)])
    n_kinds = len(rules.kinds)
    for seat, size in (("non_dealer", 13), ("dealer", 14)):
        hands = random_hands(rng, N_MC, size, n_kinds)
        counts = score(qishou_many(hands, config.reuse_quad, config.yizhihua_mode), config)
        basic = counts[:, [p.index for p in TABLE if p.basic and config.enabled[p.index]]]
        columns = {p: counts[:, i] for i, p in enumerate(PATTERNS)} | {
            "any_basic": (basic > 0).any(axis=1).astype(np.int16)
        }
        for pattern, col in columns.items():
            e = exact[pattern]
            if e.get("off"):
                assert pattern == "sixi" and not col.any()
                continue
            e = e[seat]
            assert e["denominator"] == comb(4 * n_kinds, size)
            p_hat, p = (col > 0).mean(), e["p"]
            se = np.sqrt(p * (1 - p) / N_MC)
            assert abs(p_hat - p) <= 4 * se, (pattern, seat, p_hat, p, se)
            mean_se = max(col.std(), np.sqrt(p * (1 - p))) / np.sqrt(N_MC)
            assert abs(col.mean() - e["mean"]) <= 4 * mean_se, (pattern, seat, col.mean(), e)


def test_exact_entries_and_speed():
    t0 = time.perf_counter()
    r = exact_qishou(load_rules("changsha"))
    assert time.perf_counter() - t0 < 30
    assert set(r) == set(PATTERNS) | {"any_basic"}
    for pattern in ("santong", "yizhihua", "bubugao", "jintongyunv"):
        assert r[pattern] == {"off": True}
    for pattern in ("banban", "sixi", "liuliushun", "queyise", "any_basic"):
        for seat, n in (("non_dealer", 13), ("dealer", 14)):
            e = r[pattern][seat]
            assert e["n_tiles"] == n and e["denominator"] == comb(108, n)
            assert e["p"] == e["numerator"] / e["denominator"]
            assert e["mean"] >= e["p"] > 0
    # closed forms: no 258 tile; 缺一色 by inclusion–exclusion over the absent suits
    for seat, n in (("non_dealer", 13), ("dealer", 14)):
        assert r["banban"][seat]["numerator"] == comb(72, n)
        assert r["queyise"][seat]["numerator"] == 3 * comb(72, n) - 3 * comb(36, n)
        assert r["queyise"][seat]["mean_numerator"] == 3 * comb(72, n)
    # any_basic lies between the largest basic pattern and their sum
    for seat in ("non_dealer", "dealer"):
        ps = [r[p][seat]["p"] for p in ("banban", "sixi", "liuliushun", "queyise")]
        assert max(ps) <= r["any_basic"][seat]["p"] <= sum(ps)
    # switched-off patterns keep their figures on request; binary mode: mean = p
    full = exact_qishou(load_rules("changsha", cs_qs_count_mode="binary"), include_off=True)
    assert full["santong"]["off"] and full["santong"]["dealer"]["p"] > 0
    assert full["queyise"]["dealer"]["mean"] == full["queyise"]["dealer"]["p"]
    none = exact_qishou(
        load_rules(
            "changsha",
            cs_qs_banban=False,
            cs_qs_sixi=False,
            cs_qs_liuliushun=False,
            cs_qs_queyise=False,
        )
    )
    assert none["any_basic"] == {"off": True}


def test_lone_258_five_is_about_28_percent():
    """RULES.md §2.8: under ``lone_258_five`` about 28% of dealt 13-tile hands are 一枝花."""
    r = exact_qishou(
        load_rules("changsha", cs_qs_yizhihua=True, cs_qs_yizhihua_mode="lone_258_five")
    )
    p = r["yizhihua"]["non_dealer"]["p"]
    assert 0.27 <= p <= 0.29, p
    single = exact_qishou(load_rules("changsha", cs_qs_yizhihua=True))
    assert single["yizhihua"]["non_dealer"]["p"] < 0.05  # the default reading is far rarer
