"""Shanten and win checks (mjsim.evaluate, mjsim.kernels.shanten) against the definitions.

The references are the slow, obviously correct functions of ``tests/naive.py``: shanten is
the minimum over complete winning targets of the missing tiles, minus one (RULES.md §0.5),
and wins are tested by enumerating decompositions. The kernels must agree on every hand.

Sizes (default run; ``MJSIM_FULL=1`` scales them up, see the constants below):

* every rule set: ``N_RULESET`` random hands (half that for the constraint rule sets
  hongzhong112 and ne_alt, whose naive shanten is slower), 13 and 14 tiles (16/17 in
  caishen16) from its wall, half uniform and half near a win, a third with exposed melds
  (read from a ``[..]``/``{..}`` hand string), with wildcards where the rule set has them
  (caishen16, shanghai_baida, and the 宝 of hongzhong112 / ne_alt) and with each fixed
  void suit in dingque;
* each winning form of each rule set (``form=``): ``N_FORM`` hands;
* rule options that change the families: ``N_VARIANT`` hands each;
* the per-suit distance tables: every suit vector with at most 5 tiles, every column;
* every one-suit hand of 1, 2, 4 and 5 concealed tiles behind abstract exposed melds;
* the ``mahjong`` package (riichi rules): ``N_MAHJONG`` random hands from the 136 wall
  (about 5 s, so the default run keeps all 100,000);
* hypothesis properties and the worked examples of RULES.md (§1.4, §1.8, §2.2, §2.4.3,
  §3.5, §4.5, §4.11, §5.3, §5.9).

Kernel bugs this file found stay pinned by tests: 风一色 in STD shape
(test_option_variants_vs_naive, sh_fengyise_any_shape=false) and a fifth copy through
exposed melds (test_fifth_copy_through_exposed_melds and its constrained twin).
"""

from __future__ import annotations

import functools
import itertools
import os
import time

import naive as NV
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjsim import list_rules, load_rules, parse_hand, to_compact
from mjsim.evaluate import compile_rules, is_win, shanten, shanten_batch
from mjsim.evaluate import meld_flags as hand_meld_flags
from mjsim.kernels import constrained
from mjsim.kernels import shanten as K
from mjsim.kernels.shanten import IMPOSSIBLE
from mjsim.tables.flagged_merged import MAX_TILES, load_flag_tables
from mjsim.tables.suits import INF as TABLE_INF
from mjsim.tables.suits import N_PAIR, load_tables, suit_index
from mjsim.tiles import Hand, Meld, kind, name

FULL = os.environ.get("MJSIM_FULL", "") not in ("", "0")
N_RULESET = 20_000 if FULL else 1_200
N_FORM = 3_000 if FULL else 300
N_VARIANT = 3_000 if FULL else 300
N_MAHJONG = 100_000  # about 5 s with the mahjong package, so the default run keeps all
HYPOTHESIS_EXAMPLES = 1_000 if FULL else 120

ALL_RULES = [r.id for r in list_rules()]
CONSTRAINT_RULES = [r.id for r in list_rules() if any(f.constraint for f in r.families)]


def seed_of(*parts) -> int:
    """A stable seed per test case (``hash`` of a str is salted per process)."""
    return sum((i + 1) * ord(ch) for i, ch in enumerate("/".join(map(str, parts)))) + 12345


# --------------------------------------------------------------------------- hand generators


def wall_left(rules, wild=None) -> np.ndarray:
    """Copies of each kind in the wall: 4 of each usable kind (3 of the 财神 kind, whose
    flipped indicator is out of play)."""
    left = np.zeros(34, dtype=np.int64)
    left[list(NV.wall_kinds(rules))] = 4
    if wild is not None and rules.wild == "caishen":
        left[wild] = 3
    return left


def draw(rng, left, n) -> np.ndarray:
    """``n`` tiles uniformly from the copies left (removed from ``left``)."""
    pool = np.repeat(np.arange(34), left)
    counts = np.bincount(rng.choice(pool, n, replace=False), minlength=34)
    left -= counts
    return counts


def random_meld(rng, left, kinds, wild, pungs_only=False, kongs=True):
    """An exposed meld (chow, pung or kong, some kongs concealed) taken from ``left``."""
    kinds = set(kinds) - {wild}
    options = []
    for k in sorted(kinds):
        if left[k] >= 3:
            options.append(("pung", k))
        if kongs and left[k] >= 4:
            options.append(("kong", k))
        if (
            not pungs_only
            and k < 27
            and k % 9 <= 6
            and all(k + i in kinds and left[k + i] >= 1 for i in range(3))
        ):
            options.append(("chow", k))
    if not options:
        return None
    typ, k = options[rng.integers(len(options))]
    for t in NV.meld_tiles((typ, k)):
        left[t] -= 1
    return (typ, k, typ == "kong" and bool(rng.random() < 0.3))


def random_deal(rng, rules, n_melds, extra, wild=None):
    """A uniformly random hand: ``n_melds`` exposed melds, then concealed tiles."""
    left = wall_left(rules, wild)
    melds = []
    for _ in range(n_melds):
        meld = random_meld(rng, left, NV.wall_kinds(rules), wild)
        if meld is not None:
            melds.append(meld)
    size = rules.hand_size + extra - 3 * len(melds)
    return draw(rng, left, size), melds


@functools.cache
def pools(rules):
    """Kind pools that complete hands of every family are drawn from."""
    kinds = NV.wall_kinds(rules)
    out = {"all": list(kinds)}
    for s in range(3):
        suit = [k for k in kinds if NV.suit(k) == s]
        honours = [k for k in kinds if k >= 27]
        if suit:
            out[f"suit{s}"] = suit
            if honours:
                out[f"suit{s}+z"] = suit + honours
    if sum(1 for k in kinds if k < 27 and k % 9 in (1, 4, 7)) >= 4:
        out["258"] = [k for k in kinds if k < 27 and k % 9 in (1, 4, 7)]
    if sum(1 for k in kinds if k >= 27) >= 4:
        out["z"] = [k for k in kinds if k >= 27]
    return out


