"""The state of a hand in play: what the table shows and each seat holds, and its melds.

The engine's functions take three arguments, each read by field name:

- the state (:data:`STATE`, :func:`new_state`): what the table shows and each seat holds;
- the scratch (:data:`SCRATCH`, :func:`new_scratch`): a thread's work buffers;
- the rule set's arrays, :class:`mjsim.game.config.GameRules` (a named tuple).

State and scratch are each **one numpy record** whose fields are fixed-shape arrays:
numba passes a record to a compiled function as one pointer, where it passes a tuple as
every field of every array in it (the three tuples were 607 machine arguments on every call
of an engine function, which numba and LLVM built, copied and optimised at each of them:
``benchmarks/bench_compile.py`` measures the cold compile). A record holds no ``bool``
arrays (numba's limit), so masks are ``uint8``; :func:`wild_mask` and
:func:`kernel_scratch` hand the kernel the plain arrays it takes. How a hand is evaluated
is :mod:`mjsim.game.evaluation`.

>>> S = new_state()
>>> S.concealed.shape, S.melds.shape, int(S.void[0])
((4, 34), (4, 5, 3), -2)
"""

from __future__ import annotations

import numpy as np

from ..kernels import shanten as K
from ..kernels.jit import njit_borrowed, njit_inline
from ..kernels.shanten import (
    MELD_CHOW,
    MELD_CKONG,
    MELD_KONG,
    MELD_PUNG,
    meld_flags,
)
from . import values as V

#: columns of a meld row: its first kind, its type, the seat it was claimed from (−1: own)
M_KIND, M_TYPE, M_FROM = range(3)
#: per-seat status columns (``State.status``)
#: (``ready``: one tile from a win by cost; ``tenpai``: after the seat's last discard, its 13
#: tiles win on a tile it may add, tested tile by tile where declaring or liability needs it;
#: ``push``: 推出 — 0 not yet weighed, :data:`PUSH_NONE` weighed and not made, else the kind
#: of the pair set aside + :data:`PUSH_NONE` + 1; ``ron``: a win-or-pass choice made for the
#: seat's next chance to win on another's tile, :data:`RON_BOT` … :data:`RON_PASS`;
#: ``passed``: 1 once the seat has passed a win on another's discard this hand; ``claim``: a
#: claim choice made for the seat on the discard now claimed, :data:`CLAIM_BY_BOT` …)
STATUS = (
    "locked",
    "declared",
    "pass_bar",
    "pass_kind",
    "pass_turn",
    "sixi_done",
    "lls_done",
    "ready",
    "bonus",
    "qishou_done",
    "key",
    "cost",
    "tenpai",
    "push",
    "ron",
    "passed",
    "claim",
)
(
    ST_LOCKED,
    ST_DECLARED,
    ST_PASS_BAR,
    ST_PASS_KIND,
    ST_PASS_TURN,
    ST_SIXI_DONE,
    ST_LLS_DONE,
    ST_READY,
    ST_BONUS,
    ST_QS_DONE,
    ST_KEY,
    ST_COST,
    ST_TENPAI,
    ST_PUSH,
    ST_RON,
    ST_PASSED,
    ST_CLAIM,
) = range(len(STATUS))
PUSH_NONE = 1
#: ``status[s, ST_RON]``: the seat's bot decides; it wins; it passes (a search seat's rollouts)
RON_BOT, RON_WIN, RON_PASS = range(3)
#: ``status[s, ST_CLAIM]``: the seat's bot decides; it declines the discard; it pungs it; it
#: chows it from kind ``k`` (``CLAIM_TAKE_CHOW + k``) (a search seat's rollouts)
CLAIM_BY_BOT, CLAIM_DECLINE, CLAIM_TAKE_PUNG, CLAIM_TAKE_CHOW = range(4)
#: positions in ``State.pos``
#: (``replaced``: whether the last draw replaced a bonus tile; ``dead``: bonus tiles turned
#: while turning the wildcard indicator at the deal, set aside as nobody's; ``last``: the
#: kind of the last discard while nobody has claimed since, else −1; ``bao``: the kind of
#: the reserve's indicator turned at the first 报听, else −1, at reserve slot ``bao_slot``
#: (0: the wall's last tile); ``reserved``: the reserve slots used, a bit each;
#: ``bao_changes``: 换宝 so far; ``wild_draw``: how the win being valued uses a declared
#: seat's drawn tile (:data:`DRAW_NATURAL` …) and ``wild_tile`` that tile's kind)
POSITIONS = (
    "head",
    "tail",
    "turns",
    "kongs",
    "open_kongs",
    "dealer",
    "winner",
    "replaced",
    "dead",
    "last",
    "bao",
    "bao_slot",
    "reserved",
    "bao_changes",
    "wild_draw",
    "wild_tile",
)
(
    P_HEAD,
    P_TAIL,
    P_TURNS,
    P_KONGS,
    P_OPEN_KONGS,
    P_DEALER,
    P_WINNER,
    P_REPLACED,
    P_DEAD,
    P_LAST,
    P_BAO,
    P_BAO_SLOT,
    P_RESERVED,
    P_BAO_CHANGES,
    P_WILD_DRAW,
    P_WILD_TILE,
) = range(len(POSITIONS))
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

