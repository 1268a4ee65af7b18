"""Summaries of played hands (mjsim.stats.play_summary), bot lineups and played-hand
datasets (mjsim.sim.games), without the engine:

* hand-made frames of records with answers worked out by hand: seat and bot means and
  their standard errors, table and per-seat rates with Wilson intervals, win-kind and
  big-win counts, payments by source and their distribution, the JSON shape;
* bots compared over the four seatings of a lineup (paired, seat effects cancelling);
* ``parse_bots`` (the engine's) and its errors;
* ``write_games`` / ``read_games`` / ``iter_games`` on a synthetic engine: chunks rounded to
  whole games, the same records whatever the chunk, provenance metadata, resume, a different
  run refused;
* the summary chunk by chunk (``PlaySummary``, ``MeanMoments``, ``Distribution``): the same
  summary as from one frame, on hands played by the engine (Changsha and 定缺), and the
  quantile positions numpy's ``inverted_cdf`` takes.

:func:`synthetic_rows` (plausible, zero-sum records keyed by seed and hand index) is also
the stand-in engine of tests/test_play_cli.py.
"""

from __future__ import annotations

import json
import math
import statistics
from itertools import pairwise

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import mjsim.sim.games as games_module
from mjsim.game.play import columns, game_length, parse_bots, play_frame, to_frame
from mjsim.game.record import SELF_DRAWN, WIN_DIANPAO, WIN_KINDS, WIN_ZIMO
from mjsim.game.scoring.changsha import P_PENGPENG, P_QIDUI, P_QINGYISE, PATTERNS
from mjsim.rules import load_rules
from mjsim.sim.games import game_chunk, iter_games, read_games, run_params, write_games
from mjsim.sim.parts import META_KEY, RunMismatch
from mjsim.stats.play_summary import (
    Distribution,
    MeanMoments,
    PlaySummary,
    mean_se,
    play_summary,
    quantile_positions,
    rotation_scores,
    rotations,
    summary_columns,
)
from mjsim.stats.proportions import Z95, wilson

# ---------------------------------------------------------------- records by hand

#: Changsha's record columns, by name
COL = {name: i for i, name in enumerate(columns("changsha"))}
#: Changsha's payment sources (a ``pay_<source>_<seat>`` group each)
SOURCES = ("win", "qishou", "mid")
#: hands per game
LENGTH = 8
BIG_WINS = tuple(p.id for p in PATTERNS)


def test_changsha_layout():
    assert game_length("changsha") == LENGTH
    assert [
        c[4:-2] for c in COL if c.startswith("pay_") and c.endswith("_0") and c != "pay_0"
    ] == list(SOURCES)


def frame_of(hands: list[dict], start: int = 0) -> pd.DataFrame:
    """Changsha records from dicts of column → value (per-seat columns as
    ``name: [v0, v1, v2, v3]``); ``discarder`` and ``void`` default to -1, ``index`` to the
    position, ``game`` to index // 8, ``pay`` to the sum of sources."""
    rows = np.zeros((len(hands), len(COL)), np.int32)
    for j, hand in enumerate(hands):
        row = rows[j]
        row[COL["index"]] = start + j
        row[COL["game"]] = (start + j) // LENGTH
        row[COL["discarder"]] = -1
        row[[COL[f"void_{s}"] for s in range(4)]] = -1
        for name, value in hand.items():
            if isinstance(value, list):
                for s, v in enumerate(value):
                    row[COL[f"{name}_{s}"]] = v
            else:
                row[COL[name]] = value
        if "pay" not in hand:
            for s in range(4):
                row[COL[f"pay_{s}"]] = sum(row[COL[f"pay_{src}_{s}"]] for src in SOURCES)
    return to_frame("changsha", rows, seed=0)


BOTS = ("efficiency", "value", "value", "cautious")

