"""mjsim: Monte Carlo statistics and strategy analysis for Chinese regional mahjong.

>>> import mjsim
>>> mjsim.to_compact(mjsim.parse_hand("东东 一万二万三万"))
'123m11z'
"""

from .notation import NotationError, parse_hand, parse_tiles, to_chinese, to_compact, to_unicode
from .rules import RulesError, list_rules, load_rules
from .tiles import Hand, Meld

__version__ = "0.1.0"

__all__ = [
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
