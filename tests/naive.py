"""Slow, obviously correct references for win predicates and shanten (RULES.md §0.5, §7).

Nothing here reads mjsim's kernels or tables: only the tile helpers of :mod:`mjsim.tiles`
(and the rule-set data of :mod:`mjsim.rules`). Everything is written from the definitions:

* **Win predicates** enumerate decompositions of the concealed tiles by plain recursion on
  the lowest tile (:func:`decompositions`), and test the family's conditions on *all* tiles
  of the hand (concealed plus exposed melds).
* **Shanten** is the definition itself: the fewest tiles of a complete winning target hand
  ``W`` (its concealed part) missing from the hand, minus one; every kind of ``W`` counts at
  most 4 copies *including* the copies already in the hand's exposed melds, and ``W`` only
  uses the rule set's tiles (bonus tiles and flowers never; the void suit never). Held
  wildcards are taken out of the hand first and each covers one missing tile.

The minimum over targets is computed exactly by small dynamic programmes over the targets
(see :func:`_group_costs`, :func:`_pairs_cost`, :func:`_only_cost`); each one enumerates
every target of its family, just grouped so that Python can afford it.

Melds are given as ``(type, first_kind)`` or ``(type, first_kind, concealed)`` with type
``"chow"``, ``"pung"`` or ``"kong"`` (``mjsim.tiles.Meld`` objects are accepted too).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache

from mjsim.rules import Family, RuleSet, load_rules
from mjsim.tiles import is_258, is_honour, is_terminal

INF = 10**6
N = 34
SUIT_NAMES = "mps"
ALL_FORMS = (
    "standard",
    "seven_pairs",
    "eight_pairs",
    "one_suit",
    "mixed_one_suit",
    "all_pungs",
    "all_258",
    "all_honours",
    "quanqiuren",
)


# --------------------------------------------------------------------------- helpers


def norm_melds(melds: Iterable) -> list[tuple[str, int, bool]]:
    """Melds as ``(type, first, concealed)`` triples."""
    out = []
    for m in melds:
        if hasattr(m, "type"):
            out.append((m.type, int(m.first), bool(m.concealed)))
        elif len(m) == 2:
            out.append((m[0], int(m[1]), False))
        else:
            out.append((m[0], int(m[1]), bool(m[2])))
    return out


def meld_tiles(meld) -> list[int]:
    typ, first = meld[0], meld[1]
    if typ == "chow":
        return [first, first + 1, first + 2]
    return [first] * (4 if typ == "kong" else 3)


def meld_counts(melds) -> list[int]:
    out = [0] * N
    for m in norm_melds(melds):
        for k in meld_tiles(m):
            out[k] += 1
    return out


def suit(k: int) -> int:
    """0, 1, 2 for m, p, s; 3 for honours."""
    return min(k // 9, 3)


def _counts(counts) -> list[int]:
    c = [int(x) for x in counts]
    assert len(c) == N and all(0 <= x <= 4 for x in c), c
    return c


def _rules(rules) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else load_rules(rules)


def wall_kinds(rules) -> tuple[int, ...]:
    """Kinds that can be in a hand at win time: the rule set's tiles minus bonus tiles."""
    rules = _rules(rules)
    return tuple(k for k in rules.kinds if k not in rules.bonus_kinds)


# --------------------------------------------------------------------------- decompositions


