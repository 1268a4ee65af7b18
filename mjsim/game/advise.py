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

With ``claim`` (a tile another seat has just discarded, the seat holding one tile fewer)
the choices weighed are the claims instead: each pung or chow the seat could make of it
(:func:`mjsim.game.decisions.claim_options`) and declining it, the shanten and live tiles
those of the best discard after the claim.

>>> rows = advise("changsha", "2258m2588p22558s9m", rollouts=24, seed=1)["discards"]
>>> rows[0]["tile"], rows[0]["shanten"]
('9m', 0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..efficiency import ukeire, waits
from ..notation import parse_hand, parse_tiles, to_compact
from ..progress import compile_notice
from ..rules import RuleSet, load_rules
from ..tiles import Hand, Meld, name
from . import record as R
from . import scoring as SC
from . import values as V
from .bots import choose_discard
from .config import game_config
from .decisions import CLAIM_PUNG, claim_on, claim_options
from .position import position
from .score import score
from .search import CLAIM, DISCARD, search_policy, weigh
from .state import (
    CLAIM_DECLINE,
    CLAIM_TAKE_CHOW,
    CLAIM_TAKE_PUNG,
    P_LAST,
    P_TURNS,
    ST_COST,
    copy_state,
    new_state,
)
from .wins import assess

#: a first advice's compile with nothing cached (the engine with a model, about a minute
#: and a half on 2 cores, then the search bot and the waits kernels, half a minute each:
#: benchmarks/bench_compile.py)
COMPILE_SECONDS = 120

#: a z-score of a 95% interval
Z95 = 1.959963984540054
#: the most worlds advise plays per discard
MAX_ROLLOUTS = 100_000


def _check(
    rules: RuleSet, hand: Hand, seat: int, dealer: int, turn: int | None, rollouts: int, claim: bool
) -> None:
    want = rules.hand_size + (not claim) - 3 * len(hand.melds)
    if int(hand.counts.sum()) != want:
        why = (
            "another seat has just discarded the tile to claim"
            if claim
            else "it is the seat's turn to discard"
        )
        raise ValueError(
            f"the hand must hold {want} concealed tiles beside its "
            f"{len(hand.melds)} meld(s) ({why}), got {int(hand.counts.sum())}"
        )
    if hand.flowers:
        raise ValueError("flowers are set aside at once: leave them out of the hand")
    for what, value in (("seat", seat), ("dealer", dealer)):
        if not 0 <= value <= 3:
            raise ValueError(f"{what} must be 0-3, got {value}")
    most = rules.tile_set - 4 * rules.hand_size  # the discards a whole wall allows
    if turn is not None and not 0 <= turn <= most:
        raise ValueError(
            f"turn must be 0 to {most} (the discards {rules.id}'s {rules.tile_set} tiles "
            f"allow), got {turn}"
        )
    if not 2 <= rollouts <= MAX_ROLLOUTS:
        raise ValueError(f"rollouts must be 2 to {MAX_ROLLOUTS:,}, got {rollouts}")


def _estimate(x: np.ndarray) -> dict[str, Any]:
    se = float(x.std(ddof=1) / np.sqrt(len(x)))
    mean = float(x.mean())
    return {"mean": mean, "se": se, "ci": [mean - Z95 * se, mean + Z95 * se]}


def advise(
    rules: str | RuleSet,
    hand: str,
    seen: str = "",
    turn: int | None = None,
    seat: int = 0,
    dealer: int = 0,
    rollouts: int = 400,
    seed: int = 0,
    claim: str | None = None,
    discarder: int | None = None,
) -> dict[str, Any]:
    """Each legal discard of ``hand`` (the seat to move: its concealed tiles and ``[melds]``)
    weighed in ``rollouts`` sampled worlds, best mean first; with ``claim``, each claim of
    that tile just discarded by ``discarder`` (default: the seat's 上家) and declining it
    (see the module)."""
    rs = load_rules(rules)
    parsed = parse_hand(hand, rs)
    _check(rs, parsed, seat, dealer, turn, rollouts, claim is not None)
    label = f"the engine and the search bot ({game_config(rs).model} model)"
    with compile_notice(None, label, COMPILE_SECONDS):
        return _advise(rs, parsed, hand, seen, turn, seat, dealer, rollouts, seed, claim, discarder)


def _advise(
    rs: RuleSet,
    parsed: Hand,
    hand: str,
    seen: str,
    turn: int | None,
    seat: int,
    dealer: int,
    rollouts: int,
    seed: int,
    claim: str | None,
    discarder: int | None,
) -> dict[str, Any]:
    """:func:`advise` of a checked position."""
    seen_counts = parse_tiles(seen)[:34].astype(np.int64) if seen else np.zeros(34, np.int64)
    if claim is not None:
        return _advise_claim(
            rs,
            parsed,
            hand,
            seen,
            seen_counts,
            turn,
            seat,
            dealer,
            rollouts,
            seed,
            claim,
            discarder,
        )
    G, S, W, wall = position(rs, parsed, seen_counts, turn, seat, dealer, seed)
    choice = int(choose_discard(G, S, W, np.int64(seat), np.int64(R.BOT_EFFICIENCY)))
    legal = [choice] + [d for d in range(34) if W.keys[d] < 1 << 40 and d != choice]
    shanten = {d: int(W.bases[d]) - 1 for d in legal}  # before the rollouts use W
    P = _weighed(rs, G, S, W, wall, legal, seat, rollouts, seed, seat, -1, DISCARD)
    wild = [k for k in range(34) if S.wild[seat, k]]
    effs = {
        d.kind: d.live
        for d in ukeire(
            Hand(counts=parsed.counts, melds=parsed.melds),
            rs,
            wild=wild or None,
            visible=(S.seen - S.melded[seat]).astype(np.int64),
            void=int(S.void[seat]) if S.void[seat] >= 0 else None,
        )
    }
    rows = []
    for c, d in enumerate(legal):
        pay = P.payoffs[:, c]
        diff = pay - P.payoffs[:, 0]
        rows.append(
            {
                "tile": name(d),
                "kind": d,
                "efficiency_choice": c == 0,
                **_estimate(pay),
                "win_rate": float(P.won[:, c].mean()),
                "vs_efficiency": _estimate(diff) if c else None,
                "shanten": shanten[d],
                "ukeire": effs.get(d),
            }
        )
    rows.sort(key=lambda r: -r["mean"])
    return {
        "rules": rs.id,
        "options": dict(rs.overrides),
        "hand": hand,
        "seen": seen,
        "turn": int(S.pos[P_TURNS]),
        "seat": seat,
        "dealer": dealer,
        "rollouts": rollouts,
        "seed": seed,
        "wild": [name(k) for k in wild],
        "decision": "discard",
        "discards": rows,
        "pays": _pays(rs, parsed, rows[0], seat, dealer, int(S.pos[P_TURNS]), wild, seed),
    }


#: worlds each winning tile of the best discard is scored in (:func:`_pays`)
PAY_WORLDS = 200


def _pays(
    rs: RuleSet, parsed: Hand, best: dict, seat: int, dealer: int, turn: int, wild, seed: int
) -> list[dict[str, Any]]:
    """What each winning tile of the best discard pays the seat (:func:`mjsim.game.score`):
    self-drawn, and on a discard by its 上家; the mean net over :data:`PAY_WORLDS` worlds
    where the birds or dice are not known. Empty unless the discard leaves the hand ready."""
    if best["shanten"] != 0:
        return []
    counts = parsed.counts.copy()
    counts[best["kind"]] -= 1
    ready = Hand(counts=counts, melds=parsed.melds)
    wild_tile = name(wild[0]) if wild and game_config(rs).cfg[V.WILD] == V.WILD_INDICATOR else None
    out = []
    for w in waits(ready, rs, wild=wild or None):
        hand = f"{to_compact(ready)} +{w.tile}"
        row = {"tile": w.tile, "live": w.live}
        for key, suffix in (("self_drawn", ""), ("on_discard", " (ron)")):
            sc = score(
                rs,
                hand + suffix,
                seat=seat,
                dealer=dealer,
                turn=max(turn, 1),
                wild=wild_tile,
                worlds=PAY_WORLDS,
                seed=seed,
            )
            row[key] = sc.payments[seat] if sc.win else None
            row[f"{key}_patterns"] = [p.name_zh for p in sc.patterns]
        out.append(row)
    return out


def _weighed(
    rs: RuleSet,
    G,
    S,
    W,
    wall: np.ndarray,
    choices: list[int],
    seat: int,
    rollouts: int,
    seed: int,
    cur: int,
    tile: int,
    what: int,
):
    """The search's buffers after each of ``choices`` (candidate 0: the efficiency bot's) was
    played out in the same ``rollouts`` worlds (:func:`mjsim.game.search.weigh`)."""
    P = search_policy(
        G,
        wall.size,
        len(game_config(rs).columns),
        rollouts,
        searching=False,
        candidates=len(choices),
    )
    P.search.cands[:] = choices
    rec = np.zeros(len(game_config(rs).columns), np.int32)
    rec[R.C_DISCARDER] = rec[R.C_WIN_TILE] = -1
    SC.reset_record(G, rec)
    weigh(
        P,
        G,
        S,
        W,
        wall,
        rec,
        np.zeros(4, np.int64),
        np.uint64(seed),
        np.int64(seat),
        np.int64(len(choices)),
        np.int64(rollouts),
        np.int64(cur),
        np.int64(tile),
        np.int64(what),
    )
    return P.search


def _advise_claim(
    rs: RuleSet,
    parsed: Hand,
    hand: str,
    seen: str,
    seen_counts: np.ndarray,
    turn: int | None,
    seat: int,
    dealer: int,
    rollouts: int,
    seed: int,
    claim: str,
    discarder: int | None,
) -> dict[str, Any]:
    """:func:`advise` for the claims of tile ``claim`` discarded by ``discarder``."""
    tiles = parse_tiles(claim)[:34]
    if tiles.sum() != 1:
        raise ValueError(f"--claim takes one tile, e.g. 4m; got {claim!r}")
    t = int(np.flatnonzero(tiles)[0])
    discarder = (seat + 3) % 4 if discarder is None else discarder
    if not 0 <= discarder <= 3 or discarder == seat:
        raise ValueError(f"the discarder must be another seat (0-3 but {seat}), got {discarder}")
    G, S, W, wall = position(
        rs, parsed, seen_counts + tiles.astype(np.int64), turn, seat, dealer, seed
    )
    holder = next(o for o in range(4) if S.discards[o, t] > 0)  # where position put it
    S.discards[holder, t] -= 1
    S.discards[discarder, t] += 1
    S.pos[P_LAST] = t
    bots = np.zeros(4, np.int64)
    assess(G, S, W, np.int64(seat), np.int64(R.BOT_EFFICIENCY), np.int64(1))
    options, keys = np.zeros(34, np.int64), np.zeros(34, np.int64)
    n = int(
        claim_options(
            G, S, W, bots, np.int64(seat), np.int64(discarder), np.int64(t), options, keys
        )
    )
    if n == 0:
        raise ValueError(
            f"seat {seat} has no pung or chow of {name(t)} from seat "
            f"{discarder} to weigh (a chow is the 下家's only; with three of "
            f"it, a kong or pung is the bot's; the last discard, a locked hand "
            f"and 吃听 claims are not weighed)"
        )
    X = new_state()
    copy_state(S, X)
    for o in range(4):  # the bot's own choice, not another seat's pung of the dealt tiles
        if o != seat:
            X.concealed[o, t] = 0
    claimer, kind, first = claim_on(G, X, W, bots, np.int64(discarder), np.int64(t))
    own = (
        CLAIM_DECLINE
        if claimer != seat
        else CLAIM_TAKE_PUNG
        if kind == CLAIM_PUNG
        else CLAIM_TAKE_CHOW + int(first)
    )
    choices = [own] + [int(c) for c in options[:n] if c != own]
    P = _weighed(rs, G, S, W, wall, choices, seat, rollouts, seed, discarder, t, CLAIM)
    rows = []
    for c, choice in enumerate(choices):
        pay = P.payoffs[:, c]
        rows.append(
            {
                "claim": _claim_name(choice, t),
                "efficiency_choice": c == 0,
                **_estimate(pay),
                "win_rate": float(P.won[:, c].mean()),
                "vs_efficiency": _estimate(pay - P.payoffs[:, 0]) if c else None,
                **_after_claim(rs, parsed, S, seat, choice, t),
            }
        )
    rows.sort(key=lambda r: -r["mean"])
    wild = [k for k in range(34) if S.wild[seat, k]]
    return {
        "rules": rs.id,
        "options": dict(rs.overrides),
        "hand": hand,
        "seen": seen,
        "turn": int(S.pos[P_TURNS]),
        "seat": seat,
        "dealer": dealer,
        "rollouts": rollouts,
        "seed": seed,
        "wild": [name(k) for k in wild],
        "decision": "claim",
        "tile": name(t),
        "discarder": discarder,
        "claims": rows,
    }


def _claim_name(choice: int, t: int) -> str:
    """``"pung 4m"``, ``"chow 234m"`` or ``"decline"``."""
    if choice == CLAIM_DECLINE:
        return "decline"
    if choice == CLAIM_TAKE_PUNG:
        return f"pung {name(t)}"
    first = choice - CLAIM_TAKE_CHOW
    return f"chow {''.join(name(k)[0] for k in range(first, first + 3))}{name(t)[1]}"


def _after_claim(rs: RuleSet, parsed: Hand, S, seat: int, choice: int, t: int) -> dict[str, Any]:
    """The shanten and live improving tiles of the best discard after the claim (declined:
    the seat's shanten as it is, no discard to make)."""
    if choice == CLAIM_DECLINE:
        return {"shanten": int(S.status[seat, ST_COST]) - 1, "ukeire": None}
    meld = Meld("pung", t) if choice == CLAIM_TAKE_PUNG else Meld("chow", choice - CLAIM_TAKE_CHOW)
    counts = parsed.counts.copy()
    counts[t] += 1
    for k in meld.kinds:
        counts[k] -= 1
    wild = [k for k in range(34) if S.wild[seat, k]]
    visible = (S.seen - S.melded[seat]).astype(np.int64)
    visible[t] -= 1  # the claimed tile leaves the pile for the meld, counted as the hand's
    best = ukeire(
        Hand(counts=counts, melds=(*parsed.melds, meld)),
        rs,
        wild=wild or None,
        visible=visible,
        void=int(S.void[seat]) if S.void[seat] >= 0 else None,
    )[0]
    return {"shanten": best.shanten, "ukeire": best.live}
