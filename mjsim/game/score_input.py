"""The circumstances given to :func:`mjsim.game.score.score`, each checked: a value out of
range or impossible with the hand is one clear line (a ``ValueError``) naming what is allowed.

>>> from mjsim.notation import parse_hand
>>> how_won(parse_hand("123m456p789s11z23s +4s (ron)"), None)
'dianpao'
"""

from __future__ import annotations

import numpy as np

from ..notation import parse_hand, parse_tiles, tile_list
from ..rules import RuleSet
from ..tiles import Hand, name
from . import record as R

#: how a hand may be won (the engine's win kinds; ``bonus``: by bonus tiles set aside)
HOWS = R.WIN_KINDS[1:]
#: the winning tile of a hand won on none of its own (天胡 on the dealt tiles, bonus tiles)
NO_TILE = -1


def how_won(hand: Hand, how: str | None) -> str:
    if how is None:
        return "dianpao" if hand.win_by == "ron" else "zimo"
    if how not in HOWS:
        raise ValueError(f"unknown win {how!r}; wins: {', '.join(HOWS)}")
    if hand.win_by == "ron" and R.self_drawn(R.WIN_KINDS.index(how)):
        raise ValueError(f"the hand says (ron) but {how} is self-drawn")
    if hand.win_by == "tsumo" and not R.self_drawn(R.WIN_KINDS.index(how)):
        raise ValueError(f"the hand says (tsumo) but {how} is won on another's tile")
    return how


def seat_of(what: str, value: int) -> int:
    if not isinstance(value, int | np.integer) or not 0 <= value <= 3:
        raise ValueError(f"{what} must be a seat 0-3, got {value!r}")
    return int(value)


def kind_of(rs: RuleSet, what: str, text: str) -> int:
    counts = parse_tiles(text)
    if counts.sum() != 1 or counts[34:].any():
        raise ValueError(f"{what} must be one tile such as 5m or 1z, got {text!r}")
    k = int(np.flatnonzero(counts)[0])
    if k not in rs.kinds:
        raise ValueError(f"{what} {name(k)} is not a tile of {rs.id}")
    return k


def winning_tile(rs: RuleSet, hand: Hand, how: str, seat: int, dealer: int, turn: int) -> int:
    """The winning tile, after the circumstances are checked (one clear line each);
    :data:`NO_TILE` for 天胡 on the dealt tiles (no ``+``: turn 0, the dealer) and a win
    by bonus tiles (``how`` ``bonus``: no ``+``, the tiles held on one's turn)."""
    tianhu = turn == 0 and seat == dealer and how == "zimo"
    if (hand.win_tile is None) != (how == "bonus") and not (tianhu and hand.win_tile is None):
        raise ValueError(
            "mark the winning tile with + (e.g. '... +5s', '+5s (ron)'); only 天胡 on the "
            "dealt tiles (--turn 0 by the dealer) and --how bonus are written without one"
        )
    want = rs.hand_size + 1 - 3 * len(hand.melds)
    if hand.n_concealed != want:
        raise ValueError(
            f"a won hand holds {want} concealed tiles beside its {len(hand.melds)} meld(s) "
            f"(the winning tile included), got {hand.n_concealed}"
        )
    if not rs.has_flowers and hand.flowers:
        raise ValueError(f"{rs.id} has no flowers: leave f1-f8 out")
    if not 0 <= turn <= rs.tile_set:
        raise ValueError(f"turn must be 0 to {rs.tile_set} ({rs.id}'s tiles), got {turn}")
    if turn == 0 and R.self_drawn(R.WIN_KINDS.index(how)) and seat != dealer:
        raise ValueError(
            f"a self-draw at turn 0 is 天胡, the dealer's alone: seat {seat} is not the "
            f"dealer ({dealer}); give a later --turn"
        )
    if hand.win_tile is None:
        return NO_TILE
    tile = int(hand.win_tile)
    bonus_tiles = rs.has_flowers or rs.bonus_kinds
    if (
        how == "gangshang_kaihua"
        and not bonus_tiles
        and not any(m.type == "kong" for m in hand.melds)
    ):
        raise ValueError("杠上开花 is won on a kong's replacement: the hand shows no kong")
    if how == "qianggang" and hand.counts[tile] != 1:
        raise ValueError(
            f"a robbed kong is the fourth {name(tile)}, the other three in the konger's pung: "
            f"the hand holds {int(hand.counts[tile])}"
        )
    return tile


def bonus_count(rs: RuleSet, hand: Hand, bonus: int) -> int:
    most = 8 * rs.has_flowers + 4 * len(rs.bonus_kinds)
    if hand.flowers or not 0 <= bonus <= most:
        raise ValueError(
            f"bonus must be 0 to {most} ({rs.id}'s bonus tiles), and the hand then names "
            f"no flowers; got {bonus}"
        )
    return int(bonus)


def tiles_left(how: str, left: int | None) -> int | None:
    if how in ("haidi_laoyue", "haidi_pao"):
        if left not in (None, 0):
            raise ValueError(f"{how} is won on the last tile: no tiles are left, not {left}")
        return 0
    if left is not None and left < 0:
        raise ValueError(f"left counts the tiles left to draw: 0 or more, got {left}")
    return left


