"""``mjsim score``: RULES.md's worked scoring examples through it (one test each), its
distribution over what is not given, its steps against the engine's payments, its refusals,
and the command line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.game.score import score

runner = CliRunner()
#: birds that hit nobody's payment in the Changsha examples below would still be birds: a
#: wall given keeps each example exact; 6m6m hits the winner twice (rank 6: the 下家)
NO_BIRD = "6m6m"


def units(rules: str, hand: str, **kw) -> tuple[int, list[str]]:
    sc = score(rules, hand, worlds=kw.pop("worlds", 20), **kw)
    assert sc.win, sc.reason
    return sc.units, [p.name_zh for p in sc.patterns]


# --------------------------------------------------------------------------- generic §1.6


def test_generic_ron_is_paid_by_the_discarder_alone() -> None:
    sc = score("generic", "123m456p789s111z2z +2z (ron)", discarder=2, worlds=10)
    assert sc.exact and sc.payments == (1, 0, -1, 0)


def test_generic_self_draw_is_paid_by_each_other_seat() -> None:
    sc = score("generic", "123m456p789s111z2z +2z", seat=3, worlds=10)
    assert sc.payments == (-1, -1, -1, 3)


# --------------------------------------------------------------------------- Changsha §2.4.3


@pytest.mark.parametrize(
    ("hand", "how", "want"),
    [
        ("1133m4477p2299s6s +6s", None, (1, ["七对"])),
        ("1111m33m4477p229s +9s", None, (2, ["豪华七对"])),
        ("123s456s789s222s5s +5s", None, (1, ["清一色"])),
        ("2258m2588p22558s +8s", None, (1, ["将一色"])),
        ("[222p] 555m777s99m11p +1p (ron)", None, (1, ["碰碰胡"])),
        ("[123m][555p][789s][222s] 9p +9p (ron)", None, (1, ["全求人"])),
        ("234m567p22p34s{7777m} +5s", "gangshang_kaihua", (1, ["杠上开花"])),
    ],
)
def test_changsha_big_win_examples(hand: str, how: str | None, want) -> None:
    """§2.4.3's table: each example's units."""
    assert units("changsha", hand, how=how, wall=NO_BIRD) == want


@pytest.mark.parametrize(
    ("hand", "how", "want"),
    [
        ("1133s4477s2299s6s +6s", None, 2),  # 清一色七对
        ("1111s4477s2299s6s +6s", None, 3),  # 清一色豪华七对: 2 + q
        ("[222m][555m][888s][222p] 5p +5p (ron)", None, 3),  # 将一色碰碰胡全求人
        ("[2222m] 555m888s22p55p +2p", "gangshang_kaihua", 3),  # 将一色碰碰胡杠上开花
    ],
)
def test_changsha_compound_examples(hand: str, how: str | None, want: int) -> None:
    """§2.5: the units of a compound are the sum of its big wins."""
    assert units("changsha", hand, how=how, wall=NO_BIRD)[0] == want


def test_changsha_compound_single_caps_at_one() -> None:
    from mjsim.rules import load_rules

    rs = load_rules("changsha", cs_compound="single")
    assert units(rs, "1133s4477s2299s6s +6s", wall=NO_BIRD)[0] == 1


@pytest.mark.parametrize(("multi", "want"), [("add", 3), ("mul", 4)])
def test_changsha_several_revealed_tiles_win(multi: str, want: int) -> None:
    """§2.5's special case: 将一色 + 杠上开花 (C = 2) with two revealed tiles that win
    gives U = 3 under add and 4 under mul; with one of them, C."""
    from mjsim.rules import load_rules

    rs = load_rules("changsha", cs_multi_gangkai=multi)
    hand = "[2222m] 5m5m8m2p5p8p2s5s8s8s +2p"
    kw = {"how": "gangshang_kaihua", "wall": NO_BIRD}
    assert units(rs, hand, revealed="5s", **kw) == (want, ["将一色", "杠上开花"])
    assert units(rs, hand, revealed="1s", **kw)[0] == 2  # 1s does not win: w = 1
    assert units(rs, hand, **kw)[0] == 2


def test_changsha_revealed_tile_paying_more_is_refused() -> None:
    """The konger takes the revealed tile that pays most; naming a lesser one is refused."""
    with pytest.raises(ValueError, match="pays more than"):
        score(
            "changsha",
            "[2222m] 555m888s22p55p +8p",  # 8p: 将一色; 5p would add 碰碰胡
            how="gangshang_kaihua",
            revealed="5p",
            worlds=5,
        )


def test_changsha_worked_example() -> None:
    """§2.10: seat 1 self-draws 清一色碰碰胡 (U = 2), seat 0 deals, birds 5p 2s from the
    winner: seat 0 pays 28, seat 2 36, seat 3 24; the winner receives 88."""
    sc = score("changsha", "111s333s555s777s9s +9s", seat=1, dealer=0, wall="5p2s", worlds=10)
    assert sc.exact and sc.units == 2
    assert sc.payments == (-28, 88, -36, -24)
    assert not any("[the engine paid" in step for step in sc.steps)


def test_changsha_worked_example_under_mul() -> None:
    """§2.10: under 鸟对鸟 (mul) seat 2 would pay 6 · min(2·4, 6) = 36."""
    from mjsim.rules import load_rules

    rs = load_rules("changsha", cs_bird_mode="mul")
    sc = score(rs, "111s333s555s777s9s +9s", seat=1, wall="5p2s", worlds=10)
    assert sc.payments[2] == -36


def test_changsha_fewer_tiles_left_than_birds() -> None:
    """§2.6: with one tile left only one bird is drawn; with none (海底) no bird."""
    one = score("changsha", "123m456p789s55p23m +4m", wall="1m", left=1, worlds=5)
    assert one.exact and one.facts["n_birds"] == 1
    last = score("changsha", "123m456p789s55p23m +4m", how="haidi_laoyue", worlds=5)
    assert last.exact and last.facts["n_birds"] == 0


def test_changsha_birds_not_given_are_a_distribution() -> None:
    """Without --wall the birds are drawn at random: the outcomes are the 0, 1 and 2 hits
    on the discarder's payment (7, 14, 21 for a dealer's 碰碰胡 ron), their chances sum to
    one, and the mean is their weighted sum."""
    sc = score("changsha", "[222p] 555m777s99m11p +1p (ron)", worlds=3000, seed=4)
    assert not sc.exact
    paid = sorted(-o.payments[3] for o in sc.outcomes)
    assert paid == [7, 14, 21]
    assert sum(o.probability for o in sc.outcomes) == pytest.approx(1)
    mean = sum(-o.payments[3] * o.probability for o in sc.outcomes)
    assert -sc.payments[3] == pytest.approx(mean)
    assert 0 < sc.se[3] < 0.5


@pytest.mark.parametrize("seed", range(6))
def test_changsha_steps_agree_with_the_engine(seed: int) -> None:
    """The steps restate each payment from the rule values; for random seats, birds and
    options they agree with what the engine paid."""
    import numpy as np

    from mjsim.rules import load_rules

    rng = np.random.default_rng(seed)
    options = {
        "cs_bird_mode": str(rng.choice(["add", "mul"])),
        "cs_dealer_bonus_per_unit": bool(rng.integers(2)),
        "cs_piao": int(rng.integers(3)),
    }
    rs = load_rules("changsha", **options)
    hand = str(
        rng.choice(["111s333s555s777s9s +9s", "123m456p789s55p23m +4m", "1133m4477p2299s6s +6s"])
    )
    birds = " ".join(str(rng.choice(["1m", "2p", "3s", "4m", "7p", "8s"])) for _ in range(2))
    sc = score(
        rs, hand, seat=int(rng.integers(4)), dealer=int(rng.integers(4)), wall=birds, worlds=5
    )
    pays = [s for s in sc.steps if " pays " in s]
    assert len(pays) == 3
    assert not any("[the engine paid" in s for s in pays)


# --------------------------------------------------------------------------- 财神 §3.5, §3.6


@pytest.mark.parametrize(
    ("hand", "type_zh"),
    [
        ("123m456m789p111s234s9p +9p (ron)", "平胡"),
        ("11m33m55m22p44p66p88s99s +1z (tsumo)", "硬八对"),
        ("[123m][456p][789s] 111z 234m 7z +8m", "财神牛"),
        ("[123m][456m][789p][111s][234s] 9p +9p", "单吊"),
    ],
)
def test_caishen_type_examples(hand: str, type_zh: str) -> None:
    """§3.5's examples, 财神 = 7z."""
    assert type_zh in units("caishen16", hand, wild="7z")[1]


