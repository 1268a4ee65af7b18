"""The hand loop: one hand (局) of play from a shuffled wall to its record (RULES.md §0.6).

One engine for every rule set: where rule sets differ in how a hand runs, the engine reads
a value (:mod:`mjsim.game.values`); what a win is worth and who pays is the scoring model's
(:mod:`mjsim.game.scoring`). A hand runs:

1. The deal (:func:`mjsim.game.wall.deal`), then 定缺 (``void``): each seat declares its
   void suit (:func:`mjsim.game.bots.choose_void`).
2. 起手胡 (``qishou``): each count settled by the scoring model.
3. Turns: draw (:mod:`mjsim.game.wall`), mid-game wins (``mid_game``), self-drawn win
   (:mod:`mjsim.game.wins`), kongs — a replacement kong (补张) drawing from the tail, an
   opening kong (开杠, ``open_kong``) revealing tail tiles and locking the hand, added kongs
   open to 抢杠 — and a discard, with 报听 where ``declare`` allows it.
4. Claims on a discard: wins (``multi_win``, barred by ``pass_bar``), then kong or pung
   from anyone, then chow (``chow``) (:mod:`mjsim.game.decisions`).
5. The end of the wall (``wall_end``): a draw when it is empty, 海底, or 分张.

Discards, and the choices of search and tuned seats on others' discards, come from the
policy (:mod:`mjsim.game.policy`); the record's columns are :mod:`mjsim.game.record`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.deal import shuffle_into
from ..kernels.jit import njit_borrowed
from ..kernels.rng import index_seed
from ..kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from . import bots as B
from . import policy as POL
from . import record as R
from . import scoring as SC
from . import values as V
from .decisions import (
    CLAIM_CHOW,
    CLAIM_OPEN_KONG,
    CLAIM_PUNG,
    KONG_NONE,
    KONG_OPEN,
    after_discard,
    claim_on,
    own_kong,
    push_out,
    ron_claims,
    take_for_meld,
    win_on_discard,
)
from .state import (
    CARRY_SLOTS,
    CLAIM_BY_BOT,
    MAX_MELDS,
    MODEL_SLOTS,
    P_BAO,
    P_DEALER,
    P_HEAD,
    P_KONGS,
    P_LAST,
    P_OPEN_KONGS,
    P_TAIL,
    P_TURNS,
    P_WINNER,
    POSITIONS,
    ST_BONUS,
    ST_CLAIM,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    ST_LOCKED,
    ST_PASS_BAR,
    ST_PASSED,
    ST_QS_DONE,
    ST_READY,
    STATUS,
    add_meld,
    exposed_melds,
    find_pung,
    reset_state,
    upgrade_pung,
)
from .wall import (
    BONUS_WON,
    NO_TILE,
    apply_script,
    change_indicator,
    deal,
    draw,
    reserve_take,
    tiles_left,
    to_pile,
)
from .wins import (
    assess,
    bonus_tiles_win,
    draw_win_kind,
    finish_win,
    mark_ready,
    ready_exact,
    record_ready,
    seat_qishou,
    self_win,
    win_test,
    win_test_on,
    winner_order,
)

#: the final state written for a replay (``play_games``' ``final``): name -> size
FINAL = (
    ("concealed", 4 * 34),
    ("melded", 4 * 34),
    ("melds", 4 * MAX_MELDS * 3),
    ("n_melds", 4),
    ("seen", 34),
    ("status", 4 * len(STATUS)),
    ("void", 4),
    ("pos", len(POSITIONS)),
    ("model", MODEL_SLOTS),
    ("carry", CARRY_SLOTS),
)
FINAL_SIZE = sum(size for _, size in FINAL)


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
        legal, u, b = win_test_on(G, S, W, s, x, np.int64(R.WIN_GANGKAI))
        if legal:
            n_win += 1
            if u > best_units:
                best, best_units = x, u
                S.bits[s] = b
    if n_win > 0:
        S.units[s] = SC.open_kong_units(G, best_units, n_win)
        taken = False  # one tile wins: a second of its kind goes to the pile
        for i in range(k):
            if W.offered[i] == best and not taken:
                taken = True
                W.claimed[i] = True
                S.concealed[s, best] += 1
            else:
                to_pile(S, s, W.offered[i])
        return finish_win(G, S, W, wall, rec, 1 << s, np.int64(R.WIN_GANGKAI), np.int64(-1), best)
    winners = ron_claims(G, S, W, bots, s, k, np.int64(R.WIN_GANGPAO))
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
            to_pile(S, s, W.offered[i])
    if winners:
        winner_order(winners, s, W.order[:])
        return finish_win(
            G, S, W, wall, rec, winners, np.int64(R.WIN_GANGPAO), s, W.tiles[W.order[0]]
        )
    mark_ready(G, S, W, s)
    return -1


@njit_borrowed
def _haidi(G, S, W, wall, rec, bots, cur):
    """海底 (§2.3.3): the first ready player from ``cur`` takes the last tile. Returns the
    first winner or −1 (a draw)."""
    taker = -1
    for j in range(4):
        o = (cur + j) % 4
        if ready_exact(G, S, W, o) and B.takes_haidi(G, S, o, bots[o]):
            taker = o
            break
    if taker < 0:
        return -1
    t = np.int64(wall[S.pos[P_HEAD]])
    S.pos[P_HEAD] += 1
    S.concealed[taker, t] += 1
    legal, u, b = win_test(G, S, W, taker, np.int64(R.WIN_HAIDILAO), t)
    if legal:
        S.units[taker] = u
        S.bits[taker] = b
        return finish_win(G, S, W, wall, rec, 1 << taker, np.int64(R.WIN_HAIDILAO), np.int64(-1), t)
    S.concealed[taker, t] -= 1
    to_pile(S, taker, t)
    S.pos[P_TURNS] += 1
    return win_on_discard(G, S, W, wall, rec, bots, taker, t, np.int64(R.WIN_HAIDIPAO), np.int64(1))


@njit_borrowed
def fenzhang(G, S, W, wall, rec, cur):
    """分张 (§4.8): the reserve's unused tiles past the replacement ones, one a seat from
    ``cur``; each declared seat tests its tile as a self-draw and the first winner ends the
    hand. Tiles that do not win are laid open. Returns the winner or −1 (a draw)."""
    for j in range(4):
        o = (cur + j) % 4
        t = reserve_take(G, S, wall, G.cfg[V.RESERVE_REPLACE] + 1, G.cfg[V.RESERVE] - 1)
        if t < 0:
            break
        S.concealed[o, t] += 1
        if S.status[o, ST_DECLARED] and self_win(
            G, S, W, o, t, np.int64(R.WIN_HAIDILAO), np.int64(0)
        ):
            return finish_win(G, S, W, wall, rec, 1 << o, np.int64(R.WIN_HAIDILAO), np.int64(-1), t)
        S.concealed[o, t] -= 1
        to_pile(S, o, t)
    return -1


@njit_borrowed
def _next_draw(G, S, W, wall, rec, bots, cur):
    """Seat ``cur`` draws: the tile (now in its hand), or −1 when the hand ended — at 海底
    (the last tile goes to the first ready player), at 分张 or on an empty wall."""
    if G.cfg[V.WALL_END] == V.END_HAIDI and tiles_left(G, S) == 1:
        _haidi(G, S, W, wall, rec, bots, cur)
        return NO_TILE
    if G.cfg[V.WALL_END] == V.END_FENZHANG and tiles_left(G, S) <= 0:
        fenzhang(G, S, W, wall, rec, cur)
        return NO_TILE
    return draw(G, S, wall, cur, np.int64(0))


@njit_borrowed
def _after_kong(G, S, W, wall, rec, bots, s, opening):
    """After seat ``s``'s kong is melded: a 补张 draws its replacement from the tail; a 开杠
    reveals and resolves (§2.3.2), then ``s``'s 下家 draws. Returns ``(seat to move, tile
    drawn or −1 when the hand ended, the kind a self-drawn win would be)``."""
    if not opening:
        t = draw(G, S, wall, s, np.int64(1))
        kind = R.WIN_GANGKAI if G.cfg[V.REPLACEMENT_GANGKAI] else R.WIN_ZIMO
        return s, t, draw_win_kind(G, S, kind)
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
    rec[R.C_TILES_LEFT] = tiles_left(G, S)
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
        if rec[R.C_OUTCOME] == R.OUT_DRAW and ready_exact(G, S, W, s):
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
def play_hand(G, S, W, P, wall, dealer, bots, dice_seed, script, rec):
    """Play one hand on ``wall`` with ``dealer``; fill ``rec`` and return the next dealer.
    ``S`` is left as the hand ended; ``P`` is the policy (:mod:`mjsim.game.policy`);
    ``dice_seed`` keys the dice of 起手胡 birds; ``script``
    (:func:`mjsim.game.wall.apply_script`) is empty outside tests."""
    st = S.status
    reset_state(S, dealer, wall.size)
    rec[:] = 0
    rec[R.C_DISCARDER] = -1
    rec[R.C_WIN_TILE] = -1
    SC.reset_record(G, rec)
    wild = deal(G, S, W, wall, dealer)
    rec[R.C_WILD_KIND] = wild if G.cfg[V.WILD] == V.WILD_INDICATOR else -1
    apply_script(G, S, script)
    SC.start_hand(G, S, rec, dice_seed)
    for j in range(4):
        if bonus_tiles_win(G, S, W, wall, rec, (dealer + j) % 4):
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
                n_qs += seat_qishou(G, S, W, s, rec, dice_seed)
        if n_qs > 0 and G.cfg[V.QISHOU_ENDS_HAND]:
            rec[R.C_OUTCOME] = R.OUT_QISHOU_END
            return _close(G, S, W, rec)
    for j in range(1, 4):
        s = (dealer + j) % 4
        assess(G, S, W, s, bots[s], np.int64(0))
        if st[s, ST_READY]:
            record_ready(G, S, W, rec, s)  # ready as dealt: turn 0
    return play_from(G, S, W, P, wall, bots, dice_seed, rec, dealer, np.int64(-1), np.int64(0))


@njit_borrowed
def play_from(G, S, W, P, wall, bots, dice_seed, rec, cur, forced, claims):
    """The turns of a hand from seat ``cur``'s move to the hand's end; fill the rest of
    ``rec`` and return the next dealer. With ``forced`` ≥ 0, ``cur`` — holding 14 tiles, its
    draw, wins and kongs weighed — first discards ``forced``, or, with ``claims``, has just
    discarded it (its bookkeeping done) and the claims on it come first (with ``claims`` 2,
    the pungs and chows only: nobody won on it): a rollout of the search bot
    (:mod:`mjsim.game.search`) resumes a hand at a discard, a win-or-pass or a claim."""
    conc, st = S.concealed, S.status
    drawn = NO_TILE  # the tile the player to move just drew
    drew = True  # the turn began with a draw (or is the dealer's first)
    fresh = False  # that draw was a normal one, after the seat's own discard
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
                if seat_qishou(G, S, W, cur, rec, dice_seed) and G.cfg[V.QISHOU_ENDS_HAND]:
                    rec[R.C_OUTCOME] = R.OUT_QISHOU_END
                    break
            if drew:
                if G.cfg[V.PASS_BAR] == V.PASS_SAME_KIND:
                    st[cur, ST_PASS_BAR] = 0  # the bar on a passed kind ends with one's draw
                if drawn >= 0 and G.cfg[V.MID_GAME]:
                    SC.mid_game(G, S, W, cur, rec)
                # a normal draw completes only a hand that was ready (its status is of these
                # 13 tiles); after the deal or a kong the hand is evaluated
                if self_win(G, S, W, cur, np.int64(drawn), np.int64(self_kind), np.int64(fresh)):
                    finish_win(
                        G, S, W, wall, rec, 1 << cur, self_kind, np.int64(-1), np.int64(drawn)
                    )
                    break
                kind, how = own_kong(G, S, W, cur, np.int64(drawn), tiles_left(G, S))
                if how != KONG_NONE:
                    i = find_pung(S, cur, kind)
                    if i < 0:
                        conc[cur, kind] -= 4
                        add_meld(G, S, cur, kind, np.int64(MELD_CKONG), np.int64(-1))
                    else:
                        # an added kong may be robbed (抢杠); the konger pays as discarder
                        conc[cur, kind] -= 1
                        if (
                            win_on_discard(
                                G,
                                S,
                                W,
                                wall,
                                rec,
                                bots,
                                cur,
                                kind,
                                np.int64(R.WIN_QIANGGANG),
                                np.int64(0),
                            )
                            >= 0
                        ):
                            break
                        upgrade_pung(G, S, cur, i, np.int64(1))
                    SC.kong(G, S, cur, np.int64(15))
                    S.pos[P_KONGS] += 1
                    change_indicator(G, S, wall)
                    cur, drawn, self_kind = _after_kong(
                        G, S, W, wall, rec, bots, cur, how == KONG_OPEN
                    )
                    fresh = False
                    if drawn < 0:
                        break
                    continue
            # ---- discard: a locked hand throws what it drew
            if st[cur, ST_LOCKED] and drawn >= 0:
                push_out(G, S, W, cur, np.int64(drawn), bots[cur])
                t = drawn
                conc[cur, t] -= 1
                st[cur, ST_KEY], st[cur, ST_COST] = B.hand_key(G, S, W, cur, conc[cur], bots[cur])
            else:
                t = POL.discard(P, G, S, W, wall, rec, bots, dice_seed, cur)
                conc[cur, t] -= 1
        wins = claims != 2  # whether the wins on the discard are still to be claimed
        if claims:
            claims = np.int64(0)
        else:
            to_pile(S, cur, t)
            if after_discard(G, S, W, wall, rec, cur, t):
                break
        # ---- claims: win, then kong or pung, then chow
        if wins:
            POL.win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, cur, t)
            if (
                win_on_discard(
                    G, S, W, wall, rec, bots, cur, t, np.int64(R.WIN_DIANPAO), np.int64(1)
                )
                >= 0
            ):
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
            self_kind = draw_win_kind(G, S, R.WIN_ZIMO)
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
        mtype = (
            MELD_CHOW if claim == CLAIM_CHOW else MELD_PUNG if claim == CLAIM_PUNG else MELD_KONG
        )
        take_for_meld(S, cur, t, first, np.int64(mtype), np.int64(-1))
        add_meld(G, S, cur, first, np.int64(mtype), discarder)
        if mtype == MELD_KONG:
            SC.kong(G, S, cur, np.int64(1 << discarder))
            S.pos[P_KONGS] += 1
            change_indicator(G, S, wall)
            cur, drawn, self_kind = _after_kong(
                G, S, W, wall, rec, bots, cur, claim == CLAIM_OPEN_KONG
            )
            drew = True
            fresh = False
            if drawn < 0:
                break
    if drawn == BONUS_WON:
        bonus_tiles_win(G, S, W, wall, rec, cur)
    return _close(G, S, W, rec)


@njit(cache=True, nogil=True, _nrt=False)
def play_games(
    G, P, wall_key, dice_key, bots, start, walls, dice, script, out, final, S, W, wall, lo, hi
):
    """Games ``lo .. hi - 1`` of hands ``start .. start + n - 1`` (``n`` = rows of ``out``,
    ``start`` a whole number of games) with one thread's state ``S``, scratch ``W`` and
    ``wall`` buffer, and the policy ``P`` (:mod:`mjsim.game.policy`: one type for every
    line-up, its hooks called at their addresses); game ``g`` starts with seat ``g % 4``
    dealing and the dealer then rotates by the rules. Hand ``i`` plays wall ``i`` of the
    deal pipeline, so records do not depend on chunking or threads (:func:`mjsim.game.play.play_rows` runs one call per
    thread, the GIL released).

    A replay (tests, :func:`mjsim.game.play.play_wall`): with rows in ``walls``, hand ``i``
    plays ``walls[i]`` dealt by ``dice[i, 0]`` with dice seed ``dice[i, 1]`` and the
    ``script`` (a dealer of −1: the previous hand's next dealer, hands of one game), and
    ``final`` (``int64[FINAL_SIZE]``, else empty) receives the state of the last hand.
    Each step of the hand is compiled once, on its own (:mod:`mjsim.kernels.jit`), and
    every evaluation calls the shanten kernel at its address
    (:func:`mjsim.game.evaluation.kernel_trials`), so no step carries the kernel's code."""
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
