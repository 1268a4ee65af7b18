"""Shanten and win checks for any rule set: the facade over :mod:`mjsim.kernels.shanten`.

It validates input once, compiles a rule set's winning families into the arrays the
kernels read, and wraps results.

>>> shanten("123m456p789s1122z")
0
>>> shanten("1111m456p789s111z")          # a wait on a fifth copy is no wait
1
>>> shanten("123456789m123p9s", rules="changsha")   # the 258 pair of a small win
1
>>> is_win("234m678p111p789s5s +5s", rules="changsha")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from .kernels import shanten as K
from .kernels.features import first_bad_row
from .notation import NotationError, parse_hand
from .rules import RuleSet, load_rules
from .tables.flagged import CHOW, PUNG, YAO
from .tables.flagged_merged import load_flag_tables, no_flag_tables
from .tables.merged import load_merged
from .tables.suits import INF, load_tables
from .tiles import N_KINDS, Hand, kind, name

#: the wildcard kinds held by a hand may be given by name, kind index or notation
WildSpec = Any


class HandError(ValueError):
    """A hand that does not fit the question (wrong size, a form the rule set lacks …)."""


@dataclass(frozen=True)
class Compiled:
    """A rule set's winning families as kernel arrays (rows of ``K.FAMILY_COLUMNS``)."""

    rules: RuleSet
    families: np.ndarray
    melds: int
    kind_mask: np.ndarray
    honour_mask: np.ndarray
    void: int
    tables: tuple[np.ndarray, ...]


def _family_row(fam) -> tuple[int, ...]:
    pair = K.PAIR_258 if fam.pair == "258" else K.PAIR_ANY
    if fam.conditioned:
        if fam.form != "standard" or fam.pair != "any":
            raise HandError("shape conditions are only supported on the standard any-pair form")
        need = (
            (PUNG if fam.need_pung else 0)
            | (CHOW if fam.need_chow else 0)
            | (YAO if fam.need_yao else 0)
        )
        return (K.CONSTRAINED, pair, 0, need, int(fam.red_pair_pung), fam.min_suits)
    if fam.form == "all_258" and not fam.irregular:
        raise HandError("all_258 is only supported in any arrangement (irregular = true)")
    flag = fam.irregular if fam.form == "all_honours" else fam.quads
    return (K.FORMS[fam.form], pair, int(flag), 0, 0, 0)


@lru_cache(maxsize=64)
def compile_rules(rules: RuleSet, form: str | None = None) -> Compiled:
    """Kernel arrays for ``rules`` (all families, or the one named ``form``)."""
    chosen = [f for f in rules.families if form is None or f.form == form]
    if not chosen:
        names = ", ".join(sorted({f.form for f in rules.families}))
        raise HandError(f"rule set {rules.id!r} has no winning form {form!r}; its forms: {names}")
    rows = [_family_row(f) for f in chosen]
    kinds = np.zeros(N_KINDS, dtype=np.bool_)
    kinds[list(rules.kinds)] = True
    kinds[list(rules.bonus_kinds)] = False
    t, g = load_tables(), load_merged()
    honours = bool(kinds[27:].any())
    conditioned = any(r[0] == K.CONSTRAINED for r in rows)
    flagged = load_flag_tables() if conditioned else no_flag_tables()
    return Compiled(
        rules=rules,
        families=np.array(rows, dtype=np.int64).reshape(-1, K.FAMILY_COLUMNS),
        melds=rules.melds,
        kind_mask=kinds,
        honour_mask=kinds[27:].copy(),
        void=-1 if any(f.void_suit for f in rules.families) else -2,
        tables=(
            t.std,
            t.pung,
            t.honour if honours else K.no_honours(),
            g.suit_info,
            g.honour_info if honours else np.array([g.no_honour_info], dtype=np.int64),
            *g.pairs,
            g.vectors,
            *flagged,
        ),
    )


