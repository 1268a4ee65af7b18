"""Changsha starting-hand wins (起手胡, RULES.md §2.8) on ``uint8[34]`` counts.

Method: each pattern is a predicate written straight from the §2.8 table, a kernel
``(counts, reuse_quad, yizhihua_mode) -> count`` that reads the evaluated tiles (13, or
14 for the dealer). The catalogue :data:`TABLE` lists them as data (id, name_zh, option,
basic?, predicate); :func:`qishou_counts` runs them all in table order and
:func:`qishou_many` is the parallel batch driver. :func:`qishou_config` reads the
``cs_qs_*`` options of a rule set and :func:`score` applies them (patterns switched off,
``"binary"`` count mode) to raw counts.

Readings taken where §2.8 leaves room (see also §6.3 C16–C18):

* A "pair" is c ≥ 2, so triplets and quads hold pairs (C18).
* 四喜, 六六顺 and 板板胡 look at every kind (an honour quad is a 四喜); the other patterns
  look only at the suits m, p, s. 缺一色 counts the absent suits among m, p, s: 1 or 2 in
  the 108-tile game, 3 possible only with honours (a hand of honours alone).
* 三同 is the number of ranks with pairs in all three suits (a rank counts once even with
  quads in all three suits).
* 步步高 sums, over the suits, the largest number of tile-disjoint runs of three consecutive
  pairs in that suit (runs in different suits are disjoint anyway): ``223344556677p`` and
  ``223344p334455s`` both count 2. Within a suit the greedy packing from the lowest rank is
  optimal: a run covering the lowest rank with pairs left must start there.
* 一枝花 ``"lone_258_five"`` counts 1 when exactly one suit has exactly one 258 tile and
  that tile is a 5 (suits whose 258 tiles are other than one lone 5 do not matter).

>>> from mjsim.notation import parse_hand
>>> dict(zip(PATTERNS, qishou_counts(parse_hand("1123345677899m").counts, False, 0).tolist()))
... # doctest: +NORMALIZE_WHITESPACE
{'banban': 0, 'sixi': 0, 'liuliushun': 0, 'queyise': 2, 'santong': 0, 'yizhihua': 0,
 'bubugao': 0, 'jintongyunv': 0}
>>> qishou_counts(parse_hand("13456m2288p2378s").counts, False, YIZHIHUA_MODES.index("lone_258_five"))
array([0, 0, 0, 0, 0, 1, 0, 0])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from ..rules.model import RulesError

#: readings of 一枝花 (``cs_qs_yizhihua_mode``); the kernel takes the index
YIZHIHUA_MODES = ("single_five", "lone_258_five")
SINGLE_FIVE, LONE_258_FIVE = 0, 1
COUNT_MODES = ("sum", "binary")
EVAL_MODES = ("dealt", "before_first_discard")

# kinds of the two tiles of 金童玉女
_TWO_P, _TWO_S = 10, 19


# --------------------------------------------------------------------------- predicates


@njit(cache=True, inline="always")
def banban(counts, reuse_quad, yizhihua_mode):
    """板板胡: 1 if no tile is a 258 tile."""
    for base in (0, 9, 18):
        if counts[base + 1] or counts[base + 4] or counts[base + 7]:
            return 0
    return 1


@njit(cache=True, inline="always")
def sixi(counts, reuse_quad, yizhihua_mode):
    """四喜: the number of kinds with four copies."""
    q = 0
    for k in range(34):
        if counts[k] == 4:
            q += 1
    return q


@njit(cache=True, inline="always")
def liuliushun(counts, reuse_quad, yizhihua_mode):
    """六六顺: ⌊t/2⌋ for t kinds with three copies (quads join t with ``reuse_quad``)."""
    t = 0
    for k in range(34):
        if counts[k] == 3 or (reuse_quad and counts[k] == 4):
            t += 1
    return t // 2


@njit(cache=True, inline="always")
def queyise(counts, reuse_quad, yizhihua_mode):
    """缺一色: the number of suits among m, p, s with no tile at all."""
    absent = 0
    for base in (0, 9, 18):
        n = 0
        for k in range(base, base + 9):
            n += np.int64(counts[k])
        if n == 0:
            absent += 1
    return absent


@njit(cache=True, inline="always")
def santong(counts, reuse_quad, yizhihua_mode):
    """三同: the number of ranks r with pairs of rm, rp and rs."""
    n = 0
    for r in range(9):
        if counts[r] >= 2 and counts[9 + r] >= 2 and counts[18 + r] >= 2:
            n += 1
    return n


@njit(cache=True, inline="always")
def yizhihua(counts, reuse_quad, yizhihua_mode):
    """一枝花 under ``yizhihua_mode`` (0 ``single_five``, 1 ``lone_258_five``): 0 or 1."""
    five_only = 0  # suits whose 258 tiles are exactly one 5
    lone_five = 0  # suits that are a single 5 and nothing else
    other_258 = 0  # suits with 258 tiles other than exactly one 5
    for base in (0, 9, 18):
        n = 0
        for k in range(base, base + 9):
            n += np.int64(counts[k])
        n258 = np.int64(counts[base + 1]) + np.int64(counts[base + 4]) + np.int64(counts[base + 7])
        if n258 == 1 and counts[base + 4] == 1:
            five_only += 1
            if n == 1:
                lone_five += 1
        elif n258 > 0:
            other_258 += 1
    if yizhihua_mode == LONE_258_FIVE:
        return 1 if five_only == 1 else 0
    # (A) the hand's only 258 tile is a 5, or (B) exactly one suit is a lone 5
    return 1 if (five_only == 1 and other_258 == 0) or lone_five == 1 else 0


@njit(cache=True, inline="always")
def bubugao(counts, reuse_quad, yizhihua_mode):
    """步步高: tile-disjoint runs of three consecutive pairs, greedy per suit, summed."""
    runs = 0
    for base in (0, 9, 18):
        x0 = np.int64(counts[base]) // 2  # pairs left at ranks i and i + 1
        x1 = np.int64(counts[base + 1]) // 2
        for i in range(7):
            x2 = np.int64(counts[base + i + 2]) // 2
            k = min(x0, x1, x2)
            runs += k
            x0 = x1 - k
            x1 = x2 - k
    return runs


@njit(cache=True, inline="always")
def jintongyunv(counts, reuse_quad, yizhihua_mode):
    """金童玉女: 1 if 2p and 2s are both pairs."""
    return 1 if counts[_TWO_P] >= 2 and counts[_TWO_S] >= 2 else 0


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class QishouPattern:
    """One row of the 起手胡 catalogue; ``basic`` marks the four basic wins of §2.8."""

    index: int
    id: str
    name_zh: str
    option: str
    basic: bool
    predicate: Callable


TABLE = tuple(
    QishouPattern(i, *row)
    for i, row in enumerate(
        (
            ("banban", "板板胡", "cs_qs_banban", True, banban),
            ("sixi", "四喜", "cs_qs_sixi", True, sixi),
            ("liuliushun", "六六顺", "cs_qs_liuliushun", True, liuliushun),
            ("queyise", "缺一色", "cs_qs_queyise", True, queyise),
            ("santong", "三同", "cs_qs_santong", False, santong),
            ("yizhihua", "一枝花", "cs_qs_yizhihua", False, yizhihua),
            ("bubugao", "步步高", "cs_qs_bubugao", False, bubugao),
            ("jintongyunv", "金童玉女", "cs_qs_jintong", False, jintongyunv),
        )
    )
)
PATTERNS = tuple(p.id for p in TABLE)
N_PATTERNS = len(TABLE)
BASIC = np.array([p.basic for p in TABLE])


@njit(cache=True, inline="always")
def fill_patterns(counts, reuse_quad, yizhihua_mode, out):
    """Every pattern's count of ``counts`` into ``out``, in the order of :data:`TABLE`."""
    out[0] = banban(counts, reuse_quad, yizhihua_mode)
    out[1] = sixi(counts, reuse_quad, yizhihua_mode)
    out[2] = liuliushun(counts, reuse_quad, yizhihua_mode)
    out[3] = queyise(counts, reuse_quad, yizhihua_mode)
    out[4] = santong(counts, reuse_quad, yizhihua_mode)
    out[5] = yizhihua(counts, reuse_quad, yizhihua_mode)
    out[6] = bubugao(counts, reuse_quad, yizhihua_mode)
    out[7] = jintongyunv(counts, reuse_quad, yizhihua_mode)


