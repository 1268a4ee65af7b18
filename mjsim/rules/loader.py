"""Preset files: read ``presets/<id>.toml``, follow ``extends``, and hand out rule sets.

A preset has metadata (``id``, ``name``, ``name_zh``, ``section``, ``source``, ``summary``),
a ``[tiles]`` and a ``[core]`` table, one ``[options.<name>]`` table per option and any
number of ``[[requires]]``. A preset with ``extends = "<id>"`` starts from that preset: its
own ``[tiles]`` or ``[core]`` replaces the parent's whole table, its ``[game]`` keys change
or add to the parent's, its ``[options.<name>]`` add new options, its ``[defaults]`` table
changes inherited defaults, and its ``[[requires]]`` add to the parent's. TOML has no null, so an ``int_or_null`` option writes
null as the string ``"null"``.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from mjsim.rules.model import (
    Condition,
    FrozenDict,
    Option,
    Requirement,
    RulesError,
    RuleSet,
    quote,
    unknown_option,
)

#: Every rule set id, in the order of RULES.md.
RULE_SETS = (
    "generic",
    "dingque",
    "changsha",
    "changsha_classic_1980s",
    "changsha_transition_1990",
    "caishen16",
    "hongzhong112",
    "ne_alt",
    "shanghai_qhp",
    "shanghai_baida",
    "shanghai_qiaoma",
)

PRESET_DIR = Path(__file__).with_name("presets")
_META = ("name", "name_zh", "section", "source", "summary")
_TOP_KEYS = {"id", "extends", "tiles", "core", "game", "options", "defaults", "requires", *_META}
_OPTION_KEYS = {
    "default",
    "type",
    "choices",
    "meaning",
    "name_zh",
    "source",
    "note",
    "min",
    "presets",
}


def load_rules(name: str | RuleSet = "generic", **overrides: Any) -> RuleSet:
    """The rule set ``name`` (a preset id, or a rule set to change) with ``overrides`` applied.

    >>> rules = load_rules("changsha", cs_birds=4)
    >>> rules["cs_birds"], rules.tile_set, rules.hand_size, rules.melds
    (4, 108, 13, 4)
    >>> [(family.form, family.pair) for family in rules.families][:2]
    [('standard', '258'), ('one_suit', 'any')]
    >>> load_rules("changsha", cs_birds=3)
    Traceback (most recent call last):
    ...
    mjsim.rules.model.RulesError: cs_birds must be one of 0, 2, 4 (got 3)
    """
    rules = name if isinstance(name, RuleSet) else preset(_known_id(name))
    return rules.with_options(**overrides) if overrides else rules


def list_rules() -> list[RuleSet]:
    """Every preset with its default options, in the order of :data:`RULE_SETS`."""
    return [preset(rule_set_id) for rule_set_id in RULE_SETS]


def parse_override(text: str, rules: str | RuleSet | None = None) -> tuple[str, Any]:
    """Split ``"key=value"`` and convert the value by the option's type.

    The option is looked up in ``rules``, or in every preset when ``rules`` is None.

    >>> parse_override("cs_cap=none"), parse_override("cai_tier_mult=1,3,9")
    (('cs_cap', None), ('cai_tier_mult', (1, 3, 9)))
    """
    key, equals, value = text.partition("=")
    key = key.strip()
    if not equals or not key:
        raise RulesError(f"override {quote(text)} is not of the form key=value")
    if rules is not None:
        return key, load_rules(rules).option(key).parse(value)
    for preset in list_rules():
        if key in preset.options:
            return key, preset.option(key).parse(value)
    every = {name for preset in list_rules() for name in preset.options}
    raise unknown_option(key, every, "any rule set")


def _known_id(name: str) -> str:
    if not isinstance(name, str):
        raise RulesError(
            f"a rule set is an id (a string) or a RuleSet, got {type(name).__name__} "
            f"(valid ids: {', '.join(RULE_SETS)})"
        )
    if name in RULE_SETS:
        return name
    close = difflib.get_close_matches(name, RULE_SETS, n=3)
    hint = f"; did you mean: {', '.join(close)}?" if close else ""
    raise RulesError(f"unknown rule set {quote(name)}{hint} (valid: {', '.join(RULE_SETS)})")


@cache
def preset(rule_set_id: str) -> RuleSet:
    """The preset ``presets/<rule_set_id>.toml`` with its defaults, read once (cached; the
    tests clear the cache with ``preset.cache_clear()``)."""
    path = PRESET_DIR / f"{rule_set_id}.toml"
    try:
        with path.open("rb") as file:
            return _from_toml(tomllib.load(file), rule_set_id)
    except (RulesError, tomllib.TOMLDecodeError) as error:
        raise RulesError(f"{path.name}: {error}") from None


def _from_toml(data: dict[str, Any], rule_set_id: str) -> RuleSet:
    extra = set(data) - _TOP_KEYS
    if extra:
        raise RulesError(f"unknown keys {sorted(extra)}")
    if data.get("id") != rule_set_id:
        raise RulesError(f"id must be {rule_set_id!r} (got {data.get('id')!r})")
    parent = preset(_known_id(data["extends"])) if "extends" in data else None
    where = f"rule set {rule_set_id!r}"

    schema = {option.name: option for option in (parent.schema if parent else ())}
    for name, spec in data.get("options", {}).items():
        if name in schema:
            raise RulesError(f"option {name} is inherited; change its default under [defaults]")
        schema[name] = _option(name, spec)
    for name, value in data.get("defaults", {}).items():
        if name not in schema:
            raise unknown_option(name, schema, where)
        schema[name] = replace(schema[name], default=_null(schema[name].type, value))

    requires = tuple(
        Requirement(
            Condition.parse(entry["option"], schema, where),
            Condition.parse(entry["needs"], schema, where),
        )
        for entry in data.get("requires", ())
    )
    meta = {key: data.get(key) or (getattr(parent, key) if parent else "") for key in _META}
    missing = [key for key, value in meta.items() if not value]
    missing += [f"[{table}]" for table in ("tiles", "core") if table not in data and not parent]
    if missing:
        raise RulesError(f"missing {', '.join(missing)}")
    return RuleSet(
        id=rule_set_id,
        **meta,
        schema=tuple(schema.values()),
        requires=(parent.requires if parent else ()) + requires,
        tiles_spec=_freeze(data["tiles"]) if "tiles" in data else parent.tiles_spec,
        core_spec=_freeze(data["core"]) if "core" in data else parent.core_spec,
        game_spec=_freeze({**(parent.game_spec if parent else {}), **data.get("game", {})}),
    )


def _option(name: str, spec: dict[str, Any]) -> Option:
    extra = set(spec) - _OPTION_KEYS
    if extra:
        raise RulesError(f"option {name}: unknown keys {sorted(extra)}")
    if "type" not in spec or "default" not in spec:
        raise RulesError(f"option {name}: type and default are required")
    return Option(
        name=name,
        default=_null(spec["type"], spec["default"]),
        type=spec["type"],
        choices=tuple(spec.get("choices", ())),
        meaning=spec.get("meaning", ""),
        name_zh=spec.get("name_zh", ""),
        source=spec.get("source", ""),
        note=spec.get("note", ""),
        min=spec.get("min"),
        presets=tuple(spec.get("presets", {}).items()),
    )


def _null(option_type: str, value: Any) -> Any:
    return None if option_type == "int_or_null" and value == "null" else value


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return FrozenDict({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value
