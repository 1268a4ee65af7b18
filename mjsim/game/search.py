"""The search bot: a discard, a win or a pass, a claim, chosen by playing each out to the end.

At a discard of a ``search`` seat whose efficiency choice leaves it at most
``max_cost`` − 1 from ready (default: ready or one tile from it), the candidates are that
choice and the next best discards whose cost is at most ``spread`` above it — the lowest
cost first, then the most live improving tiles, as the efficiency bot ranks them — up to
``candidates`` in all. Each is played out in sampled worlds:

- **a world** keeps what the seat sees — its own tiles, every meld, discard and revealed
  tile, a declared or locked seat's hand — and deals the other seats' concealed tiles and
  the live wall anew from the tiles it cannot see (bonus tiles of the live wall stay where
  they are; the reserve is left as it lies), each hidden seat's tiles kept as a player keeps them (*tempo*, :func:`_keep`;
  uniform tiles imagine the others far slower than they are); a world dealing a hidden
  seat a ready hand it would have declared (报听) is drawn again (:data:`MAX_REDRAWS`);
- **a rollout** resumes the hand at the candidate discard (:func:`mjsim.game.engine.play_from`)
  with every seat's own bot playing on — the search seat as its base (the efficiency bot,
  or with ``base`` 1 the line-up's tuned player: :func:`built_on_tuned`), a tuned seat
  with its parameters (the search's inner hooks, as in the hand itself) — and
  scores the seat's net payment from the rule set's own settlement (birds, caps, 勒子,
  承包, 宝 multipliers: whatever the rule set pays);
- **common random numbers**: every candidate is played in the same worlds (paired).

The efficiency choice is the default, guarded by a sequential test
(:mod:`mjsim.game.sequential`): a candidate 2 paired standard errors below it is dropped,
and the seat leaves it only for one 2.5 above it. Offered a win on another's discard that
it may pass, the seat weighs the win against the pass the same way (:func:`win_or_pass`), and with
``claims`` its pungs and chows against declining (:func:`claim`). Elsewhere (kongs, 报听,
self-drawn wins, 吃听, claims without ``claims``) it plays as its base. Built on the tuned
player, its base's choice is the default (candidate 0) and the efficiency bot's ranking
picks the other candidates.
Everything is compiled and deterministic: a decision's worlds come from the hand's dice
seed, the turn, the kind of decision and the world's number. The engine calls the hooks at
their addresses in the policy value (:mod:`mjsim.game.policy`), which only a line-up with a
search seat binds, so a run without one never compiles the search; the rollouts call the
hand loop, and the other seats' hooks, at theirs (docs/search.md has the whole account).

>>> X = PO.search_buffers(136, 10, 32, 3, (0, len(TRACE)), [0] * len(PARAMS), len(COUNTS))
>>> X.payoffs.shape, X.world.concealed.shape
((32, 3), (4, 34))
"""

from __future__ import annotations

import numpy as np

from ..kernels.jit import njit_borrowed, njit_inline
from ..kernels.rng import below_seeded, index_seed, mix
from . import bots as B
from . import engine as EN
from . import policy as PO
from . import record as R
from . import tuned as TU
from . import values as V
from .decisions import CLAIM_CHOW, CLAIM_PUNG, claim_on, claim_options, may_pass_win
from .evaluation import cost
from .policy import DEFAULT_ROLLOUTS
from .sequential import leader, paired_z, settled
from .state import (
    CLAIM_BY_BOT,
    CLAIM_DECLINE,
    CLAIM_TAKE_CHOW,
    CLAIM_TAKE_PUNG,
    P_HEAD,
    P_TAIL,
    P_TURNS,
    RON_BOT,
    RON_PASS,
    RON_WIN,
    ST_CLAIM,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    ST_LOCKED,
    ST_RON,
    copy_array,
    copy_state,
)
from .wins import assess, ready_undeclared

