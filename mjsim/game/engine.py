"""The turn engine: one hand (局) of play from a shuffled wall to its record (RULES.md §0.6,
§1, §2).

The wall is read head first (draws) and tail last (replacements, 开杠 reveals), as the deal
pipeline shuffles it (:func:`mjsim.kernels.deal.shuffle_into`), so a played hand and a
dealt hand with the same seed and index start from the same tiles. Deal slots go to seats
counted from the dealer. A hand then runs:

1. 起手胡 (Changsha §2.8): each count settled as a self-drawn small win.
2. Turns: draw (bonus tiles set aside and replaced from the tail), mid-game 四喜/六六顺
   (§2.9), self-drawn win, kongs — 补张 with a replacement from the tail, 开杠 revealing
   ``cs_kong_open_tiles`` tail tiles and locking the hand (§2.3.2), added kongs open to
   抢杠 — and a discard, with 报听 (§1.5) where the rules have it.
3. Claims on a discard: wins (multi-ron or head bump, 过手 §2.3.4), then kong or pung from
   anyone, then chow from the 下家.
4. The end of the wall: Changsha's 海底 (§2.3.3), or a draw when the wall is empty.

Settlement (:mod:`mjsim.game.scoring`) writes the record's columns
(:mod:`mjsim.game.record`). Decisions come from :mod:`mjsim.game.bots`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..kernels import qishou as Q
from ..kernels.deal import shuffle_into
from ..kernels.jit import njit_borrowed, njit_counted
from ..kernels.rng import below_seeded, index_seed
from . import bots as B
from . import config as C
from . import record as R
from . import scoring as SC
from .state import (MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG, ST_BAOTING, ST_BONUS,
                    ST_COST, ST_GUOSHOU, ST_KEY, ST_LLS_DONE, ST_LOCKED,
                    ST_PASS_KIND, ST_PASS_TURN, ST_QS_DONE, ST_READY, ST_SIXI_DONE, add_meld,
                    can_add, cost, find_pung, new_scratch, new_state, pop_meld, ready,
                    reset_state, upgrade_pung)

# payment sources: rows of the hand's pay array
PAY_WIN, PAY_QISHOU, PAY_MID, PAY_KONG, PAY_BAOTING = range(5)
_PAY_COLUMNS = (R.C_PAY_WIN, R.C_PAY_QISHOU, R.C_PAY_MID, R.C_PAY_KONG, R.C_PAY_BAOTING)
# kong decisions
KONG_NONE, KONG_BUZHANG, KONG_KAIGANG = range(3)
# positions kept in ``pos``
P_HEAD, P_TAIL, P_TURNS, P_KONGS, P_OPEN_KONGS, P_DEALER = range(6)
#: hands per game: the dealer rotates inside a game; game g starts with seat g % 4 dealing
GAME_LENGTH = 8


# --------------------------------------------------------------------------- small steps


@njit_borrowed
def _live(pos):
    return pos[P_TAIL] - pos[P_HEAD]


@njit_borrowed
def _draw(wall, pos, st, s, from_tail):
    """The next tile for seat ``s`` from the head (or tail), bonus tiles set aside and
    replaced from the tail; −1 when the live wall is empty."""
    while pos[P_TAIL] > pos[P_HEAD]:
        if from_tail:
            pos[P_TAIL] -= 1
            t = wall[pos[P_TAIL]]
        else:
            t = wall[pos[P_HEAD]]
            pos[P_HEAD] += 1
        if t < 34:
            return t
        st[s, ST_BONUS] += 1
        from_tail = True
    return -1


@njit_borrowed
def _win(E, S, W, s, win_kind):
    """``(legal, units, bits)`` of seat ``s``'s concealed tiles as they stand (14)."""
    if cost(E, S, W, s, S[0][s]) != 0:
        return False, 0, 0
    return SC.win_value(E[0], E[2], W[4], S[0][s], S[2][s], S[3][s], win_kind)


@njit_borrowed
def _win_on(E, S, W, s, t, win_kind):
    """:func:`_win` with tile ``t`` added for the test only."""
    if not can_add(S, s, S[0][s], t):
        return False, 0, 0
    S[0][s, t] += 1
    out = _win(E, S, W, s, win_kind)
    S[0][s, t] -= 1
    return out


@njit_borrowed
def _mark_ready(E, S, W, s):
    """After seat ``s``'s hand changed (13 tiles): ``ST_READY`` if one tile could complete
    it (by cost; 假将 shapes count where the option is on, §2.3.3)."""
    cfg, roles = E[0], E[2]
    c = cost(E, S, W, s, S[0][s])
    S[7][s, ST_COST] = c
    S[7][s, ST_READY] = c == 1 or (cfg[C.CFG_FAKE_PAIR] and W[4][roles.size - 1] == 1)


