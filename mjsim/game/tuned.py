"""The tuned player: discards, claims and wins chosen by a weighted score over named features.

A ``tuned`` seat scores each option by a parameter vector (:data:`PARAMS`, one row per
seat in the policy's :class:`mjsim.game.policy.TunedBuffers`) over features of the hand it
leaves:

- a discard: its cost (shanten + 1), the big-win families' lowest cost (``value``: the
  value bot's ``min(cost, big − 1)``; ``big``; the model's big-win families and those it
  adds for this player alone, ``GameRules.chase``: the 财神 game's 碰碰胡 and 清一色
  beside 八对; what they add weighed by what a big win pays against the rule text, the
  engine value ``big_worth``: half under changsha's ``cs_big_unit = 3``), and how many
  threatening opponents have not discarded the kind — declared or locked
  (``danger_declared``), showing three melds or one claim from a liability
  (``danger_melds``), and any other opponent as the hand goes on
  (``danger_late``: times the square of the share of the hand's draws made, so a fold
  late in the hand) — each weighed more the farther the hand is from ready (``…_far``,
  per cost above 1), and all of them by what a deal-in costs this seat beyond another's
  win under the rules (the engine value ``deal_in``: in full where the discarder pays
  alone, not at all where every loser pays alike). Among the discards within ``margin``
  of the best score, the live improving tiles (``ukeire``, weighed per tile) and, where the hand
  is ready, what its waits are worth (``worth``: ln(1 + live winning tiles × units),
  :func:`mjsim.game.bots.wait_worth`) and what a winning tile pays on average
  (``wait_units``: ln(worth ÷ live winning tiles) — the 宝 games' 边卡吊 ×2, the 财神
  game's hard waits over soft ones, a big win's wait over a small one; nothing where its
  wins pay no units) decide; the first kind among equals.
- a pung or a chow: taken when the hand's score after it (its best discard's cost and big
  cost) plus ``claim_bias`` (plus ``claim_open`` on a closed hand's first meld) is below
  the score now — the pung weighed first, then the chows, as the bots do.
- a win on another's discard: passed when it pays fewer than ``decline_units`` units, the
  hand is ready for a big win and at least ``decline_left`` tiles are left.

Kongs, 报听, the 海底 and 推出 are the efficiency bot's. :data:`EFFICIENCY` is the efficiency
bot as a point of this space (its records, hand for hand — tests/test_tuned.py). Its margin
is 0.5: any margin below the cost's weight keeps exactly the discards of the best cost, and
0.5 lets a small danger weigh against the improving tiles (at 0 a danger of 0.01 split the
equal-cost discards before the improving tiles were counted, and lost 0.18 a hand in
generic). The value
and cautious bots are near points of it. Seats that are not ``tuned`` play their own bot.
Its hooks are bound only for a line-up with a tuned seat
(:func:`mjsim.game.play.make_policy`; a search binds them as its inner hooks), so no other
run compiles them. A seat whose choice on a discard is already made (a search's rollout's
candidate) keeps it.

>>> [p.name for p in PARAMS][:3]
['cost', 'value', 'big']
>>> EFFICIENCY[INDEX["cost"]], EFFICIENCY[INDEX["claim_bias"]]
(1.0, 0.5)
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ..kernels.jit import njit_borrowed
from ..kernels.shanten import MELD_CHOW, MELD_PUNG
from ..tables.suits import INF
from . import bots as B
from . import policy as PO
from . import record as R
from . import values as V
from .decisions import claim_options, may_pass_win, take_for_meld
from .evaluation import cost, evaluate, kernel_trials
from .state import (
    CLAIM_BY_BOT,
    CLAIM_DECLINE,
    CLAIM_TAKE_CHOW,
    CLAIM_TAKE_PUNG,
    P_TURNS,
    RON_BOT,
    RON_PASS,
    ST_CLAIM,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    ST_LOCKED,
    ST_RON,
    TRIAL_OUT,
    add_meld,
    pop_meld,
    wild_mask,
)
from .wall import tiles_left
from .wins import win_test_on

#: a parameter: its name, its value at the efficiency bot, the range a training searches
#: (:mod:`mjsim.sim.train`), and what it weighs
Param = namedtuple("Param", "name efficiency low high doc")
# fmt: off
PARAMS = (
    Param("cost", 1.0, 0.0, 2.0, "a discard's cost (shanten + 1)"),
    Param("value", 0.0, 0.0, 2.0, "min(cost, big-win cost − 1), the value bot's score"),
    Param("big", 0.0, 0.0, 1.0, "the big-win families' lowest cost"),
    Param("margin", 0.5, 0.0, 1.5, "score above the best still weighed by ukeire and worth"),
    Param("ukeire", 1 / 256, 0.0, 0.05, "a live improving tile (less is better: subtracted)"),
    Param("worth", 0.0, 0.0, 1.0, "ln(1 + live winning tiles × units) of a ready hand"),
    Param("wait_units", 0.0, 0.0, 1.0, "ln(the units a live winning tile pays, on average)"),
    Param("danger_declared", 0.0, 0.0, 2.0, "a declared or locked opponent's unsafe kind"),
    Param("danger_declared_far", 0.0, 0.0, 2.0, "the same, per cost above 1"),
    Param("danger_melds", 0.0, 0.0, 2.0, "a three-meld or liable opponent's unsafe kind"),
    Param("danger_melds_far", 0.0, 0.0, 2.0, "the same, per cost above 1"),
    Param("danger_late", 0.0, 0.0, 2.0, "any other opponent's unsafe kind × (share drawn)²"),
    Param("danger_late_far", 0.0, 0.0, 2.0, "the same, per cost above 1"),
    Param("claim_bias", 0.5, -0.5, 1.5, "added to a claim's score: claim when below now"),
    Param("claim_open", 0.0, -0.5, 1.5, "added to the first meld of a closed hand"),
    Param("decline_units", 0.0, 0.0, 8.0, "pass a discarded win worth fewer units …"),
    Param("decline_left", 10.0, 0.0, 40.0, "… with this many tiles left or more"),
)
# fmt: on
INDEX = {p.name: i for i, p in enumerate(PARAMS)}
(
    COST,
    VALUE,
    BIG,
    MARGIN,
    UKEIRE,
    WORTH,
    WAIT_UNITS,
    DANGER_DECLARED,
    DANGER_DECLARED_FAR,
    DANGER_MELDS,
    DANGER_MELDS_FAR,
    DANGER_LATE,
    DANGER_LATE_FAR,
    CLAIM_BIAS,
    CLAIM_OPEN,
    DECLINE_UNITS,
    DECLINE_LEFT,
) = range(len(PARAMS))
#: the efficiency bot as parameters
EFFICIENCY = tuple(p.efficiency for p in PARAMS)


def tuned_policy(G, theta: np.ndarray) -> PO.Policy:
    """The engine's policy value for seats playing the parameter rows ``theta`` (4 × the
    length of :data:`PARAMS`), with one thread's buffers, for the rule-set arrays ``G``."""
    return PO.bind(PO.empty(tuned=buffers(theta)), G, HOOKS)


