"""Paired differences between variants played on the same hands, streamed chunk by chunk.

Every variant plays the same hand indices (the same walls, dice and bots: common random
numbers). Hands of one game depend on each other (the dealer passes along), so games are the
independent units: per metric (:mod:`mjsim.stats.hand_metrics`) the accumulator keeps, summed
over games, the vector ``U = (Σy_0, Σx_0, Σy_1, Σx_1, …)`` of each game (one pair per variant)
and its cross products ``U Uᵀ``. A ratio ``R_v = Σy_v / Σx_v`` is linearised (delta method),
``z = (y − R x) / x̄``; the variance of a difference ``f(R_v) − f(R_0)`` is
``G/(G−1) · Σ_g (f'(R_v) Z_v,g − f'(R_0) Z_0,g)² / n²`` (cluster-robust by game). The
variance two *independent* runs of the same size would have drops the cross term; their
ratio is what pairing saved ("as precise as that many times more independent hands").

Quantiles and the largest loss are not smooth: they get a Poisson bootstrap by game
(:data:`B` replicates, each game weighted by a Poisson(1) count drawn from its index, so the
weights do not depend on chunking or machine), on integer histograms that merge exactly.

>>> m = RatioMoments.empty(n_metrics=1, n_variants=2)
>>> y = np.array([[[1.0, 1.0]], [[0.0, 0.0]], [[1.0, 0.0]], [[0.0, 0.0]]])  # hand, metric, var.
>>> m.add(y, np.ones_like(y), np.array([0, 1, 2, 3]))
>>> d = ratio_difference(m, 0, 1, 0, "id")  # metric 0, variant 1 minus variant 0
>>> d["diff"], round(d["se"], 4), round(d["se_independent"], 4)
(-0.25, 0.25, 0.3819)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..kernels.rng import GAMMA, GAMMA2, mix_array, stream_key
from .proportions import Z95

#: bootstrap replicates of the quantile metrics
B = 200
#: the random stream of the bootstrap weights
BOOTSTRAP_STREAM = 0xB007


def _groups(games: np.ndarray) -> np.ndarray:
    """Start of each run of equal adjacent labels."""
    games = np.asarray(games)
    return np.flatnonzero(np.r_[True, games[1:] != games[:-1]])


@dataclass
class RatioMoments:
    """Game-level sums of ``(y, x)`` per metric and variant: ``s[m, c]`` and ``ss[m, c, c']``
    with ``c = 2 v`` (numerator) and ``2 v + 1`` (denominator)."""

    n_hands: int
    n_games: int
    s: np.ndarray
    ss: np.ndarray

    @classmethod
    def empty(cls, n_metrics: int, n_variants: int) -> RatioMoments:
        c = 2 * n_variants
        return cls(0, 0, np.zeros((n_metrics, c)), np.zeros((n_metrics, c, c)))

    def add(self, y: np.ndarray, x: np.ndarray, games: np.ndarray) -> None:
        """Add hands: ``y``, ``x`` as ``float[n, metrics, variants]``, ``games`` their game
        labels (a game's hands adjacent, and a game never split across calls)."""
        u = np.stack([y, x], axis=-1).reshape(y.shape[0], y.shape[1], -1)
        self.add_games(np.add.reduceat(u, _groups(games), axis=0), int(y.shape[0]))

    def add_games(self, per_game: np.ndarray, n_hands: int) -> None:
        """Add whole games: ``per_game[g, m, c]`` their sums, ``n_hands`` their hands."""
        self.n_hands += n_hands
        self.n_games += int(per_game.shape[0])
        self.s += per_game.sum(axis=0)
        self.ss += np.einsum("gmi,gmj->mij", per_game, per_game)

    def merge(self, other: RatioMoments) -> None:
        self.n_hands += other.n_hands
        self.n_games += other.n_games
        self.s += other.s
        self.ss += other.ss


def _transform(name: str, r: float) -> tuple[float, float]:
    """``f(r)`` and ``f'(r)``."""
    if name == "sqrt":
        root = math.sqrt(max(r, 0.0))
        return root, (0.5 / root if root > 0 else 0.0)
    return r, 1.0


def _interval(diff: float, var: float, var_ind: float, n: int) -> dict[str, Any]:
    se = math.sqrt(max(var, 0.0))
    se_ind = math.sqrt(max(var_ind, 0.0))
    ratio = var_ind / var if var > 0 else None
    return {
        "diff": diff,
        "se": se,
        "ci": [diff - Z95 * se, diff + Z95 * se],
        "excludes_zero": bool(abs(diff) > Z95 * se),
        "se_independent": se_ind,
        "variance_ratio": ratio,
        "n_hands": n,
    }


def _linear(m: RatioMoments, j: int, v: int, transform: str) -> tuple[float, np.ndarray]:
    """``f(R_v)`` of metric ``j`` and the coefficients ``a`` over the columns of ``m`` with
    ``Σ_g (a·U_g)² = Σ_g Z_v,g²`` (the linearised ratio, delta method); ``Σx_v`` must be > 0."""
    n = m.n_hands
    r = float(m.s[j, 2 * v] / m.s[j, 2 * v + 1])
    f, df = _transform(transform, r)
    a = np.zeros(m.s.shape[1])
    xbar = m.s[j, 2 * v + 1] / n
    a[2 * v], a[2 * v + 1] = df / xbar, -df * r / xbar
    return f, a


def ratio_value(m: RatioMoments, j: int, v: int, transform: str) -> dict[str, Any]:
    """Metric ``j`` of variant ``v`` alone: value, its s.e. (by game) and 95% interval."""
    sx = float(m.s[j, 2 * v + 1])
    if sx == 0 or m.n_games < 2:
        return {"value": None, "se": None, "ci": [None, None], "denominator": sx}
    f, a = _linear(m, j, v, transform)
    g = m.n_games
    var = g / (g - 1) * float(a @ m.ss[j] @ a) / m.n_hands**2
    se = math.sqrt(max(var, 0.0))
    return {"value": f, "se": se, "ci": [f - Z95 * se, f + Z95 * se], "denominator": sx}


def ratio_difference(
    m: RatioMoments, j: int, v: int, base: int, transform: str, paired: bool = True
) -> dict[str, Any] | None:
    """``f(R_v) − f(R_base)`` of metric ``j`` with its cluster-robust s.e., 95% interval, the
    s.e. of independent runs and their variance ratio; None when a ratio is undefined.

    Identical variants (the same sums in every game) differ by exactly 0 with s.e. 0 (and
    the s.e. independent runs would have). ``paired=False``
    (runs on different walls) drops the cross term from the s.e.
    """
    cols = [2 * v, 2 * v + 1, 2 * base, 2 * base + 1]
    if m.s[j, cols[1]] == 0 or m.s[j, cols[3]] == 0 or m.n_games < 2:
        return None
    n, g = m.n_hands, m.n_games
    (fv, av), (fb, ab) = _linear(m, j, v, transform), _linear(m, j, base, transform)
    k = g / (g - 1) / n**2
    var_v, var_b = k * float(av @ m.ss[j] @ av), k * float(ab @ m.ss[j] @ ab)
    cov = k * float(av @ m.ss[j] @ ab)
    var_ind = var_v + var_b
    block, other = np.ix_(cols[:2], cols[:2]), np.ix_(cols[:2], cols[2:])
    if (
        paired
        and np.array_equal(m.s[j, cols[:2]], m.s[j, cols[2:]])
        and np.array_equal(m.ss[j][block], m.ss[j][np.ix_(cols[2:], cols[2:])])
        and np.array_equal(m.ss[j][block], m.ss[j][other])
    ):  # the same sums in every game
        return _interval(0.0, 0.0, var_ind, n) | {"identical": True}
    var = var_v + var_b - 2 * cov if paired else var_ind
    return _interval(fv - fb, var, var_ind, n)


def poisson_weights(seed: int, games: np.ndarray) -> np.ndarray:
    """``int64[len(games), B]`` Poisson(1) bootstrap weights of games, a function of
    ``(seed, game, replicate)`` only.

    >>> w = poisson_weights(0, np.arange(2000))
    >>> w.shape, bool(abs(w.mean() - 1) < 0.01), int(poisson_weights(0, np.array([7]))[0, 3]) == int(w[7, 3])
    ((2000, 200), True, True)
    """
    key = stream_key(seed, BOOTSTRAP_STREAM)
    with np.errstate(over="ignore"):
        z = key + (np.asarray(games, dtype=np.uint64)[:, None] + np.uint64(1)) * GAMMA
        z = z + (np.arange(B, dtype=np.uint64)[None, :] + np.uint64(1)) * GAMMA2
    z = mix_array(z)
    u = (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    cdf = np.cumsum([math.exp(-1) / math.factorial(k) for k in range(20)])
    return np.searchsorted(cdf, u, side="right").astype(np.int64)


@dataclass
class Histograms:
    """Integer histograms of a seat's net score per variant: ``counts[v][value] = int64[B+1]``
    (column 0 unweighted, then the bootstrap replicates)."""

    values: np.ndarray
    counts: np.ndarray  # int64[variants, len(values), B + 1]

    @classmethod
    def empty(cls, n_variants: int) -> Histograms:
        return cls(np.zeros(0, np.int64), np.zeros((n_variants, 0, B + 1), np.int64))

    def add(self, pays: list[np.ndarray], games: np.ndarray, seed: int) -> None:
        """Add hands: per variant ``int[n, 4]`` net scores; ``games`` the hands' game labels."""
        starts = _groups(games)
        labels = np.asarray(games)[starts]
        weights = poisson_weights(seed, labels)
        local = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(games)]))
        values = np.unique(np.concatenate([p.reshape(-1) for p in pays]).astype(np.int64))
        chunk = np.zeros((len(pays), len(values), B + 1), np.int64)
        for v, p in enumerate(pays):
            p = np.asarray(p, dtype=np.int64)
            idx = np.searchsorted(values, p).reshape(-1)
            game = np.repeat(local, p.shape[1])
            pair, count = np.unique(game * len(values) + idx, return_counts=True)
            pg, pv = pair // len(values), pair % len(values)
            chunk[v, :, 0] = np.bincount(idx, minlength=len(values))
            for b in range(B):
                chunk[v, :, b + 1] = np.bincount(
                    pv, weights=count * weights[pg, b], minlength=len(values)
                ).astype(np.int64)
        self.merge(Histograms(values, chunk))

    def merge(self, other: Histograms) -> None:
        values = np.union1d(self.values, other.values)
        counts = np.zeros((self.counts.shape[0], len(values), B + 1), np.int64)
        counts[:, np.searchsorted(values, self.values)] += self.counts
        counts[:, np.searchsorted(values, other.values)] += other.counts
        self.values, self.counts = values, counts


