"""Play hands: the Python facade over :mod:`mjsim.game.engine`.

>>> df = play_frame("changsha", 16, seed=1)
>>> len(df), int(df[[f"pay_{s}" for s in range(4)]].sum(axis=1).abs().max())
(16, 0)
>>> row = df.iloc[5]
>>> bool(replay("changsha", 1, int(row["index"]))["pay_0"] == row["pay_0"])
True
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from numba import get_num_threads, typeof

from ..kernels.rng import index_seed, stream_key
from ..progress import compile_notice, note, progress_bar
from ..rules import RulesError, RuleSet, load_rules
from ..walls import DICE_STREAM
from ..walls import walls as _walls
from . import engine as EN
from . import policy as POL
from . import record as R
from .config import GameConfig, game_config, with_readiness
from .evaluation import kernel_address, kernel_code
from .players import theta_rows
from .policy import DEFAULT_ROLLOUTS, MAX_ROLLOUTS
from .state import CARRY_SLOTS, MAX_MELDS, MODEL_SLOTS, POSITIONS, STATUS, new_scratch, new_state

DEFAULT_BOTS = ("efficiency",) * 4
#: hands per kernel call in :func:`play_frame` (whole games)
CHUNK = 8192
#: cold, on 2 cores (benchmarks/bench_compile.py): the engine (one for every scoring model),
#: the shanten kernel it calls, and one scoring model's hooks
COMPILE_SECONDS = 50
KERNEL_SECONDS = 20
MODEL_SECONDS = 10
#: whose hooks a search or tuned seats compile, and in about how many seconds once the
#: engine is cached
HOOKS_COMPILE = {"search": ("the search bot", 25), "tuned": ("the tuned player", 10)}
_NO_WALLS = np.zeros((0, 0), dtype=np.int8)
_NO_DICE = np.zeros((0, 2), dtype=np.int64)
_NO_SCRIPT = np.zeros(0, dtype=np.int64)
_NO_FINAL = np.zeros(0, dtype=np.int64)


def parse_bots(text: str | tuple | list | None) -> tuple[str, str, str, str]:
    """Four bot names from ``"efficiency,value,cautious,efficiency"``, one name, or a list;
    a search seat may carry its budget, worlds per decision (``search:32``), and a tuned
    seat its player file (``tuned:FILE``; ``tuned`` alone: the rule set's shipped player,
    :mod:`mjsim.game.players`).

    >>> parse_bots("value")
    ('value', 'value', 'value', 'value')
    >>> parse_bots("search:32,efficiency,efficiency,efficiency")[:2]
    ('search:32', 'efficiency')
    >>> parse_bots("efficiency,value")
    Traceback (most recent call last):
    ...
    ValueError: --bots needs one bot or four (one per seat), got 2: efficiency,value
    >>> parse_bots("greedy")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'greedy'; bots: efficiency, value, cautious, search (search:N), tuned (tuned:FILE)
    >>> parse_bots("search:0,search:8,efficiency,efficiency")
    Traceback (most recent call last):
    ...
    ValueError: a search budget is a whole number of worlds from 1 to 4096, got 'search:0'
    """
    if text is None:
        return DEFAULT_BOTS
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text)]
    for name in names:
        bot, _, budget = name.partition(":")
        if bot not in R.BOTS or (budget and bot not in ("search", "tuned")):
            raise ValueError(
                f"unknown bot {name!r}; bots: {', '.join(R.BOTS[:-1])} (search:N), tuned "
                f"(tuned:FILE)"
            )
        if bot == "tuned":
            continue
        if budget and not (budget.isdigit() and 1 <= int(budget) <= MAX_ROLLOUTS):
            raise ValueError(
                f"a search budget is a whole number of worlds from 1 to "
                f"{MAX_ROLLOUTS}, got {name!r}"
            )
    if len(names) == 1:
        names *= 4
    if len(names) != 4:
        raise ValueError(
            f"--bots needs one bot or four (one per seat), got {len(names)}: {','.join(names)}"
        )
    if len({_budget(n) for n in names if n.startswith("search")}) > 1:
        raise ValueError(f"one search budget per line-up, got {','.join(names)}")
    return tuple(names)


def _budget(name: str) -> int:
    """The worlds per decision of a search seat's name (``search`` alone: the default)."""
    return int(name.partition(":")[2] or DEFAULT_ROLLOUTS)


