"""Walls and deals: the counter-based generator, the shuffle, the deal of every rule set
against a slow reference written from RULES.md, reproducibility whatever the chunking or
thread count, common random numbers, and uniformity."""

from __future__ import annotations

import hashlib
import itertools
import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from mjsim.kernels import rng
from mjsim.kernels.deal import deal_seats, next_kinds
from mjsim.rules import list_rules, load_rules
from mjsim.walls import DICE_STREAM, DealBatch, WallSpec, deal_batch, wall, walls

RULE_IDS = [rules.id for rules in list_rules()]
MASK = (1 << 64) - 1
DRAGONS = (31, 32, 33)

#: tiles, hand size, and live tiles after a deal without bonus tiles (RULES.md)
SIZES = {
    "generic": (136, 13, 83),
    "dingque": (108, 13, 55),
    "changsha": (108, 13, 55),  # §2.1
    "changsha_classic_1980s": (136, 13, 83),
    "changsha_transition_1990": (136, 13, 83),
    "caishen16": (136, 16, 54),  # §3.3: 136 − 65 − 1 indicator − 16 reserved
    "hongzhong112": (112, 13, 47),  # §4.2
    "ne_alt": (136, 13, 71),  # §4.11: the 112-tile layout on 136 tiles
    "shanghai_qhp": (144, 13, 91),  # minus one per bonus tile set aside
    "shanghai_baida": (144, 13, 90),  # minus the 百搭 indicator too
    "shanghai_qiaoma": (144, 13, 91),
}


