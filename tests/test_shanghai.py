"""The three Shanghai games played (RULES.md §5): the worked examples of §5.3–5.10 as a value
table (legal or not, type, H, V and its items), scripted walls for 八花齐, 杠开 (kong and
flower replacement), 大吊车, 抢杠, 开宝 and each 承包 payment case of §5.7, 荒番 across the
hands of a game, and the invariants of played hands.

Values: b0 = 1, L = 20 (the defaults). A position test builds the state the engine reads and
asks the engine's own win test (:func:`mjsim.game.wins.win_test`); a scripted wall is played
by the engine from its deal (:func:`tests.scripted.build_wall`), efficiency bots throughout.
"""

from __future__ import annotations

import numpy as np
import pytest
from scripted import build_wall, kinds

from mjsim.game import record as R
from mjsim.game.config import game_config
from mjsim.game.decisions import barred, pass_win, ron_claims
from mjsim.game.play import play_frame, play_wall, play_walls, replay
from mjsim.game.scoring import shanghai as SH
from mjsim.game.scoring import win_value
from mjsim.game.state import ST_BONUS, ST_DECLARED, ST_READY, add_meld, new_scratch, new_state
from mjsim.game.wins import win_test
from mjsim.kernels.rng import index_seed, stream_key
from mjsim.kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from mjsim.notation import parse_hand
from mjsim.rules import RulesError, load_rules
from mjsim.walls import DICE_STREAM, walls

QHP, BAIDA, QIAOMA = "shanghai_qhp", "shanghai_baida", "shanghai_qiaoma"
L = 20
#: dice seeds whose opening roll is not 开宝 (6, 1) and is (1, 1)
NO_KAIBAO, KAIBAO = 0, 3


def _k(tile: str) -> int:
    return kinds(tile)[0]


def _value(
    rules,
    concealed,
    melds=(),
    flowers=0,
    kind="dianpao",
    tile=None,
    kaibao=False,
    huangfan=False,
    wild="",
    declared=False,
):
    """The engine's win test of seat 0 holding ``concealed`` (with the winning tile) and
    ``melds`` (``(first tile, MELD_*)``): ``(legal, V, type, H, items)``."""
    g = game_config(rules).rules_arrays
    S = new_state()
    W = new_scratch()
    S.concealed[0] = parse_hand(concealed).counts
    for first, mtype in melds:
        add_meld(g, S, 0, _k(first), mtype, -1 if mtype == MELD_CKONG else 2)
    S.status[0, ST_BONUS] = flowers
    S.status[0, ST_DECLARED] = declared
    S.model[SH.M_KAIBAO_ON] = kaibao
    S.model[SH.M_HUANGFAN_ON] = huangfan
    for k in kinds(wild):
        S.wild[:, k] = True
    t = _k(tile) if tile else -1
    if kind == "bonus":  # 八花齐 wins by the flowers alone, as the engine settles it
        legal, v, bits = win_value(g, W, S.concealed[0], S, 0, R.WIN_BONUS, -1)
    else:
        legal, v, bits = win_test(g, S, W, 0, R.WIN_KINDS.index(kind), t)
    items = {p.id for b, p in enumerate(SH.PATTERNS) if bits >> b & 1}
    return legal, v, SH.TYPES[bits >> SH.TYPE_SHIFT & 15], bits >> SH.H_SHIFT, items


P, C, K, CK = MELD_PUNG, MELD_CHOW, MELD_KONG, MELD_CKONG


