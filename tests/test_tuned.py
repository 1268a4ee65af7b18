"""The tuned player (mjsim.game.tuned) and its files (mjsim.game.players): the efficiency
bot as a point of its space, hand for hand; what its parameters change; bad files refused.

The efficiency point replays the record fingerprints of tests/data (the engine's records
before its rebuild) with every efficiency seat played as ``tuned:efficiency``, and then
every playable rule set against the efficiency bot's own records (one engine with the
tuned player plays every scoring model: :mod:`mjsim.game.scoring`).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

import mjsim.game.play as play_mod
from mjsim.game import record as R
from mjsim.game import tuned
from mjsim.game import values as V
from mjsim.game.config import game_config, playable_rules
from mjsim.game.play import columns, parse_bots, play_rows
from mjsim.game.players import (
    SHIPPED,
    PlayerError,
    player_document,
    player_theta,
    read_player,
    theta_rows,
)
from mjsim.game.position import position
from mjsim.game.scoring import caishen
from mjsim.game.search import built_on_tuned, search_policy
from mjsim.game.state import CLAIM_BY_BOT, CLAIM_DECLINE, P_LAST, ST_CLAIM
from mjsim.game.tuned import EFFICIENCY, INDEX, PARAMS
from mjsim.game.wins import assess
from mjsim.notation import parse_hand
from mjsim.rules import load_rules

#: hands of each line-up in every rule set (``MJSIM_FULL=1``: 2,000)
EVERYWHERE = 2000 if os.environ.get("MJSIM_FULL") == "1" else 600
DATA = Path(__file__).with_name("data") / "fingerprints_pre_rebuild.json"
CASES = json.loads(DATA.read_text())["cases"]
RENAMED = {"baoting": "declared"}


def as_tuned(bots: str) -> str:
    return ",".join("tuned:efficiency" if b == "efficiency" else b for b in bots.split(","))


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['rules']}-{c['bots']}")
def test_efficiency_point_replays_the_record_fingerprints(case):
    bots = as_tuned(case["bots"])
    assert "tuned" in bots
    rows = play_rows(case["rules"], 0, 0, case["n"], bots)
    cols = columns(case["rules"])
    for name, digest in case["hashes"].items():
        col = rows[:, cols.index(RENAMED.get(name, name))].astype(np.int64)
        assert hashlib.sha256(col.tobytes()).hexdigest()[:16] == digest, name


@pytest.mark.parametrize("rid", [r.id for r in playable_rules()])
def test_efficiency_point_is_the_efficiency_bot_everywhere(rid):
    """Every playable rule set: tuned seats at the efficiency point play the heuristic
    bots' records, hand for hand (:data:`EVERYWHERE` hands of each line-up)."""
    mixed = "efficiency,value,cautious,efficiency"
    for bots in ("efficiency", mixed):
        assert np.array_equal(
            play_rows(rid, 5, 0, EVERYWHERE, as_tuned(bots)),
            play_rows(rid, 5, 0, EVERYWHERE, bots),
        ), bots


def test_parameters_change_the_play():
    """Away from the efficiency point the tuned seats play other hands: folding against
    threats, chasing big wins, waiting on the tiles that pay more, refusing claims each
    change the records."""
    base = play_rows("changsha", 2, 0, 400, "tuned:efficiency")
    for name, value in (
        ("danger_declared", 2.0),
        ("danger_late", 1.0),
        ("value", 1.0),
        ("wait_units", 1.0),
        ("claim_bias", 1.5),
    ):
        theta = np.tile(np.array(EFFICIENCY), (4, 1))
        theta[:, INDEX[name]] = value
        rows = play_rows("changsha", 2, 0, 400, "tuned", theta=theta)
        assert not np.array_equal(rows, base), name
        pays = rows[:, [columns("changsha").index(f"pay_{s}") for s in range(4)]]
        assert (pays.sum(axis=1) == 0).all()


