"""The rebuilt engine: the same records as before it, rule differences as values, 定缺 played,
and one compiled version of each engine function.

``tests/data/fingerprints_pre_rebuild.json`` holds a hash of every record column of hands
played by the engine before the rebuild (commit de5160a); the same seeds must give the
same columns (``baoting`` is now ``declared``; a column a record no longer has must have
been constant then).
"""

from __future__ import annotations

import hashlib
import importlib
import json
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from mjsim.game import record as R
from mjsim.game import values as V
from mjsim.game.bots import choose_discard, choose_void
from mjsim.game.config import game_config
from mjsim.game.decisions import after_discard, barred, may_pass_win, pass_win, ron_claims
from mjsim.game.play import columns, play_frame, play_rows, play_wall, replay
from mjsim.game.state import (
    MELD_CHOW,
    RON_BOT,
    RON_PASS,
    RON_WIN,
    ST_DECLARED,
    ST_READY,
    ST_RON,
    new_scratch,
    new_state,
)
from mjsim.game.wins import win_test
from mjsim.notation import parse_hand
from mjsim.rules import RulesError, load_rules
from mjsim.rules.model import FrozenDict
from mjsim.walls import WallSpec, walls

DATA = Path(__file__).with_name("data") / "fingerprints_pre_rebuild.json"
RENAMED = {"baoting": "declared"}


@pytest.mark.parametrize(
    "case", json.loads(DATA.read_text())["cases"], ids=lambda c: f"{c['rules']}-{c['bots']}"
)
def test_records_as_before_the_rebuild(case):
    rows = play_rows(case["rules"], 0, 0, case["n"], case["bots"])
    cols = columns(case["rules"])
    for name, digest in case["hashes"].items():
        col = rows[:, cols.index(RENAMED.get(name, name))].astype(np.int64)
        assert hashlib.sha256(col.tobytes()).hexdigest()[:16] == digest, name
    for name, value in case["constant"].items():
        name = RENAMED.get(name, name)
        if name in cols:
            assert (rows[:, cols.index(name)] == value).all(), name


def test_engine_values_are_named_slots():
    for name in V.ENGINE:
        assert getattr(V, name.upper()) == V.cfg_index(name)
    g = game_config("dingque").rules_arrays
    assert g.cfg[V.VOID] == V.VOID_DECLARED and g.cfg[V.CHOW] == V.CHOW_NONE
    assert (
        game_config(load_rules("dingque", dq_allow_chow=True)).rules_arrays.cfg[V.CHOW]
        == V.CHOW_LEFT
    )


def test_game_table_errors_name_the_value():
    rules = load_rules("generic")
    with pytest.raises(RulesError, match="chow must be one of none, left"):
        game_config(replace(rules, game_spec={**rules.game_spec, "chow": "anyone"}))
    with pytest.raises(RulesError, match="neither an engine value nor one of the generic"):
        game_config(replace(rules, game_spec={**rules.game_spec, "birds": 2}))
    with pytest.raises(RulesError, match="hand_size comes from the rule set's tiles"):
        game_config(replace(rules, game_spec={**rules.game_spec, "hand_size": 16}))
    with pytest.raises(RulesError, match="needs a wall that turns its indicator"):
        game_config(replace(rules, game_spec={**rules.game_spec, "wild": "indicator"}))


# ----------------------------------------------------------------------------- 定缺


def _position(rules, hands: dict[int, str], void=None):
    """Rule arrays, a state holding ``hands`` (seat → tiles) and scratch, as the engine's."""
    g = game_config(rules).rules_arrays
    S = new_state()
    for seat, text in hands.items():
        S.concealed[seat] = parse_hand(text).counts
    if void is not None:
        S.void[:] = void
    return g, S, new_scratch()


def test_void_suit_blocks_a_win_1_8():
    """RULES.md §1.8, void suit p: 123m678m555s789s5m +5m wins, 123m678m555s789s5p +5p not."""
    rules = load_rules("dingque")
    g, S, W = _position(rules, {0: "123m678m555s789s55m", 1: "123m678m555s789s55p"}, void=1)
    assert win_test(g, S, W, 0, 1, -1)[0]
    assert not win_test(g, S, W, 1, 1, -1)[0]
    S.void[1] = 2  # the same p hand with s void holds s tiles: no win either
    assert not win_test(g, S, W, 1, 1, -1)[0]


def test_void_choice():
    """Lowest shanten with the suit void, then the fewest tiles to shed."""
    rules = load_rules("dingque")
    g, S, W = _position(
        rules, {0: "123m678m555s789s5p", 1: "123456789m1199p5s", 2: "1234m1234p1234s5m"}
    )
    assert choose_void(g, S, W, 0) == 1  # one p tile, nothing else is spare
    assert choose_void(g, S, W, 1) == 2  # ready with s void
    assert choose_void(g, S, W, 2) == 1  # p and s alike, as many tiles: the first