#: ``P.search.params``: the fewest and most worlds a decision plays, how many candidates,
#: the efficiency choice's highest cost (shanten + 1) searched, a candidate's most cost above it
#: ``tempo``: whether a world's hidden seats keep their tiles as players would (:func:`_keep`;
#: 0: uniform tiles, for comparison); ``claims``: whether pungs and chows are weighed (0, the
#: default: the efficiency bot's; the measured gains are without; ``mjsim advise --claim``
#: weighs them always)
#: ``base``: the player the search seat is built on, which makes every choice it does not
#: search, ranks its candidates first and plays it in the rollouts (0: the efficiency bot;
#: 1: the line-up's tuned player, :func:`built_on_tuned`)
# fmt: off
PARAMS = ("min_rollouts", "max_rollouts", "candidates", "max_cost", "spread", "tempo", "claims",
          "base")
MIN_ROLLOUTS, MAX_ROLLOUTS, CANDIDATES, MAX_COST, SPREAD, TEMPO, CLAIMS, BASE = range(len(PARAMS))
DEFAULTS = {"min_rollouts": 16, "max_rollouts": DEFAULT_ROLLOUTS, "candidates": 3,
            "max_cost": 2, "spread": 1, "tempo": 1, "claims": 0, "base": 0}
# fmt: on
#: ``P.search.counts``: discards searched, their worlds played (the longest-played
#: candidate's), choices other than the efficiency bot's; the same of win-or-pass decisions
#: (a changed one is a win passed); over every world's hidden seats, their number and the
#: sums of their real costs (shanten + 1) and of their costs in the world (how far along
#: the worlds imagine the others: a check of the model, never read by a decision), and the
#: worlds redrawn for dealing a seat a ready hand it would have declared, and the worlds
#: played so all the same (:data:`MAX_REDRAWS` draws used up); the claims searched, their
#: worlds, and those that left the efficiency choice
# fmt: off
COUNTS = ("searched", "worlds", "changed", "wins_searched", "wins_worlds", "passed",
          "hidden", "real_cost", "world_cost", "redrawn", "impossible",
          "claims_searched", "claims_worlds", "claims_changed")
# fmt: on
HIDDEN, REAL_COST, WORLD_COST, REDRAWN, IMPOSSIBLE, CLAIMS_SEARCHED = range(6, 12)
#: the kinds of decision searched: a discard, a win or a pass on another's discard, a claim
#: (a pung, a chow or neither) on it
DISCARD, WIN, CLAIM = range(3)
#: ``P.search.trace`` per candidate: worlds played, mean paired difference to the
#: efficiency choice, its standard errors (row 0, the efficiency choice, stays zero)
TRACE = ("worlds", "mean_diff", "z")
#: worlds are checked for separation every so many
CHECK_EVERY = 8
#: the most worlds of one decision (world ``r`` of turn ``t`` is keyed by ``t`` · this + ``r``)
MAX_WORLDS = 1 << 20
#: the most draws of one world, redrawn while a hidden seat is ready but undeclared (the
#: last draw is played as it is)
MAX_REDRAWS = 32
_SALT = np.uint64(0x7365617263680000)  # "search"
_SALT_WIN = np.uint64(0x7061737300000000)  # "pass": a win-or-pass decision's worlds
_SALT_CLAIM = np.uint64(0x636C61696D000000)  # "claim": a claim decision's worlds