def test_caishen_soft_example() -> None:
    """§3.5's soft example: 7z stands for 6p or 9p beside 78p and the ron on 5p makes the
    pair; no natural reading exists, so it is 软 (tier 1), and the three losers pay 1 each
    (§3.6: all three pay a ron)."""
    sc = score("caishen16", "123m456m78p111s234s5p7z +5p (ron)", seat=1, wild="7z", worlds=5)
    assert sc.win and [p.name_zh for p in sc.patterns] == ["软牌"]
    assert sc.payments == (-1, 3, -1, -1)


def test_caishen_ron_from_a_paoma_state_names_it() -> None:
    """§3.4: 16 tiles already 5 melds and a lone 财神 (财神牛, 跑马) win only self-drawn:
    the ron is refused with the reason; self-drawn they win as 财神牛."""
    sc = score("caishen16", "123m456m78p111s234s9p7z +9p (ron)", wild="7z", worlds=5)
    assert not sc.win and "跑马" in sc.reason and "\n" not in sc.reason
    assert "财神牛" in units("caishen16", "123m456m78p111s234s9p7z +9p", wild="7z")[1]


@pytest.mark.parametrize(
    ("hand", "type_zh", "each"),
    [
        ("7z7z7z1m4m7m2p5p8p3s6s9s1z2z3z5z +4z", "三财神软胡", 2),  # 硬: T = 2
        ("7z7z7z123m456m789p111s2s +2s", "三财神硬胡", 4),  # 双翻: T = 4
    ],
)
def test_caishen_three_caishen_examples(hand: str, type_zh: str, each: int) -> None:
    """§3.5's 三财神 rows, self-drawn by a non-dealer (§3.6: each loser pays B·T, B = 1)."""
    sc = score("caishen16", hand, seat=1, wild="7z", worlds=5)
    assert sc.win and type_zh in [p.name_zh for p in sc.patterns]
    assert sc.payments == (-each, 3 * each, -each, -each)