@pytest.mark.parametrize("first", [False, True])
def test_void_tiles_first(first):
    """A cautious bot folding against a declared opponent throws the tile he discarded (9s);
    with dq_discard_void_first it must throw its void tile (3p) instead."""
    rules = load_rules("dingque", dq_discard_void_first=first)
    g, S, W = _position(rules, {0: "159m159s37m48s26m3p9s"}, void=1)
    S.status[2, ST_DECLARED] = 1
    S.discards[2, parse_hand("9s").counts.argmax()] = 1
    choice = choose_discard(g, S, W, 0, 2)
    assert choice == parse_hand("3p" if first else "9s").counts.argmax()


@pytest.mark.parametrize(
    "options", [{}, {"dq_tiles": 136, "dq_allow_chow": True, "dq_discard_void_first": True}]
)
def test_dingque_played(options):
    """Hands play, sum to zero, and no winner holds its void suit (final states replayed)."""
    rules = load_rules("dingque", **options)
    n = 96
    df = play_frame(rules, n, seed=4, bots="efficiency,value,cautious,efficiency")
    assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    assert df["outcome"].eq(1).mean() > 0.3
    voids = df[[f"void_{s}" for s in range(4)]]
    assert ((voids >= 0) & (voids <= 2)).all().all()
    ws = walls(WallSpec.from_rules(rules), 4, 0, n)
    chows = 0
    for i in range(n):
        rec = df.iloc[i]
        _, st = play_wall(
            rules, ws[i], int(rec["dealer"]), "efficiency,value,cautious,efficiency", dice_seed=0
        )
        for s in range(4):
            v = int(rec[f"void_{s}"])
            melds = st["melds"][s][: st["n_melds"][s]]
            assert all(m[0] // 9 != v for m in melds), (i, s)  # dq_void_melds is false
            chows += sum(m[1] == MELD_CHOW for m in melds)
            if rec["winners"] >> s & 1:
                assert st["concealed"][s][9 * v : 9 * v + 9].sum() == 0, (i, s)
    assert (chows > 0) == options.get("dq_allow_chow", False)


# ----------------------------------------------------------------------------- compile


def _arrays(sig) -> str | None:
    """The type of a compiled signature's rule-set arrays (:data:`GameRules`), if any."""
    for t in sig:
        if isinstance(t, numba.types.BaseNamedTuple) and {"cfg", "hooks"} <= set(t.fields):
            return str(t)
    return None


def test_each_engine_function_compiles_once():
    """After played hands of nine rule sets (all five scoring models) and every bot — a
    search seat and tuned seats too — numba's cache holds one compiled signature of each
    game function, whichever model and policy played (the engine calls each model's hooks
    and each policy's by address: :mod:`mjsim.game.scoring`, :mod:`mjsim.game.policy`);
    every rule set's arrays are of one type. The cache index of every cached function is
    read (what was compiled into the cache, here or by the session's warm-up), so a second
    signature shows whether or not this process compiled it; functions inlined into their
    callers (``njit_inline``) have none."""
    for rules in (
        "changsha",
        "generic",
        "dingque",
        "shanghai_qhp",
        "shanghai_baida",
        "shanghai_qiaoma",
        "caishen16",
        "hongzhong112",
        "ne_alt",
    ):
        play_rows(rules, 0, 0, 64, "efficiency,value,cautious,efficiency")
        replay(rules, 0, 3)
    for bots in ("search:16,tuned:efficiency,efficiency,efficiency", "tuned:efficiency"):
        play_rows("changsha", 0, 0, 16, bots)
    bad, cached, arrays_seen = [], 0, set()
    for m in (
        "engine",
        "wall",
        "wins",
        "decisions",
        "policy",
        "state",
        "evaluation",
        "bots",
        "shape",
        "search",
        "tuned",
        "scoring",
        "scoring.changsha",
        "scoring.generic",
        "scoring.shanghai",
        "scoring.caishen",
        "scoring.bao",
    ):
        mod = importlib.import_module("mjsim.game." + m)
        for name, f in vars(mod).items():
            if not (
                isinstance(f, CPUDispatcher)
                and f.__module__ == mod.__name__
                and f._cache is not None
                and hasattr(f._cache, "_cache_file")
            ):
                continue
            sigs = [key[0] for key in f._cache._cache_file._load_index()]
            cached += len(sigs) > 0
            arrays_seen.update(_arrays(sig) for sig in sigs)
            if len(sigs) > 1:
                bad.append(f"{m}.{name}: {len(sigs)} signatures")
    assert cached > 20 and len(arrays_seen - {None}) == 1, (cached, len(arrays_seen))
    assert bad == []


# ----------------------------------------------------------------------------- more values


def _with_game(rules, **values):
    """``rules`` with its [game] table changed (a rule set that plays by other values)."""
    return replace(rules, game_spec=FrozenDict({**rules.game_spec, **values}))


@pytest.mark.parametrize(
    "policy, winners", [("first", 0b0010), ("all", 0b0110), ("largest", 0b0100)]
)
def test_several_win_claims(policy, winners):
    """Seat 0 throws 5s: seat 1 wins small (234m567p22p34s678s), seat 2 wins 清一色
    (1112345678999s). Head bump keeps seat 1, all keeps both, the largest hand seat 2."""
    rules = _with_game(load_rules("changsha"), multi_win=policy)
    g, S, W = _position(rules, {1: "234m567p22p34s678s", 2: "1112345678999s"})
    S.status[1:3, ST_READY] = 1
    W.offered[0] = parse_hand("5s").counts.argmax()
    bots = np.zeros(4, dtype=np.int64)
    assert ron_claims(g, S, W, bots, 0, 1, R.WIN_DIANPAO) == winners
    if policy == "largest":
        assert S.units[2] == 1 and S.units[1] == 0


def test_a_win_or_pass_choice_overrides_the_bot_once():
    """The position above, both seats winning: seat 1's choice to pass (a search seat's)
    leaves seat 2 the only winner and bars seat 1 (过手) where its efficiency bot would win;
    the choices are cleared after the claims, and a seat not ready has none to make."""
    rules = _with_game(load_rules("changsha"), multi_win="all")
    g, S, W = _position(rules, {1: "234m567p22p34s678s", 2: "1112345678999s"})
    S.status[1:3, ST_READY] = 1
    five_s = parse_hand("5s").counts.argmax()
    W.offered[0] = five_s
    bots = np.zeros(4, dtype=np.int64)
    assert may_pass_win(g, S, W, 1, 0, five_s) and may_pass_win(g, S, W, 2, 0, five_s)
    assert not may_pass_win(g, S, W, 3, 0, five_s)
    S.status[1, ST_RON] = RON_PASS
    assert ron_claims(g, S, W, bots, 0, 1, R.WIN_DIANPAO) == 0b0100
    assert barred(g, S, 1, 0, five_s) and not may_pass_win(g, S, W, 1, 0, five_s)
    assert (S.status[:, ST_RON] == RON_BOT).all()
    S.status[1, ST_RON] = RON_WIN  # barred: a choice cannot win what the rules bar
    assert ron_claims(g, S, W, bots, 0, 1, R.WIN_DIANPAO) == 0b0100
    assert (S.status[:, ST_RON] == RON_BOT).all()


@pytest.mark.parametrize("bar, other_kind_barred", [("guoshou", True), ("same_kind", False)])
def test_pass_bars(bar, other_kind_barred):
    """过手 bars every tile of others until one's discard; the same-kind bar only the kind."""
    rules = _with_game(load_rules("generic"), pass_bar=bar)
    g, S, _W = _position(rules, {})
    pass_win(g, S, 1, 5)
    assert barred(g, S, 1, 0, 5)
    assert barred(g, S, 1, 0, 6) == other_kind_barred
    pass_win(g, S, 1, 8)  # a second kind passed: both stay barred
    assert barred(g, S, 1, 0, 5) and barred(g, S, 1, 0, 8)


def test_declare_required():
    """With 报听 required no hand is won undeclared; at least 10 concealed tiles to declare."""
    rules = _with_game(load_rules("generic"), declare="required", declare_min_concealed=10)
    df = play_frame(rules, 160, seed=2, bots="efficiency,value,cautious,efficiency")
    won = df["outcome"] == 1
    assert won.sum() > 40 and (df["winners"][won] & ~df["declared"][won]).eq(0).all()
    g, S, W = _position(rules, {0: "123m45p11z", 1: "123m456p789s11z22z"})
    S.n_melds[0] = 2  # two chows and 7 concealed tiles, ready on 3p/6p: too few to declare
    S.melds[0, :2, :2] = ((18, MELD_CHOW), (21, MELD_CHOW))
    for seat in (0, 1):
        S.status[seat, ST_READY] = 1
    rec = np.zeros(len(columns(rules)), np.int32)
    wall = np.zeros(136, np.int8)
    after_discard(g, S, W, wall, rec, 0, 0)
    after_discard(g, S, W, wall, rec, 1, 0)
    assert S.status[0, ST_DECLARED] == 0 and S.status[1, ST_DECLARED] == 1


def test_wild_indicator_in_play():
    """The deal pipeline's indicator makes a kind wild for the hand (百搭's wall, generic
    payments): every hand records it, sums to zero and replays; wins use the wild tiles."""
    rules = replace(
        load_rules("shanghai_baida"),
        game_spec=FrozenDict(
            {"scoring": "generic", "wild": "indicator", "rotation": "dealer_keeps"}
        ),
    )
    n = 96
    df = play_frame(rules, n, seed=6)
    assert df["wild_kind"].between(0, 33).all()
    assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    ws = walls(WallSpec.from_rules(rules), 6, 0, n)
    used = 0
    for i in np.flatnonzero(df["outcome"].to_numpy() == 1)[:30]:
        rec, st = play_wall(rules, ws[i], int(df["dealer"].iloc[i]))
        assert rec["pay_0"] == df["pay_0"].iloc[i]
        w = int(rec["winners"]).bit_length() - 1
        used += st["concealed"][w][rec["wild_kind"]] > 0
    assert used > 0
