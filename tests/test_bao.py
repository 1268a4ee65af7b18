"""The 宝 games played (RULES.md §4): the win predicate's examples (§4.5), the 宝 and 大风
table (§4.7), the payment examples (§4.9), 对宝 and the 番 of §4.11, and scripted walls for
吃听, 换宝 and 分张.

A position test builds the state the engine reads and asks the engine's own tests
(:func:`mjsim.game.wins.win_test`, ``self_win``, ``win_test_on``) and the model's settlement.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from scripted import kinds

from mjsim.game import record as R
from mjsim.game.bots import choose_discard
from mjsim.game.config import game_config
from mjsim.game.decisions import CLAIM_CHOW, CLAIM_PUNG, claim_on, push_out
from mjsim.game.engine import fenzhang
from mjsim.game.evaluation import cost
from mjsim.game.play import play_frame
from mjsim.game.scoring import bao as BAO
from mjsim.game.scoring import settle
from mjsim.game.state import (
    P_BAO,
    P_BAO_CHANGES,
    P_BAO_SLOT,
    P_DEALER,
    P_HEAD,
    P_RESERVED,
    P_TAIL,
    P_TURNS,
    PUSH_NONE,
    ST_COST,
    ST_DECLARED,
    ST_KEY,
    ST_PUSH,
    ST_READY,
    add_meld,
    new_scratch,
    new_state,
)
from mjsim.game.wall import change_indicator, tail_tile, turn_indicator
from mjsim.game.wins import self_win, win_on_ready, win_test, win_test_on
from mjsim.kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from mjsim.rules import RulesError, load_rules
from mjsim.rules.model import FrozenDict

HZ, NE = "hongzhong112", "ne_alt"
P, C, K, CK = MELD_PUNG, MELD_CHOW, MELD_KONG, MELD_CKONG


def _k(tile: str) -> int:
    return kinds(tile)[0]


def _counts(tiles: str) -> np.ndarray:
    return np.bincount(np.array(kinds(tiles), dtype=np.int64), minlength=34).astype(np.uint8)


def _state(
    rules, hand, melds=(), seat=0, dealer=1, turns=10, declared=True, menting=False, bao=None
):
    """State with seat ``seat`` holding ``hand`` and ``melds`` ((first, MELD_*)), declared
    (on turn 1; 闷听 where ``menting``), the 宝 indicator ``bao`` (a tile, or none)."""
    g = game_config(rules).rules_arrays
    S = new_state()
    W = new_scratch()
    S.concealed[seat] = _counts(hand)
    for first, mtype in melds:
        add_meld(g, S, seat, _k(first), mtype, -1 if mtype == CK else (seat + 3) % 4)
    S.pos[P_DEALER] = dealer
    S.pos[P_TURNS] = turns
    S.pos[P_BAO] = _k(bao) if bao else -1
    S.status[seat, ST_DECLARED] = declared
    S.status[seat, ST_READY] = True
    S.model[BAO.M_DECLARE_TURN + seat] = 1 if declared else 0
    S.model[BAO.M_MENTING] = (1 << seat) if menting else 0
    return g, S, W


def _items(bits):
    return {BAO.ITEMS[b] for b in range(len(BAO.ITEMS)) if bits >> b & 1}


# --------------------------------------------------------------------------- §4.5


@pytest.mark.parametrize(
    "hand, melds, win",
    [
        ("77z 234m 456p 777s 678s", (), True),
        ("55m 123m 678p 444p 234s", (), True),
        ("55m 234m 789p 444p 234s", (), True),
        ("777z 234m 678p 567p 88s", (), True),
        ("234m 567m 678p 88p", (("7z", CK),), True),
        ("77z 234m 456m 678p 567p", (), True),
        ("234m 456p 678s 777s 55p", (), False),  # no 1, 9 or 中
        ("123m 456p 789s 234s 55p", (), False),  # no pung, the pair not 中
        ("123m 456m 789m 111m 55m", (), False),  # one suit
    ],
)
def test_win_predicate_examples(hand, melds, win):
    g, S, W = _state(HZ, hand, melds)
    assert win_test(g, S, W, 0, R.WIN_DIANPAO, -1)[0] is win
    # without 报听 nothing wins (天胡 aside)
    S.status[0, ST_DECLARED] = False
    assert win_test(g, S, W, 0, R.WIN_DIANPAO, -1)[0] is False


def test_red_pair_option():
    """hrb_red_pair_substitutes=false: the 中 pair no longer stands for the pung."""
    rules = load_rules(HZ, hrb_red_pair_substitutes=False)
    g, S, W = _state(rules, "77z 234m 456m 678p 567p")
    assert win_test(g, S, W, 0, R.WIN_DIANPAO, -1)[0] is False


def test_tianhu_needs_no_declaration():
    """The dealer's 14 dealt tiles win without 报听: 天胡, 64 alone."""
    g, S, W = _state(HZ, "55m 123m 678p 444p 234s", dealer=0, turns=0, declared=False)
    assert win_test(g, S, W, 0, R.WIN_ZIMO, -1) == (True, 64, 1 << BAO.I_TIANHU)
    S.pos[P_TURNS] = 1  # after a discard, no 报听, no win
    assert win_test(g, S, W, 0, R.WIN_ZIMO, -1)[0] is False