@njit(cache=True)
def qishou_counts(counts, reuse_quad, yizhihua_mode):
    """Raw count of every pattern of :data:`TABLE` for one hand: ``int64[8]``."""
    out = np.zeros(8, dtype=np.int64)
    fill_patterns(counts, reuse_quad, yizhihua_mode, out)
    return out


@njit(cache=True, parallel=True)
def qishou_many(hands, reuse_quad, yizhihua_mode):
    """Batch driver: raw counts of each row of ``hands`` (``uint8[N, 34]``): ``int16[N, 8]``."""
    n = hands.shape[0]
    out = np.empty((n, 8), dtype=np.int16)
    for i in prange(n):
        fill_patterns(hands[i], reuse_quad, yizhihua_mode, out[i])
    return out


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class QishouConfig:
    """The ``cs_qs_*`` options that shape 起手胡 counts.

    ``enabled`` follows :data:`PATTERNS`; ``yizhihua_mode`` is the kernel code (an index
    of :data:`YIZHIHUA_MODES`); ``count_mode`` is ``"sum"`` or ``"binary"``; ``eval`` is
    ``"dealt"`` or ``"before_first_discard"`` (which tiles a caller should evaluate).
    """

    enabled: tuple[bool, ...]
    reuse_quad: bool = False
    yizhihua_mode: int = SINGLE_FIVE
    count_mode: str = "sum"
    eval: str = "dealt"

    @property
    def enabled_mask(self) -> np.ndarray:
        return np.array(self.enabled, dtype=bool)

    @property
    def binary(self) -> bool:
        return self.count_mode == "binary"

    @property
    def enabled_ids(self) -> tuple[str, ...]:
        return tuple(p for p, on in zip(PATTERNS, self.enabled) if on)


