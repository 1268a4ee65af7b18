"""The 16-tile 财神 game played (RULES.md §3): every type of the §3.5 table as a value table
(legal or not, units, tier, types), 跑马 (self-draw only), the claim ranking of §3.4, the
forced discard order, the 跟风 sequence of §3.4, the payment example of §3.6 (48 in all) on a
scripted wall, the dealer-pair stakes, and the invariants of played hands.

Values are the defaults (软 1, 硬 2, 双翻 4; 底分 1); the 财神 is 7z unless said (its three
copies wild). A position test builds the state the engine reads and asks the engine's own
win test (:func:`mjsim.game.wins.win_test`).
"""

from __future__ import annotations

import numpy as np
import pytest
from scripted import build_wall, kinds

from mjsim import is_win, list_rules, waits
from mjsim.game import record as R
from mjsim.game.bots import SHED_SINGLE, choose_discard, forced_discard
from mjsim.game.config import game_config
from mjsim.game.decisions import ron_claims
from mjsim.game.evaluation import n_waits
from mjsim.game.play import play_frame, play_wall, replay
from mjsim.game.scoring import caishen as CA
from mjsim.game.state import P_DEALER, P_LAST, P_TURNS, ST_READY, add_meld, new_scratch, new_state
from mjsim.game.wins import win_test, win_test_on
from mjsim.kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from mjsim.rules import RulesError, load_rules

CS = "caishen16"
P, C, K, CK = MELD_PUNG, MELD_CHOW, MELD_KONG, MELD_CKONG


def _k(tile: str) -> int:
    return kinds(tile)[0]


def _counts(tiles: str) -> np.ndarray:
    return np.bincount(kinds(tiles), minlength=34).astype(np.uint8)


def _state(rules, hands, melds=(), wild="7z", dealer=1, turns=10):
    """State and scratch with ``hands`` (seat → tiles), ``melds`` ((seat, first, MELD_*))."""
    g = game_config(rules).rules_arrays
    S = new_state()
    W = new_scratch()
    for s, tiles in hands.items():
        S.concealed[s] = _counts(tiles)
    for s, first, mtype in melds:
        add_meld(g, S, s, _k(first), mtype, -1 if mtype == CK else (s + 3) % 4)
    S.pos[P_DEALER] = dealer
    S.pos[P_TURNS] = turns
    for k in kinds(wild):
        S.wild[:, k] = True
    return g, S, W


def _value(concealed, melds=(), kind="dianpao", tile=None, rules=CS, **kw):
    """Seat 0's win test on ``concealed`` (with the winning tile): (legal, units, tier, types)."""
    g, S, W = _state(rules, {0: concealed}, [(0, f, m) for f, m in melds], **kw)
    legal, units, bits = win_test(g, S, W, 0, R.WIN_KINDS.index(kind), _k(tile) if tile else -1)
    types = {p.id for b, p in enumerate(CA.PATTERNS) if bits >> b & 1}
    return legal, units, CA.TIERS[bits >> CA.TIER_SHIFT & 3], types


NIU_MELDS = (("1m", C), ("4p", C), ("7s", C))
DANDIAO_MELDS = (("1m", C), ("4m", C), ("7p", C), ("1s", P), ("2s", C))