def decompositions(
    counts34, n_melds_needed: int, pair_ok: Callable[[int], bool] = lambda k: True
) -> Iterator[tuple[list[tuple[str, int]], int]]:
    """Every split of ``counts34`` into ``n_melds_needed`` chows/pungs and one pair.

    Plain recursion on the lowest kind still held: all its copies are used at once, by
    the pair (if none yet and ``pair_ok``) or not, a pung or not, and every remaining
    copy starts a chow (so each split comes out exactly once). Yields
    ``(melds, pair_kind)``; ``melds`` are ``("chow"|"pung", first)``.
    """
    c = _counts(counts34)
    if sum(c) != 3 * n_melds_needed + 2:
        return

    def rec(melds, pair):
        k = next((i for i in range(N) if c[i]), None)
        if k is None:
            if pair is not None:  # always true here: 3·M + 2 tiles leave exactly one pair
                yield list(melds), pair
            return
        here = c[k]
        for use_pair in (0, 1) if pair is None and pair_ok(k) else (0,):
            for pung in (0, 1):
                chows = here - 2 * use_pair - 3 * pung
                if chows < 0:
                    continue
                if chows and not (
                    k < 27 and k % 9 <= 6 and c[k + 1] >= chows and c[k + 2] >= chows
                ):
                    continue
                c[k] = 0
                if chows:
                    c[k + 1] -= chows
                    c[k + 2] -= chows
                added = [("pung", k)] * pung + [("chow", k)] * chows
                melds.extend(added)
                yield from rec(melds, k if use_pair else pair)
                del melds[len(melds) - len(added) :]
                c[k] = here
                if chows:
                    c[k + 1] += chows
                    c[k + 2] += chows

    yield from rec([], None)


def _all_tiles(counts, melds) -> list[int]:
    total = [int(x) for x in counts]
    for k, n in enumerate(meld_counts(melds)):
        total[k] += n
    return total


def _suits_present(total) -> set[int]:
    return {suit(k) for k in range(N) if total[k] and k < 27}


def _std_decomps(counts, melds, total_melds, pair_ok=lambda k: True):
    need = total_melds - len(norm_melds(melds))
    if need < 0:
        return iter(())
    return decompositions(counts, need, pair_ok)


# --------------------------------------------------------------------------- win predicates


def win_standard(counts, melds=(), pair="any", total_melds=4) -> bool:
    """``STD(M, pairOK)``: exposed melds fixed, concealed tiles = melds + one pair."""
    ok = (lambda k: True) if pair == "any" else is_258
    return any(True for _ in _std_decomps(counts, melds, total_melds, ok))


def win_seven_pairs(counts, melds=(), quads=True) -> bool:
    """Seven pairs: 14 concealed tiles, no melds; a quad is two pairs only with ``quads``."""
    c = _counts(counts)
    if norm_melds(melds) or sum(c) != 14 or any(x % 2 for x in c):
        return False
    return quads or all(x in (0, 2) for x in c)


def win_eight_pairs(counts, melds=(), quads=True) -> bool:
    """八对: 17 concealed tiles = 8 pairs (a quad = 2 pairs) + one tile of any kind."""
    c = _counts(counts)
    if norm_melds(melds) or sum(c) != 17:
        return False
    for b in range(N):  # the extra tile B
        if c[b]:
            rest = list(c)
            rest[b] -= 1
            if all(x % 2 == 0 for x in rest) and (quads or all(x in (0, 2) for x in rest)):
                return True
    return False


def win_one_suit(counts, melds=(), total_melds=4) -> bool:
    """清一色: every tile (melds included) in one suit, and STD(M, any)."""
    total = _all_tiles(counts, melds)
    if any(total[k] for k in range(27, N)) or len(_suits_present(total)) != 1:
        return False
    return win_standard(counts, melds, "any", total_melds)


def win_mixed_one_suit(counts, melds=(), total_melds=4) -> bool:
    """混一色: one suit plus at least one honour (melds included), and STD(M, any)."""
    total = _all_tiles(counts, melds)
    if not any(total[k] for k in range(27, N)) or len(_suits_present(total)) != 1:
        return False
    return win_standard(counts, melds, "any", total_melds)


def win_all_pungs(counts, melds=(), total_melds=4) -> bool:
    """碰碰胡: STD(M, any) with every meld (exposed or concealed) a pung or kong."""
    if any(m[0] == "chow" for m in norm_melds(melds)):
        return False
    return any(
        all(t == "pung" for t, _ in ms) for ms, _ in _std_decomps(counts, melds, total_melds)
    )


