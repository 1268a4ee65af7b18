"""The bots: which tile to discard, which claims to make, when to kong, decline or declare.

Three heuristic policies, chosen per seat by code (:data:`mjsim.game.record.BOTS`; the
fourth, ``search``, weighs its discards by rollouts — :mod:`mjsim.game.search` — and plays
as efficiency everywhere else):

- **efficiency**: the discard leaving the lowest shanten, then the most live improving
  tiles (ukeire over the kinds within two ranks of a held tile — an isolated new tile
  rarely improves a hand); claims a chow, pung or kong only when it lowers shanten; 开杠
  whenever it is allowed and the hand stays ready.
- **value**: as efficiency, but scores a hand by ``min(shanten, big-win shanten − 1)``
  over the scoring model's big-win families (Changsha: 清一色, 碰碰胡, 七对, 将一色;
  Shanghai 清混碰: 清一色 and 风一色, the 勒子 tiers), so it steers toward a big win that is
  close; it declines a small win (worth less than ``decline_below``: Changsha's small win,
  a 清混碰 hand below one 勒子) on another player's tile while its hand is ready for a big
  win and at least ten tiles are left (a refusal that 过手 or 漏胡 then punishes). Where the
  model weighs waits (``weigh_waits``: the 宝 games) it picks, among the discards that leave
  it ready, the waits worth most — live winning tiles × the units of each win, so a 边/卡/吊
  wait (×2) or one on a 宝 kind it can see (宝中宝, ×16) beats a wider plain one only when it
  is worth more — and sets aside a pair of a 对倒 wait (推出). It does not give up claims
  to keep a closed hand for 闷听 (×2): measured in ``hongzhong112``, that habit lost 1.7 a
  hand against claiming freely, and keeping the hand closed only at shanten 2 or better
  lost 0.8. Where the model has none of these it plays as efficiency.
- **cautious**: as efficiency, but while an opponent has declared (报听), is locked after
  an opening kong, shows three melds, or is one claim on its discards from a liability
  (承包, ``feed_limit``), it prefers tiles that opponent has discarded (现物); far from
  ready (``fold_from``: shanten ≥ 2) it gives up speed for safety. Where every other seat
  pays each win (the 宝 games), dealing in costs only the discarder's extra share — ×2
  while he has not declared — so it folds only from shanten 3, and never where the
  discarder pays no more than the others (measured: folding from shanten 1 or 2 lost
  0.49 / 0.04 a hand in ``hongzhong112`` and 0.58 / 0.18 in ``ne_alt`` against never).
  Where the rules let it refuse the 海底, it refuses it under such a threat.

Every bot evaluates under its own seat's void suit and wildcards, and never discards a
wild tile (百搭, 财神) while it holds another; where 报听 exists it declares as soon as its hand
is ready (the engine's ``declare``); where the rules force the order of discards (honours
first, :func:`forced_discard`) it chooses among the tiles allowed. Where declining a pung
or a win bars the kind until the seat's next draw (§3.4, ``pass_bar_pungs``), a bot declines
only what it would decline anyway: the bar can cost it a later win on that kind only if its
waits change before that draw, which only a chow claim does, so no policy weighs it; the
value bot passes a small win (below 双翻 in the 财神 game, where its big-win family is 八对
and, keeping every 财神, it is on the way to 三财神) knowing the same tile stays barred. In
定缺 it picks the void suit that leaves the lowest shanten, then the one with fewest tiles to
shed (:func:`choose_void`), and where void-suit tiles must go first it discards among them.

Keys are integers, lower is better: ``64 · score`` plus tie-breaks, so one comparison
orders them.
"""

from __future__ import annotations

import numpy as np

from ..kernels.jit import njit_borrowed, njit_inline
from ..tables.suits import INF
from . import record as R
from . import scoring as SC
from . import values as V
from .evaluation import cost, kernel_trials
from .state import (
    DRAW_NATURAL,
    DRAW_WILD,
    P_LAST,
    P_WILD_DRAW,
    P_WILD_TILE,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    ST_LOCKED,
    TRIAL_IN,
    TRIAL_OUT,
    TRIAL_WEIGHT,
    can_add,
    claims,
    is_wild_kind,
    live,
    wild_mask,
)


@njit_borrowed
def big_cost(G, W):
    """The lowest cost among the big-win families, from the last :func:`cost` call."""
    best = INF
    for f in range(G.big.size):
        if G.big[f] and W.per_family[f] < best:
            best = W.per_family[f]
    return best


@njit_inline
def _key(c, b, bot):
    """``bot``'s key of a hand of cost ``c`` whose big-win families' lowest cost is ``b``."""
    if bot != R.BOT_VALUE:
        return 64 * c
    score = c if c <= b - 1 else b - 1
    return 64 * score + (b if b < 63 else 63)


