"""The search bot (mjsim.game.search): its worlds keep every tile and re-deal only what the
seat cannot see, one candidate is exactly the efficiency bot, and searched hands are
deterministic, independent of chunking, and pay zero in sum."""

from __future__ import annotations

import numpy as np
import pytest

import mjsim.game.play as play_mod
from mjsim.efficiency import waits_batch
from mjsim.game import record as R
from mjsim.game import scoring as SC
from mjsim.game import values as V
from mjsim.game.config import game_config
from mjsim.game.decisions import CLAIM_CHOW, CLAIM_PUNG, claim_on, claim_options
from mjsim.game.evaluation import cost
from mjsim.game.play import columns, parse_bots, play_rows, with_rollouts
from mjsim.game.policy import search_buffers
from mjsim.game.position import position
from mjsim.game.search import (
    COUNTS,
    DISCARD,
    PARAMS,
    TRACE,
    search_policy,
    weigh,
    world,
)
from mjsim.game.sequential import Z_DROP, Z_LEAVE, leader, settled
from mjsim.game.state import (
    CLAIM_BY_BOT,
    CLAIM_DECLINE,
    CLAIM_TAKE_CHOW,
    CLAIM_TAKE_PUNG,
    P_HEAD,
    P_TAIL,
    ST_CLAIM,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    STATE,
    copy_state,
    new_scratch,
    new_state,
    reset_state,
)
from mjsim.game.tuned import EFFICIENCY, INDEX
from mjsim.game.wall import deal
from mjsim.game.wins import assess, ready_undeclared
from mjsim.notation import parse_hand
from mjsim.rules import load_rules
from mjsim.walls import WallSpec, walls

RULES = "changsha"
SEARCH = "search:16,efficiency,efficiency,efficiency"
N = 48  # hands: whole games of every rule set here


def test_copy_state_copies_every_field():
    rng = np.random.default_rng(0)
    S, to = new_state(), new_state()
    for name, _, _ in STATE:
        field = getattr(S, name)
        field[...] = rng.integers(0, 100, field.shape).astype(field.dtype)
    copy_state(S, to)
    for name, _, _ in STATE:
        assert (getattr(to, name) == getattr(S, name)).all(), name


def _dealt(rules: str, seed: int):
    """A hand of ``rules`` as dealt (wall 0 of ``seed``), seat 2 declared."""
    g = game_config(rules)
    G = g.rules_arrays
    wall = walls(WallSpec.from_rules(g.rules), seed, 0, 1)[0].copy()
    S, W = new_state(), new_scratch()
    reset_state(S, np.int64(0), np.int64(wall.size))
    deal(G, S, W, wall, np.int64(0))
    S.status[2, ST_DECLARED] = 1
    return G, S, W, wall


@pytest.mark.parametrize("rules", ["changsha", "caishen16"])  # their worlds warmed (conftest)
def test_a_world_redeals_only_what_the_seat_cannot_see(rules):
    G, S, W, wall = _dealt(rules, 5)
    P = search_policy(G, wall.size, len(columns(rules)))
    bots = np.zeros(4, np.int64)
    lo, hi = int(S.pos[P_HEAD]), int(S.pos[P_TAIL] - G.cfg[V.RESERVE])
    live = np.zeros(len(wall), bool)
    live[lo:hi] = True
    live &= ~G.is_bonus[wall.astype(np.int64)].astype(bool)
    before = S.concealed.copy()
    S.status[1, ST_CLAIM] = CLAIM_TAKE_CHOW  # another search seat's choice on a discard
    worlds = []
    for seed in (1, 2, 1):
        world(P, G, S, W, wall, bots, np.int64(0), np.uint64(seed))
        X = P.search.world
        assert (S.concealed == before).all()  # the real hand is untouched
        assert (X.status[:, ST_CLAIM] == CLAIM_BY_BOT).all()  # not made with its tiles
        for s in (0, 2):  # the seat's own tiles and a declared seat's stay
            assert (X.concealed[s] == before[s]).all()
        for s in (1, 3):
            assert X.concealed[s].sum() == before[s].sum()
        assert (P.search.wall[~live] == wall[~live]).all()  # bonus tiles, the reserve, the dealt
        hidden = before[1] + before[3] + np.bincount(wall[live], minlength=34)[:34]
        again = (
            X.concealed[1] + X.concealed[3] + np.bincount(P.search.wall[live], minlength=34)[:34]
        )
        assert (again == hidden).all()  # every tile kept, no fifth copy
        for s in (1, 3):
            assert X.status[s, ST_COST] == cost(G, X, W, np.int64(s), X.concealed[s])
        worlds.append((X.concealed.copy(), P.search.wall.copy()))
    assert (worlds[0][0] == worlds[2][0]).all() and (worlds[0][1] == worlds[2][1]).all()
    assert not (worlds[0][1] == worlds[1][1]).all()


