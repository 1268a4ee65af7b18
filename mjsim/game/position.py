"""A position for the engine: a random deal with one seat's tiles and melds put in place.

:func:`position` builds what :mod:`mjsim.game.advise` weighs and :mod:`mjsim.game.score`
settles: the engine's deal of a random wall (so bonus tiles, the indicator and the wildcards
are the rule set's), the seat's concealed tiles and melds, the tiles already seen in the
other seats' discards, and the other hands and the live wall dealt at random from the rest.
:func:`place` then puts another seat's given hand in place, and :func:`wall_head` sets the
live wall's next tiles, each keeping every tile accounted for.

>>> from mjsim.rules import load_rules
>>> from mjsim.notation import parse_hand
>>> rs = load_rules("changsha")
>>> G, S, W, wall = position(rs, parse_hand("2258m2588p22558s9m"), np.zeros(34, np.int64), 0, 0, 0, 1)
>>> int(S.concealed[0].sum()), int(S.concealed[1].sum())
(14, 13)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from ..rules import RuleSet
from ..tiles import Hand, name
from . import record as R
from . import values as V
from .bots import choose_void
from .config import game_config
from .state import (
    P_HEAD,
    P_LAST,
    P_TAIL,
    P_TURNS,
    ST_BONUS,
    ST_QS_DONE,
    add_meld,
    new_scratch,
    new_state,
    reset_state,
)
from .wall import deal
from .wins import assess

#: walls tried for a position: the first whose indicator and reserve leave out the tiles
#: asked for (rejection, so the position is a random deal given what the seat holds)
ATTEMPTS = 1000


def meld_type(meld) -> int:
    """The engine's meld type of a :class:`~mjsim.tiles.Meld`."""
    if meld.type == "chow":
        return MELD_CHOW
    if meld.type == "pung":
        return MELD_PUNG
    return MELD_CKONG if meld.concealed else MELD_KONG


def position(
    rules: RuleSet,
    hand: Hand,
    seen: np.ndarray,
    turn: int | None,
    seat: int,
    dealer: int,
    seed: int,
) -> tuple[Any, Any, Any, np.ndarray]:
    """``(G, S, W, wall)``: the engine's deal of a random wall, then seat ``seat``'s tiles and
    melds put in place, the ``seen`` tiles in the other seats' discards, the other hands
    and the live wall dealt at random from what is left (its head moved on by the tiles
    melded and seen)."""
    g = game_config(rules)
    G = g.rules_arrays
    melded = np.zeros(34, np.int64)
    for meld in hand.melds:
        for k in meld.kinds:
            melded[k] += 1
    need = hand.counts.astype(np.int64) + melded + seen
    copies = np.bincount(g.spec.multiset, minlength=34)[:34]
    for k in np.flatnonzero(need > copies):
        raise ValueError(
            f"{need[k]} copies of {name(int(k))} across the hand, melds and seen "
            f"tiles; {rules.id} has {copies[k]}"
        )
    rng = np.random.default_rng(seed)
    S, W = new_state(), new_scratch()
    for _ in range(ATTEMPTS):  # walls whose indicator and reserve leave the tiles asked for
        wall = rng.permutation(g.spec.multiset).astype(np.int8)
        reset_state(S, np.int64(dealer), np.int64(wall.size))
        deal(G, S, W, wall, np.int64(dealer))
        lo, hi = int(S.pos[P_HEAD]), int(S.pos[P_TAIL] - G.cfg[V.RESERVE])
        slots = [j for j in range(lo, hi) if not G.is_bonus[wall[j]]]
        pool = (
            S.concealed.sum(axis=0).astype(np.int64) + np.bincount(wall[slots], minlength=34)[:34]
        )
        if (need <= pool).all():
            break
    else:
        k = int(np.flatnonzero(need > pool)[0])
        raise ValueError(
            f"too many {name(k)}: {need[k]} across the hand, melds and seen "
            f"tiles, more than the deals of {rules.id} leave in play"
        )
    rest = np.repeat(np.arange(34), pool - need)
    rng.shuffle(rest)
    others = [(seat + j) % 4 for j in (1, 2, 3)]
    left = len(rest) - 3 * rules.hand_size
    if left < 1:
        raise ValueError(f"too many tiles melded and seen: {int(need.sum())} leave no wall")
    S.concealed[:] = 0
    S.concealed[seat] = hand.counts
    for meld in hand.melds:
        mtype = meld_type(meld)
        add_meld(
            G,
            S,
            np.int64(seat),
            np.int64(meld.first),
            np.int64(mtype),
            np.int64(-1 if mtype == MELD_CKONG else (seat + 3) % 4),
        )
    for i, k in enumerate(np.repeat(np.arange(34), seen)):
        S.discards[others[i % 3], k] += 1
        S.seen[k] += 1
    for j, o in enumerate(others):
        S.concealed[o] = np.bincount(
            rest[j * rules.hand_size : (j + 1) * rules.hand_size], minlength=34
        )
    kept = slots[len(slots) - left :]
    wall[kept] = rest[3 * rules.hand_size :]
    S.pos[P_HEAD] = kept[0]
    S.pos[P_TURNS] = int(seen.sum()) if turn is None else turn
    S.pos[P_LAST] = -1
    S.status[:, ST_QS_DONE] = 1  # the position is past the deal's 起手胡
    if G.cfg[V.VOID] == V.VOID_DECLARED:
        for s in range(4):
            S.void[s] = choose_void(G, S, W, np.int64(s))
    for o in others:
        assess(G, S, W, np.int64(o), np.int64(R.BOT_EFFICIENCY), np.int64(1))
    return G, S, W, wall


