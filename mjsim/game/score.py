"""``mjsim score``: what one won hand pays, settled by the engine's own scoring model.

The hand and the circumstances of its win (how and on what tile it was won, the seats, who
each exposed meld was claimed from, flowers, the wildcard, 报听, the dice, 荒番, the next
tiles of the wall) are put into an engine position (:func:`mjsim.game.position.position`),
and the win is tested and paid by the compiled functions a played hand uses: the model's
``start_hand``, :func:`mjsim.game.wins.self_win` or :func:`~mjsim.game.wins.win_test_on`,
then :func:`~mjsim.game.wins.finish_win` (the model's ``settle``). Nothing here computes a
payment.

What the settlement reads that the circumstances leave open — Changsha's birds (the next
tiles of the wall), Shanghai's opening dice — is drawn at random: the win is settled in
``worlds`` random positions, and the payment is the distribution of what they paid, with
its mean and standard error. Where every world pays the same, the payment is exact.

>>> s = score("changsha", "[222p] 555m777s99m11p +1p (ron)", wall="1m 3m")
>>> s.win, s.units, [p.name_zh for p in s.patterns], s.payments
(True, 1, ['碰碰胡'], (14.0, 0.0, 0.0, -14.0))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..kernels.shanten import MELD_PUNG
from ..notation import parse_hand, tile_list
from ..progress import compile_notice
from ..rules import RuleSet, load_rules
from ..tiles import Hand, name
from . import record as R
from . import scoring as SC
from . import values as V
from .config import game_config, scoring_values
from .position import place, position, wall_head
from .score_input import (
    bonus_count,
    claims_on,
    default_meld_from,
    how_won,
    kind_of,
    other_winners,
    revealed_tiles,
    seat_of,
    tiles_left,
    winning_tile,
)
from .score_steps import not_a_win, steps
from .state import (
    DRAW_ON_READY,
    M_FROM,
    P_BAO,
    P_HEAD,
    P_KONGS,
    P_TAIL,
    P_TURNS,
    P_WILD_DRAW,
    P_WILD_TILE,
    ST_BONUS,
    ST_DECLARED,
    ST_TENPAI,
    is_wild_kind,
)
from .wins import bonus_tiles_win, finish_win, self_win, win_test_on

#: a first score's compile with nothing cached: the engine's deal, win test and settlement
#: of a model (what its first played hand compiles, about a minute on 2 cores)
COMPILE_SECONDS = 60
#: the default count of random worlds a payment is averaged over
WORLDS = 2000
#: the most worlds
MAX_WORLDS = 200_000
#: walls tried for a wildcard asked for (the deal turns it at random)
WILD_ATTEMPTS = 2000
#: the turn a win is taken at unless given (past the first go-around: no 天胡 / 地胡)
TURN = 8


#: what the circumstances may set in the model's carried and per-hand facts: option ->
#: (the model module's slot constant, its field of the state)
_CARRIED = {"huangfan": "K_HUANGFAN", "after_draw": "K_DRAWN"}
#: seat-numbered model columns kept whole in the facts (the others: the winner's alone)
_WHOLE = ("bird", "hits")


@dataclass(frozen=True)
class Pattern:
    """A pattern, type or item of the model that the win has, with its value."""

    id: str
    name_zh: str
    value: int
    meaning: str


@dataclass(frozen=True)
class Outcome:
    """One payment the win can make, with the chance of it over what was not given."""

    payments: tuple[int, int, int, int]
    probability: float
    se: float
    facts: dict[str, int]


@dataclass(frozen=True)
class Score:
    """What one hand pays (:func:`score`): ``payments`` are net by seat (positive received),
    the mean over the ``outcomes`` with its standard error ``se``; ``steps`` explain it."""

    rules: str
    options: dict[str, Any]
    hand: str
    win: bool
    reason: str | None
    how: str
    seat: int
    dealer: int
    discarder: int | None
    units: int = 0
    patterns: tuple[Pattern, ...] = ()
    facts: dict[str, int] = field(default_factory=dict)
    payments: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    se: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    by_source: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    outcomes: tuple[Outcome, ...] = ()
    worlds: int = 0
    exact: bool = True
    steps: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The score as plain JSON values."""
        from dataclasses import asdict

        return asdict(self)


