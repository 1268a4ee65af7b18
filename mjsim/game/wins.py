"""Wins: the win test, readiness, and the settlement of a win by the scoring model.

Whether a seat's tiles win (a complete hand, wild tiles standing for any tile, 三财神), what
the scoring model says the win is worth, whether a hand is ready (by cost, or tile by tile),
and the record's win columns once the model has settled who pays
(:mod:`mjsim.game.scoring`).
"""

from __future__ import annotations

import numpy as np

from ..kernels.jit import njit_borrowed
from ..tables.suits import INF
from . import bots as B
from . import record as R
from . import scoring as SC
from . import values as V
from .evaluation import cost, evaluate, lone_wild, n_waits, waits_on
from .shape import wait_shape
from .state import (
    DRAW_FOURTH,
    DRAW_NATURAL,
    DRAW_ON_READY,
    DRAW_WILD,
    P_REPLACED,
    P_TURNS,
    P_WILD_DRAW,
    P_WILD_TILE,
    P_WINNER,
    PUSH_NONE,
    ST_BONUS,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    ST_PUSH,
    ST_READY,
    ST_TENPAI,
    can_add,
    dealer_first_turn,
    exposed_melds,
    find_pung,
    is_wild_kind,
    live,
    wild_held,
)
from .wall import NO_TILE


@njit_borrowed
def _wild_draw(G, S, s, t):
    """How seat ``s``'s drawn ``t`` may stand for any tile (``DRAW_*``): a declared seat's
    indicator kind (摸宝), or the fourth of its concealed triplet (or of its pung where
    ``wild_fourth`` says so: 大风)."""
    if G.cfg[V.WILD] != V.WILD_DECLARED_DRAW or t < 0 or not S.status[s, ST_DECLARED]:
        return DRAW_NATURAL
    if is_wild_kind(G, S, t):
        return DRAW_WILD
    fourth = G.cfg[V.WILD_FOURTH]
    if fourth != V.FOURTH_NONE and (
        S.concealed[s, t] == 4 or (fourth == V.FOURTH_ANY and find_pung(S, s, t) >= 0)
    ):
        return DRAW_FOURTH
    return DRAW_NATURAL


@njit_borrowed
def draw_win_kind(G, S, kind):
    """The kind of a self-drawn win on the tile just drawn: ``kind``, or 杠上开花 where it
    replaced a bonus tile and ``bonus_gangkai`` says so."""
    if G.cfg[V.BONUS_GANGKAI] and S.pos[P_REPLACED]:
        return np.int64(R.WIN_GANGKAI)
    return np.int64(kind)


@njit_borrowed
def _aux_cost(G, W):
    """The lowest cost of the auxiliary families, from the last evaluation of all families."""
    best = INF
    for f in range(G.cfg[V.N_SCORING], G.families.shape[0]):
        best = min(best, W.per_family[f])
    return best


@njit_borrowed
def _wild_win(G, S, s, counts, win_kind):
    """Whether ``counts`` hold enough wild tiles to win by self-draw whatever the shape
    (``wild_win``, 三财神)."""
    return (
        G.cfg[V.WILD_WIN] > 0
        and R.self_drawn(win_kind)
        and wild_held(S, s, counts) >= G.cfg[V.WILD_WIN]
    )


@njit_borrowed
def _lone_wild_win(G, S, s, counts, win_kind, tile):
    """Whether ``tile`` self-drawn completes seat ``s``'s ``counts`` (the tile in them) as a
    lone wild tile's pair (:func:`mjsim.game.evaluation.lone_wild`: any tile, even where
    the wild tile would stand for a fifth copy)."""
    if tile < 0 or not R.self_drawn(win_kind) or not G.cfg[V.LONE_WILD]:
        return False
    counts[tile] -= 1
    done = lone_wild(G, S, s, counts)
    counts[tile] += 1
    return done