def with_rollouts(bots: Any, rollouts: int | None) -> tuple[str, str, str, str]:
    """The line-up with every search seat's budget set to ``rollouts`` (None: as it is).

    >>> with_rollouts("search,efficiency,efficiency,value", 24)[:2]
    ('search:24', 'efficiency')
    """
    names = parse_bots(bots)
    if rollouts is None:
        return names
    return parse_bots([f"search:{rollouts}" if n.startswith("search") else n for n in names])


def _bot_codes(bots: Any) -> np.ndarray:
    return np.array([R.BOTS.index(b.partition(":")[0]) for b in parse_bots(bots)], dtype=np.int64)


class Kind(NamedTuple):
    """A line-up's policy (which hooks it binds and compiles): whether a seat searches and
    whether one is tuned; neither, the heuristic bots'."""

    search: bool
    tuned: bool


def _policy_kind(names: tuple[str, ...]) -> Kind:
    """The policy of the line-up ``names``.

    >>> _policy_kind(("search:8", "tuned", "tuned", "efficiency"))
    Kind(search=True, tuned=True)
    """
    heads = {n.partition(":")[0] for n in names}
    return Kind("search" in heads, "tuned" in heads)


def _functions(kind: Kind) -> dict:
    """The policy hooks of a line-up of policy ``kind`` (:func:`mjsim.game.policy.bind`):
    the heuristic bots', the tuned seats' where a seat is tuned, a search's around those
    where a seat searches (imported only then)."""
    if kind.search:
        from .search import functions

        return functions(kind.tuned)
    if kind.tuned:
        from .tuned import HOOKS

        return HOOKS
    return POL.HEURISTIC


def make_policy(
    names: tuple[str, ...], G, wall_size: int, rec_size: int, theta: np.ndarray | None = None
) -> POL.Policy:
    """The engine's policy value for a line-up over the rule-set arrays ``G``
    (:mod:`mjsim.game.policy`): the tuned seats' parameter rows ``theta``
    (:func:`mjsim.game.players.theta_rows`) where a seat is tuned, else the heuristic bots';
    where a seat searches, one thread's search around them (the other seats', and every
    seat's in the rollouts)."""
    kind = _policy_kind(names)
    if kind.search:
        from .search import search_policy  # only where a seat searches

        budget = next(_budget(n) for n in names if n.startswith("search"))
        return search_policy(G, wall_size, rec_size, budget, theta=theta)
    if kind.tuned:
        from .tuned import tuned_policy  # only where a seat is tuned

        return tuned_policy(G, theta)
    return POL.bind(POL.empty(), G, POL.HEURISTIC)


#: engines compiling in a child process (:func:`compile_beside`), by policy (one engine
#: plays every scoring model)
_BESIDE: dict[Kind, subprocess.Popen] = {}


def _engine_cached(g: GameConfig) -> bool:
    """Whether numba's cache holds the engine, one for every scoring model and policy (read
    from the cache's index; False when it cannot be read)."""
    want = (typeof(g.base_arrays), POL.policy_type())
    try:  # numba's cache index: keys (argument types, codegen, source stamp) -> data files
        index = EN.play_games._cache._cache_file._load_index()
    except Exception:  # another numba's layout: not known to be cached
        return False
    return any(tuple(key[0][:2]) == want for key in index)


def engine_cached(g: GameConfig, names: tuple[str, ...]) -> bool:
    """Whether numba's cache holds the engine and the policy hooks of the line-up ``names``."""
    return _engine_cached(g) and POL.cached(g.base_arrays, _functions(_policy_kind(names)))


def compiling(g: GameConfig, kind: Kind) -> tuple[str, int]:
    """What a first run of a line-up of policy ``kind`` compiles, and in about how many
    seconds: the engine with its policy's hooks, or those hooks alone where the engine is
    cached."""
    if not (kind.search or kind.tuned):
        return "the game engine", COMPILE_SECONDS
    who, seconds = HOOKS_COMPILE["search" if kind.search else "tuned"]
    if _engine_cached(g):
        return f"{who}'s hooks", seconds
    return f"the game engine with {who}", COMPILE_SECONDS