#: four hands: a ron, a dealer's self-draw, a draw with a 起手胡, a double ron
HANDS = [
    # seat 1 wins 清一色 off seat 3's discard: 6 points
    {
        "outcome": 1,
        "win_kind": WIN_DIANPAO,
        "winners": 0b0010,
        "n_winners": 1,
        "discarder": 3,
        "patterns": [0, 1 << P_QINGYISE, 0, 0],
        "pay_win": [0, 6, 0, -6],
        "turns": 20,
    },
    # the dealer (seat 0) self-draws a small win: 2 from each
    {
        "outcome": 1,
        "win_kind": WIN_ZIMO,
        "winners": 0b0001,
        "n_winners": 1,
        "next_dealer": 0,
        "pay_win": [6, -2, -2, -2],
        "turns": 10,
    },
    # a draw; seat 3 had shown a 起手胡 (1 from each) and seat 2 a mid-game 四喜 (1 from each)
    {
        "outcome": 0,
        "dealer": 1,
        "next_dealer": 1,
        "pay_qishou": [-1, -1, -1, 3],
        "pay_mid": [-1, -1, 3, -1],
        "turns": 30,
    },
    # seats 0 and 2 both win off seat 1's discard; seat 2's hand is 碰碰胡 and 七对 bits
    {
        "outcome": 1,
        "win_kind": WIN_DIANPAO,
        "winners": 0b0101,
        "n_winners": 2,
        "discarder": 1,
        "dealer": 1,
        "next_dealer": 2,
        "patterns": [0, 0, (1 << P_PENGPENG) | (1 << P_QIDUI), 0],
        "pay_win": [1, -7, 6, 0],
        "turns": 16,
    },
]
PAY = [[0, 6, 0, -6], [6, -2, -2, -2], [-2, -2, 2, 2], [1, -7, 6, 0]]


@pytest.fixture(scope="module")
def summary() -> dict:
    return play_summary(frame_of(HANDS), "changsha", "abc", 5, BOTS)


def se_of(values) -> float:
    return statistics.stdev(values) / math.sqrt(len(values))


def check_rate(r: dict, k: int, n: int) -> None:
    assert (r["k"], r["n"]) == (k, n)
    assert r["p"] == pytest.approx(k / n)
    assert r["se"] == pytest.approx(math.sqrt(k / n * (1 - k / n) / n))
    assert r["ci"] == pytest.approx(list(wilson(k, n)))


def test_frame_is_zero_sum():
    df = frame_of(HANDS)
    assert df[[f"pay_{s}" for s in range(4)]].to_numpy().tolist() == PAY
    assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()


def test_seat_means(summary):
    assert summary["n_hands"] == 4
    for s, e in enumerate(summary["seats"]):
        values = [row[s] for row in PAY]
        assert e["seat"] == s and e["bot"] == BOTS[s]
        assert e["mean_score"] == pytest.approx(statistics.mean(values))
        assert e["se"] == pytest.approx(se_of(values))
        assert e["ci"] == pytest.approx(
            [e["mean_score"] - Z95 * e["se"], e["mean_score"] + Z95 * e["se"]]
        )
    assert [e["mean_score"] for e in summary["seats"]] == [1.25, -1.25, 1.5, -1.5]
    assert summary["seats"][0]["se"] == pytest.approx(
        math.sqrt(((0 - 1.25) ** 2 + (6 - 1.25) ** 2 + (-2 - 1.25) ** 2 + (1 - 1.25) ** 2) / 3) / 2
    )


def test_bot_means_use_the_per_hand_average(summary):
    by_bot = {e["bot"]: e for e in summary["bots"]}
    assert list(by_bot) == ["efficiency", "value", "cautious"]
    assert by_bot["value"]["seats"] == [1, 2]
    value = [(row[1] + row[2]) / 2 for row in PAY]  # [3, -2, 0, -0.5]
    assert by_bot["value"]["mean_score"] == pytest.approx(0.125)
    assert by_bot["value"]["se"] == pytest.approx(se_of(value))
    assert by_bot["efficiency"]["mean_score"] == summary["seats"][0]["mean_score"]
    diffs = {tuple(e["bots"]): e for e in summary["bot_differences"]}
    assert set(diffs) == {
        ("efficiency", "value"),
        ("efficiency", "cautious"),
        ("value", "cautious"),
    }
    d = [row[0] - v for row, v in zip(PAY, value)]
    assert diffs["efficiency", "value"]["mean_score"] == pytest.approx(statistics.mean(d))
    assert diffs["efficiency", "value"]["se"] == pytest.approx(se_of(d))