@njit_borrowed
def _ready_exact(E, S, W, s):
    """Whether seat ``s``'s 13 tiles win on some tile it may add (on another's tile; 假将
    shapes count where the option is on)."""
    cfg, roles, kind_mask = E[0], E[2], E[3]
    if not S[7][s, ST_READY]:
        return False
    counts = S[0][s]
    for t in range(34):
        if kind_mask[t] and can_add(S, s, counts, t):
            counts[t] += 1
            ok = cost(E, S, W, s, counts) == 0 or (cfg[C.CFG_FAKE_PAIR] and
                                                   W[4][roles.size - 1] == 0)
            counts[t] -= 1
            if ok:
                return True
    return False


@njit_borrowed
def _barred(E, S, o, discarder, t, pos):
    """过手: seat ``o`` may not win on another's tile until its own next discard, unless the
    follow exception lets it win its 下家's immediate same-kind discard."""
    st = S[7]
    if not st[o, ST_GUOSHOU]:
        return False
    return not (E[0][C.CFG_GUOSHOU_FOLLOW] and discarder == (o + 1) % 4
                and t == st[o, ST_PASS_KIND] and pos[P_TURNS] == st[o, ST_PASS_TURN] + 1)


@njit_borrowed
def _pass(E, S, o, t, pos):
    """Seat ``o`` passed a win on ``t``: 过手 bars it until its next discard."""
    if E[0][C.CFG_GUOSHOU]:
        S[7][o, ST_GUOSHOU] = 1
        S[7][o, ST_PASS_KIND] = t
        S[7][o, ST_PASS_TURN] = pos[P_TURNS]


@njit_borrowed
def _to_pile(S, s, t):
    S[5][t] += 1
    S[6][s, t] += 1


# --------------------------------------------------------------------------- settlement


@njit_borrowed
def _finish_win(E, S, W, wall, pos, rec, pay, winners, units, bits, win_kind, discarder, tile):
    """Birds, payments and the record's win columns for one win (one or several winners)."""
    cfg = E[0]
    hits, birds = W[6], W[7]
    live = _live(pos)
    n_birds = cfg[C.CFG_BIRDS] if cfg[C.CFG_BIRDS] < live else live
    for i in range(n_birds):
        birds[i] = wall[pos[P_HEAD] + i]
    if live == 0 and cfg[C.CFG_BIRDS] > 0 and cfg[C.CFG_HAIDI_BIRD_TILE]:
        n_birds = 1
        birds[0] = tile
    self_drawn = SC.self_drawn(win_kind)
    dealer = pos[P_DEALER]
    first = -1
    n_win = 0
    for j in range(1, 5):
        w = (discarder + j) % 4 if discarder >= 0 else (winners_first(winners) + j - 1) % 4
        if not (winners >> w) & 1:
            continue
        origin = dealer if cfg[C.CFG_BIRD_ORIGIN_DEALER] else w
        SC.bird_hits(birds, n_birds, origin, hits)
        if first < 0:
            first = w
            for s in range(4):
                rec[R.C_HITS + s] = hits[s]
        payers = 15 & ~(1 << w)
        if not self_drawn and not cfg[C.CFG_RON_ALL_PAY]:
            payers = 1 << discarder
        SC.settle(cfg, pay[PAY_WIN], w, payers, dealer, units[w], hits)
        rec[R.C_UNITS + w] = units[w]
        rec[R.C_PATTERNS + w] = bits[w]
        n_win += 1
    rec[R.C_OUTCOME] = R.OUT_WIN
    rec[R.C_WIN_KIND] = win_kind
    rec[R.C_WINNERS] = winners
    rec[R.C_N_WINNERS] = n_win
    rec[R.C_DISCARDER] = -1 if self_drawn else discarder
    rec[R.C_WIN_TILE] = tile
    rec[R.C_N_BIRDS] = n_birds
    for i in range(4):
        rec[R.C_BIRD + i] = birds[i] if i < n_birds else -1
    return first


@njit_borrowed
def winners_first(winners):
    for s in range(4):
        if (winners >> s) & 1:
            return s
    return -1


@njit_borrowed
def _small_tsumos(E, W, pay_row, s, dealer, n, dice, dice_seed, counter):
    """Settle ``n`` counts of seat ``s``'s 起手胡 or mid-game win, each a self-drawn small
    win (§2.8, §2.9); with ``cs_qs_birds = "dice"`` two dice are the birds' ranks."""
    cfg = E[0]
    hits, birds = W[6], W[7]
    n_birds = 0
    if dice:
        birds[0] = below_seeded(dice_seed, counter, 6)  # die d as the m tile of rank d
        birds[1] = below_seeded(dice_seed, counter + 1, 6)
        n_birds = 2
    origin = dealer if cfg[C.CFG_BIRD_ORIGIN_DEALER] else s
    SC.bird_hits(birds, n_birds, origin, hits)
    for _ in range(n):
        SC.settle(cfg, pay_row, s, 15 & ~(1 << s), dealer, 0, hits)