# --------------------------------------------------------------------------- §4.7

TWO_MELDS = (("1m", C), ("9p", P))


@pytest.mark.parametrize(
    "hand, bao, drawn, units, items",
    [
        ("79s 55p 456p 8s", "8s", "8s", 16, {"baozhongbao"}),
        ("89s 55p 456p 7s", "7s", "7s", 16, {"baozhongbao"}),
        ("456p 789p 4s 4s", "4s", "4s", 16, {"baozhongbao"}),
        ("11s 555s 67p 5s", None, "5s", 4, {"dafeng"}),
        ("11s 4555s 6s 5s", None, "5s", 16, {"dafeng_edge"}),
        # a 宝 that is not the natural winning tile: 摸宝 4, ×2 where the tile it stands for
        # reads 边/卡/吊
        ("79s 55p 456p 1s", "1s", "1s", 8, {"mobao", "edge"}),
        ("67s 55p 456p 1s", "1s", "1s", 4, {"mobao"}),
        # a natural self-draw: 自摸 ×2, 卡 ×2
        ("79s 55p 456p 8s", None, "8s", 4, {"zimo", "edge"}),
    ],
)
def test_bao_and_dafeng_table(hand, bao, drawn, units, items):
    """The §4.7 table (two exposed melds assumed): a declared seat's drawn tile."""
    g, S, W = _state(HZ, hand, TWO_MELDS, bao=bao)
    assert self_win(g, S, W, 0, _k(drawn), R.WIN_ZIMO, 1)
    assert (int(S.units[0]), _items(S.bits[0])) == (units, items)


def test_bao_kinds_and_no_ron_on_a_discarded_bao():
    """Indicator K: the other copies of K and next(K) are 宝 (9 wraps to 1; 中 only 中); a
    discarded 宝 is won on by nobody unless hrb_ron_on_bao."""
    g, S, W = _state(HZ, "79s 55p 456p", TWO_MELDS, bao="7s")
    assert not win_test_on(g, S, W, 0, _k("8s"), R.WIN_DIANPAO)[0]  # 8s = next(7s): a 宝
    S.pos[P_BAO] = _k("9s")  # 宝 9s and 1s
    assert win_test_on(g, S, W, 0, _k("8s"), R.WIN_DIANPAO)[0]
    g2, S2, W2 = _state(load_rules(HZ, hrb_ron_on_bao=True), "79s 55p 456p", TWO_MELDS, bao="7s")
    assert win_test_on(g2, S2, W2, 0, _k("8s"), R.WIN_DIANPAO)[0]
    # hrb_bao_next_wrap=false: nothing follows a 9 (indicator 9s: 9s alone)
    g, S, W = _state(HZ, "79s 55p 456p 1s", TWO_MELDS, bao="9s")
    assert self_win(g, S, W, 0, _k("1s"), R.WIN_ZIMO, 1)
    g, S, W = _state(
        load_rules(HZ, hrb_bao_next_wrap=False), "79s 55p 456p 1s", TWO_MELDS, bao="9s"
    )
    assert not self_win(g, S, W, 0, _k("1s"), R.WIN_ZIMO, 1)
    # 中 as indicator: only the other 中 are 宝 (next(7z) is not in the 112 tiles)
    g, S, W = _state(HZ, "79s 55p 456p 1s", TWO_MELDS, bao="7z")
    assert self_win(g, S, W, 0, _k("1s"), R.WIN_ZIMO, 1) is False