def win_all_258(counts, melds=(), total_melds=4) -> bool:
    """将一色: every tile (melds included) has rank 2, 5 or 8; any arrangement."""
    need = total_melds - len(norm_melds(melds))
    total = _all_tiles(counts, melds)
    return (
        need >= 0
        and sum(_counts(counts)) == 3 * need + 2
        and all(is_258(k) for k in range(N) if total[k])
    )


def win_all_honours(counts, melds=(), total_melds=4, any_shape=True) -> bool:
    """风一色: every tile (melds included) an honour; any arrangement (or STD if not)."""
    need = total_melds - len(norm_melds(melds))
    total = _all_tiles(counts, melds)
    if need < 0 or sum(_counts(counts)) != 3 * need + 2:
        return False
    if not all(is_honour(k) for k in range(N) if total[k]):
        return False
    return any_shape or win_standard(counts, melds, "any", total_melds)


def win_quanqiuren(counts, melds=(), total_melds=4) -> bool:
    """全求人: all M melds exposed (no concealed kong) and the concealed pair (any)."""
    ms = norm_melds(melds)
    if len(ms) != total_melds or any(m[0] == "kong" and m[2] for m in ms):
        return False
    return win_standard(counts, melds, "any", total_melds)


def win_void(counts, melds, void) -> bool:
    """定缺: no tile of the void suit ('m', 'p', 's' or 0–2) anywhere in the hand."""
    s = SUIT_NAMES.index(void) if isinstance(void, str) else int(void)
    total = _all_tiles(counts, melds)
    return not any(total[k] for k in range(9 * s, 9 * s + 9))


def _hz_ne_decomps(counts, melds):
    """(all melds as (type, first), pair) for each STD(4, any) split, exposed melds kept."""
    ms = [(t, f) for t, f, _ in norm_melds(melds)]
    for concealed, pair in _std_decomps(counts, melds, 4):
        yield ms + concealed, pair


def win_hz(counts, melds=()) -> bool:
    """hongzhong112 §4.5: STD(4, any) with P (pung/kong or 中 pair), C (a chow),
    Y (a terminal or 中), S (two of m/p/s), all on every tile of the hand."""
    total = _all_tiles(counts, melds)
    y = any(total[k] and (is_terminal(k) or k == 33) for k in range(N))
    s = len(_suits_present(total)) >= 2
    if not (y and s):
        return False
    for all_melds, pair in _hz_ne_decomps(counts, melds):
        p = any(t in ("pung", "kong") for t, _ in all_melds) or pair == 33
        c = any(t == "chow" for t, _ in all_melds)
        if p and c:
            return True
    return False


def win_ne(counts, melds=(), three_suits=True, terminal_or_honour=True, need_cha=True) -> bool:
    """ne_alt §4.11: STD(4, any) with all three suits, a terminal or honour, and a pung."""
    total = _all_tiles(counts, melds)
    if three_suits and len(_suits_present(total)) != 3:
        return False
    if terminal_or_honour and not any(
        total[k] and (is_terminal(k) or is_honour(k)) for k in range(N)
    ):
        return False
    for all_melds, _ in _hz_ne_decomps(counts, melds):
        if not need_cha or any(t in ("pung", "kong") for t, _ in all_melds):
            return True
    return False


def family_win(fam: Family, counts, melds, total_melds, options=None) -> bool:
    """Whether the complete hand wins by one family (no wildcards, void not applied)."""
    form = fam.form
    if fam.constraint == "hz":
        return win_hz(counts, melds)
    if fam.constraint == "ne":
        o = options or {}
        return win_ne(
            counts,
            melds,
            o.get("neb_three_suits", True),
            o.get("neb_need_terminal_or_honour", True),
            o.get("neb_need_cha", True),
        )
    if form == "standard":
        return win_standard(counts, melds, fam.pair, total_melds)
    if form == "seven_pairs":
        return win_seven_pairs(counts, melds, fam.quads)
    if form == "eight_pairs":
        return win_eight_pairs(counts, melds, fam.quads)
    if form == "one_suit":
        return win_one_suit(counts, melds, total_melds)
    if form == "mixed_one_suit":
        return win_mixed_one_suit(counts, melds, total_melds)
    if form == "all_pungs":
        return win_all_pungs(counts, melds, total_melds)
    if form == "all_258":
        return win_all_258(counts, melds, total_melds)
    if form == "all_honours":
        return win_all_honours(counts, melds, total_melds, fam.irregular)
    if form == "quanqiuren":
        return win_quanqiuren(counts, melds, total_melds)
    raise ValueError(form)


