"""The state of a hand in play, as arrays, and the hand evaluations every decision reads.

``S`` (:func:`new_state`) is a tuple of arrays:

- ``conc`` ``uint8[4, 34]``: each seat's concealed tiles;
- ``meldc`` ``int64[4, 34]``: tiles in each seat's melds; ``4 - meldc`` caps the concealed part;
- ``melds`` ``int64[4, 5, 2]``: ``(first kind, type)`` of each meld, ``nm`` ``int64[4]`` melds;
- ``mflags`` ``int64[4]``: the shanten kernel's ``meld_flags`` of each seat's melds;
- ``seen`` ``int64[34]``: tiles everyone can see (discards, revealed tiles, melds);
- ``disc`` ``int64[4, 34]``: each seat's discards by kind;
- ``st`` ``int64[4, N_ST]``: per-seat status (the ``ST_*`` columns; ``ST_READY`` marks a
  13-tile hand one tile from a win by cost, which every win test then confirms).

``E`` is the rule set's arrays ``(cfg, families, roles, kind_mask, honour_mask, wild_mask,
tables)`` and ``W`` a thread's scratch (:func:`new_scratch`). Costs are the shanten
kernel's (:func:`mjsim.kernels.shanten._hand_cost`): shanten + 1; 0 is a complete hand.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels import shanten as K
from ..kernels.jit import njit_borrowed
from ..kernels.shanten import _hand_cost, _make_scratch
from ..tables.suits import INF
from . import config as C

MELD_CHOW, MELD_PUNG, MELD_KONG, MELD_CKONG = range(4)
ST_LOCKED, ST_BAOTING, ST_GUOSHOU, ST_PASS_KIND, ST_PASS_TURN, ST_SIXI_DONE, ST_LLS_DONE, \
    ST_READY, ST_BONUS, ST_QS_DONE, ST_KEY, ST_COST = range(12)
N_ST = 12
MAX_MELDS = 5


@njit(cache=True)
def new_state():
    """Empty state arrays for one thread (see the module docstring)."""
    return (np.zeros((4, 34), np.uint8), np.zeros((4, 34), np.int64),
            np.zeros((4, MAX_MELDS, 2), np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
            np.zeros(34, np.int64), np.zeros((4, 34), np.int64), np.zeros((4, N_ST), np.int64))


@njit_borrowed
def reset_state(S):
    conc, meldc, melds, nm, mflags, seen, disc, st = S
    conc[:] = 0
    meldc[:] = 0
    melds[:] = 0
    nm[:] = 0
    mflags[:] = 0
    seen[:] = 0
    disc[:] = 0
    st[:] = 0
    st[:, ST_PASS_KIND] = -1


@njit(cache=True)
def new_scratch(n_families):
    """A thread's buffers: the shanten kernel's, caps (all 4, see :func:`cost`), hits,
    birds, three per-kind spares (the bots' discard keys, costs and improving kinds) and
    room for a subset of the ``n_families`` family rows (the bots' close families)."""
    rows, left, right, cwork, per_family = _make_scratch()
    return (rows, left, right, cwork, per_family, np.full(34, 4, np.int64),
            np.zeros(4, np.int64), np.zeros(8, np.int64), np.zeros(34, np.int64),
            np.zeros(34, np.int64), np.zeros(34, np.int64),
            np.zeros((n_families, K.FAMILY_COLUMNS), np.int64))


@njit_borrowed
def _flags(melds, n, qqr_ckong):
    flags = 0
    for i in range(n):
        kind, mtype = melds[i, 0], melds[i, 1]
        if mtype == MELD_CHOW:
            flags |= K.HAS_CHOW
            flags |= K.HAS_NON258
        else:
            flags |= K.HAS_PUNG_MELD
            if kind >= 27 or kind % 9 not in (1, 4, 7):
                flags |= K.HAS_NON258
        if mtype == MELD_CKONG and not qqr_ckong:
            flags |= K.HAS_CONCEALED_KONG
        suit = kind // 9
        flags |= (K.SUIT_M, K.SUIT_P, K.SUIT_S, K.SUIT_Z)[suit]
        first = kind % 9
        if kind >= 27 or first == 0 or first == 8 or (mtype == MELD_CHOW and first == 6):
            flags |= K.HAS_YAO_MELD
    return flags


@njit_borrowed
def add_meld(E, S, s, kind, mtype):
    """Give seat ``s`` a meld (chow from ``kind`` up, pung or kong of ``kind``); its tiles
    are taken by the caller from wherever they come from."""
    conc, meldc, melds, nm, mflags, seen, disc, st = S
    i = nm[s]
    melds[s, i, 0] = kind
    melds[s, i, 1] = mtype
    nm[s] = i + 1
    if mtype == MELD_CHOW:
        for k in range(kind, kind + 3):
            meldc[s, k] += 1
            seen[k] += 1
    else:
        n = 3 if mtype == MELD_PUNG else 4
        meldc[s, kind] += n
        seen[kind] += n
    mflags[s] = _flags(melds[s], nm[s], E[0][C.CFG_QQR_CKONG])


@njit_borrowed
def pop_meld(E, S, s):
    """Undo the last :func:`add_meld` of seat ``s`` (trial evaluations)."""
    conc, meldc, melds, nm, mflags, seen, disc, st = S
    i = nm[s] - 1
    kind, mtype = melds[s, i, 0], melds[s, i, 1]
    nm[s] = i
    if mtype == MELD_CHOW:
        for k in range(kind, kind + 3):
            meldc[s, k] -= 1
            seen[k] -= 1
    else:
        n = 3 if mtype == MELD_PUNG else 4
        meldc[s, kind] -= n
        seen[kind] -= n
    mflags[s] = _flags(melds[s], nm[s], E[0][C.CFG_QQR_CKONG])


@njit_borrowed
def find_pung(S, s, kind):
    """Index of seat ``s``'s exposed pung of ``kind``, or −1."""
    melds, nm = S[2], S[3]
    for i in range(nm[s]):
        if melds[s, i, 0] == kind and melds[s, i, 1] == MELD_PUNG:
            return i
    return -1


@njit_borrowed
def upgrade_pung(E, S, s, i, back):
    """Seat ``s``'s pung ``i`` becomes an added kong (or, with ``back``, a pung again)."""
    meldc, melds, mflags, seen = S[1], S[2], S[4], S[5]
    kind = melds[s, i, 0]
    step = -1 if back else 1
    melds[s, i, 1] = MELD_PUNG if back else MELD_KONG
    meldc[s, kind] += step
    seen[kind] += step
    mflags[s] = _flags(melds[s], S[3][s], E[0][C.CFG_QQR_CKONG])


@njit(cache=True, inline="always")
def cost_inline(E, S, W, s, counts):
    """Fewest tiles missing from a win of any scoring family for ``counts`` as seat ``s``'s
    concealed tiles (its melds as they stand); per-family costs are left in ``W[4]``.

    Copies locked in melds do not cap the target here (the kernel's fast path): a complete
    hand is made of real tiles, so the win test (cost 0) is exact, and callers never add a
    fifth copy (:func:`can_add`). Above 0 the cost can only be lower than the capped one, in
    the rare hands whose nearest win needs a melded copy; the bots read it as a guide only,
    and readiness that a rule depends on is checked tile by tile (:func:`ready`).
    """
    cfg, families, roles, kind_mask, honour_mask, wild_mask, tabs = E
    rows, left, right, cwork, per_family, caps = W[0], W[1], W[2], W[3], W[4], W[5]
    _hand_cost(counts, S[3][s], S[4][s], -2, families, cfg[C.CFG_MELDS], kind_mask,
               honour_mask, wild_mask, caps, tabs, rows, left, right, cwork, per_family)
    best = INF
    for f in range(roles.size):
        if roles[f] != C.R_STD_ANY and per_family[f] < best:
            best = per_family[f]
    return best


@njit(cache=True, inline="always")
def cost_of(E, S, W, s, counts, families):
    """:func:`cost_inline` over the given rows of families only (scoring families)."""
    cfg, _, roles, kind_mask, honour_mask, wild_mask, tabs = E
    rows, left, right, cwork, per_family, caps = W[0], W[1], W[2], W[3], W[4], W[5]
    return _hand_cost(counts, S[3][s], S[4][s], -2, families, cfg[C.CFG_MELDS], kind_mask,
                      honour_mask, wild_mask, caps, tabs, rows, left, right, cwork, per_family)


@njit_borrowed
def cost(E, S, W, s, counts):
    """:func:`cost_inline` as a call, for the places off the bots' hot loops (inlining
    everywhere would multiply compile time; a call costs about as much as the evaluation)."""
    return cost_inline(E, S, W, s, counts)


@njit_borrowed
def can_add(S, s, counts, t):
    """Whether seat ``s`` may hold one more ``t`` (never a fifth copy)."""
    return counts[t] + S[1][s, t] < 4


@njit_borrowed
def live(S, s, t):
    """Copies of ``t`` seat ``s`` cannot see: 4 minus his own and everyone's visible tiles."""
    n = 4 - S[0][s, t] - S[5][t]
    return n if n > 0 else 0


@njit_borrowed
def ready(E, S, W, s):
    """Whether seat ``s``'s 13 tiles (its melds as they stand) win on some tile it may add."""
    counts = S[0][s]
    if cost(E, S, W, s, counts) != 1:
        return False
    for t in range(34):
        if E[3][t] and can_add(S, s, counts, t):
            counts[t] += 1
            done = cost(E, S, W, s, counts) == 0
            counts[t] -= 1
            if done:
                return True
    return False
