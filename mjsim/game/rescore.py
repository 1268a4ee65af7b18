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
    """A won hand scored again: each winner's ``scores``, the ``recorded`` payments of the
    win by seat, and whether their sum agrees."""

    index: int
    scores: tuple[Score, ...]
    recorded: tuple[int, int, int, int]

    @property
    def payments(self) -> tuple[int, int, int, int]:
        return tuple(int(sum(sc.payments[s] for sc in self.scores)) for s in range(4))

    @property
    def agrees(self) -> bool:
        return all(sc.win for sc in self.scores) and self.payments == self.recorded


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
    if rec["win_kind"] != R.WIN_GANGPAO or not _shown(g, final):
        return [int(rec["win_tile"])]
    return list(dict.fromkeys(_shown(g, final)))


def rescore(
    rules: str | RuleSet, seed: int, index: int, bots: Any = DEFAULT_BOTS
) -> Rescored | None:
    """Hand ``index`` of ``seed`` played by ``bots``, its win scored again (see the module),
    each winner's hand alone (several winners on one discard are paid apart, so their
    payments add up); ``None`` for a hand not won."""
    rs = load_rules(rules)
    g = game_config(rs)
    recs, final = replay_game(rs, seed, index, bots)
    rec = recs[-1]
    if rec["outcome"] != R.OUT_WIN:
        return None
    winners = [s for s in range(4) if (int(rec["winners"]) >> s) & 1]
    scores = []
    for s in winners:
        tries = [_score_seat(rs, g, recs, final, s, t) for t in _tiles_won_on(g, rec, final, s)]
        # the best of the tiles it may have won on, the first among equals
        scores.append(max((sc for sc in tries if sc), key=lambda sc: (sc.win, sc.units)))
    scores = tuple(scores)
    recorded = tuple(sum(int(rec[f"pay_{src}_{s}"]) for src in g.win_sources) for s in range(4))
    return Rescored(index, scores, recorded)


def _score_seat(
    rs: RuleSet, g, recs: list[dict], final: dict[str, Any], seat: int, tile: int
) -> Score | None:
    """Seat ``seat``'s win on ``tile`` in the hand that ``recs[-1]`` records and ``final``
    ends, scored with every circumstance read from them; ``None`` where its tiles as the
    hand ended hold the winning tile's place but not that tile."""
    rec = recs[-1]
    how = R.WIN_KINDS[rec["win_kind"]]
    tsumo = R.self_drawn(rec["win_kind"])
    on_ready = bool(final["wild_draw"] == DRAW_ON_READY)  # 对宝: the 宝 won on is not held
    melds, sources = _melds(final, seat)
    counts = final["concealed"][seat].copy()
    # the tile won on is held by the first winner on a discard, not by the others (one
    # tile), nor on 对宝 (no tile drawn); written apart with +
    if tile >= 0 and counts.sum() == rs.hand_size + 1 - 3 * len(melds):
        if not counts[tile]:
            return None
        counts[tile] -= 1
    hand = to_compact(Hand(counts=counts, melds=tuple(melds)))
    won_on = f" +{name(tile)}" if tile >= 0 else ""  # none: 天胡 on the dealt tiles, bonus
    status = final["status"]
    discarder = None if tsumo else int(rec["discarder"])
    birds = [name(int(rec[f"bird_{i}"])) for i in range(rec.get("n_birds", 0))]
    dice = (rec["dice_0"], rec["dice_1"]) if "dice_0" in rec else None
    return score(
        rs,
        f"{hand}{won_on}{'' if tsumo else ' (ron)'}",
        how=how,
        seat=seat,
        dealer=int(rec["dealer"]),
        discarder=discarder,
        meld_from=tuple(sources),
        turn=int(final["turns"]),
        wild=name(int(rec["wild_kind"])) if g.cfg[V.WILD] == V.WILD_INDICATOR else None,
        bao=name(int(final["bao"])) if final["bao"] >= 0 and g.model == "bao" else None,
        declared=_declared(g, final, discarder),
        discarder_ready=bool(discarder is not None and status[discarder, ST_TENPAI]),
        wall=" ".join(birds),
        dice=dice,
        huangfan=rec.get("huangfan"),
        after_draw=len(recs) > 1 and recs[-2]["outcome"] == R.OUT_DRAW and g.model == "bao",
        bonus=int(status[seat, ST_BONUS]),
        left=_left(rec, final, g, how),
        claimed={q: c for q in range(4) if q != seat and (c := _claims(final, q, seat))},
        revealed=_revealed(g, final, seat, how, tile),
        on_ready=on_ready,
        worlds=1,
    )