def naive_is_win(counts, rules, melds=(), form=None, void=None) -> bool:
    """Win by shape under ``rules`` (no wildcards): some family accepts the hand.

    A family with ``void_suit`` needs the hand free of the void suit (``void``, or some
    suit when ``void`` is None). Tiles outside the rule set's wall never win.
    """
    rules = _rules(rules)
    total = _all_tiles(counts, melds)
    allowed = set(wall_kinds(rules))
    if any(total[k] for k in range(N) if k not in allowed) or max(total) > 4:
        return False
    for fam in rules.families:
        if form is not None and fam.form != form:
            continue
        if fam.void_suit:
            voids = [void] if void is not None else [0, 1, 2]
            if not any(win_void(counts, melds, v) for v in voids):
                continue
        if family_win(fam, counts, melds, rules.melds, rules.options):
            return True
    return False


def naive_is_win_wild(counts, rules, wild_kinds, melds=(), form=None, void=None) -> bool:
    """Win with wildcards by brute force: every way of naming each held wildcard."""
    c = _counts(counts)
    wild = [k for k in range(N) if k in set(wild_kinds)]
    w = sum(c[k] for k in wild)
    base = [0 if k in wild else c[k] for k in range(N)]
    for names in itertools.combinations_with_replacement(wall_kinds(rules), w):
        trial = list(base)
        for k in names:
            trial[k] += 1
        if max(trial) <= 4 and naive_is_win(trial, rules, melds, form, void):
            return True
    return False


# --------------------------------------------------------------------------- shanten


@lru_cache(maxsize=4_000_000)
def _best_suffix(
    hand: tuple,
    caps: tuple,
    pair_ok: tuple,
    chows: bool,
    m_left: int,
    p_left: int,
    c1: int,
    c2: int,
) -> int:
    """Fewest missing tiles over every target of the kinds ``hand`` (a suffix of a group)
    that completes ``m_left`` melds and ``p_left`` pairs there.

    ``c1`` chows started one kind earlier (they need this kind and the next) and ``c2``
    two kinds earlier (they need this kind). At this kind choose ``c`` new chows (only
    with ``chows`` and at least three kinds left, i.e. rank ≤ 7), a pung or not and the
    pair or not (only if ``pair_ok[0]``); its target count ``t = c1 + c2 + c + 3·pung +
    2·pair`` must not exceed ``caps[0]``, and costs ``max(t − hand[0], 0)`` missing tiles.
    Memoised on the whole suffix, so equal suffixes of different hands share the work.
    """
    if not hand:
        return 0 if (m_left == 0 and p_left == 0 and c1 == 0 and c2 == 0) else INF
    result = INF
    max_c = m_left if (chows and len(hand) >= 3) else 0
    rest = (hand[1:], caps[1:], pair_ok[1:], chows)
    for pung in (0, 1):
        for pair in (0, 1) if (p_left and pair_ok[0]) else (0,):
            for c in range(max_c + 1):
                if c + pung > m_left:
                    break
                t = c1 + c2 + c + 3 * pung + 2 * pair
                if t > caps[0]:
                    break
                sub = _best_suffix(*rest, m_left - c - pung, p_left - pair, c, c1)
                if sub < INF:
                    result = min(result, max(t - hand[0], 0) + sub)
    return result