def wild_mask(wild: WildSpec) -> np.ndarray:
    """A bool[34] mask of wildcard kinds from ``None``, notation (``"7z"``, ``"5m7z"``), a
    list of tile names or kind indices, or a bool[34] mask.

    >>> np.flatnonzero(wild_mask("7z")).tolist(), np.flatnonzero(wild_mask([0, 9])).tolist()
    ([33], [0, 9])
    >>> np.flatnonzero(wild_mask(["7z", "1m"])).tolist()
    [0, 33]
    >>> wild_mask(["7z", 1.5])
    Traceback (most recent call last):
    ...
    mjsim.evaluate.HandError: wild: 1.5 is not a tile; give notation ("7z"), a list of tile \
names (["7z"]) or kind indices 0–33, or a bool[34] mask
    """
    mask = np.zeros(N_KINDS, dtype=np.bool_)
    if wild is None:
        return mask
    if isinstance(wild, str):
        counts = parse_hand(wild).counts
        mask[counts > 0] = True
        return mask
    if isinstance(wild, np.ndarray) and wild.dtype == np.bool_:
        if wild.shape != (N_KINDS,):
            raise HandError(
                f"wild: a mask must be bool[{N_KINDS}], got shape {wild.shape}; " + _WILD_FORMS
            )
        return wild.copy()
    items = (
        list(np.ravel(wild))
        if isinstance(wild, np.ndarray)
        else list(wild)
        if isinstance(wild, (list, tuple, set, frozenset))
        else [wild]
    )
    for item in items:
        mask[_wild_kind(item)] = True
    return mask


_WILD_FORMS = (
    'give notation ("7z"), a list of tile names (["7z"]) or kind indices 0–33, or a bool[34] mask'
)


def _wild_kind(item: Any) -> int:
    """One wildcard kind from a tile name or a kind index."""
    if isinstance(item, str):
        try:
            k = kind(item)
        except ValueError:
            raise HandError(f"wild: {item!r} is not a tile name; {_WILD_FORMS}") from None
        if k >= N_KINDS:
            raise HandError(f"wild: {item!r} is a flower, never a wildcard; {_WILD_FORMS}")
        return k
    if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, np.integer)):
        raise HandError(f"wild: {item!r} is not a tile; {_WILD_FORMS}")
    if not 0 <= int(item) < N_KINDS:
        raise HandError(f"wildcard kinds must be tile indices 0–33, got {int(item)}")
    return int(item)


def meld_flags(hand: Hand) -> int:
    """What a hand's declared melds rule out, as the kernels' ``meld_flags`` bits
    (:func:`mjsim.kernels.shanten.meld_flags`, which the game engine uses too)."""
    rows = np.array(
        [
            (
                m.first,
                K.MELD_CHOW
                if m.type == "chow"
                else K.MELD_PUNG
                if m.type == "pung"
                else K.MELD_CKONG
                if m.concealed
                else K.MELD_KONG,
            )
            for m in hand.melds
        ],
        dtype=np.int64,
    ).reshape(-1, 2)
    return int(K.meld_flags(rows, np.int64(len(rows)), np.int64(0)))


def as_hand(hand: Hand | str, rules: RuleSet) -> Hand:
    """``hand`` as a :class:`~mjsim.tiles.Hand`, read from notation against ``rules`` when a
    string (shared by the facades :mod:`mjsim.efficiency` and :mod:`mjsim.decomposition`)."""
    if isinstance(hand, Hand):
        return hand
    return parse_hand(hand, rules)


def check_size(hand: Hand, rules: RuleSet, sizes: tuple[int, ...]) -> None:
    """Raise :class:`HandError` unless the hand has one of ``sizes`` tiles (kongs as 3)."""
    size = hand.effective_size
    if size not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise HandError(
            f"a {rules.id} hand here has {want} tiles (kongs count as 3); this one has {size}"
        )


def _cost(hand: Hand, rules: RuleSet, form: str | None, wild: WildSpec, void: int | None) -> int:
    comp = compile_rules(rules, form)
    caps = 4 - (np.asarray(hand.all_counts(), dtype=np.int64) - hand.counts)
    return int(
        K.hand_cost(
            hand.counts,
            len(hand.melds),
            meld_flags(hand),
            void_code(comp, void),
            comp.families,
            comp.melds,
            comp.kind_mask,
            comp.honour_mask,
            wild_mask(wild),
            caps,
            comp.tables,
            K.make_scratch(),
        )
    )


def void_code(comp: Compiled, void: int | str | None) -> int:
    """The kernels' 定缺 code: ``void`` (``'m'``/``'p'``/``'s'`` or 0–2) checked, or the
    rule set's default when None."""
    if void is None:
        return comp.void
    if comp.void == -2:
        raise HandError(f"rule set {comp.rules.id!r} has no void suit (定缺); drop void=")
    if isinstance(void, str) and void in "mps" and len(void) == 1:
        return "mps".index(void)
    if void in (0, 1, 2):
        return int(void)
    raise HandError(f"void must be 'm', 'p', 's' or 0–2, got {void!r}")


