"""The turn engine: one hand (局) of play from a shuffled wall to its record (RULES.md §0.6).

One engine for every rule set: where rule sets differ in how a hand runs, the engine reads
a value (:mod:`mjsim.game.values`); what a win is worth and who pays is the scoring model's
(:mod:`mjsim.game.scoring`). The deal is the deal pipeline's own
(:func:`mjsim.kernels.deal.deal_one`), so a played hand and a dealt hand with the same seed
and index start from the same tiles. A hand then runs:

1. 定缺 (``void``): each seat declares its void suit (:func:`mjsim.game.bots.choose_void`).
2. 起手胡 (``qishou``): each count settled by the scoring model.
3. Turns: draw (bonus tiles set aside and replaced from the tail), mid-game wins
   (``mid_game``), self-drawn win, kongs — a replacement kong (补张) drawing from the tail,
   an opening kong (开杠, ``open_kong``) revealing tail tiles and locking the hand, added
   kongs open to 抢杠 — and a discard, with 报听 where ``declare`` allows it.
4. Claims on a discard: wins (``multi_win``, barred by ``pass_bar``), then kong or pung
   from anyone, then chow (``chow``).
5. The end of the wall (``wall_end``): a draw when it is empty, or 海底.

Decisions come from :mod:`mjsim.game.bots`; the record's columns are
:mod:`mjsim.game.record`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.deal import deal_one, shuffle_into
from ..kernels.jit import njit_borrowed
from ..kernels.rng import index_seed
from ..kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from ..tables.suits import INF
from . import bots as B
from . import policy as POL
from . import record as R
from . import scoring as SC
from . import values as V
from .shape import wait_shape
from .state import (CARRY_SLOTS, DRAW_FOURTH, DRAW_NATURAL, DRAW_ON_READY, DRAW_WILD, M_KIND,
                    M_TYPE, MODEL_SLOTS, P_BAO, P_BAO_CHANGES, P_BAO_SLOT, P_DEAD, P_DEALER,
                    P_HEAD, P_KONGS, P_LAST, P_OPEN_KONGS, P_REPLACED, P_RESERVED, P_TAIL,
                    P_TURNS, P_WILD_DRAW, P_WILD_TILE, P_WINNER, POSITIONS, PUSH_NONE, STATUS,
                    ST_BONUS, ST_COST, ST_DECLARED, ST_KEY, ST_LOCKED, ST_PUSH, ST_TENPAI,
                    ST_PASS_BAR, ST_PASS_KIND, ST_PASS_TURN, ST_QS_DONE, ST_READY, ST_RON,
                    ST_PASSED, ST_CLAIM, MAX_MELDS, RON_BOT, RON_PASS,
                    CLAIM_BY_BOT, CLAIM_DECLINE, CLAIM_TAKE_CHOW, CLAIM_TAKE_PUNG,
                    add_meld, can_add, cost, dealer_first_turn, evaluate, exposed_melds,
                    find_pung, is_wild_kind, live, n_waits, pop_meld,
                    reset_state, upgrade_pung, waits_on, wild_held)

# kong decisions
KONG_NONE, KONG_REPLACE, KONG_OPEN = range(3)
# claims on a discard
CLAIM_NONE, CLAIM_CHOW, CLAIM_PUNG, CLAIM_KONG, CLAIM_OPEN_KONG = range(5)
#: no tile (a draw from an empty wall, no tile drawn this turn)
NO_TILE = -1
#: no tile: the bonus tiles just set aside win at once (八花齐)
BONUS_WON = -2
#: the final state written for a replay (``play_games``' ``final``): name -> size
FINAL = (("concealed", 4 * 34), ("melded", 4 * 34), ("melds", 4 * MAX_MELDS * 3),
         ("n_melds", 4), ("seen", 34), ("status", 4 * len(STATUS)), ("void", 4),
         ("pos", len(POSITIONS)), ("model", MODEL_SLOTS), ("carry", CARRY_SLOTS))
FINAL_SIZE = sum(size for _, size in FINAL)


# --------------------------------------------------------------------------- small steps


@njit_borrowed
def _live(G, S):
    """Tiles left to draw: the live wall less the reserve."""
    return S.pos[P_TAIL] - S.pos[P_HEAD] - G.cfg[V.RESERVE]


@njit_borrowed
def _reserve_take(G, S, wall, lo, hi):
    """The tile of the first unused reserve slot ``lo .. hi`` (0: the wall's last tile), the
    face-down indicator's slot skipped, now used; −1 when none is left."""
    for r in range(lo, min(hi, G.cfg[V.RESERVE] - 1) + 1):
        if (S.pos[P_RESERVED] >> r) & 1 == 0 and r != S.pos[P_BAO_SLOT]:
            S.pos[P_RESERVED] |= 1 << r
            return np.int64(wall[wall.size - 1 - r])
    return np.int64(-1)


@njit_borrowed
def _tail_tile(G, S, wall):
    """The next replacement tile: from a reserve that stays in place while it has some
    (``reserve_replace``), else the end of the live wall (past a fixed reserve)."""
    if G.cfg[V.RESERVE_REPLACE] > 0:
        t = _reserve_take(G, S, wall, np.int64(0), G.cfg[V.RESERVE_REPLACE])
        if t >= 0:
            return t
        S.pos[P_TAIL] -= 1
        return np.int64(wall[S.pos[P_TAIL] - G.cfg[V.RESERVE]])
    S.pos[P_TAIL] -= 1
    return np.int64(wall[S.pos[P_TAIL]])


@njit_borrowed
def _draw(G, S, wall, s, from_tail):
    """The next tile for seat ``s`` from the head (or the tail), bonus tiles set aside and
    replaced from the tail, now in its hand; :data:`NO_TILE` when nothing is left,
    :data:`BONUS_WON` when the bonus tiles set aside win (``bonus_win``: the caller settles
    it). ``P_REPLACED`` says whether a bonus tile was replaced."""
    tail = from_tail
    S.pos[P_REPLACED] = 0
    while _live(G, S) > 0:
        if tail:
            t = _tail_tile(G, S, wall)
        else:
            t = np.int64(wall[S.pos[P_HEAD]])
            S.pos[P_HEAD] += 1
        if not G.is_bonus[t]:
            S.concealed[s, t] += 1
            return t
        S.status[s, ST_BONUS] += 1
        S.pos[P_REPLACED] = 1
        if 0 < G.cfg[V.BONUS_WIN] <= S.status[s, ST_BONUS]:
            return BONUS_WON
        tail = True
    return NO_TILE


@njit_borrowed
def _bonus_win(G, S, W, wall, rec, s):
    """Whether seat ``s``'s bonus tiles set aside win at once (``bonus_win``, 八花齐); the
    win is settled as self-drawn."""
    if G.cfg[V.BONUS_WIN] <= 0 or S.status[s, ST_BONUS] < G.cfg[V.BONUS_WIN]:
        return False
    legal, u, b = SC.win_value(G, W, S.concealed[s], S, s, np.int64(R.WIN_BONUS),
                               np.int64(NO_TILE))
    S.units[s] = u
    S.bits[s] = b
    _finish_win(G, S, W, wall, rec, 1 << s, np.int64(R.WIN_BONUS), np.int64(-1),
                np.int64(NO_TILE))
    return True


@njit_borrowed
def _turn_indicator(G, S, wall, r):
    """The reserve's tile at slot ``r`` becomes the indicator: face up (used, seen by all)
    unless ``wild_hidden``, where it stays in the reserve, seen by no one."""
    k = np.int64(wall[wall.size - 1 - r])
    S.pos[P_BAO] = k
    S.pos[P_BAO_SLOT] = r
    if not G.cfg[V.WILD_HIDDEN]:
        S.pos[P_RESERVED] |= 1 << r
        S.seen[k] += 1


@njit_borrowed
def _change_indicator(G, S, wall):
    """换宝 (``wild_change``): while every usable wild tile (or three) is visible, the next
    unused reserve slot after the indicator's gives the new one (the old one stays dead)."""
    if G.cfg[V.WILD_CHANGE] == V.CHANGE_NEVER:
        return
    while S.pos[P_BAO] >= 0:
        k = S.pos[P_BAO]
        n = G.next_kinds[k]
        other = n != k and is_wild_kind(G, S, n)
        visible = S.seen[k] - (0 if G.cfg[V.WILD_HIDDEN] else 1) + (S.seen[n] if other else 0)
        usable = 3 + (4 if other else 0)
        if visible < (usable if G.cfg[V.WILD_CHANGE] == V.CHANGE_ALL else 3):
            return
        r = S.pos[P_BAO_SLOT] + 1
        while r < G.cfg[V.RESERVE] and (S.pos[P_RESERVED] >> r) & 1:
            r += 1
        if r >= G.cfg[V.RESERVE]:
            return  # no reserve tile left to turn
        S.pos[P_RESERVED] |= 1 << S.pos[P_BAO_SLOT]
        _turn_indicator(G, S, wall, r)
        S.pos[P_BAO_CHANGES] += 1


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
    if fourth != V.FOURTH_NONE and (S.concealed[s, t] == 4 or
                                    (fourth == V.FOURTH_ANY and find_pung(S, s, t) >= 0)):
        return DRAW_FOURTH
    return DRAW_NATURAL


@njit_borrowed
def _self_kind(G, S, kind):
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
    return G.cfg[V.WILD_WIN] > 0 and R.self_drawn(win_kind) and \
        wild_held(S, s, counts) >= G.cfg[V.WILD_WIN]


@njit_borrowed
def _win(G, S, W, s, win_kind, tile):
    """``(legal, units, bits)`` of seat ``s``'s concealed tiles as they stand (14), won on
    ``tile``: a complete hand, or one with ``wild_win`` wild tiles self-drawn, as the
    scoring model values it."""
    counts = S.concealed[s]
    if G.cfg[V.DECLARE] == V.DECLARE_REQUIRED and not S.status[s, ST_DECLARED] and not (
            G.cfg[V.DECLARE_FIRST_FREE] and dealer_first_turn(S, s)):
        return False, 0, 0
    if S.status[s, ST_PUSH] > PUSH_NONE and tile != S.status[s, ST_PUSH] - PUSH_NONE - 1:
        return False, 0, 0  # 推出: only the pair set aside wins
    if evaluate(G, S, W, s, counts, G.families, G.families.shape[0]) != 0 and \
            not _wild_win(G, S, s, counts, win_kind):
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
def _win_on(G, S, W, s, t, win_kind):
    """:func:`_win` with tile ``t`` added for the test only; a wild kind's tile from another
    player counts as its natural kind where ``wild_discard`` says so."""
    if not can_add(S, s, S.concealed[s], t):
        return False, 0, 0
    if G.cfg[V.WILD_DISCARD] == V.DISCARD_BARRED and not R.self_drawn(win_kind) and \
            is_wild_kind(G, S, t):
        return False, 0, 0
    j = -1
    if G.cfg[V.WILD_DISCARD] == V.DISCARD_NATURAL and S.wild[s, t] and \
            not R.self_drawn(win_kind):
        j = _relabel_wild(G, S, s, t)
    S.concealed[s, t] += 1
    out = _win(G, S, W, s, win_kind, t)
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
            legal, u, b = _win(G, S, W, s, win_kind, np.int64(w))
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
def _self_win(G, S, W, s, t, win_kind, fresh):
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
    legal, u, b = _win(G, S, W, s, win_kind, t)
    if legal:
        S.units[s] = u
        S.bits[s] = b
    return legal


@njit_borrowed
def _mark_ready(G, S, W, s):
    """After seat ``s``'s hand changed (13 tiles): its cost, and ``ST_READY`` if one tile
    could complete it by cost (auxiliary 假将 shapes count where ``fake_pair`` is on; one wild
    tile short of ``wild_win`` counts)."""
    c = cost(G, S, W, s, S.concealed[s])
    S.status[s, ST_COST] = c
    ready = c == 1 or (G.cfg[V.WILD_WIN] > 0 and
                       wild_held(S, s, S.concealed[s]) + 1 >= G.cfg[V.WILD_WIN])
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
    _mark_ready(G, S, W, s)
    if exact and G.cfg[V.FEED_LIMIT] > 0:
        S.status[s, ST_TENPAI] = _ready_exact(G, S, W, s)


@njit_borrowed
def _ready_exact(G, S, W, s):
    """Whether seat ``s``'s 13 tiles win on some tile it may add (on another's tile; 假将
    shapes count where ``fake_pair`` is on)."""
    return S.status[s, ST_READY] and waits_on(G, S, W, s, G.cfg[V.FAKE_PAIR])


@njit_borrowed
def may_declare(G, S, s):
    """Whether seat ``s`` declares 报听 the moment its tiles are ready after a discard: the
    rules have 报听, it has not declared, and it keeps ``declare_min_concealed`` concealed
    tiles or more."""
    return G.cfg[V.DECLARE] != V.DECLARE_NONE and not S.status[s, ST_DECLARED] and \
        S.concealed[s].sum() >= G.cfg[V.DECLARE_MIN_CONCEALED]


@njit_borrowed
def ready_undeclared(G, S, W, s):
    """Whether seat ``s``, which has discarded, holds 13 tiles (assessed: :func:`assess`)
    that are ready though it would have declared them after its discard
    (:func:`may_declare`): a hand it cannot hold undeclared, so a search's world that deals
    it is redrawn. (A seat yet to discard may hold a dealt ready hand undeclared.)"""
    return S.discards[s].sum() > 0 and may_declare(G, S, s) and _ready_exact(G, S, W, s)


@njit_borrowed
def _stays_ready(G, S, W, s):
    """Whether seat ``s``'s 13 tiles (its melds as they stand) are one tile from a win of a
    scoring family, tile by tile."""
    return cost(G, S, W, s, S.concealed[s]) == 1 and waits_on(G, S, W, s, np.int64(0))


@njit_borrowed
def _barred(G, S, o, discarder, t):
    """``pass_bar`` 过手: seat ``o`` may not win on another's tile until its own next
    discard, unless the follow exception lets it win its 下家's immediate same-kind discard."""
    st = S.status
    if not st[o, ST_PASS_BAR]:
        return False
    if G.cfg[V.PASS_BAR] == V.PASS_SAME_KIND:
        return (st[o, ST_PASS_BAR] >> t) & 1 == 1
    return not (G.cfg[V.PASS_FOLLOW_EXCEPTION] and discarder == (o + 1) % 4
                and t == st[o, ST_PASS_KIND] and S.pos[P_TURNS] == st[o, ST_PASS_TURN] + 1)


@njit_borrowed
def _pass(G, S, o, t):
    """Seat ``o`` passed a win on ``t``: ``pass_bar`` bars it (过手: every tile of others
    until its next discard; the same kind: each kind passed, a bit each, until its next draw
    or claim)."""
    if G.cfg[V.PASS_BAR] == V.PASS_GUOSHOU:
        S.status[o, ST_PASS_BAR] = 1
        S.status[o, ST_PASS_KIND] = t
        S.status[o, ST_PASS_TURN] = S.pos[P_TURNS]
    elif G.cfg[V.PASS_BAR] == V.PASS_SAME_KIND:
        S.status[o, ST_PASS_BAR] |= 1 << t


@njit_borrowed
def _to_pile(S, s, t):
    S.seen[t] += 1
    S.discards[s, t] += 1


@njit_borrowed
def _meld_allowed(G, S, s, kind):
    """Whether seat ``s`` may meld ``kind`` (定缺: not its void suit unless ``void_melds``;
    not a wild kind unless ``wild_melds``)."""
    return (G.cfg[V.VOID_MELDS] or kind // 9 != S.void[s]) and \
        (G.cfg[V.WILD_MELDS] or not S.wild[s, kind])


# --------------------------------------------------------------------------- settlement


@njit_borrowed
def _winner_order(winners, discarder, order):
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
def _finish_win(G, S, W, wall, rec, winners, win_kind, discarder, tile):
    """Payments and the record's win columns for one win (one or several winners, whose
    units and bits are in the state); returns the first winner."""
    n_win = _winner_order(winners, discarder, W.order[:])
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
def _ron_claims(G, S, W, bots, discarder, n_offered, win_kind):
    """Seats that win on one of the ``n_offered`` tiles of ``W.offered`` from ``discarder``
    (bitmask), in turn order, each on its best tile (``W.tiles``); passes are barred by
    ``pass_bar``. ``multi_win`` first keeps only the first claimant; largest keeps the
    claimant whose hand the scoring model ranks highest (the first in turn order among
    equals). A seat wins or passes as its ``ST_RON`` choice says (a search seat's, made for
    this tile), else as its bot decides; the choices are then cleared."""
    winners = 0
    largest = np.int64(-1)
    top_rank = np.int64(-1)
    for j in range(1, 4):
        o = (discarder + j) % 4
        choice = S.status[o, ST_RON]
        if not S.status[o, ST_READY]:
            continue
        top = np.int64(-1)
        for i in range(n_offered):
            t = W.offered[i]
            if _barred(G, S, o, discarder, t):
                continue
            legal, u, b = _win_on(G, S, W, o, t, win_kind)
            if legal and u > top:
                top = u
                W.tiles[o] = t
                S.bits[o] = b
        if top < 0:
            continue
        if choice == RON_PASS or (choice == RON_BOT and not _must_win(G, S, o) and
                                  B.declines_ron(G, S, W, o, bots[o], top, _live(G, S))):
            _pass(G, S, o, W.tiles[o])
            S.status[o, ST_PASSED] = 1
            continue
        S.units[o] = top
        if G.cfg[V.MULTI_WIN] == V.MULTI_LARGEST:
            rank = SC.rank(G, top, S.bits[o])
            if rank > top_rank:
                largest, top_rank = o, rank
            continue
        winners |= 1 << o
        if G.cfg[V.MULTI_WIN] == V.MULTI_FIRST:
            break
    for o in range(4):
        S.status[o, ST_RON] = RON_BOT
    return winners if largest < 0 else 1 << largest


@njit_borrowed
def _must_win(G, S, o):
    """Whether seat ``o`` may not pass a win (a declared hand where the rules say so)."""
    return G.cfg[V.DECLARE_MUST_WIN] and S.status[o, ST_DECLARED]


@njit_borrowed
def may_pass_win(G, S, W, o, discarder, t):
    """Whether seat ``o`` may win on ``discarder``'s discard ``t`` and may pass it (the
    choice a search seat weighs, :func:`mjsim.game.search.win_or_pass`)."""
    if not S.status[o, ST_READY] or _barred(G, S, o, discarder, t) or _must_win(G, S, o):
        return False
    return _win_on(G, S, W, o, t, np.int64(R.WIN_DIANPAO))[0]


@njit_borrowed
def _win_on_discard(G, S, W, wall, rec, bots, discarder, t, win_kind, from_pile):
    """Claims to win on ``discarder``'s tile ``t`` (a discard or the 海底 tile thrown, both
    ``from_pile``, or a robbed kong tile); the tile goes to the first winner. Returns the
    first winner or −1."""
    W.offered[0] = t
    winners = _ron_claims(G, S, W, bots, discarder, np.int64(1), win_kind)
    if not winners:
        return -1
    S.seen[t] -= from_pile
    first = _finish_win(G, S, W, wall, rec, winners, win_kind, discarder, t)
    S.concealed[first, t] += 1
    return first


@njit_borrowed
def _qishou(G, S, W, s, rec, dice_seed):
    """起手胡 of seat ``s`` on its tiles with its melds' (a scripted start may have melds)."""
    counts = W.tiles34[:]
    for k in range(34):
        counts[k] = S.concealed[s, k] + S.melded[s, k]
    return SC.qishou(G, S, W, s, counts, rec, dice_seed)


# --------------------------------------------------------------------------- decisions


@njit_borrowed
def _kong_floor(G):
    """Tiles that must be left for a kong (its replacement; 海底 keeps the last tile)."""
    return 2 if G.cfg[V.WALL_END] == V.END_HAIDI else 1


@njit_borrowed
def _open_kong_ok(G, live):
    return G.cfg[V.OPEN_KONG] and live >= G.cfg[V.OPEN_KONG_TILES] + 1


@njit_borrowed
def _kong_candidate(S, s, counts):
    """Whether seat ``s`` holds four of a kind or the fourth tile of an exposed pung."""
    for k in range(34):
        if counts[k] == 4:
            return True
    for i in range(S.n_melds[s]):
        if S.melds[s, i, M_TYPE] == MELD_PUNG and counts[S.melds[s, i, M_KIND]] >= 1:
            return True
    return False


@njit_borrowed
def _own_kong(G, S, W, s, drawn, live):
    """``(kind, KONG_*)`` seat ``s`` declares from its 14 tiles, or ``(-1, KONG_NONE)``."""
    counts = S.concealed[s]
    locked = S.status[s, ST_LOCKED]
    if live < _kong_floor(G) or (locked and S.status[s, ST_DECLARED]):
        return -1, KONG_NONE
    open_ok = _open_kong_ok(G, live)
    if (locked and not open_ok) or not _kong_candidate(S, s, counts):
        return -1, KONG_NONE
    c14 = cost(G, S, W, s, counts)
    ready_before = c14 <= 1
    if drawn >= 0 and open_ok:
        counts[drawn] -= 1
        ready_before = _stays_ready(G, S, W, s)
        counts[drawn] += 1
    for k in range(34):
        i = find_pung(S, s, k) if counts[k] >= 1 else -1
        concealed = counts[k] == 4 and not locked
        if not concealed and (i < 0 or (locked and k != drawn)):
            continue
        if not _meld_allowed(G, S, s, k):
            continue
        if concealed:
            counts[k] -= 4
            add_meld(G, S, s, k, np.int64(MELD_CKONG), np.int64(-1))
        else:
            counts[k] -= 1
            upgrade_pung(G, S, s, i, np.int64(1))
        after = cost(G, S, W, s, counts)
        stays = open_ok and ready_before and after == 1 and _stays_ready(G, S, W, s)
        if concealed:
            pop_meld(G, S, s)
            counts[k] += 4
        else:
            upgrade_pung(G, S, s, i, np.int64(-1))
            counts[k] += 1
        if stays:
            return k, KONG_OPEN
        if not locked and G.cfg[V.REPLACEMENT_KONG] and after <= c14:
            return k, KONG_REPLACE
    return -1, KONG_NONE


@njit_borrowed
def _discard_kong(G, S, W, o, discarder, t, live):
    """The kong seat ``o`` (holding three) would make on ``discarder``'s ``t``: ``KONG_*``."""
    if S.status[o, ST_LOCKED] or live < _kong_floor(G):
        return KONG_NONE
    c13 = S.status[o, ST_COST]
    S.concealed[o, t] -= 3
    add_meld(G, S, o, t, np.int64(MELD_KONG), discarder)
    after = cost(G, S, W, o, S.concealed[o])
    open_ok = _open_kong_ok(G, live) and after == 1 and _ready_exact(G, S, W, o) and \
        _stays_ready(G, S, W, o)
    pop_meld(G, S, o)
    S.concealed[o, t] += 3
    if open_ok:
        return KONG_OPEN
    if G.cfg[V.REPLACEMENT_KONG] and after <= c13:
        return KONG_REPLACE
    return KONG_NONE


@njit_borrowed
def _take_for_meld(S, o, t, first, mtype, step):
    """Take (``step`` −1) or give back (+1) the concealed tiles seat ``o`` melds with the
    claimed ``t``: two for a pung, three for a kong, the chow's other two."""
    if mtype == MELD_CHOW:
        for k in range(first, first + 3):
            if k != t:
                S.concealed[o, k] += step
    else:
        S.concealed[o, t] += step * (2 if mtype == MELD_PUNG else 3)


@njit_borrowed
def _claim_gain(G, S, W, o, bot, discarder, t, first, mtype):
    """Seat ``o``'s best key after melding ``t`` as a pung or as the chow from ``first``."""
    _take_for_meld(S, o, t, first, mtype, np.int64(-1))
    add_meld(G, S, o, first, mtype, discarder)
    key = B.best_discard_key(G, S, W, o, bot)
    pop_meld(G, S, o)
    _take_for_meld(S, o, t, first, mtype, np.int64(1))
    return key


@njit_borrowed
def _chow_from(G, S, o, t, i):
    """The first kind of the ``i``-th chow (0–2) seat ``o`` could make on ``t`` with its
    tiles, or −1 (out of the suit, missing a tile, or a kind it may not meld)."""
    r = t % 9
    first_r = r - 2 + i
    if t >= 27 or first_r < 0 or first_r > 6:
        return -1
    first = t - r + first_r
    for k in range(first, first + 3):
        if (k != t and S.concealed[o, k] == 0) or not _meld_allowed(G, S, o, k):
            return -1
    return first


@njit_borrowed
def _best_chow(G, S, W, o, bot, discarder, t):
    """The chow (its first kind) seat ``o`` wants on ``t``, or −1."""
    best = S.status[o, ST_KEY]
    choice = -1
    for i in range(3):
        first = _chow_from(G, S, o, t, i)
        if first < 0:
            continue
        key = _claim_gain(G, S, W, o, bot, discarder, t, first, np.int64(MELD_CHOW))
        if key < best:
            best = key
            choice = first
    return choice


@njit_borrowed
def _ready_chow(G, S, W, o, discarder, t):
    """吃听 (``ready_chow_any``): the chow (its first kind) on ``t`` after which seat ``o``
    has a discard that leaves it ready with enough concealed tiles to declare, or −1."""
    if S.status[o, ST_LOCKED] or S.status[o, ST_DECLARED] or S.status[o, ST_COST] > 2:
        return -1
    conc = S.concealed[o]
    for i in range(3):
        first = _chow_from(G, S, o, t, i)
        if first < 0:
            continue
        _take_for_meld(S, o, t, first, np.int64(MELD_CHOW), np.int64(-1))
        add_meld(G, S, o, first, np.int64(MELD_CHOW), discarder)
        found = False
        # some discard leaves the hand one tile from a win (by cost) exactly when its cost
        # before the discard is at most 1; only then is each discard tested tile by tile
        if conc.sum() - 1 >= G.cfg[V.DECLARE_MIN_CONCEALED] and cost(G, S, W, o, conc) <= 1:
            for d in range(34):
                if conc[d] > 0:
                    conc[d] -= 1
                    found = _stays_ready(G, S, W, o)
                    conc[d] += 1
                    if found:
                        break
        pop_meld(G, S, o)
        _take_for_meld(S, o, t, first, np.int64(MELD_CHOW), np.int64(1))
        if found:
            return first
    return -1


@njit_borrowed
def _may_gain(S, bots, o):
    """Whether a chow or pung could lower seat ``o``'s key: not when its hand is already
    ready under a bot whose key is its shanten alone (a meld then leaves it ready at best)."""
    return bots[o] == R.BOT_VALUE or S.status[o, ST_COST] > 1


@njit_borrowed
def claim_on(G, S, W, bots, cur, t):
    """``(claimer, CLAIM_*, chow's first kind)`` on ``cur``'s discard ``t``: a kong or pung
    from anyone, else a chow from the 下家 (``pass_bar_pungs``: a declined pung bars the kind
    until the seat's next draw or claim). A seat pungs, chows or declines as its
    ``ST_CLAIM`` choice says (a search seat's, :func:`claim_options`), else as its bot
    decides."""
    live = _live(G, S)
    if live <= 0:
        return -1, CLAIM_NONE, t  # the last discard may only be won on
    if G.cfg[V.READY_CHOW_ANY]:
        for j in range(1, 4):
            o = (cur + j) % 4
            first = _ready_chow(G, S, W, o, cur, t)
            if first >= 0:
                return o, CLAIM_CHOW, first
    bar_pungs = G.cfg[V.PASS_BAR_PUNGS]
    for j in range(1, 4):
        o = (cur + j) % 4
        if S.status[o, ST_LOCKED] or S.concealed[o, t] < 2 or not _meld_allowed(G, S, o, t):
            continue
        if bar_pungs and (S.status[o, ST_PASS_BAR] >> t) & 1:
            break  # a kind passed since its last draw may not be punged (or konged)
        if S.concealed[o, t] == 3:
            how = _discard_kong(G, S, W, o, cur, t, live)
            if how != KONG_NONE:
                return o, CLAIM_OPEN_KONG if how == KONG_OPEN else CLAIM_KONG, t
        choice = S.status[o, ST_CLAIM]
        if choice == CLAIM_TAKE_PUNG or (
                choice == CLAIM_BY_BOT and _may_gain(S, bots, o) and
                _claim_gain(G, S, W, o, bots[o], cur, t, t, np.int64(MELD_PUNG)) <
                S.status[o, ST_KEY]):
            return o, CLAIM_PUNG, t
        if bar_pungs:
            S.status[o, ST_PASS_BAR] |= 1 << t  # declining the pung bars the kind
        break
    o = (cur + 1) % 4
    choice = S.status[o, ST_CLAIM]
    if choice >= CLAIM_TAKE_CHOW:
        return o, CLAIM_CHOW, choice - CLAIM_TAKE_CHOW
    if G.cfg[V.CHOW] == V.CHOW_LEFT and choice == CLAIM_BY_BOT and \
            not S.status[o, ST_LOCKED] and _may_gain(S, bots, o):
        first = _best_chow(G, S, W, o, bots[o], cur, t)
        if first >= 0:
            return o, CLAIM_CHOW, first
    return -1, CLAIM_NONE, t


@njit_borrowed
def claim_options(G, S, W, bots, s, cur, t, choices, keys):
    """Seat ``s``'s ``ST_CLAIM`` choices on ``cur``'s discard ``t`` (the choices a search
    seat weighs, :func:`mjsim.game.search.claim`) into ``choices``, each with seat ``s``'s
    best key after it into ``keys``: the pung, each chow from the 下家 and declining; their
    number — 0 with nothing to weigh: no pung or chow, three of the kind held (a kong or a
    pung: its bot's), the last discard, a locked hand or 吃听 (``ready_chow_any``: the
    bots' own)."""
    if G.cfg[V.READY_CHOW_ANY] or _live(G, S) <= 0 or S.status[s, ST_LOCKED] or \
            S.concealed[s, t] > 2:
        return 0
    n = 0
    barred = G.cfg[V.PASS_BAR_PUNGS] and (S.status[s, ST_PASS_BAR] >> t) & 1
    if S.concealed[s, t] == 2 and _meld_allowed(G, S, s, t) and not barred:
        choices[n] = CLAIM_TAKE_PUNG
        keys[n] = _claim_gain(G, S, W, s, bots[s], cur, t, t, np.int64(MELD_PUNG))
        n += 1
    if s == (cur + 1) % 4 and G.cfg[V.CHOW] == V.CHOW_LEFT:
        for i in range(3):
            first = _chow_from(G, S, s, t, i)
            if first >= 0:
                choices[n] = CLAIM_TAKE_CHOW + first
                keys[n] = _claim_gain(G, S, W, s, bots[s], cur, t, first, np.int64(MELD_CHOW))
                n += 1
    if n == 0:
        return 0
    choices[n] = CLAIM_DECLINE
    keys[n] = S.status[s, ST_KEY]
    return n + 1


# --------------------------------------------------------------------------- the hand


@njit_borrowed
def _win_on_ready(G, S, W, wall, rec, s):
    """对宝 (``wild_on_ready``): seat ``s`` just declared; a wild kind among its winning
    kinds wins at once, as a self-drawn wild tile (no tile is added). Returns whether."""
    best = np.int64(-1)
    for w in range(34):
        if G.kind_mask[w] and is_wild_kind(G, S, w):
            S.pos[P_WILD_DRAW] = DRAW_ON_READY
            S.pos[P_WILD_TILE] = w
            legal, u, b = _win_on(G, S, W, s, np.int64(w), np.int64(R.WIN_ZIMO))
            if legal and u > best:
                best = u
                S.units[s] = u
                S.bits[s] = b
                W.tiles[s] = w
    if best < 0:
        S.pos[P_WILD_DRAW] = DRAW_NATURAL
        return False
    S.pos[P_WILD_TILE] = W.tiles[s]
    _finish_win(G, S, W, wall, rec, 1 << s, np.int64(R.WIN_ZIMO), np.int64(-1), W.tiles[s])
    return True


@njit_borrowed
def _push(G, S, W, s, t, bot):
    """推出 (``push_pair``): declared seat ``s``, holding its 13 tiles and the drawn ``t``,
    weighs once (its hand is locked) whether its waits hold a 对倒 — two pairs, each winning
    as a pung — and, where its bot wants it, sets aside the pair with more live copies."""
    if not G.cfg[V.PUSH_PAIR] or S.status[s, ST_PUSH] != 0 or not S.status[s, ST_DECLARED]:
        return
    S.status[s, ST_PUSH] = PUSH_NONE
    if not B.pushes_pair(bot):
        return
    counts = S.concealed[s]
    counts[t] -= 1
    best = np.int64(-1)
    n = 0
    for k in range(34):
        if counts[k] == 2 and _win_on(G, S, W, s, np.int64(k), np.int64(R.WIN_ZIMO))[0]:
            n += 1
            if best < 0 or live(S, s, k) > live(S, s, best):
                best = k
    counts[t] += 1
    if n >= 2:
        S.status[s, ST_PUSH] = best + PUSH_NONE + 1


@njit_borrowed
def _record_ready(G, S, W, rec, s):
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
def _after_discard(G, S, W, wall, rec, s, t):
    """Bookkeeping of seat ``s``'s discard of ``t``: 过手, readiness, 报听 (the first turns a
    reserve indicator where ``wild`` is declared_draw; 对宝), 换宝, the scoring model's view
    of the discard (before ``P_LAST`` becomes ``t``). Returns whether the hand ended (对宝)."""
    st = S.status
    SC.discarded(G, S, rec, s, t)
    S.pos[P_LAST] = t
    if G.cfg[V.PASS_BAR] == V.PASS_GUOSHOU:
        st[s, ST_PASS_BAR] = 0
        st[s, ST_PASS_KIND] = -1
    S.pos[P_TURNS] += 1
    _mark_ready(G, S, W, s)
    if st[s, ST_READY] and rec[R.C_READY_SHAPE + s] == 0:
        _record_ready(G, S, W, rec, s)
    declares = may_declare(G, S, s)
    # exact readiness, where 报听 or a liability case (承包: is the discarder ready?) needs it
    st[s, ST_TENPAI] = (declares or G.cfg[V.FEED_LIMIT] > 0) and _ready_exact(G, S, W, s)
    if declares and st[s, ST_TENPAI]:
        st[s, ST_DECLARED] = 1
        rec[R.C_DECLARE_TURN + s] = S.pos[P_TURNS]
        if G.cfg[V.DECLARE_LOCK]:
            st[s, ST_LOCKED] = 1
        SC.declare(G, S, s)
        if G.cfg[V.WILD] == V.WILD_DECLARED_DRAW and S.pos[P_BAO] < 0:
            _turn_indicator(G, S, wall, S.pos[P_BAO_SLOT])
        if G.cfg[V.WILD_ON_READY] and _win_on_ready(G, S, W, wall, rec, s):
            return True
    _change_indicator(G, S, wall)
    if G.cfg[V.PASS_BAR] == V.PASS_GUOSHOU and st[s, ST_READY] and \
            _win_on(G, S, W, s, t, np.int64(R.WIN_DIANPAO))[0]:
        _pass(G, S, s, t)  # discarding one's own winning kind passes it (§2.3.4 base rule)
    return False


@njit_borrowed
def _open_kong(G, S, W, wall, rec, bots, s):
    """开杠 by seat ``s`` (its kong already melded): reveal, resolve, lock. Returns the
    first winner, or −1 when play goes on with ``s``'s 下家."""
    k = G.cfg[V.OPEN_KONG_TILES]
    S.status[s, ST_LOCKED] = 1
    S.pos[P_OPEN_KONGS] += 1
    start = S.pos[P_TAIL] - k
    S.pos[P_TAIL] = start
    n_win = np.int64(0)
    best = np.int64(-1)
    best_units = np.int64(-1)
    for i in range(k):
        x = np.int64(wall[start + i])
        W.offered[i] = x
        W.claimed[i] = False
        legal, u, b = _win_on(G, S, W, s, x, np.int64(R.WIN_GANGKAI))
        if legal:
            n_win += 1
            if u > best_units:
                best, best_units = x, u
                S.bits[s] = b
    if n_win > 0:
        S.units[s] = SC.open_kong_units(G, best_units, n_win)
        for i in range(k):
            if W.offered[i] == best and not W.claimed[i]:
                W.claimed[i] = True
                S.concealed[s, best] += 1
            else:
                _to_pile(S, s, W.offered[i])
        return _finish_win(G, S, W, wall, rec, 1 << s, np.int64(R.WIN_GANGKAI), np.int64(-1),
                           best)
    winners = _ron_claims(G, S, W, bots, s, k, np.int64(R.WIN_GANGPAO))
    for j in range(1, 4):
        o = (s + j) % 4
        if not (winners >> o) & 1:
            continue
        for i in range(k):
            if not W.claimed[i] and W.offered[i] == W.tiles[o]:
                W.claimed[i] = True
                S.concealed[o, W.tiles[o]] += 1
                break
    for i in range(k):
        if not W.claimed[i]:
            _to_pile(S, s, W.offered[i])
    if winners:
        _winner_order(winners, s, W.order[:])
        return _finish_win(G, S, W, wall, rec, winners, np.int64(R.WIN_GANGPAO), s,
                           W.tiles[W.order[0]])
    _mark_ready(G, S, W, s)
    return -1


@njit_borrowed
def _haidi(G, S, W, wall, rec, bots, cur):
    """海底 (§2.3.3): the first ready player from ``cur`` takes the last tile. Returns the
    first winner or −1 (a draw)."""
    taker = -1
    for j in range(4):
        o = (cur + j) % 4
        if _ready_exact(G, S, W, o) and B.takes_haidi(G, S, o, bots[o]):
            taker = o
            break
    if taker < 0:
        return -1
    t = np.int64(wall[S.pos[P_HEAD]])
    S.pos[P_HEAD] += 1
    S.concealed[taker, t] += 1
    legal, u, b = _win(G, S, W, taker, np.int64(R.WIN_HAIDILAO), t)
    if legal:
        S.units[taker] = u
        S.bits[taker] = b
        return _finish_win(G, S, W, wall, rec, 1 << taker, np.int64(R.WIN_HAIDILAO),
                           np.int64(-1), t)
    S.concealed[taker, t] -= 1
    _to_pile(S, taker, t)
    S.pos[P_TURNS] += 1
    return _win_on_discard(G, S, W, wall, rec, bots, taker, t, np.int64(R.WIN_HAIDIPAO),
                           np.int64(1))


@njit_borrowed
def _fenzhang(G, S, W, wall, rec, cur):
    """分张 (§4.8): the reserve's unused tiles past the replacement ones, one a seat from
    ``cur``; each declared seat tests its tile as a self-draw and the first winner ends the
    hand. Tiles that do not win are laid open. Returns the winner or −1 (a draw)."""
    for j in range(4):
        o = (cur + j) % 4
        t = _reserve_take(G, S, wall, G.cfg[V.RESERVE_REPLACE] + 1, G.cfg[V.RESERVE] - 1)
        if t < 0:
            break
        S.concealed[o, t] += 1
        if S.status[o, ST_DECLARED] and _self_win(G, S, W, o, t, np.int64(R.WIN_HAIDILAO),
                                                  np.int64(0)):
            return _finish_win(G, S, W, wall, rec, 1 << o, np.int64(R.WIN_HAIDILAO),
                               np.int64(-1), t)
        S.concealed[o, t] -= 1
        _to_pile(S, o, t)
    return -1


@njit_borrowed
def _next_draw(G, S, W, wall, rec, bots, cur):
    """Seat ``cur`` draws: the tile (now in its hand), or −1 when the hand ended — at 海底
    (the last tile goes to the first ready player), at 分张 or on an empty wall."""
    if G.cfg[V.WALL_END] == V.END_HAIDI and _live(G, S) == 1:
        _haidi(G, S, W, wall, rec, bots, cur)
        return NO_TILE
    if G.cfg[V.WALL_END] == V.END_FENZHANG and _live(G, S) <= 0:
        _fenzhang(G, S, W, wall, rec, cur)
        return NO_TILE
    return _draw(G, S, wall, cur, np.int64(0))


@njit_borrowed
def _after_kong(G, S, W, wall, rec, bots, s, opening):
    """After seat ``s``'s kong is melded: a 补张 draws its replacement from the tail; a 开杠
    reveals and resolves (§2.3.2), then ``s``'s 下家 draws. Returns ``(seat to move, tile
    drawn or −1 when the hand ended, the kind a self-drawn win would be)``."""
    if not opening:
        t = _draw(G, S, wall, s, np.int64(1))
        kind = R.WIN_GANGKAI if G.cfg[V.REPLACEMENT_GANGKAI] else R.WIN_ZIMO
        return s, t, _self_kind(G, S, kind)
    if _open_kong(G, S, W, wall, rec, bots, s) >= 0:
        return s, NO_TILE, R.WIN_ZIMO
    nxt = (s + 1) % 4
    return nxt, _next_draw(G, S, W, wall, rec, bots, nxt), R.WIN_ZIMO


@njit_borrowed
def _close(G, S, W, rec):
    """Final columns of the record; returns the next dealer."""
    st = S.status
    dealer = S.pos[P_DEALER]
    for src in range(G.cfg[V.N_SOURCES]):
        for s in range(4):
            rec[G.cfg[V.COL_PAY] + 4 * src + s] = S.pay[src, s]
            rec[R.C_PAY + s] += S.pay[src, s]
    rec[R.C_DEALER] = dealer
    rec[R.C_TURNS] = S.pos[P_TURNS]
    rec[R.C_TILES_LEFT] = _live(G, S)
    rec[R.C_KONGS] = S.pos[P_KONGS]
    rec[R.C_OPEN_KONGS] = S.pos[P_OPEN_KONGS]
    if G.cfg[V.WILD] == V.WILD_DECLARED_DRAW:
        rec[R.C_WILD_KIND] = S.pos[P_BAO]
    for s in range(4):
        rec[R.C_VOID + s] = S.void[s] if S.void[s] >= 0 else -1
        rec[R.C_BONUS + s] = st[s, ST_BONUS]
        rec[R.C_DECLARED] |= st[s, ST_DECLARED] << s
        rec[R.C_LOCKED] |= st[s, ST_LOCKED] << s
        rec[R.C_PASSED] |= st[s, ST_PASSED] << s
        rec[R.C_CLAIMED] |= np.int64(exposed_melds(S, s) > 0) << s
        if rec[R.C_OUTCOME] == R.OUT_DRAW and _ready_exact(G, S, W, s):
            rec[R.C_READY_END] |= 1 << s
    SC.end_hand(G, S, rec)
    nxt = dealer
    if rec[R.C_OUTCOME] == R.OUT_WIN:
        if G.cfg[V.ROTATION] == V.ROT_DEALER_KEEPS:
            nxt = dealer if (rec[R.C_WINNERS] >> dealer) & 1 else (dealer + 1) % 4
        else:
            nxt = S.pos[P_WINNER]
            if rec[R.C_N_WINNERS] > 1 and G.cfg[V.MULTI_NEXT] == V.NEXT_XIAJIA:
                nxt = (nxt + 1) % 4
    rec[R.C_NEXT_DEALER] = nxt
    return nxt


@njit_borrowed
def deal(G, S, W, wall, dealer):
    """The deal pipeline's deal of ``wall`` (its seat 0 is the dealer here); returns the
    wild kind its indicator makes (−1: none), wild for every seat where ``wild`` says so."""
    indicator, wild, _, tail_used = deal_one(wall, G.is_bonus, G.seats, G.cfg[V.RESERVE],
                                     G.cfg[V.INDICATOR], G.cfg[V.WILD_STEP], G.next_kinds,
                                     W.pending[:], W.hands[:], W.dealt_bonus[:], W.first_draw[:],
                                     np.int64(0))
    for r in range(4):
        s = (dealer + r) % 4
        for k in range(34):
            S.concealed[s, k] = W.hands[0, r, k]
        S.status[s, ST_BONUS] = W.dealt_bonus[0, r]
    S.pos[P_HEAD] = G.seats.size
    S.pos[P_TAIL] = wall.size - tail_used
    S.pos[P_BAO_SLOT] = G.cfg[V.INDICATOR_SLOT] - 1  # −1: no indicator kept in reserve
    if indicator >= 0:
        S.seen[indicator] += 1  # turned face up for everyone
        S.pos[P_DEAD] = tail_used - 1 - S.status[:, ST_BONUS].sum()
    if G.cfg[V.WILD] == V.WILD_INDICATOR and wild >= 0:
        S.wild[:, wild] = True
    return np.int64(wild)


@njit_borrowed
def _script(G, S, script):
    """A scripted start (tests): ``script[0]`` head tiles set aside after the deal, then
    ``(seat + 1, kind, MELD_*, source + 1)`` quadruples turning dealt tiles into melds
    claimed from seat ``source`` (0: the seat's own; 0 ends)."""
    if script.size == 0:
        return
    S.pos[P_HEAD] += script[0]
    m = 1
    while m + 3 < script.size and script[m] > 0:
        s, kind, mtype = script[m] - 1, script[m + 1], script[m + 2]
        if mtype == MELD_CHOW:
            for k in range(kind, kind + 3):
                S.concealed[s, k] -= 1
        else:
            S.concealed[s, kind] -= 3 if mtype == MELD_PUNG else 4
        add_meld(G, S, s, kind, mtype, script[m + 3] - 1)
        m += 4


@njit_borrowed
def play_hand(G, S, W, P, wall, dealer, bots, dice_seed, script, rec):
    """Play one hand on ``wall`` with ``dealer``; fill ``rec`` and return the next dealer.
    ``S`` is left as the hand ended; ``P`` is the discard policy (:mod:`mjsim.game.policy`);
    ``dice_seed`` keys the dice of 起手胡 birds; ``script`` (:func:`_script`) is empty outside
    tests."""
    st = S.status
    reset_state(S, dealer, wall.size)
    rec[:] = 0
    rec[R.C_DISCARDER] = -1
    rec[R.C_WIN_TILE] = -1
    SC.reset_record(G, rec)
    wild = deal(G, S, W, wall, dealer)
    rec[R.C_WILD_KIND] = wild if G.cfg[V.WILD] == V.WILD_INDICATOR else -1
    _script(G, S, script)
    SC.start_hand(G, S, rec, dice_seed)
    for j in range(4):
        if _bonus_win(G, S, W, wall, rec, (dealer + j) % 4):
            return _close(G, S, W, rec)
    if G.cfg[V.VOID] == V.VOID_DECLARED:
        for j in range(4):
            s = (dealer + j) % 4
            S.void[s] = B.choose_void(G, S, W, s)
    if G.cfg[V.QISHOU]:
        n_qs = 0
        for j in range(4):
            s = (dealer + j) % 4
            if s == dealer or G.cfg[V.QISHOU_EVAL] == V.QS_DEALT:
                n_qs += _qishou(G, S, W, s, rec, dice_seed)
        if n_qs > 0 and G.cfg[V.QISHOU_ENDS_HAND]:
            rec[R.C_OUTCOME] = R.OUT_QISHOU_END
            return _close(G, S, W, rec)
    for j in range(1, 4):
        s = (dealer + j) % 4
        assess(G, S, W, s, bots[s], np.int64(0))
        if st[s, ST_READY]:
            _record_ready(G, S, W, rec, s)  # ready as dealt: turn 0
    return play_from(G, S, W, P, wall, bots, dice_seed, rec, dealer, np.int64(-1),
                     np.int64(0))


@njit_borrowed
def play_from(G, S, W, P, wall, bots, dice_seed, rec, cur, forced, claims):
    """The turns of a hand from seat ``cur``'s move to the hand's end; fill the rest of
    ``rec`` and return the next dealer. With ``forced`` ≥ 0, ``cur`` — holding 14 tiles, its
    draw, wins and kongs weighed — first discards ``forced``, or, with ``claims``, has just
    discarded it (its bookkeeping done) and the claims on it come first (with ``claims`` 2,
    the pungs and chows only: nobody won on it): a rollout of the search bot
    (:mod:`mjsim.game.search`) resumes a hand at a discard, a win-or-pass or a claim."""
    conc, st = S.concealed, S.status
    drawn = NO_TILE     # the tile the player to move just drew
    drew = True         # the turn began with a draw (or is the dealer's first)
    fresh = False       # that draw was a normal one, after the seat's own discard
    self_kind = R.WIN_ZIMO
    while True:
        if claims:
            t = forced
            forced = np.int64(-1)
        elif forced >= 0:
            t = forced
            forced = np.int64(-1)
            conc[cur, t] -= 1
        else:
            # ---- the player to move holds 14 tiles (kongs counted as 3)
            if G.cfg[V.QISHOU] and not st[cur, ST_QS_DONE]:
                if _qishou(G, S, W, cur, rec, dice_seed) and G.cfg[V.QISHOU_ENDS_HAND]:
                    rec[R.C_OUTCOME] = R.OUT_QISHOU_END
                    break
            if drew:
                if G.cfg[V.PASS_BAR] == V.PASS_SAME_KIND:
                    st[cur, ST_PASS_BAR] = 0  # the bar on a passed kind ends with one's draw
                if drawn >= 0 and G.cfg[V.MID_GAME]:
                    SC.mid_game(G, S, W, cur, rec)
                # a normal draw completes only a hand that was ready (its status is of these
                # 13 tiles); after the deal or a kong the hand is evaluated
                if _self_win(G, S, W, cur, np.int64(drawn), np.int64(self_kind),
                             np.int64(fresh)):
                    _finish_win(G, S, W, wall, rec, 1 << cur, self_kind, np.int64(-1),
                                np.int64(drawn))
                    break
                kind, how = _own_kong(G, S, W, cur, np.int64(drawn), _live(G, S))
                if how != KONG_NONE:
                    i = find_pung(S, cur, kind)
                    if i < 0:
                        conc[cur, kind] -= 4
                        add_meld(G, S, cur, kind, np.int64(MELD_CKONG), np.int64(-1))
                    else:
                        # an added kong may be robbed (抢杠); the konger pays as discarder
                        conc[cur, kind] -= 1
                        if _win_on_discard(G, S, W, wall, rec, bots, cur, kind,
                                           np.int64(R.WIN_QIANGGANG), np.int64(0)) >= 0:
                            break
                        upgrade_pung(G, S, cur, i, np.int64(1))
                    SC.kong(G, S, cur, np.int64(15))
                    S.pos[P_KONGS] += 1
                    _change_indicator(G, S, wall)
                    cur, drawn, self_kind = _after_kong(G, S, W, wall, rec, bots, cur,
                                                        how == KONG_OPEN)
                    fresh = False
                    if drawn < 0:
                        break
                    continue
            # ---- discard: a locked hand throws what it drew
            if st[cur, ST_LOCKED] and drawn >= 0:
                _push(G, S, W, cur, np.int64(drawn), bots[cur])
                t = drawn
                conc[cur, t] -= 1
                st[cur, ST_KEY], st[cur, ST_COST] = B.hand_key(G, S, W, cur, conc[cur],
                                                               bots[cur])
            else:
                t = POL.discard(P, G, S, W, wall, rec, bots, dice_seed, cur)
                conc[cur, t] -= 1
        wins = claims != 2  # whether the wins on the discard are still to be claimed
        if claims:
            claims = np.int64(0)
        else:
            _to_pile(S, cur, t)
            if _after_discard(G, S, W, wall, rec, cur, t):
                break
        # ---- claims: win, then kong or pung, then chow
        if wins:
            POL.win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, cur, t)
            if _win_on_discard(G, S, W, wall, rec, bots, cur, t, np.int64(R.WIN_DIANPAO),
                               np.int64(1)) >= 0:
                break
        POL.claim(P, G, S, W, wall, rec, bots, dice_seed, cur, t)
        claimer, claim, first = claim_on(G, S, W, bots, cur, t)
        for o in range(4):
            st[o, ST_CLAIM] = CLAIM_BY_BOT
        if claimer < 0:
            cur = (cur + 1) % 4
            drawn = _next_draw(G, S, W, wall, rec, bots, cur)
            drew = True
            fresh = True
            self_kind = _self_kind(G, S, R.WIN_ZIMO)
            if drawn < 0:
                break
            continue
        S.seen[t] -= 1  # the claimed tile leaves the pile for the meld
        S.pos[P_LAST] = -1
        discarder = cur
        cur = claimer
        if G.cfg[V.PASS_BAR] == V.PASS_SAME_KIND:
            st[cur, ST_PASS_BAR] = 0  # a claim ends the bar on passed kinds, as a draw does
        drawn = NO_TILE
        drew = False
        mtype = MELD_CHOW if claim == CLAIM_CHOW else MELD_PUNG if claim == CLAIM_PUNG \
            else MELD_KONG
        _take_for_meld(S, cur, t, first, np.int64(mtype), np.int64(-1))
        add_meld(G, S, cur, first, np.int64(mtype), discarder)
        if mtype == MELD_KONG:
            SC.kong(G, S, cur, np.int64(1 << discarder))
            S.pos[P_KONGS] += 1
            _change_indicator(G, S, wall)
            cur, drawn, self_kind = _after_kong(G, S, W, wall, rec, bots, cur,
                                                claim == CLAIM_OPEN_KONG)
            drew = True
            fresh = False
            if drawn < 0:
                break
    if drawn == BONUS_WON:
        _bonus_win(G, S, W, wall, rec, cur)
    return _close(G, S, W, rec)


@njit(cache=True, nogil=True, _nrt=False)
def play_games(G, P, wall_key, dice_key, bots, start, walls, dice, script, out, final, S, W,
               wall, lo, hi):
    """Games ``lo .. hi - 1`` of hands ``start .. start + n - 1`` (``n`` = rows of ``out``,
    ``start`` a whole number of games) with one thread's state ``S``, scratch ``W`` and
    ``wall`` buffer, and the discard policy ``P`` (:mod:`mjsim.game.policy`: ``()`` for
    the heuristic bots alone); game ``g`` starts with seat ``g % 4`` dealing and the dealer then
    rotates by the rules. Hand ``i`` plays wall ``i`` of the deal pipeline, so records do
    not depend on chunking or threads (:func:`mjsim.game.play.play_rows` runs one call per
    thread, the GIL released).

    A replay (tests, :func:`mjsim.game.play.play_wall`): with rows in ``walls``, hand ``i``
    plays ``walls[i]`` dealt by ``dice[i, 0]`` with dice seed ``dice[i, 1]`` and the
    ``script`` (a dealer of −1: the previous hand's next dealer, hands of one game), and
    ``final`` (``int64[FINAL_SIZE]``, else empty) receives the state of the last hand.
    Each step of the hand is compiled once, on its own (:mod:`mjsim.kernels.jit`), and
    every evaluation calls the shanten kernel at its address
    (:func:`mjsim.game.state.kernel_trials`), so no step carries the kernel's code."""
    n = out.shape[0]
    length = G.cfg[V.GAME_LENGTH]
    first_game = start // length
    replay = walls.shape[0] > 0
    for g in range(lo, hi):
        dealer = (first_game + g) % 4
        S.carry[:] = 0  # a game starts with nothing carried (荒番); the state serves many
        for h in range(length):
            i = g * length + h
            if i >= n:
                break
            index = start + i
            seed = np.uint64(dice[i, 1]) if replay else index_seed(dice_key, index)
            if replay:
                for k in range(wall.size):
                    wall[k] = walls[i, k]
                if dice[i, 0] >= 0:
                    dealer = dice[i, 0]
            else:
                shuffle_into(G.multiset, wall_key, index, wall)
            dealer = play_hand(G, S, W, P, wall, dealer, bots, seed, script, out[i])
            out[i, R.C_INDEX] = index
            out[i, R.C_GAME] = index // length
            if final.size > 0 and i == n - 1:
                _final(S, final)


@njit_borrowed
def _final(S, final):
    """The state's arrays, flat, in the order of :data:`FINAL`."""
    j = 0
    for s in range(4):
        for k in range(34):
            final[j] = S.concealed[s, k]
            final[j + 4 * 34] = S.melded[s, k]
            j += 1
    j += 4 * 34
    for s in range(4):
        for m in range(MAX_MELDS):
            for c in range(3):
                final[j] = S.melds[s, m, c]
                j += 1
    for s in range(4):
        final[j] = S.n_melds[s]
        j += 1
    for k in range(34):
        final[j] = S.seen[k]
        j += 1
    for s in range(4):
        for c in range(S.status.shape[1]):
            final[j] = S.status[s, c]
            j += 1
    for s in range(4):
        final[j] = S.void[s]
        j += 1
    for p in range(S.pos.size):
        final[j] = S.pos[p]
        j += 1
    for p in range(S.model.size):
        final[j] = S.model[p]
        j += 1
    for p in range(S.carry.size):
        final[j] = S.carry[p]
        j += 1
