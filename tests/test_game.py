"""The game engine: invariants after every hand, replays, scoring, and scripted walls for
each situational win of RULES.md §2 (杠上开花, 杠上炮, 抢杠, 海底捞月, 海底炮, 过手)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scripted import build_wall, kinds

from mjsim.game import record as R
from mjsim.game import values as V
from mjsim.game.config import game_config
from mjsim.game.play import (
    columns,
    parse_bots,
    play_frame,
    play_rows,
    play_wall,
    play_walls,
    replay,
)
from mjsim.game.scoring import changsha as CS
from mjsim.game.state import M_FROM, MELD_PUNG, ST_BONUS
from mjsim.kernels.rng import index_seed, stream_key
from mjsim.rules import RulesError, load_rules
from mjsim.rules.model import FrozenDict
from mjsim.walls import DICE_STREAM, WallSpec, walls

PAY = [f"pay_{s}" for s in range(4)]


# ----------------------------------------------------------------------------- scoring


def test_worked_example_2_10():
    """Seat 1 self-draws U = 2 with birds 5p, 2s (add, cap 6): seats pay 28, 36, 24."""
    p = game_config("changsha").rules_arrays.score
    hits = np.zeros(4, dtype=np.int64)
    CS.bird_hits(np.array(kinds("5p2s"), dtype=np.int64), 2, 1, hits)
    assert hits.tolist() == [0, 1, 1, 0]
    pay = np.zeros(4, dtype=np.int64)
    CS.pay_one(p, pay, 1, 0b1101, 0, 2, hits)
    assert pay.tolist() == [-28, 88, -36, -24]
    mul = game_config(load_rules("changsha", cs_bird_mode="mul")).rules_arrays.score
    assert CS.amount(mul, 1, 2, 0, 2, CS.bird_factor(mul, hits, 1, 2)) == 36


@pytest.mark.parametrize(
    "winner, payer, units, expected",
    [
        (1, 2, 0, 1),
        (0, 2, 0, 2),
        (1, 0, 0, 2),  # small: 1, or 2 with the dealer
        (1, 2, 1, 6),
        (1, 0, 1, 7),
        (1, 2, 3, 6 * 3),
        (0, 3, 2, 7 * 2),  # big: 6U, 7U
    ],
)
def test_summary_table_2_10(winner, payer, units, expected):
    p = game_config(load_rules("changsha", cs_cap=None)).rules_arrays.score
    assert CS.amount(p, winner, payer, 0, units, 1) == expected


def test_piao_and_options_of_the_formula():
    def score(**options):
        return game_config(load_rules("changsha", **options)).rules_arrays.score

    assert CS.amount(score(cs_piao=2), 1, 2, 0, 0, 1) == 1 + 4
    assert CS.amount(score(cs_dealer_bonus_per_unit=False), 1, 0, 0, 2, 1) == 6 * 2 + 1
    assert CS.amount(score(cs_dealer_bonus_scope="winner_only"), 1, 0, 0, 0, 1) == 1


def test_unsupported_rules_and_bots():
    """A preset without a [game] table (every built-in one has one now) is refused."""
    bare = dataclasses.replace(load_rules("generic"), game_spec=FrozenDict())
    with pytest.raises(RulesError, match="does not play generic yet"):
        game_config(bare)
    with pytest.raises(ValueError, match="unknown bot"):
        parse_bots("random")


# ----------------------------------------------------------------------------- scripted

# 234m567p22p34s: ready on 2s/5s with the 258 pair 2p (RULES.md §2.4.3)
READY = "234m567p22p34s"


def _win(rec):
    return R.WIN_KINDS[rec["win_kind"]], [s for s in range(4) if rec["winners"] >> s & 1]


def _has(rec, seat, pattern):
    return bool(rec[f"patterns_{seat}"] >> [p.id for p in CS.PATTERNS].index(pattern) & 1)


def test_gangshang_kaihua():
    """The dealer opens a kong on 7777m and turns up 9p 5s: the 5s wins (§2.4.3)."""
    rules = load_rules("changsha")
    wall = build_wall(
        rules,
        {
            0: READY + "7777m",
            1: "111m999m111p999p1s",
            2: "888m888p888s66s66m",
            3: "666p3344p5p99s55m6s",
        },
        tail="9p5s",
    )
    rec, _state = play_wall(rules, wall)
    assert _win(rec) == ("gangshang_kaihua", [0])
    assert rec["open_kongs"] == 1 and rec["win_tile"] == kinds("5s")[0]
    assert _has(rec, 0, "gangshang_kaihua") and rec["units_0"] == 1
    assert rec["pay_win_0"] > 0 and all(rec[f"pay_win_{s}"] < 0 for s in (1, 2, 3))


def test_gangshang_pao():
    """The revealed 7s misses the konger and wins for seat 2, paid by the konger alone."""
    rules = load_rules("changsha")
    wall = build_wall(
        rules,
        {
            0: READY + "7777m",
            1: "111m999m111p999p1s",
            2: "234m345p55s234s77s",
            3: "888m888p66s6m99s88s",
        },
        tail="9p7s",
    )
    rec, _ = play_wall(rules, wall)
    assert _win(rec) == ("gangshang_pao", [2])
    assert rec["discarder"] == 0 and _has(rec, 2, "gangshang_pao")
    assert rec["pay_win_1"] == rec["pay_win_3"] == 0 and rec["pay_win_0"] == -rec["pay_win_2"]


def test_qianggang():
    """The dealer adds the fourth 9s to his exposed pung; seat 2, waiting on 9s, robs it."""
    rules = load_rules("changsha")
    wall = build_wall(
        rules,
        {
            0: "999s" + READY + "9s",
            1: "111m999m111p999p1s",
            2: "345m678p55s78s666m",
            3: "888m888p3344p6s2m2s",
        },
    )
    rec, state = play_wall(rules, wall, melds=((0, kinds("9s")[0], MELD_PUNG),))
    assert _win(rec) == ("qianggang", [2])
    assert rec["discarder"] == 0 and _has(rec, 2, "qianggang")
    assert state["concealed"][2].sum() == 14 and state["melded"][0][kinds("9s")[0]] == 3


@pytest.mark.parametrize(
    "last, kind, winner, payer",
    [
        ("2s", "haidi_laoyue", 1, -1),  # the taker's own wait
        ("3p", "haidi_pao", 2, 1),  # another player's wait: the taker pays
    ],
)
def test_haidi(last, kind, winner, payer):
    """One tile left: the dealer throws 3s (his only bad tile); seat 1, ready, takes the
    海底 tile."""
    rules = load_rules("changsha")
    hands = {
        0: "345m678m345p678p8s3s",
        1: "345m678m345p678p2s",
        2: "222m999p777s12p88s",
        3: "111m999m111s999s1p",
    }
    wall = build_wall(rules, hands, draws=last, burn=54)
    rec, _ = play_wall(rules, wall, burn=54)
    assert _win(rec) == (kind, [winner])
    assert rec["discarder"] == payer and rec["tiles_left"] == 0 and rec["n_birds"] == 0
    assert _has(rec, winner, kind)


@pytest.mark.parametrize("guoshou", [True, False])
def test_guoshou(guoshou):
    """Seat 2 (value bot) is ready for a small win on 3s/6s and for 碰碰胡 on 4s. It passes
    the dealer's 3s; with 过手 it may not take seat 1's 4s next and self-draws it instead."""
    rules = load_rules("changsha", cs_guoshou=guoshou)
    hands = {
        0: "345m678m345p678p8s3s",
        1: "345m678m345p678p2s",
        2: "222m999p777s4555s",
        3: "1299m1129p19s667s",
    }
    wall = build_wall(rules, hands, draws="4s4s")
    melds = tuple((2, kinds(t)[0], MELD_PUNG) for t in ("2m", "9p", "7s"))
    rec, _state = play_wall(rules, wall, bots="efficiency,efficiency,value,efficiency", melds=melds)
    assert rec["winners"] == 1 << 2 and _has(rec, 2, "pengpenghu")
    assert rec["passed"] == 1 << 2  # the small win passed is recorded
    if guoshou:
        assert R.WIN_KINDS[rec["win_kind"]] == "zimo" and rec["turns"] == 2
    else:
        assert R.WIN_KINDS[rec["win_kind"]] == "dianpao" and rec["discarder"] == 1


# ----------------------------------------------------------------------------- invariants

OPTION_SETS = [
    ("changsha", {}),
    (
        "changsha",
        dict(
            cs_birds=4,
            cs_bird_mode="mul",
            cs_kong_open_tiles=4,
            cs_cap=None,
            cs_multi_ron=False,
            cs_piao=1,
            cs_haidi_bird="winning_tile",
        ),
    ),
    (
        "changsha",
        dict(
            cs_fake_pair=True,
            cs_compound="single",
            cs_multi_gangkai="mul",
            cs_qs_yizhihua=True,
            cs_qs_santong=True,
            cs_qs_eval="before_first_discard",
            cs_qs_birds="dice",
            cs_bird_origin="dealer",
            cs_guoshou_follow_exception=True,
            cs_haidi_may_decline=True,
            cs_locked_sixi=True,
        ),
    ),
    ("changsha_classic_1980s", {}),
    ("generic", {}),
    ("generic", dict(gen_multi_ron=True, gen_flowers=True, gen_baoting_lock=False)),
    ("dingque", {}),
    (
        "dingque",
        dict(dq_tiles=136, dq_allow_chow=True, dq_discard_void_first=True, dq_void_melds=True),
    ),
    ("shanghai_qhp", {}),
    (
        "shanghai_qhp",
        dict(
            sh_baopai_mutual=False,
            sh_baopai_tsumo_shares=3,
            sh_ron_payment="chuchong",
            sh_session_loss_cap=60,
            sh_multi_win_next_dealer="nearest_winner_xiajia",
            sh_diao_double=True,
            sh_qys_nine_exposed=True,
            sh_menqing_double=False,
        ),
    ),
    ("shanghai_baida", {}),
    (
        "shanghai_baida",
        dict(sh_bd_menqing_double=True, sh_kaibao=True, sh_huangfan=True, sh_lezi=40),
    ),
    ("shanghai_qiaoma", {}),
    ("shanghai_qiaoma", dict(sh_qm_hand_types="qhp", sh_qm_must_win=False, sh_baopai=True)),
    ("caishen16", {}),
    ("hongzhong112", {}),
    (
        "hongzhong112",
        dict(
            hrb_multi_ron=True,
            hrb_chi_ting_any_seat=False,
            hrb_min_concealed_to_declare=7,
            hrb_red_pair_substitutes=False,
            hrb_ron_on_bao=True,
            hrb_huanbao_trigger="three_visible",
            hrb_edge_rule="single_wait",
            hrb_dafeng_exposed_pung=True,
            hrb_fenzhang=False,
            hrb_base=5,
            hrb_draw_doubles_next=True,
        ),
    ),
    ("ne_alt", {}),
    ("ne_alt", dict(neb_three_suits=False, neb_menqing=False, neb_shoubayi_only_piao=False)),
    (
        "caishen16",
        dict(
            cai_caishen_rule="flipped_plus_one",
            cai_wild_in_melds=True,
            cai_genfeng_growth="linear",
            cai_dihu_scope="first_round",
            cai_stack_shuangfan=True,
            cai_selfdraw_double_scope="all",
            cai_maidi=1,
            cai_dingdi=1,
            cai_caishen_points=1,
            cai_kong_points=2,
            cai_discarder_pays_all=True,
            cai_reserve_tiles=10,
        ),
    ),
]
BOTS = ["efficiency", "efficiency,value,cautious,efficiency", "cautious,value,value,cautious"]


@pytest.mark.parametrize("rules_id, options", OPTION_SETS)
def test_invariants_after_every_hand(rules_id, options):
    """Each hand replays from its game's walls and dice; payments sum to zero in total and
    per source; every tile is accounted for (hands, melds, discards, the live wall, bonus
    tiles set aside); no fifth copy."""
    rules = load_rules(rules_id, **options)
    spec = WallSpec.from_rules(rules)
    g = game_config(rules)
    sources, length = g.sources, g.game_length
    reserve = g.rules_arrays.cfg[V.RESERVE]
    n = 96
    bonus = spec.is_bonus[:34]
    for b, bots in enumerate(BOTS):
        seed = 11 + b
        rows = play_rows(rules, seed, 0, n, bots, readiness=True)
        ws = walls(spec, seed, 0, n)
        want = np.bincount(spec.multiset, minlength=42)
        dice = [int(index_seed(stream_key(seed, DICE_STREAM), i)) for i in range(n)]
        for i in range(n):
            rec = dict(zip(columns(rules), rows[i].tolist()))
            first = i - i % length
            recs, st = play_walls(
                rules,
                ws[first : i + 1],
                int(rows[first][R.C_DEALER]),
                bots,
                dice_seeds=dice[first : i + 1],
                readiness=True,
            )
            again = recs[-1]
            again["index"], again["game"] = i, i // length
            assert again == rec, f"hand {i} does not replay"
            assert sum(rec[p] for p in PAY) == 0
            for src in sources:
                assert sum(rec[f"pay_{src}_{s}"] for s in range(4)) == 0
            assert rec["pay_0"] == sum(rec[f"pay_{src}_0"] for src in sources)
            # the live wall, and a reserve kept in place less its slots used (replacement
            # and 分张 tiles, indicators turned face up)
            used = [len(ws[i]) - 1 - r for r in range(reserve) if (st["reserved"] >> r) & 1]
            inside = np.ones(len(ws[i]), dtype=bool)
            inside[: st["head"]] = False
            inside[st["tail"] :] = False
            inside[used] = False
            live = ws[i][inside]
            held = st["concealed"].sum(axis=0).astype(int) + st["seen"]
            total = held + np.bincount(live, minlength=42)[:34]
            assert (total[~bonus] == want[:34][~bonus]).all(), f"hand {i}: tiles not accounted for"
            assert (held[bonus] == 0).all() and (st["melded"][:, bonus] == 0).all()
            assert ((st["concealed"] + st["melded"]) <= 4).all()
            gone = ws[i][~inside]
            set_aside = st["status"][:, ST_BONUS].sum() + st["dead"]
            assert set_aside == spec.is_bonus[gone].sum()
            assert set_aside + spec.is_bonus[live].sum() == spec.is_bonus[spec.multiset].sum()
            assert [rec[f"bonus_{s}"] for s in range(4)] == st["status"][:, ST_BONUS].tolist()
            # the seats that melded another's discard: a meld taken from a seat
            took = [(st["melds"][s, : st["n_melds"][s], M_FROM] >= 0).any() for s in range(4)]
            assert rec["claimed"] == sum(1 << s for s in range(4) if took[s])
            # tiles left to draw: the live wall less the tiles kept back (cai_reserve_tiles)
            assert rec["tiles_left"] == st["tail"] - st["head"] - reserve
            if rec["outcome"] == R.OUT_WIN:
                assert rec["n_winners"] == bin(rec["winners"]).count("1") >= 1
                # a winner is paid (under any source), unless a session loss cap stopped it
                assert any(
                    rec[f"pay_{src}_{s}"] > 0 for src in sources for s in range(4)
                ) or options.get("sh_session_loss_cap")


def test_replay_and_chunking():
    rows = play_rows("changsha", 5, 0, 32)
    parts = np.concatenate([play_rows("changsha", 5, 0, 16), play_rows("changsha", 5, 16, 16)])
    assert (rows == parts).all()
    df = play_frame("changsha", 24, seed=5, readiness=True)
    for i in (0, 9, 23):
        row = df.iloc[i]
        rec = replay("changsha", 5, int(row["index"]), readiness=True)
        assert all(rec[c] == row[c] for c in columns("changsha"))
    with pytest.raises(ValueError, match="multiple of 8"):
        play_rows("changsha", 5, 3, 8)


@pytest.mark.parametrize("rules", ["changsha", "caishen16", "hongzhong112"])
def test_readiness_changes_only_its_columns(rules):
    """Recording readiness changes no other column, and without it its columns are 0."""
    cols = columns(rules)
    ready = [cols.index(c) for c in R.READINESS]
    other = [i for i in range(len(cols)) if i not in ready]
    off = play_rows(rules, 7, 0, 64, "efficiency,value,cautious,efficiency")
    on = play_rows(rules, 7, 0, 64, "efficiency,value,cautious,efficiency", readiness=True)
    assert (off[:, other] == on[:, other]).all()
    assert (off[:, ready] == 0).all() and (on[:, ready] != 0).any()
    assert not set(R.READINESS) & set(play_frame(rules, 16, seed=7).columns)


def test_options_change_play():
    """Options are read: birds, bird mode, kong and 报听 payments, the Tencent 起手胡 end."""
    n = 400
    base = play_frame("changsha", n, seed=3)
    no_birds = play_frame(load_rules("changsha", cs_birds=0), n, seed=3)
    assert base["n_birds"].gt(0).any() and no_birds["n_birds"].eq(0).all()
    mul = play_frame(load_rules("changsha", cs_birds=4, cs_bird_mode="mul", cs_cap=None), n, seed=3)
    add = play_frame(load_rules("changsha", cs_birds=4, cs_cap=None), n, seed=3)
    assert (mul[PAY].abs().sum().sum()) > (add[PAY].abs().sum().sum())
    ends = play_frame(load_rules("changsha", cs_qs_ends_hand=True), n, seed=3)
    assert ends["outcome"].eq(R.OUT_QISHOU_END).any()
    gen = play_frame("generic", n, seed=3)
    assert gen[[f"pay_kong_{s}" for s in range(4)]].abs().sum().sum() > 0
    assert gen[[f"pay_baoting_{s}" for s in range(4)]].abs().sum().sum() > 0
    assert gen["declared"].gt(0).any() and "n_birds" not in gen
    assert "pay_kong_0" not in base and "pay_baoting_0" not in base  # changsha has neither
