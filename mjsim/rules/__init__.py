"""Rule sets as data: one TOML preset per rule set of RULES.md, validated on load.

>>> from mjsim.rules import load_rules
>>> load_rules("hongzhong112").kinds[-2:], load_rules("generic", gen_flowers=True).tile_set
((26, 33), 144)
"""

from mjsim.rules.loader import RULE_SETS, list_rules, load_rules, parse_override
from mjsim.rules.model import Family, Option, RulesError, RuleSet

__all__ = [
    "RULE_SETS",
    "Family",
    "Option",
    "RuleSet",
    "RulesError",
    "list_rules",
    "load_rules",
    "parse_override",
]
