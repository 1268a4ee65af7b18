"""A rule set compiled for the turn engine: its values (:mod:`mjsim.game.values`), its
scoring model (:mod:`mjsim.game.scoring`) and the shanten kernel's arrays.

The preset's ``[game]`` table names the scoring model and sets the engine's values and the
model's, each literally, from an option (``"$cs_birds"``) or by an option's truth
(``{ if = "cs_guoshou", then = "guoshou", else = "none" }``). Nothing here asks which rule
set it is: a rule set without a ``[game]`` table is not playable yet.

>>> g = game_config("changsha")
>>> g.model, int(g.cfg[V.WALL_END]) == V.END_HAIDI, g.sources
('changsha', True, ('win', 'qishou', 'mid'))
>>> game_config("generic").columns[-4:]
('pay_baoting_0', 'pay_baoting_1', 'pay_baoting_2', 'pay_baoting_3')
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from types import ModuleType
from typing import Any

import numpy as np
from numba import typeof

from ..evaluate import compile_rules
from ..kernels import shanten as K
from ..kernels.arrayref import array_ref
from ..kernels.deal import IND_NONE, IND_RESERVED, IND_TAIL, next_kinds
from ..rules import RulesError, RuleSet, load_rules
from ..walls import WallSpec
from . import record as R
from . import scoring as SC
from . import values as V
from .evaluation import kernel_address
from .scoring import model
from .state import MAX_FAMILIES, MAX_SOURCES

_INDICATOR = {"none": IND_NONE, "tail": IND_TAIL, "reserved": IND_RESERVED}


def far_waits(families: np.ndarray) -> int:
    """The kinds (bit k) a hand without wild tiles may win on though it holds neither that
    kind nor a kind of its suit within two: every 2/5/8 with 将将胡, every honour with a
    风一色 form, every kind with 八对 + 1 (its odd tile is any); a meld or a pair needs a tile
    held or near.

    >>> from mjsim.evaluate import compile_rules
    >>> from mjsim.rules import load_rules
    >>> far_waits(compile_rules(load_rules("generic")).families)
    0
    >>> bin(far_waits(compile_rules(load_rules("changsha")).families)).count("1")
    9
    """
    kinds = np.zeros(34, dtype=bool)
    forms = set(families[:, 0].tolist())
    if K.EIGHT_PAIRS in forms:
        kinds[:] = True
    if K.ALL_258 in forms:
        kinds[[9 * suit + rank for suit in range(3) for rank in (1, 4, 7)]] = True
    if K.ALL_HONOURS in forms:
        kinds[27:] = True
    return int(sum(1 << k for k in np.flatnonzero(kinds)))


#: the rule set's arrays as the compiled engine reads them
GameRules = namedtuple(
    "GameRules",
    (
        "cfg",  # int64[N_CFG]: the engine's values (mjsim.game.values)
        "score",  # int64[...]: the scoring model's values (its PARAMS)
        "families",  # int64[F, FAMILY_COLUMNS]: the cfg[N_SCORING] scoring families,
        # then auxiliary ones
        "roles",  # int64[F]: each family's role in the scoring model
        "big",  # bool[cfg[N_SCORING]]: big-win families (the value bot aims at them)
        "chase",  # bool[C >= cfg[N_SCORING]]: the families the tuned player weighs as big
        # wins: ``big``, then auxiliary ones (the model's CHASE_ROLES) up to the last
        "kind_mask",  # bool[34]: kinds of the rule set
        "honour_mask",  # bool[7]
        "tables",  # the shanten kernel's tables, as one pointer (kernels.arrayref:
        # read with arrays_at(G.tables))
        "seats",  # int8[dealt]: the deal pipeline's seat of each head slot
        "is_bonus",  # bool[42]: kinds set aside and replaced
        "multiset",  # int8[T]: the wall's tiles
        "next_kinds",  # int8[34]: the kind after each kind (wildcard indicators)
        "hooks",  # int64[len(scoring.HOOKS)]: the addresses of the scoring model's hook
        # functions in this process (the engine calls them there; never pickle them)
        "kernel",  # int64: the address of the shanten kernel's code in this process
        # (evaluation.kernel_cost calls it there; never pickle it)
    ),
)


@dataclass(frozen=True, eq=False)
class GameConfig:
    """Everything the engine needs for one rule set: ``rules_arrays`` (:data:`GameRules`),
    the wall ``spec``, the scoring ``model`` and the record's ``columns``. Reading
    ``rules_arrays`` the first time in a process compiles (or loads) the shanten kernel and
    the scoring model's hooks for their addresses; the engine values ``cfg`` and everything
    else cost nothing to read."""

    rules: RuleSet
    model: str
    #: :data:`GameRules` without the kernel's address (``kernel`` 0): never to be played
    base_arrays: tuple
    spec: WallSpec
    sources: tuple[str, ...]
    columns: tuple[str, ...]
    patterns: tuple
    #: the model's columns wider than int8, and what summaries report of its columns
    wide: tuple[str, ...] = ()
    facts: tuple = ()
    win_sources: tuple[str, ...] = ("win",)
    patterns_title: str = "patterns"

    @property
    def cfg(self) -> np.ndarray:
        """The engine values (int64, indexed by :mod:`mjsim.game.values`)."""
        return self.base_arrays.cfg

    @cached_property
    def rules_arrays(self) -> GameRules:
        """The rule set's arrays for the engine, with the kernel's and the scoring model's
        hooks' addresses in this process."""
        tables = self.base_arrays.tables
        return self.base_arrays._replace(
            hooks=SC.hook_addresses(self.model, typeof(self.base_arrays)),
            kernel=np.int64(kernel_address(tables)),
        )

    def __getstate__(self) -> dict:
        """Pickled without ``rules_arrays``: the addresses are one process's."""
        return {k: v for k, v in vars(self).items() if k != "rules_arrays"}

    @property
    def game_length(self) -> int:
        """Hands per game."""
        return int(self.cfg[V.GAME_LENGTH])