@njit_inline
def hand_key(G, S, W, s, counts, bot):
    """``(key, cost)`` of a 13-tile hand under ``bot``'s scoring (lower key is better)."""
    c = cost(G, S, W, s, counts)
    return _key(c, big_cost(G, W) if bot == R.BOT_VALUE else INF, bot), c


@njit_borrowed
def _relevant(counts, t):
    if counts[t] > 0:
        return True
    if t >= 27:
        return False
    r = t % 9
    for d in (-2, -1, 1, 2):
        if 0 <= r + d < 9 and counts[t + d] > 0:
            return True
    return False


@njit_borrowed
def tile_scan(G, S, W, s, counts, n_fams, base, beat, d, c14):
    """What one more tile does to ``counts`` (families: the first ``n_fams`` of ``W.close``).

    With ``d`` < 0 (the 14 tiles): mark in ``W.improvers`` the kinds near them that bring
    the 15-tile hand below cost ``base`` — only they can improve any 13 tiles left by a
    discard (adding tiles never raises a cost, removing one never lowers it) — and return 0.

    With ``d`` ≥ 0 (the 13 tiles left by discarding ``d`` from 14 of cost ``c14``): the
    live copies of the marked kinds that bring them below ``base`` (ukeire), or some number
    at most ``beat`` as soon as the count cannot exceed ``beat`` (the caller keeps only a
    count above it). Kinds with no live copy count nothing and are not evaluated; ``d``
    drawn back is the 14 tiles, of cost ``c14``. The tiles are tried in one call of the
    kernel (:func:`kernel_trials`).
    """
    mask = W.improvers[:]
    trials = W.trials
    marking = d < 0
    n = 0
    first = 0  # the count from d drawn back
    for t in range(34):
        if marking:
            mask[t] = 0
            if not G.kind_mask[t] or not can_add(S, s, counts, t) or not _relevant(counts, t):
                continue
            weight = 0
        else:
            if not mask[t] or not can_add(S, s, counts, t):
                continue
            weight = live(S, s, t)
            if weight == 0:
                continue
            if t == d:
                first = weight if c14 < base else 0
                continue
        trials[n, TRIAL_OUT], trials[n, TRIAL_IN], trials[n, TRIAL_WEIGHT] = -1, t, weight
        n += 1
    got = kernel_trials(
        G,
        S,
        W,
        s,
        counts,
        W.close[:n_fams],
        wild_mask(S, s),
        W.caps[:],
        G.big[:0],
        np.int64(n),
        np.int64(1),
        base,
        np.int64(-1) if marking else beat - first,
    )
    if marking:
        for i in range(n):
            mask[trials[i, TRIAL_IN]] = W.trial_cost[i] < base
    return first + got


@njit_borrowed
def close_families(G, W, best):
    """The scoring families whose cost (left in ``W.per_family`` for 14 tiles) is at most
    ``best``: the only ones that can reach ``best`` after a discard or drop below it after
    a draw, since one tile moves a family's cost by at most one. The rows are copied into
    ``W.close`` (valid until the next call) and their number is returned."""
    n = 0
    for f in range(G.cfg[V.N_SCORING]):
        if W.per_family[f] <= best:
            for col in range(G.families.shape[1]):
                W.close[n, col] = G.families[f, col]
            n += 1
    return n


@njit_borrowed
def threats(G, S, s):
    """Bitmask of opponents of ``s`` who have declared, are locked or show three melds, or
    are one claim on ``s``'s discards from a liability (``feed_limit``, 承包)."""
    mask = 0
    feed = G.cfg[V.FEED_LIMIT]
    for o in range(4):
        if o != s and (
            S.status[o, ST_DECLARED]
            or S.status[o, ST_LOCKED]
            or S.n_melds[o] >= 3
            or (feed > 0 and claims(S, o, s) >= feed - 1)
        ):
            mask |= 1 << o
    return mask


@njit_borrowed
def danger(S, threat, d):
    """How many of the opponents in the bitmask ``threat`` have not discarded ``d``."""
    n = 0
    for o in range(4):
        if (threat >> o) & 1 and S.discards[o, d] == 0:
            n += 1
    return n


@njit_borrowed
def _must_shed(G, S, s, counts):
    """The void suit whose tiles seat ``s`` must discard first, or −1 (no such rule, or no
    such tile held)."""
    v = S.void[s]
    if not G.cfg[V.VOID_FIRST] or v < 0:
        return -1
    for k in range(9 * v, 9 * v + 9):
        if counts[k] > 0 and not S.wild[s, k]:
            return v
    return -1


