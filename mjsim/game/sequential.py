"""The search's sequential test: which candidate a decision takes, and when it has seen enough.

Each of a decision's candidates is played in the same worlds; ``payoffs[r, c]`` is
candidate ``c``'s payoff in world ``r`` and ``played[c]`` the worlds it was played in
(minus that number once dropped). Candidate 0 is the default (the search seat's base
choice). A candidate :data:`Z_DROP` paired standard errors below the default is dropped,
the default is left only for one :data:`Z_LEAVE` above it, and the decision is settled
early once the leader is :data:`Z` above every other candidate still played (a lax test
changes decisions for the worse by chance: about half the alternatives are clearly worse
and a few percent better, ``bench_search.py --trace``).

>>> X = np.array([[0.0, 1.0], [0.0, 3.0], [0.0, 2.0]])
>>> round(float(paired_z(X, np.int64(3), np.int64(1), np.int64(0))), 3)  # 2 / (1 / √3)
3.464
>>> int(leader(X, np.array([3, 3]), np.int64(3), np.int64(2)))
1
"""

from __future__ import annotations

import numpy as np

from ..kernels.jit import njit_borrowed

#: standard errors of a paired difference by which the leader must beat every other
#: candidate still played to settle a decision early
Z = 1.5
#: standard errors above the default a candidate needs to be chosen over it
Z_LEAVE = 2.5
#: standard errors below the default that stop a candidate's rollouts
Z_DROP = 2.0


@njit_borrowed
def leader(payoffs, played, r, n):
    """Among the ``n`` candidates played in all ``r`` worlds, the one with the highest mean
    payoff of those :data:`Z_LEAVE` standard errors above the default; 0 (the default)
    where none is."""
    best = 0
    top = -np.inf
    for c in range(1, n):
        if played[c] == r and paired_z(payoffs, r, c, np.int64(0)) > Z_LEAVE:
            total = payoffs[:r, c].sum()
            if total > top:
                best, top = c, total
    return best


@njit_borrowed
def settled(payoffs, played, r, n):
    """Drop (stop playing) the candidates :data:`Z_DROP` standard errors below the default
    or equal to it in every world; whether the decision is settled: no candidate left but
    the default, or the leader (:func:`leader`) :data:`Z` standard errors above every
    other candidate still played."""
    left = 0
    for c in range(1, n):
        if played[c] == r:
            z = paired_z(payoffs, r, c, np.int64(0))
            if np.isnan(z) or z < -Z_DROP:
                played[c] = -r  # dropped after r worlds
            else:
                left += 1
    if left == 0:
        return True
    best = leader(payoffs, played, r, n)
    if best == 0:
        return False
    for c in range(1, n):
        if c != best and played[c] == r:
            z = paired_z(payoffs, r, best, c)
            if not np.isnan(z) and z <= Z:
                return False
    return True


@njit_borrowed
def paired_z(payoffs, r, a, b):
    """The paired difference of candidates ``a`` and ``b`` over ``r`` worlds in standard
    errors (±inf where every world gives the same difference; NaN where none differs, or
    with one world only)."""
    if r < 2:
        return np.nan
    mean = 0.0
    for i in range(r):
        mean += payoffs[i, a] - payoffs[i, b]
    mean /= r
    var = 0.0
    for i in range(r):
        var += (payoffs[i, a] - payoffs[i, b] - mean) ** 2
    se = np.sqrt(var / (r - 1) / r)
    if se == 0.0:
        return np.inf if mean > 0 else np.nan if mean == 0 else -np.inf
    return mean / se