def compile_beside(rules: str | RuleSet, bots: Any = DEFAULT_BOTS) -> bool:
    """Start compiling the game engine for ``rules`` and the line-up ``bots`` in a child
    process unless numba's cache holds it: a first run's compile then overlaps the work
    before its first hand (a report's deals and exact values), and that hand waits for the
    child and loads the engine from the cache. Returns whether a child was started."""
    rules = load_rules(rules)
    g = game_config(rules)
    names = parse_bots(bots)
    key = _policy_kind(names)
    if key in _BESIDE or engine_cached(g, names):
        return False
    lineup = ",".join("tuned:efficiency" if n.startswith("tuned") else n for n in names)
    code = (
        "from mjsim.game.play import play_rows; from mjsim.rules import load_rules; "
        f"play_rows(load_rules({rules.id!r}, **{dict(rules.overrides)!r}), 0, 0, 16, {lineup!r})"
    )
    _BESIDE[key] = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    note("compiling the game engine beside the work before the first hand…")
    return True


def _wait_beside(names: tuple[str, ...]) -> None:
    """Wait for the child compiling this engine, if one is (:func:`compile_beside`)."""
    child = _BESIDE.pop(_policy_kind(names), None)
    if child is not None and child.poll() is None:
        note("waiting for the game engine's compile…")
        child.wait()