@pytest.mark.parametrize(
    "concealed, melds, kw, expected",
    [
        # §5.3 / §5.5: [555p][777s] 111z999m2s +2s (ron), flowers f1 f5: H = 2 + 1, V = 1 + 3
        (
            "111z999m22s",
            (("5p", P), ("7s", P)),
            dict(flowers=2, tile="2s"),
            (True, 4, "pengpeng", 3, set()),
        ),
        # 123m456m789m111z5z +5z (tsumo): 混一色, 门清 — R = 1 + 1, doubled
        (
            "123m456m789m111z55z",
            (),
            dict(kind="zimo", tile="5z"),
            (True, 4, "hunyise", 1, {"menqing"}),
        ),
        # 1234z1234z5567z7z +6z: 风一色 in any arrangement, 2L (门清 cannot pass the 2L cap)
        (
            "11223344556677z",
            (),
            dict(tile="6z"),
            (True, 2 * L, "fengyise", 0, {"menqing", "capped"}),
        ),
        # 111z222z555z666z77z: 风碰, 4L; H = 1 + 1 + 2 + 2 (winds 1, dragons 2 per pung)
        (
            "111222555666z77z",
            (),
            dict(tile="7z"),
            (True, 4 * L, "fengpeng", 6, {"menqing", "capped"}),
        ),
        # 123m456p789s111z22m: not legal (no 清混碰 type)
        ("123m456p789s111z22m", (), dict(tile="2m"), (False, 0, "none", 0, set())),
        # 大吊车 [123m][456m][789m][111z] 5z +5z: H = 1, R = 2, raised to one 勒子
        (
            "55z",
            (("1m", C), ("4m", C), ("7m", C), ("1z", P)),
            dict(tile="5z"),
            (True, L, "hunyise", 1, {"dadiaoche", "raised"}),
        ),
        # 清碰 with 开宝: 2L, doubled = 4 勒子
        (
            "222333444m55m",
            (("1m", P),),
            dict(tile="5m", kaibao=True),
            (True, 4 * L, "qingpeng", 0, {"kaibao"}),
        ),
        # 风碰 with 荒番: 4L doubled = 8 勒子
        (
            "222555666z77z",
            (("1z", P),),
            dict(tile="7z", huangfan=True),
            (True, 8 * L, "fengpeng", 6, {"huangfan"}),
        ),
        # 清一色 with a chow: one 勒子; 门清 清一色: 2L
        ("456m789m999m11m", (("1m", C),), dict(tile="1m"), (True, L, "qingyise", 0, set())),
        ("123m456m789m123m11m", (), dict(tile="1m"), (True, 2 * L, "qingyise", 0, {"menqing"})),
        # 混碰: one 勒子 (门清 2L)
        ("111m222m333m11z", (("5m", P),), dict(tile="1z"), (True, L, "hunpeng", 0, set())),
        # 碰碰胡 in three suits, 门清 and self-drawn: R = 1 + 1 (4z pung), doubled
        (
            "111m222p333s444z55z",
            (),
            dict(kind="zimo", tile="5z"),
            (True, 4, "pengpeng", 1, {"menqing"}),
        ),
        # 杠开 on a concealed kong (H 2 + 0): R = 3, 门清 6, raised to one 勒子
        (
            "234m567m789m55z",
            (("1m", CK),),
            dict(kind="gangshang_kaihua", tile="5z"),
            (True, L, "hunyise", 2, {"menqing", "gangkai", "raised"}),
        ),
        # a hand at the cap keeps its value on 杠开: 清一色 = L
        (
            "234567789m55m",
            (("1m", P),),
            dict(kind="gangshang_kaihua", tile="5m"),
            (True, L, "qingyise", 0, {"gangkai"}),
        ),
        # 八花齐: 2L whatever the tiles; H counts the eight flowers
        (
            "123m456p789s11z",
            (("9m", P),),
            dict(kind="bonus", flowers=8),
            (True, 2 * L, "bahua", 8, set()),
        ),
        # kongs' flowers (§5.4): exposed suited kong 1, concealed wind kong 3, dragon pung 2
        (
            "555z99m",
            (("1m", K), ("2z", CK), ("3m", P)),
            dict(tile="9m"),
            (True, L, "hunpeng", 1 + 3 + 2, set()),
        ),
    ],
)
def test_qhp_value_table(concealed, melds, kw, expected):
    assert _value(QHP, concealed, melds, **kw) == expected


def test_qhp_multipliers_and_diao_double():
    """sh_hys_mult doubles a 混一色 before 门清; sh_diao_double a 清一色 大吊车."""
    rules = load_rules(QHP, sh_hys_mult=2)
    assert _value(rules, "123m456m789m111z55z", kind="zimo", tile="5z")[1] == 8
    melds = (("1m", C), ("4m", C), ("7m", C), ("2m", P))
    assert _value(QHP, "55m", melds, tile="5m")[1:3] == (L, "qingyise")
    _legal, v, _, _, items = _value(load_rules(QHP, sh_diao_double=True), "55m", melds, tile="5m")
    assert v == 2 * L and {"dadiaoche", "diao_double"} <= items
    pungs = tuple((t, P) for t in ("1m", "2m", "3m", "4m"))  # 清碰 is 清一色 too: doubled
    assert _value(load_rules(QHP, sh_diao_double=True), "55m", pungs, tile="5m")[1:3] == (
        4 * L,
        "qingpeng",
    )