def test_the_caishen_player_may_chase_what_the_value_bot_does_not_see():
    """The 财神 game's 碰碰胡 and 清一色 pay 双翻 like 八对 but are no big-win family of the
    value bot: the tuned player weighs them too (``GameRules.chase``). Four seats weighing
    ``big`` win them on 800 hands where four value bots win none; every other model's
    tuned player weighs the value bot's families alone."""
    for rules in playable_rules():
        g = game_config(rules).base_arrays
        extra = g.chase[g.big.size :]
        assert np.array_equal(g.chase[: g.big.size], g.big)
        assert extra.any() == (rules.game_spec["scoring"] == "caishen"), rules.id
    theta = np.tile(np.array(EFFICIENCY), (4, 1))
    theta[:, INDEX["big"]] = 1.0
    wanted = (1 << caishen.T_PENGPENG) | (1 << caishen.T_QINGYISE)
    at = [columns("caishen16").index(f"patterns_{s}") for s in range(4)]
    chased = play_rows("caishen16", 2, 0, 800, "tuned", theta=theta)[:, at]
    plain = play_rows("caishen16", 2, 0, 800, "value")[:, at]
    assert (plain & wanted).sum() == 0 and ((chased & wanted) != 0).sum() >= 3


def test_danger_is_weighed_by_what_a_deal_in_costs():
    """The danger weights count as far as a deal-in costs its discarder more than another
    seat's win (the engine value ``deal_in``): where every loser pays a discarded win
    alike (changsha's ``cs_ron_payers = all``, the 财神 game) a player with them plays the
    hands of one without them; where the discarder pays alone they change the play."""
    at = V.cfg_index("deal_in")
    shares = {r.id: int(game_config(r).cfg[at]) for r in playable_rules()}
    assert shares["changsha"] == shares["shanghai_qhp"] == shares["generic"] == 256
    assert shares["caishen16"] == 0 and shares["hongzhong112"] == 64  # 2 shares against 1
    all_pay = load_rules("changsha", cs_ron_payers="all")
    assert game_config(all_pay).cfg[at] == 0
    wary = np.tile(np.array(EFFICIENCY), (4, 1))
    for name in ("danger_declared", "danger_melds", "danger_late"):
        wary[:, INDEX[name]] = 1.0
    plain = np.tile(np.array(EFFICIENCY), (4, 1))
    for rules, alike in ((all_pay, True), ("changsha", False)):
        rows = play_rows(rules, 2, 0, 400, "tuned", theta=wary)
        assert np.array_equal(rows, play_rows(rules, 2, 0, 400, "tuned", theta=plain)) == alike


def test_big_wins_are_weighed_by_what_they_pay():
    """What a big win adds to a hand's score counts as far as a big win pays over a small
    one against the rule text's 6 to 1 (the engine value ``big_worth``): under changsha's
    ``cs_big_unit = 3`` a player plays the hands that one with half that (``big`` halved,
    half of ``value`` moved to ``cost``) plays under the rule text — the same discards,
    claims and wins, other payments."""
    at = V.cfg_index("big_worth")
    big3 = load_rules("changsha", cs_big_unit=3)
    assert {r.id: int(game_config(r).cfg[at]) for r in playable_rules()} == {
        r.id: 128 if r.id == "changsha_classic_1980s" else 256 for r in playable_rules()
    }
    assert game_config(big3).cfg[at] == 128
    assert game_config(load_rules("changsha", cs_small_unit=2)).cfg[at] == 128
    keen, half = (np.tile(np.array(EFFICIENCY), (4, 1)) for _ in range(2))
    keen[:, INDEX["value"]], keen[:, INDEX["big"]] = 1.0, 0.5
    half[:, INDEX["cost"]], half[:, INDEX["value"]], half[:, INDEX["big"]] = 1.5, 0.5, 0.25
    play = [i for i, c in enumerate(columns("changsha")) if not c.startswith("pay")]
    under3 = play_rows(big3, 2, 0, 400, "tuned", theta=keen)[:, play]
    assert np.array_equal(under3, play_rows("changsha", 2, 0, 400, "tuned", theta=half)[:, play])
    assert not np.array_equal(
        under3, play_rows("changsha", 2, 0, 400, "tuned", theta=keen)[:, play]
    )