#: :func:`forced_discard`: any single honour held must go (no honour to follow)
SHED_SINGLE = -2


@njit_borrowed
def forced_discard(G, S, s, counts):
    """The honours-first order (``discard_order``, §3.4): the kind seat ``s`` must discard
    (the 上家's unclaimed honour, when ``s`` holds exactly one), :data:`SHED_SINGLE` (some
    single honour must go) or −1 (free). Wild kinds are exempt."""
    if G.cfg[V.DISCARD_ORDER] != V.ORDER_HONOURS_FIRST:
        return -1
    last = S.pos[P_LAST]
    single = False
    for k in range(27, 34):
        if counts[k] == 1 and not S.wild[s, k]:
            if k == last:
                return k
            single = True
    return SHED_SINGLE if single else -1


@njit_borrowed
def _holds_plain(S, s, counts):
    """Whether seat ``s`` holds a tile that is not wild (then no wild tile is discarded)."""
    for k in range(34):
        if counts[k] > 0 and not S.wild[s, k]:
            return True
    return False


@njit_borrowed
def wait_worth(G, S, W, s, counts):
    """``(worth, live)``: what the waits of seat ``s``'s ready 13 tiles ``counts`` are worth
    — over the kinds that complete them, live copies × the units of the win as the scoring
    model values it on another's tile, a wild kind the seat can see valued as the
    self-drawn wild tile standing for itself, the one way it wins (宝中宝 through a 边/卡/吊
    reading) — and how many live copies those kinds have."""
    how, tile = S.pos[P_WILD_DRAW], S.pos[P_WILD_TILE]
    worth, n_live = 0, 0
    for t in range(34):
        if not G.kind_mask[t] or not can_add(S, s, counts, t):
            continue
        n = live(S, s, t)
        if n == 0:
            continue
        counts[t] += 1
        if cost(G, S, W, s, counts) == 0:
            wild = not G.cfg[V.WILD_HIDDEN] and is_wild_kind(G, S, t)
            S.pos[P_WILD_DRAW] = DRAW_WILD if wild else DRAW_NATURAL
            S.pos[P_WILD_TILE] = t
            legal, units, _ = SC.win_value(G, W, counts, S, s, np.int64(R.WIN_DIANPAO), np.int64(t))
            if legal:
                worth += n * units
                n_live += n
        counts[t] -= 1
    S.pos[P_WILD_DRAW], S.pos[P_WILD_TILE] = how, tile
    return worth, n_live


@njit_borrowed
def _most_worth(G, S, W, s, counts, keys, best):
    """Among the discards of key ``best`` (each leaving the hand ready), the one whose waits
    are worth most (:func:`wait_worth`: 边卡吊, 宝中宝 …), the first among equals."""
    choice = -1
    most = np.int64(-1)
    for d in range(34):
        if keys[d] != best:
            continue
        counts[d] -= 1
        worth = wait_worth(G, S, W, s, counts)[0]
        counts[d] += 1
        if worth > most:
            most, choice = worth, d
    return choice