@njit(cache=True)
def _qishou(E, S, W, s, counts, pay, rec, dealer, dice_seed):
    """起手胡 of seat ``s`` on ``counts``; returns the count settled."""
    cfg, st = E[0], S[7]
    st[s, ST_QS_DONE] = 1
    raw = np.zeros(8, dtype=np.int64)
    Q._fill(counts, cfg[C.CFG_QS_REUSE_QUAD], cfg[C.CFG_QS_YZH_MODE], raw)
    total = 0
    for i in range(8):
        if (cfg[C.CFG_QS_ENABLED] >> i) & 1 and raw[i] > 0:
            total += 1 if cfg[C.CFG_QS_BINARY] else raw[i]
    if total == 0:
        return 0
    if (cfg[C.CFG_QS_ENABLED] >> 1) & 1 and raw[1] > 0:  # 四喜: its quads are counted
        for k in range(34):
            if counts[k] == 4:
                st[s, ST_SIXI_DONE] |= 1 << k
    if (cfg[C.CFG_QS_ENABLED] >> 2) & 1 and raw[2] > 0:  # 六六顺: 2·⌊t/2⌋ triplets counted
        low = 3
        high = 4 if cfg[C.CFG_QS_REUSE_QUAD] else 3
        left = 2 * raw[2]
        for k in range(34):
            if left > 0 and low <= counts[k] <= high:
                st[s, ST_LLS_DONE] |= 1 << k
                left -= 1
    _small_tsumos(E, W, pay[PAY_QISHOU], s, dealer, total, cfg[C.CFG_QS_DICE_BIRDS],
                  dice_seed, 2 * s)
    rec[R.C_QISHOU + s] += total
    return total


@njit_borrowed
def _mid_game(E, S, W, s, pay, rec, dealer):
    """中途四喜 / 中途六六顺 right after a draw (§2.9); returns the count settled."""
    cfg, conc, st = E[0], S[0], S[7]
    locked = st[s, ST_LOCKED]
    n = 0
    if cfg[C.CFG_MID_SIXI] and (not locked or cfg[C.CFG_LOCKED_SIXI]):
        for k in range(34):
            if conc[s, k] == 4 and not (st[s, ST_SIXI_DONE] >> k) & 1:
                st[s, ST_SIXI_DONE] |= 1 << k
                n += 1
    if cfg[C.CFG_MID_LLS] and not locked:
        reuse = cfg[C.CFG_QS_REUSE_QUAD]
        found = 0
        for k in range(34):
            c = conc[s, k]
            if (c == 3 or (reuse and c == 4)) and not (st[s, ST_LLS_DONE] >> k) & 1 and \
                    (reuse or not (st[s, ST_SIXI_DONE] >> k) & 1):
                found += 1
        pairs = found // 2
        left = 2 * pairs
        for k in range(34):
            c = conc[s, k]
            if left > 0 and (c == 3 or (reuse and c == 4)) and \
                    not (st[s, ST_LLS_DONE] >> k) & 1 and \
                    (reuse or not (st[s, ST_SIXI_DONE] >> k) & 1):
                st[s, ST_LLS_DONE] |= 1 << k
                left -= 1
        n += pairs
    if n > 0:
        _small_tsumos(E, W, pay[PAY_MID], s, dealer, n, False, np.uint64(0), 0)
        rec[R.C_MID + s] += n
    return n


# --------------------------------------------------------------------------- decisions


@njit_borrowed
def _own_kong(E, S, W, s, bot, drawn, live):
    """``(kind, KONG_*)`` seat ``s`` declares from its 14 tiles, or ``(-1, KONG_NONE)``."""
    cfg, conc, st = E[0], S[0], S[7]
    counts = conc[s]
    locked = st[s, ST_LOCKED]
    if live < (2 if cfg[C.CFG_HAIDI] else 1) or (locked and st[s, ST_BAOTING]):
        return -1, KONG_NONE
    open_ok = cfg[C.CFG_OPEN_KONG] and live >= cfg[C.CFG_KONG_OPEN_TILES] + 1
    if locked and not open_ok:
        return -1, KONG_NONE
    c14 = cost(E, S, W, s, counts)
    ready_before = c14 <= 1
    if drawn >= 0 and open_ok:
        counts[drawn] -= 1
        ready_before = ready(E, S, W, s)
        counts[drawn] += 1
    for k in range(34):
        i = find_pung(S, s, k) if counts[k] >= 1 else -1
        concealed = counts[k] == 4 and not locked
        if not concealed and (i < 0 or (locked and k != drawn)):
            continue
        if concealed:
            counts[k] -= 4
            add_meld(E, S, s, k, MELD_CKONG)
        else:
            counts[k] -= 1
            upgrade_pung(E, S, s, i, False)
        after = cost(E, S, W, s, counts)
        stays_ready = open_ok and ready_before and after == 1 and ready(E, S, W, s)
        if concealed:
            pop_meld(E, S, s)
            counts[k] += 4
        else:
            upgrade_pung(E, S, s, i, True)
            counts[k] += 1
        if stays_ready:
            return k, KONG_KAIGANG
        if not locked and cfg[C.CFG_BUZHANG] and after <= c14:
            return k, KONG_BUZHANG
    return -1, KONG_NONE