def qishou_config(rules) -> QishouConfig:
    """The 起手胡 options of a rule set (a :class:`~mjsim.rules.RuleSet`).

    >>> from mjsim.rules import load_rules
    >>> c = qishou_config(load_rules("changsha", cs_qs_yizhihua=True, cs_qs_count_mode="binary"))
    >>> c.enabled_ids, c.yizhihua_mode, c.binary
    (('banban', 'sixi', 'liuliushun', 'queyise', 'yizhihua'), 0, True)
    >>> qishou_config(load_rules("generic"))
    Traceback (most recent call last):
    ...
    mjsim.rules.model.RulesError: rule set 'generic' has no 起手胡 (it lacks the option cs_qs_banban)
    """
    for p in TABLE:
        if p.option not in rules.options:
            raise RulesError(
                f"rule set {rules.id!r} has no 起手胡 (it lacks the option {p.option})"
            )
    return QishouConfig(
        enabled=tuple(bool(rules[p.option]) for p in TABLE),
        reuse_quad=bool(rules["cs_qs_reuse_quad"]),
        yizhihua_mode=YIZHIHUA_MODES.index(rules["cs_qs_yizhihua_mode"]),
        count_mode=rules["cs_qs_count_mode"],
        eval=rules["cs_qs_eval"],
    )


def score(raw_counts: np.ndarray, config: QishouConfig) -> np.ndarray:
    """Counts that the options pay: disabled patterns zeroed, each capped at 1 in binary mode.

    ``raw_counts`` is ``[..., 8]`` (from :func:`qishou_counts` or :func:`qishou_many`).

    >>> config = QishouConfig(enabled=(True,) * 4 + (False,) * 4, count_mode="binary")
    >>> score(np.array([[0, 0, 1, 2, 1, 0, 0, 0]]), config)
    array([[0, 0, 1, 1, 0, 0, 0, 0]], dtype=int16)
    """
    raw = np.asarray(raw_counts)
    if raw.shape[-1:] != (N_PATTERNS,):
        raise ValueError(
            f"raw_counts must end in an axis of {N_PATTERNS} patterns, got shape {raw.shape}"
        )
    out = np.where(config.enabled_mask, raw, 0).astype(np.int16)
    return np.minimum(out, 1, out=out) if config.binary else out


def qishou(hands: np.ndarray, rules) -> np.ndarray:
    """Scored 起手胡 counts of ``hands`` (``uint8[N, 34]`` or one ``uint8[34]``) under ``rules``.

    >>> from mjsim.rules import load_rules
    >>> from mjsim.notation import parse_hand
    >>> qishou(parse_hand("13456m2288p2378s").counts, load_rules("changsha",
    ...        cs_qs_yizhihua=True, cs_qs_yizhihua_mode="lone_258_five"))
    array([0, 0, 0, 0, 0, 1, 0, 0], dtype=int16)
    """
    config = qishou_config(rules)
    arr = np.asarray(hands)
    single = arr.ndim == 1
    arr = np.ascontiguousarray(arr.reshape(-1, arr.shape[-1]), dtype=np.uint8)
    if arr.shape[1] != 34:
        raise ValueError(f"hands must be uint8[N, 34] count vectors, got shape {np.shape(hands)}")
    out = score(qishou_many(arr, config.reuse_quad, config.yizhihua_mode), config)
    return out[0] if single else out
