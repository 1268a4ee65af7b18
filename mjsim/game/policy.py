"""The policy the engine asks at discards, wins and claims: the heuristic bots, or another.

The engine's hand loop calls :func:`discard`, :func:`win_or_pass` and :func:`claim` with a
policy value ``P`` (:class:`Policy`) that the run passes down
(:func:`mjsim.game.engine.play_games`). **Every policy value is of one numba type**: the
addresses of its hooks in this process (``hooks``, in the order of :data:`HOOKS`) and the
buffers of a search (:class:`SearchBuffers`) and of tuned seats (:class:`TunedBuffers`),
empty where the line-up has none. Each call here calls the code at its hook's address
(:mod:`mjsim.kernels.callref`), as the scoring hooks are called
(:mod:`mjsim.game.scoring`), so the engine is compiled once for every policy and each
policy's hooks once, apart: the heuristic bots' here (:data:`HEURISTIC`), the tuned seats'
in :mod:`mjsim.game.tuned`, the search's in :mod:`mjsim.game.search`. A run without a
search seat never compiles the search, nor one without tuned seats the tuned player. A
search plays the other seats, and every seat in its rollouts, by its ``inner`` hooks (the
heuristic bots', or the tuned seats'), and its rollouts call the hand loop at ``play``.

>>> P = empty()
>>> P.hooks.tolist(), P.search.payoffs.shape, P.tuned.theta.shape
([0, 0, 0, 0, 0, 0, 0], (0, 0), (4, 0))
"""

from __future__ import annotations

import functools
from collections import namedtuple

import numpy as np
from numba import typeof, types
from numba.core.typing import signature

from ..kernels.callref import address_of, caller
from ..kernels.jit import njit_borrowed
from . import bots as B
from .state import new_scratch, new_state

#: a search seat's worlds per decision: by default (``search``), and at most (``search:N``)
DEFAULT_ROLLOUTS = 64
MAX_ROLLOUTS = 4096

#: the policy's hooks, in the order of their addresses in ``Policy.hooks``: its own three
#: (the engine calls them), the three a search plays the other seats and its rollouts by,
#: and the hand loop the rollouts call (:func:`mjsim.game.engine.play_from`; 0 where none)
HOOKS = (
    "discard",
    "win_or_pass",
    "claim",
    "inner_discard",
    "inner_win_or_pass",
    "inner_claim",
    "play",
)
H_DISCARD, H_WIN_OR_PASS, H_CLAIM, H_INNER_DISCARD, H_INNER_WIN_OR_PASS, H_INNER_CLAIM, H_PLAY = (
    range(len(HOOKS))
)

#: the engine's policy value: :data:`HOOKS`' addresses, a search's buffers, tuned seats'
Policy = namedtuple("Policy", "hooks search tuned")
#: one thread's buffers for a search: the world and a rollout's state, their walls, a
#: rollout's record, the hidden tiles, each world's payoff per candidate and whether the
#: seat won, the candidates' kinds, keys, costs and worlds played, every discard's key (−1:
#: not allowed), cost and live improving tiles, the search's parameters and counts
#: (:mod:`mjsim.game.search`), the first decisions' trace per candidate, the line-up's bots
#: with each search seat as its base, and the hooks a rollout plays by (:func:`play`)
SearchBuffers = namedtuple(
    "SearchBuffers",
    "world roll wall roll_wall rec pool payoffs won "
    "cands keys costs played all_keys all_costs live "
    "params counts trace base roll_hooks",
)
#: one thread's tuned seats: ``theta[seat]`` the parameters (:mod:`mjsim.game.tuned`), each
#: discard's score and live improving tiles, the claim options and their keys
TunedBuffers = namedtuple("TunedBuffers", "theta scores ukeire choices keys")


def search_buffers(
    wall_size: int,
    rec_size: int,
    rollouts: int,
    candidates: int,
    trace: tuple[int, int],
    params,
    counts: int,
) -> SearchBuffers:
    """A search's buffers: walls of ``wall_size`` tiles, records of ``rec_size`` columns, at
    most ``rollouts`` worlds of ``candidates``, a trace of ``trace`` (decisions, fields) per
    candidate, the search's ``params`` and ``counts`` counters."""
    return SearchBuffers(
        world=new_state(),
        roll=new_state(),
        wall=np.zeros(wall_size, np.int8),
        roll_wall=np.zeros(wall_size, np.int8),
        rec=np.zeros(rec_size, np.int32),
        pool=np.zeros(wall_size, np.int64),
        payoffs=np.zeros((rollouts, candidates), np.float64),
        won=np.zeros((rollouts, candidates), np.uint8),
        cands=np.zeros(candidates, np.int64),
        keys=np.zeros(candidates, np.int64),
        costs=np.zeros(candidates, np.int64),
        played=np.zeros(candidates, np.int64),
        all_keys=np.zeros(34, np.int64),
        all_costs=np.zeros(34, np.int64),
        live=np.zeros(34, np.int64),
        params=np.array(params, np.int64),
        counts=np.zeros(counts, np.int64),
        trace=np.zeros((trace[0], candidates, trace[1]), np.float64),
        base=np.zeros(4, np.int64),
        roll_hooks=np.zeros(len(HOOKS), np.int64),
    )