def test_claims_refused_by_a_high_bias():
    """claim_bias 1.5: a claim must lower the hand's cost by two, which no single meld does
    — the tuned seats meld no discard but for the kongs of three held (the bots' own)."""
    theta = np.tile(np.array(EFFICIENCY), (4, 1))
    theta[:, INDEX["claim_bias"]] = 1.5
    at = columns("changsha").index("claimed")  # a bit per seat that melded a discard
    refused = play_rows("changsha", 3, 0, 400, "tuned", theta=theta)[:, at]
    base = play_rows("changsha", 3, 0, 400, "tuned:efficiency")[:, at]
    assert (base > 0).mean() > 0.5 and (refused > 0).mean() < (base > 0).mean() / 4


def test_line_ups_and_files(tmp_path):
    assert parse_bots("tuned")[0] == "tuned"
    assert parse_bots("tuned:a.json,efficiency,efficiency,value")[0] == "tuned:a.json"
    assert parse_bots("search:8,tuned,tuned,tuned")[:2] == ("search:8", "tuned")
    rules = load_rules("changsha")
    path = tmp_path / "p.json"
    theta = np.array(EFFICIENCY) * 1.5
    path.write_text(json.dumps(player_document(rules, theta, {"command": "test"})))
    assert np.array_equal(read_player(path, rules), theta)
    rows = theta_rows("changsha", (f"tuned:{path}", "efficiency", "tuned:efficiency", "value"))
    assert np.array_equal(rows[0], theta) and not rows[1].any()
    assert np.array_equal(rows[2], EFFICIENCY)


@pytest.mark.parametrize(
    "content,message",
    [
        (None, "does not exist"),
        ("{not json", "not readable JSON"),
        ("[1, 2]", "not a player file"),
        ({"rules": "generic"}, "a player of 'generic', not of 'changsha'"),
        ({"options_hash": "0"}, "trained with other options"),
        ({"parameters": {"cost": 1.0}}, "must give the parameters"),
        ({"parameters": {p.name: "x" for p in PARAMS}}, "not a finite number"),
    ],
)
def test_bad_player_files_are_one_line(tmp_path, content, message):
    rules = load_rules("changsha")
    path = tmp_path / "p.json"
    if content is not None:
        if isinstance(content, dict):
            content = json.dumps({**player_document(rules, np.array(EFFICIENCY), {}), **content})
        path.write_text(content)
    with pytest.raises(PlayerError, match=message) as error:
        read_player(path, rules)
    assert "\n" not in str(error.value) and str(path) in str(error.value)