def test_caishen_three_caishen_soft_is_self_draw_only() -> None:
    sc = score("caishen16", "7z7z7z1m4m7m2p5p8p3s6s9s1z2z3z5z +4z (ron)", wild="7z", worlds=5)
    assert not sc.win


def test_caishen_scoring_example() -> None:
    """§3.6: a non-dealer self-draws 碰碰胡 on a kong's replacement, 底分 1, nothing bought:
    each loser pays 1·4·2·2 = 16, 48 in all."""
    sc = score(
        "caishen16",
        "[7777m] 111s333s555s222p9s +9s",
        how="gangshang_kaihua",
        seat=1,
        wild="7z",
        worlds=5,
    )
    assert sc.payments == (-16, 48, -16, -16)


# --------------------------------------------------------------------------- 宝 §4.7, §4.9


@pytest.mark.parametrize(
    ("hand", "bao", "value"),
    [
        ("[123m][789m] 111p55p79s +8s", "8s", 16),  # 宝中宝: 79s waiting on the 宝 8s
        ("[123m][789m] 111p55p89s +7s", "7s", 16),  # 宝中宝: 89s waiting on the 宝 7s
        ("[123m][789m] 789p555s4s +4s", "4s", 16),  # 宝中宝: a single wait on the 宝 4s
        ("[123m][789m] 11s555s67p +5s", "5m", 4),  # 大风
        ("[123m][789m] 11s4555s6s +5s", "5m", 16),  # 大风 with a natural 卡
    ],
)
def test_bao_item_examples(hand: str, bao: str, value: int) -> None:
    """§4.7's 宝 and 大风 examples (two exposed melds, the winner declared)."""
    assert units("hongzhong112", hand, seat=1, declared=(1,), bao=bao)[0] == value


