"""A played hand's win scored again by :func:`mjsim.game.score.score` from its record.

The hand is replayed from its seed (:func:`mjsim.game.play.replay_game`): the winner's
tiles and melds (and who each meld was claimed from), its bonus tiles, the turn, the seats
that declared, the 宝 and the discarder's readiness are read from the state as the hand
ended; the birds, dice, 荒番 and wildcard from the record; 荒庄 from the game's hand
before. The win is then scored with every circumstance given, so it is exact, and its
payments are compared with the record's (the model's win sources).

>>> r = rescore("changsha", seed=3, index=0)
>>> r is None or r.payments == r.recorded
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..kernels.shanten import MELD_CHOW, MELD_CKONG, MELD_KONG, MELD_PUNG
from ..notation import to_compact
from ..rules import RuleSet, load_rules
from ..tiles import Hand, Meld, name
from . import record as R
from . import scoring as SC
from . import values as V
from .config import game_config
from .play import DEFAULT_BOTS, replay_game
from .score import Score, score
from .state import (
    DRAW_ON_READY,
    M_FROM,
    M_KIND,
    M_TYPE,
    ST_BONUS,
    ST_DECLARED,
    ST_LOCKED,
    ST_TENPAI,
)

_MELD = {
    MELD_CHOW: ("chow", False),
    MELD_PUNG: ("pung", False),
    MELD_KONG: ("kong", False),
    MELD_CKONG: ("kong", True),
}


@dataclass(frozen=True)
class Rescored:
    """A won hand scored again: its ``score`` (every winner's payments), the ``recorded``
    payments of the win by seat, and whether they agree."""

    index: int
    score: Score
    recorded: tuple[int, int, int, int]

    @property
    def payments(self) -> tuple[int, int, int, int]:
        return tuple(int(x) for x in self.score.payments)

    @property
    def agrees(self) -> bool:
        return self.score.win and self.payments == self.recorded


def _melds(final: dict[str, Any], seat: int) -> tuple[list[Meld], list[int]]:
    melds, sources = [], []
    for i in range(int(final["n_melds"][seat])):
        kind, mtype, frm = final["melds"][seat, i, [M_KIND, M_TYPE, M_FROM]]
        what, concealed = _MELD[int(mtype)]
        melds.append(Meld(what, int(kind), concealed))
        if frm >= 0:
            sources.append(int(frm))
    return melds, sources


def _claims(final: dict[str, Any], a: int, b: int) -> int:
    """The melds seat ``a`` claimed from seat ``b``."""
    return int((final["melds"][a, : final["n_melds"][a], M_FROM] == b).sum())


def _declared(g, final: dict[str, Any], discarder: int | None) -> tuple[int, ...]:
    """The seats that had declared before the tile won on was discarded: the discarder had
    not if he declared with that discard (his declare turn, where the model keeps one, the
    hand's last)."""
    slot = getattr(SC.model(g.model), "M_DECLARE_TURN", None)
    return tuple(
        s
        for s in range(4)
        if final["status"][s, ST_DECLARED]
        and (slot is None or s != discarder or final["model"][slot + s] < final["turns"])
    )


def _shown(g, final: dict[str, Any]) -> list[int]:
    """The tiles the hand's last 开杠 revealed (the wall's tiles past its tail), or none
    where kongs reveal none."""
    k = int(g.cfg[V.OPEN_KONG_TILES]) if g.cfg[V.OPEN_KONG] else 0
    return [int(x) for x in final["wall"][final["tail"] : final["tail"] + k]]


def _revealed(g, final: dict[str, Any], seat: int, how: str, tile: int) -> str:
    """The other tiles a 开杠 won by its konger revealed, where the winner is locked (only
    a 开杠 locks a seat that kongs; a locked seat never 补张s)."""
    if how != "gangshang_kaihua" or not final["status"][seat, ST_LOCKED]:
        return ""
    shown = _shown(g, final)
    if not shown:
        return ""
    shown.remove(tile)
    return " ".join(name(x) for x in shown)


def _left(rec: dict, final: dict[str, Any], g, how: str) -> int | None:
    """The tiles left to draw, where the settlement reads them (the birds: fewer tiles than
    birds draw fewer); elsewhere the position's own count stands (a position deals no
    bonus tiles into its live wall, so it may leave fewer than an early win's wall)."""
    if "n_birds" not in rec or how.startswith("haidi"):
        return None
    return int(final["tail"] - final["head"] - g.cfg[V.RESERVE])


def _tiles_won_on(g, rec: dict, final: dict[str, Any], seat: int) -> list[int]:
    """The tiles ``seat`` may have won on: the record's (its first winner's); on a 开杠's
    revealed tiles (杠上炮) each winner took its best of them."""
    shown = _shown(g, final) if rec["win_kind"] == R.WIN_GANGPAO else []
    return list(dict.fromkeys(shown)) if shown else [int(rec["win_tile"])]


def rescore(
    rules: str | RuleSet, seed: int, index: int, bots: Any = DEFAULT_BOTS
) -> Rescored | None:
    """Hand ``index`` of ``seed`` played by ``bots``, its win scored again (see the module):
    the first winner in turn order from the discarder, the others ``also``; ``None`` for a
    hand not won."""
    rs = load_rules(rules)
    g = game_config(rs)
    recs, final = replay_game(rs, seed, index, bots)
    rec = recs[-1]
    if rec["outcome"] != R.OUT_WIN:
        return None
    start = int(rec["discarder"]) if rec["discarder"] >= 0 else 0
    order = [(start + j) % 4 for j in range(1, 5) if (int(rec["winners"]) >> ((start + j) % 4)) & 1]
    hands = {}
    tsumo = R.self_drawn(rec["win_kind"])
    for s in order:
        tries = [(t, _hand(rs, final, s, t, tsumo)) for t in _tiles_won_on(g, rec, final, s)]
        tries = [(t, h) for t, h in tries if h is not None]
        if len(tries) > 1:  # on a 开杠's tiles: the best for the seat, the first among equals
            solo = [
                score(rs, h[0], **_circumstances(rs, g, recs, final, s, t, h[1], ()))
                for t, h in tries
            ]
            tries = [tries[max(range(len(solo)), key=lambda i: (solo[i].win, solo[i].units))]]
        hands[s] = (tries[0][0], *tries[0][1])
    main, others = order[0], order[1:]
    tile, text, sources = hands[main]
    sc = score(
        rs,
        text,
        **_circumstances(rs, g, recs, final, main, tile, sources, others),
        also={o: hands[o][1] for o in others},
        also_meld_from={o: hands[o][2] for o in others},
        also_bonus={o: n for o in others if (n := _bonus(rs, final, o)[1]) is not None},
    )
    recorded = tuple(sum(int(rec[f"pay_{src}_{s}"]) for src in g.win_sources) for s in range(4))
    return Rescored(index, sc, recorded)


def _hand(
    rs: RuleSet, final: dict[str, Any], seat: int, tile: int, tsumo: bool
) -> tuple[str, tuple[int, ...]] | None:
    """Seat ``seat``'s hand as it won on ``tile`` (``+`` marks it; no ``+`` for a win on no
    tile), its bonus tiles written as flowers where it has no more than eight, and its
    exposed melds' sources; ``None`` where the tiles as the hand ended hold the winning
    tile's place but not that tile."""
    melds, sources = _melds(final, seat)
    counts = final["concealed"][seat].copy()
    # the tile won on is held by the first winner on a discard, not by the others (one
    # tile), nor on 对宝 (no tile drawn); written apart with +
    if tile >= 0 and counts.sum() == rs.hand_size + 1 - 3 * len(melds):
        if not counts[tile]:
            return None
        counts[tile] -= 1
    flowers = tuple(range(34, 34 + _bonus(rs, final, seat)[0]))
    hand = to_compact(Hand(counts=counts, melds=tuple(melds), flowers=flowers))
    won_on = f" +{name(tile)}" if tile >= 0 else ""
    return f"{hand}{won_on}{'' if tsumo else ' (ron)'}", tuple(sources)


def _bonus(rs: RuleSet, final: dict[str, Any], seat: int) -> tuple[int, int | None]:
    """Seat ``seat``'s bonus tiles: ``(flowers written in its hand, bonus count given
    apart)`` — written as flowers where the rule set has them and there are at most
    eight, else given as a count."""
    n = int(final["status"][seat, ST_BONUS])
    return (n, None) if rs.has_flowers and n <= 8 else (0, n)


def _circumstances(
    rs: RuleSet,
    g,
    recs: list[dict],
    final: dict[str, Any],
    seat: int,
    tile: int,
    sources: tuple[int, ...],
    others: list[int] | tuple,
) -> dict[str, Any]:
    """The circumstances of seat ``seat``'s win on ``tile``, read from the records and the
    state as the hand ended (``others``: the other winners, whose melds carry their own
    sources)."""
    rec = recs[-1]
    how = R.WIN_KINDS[rec["win_kind"]]
    status = final["status"]
    discarder = None if R.self_drawn(rec["win_kind"]) else int(rec["discarder"])
    birds = [name(int(rec[f"bird_{i}"])) for i in range(rec.get("n_birds", 0))]
    return {
        "how": how,
        "seat": seat,
        "dealer": int(rec["dealer"]),
        "discarder": discarder,
        "meld_from": sources,
        "turn": int(final["turns"]),
        "wild": name(int(rec["wild_kind"])) if g.cfg[V.WILD] == V.WILD_INDICATOR else None,
        "bao": name(int(final["bao"])) if final["bao"] >= 0 and g.model == "bao" else None,
        "declared": _declared(g, final, discarder),
        "discarder_ready": bool(discarder is not None and status[discarder, ST_TENPAI]),
        "wall": " ".join(birds),
        "dice": (rec["dice_0"], rec["dice_1"]) if "dice_0" in rec else None,
        "huangfan": rec.get("huangfan"),
        "after_draw": len(recs) > 1 and recs[-2]["outcome"] == R.OUT_DRAW and g.model == "bao",
        "bonus": _bonus(rs, final, seat)[1],
        "left": _left(rec, final, g, how),
        "claimed": {  # by the seats that did not win, from each winner
            (q, b): c
            for q in range(4)
            if q != seat and q not in others
            for b in (seat, *others)
            if (c := _claims(final, q, b))
        },
        "revealed": _revealed(g, final, seat, how, tile),
        "on_ready": bool(final["wild_draw"] == DRAW_ON_READY),  # 对宝: the 宝 is not held
        "worlds": 1,
    }
