"""The state of a hand in play, and the one hand evaluation every decision calls.

Three named tuples of arrays, which Numba compiles as plain tuples (a field is read by
name at no cost):

- :class:`State` (:func:`new_state`): what the table shows and each seat holds;
- :class:`Scratch` (:func:`new_scratch`): a thread's work buffers;
- the rule set's arrays, :class:`mjsim.game.config.GameRules`.

Costs are the shanten kernel's (:func:`mjsim.kernels.shanten._hand_cost`): shanten + 1;
0 is a complete hand. :func:`evaluate` is the only place that runs it: every bot and engine
decision calls it, so the kernel compiles once (DESIGN.md: compile time is part of speed).
Each evaluation reads the seat's own wildcard mask and void suit.

>>> S = new_state()
>>> S.concealed.shape, S.melds.shape, int(S.void[0])
((4, 34), (4, 5, 3), -2)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..kernels import shanten as K
from ..kernels.jit import njit_borrowed, njit_inline
from ..kernels.shanten import (MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG, _hand_cost,
                              _make_scratch, meld_flags)
from . import values as V
#: columns of a meld row: its first kind, its type, the seat it was claimed from (−1: own)
M_KIND, M_TYPE, M_FROM = range(3)
#: per-seat status columns (``State.status``)
#: (``ready``: one tile from a win by cost; ``tenpai``: after the seat's last discard, its 13
#: tiles win on a tile it may add, tested tile by tile where declaring or liability needs it;
#: ``push``: 推出 — 0 not yet weighed, :data:`PUSH_NONE` weighed and not made, else the kind
#: of the pair set aside + :data:`PUSH_NONE` + 1)
STATUS = ("locked", "declared", "pass_bar", "pass_kind", "pass_turn", "sixi_done", "lls_done",
          "ready", "bonus", "qishou_done", "key", "cost", "tenpai", "push")
ST_LOCKED, ST_DECLARED, ST_PASS_BAR, ST_PASS_KIND, ST_PASS_TURN, ST_SIXI_DONE, ST_LLS_DONE, \
    ST_READY, ST_BONUS, ST_QS_DONE, ST_KEY, ST_COST, ST_TENPAI, ST_PUSH = range(len(STATUS))
PUSH_NONE = 1
#: positions in ``State.pos``
#: (``replaced``: whether the last draw replaced a bonus tile; ``dead``: bonus tiles turned
#: while turning the wildcard indicator at the deal, set aside as nobody's; ``last``: the
#: kind of the last discard while nobody has claimed since, else −1; ``bao``: the kind of
#: the reserve's indicator turned at the first 报听, else −1, at reserve slot ``bao_slot``
#: (0: the wall's last tile); ``reserved``: the reserve slots used, a bit each;
#: ``bao_changes``: 换宝 so far; ``wild_draw``: how the win being valued uses a declared
#: seat's drawn tile (:data:`DRAW_NATURAL` …) and ``wild_tile`` that tile's kind)
POSITIONS = ("head", "tail", "turns", "kongs", "open_kongs", "dealer", "winner", "replaced",
             "dead", "last", "bao", "bao_slot", "reserved", "bao_changes", "wild_draw",
             "wild_tile")
P_HEAD, P_TAIL, P_TURNS, P_KONGS, P_OPEN_KONGS, P_DEALER, P_WINNER, P_REPLACED, P_DEAD, \
    P_LAST, P_BAO, P_BAO_SLOT, P_RESERVED, P_BAO_CHANGES, P_WILD_DRAW, P_WILD_TILE = \
    range(len(POSITIONS))
#: ``pos[P_WILD_DRAW]``: a natural win, a drawn 宝 standing for the winning tile (摸宝), the
#: fourth of a concealed triplet doing so (大风), a 宝 kind among the waits at 报听 (对宝)
DRAW_NATURAL, DRAW_WILD, DRAW_FOURTH, DRAW_ON_READY = range(4)
MAX_MELDS = 5
#: rows of ``State.pay``: payment sources, numbered by the scoring model
MAX_SOURCES = 8
#: sizes of ``State.model`` and ``State.carry``
MODEL_SLOTS = 16
CARRY_SLOTS = 8
#: ``State.void`` of a seat with no void suit (the shanten kernel's "none")
NO_VOID = -2

State = namedtuple("State", (
    "concealed",   # uint8[4, 34]: each seat's concealed tiles
    "melded",      # int64[4, 34]: tiles in each seat's melds (4 - melded caps the concealed)
    "melds",       # int64[4, MAX_MELDS, 3]: M_KIND, M_TYPE, M_FROM of each meld
    "n_melds",     # int64[4]
    "meld_flags",  # int64[4]: the shanten kernel's flags of each seat's melds
    "seen",        # int64[34]: tiles everyone sees (discards, melds, revealed tiles)
    "discards",    # int64[4, 34]: each seat's discards by kind
    "status",      # int64[4, len(STATUS)]: the ST_* columns
    "wild",        # bool[4, 34]: the kinds wild for each seat now
    "void",        # int64[4]: each seat's void suit (0-2), or NO_VOID
    "pos",         # int64[len(POSITIONS)]: wall positions and counters (P_*)
    "pay",         # int64[MAX_SOURCES, 4]: net payments by source and seat
    "units",       # int64[4]: the value of each winner's hand (scoring model's units)
    "bits",        # int64[4]: each winner's pattern bits
    "model",       # int64[MODEL_SLOTS]: the scoring model's facts of this hand
    "carry",       # int64[CARRY_SLOTS]: the scoring model's facts carried from hand to hand
                   # of a game (kept by reset_state; a new game starts from zeros)
))

Scratch = namedtuple("Scratch", (
    "rows", "left", "right", "cwork", "per_family",  # the shanten kernel's buffers
    "caps",       # int64[34]: always 4 (see evaluate)
    "melded_caps",  # int64[34]: 4 minus a seat's melded copies (see _no_fifth_copy)
    "hits",       # int64[4]: scoring work (birds hitting each seat)
    "birds",      # int64[8]: scoring work (bird tiles)
    "counts",     # int64[8]: scoring work (pattern counts)
    "keys",       # int64[34]: a bot's key for each discard
    "raw_keys",   # int64[34]: the same before the cautious bot's danger
    "bases",      # int64[34]: the cost behind each key
    "improvers",  # int64[34]: kinds that improve the hand
    "close",      # int64[n_families, FAMILY_COLUMNS]: the families a bot still weighs
    "claimed",    # bool[8]: which revealed tiles are taken (开杠)
    "offered",    # int64[8]: the tiles a win may be claimed on (a discard, 开杠 reveals)
    "tiles",      # int64[4]: the tile each claimant wins on
    "order",      # int64[4]: winners in payment order
    "hands",      # uint8[1, 4, 34]: the deal pipeline's output row
    "dealt_bonus",  # uint8[1, 4]
    "first_draw",   # int8[1, 4]
    "pending",      # int64[4]
    "tiles34",      # uint8[34]: a hand to evaluate beside the state (起手胡 with melds)
    "no_wild",      # bool[34]: all False (a hand evaluated with its wild tiles as themselves)
    "waits",        # bool[34]: the winning kinds found by the last n_waits
))


@njit(cache=True)
def new_state():
    """Empty state arrays for one thread (see :class:`State`)."""
    return State(np.zeros((4, 34), np.uint8), np.zeros((4, 34), np.int64),
                 np.zeros((4, MAX_MELDS, 3), np.int64), np.zeros(4, np.int64),
                 np.zeros(4, np.int64), np.zeros(34, np.int64), np.zeros((4, 34), np.int64),
                 np.zeros((4, len(STATUS)), np.int64), np.zeros((4, 34), np.bool_),
                 np.full(4, NO_VOID, np.int64), np.zeros(len(POSITIONS), np.int64),
                 np.zeros((MAX_SOURCES, 4), np.int64), np.zeros(4, np.int64),
                 np.zeros(4, np.int64), np.zeros(MODEL_SLOTS, np.int64),
                 np.zeros(CARRY_SLOTS, np.int64))


@njit(cache=True)
def new_scratch(n_families):
    """A thread's buffers (see :class:`Scratch`), with room for ``n_families`` family rows."""
    rows, left, right, cwork, per_family = _make_scratch()
    i34 = np.zeros(34, np.int64)
    return Scratch(rows, left, right, cwork, per_family, np.full(34, 4, np.int64),
                   np.full(34, 4, np.int64),
                   np.zeros(4, np.int64), np.zeros(8, np.int64), np.zeros(8, np.int64),
                   i34.copy(), i34.copy(), i34.copy(), i34.copy(),
                   np.zeros((n_families, K.FAMILY_COLUMNS), np.int64), np.zeros(8, np.bool_),
                   np.zeros(8, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
                   np.zeros((1, 4, 34), np.uint8), np.zeros((1, 4), np.uint8),
                   np.zeros((1, 4), np.int8), np.zeros(4, np.int64), np.zeros(34, np.uint8),
                   np.zeros(34, np.bool_), np.zeros(34, np.bool_))


@njit_borrowed
def reset_state(S, dealer, size):
    """Clear ``S`` for a new hand dealt by ``dealer`` from a wall of ``size`` tiles."""
    S.concealed[:] = 0
    S.melded[:] = 0
    S.melds[:] = 0
    S.n_melds[:] = 0
    S.meld_flags[:] = 0
    S.seen[:] = 0
    S.discards[:] = 0
    S.status[:] = 0
    S.status[:, ST_PASS_KIND] = -1
    S.wild[:] = False
    S.void[:] = NO_VOID
    S.pos[:] = 0
    S.pos[P_TAIL] = size
    S.pos[P_DEALER] = dealer
    S.pos[P_WINNER] = -1
    S.pos[P_LAST] = -1
    S.pos[P_BAO] = -1
    S.pay[:] = 0
    S.units[:] = 0
    S.bits[:] = 0
    S.model[:] = 0


@njit_borrowed
def _meld_tiles(S, s, kind, mtype, step):
    if mtype == MELD_CHOW:
        for k in range(kind, kind + 3):
            S.melded[s, k] += step
            S.seen[k] += step
    else:
        n = 3 if mtype == MELD_PUNG else 4
        S.melded[s, kind] += step * n
        S.seen[kind] += step * n


@njit_borrowed
def add_meld(G, S, s, kind, mtype, source):
    """Give seat ``s`` a meld (a chow from ``kind`` up, a pung or kong of ``kind``) claimed
    from seat ``source`` (−1: its own tiles); the caller takes the tiles from wherever they
    come from."""
    i = S.n_melds[s]
    S.melds[s, i, M_KIND] = kind
    S.melds[s, i, M_TYPE] = mtype
    S.melds[s, i, M_FROM] = source
    S.n_melds[s] = i + 1
    _meld_tiles(S, s, kind, mtype, np.int64(1))
    S.meld_flags[s] = meld_flags(S.melds[s], S.n_melds[s], G.cfg[V.CKONG_EXPOSED])


@njit_borrowed
def pop_meld(G, S, s):
    """Undo the last :func:`add_meld` of seat ``s`` (trial evaluations)."""
    i = S.n_melds[s] - 1
    S.n_melds[s] = i
    _meld_tiles(S, s, S.melds[s, i, M_KIND], S.melds[s, i, M_TYPE], np.int64(-1))
    S.meld_flags[s] = meld_flags(S.melds[s], S.n_melds[s], G.cfg[V.CKONG_EXPOSED])


@njit_borrowed
def find_pung(S, s, kind):
    """Index of seat ``s``'s exposed pung of ``kind``, or −1."""
    for i in range(S.n_melds[s]):
        if S.melds[s, i, M_KIND] == kind and S.melds[s, i, M_TYPE] == MELD_PUNG:
            return i
    return -1


@njit_borrowed
def claims(S, a, b):
    """The chows, pungs and exposed kongs seat ``a`` made on seat ``b``'s discards."""
    n = 0
    for i in range(S.n_melds[a]):
        n += S.melds[a, i, M_FROM] == b
    return n


@njit_borrowed
def upgrade_pung(G, S, s, i, step):
    """Seat ``s``'s pung ``i`` becomes an added kong (``step`` 1) or a pung again (−1)."""
    kind = S.melds[s, i, M_KIND]
    S.melds[s, i, M_TYPE] = MELD_KONG if step > 0 else MELD_PUNG
    S.melded[s, kind] += step
    S.seen[kind] += step
    S.meld_flags[s] = meld_flags(S.melds[s], S.n_melds[s], G.cfg[V.CKONG_EXPOSED])


@njit_borrowed
def _no_fifth_copy(G, S, W, s, counts, families, n_families):
    """The cost of ``counts``, which the kernel found complete with every kind capped at 4:
    0 again unless a wild tile of seat ``s`` could stand for a copy its melds hold (some
    melded kind's copies, held ones and wild tiles exceed 4); then the kernel's answer with
    each kind capped at 4 minus the melded copies (``W.melded_caps``), so that no wild tile
    stands for a fifth copy. A hand of real tiles needs no cap: callers never add a fifth
    copy (:func:`can_add`)."""
    n_wild = wild_held(S, s, counts)
    if S.n_melds[s] == 0 or n_wild == 0:
        return np.int64(0)
    binds = False
    for k in range(34):
        m = S.melded[s, k]
        binds |= m > 0 and counts[k] + m + n_wild > 4
        W.melded_caps[k] = 4 - m
    if not binds:
        return np.int64(0)
    return K.hand_cost(counts, S.n_melds[s], S.meld_flags[s], S.void[s],
                       families[:n_families], G.cfg[V.MELDS], G.kind_mask, G.honour_mask,
                       S.wild[s], W.melded_caps, G.tables,
                       (W.rows, W.left, W.right, W.cwork, W.per_family))


def _evaluate(G, S, W, s, counts, families, n_families):
    """Fewest tiles missing from a win of any of the first ``n_families`` rows of
    ``families`` (the shanten kernel's family rows)
    for ``counts`` as seat ``s``'s concealed tiles, its melds, wildcards and void suit as
    they stand; each family's own cost is left in ``W.per_family``.

    The kernel runs with every kind capped at 4 (its fast path): above 0 the cost can only
    be lower than the capped one, in the rare hands whose nearest win needs a melded copy,
    and the bots read it as a guide only. A cost of 0 — a win, which the win test,
    readiness and waits read — is exact: where a wild tile could stand for a melded copy,
    :func:`_no_fifth_copy` asks again with the melds' copies capped (as
    :func:`mjsim.is_win`, waits and shanten count them).
    """
    c = _hand_cost(counts, S.n_melds[s], S.meld_flags[s], S.void[s], families[:n_families],
                   G.cfg[V.MELDS], G.kind_mask, G.honour_mask, S.wild[s], W.caps, G.tables,
                   W.rows, W.left, W.right, W.cwork, W.per_family)
    return c if c != 0 else _no_fifth_copy(G, S, W, s, counts, families, n_families)


#: :func:`evaluate` with the kernel inlined into its caller: only for the bots' innermost
#: loops (each use compiles the kernel once more); everywhere else :func:`evaluate` calls it
evaluate_inline = njit_inline(_evaluate)


@njit_inline
def evaluate(G, S, W, s, counts, families, n_families):
    """:func:`_evaluate` through a call of the kernel with only the arrays it reads (a call
    with the whole rule set, state and scratch tuples copies all their arrays, as long as
    the evaluation itself)."""
    c = K.hand_cost(counts, S.n_melds[s], S.meld_flags[s], S.void[s],
                    families[:n_families], G.cfg[V.MELDS], G.kind_mask, G.honour_mask,
                    S.wild[s], W.caps, G.tables, (W.rows, W.left, W.right, W.cwork,
                                                  W.per_family))
    return c if c != 0 else _no_fifth_copy(G, S, W, s, counts, families, n_families)


@njit_inline
def cost(G, S, W, s, counts):
    """:func:`evaluate` over the rule set's scoring families, which come first in
    ``G.families`` (the hand's shanten + 1)."""
    return evaluate(G, S, W, s, counts, G.families, G.cfg[V.N_SCORING])


@njit_inline
def can_add(S, s, counts, t):
    """Whether seat ``s`` may hold one more ``t`` (never a fifth copy)."""
    return counts[t] + S.melded[s, t] < 4


@njit_borrowed
def wild_held(S, s, counts):
    """How many of ``counts`` are wild for seat ``s``."""
    n = 0
    for k in range(34):
        if S.wild[s, k]:
            n += counts[k]
    return n


@njit_borrowed
def exposed_melds(S, s):
    """Seat ``s``'s exposed melds (chows, pungs, exposed and added kongs)."""
    n = 0
    for i in range(S.n_melds[s]):
        n += S.melds[s, i, M_TYPE] != MELD_CKONG
    return n


@njit_inline
def live(S, s, t):
    """Copies of ``t`` seat ``s`` cannot see: 4 minus his own and everyone's visible tiles."""
    n = 4 - S.concealed[s, t] - S.seen[t]
    return n if n > 0 else 0


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


@njit_inline
def n_waits(G, S, W, s, counts, aux, most):
    """The kinds (counted up to ``most``) on which seat ``s``'s 13 tiles ``counts`` (its
    melds as they stand) win, among those it may add, marked in ``W.waits``; with ``aux``
    the rule set's auxiliary families count too (假将 shapes). Only kinds that could win are
    tried: any where it holds a wild tile, else its wild kinds, the rule set's
    ``far_waits`` and the kinds held or near one held."""
    n = 0
    W.waits[:] = False
    free = wild_held(S, s, counts) > 0
    for t in range(34):
        if G.kind_mask[t] and can_add(S, s, counts, t) and (
                free or S.wild[s, t] or ((G.cfg[V.FAR_WAITS] >> t) & 1) != 0 or _near(counts, t)):
            counts[t] += 1
            done = evaluate(G, S, W, s, counts, G.families, G.families.shape[0]) == 0 if aux \
                else cost(G, S, W, s, counts) == 0
            counts[t] -= 1
            W.waits[t] = done
            n += done
            if n >= most:
                break
    return n


@njit_inline
def waits_on(G, S, W, s, aux):
    """Whether seat ``s``'s 13 tiles win on some tile it may add (:func:`n_waits`)."""
    return n_waits(G, S, W, s, S.concealed[s], aux, np.int64(1)) > 0


@njit_borrowed
def dealer_first_turn(S, s):
    """Whether seat ``s`` is the dealer on his first turn, before any kong (天胡 time)."""
    return S.pos[P_TURNS] == 0 and s == S.pos[P_DEALER] and S.pos[P_KONGS] == 0


@njit_inline
def is_wild_kind(G, S, t):
    """Whether ``t`` is a kind of the turned indicator (``wild`` declared_draw): the
    indicator's kind or the next one in the rule set's kinds (none after a 9 unless
    ``wild_wraps``)."""
    k = S.pos[P_BAO]
    if k < 0:
        return False
    n = G.next_kinds[k]
    return t == k or (t == n and G.kind_mask[n] and (G.cfg[V.WILD_WRAPS] or n > k))