def chi2_limit(df: int, z: float = 4.75) -> float:
    """Upper quantile of chi-square (Wilson–Hilferty), z = 4.75 is about p = 1e-6."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


# --- the slow references --------------------------------------------------------------


def mix_py(z: int) -> int:
    z &= MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def draw_py(key: int, index: int, counter: int) -> int:
    seed = mix_py(key + (index + 1) * 0x9E3779B97F4A7C15)
    return mix_py(seed + (counter + 1) * 0xD1B54A32D192ED03)


def shuffle_py(multiset, key: int, index: int) -> list[int]:
    tiles = [int(t) for t in multiset]
    for j in range(len(tiles) - 1, 0, -1):
        r = int(rng.below(np.uint64(key), index, j, j + 1))
        tiles[j], tiles[r] = tiles[r], tiles[j]
    return tiles


def next_py(k: int) -> int:
    if k < 27:
        return k - k % 9 + (k % 9 + 1) % 9
    if k < 31:
        return 27 + (k - 26) % 4
    return 31 + (k - 30) % 3


def deal_py(rules, tiles: list[int]) -> dict:
    """One deal by the book: RULES.md §1.2 (rounds of four, then the 跳牌), §5.1 (bonus
    tiles replaced from the tail in turn order from the dealer), §3.2 and §5.9 (indicator
    from the tail), §4.2 and §3.3 (reserved tail tiles)."""
    size, hand_size = len(tiles), rules.hand_size
    bonus_kinds = set(rules.bonus_kinds) | (set(range(34, 42)) if rules.has_flowers else set())
    head, tail = iter(tiles), iter(reversed(tiles))
    got: list[list[int]] = [[] for _ in range(4)]
    for _ in range(hand_size // 4):
        for seat in range(4):
            got[seat] += [next(head) for _ in range(4)]
    for _ in range(hand_size % 4):
        for seat in range(4):
            got[seat].append(next(head))
    got[0].append(next(head))  # 跳牌: the dealer's 14th (17th) tile
    used_head, used_tail = 4 * hand_size + 1, 0
    bonus = [0] * 4
    for seat in range(4):
        while any(t in bonus_kinds for t in got[seat]):
            flower = next(t for t in got[seat] if t in bonus_kinds)
            got[seat].remove(flower)
            bonus[seat] += 1
            got[seat].append(next(tail))
            used_tail += 1
    indicator = wild = -1
    if rules.wild in ("caishen", "baida"):
        indicator = next(tail)
        used_tail += 1
        while indicator in bonus_kinds:
            indicator = next(tail)
            used_tail += 1
        step = rules.wild == "baida" or rules.options.get("cai_caishen_rule") == "flipped_plus_one"
        wild = next_py(indicator) if step else indicator
    first = [-1]
    for _ in range(3):
        t = next(head)
        while t in bonus_kinds:
            t = next(tail)
        first.append(t)
    reserved = {"caishen": rules.options.get("cai_reserve_tiles"), "bao": 12}.get(rules.wild, 0)
    hands = np.zeros((4, 34), dtype=np.uint8)
    for seat in range(4):
        for t in got[seat]:
            hands[seat, t] += 1
    return {
        "hands": hands,
        "bonus": bonus,
        "first_draw": first,
        "indicator": indicator,
        "wild": wild,
        "live_left": size - used_head - used_tail - reserved,
        "tail_used": used_tail,
    }


# --- the generator --------------------------------------------------------------------


def test_draw_is_splitmix64_of_index_then_counter():
    key = int(rng.stream_key(12345, 678))
    for index, counter in [(0, 0), (1, 0), (0, 1), (10**12, 77), (2**40, 2**47)]:
        assert int(rng.draw(np.uint64(key), index, counter)) == draw_py(key, index, counter)


def test_stream_key_is_fixed():
    # pinned: changing the key derivation changes every run's numbers
    assert int(rng.stream_key(0, 0)) == mix_py(mix_py(0x6D6A73696D2D726E) + 0x9E3779B97F4A7C15)
    keys = {int(rng.stream_key(seed, stream)) for seed in range(20) for stream in range(20)}
    assert len(keys) == 400


@pytest.mark.parametrize(
    "seed, stream, message",
    [
        (-1, 0, r"seed must be in \[0, 2\*\*64\)"),
        (0, 2**64, "stream must be in"),
        (1.5, 0, "seed must be an integer"),
    ],
)
def test_stream_key_rejects(seed, stream, message):
    with pytest.raises((ValueError, TypeError), match=message):
        rng.stream_key(seed, stream)


@njit
def _below_counts(key, n, draws):
    counts = np.zeros(n, dtype=np.int64)
    for i in range(draws):
        counts[rng.below(key, i, 3, n)] += 1
    return counts


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 10, 36, 108])
def test_below_is_unbiased(n):
    draws = 3000 * n
    counts = _below_counts(rng.stream_key(9, 1), n, draws)
    assert counts.sum() == draws
    if n == 1:
        return
    expected = draws / n
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < chi2_limit(n - 1), (n, chi2, counts)


def test_below_rejection_path():
    # n just above 2**31 rejects about half of the 32-bit words: the retries must stay
    # in range, differ from one another and keep the mean at (n - 1) / 2
    n = 2**31 + 12345
    key = rng.stream_key(4, 4)
    values = np.array([rng.below(key, i, 0, n) for i in range(20000)])
    assert values.min() >= 0 and values.max() < n
    se = n / math.sqrt(12 * values.size)
    assert abs(values.mean() - (n - 1) / 2) < 4 * se
    assert len(set(values.tolist())) > 19990


def test_uniform_in_unit_interval():
    key = rng.stream_key(5, 5)
    values = np.array([rng.uniform(key, i, 0) for i in range(20000)])
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 4 * math.sqrt(1 / 12 / values.size)


# --- specs ----------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_spec_sizes(rule_id):
    rules = load_rules(rule_id)
    spec = WallSpec.from_rules(rules)
    size, hand_size, live = SIZES[rule_id]
    assert (spec.size, spec.hand_size, spec.dealt) == (size, hand_size, 4 * hand_size + 1)
    assert spec.live_at_deal == live
    counts = np.bincount(spec.multiset, minlength=42)
    assert set(counts[list(rules.kinds)]) == {4}
    assert counts[34:].sum() == (8 if rules.has_flowers else 0)
    assert set(spec.bonus_kinds) == set(rules.bonus_kinds) | (
        set(range(34, 42)) if rules.has_flowers else set()
    )
    assert spec.deal_seats.tolist().count(0) == hand_size + 1
    assert all(spec.deal_seats.tolist().count(s) == hand_size for s in (1, 2, 3))


def test_spec_follows_options_not_names():
    generic = WallSpec.from_rules(load_rules("generic"))
    flowers = WallSpec.from_rules(load_rules("generic", gen_flowers=True))
    assert flowers.size == 144 and flowers.stream == WallSpec.from_rules("shanghai_qhp").stream
    assert flowers.bonus_kinds == tuple(range(34, 42))
    assert WallSpec.from_rules(load_rules("dingque", dq_tiles=136)).stream == generic.stream
    assert WallSpec.from_rules(load_rules("caishen16", cai_reserve_tiles=10)).live_at_deal == 60
    plus = WallSpec.from_rules(load_rules("caishen16", cai_caishen_rule="flipped_plus_one"))
    assert (plus.indicator, plus.wild_step) == ("tail", 1)
    assert WallSpec.from_rules("shanghai_qhp").kaibao
    assert not WallSpec.from_rules("shanghai_baida").kaibao
    assert WallSpec.from_rules(load_rules("shanghai_baida", sh_kaibao=True)).kaibao
    assert WallSpec.from_rules("hongzhong112").indicator_slot == 7
    assert generic == WallSpec.from_rules("changsha_classic_1980s")
    assert hash(generic) == hash(WallSpec.from_rules("changsha_classic_1980s"))
    assert generic != WallSpec.from_rules("caishen16")


def test_deal_order():
    # 13 tiles: three rounds of four, then dealer, 1, 2, 3 one each, then the dealer's 跳牌
    assert deal_seats(13).tolist() == [s for s in range(4) for _ in range(4)] * 3 + [0, 1, 2, 3, 0]
    # 16 tiles: four rounds of four, then the dealer's 17th
    assert deal_seats(16).tolist() == [s for s in range(4) for _ in range(4)] * 4 + [0]


def test_next_kinds():
    assert next_kinds().tolist() == [next_py(k) for k in range(34)]


# --- walls ----------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", ["changsha", "hongzhong112", "generic", "shanghai_qhp"])
def test_walls_are_permutations_and_match_the_reference_shuffle(rule_id):
    spec = WallSpec.from_rules(rule_id)
    batch = walls(spec, 11, 1000, 50)
    assert (np.sort(batch, axis=1) == spec.multiset).all()
    key = int(rng.stream_key(11, spec.stream))
    for i in (0, 17, 49):
        assert batch[i].tolist() == shuffle_py(spec.multiset, key, 1000 + i)
        assert (wall(spec, 11, 1000 + i) == batch[i]).all()


def test_wall_is_pinned():
    # deal i of a seed must never change between versions or machines
    w = wall("changsha", 1, 0)
    assert hashlib.sha256(w.tobytes()).hexdigest()[:16] == PINNED_CHANGSHA_WALL


PINNED_CHANGSHA_WALL = "2b9144008df92563"


@pytest.mark.parametrize(
    "rule_id, position",
    [
        ("changsha", 0),
        ("changsha", 53),
        ("changsha", 107),
        ("shanghai_qhp", 0),
        ("shanghai_qhp", 143),
        ("hongzhong112", 105),
    ],
)
def test_wall_positions_are_uniform(rule_id, position):
    spec = WallSpec.from_rules(rule_id)
    n = 20000
    column = walls(spec, 2024, 0, n)[:, position]
    observed = np.bincount(column, minlength=42)
    copies = np.bincount(spec.multiset, minlength=42)
    p = copies / spec.size
    se = np.sqrt(n * p * (1 - p))
    present = copies > 0
    assert (observed[~present] == 0).all()
    assert (np.abs(observed - n * p)[present] < 4 * se[present]).all()
    chi2 = float(((observed - n * p)[present] ** 2 / (n * p)[present]).sum())
    assert chi2 < chi2_limit(int(present.sum()) - 1)


# --- deals ----------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_deals_match_the_reference(rule_id):
    rules = load_rules(rule_id)
    spec = WallSpec.from_rules(rules)
    seed, start, n = 77, 5000, 300
    batch = deal_batch(spec, seed, start, n)
    tiles = walls(spec, seed, start, n)
    for i in range(n):
        want = deal_py(rules, tiles[i].tolist())
        for name, value in want.items():
            assert np.array_equal(getattr(batch, name)[i], value), (rule_id, i, name)


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_deal_conserves_the_wall(rule_id):
    spec = WallSpec.from_rules(rule_id)
    size, hand_size, live = SIZES[rule_id]
    seed, n = 3, 2000
    batch = deal_batch(spec, seed, 0, n)
    tiles = walls(spec, seed, 0, n)
    held = batch.hands.sum(axis=2)
    assert (held[:, 0] == hand_size + 1).all() and (held[:, 1:] == hand_size).all()
    is_bonus = spec.is_bonus
    turned = (batch.indicator >= 0).astype(int)
    for i in range(0, n, 7):
        used = int(batch.tail_used[i])
        taken = np.concatenate([tiles[i][: spec.dealt], tiles[i][size - used :]])
        rest = tiles[i][spec.dealt : size - used]
        aside = taken[is_bonus[taken]]  # bonus tiles set aside by the seats or turned dead
        counts = batch.hands[i].sum(axis=0).astype(int)
        total = np.bincount(np.concatenate([aside, rest]), minlength=42)
        total[:34] += counts
        if batch.indicator[i] >= 0:
            total[batch.indicator[i]] += 1
        assert (total == np.bincount(spec.multiset, minlength=42)).all()
        dead = aside.size - int(batch.bonus[i].sum())
        assert dead >= 0 and (dead == 0 or spec.indicator == "tail")
        assert used == int(batch.bonus[i].sum()) + dead + turned[i]
    assert (batch.live_left == size - spec.dealt - batch.tail_used - spec.reserved).all()
    assert (batch.live_left == live - batch.tail_used + turned).all()
    if not spec.bonus_kinds:
        assert (batch.live_left == live).all() and (batch.bonus == 0).all()
    assert (batch.first_draw[:, 0] == -1).all()
    assert (batch.first_draw[:, 1:] >= 0).all() and not is_bonus[batch.first_draw[:, 1:]].any()


@pytest.mark.parametrize("rule_id", ["shanghai_qhp", "shanghai_baida", "shanghai_qiaoma"])
def test_shanghai_bonus_tiles(rule_id):
    spec = WallSpec.from_rules(rule_id)
    batch = deal_batch(spec, 8, 0, 20000)
    bonus_in_hands = batch.hands[:, :, [k for k in spec.bonus_kinds if k < 34]]
    assert not bonus_in_hands.any()
    n_bonus = int(spec.is_bonus[spec.multiset].sum())  # bonus tiles in the wall: 8 or 20
    assert (batch.bonus.sum(axis=1) <= n_bonus).all()
    # expected bonus tiles among the 53 dealt: 53 * B / 144 (replacements add a little)
    mean = batch.bonus.sum(axis=1).mean()
    assert 53 * n_bonus / 144 < mean < 53 * n_bonus / (144 - n_bonus)
    assert batch.bonus.max() > 0
    if rule_id == "shanghai_qhp":
        assert not np.isin(spec.bonus_kinds, DRAGONS).any()


@pytest.mark.parametrize("rule", ["flipped", "flipped_plus_one"])
def test_caishen(rule):
    spec = WallSpec.from_rules(load_rules("caishen16", cai_caishen_rule=rule))
    batch = deal_batch(spec, 13, 0, 20000)
    assert (batch.indicator >= 0).all()
    rows = np.arange(len(batch))
    # the indicator is out of play: at most three copies of its kind are in the hands
    assert (batch.hands.sum(axis=1)[rows, batch.indicator] <= 3).all()
    expected = batch.indicator if rule == "flipped" else next_kinds()[batch.indicator]
    assert (batch.wild == expected).all()
    assert set(np.unique(batch.indicator).tolist()) == set(range(34))
    assert (batch.tail_used == 1).all() and (batch.live_left == 54).all()


def test_baida_indicator():
    spec = WallSpec.from_rules("shanghai_baida")
    batch = deal_batch(spec, 21, 0, 20000)
    assert not np.isin(batch.indicator, spec.bonus_kinds).any()
    assert (batch.wild == next_kinds()[batch.indicator]).all()
    assert set(np.unique(batch.wild).tolist()) == set(range(31))  # suits and winds only


@pytest.mark.parametrize("rule_id", ["hongzhong112", "ne_alt", "generic", "changsha"])
def test_no_indicator_at_the_deal(rule_id):
    batch = deal_batch(rule_id, 1, 0, 100)
    assert (batch.indicator == -1).all() and (batch.wild == -1).all()


def test_dice_and_kaibao():
    n = 36000
    qhp = deal_batch("shanghai_qhp", 6, 0, n)
    assert qhp.dice.min() == 1 and qhp.dice.max() == 6
    d1, d2 = qhp.dice[:, 0].astype(int), qhp.dice[:, 1].astype(int)
    one_four = (np.minimum(d1, d2) == 1) & (np.maximum(d1, d2) == 4)
    assert (qhp.kaibao == ((d1 == d2) | one_four)).all()
    p = 8 / 36
    assert abs(qhp.kaibao.mean() - p) < 4 * math.sqrt(p * (1 - p) / n)
    pairs = np.bincount(6 * (d1 - 1) + d2 - 1, minlength=36)
    assert ((pairs - n / 36) ** 2 / (n / 36)).sum() < chi2_limit(35)
    # the dice have a stream of their own, shared by every rule set
    for rule_id in ("changsha", "shanghai_baida", "caishen16"):
        other = deal_batch(rule_id, 6, 0, n)
        assert (other.dice == qhp.dice).all() and not other.kaibao.any()
    assert DICE_STREAM not in {WallSpec.from_rules(r).stream for r in RULE_IDS}


# --- reproducibility ------------------------------------------------------------------


def assert_same(a: DealBatch, b: DealBatch) -> None:
    assert (a.seed, a.start, len(a)) == (b.seed, b.start, len(b))
    for name in DealBatch.ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("rule_id", ["changsha", "shanghai_baida", "caishen16"])
def test_chunking_does_not_matter(rule_id):
    spec = WallSpec.from_rules(rule_id)
    whole = deal_batch(spec, 99, 0, 1000)
    for cuts in ([300], [1, 513, 999], [500, 512, 1000]):
        edges = [0, *cuts, 1000]
        parts = [deal_batch(spec, 99, a, b - a) for a, b in itertools.pairwise(edges) if b > a]
        assert_same(whole, DealBatch.concat(parts))
    assert_same(
        DealBatch.concat([deal_batch(spec, 99, i, 1) for i in range(40)]),
        deal_batch(spec, 99, 0, 40),
    )


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two numba threads")
def test_thread_count_does_not_matter():
    spec = WallSpec.from_rules("shanghai_baida")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = deal_batch(spec, 5, 100, 3000)
        walls_one = walls(spec, 5, 100, 3000)
        numba.set_num_threads(2)
        two = deal_batch(spec, 5, 100, 3000)
        walls_two = walls(spec, 5, 100, 3000)
    finally:
        numba.set_num_threads(before)
    assert_same(one, two)
    assert (walls_one == walls_two).all()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), start=st.integers(0, 2**40), k=st.integers(0, 9))
def test_deal_i_depends_on_seed_and_index_only(seed, start, k):
    batch = deal_batch("changsha", seed, start, 10)
    single = deal_batch("changsha", seed, start + k, 1)
    for name in DealBatch.ARRAYS:
        assert np.array_equal(getattr(batch, name)[k], getattr(single, name)[0])


def test_common_random_numbers():
    generic = deal_batch("generic", 42, 0, 500)
    classic = deal_batch("changsha_classic_1980s", 42, 0, 500)
    assert_same(generic, classic)
    assert (walls("caishen16", 42, 0, 50) == walls("generic", 42, 0, 50)).all()
    assert (walls("ne_alt", 42, 0, 50) == walls("generic", 42, 0, 50)).all()
    assert_same(deal_batch("changsha", 42, 0, 500), deal_batch("dingque", 42, 0, 500))
    assert (walls("shanghai_qhp", 42, 0, 50) == walls("shanghai_baida", 42, 0, 50)).all()
    # different tile sets and different seeds give different walls
    assert not (walls("generic", 42, 0, 50) == walls("generic", 43, 0, 50)).all()
    streams = {WallSpec.from_rules(r).stream for r in RULE_IDS}
    assert len(streams) == 4  # 108, 112, 136 and 144 tiles


@pytest.mark.parametrize(
    "args, error, message",
    [
        ((1, -1, 5), ValueError, "start must be >= 0"),
        ((1, 0, -5), ValueError, "n must be >= 0"),
        ((-3, 0, 5), ValueError, "seed must be in"),
        ((1, 0.5, 5), TypeError, "start must be an integer"),
    ],
)
def test_deal_batch_rejects(args, error, message):
    with pytest.raises(error, match=message):
        deal_batch("changsha", *args)


def test_empty_batch_and_concat_errors():
    empty = deal_batch("changsha", 1, 10, 0)
    assert len(empty) == 0 and empty.hands.shape == (0, 4, 34)
    with pytest.raises(ValueError, match="follow one another"):
        DealBatch.concat([deal_batch("changsha", 1, 0, 2), deal_batch("changsha", 1, 3, 2)])
    with pytest.raises(ValueError, match="no batches"):
        DealBatch.concat([])