@njit_borrowed
def _discard_kong(E, S, W, o, t, live):
    """The kong seat ``o`` (holding three) would make on a discard of ``t``: ``KONG_*``."""
    cfg, conc, st = E[0], S[0], S[7]
    if st[o, ST_LOCKED] or live < (2 if cfg[C.CFG_HAIDI] else 1):
        return KONG_NONE
    c13 = st[o, ST_COST]
    conc[o, t] -= 3
    add_meld(E, S, o, t, MELD_KONG)
    after = cost(E, S, W, o, conc[o])
    open_ok = cfg[C.CFG_OPEN_KONG] and live >= cfg[C.CFG_KONG_OPEN_TILES] + 1 and \
        after == 1 and _ready_exact(E, S, W, o) and ready(E, S, W, o)
    pop_meld(E, S, o)
    conc[o, t] += 3
    if open_ok:
        return KONG_KAIGANG
    if cfg[C.CFG_BUZHANG] and after <= c13:
        return KONG_BUZHANG
    return KONG_NONE


@njit_borrowed
def _claim_gain(E, S, W, o, bot, t, first, mtype):
    """Seat ``o``'s best key after melding ``t`` as a pung or as the chow from ``first``."""
    conc = S[0]
    if mtype == MELD_PUNG:
        conc[o, t] -= 2
    else:
        for k in range(first, first + 3):
            if k != t:
                conc[o, k] -= 1
    add_meld(E, S, o, first, mtype)
    key = B.best_discard_key(E, S, W, o, bot)
    pop_meld(E, S, o)
    if mtype == MELD_PUNG:
        conc[o, t] += 2
    else:
        for k in range(first, first + 3):
            if k != t:
                conc[o, k] += 1
    return key


@njit_borrowed
def _best_chow(E, S, W, o, bot, t):
    """The chow (its first kind) seat ``o`` wants on ``t``, or −1."""
    conc, st = S[0], S[7]
    if t >= 27:
        return -1
    best = st[o, ST_KEY]
    choice = -1
    r = t % 9
    for first_r in range(r - 2, r + 1):
        if first_r < 0 or first_r > 6:
            continue
        first = t - r + first_r
        ok = True
        for k in range(first, first + 3):
            if k != t and conc[o, k] == 0:
                ok = False
        if not ok:
            continue
        key = _claim_gain(E, S, W, o, bot, t, first, MELD_CHOW)
        if key < best:
            best = key
            choice = first
    return choice


# --------------------------------------------------------------------------- the hand


@njit_borrowed
def _after_discard(E, S, W, s, t, pos, pay):
    """Bookkeeping of seat ``s``'s discard of ``t``: 过手, waits, 报听."""
    cfg, st = E[0], S[7]
    st[s, ST_GUOSHOU] = 0
    st[s, ST_PASS_KIND] = -1
    pos[P_TURNS] += 1
    _mark_ready(E, S, W, s)
    if st[s, ST_READY] and _win_on(E, S, W, s, t, R.WIN_DIANPAO)[0]:
        _pass(E, S, s, t, pos)  # discarding one's own winning kind passes it (§2.3.4 base rule)
    if cfg[C.CFG_BAOTING] and not st[s, ST_BAOTING] and _ready_exact(E, S, W, s):
        st[s, ST_BAOTING] = 1
        if cfg[C.CFG_BAOTING_LOCK]:
            st[s, ST_LOCKED] = 1
        for p in range(4):
            if p != s:
                pay[PAY_BAOTING, p] -= cfg[C.CFG_BAOTING_PAY]
                pay[PAY_BAOTING, s] += cfg[C.CFG_BAOTING_PAY]


@njit_borrowed
def _ron_claims(E, S, W, bots, pos, t, discarder, win_kind, units, bits):
    """Seats that win on ``t`` from ``discarder`` (bitmask), in turn order; passes are
    barred by 过手. Head bump keeps only the first unless ``multi_ron``."""
    cfg = E[0]
    winners = 0
    for j in range(1, 4):
        o = (discarder + j) % 4
        if _barred(E, S, o, discarder, t, pos):
            continue
        if not S[7][o, ST_READY]:
            continue
        legal, u, b = _win_on(E, S, W, o, t, win_kind)
        if not legal:
            continue
        if B.declines_ron(E, S, W, o, bots[o], u, _live(pos)):
            _pass(E, S, o, t, pos)
            continue
        units[o] = u
        bits[o] = b
        winners |= 1 << o
        if not cfg[C.CFG_MULTI_RON]:
            break
    return winners


