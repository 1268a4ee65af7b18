"""How the engine reads a seat's hand: the shanten kernel over trial hands, at its address.

Costs are the shanten kernel's (:func:`mjsim.kernels.shanten.hand_cost_inline`): shanten + 1;
0 is a complete hand. Every evaluation of the game runs :data:`kernel_code` — the kernel
over a list of trial hands (:func:`kernel_trials`: a bot's every discard, or every tile it
may draw, in one call), compiled once for every rule set and model — at its address, so
the kernel's code is typed, lowered and optimised once, and linked into no engine function
(docs/engine.md, "Compile time"). Each evaluation reads the seat's own wildcard mask and
void suit; :func:`cost`, :func:`evaluate` and :func:`n_waits` are what the engine, the bots
and the scoring models call.
"""

from __future__ import annotations

import numpy as np
from numba import typeof, types
from numba.core.typing.templates import Signature

from ..kernels.arrayref import arrays_at
from ..kernels.callref import address_of, caller
from ..kernels.jit import njit_borrowed, njit_inline
from ..kernels.shanten import hand_cost_inline, melds_cost
from ..tables.suits import INF
from . import values as V
from .state import (
    TRIAL_IN,
    TRIAL_OUT,
    TRIAL_WEIGHT,
    can_add,
    kernel_scratch,
    new_scratch,
    new_state,
    wild_held,
    wild_mask,
)


@njit_inline
def _fifth_copy_caps(S, W, s, counts):
    """Whether a complete ``counts`` (every kind capped at 4) must be asked again: a wild
    tile of seat ``s`` could stand for a copy its melds hold (some melded kind's copies,
    held ones and wild tiles exceed 4). If so, ``W.melded_caps`` is set to each kind's 4
    minus its melded copies, so that no wild tile stands for a fifth copy. A hand of real
    tiles needs no cap: callers never add a fifth copy (:func:`can_add`)."""
    n_wild = wild_held(S, s, counts)
    if S.n_melds[s] == 0 or n_wild == 0:
        return False
    binds = False
    for k in range(34):
        m = S.melded[s, k]
        binds |= m > 0 and counts[k] + m + n_wild > 4
        W.melded_caps[k] = 4 - m
    return binds


def _kernel_trials(
    S,
    W,
    s,
    counts,
    families,
    wild,
    caps,
    melds,
    kind_mask,
    honour_mask,
    tables,
    big,
    n,
    exact,
    base,
    beat,
):
    """The shanten kernel on ``counts`` changed by each of the ``n`` trials in ``W.trials``
    (rows :data:`TRIAL_OUT`, :data:`TRIAL_IN`, :data:`TRIAL_WEIGHT`: a kind taken out or
    −1, a kind put in or −1, a weight), in order, as seat ``s``'s concealed tiles with its
    melds and void suit, the ``families`` rows, the ``wild`` mask and each kind's ``caps``,
    for a rule set of ``melds`` melds, kinds ``kind_mask`` and ``honour_mask``, and the
    kernel's ``tables`` (:func:`mjsim.kernels.arrayref.array_ref`). Trial ``i``'s cost goes
    to ``W.trial_cost[i]`` and the lowest cost among the families marked in ``big`` to
    ``W.trial_big[i]``; the last trial's cost of each family is left in ``W.per_family``.
    With ``exact``, a cost of 0 is asked again with the melds' copies capped where a wild
    tile could stand for a fifth copy (:func:`_fifth_copy_caps`).

    Returns the summed weight of the trials of cost below ``base``, or, as soon as that sum
    plus the weight of the trials left cannot exceed ``beat``, the sum so far (some number
    at most ``beat``) without trying the rest. ``counts`` is left as it was given."""
    rows, left, right, cwork, per_family = kernel_scratch(W)
    tried = W.trials
    rest = 0
    for i in range(n):
        rest += tried[i, TRIAL_WEIGHT]
    got = 0
    for i in range(n):
        if got + rest <= beat:
            return got
        out, into, weight = tried[i, TRIAL_OUT], tried[i, TRIAL_IN], tried[i, TRIAL_WEIGHT]
        rest -= weight
        if out >= 0:
            counts[out] -= 1
        if into >= 0:
            counts[into] += 1
        use = caps
        for _ in range(2):  # the one call of the kernel: capped at 4, then maybe by melds
            c = hand_cost_inline(
                counts,
                S.n_melds[s],
                S.meld_flags[s],
                S.void[s],
                families,
                melds,
                kind_mask,
                honour_mask,
                wild,
                use,
                arrays_at(tables),
                rows,
                left,
                right,
                cwork,
                per_family,
            )
            if c != 0 or not exact or not _fifth_copy_caps(S, W, s, counts):
                break
            use = W.melded_caps[:]
        if into >= 0:
            counts[into] -= 1
        if out >= 0:
            counts[out] += 1
        b = INF
        for f in range(big.size):
            if big[f] and per_family[f] < b:
                b = per_family[f]
        W.trial_cost[i], W.trial_big[i] = c, b
        if c < base:
            got += weight
    return got