def tuned_buffers(theta: np.ndarray) -> TunedBuffers:
    """Tuned seats' buffers around their parameter rows ``theta`` (4 rows)."""
    return TunedBuffers(
        theta=np.ascontiguousarray(theta, dtype=np.float64),
        scores=np.zeros(34, np.float64),
        ukeire=np.zeros(34, np.int64),
        choices=np.zeros(8, np.int64),
        keys=np.zeros(8, np.int64),
    )


def empty(search: SearchBuffers | None = None, tuned: TunedBuffers | None = None) -> Policy:
    """A policy value of the buffers given (empty ones for the others), its hooks not yet
    bound (:func:`bind`)."""
    return Policy(
        hooks=np.zeros(len(HOOKS), np.int64),
        search=search or search_buffers(0, 0, 0, 0, (0, 0), (), 0),
        tuned=tuned or tuned_buffers(np.zeros((4, 0))),
    )


@functools.cache
def policy_type() -> types.Type:
    """The numba type of every policy value."""
    return typeof(empty())


@functools.cache
def signatures(P: types.Type, G: types.Type) -> dict:
    """Each hook's one signature, with the policy of numba type ``P`` and the rule set's
    arrays of type ``G`` (every rule set's are of one type): a policy's function is compiled
    for it, and the calls here cast their arguments to it.

    >>> from mjsim.game.config import game_config
    >>> sigs = signatures(policy_type(), typeof(game_config("generic").base_arrays))
    >>> str(sigs["claim"].return_type), len(sigs["play"].args)
    ('none', 11)
    """
    S, W = typeof(new_state()), typeof(new_scratch())
    i, u64, none = types.int64, types.uint64, types.none
    wall, rec, bots = (types.Array(d, 1, "C") for d in (types.int8, types.int32, types.int64))
    choice = (P, G, S, W, wall, rec, bots, u64)
    discard = signature(i, *choice, i)
    on_discard = signature(none, *choice, i, i)
    play = signature(i, G, S, W, P, wall, bots, u64, rec, i, i, i)
    return {
        "discard": discard,
        "win_or_pass": on_discard,
        "claim": on_discard,
        "inner_discard": discard,
        "inner_win_or_pass": on_discard,
        "inner_claim": on_discard,
        "play": play,
    }


def bind(P: Policy, G, functions: dict) -> Policy:
    """``P`` with its hooks the addresses of ``functions`` (:data:`HOOKS`' names -> compiled
    functions: the policy's own three, and a search's inner three and hand loop) compiled
    for the rule-set arrays ``G`` (or loaded from numba's cache); a search's rollouts play
    by the inner three in the own three's places (``search.roll_hooks``). A set of functions
    without the own three, or with a part of a search's, or one whose result is not its
    hook's type, is refused.

    >>> bind(empty(), None, {"discard": heuristic_discard})
    Traceback (most recent call last):
    ...
    ValueError: a policy binds discard, win_or_pass, claim and, for a search, inner_discard, \
inner_win_or_pass, inner_claim, play; got discard
    """
    if set(functions) not in (set(HOOKS[:3]), set(HOOKS)):
        raise ValueError(
            f"a policy binds {', '.join(HOOKS[:3])} and, for a search, {', '.join(HOOKS[3:])}; "
            f"got {', '.join(functions)}"
        )
    if typeof(P) != policy_type():
        raise TypeError(f"a policy value of another type than every policy's: {typeof(P)}")
    sigs = signatures(typeof(P), typeof(G))
    for name, f in functions.items():
        sig = sigs[name]
        address = address_of(f, sig.args)
        got = f.overloads[sig.args].signature.return_type
        if got != sig.return_type:
            raise TypeError(f"policy hook {name} returns {got}, the engine reads {sig.return_type}")
        P.hooks[HOOKS.index(name)] = address
        if name.startswith("inner_"):
            P.search.roll_hooks[HOOKS.index(name[len("inner_") :])] = address
    return P


