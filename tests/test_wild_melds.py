"""A wild tile never stands for a fifth copy of a kind, counting the seat's melds (issue 28):
the engine's win test reads a hand as :func:`mjsim.is_win` (and so waits and shanten) does.

The two positions of the issue: 百搭 1m in ``shanghai_baida`` and 财神 5m in ``caishen16``,
each with a melded pung of 东 and a pair that only a wild tile standing for a fifth 东 could
make; then random hands with melds and wild tiles in every rule set whose wild tiles are
turned at the deal, the engine's shape test against ``is_win`` hand by hand.
"""

from __future__ import annotations

import numpy as np
import pytest
from scripted import kinds

from mjsim import is_win
from mjsim.game import record as R
from mjsim.game import values as V
from mjsim.game.config import game_config, playable_rules
from mjsim.game.evaluation import cost
from mjsim.game.state import MELD_PUNG, add_meld, new_scratch, new_state
from mjsim.game.wins import win_test
from mjsim.notation import counts_to_compact
from mjsim.rules import load_rules
from mjsim.walls import WallSpec

#: rule sets whose wild tiles are turned at the deal (百搭, 财神): a seat holds them as its
#: wild kinds (``State.wild``); the 宝 games' wild draw already tries only kinds it may add
WILD_SETS = [
    r.id for r in playable_rules() if game_config(r).rules_arrays.cfg[V.WILD] == V.WILD_INDICATOR
]


def _seat(rules, concealed: list[int], pungs: list[int], wild: int):
    """The engine's arrays, a state whose seat 0 holds ``concealed`` beside pungs of
    ``pungs`` (claimed from seat 1) with ``wild`` its wild kind, and scratch."""
    g = game_config(rules).rules_arrays
    S, W = new_state(), new_scratch()
    for kind in pungs:
        add_meld(g, S, 0, kind, MELD_PUNG, 1)
    S.concealed[0] = np.bincount(np.array(concealed, dtype=np.int64), minlength=34)
    S.wild[0, wild] = True
    return g, S, W


def _text(concealed: list[int], pungs: list[int]) -> str:
    counts = np.bincount(np.array(concealed, dtype=np.int64), minlength=34).astype(np.uint8)
    melds = "".join(f" [{counts_to_compact(np.bincount([k] * 3, minlength=34))}]" for k in pungs)
    return counts_to_compact(counts) + melds


def test_wild_sets():
    assert set(WILD_SETS) == {"caishen16", "shanghai_baida"}


@pytest.mark.parametrize(
    "rules, concealed, pung, wild, tile",
    [
        ("shanghai_baida", "1m 123456789p 1z", "1z", "1m", "9p"),
        ("caishen16", "1z 5m 123p 456p 789p 123s", "1z", "5m", "3s"),
    ],
)
def test_no_fifth_copy_beside_a_melded_pung(rules, concealed, pung, wild, tile):
    """The issue's positions: the pair 东 + wild would be a fifth 东 beside the melded 东
    pung; neither the engine nor is_win wins. The same tiles with a 南 pung win in both (a
    wild tile stands for a copy that is left), and with the three 东 concealed in neither."""
    w, t, east, south = kinds(wild)[0], kinds(tile)[0], kinds("1z")[0], kinds("2z")[0]
    for pungs, wins in (([kinds(pung)[0]], False), ([south], True)):
        hand = kinds(concealed)
        assert is_win(_text(hand, pungs), rules, wild=[w]) == wins
        g, S, W = _seat(rules, hand, pungs, w)
        legal = win_test(g, S, W, 0, R.WIN_ZIMO, t)[0]
        assert legal == wins, (rules, pungs)
    hand = kinds(concealed) + [east] * 3
    assert not is_win(_text(hand, []), rules, wild=[w])
    g, S, W = _seat(rules, hand, [], w)
    assert cost(g, S, W, 0, S.concealed[0]) != 0


def _random_hand(rng, rules, kinds_ok: list[int]):
    """Seat 0's tiles as ``(concealed, pungs, wild)``: one or two melded pungs; sets and a
    pair, the pair often of a melded pung's kind; one or two of the concealed tiles made
    tiles of the wild kind, and often one tile changed at random; None where a kind would
    have a fifth copy."""
    n_sets = (rules.hand_size + 1 - 2) // 3
    pungs = list(rng.choice(kinds_ok, size=rng.integers(1, 3), replace=False))
    hand = []
    for _ in range(n_sets - len(pungs)):
        k = int(rng.choice(kinds_ok))
        chow = k < 27 and k % 9 <= 6 and k + 2 in kinds_ok and rng.random() < 0.6
        hand += [k, k + 1, k + 2] if chow else [k] * 3
    pair = int(rng.choice(pungs)) if rng.random() < 0.5 else int(rng.choice(kinds_ok))
    hand += [pair, pair]
    wild = int(rng.choice(kinds_ok))
    for i in rng.choice(len(hand), size=rng.integers(1, 3), replace=False):
        hand[i] = wild
    if rng.random() < 0.4:  # one tile off: mostly no win
        hand[int(rng.integers(len(hand)))] = int(rng.choice(kinds_ok))
    total = np.bincount(hand + [int(k) for k in pungs for _ in range(3)], minlength=34)
    return None if total.max() > 4 else (hand, [int(k) for k in pungs], wild)


@pytest.mark.parametrize("rules_id", WILD_SETS)
def test_engine_win_test_is_is_win(rules_id):
    """Random hands with melds and wild tiles: the engine's shape test (cost 0 over the
    scoring families) is is_win's, hand by hand; both answers occur, and so do hands whose
    pair is a melded pung's kind."""
    rules = load_rules(rules_id)
    bonus = WallSpec.from_rules(rules).is_bonus  # set aside, never in a hand (百搭's dragons)
    kinds_ok = [k for k in range(34) if k in set(rules.kinds) and not bonus[k]]
    rng = np.random.default_rng(28)
    seen = {True: 0, False: 0}
    beside = 0
    while sum(seen.values()) < 400:
        drawn = _random_hand(rng, rules, kinds_ok)
        if drawn is None:
            continue
        hand, pungs, wild = drawn
        g, S, W = _seat(rules, hand, pungs, wild)
        engine = cost(g, S, W, 0, S.concealed[0]) == 0
        text = _text(hand, pungs)
        assert engine == is_win(text, rules, wild=[wild]), (rules_id, text, wild)
        seen[engine] += 1
        beside += any(hand.count(k) for k in pungs)
    assert seen[True] > 40 and seen[False] > 40 and beside > 40, (seen, beside)