def _resolve(value: Any, options: dict, key: str, where: str) -> Any:
    if isinstance(value, Mapping):
        if set(value) != {"if", "then", "else"} or value["if"] not in options:
            raise RulesError(
                f'{where}: [game] {key} must be a value, "$option" or '
                f'{{ if = "<option>", then = …, else = … }}'
            )
        chosen = value["then"] if options[value["if"]] else value["else"]
        return _resolve(chosen, options, key, where)
    if isinstance(value, str) and value.startswith("$"):
        if value[1:] not in options:
            raise RulesError(f"{where}: [game] {key} names an unknown option {value[1:]!r}")
        return options[value[1:]]
    return value


def _code(table: dict, name: str, value: Any, where: str) -> int:
    allowed, _ = table[name]
    if isinstance(allowed, tuple):
        if value not in allowed:
            raise RulesError(
                f"{where}: [game] {name} must be one of "
                f"{', '.join(map(str, allowed))} (got {value!r})"
            )
        return allowed.index(value)
    if allowed is bool and not isinstance(value, bool):
        raise RulesError(f"{where}: [game] {name} must be true or false (got {value!r})")
    if (
        allowed is int
        and (isinstance(value, bool) or not isinstance(value, int))
        and value is not None
    ):
        raise RulesError(f"{where}: [game] {name} must be an integer (got {value!r})")
    return value


def scoring_values(rules: RuleSet) -> dict[str, Any]:
    """The scoring model's values of ``rules`` by name (a choice as its code: its index).

    >>> scoring_values(load_rules("changsha"))["cap"]
    6
    """
    return _values(rules)[2]


def _values(rules: RuleSet) -> tuple[ModuleType, dict, dict]:
    where = f"rule set {rules.id!r}"
    spec = dict(rules.game_spec)
    if "scoring" not in spec:
        playable = ", ".join(r.id for r in playable_rules())
        raise RulesError(
            f"the game engine does not play {rules.id} yet (its preset has no "
            f"[game] table); playable: {playable}"
        )
    scoring = model(spec.pop("scoring"))
    engine = {name: default for name, (_, default) in V.ENGINE.items()}
    params = {name: default for name, (_, default) in scoring.PARAMS.items()}
    for key, raw in spec.items():
        value = _resolve(raw, rules.options, key, where)
        if key in V.DERIVED:
            raise RulesError(
                f"{where}: [game] {key} comes from the rule set's tiles, wall or "
                f"scoring model; it cannot be set"
            )
        if key in V.ENGINE:
            if value is None:
                raise RulesError(f"{where}: [game] {key} needs a value (got none)")
            engine[key] = _code(V.ENGINE, key, value, where)
        elif key in scoring.PARAMS:
            params[key] = value if value is None else _code(scoring.PARAMS, key, value, where)
        else:
            raise RulesError(
                f"{where}: [game] {key} is neither an engine value nor one of the "
                f"{rules.game_spec['scoring']} model's; engine: "
                f"{', '.join(V.ENGINE)}; model: {', '.join(scoring.PARAMS)}"
            )
    for table, values in ((V.ENGINE, engine), (scoring.PARAMS, params)):
        for key, (allowed, _) in table.items():
            if isinstance(allowed, tuple) and isinstance(values[key], str):
                values[key] = allowed.index(values[key])  # a default left as it is
    return scoring, engine, params


def playable_rules() -> list[RuleSet]:
    """Every preset the game engine plays (those with a ``[game]`` table), in the order of
    :data:`mjsim.rules.RULE_SETS`."""
    from ..rules import list_rules

    return [r for r in list_rules() if "scoring" in r.game_spec]


