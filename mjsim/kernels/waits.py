"""Waits and tile efficiency (ukeire) kernels, built on :func:`mjsim.kernels.shanten.hand_cost`.

A kind ``t`` is a wait of a 13-tile hand when hand + t is complete (cost 0) and the player
does not already own four copies of ``t`` (concealed or in melds): a fifth copy is no
wait. A kind improves a hand when adding it lowers the cost (the fewest missing tiles) by
one. Hands whose cost shows they are not ready skip the 34 trial additions.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..tables.suits import INF
from .callref import address_for, call_as_given
from .jit import njit_borrowed
from .shanten import hand_cost_inline, make_scratch, make_scratch_jit

CHUNK = 1024


@njit(cache=True, inline="always")
def _meld_caps(owned_row, hand_row, caps):
    """Copies of each kind the concealed part may hold: 4 minus those in exposed melds."""
    for k in range(34):
        caps[k] = 4 - (owned_row[k] - hand_row[k])


@njit_borrowed
def _waits_rows(
    lo,
    hi,
    hands,
    owned,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
    caps,
    work,
    rows,
    left,
    right,
    cwork,
    per_family,
    out,
):
    """Rows ``lo .. hi - 1`` of :func:`waits_many` (one thread's chunk), compiled without
    reference counting (:mod:`mjsim.kernels.jit`)."""
    for i in range(lo, hi):
        _meld_caps(owned[i], hands[i], caps)
        for k in range(34):
            work[k] = hands[i, k]
        # t = −1 is the 13 tiles themselves (only a hand one tile from a win waits), then
        # each kind added: one use of the inlined kernel, compiled once
        for t in range(-1, 34):
            if t >= 0:
                if not kind_mask[t] or owned[i, t] >= 4:
                    continue
                work[t] += 1
            cost = hand_cost_inline(
                work,
                n_melds[i],
                meld_flags[i],
                void[i],
                families,
                melds,
                kind_mask,
                honour_mask,
                wild_mask,
                caps,
                tabs,
                rows,
                left,
                right,
                cwork,
                per_family,
            )
            if t < 0:
                if cost != 1:
                    break
                continue
            work[t] -= 1
            out[i, t] = cost == 0


def waits_many(
    hands,
    owned,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
):
    """bool[N, 34]: the winning kinds of each 13-tile row (``owned``: own copies incl. melds);
    the threads call the rows' code at its address (:mod:`mjsim.kernels.callref`)."""
    args = (hands, owned, n_melds, meld_flags, void, families, melds, kind_mask)
    args += (honour_mask, wild_mask, tabs)
    caps, work = np.empty(34, np.int64), np.empty(34, np.uint8)
    out = np.empty((0, 34), np.bool_)
    at = address_for(_waits_rows, (0, 0, *args, caps, work, *make_scratch(), out))
    return _waits_driver(at, *args)


@njit(cache=True, parallel=True)
def _waits_driver(
    rows_at,
    hands,
    owned,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
):
    """:func:`waits_many` on its threads, each chunk of rows by the code at ``rows_at``."""
    n = hands.shape[0]
    out = np.zeros((n, 34), dtype=np.bool_)
    n_chunks = (n + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        rows, left, right, cwork, per_family = make_scratch_jit()
        caps = np.empty(34, dtype=np.int64)
        work = np.empty(34, dtype=np.uint8)
        call_as_given(
            rows_at,
            (
                np.int64(chunk * CHUNK),
                np.int64(min(n, (chunk + 1) * CHUNK)),
                hands,
                owned,
                n_melds,
                meld_flags,
                void,
                families,
                melds,
                kind_mask,
                honour_mask,
                wild_mask,
                tabs,
                caps,
                work,
                rows,
                left,
                right,
                cwork,
                per_family,
                out,
            ),
        )
    return out


@njit_borrowed
def _ukeire_rows(
    lo,
    hi,
    hands,
    owned,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
    caps,
    work,
    rows,
    left,
    right,
    cwork,
    per_family,
    after,
    improves,
):
    """Rows ``lo .. hi - 1`` of :func:`ukeire_many` (one thread's chunk), compiled without
    reference counting (:mod:`mjsim.kernels.jit`)."""
    for i in range(lo, hi):
        for k in range(34):
            work[k] = hands[i, k]
        _meld_caps(owned[i], hands[i], caps)
        for d in range(34):
            if hands[i, d] == 0:
                continue
            work[d] -= 1
            base = 0
            # t = −1 is the 13 tiles left, then each kind added: one use of the kernel
            for t in range(-1, 34):
                if t >= 0:
                    if not kind_mask[t] or owned[i, t] - (1 if t == d else 0) >= 4:
                        continue
                    work[t] += 1
                cost = hand_cost_inline(
                    work,
                    n_melds[i],
                    meld_flags[i],
                    void[i],
                    families,
                    melds,
                    kind_mask,
                    honour_mask,
                    wild_mask,
                    caps,
                    tabs,
                    rows,
                    left,
                    right,
                    cwork,
                    per_family,
                )
                if t < 0:
                    base = cost
                    after[i, d] = base
                    continue
                work[t] -= 1
                improves[i, d, t] = cost < base
            work[d] += 1


def ukeire_many(
    hands,
    owned,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
):
    """For each 14-tile row and each discard kind: the cost after the discard (int64[N, 34],
    ``INF`` where the kind is not held) and the improving kinds (bool[N, 34, 34]); the
    threads call the rows' code at its address (:mod:`mjsim.kernels.callref`)."""
    args = (hands, owned, n_melds, meld_flags, void, families, melds, kind_mask)
    args += (honour_mask, wild_mask, tabs)
    caps, work = np.empty(34, np.int64), np.empty(34, np.uint8)
    after, improves = np.empty((0, 34), np.int64), np.empty((0, 34, 34), np.bool_)
    at = address_for(_ukeire_rows, (0, 0, *args, caps, work, *make_scratch(), after, improves))
    return _ukeire_driver(at, *args)


@njit(cache=True, parallel=True)
def _ukeire_driver(
    rows_at,
    hands,
    owned,
    n_melds,
    meld_flags,
    void,
    families,
    melds,
    kind_mask,
    honour_mask,
    wild_mask,
    tabs,
):
    """:func:`ukeire_many` on its threads, each chunk of rows by the code at ``rows_at``."""
    n = hands.shape[0]
    after = np.full((n, 34), INF, dtype=np.int64)
    improves = np.zeros((n, 34, 34), dtype=np.bool_)
    n_chunks = (n + CHUNK - 1) // CHUNK
    for chunk in prange(n_chunks):
        rows, left, right, cwork, per_family = make_scratch_jit()
        caps = np.empty(34, dtype=np.int64)
        work = np.empty(34, dtype=np.uint8)
        call_as_given(
            rows_at,
            (
                np.int64(chunk * CHUNK),
                np.int64(min(n, (chunk + 1) * CHUNK)),
                hands,
                owned,
                n_melds,
                meld_flags,
                void,
                families,
                melds,
                kind_mask,
                honour_mask,
                wild_mask,
                tabs,
                caps,
                work,
                rows,
                left,
                right,
                cwork,
                per_family,
                after,
                improves,
            ),
        )
    return after, improves