def test_a_world_keeps_every_tile_when_the_others_keep_theirs():
    """Mid-hand (seats 1 and 3 have discarded): their tiles are drawn and thrown back as
    players would (tempo), and still every unseen tile is kept, none invented."""
    G, S, W, wall = _dealt("changsha", 5)
    S.status[2, ST_DECLARED] = 0
    S.discards[1, 0], S.discards[3, 5] = 6, 9  # only their number is read
    P = search_policy(G, wall.size, len(columns("changsha")))
    lo, hi = int(S.pos[P_HEAD]), int(S.pos[P_TAIL] - G.cfg[V.RESERVE])
    before = S.concealed.copy()
    hidden = before[1:].sum(axis=0) + np.bincount(wall[lo:hi], minlength=34)[:34]
    for seed in range(1, 6):
        world(P, G, S, W, wall, np.zeros(4, np.int64), np.int64(0), np.uint64(seed))
        X = P.search.world
        assert (X.concealed[0] == before[0]).all()
        assert (X.concealed.sum(axis=1) == before.sum(axis=1)).all()
        again = X.concealed[1:].sum(axis=0) + np.bincount(P.search.wall[lo:hi], minlength=34)[:34]
        assert (again == hidden).all()


def _mid_hand(declare: int | None = None):
    """A Changsha position (``mjsim advise``'s): seat 0 to discard, seats 1 and 2 having
    thrown six tiles each, seat 3 none yet; the rules' 报听 set to ``declare`` where given
    (a copy of the tables: the cached configuration unchanged; Changsha's compiled search)."""
    rs = load_rules("changsha")
    seen = np.zeros(34, np.int64)
    seen[[0, 2, 6, 9, 11, 15, 18, 20, 24]] = 2  # 1, 3 and 7 of each suit, twice
    G, S, W, wall = position(rs, parse_hand("2258m2588p22558s9m", rs), seen, None, 0, 0, 5)
    S.discards[1] += S.discards[3]
    S.discards[3] = 0
    if declare is None:
        return G, S, W, wall
    cfg = G.cfg.copy()
    cfg[V.DECLARE] = declare
    return G._replace(cfg=cfg), S, W, wall


def _weigh_9m(P, G, S, W, wall, bots: np.ndarray, worlds: int) -> None:
    """Seat 0's discard of 9m in :func:`_mid_hand`'s position played out in ``worlds``
    worlds of seed 3 by :func:`weigh` (``mjsim advise``'s path), the seats' bots ``bots``."""
    P.search.cands[0] = 8  # 9m
    rec = np.zeros(len(columns("changsha")), np.int32)
    rec[R.C_DISCARDER] = rec[R.C_WIN_TILE] = -1
    SC.reset_record(G, rec)
    one, zero = np.int64(1), np.int64(0)
    weigh(
        P,
        G,
        S,
        W,
        wall,
        rec,
        bots,
        np.uint64(3),
        zero,
        one,
        np.int64(worlds),
        zero,
        np.int64(-1),
        np.int64(DISCARD),
    )


def _ready(hand: np.ndarray) -> bool:
    """Whether 13 concealed Changsha tiles wait on some tile: the deal kernels' waits, apart
    from the engine's."""
    return bool(waits_batch(hand[None, :].astype(np.uint8), rules="changsha")[0].any())