def test_other_options_refused(tmp_path):
    """A player trained at the defaults is not used for other options; the line names the
    options that differ."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps(player_document(load_rules("changsha"), np.array(EFFICIENCY), {})))
    with pytest.raises(PlayerError, match="other options \\(cs_birds\\)"):
        read_player(path, load_rules("changsha", cs_birds=4))
    with pytest.raises(PlayerError, match="other options"):
        play_rows(load_rules("changsha", cs_birds=4), 0, 0, 16, f"tuned:{path}")


SHIPPED_FILES = sorted(SHIPPED.glob("*.json"))


def test_a_player_is_shipped():
    assert SHIPPED_FILES, f"no player file in {SHIPPED}"


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=[p.stem for p in SHIPPED_FILES])
def test_a_shipped_player_is_its_presets_and_says_how_it_was_made(path):
    """A shipped player is read for its preset by ``tuned``, was made by ``mjsim train``
    for that preset (its command in the file) and beat three efficiency seats on hands
    kept apart from its training, its 95% interval above zero."""
    rules = load_rules(path.stem)
    theta = read_player(path, rules)
    assert player_theta(rules, "tuned").tolist() == theta.tolist()
    training = json.loads(path.read_text(encoding="utf-8"))["training"]
    assert training["command"].startswith(f"mjsim train --rules {rules.id} ")
    final = training["final"]
    assert final["vs"] == "three efficiency seats" and final["ci95"][0] > 0, final
    assert theta.tolist() != list(EFFICIENCY)


def test_the_shipped_changsha_player_plays_as_when_it_was_trained():
    """The shipped changsha player (worth, danger, claims all weighed) against three
    efficiency seats plays the records it played before later parameters joined the space
    (wait_units, 2026-12-07): this digest of the payments was taken with the code of
    02bfe67."""
    rows = play_rows("changsha", 3, 0, 3000, "tuned,efficiency,efficiency,efficiency")
    pays = rows[:, [columns("changsha").index(f"pay_{s}") for s in range(4)]]
    assert hashlib.sha256(pays.astype(np.int64).tobytes()).hexdigest()[:16] == "f4266ea2beb343e3"


def test_the_engine_compiles_beside_only_when_not_in_the_cache():
    """A report starts compiling the engine in a child process (compile_beside) only when
    numba's cache index lacks it; once played here, it is there, for each policy kind. A
    first line-up of tuned seats or a search after that compiles their hooks alone, and
    its compile notice says so."""
    from mjsim.game.config import game_config
    from mjsim.game.play import Kind, compile_beside, compiling, engine_cached

    g = game_config(load_rules("changsha"))
    for bots in ("efficiency,value,cautious,efficiency", "tuned:efficiency"):
        play_rows("changsha", 0, 0, 16, bots)
        assert engine_cached(g, parse_bots(bots)), bots
        assert compile_beside("changsha", bots) is False
    assert compiling(g, Kind(search=True, tuned=True)) == ("the search bot's hooks", 25)
    assert compiling(g, Kind(search=False, tuned=True)) == ("the tuned player's hooks", 10)
    assert compiling(g, Kind(search=False, tuned=False))[0] == "the game engine"
    with pytest.MonkeyPatch.context() as mp:  # a first run: the engine not cached either
        mp.setattr(play_mod, "_engine_cached", lambda g: False)
        assert compiling(g, Kind(search=False, tuned=True)) == (
            "the game engine with the tuned player",
            play_mod.COMPILE_SECONDS,
        )


def test_a_search_seat_beside_tuned_seats():
    """Tuned seats at the efficiency point beside a search seat play as efficiency seats do,
    in the hand and in the search's rollouts: the same records, hand for hand (and the
    search changed some of them). Tuned seats that meld nothing (claim_bias 1.5) meld
    nothing beside a search seat either: the search asks the tuned policy for them."""
    n = 48
    searched = play_rows("changsha", 7, 0, n, "search:16,efficiency,efficiency,efficiency")
    lineup = "search:16,tuned:efficiency,tuned:efficiency,tuned:efficiency"
    assert (play_rows("changsha", 7, 0, n, lineup) == searched).all()
    assert (searched != play_rows("changsha", 7, 0, n, "efficiency")).any()
    theta = np.tile(np.array(EFFICIENCY), (4, 1))
    theta[:, INDEX["claim_bias"]] = 1.5
    at = columns("changsha").index("claimed")
    claimed = play_rows("changsha", 7, 0, n, "search:16,tuned,tuned,tuned", theta=theta)[:, at]
    assert ((claimed >> 1) > 0).mean() < ((searched[:, at] >> 1) > 0).mean() / 4


def test_a_tuned_seat_keeps_a_claim_choice_already_made():
    """A tuned seat's claim hook makes the seat's choice where none is made, and leaves one
    already made: a search's rollout forcing its candidate claim on a search seat built on
    the tuned player (base 1), which the player's own choice once overwrote (a claim
    weighed against itself). Seat 0 holds 88p; seat 3 discards 8p."""
    rs = load_rules("changsha")
    t = 16  # 8p
    seen = np.zeros(34, np.int64)
    seen[t] = 1
    G, S, W, wall = position(rs, parse_hand("2258m2588p22558s", rs), seen, None, 0, 0, 5)
    holder = next(o for o in range(4) if S.discards[o, t] > 0)
    S.discards[holder, t] -= 1
    S.discards[3, t] += 1
    S.pos[P_LAST] = t
    assess(G, S, W, np.int64(0), np.int64(R.BOT_EFFICIENCY), np.int64(1))
    theta = np.tile(np.array(EFFICIENCY), (4, 1))
    theta[:, INDEX["claim_bias"]] = -10.0  # a player that claims what it can
    P = tuned.tuned_policy(G, theta)
    bots = np.full(4, R.BOT_TUNED, np.int64)
    rec = np.zeros(len(columns("changsha")), np.int32)
    made = []
    for before in (CLAIM_BY_BOT, CLAIM_DECLINE):
        S.status[:, ST_CLAIM] = CLAIM_BY_BOT
        S.status[0, ST_CLAIM] = before
        tuned.claim(P, G, S, W, wall, rec, bots, np.uint64(0), np.int64(3), np.int64(t))
        made.append(int(S.status[0, ST_CLAIM]))
    assert made[0] not in (CLAIM_BY_BOT, CLAIM_DECLINE)  # it claims, where nothing is made
    assert made[1] == CLAIM_DECLINE


def _built_on_tuned(monkeypatch, candidates: int) -> None:
    """Runs whose search seat is built on the line-up's tuned player (``base`` 1)."""

    def making(names, G, wall_size, rec_size, theta=None):
        theta = built_on_tuned(names, theta)
        return search_policy(G, wall_size, rec_size, 16, theta=theta, candidates=candidates, base=1)

    monkeypatch.setattr(play_mod, "make_policy", making)


