"""Scripted walls for engine tests: tiles by name, and a wall that deals given hands.

>>> kinds("234m5s 7z f1")
[1, 2, 3, 22, 33, 34]
"""

from __future__ import annotations

import re

import numpy as np

from mjsim.kernels.deal import deal_seats
from mjsim.walls import WallSpec

#: the index of each suit letter's first kind (``f``: the flowers f1–f8, kinds 34–41)
_FIRST = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}


def kinds(text: str) -> list[int]:
    """Tiles in order: ``"234m5s"`` → [1, 2, 3, 22]; flowers as ``f1``–``f8``."""
    out = []
    text = re.sub(r"f(\d)", r"\1f", text.replace(" ", ""))
    for digits, suit in re.findall(r"(\d+)([mpszf])", text):
        out += [_FIRST[suit] + int(d) - 1 for d in digits]
    return out


def build_wall(rules, hands: dict[int, str], dealer=0, draws="", tail="", burn=0):
    """A wall dealing ``hands`` (seat → tiles); after the deal ``burn`` filler tiles, then
    ``draws`` in head order; ``tail`` fills the last slots (the first replacement tiles are
    its last ones). Filler is taken lowest kind first, so bonus tiles sit deep in the wall."""
    spec = WallSpec.from_rules(rules)
    pool = list(spec.multiset)
    want = {s: kinds(h) for s, h in hands.items()}
    for tiles in [*want.values(), kinds(draws), kinds(tail)]:
        for t in tiles:
            pool.remove(t)  # raises if the script asks for a fifth copy
    filler = sorted(pool)
    bonus = [t for t in filler if spec.is_bonus[t]]
    filler = [t for t in filler if not spec.is_bonus[t]]
    deal = []
    for rel in deal_seats(spec.hand_size):
        seat = (dealer + int(rel)) % 4
        deal.append(want[seat].pop(0) if want.get(seat) else filler.pop(0))
    assert all(not v for v in want.values()), "a hand has more tiles than the deal gives"
    middle = filler[:burn] + kinds(draws) + filler[burn:]
    # bonus tiles not scripted go in the middle of the wall, away from head and tail
    half = len(middle) // 2
    middle = middle[:half] + bonus + middle[half:]
    return np.array(deal + middle + kinds(tail), dtype=np.int8)