@pytest.mark.parametrize(
    "concealed, melds, kw, expected",
    [
        # §3.5 examples (财神 = 7z)
        ("123m456m789p111s234s9p9p", (), dict(tile="9p"), (True, 2, "ying", {"pinghu"})),
        # RULES' soft example: its 16 tiles are already a 财神牛 (123m 456m 789p 111s 234s and
        # the lone 7z), so under 跑马 it wins by self-draw only ...
        ("123m456m78p111s234s9p7z9p", (), dict(tile="9p"), (False, 0, "none", set())),
        (
            "123m456m78p111s234s9p7z9p",
            (),
            dict(kind="zimo", tile="9p"),
            (True, 2, "ying", {"caishen_niu", "zimo", "paoma"}),
        ),
        # ... and the same soft reading (7z → 9p) where the 16 tiles are not: 软 on a discard
        ("123m456m78p111s234s5s7z9p", (), dict(tile="9p"), (True, 1, "ruan", {"ruan"})),
        (
            "11m33m55m22p44p66p88s99s1z",
            (),
            dict(kind="zimo", tile="1z"),
            (True, 4, "shuangfan", {"ying_badui", "zimo", "paoma"}),
        ),
        ("11m33m55m22p44p66p88s99s1z", (), dict(tile="1z"), (False, 0, "none", set())),
        (
            "111z234m7z5p",
            NIU_MELDS,
            dict(kind="zimo", tile="5p"),
            (True, 2, "ying", {"caishen_niu", "zimo", "paoma"}),
        ),
        ("111z234m7z5p", NIU_MELDS, dict(tile="5p"), (False, 0, "none", set())),
        (
            "777z1357m2468p135s9s4z2z",
            (),
            dict(kind="zimo", tile="2z"),
            (True, 2, "ying", {"sancai_ruan", "zimo", "paoma"}),
        ),
        (
            "777z123m456m789p111s2s2s",
            (),
            dict(kind="zimo", tile="2s"),
            (True, 4, "shuangfan", {"sancai_ruan", "sancai_ying", "pinghu", "zimo", "paoma"}),
        ),
        ("9p9p", DANDIAO_MELDS, dict(tile="9p"), (True, 4, "shuangfan", {"dandiao", "pinghu"})),
        (
            "9p9p",
            DANDIAO_MELDS,
            dict(kind="zimo", tile="9p"),
            (True, 8, "shuangfan", {"dandiao", "pinghu", "zimo", "zimo_double"}),
        ),
        # a soft shape self-drawn is 硬 (自摸)
        (
            "123m456m78p111s234s5s7z9p",
            (),
            dict(kind="zimo", tile="9p"),
            (True, 2, "ying", {"zimo"}),
        ),
        # 抢杠胡 (硬)
        (
            "123m456m789p111s234s9p9p",
            (),
            dict(kind="qianggang", tile="9p"),
            (True, 2, "ying", {"pinghu", "qianggang"}),
        ),
        # 软八对: a 财神 fills a pair (硬); won on a discard, since the 16 tiles were not 8 pairs
        ("11m33m55m22p44p66p8s9s7z1z9s", (), dict(tile="9s"), (True, 2, "ying", {"ruan_badui"})),
        # 硬八对 on a discard (the 16 tiles held two singles): 双翻
        ("11m33m55m22p44p66p88s99s1z", (), dict(tile="9s"), (True, 4, "shuangfan", {"ying_badui"})),
        # quads count as two pairs
        ("1111m33m55m22p44p66p1z9s9s", (), dict(tile="9s"), (True, 4, "shuangfan", {"ying_badui"})),
        # 碰碰胡 and 清一色 (listed: ×2 self-drawn)
        (
            "111m222p333s66s",
            (("9m", P), ("1z", P)),
            dict(tile="6s"),
            (True, 4, "shuangfan", {"pengpeng", "pinghu"}),
        ),
        (
            "123m234m345m456m567m9m7z",
            (),
            dict(tile="7z", kind="zimo"),
            (True, 8, "shuangfan", {"qingyise", "zimo", "zimo_double"}),
        ),
        (
            "123m234m345m456m567m99m",
            (),
            dict(tile="9m"),
            (True, 4, "shuangfan", {"qingyise", "pinghu"}),
        ),
        # 天胡 (the dealer's 17 starting tiles) and 地胡 (on the dealer's first discard)
        (
            "123m456m789p111s234s9p9p",
            (),
            dict(kind="zimo", tile=None, dealer=0, turns=0),
            (True, 4, "shuangfan", {"pinghu", "zimo", "tianhu"}),
        ),
        (
            "123m456m789p111s234s9p9p",
            (),
            dict(tile="9p", dealer=3, turns=1),
            (True, 4, "shuangfan", {"pinghu", "dihu"}),
        ),
        # 杠后开花 ×2
        (
            "456m789p111s234s9p9p",
            (("1m", CK),),
            dict(kind="gangshang_kaihua", tile="9p"),
            (True, 4, "ying", {"pinghu", "zimo", "gangkai"}),
        ),
        # not a win: no shape, and fewer than three 财神
        ("123m456m789p111s234s9p1z", (), dict(tile="1z"), (False, 0, "none", set())),
    ],
)
def test_value_table(concealed, melds, kw, expected):
    assert _value(concealed, melds, **kw) == expected