def test_bao_payment_example_menting_ron() -> None:
    """§4.9: the dealer in 闷听 with a 79s 卡 wait; undeclared seat 2 discards 8s: M = 4,
    seat 2 pays 16, seats 1 and 3 pay 8 each."""
    sc = score("hongzhong112", "123m789m111p55p79s +8s (ron)", declared=(0,), discarder=2, worlds=5)
    assert sc.units == 4 and sc.payments == (32, -8, -16, -8)


def test_bao_payment_example_baozhongbao() -> None:
    """§4.9: a non-dealer in 闷听 wins by 宝中宝: M = 32, the dealer pays 64, the others 32."""
    sc = score("hongzhong112", "123m789m111p55p79s +8s", seat=1, declared=(1,), bao="8s", worlds=5)
    assert sc.units == 32 and sc.payments == (-64, 128, -32, -32)


# --------------------------------------------------------------------------- Shanghai §5


def test_shanghai_flower_count_table() -> None:
    """§5.4: H = 2 flowers (1 each) + an exposed wind kong (2) + a concealed dragon kong
    (4) = 8; the hand is 混碰 (§5.5: R = L = 20, its cap), self-drawn: each pays 20."""
    sc = score("shanghai_qhp", "[1111z] {5555z} 111m999m2m f1f2 +2m", dice=(1, 2), worlds=5)
    assert sc.facts["flowers"] == 8 and sc.payments == (60, -20, -20, -20)


def test_qiaoma_value_is_base_plus_flowers() -> None:
    """§5.10: in 敲麻 V = b0 + H = 1 + 2 flowers = 3, a ron paid by the discarder alone
    (§5.7), by a declared seat (敲麻 wins only declared)."""
    hand = "[123m] 456p789s11z23s f1f2 +4s (ron)"
    sc = score("shanghai_qiaoma", hand, seat=1, discarder=0, declared=(1,), dice=(1, 2), worlds=5)
    assert sc.units == 3 and sc.payments == (-3, 3, 0, 0)


def test_shanghai_value_example() -> None:
    """§5.5: flowers f1 f5 and a concealed 1z pung: H = 3, V = 4; the discarder pays 4."""
    sc = score("shanghai_qhp", "[555p][777s] 111z999m2s f1f5 +2s (ron)", dice=(1, 2), worlds=5)
    assert sc.facts["flowers"] == 3 and sc.units == 4
    assert sc.payments == (4, 0, 0, -4)


def test_shanghai_dadiaoche_example() -> None:
    """§5.5: 混一色 大吊车 with H = 1 is raised to one 勒子, V = 20."""
    units_, names = units("shanghai_qhp", "[123m][456m][789m][111z] 5z +5z (ron)", dice=(1, 2))
    assert units_ == 20 and "大吊车" in names


def test_shanghai_qingpeng_kaibao_example() -> None:
    """§5.5: 清碰 is 2L = 40; 开宝 doubles it to 80 (and so does 荒番, §5.6)."""
    hand = "[111m] 333m555m777m9m +9m (ron)"
    assert units("shanghai_qhp", hand, dice=(1, 2))[0] == 40
    assert units("shanghai_qhp", hand, dice=(3, 3))[0] == 80
    assert units("shanghai_qhp", hand, dice=(1, 2), huangfan=1)[0] == 80


def test_shanghai_kaibao_not_given_is_eight_in_36() -> None:
    """Without --dice, 开宝 doubles the value in 8 of 36 rolls (§5.6)."""
    sc = score("shanghai_qhp", "[111m] 333m555m777m9m +9m (ron)", worlds=4000, seed=2)
    chance = {-o.payments[3]: o for o in sc.outcomes}
    assert set(chance) == {40, 80}
    assert abs(chance[80].probability - 8 / 36) < 4 * chance[80].se


def test_shanghai_payments() -> None:
    """§5.7: a tsumo is paid V by each other seat; a robbed kong 3V by the konger."""
    tsumo = score("shanghai_qhp", "[111m] 333m555m777m9m +9m", dice=(1, 2), worlds=5)
    assert tsumo.payments == (120, -40, -40, -40)
    robbed = score(
        "shanghai_qhp", "[111m] 234m555m99m78m +6m", how="qianggang", dice=(1, 2), worlds=5
    )
    assert robbed.win and robbed.payments[3] == -3 * robbed.units