@lru_cache(maxsize=500_000)
def _group_costs(hand: tuple, caps: tuple, chows: bool, pair_ok: tuple, max_melds: int):
    """Fewest missing tiles for one tile group (a suit, or the honours) to hold exactly
    ``m`` melds and ``p`` pairs, as ``table[m][p]`` for m = 0..max_melds, p = 0, 1.

    Every target of the group is enumerated kind by kind (:func:`_best_suffix`): at each
    kind choose how many chows start there (only when ``chows`` and the rank is ≤ 7),
    whether it holds a pung and whether it holds the pair (only if ``pair_ok``). The
    target count of a kind is the chows covering it plus 3 per pung and 2 per pair; it must
    not exceed ``caps`` (4 minus the copies in exposed melds; 0 for kinds that cannot be
    used). The cost of a target is Σ max(target_i − hand_i, 0), minimised over targets.
    """
    return tuple(
        tuple(_best_suffix(hand, caps, pair_ok, chows, m, p, 0, 0) for p in (0, 1))
        for m in range(max_melds + 1)
    )


def _combine(tables, need: int, must_use=()) -> int:
    """Fewest missing tiles over all ways to share ``need`` melds and the one pair among
    the groups (the groups are independent: chows never cross a group and the cost is a
    sum over kinds), by folding the groups' ``[m][p]`` tables with min-plus. Groups in
    ``must_use`` must hold at least one tile of the target (not the empty target)."""
    acc = [[0, INF]] + [[INF, INF] for _ in range(need)]  # no group yet: empty target
    for j, table in enumerate(tables):
        nxt = [[INF, INF] for _ in range(need + 1)]
        for m1 in range(need + 1):
            for p1 in (0, 1):
                if acc[m1][p1] >= INF:
                    continue
                for m2 in range(need + 1 - m1):
                    for p2 in range(2 - p1):
                        if j in must_use and m2 == 0 and p2 == 0:
                            continue
                        cost = acc[m1][p1] + table[m2][p2]
                        if cost < nxt[m1 + m2][p1 + p2]:
                            nxt[m1 + m2][p1 + p2] = cost
        acc = nxt
    return min(acc[need][1], INF)


_GROUPS = (range(0, 9), range(9, 18), range(18, 27), range(27, 34))


def _std_cost(
    hand, caps, need, pair="any", pungs_only=False, groups=(0, 1, 2, 3), must_use=()
) -> int:
    """Fewest missing tiles to STD(need, pair) over ``groups`` (others are left empty)."""
    tables = []
    for g in range(4):
        kinds = _GROUPS[g]
        if g in groups:
            group_caps = tuple(caps[k] for k in kinds)
        else:
            group_caps = (0,) * len(kinds)
        pair_ok = tuple(pair == "any" or is_258(k) for k in kinds)
        tables.append(
            _group_costs(
                tuple(hand[k] for k in kinds), group_caps, g < 3 and not pungs_only, pair_ok, need
            )
        )
    return _combine(tables, need, must_use)


def _pairs_cost(hand, caps, n_pairs: int, quads: bool, singles: int) -> int:
    """Fewest missing tiles to ``n_pairs`` pairs plus ``singles`` single tiles.

    Every target is enumerated kind by kind: kind k gets ``j`` pairs (at most 1, or 2 when
    ``quads``) and ``s`` singles, with 2j + s ≤ caps[k]; cost Σ max(2j + s − hand_k, 0).
    Which kind is which does not matter to this minimum, so it is computed (and cached)
    on the sorted list of (hand_k, caps_k).
    """
    profile = tuple(sorted((hand[k], caps[k]) for k in range(N) if caps[k] or hand[k]))
    return _pairs_profile(profile, n_pairs, quads, singles)


@lru_cache(maxsize=200_000)
def _pairs_profile(profile, n_pairs, quads, singles):
    @cache
    def best(i, pairs_left, singles_left):
        if i == len(profile):
            return 0 if pairs_left == 0 and singles_left == 0 else INF
        have, cap = profile[i]
        result = INF
        for j in range(min(pairs_left, 2 if quads else 1) + 1):
            for s in range(min(singles_left, 1) + 1):
                t = 2 * j + s
                if t <= cap:
                    sub = best(i + 1, pairs_left - j, singles_left - s)
                    result = min(result, max(t - have, 0) + sub)
        return result

    return best(0, n_pairs, singles)