def test_concealed_kongs_are_not_dadiaoche():
    """大吊车 needs four exposed melds: four concealed kongs are 门清 (混碰, 2L)."""
    kongs = tuple((t, CK) for t in ("1m", "2m", "3m", "4m"))
    assert _value(QHP, "55z", kongs, kind="zimo", tile="5z") == (
        True,
        2 * L,
        "hunpeng",
        4 * 2,
        {"menqing"},
    )


def test_unmodelled_options_are_refused():
    with pytest.raises(RulesError, match="sh_honours_are_feng"):
        game_config(load_rules(QHP, sh_honours_are_feng=False))
    with pytest.raises(RulesError, match="八花齐"):
        game_config(load_rules(QHP, sh_dragons_are_flowers=True))


def test_baida_value_table():
    """§5.9: indicator 9m, 1m wild; 234p567p789s33z5s1m +6s wins (1m as 4s or 7s): V = b0.
    吊百搭 (the pair a 百搭 and the winning tile) and 大吊车 each double (b0 + H)."""
    assert _value(BAIDA, "234p567p789s33z56s1m", tile="6s", wild="1m") == (
        True,
        1,
        "standard",
        0,
        {"menqing"},
    )
    # without the wild the same tiles do not win
    assert not _value(BAIDA, "234p567p789s33z56s1m", tile="6s")[0]
    # 吊百搭: 234p567p789s111z with 1m, +5s: the pair is 1m + 5s; H = 1 (111z)
    assert _value(BAIDA, "234p567p789s111z5s1m", tile="5s", wild="1m") == (
        True,
        4,
        "standard",
        1,
        {"menqing", "diao_baida"},
    )
    # 大吊车 and 吊百搭 together with a flower: (1 + 1) · 2 · 2
    melds = (("2p", C), ("5p", C), ("7s", C), ("1z", P))
    assert _value(BAIDA, "5s1m", melds, flowers=0, tile="5s", wild="1m") == (
        True,
        8,
        "standard",
        1,
        {"dadiaoche", "diao_baida"},
    )
    # 门清 doubles only with sh_bd_menqing_double
    assert (
        _value(
            load_rules(BAIDA, sh_bd_menqing_double=True),
            "234p567p789s33z56s1m",
            tile="6s",
            wild="1m",
        )[1]
        == 2
    )


def test_qiaoma_value():
    """§5.10: V = b0 + H, and no win before 报听."""
    assert _value(QIAOMA, "123m456p789s111z22s", flowers=3, tile="2s", declared=True) == (
        True,
        5,
        "standard",
        4,
        {"menqing"},
    )
    assert not _value(QIAOMA, "123m456p789s111z22s", tile="2s")[0]


def test_value_options_are_checked():
    with pytest.raises(RulesError, match="needs sh_lezi"):
        game_config(load_rules(QHP, sh_lezi=None))


# ----------------------------------------------------------------------------- scripted


def _play(rules, hands, melds=(), draws="", tail="", dice_seed=NO_KAIBAO, bots="efficiency"):
    rules = load_rules(rules) if isinstance(rules, str) else rules
    wall = build_wall(rules, hands, draws=draws, tail=tail)
    melds = tuple((s, _k(t), m, src) for s, t, m, src in melds)
    return play_wall(rules, wall, 0, bots, melds=melds, dice_seed=dice_seed)


def _pays(rec, source="win"):
    return [rec[f"pay_{source}_{s}"] for s in range(4)]


def _won(rec):
    return R.WIN_KINDS[rec["win_kind"]], [s for s in range(4) if rec["winners"] >> s & 1]


#: the dealer's 14 tiles: 九莲宝灯 in p plus the tile he throws (ready after it)
def _ready_dealer(throw, suit="p"):
    return "1112345678999" + suit + throw


def test_ron_example_5_5():
    """[555p][777s] 111z999m2s +2s (ron), flowers f1 f5: the discarder pays 4 (§5.5)."""
    rec, _state = _play(
        QHP,
        {0: _ready_dealer("2s"), 1: "555p777s111z99m f1f5"},
        melds=((1, "5p", P, 2), (1, "7s", P, 3)),
        tail="2s9m",
    )
    assert _won(rec) == ("dianpao", [1]) and rec["discarder"] == 0
    assert (rec["type_1"], rec["flowers_1"], rec["units_1"]) == (SH.TYPES.index("pengpeng"), 3, 4)
    assert rec["bonus_1"] == 2 and _pays(rec) == [-4, 4, 0, 0] and rec["kaibao"] == 0


