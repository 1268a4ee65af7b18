"""The bots: which tile to discard, which claims to make, when to kong, decline or declare.

Three policies, chosen per seat by code (:data:`mjsim.game.record.BOTS`):

- **efficiency**: the discard leaving the lowest shanten, then the most live improving
  tiles (ukeire over the kinds within two ranks of a held tile — an isolated new tile
  rarely improves a hand); claims a chow, pung or kong only when it lowers shanten; 开杠
  whenever it is allowed and the hand stays ready.
- **value**: as efficiency, but scores a hand by ``min(shanten, big-win shanten − 1)``
  over 清一色, 碰碰胡, 七对 and 将一色, so it steers toward a big win that is close; it
  declines a small win on another player's tile while its hand is ready for a big win
  and at least ten tiles are left (a refusal that 过手 then punishes).
- **cautious**: as efficiency, but while an opponent has declared (报听), is locked after
  an opening kong or shows three melds, it prefers tiles that opponent has discarded
  (现物); far from ready (shanten ≥ 2) it gives up speed for safety. Where the rules let
  it refuse the 海底, it refuses it under such a threat.

Keys are integers, lower is better: ``64 · score`` plus tie-breaks, so one comparison
orders them.
"""

from __future__ import annotations

from numba import njit

from ..kernels.jit import njit_borrowed
from ..tables.suits import INF
from . import config as C
from . import record as R
from .state import (ST_BAOTING, ST_COST, ST_KEY, ST_LOCKED, can_add, cost, cost_inline,
                    cost_of, live)

_BIG_ROLES = (C.R_QIDUI, C.R_QINGYISE, C.R_PENGPENG, C.R_JIANGYISE)


@njit(cache=True, inline="always")
def big_cost(E, W):
    """The lowest cost among the big-win families, from the last :func:`cost` call."""
    roles, per_family = E[2], W[4]
    best = INF
    for f in range(roles.size):
        for r in _BIG_ROLES:
            if roles[f] == r and per_family[f] < best:
                best = per_family[f]
    return best


@njit(cache=True, inline="always")
def hand_key(E, S, W, s, counts, bot):
    """``(key, cost)`` of a 13-tile hand under ``bot``'s scoring (lower key is better)."""
    c = cost_inline(E, S, W, s, counts)
    if bot != R.BOT_VALUE:
        return 64 * c, c
    b = big_cost(E, W)
    score = c if c <= b - 1 else b - 1
    return 64 * score + (b if b < 63 else 63), c


@njit(cache=True, inline="always")
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
def _improvers(E, S, W, s, counts, best, mask, fams):
    """Mark in ``mask`` the kinds near the 14 tiles ``counts`` that bring the 15-tile hand
    below cost ``best``: only they can improve any 13 tiles left by a discard (adding
    tiles never raises a cost, and removing one never lowers it)."""
    kind_mask = E[3]
    for t in range(34):
        mask[t] = 0
        if not kind_mask[t] or not can_add(S, s, counts, t) or not _relevant(counts, t):
            continue
        counts[t] += 1
        mask[t] = cost_of(E, S, W, s, counts, fams) < best
        counts[t] -= 1


@njit_borrowed
def ukeire(E, S, W, s, counts, base, mask, fams, beat):
    """Live copies of the kinds in ``mask`` that lower ``counts``' cost below ``base``
    (families ``fams``), or some number at most ``beat`` as soon as the count cannot
    exceed ``beat`` (the caller keeps only a count above it). Kinds with no live copy
    count nothing and are not evaluated."""
    left = 0
    for t in range(34):
        if mask[t] and can_add(S, s, counts, t):
            left += live(S, s, t)
    n = 0
    for t in range(34):
        if not mask[t] or not can_add(S, s, counts, t):
            continue
        if n + left <= beat:
            return n
        copies = live(S, s, t)
        if copies == 0:
            continue
        left -= copies
        counts[t] += 1
        c = cost_of(E, S, W, s, counts, fams)
        counts[t] -= 1
        if c < base:
            n += copies
    return n