def test_a_world_is_possible_unless_a_seat_holds_a_hand_it_would_have_declared():
    """Where the rules declare readiness (报听 as soon as ready after a discard), a seat that
    has discarded and not declared is not ready: a world that deals it a ready hand is not
    one seat 0 could be in (:func:`world` says so; the search draws it again). A seat yet to
    discard (seat 3) may hold a ready hand undeclared; without 报听 every world is possible."""
    bots = np.zeros(4, np.int64)
    impossible = 0
    for declare in (V.DECLARE_NONE, V.DECLARE_OPTIONAL):
        G, S, W, wall = _mid_hand(declare)
        P = search_policy(G, wall.size, len(columns("changsha")))
        for seed in range(1, 41):
            possible = world(P, G, S, W, wall, bots, np.int64(0), np.uint64(seed))
            X = P.search.world
            assert X.concealed[1:].sum(axis=1).tolist() == [13, 13, 13]
            ready = [_ready(X.concealed[o]) for o in (1, 2, 3)]
            if declare == V.DECLARE_NONE:
                assert possible
                continue
            assert possible == (not (ready[0] or ready[1])), seed
            impossible += not possible
    assert 0 < impossible < 40  # both kinds of world were dealt
    G, S, W, wall = _mid_hand(V.DECLARE_OPTIONAL)
    S.concealed[3] = parse_hand("123456789m234p5p", load_rules("changsha")).counts
    assess(G, S, W, np.int64(3), np.int64(R.BOT_EFFICIENCY), np.int64(1))
    assert _ready(S.concealed[3]) and not ready_undeclared(G, S, W, np.int64(3))
    S.discards[3, 0] = 1  # the same hand after a discard: it would have been declared
    assert ready_undeclared(G, S, W, np.int64(3))


def test_the_search_redraws_a_world_a_seat_could_not_be_in():
    """Played through :func:`weigh` (``mjsim advise``'s path): with 报听 some worlds are
    drawn again and the last world played is a possible one; without it none is redrawn."""
    redrawn = {}
    for declare in (V.DECLARE_NONE, V.DECLARE_OPTIONAL):
        G, S, W, wall = _mid_hand(declare)
        P = search_policy(G, wall.size, len(columns("changsha")), 16, candidates=1)
        _weigh_9m(P, G, S, W, wall, np.zeros(4, np.int64), 16)
        c = dict(zip(COUNTS, P.search.counts))
        redrawn[declare] = c["redrawn"]
        assert c["impossible"] == 0
        assert not any(_ready(P.search.world.concealed[o]) for o in (1, 2))
    assert redrawn[V.DECLARE_NONE] == 0 < redrawn[V.DECLARE_OPTIONAL]


def _hidden_costs(rules: str, tempo: int, monkeypatch) -> tuple[float, float]:
    """Over the worlds of one search seat's decisions in 48 hands: the other seats' mean
    cost really and in the worlds."""
    made = []

    def counting(names, G, wall_size, rec_size, theta=None):
        made.append(search_policy(G, wall_size, rec_size, 16, tempo=tempo))
        return made[-1]

    monkeypatch.setattr(play_mod, "make_policy", counting)
    play_rows(rules, 7, 0, N, "search:16,efficiency,efficiency,efficiency")
    c = dict(zip(COUNTS, sum(p.search.counts for p in made)))
    return c["real_cost"] / c["hidden"], c["world_cost"] / c["hidden"]


def test_worlds_with_tempo_are_as_far_along_as_the_others_are(monkeypatch):
    """Uniform tiles leave the other seats further from ready than the bots' real hands;
    kept as players keep them (tempo), the worlds' hands are closer to the real ones."""
    real, uniform = _hidden_costs(RULES, 0, monkeypatch)
    real_again, kept = _hidden_costs(RULES, 1, monkeypatch)
    assert uniform > real
    assert abs(kept - real_again) < abs(uniform - real)