# --------------------------------------------------------------------------- §4.9


def _pay(g, S, W, winner, discarder, win_kind):
    rec = np.zeros(len(game_config(HZ).columns), dtype=np.int32)
    order = np.array([winner, 0, 0, 0], dtype=np.int64)
    settle(g, S, W, np.zeros(112, np.int8), rec, order, 1, discarder, win_kind, -1)
    return S.pay[0].tolist()


def test_payment_example_one():
    """The dealer (seat 0), 闷听 on a 79s 卡 wait; seat 2, not declared, discards 8s:
    M = 4; seat 2 pays 16, seats 1 and 3 pay 8: 32 in all."""
    g, S, W = _state(HZ, "111m 234p 567p 99m 79s", seat=0, dealer=0, menting=True)
    legal, units, bits = win_test_on(g, S, W, 0, _k("8s"), R.WIN_DIANPAO)
    assert legal and units == 4 and _items(bits) == {"edge", "menting"}
    S.units[0], S.bits[0] = units, bits
    assert _pay(g, S, W, 0, 2, R.WIN_DIANPAO) == [32, -8, -16, -8]


def test_payment_example_two():
    """A non-dealer in 闷听 wins by 宝中宝: M = 32; the dealer pays 64, the others 32."""
    g, S, W = _state(HZ, "111m 234p 567p 99m 79s 8s", seat=1, dealer=0, menting=True, bao="8s")
    assert self_win(g, S, W, 1, _k("8s"), R.WIN_ZIMO, 1)
    assert int(S.units[1]) == 32 and _items(S.bits[1]) == {"baozhongbao", "menting"}
    assert _pay(g, S, W, 1, -1, R.WIN_ZIMO) == [-64, 128, -32, -32]


def test_a_discarder_who_had_declared_pays_single():
    """N(p) = 1 where the discarder had declared before his discard."""
    g, S, W = _state(HZ, "111m 234p 567p 99m 79s", seat=0, dealer=1, menting=True)
    S.model[BAO.M_DECLARE_TURN + 2] = 3  # seat 2 declared on turn 3, discards on turn 10
    _legal, units, bits = win_test_on(g, S, W, 0, _k("8s"), R.WIN_DIANPAO)
    S.units[0], S.bits[0] = units, bits
    assert _pay(g, S, W, 0, 2, R.WIN_DIANPAO) == [16, -8, -4, -4]


# --------------------------------------------------------------------------- §4.11