@njit_borrowed
def win_test(G, S, W, s, win_kind, tile):
    """``(legal, units, bits)`` of seat ``s``'s concealed tiles as they stand (14), won on
    ``tile``: a complete hand, one with ``wild_win`` wild tiles self-drawn, or a lone wild
    tile's pair self-drawn (``lone_wild``), as the scoring model values it."""
    counts = S.concealed[s]
    if (
        G.cfg[V.DECLARE] == V.DECLARE_REQUIRED
        and not S.status[s, ST_DECLARED]
        and not (G.cfg[V.DECLARE_FIRST_FREE] and dealer_first_turn(S, s))
    ):
        return False, 0, 0
    if S.status[s, ST_PUSH] > PUSH_NONE and tile != S.status[s, ST_PUSH] - PUSH_NONE - 1:
        return False, 0, 0  # 推出: only the pair set aside wins
    if (
        evaluate(G, S, W, s, counts, G.families, G.families.shape[0]) != 0
        and not _wild_win(G, S, s, counts, win_kind)
        and not _lone_wild_win(G, S, s, counts, win_kind, tile)
    ):
        return False, 0, 0
    return SC.win_value(G, W, counts, S, s, win_kind, tile)


@njit_borrowed
def _relabel_wild(G, S, s, t):
    """Seat ``s``'s wild tiles of kind ``t`` moved to a kind ``j`` it holds none of, wild in
    their place, so that one more ``t`` is a natural tile (``wild_discard`` natural);
    returns ``j`` (:func:`_unlabel_wild` undoes it)."""
    counts = S.concealed[s]
    for j in range(34):
        if G.kind_mask[j] and counts[j] == 0 and j != t and not S.wild[s, j]:
            counts[j] = counts[t]
            counts[t] = 0
            S.wild[s, t] = False
            S.wild[s, j] = True
            return j
    return -1  # unreachable: a hand holds far fewer than 33 kinds


@njit_borrowed
def _unlabel_wild(S, s, t, j):
    """Undo :func:`_relabel_wild`."""
    counts = S.concealed[s]
    counts[t] = counts[j]
    counts[j] = 0
    S.wild[s, j] = False
    S.wild[s, t] = True


@njit_borrowed
def win_test_on(G, S, W, s, t, win_kind):
    """:func:`win_test` with tile ``t`` added for the test only; a wild kind's tile from another
    player counts as its natural kind where ``wild_discard`` says so."""
    if not can_add(S, s, S.concealed[s], t):
        return False, 0, 0
    if (
        G.cfg[V.WILD_DISCARD] == V.DISCARD_BARRED
        and not R.self_drawn(win_kind)
        and is_wild_kind(G, S, t)
    ):
        return False, 0, 0
    j = -1
    if G.cfg[V.WILD_DISCARD] == V.DISCARD_NATURAL and S.wild[s, t] and not R.self_drawn(win_kind):
        j = _relabel_wild(G, S, s, t)
    S.concealed[s, t] += 1
    out = win_test(G, S, W, s, win_kind, t)
    S.concealed[s, t] -= 1
    if j >= 0:
        _unlabel_wild(S, s, t, j)
    return out


@njit_borrowed
def _win_as_any(G, S, W, s, t, win_kind, how):
    """Seat ``s``'s win with its tile ``t`` standing for whichever tile is worth most
    (``how``: ``DRAW_*``); its units and bits in the state, the tile it stands for in
    ``W.tiles[s]``. ``t`` stays in the hand as itself."""
    counts = S.concealed[s]
    counts[t] -= 1
    S.pos[P_WILD_DRAW] = how
    S.pos[P_WILD_TILE] = t
    best = np.int64(-1)
    for w in range(34):
        if G.kind_mask[w] and can_add(S, s, counts, w):
            counts[w] += 1
            legal, u, b = win_test(G, S, W, s, win_kind, np.int64(w))
            counts[w] -= 1
            if legal and u > best:
                best = u
                S.units[s] = u
                S.bits[s] = b
                W.tiles[s] = w
    counts[t] += 1
    if best < 0:
        S.pos[P_WILD_DRAW] = DRAW_NATURAL
    return best >= 0


@njit_borrowed
def self_win(G, S, W, s, t, win_kind, fresh):
    """Whether seat ``s`` wins on the tile ``t`` it drew (its units and bits in the state): a
    declared seat's wild draw (:func:`_wild_draw`) stands for any tile; otherwise a normal
    draw (``fresh`` 1) completes only a hand that was ready. Every argument is an int64, so
    that it compiles once."""
    S.pos[P_WILD_DRAW] = DRAW_NATURAL
    how = _wild_draw(G, S, s, t)
    if how != DRAW_NATURAL:
        return _win_as_any(G, S, W, s, t, win_kind, how)
    if fresh and not S.status[s, ST_READY]:
        return False
    legal, u, b = win_test(G, S, W, s, win_kind, t)
    if legal:
        S.units[s] = u
        S.bits[s] = b
    return legal