def test_one_candidate_plays_as_the_efficiency_bot(monkeypatch):
    want = play_rows(RULES, 7, 0, N, "efficiency")

    def one(names, G, wall_size, rec_size, theta=None):
        return search_policy(G, wall_size, rec_size, 16, candidates=1)

    monkeypatch.setattr(play_mod, "make_policy", one)
    assert (play_rows(RULES, 7, 0, N, SEARCH) == want).all()


def _decision(shift1: float, shift2: float, r: int = 16):
    """A decision's payoffs over ``r`` worlds: the efficiency choice noise, candidates 1 and
    2 the same noise shifted (the shift's paired difference has the spread of ``jitter``)."""
    P = search_buffers(136, 10, 64, 3, (0, len(TRACE)), [0] * len(PARAMS), len(COUNTS))
    rng = np.random.default_rng(3)
    base = rng.normal(0.0, 5.0, r)
    jitter = rng.normal(0.0, 1.0, (r, 2))
    P.payoffs[:r, 0] = base
    P.payoffs[:r, 1] = base + shift1 + jitter[:, 0]
    P.payoffs[:r, 2] = base + shift2 + jitter[:, 1]
    P.played[:3] = r
    return P, np.int64(r), np.int64(3)


def test_the_sequential_test_drops_the_worse_and_leaves_for_the_clearly_better():
    P, r, n = _decision(-2.0, +2.0)  # ±2 a world, s.e. 0.25: z ≈ ∓8
    assert settled(P.payoffs, P.played, r, n)
    assert P.played[1] == -r and P.played[2] == r  # candidate 1 dropped after r worlds
    assert leader(P.payoffs, P.played, r, n) == 2
    P, r, n = _decision(-2.0, 0.25)  # candidate 2 ahead by about one s.e.: keep sampling
    assert (
        not settled(P.payoffs, P.played, r, n)
        and leader(P.payoffs, P.played, r, n) == 0
        and P.played[2] == r
    )
    P, r, n = _decision(-2.0, -2.0)  # both worse: settled on the efficiency choice
    assert (
        settled(P.payoffs, P.played, r, n)
        and leader(P.payoffs, P.played, r, n) == 0
        and (P.played[1:3] == -r).all()
    )
    P, r, n = _decision(0.0, 0.0)
    P.payoffs[:r, 1:3] = P.payoffs[:r, :1]  # equal in every world: nothing to learn
    assert settled(P.payoffs, P.played, r, n) and leader(P.payoffs, P.played, r, n) == 0
    assert Z_LEAVE > Z_DROP > 0


def test_a_dropped_candidate_was_behind_and_played_no_more(monkeypatch):
    """In play: each alternative's worlds (from the decisions' trace) are a check point
    between 16 and the budget, and one played in fewer worlds than another of its decision
    was dropped: 2 s.e. behind the efficiency choice or equal to it in every world."""
    made = []

    def tracing(names, G, wall_size, rec_size, theta=None):
        made.append(search_policy(G, wall_size, rec_size, 64, trace=10_000))
        return made[-1]

    monkeypatch.setattr(play_mod, "make_policy", tracing)
    play_rows(RULES, 7, 0, N, "search:64,efficiency,efficiency,efficiency")
    trace = np.concatenate([p.search.trace[: p.search.counts[0]] for p in made])
    worlds, z = trace[:, 1:, 0], trace[:, 1:, 2]
    played = worlds > 0
    assert played.any() and (trace[:, 0] == 0).all()
    w = worlds[played]
    assert ((w >= 16) & (w <= 64) & (w % 8 == 0)).all()
    dropped = played & (worlds < worlds.max(axis=1, keepdims=True))
    assert dropped.any()
    assert (np.isnan(z[dropped]) | (z[dropped] < -Z_DROP)).all()