@njit_borrowed
def _take_tile(S, winners, discarder, t):
    """The claimed tile moves from the pile (or the discarder's hand) to the first winner."""
    conc = S[0]
    for j in range(1, 4):
        o = (discarder + j) % 4
        if (winners >> o) & 1:
            conc[o, t] += 1
            return


@njit_counted
def _open_kong(E, S, W, wall, pos, rec, pay, bots, s, units, bits):
    """开杠 by seat ``s`` (its kong already melded): reveal, resolve, lock. Returns the
    first winner, or −1 when play goes on with ``s``'s 下家."""
    cfg, conc, st = E[0], S[0], S[7]
    k = cfg[C.CFG_KONG_OPEN_TILES]
    st[s, ST_LOCKED] = 1
    pos[P_OPEN_KONGS] += 1
    start = pos[P_TAIL] - k
    pos[P_TAIL] = start
    n_win = 0
    best = -1
    best_units = -1
    best_bits = 0
    for i in range(k):
        x = wall[start + i]
        legal, u, b = _win_on(E, S, W, s, x, R.WIN_GANGKAI)
        if legal:
            n_win += 1
            if u > best_units:
                best, best_units, best_bits = x, u, b
    if n_win > 0:
        units[s] = SC.multi_gangkai(cfg, best_units, n_win)
        bits[s] = best_bits
        used = False
        for i in range(k):
            x = wall[start + i]
            if x == best and not used:
                conc[s, x] += 1
                used = True
            else:
                _to_pile(S, s, x)
        return _finish_win(E, S, W, wall, pos, rec, pay, 1 << s, units, bits, R.WIN_GANGKAI,
                           -1, best)
    winners = 0
    tiles = np.full(4, -1, dtype=np.int64)
    for j in range(1, 4):
        o = (s + j) % 4
        if st[o, ST_GUOSHOU]:
            continue
        top = -1
        for i in range(k):
            x = wall[start + i]
            legal, u, b = _win_on(E, S, W, o, x, R.WIN_GANGPAO)
            if legal and u > top:
                top, tiles[o], bits[o] = u, x, b
        if top < 0:
            continue
        if B.declines_ron(E, S, W, o, bots[o], top, _live(pos)):
            _pass(E, S, o, tiles[o], pos)
            continue
        units[o] = top
        winners |= 1 << o
        if not cfg[C.CFG_MULTI_RON]:
            break
    taken = np.zeros(4, dtype=np.bool_)
    for j in range(1, 4):
        o = (s + j) % 4
        if not (winners >> o) & 1:
            continue
        for i in range(k):
            if not taken[i] and wall[start + i] == tiles[o]:
                taken[i] = True
                conc[o, tiles[o]] += 1
                break
    for i in range(k):
        if not taken[i]:
            _to_pile(S, s, wall[start + i])
    if winners:
        first = _finish_win(E, S, W, wall, pos, rec, pay, winners, units, bits,
                            R.WIN_GANGPAO, s, tiles[winners_first(winners)])
        rec[R.C_WIN_TILE] = tiles[first]
        return first
    _mark_ready(E, S, W, s)
    return -1


@njit_borrowed
def _kong_pay(E, pay, s, payers):
    value = E[0][C.CFG_KONG_PAY]
    for p in range(4):
        if p != s and (payers >> p) & 1:
            pay[PAY_KONG, p] -= value
            pay[PAY_KONG, s] += value


@njit_borrowed
def _haidi(E, S, W, wall, pos, rec, pay, bots, cur, units, bits):
    """海底 (§2.3.3): the first ready player from ``cur`` takes the last tile. Returns the
    first winner or −1 (a draw)."""
    conc = S[0]
    taker = -1
    for j in range(4):
        o = (cur + j) % 4
        if _ready_exact(E, S, W, o) and B.takes_haidi(E, S, o, bots[o]):
            taker = o
            break
    if taker < 0:
        return -1
    t = wall[pos[P_HEAD]]
    pos[P_HEAD] += 1
    conc[taker, t] += 1
    legal, u, b = _win(E, S, W, taker, R.WIN_HAIDILAO)
    if legal:
        units[taker] = u
        bits[taker] = b
        return _finish_win(E, S, W, wall, pos, rec, pay, 1 << taker, units, bits,
                           R.WIN_HAIDILAO, -1, t)
    conc[taker, t] -= 1
    _to_pile(S, taker, t)
    pos[P_TURNS] += 1
    winners = _ron_claims(E, S, W, bots, pos, t, taker, R.WIN_HAIDIPAO, units, bits)
    if winners:
        S[5][t] -= 1
        _take_tile(S, winners, taker, t)
        return _finish_win(E, S, W, wall, pos, rec, pay, winners, units, bits,
                           R.WIN_HAIDIPAO, taker, t)
    return -1