def shanten(
    hand: Hand | str,
    rules: str | RuleSet = "generic",
    form: str | None = None,
    wild: WildSpec = None,
    void: int | str | None = None,
) -> int | None:
    """Exact shanten of a 13/14-tile hand (16/17 in ``caishen16``): −1 complete, 0 ready.

    ``form`` restricts to one winning family; ``wild`` names held wildcard kinds;
    ``void`` fixes the 定缺 suit (default: the best one). ``None`` when no family of
    the rule set can be reached (for example 全求人 alone without four melds).

    >>> shanten("11m33m55m22p44p66p8s", rules="changsha", form="seven_pairs")
    0
    """
    rules = load_rules(rules)
    hand = as_hand(hand, rules)
    check_size(hand, rules, (rules.hand_size, rules.hand_size + 1))
    cost = _cost(hand, rules, form, wild, void)
    return None if cost >= INF else cost - 1


def is_win(
    hand: Hand | str,
    rules: str | RuleSet = "generic",
    form: str | None = None,
    wild: WildSpec = None,
    void: int | str | None = None,
) -> bool:
    """Whether a complete hand (14 tiles, 17 in ``caishen16``) is a win by shape; in
    ``caishen16`` a lone 财神 beside complete melds pairs with the self-drawn tile marked
    ``+``, whatever it is, a fifth copy's kind included (财神牛 / 财神单吊, RULES.md §3.4).

    >>> is_win("[888m][123p][456p][789s][111z]7z +8m", rules="caishen16", wild="7z")
    True
    """
    rules = load_rules(rules)
    hand = as_hand(hand, rules)
    check_size(hand, rules, (rules.hand_size + 1,))
    if _cost(hand, rules, form, wild, void) == 0:
        return True
    if hand.win_tile is None or hand.win_by == "ron" or form not in (None, "standard"):
        return False
    counts = np.asarray(hand.counts, dtype=np.uint8) - _one(hand.win_tile)
    return beside_lone_wild(counts, len(hand.melds), rules, wild)


def _one(kind: int) -> np.ndarray:
    one = np.zeros(N_KINDS, dtype=np.uint8)
    one[kind] = 1
    return one


def beside_lone_wild(counts: np.ndarray, n_melds: int, rules: RuleSet, wild: WildSpec) -> bool:
    """Whether ``counts`` (concealed tiles beside ``n_melds`` melds, less the winning tile
    where the hand is complete) less one wild tile are the melds the hand lacks, complete:
    the lone wild tile then pairs with any tile where the rule set's ``lone_wild`` says so
    (财神牛 / 财神单吊)."""
    mask = wild_mask(wild)
    held = np.flatnonzero(mask & (counts > 0))
    if not rules.lone_wild or not held.size:
        return False
    comp = compile_rules(rules)
    rest = counts - _one(int(held[0]))
    need = np.int64(rules.melds - n_melds)
    return int(K.melds_cost(rest, mask, comp.honour_mask, comp.tables, need)) == 0


def shanten_batch(
    hands: np.ndarray,
    rules: str | RuleSet = "generic",
    n_melds: Any = 0,
    form: str | None = None,
    wild: WildSpec = None,
    meld_flags: Any = 0,
    void: Any = None,
) -> np.ndarray:
    """Shanten of each row of ``hands`` (``uint8[N, 34]``) as ``int8[N]``.

    ``n_melds`` (scalar or per row) exposed melds are assumed compatible with every
    family unless ``meld_flags`` (kernel bits, see :func:`meld_flags`) say otherwise.
    Unreachable rows get ``mjsim.kernels.shanten.IMPOSSIBLE`` (99).

    >>> shanten_batch(parse_hand("19m19p19s1234567z").counts[None, :]).tolist()   # seven pairs: 6
    [6]
    """
    rules = load_rules(rules)
    hands = check_batch(hands, rules, n_melds, rows=False)
    return _run_batch(hands, rules, n_melds, form, wild, meld_flags, void, False, True)[0]


