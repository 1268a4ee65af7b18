"""The policy the engine asks at discards, wins and claims: the heuristic bots, or a search.

The engine's hand loop calls :func:`discard`, :func:`win_or_pass` and :func:`claim` with a
policy value ``P`` that the run passes down (:func:`mjsim.game.engine.play_games`). The
calls are resolved while numba types them, as the scoring hooks are
(:mod:`mjsim.game.scoring`): with :data:`HEURISTIC` (``()``) a discard is the heuristic
bots' own choice (:func:`mjsim.game.bots.choose_discard`) and a win or a claim is left to
the bots; with a :class:`mjsim.game.search.SearchPolicy` (a line-up with a ``search`` seat)
all three are the search's (:func:`mjsim.game.search.discard`,
:func:`mjsim.game.search.win_or_pass`, :func:`mjsim.game.search.claim`). A run without a
search seat never imports, types or compiles the search, and a run with one compiles the
engine's hand loop once more, for that policy; the search's rollouts play on with
:data:`HEURISTIC`, the heuristic engine.

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
    from . import search  # only where a run has a search seat

    if isinstance(P, types.BaseNamedTuple) and P.instance_class is search.SearchPolicy:
        def searched(P, G, S, W, wall, rec, bots, dice_seed, s):
            return search.discard(P, G, S, W, wall, rec, bots, dice_seed, s)
        return searched
    raise TypeError(f"no discard policy for {P}")


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
    from . import search  # only where a run has a search seat

    if isinstance(P, types.BaseNamedTuple) and P.instance_class is search.SearchPolicy:
        def searched(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
            search.win_or_pass(P, G, S, W, wall, rec, bots, dice_seed, discarder, t)
        return searched
    raise TypeError(f"no win-or-pass policy for {P}")


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
    from . import search  # only where a run has a search seat

    if isinstance(P, types.BaseNamedTuple) and P.instance_class is search.SearchPolicy:
        def searched(P, G, S, W, wall, rec, bots, dice_seed, discarder, t):
            search.claim(P, G, S, W, wall, rec, bots, dice_seed, discarder, t)
        return searched
    raise TypeError(f"no claim policy for {P}")