def test_soft_readings_only_without_a_hard_one():
    """归位: three 7z as their own pung is a hard reading; the reading is recorded."""
    g, S, W = _state(CS, {0: "777z123m456m789p111s2s2s"})
    _, _, bits = win_test(g, S, W, 0, R.WIN_ZIMO, _k("2s"))
    assert bits >> CA.READING_SHIFT & 3 == CA.RD_GUIWEI and bits >> CA.CAI_SHIFT & 7 == 3
    assert bits >> CA.PAOMA_SHIFT == CA.PS_SANCAI  # its 16 tiles held the three 财神
    g, S, W = _state(CS, {0: "123m456m78p111s234s5s7z9p"})
    _, _, bits = win_test(g, S, W, 0, R.WIN_DIANPAO, _k("9p"))
    assert bits >> CA.READING_SHIFT & 3 == CA.RD_DAITI


def test_a_discarded_caishen_is_its_natural_kind():
    """Won on from a discard, a 财神 is the tile K itself: 23s5s + a held 7z do not win on a
    thrown 7z (it would, as a wildcard); 46m2s + a held 5m (财神 5m) win on a thrown 5m as
    the natural 5m (the held one stands for 2s: soft). The hand is left as it was."""
    g, S, W = _state(CS, {0: "123m456m789p111s23s5s7z"})
    S.model[CA.M_CAI] = _k("7z") + 1
    before = S.concealed[0].copy()
    assert win_test_on(g, S, W, 0, _k("7z"), R.WIN_DIANPAO)[0] is False
    assert (S.concealed[0] == before).all() and S.wild[0, _k("7z")]
    assert win_test_on(g, S, W, 0, _k("7z"), R.WIN_ZIMO)[0]  # one's own draw is wild
    g, S, W = _state(CS, {0: "123m46m456p789p111s2s5m"}, wild="5m")
    S.model[CA.M_CAI] = _k("5m") + 1
    legal, units, bits = win_test_on(g, S, W, 0, _k("5m"), R.WIN_DIANPAO)
    assert legal and units == 1 and bits & 0xFFFF == 1 << CA.T_RUAN
    assert bits >> CA.CAI_SHIFT & 7 == 1 and bits >> CA.READING_SHIFT & 3 == CA.RD_DAITI
    assert bits >> CA.PAOMA_SHIFT == CA.PS_NONE
    g, S, W = _state("shanghai_baida", {0: "123m456m789p11s23s4z"}, wild="4z")
    assert win_test_on(g, S, W, 0, _k("4z"), R.WIN_DIANPAO)[0]  # a thrown 百搭 stays wild


def test_stacked_shuangfan():
    """With cai_stack_shuangfan, 单吊 and 碰碰胡 multiply: 4 · 4; self-drawn ×2."""
    rules = load_rules(CS, cai_stack_shuangfan=True)
    melds = (("1m", P), ("4m", P), ("7p", P), ("1s", P), ("2z", P))
    assert _value("9p9p", melds, tile="9p", rules=rules)[1] == 16
    assert _value("9p9p", melds, kind="zimo", tile="9p", rules=rules)[1] == 32
    assert _value("9p9p", melds, tile="9p")[1] == 4


def test_tier_mult_is_checked():
    with pytest.raises(RulesError, match="cai_tier_mult must be a list of 3"):
        load_rules(CS, cai_tier_mult=[1, 2])