def place(G, S, o: int, hand: Hand, sources: tuple[int, ...], bonus: int) -> None:
    """Another winner's tiles (its tile won on apart), melds (claimed from ``sources``) and
    ``bonus`` tiles put in seat ``o``."""
    S.concealed[o] = hand.counts[:34]
    S.concealed[o, hand.win_tile] -= 1
    S.melded[o] = 0
    S.n_melds[o] = 0
    S.status[o, ST_BONUS] = bonus
    exposed = iter(sources)
    for m in hand.melds:
        src = -1 if m.concealed and m.type == "kong" else next(exposed)
        add_meld(G, S, np.int64(o), np.int64(m.first), np.int64(meld_type(m)), np.int64(src))


def wall_head(
    S, wall: np.ndarray, kinds: list[int], keep: tuple[int, ...], first: int, spare: np.ndarray
) -> None:
    """The live wall's next tiles made ``kinds`` (in order), each swapped in from further
    down the wall, from the tiles drawn since ``first`` (the position's own head), from
    the hand of a seat not in ``keep`` (the winners), or from ``spare`` (the tiles another
    winner's given hand displaced), so that every tile stays accounted for."""
    head, tail = int(S.pos[P_HEAD]), int(S.pos[P_TAIL])
    if len(kinds) > tail - head:
        raise ValueError(f"{len(kinds)} wall tiles asked for, {tail - head} left")
    for i, k in enumerate(kinds):
        j = head + i
        if wall[j] == k:
            continue
        later = [x for x in (*range(j + 1, tail), *range(first, head)) if wall[x] == k]
        if later:
            wall[j], wall[later[0]] = wall[later[0]], wall[j]
            continue
        holder = next((o for o in range(4) if o not in keep and S.concealed[o, k] > 0), None)
        if holder is None and spare[k] > 0:
            spare[k] -= 1
            spare[wall[j]] += 1
            wall[j] = k
            continue
        if holder is None:
            raise ValueError(f"no {name(k)} is left for the wall: every copy is in sight")
        S.concealed[holder, k] -= 1
        S.concealed[holder, wall[j]] += 1
        wall[j] = k
