"""Hand notation: round trips of random hands, Chinese names, the winning tile, and the
error messages for bad input (each names the token and its position)."""

from __future__ import annotations

import re
import unicodedata

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjsim.notation import (
    NotationError,
    counts_to_compact,
    parse_hand,
    parse_tiles,
    to_chinese,
    to_compact,
    to_unicode,
)
from mjsim.tiles import (
    N_KINDS,
    Hand,
    Meld,
    glyph,
    is_258,
    is_honour,
    is_terminal,
    kind,
    name,
    rank_of,
    suit_of,
    zh_name,
)

# ---------------------------------------------------------------- random valid hands


@st.composite
def melds(draw) -> Meld:
    mtype = draw(st.sampled_from(["chow", "pung", "kong"]))
    if mtype == "chow":
        suit = draw(st.integers(0, 2))
        return Meld("chow", suit * 9 + draw(st.integers(0, 6)))
    first = draw(st.integers(0, N_KINDS - 1))
    concealed = mtype == "kong" and draw(st.booleans())
    return Meld(mtype, first, concealed)


@st.composite
def hands(draw, max_size: int = 14) -> Hand:
    """A valid hand: ≤ 4 copies of a kind counting meld tiles, effective size ≤ max_size,
    at least one tile besides flowers, each flower at most once."""
    used = np.zeros(N_KINDS, dtype=np.int64)
    chosen: list[Meld] = []
    for meld in draw(st.lists(melds(), max_size=4)):
        extra = np.bincount(meld.kinds, minlength=N_KINDS)
        if (used + extra <= 4).all() and 3 * (len(chosen) + 1) <= max_size:
            used += extra
            chosen.append(meld)
    budget = max_size - 3 * len(chosen)
    counts = np.zeros(N_KINDS, dtype=np.uint8)
    for k in draw(st.lists(st.integers(0, N_KINDS - 1), max_size=budget)):
        if used[k] < 4:
            used[k] += 1
            counts[k] += 1
    if not chosen and not counts.any():
        counts[draw(st.integers(0, N_KINDS - 1))] = 1
    flowers = tuple(sorted(draw(st.sets(st.integers(34, 41), max_size=8))))
    return Hand(counts=counts, melds=tuple(chosen), flowers=flowers)


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(hands())
def test_compact_round_trip(hand: Hand) -> None:
    text = to_compact(hand)
    assert parse_hand(text) == hand
    # spaces between groups are optional
    assert parse_hand(text.replace(" ", "")) == hand
    assert hand.effective_size <= 14


@FAST
@given(hands())
def test_chinese_round_trip(hand: Hand) -> None:
    text = to_chinese(hand)
    assert not re.search(r"[0-9a-z]", text), text
    assert parse_hand(text) == hand


_GLYPH_KIND = {glyph(k): k for k in range(42)}


@FAST
@given(hands())
def test_unicode_one_glyph_per_tile(hand: Hand) -> None:
    text = to_unicode(hand)
    glyphs = [ch for ch in text if ch not in " []{}"]
    n_tiles = hand.n_concealed + sum(len(m.kinds) for m in hand.melds) + len(hand.flowers)
    assert len(glyphs) == n_tiles
    assert all(0x1F000 <= ord(ch) <= 0x1F029 for ch in glyphs), text
    # the glyphs are the hand's tiles: concealed, meld and flower kinds
    seen = np.bincount([_GLYPH_KIND[ch] for ch in glyphs], minlength=42)
    assert seen[:N_KINDS].tolist() == hand.all_counts().tolist()
    assert np.flatnonzero(seen[N_KINDS:]).tolist() == [f - 34 for f in hand.flowers]
    assert text.count("[") == sum(not m.concealed for m in hand.melds)
    assert text.count("{") == sum(m.concealed for m in hand.melds)