@pytest.mark.parametrize(
    "hand, melds, expected",
    [
        ("7z7z7z1357m2468p135s9s", (), CA.PS_SANCAI),
        ("11m33m55m22p44p66p88s99s", (), CA.PS_BADUI),
        ("11m33m55m22p44p66p88s7z9s", (), CA.PS_BADUI),
        ("11m33m55m22p44p66p88s1z9s", (), CA.PS_NONE),
        ("111z234m7z", NIU_MELDS, CA.PS_NIU),
        ("7z", DANDIAO_MELDS, CA.PS_NIU),
        ("9p", DANDIAO_MELDS, CA.PS_NONE),
    ],
)
def test_paoma_states(hand, melds, expected):
    g, S, _ = _state(CS, {0: hand}, [(0, f, m) for f, m in melds])
    assert CA.paoma_state(g, S, 0, S.concealed[0]) == expected


#: a 财神牛 whose third meld is a melded pung of 8s, and a 财神单吊 whose pung is 1s: the
#: self-drawn 8s (1s) is then the kind's fourth copy in sight, and the lone 财神 beside it
#: would stand for a fifth
NIU_PUNG_MELDS = (("1m", C), ("4p", C), ("8s", P))


@pytest.mark.parametrize(
    "concealed, melds, like, tile",
    [
        ("111z234m7z8s", NIU_PUNG_MELDS, ("111z234m7z5p", NIU_MELDS, "5p"), "8s"),
        ("7z1s", DANDIAO_MELDS, ("7z9p", DANDIAO_MELDS, "9p"), "1s"),
    ],
    ids=["caishen_niu", "caishen_dandiao"],
)
def test_lone_caishen_wins_on_a_fourth_copy(concealed, melds, like, tile):
    """§3.4: in the 财神牛 and 财神单吊 states any self-drawn tile completes the hand (不管摸什么),
    the fourth copy of a melded pung's kind too — valued as the same state won on another
    tile; never on a discard (跑马)."""
    won = _value(concealed, melds, kind="zimo", tile=tile)
    assert won[0] and won == _value(like[0], like[1], kind="zimo", tile=like[2])
    assert "caishen_niu" in won[3] and "paoma" in won[3]
    assert _value(concealed, melds, kind="dianpao", tile=tile)[0] is False
    g, S, W = _state(CS, {0: concealed.replace(tile, "", 1)}, [(0, f, m) for f, m in melds])
    counts = S.concealed[0]
    assert CA.paoma_state(g, S, 0, counts) == CA.PS_NIU
    # every kind it may draw is a wait, the fourth copy's among them
    assert n_waits(g, S, W, np.int64(0), counts, np.int64(0), np.int64(34)) == 34
    assert W.waits[_k(tile)]


def test_lone_caishen_in_the_public_api():
    """is_win and waits read 财神牛 / 财神单吊 as the engine does: the self-drawn tile
    (``+8s``) completes the hand whatever it is; without it marked, or won on a discard, a
    wild tile standing for a fifth copy is no win (test_wild_melds.py), and the rule is
    caishen16's alone."""
    niu = "[123m][456p][888s]111z234m7z"
    assert is_win(niu + " +8s", rules=CS, wild="7z")
    assert is_win(niu + " +8s (tsumo)", rules=CS, wild="7z")
    assert not is_win(niu + " +8s (ron)", rules=CS, wild="7z")
    assert not is_win(niu + "8s", rules=CS, wild="7z")  # which tile came last is unknown
    assert not is_win(niu + " +8s", rules=CS)  # no wild tile: 7z is itself
    assert _k("8s") in {w.kind for w in waits(niu, rules=CS, wild="7z")}
    assert len(waits(niu, rules=CS, wild="7z")) == 34
    assert is_win("[123m][456m][789p][111s][234s]7z +1s", rules=CS, wild="7z")
    assert [r.id for r in list_rules() if r.lone_wild] == [CS]