def _dice_seed(G, S, rec, columns: tuple[str, ...], dice: tuple[int, int]) -> int:
    """A dice seed whose opening dice (the model's ``dice_0``, ``dice_1``) are ``dice``."""
    if "dice_0" not in columns:
        raise ValueError("this rule set rolls no dice that its scoring reads")
    if not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two numbers 1-6, got {dice}")
    c0 = columns.index("dice_0")
    for seed in range(100_000):
        SC.start_hand(G, S, rec, np.uint64(seed))
        if (rec[c0], rec[c0 + 1]) in (dice, dice[::-1]):
            return seed
    raise AssertionError("no dice seed found")  # 36 outcomes: unreachable


@dataclass(frozen=True)
class _Setting:
    """The circumstances, checked and resolved to engine values."""

    rs: RuleSet
    hand: Hand
    concealed: Hand
    tile: int
    how: int
    seat: int
    dealer: int
    discarder: int
    meld_from: tuple[int, ...]
    turn: int
    flowers: int
    wild: int | None
    bao: int | None
    declared: tuple[int, ...]
    discarder_ready: bool
    wall: tuple[int, ...]
    dice: tuple[int, int] | None
    carried: dict[str, int]
    claimed: dict[tuple[int, int], int]
    left: int | None
    revealed: tuple[int, ...]
    on_ready: bool
    also: dict[int, tuple[Hand, tuple[int, ...], int]]