@FAST
@given(hands(max_size=13), st.integers(0, N_KINDS - 1), st.sampled_from([None, "ron", "tsumo"]))
def test_winning_tile_round_trip(hand: Hand, win: int, by: str | None) -> None:
    if hand.all_counts()[win] >= 4:
        win = int(np.flatnonzero(hand.all_counts() < 4)[0])
    suffix = f" ({by})" if by else ""
    parsed = parse_hand(f"{to_compact(hand)} +{name(win)}{suffix}")
    expected = hand.counts.copy()
    expected[win] += 1
    assert parsed.counts.tolist() == expected.tolist()
    assert (parsed.melds, parsed.flowers) == (hand.melds, hand.flowers)
    assert (parsed.win_tile, parsed.win_by) == (win, by)


def test_docstring_examples() -> None:
    assert to_compact(parse_hand("123m 456p 789s 11z [555p]")) == "123m456p789s11z [555p]"
    assert to_compact(parse_hand("一万二万三万 东东")) == "123m11z"
    assert to_chinese(parse_hand("19m5z")) == "一万九万白"
    assert to_unicode(parse_hand("123m")) == "🀇🀈🀉"
    assert counts_to_compact(parse_hand("1122z345m").counts) == "345m1122z"


def test_melds_and_flowers_parse() -> None:
    hand = parse_hand("12m [555p] [789s] {1111z} [2222z] f3 f1")
    assert hand.melds == (
        Meld("pung", 13),
        Meld("chow", 24),
        Meld("kong", 27, True),
        Meld("kong", 28, False),
    )
    assert sorted(hand.flowers) == [34, 36]
    assert hand.n_concealed == 2 and hand.effective_size == 14
    assert to_compact(hand) == "12m [555p] [789s] {1111z} [2222z] f1 f3"


# ---------------------------------------------------------------- Chinese names

CHINESE = [
    ("五万", "5m"),
    ("5万", "5m"),
    ("五萬", "5m"),
    ("5萬", "5m"),
    ("一筒", "1p"),
    ("1饼", "1p"),
    ("1筒", "1p"),
    ("一饼", "1p"),
    ("一餅", "1p"),
    ("1餅", "1p"),
    ("三条", "3s"),
    ("3索", "3s"),
    ("三索", "3s"),
    ("三條", "3s"),
    ("3條", "3s"),
    ("东南西北", "1234z"),
    ("東", "1z"),
    ("中", "7z"),
    ("红中", "7z"),
    ("紅中", "7z"),
    ("发", "6z"),
    ("发财", "6z"),
    ("發", "6z"),
    ("發財", "6z"),
    ("白", "5z"),
    ("白板", "5z"),
    ("东南西北白发中", "1234567z"),
    ("白板发财红中", "567z"),
    ("123万", "123m"),
    ("一万二万三万 东东", "123m11z"),
    ("九條九条9索", "999s"),
    ("一万，二万、三万, 四万", "1234m"),
    ("5m五万5万五萬", "5555m"),
]


@pytest.mark.parametrize(("text", "compact"), CHINESE)
def test_chinese_names(text: str, compact: str) -> None:
    assert to_compact(parse_hand(text)) == compact


def test_chinese_melds_and_flowers() -> None:
    hand = parse_hand("[五万五万五万] {红中红中中中} 一筒 春梅竹")
    assert hand.melds == (Meld("pung", 4), Meld("kong", 33, True))
    assert to_compact(hand) == "1p [555m] {7777z} f1 f5 f8"


# ---------------------------------------------------------------- the winning tile


@pytest.mark.parametrize(
    ("suffix", "by"),
    [
        ("", None),
        (" (ron)", "ron"),
        (" (tsumo)", "tsumo"),
        ("(tsumo)", "tsumo"),
        (" (自摸)", "tsumo"),
        (" (点炮)", "ron"),
        (" (ron)  ", "ron"),
    ],
)
def test_winning_tile(suffix: str, by: str | None) -> None:
    hand = parse_hand(f"234m678p111p789s5s +5s{suffix}")
    assert hand.n_concealed == 14
    assert hand.win_tile == kind("5s") == 22
    assert hand.counts[22] == 2
    assert hand.win_by == by