def test_wins_are_weighed_against_passes(monkeypatch):
    """In play, the search seat weighs its wins on others' discards, each in 16 to 64
    worlds, and passes no more of them than it weighed; the records mark a pass in the
    hands it passed in (at most once a hand), and never an efficiency seat's."""
    made = []

    def counting(names, G, wall_size, rec_size, theta=None):
        made.append(search_policy(G, wall_size, rec_size, 64))
        return made[-1]

    monkeypatch.setattr(play_mod, "make_policy", counting)
    rows = play_rows(RULES, 7, 0, N, "search:64,efficiency,efficiency,efficiency")
    counts = dict(zip(COUNTS, sum(p.search.counts for p in made)))
    passed = rows[:, columns(RULES).index("passed")]
    assert (passed & 0b1110 == 0).all()
    assert ((passed == 1).sum() > 0) == (counts["passed"] > 0)
    assert (passed == 1).sum() <= counts["passed"]
    assert counts["wins_searched"] > 0
    assert 16 * counts["wins_searched"] <= counts["wins_worlds"] <= 64 * counts["wins_searched"]
    assert 0 <= counts["passed"] <= counts["wins_searched"]


def _claim_options_naive(hand: np.ndarray, t: int, left: bool) -> set[int]:
    """The claim choices on kind ``t`` of a hand of counts ``hand``, by the rules' words: a
    pung with two of it, a chow (the 下家's, ``left``) of three suited kinds in a row with
    the other two held, and declining when there is any."""
    out = {CLAIM_TAKE_PUNG} if hand[t] == 2 else set()
    if left and t < 27:
        for first in range(t - 2, t + 1):
            run = range(first, first + 3)
            if (
                first >= t // 9 * 9
                and first + 2 < t // 9 * 9 + 9
                and all(hand[k] > 0 for k in run if k != t)
            ):
                out.add(CLAIM_TAKE_CHOW + first)
    return out | {CLAIM_DECLINE} if out else out


@pytest.mark.parametrize(
    "hand, tile",
    [
        ("23445m678p2255s9s", "4m"),
        ("23445m678p2255s9s", "5s"),
        ("11m456p789p23s555s", "1s"),
        ("1199m1199p2468s5p", "5m"),
    ],
)
def test_claim_options_are_the_pung_the_chows_and_declining(hand, tile):
    """Seat 1, the 下家 of seat 0, on seat 0's discard ``tile`` (Changsha, which chows): the
    choices :func:`claim_options` offers are those of the rules' words; the engine's claims
    make each one it is handed (no other seat holding the kind), and declining leaves the
    seat's key as it is."""
    rs = load_rules(RULES)
    seen = parse_hand(tile, rs).counts.astype(np.int64)  # the discard, in a pile
    G, S, W, _wall = position(rs, parse_hand(hand, rs), seen, None, 1, 0, 3)
    t = int(np.flatnonzero(seen)[0])
    for o in (0, 2, 3):  # nobody else holds the kind
        S.concealed[o, t] = 0
    bots = np.zeros(4, np.int64)
    assess(G, S, W, np.int64(1), np.int64(R.BOT_EFFICIENCY), np.int64(1))
    choices, keys = np.zeros(34, np.int64), np.zeros(34, np.int64)
    n = claim_options(G, S, W, bots, np.int64(1), np.int64(0), np.int64(t), choices, keys)
    assert set(choices[:n].tolist()) == _claim_options_naive(S.concealed[1], t, True)
    assert len(set(choices[:n].tolist())) == n
    for c, key in zip(choices[:n], keys[:n]):
        X = new_state()
        copy_state(S, X)
        X.status[1, ST_CLAIM] = c
        got = tuple(int(v) for v in claim_on(G, X, W, bots, np.int64(0), np.int64(t)))
        if c == CLAIM_DECLINE:
            assert got[0] == -1 and key == S.status[1, ST_KEY]
        elif c == CLAIM_TAKE_PUNG:
            assert got == (1, CLAIM_PUNG, t)
        else:
            assert got == (1, CLAIM_CHOW, c - CLAIM_TAKE_CHOW)
    assert S.status[1, ST_CLAIM] == CLAIM_BY_BOT