def test_table_rates(summary):
    check_rate(summary["win_rate"], 3, 4)
    check_rate(summary["draw_rate"], 1, 4)
    check_rate(summary["deal_in_rate"], 2, 4)
    check_rate(summary["self_draw_share"], 1, 3)
    check_rate(summary["multi_win_rate"], 1, 3)
    check_rate(summary["outcomes"]["qishou_end"], 0, 4)
    assert summary["mean_turns"]["mean"] == 19.0
    assert summary["mean_turns"]["se"] == pytest.approx(se_of([20, 10, 30, 16]))


def test_per_seat_rates(summary):
    wins = [2, 1, 1, 0]
    deal_ins = [0, 1, 0, 1]
    for s, e in enumerate(summary["seats"]):
        check_rate(e["win_rate"], wins[s], 4)
        check_rate(e["deal_in_rate"], deal_ins[s], 4)
    check_rate(summary["seats"][0]["self_draw_rate"], 1, 4)
    check_rate(summary["seats"][1]["self_draw_rate"], 0, 4)


def test_dealer(summary):
    d = summary["dealer"]  # dealers: 0, 0, 1, 1 → scores 0, 6, -2, -7
    assert d["mean_score"] == pytest.approx(-0.75)
    assert d["se"] == pytest.approx(se_of([0, 6, -2, -7]))
    check_rate(d["win_rate"], 1, 4)
    check_rate(d["keeps_deal"], 3, 4)  # all but the double ron (dealer 1, next dealer 2)


def test_counts(summary):
    assert summary["win_kinds"] == {
        name: {"zimo": 1, "dianpao": 2}.get(name, 0) for name in WIN_KINDS[1:]
    }
    assert summary["big_wins"] == {
        name: int(name in ("qingyise", "pengpenghu", "qidui")) for name in BIG_WINS
    }
    assert summary["patterns"] == [{"id": p.id, "name_zh": p.name_zh} for p in PATTERNS]
    assert summary["n_wins"] == 4
    check_rate(summary["big_win_rates"]["qingyise"], 1, 4)
    check_rate(summary["any_big_win"], 2, 4)
    check_rate(summary["win_kind_rates"]["dianpao"], 2, 3)


def test_payments(summary):
    by = summary["seats"][3]["by_source"]
    assert by["win"]["mean"] == pytest.approx(-2.0)
    assert by["qishou"]["mean"] == pytest.approx(0.75)
    assert by["mid"]["mean"] == pytest.approx(-0.25)
    assert list(by) == list(SOURCES) == summary["sources"]
    dist = summary["payments"]["per_seat"]
    assert dist["n"] == 16 and dist["mean"] == 0.0
    assert dist["quantiles"]["50%"] == 0.0 and dist["quantiles"]["25%"] == -2.0
    assert dist["quantiles"]["99%"] == 6.0 and dist["quantiles"]["5%"] == -7.0
    assert list(dist["quantiles"]) == ["1%", "5%", "25%", "50%", "75%", "95%", "99%"]
    assert dist["histogram"] == {"-7": 1, "-6": 1, "-2": 5, "0": 3, "1": 1, "2": 2, "6": 3}
    assert (dist["min"], dist["max"]) == (-7, 6)
    receipt = summary["payments"]["winner_receipt"]  # pay_win of each winner
    assert receipt["n"] == 4 and receipt["histogram"] == {"1": 1, "6": 3}


def test_json_ready(summary):
    text = json.dumps(summary, allow_nan=False)
    doc = json.loads(text)
    for key in (
        "rules",
        "options_hash",
        "seed",
        "lineup",
        "n_hands",
        "seats",
        "bots",
        "bot_differences",
        "dealer",
        "win_rate",
        "draw_rate",
        "deal_in_rate",
        "self_draw_share",
        "mean_turns",
        "win_kinds",
        "big_wins",
        "payments",
        "patterns",
        "sources",
    ):
        assert key in doc, key
    assert (doc["rules"], doc["options_hash"], doc["seed"]) == ("changsha", "abc", 5)
    assert doc["lineup"] == list(BOTS)
    for e in doc["seats"]:
        assert {"seat", "bot", "mean_score", "se", "ci", "win_rate", "deal_in_rate"} <= set(e)
    for e in doc["bots"]:
        assert {"bot", "seats", "mean_score", "se", "ci"} <= set(e)
    assert {"mean", "se"} <= set(doc["mean_turns"])