@njit_borrowed
def mark_ready(G, S, W, s):
    """After seat ``s``'s hand changed (13 tiles): its cost, and ``ST_READY`` if one tile
    could complete it by cost (auxiliary 假将 shapes count where ``fake_pair`` is on; one wild
    tile short of ``wild_win`` counts)."""
    c = cost(G, S, W, s, S.concealed[s])
    S.status[s, ST_COST] = c
    ready = c == 1 or (
        G.cfg[V.WILD_WIN] > 0 and wild_held(S, s, S.concealed[s]) + 1 >= G.cfg[V.WILD_WIN]
    )
    if not ready and G.cfg[V.FAKE_PAIR]:
        evaluate(G, S, W, s, S.concealed[s], G.families, G.families.shape[0])
        ready = _aux_cost(G, W) == 1
    S.status[s, ST_READY] = ready


@njit_borrowed
def assess(G, S, W, s, bot, exact):
    """Seat ``s``'s key, cost and readiness from its 13 tiles as they are (as dealt, or as a
    search's world deals them anew); with ``exact``, its exact readiness too where a
    liability reads it (``feed_limit``)."""
    S.status[s, ST_KEY], S.status[s, ST_COST] = B.hand_key(G, S, W, s, S.concealed[s], bot)
    mark_ready(G, S, W, s)
    if exact and G.cfg[V.FEED_LIMIT] > 0:
        S.status[s, ST_TENPAI] = ready_exact(G, S, W, s)


@njit_borrowed
def ready_exact(G, S, W, s):
    """Whether seat ``s``'s 13 tiles win on some tile it may add (on another's tile; 假将
    shapes count where ``fake_pair`` is on)."""
    return S.status[s, ST_READY] and waits_on(G, S, W, s, G.cfg[V.FAKE_PAIR])


@njit_borrowed
def may_declare(G, S, s):
    """Whether seat ``s`` declares 报听 the moment its tiles are ready after a discard: the
    rules have 报听, it has not declared, and it keeps ``declare_min_concealed`` concealed
    tiles or more."""
    return (
        G.cfg[V.DECLARE] != V.DECLARE_NONE
        and not S.status[s, ST_DECLARED]
        and S.concealed[s].sum() >= G.cfg[V.DECLARE_MIN_CONCEALED]
    )


@njit_borrowed
def ready_undeclared(G, S, W, s):
    """Whether seat ``s``, which has discarded, holds 13 tiles (assessed: :func:`assess`)
    that are ready though it would have declared them after its discard
    (:func:`may_declare`): a hand it cannot hold undeclared, so a search's world that deals
    it is redrawn. (A seat yet to discard may hold a dealt ready hand undeclared.)"""
    return S.discards[s].sum() > 0 and may_declare(G, S, s) and ready_exact(G, S, W, s)


@njit_borrowed
def stays_ready(G, S, W, s):
    """Whether seat ``s``'s 13 tiles (its melds as they stand) are one tile from a win of a
    scoring family, tile by tile."""
    return cost(G, S, W, s, S.concealed[s]) == 1 and waits_on(G, S, W, s, np.int64(0))


@njit_borrowed
def record_ready(G, S, W, rec, s):
    """The first time seat ``s``'s tiles (13, or the hand size) win on some kind (tile by
    tile; 假将 shapes where ``fake_pair``): the turn (0: as dealt), the winning kinds, their
    live copies, the wait's shape (never 0), exposed melds; only in runs that ask for them
    (``readiness``)."""
    if not G.cfg[V.READINESS]:
        return
    aux = G.cfg[V.FAKE_PAIR]
    if n_waits(G, S, W, s, S.concealed[s], aux, np.int64(34)) == 0:
        return
    lo = 0
    hi = 0
    n_live = 0
    for t in range(34):
        if W.waits[t]:
            if t < R.WAITS_SPLIT:
                lo |= 1 << t
            else:
                hi |= 1 << (t - R.WAITS_SPLIT)
            n_live += live(S, s, t)
    rec[R.C_READY_TURN + s] = S.pos[P_TURNS]
    rec[R.C_READY_WAITS_LO + s] = lo
    rec[R.C_READY_WAITS_HI + s] = hi
    rec[R.C_READY_LIVE + s] = n_live
    n_families = G.families.shape[0] if aux else G.cfg[V.N_SCORING]
    rec[R.C_READY_SHAPE + s] = wait_shape(G, S, W, s, S.concealed[s], np.int64(n_families))
    if exposed_melds(S, s) > 0:
        rec[R.C_READY_OPEN] |= 1 << s


