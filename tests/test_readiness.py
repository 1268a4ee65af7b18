"""Readiness in the played records (issue 16, item 1): the first time each seat's 13 tiles
won on some kind — the turn, the winning kinds, their live copies, the wait's shape,
exposed melds — checked against the hands played, against positions, and the shapes against
the Python decompositions (:mod:`mjsim.decomposition`)."""

from __future__ import annotations

import numpy as np
import pytest
from scripted import kinds

from mjsim.decomposition import decompose
from mjsim.efficiency import waits_batch
from mjsim.game import record as R
from mjsim.game import shape as SH
from mjsim.game import values as V
from mjsim.game.config import game_config, playable_rules, with_readiness
from mjsim.game.play import play_frame
from mjsim.game.state import P_TURNS, add_meld, new_scratch, new_state
from mjsim.game.wins import record_ready
from mjsim.notation import counts_to_compact
from mjsim.rules import load_rules


def _waits(row, s):
    return _kinds_of(int(row[f"ready_waits_lo_{s}"]), int(row[f"ready_waits_hi_{s}"]))


def _kinds_of(lo, hi):
    return [
        k for k in range(34) if (lo >> k if k < R.WAITS_SPLIT else hi >> (k - R.WAITS_SPLIT)) & 1
    ]


@pytest.mark.parametrize("rules", [r.id for r in playable_rules()])
def test_every_winner_on_a_discard_was_ready(rules):
    """A seat wins on another's tile only with tiles that win on it, so it was ready as
    dealt or after a discard of its own, no later than the hand's last; the recorded kinds
    are there exactly when the shape is, with at most four live copies each."""
    df = play_frame(rules, n=400, seed=3, readiness=True)
    ron = df.win_kind.isin([R.WIN_DIANPAO, R.WIN_QIANGGANG, R.WIN_GANGPAO, R.WIN_HAIDIPAO])
    for s in range(4):
        turn = df[f"ready_turn_{s}"]
        ready = df[f"ready_shape_{s}"] != SH.SHAPE_NONE
        assert (turn >= 0).all() and (turn <= df.turns).all() and (turn[~ready] == 0).all()
        won = ron & ((df.winners.to_numpy().astype(np.int64) >> s) & 1).astype(bool)
        assert ready[won].all(), rules
        has = (df[f"ready_waits_lo_{s}"] != 0) | (df[f"ready_waits_hi_{s}"] != 0)
        assert (has == ready).all()
        # turn 0 is as dealt: a non-dealer only
        assert (df.dealer[ready & (turn == 0)] != s).all()
        for _, row in df[ready].head(50).iterrows():
            assert 0 <= row[f"ready_live_{s}"] <= 4 * len(_waits(row, s))
        # a seat declares (报听, 敲) only when ready: its declaration turn, from the first
        # discard on which it was ready, is there exactly when its bit of ``declared`` is
        declare = df[f"declare_turn_{s}"]
        declared = ((df.declared.to_numpy().astype(np.int64) >> s) & 1).astype(bool)
        assert ((declare > 0) == declared).all(), rules
        assert ready[declared].all() and (turn[declared] <= declare[declared]).all()


def test_a_two_sided_wait_recorded():
    """``123m 456p 789s 11z 45s`` waits on 3s and 6s; with two 3s and one 6s in sight, five
    live copies; concealed."""
    g = with_readiness(game_config("generic").rules_arrays)
    S = new_state()
    W = new_scratch()
    S.concealed[0] = np.bincount(np.array(kinds("123m 456p 789s 11z 45s")), minlength=34)
    S.seen[kinds("3s")[0]] = 2
    S.seen[kinds("6s")[0]] = 1
    S.pos[P_TURNS] = 7
    rec = np.zeros(len(game_config("generic").columns), np.int32)
    record_ready(g, S, W, rec, 0)
    assert rec[R.C_READY_TURN] == 7 and rec[R.C_READY_LIVE] == 5
    assert _waits_of(rec) == kinds("3s 6s") and rec[R.C_READY_OPEN] == 0


