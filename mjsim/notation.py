"""Reading and writing hands: compact notation, Chinese tile names and Unicode glyphs.

Compact notation is digits followed by a suit letter (``123m456p789s1122z``), with
exposed melds in brackets (``[123m]``, ``[5555p]``), concealed kongs in braces
(``{5555p}``), flowers ``f1``–``f8`` and an optional winning tile ``+5s (ron)``.
Chinese names are read too: ``五万``, ``5万``, ``一筒``/``1饼``, ``三条``/``3索``,
``东南西北``, ``中``/``红中``, ``发``/``发财``, ``白``/``白板``, and the flowers
``春夏秋冬梅兰菊竹``.

>>> h = parse_hand("123m 456p 789s 11z [555p]")
>>> to_compact(h)
'123m456p789s11z [555p]'
>>> to_compact(parse_hand("一万二万三万 东东"))
'123m11z'
>>> to_chinese(parse_hand("19m5z"))
'一万九万白'
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .rules.model import quote
from .tiles import (
    FLOWER_ZH,
    HONOUR_ZH,
    N_KINDS,
    NUMERAL_ZH,
    SUITS,
    Hand,
    Meld,
    glyph,
    name,
    zh_name,
)

#: the largest effective hand size accepted when no rule set is given
DEFAULT_MAX_TILES = 14


class NotationError(ValueError):
    """A hand string that cannot be read; the message names the token and its position."""


_SUIT_WORDS = {
    "万": "m",
    "萬": "m",
    "筒": "p",
    "饼": "p",
    "餅": "p",
    "条": "s",
    "條": "s",
    "索": "s",
}
# longest names first so that 红中 is read before 中
_HONOUR_WORDS = sorted(
    {
        **{zh: 27 + i for i, zh in enumerate(HONOUR_ZH)},
        "東": 27,
        "红中": 33,
        "紅中": 33,
        "發": 32,
        "发财": 32,
        "發財": 32,
        "白板": 31,
    }.items(),
    key=lambda item: -len(item[0]),
)
_FLOWER_WORDS = {zh: 34 + i for i, zh in enumerate(FLOWER_ZH)}
_DIGITS = "0123456789"


def _error(text: str, pos: int, token: str, why: str) -> NotationError:
    return NotationError(f"{why}: {quote(token)} at position {pos} in {quote(text, pos)}")


class _Reader:
    """Turns a hand string into (kind, position, token) triples, group by group."""

    def __init__(self, text: str, start: int = 0, end: int | None = None):
        self.text = text  # the whole input, so that errors quote it with true positions
        self.pos = start
        self.end = len(text) if end is None else end

    def tiles_until(self, closer: str | None) -> list[tuple[int, int, str]]:
        text, out = self.text, []
        while self.pos < self.end:
            ch = text[self.pos]
            if closer is not None and ch == closer:
                self.pos += 1
                return out
            if ch in "[]{}":
                if closer is None:
                    return out
                raise _error(
                    text, self.pos, ch, f"bracket inside a meld (close it with {closer!r} first)"
                )
            if ch.isspace() or ch in ",，、":
                self.pos += 1
            elif ch in _DIGITS:
                out.extend(self._digit_group())
            elif ch == "f" and self.pos + 1 < self.end and text[self.pos + 1] in _DIGITS:
                out.append(self._flower())
            elif ch in NUMERAL_ZH:
                out.append(self._chinese_suited())
            else:
                out.append(self._word())
        if closer is not None:
            raise _error(
                text, self.end, text[self.end - 1 : self.end], f"missing closing {closer!r}"
            )
        return out

    def _digit_group(self) -> list[tuple[int, int, str]]:
        text, start = self.text, self.pos
        while self.pos < self.end and text[self.pos] in _DIGITS:
            self.pos += 1
        if self.pos >= self.end:
            raise _error(text, start, text[start:], "digits without a suit letter (m, p, s or z)")
        letter = text[self.pos]
        suit = letter if letter in "mpsz" else _SUIT_WORDS.get(letter)
        if suit is None:
            raise _error(
                text,
                self.pos,
                letter,
                "unknown suit letter (use m, p, s, z or 万/筒/饼/条/索)",
            )
        self.pos += 1
        out = []
        for i in range(start, self.pos - 1):
            rank, token = int(text[i]), text[i] + letter
            if rank == 0:
                raise _error(text, i, token, "no tile 0 (these games have no red fives)")
            if suit == "z" and rank > 7:
                raise _error(text, i, token, "honours are 1z–7z (东南西北白发中)")
            kind = 26 + rank if suit == "z" else SUITS.index(suit) * 9 + rank - 1
            out.append((kind, i, token))
        return out

    def _flower(self) -> tuple[int, int, str]:
        text, start = self.text, self.pos
        digit = text[start + 1]
        self.pos += 2
        if digit not in "12345678":
            raise _error(text, start, text[start : start + 2], "flowers are f1–f8")
        return 33 + int(digit), start, text[start : start + 2]

    def _chinese_suited(self) -> tuple[int, int, str]:
        text, start = self.text, self.pos
        suit = _SUIT_WORDS.get(text[start + 1]) if start + 1 < len(text) else None
        if suit is None:
            raise _error(
                text,
                start,
                text[start : start + 2],
                "a Chinese numeral must be followed by 万, 筒/饼 or 条/索",
            )
        self.pos += 2
        return SUITS.index(suit) * 9 + NUMERAL_ZH.index(text[start]), start, text[start : start + 2]

    def _word(self) -> tuple[int, int, str]:
        text, start = self.text, self.pos
        for word, kind in _HONOUR_WORDS:
            if text.startswith(word, start):
                self.pos += len(word)
                return kind, start, word
        if text[start] in _FLOWER_WORDS:
            self.pos += 1
            return _FLOWER_WORDS[text[start]], start, text[start]
        raise _error(text, start, text[start], "unknown tile or symbol")


def _meld_from(
    tiles: list[tuple[int, int, str]], concealed: bool, text: str, pos: int, end: int
) -> Meld:
    kinds = sorted(k for k, _, _ in tiles)
    token = text[pos:end]
    if len(kinds) == 4 and len(set(kinds)) == 1 and kinds[0] < N_KINDS:
        return Meld("kong", kinds[0], concealed)
    if not concealed and len(kinds) == 3 and kinds[0] < N_KINDS:
        if len(set(kinds)) == 1:
            return Meld("pung", kinds[0])
        first = kinds[0]
        if first < 27 and first % 9 <= 6 and kinds == [first, first + 1, first + 2]:
            return Meld("chow", first)
    what = (
        "a concealed kong is four identical tiles"
        if concealed
        else ("a meld is a chow (three consecutive suited tiles), a pung or a kong")
    )
    raise _error(text, pos, token, f"not a meld ({what})")


def parse_hand(text: str, rules: Any = None) -> Hand:
    """Read a hand; ``rules`` (a :class:`~mjsim.rules.RuleSet` or its name) checks the tile set and size.

    >>> h = parse_hand("234m678p111p789s5s +5s (ron)")
    >>> h.n_concealed, h.win_tile, h.win_by
    (14, 22, 'ron')
    >>> parse_hand("0m")
    Traceback (most recent call last):
    ...
    mjsim.notation.NotationError: no tile 0 (these games have no red fives): '0m' at position 0 in '0m'
    """
    if not isinstance(text, str):
        raise NotationError(f"a hand must be a string, got {type(text).__name__}")
    if rules is not None:
        from .rules import load_rules  # a rule set's name: its preset; anything else refused

        rules = load_rules(rules)
    end, win_tile, win_by = _split_winning_tile(text)
    reader = _Reader(text, 0, end)
    concealed: list[tuple[int, int, str]] = []
    melds: list[Meld] = []
    flowers: list[int] = []
    seen: list[tuple[int, int, str]] = []
    while reader.pos < end:
        ch = text[reader.pos]
        if ch in "[{":
            start = reader.pos
            reader.pos += 1
            group = reader.tiles_until("]" if ch == "[" else "}")
            melds.append(_meld_from(group, ch == "{", text, start, reader.pos))
            seen.extend(group)
        elif ch in "]}":
            raise _error(text, reader.pos, ch, "closing bracket without an opening one")
        else:
            run = reader.tiles_until(None)
            for tile in run:
                (flowers if tile[0] >= N_KINDS else concealed).append(tile)
            seen.extend(run)
    if win_tile is not None:
        concealed.append(win_tile)
        seen.append(win_tile)
    _check(text, seen, concealed, melds, flowers, rules)
    counts = np.zeros(N_KINDS, dtype=np.uint8)
    for kind, _, _ in concealed:
        counts[kind] += 1
    return Hand(
        counts=counts,
        melds=tuple(melds),
        flowers=tuple(k for k, _, _ in flowers),
        win_tile=None if win_tile is None else win_tile[0],
        win_by=win_by,
    )


_WIN_RE = re.compile(r"\+\s*(\S+?)\s*(?:\((ron|tsumo|自摸|点炮)\))?\s*$")


def _split_winning_tile(text: str) -> tuple[int, tuple[int, int, str] | None, str | None]:
    """Where the hand before ``+`` ends, the winning tile (kind, position, token) and how."""
    plus = text.find("+")
    if plus < 0:
        return len(text), None, None
    match = _WIN_RE.fullmatch(text, plus)
    if match is None:
        raise _error(
            text, plus, text[plus:], "after '+' write one tile and optionally (ron) or (tsumo)"
        )
    tiles = _Reader(text, match.start(1), match.end(1)).tiles_until(None)
    if len(tiles) != 1 or tiles[0][0] >= N_KINDS:
        raise _error(text, plus + 1, match.group(1), "the winning tile after '+' must be one tile")
    by = {"自摸": "tsumo", "点炮": "ron"}.get(match.group(2), match.group(2))
    return plus, tiles[0], by


def _check(text, seen, concealed, melds, flowers, rules) -> None:
    if not concealed and not melds:
        raise NotationError(f"empty hand: no tiles in {quote(text)}")
    totals: dict[int, int] = {}
    for kind, pos, token in seen:
        totals[kind] = totals.get(kind, 0) + 1
        limit = 1 if kind >= N_KINDS else 4
        if totals[kind] > limit:
            copies = "a second copy of a flower" if kind >= N_KINDS else "a fifth copy of a tile"
            raise _error(text, pos, token, copies)
    if rules is not None:
        allowed = set(rules.kinds)
        for kind, pos, token in seen:
            if kind < N_KINDS and kind not in allowed:
                raise _error(
                    text, pos, token, f"the rule set {rules.id!r} has no tile {name(kind)}"
                )
            if kind >= N_KINDS and not rules.has_flowers:
                raise _error(text, pos, token, f"the rule set {rules.id!r} has no flowers")
    max_tiles = DEFAULT_MAX_TILES if rules is None else rules.hand_size + 1
    size = len(concealed) + 3 * len(melds)
    if size > max_tiles:
        hint = "" if rules is not None else " (pass rules='caishen16' for 16-tile hands)"
        raise NotationError(
            f"too many tiles: {quote(text)} has {size} (kongs count as 3), at most "
            f"{max_tiles}{hint}"
        )


def counts_to_compact(counts: np.ndarray) -> str:
    """Compact notation of a count vector, suits in the order m, p, s, z.

    >>> counts_to_compact(parse_hand("1122z345m").counts)
    '345m1122z'
    """
    parts = []
    for s, suit in enumerate("mpsz"):
        size = 7 if suit == "z" else 9
        digits = "".join(str(r + 1) * int(counts[s * 9 + r]) for r in range(size))
        if digits:
            parts.append(digits + suit)
    return "".join(parts)


def _meld_compact(meld: Meld) -> str:
    inner = counts_to_compact(np.bincount(meld.kinds, minlength=N_KINDS))
    return ("{%s}" if meld.concealed else "[%s]") % inner


def _without_win(hand: Hand) -> np.ndarray:
    counts = hand.counts.copy()
    if hand.win_tile is not None:
        counts[hand.win_tile] -= 1
    return counts


def _win_suffix(hand: Hand, tile_text) -> list[str]:
    if hand.win_tile is None:
        return []
    return ["+" + tile_text(hand.win_tile) + (f" ({hand.win_by})" if hand.win_by else "")]


def to_compact(hand: Hand) -> str:
    """Write a hand back in compact notation (concealed tiles, melds, flowers, ``+tile``)."""
    counts = _without_win(hand)
    parts = [counts_to_compact(counts)] if counts.any() else []
    parts += [_meld_compact(m) for m in hand.melds]
    parts += [name(f) for f in sorted(hand.flowers)]
    return " ".join(parts + _win_suffix(hand, name))


def _spell(hand: Hand, tile_text) -> str:
    """A hand written tile by tile with ``tile_text`` (concealed, melds, flowers, ``+tile``)."""
    counts = _without_win(hand)
    concealed = [k for k in range(N_KINDS) for _ in range(int(counts[k]))]
    parts = ["".join(tile_text(k) for k in concealed)] if concealed else []
    for meld in hand.melds:
        parts.append(
            ("{%s}" if meld.concealed else "[%s]") % "".join(tile_text(k) for k in meld.kinds)
        )
    parts += [tile_text(f) for f in sorted(hand.flowers)]
    return " ".join(parts + _win_suffix(hand, tile_text))


def to_chinese(hand: Hand) -> str:
    """Chinese tile names, e.g. ``一万二万三万``; melds in brackets as in compact notation."""
    return _spell(hand, zh_name)


def to_unicode(hand: Hand) -> str:
    """Unicode tile glyphs (🀇 …), melds in brackets.

    >>> to_unicode(parse_hand("123m"))
    '🀇🀈🀉'
    """
    return _spell(hand, glyph)


def tile_list(text: str) -> list[int]:
    """The kinds of a loose tile list in the order written (no flowers, no fifth copy).

    >>> tile_list("5p 2s 5p")
    [13, 19, 13]
    """
    parse_tiles(text)  # refuses flowers and fifth copies
    return [kind for kind, _pos, _token in _Reader(text).tiles_until(None)]


def parse_tiles(text: str) -> np.ndarray:
    """Counts of a loose tile list such as a ``--visible`` argument (no size limit).

    >>> int(parse_tiles("5555m 1z").sum())
    5
    """
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for kind, pos, token in _Reader(text).tiles_until(None):
        if kind >= N_KINDS:
            raise _error(text, pos, token, "flowers are not counted here")
        counts[kind] += 1
        if counts[kind] > 4:
            raise _error(text, pos, token, "a fifth copy of a tile")
    return counts