def test_one_hand_has_no_standard_error():
    s = play_summary(frame_of(HANDS[:1]), "changsha", "abc", 0, BOTS)
    assert s["seats"][1]["mean_score"] == 6.0
    assert s["seats"][1]["se"] is None and s["seats"][1]["ci"] == [None, None]
    json.dumps(s, allow_nan=False)


def test_no_wins():
    s = play_summary(frame_of([HANDS[2]] * 3), "changsha", "abc", 0, BOTS)
    assert s["self_draw_share"] is None and s["n_wins"] == 0
    assert s["win_kind_rates"]["zimo"] is None
    assert s["payments"]["winner_receipt"] == {"n": 0}
    assert s["seats"][0]["by_source"]["win"] == {"mean": 0.0, "se": 0.0}


def test_summary_errors():
    with pytest.raises(ValueError, match="no hands"):
        play_summary(frame_of(HANDS)[:0], "changsha", "x", 0, BOTS)
    with pytest.raises(ValueError, match="four names"):
        play_summary(frame_of(HANDS), "changsha", "x", 0, ("efficiency",))


def test_standard_error_by_game():
    x = np.array([1.0, 3.0, 2.0, 6.0, 0.0, 0.0])
    games = np.array([0, 0, 1, 1, 2, 2])
    e = mean_se(x, games)
    sums = np.array([4.0, 8.0, 0.0]) - 2 * x.mean()
    assert e["se_by_game"] == pytest.approx(math.sqrt(1.5 * (sums**2).sum()) / 6)
    assert mean_se(x, np.zeros(6))["se_by_game"] is None


# ---------------------------------------------------------------- bots compared


def test_rotations():
    lineup = ("efficiency", "value", "cautious", "efficiency")
    seatings = rotations(lineup)
    assert seatings[0] == lineup and len(seatings) == 4
    for s in range(4):  # every bot sits in every seat equally often
        assert sorted(r[s] for r in seatings) == sorted(lineup)


def test_rotation_scores():
    lineup = ("efficiency", "value", "cautious", "efficiency")
    rng = np.random.default_rng(3)
    n = 40
    noise = rng.integers(-3, 4, size=n)
    frames = []
    for seating in rotations(lineup):
        # the value bot takes 3 + noise from each other seat; seat 0 gets a bonus of 1
        hands = []
        for i in range(n):
            v = seating.index("value")
            pay = [-(3 + noise[i])] * 4
            pay[v] = 3 * (3 + noise[i])
            pay[0] += 1
            pay[(v + 1) % 4] -= 1
            hands.append({"pay_win": pay})
        frames.append(frame_of(hands))
    c = rotation_scores(frames, lineup)
    by = {e["bot"]: e for e in c["bots"]}
    assert c["n_hands"] == n and c["lineup"] == list(lineup)
    assert by["value"]["seats_per_seating"] == 1 and by["efficiency"]["seats_per_seating"] == 2
    assert sum(e["mean_score"] * e["seats_per_seating"] for e in c["bots"]) == pytest.approx(0)
    # the value bot sits in seat 0 in one seating of four
    assert by["value"]["mean_score"] == pytest.approx(np.mean(3 * (3 + noise)) + 0.25)
    diffs = {tuple(e["bots"]): e for e in c["bot_differences"]}
    assert diffs["efficiency", "value"]["mean_score"] == pytest.approx(
        by["efficiency"]["mean_score"] - by["value"]["mean_score"]
    )
    assert diffs["efficiency", "value"]["se"] > 0
    with pytest.raises(ValueError, match="same hands"):
        rotation_scores([frames[0], frames[1], frames[2], frame_of(HANDS)], lineup)
    with pytest.raises(ValueError, match="one frame per seating"):
        rotation_scores(frames[:2], lineup)


# ---------------------------------------------------------------- bots


@pytest.mark.parametrize(
    "text, expected",
    [
        (None, ("efficiency",) * 4),
        ("cautious", ("cautious",) * 4),
        ("efficiency,value,cautious,efficiency", ("efficiency", "value", "cautious", "efficiency")),
        (" value , value,value, cautious ", ("value", "value", "value", "cautious")),
        (["value", "cautious", "value", "value"], ("value", "cautious", "value", "value")),
    ],
)
def test_parse_bots(text, expected):
    assert parse_bots(text) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("efficiency,value", r"one bot or four .* got 2: efficiency,value"),
        ("value,value,value,value,value", "got 5"),
        ("greedy", r"unknown bot 'greedy'; bots: efficiency, value, cautious"),
        ("efficiency,,value,value", "unknown bot ''"),
    ],
)
def test_parse_bots_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_bots(text)