def complete_hand(rng, rules, n_melds, wild):
    """A complete hand (hand_size + 1 effective tiles) of a random shape and pool, or None."""
    left = wall_left(rules, wild)
    names = list(pools(rules))
    pool_name = names[rng.integers(len(names))]
    pool = pools(rules)[pool_name]
    shape = ["std", "std", "pungs", "pairs", "loose"][rng.integers(5)]
    if shape == "pairs" and n_melds:
        shape = "std"
    if shape == "loose" and pool_name not in ("258", "z"):
        shape = "std"
    size = rules.hand_size + 1 - 3 * n_melds
    counts = np.zeros(34, dtype=np.int64)

    def take(k, n):
        if left[k] < n or k == wild:
            return False
        left[k] -= n
        counts[k] += n
        return True

    if shape == "pairs":
        pairs = rules.melds * 3 // 2 + 1 if rules.melds == 4 else 8  # 7 pairs, or 8 + B
        for _ in range(pairs):
            for _try in range(50):
                if take(int(rng.choice(pool)), 2):
                    break
            else:
                return None
        if rules.melds == 5:
            counts += draw(rng, left, 1)
        return counts, []
    melds = []
    for _ in range(n_melds):
        meld = random_meld(rng, left, pool, wild, pungs_only=shape in ("pungs", "loose"))
        if meld is None:
            return None
        melds.append(meld)
    if shape == "loose":
        avail = np.zeros(34, dtype=np.int64)
        avail[pool] = left[pool]
        if wild is not None:
            avail[wild] = 0
        if avail.sum() < size:
            return None
        got = draw(rng, avail, size)
        counts += got
        left -= got
        return counts, melds
    for _ in range(rules.melds - n_melds):
        meld = random_meld(rng, left, pool, wild, pungs_only=shape == "pungs", kongs=False)
        if meld is None:
            return None
        for t in NV.meld_tiles(meld):
            counts[t] += 1
    for _try in range(50):
        if take(int(rng.choice(pool)), 2):
            break
    else:
        return None
    return counts, melds


def near_win(rng, rules, n_melds, extra, wild=None):
    """A complete hand with one tile taken out (13 tiles) and 0–2 tiles exchanged."""
    for _ in range(100):
        got = complete_hand(rng, rules, n_melds, wild)
        if got is not None:
            break
    else:
        return random_deal(rng, rules, n_melds, extra, wild)
    counts, melds = got
    left = wall_left(rules, wild) - counts
    for m in melds:
        for t in NV.meld_tiles(m):
            left[t] -= 1
    assert left.min() >= 0

    def drop_one():
        k = int(rng.choice(np.repeat(np.arange(34), counts)))
        counts[k] -= 1
        left[k] += 1

    if extra == 0:
        drop_one()
    for _ in range([0, 1, 1, 2][rng.integers(4)]):
        drop_one()
        counts += draw(rng, left, 1)
    if wild is not None and rng.random() < 0.5:  # swap some tiles for wildcards
        for _ in range(int(rng.integers(1, 4))):
            if left[wild] and counts.sum() > counts[wild]:
                drop_one()
                left[wild] -= 1
                counts[wild] += 1
    return counts, melds