def test_claims_are_weighed(monkeypatch):
    """In play with ``claims=1``, the search seat weighs claims (16 to 64 worlds each) and
    leaves the efficiency bot's choice in no more of them than it weighed; by default
    (``claims=0``) it weighs none, and its hands differ from those with claims weighed
    exactly where a claim decision changed."""
    made = []

    def counting(names, G, wall_size, rec_size, theta=None, **params):
        made.append(search_policy(G, wall_size, rec_size, 64, **params))
        return made[-1]

    monkeypatch.setattr(play_mod, "make_policy", lambda *a: counting(*a, claims=1))
    rows = play_rows(RULES, 7, 0, N, "search:64,efficiency,efficiency,efficiency")
    counts = dict(zip(COUNTS, sum(p.search.counts for p in made)))
    assert counts["claims_searched"] > 0
    assert (
        16 * counts["claims_searched"] <= counts["claims_worlds"] <= 64 * counts["claims_searched"]
    )
    assert 0 <= counts["claims_changed"] <= counts["claims_searched"]
    made.clear()
    monkeypatch.setattr(play_mod, "make_policy", counting)
    without = play_rows(RULES, 7, 0, N, "search:64,efficiency,efficiency,efficiency")
    assert sum(p.search.counts for p in made)[COUNTS.index("claims_searched")] == 0
    assert (without != rows).any() == (counts["claims_changed"] > 0)


@pytest.fixture(scope="module")
def searched():
    return play_rows(RULES, 7, 0, N, SEARCH)


def test_search_changes_some_discards(searched):
    plain = play_rows(RULES, 7, 0, N, "efficiency")
    assert (searched != plain).any(axis=1).sum() > 0


def test_searched_hands_are_deterministic_and_chunk_free(searched):
    length = game_config(RULES).game_length
    assert (play_rows(RULES, 7, 0, N, SEARCH) == searched).all()
    half = N // 2 - (N // 2) % length
    parts = np.vstack(
        [play_rows(RULES, 7, 0, half, SEARCH), play_rows(RULES, 7, half, N - half, SEARCH)]
    )
    assert (parts == searched).all()


def test_searched_payments_sum_to_zero(searched):
    cols = columns(RULES)
    pays = searched[:, [cols.index(f"pay_{s}") for s in range(4)]]
    assert (pays.sum(axis=1) == 0).all()
    assert (searched[:, R.C_OUTCOME] <= R.OUT_QISHOU_END).all()


def test_search_budgets_in_the_lineup():
    assert parse_bots("search")[0] == "search"
    assert with_rollouts("search,efficiency,efficiency,efficiency", 32)[0] == "search:32"
    with pytest.raises(ValueError, match="one search budget per line-up"):
        parse_bots("search:8,search:16,efficiency,efficiency")
    with pytest.raises(ValueError, match="unknown bot 'value:3'"):
        parse_bots("value:3")
    with pytest.raises(ValueError, match="from 1 to 4096"):
        parse_bots("search:x,efficiency,efficiency,efficiency")


def _rollout_payoffs(theta: np.ndarray, base: int) -> np.ndarray:
    """Seat 0's payoffs of discarding 9m in 64 worlds of :func:`_mid_hand`'s position, the
    others tuned seats of ``theta``, the search seat built on ``base``."""
    G, S, W, wall = _mid_hand()
    P = search_policy(
        G,
        wall.size,
        len(columns("changsha")),
        64,
        theta=theta,
        candidates=1,
        base=base,
    )
    bots = np.array([R.BOT_SEARCH, R.BOT_TUNED, R.BOT_TUNED, R.BOT_TUNED], np.int64)
    _weigh_9m(P, G, S, W, wall, bots, 64)
    return P.search.payoffs[:64, 0].copy()


def test_the_rollouts_of_a_search_seat_built_on_the_tuned_player_play_it():
    """In its rollouts a search seat built on the tuned player plays that player: in the
    same worlds its payoffs differ from the search built on the efficiency bot where the
    player passes every discarded win below 8 units (the seat waits on 将将胡, 6 units),
    and equal them at the efficiency point."""
    plain = np.tile(np.array(EFFICIENCY), (4, 1))
    passer = plain.copy()
    passer[:, INDEX["decline_units"]] = 8.0
    passer[:, INDEX["decline_left"]] = 0.0
    assert np.array_equal(_rollout_payoffs(plain, 1), _rollout_payoffs(plain, 0))
    assert not np.array_equal(_rollout_payoffs(passer, 1), _rollout_payoffs(passer, 0))