@njit_borrowed
def winner_order(winners, discarder, order):
    """Winners in turn order from the discarder's 下家 (a self-drawer alone) into ``order``;
    returns their number."""
    start = discarder
    if start < 0:
        for s in range(4):
            if (winners >> s) & 1:
                start = s - 1
                break
    n = 0
    for j in range(1, 5):
        w = (start + j) % 4
        if (winners >> w) & 1:
            order[n] = w
            n += 1
    return n


@njit_borrowed
def finish_win(G, S, W, wall, rec, winners, win_kind, discarder, tile):
    """Payments and the record's win columns for one win (one or several winners, whose
    units and bits are in the state); returns the first winner."""
    n_win = winner_order(winners, discarder, W.order[:])
    tsumo = R.self_drawn(win_kind)
    SC.settle(G, S, W, wall, rec, W.order[:], n_win, discarder, win_kind, tile)
    for i in range(n_win):
        w = W.order[i]
        rec[R.C_UNITS + w] = S.units[w]
        rec[R.C_PATTERNS + w] = S.bits[w]
    rec[R.C_OUTCOME] = R.OUT_WIN
    rec[R.C_WIN_KIND] = win_kind
    rec[R.C_WINNERS] = winners
    rec[R.C_N_WINNERS] = n_win
    rec[R.C_DISCARDER] = -1 if tsumo else discarder
    rec[R.C_WIN_TILE] = tile
    S.pos[P_WINNER] = W.order[0]
    return W.order[0]


@njit_borrowed
def bonus_tiles_win(G, S, W, wall, rec, s):
    """Whether seat ``s``'s bonus tiles set aside win at once (``bonus_win``, 八花齐); the
    win is settled as self-drawn."""
    if G.cfg[V.BONUS_WIN] <= 0 or S.status[s, ST_BONUS] < G.cfg[V.BONUS_WIN]:
        return False
    _legal, u, b = SC.win_value(
        G, W, S.concealed[s], S, s, np.int64(R.WIN_BONUS), np.int64(NO_TILE)
    )
    S.units[s] = u
    S.bits[s] = b
    finish_win(G, S, W, wall, rec, 1 << s, np.int64(R.WIN_BONUS), np.int64(-1), np.int64(NO_TILE))
    return True


@njit_borrowed
def win_on_ready(G, S, W, wall, rec, s):
    """对宝 (``wild_on_ready``): seat ``s`` just declared; a wild kind among its winning
    kinds wins at once, as a self-drawn wild tile (no tile is added). Returns whether."""
    best = np.int64(-1)
    for w in range(34):
        if G.kind_mask[w] and is_wild_kind(G, S, w):
            S.pos[P_WILD_DRAW] = DRAW_ON_READY
            S.pos[P_WILD_TILE] = w
            legal, u, b = win_test_on(G, S, W, s, np.int64(w), np.int64(R.WIN_ZIMO))
            if legal and u > best:
                best = u
                S.units[s] = u
                S.bits[s] = b
                W.tiles[s] = w
    if best < 0:
        S.pos[P_WILD_DRAW] = DRAW_NATURAL
        return False
    S.pos[P_WILD_TILE] = W.tiles[s]
    finish_win(G, S, W, wall, rec, 1 << s, np.int64(R.WIN_ZIMO), np.int64(-1), W.tiles[s])
    return True


@njit_borrowed
def seat_qishou(G, S, W, s, rec, dice_seed):
    """起手胡 of seat ``s`` on its tiles with its melds' (a scripted start may have melds)."""
    counts = W.tiles34[:]
    for k in range(34):
        counts[k] = S.concealed[s, k] + S.melded[s, k]
    return SC.qishou(G, S, W, s, counts, rec, dice_seed)