@pytest.mark.parametrize(
    "hand",
    [
        "[123m][456p][888s]111z234m7z",  # 财神牛 beside a melded pung of 8s
        "[123m][456m][789p][111s][234s]7z",  # 财神单吊
        "123m456p789s111z234m7z",  # 财神牛, every meld concealed
        "123m456p789s111z23m7z8s",  # no lone 财神: an ordinary wait
    ],
)
def test_lone_caishen_waits_batch_agrees_with_waits(hand):
    """waits_batch reads 财神牛 / 财神单吊 as waits does, row by row."""
    from mjsim import parse_hand, waits_batch

    h = parse_hand(hand, CS)
    mask, _ = waits_batch(h.counts[None, :], CS, n_melds=len(h.melds), wild="7z")
    assert set(np.flatnonzero(mask[0])) == {w.kind for w in waits(hand, rules=CS, wild="7z")}


def test_claim_ranking_largest_hand_wins():
    """Seat 1 (平胡, 硬) and seat 2 (单吊, 双翻) both win on seat 0's 9p: seat 2 takes it;
    two equal hands: the first in turn order from the discarder."""
    hands = {1: "123p456p789s222s345s9p", 2: "9p", 0: "1z", 3: "2z"}
    g, S, W = _state(CS, hands, [(2, f, m) for f, m in DANDIAO_MELDS], dealer=0)
    for s in (1, 2):
        S.status[s, ST_READY] = 1
    W.offered[0] = _k("9p")
    bots = np.zeros(4, np.int64)
    assert ron_claims(g, S, W, bots, 0, 1, R.WIN_DIANPAO) == 1 << 2
    hands = {1: "123p456p789s222s345s9p", 3: "123m456m789m111z234m9p", 0: "1z"}
    g, S, W = _state(CS, hands, dealer=0)
    for s in (1, 3):
        S.status[s, ST_READY] = 1
    W.offered[0] = _k("9p")
    assert ron_claims(g, S, W, bots, 0, 1, R.WIN_DIANPAO) == 1 << 1
    # the order of §3.4 inside 双翻 and 硬
    order = [
        CA.T_DANDIAO,
        CA.T_YING_BADUI,
        CA.T_QINGYISE,
        CA.T_PENGPENG,
        CA.T_SANCAI_YING,
        CA.T_QIANGGANG,
        CA.T_PINGHU,
        CA.T_RUAN,
    ]
    ranks = [CA.rank(1 << t) for t in order]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert CA.rank((1 << CA.T_DIHU) | (1 << CA.T_PINGHU)) == CA.rank(1 << CA.T_PINGHU)


def test_forced_discard_order():
    """Follow the 上家's honour held single; else shed a single honour; the 财神 exempt."""
    g, S, W = _state(CS, {0: "1z2z55z7z123m456m789p11s5s"}, wild="7z")
    S.pos[P_LAST] = _k("2z")
    assert forced_discard(g, S, 0, S.concealed[0]) == _k("2z")
    assert choose_discard(g, S, W, 0, 0) == _k("2z")
    S.pos[P_LAST] = _k("5z")  # held as a pair: not followed
    assert forced_discard(g, S, 0, S.concealed[0]) == SHED_SINGLE
    assert choose_discard(g, S, W, 0, 0) in (_k("1z"), _k("2z"))
    g, S, W = _state(CS, {0: "55z7z123m456m789p11s2s"}, wild="7z")
    assert forced_discard(g, S, 0, S.concealed[0]) == -1
    assert forced_discard(game_config("generic").rules_arrays, S, 0, S.concealed[0]) == -1


def _discards(sequence, rules=CS):
    """Run ``discarded`` over ``(seat, tile, claimed)`` as the engine does; the 跟风 row."""
    g, S, _ = _state(rules, {})
    rec = np.zeros(len(game_config(rules).columns), np.int32)
    for s, tile, claimed in sequence:
        CA.discarded(g, S, rec, s, _k(tile))
        S.pos[P_LAST] = -1 if claimed else _k(tile)
    return S.pay[CA.SRC_GENFENG].tolist(), rec