#: :func:`_kernel_trials` compiled once, for every rule set and model (the kernel inlined
#: into it, once), and **called by its address** (:func:`kernel_trials`)
kernel_code = njit_borrowed(_kernel_trials)


def kernel_signature(tables: types.Record) -> Signature:
    """The signature :data:`kernel_code` is compiled for, with ``tables`` the type of the
    kernel's tables record (a rule set's ``G.tables``; every rule set's has the same)."""
    bools, ints = types.Array(types.bool_, 1, "C"), types.Array(types.int64, 1, "C")
    i64 = types.int64
    return i64(
        typeof(new_state()),
        typeof(new_scratch()),
        i64,
        types.Array(types.uint8, 1, "C"),
        types.Array(types.int64, 2, "C"),
        bools,
        ints,
        i64,
        bools,
        bools,
        tables,
        bools,
        i64,
        i64,
        i64,
        i64,
    )


def kernel_address(tables: np.record) -> int:
    """The address of :data:`kernel_code`'s machine code for the rule set's ``tables``
    record (compiled, or loaded from the cache, on a process's first call): ``G.kernel``."""
    return address_of(kernel_code, kernel_signature(typeof(tables)).args)


_call_kernel = caller(lambda args: kernel_signature(args[10]))


@njit_inline
def kernel_trials(G, S, W, s, counts, families, wild, caps, big, n, exact, base, beat):
    """:func:`_kernel_trials` for rule set ``G``, called at its address ``G.kernel``: every
    evaluation of the game. Called as a function, numba would link the kernel's code into
    each engine function that evaluates and optimise it again in each; inlined, it would
    type and lower it again at each use (:mod:`mjsim.kernels.callref`)."""
    return _call_kernel(
        G.kernel,
        (
            S,
            W,
            s,
            counts,
            families,
            wild,
            caps,
            G.cfg[V.MELDS],
            G.kind_mask,
            G.honour_mask,
            G.tables,
            big,
            n,
            exact,
            base,
            beat,
        ),
    )


@njit_borrowed
def kernel_cost(G, S, W, s, counts, families, wild, caps, exact):
    """The shanten kernel on seat ``s``'s ``counts`` as they are, with the ``families``
    rows, ``wild`` mask and ``caps`` given (:func:`kernel_trials`, one trial; a complete
    hand checked for a fifth copy with ``exact``)."""
    W.trials[0, TRIAL_OUT], W.trials[0, TRIAL_IN], W.trials[0, TRIAL_WEIGHT] = -1, -1, 0
    kernel_trials(
        G,
        S,
        W,
        s,
        counts,
        families,
        wild,
        caps,
        G.big[:0],
        np.int64(1),
        exact,
        np.int64(0),
        np.int64(-1),
    )
    return W.trial_cost[0]