def _quantile(values: np.ndarray, counts: np.ndarray, q: float) -> np.ndarray:
    """Per column of ``counts`` (``[values, columns]``), the inverted-CDF ``q`` quantile."""
    cum = np.cumsum(counts, axis=0)
    target = q * cum[-1]
    idx = (cum < target[None, :]).sum(axis=0)
    return values[np.minimum(idx, len(values) - 1)].astype(np.float64)


def _largest_loss(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    first = np.argmax(counts > 0, axis=0)
    return -np.minimum(values[first], 0).astype(np.float64)


def quantile_stats(h: Histograms, v: int, key: str) -> np.ndarray:
    """``float[B + 1]``: the statistic ``key`` (``payment.q05``, ``payment.largest_loss``)
    of variant ``v``, unweighted then per replicate."""
    counts = h.counts[v]
    if key == "payment.largest_loss":
        return _largest_loss(h.values, counts)
    return _quantile(h.values, counts, int(key.rsplit("q", 1)[1]) / 100)


def quantile_value(h: Histograms, v: int, key: str) -> dict[str, Any]:
    st = quantile_stats(h, v, key)
    se = float(st[1:].std(ddof=1))
    return {"value": float(st[0]), "se": se, "ci": [st[0] - Z95 * se, st[0] + Z95 * se]}


def quantile_difference(
    h: Histograms, v: int, base: int, key: str, n_hands: int, paired: bool = True
) -> dict[str, Any]:
    """The bootstrap difference of a quantile statistic, variant ``v`` minus ``base``."""
    sv, sb = quantile_stats(h, v, key), quantile_stats(h, base, key)
    var_ind = float(sv[1:].var(ddof=1) + sb[1:].var(ddof=1))
    if paired and np.array_equal(h.counts[v], h.counts[base]):
        return _interval(0.0, 0.0, var_ind, n_hands) | {"identical": True}
    var = float((sv[1:] - sb[1:]).var(ddof=1)) if paired else var_ind
    return _interval(float(sv[0] - sb[0]), var, var_ind, n_hands)
