"""Readiness in the played records (issue 16, item 1): the first time each seat's 13 tiles
won on some kind — the turn, the winning kinds, their live copies, exposed melds — checked
against the hands played and against a position."""

from __future__ import annotations

import numpy as np
import pytest

from mjsim.game import record as R
from mjsim.game.config import _playable, game_config
from mjsim.game.engine import _record_ready
from mjsim.game.play import play_frame
from mjsim.game.state import P_TURNS, new_scratch, new_state
from scripted import kinds


def _waits(row, s):
    lo, hi = int(row[f"ready_waits_lo_{s}"]), int(row[f"ready_waits_hi_{s}"])
    return [k for k in range(34) if (lo >> k if k < R.WAITS_SPLIT else
                                     hi >> (k - R.WAITS_SPLIT)) & 1]


@pytest.mark.parametrize("rules", [r.id for r in _playable()])
def test_every_winner_on_a_discard_was_ready(rules):
    """A seat wins on another's tile only with 13 tiles that win on it, so it was ready
    after some discard of its own, no later than the hand's last; the recorded kinds are
    there exactly when the turn is, with at most four live copies each."""
    df = play_frame(rules, n=400, seed=3)
    ron = df.win_kind.isin([R.WIN_DIANPAO, R.WIN_QIANGGANG, R.WIN_GANGPAO, R.WIN_HAIDIPAO])
    for s in range(4):
        turn = df[f"ready_turn_{s}"]
        assert (turn >= 0).all() and (turn <= df.turns).all()
        won = ron & ((df.winners.to_numpy().astype(np.int64) >> s) & 1).astype(bool)
        assert (turn[won] > 0).all(), rules
        has = (df[f"ready_waits_lo_{s}"] != 0) | (df[f"ready_waits_hi_{s}"] != 0)
        assert (has == (turn > 0)).all()
        for _, row in df[turn > 0].head(50).iterrows():
            assert 0 <= row[f"ready_live_{s}"] <= 4 * len(_waits(row, s))


def test_a_two_sided_wait_recorded():
    """``123m 456p 789s 11z 45s`` waits on 3s and 6s; with two 3s and one 6s in sight, five
    live copies; concealed."""
    g = game_config("generic").rules_arrays
    S = new_state()
    W = new_scratch(g.families.shape[0])
    S.concealed[0] = np.bincount(np.array(kinds("123m 456p 789s 11z 45s")), minlength=34)
    S.seen[kinds("3s")[0]] = 2
    S.seen[kinds("6s")[0]] = 1
    S.pos[P_TURNS] = 7
    rec = np.zeros(len(game_config("generic").columns), np.int32)
    _record_ready(g, S, W, rec, 0)
    assert rec[R.C_READY_TURN] == 7 and rec[R.C_READY_LIVE] == 5
    waits = [k for k in range(34) if (rec[R.C_READY_WAITS_LO] >> k if k < R.WAITS_SPLIT else
                                      rec[R.C_READY_WAITS_HI] >> (k - R.WAITS_SPLIT)) & 1]
    assert waits == kinds("3s 6s") and rec[R.C_READY_OPEN] == 0
