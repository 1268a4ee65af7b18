"""Play hands: the Python facade over :mod:`mjsim.game.engine`.

>>> df = play_frame("changsha", 16, seed=1)
>>> len(df), int(df[[f"pay_{s}" for s in range(4)]].sum(axis=1).abs().max())
(16, 0)
>>> row = df.iloc[5]
>>> bool(replay("changsha", 1, int(row["index"]), int(row["dealer"]))["pay_0"] == row["pay_0"])
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..kernels.rng import index_seed, stream_key
from ..progress import progress_bar
from ..rules import RuleSet, RulesError, load_rules
from ..sim.walls import DICE_STREAM
from ..sim.walls import walls as _walls
from . import engine as EN
from . import record as R
from .config import game_config

GAME_LENGTH = EN.GAME_LENGTH
DEFAULT_BOTS = ("efficiency",) * 4
#: hands per kernel call in :func:`play_frame` (a multiple of GAME_LENGTH)
CHUNK = 8192


def parse_bots(text: str | tuple | list | None) -> tuple[str, str, str, str]:
    """Four bot names from ``"efficiency,value,cautious,efficiency"``, one name, or a list.

    >>> parse_bots("value")
    ('value', 'value', 'value', 'value')
    >>> parse_bots("efficiency,value")
    Traceback (most recent call last):
    ...
    ValueError: --bots needs one bot or four (one per seat), got 2: efficiency,value
    >>> parse_bots("greedy")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'greedy'; bots: efficiency, value, cautious
    """
    if text is None:
        return DEFAULT_BOTS
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text)]
    for name in names:
        if name not in R.BOTS:
            raise ValueError(f"unknown bot {name!r}; bots: {', '.join(R.BOTS)}")
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise ValueError(f"--bots needs one bot or four (one per seat), got {len(names)}: "
                         f"{','.join(names)}")
    return tuple(names)


@dataclass(frozen=True)
class _Kernel:
    E: tuple
    seats: np.ndarray
    is_bonus: np.ndarray
    multiset: np.ndarray
    stream: int


def _kernel(rules: RuleSet) -> _Kernel:
    g = game_config(rules)
    wild = np.zeros(34, dtype=np.bool_)
    E = (g.cfg, g.families, g.roles, g.kind_mask, g.honour_mask, wild, g.tables)
    return _Kernel(E, g.spec.deal_seats, g.spec.is_bonus, g.spec.multiset, g.spec.stream)


def _rules(rules: str | RuleSet) -> RuleSet:
    return load_rules(rules) if isinstance(rules, str) else rules


def _bot_codes(bots: Any) -> np.ndarray:
    return np.array([R.BOTS.index(b) for b in parse_bots(bots)], dtype=np.int64)


def play_rows(rules: str | RuleSet, seed: int, start: int, n: int,
              bots: Any = DEFAULT_BOTS) -> np.ndarray:
    """Records of hands ``start .. start + n - 1`` as ``int32[n, N_COLUMNS]``.

    ``start`` must be a multiple of :data:`GAME_LENGTH` (hands are played in games of
    that many, the dealer rotating inside a game).
    """
    rules = _rules(rules)
    if start < 0 or n < 0 or start % GAME_LENGTH:
        raise ValueError(f"start must be a non-negative multiple of {GAME_LENGTH} and n >= 0 "
                         f"(got start={start}, n={n})")
    if start + n >= 2**31:
        raise ValueError(f"hand indices must stay below 2**31 (start + n = {start + n})")
    k = _kernel(rules)
    out = np.zeros((n, R.N_COLUMNS), dtype=np.int32)
    if n:
        EN.play_games(*k.E, k.seats, k.is_bonus, k.multiset, stream_key(seed, k.stream),
                      stream_key(seed, DICE_STREAM), _bot_codes(bots), np.int64(start), out)
    return out


def play_frame(rules: str | RuleSet, n: int, seed: int = 0, bots: Any = DEFAULT_BOTS,
               progress: bool = False) -> pd.DataFrame:
    """A DataFrame of ``n`` played hands (columns: :data:`mjsim.game.record.COLUMNS`)."""
    rules = _rules(rules)
    parts = []
    with progress_bar("hands", n, enabled=progress) as advance:
        for start in range(0, n, CHUNK):
            m = min(CHUNK, n - start)
            parts.append(play_rows(rules, seed, start, m, bots))
            advance(m)
    rows = np.concatenate(parts) if parts else np.zeros((0, R.N_COLUMNS), np.int32)
    return R.to_frame(rows, seed)


def play_wall(rules: str | RuleSet, wall: np.ndarray, dealer: int = 0,
              bots: Any = DEFAULT_BOTS, burn: int = 0,
              melds: tuple[tuple[int, int, int], ...] = (), dice_seed: int = 0
              ) -> tuple[dict[str, int], dict[str, np.ndarray]]:
    """Play one hand on a given ``wall`` (kinds, head first): its record as a dict and the
    final state (``conc``, ``meldc``, ``melds``, ``nm``, ``seen``, ``disc``, ``st``,
    ``head``, ``tail``).

    A scripted position for tests: ``burn`` head tiles are set aside after the deal, and
    ``melds`` — ``(seat, kind, MELD_*)`` — turn dealt tiles into exposed melds before play.
    """
    rules = _rules(rules)
    k = _kernel(rules)
    wall = np.asarray(wall, dtype=np.int8)
    if sorted(wall.tolist()) != sorted(k.multiset.tolist()):
        raise RulesError(f"a {rules.id} wall must hold its {k.multiset.size} tiles exactly once")
    if not 0 <= dealer <= 3:
        raise ValueError(f"dealer must be a seat 0–3, got {dealer}")
    start = np.array([burn] + [v for seat, kind, mtype in melds for v in (seat + 1, kind, mtype)]
                     + [0], dtype=np.int64)
    rec = np.zeros(R.N_COLUMNS, dtype=np.int32)
    S, pos = EN.play_one(k.E, k.seats, k.is_bonus, wall, dealer, _bot_codes(bots),
                         np.uint64(int(dice_seed)), start, rec)
    names = ("conc", "meldc", "melds", "nm", "mflags", "seen", "disc", "st")
    state = dict(zip(names, S))
    state["head"], state["tail"] = int(pos[EN.P_HEAD]), int(pos[EN.P_TAIL])
    return dict(zip(R.COLUMNS, rec.tolist())), state


def replay(rules: str | RuleSet, seed: int, index: int, dealer: int,
           bots: Any = DEFAULT_BOTS) -> dict[str, int]:
    """The record of hand ``index`` of ``seed`` replayed alone, given its dealer."""
    rules = _rules(rules)
    wall = _walls(rules, seed, index, 1)[0]
    k = _kernel(rules)
    dice = np.uint64(index_seed(stream_key(seed, DICE_STREAM), index))
    rec = np.zeros(R.N_COLUMNS, dtype=np.int32)
    EN.play_one(k.E, k.seats, k.is_bonus, wall, dealer, _bot_codes(bots), dice,
                np.zeros(1, dtype=np.int64), rec)
    rec[R.C_INDEX] = index
    return dict(zip(R.COLUMNS, rec.tolist()))