@njit_borrowed
def _close_families(E, W, best):
    """The scoring families whose cost (left in ``W[4]`` for 14 tiles) is at most ``best``:
    the only ones that can reach ``best`` after a discard or drop below it after a draw,
    since one tile moves a family's cost by at most one. The rows are copied into
    ``W[11]`` (valid until the next call) and their number is returned."""
    families, roles, per_family = E[1], E[2], W[4]
    out = W[11]
    n = 0
    for f in range(roles.size):
        if roles[f] != C.R_STD_ANY and per_family[f] <= best:
            for col in range(families.shape[1]):
                out[n, col] = families[f, col]
            n += 1
    return n


@njit_borrowed
def threats(S, s):
    """Bitmask of opponents of ``s`` who have declared, are locked or show three melds."""
    nm, st = S[3], S[7]
    mask = 0
    for o in range(4):
        if o != s and (st[o, ST_BAOTING] or st[o, ST_LOCKED] or nm[o] >= 3):
            mask |= 1 << o
    return mask


@njit_borrowed
def _danger(S, threat, d):
    disc = S[6]
    n = 0
    for o in range(4):
        if (threat >> o) & 1 and disc[o, d] == 0:
            n += 1
    return n


@njit_borrowed
def choose_discard(E, S, W, s, bot):
    """The kind seat ``s`` discards from its 14 tiles; leaves its key and cost in ``st``."""
    conc, st = S[0], S[7]
    keys, bases = W[8], W[9]
    counts = conc[s]
    threat = threats(S, s) if bot == R.BOT_CAUTIOUS else 0
    c14 = cost(E, S, W, s, counts)
    fold = threat != 0 and c14 >= 3
    floor = c14 if c14 > 1 else 1
    fams = W[11][:_close_families(E, W, floor)]
    # only the families that can reach the best cost decide ties, unless every key counts
    exact_keys = bot == R.BOT_VALUE or threat != 0
    best = 1 << 40
    for d in range(34):
        keys[d] = 1 << 40
        if counts[d] == 0:
            continue
        counts[d] -= 1
        if exact_keys:
            key, c = hand_key(E, S, W, s, counts, bot)
        else:
            c = cost_of(E, S, W, s, counts, fams)
            key = 64 * c
        counts[d] += 1
        bases[d] = c
        if threat:
            danger = _danger(S, threat, d)
            key = danger * (1 << 20) + key if fold else key + 8 * danger
        keys[d] = key
        if key < best:
            best = key
    choice = -1
    n_tied = 0
    for d in range(34):
        if keys[d] == best:
            n_tied += 1
            choice = d if choice < 0 else choice
    if n_tied > 1:
        mask = W[10]  # every kind is set by _improvers
        if exact_keys:
            cost(E, S, W, s, counts)
            fams = W[11][:_close_families(E, W, bases[choice])]
        _improvers(E, S, W, s, counts, bases[choice], mask, fams)
        most = -1
        for d in range(34):
            if keys[d] != best:
                continue
            counts[d] -= 1
            u = ukeire(E, S, W, s, counts, bases[d], mask, fams, most)
            counts[d] += 1
            if u > most:
                most = u
                choice = d
    counts[choice] -= 1
    st[s, ST_KEY], st[s, ST_COST] = hand_key(E, S, W, s, counts, bot)
    counts[choice] += 1
    return choice


@njit_borrowed
def best_discard_key(E, S, W, s, bot):
    """The best key seat ``s`` can reach by one discard from its current 14 tiles.

    One evaluation of the 14 tiles: a family's cost after the best discard equals its cost
    before (at least 1), since a tile outside the nearest win can always go.
    """
    c = cost(E, S, W, s, S[0][s])
    c = c if c > 1 else 1
    if bot != R.BOT_VALUE:
        return 64 * c
    b = big_cost(E, W)
    b = b if b > 1 else 1
    score = c if c <= b - 1 else b - 1
    return 64 * score + (b if b < 63 else 63)


@njit_borrowed
def declines_ron(E, S, W, s, bot, units, live_left):
    """Whether the value bot passes a small win on another's tile to wait for a big one."""
    if bot != R.BOT_VALUE or units > 0 or live_left < 10:
        return False
    cost(E, S, W, s, S[0][s])
    return big_cost(E, W) == 1


@njit_borrowed
def takes_haidi(E, S, s, bot):
    """Whether a ready seat takes the 海底 tile (it must, unless the rules let it refuse)."""
    cfg = E[0]
    if not cfg[C.CFG_HAIDI_DECLINE]:
        return True
    return not (bot == R.BOT_CAUTIOUS and threats(S, s) != 0)