def test_a_search_seat_built_on_the_tuned_player(monkeypatch):
    """Built on the tuned player, a search seat with one candidate plays exactly as a tuned
    seat — its discards, claims and passed wins (a player that melds nothing and passes
    small wins: it passes one here) — and with three candidates at the efficiency point
    exactly as the search built on the efficiency bot (the base's choice first, the others
    ranked by the efficiency bot). Without tuned seats, or with two tuned players, there is
    nothing to build on: a clear error."""
    n = 48
    theta = np.tile(np.array(EFFICIENCY), (4, 1))
    theta[:, INDEX["claim_bias"]] = 1.5
    theta[:, INDEX["decline_units"]] = 4.0
    theta[:, INDEX["decline_left"]] = 20.0
    tuned = play_rows("changsha", 7, 0, n, "tuned", theta=theta)
    searched = play_rows("changsha", 7, 0, n, "search:16,efficiency,efficiency,efficiency")
    assert (tuned != play_rows("changsha", 7, 0, n, "efficiency")).any()
    assert (tuned[:, columns("changsha").index("passed")] != 0).any()
    _built_on_tuned(monkeypatch, 1)
    lineup = "search:16,tuned,tuned,tuned"
    assert (play_rows("changsha", 7, 0, n, lineup, theta=theta) == tuned).all()
    _built_on_tuned(monkeypatch, 3)
    at_efficiency = np.tile(np.array(EFFICIENCY), (4, 1))
    assert (play_rows("changsha", 7, 0, n, lineup, theta=at_efficiency) == searched).all()
    with pytest.raises(ValueError, match=r"base is 0 .* or 1 .* which needs tuned seats"):
        search_policy(game_config("changsha").rules_arrays, 136, 10, 16, base=1)
    two = np.array([[0.0], [1.0], [2.0], [1.0]])
    with pytest.raises(ValueError, match="needs one tuned player in the line-up"):
        built_on_tuned(("search", "tuned", "tuned:other.json", "tuned"), two)