def test_shanghai_liability_ron() -> None:
    """§5.7: three melds claimed from the discarder make him liable: he pays 2V."""
    sc = score(
        "shanghai_qhp",
        "[111m][333m][555m] 777m9m +9m (ron)",
        discarder=2,
        meld_from=(2, 2, 2),
        dice=(1, 2),
        worlds=5,
    )
    assert sc.payments[2] == -2 * sc.units


def test_shanghai_liability_runs_both_ways() -> None:
    """§5.7 (反承包): the discarder claimed three melds from the winner: he pays 2V."""
    hand = "[111m] 333m555m777m9m +9m (ron)"
    plain = score("shanghai_qhp", hand, discarder=2, dice=(1, 2), worlds=5)
    both = score("shanghai_qhp", hand, discarder=2, claimed={2: 3}, dice=(1, 2), worlds=5)
    assert plain.payments[2] == -plain.units and both.payments[2] == -2 * both.units
    out = runner.invoke(
        app,
        [
            "score",
            hand,
            "--rules",
            "shanghai_qhp",
            "--from",
            "2",
            "--claimed",
            "2:3",
            "--dice",
            "1,2",
            "--json",
        ],
    )
    assert json.loads(out.output)["payments"][2] == -2 * both.units


def test_baida_example() -> None:
    """§5.9: the indicator 9m makes 1m the 百搭, standing for 4s or 7s beside 5s 6s."""
    sc = score("shanghai_baida", "234p567p789s33z5s1m +6s (ron)", wild="1m", dice=(1, 2), worlds=5)
    assert sc.win and sc.payments[3] == -sc.units


# --------------------------------------------------------------- several winners


def test_two_winners_on_one_discard_pay_together() -> None:
    """``also``: a second seat won on the same discard; in generic each winner is paid
    apart (§1.6), so the two scores' payments add up."""
    one = score("generic", "123m456p789s111z2z +2z (ron)", seat=1, discarder=0, worlds=5)
    two = score("generic", "456m789p123s333z2z +2z (ron)", seat=2, discarder=0, worlds=5)
    both = score(
        "generic",
        "123m456p789s111z2z +2z (ron)",
        seat=1,
        discarder=0,
        also={2: "456m789p123s333z2z +2z (ron)"},
        worlds=5,
    )
    assert both.payments == tuple(a + b for a, b in zip(one.payments, two.payments, strict=True))


def test_another_winners_bonus_tiles_count() -> None:
    """shanghai_qiaoma seed 7 hand 469: the second winner's nine bonus tiles (more than the
    eight flowers its hand can write) are given apart, ``also_bonus``; its H counts them
    (§5.4), so it is paid what it is paid scored alone with ``bonus``."""
    common = dict(how="dianpao", dealer=1, discarder=2, declared=(1, 2, 3), dice=(3, 4))
    h1, h3 = "333m45s11z [333z] [234p] +6s (ron)", "567789m6s [678p] [345s] f1 f2 f3 +6s (ron)"
    alone = score("shanghai_qiaoma", h1, seat=1, bonus=9, worlds=1, **common)
    both = score("shanghai_qiaoma", h3, seat=3, also={1: h1}, also_bonus={1: 9}, worlds=1, **common)
    assert alone.payments[1] > 9 and both.payments[1] == alone.payments[1]
    with pytest.raises(ValueError, match="also_bonus name seats given in also"):
        score("shanghai_qiaoma", h3, seat=3, also_bonus={1: 9}, worlds=1, **common)


def test_a_liable_winner_beside_another_is_settled_as_the_engine_does() -> None:
    """shanghai_qhp seed 7 hand 2034: two winners on one discard, one of them liable (承包)
    to the other; scored apart the liable winner would pay, together the discarder does
    (§5.7) — the record's payments."""
    from mjsim.game.rescore import rescore

    r = rescore("shanghai_qhp", 7, 2034)
    assert r.agrees, (r.score.hand, r.payments, r.recorded)


# --------------------------------------------------------------- wins on no tile drawn