#: columns of ``Scratch.trials`` (:func:`mjsim.game.evaluation.kernel_trials`): a kind
#: taken out of the hand or −1, a kind put in or −1, the trial's weight
TRIAL_OUT, TRIAL_IN, TRIAL_WEIGHT = range(3)
#: the most family rows a rule set may have (``Scratch.close``; checked by the game config)
MAX_FAMILIES = 16
_I64, _U8 = np.int64, np.uint8

#: what the table shows and each seat holds: (field, dtype, shape) of one numpy record
STATE = (
    ("concealed", _U8, (4, 34)),  # each seat's concealed tiles
    ("melded", _I64, (4, 34)),  # tiles in each seat's melds (4 - melded caps the concealed)
    ("melds", _I64, (4, MAX_MELDS, 3)),  # M_KIND, M_TYPE, M_FROM of each meld
    ("n_melds", _I64, (4,)),
    ("meld_flags", _I64, (4,)),  # the shanten kernel's flags of each seat's melds
    ("seen", _I64, (34,)),  # tiles everyone sees (discards, melds, revealed tiles)
    ("discards", _I64, (4, 34)),  # each seat's discards by kind
    ("status", _I64, (4, len(STATUS))),  # the ST_* columns
    ("wild", _U8, (4, 34)),  # 1: the kinds wild for each seat now (wild_mask)
    ("void", _I64, (4,)),  # each seat's void suit (0-2), or NO_VOID
    ("pos", _I64, (len(POSITIONS),)),  # wall positions and counters (P_*)
    ("pay", _I64, (MAX_SOURCES, 4)),  # net payments by source and seat
    ("units", _I64, (4,)),  # the value of each winner's hand (scoring model's units)
    ("bits", _I64, (4,)),  # each winner's pattern bits
    ("model", _I64, (MODEL_SLOTS,)),  # the scoring model's facts of this hand
    ("carry", _I64, (CARRY_SLOTS,)),  # the scoring model's facts carried from hand to hand
    # of a game (kept by reset_state; a game starts at 0)
)