def shanten_by_family(
    hands: np.ndarray,
    rules: str | RuleSet = "generic",
    n_melds: Any = 0,
    wild: WildSpec = None,
    void: Any = None,
    validate: bool = True,
) -> dict[str, np.ndarray]:
    """Like :func:`shanten_batch`, in one pass: ``{"shanten": overall, form: that family's
    shanten, ...}`` for each winning family of the rule set. ``validate=False`` skips
    the input checks, for callers that built ``hands`` themselves (the dealers).

    >>> out = shanten_by_family(parse_hand("11m33m55m22p44p66p8s").counts[None, :], "changsha")
    >>> int(out["shanten"][0]), int(out["seven_pairs"][0]), int(out["standard"][0])
    (0, 0, 3)
    """
    rules = load_rules(rules)
    if validate:
        hands = check_batch(hands, rules, n_melds, rows=False)
    overall, per = _run_batch(hands, rules, n_melds, None, wild, 0, void, True, validate)
    out = {"shanten": overall}
    for f, fam in enumerate(rules.families):
        out[fam.form if fam.form not in out else f"{fam.form}_{f}"] = per[:, f]
    return out


def _run_batch(hands, rules, n_melds, form, wild, meld_flags, void, by_family, validate):
    """The batch kernel; with ``validate`` it also checks each row's counts and size as it
    reads them (one pass over memory instead of two)."""
    n = hands.shape[0]
    comp = compile_rules(rules, form)
    melds = one_or_per_row(n_melds, n)
    out, per = K.shanten_many(
        hands,
        melds,
        one_or_per_row(meld_flags, n),
        row_voids(comp, void, 1 if np.ndim(void) == 0 else n),
        comp.families,
        comp.melds,
        comp.kind_mask,
        comp.honour_mask,
        wild_mask(wild),
        comp.tables,
        rules.hand_size if validate else 0,
        by_family,
    )
    if validate:
        bad = np.flatnonzero(out == K.BAD_ROW)
        if bad.size:
            _raise_bad_row(hands, rules, melds, int(bad[0]))
    return out, per


def per_row(value: Any, n: int) -> np.ndarray:
    """A scalar or per-row value as the kernels' ``int64[n]``."""
    return np.broadcast_to(np.asarray(value, dtype=np.int64), (n,)).copy()


def one_or_per_row(value: Any, n: int) -> np.ndarray:
    """A scalar as ``int64[1]`` (the batch kernel reuses it for every row), else
    :func:`per_row`: no n-sized copy of a constant."""
    arr = np.asarray(value, dtype=np.int64)
    return arr.reshape(1) if arr.ndim == 0 else per_row(arr, n)


def row_voids(comp: Compiled, void: Any, n: int) -> np.ndarray:
    """The 定缺 suit of each row: the rule set's default, or ``void`` (one or per row)."""
    if void is None:
        return np.full(n, comp.void, dtype=np.int64)
    return per_row([void_code(comp, v) for v in np.atleast_1d(void)], n)


def check_batch(hands: Any, rules: RuleSet, n_melds: Any, rows: bool = True) -> np.ndarray:
    """``hands`` as contiguous uint8 after the shape checks, and with ``rows`` each row's
    counts and size (the shanten kernel checks rows itself)."""
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] != N_KINDS:
        raise HandError(f"hands must be an array of shape (N, 34), got shape {arr.shape}")
    if arr.dtype != np.uint8 and arr.size and (arr.min() < 0 or arr.max() > 4):
        raise HandError("hand counts must be 0–4 per tile kind")
    arr = np.ascontiguousarray(arr, dtype=np.uint8)
    if rows:
        melds = per_row(n_melds, len(arr))
        row = int(first_bad_row(arr, melds, rules.hand_size, compile_rules(rules).kind_mask))
        if row >= 0:
            _raise_bad_row(arr, rules, melds, row)
    return arr


def _raise_bad_row(hands: np.ndarray, rules: RuleSet, melds: np.ndarray, row: int) -> None:
    if hands[row].max() > 4:
        raise HandError(f"row {row}: hand counts must be 0–4 per tile kind")
    playable = set(rules.kinds) - set(rules.bonus_kinds)
    stray = [k for k in np.flatnonzero(hands[row]) if k not in playable]
    if stray:
        raise HandError(
            f"row {row} holds {name(int(stray[0]))}: the rule set {rules.id!r} has no such tile"
        )
    size = int(hands[row].sum()) + 3 * int(melds[row if melds.size > 1 else 0])
    raise HandError(
        f"row {row} has {size} tiles with its melds; {rules.id} hands have "
        f"{rules.hand_size} or {rules.hand_size + 1}"
    )


__all__ = [
    "HandError",
    "NotationError",
    "as_hand",
    "check_batch",
    "check_size",
    "compile_rules",
    "is_win",
    "meld_flags",
    "per_row",
    "row_voids",
    "shanten",
    "shanten_batch",
    "shanten_by_family",
    "void_code",
    "wild_mask",
]