def search_policy(
    G,
    wall_size: int,
    rec_size: int,
    rollouts: int = DEFAULTS["max_rollouts"],
    trace: int = 0,
    theta: np.ndarray | None = None,
    searching: bool = True,
    **params: int,
) -> PO.Policy:
    """The engine's policy value for a search over the rule-set arrays ``G``, walls of
    ``wall_size`` tiles and records of ``rec_size`` columns, with one thread's buffers: at
    most ``rollouts`` worlds a decision (:data:`PARAMS` by name), the :data:`TRACE` of the
    first ``trace`` decisions kept. The other seats, in the hand and in the rollouts, play
    the heuristic bots, or with ``theta`` (4 parameter rows) as tuned seats, whose rows
    also give a search seat built on the tuned player its parameters
    (:func:`built_on_tuned`). Without ``searching``, a policy for :func:`weigh` alone
    (:func:`functions`)."""
    if not 1 <= rollouts <= MAX_WORLDS:
        raise ValueError(f"rollouts must be 1 to {MAX_WORLDS}, got {rollouts}")
    values = {**DEFAULTS, **params, "max_rollouts": rollouts}
    if values["base"] not in (0, 1) or (values["base"] and theta is None):
        raise ValueError(
            f"a search's base is 0 (the efficiency bot) or 1 (the line-up's tuned player, "
            f"which needs tuned seats), got {values['base']}"
        )
    values["min_rollouts"] = min(values["min_rollouts"], rollouts)
    search = PO.search_buffers(
        wall_size,
        rec_size,
        rollouts,
        values["candidates"],
        (trace, len(TRACE)),
        [values[p] for p in PARAMS],
        len(COUNTS),
    )
    tuned = None if theta is None else TU.buffers(theta)
    return PO.bind(PO.empty(search, tuned), G, functions(tuned is not None, searching))


def built_on_tuned(names: tuple[str, ...], theta: np.ndarray) -> np.ndarray:
    """The line-up's parameter rows with each search seat's the tuned seats' (a search seat
    built on the tuned player, ``base`` 1, plays their parameters where it does not search).

    >>> rows = np.array([[0.0], [2.0], [2.0], [0.0]])
    >>> built_on_tuned(("search", "tuned", "tuned", "efficiency"), rows).ravel().tolist()
    [2.0, 2.0, 2.0, 0.0]
    """
    tuned = {tuple(theta[s]) for s, n in enumerate(names) if n.partition(":")[0] == "tuned"}
    if len(tuned) != 1:
        raise ValueError(
            f"a search seat built on the tuned player needs one tuned player in the line-up, "
            f"got {','.join(names)}"
        )
    (row,) = tuned
    rows = np.array(theta, dtype=np.float64)
    for s, n in enumerate(names):
        if n.partition(":")[0] == "search":
            rows[s] = row
    return rows


@njit_borrowed
def _base_bots(P, bots):
    """Into ``P.search.base``: ``bots`` with each search seat the bot of its ``base`` (the
    efficiency bot, or a tuned seat), as the seat plays where it does not search and in
    the rollouts."""
    for o in range(4):
        P.search.base[o] = bots[o]
        if bots[o] == R.BOT_SEARCH:
            P.search.base[o] = R.BOT_TUNED if P.search.params[BASE] else R.BOT_EFFICIENCY


@njit_borrowed
def discard(P, G, S, W, wall, rec, bots, dice_seed, s):
    """The kind seat ``s`` discards (its key and cost left in its status): a search seat's
    by rollouts where it has candidates (its base's choice first), every other seat's by
    the inner hooks (its own bot, or its tuned parameters)."""
    if bots[s] != R.BOT_SEARCH:
        return PO.inner_discard(P, G, S, W, wall, rec, bots, dice_seed, s)
    _base_bots(P, bots)
    choice = PO.inner_discard(P, G, S, W, wall, rec, P.search.base, dice_seed, s)
    if P.search.params[BASE]:  # the efficiency bot's evaluation in W ranks the other candidates
        # (a searched decision leaves its evaluation's key and cost, as for base 0)
        key, c = S.status[s, ST_KEY], S.status[s, ST_COST]
        B.choose_discard(G, S, W, s, np.int64(R.BOT_EFFICIENCY))
        S.status[s, ST_KEY], S.status[s, ST_COST] = key, c
    n = _candidates(P, G, S, W, s, choice)
    if n < 2:
        return choice
    best = _rollouts(
        P, G, S, W, wall, rec, bots, dice_seed, s, n, s, np.int64(-1), np.int64(DISCARD)
    )
    S.status[s, ST_KEY] = P.search.keys[best]
    S.status[s, ST_COST] = P.search.costs[best]
    return P.search.cands[best]