def buffers(theta: np.ndarray) -> PO.TunedBuffers:
    """Tuned seats' buffers around the parameter rows ``theta`` (checked)."""
    if np.shape(theta) != (4, len(PARAMS)):
        raise ValueError(f"theta must be 4 × {len(PARAMS)}, got {np.shape(theta)}")
    return PO.tuned_buffers(theta)


@njit_borrowed
def _threats(G, S, s):
    """``(declared, melds)``: bitmasks of the opponents of ``s`` that have declared or are
    locked, and of the other threats (:func:`mjsim.game.bots.threats`)."""
    every = B.threats(G, S, s)
    declared = 0
    for o in range(4):
        if (every >> o) & 1 and (S.status[o, ST_DECLARED] or S.status[o, ST_LOCKED]):
            declared |= 1 << o
    return declared, every & ~declared


@njit_borrowed
def _late(G, S):
    """The square of the share of the hand's draws made: discards so far over those and
    the tiles left to draw (0 at the deal, 1 at the last tile)."""
    turns = S.pos[P_TURNS]
    total = turns + tiles_left(G, S)
    share = turns / total if total > 0 else 1.0
    return share * share


@njit_borrowed
def _score(G, th, c, b):
    """A hand's score from its cost ``c`` and its big-win families' lowest cost ``b``: what
    a big win adds (``value``'s step below the cost, ``big``) scaled by what a big win pays
    under the rules (``big_worth``); at 256 exactly the unscaled sum."""
    v = c if c <= b - 1 else b - 1
    scale = G.cfg[V.BIG_WORTH] / 256.0
    return (
        th[COST] * c + th[VALUE] * (c - scale * (c - v)) + scale * th[BIG] * (b if b < 63 else 63)
    )


@njit_borrowed
def _wants_big(th):
    return th[VALUE] != 0.0 or th[BIG] != 0.0


