"""Decisions: win or pass on a discard, 报听 after one, claims on it, kongs, 推出.

Each asks the seat's bot (:mod:`mjsim.game.bots`) unless a search seat's choice for this
tile is in its status (``ST_RON``, ``ST_CLAIM``: :mod:`mjsim.game.search`).
"""

from __future__ import annotations

import numpy as np

from ..kernels.jit import njit_borrowed
from ..kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from . import bots as B
from . import record as R
from . import scoring as SC
from . import values as V
from .evaluation import cost
from .state import (
    CLAIM_BY_BOT,
    CLAIM_DECLINE,
    CLAIM_TAKE_CHOW,
    CLAIM_TAKE_PUNG,
    M_KIND,
    M_TYPE,
    P_BAO,
    P_BAO_SLOT,
    P_LAST,
    P_TURNS,
    PUSH_NONE,
    RON_BOT,
    RON_PASS,
    ST_CLAIM,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    ST_LOCKED,
    ST_PASS_BAR,
    ST_PASS_KIND,
    ST_PASS_TURN,
    ST_PASSED,
    ST_PUSH,
    ST_READY,
    ST_RON,
    ST_TENPAI,
    add_meld,
    find_pung,
    live,
    pop_meld,
    upgrade_pung,
)
from .wall import change_indicator, tiles_left, turn_indicator
from .wins import (
    finish_win,
    mark_ready,
    may_declare,
    ready_exact,
    record_ready,
    stays_ready,
    win_on_ready,
    win_test_on,
)

# kong decisions
KONG_NONE, KONG_REPLACE, KONG_OPEN = range(3)
# claims on a discard
CLAIM_NONE, CLAIM_CHOW, CLAIM_PUNG, CLAIM_KONG, CLAIM_OPEN_KONG = range(5)


@njit_borrowed
def barred(G, S, o, discarder, t):
    """``pass_bar`` 过手: seat ``o`` may not win on another's tile until its own next
    discard, unless the follow exception lets it win its 下家's immediate same-kind discard."""
    st = S.status
    if not st[o, ST_PASS_BAR]:
        return False
    if G.cfg[V.PASS_BAR] == V.PASS_SAME_KIND:
        return (st[o, ST_PASS_BAR] >> t) & 1 == 1
    return not (
        G.cfg[V.PASS_FOLLOW_EXCEPTION]
        and discarder == (o + 1) % 4
        and t == st[o, ST_PASS_KIND]
        and S.pos[P_TURNS] == st[o, ST_PASS_TURN] + 1
    )


@njit_borrowed
def pass_win(G, S, o, t):
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
def _must_win(G, S, o):
    """Whether seat ``o`` may not pass a win (a declared hand where the rules say so)."""
    return G.cfg[V.DECLARE_MUST_WIN] and S.status[o, ST_DECLARED]


@njit_borrowed
def may_pass_win(G, S, W, o, discarder, t):
    """Whether seat ``o`` may win on ``discarder``'s discard ``t`` and may pass it (the
    choice a search seat weighs, :func:`mjsim.game.search.win_or_pass`)."""
    if not S.status[o, ST_READY] or barred(G, S, o, discarder, t) or _must_win(G, S, o):
        return False
    return win_test_on(G, S, W, o, t, np.int64(R.WIN_DIANPAO))[0]


@njit_borrowed
def ron_claims(G, S, W, bots, discarder, n_offered, win_kind):
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
            if barred(G, S, o, discarder, t):
                continue
            legal, u, b = win_test_on(G, S, W, o, t, win_kind)
            if legal and u > top:
                top = u
                W.tiles[o] = t
                S.bits[o] = b
        if top < 0:
            continue
        if choice == RON_PASS or (
            choice == RON_BOT
            and not _must_win(G, S, o)
            and B.declines_ron(G, S, W, o, bots[o], top, tiles_left(G, S))
        ):
            pass_win(G, S, o, W.tiles[o])
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
def win_on_discard(G, S, W, wall, rec, bots, discarder, t, win_kind, from_pile):
    """Claims to win on ``discarder``'s tile ``t`` (a discard or the 海底 tile thrown, both
    ``from_pile``, or a robbed kong tile); the tile goes to the first winner. Returns the
    first winner or −1."""
    W.offered[0] = t
    winners = ron_claims(G, S, W, bots, discarder, np.int64(1), win_kind)
    if not winners:
        return -1
    S.seen[t] -= from_pile
    first = finish_win(G, S, W, wall, rec, winners, win_kind, discarder, t)
    S.concealed[first, t] += 1
    return first