def test_genfeng_sequence_of_3_4():
    """Seat 0 discards 1z and the others follow: 1 to each; then 6z followed: 2 to each."""
    seq = [
        (0, "1z", 0),
        (1, "1z", 0),
        (2, "1z", 0),
        (3, "1z", 0),
        (0, "6z", 0),
        (1, "6z", 0),
        (2, "6z", 0),
        (3, "6z", 0),
    ]
    pay, rec = _discards(seq)
    assert pay == [-9, 3, 3, 3]
    col = R.N_COMMON
    assert rec[col + CA.C_GENFENG] == 2 and rec[col + CA.C_GENFENG_TOP] == 2
    # linear growth: 1 then 2 as well; a third event would cost 3 (double: 4)
    pay, _ = _discards(seq + [(0, "2z", 0), (1, "2z", 0), (2, "2z", 0), (3, "2z", 0)])
    assert pay == [-21, 7, 7, 7]
    pay, _ = _discards(
        seq + [(0, "2z", 0), (1, "2z", 0), (2, "2z", 0), (3, "2z", 0)],
        load_rules(CS, cai_genfeng_growth="linear"),
    )
    assert pay == [-18, 6, 6, 6]


def test_genfeng_breaks():
    """白 is never followed; a claim or a different tile breaks the chain; an unfollowed
    honour ends the discarder's run; no 跟风 when the option is off."""

    def four(t):
        return [(i, t, 0) for i in range(4)]

    assert _discards(four("5z"))[0] == [0, 0, 0, 0]
    assert _discards([(0, "1z", 0), (1, "1z", 1), (2, "1z", 0), (3, "1z", 0)])[0] == [0] * 4
    assert _discards([(0, "1z", 0), (1, "1z", 0), (2, "3m", 0), (3, "1z", 0)])[0] == [0] * 4
    broken = four("1z") + [(0, "2z", 0), (1, "3m", 0), (2, "2z", 0), (3, "2z", 0)] + four("6z")
    assert _discards(broken)[0] == [-6, 2, 2, 2]
    assert _discards(four("1z"), load_rules(CS, cai_genfeng=False))[0] == [0] * 4


# ----------------------------------------------------------------------------- scripted


def _play(hands, melds=(), draws="", tail="", rules=CS, dealer=0):
    rules = load_rules(rules) if isinstance(rules, str) else rules
    wall = build_wall(rules, hands, dealer=dealer, draws=draws, tail=tail)
    melds = tuple((s, _k(t), m, src) for s, t, m, src in melds)
    return play_wall(rules, wall, dealer, "efficiency", melds=melds)


def _pays(rec, source="win"):
    return [rec[f"pay_{source}_{s}"] for s in range(4)]


#: seven pairs and three singles, far from a shape win; 1z his only single honour, so the
#: forced order makes him throw it first, a tile nobody can claim; no 财神 (9s)
DEALER = "9m4m7m2p5p8p3s6s 9m4m7m2p5p8p3s 9p 1z"


def test_payment_example_3_6():
    """A non-dealer self-draws 碰碰胡 on a kong's replacement: 1·4·2·2 = 16 from each, 48."""
    hands = {0: DEALER, 1: "1111m222m333p444p55s6s"}
    rec, _ = _play(hands, draws="5s", tail="6s9s")
    assert rec["wild_kind"] == _k("9s")
    assert R.WIN_KINDS[rec["win_kind"]] == "gangshang_kaihua" and rec["winners"] == 1 << 1
    assert rec["units_1"] == 16 and _pays(rec) == [-16, 48, -16, -16]
    assert rec["type_1"] == 1 + CA.TYPES.index("pengpeng") and rec["tier_1"] == 3


def test_dealer_stakes():
    """买底 and 顶底 raise the base of every payment between the dealer and another."""
    hands = {0: DEALER, 1: "1111m222m333p444p55s6s"}
    rules = load_rules(CS, cai_maidi=1, cai_dingdi=1)
    rec, _ = _play(hands, draws="5s", tail="6s9s", rules=rules)
    assert _pays(rec) == [-48, 80, -16, -16]