@njit_borrowed
def _next_draw(E, S, W, wall, pos, rec, pay, bots, cur, units, bits):
    """Seat ``cur`` draws: the tile (now in its hand), or −1 when the hand ended — at the
    海底 (Changsha: the last tile goes to the first ready player) or on an empty wall."""
    if E[0][C.CFG_HAIDI] and _live(pos) == 1:
        _haidi(E, S, W, wall, pos, rec, pay, bots, cur, units, bits)
        return -1
    t = _draw(wall, pos, S[7], cur, False)
    if t >= 0:
        S[0][cur, t] += 1
    return t


@njit_borrowed
def _after_kong(E, S, W, wall, pos, rec, pay, bots, s, opening, units, bits):
    """After seat ``s``'s kong is melded: a 补张 draws its replacement from the tail; a 开杠
    reveals and resolves (§2.3.2), then ``s``'s 下家 draws. Returns ``(seat to move, tile
    drawn or −1 when the hand ended, the kind a self-drawn win would be)``."""
    if not opening:
        t = _draw(wall, pos, S[7], s, True)
        S[0][s, t] += 1
        return s, t, R.WIN_GANGKAI if E[0][C.CFG_BUZHANG_GANGKAI] else R.WIN_ZIMO
    if _open_kong(E, S, W, wall, pos, rec, pay, bots, s, units, bits) >= 0:
        return s, -1, R.WIN_ZIMO
    nxt = (s + 1) % 4
    return nxt, _next_draw(E, S, W, wall, pos, rec, pay, bots, nxt, units, bits), R.WIN_ZIMO


@njit_borrowed
def _close(E, S, W, pos, rec, pay):
    """Final columns of the record; returns the next dealer."""
    cfg, st = E[0], S[7]
    dealer = pos[P_DEALER]
    for src in range(5):
        for s in range(4):
            rec[_PAY_COLUMNS[src] + s] = pay[src, s]
            rec[R.C_PAY + s] += pay[src, s]
    rec[R.C_DEALER] = dealer
    rec[R.C_TURNS] = pos[P_TURNS]
    rec[R.C_TILES_LEFT] = _live(pos)
    rec[R.C_KONGS] = pos[P_KONGS]
    rec[R.C_OPEN_KONGS] = pos[P_OPEN_KONGS]
    for s in range(4):
        rec[R.C_BAOTING] |= st[s, ST_BAOTING] << s
        rec[R.C_LOCKED] |= st[s, ST_LOCKED] << s
        if rec[R.C_OUTCOME] == R.OUT_DRAW and _ready_exact(E, S, W, s):
            rec[R.C_READY_END] |= 1 << s
    nxt = dealer
    if rec[R.C_OUTCOME] == R.OUT_WIN:
        if cfg[C.CFG_ROTATION_KEEP]:
            nxt = dealer if (rec[R.C_WINNERS] >> dealer) & 1 else (dealer + 1) % 4
        else:
            nxt = _first_from_rec(rec)
    rec[R.C_NEXT_DEALER] = nxt
    return nxt


@njit_borrowed
def _first_from_rec(rec):
    """The first winner in turn order after the discarder (or the self-drawing winner)."""
    d = rec[R.C_DISCARDER]
    start = d if d >= 0 else winners_first(rec[R.C_WINNERS]) - 1
    for j in range(1, 5):
        w = (start + j) % 4
        if (rec[R.C_WINNERS] >> w) & 1:
            return w
    return -1


@njit(cache=True)
def _deal(wall, seats, is_bonus, dealer, conc, st, pos):
    """Deal slots to seats counted from the dealer; bonus tiles replaced from the tail in
    seat order from the dealer."""
    pending = np.zeros(4, dtype=np.int64)
    for p in range(seats.size):
        s = (dealer + seats[p]) % 4
        if is_bonus[wall[p]]:
            pending[s] += 1
        else:
            conc[s, wall[p]] += 1
    pos[P_HEAD] = seats.size
    for j in range(4):
        s = (dealer + j) % 4
        for _ in range(pending[s]):
            conc[s, _draw(wall, pos, st, s, True)] += 1
        st[s, ST_BONUS] += pending[s]


@njit_borrowed
def _may_gain(S, bots, o):
    """Whether a chow or pung could lower seat ``o``'s key: not when its hand is already
    ready under a bot whose key is its shanten alone (a meld then leaves it ready at best)."""
    return bots[o] == R.BOT_VALUE or S[7][o, ST_COST] > 1