def _only_cost(hand, caps, kinds, size: int) -> int:
    """Fewest missing tiles to any ``size`` tiles of ``kinds`` (no shape at all).

    Every target is enumerated kind by kind (t_k copies, 0 ≤ t_k ≤ caps[k], Σ t_k = size);
    as for pairs, the minimum only depends on the sorted list of (hand_k, caps_k).
    """
    return _only_profile(tuple(sorted((hand[k], caps[k]) for k in kinds)), size)


@lru_cache(maxsize=200_000)
def _only_profile(profile, size):
    @cache
    def best(i, left):
        if i == len(profile):
            return 0 if left == 0 else INF
        have, cap = profile[i]
        return min(max(t - have, 0) + best(i + 1, left - t) for t in range(min(cap, left) + 1))

    return best(0, size)


# ---- constraint families (hongzhong112 §4.5, ne_alt §4.11) --------------------------
#
# The same enumeration of targets, but each target also records what it contains, as bits:
F_PUNG, F_CHOW, F_YAO, F_NONEMPTY, F_REDPAIR = 1, 2, 4, 8, 16
F_SUIT = (32, 64, 128)  # the group's suit holds a tile (set when groups are combined)


def family_conditions(fam: Family):
    """(need_pung, need_chow, need_yao, red_pair_pung, min_suits) of a constraint family:
    the family's own fields when the rule model has them, else RULES.md's reading of
    ``constraint`` (hz: pung or 中 pair, chow, 1/9/中, two suits; ne: pung, terminal or
    honour, three suits)."""
    if hasattr(fam, "need_pung"):
        return (fam.need_pung, fam.need_chow, fam.need_yao, fam.red_pair_pung, fam.min_suits)
    if fam.constraint == "hz":
        return (True, True, True, True, 2)
    if fam.constraint == "ne":
        return (True, False, True, False, 3)
    return None


def _prune(options: dict) -> dict:
    """Drop a flag set when a superset is at most as dear (conditions only ask for flags)."""
    return {
        f: c
        for f, c in options.items()
        if not any(g != f and g & f == f and d <= c for g, d in options.items())
    }


@lru_cache(maxsize=2_000_000)
def _flag_suffix(
    hand: tuple,
    caps: tuple,
    yao: tuple,
    red: tuple,
    chows: bool,
    m_left: int,
    p_left: int,
    c1: int,
    c2: int,
) -> dict:
    """:func:`_best_suffix` per outcome: {flags of the target's tiles here: fewest missing}.

    The choices at each kind are those of :func:`_best_suffix` (any pair kind); a choice
    adds F_PUNG for a pung, F_CHOW for a chow started here, F_NONEMPTY and (if ``yao``)
    F_YAO when the kind is in the target, F_REDPAIR when the pair is on a ``red`` kind.
    """
    if not hand:
        return {0: 0} if (m_left == 0 and p_left == 0 and c1 == 0 and c2 == 0) else {}
    out: dict = {}
    max_c = m_left if (chows and len(hand) >= 3) else 0
    rest = (hand[1:], caps[1:], yao[1:], red[1:], chows)
    for pung in (0, 1):
        for pair in (0, 1) if p_left else (0,):
            for c in range(max_c + 1):
                if c + pung > m_left:
                    break
                t = c1 + c2 + c + 3 * pung + 2 * pair
                if t > caps[0]:
                    break
                here = (
                    (F_PUNG if pung else 0)
                    | (F_CHOW if c else 0)
                    | (F_NONEMPTY | (F_YAO if yao[0] else 0) if t else 0)
                    | (F_REDPAIR if pair and red[0] else 0)
                )
                cost = max(t - hand[0], 0)
                for f, sub in _flag_suffix(*rest, m_left - c - pung, p_left - pair, c, c1).items():
                    key = f | here
                    if cost + sub < out.get(key, INF):
                        out[key] = cost + sub
    return _prune(out)