@njit_borrowed
def after_discard(G, S, W, wall, rec, s, t):
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
    mark_ready(G, S, W, s)
    if st[s, ST_READY] and rec[R.C_READY_SHAPE + s] == 0:
        record_ready(G, S, W, rec, s)
    declares = may_declare(G, S, s)
    # exact readiness, where 报听 or a liability case (承包: is the discarder ready?) needs it
    st[s, ST_TENPAI] = (declares or G.cfg[V.FEED_LIMIT] > 0) and ready_exact(G, S, W, s)
    if declares and st[s, ST_TENPAI]:
        st[s, ST_DECLARED] = 1
        rec[R.C_DECLARE_TURN + s] = S.pos[P_TURNS]
        if G.cfg[V.DECLARE_LOCK]:
            st[s, ST_LOCKED] = 1
        SC.declare(G, S, s)
        if G.cfg[V.WILD] == V.WILD_DECLARED_DRAW and S.pos[P_BAO] < 0:
            turn_indicator(G, S, wall, S.pos[P_BAO_SLOT])
        if G.cfg[V.WILD_ON_READY] and win_on_ready(G, S, W, wall, rec, s):
            return True
    change_indicator(G, S, wall)
    if (
        G.cfg[V.PASS_BAR] == V.PASS_GUOSHOU
        and st[s, ST_READY]
        and win_test_on(G, S, W, s, t, np.int64(R.WIN_DIANPAO))[0]
    ):
        pass_win(G, S, s, t)  # discarding one's own winning kind passes it (§2.3.4 base rule)
    return False


@njit_borrowed
def push_out(G, S, W, s, t, bot):
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
        if counts[k] == 2 and win_test_on(G, S, W, s, np.int64(k), np.int64(R.WIN_ZIMO))[0]:
            n += 1
            if best < 0 or live(S, s, k) > live(S, s, best):
                best = k
    counts[t] += 1
    if n >= 2:
        S.status[s, ST_PUSH] = best + PUSH_NONE + 1


@njit_borrowed
def _meld_allowed(G, S, s, kind):
    """Whether seat ``s`` may meld ``kind`` (定缺: not its void suit unless ``void_melds``;
    not a wild kind unless ``wild_melds``)."""
    return (G.cfg[V.VOID_MELDS] or kind // 9 != S.void[s]) and (
        G.cfg[V.WILD_MELDS] or not S.wild[s, kind]
    )


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
def own_kong(G, S, W, s, drawn, live):
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
        ready_before = stays_ready(G, S, W, s)
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
        stays = open_ok and ready_before and after == 1 and stays_ready(G, S, W, s)
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
    open_ok = (
        _open_kong_ok(G, live)
        and after == 1
        and ready_exact(G, S, W, o)
        and stays_ready(G, S, W, o)
    )
    pop_meld(G, S, o)
    S.concealed[o, t] += 3
    if open_ok:
        return KONG_OPEN
    if G.cfg[V.REPLACEMENT_KONG] and after <= c13:
        return KONG_REPLACE
    return KONG_NONE


@njit_borrowed
def take_for_meld(S, o, t, first, mtype, step):
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
    take_for_meld(S, o, t, first, mtype, np.int64(-1))
    add_meld(G, S, o, first, mtype, discarder)
    key = B.best_discard_key(G, S, W, o, bot)
    pop_meld(G, S, o)
    take_for_meld(S, o, t, first, mtype, np.int64(1))
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
        take_for_meld(S, o, t, first, np.int64(MELD_CHOW), np.int64(-1))
        add_meld(G, S, o, first, np.int64(MELD_CHOW), discarder)
        found = False
        # some discard leaves the hand one tile from a win (by cost) exactly when its cost
        # before the discard is at most 1; only then is each discard tested tile by tile
        if conc.sum() - 1 >= G.cfg[V.DECLARE_MIN_CONCEALED] and cost(G, S, W, o, conc) <= 1:
            for d in range(34):
                if conc[d] > 0:
                    conc[d] -= 1
                    found = stays_ready(G, S, W, o)
                    conc[d] += 1
                    if found:
                        break
        pop_meld(G, S, o)
        take_for_meld(S, o, t, first, np.int64(MELD_CHOW), np.int64(1))
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
    live = tiles_left(G, S)
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
            choice == CLAIM_BY_BOT
            and _may_gain(S, bots, o)
            and _claim_gain(G, S, W, o, bots[o], cur, t, t, np.int64(MELD_PUNG))
            < S.status[o, ST_KEY]
        ):
            return o, CLAIM_PUNG, t
        if bar_pungs:
            S.status[o, ST_PASS_BAR] |= 1 << t  # declining the pung bars the kind
        break
    o = (cur + 1) % 4
    choice = S.status[o, ST_CLAIM]
    if choice >= CLAIM_TAKE_CHOW:
        return o, CLAIM_CHOW, choice - CLAIM_TAKE_CHOW
    if (
        G.cfg[V.CHOW] == V.CHOW_LEFT
        and choice == CLAIM_BY_BOT
        and not S.status[o, ST_LOCKED]
        and _may_gain(S, bots, o)
    ):
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
    if (
        G.cfg[V.READY_CHOW_ANY]
        or tiles_left(G, S) <= 0
        or S.status[s, ST_LOCKED]
        or S.concealed[s, t] > 2
    ):
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
