"""The rule-set model: options with their allowed values, winning families, and checks.

A :class:`RuleSet` is one preset of ``presets/*.toml`` with the effective value of every
option. Building one validates it: an unknown option, a value of the wrong type or outside
its choices, and a contradiction between options (``[[requires]]``) each raise
:class:`RulesError`, naming the option and what it allows. The tile set and the winning
families (RULES.md §7.1) are resolved against the options: ``"$opt"`` stands for an option's
value, and a family with ``when = "opt"`` (or ``"opt=value"``) exists only while that holds.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import numbers
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import Any

OPTION_TYPES = ("bool", "int", "float", "enum", "int_or_null", "str", "list")
#: Where an option comes from: a seed document, [inf] or [ext] (RULES.md §0.2), or mjsim.
SOURCES = ("000", "001", "003", "004", "inf", "ext", "mjsim")
FORMS = (
    "standard",
    "seven_pairs",
    "eight_pairs",
    "one_suit",
    "mixed_one_suit",
    "all_pungs",
    "all_258",
    "all_honours",
    "quanqiuren",
)
PAIRS = ("any", "258")
CONSTRAINTS = (None, "hz", "ne")
WILDS = ("none", "caishen", "baida", "bao")
TILE_SETS = (108, 112, 136)
DRAGONS = (31, 32, 33)

_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")
_INVALID = object()


class RulesError(ValueError):
    """An unknown rule set or option, a bad option value, or contradictory options."""


class FrozenDict(Mapping):
    """A read-only mapping that, unlike ``MappingProxyType``, pickles."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping | Iterable = ()) -> None:
        self._data = dict(data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return repr(self._data)


def format_value(value: Any) -> str:
    """Option value as written in TOML conditions and messages: ``true``, ``null``, ``1,2,4``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return ",".join(format_value(item) for item in value)
    if isinstance(value, float):
        return format(value, "g")
    return str(value)


def quote(text: str, pos: int = 0, width: int = 60) -> str:
    """``text`` quoted for a message: whole when short, else the ``width`` characters
    around ``pos`` with its length.

    >>> quote("1m" * 500, 7)
    "'1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m1m…' (1,000 characters)"
    """
    if len(text) <= width:
        return repr(text)
    start = max(0, min(pos - width // 2, len(text) - width))
    part = ("…" if start else "") + text[start : start + width]
    part += "…" if start + width < len(text) else ""
    return f"{part!r} ({len(text):,} characters)"


def unknown_option(name: str, known: Iterable[str], where: str) -> RulesError:
    """The error for an option name that ``where`` (e.g. "rule set 'changsha'") lacks."""
    known = sorted(known)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.75)
    hint = f"did you mean: {', '.join(close)}?" if close else f"valid options: {', '.join(known)}"
    return RulesError(f"unknown option {quote(name)} for {where}; {hint}")


def _show(value: Any) -> str:
    return quote(value) if isinstance(value, str) else format_value(value)


def _as_int(value: Any) -> Any:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return _INVALID


def _as_number(value: Any) -> Any:
    """An int or a finite float, else :data:`_INVALID` (NaN and infinities included)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value) if math.isfinite(value) else _INVALID
    return _INVALID