def cached(G, functions: dict) -> bool:
    """Whether numba's cache holds each of ``functions`` for its hook's signature with the
    rule-set arrays ``G`` (read from the cache's index; False when it cannot be read)."""
    sigs = signatures(policy_type(), typeof(G))
    try:  # numba's cache index: keys (argument types, codegen, source stamp) -> data files
        return all(
            any(tuple(key[0]) == sigs[name].args for key in f._cache._cache_file._load_index())
            for name, f in functions.items()
        )
    except Exception:  # another numba's layout: not known to be cached
        return False


# --------------------------------------------------------------------------- the calls

#: calls of the code at a hook's address: a discard, and a choice on another's discard (a
#: win-or-pass or a claim: one signature)
_discard = caller(lambda args: signatures(args[0], args[1])["discard"])
_on_discard = caller(lambda args: signatures(args[0], args[1])["claim"])
_play = caller(lambda args: signatures(args[3], args[0])["play"])


@njit_borrowed
def discard(P, G, S, W, wall, rec, bots, dice_seed, s):
    """The kind seat ``s`` discards from its 14 tiles (its key and cost left in its status);
    ``wall``, ``rec`` and ``dice_seed`` are the hand's, for a search's rollouts."""
    return _discard(P.hooks[H_DISCARD], (P, G, S, W, wall, rec, bots, dice_seed, s))


@njit_borrowed
def win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """Before the claims on ``discarder``'s discard ``t``: the win-or-pass choice of each
    seat whose policy makes one (``status[s, ST_RON]``); the heuristic bots decide later."""
    _on_discard(P.hooks[H_WIN_OR_PASS], (P, G, S, W, wall, rec, bots, dice_seed, discarder, t))


@njit_borrowed
def claim(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """Before the pungs and chows on ``discarder``'s discard ``t`` (nobody won on it): the
    claim choice of each seat whose policy makes one (``status[s, ST_CLAIM]``); the
    heuristic bots decide later."""
    _on_discard(P.hooks[H_CLAIM], (P, G, S, W, wall, rec, bots, dice_seed, discarder, t))


@njit_borrowed
def inner_discard(P, G, S, W, wall, rec, bots, dice_seed, s):
    """:func:`discard` by a search's inner hooks."""
    return _discard(P.hooks[H_INNER_DISCARD], (P, G, S, W, wall, rec, bots, dice_seed, s))


@njit_borrowed
def inner_win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """:func:`win_or_pass` by a search's inner hooks."""
    _on_discard(
        P.hooks[H_INNER_WIN_OR_PASS], (P, G, S, W, wall, rec, bots, dice_seed, discarder, t)
    )


@njit_borrowed
def inner_claim(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """:func:`claim` by a search's inner hooks."""
    _on_discard(P.hooks[H_INNER_CLAIM], (P, G, S, W, wall, rec, bots, dice_seed, discarder, t))


@njit_borrowed
def play(G, S, W, P, wall, bots, dice_seed, rec, cur, forced, claims):
    """The hand loop (:func:`mjsim.game.engine.play_from`) at the policy's ``play``, every
    seat asked by the inner hooks directly (``search.roll_hooks``, in the own three's
    places): a search's rollouts, holding none of the engine's code."""
    R = Policy(P.search.roll_hooks, P.search, P.tuned)
    return _play(P.hooks[H_PLAY], (G, S, W, R, wall, bots, dice_seed, rec, cur, forced, claims))


# --------------------------------------------------------------------------- heuristic


@njit_borrowed
def heuristic_discard(P, G, S, W, wall, rec, bots, dice_seed, s):
    """The heuristic bot's own discard (:func:`mjsim.game.bots.choose_discard`)."""
    return B.choose_discard(G, S, W, s, bots[s])


@njit_borrowed
def bots_decide(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """No choice made before the engine's: the heuristic bots decide later."""
    return None


#: the heuristic bots' hooks (a line-up of heuristic seats alone, and a search's inner
#: hooks where the other seats are heuristic)
HEURISTIC = {"discard": heuristic_discard, "win_or_pass": bots_decide, "claim": bots_decide}


def inner(functions: dict) -> dict:
    """A policy's hooks as a search's inner hooks.

    >>> sorted(inner(HEURISTIC))
    ['inner_claim', 'inner_discard', 'inner_win_or_pass']
    """
    return {f"inner_{name}": f for name, f in functions.items()}