def test_ne_alt_fan():
    """ne_alt: 2^番; 夹胡 needs one winning kind; 立门胡 +1; 飘胡 +2 (no chow, 对对 or single
    wait); 手把一 wins only as 飘胡."""
    # closed 5s the only wait, concealed: 夹胡 + 立门胡 = 2 番, won on a discard
    g, S, W = _state(NE, "123m 789p 111z 46s 55s", declared=True)
    legal, units, bits = win_test_on(g, S, W, 0, _k("5s"), R.WIN_DIANPAO)
    assert legal and units == 4 and _items(bits) == {"edge", "limen"}
    # 46s 55s plus 4s or 6s... a two-kind wait is no 夹胡
    g, S, W = _state(NE, "123m 789p 111z 45s 55s")
    legal, units, bits = win_test_on(g, S, W, 0, _k("6s"), R.WIN_DIANPAO)
    assert legal and _items(bits) == {"limen"}
    # 飘胡: pungs only, 对对 wait; self-drawn; exposed melds: no 立门胡
    g, S, W = _state(NE, "111z 99p 55s 5s", (("1m", P), ("9m", P)))
    legal, units, bits = win_test(g, S, W, 0, R.WIN_ZIMO, _k("5s"))
    assert legal and _items(bits) == {"zimo", "piao"} and units == 8
    # 手把一: one concealed tile (a single wait), a chow among the melds: no win
    melds = (("1m", C), ("9p", P), ("1z", P), ("5s", P))
    g, S, W = _state(NE, "9s", melds)
    assert not win_test_on(g, S, W, 0, _k("9s"), R.WIN_DIANPAO)[0]
    g, S, W = _state(load_rules(NE, neb_shoubayi_only_piao=False), "9s", melds)
    assert win_test_on(g, S, W, 0, _k("9s"), R.WIN_DIANPAO)[0]


# --------------------------------------------------------------------------- scripted


def test_played_hands_sum_to_zero_and_report_the_bao():
    """Played hands: payments sum to zero; declarations, 宝 kinds and items are recorded."""
    for rules in (HZ, NE):
        df = play_frame(rules, 320, seed=2)
        assert (df[[f"pay_{s}" for s in range(4)]].sum(axis=1) == 0).all()
        wins = df[df["outcome"] == R.OUT_WIN]
        assert len(wins) > 50 and df["declared"].gt(0).mean() > 0.5
        # no win without 报听 (天胡 aside): each winner declared
        for _, row in wins.iterrows():
            for s in range(4):
                if row["winners"] >> s & 1 and row[f"how_{s}"] != BAO.H_TIANHU:
                    assert row["declared"] >> s & 1 and row[f"declare_turn_{s}"] > 0
        # the 宝 is turned at the first declaration, and only then
        assert ((df["wild_kind"] >= 0) == df["declared"].gt(0)).all()


def test_replacement_tiles_come_from_the_reserve():
    """§4.2: replacement tiles are reserve slots 1–6 from the end, then the bottom of stack
    #4 (slot 8; the indicator is slot 7), then the live wall's end; the reserve's seven do
    not shorten the live wall."""
    g, S, _W = _state(HZ, "")
    wall = np.arange(112, dtype=np.int8) % 34
    S.pos[P_TAIL] = 112
    S.pos[P_BAO_SLOT] = 6
    taken = [int(tail_tile(g, S, wall)) for _ in range(9)]
    assert taken == [int(wall[i]) for i in (111, 110, 109, 108, 107, 106, 104, 99, 98)]
    assert S.pos[P_TAIL] == 110  # two from the live wall
    assert S.pos[P_RESERVED] == 0b10111111


@pytest.mark.parametrize(
    "trigger, seen, changed",
    [
        ("all_visible", {"4s": 4, "5s": 4}, True),
        ("all_visible", {"4s": 4, "5s": 3}, False),
        ("three_visible", {"4s": 2, "5s": 2}, True),
        ("three_visible", {"4s": 2, "5s": 1}, False),
    ],
)
def test_huanbao(trigger, seen, changed):
    """换宝 (§4.6): indicator 4s (seen once itself) makes the three other 4s and the four 5s
    宝; when all seven are visible (or three), the tile under it (slot 8) is the new one."""
    g, S, _W = _state(load_rules(HZ, hrb_huanbao_trigger=trigger), "")
    wall = np.zeros(112, dtype=np.int8)
    wall[112 - 7] = _k("4s")
    wall[112 - 8] = _k("2p")
    turn_indicator(g, S, wall, 6)
    for tile, n in seen.items():
        S.seen[_k(tile)] = n
    change_indicator(g, S, wall)
    assert (S.pos[P_BAO] == _k("2p")) == changed and S.pos[P_BAO_CHANGES] == int(changed)
    if changed:  # the old indicator stays dead and seen; the new one is seen too
        assert S.pos[P_RESERVED] == 0b11000000 and S.seen[_k("2p")] == 1