def _constrained_cost(hand, caps, melds, need: int, conditions) -> int:
    """Fewest missing tiles to STD(need, any) whose whole hand (target + exposed melds)
    meets ``conditions`` (see :func:`family_conditions`)."""
    need_pung, need_chow, need_yao, red_pair_pung, min_suits = conditions
    ms = norm_melds(melds)
    have = 0  # what the exposed melds already give
    for m in ms:
        tiles = meld_tiles(m)
        have |= F_CHOW if m[0] == "chow" else F_PUNG
        if any(is_terminal(k) or is_honour(k) for k in tiles):
            have |= F_YAO
        if tiles[0] < 27:
            have |= F_SUIT[suit(tiles[0])]
    acc = {(0, 0, have): 0}
    for g, kinds in enumerate(_GROUPS):
        hand_g = tuple(hand[k] for k in kinds)
        caps_g = tuple(caps[k] for k in kinds)
        yao_g = tuple(is_terminal(k) or is_honour(k) for k in kinds)
        red_g = tuple(k == 33 for k in kinds)
        table = {
            (m, p): _flag_suffix(hand_g, caps_g, yao_g, red_g, g < 3, m, p, 0, 0)
            for m in range(need + 1)
            for p in (0, 1)
        }
        nxt: dict = {}
        for (m1, p1, f1), c1 in acc.items():
            for (m2, p2), options in table.items():
                if m1 + m2 > need or p1 + p2 > 1:
                    continue
                for f2, c2 in options.items():
                    if f2 & F_NONEMPTY and g < 3:
                        f2 |= F_SUIT[g]
                    key = (m1 + m2, p1 + p2, f1 | (f2 & ~F_NONEMPTY))
                    if c1 + c2 < nxt.get(key, INF):
                        nxt[key] = c1 + c2
        acc = nxt
    best = INF
    for (m, p, f), cost in acc.items():
        if m != need or p != 1:
            continue
        pung_ok = f & F_PUNG or (red_pair_pung and f & F_REDPAIR)
        suits = sum(1 for bit in F_SUIT if f & bit)
        if (
            (not need_pung or pung_ok)
            and (not need_chow or f & F_CHOW)
            and (not need_yao or f & F_YAO)
            and suits >= min_suits
        ):
            best = min(best, cost)
    return best


def family_cost(
    fam: Family, hand, caps, melds, n_melds: int, total_melds: int, allowed_kinds
) -> int:
    """Fewest missing tiles to the nearest winning hand of one family (INF if none).

    ``hand`` holds the natural concealed tiles, ``caps`` how many copies a target may
    use per kind (0 outside ``allowed_kinds``), ``melds`` the known exposed melds (there
    may be fewer than ``n_melds``: the rest are unknown and compatible with everything).
    """
    need = total_melds - n_melds
    if need < 0:
        return INF
    ms = norm_melds(melds)
    if fam.constraint is not None:
        if fam.form != "standard" or fam.pair != "any":
            raise NotImplementedError(f"constraint on {fam.form}/{fam.pair}")
        return _constrained_cost(hand, caps, ms, need, family_conditions(fam))
    total_meld = meld_counts(ms)
    meld_suits = {suit(k) for k in range(N) if total_meld[k]}
    form = fam.form
    size = 3 * need + 2
    if form in ("seven_pairs", "eight_pairs"):
        if n_melds:
            return INF
        return _pairs_cost(
            hand,
            caps,
            7 if form == "seven_pairs" else 8,
            fam.quads,
            1 if form == "eight_pairs" else 0,
        )
    if form == "all_258":
        if any(total_meld[k] and not is_258(k) for k in range(N)):
            return INF
        return _only_cost(hand, caps, [k for k in allowed_kinds if is_258(k)], size)
    if form == "all_honours":
        if meld_suits - {3}:
            return INF
        if fam.irregular:
            return _only_cost(hand, caps, [k for k in allowed_kinds if is_honour(k)], size)
        return _std_cost(hand, caps, need, "any", groups=(3,))
    if form == "quanqiuren":
        if n_melds != total_melds or any(m[0] == "kong" and m[2] for m in ms):
            return INF
        return _std_cost(hand, caps, need, "any")
    if form == "standard":
        return _std_cost(hand, caps, need, fam.pair)
    if form == "all_pungs":
        if any(m[0] == "chow" for m in ms):
            return INF
        return _std_cost(hand, caps, need, fam.pair, pungs_only=True)
    if form in ("one_suit", "mixed_one_suit"):
        best = INF
        for s in range(3):
            if meld_suits - {s, 3}:
                continue
            if form == "one_suit":
                if 3 in meld_suits:
                    continue
                best = min(best, _std_cost(hand, caps, need, fam.pair, groups=(s,)))
            else:
                must = () if 3 in meld_suits else (3,)
                best = min(
                    best, _std_cost(hand, caps, need, fam.pair, groups=(s, 3), must_use=must)
                )
        return best
    raise ValueError(form)


