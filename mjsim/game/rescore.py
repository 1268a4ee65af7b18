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
    """A won hand scored again: its ``score``, the ``recorded`` payments of the win by seat,
    and whether they agree."""

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


def _revealed(g, final: dict[str, Any], seat: int, how: str, tile: int) -> str:
    """The other tiles a 开杠 won on revealed: the wall's tiles past its tail, where the
    winner is locked (only a 开杠 locks a seat that kongs; a locked seat never 补张s)."""
    k = int(g.cfg[V.OPEN_KONG_TILES]) if g.cfg[V.OPEN_KONG] else 0
    if how != "gangshang_kaihua" or not k or not final["status"][seat, ST_LOCKED]:
        return ""
    shown = [int(x) for x in final["wall"][final["tail"] : final["tail"] + k]]
    shown.remove(tile)
    return " ".join(name(x) for x in shown)


def rescore(
    rules: str | RuleSet, seed: int, index: int, bots: Any = DEFAULT_BOTS
) -> Rescored | None:
    """Hand ``index`` of ``seed`` played by ``bots``, its win scored again (see the module);
    ``None`` for a hand without a single winner, or won on no tile of its own (by bonus
    tiles alone, 天胡 on the dealt tiles, or 对宝 at 报听)."""
    rs = load_rules(rules)
    g = game_config(rs)
    recs, final = replay_game(rs, seed, index, bots)
    rec = recs[-1]
    if rec["outcome"] != R.OUT_WIN or rec["n_winners"] != 1 or rec["win_tile"] < 0:
        return None
    seat = int(rec["winners"]).bit_length() - 1
    tile = int(rec["win_tile"])
    how = R.WIN_KINDS[rec["win_kind"]]
    tsumo = R.self_drawn(rec["win_kind"])
    melds, sources = _melds(final, seat)
    if final["wild_draw"] == DRAW_ON_READY:
        return None  # 对宝: won at 报听 with a 宝 kind among the waits, no tile drawn
    counts = final["concealed"][seat].copy()
    counts[tile] -= 1  # the winning tile, written apart
    hand = to_compact(Hand(counts=counts, melds=tuple(melds)))
    status = final["status"]
    discarder = None if tsumo else int(rec["discarder"])
    birds = [name(int(rec[f"bird_{i}"])) for i in range(rec.get("n_birds", 0))]
    dice = (rec["dice_0"], rec["dice_1"]) if "dice_0" in rec else None
    sc = score(
        rs,
        f"{hand} +{name(tile)}{'' if tsumo else ' (ron)'}",
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
        left=int(final["tail"] - final["head"] - g.cfg[V.RESERVE]) if how[:5] != "haidi" else None,
        claimed={q: c for q in range(4) if q != seat and (c := _claims(final, q, seat))},
        revealed=_revealed(g, final, seat, how, tile),
        worlds=1,
    )
    recorded = tuple(sum(int(rec[f"pay_{src}_{s}"]) for src in g.win_sources) for s in range(4))
    return Rescored(index, sc, recorded)