def _world(st: _Setting, seed: int):
    """``(S, rec, legal)``: the win settled in one random position."""
    g = game_config(st.rs)
    rng = np.random.default_rng(seed)
    seen = np.zeros(34, np.int64)
    tsumo = R.self_drawn(st.how)
    if not tsumo:
        seen[st.tile] += 1  # the tile won on: another seat's
    if st.how == R.WIN_QIANGGANG:
        seen[st.tile] += 3  # the konger's pung
    for x in st.revealed:
        seen[x] += 1
    for _ in range(WILD_ATTEMPTS):
        G, S, W, wall = position(
            st.rs,
            st.hand if tsumo else st.concealed,
            seen,
            st.turn,
            st.seat,
            st.dealer,
            int(rng.integers(2**62)),
        )
        if st.wild is None or S.wild[st.seat, st.wild]:
            break
    else:
        raise ValueError(f"no deal of {st.rs.id} makes {name(st.wild)} wild")
    rec = np.zeros(len(g.columns), np.int32)
    rec[R.C_DISCARDER] = rec[R.C_WIN_TILE] = -1
    SC.reset_record(G, rec)
    rec[R.C_WILD_KIND] = st.wild if st.wild is not None else -1
    rec[R.C_DEALER] = st.dealer
    claimed = [i for i in range(S.n_melds[st.seat]) if S.melds[st.seat, i, M_FROM] >= 0]
    for i, frm in zip(claimed, st.meld_from, strict=True):
        S.melds[st.seat, i, M_FROM] = frm
    spare = np.zeros(34, np.int64)
    for o, (other, sources, bonus) in st.also.items():
        spare += S.concealed[o]  # the position's tiles for seat o, displaced
        place(G, S, o, other, sources, bonus)
    for (q, b), n in st.claimed.items():  # the claims alone: the settlement counts sources
        for _ in range(n):
            S.melds[q, S.n_melds[q]] = (0, MELD_PUNG, b)
            S.n_melds[q] += 1
    S.status[:, ST_TENPAI] = 0
    if st.discarder_ready:
        S.status[st.discarder, ST_TENPAI] = 1
    S.status[st.seat, ST_BONUS] = st.flowers
    if st.bao is not None:
        S.pos[P_BAO] = st.bao
    for d in st.declared:
        S.status[d, ST_DECLARED] = 1
        S.pos[P_TURNS] = 1
        SC.declare(G, S, np.int64(d))
    S.pos[P_TURNS] = st.turn
    S.pos[P_KONGS] = sum(m.type == "kong" for m in st.hand.melds)
    first = int(S.pos[P_HEAD])
    if st.left is not None:
        head = S.pos[P_TAIL] - G.cfg[V.RESERVE] - st.left
        if head < S.pos[P_HEAD]:
            raise ValueError(
                f"{st.left} tiles left to draw: this position leaves at most "
                f"{S.pos[P_TAIL] - G.cfg[V.RESERVE] - S.pos[P_HEAD]}"
            )
        S.pos[P_HEAD] = head
    if st.wall:
        wall_head(S, wall, list(st.wall), (st.seat, *st.also), first, spare)
    module = SC.model(g.model)
    for key, value in st.carried.items():
        S.carry[getattr(module, _CARRIED[key])] = value
    dice_seed = int(rng.integers(2**62))
    if st.dice is not None:
        dice_seed = _dice_seed(G, S, rec, g.columns, st.dice)
    S.pay[:] = 0
    SC.start_hand(G, S, rec, np.uint64(dice_seed))
    s, t, kind = np.int64(st.seat), np.int64(st.tile), np.int64(st.how)
    if st.how == R.WIN_BONUS:  # settled where it wins, as the engine's bonus-tile win is
        return S, rec, bool(bonus_tiles_win(G, S, W, wall, rec, np.int64(st.seat)))
    if st.revealed:
        legal = _open_kong_win(G, S, W, st)
    elif st.on_ready:
        legal = _on_ready_win(G, S, W, st)
    elif tsumo:
        legal = bool(self_win(G, S, W, s, t, kind, np.int64(0)))
    else:
        legal, units, bits = win_test_on(G, S, W, s, t, kind)
        S.units[s], S.bits[s] = units, bits
    winners = 1 << st.seat
    for o, (other, _, _) in st.also.items():
        won, S.units[o], S.bits[o] = win_test_on(
            G, S, W, np.int64(o), np.int64(other.win_tile), kind
        )
        if not won:
            raise ValueError(f"also: seat {o}'s hand does not win on {name(other.win_tile)}")
        winners |= 1 << o
    if legal:
        finish_win(G, S, W, wall, rec, np.int64(winners), kind, np.int64(st.discarder), t)
    return S, rec, bool(legal)


def _on_ready_win(G, S, W, st: _Setting) -> bool:
    """对宝 as the engine's win at 报听 takes it: the 宝 among the new waits wins as a
    self-drawn wild tile, no tile added to the hand."""
    s, t = np.int64(st.seat), np.int64(st.tile)
    if not is_wild_kind(G, S, t):
        raise ValueError(f"对宝 wins on the 宝: {name(st.tile)} is not it (give --bao)")
    S.concealed[st.seat, st.tile] -= 1
    S.pos[P_WILD_DRAW] = DRAW_ON_READY
    S.pos[P_WILD_TILE] = st.tile
    legal, S.units[s], S.bits[s] = win_test_on(G, S, W, s, t, np.int64(R.WIN_ZIMO))
    return bool(legal)


def _opened(G) -> int:
    """The tiles a kong reveals (开杠), 0 where kongs reveal none."""
    return int(G.cfg[V.OPEN_KONG_TILES]) if G.cfg[V.OPEN_KONG] else 0


def _open_kong_win(G, S, W, st: _Setting) -> bool:
    """A 开杠's win as the engine's open kong takes it (§2.5): each revealed tile tested on
    the konger's hand, the best one's units raised for each other tile that wins too
    (the model's ``open_kong_units``)."""
    s, kind = np.int64(st.seat), np.int64(R.WIN_GANGKAI)
    S.concealed[st.seat, st.tile] -= 1
    wins = [(x, *win_test_on(G, S, W, s, np.int64(x), kind)) for x in (st.tile, *st.revealed)]
    S.concealed[st.seat, st.tile] += 1
    wins = [(x, int(u), int(b)) for x, legal, u, b in wins if legal]
    if not wins:
        return False
    best = max(wins, key=lambda w: w[1])  # the first of the best, as the engine takes it
    if best[1] > next((u for x, u, _ in wins if x == st.tile), -1):
        raise ValueError(
            f"the revealed {name(best[0])} pays more than {name(st.tile)}: the konger takes "
            f"it; write it as the winning tile"
        )
    S.units[s] = SC.open_kong_units(G, np.int64(best[1]), np.int64(len(wins)))
    S.bits[s] = next(b for x, _, b in wins if x == st.tile)
    return True