def naive_cost(
    counts, rules, n_melds=0, melds=(), form=None, wild_kinds=(), void=None, count_meld_copies=True
) -> int:
    """Fewest tiles missing from the nearest win (wildcards already spent), or INF.

    ``count_meld_copies=False`` drops the copies in exposed melds from the 4-per-kind cap
    (not the definition: only used to name a known kernel limitation in the tests).
    """
    rules = _rules(rules)
    hand = _counts(counts)
    ms = norm_melds(melds)
    n_melds = max(int(n_melds), len(ms))
    wild = set(int(k) for k in wild_kinds)
    w = sum(hand[k] for k in wild)
    hand = tuple(0 if k in wild else hand[k] for k in range(N))
    in_melds = meld_counts(ms)
    cap_used = in_melds if count_meld_copies else [0] * N
    allowed = set(wall_kinds(rules))
    families = [f for f in rules.families if form is None or f.form == form]
    if not families:
        raise ValueError(f"{rules.id} has no form {form}")
    best = INF
    for fam in families:
        if fam.void_suit:
            voids = [void] if void is not None else [0, 1, 2]
            voids = [SUIT_NAMES.index(v) if isinstance(v, str) else int(v) for v in voids]
        else:
            voids = [None]
        for v in voids:
            kinds = [k for k in allowed if v is None or suit(k) != v]
            if v is not None and any(in_melds[k] for k in range(9 * v, 9 * v + 9)):
                continue  # a void-suit meld can never be shed
            caps = tuple((4 - cap_used[k]) if k in kinds else 0 for k in range(N))
            best = min(best, family_cost(fam, hand, caps, ms, n_melds, rules.melds, kinds))
    if best >= INF:
        return INF
    return max(best - w, 0)


def naive_shanten(
    counts, rules, n_melds=0, melds=(), form=None, wild_kinds=(), void=None, count_meld_copies=True
):
    """Shanten by the definition (RULES.md §0.5): −1 complete, 0 ready; None if no family
    of ``rules`` can be reached. ``n_melds`` counts exposed melds (defaults to
    ``len(melds)``; extra ones are unknown and assumed compatible with every family)."""
    cost = naive_cost(counts, rules, n_melds, melds, form, wild_kinds, void, count_meld_copies)
    return None if cost >= INF else cost - 1


def naive_waits(counts, rules, melds=(), form=None, void=None) -> set[int]:
    """Kinds t (with a copy left, melds counted) such that hand + t wins by shape."""
    c = _counts(counts)
    total = _all_tiles(c, melds)
    out = set()
    for t in wall_kinds(rules):
        if total[t] < 4:
            c[t] += 1
            if naive_is_win(c, rules, melds, form, void):
                out.add(t)
            c[t] -= 1
    return out


def clear_caches() -> None:
    """Empty this module's memo tables: they speed up one test's many hands, and kept across
    a test module they grew to more than a gigabyte of a test worker (tests/test_shanten.py).
    """
    for value in list(globals().values()):
        if hasattr(value, "cache_clear"):
            value.cache_clear()