# ---------------------------------------------------------------- a synthetic engine


def synthetic_rows(seed: int, start: int, n: int) -> np.ndarray:
    """Plausible zero-sum Changsha records of hands ``start .. start+n-1``, each drawn from its own
    generator keyed by (seed, hand index): the same hand whatever the chunk."""
    rows = np.zeros((n, len(COL)), np.int32)
    for j in range(n):
        i = start + j
        rng = np.random.default_rng([seed, i])
        row = rows[j]
        dealer = int(rng.integers(4))
        row[[COL["index"], COL["dealer"], COL["next_dealer"]]] = i, dealer, dealer
        row[COL["game"]] = i // LENGTH
        row[[COL[f"void_{s}"] for s in range(4)]] = -1
        row[COL["turns"]] = rng.integers(4, 30)
        row[COL["discarder"]] = -1
        pay_win = np.zeros(4, np.int64)
        if rng.random() < 0.8:
            kind = int(rng.choice([1, 2, 2, 2, 3, 4, 5, 6, 7]))
            row[[COL["outcome"], COL["win_kind"]]] = 1, kind
            if kind in SELF_DRAWN:
                winners = [int(rng.integers(4))]
            else:
                d = int(rng.integers(4))
                row[COL["discarder"]] = d
                others = [s for s in range(4) if s != d]
                winners = list(rng.choice(others, size=1 + (rng.random() < 0.1), replace=False))
            for w in winners:
                big = rng.random() < 0.2
                if big:
                    row[COL[f"patterns_{w}"]] = 1 << int(rng.integers(len(BIG_WINS)))
                amount = (6 if big else 1) * int(rng.integers(1, 4))
                payers = [s for s in range(4) if s != w] if kind in SELF_DRAWN else [d]
                for p in payers:
                    pay_win[p] -= amount
                    pay_win[w] += amount
                row[COL["winners"]] |= 1 << int(w)
            row[COL["n_winners"]] = len(winners)
            row[COL["next_dealer"]] = winners[0]
        qishou = np.zeros(4, np.int64)
        if rng.random() < 0.05:
            q = int(rng.integers(4))
            qishou -= 1
            qishou[q] += 4
        for s in range(4):
            row[COL[f"pay_win_{s}"]] = pay_win[s]
            row[COL[f"pay_qishou_{s}"]] = qishou[s]
            row[COL[f"pay_{s}"]] = pay_win[s] + qishou[s]
    return rows


def fake_table(rules, seed, start, n, bots, readiness=False):
    assert start % game_length(rules) == 0, start
    import pyarrow as pa

    return pa.Table.from_pandas(
        to_frame("changsha", synthetic_rows(seed, start, n), seed, readiness), preserve_index=False
    )


@pytest.fixture
def fake_engine(monkeypatch):
    calls: list[tuple[int, int]] = []

    def table(rules, seed, start, n, bots, readiness=False):
        calls.append((start, n))
        return fake_table(rules, seed, start, n, bots, readiness)

    monkeypatch.setattr(games_module, "game_table", table)
    return calls


def test_synthetic_rows_are_consistent():
    df = to_frame("changsha", synthetic_rows(1, 0, 300), 1)
    pay = df[[f"pay_{s}" for s in range(4)]].to_numpy()
    assert (pay.sum(axis=1) == 0).all()
    s = play_summary(df, "changsha", "x", 1, ("efficiency",) * 4)
    assert 0.7 < s["win_rate"]["p"] < 0.9
    assert s["bots"][0]["mean_score"] == 0.0 and s["bots"][0]["se"] == 0.0
    assert sum(s["win_kinds"].values()) == s["win_rate"]["k"]


def test_game_chunk():
    assert [game_chunk(c, 8) for c in (1, 7, 8, 9, 100_000)] == [8, 8, 8, 16, 100_000]
    assert [game_chunk(c, 4) for c in (1, 4, 5)] == [4, 4, 8]
    for bad in (0, -8, 2.5, True):
        with pytest.raises(ValueError, match="multiple of 8"):
            game_chunk(bad, 8)