@njit_borrowed
def discard(P, G, S, W, wall, rec, bots, dice_seed, s):
    """The kind seat ``s`` discards from its 14 tiles, leaving its key and cost in its
    status: a tuned seat's by its parameters (its key the efficiency bot's, 64 · cost),
    every other seat's by its own bot."""
    if bots[s] != R.BOT_TUNED:
        return B.choose_discard(G, S, W, s, bots[s])
    th = P.tuned.theta[s]
    counts = S.concealed[s]
    c14 = cost(G, S, W, s, counts)
    floor = c14 if c14 > 1 else 1
    n_fams = B.close_families(G, W, np.int64(floor))
    big = _wants_big(th)
    declared, melds, late = np.int64(0), np.int64(0), np.int64(0)
    far = c14 - 1 if c14 > 1 else 0
    share = G.cfg[V.DEAL_IN] / 256.0  # what a deal-in costs beyond another's win
    w_declared = (th[DANGER_DECLARED] + th[DANGER_DECLARED_FAR] * far) * share
    w_melds = (th[DANGER_MELDS] + th[DANGER_MELDS_FAR] * far) * share
    w_late = (th[DANGER_LATE] + th[DANGER_LATE_FAR] * far) * share
    if w_declared + w_melds + w_late:
        declared, melds = _threats(G, S, s)
        late = np.int64(15 & ~(1 << s) & ~declared & ~melds)
        w_late *= _late(G, S)
    fams, n_eval = (G.families, G.chase.size) if big else (W.close[:], n_fams)
    n = B.discard_candidates(G, S, W, s, counts)
    kernel_trials(
        G,
        S,
        W,
        s,
        counts,
        fams[:n_eval],
        wild_mask(S, s),
        W.caps[:],
        G.chase if big else G.chase[:0],
        np.int64(n),
        np.int64(1),
        np.int64(0),
        np.int64(-1),
    )
    scores, bases = P.tuned.scores, W.bases
    best = math.inf
    for d in range(34):
        scores[d] = math.inf
    for i in range(n):
        d, c = W.trials[i, TRIAL_OUT], W.trial_cost[i]
        x = _score(G, th, c, W.trial_big[i] if big else np.int64(INF))
        if declared:
            x += w_declared * B.danger(S, np.int64(declared), d)
        if melds:
            x += w_melds * B.danger(S, np.int64(melds), d)
        if late:
            x += w_late * B.danger(S, late, d)
        scores[d] = x
        bases[d] = c
        if x < best:
            best = x
    choice = _weigh_close(P, G, S, W, s, th, best, n_fams, c14)
    S.status[s, ST_KEY], S.status[s, ST_COST] = 64 * bases[choice], bases[choice]
    return choice


@njit_borrowed
def _weigh_close(P, G, S, W, s, th, best, n_fams, c14):
    """Among the discards scored within ``margin`` of ``best``: the lowest score less
    ``ukeire`` per live improving tile and ``worth`` per ln(1 + wait worth) of a ready
    hand; the first kind among equals. The improving kinds are marked once per cost, and a
    count is cut short once it cannot beat the best so far (as the efficiency bot does
    for its ties: :func:`mjsim.game.bots.tile_scan`), except where a ready hand's worth
    is still to be weighed."""
    scores, bases, counts = P.tuned.scores, W.bases, S.concealed[s]
    cut = best + th[MARGIN]
    choice, n_close = -1, 0
    for d in range(34):
        if scores[d] <= cut:
            n_close += 1
            choice = d if choice < 0 else choice
    weighs_worth = th[WORTH] != 0.0 or th[WAIT_UNITS] != 0.0  # of a ready hand's waits
    if n_close < 2 or (th[UKEIRE] == 0.0 and not weighs_worth):
        return choice
    top_base = 0
    for d in range(34):
        if scores[d] <= cut and bases[d] > top_base:
            top_base = bases[d]
    if top_base > (c14 if c14 > 1 else 1):  # families close to the costliest weighed
        cost(G, S, W, s, counts)
        n_fams = B.close_families(G, W, np.int64(top_base))
    top = math.inf
    marked = np.int64(-1)
    for d in range(34):
        if scores[d] > cut:
            continue
        x = scores[d]
        base = bases[d]
        if th[UKEIRE] != 0.0:
            if base != marked:  # the kinds that bring the 14 tiles below this cost
                B.tile_scan(G, S, W, s, counts, n_fams, base, np.int64(-1), np.int64(-1), c14)
                marked = base
            beat = np.int64(-1)  # a count at most this cannot bring x below top
            if top < math.inf and not (base == 1 and weighs_worth):
                need = (x - top) / th[UKEIRE]  # more tiles than this are needed
                if need > 1.0:  # a tile's margin kept against rounding
                    beat = np.int64(min(need, 1e9)) - 1
            counts[d] -= 1
            u = B.tile_scan(G, S, W, s, counts, n_fams, base, beat, np.int64(d), c14)
            counts[d] += 1
            x -= th[UKEIRE] * u
        if weighs_worth and base == 1:
            counts[d] -= 1
            worth, n_live = B.wait_worth(G, S, W, s, counts)
            counts[d] += 1
            x -= th[WORTH] * math.log1p(worth)
            if th[WAIT_UNITS] != 0.0 and worth > 0:
                x -= th[WAIT_UNITS] * math.log(worth / n_live)
        if x < top:
            top, choice = x, d
    return choice


