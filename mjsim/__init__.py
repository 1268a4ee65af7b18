"""mjsim: Monte Carlo statistics and strategy analysis for Chinese regional mahjong.

>>> import mjsim
>>> mjsim.to_compact(mjsim.parse_hand("东东 一万二万三万"))
'123m11z'
>>> mjsim.shanten("123456789m123p9s", rules="changsha")
1

Every public name is loaded on first use, so ``import mjsim`` stays fast (it is all the
console script runs before its Ctrl-C guard, :mod:`mjsim.__main__`).
"""

import importlib

from .version import __version__ as __version__

#: public names served lazily: name -> module
_LAZY = {
    "NotationError": "notation",
    "parse_hand": "notation",
    "parse_tiles": "notation",
    "to_chinese": "notation",
    "to_compact": "notation",
    "to_unicode": "notation",
    "RulesError": "rules",
    "list_rules": "rules",
    "load_rules": "rules",
    "Hand": "tiles",
    "Meld": "tiles",
    "shanten": "evaluate",
    "shanten_batch": "evaluate",
    "shanten_by_family": "evaluate",
    "is_win": "evaluate",
    "decompose": "decomposition",
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


__all__ = list(_LAZY)