def test_write_games_chunks_and_metadata(tmp_path, fake_engine):
    rules = load_rules("changsha", cs_birds=4)
    bots = ("efficiency", "value", "cautious", "efficiency")
    out = write_games(rules, 50, 9, tmp_path / "run", bots=bots, chunk=10, progress=False)
    assert fake_engine == [(0, 16), (16, 16), (32, 16), (48, 2)]
    df = read_games(out)
    assert df["index"].tolist() == list(range(50))
    pd.testing.assert_frame_equal(df, to_frame("changsha", synthetic_rows(9, 0, 50), 9))
    expected = run_params(rules, 9, bots) | {"total": 50, "chunk": 16}
    assert df.attrs["run"] == expected
    assert expected["kind"] == "games" and expected["bots"] == list(bots)
    assert expected["game_length"] == LENGTH
    assert expected["options_hash"] == rules.options_hash and expected["options"]["cs_birds"] == 4
    for part in sorted(out.glob("part-*.parquet")):
        assert json.loads(pq.read_schema(part).metadata[META_KEY]) == expected
    # resume: a lost part is played again, nothing else
    sorted(out.glob("part-*.parquet"))[1].unlink()
    fake_engine.clear()
    write_games(rules, 50, 9, out, bots=bots, chunk=10, progress=False)
    assert fake_engine == [(16, 16)]
    pd.testing.assert_frame_equal(read_games(out), df)


def test_write_games_refuses_another_run(tmp_path, fake_engine):
    out = write_games(
        "changsha", 20, 1, tmp_path / "run", bots="efficiency", chunk=8, progress=False
    )
    with pytest.raises(RunMismatch, match=r"bots: \['efficiency'.* there, \['value'"):
        write_games("changsha", 20, 1, out, bots="value", chunk=8, progress=False)
    with pytest.raises(ValueError, match="unknown bot"):
        write_games("changsha", 20, 1, out, bots="nobody", progress=False)
    with pytest.raises(ValueError, match="at least 1 hand"):
        write_games("changsha", 0, 1, tmp_path / "zero", progress=False)
    assert not (tmp_path / "zero").exists()


def test_read_games_refuses_deals(tmp_path):
    import pyarrow as pa

    from mjsim.sim.deals import run_params as deal_params
    from mjsim.sim.parts import run_parts

    out = tmp_path / "deals"
    run_parts(
        out,
        10,
        10,
        lambda s, m: pa.table({"deal": list(range(s, s + m))}),
        deal_params(load_rules("changsha"), 1),
        progress=False,
    )
    with pytest.raises(ValueError, match="a 'deals' dataset, not played hands"):
        read_games(out)


def test_iter_games(tmp_path, fake_engine):
    out = write_games(
        "changsha", 50, 9, tmp_path / "run", bots="efficiency", chunk=16, progress=False
    )
    whole = read_games(out)
    frames = list(iter_games(out))
    assert [len(f) for f in frames] == [16, 16, 16, 2]
    assert all(f["index"].iloc[0] % LENGTH == 0 for f in frames)  # a part starts a game
    assert all(f.attrs["run"] == whole.attrs["run"] for f in frames)
    pd.testing.assert_frame_equal(pd.concat(frames, ignore_index=True), whole)
    some = list(iter_games(out, ["game", "pay_0"]))
    assert [list(f.columns) for f in some] == [["game", "pay_0"]] * 4
    with pytest.raises(FileNotFoundError, match="no parts"):
        iter_games(tmp_path / "nowhere")


# ---------------------------------------------------------------- chunk by chunk