_KERNEL = K.make_scratch()
#: a thread's work buffers: (field, dtype, shape) of one numpy record
SCRATCH = (
    ("rows", _I64, _KERNEL[0].shape),  # the shanten kernel's buffers (kernel_scratch)
    ("left", _I64, _KERNEL[1].shape),
    ("right", _I64, _KERNEL[2].shape),
    *((f"cwork{i}", _I64, a.shape) for i, a in enumerate(_KERNEL[3])),
    ("per_family", _I64, _KERNEL[4].shape),
    ("caps", _I64, (34,)),  # always 4 (see evaluate)
    ("melded_caps", _I64, (34,)),  # 4 minus a seat's melded copies (see _no_fifth_copy)
    ("hits", _I64, (4,)),  # scoring work (birds hitting each seat)
    ("birds", _I64, (8,)),  # scoring work (bird tiles)
    ("counts", _I64, (8,)),  # scoring work (pattern counts)
    ("keys", _I64, (34,)),  # a bot's key for each discard
    ("raw_keys", _I64, (34,)),  # the same before the cautious bot's danger
    ("bases", _I64, (34,)),  # the cost behind each key
    ("improvers", _I64, (34,)),  # kinds that improve the hand
    ("close", _I64, (MAX_FAMILIES, K.FAMILY_COLUMNS)),  # the families a bot still weighs
    ("claimed", _U8, (8,)),  # 1: which revealed tiles are taken (开杠)
    ("offered", _I64, (8,)),  # the tiles a win may be claimed on (a discard, 开杠 reveals)
    ("tiles", _I64, (4,)),  # the tile each claimant wins on
    ("order", _I64, (4,)),  # winners in payment order
    ("hands", _U8, (1, 4, 34)),  # the deal pipeline's output row
    ("dealt_bonus", _U8, (1, 4)),
    ("first_draw", np.int8, (1, 4)),
    ("pending", _I64, (4,)),
    ("tiles34", _U8, (34,)),  # a hand to evaluate beside the state (起手胡 with melds)
    ("no_wild", _U8, (34,)),  # all 0 (a hand evaluated with its wild tiles as themselves)
    ("waits", _U8, (34,)),  # 1: the winning kinds found by the last n_waits
    ("trials", _I64, (34, 3)),  # the kernel's trials (kernel_trials): TRIAL_* columns
    ("trial_cost", _I64, (34,)),  # each trial's cost
    ("trial_big", _I64, (34,)),  # each trial's lowest cost of a big-win family
)
del _KERNEL


def _record(fields) -> np.recarray:
    """One zeroed record of ``fields``, its fields read and written by name in Python and
    in compiled code."""
    return np.zeros(1, np.dtype(list(fields), align=True)).view(np.recarray)[0]


def new_state() -> np.record:
    """Empty state arrays for one thread (see :data:`STATE`).

    >>> S = new_state()
    >>> S.concealed.shape, S.melds.shape, int(S.void[0])
    ((4, 34), (4, 5, 3), -2)
    """
    S = _record(STATE)
    S.void[:] = NO_VOID
    return S


def new_scratch() -> np.record:
    """A thread's buffers (see :data:`SCRATCH`)."""
    W = _record(SCRATCH)
    W.caps[:] = 4
    W.melded_caps[:] = 4
    return W


@njit_inline
def kernel_scratch(W):
    """The shanten kernel's buffers as :func:`mjsim.kernels.shanten.hand_cost` takes them
    (plain arrays, as the deal pipeline passes them: a record's whole field is typed apart)."""
    return (
        W.rows[:],
        W.left[:],
        W.right[:],
        (W.cwork0[:], W.cwork1[:], W.cwork2[:], W.cwork3[:]),
        W.per_family[:],
    )


@njit_inline
def wild_mask(S, s):
    """Seat ``s``'s wild kinds as the kernel's ``bool[34]`` mask."""
    return S.wild[s].view(np.bool_)


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


@njit_inline
def copy_array(a, b):
    """Array ``a`` into ``b`` of its shape (an array assignment would need numba's runtime;
    inlined: it is typed for each field's array type)."""
    for i in np.ndindex(a.shape):
        b[i] = a[i]


@njit_borrowed
def copy_state(S, to):
    """Every field of state ``S`` into state ``to`` (a search's world and its rollouts)."""
    copy_array(S.concealed, to.concealed)
    copy_array(S.melded, to.melded)
    copy_array(S.melds, to.melds)
    copy_array(S.n_melds, to.n_melds)
    copy_array(S.meld_flags, to.meld_flags)
    copy_array(S.seen, to.seen)
    copy_array(S.discards, to.discards)
    copy_array(S.status, to.status)
    copy_array(S.wild, to.wild)
    copy_array(S.void, to.void)
    copy_array(S.pos, to.pos)
    copy_array(S.pay, to.pay)
    copy_array(S.units, to.units)
    copy_array(S.bits, to.bits)
    copy_array(S.model, to.model)
    copy_array(S.carry, to.carry)


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