def test_winning_tile_spelling() -> None:
    assert parse_hand("123m456p789s1z +五条 (ron)") == parse_hand("123m456p789s1z +5s (ron)")
    assert parse_hand("123m456p789s1z + 5s").win_tile == 22
    assert parse_hand("[555p] 123m456p7s +7s (tsumo)").melds == (Meld("pung", 13),)


@pytest.mark.parametrize(
    ("text", "pattern"),
    [
        (
            "123m +5s5s",
            re.escape("the winning tile after '+' must be one tile: '5s5s' at position 6"),
        ),
        (
            "123m +",
            re.escape(
                "after '+' write one tile and optionally (ron) or (tsumo): '+' at position 5"
            ),
        ),
        ("123m +5s (rong)", re.escape("after '+' write one tile and optionally (ron) or (tsumo)")),
        ("123m +f1", re.escape("the winning tile after '+' must be one tile: 'f1' at position 6")),
        ("1111m23p +1m", "a fifth copy of a tile: '1m' at position 10 in '1111m23p \\+1m'"),
    ],
)
def test_winning_tile_errors(text: str, pattern: str) -> None:
    with pytest.raises(NotationError, match=pattern):
        parse_hand(text)


# ---------------------------------------------------------------- error messages

ERRORS = [
    # a fifth copy names the token and its position
    ("11111m", None, re.escape("a fifth copy of a tile: '1m' at position 4 in '11111m'")),
    ("1111m [111m]", None, re.escape("a fifth copy of a tile: '1m' at position 7")),
    ("{5555p} 5p", None, re.escape("a fifth copy of a tile: '5p' at position 8")),
    ("五万5555m", None, re.escape("a fifth copy of a tile: '5m' at position 5")),
    ("1m f1 f1", None, re.escape("a second copy of a flower: 'f1' at position 6")),
    # unknown suit letter
    (
        "123x",
        None,
        re.escape("unknown suit letter (use m, p, s, z or 万/筒/饼/条/索): 'x' at position 3"),
    ),
    ("12m3q", None, "unknown suit letter .*'q' at position 4"),
    ("123", None, re.escape("digits without a suit letter (m, p, s or z): '123' at position 0")),
    ("五", None, "a Chinese numeral must be followed by 万, 筒/饼 or 条/索: '五' at position 0"),
    ("1m ?", None, re.escape("unknown tile or symbol: '?' at position 3")),
    # no red fives
    (
        "0m",
        None,
        re.escape("no tile 0 (these games have no red fives): '0m' at position 0 in '0m'"),
    ),
    ("1230p", None, "no tile 0 .*'0p' at position 3"),
    # empty hands
    ("", None, "empty hand"),
    ("   ", None, "empty hand"),
    ("f1 f2", None, "empty hand"),
    # tiles the rule set lacks
    (
        "1z",
        "changsha",
        re.escape("the rule set 'changsha' has no tile 1z: '1z' at position 0 in '1z'"),
    ),
    ("123m 7z", "changsha", "the rule set 'changsha' has no tile 7z: '7z' at position 5"),
    ("123m 1z", "hongzhong112", "the rule set 'hongzhong112' has no tile 1z"),
    ("123m f1", "generic", "the rule set 'generic' has no flowers: 'f1' at position 5"),
    # too many tiles
    (
        "123456789m123456p",
        None,
        re.escape(
            "too many tiles: '123456789m123456p' has 15 (kongs count as 3), at most 14 "
            "(pass rules='caishen16' for 16-tile hands)"
        ),
    ),
    ("123456789m123456p", "generic", "has 15 .*at most 14$"),
    ("[1111m][2222m][3333m][4444m] 556m", None, "too many tiles: .* has 15"),
    ("123456789m123456p78s1z", "caishen16", "too many tiles: .* has 18 .*at most 17"),
    # bad melds
    (
        "[124m]",
        None,
        re.escape(
            "not a meld (a meld is a chow (three consecutive suited tiles), "
            "a pung or a kong): '[124m]' at position 0"
        ),
    ),
    ("123m [891m]", None, re.escape("not a meld") + ".*'\\[891m\\]' at position 5"),
    ("[123z]", None, re.escape("not a meld")),
    ("[12m]", None, re.escape("not a meld")),
    ("[f1f2f3]", None, re.escape("not a meld")),
    ("{555p}", None, re.escape("not a meld (a concealed kong is four identical tiles)")),
    ("{123p}", None, re.escape("not a meld (a concealed kong is four identical tiles)")),
    # brackets
    ("[123m", None, re.escape("missing closing ']'")),
    ("123p {1111m", None, re.escape("missing closing '}'")),
    (
        "[12m{3m]",
        None,
        re.escape("bracket inside a meld (close it with ']' first): '{' at position 4"),
    ),
    ("123m]", None, re.escape("closing bracket without an opening one: ']' at position 4")),
    # flowers and honours out of range
    ("f9", None, re.escape("flowers are f1–f8: 'f9' at position 0 in 'f9'")),
    ("1m f0", None, re.escape("flowers are f1–f8: 'f0' at position 3")),
    ("8z", None, re.escape("honours are 1z–7z (东南西北白发中): '8z' at position 0 in '8z'")),
    ("1239z", None, re.escape("honours are 1z–7z") + ".*'9z' at position 3"),
]