def test_tianhu_on_the_dealt_tiles_is_written_without_a_plus() -> None:
    """天胡 on the dealer's 14 dealt tiles (turn 0, no tile drawn) pays as any self-draw in
    generic (§1.6): as the same tiles with one of them marked drawn."""
    dealt = score("generic", "123m456p789s111z22z", turn=0, worlds=5)
    marked = score("generic", "123m456p789s111z2z +2z", turn=0, worlds=5)
    assert dealt.win and dealt.payments == marked.payments and dealt.payments[0] > 0


def test_eight_flowers_win_at_once() -> None:
    """§5.5 / §5.7: 八花齐 wins when the eighth flower is set aside, R = 2L = 40 (its cap),
    and each other seat pays V."""
    hand = "123m456m789m123p33s f1f2f3f4f5f6f7f8"
    sc = score("shanghai_qhp", hand, how="bonus", seat=1, dice=(1, 2), worlds=5)
    assert sc.win and sc.payments == (-40, 120, -40, -40)


def test_duibao_wins_at_declaring() -> None:
    """§4 对宝 (ne_alt): ready at 报听 with the 宝 among the waits, the hand wins at once,
    no tile drawn."""
    hand = "[123m][789m] 111p55p79s +8s"
    sc = score("ne_alt", hand, bao="8s", declared=(0,), on_ready=True, worlds=5)
    assert sc.win and "对宝" in [p.name_zh for p in sc.patterns]
    assert sum(sc.payments) == 0 and sc.payments[0] > 0


# --------------------------------------------------------------------------- every rule set

#: a won hand of each playable preset, with the circumstances it needs
WON = {
    "generic": ("123m456p789s11p23m +4m", {}),
    "dingque": ("123m456m789m11p23m +4m", {}),
    "changsha": ("123m456p789s55p23m +4m", {}),
    "changsha_classic_1980s": ("123m456p789s55p23m +4m", {}),
    "changsha_transition_1990": ("123m456p789s55p23m +4m", {}),
    "caishen16": ("123m456p789s111s11p23m +4m", {"wild": "7z"}),
    "hongzhong112": ("123m456p789s111s5p +5p", {"declared": (0,)}),
    "ne_alt": ("123m456p789s111s5p +5p", {"declared": (0,)}),
    "shanghai_qhp": ("[111m] 333m555m777m9m +9m", {"dice": (1, 2)}),
    "shanghai_baida": ("123m456p789s11p23m +4m", {"wild": "1z", "dice": (1, 2)}),
    "shanghai_qiaoma": ("123m456p789s11p23m +4m", {"declared": (0,), "dice": (1, 2)}),
}


def test_every_playable_preset_has_a_won_hand_here() -> None:
    from mjsim.game.config import playable_rules

    assert set(WON) == {r.id for r in playable_rules()}


@pytest.mark.parametrize("rules", sorted(WON))
def test_every_playable_preset_scores(rules: str) -> None:
    """A won hand of each preset wins, self-drawn and on a discard, and its payments sum
    to zero."""
    hand, kw = WON[rules]
    for suffix in ("", " (ron)"):
        sc = score(rules, hand + suffix, worlds=10, **kw)
        assert sc.win, (rules, suffix, sc.reason)
        assert sum(sc.payments) == pytest.approx(0) and sc.payments[0] > 0