@njit_borrowed
def evaluate(G, S, W, s, counts, families, n_families):
    """Fewest tiles missing from a win of any of the first ``n_families`` rows of
    ``families`` (the shanten kernel's family rows) for ``counts`` as seat ``s``'s
    concealed tiles, its melds, wildcards and void suit as they stand; each family's own
    cost is left in ``W.per_family``.

    The kernel runs with every kind capped at 4 (its fast path): above 0 the cost can only
    be lower than the capped one, in the rare hands whose nearest win needs a melded copy,
    and the bots read it as a guide only. A cost of 0 — a win, which the win test,
    readiness and waits read — is exact: where a wild tile could stand for a melded copy,
    the kernel asks again with the melds' copies capped (:func:`_fifth_copy_caps`, as
    :func:`mjsim.is_win`, waits and shanten count them).
    """
    return kernel_cost(
        G, S, W, s, counts, families[:n_families], wild_mask(S, s), W.caps[:], np.int64(1)
    )


@njit_inline
def cost(G, S, W, s, counts):
    """:func:`evaluate` over the rule set's scoring families, which come first in
    ``G.families`` (the hand's shanten + 1)."""
    return evaluate(G, S, W, s, counts, G.families, G.cfg[V.N_SCORING])


@njit_inline
def _near(counts, t):
    """Whether ``counts`` hold ``t`` or a kind of its suit within two of it."""
    if counts[t] > 0:
        return True
    if t >= 27:
        return False
    first = t - t % 9
    for u in range(max(first, t - 2), min(first + 9, t + 3)):
        if counts[u] > 0:
            return True
    return False


@njit_borrowed
def lone_wild(G, S, s, counts):
    """Whether seat ``s``'s ``counts`` less one of its wild tiles are the melds its hand
    lacks, complete (the wild tiles left still wild): the lone wild tile then pairs with any
    tile — 财神牛 / 财神单吊 (RULES.md §3.4, where the rule set's ``lone_wild`` says so), and
    Shanghai's 吊百搭 on the hand less its winning tile. ``counts`` is left as it was given."""
    for k in range(34):
        if S.wild[s, k] and counts[k] > 0:
            counts[k] -= 1
            done = (
                melds_cost(
                    counts,
                    wild_mask(S, s),
                    G.honour_mask,
                    arrays_at(G.tables),
                    G.cfg[V.MELDS] - S.n_melds[s],
                )
                == 0
            )
            counts[k] += 1
            return done
    return False


@njit_borrowed
def n_waits(G, S, W, s, counts, aux, most):
    """The kinds (counted up to ``most``) on which seat ``s``'s 13 tiles ``counts`` (its
    melds as they stand) win, among those it may add (all of them beside a lone wild tile,
    :func:`lone_wild`), marked in ``W.waits``; with ``aux``
    the rule set's auxiliary families count too (假将 shapes). Only kinds that could win are
    tried: any where it holds a wild tile, else its wild kinds, the rule set's
    ``far_waits`` and the kinds held or near one held."""
    n = 0
    W.waits[:] = False
    free = wild_held(S, s, counts) > 0
    # 财神牛 / 财神单吊: every tile it may add wins
    anything = G.cfg[V.LONE_WILD] and lone_wild(G, S, s, counts)
    for t in range(34):
        if (
            G.kind_mask[t]
            and can_add(S, s, counts, t)
            and (free or S.wild[s, t] or ((G.cfg[V.FAR_WAITS] >> t) & 1) != 0 or _near(counts, t))
        ):
            counts[t] += 1
            done = anything or (
                evaluate(G, S, W, s, counts, G.families, G.families.shape[0]) == 0
                if aux
                else cost(G, S, W, s, counts) == 0
            )
            counts[t] -= 1
            W.waits[t] = done
            n += done
            if n >= most:
                break
    return n


@njit_borrowed
def waits_on(G, S, W, s, aux):
    """Whether seat ``s``'s 13 tiles win on some tile it may add (:func:`n_waits`)."""
    return n_waits(G, S, W, s, S.concealed[s], aux, np.int64(1)) > 0