def test_fenzhang_win():
    """分张 (§4.8): one reserve tile a seat from the next drawer; the declared seat whose tile
    completes his hand wins it as a self-draw (海捞); tiles that do not win are laid open."""
    g, S, W = _state(HZ, "111m 234p 567p 99m 79s", seat=1, dealer=1, menting=True)
    wall = np.zeros(112, dtype=np.int8)
    wall[112 - 9] = _k("3m")  # slot 9: seat 0's
    wall[112 - 10] = _k("8s")  # slot 10: seat 1's
    S.pos[P_BAO_SLOT] = 6
    rec = np.zeros(len(game_config(HZ).columns), dtype=np.int32)
    assert fenzhang(g, S, W, wall, rec, 0) == 1
    assert rec[R.C_WIN_KIND] == R.WIN_HAIDILAO and rec[R.C_WIN_TILE] == _k("8s")
    assert S.seen[_k("3m")] == 1 and S.concealed[0].sum() == 0
    # 自摸, 卡, 闷听: M = 8; the winner is the dealer: 16 from each
    assert rec[R.C_UNITS + 1] == 8 and S.pay[0].tolist() == [-16, 48, -16, -16]


def test_chi_ting_beats_a_pung():
    """吃听 (§4.3): a chow after which the claimer declares is made on anyone's discard and
    comes before the pung; without it the 下家 pungs."""
    for chi_ting, want in ((True, (2, CLAIM_CHOW, _k("4s"))), (False, (1, CLAIM_PUNG, _k("5s")))):
        rules = load_rules(HZ, hrb_chi_ting_any_seat=chi_ting)
        g, S, W = _state(rules, "123m 456p 789p 7z 46s 9m", seat=2, declared=False)
        S.concealed[1] = _counts("55s 111m 258m 369p 19s")
        S.status[1, ST_COST], S.status[1, ST_KEY] = 4, 10**9
        S.status[2, ST_COST] = 2
        S.pos[P_TAIL], S.pos[P_HEAD] = 112, 53
        bots = np.zeros(4, dtype=np.int64)
        assert claim_on(g, S, W, bots, 0, _k("5s")) == want


def test_duibao_wins_at_once():
    """对宝 (§4.11): a seat that declares with a 宝 kind among its waits wins at once, as a
    self-drawn 宝 (+2 番); here with 立门胡 (+1): 8 from each."""
    g, S, W = _state(NE, "123m 789p 111z 46s 55s", seat=0, dealer=1, bao="4s")
    rec = np.zeros(len(game_config(NE).columns), dtype=np.int32)
    assert win_on_ready(g, S, W, np.zeros(136, np.int8), rec, 0)
    assert rec[R.C_UNITS] == 8 and _items(rec[R.C_PATTERNS]) == {"duibao", "limen"}
    assert rec[R.C_WIN_TILE] == _k("5s") and S.concealed[0].sum() == 13
    S.pos[P_BAO] = _k("7z")  # 宝 7z, 5z: not among the waits
    assert not win_on_ready(g, S, W, np.zeros(136, np.int8), rec, 0)


def test_push_out_a_pair():
    """推出 (§4.4): a declared seat with a 对倒 wait (5s or 8s) sets aside the pair with more
    live copies — where its bot wants it (the value bot) — and then wins only on that kind,
    ×2."""
    hand = "111m 234p 567p 55s 88s 9p"  # the 13 tiles and the drawn 9p
    for bot, pushed in ((R.BOT_VALUE, "5s"), (R.BOT_EFFICIENCY, None)):
        g, S, W = _state(HZ, hand)
        S.seen[_k("8s")] = 1  # one 8s visible: 5s has more live copies
        push_out(g, S, W, 0, _k("9p"), bot)
        want = PUSH_NONE if pushed is None else _k(pushed) + PUSH_NONE + 1
        assert S.status[0, ST_PUSH] == want
        S.concealed[0, _k("9p")] -= 1
        five = win_test_on(g, S, W, 0, _k("5s"), R.WIN_DIANPAO)
        eight = win_test_on(g, S, W, 0, _k("8s"), R.WIN_DIANPAO)
        if pushed:
            assert five[0] and five[1] == 2 and _items(five[2]) == {"push"} and not eight[0]
        else:
            assert five[:2] == (True, 1) and eight[:2] == (True, 1)
    # a wait with one pair (and a 卡) is no 对倒: nothing set aside
    g, S, W = _state(HZ, "111m 234p 567p 55s 79s 9p")
    push_out(g, S, W, 0, _k("9p"), R.BOT_VALUE)
    assert S.status[0, ST_PUSH] == PUSH_NONE


