"""mjsim: Monte Carlo statistics and strategy analysis for Chinese regional mahjong.

>>> import mjsim
>>> mjsim.to_compact(mjsim.parse_hand("东东 一万二万三万"))
'123m11z'
>>> mjsim.shanten("123456789m123p9s", rules="changsha")
1

The hand evaluators and the dealers are loaded on first use, so ``import mjsim`` stays fast.
"""

import importlib

from .notation import NotationError, parse_hand, parse_tiles, to_chinese, to_compact, to_unicode
from .rules import RulesError, list_rules, load_rules
from .tiles import Hand, Meld
from .version import __version__ as __version__

#: public names served lazily: name -> module
_LAZY = {
    "shanten": "evaluate",
    "shanten_batch": "evaluate",
    "shanten_by_family": "evaluate",
    "is_win": "evaluate",
    "decompose": "decompose",
    "waits": "efficiency",
    "ukeire": "efficiency",
    "waits_batch": "efficiency",
    "ukeire_batch": "efficiency",
    "deal_frame": "sim.deals",
    "write_deals": "sim.deals",
    "qishou_study": "stats.qishou_freq",
    "exact_qishou": "stats.exact_qishou",
    "exact_shanten": "stats.exact_shanten",
    "score": "game.score",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'mjsim' has no attribute {name!r}")


__all__ = [
    *_LAZY,
    "Hand",
    "Meld",
    "NotationError",
    "RulesError",
    "list_rules",
    "load_rules",
    "parse_hand",
    "parse_tiles",
    "to_chinese",
    "to_compact",
    "to_unicode",
]