@lru_cache(maxsize=32)
def game_config(rules: RuleSet | str) -> GameConfig:
    """The engine's view of ``rules`` (a rule set whose preset has a ``[game]`` table).

    >>> g = game_config("hongzhong112")
    >>> g.model, int(g.cfg[V.RESERVE]), int(g.cfg[V.INDICATOR_SLOT])
    ('bao', 12, 7)
    """
    rules = load_rules(rules)
    scoring, engine, values = _values(rules)
    score, extra = scoring.params(rules, values)
    engine.update({k: int(v) for k, v in extra.items()})
    comp = compile_rules(rules)
    aux = scoring.aux_families(rules)
    roles, big = scoring.roles(rules)
    aux_roles = scoring.aux_roles(rules)
    chased = np.isin(aux_roles, scoring.CHASE_ROLES)
    chase = np.concatenate([big, chased[: chased.nonzero()[0].max(initial=-1) + 1]])
    families = np.concatenate([comp.families, aux]) if len(aux) else comp.families
    sources = scoring.SOURCES
    if len(sources) > MAX_SOURCES:
        raise RulesError(f"{scoring.__name__}: at most {MAX_SOURCES} payment sources")
    columns = R.layout(scoring.COLUMNS, sources)
    spec = WallSpec.from_rules(rules)
    if engine["wild"] == V.WILD_INDICATOR and spec.indicator != "tail":
        raise RulesError(
            f'rule set {rules.id!r}: [game] wild = "indicator" needs a wall '
            f"that turns its indicator at the deal; this one's is {spec.indicator!r}"
        )
    if engine["wild"] == V.WILD_DECLARED_DRAW and spec.indicator != "reserved":
        raise RulesError(
            f'rule set {rules.id!r}: [game] wild = "declared_draw" needs a wall '
            f"that keeps its indicator in reserve; this one's is "
            f"{spec.indicator!r}"
        )
    fixed = spec.reserved if spec.indicator != "tail" else 0  # a reserve kept in place
    if engine["reserve_replace"] != 0 and not 0 < engine["reserve_replace"] < fixed:
        raise RulesError(
            f"rule set {rules.id!r}: [game] reserve_replace must be 0, or 1 .. "
            f"{fixed - 1} where the wall keeps a reserve in place ({fixed} tiles "
            f"here), got {engine['reserve_replace']}"
        )
    if len(families) > MAX_FAMILIES:
        raise RulesError(
            f"rule set {rules.id!r}: {len(families)} hand families with the "
            f"auxiliary ones; the engine holds at most {MAX_FAMILIES}"
        )
    name = scoring.__name__.rsplit(".", 1)[1]
    engine.update(
        far_waits=far_waits(families),
        hand_size=rules.hand_size,
        melds=rules.melds,
        lone_wild=int(rules.lone_wild),
        n_scoring=len(comp.families),
        col_model=R.N_COMMON,
        col_pay=R.N_COMMON + len(scoring.COLUMNS),
        n_sources=len(sources),
        reserve=spec.reserved,
        indicator=_INDICATOR[spec.indicator],
        indicator_slot=spec.indicator_slot if spec.indicator == "reserved" else 0,
        wild_step=spec.wild_step,
    )
    for slot, src in (
        ("win", "win"),
        ("kong", "kong"),
        ("declare", "baoting"),
        ("qishou", "qishou"),
        ("mid", "mid"),
        ("baopai", "baopai"),
    ):
        engine[f"src_{slot}"] = sources.index(src) if src in sources else -1
    cfg = np.array([int(engine[name]) for name in V.ENGINE], dtype=np.int64)
    arrays = GameRules(
        cfg,
        score,
        families,
        np.concatenate([roles, aux_roles]),
        big,
        chase,
        comp.kind_mask,
        comp.honour_mask,
        array_ref(comp.tables),
        spec.deal_seats,
        spec.is_bonus,
        spec.multiset,
        next_kinds(),
        np.zeros(len(SC.HOOKS), dtype=np.int64),
        np.int64(0),
    )
    return GameConfig(
        rules=rules,
        model=name,
        base_arrays=arrays,
        spec=spec,
        sources=sources,
        columns=columns,
        patterns=scoring.PATTERNS,
        wide=scoring.WIDE,
        facts=scoring.FACTS,
        win_sources=scoring.WIN_SOURCES,
        patterns_title=scoring.PATTERNS_TITLE,
    )


def with_readiness(arrays: GameRules) -> GameRules:
    """``arrays`` with the readiness columns recorded (engine value ``readiness``; a copy,
    the cached configuration unchanged).

    >>> g = game_config("generic").rules_arrays
    >>> int(with_readiness(g).cfg[V.READINESS]), int(g.cfg[V.READINESS])
    (1, 0)
    """
    cfg = arrays.cfg.copy()
    cfg[V.READINESS] = 1
    return arrays._replace(cfg=cfg)