@njit_borrowed
def _chase_cost(G, S, W, s, counts):
    """``(cost, big)`` of seat ``s``'s ``counts``: the hand's cost and the lowest cost of
    the families the tuned player weighs as big wins (``G.chase``: the big-win families,
    then the auxiliary ones of the model's ``CHASE_ROLES``, each a narrower shape of a
    scoring family, so the cost over them all is the hand's)."""
    c = evaluate(G, S, W, s, counts, G.families, G.chase.size)
    b = INF
    for f in range(G.chase.size):
        if G.chase[f] and W.per_family[f] < b:
            b = W.per_family[f]
    return c, b


@njit_borrowed
def _big_now(G, S, W, s):
    """The big-win families' lowest cost of seat ``s``'s tiles as they are."""
    return _chase_cost(G, S, W, s, S.concealed[s])[1]


@njit_borrowed
def _after_meld(G, S, W, s, th, cur, t, first, mtype):
    """Seat ``s``'s score after melding ``t`` (a pung, or the chow from ``first``) and its
    best discard: that discard leaves each family's cost as it is, at least 1."""
    take_for_meld(S, s, t, first, mtype, np.int64(-1))
    add_meld(G, S, s, first, mtype, cur)
    c, b = _chase_cost(G, S, W, s, S.concealed[s])
    pop_meld(G, S, s)
    take_for_meld(S, s, t, first, mtype, np.int64(1))
    return _score(G, th, c if c > 1 else 1, b if b > 1 else 1)


@njit_borrowed
def claim(P, G, S, W, wall, rec, bots, dice_seed, cur, t):
    """Each tuned seat that may pung or chow ``cur``'s discard ``t`` (the options of
    :func:`mjsim.game.decisions.claim_options`) takes the pung if its score after it plus
    ``claim_bias`` is below its score now, else the chow that lowers it most, else
    declines; the choice into its ``status[s, ST_CLAIM]``."""
    for j in range(1, 4):
        s = (cur + j) % 4
        if bots[s] != R.BOT_TUNED or S.status[s, ST_CLAIM] != CLAIM_BY_BOT:
            continue  # not a tuned seat, or its choice made (a search's rollout's candidate)
        n = claim_options(G, S, W, bots, s, cur, t, P.tuned.choices, P.tuned.keys)
        if n == 0:
            continue
        th = P.tuned.theta[s]
        big = _wants_big(th)
        now = _score(G, th, S.status[s, ST_COST], _big_now(G, S, W, s) if big else np.int64(INF))
        bias = th[CLAIM_BIAS] + (th[CLAIM_OPEN] if S.n_melds[s] == 0 else 0.0)
        best, choice = now, np.int64(CLAIM_DECLINE)
        for i in range(n - 1):  # the last option is declining
            option = P.tuned.choices[i]
            if big:
                pung = option == CLAIM_TAKE_PUNG
                first = np.int64(t if pung else option - CLAIM_TAKE_CHOW)
                mtype = np.int64(MELD_PUNG if pung else MELD_CHOW)
                x = _after_meld(G, S, W, s, th, cur, t, first, mtype) + bias
            else:
                x = _score(G, th, P.tuned.keys[i] // 64, np.int64(INF)) + bias
            if x < best:
                best, choice = x, option
            if option == CLAIM_TAKE_PUNG and choice == CLAIM_TAKE_PUNG:
                break  # a pung that gains is taken before any chow
        S.status[s, ST_CLAIM] = choice


@njit_borrowed
def win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """Each tuned seat that may win on ``discarder``'s discard ``t`` and may pass it passes
    a win worth fewer than ``decline_units`` units while ready for a big win with
    ``decline_left`` tiles left or more (``status[s, ST_RON]``)."""
    for j in range(1, 4):
        s = (discarder + j) % 4
        if bots[s] != R.BOT_TUNED or S.status[s, ST_RON] != RON_BOT:
            continue  # not a tuned seat, or its choice made (a search's rollout's candidate)
        th = P.tuned.theta[s]
        if th[DECLINE_UNITS] <= 0.0 or tiles_left(G, S) < th[DECLINE_LEFT]:
            continue
        if not may_pass_win(G, S, W, s, discarder, t):
            continue
        units = win_test_on(G, S, W, s, t, np.int64(R.WIN_DIANPAO))[1]
        if units < th[DECLINE_UNITS] and _big_now(G, S, W, s) == 1:
            S.status[s, ST_RON] = RON_PASS


#: the tuned seats' hooks (:mod:`mjsim.game.policy`)
HOOKS = {"discard": discard, "win_or_pass": win_or_pass, "claim": claim}