@njit_borrowed
def discard_candidates(G, S, W, s, counts):
    """The kinds seat ``s`` may discard from its 14 ``counts`` as trials of ``W.trials``
    (taken out, none put in); their number. Void-suit tiles first where the rules say so,
    the honours-first order (:func:`forced_discard`), and no wild tile while a plain one is
    held; every other kind held."""
    shed = _must_shed(G, S, s, counts)
    forced = forced_discard(G, S, s, counts)
    keep_wild = _holds_plain(S, s, counts)
    trials = W.trials
    n = 0
    for d in range(34):
        W.keys[d] = 1 << 40
        if counts[d] == 0 or (shed >= 0 and d // 9 != shed) or (keep_wild and S.wild[s, d]):
            continue
        if (forced >= 0 and d != forced) or (
            forced == SHED_SINGLE and (d < 27 or counts[d] != 1 or S.wild[s, d])
        ):
            continue
        trials[n, TRIAL_OUT], trials[n, TRIAL_IN], trials[n, TRIAL_WEIGHT] = d, -1, 0
        n += 1
    return n


@njit_borrowed
def choose_discard(G, S, W, s, bot):
    """The kind seat ``s`` discards from its 14 tiles; leaves its key and cost in the status."""
    keys, bases, raw = W.keys[:], W.bases[:], W.raw_keys[:]
    counts = S.concealed[s]
    threat = threats(G, S, s) if bot == R.BOT_CAUTIOUS else 0
    c14 = cost(G, S, W, s, counts)
    # far from ready (fold_from; 0: never) it gives up speed for safety
    fold = threat != 0 and G.cfg[V.FOLD_FROM] > 0 and c14 >= G.cfg[V.FOLD_FROM]
    floor = c14 if c14 > 1 else 1
    n_fams = close_families(G, W, floor)
    # only the families that can reach the best cost decide ties, unless every key counts
    exact_keys = bot == R.BOT_VALUE or threat != 0
    fams, n_eval = (G.families, G.cfg[V.N_SCORING]) if exact_keys else (W.close[:], n_fams)
    trials = W.trials
    n = discard_candidates(G, S, W, s, counts)
    kernel_trials(
        G,
        S,
        W,
        s,
        counts,
        fams[:n_eval],
        wild_mask(S, s),
        W.caps[:],
        G.big if bot == R.BOT_VALUE else G.big[:0],
        np.int64(n),
        np.int64(1),
        np.int64(0),
        np.int64(-1),
    )
    best = 1 << 40
    for i in range(n):
        d, c = trials[i, TRIAL_OUT], W.trial_cost[i]
        key = _key(c, W.trial_big[i], bot)
        raw[d] = key
        bases[d] = c
        if threat:
            unsafe = danger(S, threat, d)
            key = unsafe * (1 << 20) + key if fold else key + 8 * unsafe
        keys[d] = key
        if key < best:
            best = key
    choice = -1
    n_tied = 0
    for d in range(34):
        if keys[d] == best:
            n_tied += 1
            choice = d if choice < 0 else choice
    if n_tied > 1 and bot == R.BOT_VALUE and G.cfg[V.WEIGH_WAITS] and bases[choice] == 1:
        choice = _most_worth(G, S, W, s, counts, keys, np.int64(best))
    elif n_tied > 1:
        if exact_keys:
            cost(G, S, W, s, counts)
            n_fams = close_families(G, W, bases[choice])
        # the improving kinds of the 14 tiles (d = −1), then the most live improving tiles
        most = np.int64(-1)
        base = bases[choice]
        for d in range(-1, 34):
            if d >= 0:
                if keys[d] != best:
                    continue
                counts[d] -= 1
                base = bases[d]
            u = tile_scan(G, S, W, s, counts, n_fams, base, most, np.int64(d), c14)
            if d >= 0:
                counts[d] += 1
                if u > most:
                    most = u
                    choice = d
    # the chosen hand's key and cost as every scoring family counts them: those of the loop
    # (with only the close families, the best cost is the 14 tiles' lowest, and no other
    # family gets below it)
    S.status[s, ST_KEY], S.status[s, ST_COST] = raw[choice], bases[choice]
    return choice


@njit_borrowed
def best_discard_key(G, S, W, s, bot):
    """The best key seat ``s`` can reach by one discard from its current 14 tiles.

    One evaluation of the 14 tiles: a family's cost after the best discard equals its cost
    before (at least 1), since a tile outside the nearest win can always go.
    """
    c = cost(G, S, W, s, S.concealed[s])
    b = big_cost(G, W)
    return _key(c if c > 1 else 1, b if b > 1 else 1, bot)


@njit_borrowed
def choose_void(G, S, W, s):
    """定缺: the suit seat ``s`` voids — the lowest cost with it void, then the fewest of
    its tiles held, then the first suit."""
    counts = S.concealed[s]
    best_v = 0
    best_c = INF
    best_n = 99
    for v in range(3):
        S.void[s] = v
        c = cost(G, S, W, s, counts)
        n = 0
        for k in range(9 * v, 9 * v + 9):
            n += counts[k]
        if c < best_c or (c == best_c and n < best_n):
            best_v, best_c, best_n = v, c, n
    return best_v


@njit_inline
def pushes_pair(bot):
    """Whether ``bot`` sets aside a pair of its 对倒 wait (推出, ×2, one kind left to win on):
    the value bot does; the others keep both kinds."""
    return bot == R.BOT_VALUE


@njit_borrowed
def declines_ron(G, S, W, s, bot, units, live_left):
    """Whether the value bot passes a small win on another's tile to wait for a big one."""
    if bot != R.BOT_VALUE or units >= G.cfg[V.DECLINE_BELOW] or live_left < 10:
        return False
    cost(G, S, W, s, S.concealed[s])
    return big_cost(G, W) == 1


@njit_borrowed
def takes_haidi(G, S, s, bot):
    """Whether a ready seat takes the 海底 tile (it must, unless the rules let it refuse; a
    declared hand that must win always does)."""
    if not G.cfg[V.HAIDI_MAY_DECLINE] or (G.cfg[V.DECLARE_MUST_WIN] and S.status[s, ST_DECLARED]):
        return True
    return not (bot == R.BOT_CAUTIOUS and threats(G, S, s) != 0)