def same_summary(a, b, path: str = "") -> None:
    """``a`` and ``b`` key by key: floats within 1e-12 relative, everything else equal."""
    assert type(a) is type(b), (path, a, b)
    if isinstance(a, dict):
        assert list(a) == list(b), path
        for key in a:
            same_summary(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same_summary(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=0), (path, a, b)
    else:
        assert a == b, (path, a, b)


@pytest.fixture(scope="module", params=["changsha", "dingque"])
def played(request) -> tuple[str, pd.DataFrame]:
    return request.param, play_frame(request.param, 4000, seed=3, bots=BOTS, progress=False)


def test_summary_chunk_by_chunk(played):
    rules, df = played
    whole = play_summary(df, rules, "h", 3, BOTS)
    assert whole["n_hands"] == 4000 and whole["n_wins"] > 0 and len(whole["bots"]) == 3
    assert "se_by_game" in whole["seats"][0] and whole["dealer"]["keeps_deal"] is not None
    # parts of whole games (as iter_games gives them), of uneven sizes, one of them empty
    cuts = [0, 8, 8, 800, 2400, 3992, 4000]
    assert all(c % LENGTH == 0 for c in cuts)
    parts = [df.iloc[a:b] for a, b in pairwise(cuts)]
    same_summary(play_summary(iter(parts), rules, "h", 3, BOTS), whole)
    # the accumulator itself, fed only the columns it reads
    acc = PlaySummary(rules, "h", 3, BOTS)
    for part in parts:
        acc.add(part[summary_columns(list(df.columns))])
    same_summary(acc.result(), whole)
    # a game cut in two still counts once in se_by_game
    cut = [df.iloc[:1001], df.iloc[1001:2003], df.iloc[2003:]]
    same_summary(play_summary(cut, rules, "h", 3, BOTS), whole)


def test_summary_columns(played):
    rules, df = played
    needed = summary_columns(columns(rules))
    assert {"game", "dealer", "outcome", "turns", "pay_0", "patterns_3", "pay_win_2"} <= set(needed)
    assert "seed" not in needed and "index" not in needed
    same_summary(
        play_summary(df[needed], rules, "h", 3, BOTS), play_summary(df, rules, "h", 3, BOTS)
    )


def test_moments_in_chunks():
    rng = np.random.default_rng(5)
    x = rng.normal(20.0, 3.0, 1000)  # floats, far from 0: the running sums are shifted
    groups = np.repeat(np.arange(125), 8)
    whole = mean_se(x, groups)
    m = MeanMoments()
    for a, b in [(0, 3), (3, 500), (500, 500), (500, 997), (997, 1000)]:  # games cut in two
        m.add(x[a:b], groups[a:b])
    same_summary(m.result(), whole)
    sums = np.add.reduceat(x - x.mean(), np.arange(0, 1000, 8))
    assert whole["se_by_game"] == pytest.approx(
        math.sqrt(125 / 124 * (sums**2).sum()) / 1000, rel=1e-12
    )
    assert whole["se"] == pytest.approx(x.std(ddof=1) / math.sqrt(1000), rel=1e-12)
    # integers over a scale: exact
    t = rng.integers(-30, 30, 999)
    e = MeanMoments(scale=3).add(t[:500], groups[:500]).add(t[500:], groups[500:999]).result()
    assert e["mean"] == t.sum() / (999 * 3)
    assert e["se"] == pytest.approx((t / 3).std(ddof=1) / math.sqrt(999), rel=1e-12)
    with pytest.raises(ValueError, match="every chunk or with none"):
        MeanMoments().add(x[:8], groups[:8]).add(x[8:16])


@pytest.mark.parametrize("n", [1, 2, 3, 7, 16, 99, 100, 101, 300, 1000, 4001, 12345])
def test_quantile_positions_are_numpys(n):
    sorted_positions = np.arange(n)  # percentiles of 0 .. n-1 are their own positions
    expected = np.percentile(sorted_positions, (1, 5, 25, 50, 75, 95, 99), method="inverted_cdf")
    assert quantile_positions(n).tolist() == expected.astype(int).tolist()


def test_distribution_in_chunks():
    rng = np.random.default_rng(8)
    values = rng.integers(-40, 60, 5001) * rng.integers(0, 2, 5001)
    d = Distribution()
    for part in np.array_split(values, 7):
        d.add(part)
    got = d.result()
    assert got["n"] == 5001 and got["mean"] == values.mean()
    assert got["sd"] == pytest.approx(values.std(ddof=1), rel=1e-12)
    assert (got["min"], got["max"]) == (values.min(), values.max())
    assert (
        list(got["quantiles"].values())
        == np.percentile(values, (1, 5, 25, 50, 75, 95, 99), method="inverted_cdf").tolist()
    )
    assert sum(got["histogram"].values()) == 5001
    assert Distribution().result() == {"n": 0}