def make_cases(rng, rules, n, wild=None):
    """``n`` hands: 13 and 14 tiles, half uniform and half near a win, a third with melds."""
    cases = []
    for i in range(n):
        extra = i % 2
        n_melds = int(rng.integers(1, rules.melds + 1)) if i % 3 == 2 else 0
        gen = near_win if (i // 2) % 2 else random_deal
        counts, melds = gen(rng, rules, n_melds, extra, wild)
        cases.append((counts.astype(np.uint8), melds))
    return cases


def hand_string(counts, melds) -> str:
    return to_compact(
        Hand(
            counts=np.asarray(counts, dtype=np.uint8),
            melds=tuple(Meld(t, f, c) for t, f, c in melds),
        )
    )


# --------------------------------------------------------------------------- comparison


def kernel_values(rules, cases, form=None, wild=None, void=None):
    """Kernel shanten of each case: one batch call for the meld-free hands, and
    ``evaluate.shanten`` on the parsed hand string for hands with exposed melds."""
    out = [None] * len(cases)
    wild_arg = None if wild is None else [wild]
    plain = [i for i, (_, m) in enumerate(cases) if not m]
    if plain:
        arr = np.array([cases[i][0] for i in plain], dtype=np.uint8)
        vals = shanten_batch(arr, rules, form=form, wild=wild_arg, void=void)
        for i, v in zip(plain, vals):
            out[i] = None if int(v) == IMPOSSIBLE else int(v)
    for i, (counts, melds) in enumerate(cases):
        if melds:
            hand = parse_hand(hand_string(counts, melds), rules)
            assert np.array_equal(hand.counts, counts)
            out[i] = shanten(hand, rules, form=form, wild=wild_arg, void=void)
    return out


#: a hand whose only wait would be a fifth copy of an exposed meld's kind, with every
#: condition of the constrained families met
CAP_HAND = "[111m] 1m234p567p789s"


def compare(rules, cases, form=None, wild=None, void=None):
    """Assert kernel == naive on every case; return the number of cases checked."""
    rules = load_rules(rules) if isinstance(rules, str) else rules
    kern = kernel_values(rules, cases, form, wild, void)
    wild_kinds = () if wild is None else (wild,)
    bad = []
    for (counts, melds), k in zip(cases, kern):
        nv = NV.naive_shanten(
            counts, rules, melds=melds, form=form, wild_kinds=wild_kinds, void=void
        )
        if k == nv:
            continue
        text = (
            f"{hand_string(counts, melds)!r} rules={rules!r} form={form} "
            f"wild={None if wild is None else name(wild)} void={void}: "
            f"kernel {k}, naive {nv}"
        )
        if melds and k == NV.naive_shanten(
            counts,
            rules,
            melds=melds,
            form=form,
            wild_kinds=wild_kinds,
            void=void,
            count_meld_copies=False,
        ):
            text += " (the kernel let a target use a fifth copy of an exposed meld's kind)"
        bad.append(text)
    assert not bad, f"{len(bad)} of {len(cases)} disagree, e.g.:\n" + "\n".join(bad[:10])
    return len(cases)


def batches(rules, rng):
    """(wild, void) settings a rule set is tested under."""
    kinds = NV.wall_kinds(rules)
    if rules.wild in ("caishen", "baida", "bao"):
        return [(int(rng.choice(kinds)), None) for _ in range(4)] + [(None, None)]
    if any(f.void_suit for f in rules.families):
        return [(None, None), (None, None), (None, "m"), (None, "p"), (None, "s")]
    return [(None, None)]


# --------------------------------------------------------------------------- kernel vs naive


@pytest.mark.parametrize("rules_id", ALL_RULES)
def test_random_hands_vs_naive(rules_id):
    rules = load_rules(rules_id)
    rng = np.random.default_rng(seed_of("ruleset", rules_id))
    settings_ = batches(rules, rng)
    # the naive constrained shanten is slower: half as many hands for hz / ne
    n = N_RULESET // 2 if rules_id in CONSTRAINT_RULES and not FULL else N_RULESET
    checked = 0
    for wild, void in settings_:
        cases = make_cases(rng, rules, n // len(settings_), wild)
        checked += compare(rules, cases, wild=wild, void=void)
    assert checked >= n - len(settings_)


@pytest.mark.parametrize("rules_id", CONSTRAINT_RULES)
def test_naive_constrained_shanten_matches_predicates(rules_id):
    """The naive hz / ne shanten (flagged target enumeration) against the decomposition
    predicates win_hz / win_ne of RULES.md: -1 exactly on wins, 0 exactly when some tile
    wins; and the presets' condition fields are RULES.md's (§4.5, §4.11)."""
    rules = load_rules(rules_id)
    assert [NV.family_conditions(f) for f in rules.families] == (
        [(True, True, True, True, 2)]
        if rules_id == "hongzhong112"
        else [(True, False, True, False, 3)]
    )
    rng = np.random.default_rng(seed_of("constraint", rules_id))
    for counts, melds in make_cases(rng, rules, 2_000 if FULL else 150):
        value = NV.naive_shanten(counts, rules, melds=melds)
        if counts.sum() + 3 * len(melds) == rules.hand_size + 1:
            assert (value == -1) == NV.naive_is_win(counts, rules, melds), (
                hand_string(counts, melds),
                value,
            )
        else:
            assert (value == 0) == bool(NV.naive_waits(counts, rules, melds)), (
                hand_string(counts, melds),
                value,
            )


FORM_CASES = sorted(
    {(r.id, f.form) for r in list_rules() for f in r.families},
    key=lambda c: (ALL_RULES.index(c[0]), c[1]),
)


@pytest.mark.parametrize(("rules_id", "form"), FORM_CASES)
def test_forms_vs_naive(rules_id, form):
    rules = load_rules(rules_id)
    rng = np.random.default_rng(seed_of("form", rules_id, form))
    settings_ = batches(rules, rng)[:2]
    for wild, void in settings_:
        compare(
            rules,
            make_cases(rng, rules, N_FORM // len(settings_), wild),
            form=form,
            wild=wild,
            void=void,
        )


VARIANTS = [
    ("generic", {"gen_7p_quad_as_two_pairs": False}, False),
    ("generic", {"gen_seven_pairs": False}, False),
    ("generic", {"gen_flowers": True}, True),
    ("dingque", {"dq_tiles": 136}, False),
    ("dingque", {"dq_seven_pairs": False}, False),
    ("changsha", {"cs_tiles": 136}, False),
    ("changsha", {"cs_small_win_pair": "any"}, False),
    ("changsha", {"cs_jiangyise": False, "cs_quanqiuren": False}, False),
    ("changsha", {}, True),
    ("shanghai_qhp", {"sh_dragons_are_flowers": True}, False),
    ("shanghai_qhp", {}, True),
    ("shanghai_qiaoma", {"sh_qm_hand_types": "qhp"}, False),
    ("hongzhong112", {"hrb_red_pair_substitutes": False}, False),
    ("ne_alt", {"neb_three_suits": False}, False),
    ("ne_alt", {"neb_need_cha": False, "neb_need_terminal_or_honour": False}, False),
    # 风一色 in STD shape (irregular = false): once a kernel bug (1234z1234z5567z7z6z
    # was a win), fixed when the family rows started to carry `irregular`
    ("shanghai_qhp", {"sh_fengyise_any_shape": False}, False),
]


@pytest.mark.parametrize(("rules_id", "options", "with_wild"), VARIANTS)
def test_option_variants_vs_naive(rules_id, options, with_wild):
    """Options that change the families or the tile set; ``with_wild`` adds wildcards to
    a rule set that has none (the kernel accepts them for any rule set)."""
    rules = load_rules(rules_id, **options)
    rng = np.random.default_rng(seed_of("variant", rules_id, sorted(options.items()), with_wild))
    wilds = [int(rng.choice(NV.wall_kinds(rules))) for _ in range(2)] if with_wild else [None]
    for wild in wilds:
        compare(rules, make_cases(rng, rules, N_VARIANT // len(wilds), wild), wild=wild)
    for form in sorted({f.form for f in rules.families}):
        compare(rules, make_cases(rng, rules, N_VARIANT // 4, wilds[0]), form=form, wild=wilds[0])


def test_fifth_copy_through_exposed_melds():
    """RULES.md §0.5: never more than 4 of a kind counting own tiles, melds included.
    (Once a kernel bug: the exposed melds' copies were not counted against the cap.)"""
    hand = parse_hand("[111m] 1m456p789s234s")
    # the only wait would be a fifth 1m, so the hand is one exchange from ready
    assert NV.naive_shanten(hand.counts, "generic", melds=hand.melds) == 1
    assert NV.naive_waits(hand.counts, "generic", hand.melds) == set()
    assert shanten(hand) == 1
    hand = parse_hand("[222p] 2p 345m 678m 999s", "changsha")  # the 258 pair needs a 5th 2p
    assert NV.naive_shanten(hand.counts, "changsha", melds=hand.melds) == 1
    assert shanten(hand, "changsha") == 1


@pytest.mark.parametrize("rules_id", CONSTRAINT_RULES)
def test_fifth_copy_through_exposed_melds_constrained(rules_id):
    rules = load_rules(rules_id)
    hand = parse_hand(CAP_HAND, rules)  # P, C, Y and S all met; the wait is a 5th 1m
    assert NV.naive_shanten(hand.counts, rules, melds=hand.melds) == 1
    assert shanten(hand, rules) == 1


# --------------------------------------------------------------------------- shape conditions:
# the merged tables' path (mjsim.kernels.constrained.table_cost) against the group DP that
# the tests above check against brute force, and with exposed melds against brute force


def _base5(counts, first, last):
    return sum(int(counts[k]) * 5 ** (k - first) for k in range(first, last + 1))


def test_constrained_tables_match_dp():
    """table_cost == the DP (rows read, not capped) on random natural hands of up to
    MAX_TILES tiles from random kind pools, with random exposed-meld bits, melds needed,
    conditions (flags, 中 pair, 0–3 suits) and honour kinds (all, 中 only, none): the
    table path reads every honour kind, the DP only the rule set's."""
    t = load_flag_tables()
    work = constrained.make_work()
    caps = np.full(34, 4, dtype=np.int64)
    no_wild = np.zeros(34, dtype=np.bool_)
    rng = np.random.default_rng(seed_of("constrained tables"))
    masks = [np.ones(7, np.bool_), np.eye(7, dtype=np.bool_)[6], np.zeros(7, np.bool_)]
    bits = (1, 4, 8, 16, constrained.HAS_PUNG_MELD, constrained.HAS_YAO_MELD)
    checked = 0
    for _ in range(6_000 if FULL else 1_500):
        honour_mask = masks[rng.integers(3)]
        kinds = [k for k in range(34) if k < 27 or honour_mask[k - 27]]
        pool = rng.choice(kinds, int(rng.integers(3, len(kinds) + 1)), replace=False)
        left = np.zeros(34, dtype=np.int64)
        left[pool] = 4
        counts = draw(rng, left, int(rng.integers(0, min(MAX_TILES, left.sum()) + 1)))
        counts = counts.astype(np.uint8)
        meld_bits = sum(b for b in bits if rng.random() < 0.3)
        need, flags = int(rng.integers(0, 5)), int(rng.integers(0, 8))
        red, min_suits = int(rng.integers(0, 2)), int(rng.integers(0, 4))
        index = [_base5(counts, 9 * g, 9 * g + 8) for g in range(3)] + [_base5(counts, 27, 33)]
        got = constrained.table_cost(
            *index, meld_bits, need, flags, red * int(honour_mask[6]), min_suits, t
        )
        want = constrained.constrained_cost(
            counts,
            no_wild,
            honour_mask,
            caps,
            False,
            meld_bits,
            need,
            flags,
            red,
            min_suits,
            t.suit_ids,
            t.suit_rows,
            work,
        )
        assert got == want, (
            to_compact(Hand(counts=counts)),
            honour_mask.tolist(),
            meld_bits,
            need,
            flags,
            red,
            min_suits,
        )
        checked += 1
    assert checked >= 1_500


def test_constrained_beyond_the_tables_falls_back():
    """Two suits of more than MAX_TILES natural tiles are past the merged pairs: the kernel
    takes the DP (here a hand of 17 tiles, which the facade refuses for 红中)."""
    comp = compile_rules(load_rules("hongzhong112"))
    t = load_flag_tables()
    counts = parse_hand("111222333m4445556p7z", "caishen16").counts
    index = [_base5(counts, 9 * g, 9 * g + 8) for g in range(3)] + [_base5(counts, 27, 33)]
    assert constrained.table_cost(*index, 0, 4, 7, 1, 2, t) == constrained.NOT_TABLED
    no_wild = np.zeros(34, dtype=np.bool_)
    caps = np.full(34, 4, dtype=np.int64)
    dp = constrained.constrained_cost(
        counts,
        no_wild,
        comp.honour_mask,
        caps,
        False,
        0,
        4,
        7,
        1,
        2,
        t.suit_ids,
        t.suit_rows,
        constrained.make_work(),
    )
    got = K.hand_cost(
        counts,
        0,
        0,
        -2,
        comp.families,
        comp.melds,
        comp.kind_mask,
        comp.honour_mask,
        no_wild,
        caps,
        comp.tables,
        K.make_scratch(),
    )
    assert got == dp == 0


@pytest.mark.parametrize("rules_id", CONSTRAINT_RULES)
def test_constrained_exposed_melds_in_batch_vs_naive(rules_id):
    """Exposed melds given as ``meld_flags`` (the batch's and the game engine's call: the
    melds' copies do not cap the target) take the table path: against the definition
    with the same cap, wildcards or not."""
    rules = load_rules(rules_id)
    rng = np.random.default_rng(seed_of("constrained melds", rules_id))
    checked = 0
    for wild in (None, int(rng.choice(NV.wall_kinds(rules)))):
        for counts, melds in make_cases(rng, rules, 3 * (N_VARIANT // 2), wild):
            if not melds:
                continue
            hand = parse_hand(hand_string(counts, melds), rules)
            got = _one(
                rules,
                counts,
                n_melds=len(melds),
                meld_flags=hand_meld_flags(hand),
                wild=None if wild is None else [wild],
            )
            want = NV.naive_shanten(
                counts,
                rules,
                melds=melds,
                count_meld_copies=False,
                wild_kinds=() if wild is None else (wild,),
            )
            assert got == want, (hand_string(counts, melds), wild, got, want)
            checked += 1
    assert checked >= N_VARIANT // 2


# --------------------------------------------------------------------------- exhaustive


def _suit_vectors(n_digits, max_sum):
    for digits in itertools.product(range(5), repeat=n_digits):
        if sum(digits) <= max_sum:
            yield digits


def test_suit_tables_exhaustive():
    """Every entry of the std / pung / honour tables for every vector of ≤ 5 tiles
    (and 3,000 random larger vectors) equals the naive per-group distance."""
    tables = load_tables()
    rng = np.random.default_rng(7)
    any_pair = (True,) * 9
    pair_258 = tuple(r % 3 == 1 for r in range(9))
    vectors = list(_suit_vectors(9, 5))
    vectors += [
        tuple(int(x) for x in rng.integers(0, 5, 9)) for _ in range(20_000 if FULL else 200)
    ]
    checked = 0
    for table, chows in ((tables.std, True), (tables.pung, False)):
        for v in vectors:
            row = table[suit_index(v)]
            for pair, ok in ((1, any_pair), (2, pair_258)):
                ref = NV._group_costs(v, (4,) * 9, chows, ok, 5)
                for m in range(6):
                    want0 = min(ref[m][0], TABLE_INF)
                    want = min(ref[m][1], TABLE_INF)
                    assert row[m * N_PAIR] == want0, (v, chows, m, 0)
                    assert row[m * N_PAIR + pair] == want, (v, chows, m, pair)
                    checked += 2
    for v in itertools.chain(
        _suit_vectors(7, 5), (tuple(int(x) for x in rng.integers(0, 5, 7)) for _ in range(500))
    ):
        row = tables.honour[suit_index(v)]
        ref = NV._group_costs(v, (4,) * 7, False, (True,) * 7, 5)
        for m in range(6):
            assert row[m * N_PAIR] == min(ref[m][0], TABLE_INF), (v, m)
            assert row[m * N_PAIR + 1] == min(ref[m][1], TABLE_INF), (v, m)
            assert row[m * N_PAIR + 2] == TABLE_INF
    assert checked > 40_000


@pytest.mark.parametrize(
    "rules_id",
    ["generic", "changsha", "caishen16"] + (["shanghai_qhp", "hongzhong112"] if FULL else []),
)
def test_one_suit_hands_exhaustive(rules_id):
    """Every hand of 1, 2, 4 and 5 concealed tiles of one suit behind abstract exposed
    melds (``n_melds``), in suit m (with MJSIM_FULL: 7 and 8 tiles too, in every suit)."""
    rules = load_rules(rules_id)
    sizes = [1, 2, 4, 5] + ([7, 8] if FULL else [])
    for s in range(3 if FULL else 1):
        for size in sizes:
            n_melds, rem = divmod(rules.hand_size + 1 - size, 3)
            if rem == 2:
                continue  # no hand of 13/14 (16/17) tiles has this many concealed
            rows = []
            for v in _suit_vectors(9, size):
                if sum(v) == size:
                    c = np.zeros(34, dtype=np.uint8)
                    c[9 * s : 9 * s + 9] = v
                    rows.append(c)
            got = shanten_batch(np.array(rows), rules, n_melds=n_melds)
            for c, k in zip(rows, got):
                want = NV.naive_shanten(c, rules, n_melds=n_melds)
                assert (None if k == IMPOSSIBLE else int(k)) == want, (
                    list(c[9 * s : 9 * s + 9]),
                    n_melds,
                    int(k),
                    want,
                )


# --------------------------------------------------------------------------- mahjong package


def _mahjong_hands(n, seed):
    rng = np.random.default_rng(seed)
    keys = rng.random((n, 136))
    idx = np.argsort(keys, axis=1)  # a shuffled 136-tile wall per row
    out = np.zeros((n, 34), dtype=np.uint8)
    sizes = np.where(np.arange(n) % 2 == 0, 13, 14)
    for size in (13, 14):
        rows = np.flatnonzero(sizes == size)
        kinds = idx[rows, :size] // 4
        for j in range(size):
            np.add.at(out, (rows, kinds[:, j]), 1)
    return out


def test_mahjong_package_agreement():
    """Zero disagreements with the ``mahjong`` package on N_MAHJONG random hands: regular
    shanten vs form="standard" and chiitoitsu vs form="seven_pairs" with distinct pairs."""
    from mahjong.shanten import Shanten

    rules = load_rules("generic", gen_7p_quad_as_two_pairs=False)
    hands = _mahjong_hands(N_MAHJONG, 2024)
    std = shanten_batch(hands, rules, form="standard")
    pairs = shanten_batch(hands, rules, form="seven_pairs")
    start = time.perf_counter()
    bad = []
    for h, a, b in zip(hands.tolist(), std.tolist(), pairs.tolist()):
        ref_std = Shanten.calculate_shanten_for_regular_hand(h)
        ref_pairs = Shanten.calculate_shanten_for_chiitoitsu_hand(h)
        if (a, b) != (ref_std, ref_pairs):
            text = to_compact(Hand(counts=np.array(h, dtype=np.uint8)))
            bad.append(f"{text}: standard {a} vs {ref_std}, seven_pairs {b} vs {ref_pairs}")
    elapsed = time.perf_counter() - start
    assert not bad, f"{len(bad)} disagreements, first: {bad[:5]}"
    assert elapsed < 120, f"the mahjong package took {elapsed:.0f} s"


def test_mahjong_package_fifth_copy_cases():
    """Hands whose best regular wait would be a fifth copy: both packages respect the cap."""
    from mahjong.shanten import Shanten

    rules = load_rules("generic", gen_7p_quad_as_two_pairs=False)
    for text, want in [
        ("1111m456p789s111z", 1),
        ("1111m2222m456p789s", 0),
        ("1111m456p789s11z5z", 1),
    ]:
        counts = parse_hand(text).counts
        assert shanten(text, rules, form="standard") == want
        assert NV.naive_shanten(counts, rules, form="standard") == want
        assert Shanten.calculate_shanten_for_regular_hand(counts.tolist()) == want


# --------------------------------------------------------------------------- hypothesis


def _hand_strategy(rules_id, extra):
    """Hands of 13 (16) + ``extra`` tiles of the rule set's kinds, at most 4 of a kind."""
    rules = load_rules(rules_id)
    size = rules.hand_size + extra
    return (
        st.lists(st.sampled_from(NV.wall_kinds(rules)), min_size=size, max_size=size)
        .map(lambda ks: np.bincount(ks, minlength=34).astype(np.uint8))
        .filter(lambda c: c.max() <= 4)
    )


def _one(rules, counts, **kw):
    v = int(shanten_batch(np.asarray(counts, dtype=np.uint8)[None, :], rules, **kw)[0])
    return None if v == IMPOSSIBLE else v


HYP = settings(
    max_examples=HYPOTHESIS_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@HYP
@given(data=st.data(), rules_id=st.sampled_from(ALL_RULES))
def test_suit_permutation_invariance(data, rules_id):
    rules = load_rules(rules_id)
    counts = data.draw(_hand_strategy(rules_id, data.draw(st.integers(0, 1))))
    perm = data.draw(st.permutations([0, 1, 2]))
    moved = counts.copy()
    for s, t in enumerate(perm):
        moved[9 * t : 9 * t + 9] = counts[9 * s : 9 * s + 9]
    wild = data.draw(st.sampled_from(NV.wall_kinds(rules))) if rules.wild != "none" else None
    wild_moved = wild if wild is None or wild >= 27 else perm[wild // 9] * 9 + wild % 9
    a = _one(rules, counts, wild=None if wild is None else [wild])
    b = _one(rules, moved, wild=None if wild_moved is None else [wild_moved])
    assert a == b


@HYP
@given(data=st.data(), rules_id=st.sampled_from(ALL_RULES))
def test_adding_a_tile_gains_at_most_one(data, rules_id):
    """shanten(h) - 1 <= shanten(h + t) <= shanten(h) for every tile t."""
    rules = load_rules(rules_id)
    counts = data.draw(_hand_strategy(rules_id, 0))
    base = _one(rules, counts)
    more = [t for t in NV.wall_kinds(rules) if counts[t] < 4]
    rows = np.repeat(counts[None, :], len(more), axis=0)
    rows[np.arange(len(more)), more] += 1
    after = shanten_batch(rows, rules)
    assert ((base - 1 <= after) & (after <= base)).all(), (base, after.tolist())


@HYP
@given(data=st.data(), rules_id=st.sampled_from(ALL_RULES))
def test_ready_hands_have_winning_tiles(data, rules_id):
    """A 13-tile hand is ready (0) iff some tile makes an is_win hand, and is_win(h + t)
    iff shanten(h + t) == -1 iff the naive decomposition predicate wins."""
    rules = load_rules(rules_id)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    counts, _ = near_win(rng, rules, 0, 0)
    counts = counts.astype(np.uint8)
    wins = []
    for t in NV.wall_kinds(rules):
        if counts[t] < 4:
            more = counts.copy()
            more[t] += 1
            text = to_compact(Hand(counts=more))
            w = is_win(text, rules)
            assert w == (shanten(text, rules) == -1)
            assert w == NV.naive_is_win(more, rules), text
            if w:
                wins.append(t)
    assert (shanten(to_compact(Hand(counts=counts)), rules) == 0) == bool(wins)


@settings(max_examples=max(30, HYPOTHESIS_EXAMPLES // 4), deadline=None)
@given(data=st.data())
def test_naive_shanten_matches_decompositions(data):
    """The two naive references agree with each other: naive_shanten == -1 exactly when
    the decomposition predicate wins (with wildcards: when naming them wins)."""
    rules_id = data.draw(st.sampled_from(ALL_RULES))
    rules = load_rules(rules_id)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    wild = int(rng.choice(NV.wall_kinds(rules))) if data.draw(st.booleans()) else None
    n_melds = data.draw(st.integers(0, rules.melds))
    counts, melds = near_win(rng, rules, n_melds, 1, wild)
    if wild is not None and counts[wild] > 2:
        wild = None  # keep the brute force small
    wk = () if wild is None else (wild,)
    win = (
        NV.naive_is_win_wild(counts, rules, wk, melds)
        if wk
        else NV.naive_is_win(counts, rules, melds)
    )
    assert win == (NV.naive_shanten(counts, rules, melds=melds, wild_kinds=wk) == -1)


# --------------------------------------------------------------------------- RULES.md examples


def _nv_win(text, rules, form=None, wild=None, void=None):
    rules = load_rules(rules) if isinstance(rules, str) else rules
    h = parse_hand(text, rules)
    wk = () if wild is None else (kind(wild),)
    return (
        NV.naive_shanten(h.counts, rules, melds=h.melds, form=form, wild_kinds=wk, void=void) == -1
    )


EXAMPLES = [
    # (section, hand, rules, form, wild, void, expected win)
    ("1.4", "123m456p789s345s2z +2z (ron)", "generic", None, None, None, True),
    ("1.8", "123m678m555s789s5m +5m", "dingque", None, None, "p", True),
    ("1.8", "123m678m555s789s5p +5p", "dingque", None, None, "p", False),
    ("1.8", "123m678m555s789s5p +5p", "dingque", None, None, None, False),
    ("2.2", "234m678p111p789s5s +5s (ron)", "changsha", None, None, None, True),
    ("2.2", "234m678p111p789s3s +3s", "changsha", None, None, None, False),
    ("2.4.3", "1133m4477p2299s6s +6s", "changsha", "seven_pairs", None, None, True),
    ("2.4.3", "1111m33m4477p2299s", "changsha", "seven_pairs", None, None, True),
    ("2.4.3", "123s456s789s222s5s +5s", "changsha", "one_suit", None, None, True),
    ("2.4.3", "2258m2588p22558s +8s", "changsha", "all_258", None, None, True),
    ("2.4.3", "2258m2588p22558s +8s", "changsha", "standard", None, None, False),
    ("2.4.3", "[222p] 555m777s99m11p +1p (ron)", "changsha", "all_pungs", None, None, True),
    ("2.4.3", "[222p] 555m777s99m11p +9m (ron)", "changsha", "all_pungs", None, None, True),
    ("2.4.3", "[123m][555p][789s][222s] 9p +9p (ron)", "changsha", "quanqiuren", None, None, True),
    ("2.4.3", "[123m][555p][789s][222s] 9p +9p (ron)", "changsha", "standard", None, None, False),
    ("2.4.3", "234m567p22p34s777m +5s", "changsha", "standard", None, None, True),
    ("2.4.3", "234m567p22p34s{7777m} +2s", "changsha", "standard", None, None, True),
    ("3.5", "123m456m789p111s234s9p +9p (ron)", "caishen16", None, "7z", None, True),
    ("3.5", "123m456m78p111s234s9p7z +9p (ron)", "caishen16", None, "7z", None, True),
    ("3.5", "123m456m78p111s234s9p7z +9p (ron)", "caishen16", None, None, None, False),
    ("3.5", "11m33m55m22p44p66p88s99s +1z (tsumo)", "caishen16", "eight_pairs", "7z", None, True),
    ("3.5", "7z7z7z 123m456m789p111s22s", "caishen16", None, "7z", None, True),
    ("3.5", "7z7z7z 123m456m789p111s22s", "caishen16", None, None, None, True),
    ("3.5", "[123m][456m][789p][111s][234s] 9p +9p", "caishen16", None, "7z", None, True),
    ("5.3", "[555p][777s] 111z999m2s +2s (ron)", "shanghai_qhp", None, None, None, True),
    ("5.3", "123m456m789m111z5z +5z (tsumo)", "shanghai_qhp", None, None, None, True),
    ("5.3", "1234z1234z5567z7z +6z", "shanghai_qhp", None, None, None, True),
    ("5.3", "1234z1234z5567z7z +6z", "shanghai_qhp", "all_honours", None, None, True),
    ("5.3", "111z222z555z666z77z", "shanghai_qhp", None, None, None, True),
    ("5.3", "123m456p789s111z22m", "shanghai_qhp", None, None, None, False),
    ("5.3", "123m456p789s111z22m", "generic", None, None, None, True),
    ("5.9", "234p567p789s33z5s1m +6s (ron)", "shanghai_baida", None, "1m", None, True),
    ("5.9", "234p567p789s33z5s1m +6s (ron)", "shanghai_baida", None, None, None, False),
]


@pytest.mark.parametrize(
    ("section", "text", "rules_id", "form", "wild", "void", "win"),
    EXAMPLES,
    ids=[f"{e[0]}:{e[1]}:{e[2]}" for e in EXAMPLES],
)
def test_rules_examples(section, text, rules_id, form, wild, void, win):
    rules = load_rules(rules_id)
    assert _nv_win(text, rules, form, wild, void) == win
    assert is_win(text, rules, form=form, wild=wild, void=void) == win
    h = parse_hand(text, rules)
    if wild is None and not any(f.void_suit for f in rules.families):
        assert NV.naive_is_win(h.counts, rules, h.melds, form) == win


def test_rules_examples_waits_and_ready():
    # §0.5: the block formula says 0, the 258 pair makes it 1
    h = parse_hand("123456789m123p9s", "changsha")
    assert shanten(h, "changsha") == 1 == NV.naive_shanten(h.counts, "changsha")
    # §2.4.3 碰碰胡 waits on 1p or 9m
    h = parse_hand("[222p] 555m777s99m11p", "changsha")
    assert NV.naive_waits(h.counts, "changsha", h.melds, form="all_pungs") == {
        kind("1p"),
        kind("9m"),
    }
    assert shanten(h, "changsha", form="all_pungs") == 0
    # §2.4.3 杠上开花: ready on 2s/5s before and after the opening kong
    for text in ("234m567p22p34s777m", "234m567p22p34s{7777m}"):
        h = parse_hand(text, "changsha")
        assert NV.naive_waits(h.counts, "changsha", h.melds) == {kind("2s"), kind("5s")}
        assert shanten(h, "changsha") == 0
    # §3.5 财神牛: five melds formed and a lone 财神, so any tile completes the hand
    h = parse_hand("[123m][456p][789s] 111z 234m 7z", "caishen16")
    assert shanten(h, "caishen16", wild="7z") == 0
    # (a tile whose fourth copy this is would need the 财神 as a fifth copy: the 4-copy
    # cap of §0.5 excludes it, so that one draw is left out here)
    for t in NV.wall_kinds("caishen16"):
        if t != kind("7z") and h.all_counts()[t] < 3:
            more = h.counts.copy()
            more[t] += 1
            assert NV.naive_shanten(more, "caishen16", melds=h.melds, wild_kinds=(33,)) == -1
            assert is_win(Hand(counts=more, melds=h.melds), "caishen16", wild="7z")
    # §3.5 the 八对 hand (16 tiles, 8 pairs) is ready on any tile
    h = parse_hand("11m33m55m22p44p66p88s99s", "caishen16")
    assert shanten(h, "caishen16", form="eight_pairs") == 0
    assert NV.naive_shanten(h.counts, "caishen16", form="eight_pairs") == 0
    # evaluate's doc example: a wait on a fifth copy is no wait
    h = parse_hand("1111m456p789s111z")
    assert shanten(h) == 1 == NV.naive_shanten(h.counts, "generic")


HZ_EXAMPLES = [  # RULES.md §4.5, all six source examples plus the three failures
    ("7z7z 234m 456p 777s 678s", True),
    ("55m 123m 678p 444p 234s", True),
    ("55m 234m 789p 444p 234s", True),
    ("7z7z7z 234m 678p 567p 88s", True),
    ("{7z7z7z7z} 234m 567m 678p 88p", True),
    ("7z7z 234m 456m 678p 567p", True),
    ("234m 456p 678s 777s 55p", False),
    ("123m 456p 789s 234s 55p", False),
    ("123m 456m 789m 111m 55m", False),
    # more: exposed melds count toward P, C, Y and S
    ("[777s] 7z7z 234m 456p 678s", True),
    ("[123m] 55p 456p 678s 345s", False),  # no pung, pair not 中
    ("[123m] 7z7z 456p 678s 345s", True),  # the 中 pair is the pung, 1m gives Y
    ("[999p] 55p 456p 678p 345p", False),  # one suit
    ("[999p] 55p 456p 678p 345m", True),
    ("[999p][111m][777s] 234m 7z7z", True),
    ("[999p][111m][777s] 222m 7z7z", False),  # no chow
]


@pytest.mark.parametrize(("text", "win"), HZ_EXAMPLES)
def test_hongzhong112_predicate_examples(text, win):
    rules = load_rules("hongzhong112")
    h = parse_hand(text, rules)
    assert NV.win_hz(h.counts, h.melds) == win
    assert NV.naive_is_win(h.counts, rules, h.melds) == win
    assert (NV.naive_shanten(h.counts, rules, melds=h.melds) == -1) == win
    assert is_win(h, rules) == win


NE_EXAMPLES = [  # RULES.md §4.11: all three suits, a terminal or honour, a pung (叉)
    ("123m 456p 789s 555s 11z", True),
    ("234m 456p 678s 555s 88p", False),  # no terminal or honour
    ("123m 456p 789s 345s 11z", False),  # no pung
    ("123m 456m 789m 555s 11z", False),  # no p
    ("[111z] 234m 456p 678s 55s", True),  # the exposed honour pung gives both
    ("[123m] 456p 789s 999s 55m", True),
]


@pytest.mark.parametrize(("text", "win"), NE_EXAMPLES)
def test_ne_alt_predicate_examples(text, win):
    rules = load_rules("ne_alt")
    h = parse_hand(text, rules)
    assert NV.win_ne(h.counts, h.melds) == win
    assert NV.naive_is_win(h.counts, rules, h.melds) == win
    assert (NV.naive_shanten(h.counts, rules, melds=h.melds) == -1) == win
    assert is_win(h, rules) == win
    # options switch single conditions off
    assert NV.win_ne(h.counts, h.melds, False, False, False) == NV.win_standard(h.counts, h.melds)


def _brute_decompositions(counts, n_melds):
    """Every multiset of ``n_melds`` meld shapes plus a pair kind whose tiles are exactly
    ``counts`` (checked by summing), over the shapes whose tiles the hand holds."""
    shapes = [("pung", k) for k in range(34) if counts[k] >= 3]
    shapes += [
        ("chow", k)
        for k in range(27)
        if k % 9 <= 6 and counts[k] and counts[k + 1] and counts[k + 2]
    ]
    out = set()
    for ms in itertools.combinations_with_replacement(shapes, n_melds):
        rest = np.asarray(counts, dtype=np.int64).copy()
        for m in ms:
            for t in NV.meld_tiles(m):
                rest[t] -= 1
        if rest.min() >= 0 and rest.sum() == 2 and rest.max() == 2:
            out.add((tuple(sorted(ms)), int(np.argmax(rest))))
    return out


def test_decompositions_enumerate_every_split():
    counts = parse_hand("111222333m11z").counts
    splits = sorted(sorted(ms) for ms, _ in NV.decompositions(counts, 3))
    assert splits == [[("chow", 0)] * 3, [("pung", 0), ("pung", 1), ("pung", 2)]]
    counts = parse_hand("11122233344455m").counts
    found = [(tuple(sorted(ms)), p) for ms, p in NV.decompositions(counts, 4)]
    assert len(found) == len(set(found))  # no split twice
    assert set(found) == _brute_decompositions(counts, 4)
    assert ((("chow", 0),) * 3 + (("pung", 3),), 4) in found
    assert ((("chow", 1),) * 3 + (("pung", 0),), 4) in found
    assert list(NV.decompositions(parse_hand("123456789m123p9s").counts, 4, NV.is_258)) == []


@settings(max_examples=max(40, HYPOTHESIS_EXAMPLES // 3), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules_id=st.sampled_from(["generic", "caishen16"]))
def test_decompositions_match_brute_force(seed, rules_id):
    rules = load_rules(rules_id)
    rng = np.random.default_rng(seed)
    counts, _ = near_win(rng, rules, 0, 1)
    found = [(tuple(sorted(ms)), p) for ms, p in NV.decompositions(counts, rules.melds)]
    assert len(found) == len(set(found))
    assert set(found) == _brute_decompositions(counts, rules.melds)


@pytest.mark.parametrize(
    "rules_id, bad, message",
    [
        ("generic", "11111m456p789s12z", "0–4"),  # a fifth copy
        ("changsha", "123m456p789s112m1z", "has no such tile"),  # honours in a 108-tile game
        ("shanghai_baida", "123m456p789s112m5z", "has no such tile"),  # a bonus tile in hand
        ("generic", "123m456p789s1z", "has 10 tiles"),  # too few tiles
    ],
)
def test_batch_rejects_bad_rows(rules_id, bad, message):
    """A bad row among good ones is named with what is wrong, by the shanten batch (which
    checks rows as it reads them) and by the waits batch (which checks them first)."""
    from mjsim.efficiency import waits_batch
    from mjsim.evaluate import HandError

    rules = load_rules(rules_id)
    good = parse_hand("123m456p789s1122m").counts
    row = np.zeros(34, np.uint8)
    for k in _kinds_of(bad):
        row[k] += 1
    hands = np.stack([good, row, good])
    assert len(shanten_batch(hands[[0, 2]], rules)) == 2  # the good rows alone pass
    for batch in (shanten_batch, waits_batch):
        with pytest.raises(HandError, match=f"row 1.*{message}"):
            batch(hands, rules)


def _kinds_of(text: str) -> list[int]:
    """Tile kinds of compact text (digits before their suit letter), past four copies too."""
    kinds, digits = [], []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            kinds += [{"m": 0, "p": 9, "s": 18, "z": 27}[ch] + d - 1 for d in digits]
            digits = []
    return kinds


@pytest.mark.parametrize("seed", [0, 1])
def test_melds_cost_zero_exactly_for_meld_only_hands(seed):
    """``melds_cost`` (百搭's 吊 test) is 0 exactly when the tiles are that many melds and
    nothing else: the naive decomposition of the tiles plus a pair of an absent honour."""
    from mjsim.evaluate import compile_rules
    from mjsim.kernels import shanten as K

    comp = compile_rules(load_rules("generic"))
    rng = np.random.default_rng(seed)
    no_wild = np.zeros(34, np.bool_)
    hits = 0
    for _ in range(400):
        need = int(rng.integers(1, 5))
        counts = np.zeros(34, dtype=np.uint8)
        for _ in range(need):  # random melds of suited tiles, then perhaps one tile moved
            if rng.random() < 0.5:
                first = 9 * int(rng.integers(3)) + int(rng.integers(7))
                counts[first : first + 3] += 1
            else:
                counts[int(rng.integers(27))] += 3
        if rng.random() < 0.5:
            counts[rng.choice(np.flatnonzero(counts))] -= 1
            counts[int(rng.integers(27))] += 1
        if counts.max() > 4:
            continue
        padded = counts.copy()
        padded[33] = 2
        want = NV.win_standard(padded, (), "any", need)
        assert (K.melds_cost(counts, no_wild, comp.honour_mask, comp.tables, need) == 0) == want
        hits += want
    assert hits > 20


def test_wild_forms():
    """``wild=`` takes notation, a list of tile names or kind indices, or a mask, all alike;
    anything else is one message naming the allowed forms."""
    from mjsim.evaluate import HandError, wild_mask

    hand = "123m456m789p111s2s5s7z7z"  # ready only with the two 7z wild
    mask = np.zeros(34, np.bool_)
    mask[33] = True
    for form in ("7z", ["7z"], ("7z",), [33], np.array([33]), mask):
        assert shanten(hand, "caishen16", wild=form) == 0
    assert shanten(hand, "caishen16") == 1
    assert np.flatnonzero(wild_mask(["1m", "7z", 9])).tolist() == [0, 9, 33]
    for bad, words in (
        (["x1"], "'x1' is not a tile name"),
        ([["7z"]], "is not a tile"),
        (["f1"], "a flower"),
        ([34], "0–33"),
        (np.zeros(5, bool), "bool\\[34\\]"),
        (2.5, "is not a tile"),
        ([True], "is not a tile"),
    ):
        with pytest.raises(HandError, match=words):
            shanten(hand, "caishen16", wild=bad)