def test_tsumo_and_kaibao():
    """混一色 门清 self-drawn at the deal: each pays 4; with 开宝 dice (1, 1) each pays 8."""
    hands = {0: "123m456m789m111z55z"}
    rec, _ = _play(QHP, hands)
    assert _won(rec) == ("zimo", [0]) and _pays(rec) == [12, -4, -4, -4]
    rec, _ = _play(QHP, hands, dice_seed=KAIBAO)
    assert rec["kaibao"] == 1 and (rec["dice_0"], rec["dice_1"]) == (1, 1)
    assert _pays(rec) == [24, -8, -8, -8]


def test_dadiaoche_ron():
    """[123m][456m][789m][111z] 5z +5z (ron): raised to one 勒子, the discarder pays 20."""
    rec, _ = _play(
        QHP,
        {0: _ready_dealer("5z"), 1: "123m456m789m111z5z"},
        melds=((1, "1m", C, 0), (1, "4m", C, 0), (1, "7m", C, 2), (1, "1z", P, 3)),
    )
    assert _won(rec) == ("dianpao", [1]) and rec["units_1"] == L
    assert _pays(rec) == [-L, L, 0, 0] and rec["baopai_pairs"] == 0


def test_gangkai_on_a_kong():
    """The dealer's concealed kong of 1m draws 5z from the tail: 杠开, raised to 20 each."""
    rec, _ = _play(QHP, {0: "1111m234m567m789m5z"}, tail="5z")
    assert _won(rec) == ("gangshang_kaihua", [0]) and rec["kongs"] == 1
    assert rec["units_0"] == L and _pays(rec) == [3 * L, -L, -L, -L]


def test_gangkai_on_a_flower():
    """Seat 1 draws f1, set aside; its replacement from the tail (5z) completes the hand."""
    rec, _ = _play(QHP, {0: _ready_dealer("9s"), 1: "123m456m789m111z5z"}, draws="f1", tail="5z")
    assert _won(rec) == ("gangshang_kaihua", [1]) and rec["bonus_1"] == 1
    assert rec["flowers_1"] == 2 and rec["units_1"] == L and _pays(rec) == [-L, 3 * L, -L, -L]


def test_bahua_the_moment_the_eighth_flower_is_set_aside():
    """Seat 1 holds seven flowers from the deal and draws the eighth: 八花齐, 2L from each."""
    rec, _ = _play(QHP, {0: _ready_dealer("9s"), 1: "f1f2f3f4f5f6f7 111z222z"}, draws="f8")
    assert _won(rec) == ("bonus", [1]) and rec["bonus_1"] == 8
    assert rec["type_1"] == SH.TYPES.index("bahua") and rec["units_1"] == 2 * L
    assert _pays(rec) == [-2 * L, 6 * L, -2 * L, -2 * L]


def test_qianggang_is_paid_by_the_konger():
    """The dealer adds 9s to his pung; seat 2 (123s456s78s111z55z) robs it: 3V from him."""
    hands = {0: "999s9s1112345678m", 2: "123s456s78s111z55z"}
    rec, _ = _play(QHP, hands, melds=((0, "9s", P, 3),))
    assert _won(rec) == ("qianggang", [2]) and rec["discarder"] == 0
    assert rec["units_2"] == 4 and _pays(rec) == [-12, 0, 12, 0]


# ---- 承包 (§5.7): A's three claims on B's discards make A and B liable to each other


#: seat 1 with three chows claimed from ``source`` and 111z5z: 混一色 waiting on 5z, V = 2
def _three_claims(winner, source):
    return tuple((winner, t, C, source) for t in ("1m", "4m", "7m"))


def test_baopai_ron_by_the_liable_player():
    rec, _ = _play(
        QHP, {0: _ready_dealer("5z"), 1: "123m456m789m111z5z"}, melds=_three_claims(1, 0)
    )
    assert _won(rec) == ("dianpao", [1]) and rec["units_1"] == 2
    assert rec["baopai_pairs"] == 1 << (4 * 1 + 0)
    assert _pays(rec, "baopai") == [-4, 4, 0, 0] and _pays(rec) == [0, 0, 0, 0]


def test_nine_exposed_feeder_pays_the_whole_win():
    """清一色九张落地 (§5.8): three exposed m melds; the feeder (also the liable player) pays
    the whole win, 3V, as a plain win payment."""
    rules = load_rules(QHP, sh_qys_nine_exposed=True)
    rec, _ = _play(
        rules, {0: _ready_dealer("5z"), 1: "123m456m789m111z5z"}, melds=_three_claims(1, 0)
    )
    assert _won(rec) == ("dianpao", [1]) and rec["units_1"] == 2
    assert _pays(rec) == [-6, 6, 0, 0] and _pays(rec, "baopai") == [0, 0, 0, 0]