def _patterns(module, bits: int) -> tuple[Pattern, ...]:
    return tuple(
        Pattern(p.id, p.name_zh, int(p.units), p.set_by)
        for b, p in enumerate(module.PATTERNS)
        if (bits >> b) & 1
    )


def _facts(model_columns: tuple[str, ...], rec: np.ndarray, offset: int, seat: int) -> dict:
    """The model's record columns of the hand, and of the winner's seat by their base name
    (``type`` for ``type_<seat>``); birds, hits and dice whole."""
    out = {}
    for i, c in enumerate(model_columns):
        base, _, end = c.rpartition("_")
        per_seat = end in "0123" and f"{base}_3" in model_columns
        if per_seat and base not in _WHOLE:
            if int(end) == seat:
                out[base] = int(rec[offset + i])
        else:
            out[c] = int(rec[offset + i])
    return out


def _outcomes(pays: np.ndarray, facts: list[dict]) -> tuple[Outcome, ...]:
    """Distinct payments with their share of the worlds (and its s.e.), and the facts all
    the worlds of each share."""
    n = len(pays)
    keys = [tuple(int(x) for x in row) for row in pays]
    out = []
    for key, count in Counter(keys).most_common():
        prob = count / n
        rows = [facts[i] for i, k in enumerate(keys) if k == key]
        same = {c: v for c, v in rows[0].items() if all(r[c] == v for r in rows)}
        out.append(Outcome(key, prob, float(np.sqrt(prob * (1 - prob) / n)), same))
    return tuple(out)