@njit_borrowed
def _claim_on(E, S, W, bots, pos, cur, t):
    """``(claimer, claim, chow's first kind)`` on ``cur``'s discard ``t``: a kong or pung
    from anyone, else a chow from the 下家; ``claim`` is a ``MELD_*`` or
    ``10 + KONG_*`` for a kong on the discard."""
    cfg, conc, st = E[0], S[0], S[7]
    live = _live(pos)
    if live == 0:
        return -1, -1, t  # the last discard may only be won on
    for j in range(1, 4):
        o = (cur + j) % 4
        if st[o, ST_LOCKED] or conc[o, t] < 2:
            continue
        if conc[o, t] == 3:
            how = _discard_kong(E, S, W, o, t, live)
            if how != KONG_NONE:
                return o, 10 + how, t
        if _may_gain(S, bots, o) and \
                _claim_gain(E, S, W, o, bots[o], t, t, MELD_PUNG) < st[o, ST_KEY]:
            return o, MELD_PUNG, t
        break
    o = (cur + 1) % 4
    if cfg[C.CFG_ALLOW_CHOW] and not st[o, ST_LOCKED] and _may_gain(S, bots, o):
        first = _best_chow(E, S, W, o, bots[o], t)
        if first >= 0:
            return o, MELD_CHOW, first
    return -1, -1, t


@njit(cache=True)
def play_hand(E, S, W, pos, seats, is_bonus, wall, dealer, bots, dice_seed, start, rec):
    """Play one hand on ``wall`` with ``dealer``; fill ``rec`` (``int32[N_COLUMNS]``) and
    return the next dealer. ``pos`` (``int64[6]``, the ``P_*`` positions) is left as the
    hand ended; ``dice_seed`` keys the dice of 起手胡 birds.

    ``start`` scripts a position (tests): ``start[0]`` head tiles are set aside after the
    deal, and ``start[1 + 3*m .. 3 + 3*m]`` = (seat + 1, kind, MELD_*) turn dealt tiles into
    exposed melds before play (0 ends the list)."""
    cfg = E[0]
    conc, st = S[0], S[7]
    reset_state(S)
    rec[:] = 0
    rec[R.C_DISCARDER] = -1
    rec[R.C_WIN_TILE] = -1
    for i in range(4):
        rec[R.C_BIRD + i] = -1
    pos[:] = 0
    pos[P_TAIL] = wall.size
    pos[P_DEALER] = dealer
    pay = np.zeros((5, 4), dtype=np.int64)
    units = np.zeros(4, dtype=np.int64)
    bits = np.zeros(4, dtype=np.int64)
    _deal(wall, seats, is_bonus, dealer, conc, st, pos)
    pos[P_HEAD] += start[0]
    m = 1
    while m + 2 < start.size and start[m] > 0:
        s, kind, mtype = start[m] - 1, start[m + 1], start[m + 2]
        if mtype == MELD_CHOW:
            for k in range(kind, kind + 3):
                conc[s, k] -= 1
        else:
            conc[s, kind] -= 3
        add_meld(E, S, s, kind, mtype)
        m += 3
    if cfg[C.CFG_QS_ON]:
        n_qs = 0
        for j in range(4):
            s = (dealer + j) % 4
            if s == dealer or not cfg[C.CFG_QS_BEFORE_DISCARD]:
                n_qs += _qishou(E, S, W, s, conc[s], pay, rec, dealer, dice_seed)
        if n_qs > 0 and cfg[C.CFG_QS_ENDS_HAND]:
            rec[R.C_OUTCOME] = R.OUT_QISHOU_END
            return _close(E, S, W, pos, rec, pay)
    for j in range(1, 4):
        s = (dealer + j) % 4
        st[s, ST_KEY], st[s, ST_COST] = B.hand_key(E, S, W, s, conc[s], bots[s])
        _mark_ready(E, S, W, s)
    cur = dealer
    drawn = -1          # the tile the player to move just drew (−1: none)
    drew = True         # the turn began with a draw (or is the dealer's first)
    self_kind = R.WIN_ZIMO
    while True:
        # ---- the player to move holds 14 tiles (kongs counted as 3)
        if not st[cur, ST_QS_DONE] and cfg[C.CFG_QS_ON]:
            counts = conc[cur].copy()
            for k in range(34):
                counts[k] += S[1][cur, k]
            if _qishou(E, S, W, cur, counts, pay, rec, dealer, dice_seed) and \
                    cfg[C.CFG_QS_ENDS_HAND]:
                rec[R.C_OUTCOME] = R.OUT_QISHOU_END
                break
        if drew:
            if drawn >= 0:
                _mid_game(E, S, W, cur, pay, rec, dealer)
            legal, u, b = _win(E, S, W, cur, self_kind)
            if legal:
                units[cur] = u
                bits[cur] = b
                _finish_win(E, S, W, wall, pos, rec, pay, 1 << cur, units, bits, self_kind,
                            -1, drawn)
                break
            kind, how = _own_kong(E, S, W, cur, bots[cur], drawn, _live(pos))
            if how != KONG_NONE:
                i = find_pung(S, cur, kind)
                if i < 0:
                    conc[cur, kind] -= 4
                    add_meld(E, S, cur, kind, MELD_CKONG)
                else:
                    # an added kong may be robbed (抢杠); the konger pays as discarder
                    winners = _ron_claims(E, S, W, bots, pos, kind, cur, R.WIN_QIANGGANG,
                                          units, bits)
                    if winners:
                        conc[cur, kind] -= 1
                        _take_tile(S, winners, cur, kind)
                        _finish_win(E, S, W, wall, pos, rec, pay, winners, units, bits,
                                    R.WIN_QIANGGANG, cur, kind)
                        break
                    conc[cur, kind] -= 1
                    upgrade_pung(E, S, cur, i, False)
                _kong_pay(E, pay, cur, 15)
                pos[P_KONGS] += 1
                cur, drawn, self_kind = _after_kong(E, S, W, wall, pos, rec, pay, bots, cur,
                                                    how == KONG_KAIGANG, units, bits)
                if drawn < 0:
                    break
                continue
        # ---- discard: a locked hand throws what it drew
        if st[cur, ST_LOCKED] and drawn >= 0:
            t = drawn
            conc[cur, t] -= 1
            st[cur, ST_KEY], st[cur, ST_COST] = B.hand_key(E, S, W, cur, conc[cur], bots[cur])
        else:
            t = B.choose_discard(E, S, W, cur, bots[cur])
            conc[cur, t] -= 1
        _to_pile(S, cur, t)
        _after_discard(E, S, W, cur, t, pos, pay)
        # ---- claims: win, then kong or pung, then chow
        winners = _ron_claims(E, S, W, bots, pos, t, cur, R.WIN_DIANPAO, units, bits)
        if winners:
            S[5][t] -= 1
            _take_tile(S, winners, cur, t)
            _finish_win(E, S, W, wall, pos, rec, pay, winners, units, bits, R.WIN_DIANPAO,
                        cur, t)
            break
        claimer, claim, first = _claim_on(E, S, W, bots, pos, cur, t)
        if claimer < 0:
            cur = (cur + 1) % 4
            drawn = _next_draw(E, S, W, wall, pos, rec, pay, bots, cur, units, bits)
            drew = True
            self_kind = R.WIN_ZIMO
            if drawn < 0:
                break
            continue
        S[5][t] -= 1  # the claimed tile leaves the pile for the meld
        discarder = cur
        cur = claimer
        drawn = -1
        drew = False
        if claim == MELD_CHOW:
            for k in range(first, first + 3):
                if k != t:
                    conc[cur, k] -= 1
            add_meld(E, S, cur, first, MELD_CHOW)
        elif claim == MELD_PUNG:
            conc[cur, t] -= 2
            add_meld(E, S, cur, t, MELD_PUNG)
        else:
            conc[cur, t] -= 3
            add_meld(E, S, cur, t, MELD_KONG)
            _kong_pay(E, pay, cur, 1 << discarder)
            pos[P_KONGS] += 1
            cur, drawn, self_kind = _after_kong(E, S, W, wall, pos, rec, pay, bots, cur,
                                                claim == 10 + KONG_KAIGANG, units, bits)
            drew = True
            if drawn < 0:
                break
    return _close(E, S, W, pos, rec, pay)