def test_baopai_ron_by_an_unrelated_ready_player():
    """Seat 2 (three claims on seat 1) wins on the ready dealer's 5z: V each from both."""
    rec, _ = _play(
        QHP, {0: _ready_dealer("5z"), 2: "123m456m789m111z5z"}, melds=_three_claims(2, 1)
    )
    assert _won(rec) == ("dianpao", [2])
    assert _pays(rec, "baopai") == [-2, -2, 4, 0]


def test_baopai_ron_by_an_unrelated_player_not_ready():
    """The dealer (one_suit, a shanten of 1) is not ready after throwing 5z: he pays 2V
    alone."""
    melds = tuple((2, t, C, 1) for t in ("1p", "4p", "7p"))
    rec, _state = _play(QHP, {0: "1124466688899m5z", 2: "123p456p789p111z5z"}, melds=melds)
    assert _won(rec) == ("dianpao", [2]) and rec["win_tile"] == _k("5z")
    assert _pays(rec, "baopai") == [-4, 0, 4, 0]


@pytest.mark.parametrize("shares", [5, 3])
def test_baopai_tsumo(shares):
    """The dealer (three claims on seat 1) self-draws: seat 1 pays 5V (or 3V) alone."""
    rules = load_rules(QHP, sh_baopai_tsumo_shares=shares)
    rec, _ = _play(rules, {0: "123m456m789m111z55z"}, melds=_three_claims(0, 1))
    assert _won(rec) == ("zimo", [0]) and rec["units_0"] == 2
    assert _pays(rec, "baopai") == [2 * shares, -2 * shares, 0, 0]


@pytest.mark.parametrize("liable, expected", [(3, [-6, 0, 12, -6]), (0, [-6, 0, 6, 0])])
def test_baopai_qianggang(liable, expected):
    """Seat 2 robs the dealer's added kong: the konger pays 3V and the liable player 3V more;
    a liable konger pays 3V once."""
    melds = ((0, "9s", P, 3), (2, "1s", C, liable), (2, "4s", C, liable), (2, "1z", P, liable))
    rec, _ = _play(QHP, {0: "999s9s1112345678m", 2: "123s456s78s111z55z"}, melds=melds)
    assert _won(rec) == ("qianggang", [2]) and rec["units_2"] == 2
    assert _pays(rec, "baopai") == expected


def test_baopai_both_winners_of_a_relation():
    """Seats 1 and 2 (related) both win on the ready dealer's 5z: he pays each V; the nearest
    winner deals next."""
    rec, _ = _play(
        QHP,
        {0: _ready_dealer("5z", "s"), 1: "123m456m789m111z5z", 2: "123p456p789p222z5z"},
        melds=_three_claims(1, 2),
    )
    assert _won(rec) == ("dianpao", [1, 2]) and rec["next_dealer"] == 1
    assert (rec["units_1"], rec["units_2"]) == (2, 4)
    assert _pays(rec, "baopai") == [-6, 2, 4, 0]


def test_optional_ron_payments():
    """出冲: the discarder 2V, the others V; 包冲: the discarder 3V (§5.8)."""
    hands = {0: _ready_dealer("2s"), 1: "555p777s111z99m f1f5"}
    melds = ((1, "5p", P, 2), (1, "7s", P, 3))
    rec, _ = _play(load_rules(QHP, sh_ron_payment="chuchong"), hands, melds, tail="2s9m")
    assert _pays(rec) == [-8, 16, -4, -4]
    rec, _ = _play(load_rules(QHP, sh_ron_payment="baochong"), hands, melds, tail="2s9m")
    assert _pays(rec) == [-12, 12, 0, 0]


# ----------------------------------------------------------------------------- played


def _check_hands(rules, df):
    pay = df[[f"pay_{s}" for s in range(4)]].to_numpy()
    assert (pay.sum(axis=1) == 0).all()
    for src in game_config(rules).sources:
        assert (df[[f"pay_{src}_{s}" for s in range(4)]].sum(axis=1) == 0).all()
    won = (df["outcome"] == R.OUT_WIN).to_numpy()
    for s in range(4):
        mine = won & (df["winners"].to_numpy() >> s & 1 == 1)
        assert (df.loc[mine, f"type_{s}"] > 0).all() and (df.loc[~mine, f"type_{s}"] == 0).all()
        assert (df.loc[mine, f"units_{s}"] > 0).all()


