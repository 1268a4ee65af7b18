"""``mjsim advise``: every legal discard of a position weighed by play to the end of the hand.

The position is built through the engine's own deal, so bonus tiles, the indicator and the
wildcards are the rule set's: the seat's concealed tiles and melds are put in place, the
tiles already seen go to the other seats' discards (the turn count is their number unless
given), and the rest — the other hands and the live wall — is dealt at random. Each legal
discard (the rules' forced order respected) is then played out by the search bot's
rollouts in the same sampled worlds (:func:`mjsim.game.search.weigh`, every seat playing on
as the efficiency bot): the seat's mean net payment with its standard error and 95%
interval, its win rate, the paired difference to the efficiency bot's choice, and the
shanten and live improving tiles of what the discard leaves (:func:`mjsim.ukeire`).

>>> rows = advise("changsha", "2258m2588p22558s9m", rollouts=24, seed=1)["discards"]
>>> rows[0]["tile"], rows[0]["shanten"]
('9m', 0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..efficiency import ukeire
from ..kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from ..notation import parse_hand, parse_tiles
from ..rules import RuleSet, load_rules
from ..tiles import Hand, name
from . import engine as EN
from . import record as R
from . import scoring as SC
from . import values as V
from .bots import choose_discard, choose_void
from .config import game_config
from .state import (P_HEAD, P_LAST, P_TAIL, P_TURNS, ST_QS_DONE, add_meld, new_scratch,
                    new_state, reset_state)
from .search import search_policy, weigh

#: a z-score of a 95% interval
Z95 = 1.959963984540054
#: the most worlds advise plays per discard
MAX_ROLLOUTS = 100_000
#: walls tried for a position: the first whose indicator and reserve leave out the tiles
#: asked for (rejection, so the position is a random deal given what the seat holds)
ATTEMPTS = 1000


def _meld_type(meld) -> int:
    if meld.type == "chow":
        return MELD_CHOW
    if meld.type == "pung":
        return MELD_PUNG
    return MELD_CKONG if meld.concealed else MELD_KONG


def _check(rules: RuleSet, hand: Hand, seat: int, dealer: int, turn: int | None,
           rollouts: int) -> None:
    want = rules.hand_size + 1 - 3 * len(hand.melds)
    if int(hand.counts.sum()) != want:
        raise ValueError(f"the hand must hold {want} concealed tiles beside its "
                         f"{len(hand.melds)} meld(s) (it is the seat's turn to discard), "
                         f"got {int(hand.counts.sum())}")
    if hand.flowers:
        raise ValueError("flowers are set aside at once: leave them out of the hand")
    for what, value in (("seat", seat), ("dealer", dealer)):
        if not 0 <= value <= 3:
            raise ValueError(f"{what} must be 0-3, got {value}")
    if turn is not None and turn < 0:
        raise ValueError(f"turn must be 0 or more, got {turn}")
    if not 2 <= rollouts <= MAX_ROLLOUTS:
        raise ValueError(f"rollouts must be 2 to {MAX_ROLLOUTS:,}, got {rollouts}")


def position(rules: RuleSet, hand: Hand, seen: np.ndarray, turn: int | None, seat: int,
             dealer: int, seed: int) -> tuple[Any, Any, Any, np.ndarray]:
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
        raise ValueError(f"{need[k]} copies of {name(int(k))} across the hand, melds and seen "
                         f"tiles; {rules.id} has {copies[k]}")
    rng = np.random.default_rng(seed)
    S, W = new_state(), new_scratch()
    for _ in range(ATTEMPTS):  # walls whose indicator and reserve leave the tiles asked for
        wall = rng.permutation(g.spec.multiset).astype(np.int8)
        reset_state(S, np.int64(dealer), np.int64(wall.size))
        EN.deal(G, S, W, wall, np.int64(dealer))
        lo, hi = int(S.pos[P_HEAD]), int(S.pos[P_TAIL] - G.cfg[V.RESERVE])
        slots = [j for j in range(lo, hi) if not G.is_bonus[wall[j]]]
        pool = (S.concealed.sum(axis=0).astype(np.int64)
                + np.bincount(wall[slots], minlength=34)[:34])
        if (need <= pool).all():
            break
    else:
        k = int(np.flatnonzero(need > pool)[0])
        raise ValueError(f"too many {name(k)}: {need[k]} across the hand, melds and seen "
                         f"tiles, more than the deals of {rules.id} leave in play")
    rest = np.repeat(np.arange(34), pool - need)
    rng.shuffle(rest)
    others = [(seat + j) % 4 for j in (1, 2, 3)]
    left = len(rest) - 3 * rules.hand_size
    if left < 1:
        raise ValueError(f"too many tiles melded and seen: {int(need.sum())} leave no wall")
    S.concealed[:] = 0
    S.concealed[seat] = hand.counts
    for meld in hand.melds:
        mtype = _meld_type(meld)
        add_meld(G, S, np.int64(seat), np.int64(meld.first), np.int64(mtype),
                 np.int64(-1 if mtype == MELD_CKONG else (seat + 3) % 4))
    for i, k in enumerate(np.repeat(np.arange(34), seen)):
        S.discards[others[i % 3], k] += 1
        S.seen[k] += 1
    for j, o in enumerate(others):
        S.concealed[o] = np.bincount(rest[j * rules.hand_size:(j + 1) * rules.hand_size],
                                     minlength=34)
    kept = slots[len(slots) - left:]
    wall[kept] = rest[3 * rules.hand_size:]
    S.pos[P_HEAD] = kept[0]
    S.pos[P_TURNS] = int(seen.sum()) if turn is None else turn
    S.pos[P_LAST] = -1
    S.status[:, ST_QS_DONE] = 1  # the position is past the deal's 起手胡
    if G.cfg[V.VOID] == V.VOID_DECLARED:
        for s in range(4):
            S.void[s] = choose_void(G, S, W, np.int64(s))
    for o in others:
        EN.assess(G, S, W, np.int64(o), np.int64(R.BOT_EFFICIENCY), np.int64(1))
    return G, S, W, wall


def _estimate(x: np.ndarray) -> dict[str, Any]:
    se = float(x.std(ddof=1) / np.sqrt(len(x)))
    mean = float(x.mean())
    return {"mean": mean, "se": se, "ci": [mean - Z95 * se, mean + Z95 * se]}


def advise(rules: str | RuleSet, hand: str, seen: str = "", turn: int | None = None,
           seat: int = 0, dealer: int = 0, rollouts: int = 400, seed: int = 0
           ) -> dict[str, Any]:
    """Each legal discard of ``hand`` (the seat to move: its concealed tiles and ``[melds]``)
    weighed in ``rollouts`` sampled worlds, best mean first (see the module)."""
    rs = load_rules(rules) if isinstance(rules, str) else rules
    parsed = parse_hand(hand, rs)
    _check(rs, parsed, seat, dealer, turn, rollouts)
    seen_counts = parse_tiles(seen)[:34].astype(np.int64) if seen else np.zeros(34, np.int64)
    G, S, W, wall = position(rs, parsed, seen_counts, turn, seat, dealer, seed)
    choice = int(choose_discard(G, S, W, np.int64(seat), np.int64(R.BOT_EFFICIENCY)))
    legal = [choice] + [d for d in range(34) if W.keys[d] < 1 << 40 and d != choice]
    shanten = {d: int(W.bases[d]) - 1 for d in legal}  # before the rollouts use W
    P = search_policy(wall.size, len(game_config(rs).columns), rollouts, candidates=len(legal))
    P.cands[:] = legal
    rec = np.zeros(len(game_config(rs).columns), np.int32)
    rec[R.C_DISCARDER] = rec[R.C_WIN_TILE] = -1
    SC.reset_record(G, rec)
    weigh(P, G, S, W, wall, rec, np.zeros(4, np.int64), np.uint64(seed), np.int64(seat),
          np.int64(len(legal)), np.int64(rollouts))
    wild = [k for k in range(34) if S.wild[seat, k]]
    effs = {d.kind: d.live for d in ukeire(
        Hand(counts=parsed.counts, melds=parsed.melds), rs, wild=wild or None,
        visible=(S.seen - S.melded[seat]).astype(np.int64),
        void=int(S.void[seat]) if S.void[seat] >= 0 else None)}
    rows = []
    for c, d in enumerate(legal):
        pay = P.payoffs[:, c]
        diff = pay - P.payoffs[:, 0]
        rows.append({"tile": name(d), "kind": d, "efficiency_choice": c == 0,
                     **_estimate(pay), "win_rate": float(P.won[:, c].mean()),
                     "vs_efficiency": _estimate(diff) if c else None,
                     "shanten": shanten[d], "ukeire": effs.get(d)})
    rows.sort(key=lambda r: -r["mean"])
    return {"rules": rs.id, "options": dict(rs.overrides), "hand": hand, "seen": seen,
            "turn": int(S.pos[P_TURNS]), "seat": seat, "dealer": dealer,
            "rollouts": rollouts, "seed": seed, "wild": [name(k) for k in wild],
            "discards": rows}