@njit_borrowed
def win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """Each search seat that may win on ``discarder``'s discard ``t`` and may pass it
    (:func:`mjsim.game.decisions.may_pass_win`) wins or passes by rollouts: the win (the
    base's choice first: the efficiency bot wins) and the other played in the same worlds;
    the choice into its ``status[s, ST_RON]``; the other seats' choices are the inner
    policy's. A search of one candidate (``candidates`` 1) weighs nothing."""
    _base_bots(P, bots)
    PO.inner_win_or_pass(P, G, S, W, wall, rec, P.search.base, dice_seed, discarder, t)
    if P.search.params[CANDIDATES] < 2:
        return
    for j in range(1, 4):
        s = (discarder + j) % 4
        if bots[s] != R.BOT_SEARCH or not may_pass_win(G, S, W, s, discarder, t):
            continue
        passes = S.status[s, ST_RON] == RON_PASS
        P.search.cands[0], P.search.cands[1] = (
            (RON_PASS, RON_WIN) if passes else (RON_WIN, RON_PASS)
        )
        best = _rollouts(
            P, G, S, W, wall, rec, bots, dice_seed, s, np.int64(2), discarder, t, np.int64(WIN)
        )
        S.status[s, ST_RON] = P.search.cands[best]


@njit_borrowed
def claim(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """Each search seat at most ``max_cost`` from a win (ready or one tile from it) that
    could pung or chow ``discarder``'s discard ``t`` claims or declines it by rollouts
    (:func:`_claim_candidates`); the choice into its ``status[s, ST_CLAIM]``; the other
    seats' choices are the inner hooks' (and the search seat's own, its base's)."""
    _base_bots(P, bots)
    PO.inner_claim(P, G, S, W, wall, rec, P.search.base, dice_seed, discarder, t)
    if P.search.params[CANDIDATES] < 2 or not P.search.params[CLAIMS]:
        return
    for j in range(1, 4):
        s = (discarder + j) % 4
        if bots[s] != R.BOT_SEARCH or S.status[s, ST_COST] > P.search.params[MAX_COST]:
            continue
        n = _claim_candidates(P, G, S, W, P.search.base, s, discarder, t)
        if n >= 2:
            best = _rollouts(
                P, G, S, W, wall, rec, bots, dice_seed, s, n, discarder, t, np.int64(CLAIM)
            )
            S.status[s, ST_CLAIM] = P.search.cands[best]


def functions(tuned: bool, searching: bool = True) -> dict:
    """The search's hooks, and as its inner hooks the tuned seats' (``tuned``) or the
    heuristic bots', and the hand loop its rollouts call (:func:`mjsim.game.policy.bind`).
    Without ``searching`` the inner hooks stand in for the search's own: a policy for
    :func:`weigh` alone, which never calls them, so they are not compiled."""
    others = TU.HOOKS if tuned else PO.HEURISTIC
    own = {"discard": discard, "win_or_pass": win_or_pass, "claim": claim}
    return {**(own if searching else others), **PO.inner(others), "play": EN.play_from}


@njit_borrowed
def _claim_candidates(P, G, S, W, bots, s, discarder, t):
    """Seat ``s``'s claim choices on ``discarder``'s discard ``t``
    (:func:`mjsim.game.decisions.claim_options`, into ``P.search.live`` with their keys in
    ``P.search.all_keys``) into ``P.search.cands``: first its efficiency bot's own (what the
    engine's claims would make it do, found on a copy of the state), then the others by the
    key they leave, best first, up to ``candidates``; their number, 0 where another seat's
    kong or pung comes first."""
    n = claim_options(G, S, W, bots, s, discarder, t, P.search.live, P.search.all_keys)
    if n == 0:
        return 0
    copy_state(S, P.search.roll)
    claimer, kind, first = claim_on(G, P.search.roll, W, bots, discarder, t)
    if claimer >= 0 and claimer != s and kind != CLAIM_CHOW:
        return 0
    own = CLAIM_DECLINE
    if claimer == s:
        own = CLAIM_TAKE_PUNG if kind == CLAIM_PUNG else CLAIM_TAKE_CHOW + first
    P.search.cands[0] = own
    m = 1
    while m < P.search.params[CANDIDATES]:
        pick = -1
        for i in range(n):
            if (
                P.search.live[i] > 0
                and P.search.live[i] != own
                and (pick < 0 or P.search.all_keys[i] < P.search.all_keys[pick])
            ):
                pick = i
        if pick < 0:
            break
        P.search.cands[m] = P.search.live[pick]
        P.search.live[pick] = -1
        m += 1
    return m


@njit_borrowed
def _candidates(P, G, S, W, s, choice):
    """The efficiency ``choice`` and the next best discards within ``spread`` of its cost
    (from its evaluation in ``W``: the lowest cost, then the most live improving tiles),
    into ``P.search.cands`` with their keys and costs; their number, 1 where the choice is too far
    from ready to search."""
    c0 = W.bases[choice]
    P.search.cands[0], P.search.keys[0], P.search.costs[0] = choice, W.raw_keys[choice], c0
    if c0 > P.search.params[MAX_COST]:
        return 1
    counts = S.concealed[s]
    for d in range(34):  # the keys and costs of the evaluation, before tile_scan uses W
        P.search.all_keys[d] = W.raw_keys[d] if W.keys[d] < 1 << 40 else -1
        P.search.all_costs[d] = W.bases[d]
    n = 1
    for level in range(c0, c0 + P.search.params[SPREAD] + 1):
        c14 = cost(G, S, W, s, counts)  # each family's cost of the 14 tiles, in W
        n_fams = B.close_families(G, W, level)
        B.tile_scan(G, S, W, s, counts, n_fams, level, np.int64(-1), np.int64(-1), c14)
        for d in range(34):
            P.search.live[d] = -1
            if P.search.all_keys[d] < 0 or P.search.all_costs[d] != level or d == choice:
                continue
            counts[d] -= 1
            P.search.live[d] = B.tile_scan(
                G, S, W, s, counts, n_fams, level, np.int64(-1), np.int64(d), c14
            )
            counts[d] += 1
        while n < P.search.params[CANDIDATES]:
            pick = -1
            for d in range(34):
                if P.search.live[d] >= 0 and (pick < 0 or P.search.live[d] > P.search.live[pick]):
                    pick = d
            if pick < 0:
                break
            P.search.live[pick] = -1
            P.search.cands[n], P.search.keys[n], P.search.costs[n] = (
                pick,
                P.search.all_keys[pick],
                P.search.all_costs[pick],
            )
            n += 1
    return n


@njit_borrowed
def _hidden(S, s, o):
    """Whether seat ``o``'s concealed tiles are hidden from seat ``s``."""
    return o != s and not S.status[o, ST_DECLARED] and not S.status[o, ST_LOCKED]


@njit_borrowed
def world(P, G, S, W, wall, bots, s, seed):
    """Into ``P.search.world`` and ``P.search.wall``: the hand as seat ``s`` may imagine it,
    the tiles it cannot see (hidden seats' concealed tiles, the live wall's tiles but bonus
    tiles) dealt anew from the shuffle keyed by ``seed`` — a hidden seat's tiles as it would
    have kept them (:func:`_keep`) — and the hidden seats' keys and readiness re-evaluated
    (:func:`mjsim.game.wins.assess`). Returns whether the world is one seat ``s`` could be
    in: no hidden seat holds a ready hand it would have declared (报听 where the rules declare
    readiness; :func:`mjsim.game.wins.ready_undeclared`)."""
    X, pool = P.search.world, P.search.pool
    copy_state(S, X)
    for o in range(4):
        # no choice another policy made in S from the real tiles (a search seat's claim, a
        # tuned seat's win-or-pass): the world's seats choose again from theirs
        X.status[o, ST_CLAIM] = CLAIM_BY_BOT
        X.status[o, ST_RON] = RON_BOT
    copy_array(wall, P.search.wall)
    lo, hi = S.pos[P_HEAD], S.pos[P_TAIL] - G.cfg[V.RESERVE]
    n = 0
    for o in range(4):
        if _hidden(S, s, o):
            for k in range(34):
                for _ in range(S.concealed[o, k]):
                    pool[n] = k
                    n += 1
    for j in range(lo, hi):
        if not G.is_bonus[wall[j]]:
            pool[n] = wall[j]
            n += 1
    _shuffle(pool, np.int64(0), np.int64(n), seed)
    m = 0
    for o in range(4):
        if _hidden(S, s, o):
            X.concealed[o, :] = 0
            for _ in range(S.concealed[o].sum()):
                X.concealed[o, pool[m]] += 1
                m += 1
    end = n
    for o in range(4):
        if _hidden(S, s, o) and P.search.params[TEMPO]:
            end = _keep(P, G, X, W, o, np.int64(m), np.int64(end))
    if end < n:
        _shuffle(pool, np.int64(m), np.int64(n), mix(seed))  # the tiles put back: anywhere
    for j in range(lo, hi):
        if not G.is_bonus[wall[j]]:
            P.search.wall[j] = np.int8(pool[m])
            m += 1
    possible = True
    for o in range(4):
        if _hidden(S, s, o):
            assess(G, X, W, o, bots[o], np.int64(1))
            possible = possible and not ready_undeclared(G, X, W, o)
    return possible


@njit_borrowed
def _shuffle(pool, lo, hi, seed):
    """``pool[lo:hi]`` shuffled by the stream keyed by ``seed`` (Fisher–Yates)."""
    for j in range(hi - 1, lo, -1):
        r = lo + below_seeded(seed, j, j - lo + 1)
        pool[j], pool[r] = pool[r], pool[j]


@njit_borrowed
def _keep(P, G, X, W, o, m, end):
    """Hidden seat ``o``'s tiles in world ``X`` made as it would have kept them: for each
    tile it has discarded, it draws one from the end of the unseen pool (``P.search.pool[m:end]``)
    and throws the efficiency bot's discard back into its place, so its hand is as far
    along as a player's who drew and threw as often (uniform tiles would leave the other
    seats slower than they are, and the seat's own chances, a pass's most, too bright); the
    new end of the pool's undrawn part."""
    for _ in range(X.discards[o].sum()):
        if end <= m:
            break
        end -= 1
        X.concealed[o, P.search.pool[end]] += 1
        d = B.choose_discard(G, X, W, o, np.int64(R.BOT_EFFICIENCY))
        X.concealed[o, d] -= 1
        P.search.pool[end] = d
    return end


@njit_borrowed
def play_world(P, G, S, W, wall, rec, bots, dice_seed, s, n, r, cur, tile, what):
    """World ``r`` of this decision (keyed by the hand's dice seed, the turn, the kind of
    decision and ``r``; drawn again, keyed on, while it is not one seat ``s`` could be in,
    :func:`world`) and each of the ``n`` candidates still played (``P.search.played[c] == r``; a
    dropped one's is minus the worlds it was played in) played out in it: seat ``s``'s net
    payment into ``P.search.payoffs[r, c]``, whether it won into ``P.search.won[r, c]``; the world's
    redraws and hidden seats counted in ``P.search.counts``. A candidate is, as ``what`` says
    (:data:`DISCARD` …), seat ``s``'s discard (``cur`` is ``s``), or its win-or-pass or
    claim choice on the ``tile`` that ``cur`` has just discarded; each seat plays on as
    ``P.search.base`` says (:func:`_base_bots`, filled by the decision)."""
    salt = _SALT if what == DISCARD else _SALT_WIN if what == WIN else _SALT_CLAIM
    key = mix(np.uint64(dice_seed) ^ salt)
    seed = index_seed(key, S.pos[P_TURNS] * MAX_WORLDS + r)
    for attempt in range(MAX_REDRAWS):
        if world(P, G, S, W, wall, bots, s, seed):
            break
        if attempt == MAX_REDRAWS - 1:
            P.search.counts[IMPOSSIBLE] += 1
            break
        P.search.counts[REDRAWN] += 1
        seed = index_seed(seed, attempt)  # a stream apart from the world's own mix(seed)
    for o in range(4):
        if _hidden(S, s, o):
            P.search.counts[HIDDEN] += 1
            P.search.counts[REAL_COST] += S.status[o, ST_COST]
            P.search.counts[WORLD_COST] += P.search.world.status[o, ST_COST]
    for c in range(n):
        if P.search.played[c] != r:
            continue
        P.search.played[c] = r + 1
        copy_state(P.search.world, P.search.roll)
        copy_array(P.search.wall, P.search.roll_wall)
        copy_array(rec, P.search.rec)
        forced, mode = P.search.cands[c], np.int64(0)  # a discard: ``cur`` is seat ``s`` itself
        if what != DISCARD:
            P.search.roll.status[s, ST_RON if what == WIN else ST_CLAIM] = P.search.cands[c]
            forced, mode = tile, np.int64(1 if what == WIN else 2)  # a claim: nobody won on it
        X = P.search  # the rollout plays every seat by the inner hooks (P.search.base)
        PO.play(G, X.roll, W, P, X.roll_wall, X.base, dice_seed, X.rec, cur, forced, mode)
        P.search.payoffs[r, c] = P.search.rec[R.C_PAY + s]
        won = P.search.rec[R.C_OUTCOME] == R.OUT_WIN and (P.search.rec[R.C_WINNERS] >> s) & 1 == 1
        P.search.won[r, c] = 1 if won else 0


@njit_inline
def _rollouts(P, G, S, W, wall, rec, bots, dice_seed, s, n, cur, tile, what):
    """Play the ``n`` candidates (:func:`play_world`'s ``cur``, ``tile`` and ``what``) in
    the same worlds, dropping those clearly worse than the efficiency choice (candidate 0),
    until one is clearly better or none is left (or at the budget); the index of the
    candidate chosen, counted in ``P.search.counts`` (a discard's :data:`TRACE` kept while there is
    room)."""
    P.search.played[:n] = 0
    r = np.int64(0)
    while r < P.search.params[MAX_ROLLOUTS]:
        play_world(P, G, S, W, wall, rec, bots, dice_seed, s, n, r, cur, tile, what)
        r += 1
        if (
            r >= P.search.params[MIN_ROLLOUTS]
            and r % CHECK_EVERY == 0
            and settled(P.search.payoffs, P.search.played, r, n)
        ):
            break
    best = leader(P.search.payoffs, P.search.played, r, n)
    at = 0 if what == DISCARD else 3 if what == WIN else CLAIMS_SEARCHED  # its :data:`COUNTS`
    P.search.counts[at] += 1
    P.search.counts[at + 1] += r
    P.search.counts[at + 2] += best != 0
    k = P.search.counts[0] - 1
    if what == DISCARD and k < P.search.trace.shape[0]:
        for c in range(1, n):
            m = abs(P.search.played[c])
            total = 0.0
            for i in range(m):
                total += P.search.payoffs[i, c] - P.search.payoffs[i, 0]
            P.search.trace[k, c, 0] = m
            P.search.trace[k, c, 1] = total / m
            P.search.trace[k, c, 2] = paired_z(P.search.payoffs, m, np.int64(c), np.int64(0))
    return best


@njit_borrowed
def weigh(P, G, S, W, wall, rec, bots, dice_seed, s, n, rollouts, cur, tile, what):
    """Every one of seat ``s``'s ``n`` candidates in ``P.search.cands`` (:func:`play_world`'s
    ``cur``, ``tile`` and ``what``: its discards, or its claims on a discard) played out in
    the same ``rollouts`` worlds (``mjsim advise``)."""
    _base_bots(P, bots)
    P.search.played[:n] = 0
    for r in range(rollouts):
        play_world(P, G, S, W, wall, rec, bots, dice_seed, s, n, r, cur, tile, what)