@pytest.mark.parametrize("rules", [QHP, BAIDA, QIAOMA])
def test_played_hands(rules):
    """Payments sum to zero per source; every winner has a type and a value; replays agree;
    in 清混碰 only the legal types win; in 百搭 no wild kind is melded; in 敲麻 every winner
    declared."""
    df = play_frame(rules, 320, seed=4, bots="efficiency,value,cautious,efficiency")
    _check_hands(rules, df)
    won = df["outcome"] == R.OUT_WIN
    assert won.sum() > 100
    types = np.concatenate([df.loc[won, f"type_{s}"].to_numpy() for s in range(4)])
    if rules == QHP:
        assert SH.TYPES.index("standard") not in types
        assert 0.1 < df["kaibao"].mean() < 0.35  # 8/36
    if rules == QIAOMA:
        assert (df.loc[won, "winners"] & ~df.loc[won, "declared"]).eq(0).all()
    for i in (0, 17, 319):
        rec = replay(rules, 4, i, "efficiency,value,cautious,efficiency")
        assert all(rec[c] == df.iloc[i][c] for c in df.columns if c != "seed")


def test_huangfan_across_the_hands_of_a_game():
    """荒番 (§5.6): each drawn hand adds 1 to the counter, each hand with a win takes 1 off;
    a win while it is at least 1 is doubled. A run of three draws is found in played games and
    replayed from its game's walls."""
    rules = QHP
    df = play_frame(rules, 16 * 1500, seed=11)
    outcome, counter = df["outcome"].to_numpy(), df["huangfan"].to_numpy()
    winners = df["winners"].to_numpy()
    doubled = np.stack([df[f"patterns_{s}"].to_numpy() >> SH.B_HUANGFAN & 1 for s in range(4)])
    k = 0
    for i in range(len(df)):
        k = 0 if i % 16 == 0 else k
        assert counter[i] == k
        for s in range(4):
            if outcome[i] == R.OUT_WIN and winners[i] >> s & 1:
                assert doubled[s, i] == (k >= 1)
        k = k + 1 if outcome[i] == R.OUT_DRAW else max(k - 1, 0)
    draw = outcome == R.OUT_DRAW
    same_game = df["game"].to_numpy()
    runs = [
        i
        for i in range(3, len(df))
        if draw[i - 3 : i].all()
        and not draw[i]
        and same_game[i - 3] == same_game[i]
        and i % 16 < 15
    ]
    assert runs, "no run of three draws in 24,000 hands"
    i = runs[0]
    k = df["huangfan"].to_numpy()
    assert k[i] == k[i - 3] + 3 and k[i + 1] == k[i] - 1
    first = i - i % 16
    ws = walls(load_rules(rules), 11, first, i - first + 2)
    seeds = [int(index_seed(stream_key(11, DICE_STREAM), j)) for j in range(first, i + 2)]
    recs, _final = play_walls(rules, ws, (first // 16) % 4, dice_seeds=seeds)
    assert [r["huangfan"] for r in recs] == df["huangfan"].iloc[first : i + 2].tolist()


def test_shanghai_records_dtypes_hold_values():
    """V reaches 8 勒子 (160) and more: the units and the relation bits are int32 columns."""
    df = play_frame(QHP, 16, seed=1)
    assert df["units_0"].dtype == np.int32 and df["baopai_pairs"].dtype == np.int32


def test_louhu_bars_only_the_passed_kind_until_the_player_moves():
    """漏胡 (§5.2): a seat that passed a win on 5z may not win on a later 5z, but may win on
    its other wait (1z); its next draw or claim lifts the bar (the engine clears it there).
    The bots never pass a 清混碰 win (a hand ready for a 勒子 family wins only as one), so the
    pass is made here as a declined claim would make it."""
    g = game_config(QHP).rules_arrays
    S = new_state()
    W = new_scratch()
    S.concealed[1] = parse_hand("123m456m789m11z55z").counts  # waits 1z and 5z, 混一色
    S.status[1, ST_READY] = 1
    bots = np.zeros(4, dtype=np.int64)
    pass_win(g, S, 1, _k("5z"))
    for tile, wins in (("5z", 0), ("1z", 1 << 1)):
        W.offered[0] = _k(tile)
        assert ron_claims(g, S, W, bots, 0, 1, R.WIN_DIANPAO) == wins
    assert barred(g, S, 1, 3, _k("5z")) and not barred(g, S, 1, 3, _k("1z"))