def test_dealer_keeps_the_deal():
    hands = {0: DEALER, 1: "1111m222m333p444p55s6s"}
    rec, _ = _play(hands, draws="5s", tail="6s9s")
    assert rec["next_dealer"] == 1  # a non-dealer won: the deal passes to the 下家
    rec, _ = _play({0: "123m456m789p111s234s9p9p"}, tail="9s")
    assert R.WIN_KINDS[rec["win_kind"]] == "zimo" and rec["next_dealer"] == 0
    assert rec["patterns_0"] >> CA.T_TIANHU & 1


# ----------------------------------------------------------------------------- played


def _check_hands(df):
    g = game_config(CS)
    for src in g.sources:
        assert (df[[f"pay_{src}_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    won = (df["outcome"] == R.OUT_WIN).to_numpy()
    assert (df.loc[won, "n_winners"] == 1).all()
    for s in range(4):
        mine = won & (df["winners"].to_numpy() >> s & 1 == 1)
        assert (df.loc[mine, f"type_{s}"] > 0).all() and (df.loc[~mine, f"type_{s}"] == 0).all()
        assert (df.loc[mine, f"units_{s}"] > 0).all()
        # 跑马 wins are self-drawn; a win on a discard is never one
        paoma = mine & (df[f"patterns_{s}"].to_numpy() >> CA.B_PAOMA & 1 == 1)
        assert np.isin(df.loc[paoma, "win_kind"], R.SELF_DRAWN).all()
        # ... and the state was seen between turns (at the deal or after a discard), unless
        # it arose inside the winner's own turn, by a kong before the replacement
        between = paoma & (df["win_kind"] != R.WIN_GANGKAI).to_numpy()
        assert (df.loc[between, "paoma"].to_numpy() >> s & 1 == 1).all()
        assert ((df[f"paoma_state_{s}"] > 0).to_numpy() == paoma).all()
    dealer_won = won & (df["winners"].to_numpy() >> df["dealer"].to_numpy() & 1 == 1)
    keeps = dealer_won | (df["outcome"] == R.OUT_DRAW).to_numpy()
    assert (df.loc[keeps, "next_dealer"] == df.loc[keeps, "dealer"]).all()
    assert (df.loc[~keeps, "next_dealer"] == (df.loc[~keeps, "dealer"] + 1) % 4).all()
    assert (df["wild_kind"] >= 0).all()


def test_played_hands():
    """Payments sum to zero per source, one winner, types and units, 跑马 self-drawn, the
    dealer keeps the deal; 跟风 happens and replays agree."""
    bots = "efficiency,value,cautious,efficiency"
    df = play_frame(CS, 320, seed=4, bots=bots)
    _check_hands(df)
    assert (df["outcome"] == R.OUT_WIN).sum() > 100
    assert df["genfeng"].sum() > 0 and df["paoma"].sum() > 0
    for i in (0, 17, 319):
        rec = replay(CS, 4, i, bots)
        assert all(rec[c] == df.iloc[i][c] for c in df.columns if c != "seed")


def test_tianhu_in_play_matches_the_exact_deal_odds():
    """The dealer wins as dealt (天胡: a complete hand or three 财神) exactly as often in
    played hands as the exact engine says of his 17 tiles and the indicator: 20,000 hands
    within 4 standard errors."""
    from mjsim.stats.exact_shanten import exact_shanten

    r = exact_shanten(CS, 17)
    count = r.counts.get(-1, 0) + sum(
        n for h, by in r.by_wild.items() if h >= 3 for s, n in by.items() if s != -1
    )
    p = count / r.total
    df = play_frame(CS, 20_000, seed=9)
    tianhu = np.zeros(len(df), bool)
    for s in range(4):
        tianhu |= df[f"patterns_{s}"].to_numpy() >> CA.T_TIANHU & 1 == 1
    assert (tianhu == ((df["win_kind"] == R.WIN_ZIMO) & (df["turns"] == 0))).all()
    n = len(df)
    assert abs(tianhu.mean() - p) < 4 * np.sqrt(p * (1 - p) / n)
    assert 0.001 < p < 0.003  # 1 in 572: three 财神 are most of it