def _number_or_text(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _list_or_text(text: str) -> Any:
    if not text.startswith("["):
        return [_number_or_text(part.strip()) for part in text.split(",")]
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


@dataclass(frozen=True)
class Option:
    """One rule option: default, type, allowed values, meaning and where it comes from.

    ``type`` is one of :data:`OPTION_TYPES`; ``choices`` fixes the allowed values of an
    ``int`` or ``enum`` option; ``min`` bounds numbers (each item, for a ``list``, whose
    length is that of the default). ``source`` joins :data:`SOURCES` with ``/``.
    ``presets`` maps each value of an option that names a rule era to its rule set id.
    """

    name: str
    default: Any
    type: str
    choices: tuple = ()
    meaning: str = ""
    name_zh: str = ""
    source: str = ""
    note: str = ""
    min: float | None = None
    presets: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.type not in OPTION_TYPES:
            raise RulesError(
                f"option {self.name}: type {self.type!r} is not one of {', '.join(OPTION_TYPES)}"
            )
        for label in ("meaning", "name_zh", "source"):
            if not getattr(self, label):
                raise RulesError(f"option {self.name}: {label} is missing")
        bad = [part for part in self.source.split("/") if part not in SOURCES]
        if bad:
            raise RulesError(
                f"option {self.name}: source {self.source!r} is not made of {', '.join(SOURCES)}"
            )
        if self.presets and not self.choices:
            object.__setattr__(self, "choices", tuple(value for value, _ in self.presets))
        if self.type == "enum" and not self.choices:
            raise RulesError(f"option {self.name}: an enum needs choices")
        if self.type == "list":
            object.__setattr__(self, "default", tuple(self.default))
        object.__setattr__(self, "choices", tuple(self.choices))
        object.__setattr__(self, "default", self.check(self.default))

    def allowed(self) -> str:
        """What the option accepts, in words: ``one of 0, 2, 4``, ``an integer >= 0`` ..."""
        if self.choices:
            return "one of " + ", ".join(format_value(choice) for choice in self.choices)
        bound = "" if self.min is None else f" >= {format_value(self.min)}"
        if self.type == "list":
            return f"a list of {len(self.default)} numbers{bound}"
        return {
            "bool": "true or false",
            "int": f"an integer{bound}",
            "float": f"a number{bound}",
            "int_or_null": f"an integer{bound} or null",
            "str": "a string",
        }[self.type]

    def check(self, value: Any) -> Any:
        """``value`` in canonical form (lists become tuples), or a :class:`RulesError`."""
        canonical = self._convert(value)
        items = canonical if isinstance(canonical, tuple) else (canonical,)
        if (
            canonical is _INVALID
            or (self.choices and canonical not in self.choices)
            or (self.min is not None and any(x is not None and x < self.min for x in items))
        ):
            raise RulesError(f"{self.name} must be {self.allowed()} (got {_show(value)})")
        return canonical

    def _convert(self, value: Any) -> Any:
        if self.type == "bool":
            return value if isinstance(value, bool) else _INVALID
        if self.type == "int":
            return _as_int(value)
        if self.type == "int_or_null":
            return None if value is None else _as_int(value)
        if self.type == "float":
            number = _as_number(value)
            return _INVALID if number is _INVALID else float(number)
        if self.type == "list":
            if not isinstance(value, (list, tuple)) or len(value) != len(self.default):
                return _INVALID
            items = tuple(_as_number(item) for item in value)
            return _INVALID if _INVALID in items else items
        return value if isinstance(value, str) else _INVALID

    def parse(self, text: str) -> Any:
        """Read a value written as text (``--set`` on the command line), then :meth:`check` it.

        Booleans accept true/false, 1/0, yes/no, on/off; ``int_or_null`` accepts null or
        none; a list is comma-separated or JSON.
        """
        word = text.strip()
        lower = word.lower()
        value: Any = word
        if self.type == "bool":
            value = True if lower in _TRUE else False if lower in _FALSE else word
        elif self.type == "int_or_null" and lower in ("null", "none"):
            value = None
        elif self.type in ("int", "int_or_null", "float"):
            value = _number_or_text(word)
        elif self.type == "list":
            value = _list_or_text(word)
        return self.check(value)


@dataclass(frozen=True)
class Condition:
    """``opt`` (the option's value is truthy) or ``opt=value`` (it equals ``value``)."""

    option: str
    value: str | None = None  # canonical text, see format_value

    @classmethod
    def parse(cls, text: str, schema: Mapping[str, Option], where: str) -> Condition:
        name, equals, value = text.partition("=")
        name = name.strip()
        if name not in schema:
            raise unknown_option(name, schema, where)
        return cls(name, format_value(schema[name].parse(value)) if equals else None)

    def holds(self, options: Mapping[str, Any]) -> bool:
        actual = options[self.option]
        return bool(actual) if self.value is None else format_value(actual) == self.value

    def __str__(self) -> str:
        return self.option if self.value is None else f"{self.option}={self.value}"


@dataclass(frozen=True)
class Requirement:
    """``[[requires]]``: whenever ``option`` holds, ``needs`` must hold too."""

    option: Condition
    needs: Condition

    def check(self, options: Mapping[str, Any]) -> None:
        if not self.option.holds(options) or self.needs.holds(options):
            return
        left = self.option.value or format_value(options[self.option.option])
        name, actual = self.needs.option, options[self.needs.option]
        if self.needs.value is not None:
            wanted = f"{name} = {self.needs.value}"
        elif isinstance(actual, bool):
            wanted = f"{name} = true"
        else:
            wanted = f"{name} to be nonzero"
        raise RulesError(
            f"{self.option.option} = {left} needs {wanted} (it is {format_value(actual)})"
        )


@dataclass(frozen=True)
class Family:
    """One winning family of a rule set (RULES.md §7.1), as the shanten and win kernels see it.

    ``pair`` is the pair it needs (``"any"`` or ``"258"``); ``quads`` lets four of a kind
    count as two pairs (seven and eight pairs); ``irregular`` drops the meld structure
    (将一色, 风一色); ``constraint`` names the source's extra shape test (``"hz"``: pung
    or 中 pair, chow, 1/9/中, two suits; ``"ne"``: three suits, terminal or honour, pung),
    and the condition fields spell it out for the kernels: ``need_pung``, ``need_chow``,
    ``need_yao`` (a terminal or honour), ``red_pair_pung`` (a 中 pair stands for the
    pung) and ``min_suits``; ``void_suit`` forbids the player's void suit (定缺).
    """

    form: str
    pair: str = "any"
    quads: bool = False
    irregular: bool = False
    constraint: str | None = None
    need_pung: bool = False
    need_chow: bool = False
    need_yao: bool = False
    red_pair_pung: bool = False
    min_suits: int = 0
    void_suit: bool = False

    @property
    def conditioned(self) -> bool:
        """Whether the win needs shape conditions beyond melds and a pair."""
        return self.need_pung or self.need_chow or self.need_yao or self.min_suits > 0

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise RulesError(f"family form {self.form!r} is not one of {', '.join(FORMS)}")
        if self.pair not in PAIRS:
            raise RulesError(f"family pair {self.pair!r} is not one of {', '.join(PAIRS)}")
        if self.constraint not in CONSTRAINTS:
            raise RulesError(f"family constraint {self.constraint!r} is not hz or ne")
        if self.min_suits not in (0, 1, 2, 3) or isinstance(self.min_suits, bool):
            raise RulesError(f"family min_suits must be 0–3, got {self.min_suits!r}")
        for flag in (
            "quads",
            "irregular",
            "void_suit",
            "need_pung",
            "need_chow",
            "need_yao",
            "red_pair_pung",
        ):
            if not isinstance(getattr(self, flag), bool):
                raise RulesError(f"family {flag} must be true or false")


@dataclass(frozen=True, eq=False, repr=False)
class RuleSet:
    """A rule set with the effective value of each option in ``schema``.

    ``options`` passed in may omit options (they take their defaults); the instance holds
    all of them, read-only. ``tiles_spec`` and ``core_spec`` are the preset's ``[tiles]``
    and ``[core]`` tables; the fields after them are those tables resolved against the
    options. Two rule sets are equal when their ids, options and [game] tables are.
    """

    id: str
    name: str
    name_zh: str
    section: str
    source: str
    summary: str
    schema: tuple[Option, ...]
    options: Mapping[str, Any] = field(default_factory=FrozenDict)
    requires: tuple[Requirement, ...] = ()
    tiles_spec: Mapping[str, Any] = field(default_factory=FrozenDict)
    core_spec: Mapping[str, Any] = field(default_factory=FrozenDict)
    #: The preset's ``[game]`` table: the scoring model and the game engine's values
    #: (:mod:`mjsim.game.config`); empty for a rule set the engine does not play yet.
    game_spec: Mapping[str, Any] = field(default_factory=FrozenDict)
    #: Tiles in the wall: 108, 112, 136 or 144 (136 plus the flowers f1–f8).
    tile_set: int = field(init=False)
    #: Tiles held between turns: 13, or 16 in caishen16.
    hand_size: int = field(init=False)
    #: Melds in a standard win: 4, or 5 in caishen16.
    melds: int = field(init=False)
    families: tuple[Family, ...] = field(init=False)
    #: Wildcard scheme: "none", "caishen", "baida" or "bao".
    wild: str = field(init=False)
    #: A lone wild tile beside complete melds pairs with any tile, even as a fifth copy
    #: (财神牛 / 财神单吊, RULES.md §3.4); elsewhere a wild tile never stands for a fifth copy.
    lone_wild: bool = field(init=False)
    #: Honour kinds set aside as bonus tiles (the dragons in some Shanghai games).
    bonus_kinds: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        where = f"rule set {self.id!r}"
        by_name = {option.name: option for option in self.schema}
        for name in self.options:
            if name not in by_name:
                raise unknown_option(name, by_name, where)
        options = {
            name: option.check(self.options.get(name, option.default))
            for name, option in by_name.items()
        }
        object.__setattr__(self, "options", FrozenDict(options))
        for option in self.schema:
            target = dict(option.presets).get(options[option.name], self.id)
            if target != self.id:
                raise RulesError(
                    f"{option.name} = {options[option.name]} is the rule set {target!r}: "
                    f"load it by name instead"
                )
        for requirement in self.requires:
            requirement.check(options)
        self._resolve_tiles(options, where)
        self._resolve_core(options, by_name, where)

    def _value(self, value: Any, options: Mapping[str, Any], where: str) -> Any:
        if isinstance(value, str) and value.startswith("$"):
            if value[1:] not in options:
                raise unknown_option(value[1:], options, where)
            return options[value[1:]]
        return value

    def _resolve_tiles(self, options: Mapping[str, Any], where: str) -> None:
        spec = {key: self._value(v, options, where) for key, v in self.tiles_spec.items()}
        extra = set(spec) - {"set", "flowers", "bonus_dragons", "hand_size"}
        if extra:
            raise RulesError(f"{where}: unknown [tiles] keys {sorted(extra)}")
        base, flowers = spec.get("set"), spec.get("flowers", False)
        if base not in TILE_SETS:
            raise RulesError(f"{where}: tiles.set must be one of 108, 112, 136 (got {base})")
        bonus = DRAGONS if spec.get("bonus_dragons", False) else ()
        if (flowers or bonus) and base != 136:
            raise RulesError(f"{where}: flowers and bonus dragons need the 136-tile set")
        object.__setattr__(self, "tile_set", 144 if flowers else base)
        object.__setattr__(self, "hand_size", spec.get("hand_size", 13))
        object.__setattr__(self, "bonus_kinds", bonus)

    def _resolve_core(
        self, options: Mapping[str, Any], schema: Mapping[str, Option], where: str
    ) -> None:
        spec = self.core_spec
        extra = set(spec) - {"melds", "wild", "lone_wild", "families"}
        if extra:
            raise RulesError(f"{where}: unknown [core] keys {sorted(extra)}")
        melds = self._value(spec.get("melds", 4), options, where)
        if self.hand_size != 3 * melds + 1:
            raise RulesError(f"{where}: {melds} melds do not fit a {self.hand_size}-tile hand")
        wild = self._value(spec.get("wild", "none"), options, where)
        if wild not in WILDS:
            raise RulesError(f"{where}: wild {wild!r} is not one of {', '.join(WILDS)}")
        families = []
        for raw in spec.get("families", ()):
            if "when" in raw and not Condition.parse(raw["when"], schema, where).holds(options):
                continue
            fields = {k: self._value(v, options, where) for k, v in raw.items() if k != "when"}
            try:
                families.append(Family(**fields))
            except TypeError as error:
                raise RulesError(f"{where}: bad family {dict(raw)} ({error})") from None
        if not families:
            raise RulesError(f"{where}: no winning family is active with these options")
        object.__setattr__(self, "melds", melds)
        lone_wild = self._value(spec.get("lone_wild", False), options, where)
        if not isinstance(lone_wild, bool) or (lone_wild and wild == "none"):
            raise RulesError(f"{where}: lone_wild must be true or false, and true needs a wild")
        object.__setattr__(self, "wild", wild)
        object.__setattr__(self, "lone_wild", lone_wild)
        object.__setattr__(self, "families", tuple(families))

    @property
    def kinds(self) -> tuple[int, ...]:
        """Tile kinds 0–33 in the wall (bonus dragons included: see ``bonus_kinds``)."""
        if self.tile_set == 108:
            return tuple(range(27))
        if self.tile_set == 112:
            return (*range(27), 33)
        return tuple(range(34))

    @property
    def has_flowers(self) -> bool:
        return self.tile_set == 144

    @cached_property
    def options_hash(self) -> str:
        """First 16 hex digits of the SHA-256 of the id and options as canonical JSON."""
        payload = json.dumps(
            {"id": self.id, "options": dict(self.options)}, sort_keys=True, separators=(",", ":")
        )
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    @property
    def overrides(self) -> dict[str, Any]:
        """The options whose values differ from this preset's defaults."""
        return {
            option.name: self.options[option.name]
            for option in self.schema
            if self.options[option.name] != option.default
        }

    def option(self, name: str) -> Option:
        """The schema entry of option ``name``."""
        for option in self.schema:
            if option.name == name:
                return option
        raise unknown_option(name, self.options, f"rule set {self.id!r}")

    def __getitem__(self, name: str) -> Any:
        if name not in self.options:
            raise unknown_option(name, self.options, f"rule set {self.id!r}")
        return self.options[name]

    def with_options(self, **overrides: Any) -> RuleSet:
        """A copy with some options changed, validated like a fresh load."""
        return replace(self, options={**self.options, **overrides})

    def to_dict(self) -> dict[str, Any]:
        """Everything about the rule set as plain JSON-ready data."""
        return {
            "id": self.id,
            "name": self.name,
            "name_zh": self.name_zh,
            "section": self.section,
            "source": self.source,
            "summary": self.summary,
            "tile_set": self.tile_set,
            "hand_size": self.hand_size,
            "melds": self.melds,
            "wild": self.wild,
            "lone_wild": self.lone_wild,
            "kinds": list(self.kinds),
            "bonus_kinds": list(self.bonus_kinds),
            "families": [asdict(family) for family in self.families],
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()},
            "options_hash": self.options_hash,
            "schema": [
                asdict(option) | {"presets": dict(option.presets)} for option in self.schema
            ],
            "requires": [{"option": str(r.option), "needs": str(r.needs)} for r in self.requires],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleSet):
            return NotImplemented
        return (
            self.id == other.id
            and dict(self.options) == dict(other.options)
            and dict(self.game_spec) == dict(other.game_spec)
        )

    def __hash__(self) -> int:
        return hash((self.id, self.options_hash))

    def __repr__(self) -> str:
        changed = "".join(f", {k}={v!r}" for k, v in self.overrides.items())
        return f"RuleSet({self.id!r}{changed})"