def _waits_of(rec):
    return _kinds_of(int(rec[R.C_READY_WAITS_LO]), int(rec[R.C_READY_WAITS_HI]))


# --------------------------------------------------------------------------- wait shapes

_REF_SHAPE = {
    "ryanmen": "open",
    "edge": "edge",
    "closed": "closed",
    "single": "single",
    "shanpon": "double_pung",
}
_MOST = {"open": 2, "double_pung": 2}
_WIDEST = ("ryanmen", "shanpon", "closed", "edge", "single")


def _recorded(rules, text, melds=(), wild=None):
    """``record_ready`` of seat 0 holding ``text`` (and ``melds``: (kind, type) rows; the
    kind ``wild`` wild for it)."""
    g = with_readiness(game_config(rules).rules_arrays)
    S = new_state()
    W = new_scratch()
    S.concealed[0] = np.bincount(np.array(kinds(text)), minlength=34)
    if wild is not None:
        S.wild[0, wild] = True
    for kind, mtype in melds:
        add_meld(g, S, 0, np.int64(kind), np.int64(mtype), np.int64(1))
    S.pos[P_TURNS] = 5
    rec = np.zeros(len(game_config(rules).columns), np.int32)
    record_ready(g, S, W, rec, 0)
    return rec


def _shape(rules, text, melds=(), wild=None):
    return SH.SHAPES[_recorded(rules, text, melds, wild)[R.C_READY_SHAPE]]


def _reference_shape(text):
    """The generic shape from the Python decompositions (:func:`mjsim.decomposition.decompose`):
    each winning kind's widest wait name (ryanmen, shanpon, closed, edge, single); one name
    on no more kinds than the shape has, or several."""
    counts = np.bincount(np.array(kinds(text)), minlength=34)
    names, n = set(), 0
    for t in range(34):
        if counts[t] == 4:
            continue
        tile = counts_to_compact(np.eye(34, dtype=int)[t])
        found = {d.wait for d in decompose(f"{text} +{tile}")}
        if found:
            n += 1
            names.add(next(w for w in _WIDEST if w in found))
    if not n:
        return "none"
    if len(names) == 1:
        shape = _REF_SHAPE[names.pop()]
        if n <= _MOST.get(shape, 1):
            return shape
    return "several"


@pytest.mark.parametrize(
    "text,want",
    [
        ("123m 456p 789s 11z 45s", "open"),
        ("123m 456p 789s 11z 12s", "edge"),
        ("123m 456p 789s 11z 89s", "edge"),
        ("123m 456p 789s 11z 46s", "closed"),
        ("123m 456p 789s 123s 1z", "single"),
        ("123m 456p 789s 11z 55s", "double_pung"),
        ("123m 456p 11z 23456s", "several"),  # 1s 4s 7s
        ("123m 456p 789s 1112s", "several"),  # 2s 单吊, 3s 边
        ("1122m 3344p 5566s 7z", "single"),  # seven pairs
        ("123m 456p 11z 12234s", "closed"),  # 3s only: 234 + 12 (边) or 123 + 24 (嵌)
        ("123m 456p 11z 45567s", "open"),  # 3s 6s: 6s as 456 + 57 or 567 + 45
    ],
)
def test_wait_shapes(text, want):
    """Positions of each shape (generic), as the Python decompositions read them too."""
    assert _shape("generic", text) == want
    assert _reference_shape(text) == want


def test_wait_shapes_agree_with_the_python_decompositions():
    """Random ready hands (a complete hand less one tile, never a fifth copy): the engine's
    shape is the one the Python decompositions give."""
    rng = np.random.default_rng(16)
    seen = set()
    for _ in range(150):
        counts = np.zeros(34, np.int64)
        while counts.sum() < 12:
            k = int(rng.integers(34))
            chow = k < 27 and k % 9 < 7 and rng.random() < 0.6
            group = [k, k + 1, k + 2] if chow else [k] * 3
            if all(counts[g] + group.count(g) <= 4 for g in group):
                for g in group:
                    counts[g] += 1
        pair = int(rng.integers(34))
        if counts[pair] > 2:
            continue
        counts[pair] += 2
        drop = int(rng.choice(np.flatnonzero(counts)))
        counts[drop] -= 1
        text = counts_to_compact(counts)
        want = _reference_shape(text)
        assert _shape("generic", text) == want, text
        seen.add(want)
    assert {"open", "edge", "closed", "single", "double_pung", "several"} <= seen