@pytest.mark.parametrize(("text", "rules", "pattern"), ERRORS)
def test_errors(text: str, rules: str | None, pattern: str) -> None:
    with pytest.raises(NotationError, match=pattern):
        parse_hand(text, rules=rules)


def test_not_a_string() -> None:
    with pytest.raises(NotationError, match="a hand must be a string, got int"):
        parse_hand(123)  # type: ignore[arg-type]


def test_notation_error_is_value_error() -> None:
    assert issubclass(NotationError, ValueError)


def test_hand_sizes_by_rule_set() -> None:
    fourteen = parse_hand("123456789m12345p", rules="generic")
    assert fourteen.n_concealed == 14
    seventeen = parse_hand("123456789m123456p7s1z", rules="caishen16")
    assert seventeen.n_concealed == 17
    # kongs count as three
    kongs = parse_hand("[1111m][2222m][3333m][4444m] 55m")
    assert kongs.effective_size == 14 and kongs.n_concealed == 2
    # the rule set's tiles: hongzhong112 has 中 but no other honours
    assert parse_hand("123m 7z", rules="hongzhong112").counts[33] == 1
    assert parse_hand("1m f1", rules="shanghai_qhp").flowers == (34,)


def test_parse_tiles() -> None:
    assert int(parse_tiles("5555m 1z").sum()) == 5
    assert parse_tiles("5s5s").tolist() == [0] * 22 + [2] + [0] * 11
    assert int(parse_tiles("").sum()) == 0
    with pytest.raises(NotationError, match="a fifth copy of a tile: '5s' at position 8"):
        parse_tiles("5s5s5s5s5s")
    with pytest.raises(NotationError, match="flowers are not counted here"):
        parse_tiles("f1")


# ---------------------------------------------------------------- mjsim.tiles helpers