@pytest.mark.parametrize("rules", sorted(WON))
def test_score_agrees_with_played_records(rules: str, tmp_path) -> None:
    """Every won hand of a small ``mjsim play --out`` run (several winners, 开杠, 天胡,
    bonus tiles and 对宝 included), scored again from its record and replayed state
    (:mod:`mjsim.game.rescore`), pays exactly what the record says
    (benchmarks/bench_rescore.py: 10,000 hands a rule set)."""
    from mjsim.game import record as R
    from mjsim.game.config import game_config
    from mjsim.game.rescore import rescore
    from mjsim.sim.games import read_games

    out = tmp_path / "games"
    result = runner.invoke(
        app, ["play", "--rules", rules, "-n", "60", "--seed", "11", "--out", str(out), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    games = read_games(out)
    sources = game_config(rules).win_sources
    scored = 0
    for _, row in games[games.outcome == R.OUT_WIN].iterrows():
        r = rescore(rules, 11, int(row["index"]))
        paid = tuple(sum(int(row[f"pay_{src}_{s}"]) for src in sources) for s in range(4))
        assert r.agrees and r.payments == paid, (row["index"], r.score.hand, r.score.how)
        scored += 1
    assert scored >= 5


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("rules", "hand", "kw", "words"),
    [
        ("changsha", "123m456p789s99s23m +4m", {}, "closest reading"),
        ("changsha", "123m456p789s55p23m", {}, "mark the winning tile"),
        ("changsha", "123m456p789s55p23m +4m", {"seat": 1, "turn": 0}, "天胡"),
        ("changsha", "123m456p789s55p34m +4m (ron)", {"how": "qianggang"}, "robbed kong"),
        ("changsha", "123m456p789s55p23m +4m", {"how": "gangshang_kaihua"}, "no kong"),
        ("changsha", "123m456p789s55p23m +4m (ron)", {"how": "zimo"}, "(ron)"),
        ("changsha", "123m456p789s55p23m +4m", {"how": "tsumogiri"}, "unknown win"),
        ("changsha", "123m456p789s55p23m +4m", {"dice": (3, 3)}, "no dice"),
        ("changsha", "123m456p789s55p23m +4m", {"wild": "5m"}, "no wildcard"),
        ("changsha", "123m456p789s55p23m +4m", {"wall": "4m4m4m4m"}, "in sight"),
        ("changsha", "123m456p789s55p23m +4m (ron)", {"discarder": 0}, "another seat"),
        ("generic", "123m456p789s111z2z +2z", {"huangfan": 1}, "no huangfan"),
        ("hongzhong112", "123m789m111p55p79s +8s", {"declared": (1,)}, "报听"),
        ("shanghai_qhp", "123m456p789s55p23m +4m", {"dice": (7, 1)}, "1-6"),
        ("generic", "123m456p789s111z2z +2z", {"revealed": "5m"}, "开杠"),
        ("generic", "123m456p789s55p234m", {}, "mark the winning tile"),
        ("generic", "123m456p789s55p234m", {"how": "bonus"}, "no win by bonus tiles"),
        ("changsha", "123m456p789s55p23m +4m", {"on_ready": True}, "对宝"),
        ("generic", "123m456p789s111z2z +2z", {"also": {2: "456m789p123s333z2z +2z"}}, "self-draw"),
        (
            "generic",
            "123m456p789s111z2z +2z (ron)",
            {"also": {3: "456m789p123s333z2z +2z"}},
            "discarder",
        ),
        (
            "changsha",
            "234m567p22p34s{7777m} +5s",
            {"how": "gangshang_kaihua", "revealed": "1m2m"},
            "at most 1",
        ),
    ],
)
def test_refusals_are_one_clear_line(rules: str, hand: str, kw: dict, words: str) -> None:
    try:
        sc = score(rules, hand, worlds=5, **kw)
    except ValueError as error:
        message = str(error)
    else:
        assert not sc.win
        message = sc.reason
    assert words in message and "\n" not in message


# --------------------------------------------------------------------------- command line


def test_cli_table_and_json() -> None:
    args = ["score", "111s333s555s777s9s +9s", "--rules", "changsha", "--seat", "1"]
    out = runner.invoke(app, [*args, "--wall", "5p2s"])
    assert out.exit_code == 0, out.output
    assert "88" in out.output and "§2.10" in out.output
    doc = json.loads(runner.invoke(app, [*args, "--wall", "5p2s", "--json"]).output)
    assert doc["payments"] == [-28, 88, -36, -24] and doc["exact"]


def test_cli_help_lists_every_circumstance() -> None:
    out = runner.invoke(app, ["score", "--help"], env={"COLUMNS": "200"})
    for option in (
        "--how",
        "--seat",
        "--dealer",
        "--from",
        "--meld-from",
        "--turn",
        "--wild",
        "--bao",
        "--declared",
        "--from-ready",
        "--wall",
        "--dice",
        "--huangfan",
        "--after-draw",
        "--bonus",
        "--claimed",
        "--left",
        "--revealed",
        "--on-ready",
        "--also",
        "--also-bonus",
        "--set",
        "--json",
    ):
        assert option in out.output, option


def test_cli_unknown_option_is_one_line() -> None:
    out = runner.invoke(app, ["score", "123m456p789s55p23m +4m", "--set", "cs_nope=1"])
    assert out.exit_code == 2
