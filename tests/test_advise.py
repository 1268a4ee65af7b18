"""``mjsim advise``: the rankings RULES.md's examples imply, agreement with ten times the
worlds, the position it builds, and one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.game import record as R
from mjsim.game.advise import advise
from mjsim.game.bots import choose_discard
from mjsim.game.position import position
from mjsim.game.state import P_HEAD, P_TAIL
from mjsim.notation import parse_hand
from mjsim.rules import load_rules

runner = CliRunner()
#: §2.4.1: 将一色 needs every tile of rank 2, 5 or 8 — the lone 9m must go
JIANG = "2258m2588p22558s9m"


def test_all_258_keeps_the_258s():
    rows = advise("changsha", JIANG, rollouts=200, seed=3)["discards"]
    assert rows[0]["tile"] == "9m" and rows[0]["shanten"] == 0
    assert rows[0]["efficiency_choice"]
    for r in rows[1:]:  # every other discard is worse, by its paired interval
        assert r["vs_efficiency"]["ci"][1] < 0, r["tile"]


def test_caishen_honours_first_is_the_only_choice():
    """§3.4: a lone honour must be discarded (the 财神 kind is exempt): advise weighs the
    discards the efficiency bot's evaluation allows, and in this position that is 3z alone
    (the position and the evaluation only: the rollouts are the same code for every rule
    set, tested on Changsha above)."""
    rules = load_rules("caishen16")
    hand = parse_hand("123m456m789p111s22s45p3z", rules)
    for seed in range(4):
        G, S, W, _wall = position(rules, hand, np.zeros(34, np.int64), None, 0, 0, seed)
        if not S.wild[0, 29]:  # 3z is not the 财神 kind of this deal
            choose_discard(G, S, W, np.int64(0), np.int64(R.BOT_EFFICIENCY))
            assert [k for k in range(34) if W.keys[k] < 1 << 40] == [29]
            return
    pytest.fail("3z was the 财神 kind in every seed tried")


def test_ten_times_the_worlds_agree():
    few = {
        r["tile"]: r
        for r in advise("changsha", "123m456p789s22m357s", rollouts=60, seed=1)["discards"]
    }
    many = {
        r["tile"]: r
        for r in advise("changsha", "123m456p789s22m357s", rollouts=600, seed=2)["discards"]
    }
    assert few.keys() == many.keys()
    for tile, a in few.items():
        b = many[tile]
        assert abs(a["mean"] - b["mean"]) <= 4 * np.hypot(a["se"], b["se"]) + 1e-9, tile


#: seat 0 holds two 4m, 23m and 5m: on its 上家's 4m it may pung, chow 234m or 345m, or not
CLAIMING = "23445m678p2255s9s"


def test_claims_are_the_pung_the_chows_and_declining():
    doc = advise("changsha", CLAIMING, claim="4m", rollouts=32, seed=1)
    rows = doc["claims"]
    assert doc["decision"] == "claim" and doc["discarder"] == 3 and doc["tile"] == "4m"
    assert {r["claim"] for r in rows} == {"pung 4m", "chow 234m", "chow 345m", "decline"}
    assert sum(r["efficiency_choice"] for r in rows) == 1
    assert [r["mean"] for r in rows] == sorted((r["mean"] for r in rows), reverse=True)
    # 234m 678p and 45m 22s 55s: one tile from ready (shanten 1); after any of the claims
    # and its best discard (9s), two sets, two partial sets and a pair: still 1
    assert all(r["shanten"] == 1 for r in rows)
    assert all((r["ukeire"] is None) == (r["claim"] == "decline") for r in rows)
    # a copy of 4m seen elsewhere: three in sight once the pung is made, none left to draw
    rows = advise("changsha", CLAIMING, seen="4m", claim="4m", rollouts=16, seed=1)["claims"]
    assert {r["claim"] for r in rows} == {"pung 4m", "chow 234m", "chow 345m", "decline"}
    # from its 对家 only the pung or declining
    doc = advise("changsha", CLAIMING, claim="4m", discarder=2, rollouts=16, seed=1)
    assert {r["claim"] for r in doc["claims"]} == {"pung 4m", "decline"}


def test_ten_times_the_worlds_agree_on_claims():
    few = {
        r["claim"]: r
        for r in advise("changsha", CLAIMING, claim="4m", rollouts=60, seed=1)["claims"]
    }
    many = {
        r["claim"]: r
        for r in advise("changsha", CLAIMING, claim="4m", rollouts=600, seed=2)["claims"]
    }
    assert few.keys() == many.keys()
    for claim, a in few.items():
        b = many[claim]
        assert abs(a["mean"] - b["mean"]) <= 4 * np.hypot(a["se"], b["se"]) + 1e-9, claim


def test_the_position_keeps_every_tile():
    rules = load_rules("caishen16")
    hand = parse_hand("[555p] 123m456p78s99m1s23s", rules)
    seen = np.zeros(34, np.int64)
    seen[[0, 8, 33]] = 1
    _G, S, _W, wall = position(rules, hand, seen, None, 1, 0, 5)
    assert (S.concealed[1] == hand.counts).all() and S.n_melds[1] == 1
    assert S.pos[P_HEAD] < S.pos[P_TAIL]
    for o in (0, 2, 3):
        assert S.concealed[o].sum() == rules.hand_size
    live = [wall[j] for j in range(S.pos[P_HEAD], len(wall))]
    total = S.concealed.sum(axis=0) + S.melded.sum(axis=0) + S.discards.sum(axis=0)
    total = total + np.bincount(live, minlength=34)[:34]
    assert (total <= 4).all()  # no fifth copy anywhere


@pytest.mark.parametrize(
    "args, message",
    [
        (["123m456p789s22m35s"], "must hold 14 concealed tiles"),
        (["123m456p789s22m357s", "--seen", "2m2m3m"], "5 copies of 2m"),
        (["123m456p789s22m357s", "--seen", "1z"], "changsha has 0"),
        (["123m456p789s22m357s", "--rollouts", "1"], "rollouts"),
        (["123m456p789s22m357s", "--seat", "5"], "seat"),
        (["123m456p789s22m357s", "--rules", "nope"], "nope"),
        (["123m456p789s22m357s", "--claim", "4m"], "must hold 13 concealed tiles"),
        ([CLAIMING, "--claim", "4m4m"], "one tile"),
        ([CLAIMING, "--claim", "4m", "--from", "0"], "another seat"),
        ([CLAIMING, "--claim", "1p"], "no pung or chow of 1p"),
    ],
)
def test_bad_input_is_one_line(args, message):
    result = runner.invoke(app, ["advise", *args])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) <= 2


def test_cli_json_and_chart(tmp_path):
    png = tmp_path / "advise.png"
    result = runner.invoke(
        app, ["advise", JIANG, "--rollouts", "16", "--json", "--chart", str(png)]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["rules"] == "changsha" and doc["discards"][0]["tile"] == "9m"
    assert png.stat().st_size > 1000
    table = runner.invoke(app, ["advise", JIANG, "--rollouts", "16"], env={"COLUMNS": "160"})
    assert table.exit_code == 0 and "9m *" in table.output and "efficiency" in table.output
    claims = runner.invoke(
        app,
        [
            "advise",
            CLAIMING,
            "--claim",
            "4m",
            "--rollouts",
            "16",
            "--json",
            "--chart",
            str(tmp_path / "claims.png"),
        ],
    )
    assert claims.exit_code == 0, claims.output
    doc = json.loads(claims.output)
    assert doc["decision"] == "claim" and len(doc["claims"]) == 4
    assert (tmp_path / "claims.png").stat().st_size > 1000
    table = runner.invoke(
        app,
        ["advise", CLAIMING, "--claim", "4m", "--from", "3", "--rollouts", "16"],
        env={"COLUMNS": "160"},
    )
    assert table.exit_code == 0 and "chow 345m" in table.output and "4m from seat 3" in table.output


def test_advise_binds_none_of_the_search_s_own_hooks(monkeypatch):
    """advise plays its candidates through ``weigh`` alone, so its policy holds the other
    seats' hooks in the search's own places (``searching=False``): a first advise does not
    compile the search's own discard, win-or-pass and claim."""
    import mjsim.game.advise as advise_mod
    from mjsim.game import search

    own = (search.discard, search.win_or_pass, search.claim)
    asked = []

    def recording(*args, **kwargs):
        asked.append(kwargs.get("searching", True))
        return search.search_policy(*args, **kwargs)

    monkeypatch.setattr(advise_mod, "search_policy", recording)
    advise("changsha", JIANG, rollouts=8, seed=3)
    assert asked == [False]
    hooks = search.functions(False, searching=False)
    assert not {hooks[k] for k in ("discard", "win_or_pass", "claim")} & set(own)
    assert tuple(search.functions(False)[k] for k in ("discard", "win_or_pass", "claim")) == own