_NUMBERS = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")
_UNICODE_NAMES = (
    [f"MAHJONG TILE {n} OF CHARACTERS" for n in _NUMBERS]
    + [f"MAHJONG TILE {n} OF CIRCLES" for n in _NUMBERS]
    + [f"MAHJONG TILE {n} OF BAMBOOS" for n in _NUMBERS]
    + [
        f"MAHJONG TILE {w}"
        for w in (
            "EAST WIND",
            "SOUTH WIND",
            "WEST WIND",
            "NORTH WIND",
            "WHITE DRAGON",
            "GREEN DRAGON",
            "RED DRAGON",
        )
    ]
    + [
        f"MAHJONG TILE {f}"
        for f in (
            "SPRING",
            "SUMMER",
            "AUTUMN",
            "WINTER",
            "PLUM",
            "ORCHID",
            "CHRYSANTHEMUM",
            "BAMBOO",
        )
    ]
)
_ZH = (
    [f"{n}万" for n in "一二三四五六七八九"]
    + [f"{n}筒" for n in "一二三四五六七八九"]
    + [f"{n}条" for n in "一二三四五六七八九"]
    + list("东南西北白发中")
    + list("春夏秋冬梅兰菊竹")
)


@pytest.mark.parametrize("k", range(42))
def test_tile_helpers_round_trip(k: int) -> None:
    text = name(k)
    assert kind(text) == k
    assert kind(f" {text} ") == k
    assert zh_name(k) == _ZH[k]
    assert unicodedata.name(glyph(k)) == _UNICODE_NAMES[k]
    if k < N_KINDS:
        assert text == f"{rank_of(k)}{suit_of(k)}"
        assert parse_tiles(zh_name(k)).tolist() == np.eye(N_KINDS, dtype=np.int64)[k].tolist()
        assert parse_hand(text).counts.tolist() == parse_hand(zh_name(k)).counts.tolist()
        assert to_unicode(parse_hand(text)) == glyph(k)
        assert to_chinese(parse_hand(text)) == zh_name(k)
    else:
        assert suit_of(k) == "f" and text == f"f{rank_of(k)}"
        assert parse_hand(f"1m {zh_name(k)}").flowers == (k,)
        assert parse_hand(f"1m {text}").flowers == (k,)


def test_tile_helpers_distinct_and_classified() -> None:
    assert len({name(k) for k in range(42)}) == 42
    assert len({zh_name(k) for k in range(42)}) == 42
    assert len({glyph(k) for k in range(42)}) == 42
    assert [k for k in range(42) if is_honour(k)] == list(range(27, 34))
    assert [name(k) for k in range(42) if is_terminal(k)] == ["1m", "9m", "1p", "9p", "1s", "9s"]
    assert [name(k) for k in range(42) if is_258(k)] == [
        "2m",
        "5m",
        "8m",
        "2p",
        "5p",
        "8p",
        "2s",
        "5s",
        "8s",
    ]
    assert (kind("5p"), name(13), suit_of(13), rank_of(13)) == (13, "5p", "p", 5)
    assert [suit_of(k) for k in (0, 9, 18, 27, 33, 34, 41)] == list("mpszzff")
    assert [rank_of(k) for k in (8, 17, 26, 27, 33, 34, 41)] == [9, 9, 9, 1, 7, 1, 8]


@pytest.mark.parametrize("text", ["0m", "8z", "9z", "f0", "f9", "10m", "m1", "1x", "", "5", "zz"])
def test_kind_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="not a tile"):
        kind(text)


def test_hand_equality_and_counts() -> None:
    a = parse_hand("123m [555p] f2 f1")
    b = parse_hand("f1 f2 [555p] 321m")
    assert a == b
    assert a != parse_hand("123m [555p] f1")
    assert a != parse_hand("123m {5555p} f1 f2")
    assert (a == "123m") is False
    total = a.all_counts()
    assert total[13] == 3 and total[:3].tolist() == [1, 1, 1] and int(total.sum()) == 6


def test_winning_tile_error_position_is_in_the_whole_text() -> None:
    with pytest.raises(
        NotationError, match=re.escape("'0m' at position 10 in '123m456p +0m (ron)'")
    ):
        parse_hand("123m456p +0m (ron)")


def test_error_before_winning_tile_quotes_the_whole_text() -> None:
    with pytest.raises(NotationError, match=re.escape("at position 0 in '[124m] +5s'")):
        parse_hand("[124m] +5s")