def claims_on(
    rs: RuleSet, seat: int, claimed: dict[int | tuple[int, int], int]
) -> dict[tuple[int, int], int]:
    """``claimed`` as ``{(claimer, from): melds}``: a seat key ``q`` is ``(q, seat)``, the
    melds ``q`` claimed from the winner; a pair ``(q, b)`` the melds ``q`` claimed from
    ``b`` (another winner's, with ``also``)."""
    out = {}
    for key, n in claimed.items():
        q, b = key if isinstance(key, tuple) else (key, seat)
        q, b = seat_of("a claiming seat", q), seat_of("a claimed-from seat", b)
        if q in (seat, b) or not 0 <= n <= rs.melds:
            raise ValueError(
                f"claimed gives a seat other than the winner ({seat}) claiming from another "
                f"seat, 0 to {rs.melds} melds; got seat {q} from {b}: {n}"
            )
        out[q, b] = int(n)
    return out


def default_meld_from(exposed: list, seat: int) -> tuple[int, ...]:
    """Default sources of the exposed melds: a chow from the 上家, pungs and kongs from the
    对家, the 下家 and the 上家 in turn (no seat gives three: no 承包 unless asked).

    >>> from mjsim.tiles import Meld
    >>> default_meld_from([Meld("pung", 0), Meld("chow", 9), Meld("pung", 3), Meld("kong", 5)], 0)
    (2, 3, 1, 3)
    """
    rota = [(seat + j) % 4 for j in (2, 1, 3)]
    out, i = [], 0
    for m in exposed:
        if m.type == "chow":
            out.append((seat + 3) % 4)
        else:
            out.append(rota[i % 3])
            i += 1
    return tuple(out)


def revealed_tiles(rs: RuleSet, how: str, text: str, opened: int) -> tuple[int, ...]:
    """The other tiles a 开杠 revealed beside the winning one (``text``; ``opened``: the
    tiles a kong reveals under ``rs``, 0 where it reveals none), checked.

    >>> from mjsim.rules import load_rules
    >>> revealed_tiles(load_rules("changsha"), "gangshang_kaihua", "5p", 2)
    (13,)
    """
    if not text:
        return ()
    if how != "gangshang_kaihua" or opened < 2:
        raise ValueError(
            "revealed names the other tiles a 开杠 revealed beside the winning one: for "
            f"gangshang_kaihua where a kong reveals tiles (Changsha, §2.5); {rs.id} reveals "
            f"{opened or 'none'}"
        )
    tiles = tuple(tile_list(text))
    if len(tiles) > opened - 1:
        raise ValueError(
            f"{rs.id}'s 开杠 reveals {opened} tiles: at most {opened - 1} beside the winning "
            f"one, got {len(tiles)}"
        )
    for k in tiles:
        if k not in rs.kinds:
            raise ValueError(f"revealed {name(k)} is not a tile of {rs.id}")
    return tiles


def other_winners(
    rs: RuleSet,
    also: dict[int, str],
    meld_from: dict[int, tuple[int, ...]],
    bonus: dict[int, int],
    seat: int,
    discarder: int,
    how: str,
) -> dict[int, tuple[Hand, tuple[int, ...], int]]:
    """The other seats that won on the same discard (``also``: seat -> hand, its tile won
    on marked ``+``), each with its hand, its exposed melds' sources (``meld_from``, or
    the default) and its bonus tiles (``bonus``, or the flowers its hand writes), checked."""
    if not set(meld_from) | set(bonus) <= set(also):
        raise ValueError(
            f"also_meld_from and also_bonus name seats given in also ({sorted(also)}), got "
            f"{sorted(set(meld_from) | set(bonus))}"
        )
    if not also:
        return {}
    if R.self_drawn(R.WIN_KINDS.index(how)):
        raise ValueError("also names other seats that won on the same discard: not a self-draw")
    out = {}
    for o, text in also.items():
        o = seat_of("another winner", o)
        if o in (seat, discarder):
            raise ValueError(
                f"another winner is a seat other than the winner ({seat}) and the discarder "
                f"({discarder}), got {o}"
            )
        hand = parse_hand(text, rs)
        want = rs.hand_size + 1 - 3 * len(hand.melds)
        if hand.win_tile is None or hand.n_concealed != want:
            raise ValueError(
                f"seat {o}'s hand: {want} concealed tiles beside its {len(hand.melds)} "
                f"meld(s), the tile it won on marked + (got {hand.n_concealed})"
            )
        exposed = [m for m in hand.melds if not m.concealed]
        sources = tuple(meld_from.get(o, default_meld_from(exposed, o)))
        if len(sources) != len(exposed) or o in sources or not all(0 <= f <= 3 for f in sources):
            raise ValueError(
                f"seat {o}'s melds come from another seat each ({len(exposed)}), got {sources}"
            )
        n = bonus_count(rs, hand, bonus[o]) if o in bonus else len(hand.flowers)
        out[o] = (hand, sources, n)
    return out