@njit(cache=True)
def play_one(E, seats, is_bonus, wall, dealer, bots, dice_seed, start, rec):
    """:func:`play_hand` with fresh state; returns the final state (for replays and tests)."""
    S = new_state()
    W = new_scratch(E[1].shape[0])
    pos = np.zeros(6, dtype=np.int64)
    play_hand(E, S, W, pos, seats, is_bonus, wall, dealer, bots, dice_seed, start, rec)
    return S, pos


@njit(cache=True, parallel=True)
def play_games(cfg, families, roles, kind_mask, honour_mask, wild_mask, tabs, seats, is_bonus,
               multiset, wall_key, dice_key, bots, start, out):
    """Hands ``start .. start + n - 1`` (``n`` = rows of ``out``, ``start`` a multiple of
    :data:`GAME_LENGTH`), game by game in parallel; game ``g`` starts with seat ``g % 4``
    dealing and the dealer then rotates by the rules. Hand ``i`` plays wall ``i`` of the
    deal pipeline, so records do not depend on chunking or threads. The rule set's arrays
    come one by one (numba's parallel loops do not take nested tuples)."""
    n = out.shape[0]
    first_game = start // GAME_LENGTH
    n_games = (n + GAME_LENGTH - 1) // GAME_LENGTH
    for g in prange(n_games):
        E = (cfg, families, roles, kind_mask, honour_mask, wild_mask, tabs)
        S = new_state()
        W = new_scratch(families.shape[0])
        wall = np.empty(multiset.size, dtype=np.int8)
        start_none = np.zeros(1, dtype=np.int64)
        pos = np.zeros(6, dtype=np.int64)
        dealer = (first_game + g) % 4
        for h in range(GAME_LENGTH):
            i = g * GAME_LENGTH + h
            if i >= n:
                break
            index = start + i
            shuffle_into(multiset, wall_key, index, wall)
            dealer = play_hand(E, S, W, pos, seats, is_bonus, wall, dealer, bots,
                               index_seed(dice_key, index), start_none, out[i])
            out[i, R.C_INDEX] = index