def score(
    rules: str | RuleSet,
    hand: str,
    *,
    how: str | None = None,
    seat: int = 0,
    dealer: int = 0,
    discarder: int | None = None,
    meld_from: tuple[int, ...] | None = None,
    turn: int = TURN,
    wild: str | None = None,
    bao: str | None = None,
    declared: tuple[int, ...] = (),
    discarder_ready: bool = False,
    wall: str = "",
    dice: tuple[int, int] | None = None,
    huangfan: int | None = None,
    after_draw: bool = False,
    bonus: int | None = None,
    claimed: dict[int | tuple[int, int], int] | None = None,
    left: int | None = None,
    revealed: str = "",
    on_ready: bool = False,
    also: dict[int, str] | None = None,
    also_meld_from: dict[int, tuple[int, ...]] | None = None,
    also_bonus: dict[int, int] | None = None,
    worlds: int = WORLDS,
    seed: int = 0,
) -> Score:
    """What ``hand`` (its concealed tiles with the winning tile marked ``+``, its melds and
    flowers) pays under ``rules``, won ``how`` (a win kind of :data:`HOWS`; default
    self-drawn, or ``dianpao`` for a hand marked ``(ron)``) by ``seat``; see the module.

    The circumstances: ``dealer``; ``discarder`` (the seat whose tile was won: default the
    winner's 上家); ``meld_from`` (the seat each exposed meld was claimed from, in the
    hand's order: default the 上家); ``turn`` (discards so far: 0 is the dealer's first
    turn, 天胡); ``wild`` (the wildcard kind the deal turned, where the rule set has one);
    ``bao`` (the 宝 indicator turned at the first 报听); ``declared`` (the seats that
    had declared 报听 before the tile won on was discarded); ``discarder_ready`` (the discarder's tiles were ready: 承包's
    liability reads it); ``wall`` (the next tiles of the wall: Changsha's birds);
    ``dice`` (the opening dice: Shanghai's 开宝); ``huangfan`` (荒番 carried from drawn
    hands); ``after_draw`` (the hand follows a drawn one: the 宝 game's 荒庄 item);
    ``bonus`` (the bonus tiles set aside: flowers, and dragons where they are bonus tiles;
    default the flowers written in the hand); ``claimed`` (how many melds each other seat
    claimed from the winner's discards: 承包 runs both ways, §5.7; a key ``(q, b)``: seat
    ``q`` from seat ``b``, another winner); ``left`` (the tiles
    left to draw when the hand is won: fewer than the birds leaves fewer birds, §2.6;
    0 for the 海底 wins, default whatever a random position leaves); ``revealed`` (the other
    tiles a 开杠 revealed beside the winning one: each that wins too raises the units,
    §2.5); ``on_ready`` (对宝: won at 报听, the 宝 among the waits, no tile drawn);
    ``also`` (the other seats that won on the same discard, seat -> hand, with
    ``also_meld_from`` their melds' sources and ``also_bonus`` their bonus tiles where not
    written as flowers: the payments are then every winner's). 天胡 on
    the dealt tiles is written without ``+`` (turn 0, the dealer), as is a win by bonus
    tiles (``how`` ``bonus``).
    Whatever of these the settlement reads and is not given is averaged over ``worlds``
    random positions (seeded by ``seed``).
    """
    rs = load_rules(rules)
    parsed = parse_hand(hand, rs)
    how = how_won(parsed, how)
    kind = R.WIN_KINDS.index(how)
    seat, dealer = seat_of("seat", seat), seat_of("dealer", dealer)
    tile = winning_tile(rs, parsed, how, seat, dealer, int(turn))
    tsumo = R.self_drawn(kind)
    if discarder is None:
        discarder = (seat + 3) % 4
    discarder = seat_of("discarder", discarder)
    if not tsumo and discarder == seat:
        raise ValueError(f"the discarder must be another seat than the winner ({seat})")
    exposed = [m for m in parsed.melds if not m.concealed]
    if meld_from is None:
        meld_from = default_meld_from(exposed, seat)
    meld_from = tuple(seat_of("a meld's seat", f) for f in meld_from)
    if len(meld_from) != len(exposed) or seat in meld_from:
        raise ValueError(
            f"meld_from names the seat each of the {len(exposed)} exposed meld(s) was "
            f"claimed from (another seat than {seat}), got {list(meld_from)}"
        )
    g = game_config(rs)
    if not 1 <= worlds <= MAX_WORLDS:
        raise ValueError(f"worlds must be 1 to {MAX_WORLDS:,}, got {worlds}")
    module = SC.model(g.model)
    carried = {}
    for key, value in (("huangfan", huangfan), ("after_draw", int(after_draw) or None)):
        if value is None:
            continue
        if not hasattr(module, _CARRIED[key]):
            raise ValueError(f"{rs.id}'s scoring has no {key}")
        if not 0 <= int(value) <= 99:
            raise ValueError(f"{key} must be 0 to 99, got {value}")
        carried[key] = int(value)
    wild_kind = kind_of(rs, "wild", wild) if wild else None
    if wild_kind is not None and g.rules_arrays.cfg[V.WILD] != V.WILD_INDICATOR:
        raise ValueError(f"{rs.id} turns no wildcard at the deal (--bao is the 宝 after 报听)")
    bao_kind = kind_of(rs, "bao", bao) if bao else None
    if bao_kind is not None and g.rules_arrays.cfg[V.WILD] != V.WILD_DECLARED_DRAW:
        raise ValueError(f"{rs.id} has no 宝 turned at 报听")
    declared = tuple(seat_of("a declared seat", d) for d in declared)
    if declared and g.rules_arrays.cfg[V.DECLARE] == V.DECLARE_NONE:
        raise ValueError(f"{rs.id} has no 报听")
    if kind == R.WIN_BONUS and not g.rules_arrays.cfg[V.BONUS_WIN]:
        raise ValueError(f"{rs.id} has no win by bonus tiles")
    if on_ready and not (g.rules_arrays.cfg[V.WILD_ON_READY] and how == "zimo" and tile >= 0):
        raise ValueError(
            f"on_ready (对宝) is a self-drawn win on the 宝 at 报听, where the rule set has it; "
            f"{rs.id} {'has it' if g.rules_arrays.cfg[V.WILD_ON_READY] else 'has none'}"
        )
    counts = parsed.counts.copy()
    if tile >= 0:
        counts[tile] -= 1
    concealed = Hand(counts=counts, melds=parsed.melds)
    st = _Setting(
        rs=rs,
        hand=parsed,
        concealed=concealed,
        tile=tile,
        how=kind,
        seat=seat,
        dealer=dealer,
        discarder=discarder,
        meld_from=meld_from,
        turn=int(turn),
        flowers=len(parsed.flowers) if bonus is None else bonus_count(rs, parsed, bonus),
        wild=wild_kind,
        bao=bao_kind,
        declared=declared,
        discarder_ready=bool(discarder_ready),
        wall=tuple(tile_list(wall)) if wall else (),
        dice=dice,
        carried=carried,
        claimed=claims_on(rs, seat, claimed or {}),
        left=tiles_left(how, left),
        revealed=revealed_tiles(rs, how, revealed, _opened(g.rules_arrays)),
        on_ready=bool(on_ready),
        also=other_winners(
            rs, also or {}, also_meld_from or {}, also_bonus or {}, seat, discarder, how
        ),
    )
    head = {
        "rules": rs.id,
        "options": dict(rs.overrides),
        "hand": hand,
        "how": how,
        "seat": seat,
        "dealer": dealer,
        "discarder": None if tsumo else discarder,
    }
    label = f"the game engine's win test and settlement ({game_config(rs).model} model)"
    with compile_notice(None, label, COMPILE_SECONDS):
        return _settled(st, head, worlds, seed)


