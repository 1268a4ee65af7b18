"""Tile kinds, the one index every rule set shares, and the hand container.

Index (DESIGN.md): 0–8 are 1m–9m (万), 9–17 are 1p–9p (筒), 18–26 are 1s–9s (条),
27–33 are 1z–7z (东 南 西 北 白 发 中), and 34–41 are the flowers f1–f8
(春 夏 秋 冬 梅 兰 菊 竹). A hand's concealed tiles are a ``uint8[34]`` count vector
(``counts``); flowers are kept apart.

>>> kind("5p"), name(13), suit_of(13), rank_of(13)
(13, '5p', 'p', 5)
>>> is_258(kind("8s")), is_honour(kind("7z")), zh_name(kind("7z"))
(True, True, '中')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

N_KINDS = 34
N_FLOWERS = 8
SUITS = "mps"
HONOURS = range(27, 34)
FLOWERS = range(34, 42)

#: Chinese names of the honours 1z–7z and the flowers f1–f8.
HONOUR_ZH = ("东", "南", "西", "北", "白", "发", "中")
FLOWER_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "菊", "竹")
SUIT_ZH = {"m": "万", "p": "筒", "s": "条"}
NUMERAL_ZH = "一二三四五六七八九"

# Unicode Mahjong Tiles block: characters 1F007, bamboo 1F010, circles 1F019,
# winds 1F000–1F003, red/green/white dragon 1F004–1F006, plum orchid bamboo
# chrysanthemum 1F022–1F025, spring summer autumn winter 1F026–1F029.
_SUIT_GLYPH_BASE = {"m": 0x1F007, "p": 0x1F019, "s": 0x1F010}
_HONOUR_GLYPHS = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)
_FLOWER_GLYPHS = (0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F025, 0x1F024)


def kind(text: str) -> int:
    """Index of one tile written in notation (``"5m"``, ``"7z"``, ``"f3"``).

    >>> kind("1m"), kind("9s"), kind("1z"), kind("f1")
    (0, 26, 27, 34)
    """
    text = text.strip()
    if len(text) == 2 and text[0] == "f" and text[1] in "12345678":
        return 34 + int(text[1]) - 1
    if len(text) == 2 and text[0].isdigit() and text[1] in "mpsz":
        rank = int(text[0])
        if text[1] == "z" and 1 <= rank <= 7:
            return 26 + rank
        if text[1] != "z" and 1 <= rank <= 9:
            return SUITS.index(text[1]) * 9 + rank - 1
    raise ValueError(f"not a tile: {text!r} (write 1m–9m, 1p–9p, 1s–9s, 1z–7z or f1–f8)")


def suit_of(k: int) -> str:
    """Suit letter of kind ``k``: ``m``, ``p``, ``s``, ``z`` (honours) or ``f`` (flowers)."""
    return "mpszzzzzf"[min(k // 9, 8)] if k < 34 else "f"


def rank_of(k: int) -> int:
    """Rank 1–9 of a suited kind, 1–7 of an honour, 1–8 of a flower."""
    if k < 27:
        return k % 9 + 1
    return k - 26 if k < 34 else k - 33


def is_honour(k: int) -> bool:
    return 27 <= k < 34


def is_terminal(k: int) -> bool:
    return k < 27 and k % 9 in (0, 8)


def is_258(k: int) -> bool:
    return k < 27 and k % 9 in (1, 4, 7)


def name(k: int) -> str:
    """Compact notation of kind ``k``."""
    return f"{rank_of(k)}{suit_of(k)}" if k < 34 else f"f{k - 33}"


def zh_name(k: int) -> str:
    """Chinese name: ``五万``, ``一筒``, ``三条``, ``东`` … ``中``, ``春`` … ``竹``."""
    if k < 27:
        return NUMERAL_ZH[k % 9] + SUIT_ZH[SUITS[k // 9]]
    return HONOUR_ZH[k - 27] if k < 34 else FLOWER_ZH[k - 34]


def glyph(k: int) -> str:
    """Unicode tile glyph, e.g. ``glyph(0) == '🀇'``."""
    if k < 27:
        return chr(_SUIT_GLYPH_BASE[SUITS[k // 9]] + k % 9)
    return chr(_HONOUR_GLYPHS[k - 27] if k < 34 else _FLOWER_GLYPHS[k - 34])


MeldType = Literal["chow", "pung", "kong"]


@dataclass(frozen=True)
class Meld:
    """A declared meld: ``first`` is its lowest kind; a kong is ``concealed`` or exposed."""

    type: MeldType
    first: int
    concealed: bool = False

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.type == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.type == "kong" else 3)


@dataclass(frozen=True, eq=False)
class Hand:
    """Concealed ``counts`` (``uint8[34]``), declared ``melds`` and set-aside ``flowers``.

    ``win_tile`` is the winning tile written after ``+`` (it is already in ``counts``)
    and ``win_by`` is ``"ron"``, ``"tsumo"`` or ``None``.
    """

    counts: np.ndarray
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    win_tile: int | None = None
    win_by: str | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return (
            np.array_equal(self.counts, other.counts)
            and self.melds == other.melds
            and sorted(self.flowers) == sorted(other.flowers)
            and (self.win_tile, self.win_by) == (other.win_tile, other.win_by)
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def n_concealed(self) -> int:
        return int(self.counts.sum())

    @property
    def n_exposed(self) -> int:
        """Number of declared melds (kongs included, concealed or not)."""
        return len(self.melds)

    @property
    def effective_size(self) -> int:
        """Tiles with each kong counted as three (RULES.md §0.3)."""
        return self.n_concealed + 3 * len(self.melds)

    def all_counts(self) -> np.ndarray:
        """Counts of every tile of the hand: concealed tiles plus meld tiles."""
        total = self.counts.astype(np.int64)
        for meld in self.melds:
            for k in meld.kinds:
                total[k] += 1
        return total