def test_reserve_replace_is_checked():
    """A reserve's replacement tiles need a reserve kept in place, and fewer than it holds."""
    for rules_id, value in ((HZ, 12), (HZ, -1), ("caishen16", 3)):
        rules = load_rules(rules_id)
        bad = dataclasses.replace(
            rules, game_spec=FrozenDict({**rules.game_spec, "reserve_replace": value})
        )
        with pytest.raises(RulesError, match="reserve_replace must be 0"):
            game_config(bad)


# --------------------------------------------------------------------------- the bots


def _with_game(rules_id, **values):
    """The rule set with some of its ``[game]`` values replaced."""
    rules = load_rules(rules_id)
    return dataclasses.replace(rules, game_spec=FrozenDict({**rules.game_spec, **values}))


@pytest.mark.parametrize(
    "bao, seen_2p, seen_5p, value_pick",
    [
        (None, 3, 0, "3p"),  # 卡 5p: 4 live × 2 = 8 beats 25p: 1 + 4 live (× 1) = 5
        (None, 0, 1, "6p"),  # 卡 5p: 3 × 2 = 6 loses to 25p: 4 + 3 = 7
        ("4p", 0, 1, "3p"),  # 5p a 宝 kind: 卡 5p self-drawn is 宝中宝, 3 × 16; 25p: 4 + 3 × 4
    ],
)
def test_value_bot_weighs_its_waits(bao, seen_2p, seen_5p, value_pick):
    """Item 6: among the discards that leave it ready, the value bot keeps the waits worth
    most (live winning tiles × the units of each win: 边卡吊 ×2, 宝中宝 ×16 where it can see
    the 宝); the efficiency bot keeps the most live winning tiles."""
    g, S, W = _state(HZ, "123m 789p 555s 77z 346p", declared=False, bao=bao)
    S.seen[_k("2p")] = seen_2p
    S.seen[_k("5p")] = seen_5p
    assert choose_discard(g, S, W, 0, R.BOT_VALUE) == _k(value_pick)
    assert choose_discard(g, S, W, 0, R.BOT_EFFICIENCY) == _k("6p")  # 25p: 5 or 7 live


def test_cautious_bot_weighs_the_undeclared_discarder_s_double():
    """Item 6 (§4.9: all three pay, an undeclared discarder ×2): dealing in costs only the
    discarder's extra share, so with a declared opponent the cautious bot folds — throws
    the tile that opponent discarded (1m) — only from shanten 3, and never where the
    discarder pays as the others; where the discarder pays alone (generic) from shanten 2."""
    far = "123m 78p 5s 8s 77z 4p 9s 2s 6m 9m"  # shanten 3
    near = "123m 789p 555s 7z 4p 9s 2s 6m"  # shanten 2
    for rules, hand, fold in (
        (HZ, far, True),
        (_with_game(HZ, fan_feeder=0), far, False),
        (HZ, near, False),
        ("generic", near, True),
    ):
        g, S, W = _state(rules, hand, declared=False)
        assert cost(g, S, W, 0, S.concealed[0]) == (4 if hand == far else 3)
        S.status[1, ST_DECLARED] = 1
        S.discards[1, _k("1m")] = 1
        S.seen[_k("1m")] = 1
        assert (choose_discard(g, S, W, 0, R.BOT_CAUTIOUS) == _k("1m")) == fold, rules