def _settled(st: _Setting, head: dict[str, Any], worlds: int, seed: int) -> Score:
    """The score of ``st`` settled in ``worlds`` random positions."""
    g = game_config(st.rs)
    module = SC.model(g.model)
    rng = np.random.default_rng(seed)
    pays, by_source, facts, values = [], [], [], {}
    for _ in range(worlds):
        S, rec, legal = _world(st, int(rng.integers(2**62)))
        if not legal:
            tsumo_wins = not R.self_drawn(st.how) and _world(replace(st, how=R.WIN_ZIMO), seed)[2]
            reason = not_a_win(st.rs, st.hand, st.wild, st.seat, st.declared, tsumo_wins)
            return Score(**head, win=False, reason=reason)
        pay = S.pay.sum(axis=0)
        values.setdefault(tuple(int(x) for x in pay), (int(S.units[st.seat]), int(S.bits[st.seat])))
        pays.append(pay)
        by_source.append(S.pay[: len(g.sources)].copy())
        facts.append(
            {**_facts(module.COLUMNS, rec, len(R.COMMON), st.seat), "value": int(S.units[st.seat])}
        )
    pays = np.array(pays)
    se = pays.std(axis=0, ddof=1) / np.sqrt(len(pays)) if len(pays) > 1 else np.zeros(4)
    src = np.array(by_source).mean(axis=0)
    outcomes = _outcomes(pays, facts)
    units, bits = values[outcomes[0].payments]
    won = Score(
        **head,
        win=True,
        reason=None,
        units=units,
        patterns=_patterns(module, bits),
        facts=outcomes[0].facts if len(outcomes) == 1 else {},
        payments=tuple(float(x) for x in pays.mean(axis=0)),
        se=tuple(float(x) for x in se),
        by_source={src_: tuple(float(x) for x in src[i]) for i, src_ in enumerate(g.sources)},
        outcomes=outcomes,
        worlds=worlds,
        exact=len(outcomes) == 1,
    )
    return replace(won, steps=steps(won, g.model, scoring_values(st.rs)))
