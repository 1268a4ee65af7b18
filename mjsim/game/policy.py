"""The policy the engine asks at discards, wins and claims: the heuristic bots, or another.

The engine's hand loop calls :func:`discard`, :func:`win_or_pass` and :func:`claim` with a
policy value ``P`` that the run passes down (:func:`mjsim.game.engine.play_games`). The
calls are resolved while numba types them, as the scoring hooks are
(:mod:`mjsim.game.scoring`): with :data:`HEURISTIC` (``()``) a discard is the heuristic
bots' own choice (:func:`mjsim.game.bots.choose_discard`) and a win or a claim is left to
the bots; any other policy value is a named tuple whose class a module registered here
(:func:`register`) with its three hooks — :class:`mjsim.game.search.SearchPolicy`, which
:mod:`mjsim.game.search` registers when it is imported (a line-up with a ``search`` seat).
This module imports no policy: a run without a search seat never imports, types or
compiles the search, and a run with one compiles the engine's hand loop once more, for
that policy; the search's rollouts play on with its ``inner`` policy: :data:`HEURISTIC`, the
heuristic engine, or the tuned seats' policy where the line-up has tuned seats.

>>> HEURISTIC
()
"""

from __future__ import annotations

from numba import types
from numba.extending import overload

from . import bots as B

#: the policy of a run whose seats are all heuristic bots
HEURISTIC = ()
#: a search seat's worlds per decision: by default (``search``), and at most (``search:N``)
DEFAULT_ROLLOUTS = 64
MAX_ROLLOUTS = 4096
#: a policy value's named-tuple class -> its hooks ``(discard, win_or_pass, claim)``
#: (:func:`register`)
REGISTRY: dict[type, tuple] = {}


def register(cls, discard_hook, win_or_pass_hook, claim_hook) -> None:
    """Make values of the named tuple ``cls`` a policy: the engine's :func:`discard`,
    :func:`win_or_pass` and :func:`claim` compile to the hooks given, plain functions with
    the same arguments (each a module-level function calling the policy's compiled one, so
    that numba caches it with no closure)."""
    REGISTRY[cls] = (discard_hook, win_or_pass_hook, claim_hook)


def _hook(P, i: int, what: str):
    """The registered hook ``i`` for the policy type ``P``."""
    if isinstance(P, types.BaseNamedTuple) and P.instance_class in REGISTRY:
        return REGISTRY[P.instance_class][i]
    raise TypeError(f"no {what} policy for {P}")


def discard(P, G, S, W, wall, rec, bots, dice_seed, s):
    """The kind seat ``s`` discards from its 14 tiles (its key and cost left in its status);
    ``wall``, ``rec`` and ``dice_seed`` are the hand's, for a search's rollouts."""
    raise TypeError("policy.discard is called from compiled code only")


@overload(discard, jit_options={"_nrt": False, "cache": True})
def _typed(P, G, S, W, wall, rec, bots, dice_seed, s):
    if isinstance(P, types.BaseTuple) and len(P) == 0:

        def heuristic(P, G, S, W, wall, rec, bots, dice_seed, s):
            return B.choose_discard(G, S, W, s, bots[s])

        return heuristic
    return _hook(P, 0, "discard")


def win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """Before the claims on ``discarder``'s discard ``t``: the win-or-pass choice of each
    seat whose policy makes one (``status[s, ST_RON]``); the heuristic bots decide later."""
    raise TypeError("policy.win_or_pass is called from compiled code only")


@overload(win_or_pass, jit_options={"_nrt": False, "cache": True})
def _typed_win(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    if isinstance(P, types.BaseTuple) and len(P) == 0:

        def heuristic(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
            return None

        return heuristic
    return _hook(P, 1, "win-or-pass")


def claim(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    """Before the pungs and chows on ``discarder``'s discard ``t`` (nobody won on it): the
    claim choice of each seat whose policy makes one (``status[s, ST_CLAIM]``); the
    heuristic bots decide later."""
    raise TypeError("policy.claim is called from compiled code only")


@overload(claim, jit_options={"_nrt": False, "cache": True})
def _typed_claim(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
    if isinstance(P, types.BaseTuple) and len(P) == 0:

        def heuristic(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
            return None

        return heuristic
    return _hook(P, 2, "claim")