def test_shapes_follow_the_rule_sets_pairs():
    """Changsha's small win needs a 2/5/8 pair, its 碰碰胡 takes any pair but no chow: a
    单吊 on 3s is a wait with four pungs, none with an exposed chow; on 5s it is both."""
    assert _shape("changsha", "123m 456p 789s 22m 45s") == "open"
    assert _shape("changsha", "111m 444p 777s 999p 3s") == "single"
    # with a chow exposed, 碰碰胡 is gone and a non-258 单吊 wins nothing: not ready
    assert _recorded("changsha", "111m 444p 777s 3s", melds=((18, 0),))[R.C_READY_TURN] == 0
    assert _shape("changsha", "111m 444p 777s 5s", melds=((18, 0),)) == "single"


def test_a_held_wild_tile_makes_the_shape_wild():
    """``123m 456p 789s 111z 7z`` waits on 7z (单吊); with 7z wild it is ready on more, and
    its shape is ``wild``. A wild kind not held wins too when drawn, but is not read:
    ``45s`` stays 两面 with 7z wild."""
    assert _shape("generic", "123m 456p 789s 111z 7z") == "single"
    assert _shape("generic", "123m 456p 789s 111z 7z", wild=kinds("7z")[0]) == "wild"
    rec = _recorded("generic", "123m 456p 789s 11z 45s", wild=kinds("7z")[0])
    assert _waits_of(rec) == kinds("3s 6s 7z")
    assert SH.SHAPES[rec[R.C_READY_SHAPE]] == "open"


@pytest.mark.parametrize("rules", [r.id for r in playable_rules()])
def test_recorded_waits_are_the_waits_kernels(rules):
    """The kinds recorded (tried only where they could win: held, near, the rule set's
    ``far_waits``) are those :func:`mjsim.efficiency.waits_batch` finds trying all 34, on
    ready hands made by taking one tile from a complete hand (no wild tiles, no melds;
    under 定缺 void in 条, as the engine's seat would be)."""
    rs = load_rules(rules)
    rng = np.random.default_rng(7)
    g = with_readiness(game_config(rules).rules_arrays)
    void = 2 if g.cfg[V.VOID] != V.VOID_NONE else None
    kinds_ = np.array([k for k in np.flatnonzero(g.kind_mask) if void is None or k // 9 != void])
    hands = []
    while len(hands) < 120:
        counts = np.zeros(34, np.int64)
        for _ in range(rs.melds):
            k = int(rng.choice(kinds_))
            group = [k, k + 1, k + 2] if k < 27 and k % 9 < 7 and rng.random() < 0.6 else [k] * 3
            for k_ in group:
                counts[k_] += 1
        counts[int(rng.choice(kinds_))] += 2
        if (counts > 4).any() or not set(np.flatnonzero(counts)) <= set(kinds_):
            continue
        counts[int(rng.choice(np.flatnonzero(counts)))] -= 1
        hands.append(counts.astype(np.uint8))
    want, _ = waits_batch(np.array(hands), rs, void=void)
    for counts, row in zip(hands, want):
        S = new_state()
        W = new_scratch()
        S.concealed[0] = counts
        if void is not None:
            S.void[0] = void
        S.pos[P_TURNS] = 3
        rec = np.zeros(len(game_config(rules).columns), np.int32)
        record_ready(g, S, W, rec, 0)
        assert _waits_of(rec) == list(np.flatnonzero(row)), (rules, counts_to_compact(counts))


def test_a_constrained_family_reads_only_the_decompositions_it_accepts():
    """hongzhong112 asks for a pung: ``11122233m 456p 99p`` waits on 3m (333m, or 123m × 3
    without a pung, which the rules refuse) and 9p (999p): 对倒."""
    assert _shape("hongzhong112", "11122233m 456p 99p") == "double_pung"