def _run(
    g: GameConfig,
    seed: int,
    start: int,
    out: np.ndarray,
    bots: Any,
    walls: np.ndarray = _NO_WALLS,
    dice: np.ndarray = _NO_DICE,
    script: np.ndarray = _NO_SCRIPT,
    final: np.ndarray = _NO_FINAL,
    readiness: bool = False,
    theta: np.ndarray | None = None,
) -> None:
    """Play the hands of ``out``'s rows, the games split between numba's threads (each its
    own state; the engine releases the GIL); the readiness columns with ``readiness``; the
    tuned seats with the parameter rows ``theta`` where given, else their files'."""
    names = parse_bots(bots)
    _wait_beside(names)
    with compile_notice(
        kernel_code, "the game's shanten kernel (every rule set's)", KERNEL_SECONDS
    ):
        kernel_address(g.base_arrays.tables)
    with compile_notice(None, f"the {g.model} scoring model", MODEL_SECONDS):
        G = with_readiness(g.rules_arrays) if readiness else g.rules_arrays
    n_games = -(-len(out) // g.game_length)
    cuts = np.linspace(0, n_games, min(get_num_threads(), n_games) + 1).astype(np.int64)
    keys = (stream_key(seed, g.spec.stream), stream_key(seed, DICE_STREAM))
    codes = _bot_codes(bots)
    if R.BOT_TUNED not in codes:
        theta = None
    elif theta is None:
        theta = theta_rows(g.rules, names)

    def games(lo: np.int64, hi: np.int64) -> None:
        EN.play_games(
            G,
            make_policy(names, G, G.multiset.size, out.shape[1], theta),
            *keys,
            codes,
            np.int64(start),
            walls,
            dice,
            script,
            out,
            final,
            new_state(),
            new_scratch(),
            np.empty(G.multiset.size, dtype=np.int8),
            lo,
            hi,
        )

    with compile_notice(None, *compiling(g, _policy_kind(names))):
        if len(cuts) == 2:
            games(cuts[0], cuts[1])
        else:  # numba compiles a new signature once, the other threads waiting for it
            with ThreadPoolExecutor(len(cuts) - 1) as pool:
                list(pool.map(games, cuts[:-1], cuts[1:]))


def play_rows(
    rules: str | RuleSet,
    seed: int,
    start: int,
    n: int,
    bots: Any = DEFAULT_BOTS,
    readiness: bool = False,
    theta: np.ndarray | None = None,
) -> np.ndarray:
    """Records of hands ``start .. start + n - 1`` as ``int32[n, columns]`` (the columns of
    :func:`columns`). ``start`` must begin a game (a multiple of the rule set's game length:
    the dealer rotates inside a game). The readiness columns (:data:`R.READINESS`) are
    recorded with ``readiness`` only (it costs a tenth to a fifth of the speed); else they
    are 0. ``theta`` (4 rows of :data:`mjsim.game.tuned.PARAMS`) gives the tuned seats'
    parameters instead of their player files (a training's candidates)."""
    g = game_config(load_rules(rules))
    length = g.game_length
    if start < 0 or n < 0 or start % length:
        raise ValueError(
            f"start must be a non-negative multiple of {length} (a game's hands) "
            f"and n >= 0 (got start={start}, n={n})"
        )
    if start + n >= 2**31:
        raise ValueError(f"hand indices must stay below 2**31 (start + n = {start + n})")
    out = np.zeros((n, len(g.columns)), dtype=np.int32)
    if n:
        _run(g, seed, start, out, bots, readiness=readiness, theta=theta)
    return out


def columns(rules: str | RuleSet) -> tuple[str, ...]:
    """The record columns of ``rules`` (common, its scoring model's, its payment sources').

    >>> columns("generic")[-4:]
    ('pay_baoting_0', 'pay_baoting_1', 'pay_baoting_2', 'pay_baoting_3')
    """
    return game_config(load_rules(rules)).columns


def game_length(rules: str | RuleSet) -> int:
    """Hands per game of ``rules`` (the dealer rotates inside a game)."""
    return game_config(load_rules(rules)).game_length


def to_frame(
    rules: str | RuleSet, rows: np.ndarray, seed: int, readiness: bool = False
) -> pd.DataFrame:
    """Records of ``rules`` as a DataFrame, the readiness columns only where they were
    recorded (``readiness``); ``attrs`` say the game length and the scoring model's
    patterns."""
    g = game_config(load_rules(rules))
    df = R.to_frame(rows, seed, g.columns, g.wide)
    if not readiness:
        df = df.drop(columns=list(R.READINESS))
    df.attrs.update(
        game_length=g.game_length,
        patterns=[p.id for p in g.patterns],
        patterns_zh=[p.name_zh for p in g.patterns],
    )
    return df


def most_hands(rules: str | RuleSet) -> int:
    """The most hands :func:`play_frame` holds: their records and the DataFrame's copies
    in half the machine's memory, and hand indices below 2**31.

    >>> 1_000_000 < most_hands("changsha") < 2**31
    True
    """
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    per_hand = 3 * 4 * len(columns(rules))  # int32 rows, 3 copies
    return int(min(2**31 - 1, memory // 2 // per_hand))


def play_frame(
    rules: str | RuleSet,
    n: int,
    seed: int = 0,
    bots: Any = DEFAULT_BOTS,
    progress: bool = False,
    readiness: bool = False,
) -> pd.DataFrame:
    """A DataFrame of ``n`` played hands (columns: :func:`columns`, ``seed`` first; the
    readiness columns with ``readiness``); at most :func:`most_hands`."""
    rules = load_rules(rules)
    most = most_hands(rules)
    if not 0 <= n <= most:
        raise ValueError(
            f"a frame of played hands holds 0 to {most:,} hands of {rules.id} on "
            f"this machine (in memory; `mjsim play --out` streams any number), got {n:,}"
        )
    chunk = CHUNK - CHUNK % game_length(rules)
    parts = []
    with progress_bar("hands", n, enabled=progress) as advance:
        for start in range(0, n, chunk):
            m = min(chunk, n - start)
            parts.append(play_rows(rules, seed, start, m, bots, readiness))
            advance(m)
    rows = np.concatenate(parts) if parts else np.zeros((0, len(columns(rules))), np.int32)
    return to_frame(rules, rows, seed, readiness)


def _unpack(final: np.ndarray) -> dict[str, np.ndarray]:
    shapes = {
        "concealed": (4, 34),
        "melded": (4, 34),
        "melds": (4, MAX_MELDS, 3),
        "n_melds": (4,),
        "seen": (34,),
        "status": (4, len(STATUS)),
        "void": (4,),
        "pos": (len(POSITIONS),),
        "model": (MODEL_SLOTS,),
        "carry": (CARRY_SLOTS,),
    }
    out, at = {}, 0
    for name, size in EN.FINAL:
        out[name] = final[at : at + size].reshape(shapes[name])
        at += size
    out["concealed"] = out["concealed"].astype(np.uint8)
    for i, name in enumerate(POSITIONS):
        out[name] = int(out["pos"][i])
    return out


def _script(burn: int, melds: tuple) -> np.ndarray:
    values = [burn]
    for meld in melds:
        if len(meld) not in (3, 4):
            raise ValueError(
                f"a scripted meld is (seat, kind, MELD_*) or (seat, kind, MELD_*, "
                f"source seat), got {meld!r}"
            )
        seat, kind, mtype, source = (*meld, -1) if len(meld) == 3 else meld
        values += [seat + 1, kind, mtype, source + 1]
    return np.array(values + [0], dtype=np.int64)


def play_walls(
    rules: str | RuleSet,
    walls: np.ndarray,
    dealer: int = 0,
    bots: Any = DEFAULT_BOTS,
    burn: int = 0,
    melds: tuple = (),
    dice_seeds: tuple[int, ...] = (),
    readiness: bool = False,
) -> tuple[list[dict[str, int]], dict[str, Any]]:
    """Play given ``walls`` (kinds, head first; at most one game's hands) as consecutive
    hands of one game, the first dealt by ``dealer``, each next one by the rules' next
    dealer, with what a game carries from hand to hand (荒番): the records as dicts and the
    final state of the last hand (``concealed``, ``melded``, ``melds``, ``n_melds``,
    ``seen``, ``status``, ``void``, ``model``, ``carry`` and the positions ``head``,
    ``tail`` …). ``dice_seeds`` key each hand's dice (default 0); the readiness columns are
    recorded with ``readiness`` (else 0, as in :func:`play_rows`).

    A scripted position for tests, in every hand: ``burn`` head tiles are set aside after
    the deal, and ``melds`` — ``(seat, kind, MELD_*)`` or ``(seat, kind, MELD_*, source)``
    — turn dealt tiles into melds (claimed from seat ``source``) before play.
    """
    rules = load_rules(rules)
    g = game_config(rules)
    walls = np.asarray(walls, dtype=np.int8)
    if walls.ndim != 2 or not 1 <= len(walls) <= g.game_length:
        raise ValueError(
            f"walls must be 1 to {g.game_length} walls (one game), got shape {walls.shape}"
        )
    for wall in walls:
        if sorted(wall.tolist()) != sorted(g.spec.multiset.tolist()):
            raise RulesError(f"a {rules.id} wall must hold its {g.spec.size} tiles exactly once")
    if not 0 <= dealer <= 3:
        raise ValueError(f"dealer must be a seat 0–3, got {dealer}")
    seeds = list(dice_seeds) or [0] * len(walls)
    if len(seeds) != len(walls):
        raise ValueError(f"dice_seeds: one per wall ({len(walls)}), got {len(seeds)}")
    out = np.zeros((len(walls), len(g.columns)), dtype=np.int32)
    final = np.zeros(EN.FINAL_SIZE, dtype=np.int64)
    dice = np.array(
        [
            [dealer if i == 0 else -1, np.int64(np.uint64(seed).view(np.int64))]
            for i, seed in enumerate(seeds)
        ],
        dtype=np.int64,
    )
    _run(g, 0, 0, out, bots, walls, dice, _script(burn, melds), final, readiness)
    out[:, R.C_INDEX] = np.arange(len(walls))
    out[:, R.C_GAME] = 0
    return [dict(zip(g.columns, row.tolist())) for row in out], _unpack(final)


def play_wall(
    rules: str | RuleSet,
    wall: np.ndarray,
    dealer: int = 0,
    bots: Any = DEFAULT_BOTS,
    burn: int = 0,
    melds: tuple = (),
    dice_seed: int = 0,
) -> tuple[dict[str, int], dict[str, Any]]:
    """Play one hand on a given ``wall`` (kinds, head first), the first of a game: its
    record as a dict and the final state (see :func:`play_walls`)."""
    recs, final = play_walls(
        rules, np.asarray(wall)[None, :], dealer, bots, burn, melds, (dice_seed,)
    )
    return recs[0], final


def replay(
    rules: str | RuleSet, seed: int, index: int, bots: Any = DEFAULT_BOTS, readiness: bool = False
) -> dict[str, int]:
    """The record of hand ``index`` of ``seed`` replayed from the walls and dice of its game
    alone (the game's hands up to it, from the game's first dealer; the readiness columns
    with ``readiness``)."""
    return replay_game(rules, seed, index, bots, readiness)[0][-1]


def replay_game(
    rules: str | RuleSet, seed: int, index: int, bots: Any = DEFAULT_BOTS, readiness: bool = False
) -> tuple[list[dict[str, int]], dict[str, Any]]:
    """:func:`replay` with the records of the game's hands before it, and the state as hand
    ``index`` ended (:func:`play_walls`), its ``wall`` (kinds, head first) included."""
    rules = load_rules(rules)
    g = game_config(rules)
    length = g.game_length
    first = index - index % length
    key = stream_key(seed, DICE_STREAM)
    ws = _walls(rules, seed, first, index - first + 1)
    seeds = tuple(int(index_seed(key, i)) for i in range(first, index + 1))
    recs, final = play_walls(
        rules, ws, (first // length) % 4, bots, dice_seeds=seeds, readiness=readiness
    )
    for i, rec in enumerate(recs):
        rec["index"] = first + i
        rec["game"] = index // length
    final["wall"] = ws[-1]
    return recs, final
