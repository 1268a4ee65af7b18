"""Played-hand datasets: the engine's records (:mod:`mjsim.game.record`) as Parquet parts.

One row per hand, the columns of :func:`mjsim.game.play.columns` (``seed`` first).
Hands are played in games (of the rule set's ``game_length``, 8 hands) with the dealer
rotating inside a game, so a part starts at a whole game and a chunk size is rounded up to
one; the records do not depend on the chunk size. Runs are atomic and resumable
(:func:`mjsim.sim.parts.run_parts`); ``run.json`` and every part's metadata hold the rule
set, its options and their hash, the seed, the four bots and the mjsim version.

>>> game_chunk(1000, 8), game_chunk(1001, 8)
(1000, 1008)
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..game.play import DEFAULT_BOTS, game_length, parse_bots, play_rows, to_frame
from ..game.policy import DEFAULT_ROLLOUTS
from ..rules import RuleSet, load_rules
from .deals import run_params as deal_params
from .executor import Cluster
from .parts import part_paths, read_parts, run_parts
from .parts import run_params as folder_params

#: hands per part of a line-up without search seats (rounded up to whole games): about
#: 6 s of play on the slowest rule set measured here (shanghai_qhp's tuned seats, 3,401
#: hands/s), 2 s on changsha, so an interrupted run loses seconds, not minutes
DEFAULT_CHUNK = 20_000
#: a part's play with search seats, at most about this many seconds
SEARCH_PART_SECONDS = 30
#: hands/s of one search seat deciding with 64 worlds, on the slowest rule set measured
#: (shanghai_qhp, benchmarks/bench_search.py): a decision's cost grows with its worlds
SEARCH_HANDS_PER_S_64 = 39


def default_chunk(bots: tuple[str, ...] | str) -> int:
    """Hands per part for a line-up: :data:`DEFAULT_CHUNK`, or, with search seats, what
    they play in about :data:`SEARCH_PART_SECONDS` (fewer for more seats and worlds).
    A function of the line-up alone, so a run's parts are the same whatever the machine.

    >>> default_chunk("efficiency"), default_chunk("search,efficiency,efficiency,value")
    (20000, 1170)
    >>> default_chunk("search:4096,search:4096,search:4096,search:4096")  # then one game
    4
    """
    worlds = sum(
        int(name.partition(":")[2] or DEFAULT_ROLLOUTS)
        for name in parse_bots(bots)
        if name.startswith("search")
    )
    if not worlds:
        return DEFAULT_CHUNK
    return max(1, SEARCH_PART_SECONDS * SEARCH_HANDS_PER_S_64 * 64 // worlds)


def game_chunk(chunk: int, length: int) -> int:
    """``chunk`` rounded up to a whole number of games of ``length`` hands."""
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ValueError(
            f"chunk must be a positive number of hands (rounded up to a multiple "
            f"of {length}, one game), got {chunk!r}"
        )
    return -(-chunk // length) * length


def run_params(
    rules: RuleSet, seed: int, bots: tuple[str, ...], readiness: bool = False
) -> dict[str, Any]:
    """Provenance of a played dataset: rule set, options, their hash, seed, bots, whether
    the readiness columns are recorded, version."""
    return deal_params(rules, seed) | {
        "kind": "games",
        "bots": list(bots),
        "game_length": game_length(rules),
        "readiness": readiness,
    }


def game_table(
    rules: RuleSet,
    seed: int,
    start: int,
    n: int,
    bots: tuple[str, str, str, str],
    readiness: bool = False,
) -> pa.Table:
    """The records of hands ``start .. start+n-1`` as an Arrow table (``start`` a whole game)."""
    rows = play_rows(rules, seed, start, n, bots, readiness)
    return pa.Table.from_pandas(to_frame(rules, rows, seed, readiness), preserve_index=False)


def write_games(
    rules: str | RuleSet,
    n: int,
    seed: int,
    out: str | Path,
    bots: tuple[str, ...] | str = DEFAULT_BOTS,
    chunk: int | None = None,
    progress: bool = True,
    scheduler: Cluster | str | None = None,
    readiness: bool = False,
) -> Path:
    """Play ``n`` hands and write their records as Parquet parts under ``out``.

    Resumable: run it again after an interruption and only the missing parts are played.
    ``bots``: four names or text (:func:`mjsim.game.play.parse_bots`); ``chunk`` hands a
    part (None: :func:`default_chunk`), rounded up to whole games. ``scheduler``: where the chunks are played — here (``None``), or a
    dask.distributed cluster (a handle or address, :func:`mjsim.sim.executor.cluster`);
    the same files either way. ``readiness``: record the readiness columns (the waits
    study reads them).
    """
    rules = load_rules(rules)
    bots = parse_bots(bots)
    chunk = game_chunk(default_chunk(bots) if chunk is None else chunk, game_length(rules))
    if n < 1:
        raise ValueError(f"n must be at least 1 hand, got {n}")
    run_parts(
        out,
        n,
        chunk,
        partial(game_table, rules, seed, bots=bots, readiness=readiness),
        run_params(rules, seed, bots, readiness),
        progress=progress,
        label="hands",
        scheduler=scheduler,
    )
    return Path(out)


def read_games(folder: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """All hands written by :func:`write_games` under ``folder``, in hand order.

    The run's parameters (``run.json``) are in ``frame.attrs["run"]``.
    """
    frame = read_parts(folder, columns=columns)
    frame.attrs["run"] = _games_params(folder)
    return frame


def iter_games(folder: str | Path, columns: list[str] | None = None) -> Iterator[pd.DataFrame]:
    """The hands written by :func:`write_games` under ``folder``, one frame per part in hand
    order, so a run larger than memory can be read (and summarised,
    :class:`mjsim.stats.play_summary.PlaySummary`) a part at a time. A part starts at a whole
    game and holds whole games. Each frame's ``attrs["run"]`` holds the run's parameters
    (``run.json``), as :func:`read_games` sets; the frames put together are its frame.

    The folder is checked at the call (no parts, or not played hands: an error); the parts
    are read as the frames are taken.
    """
    paths = part_paths(folder)
    params = _games_params(folder)

    def frames() -> Iterator[pd.DataFrame]:
        for path in paths:
            frame = pq.read_table(path, columns=columns).to_pandas()
            frame.attrs["run"] = params
            yield frame

    return frames()


def _games_params(folder: str | Path) -> dict[str, Any]:
    """The parameters of a played-hands folder (``run.json``); another kind is an error."""
    params = folder_params(folder)
    if params.get("kind") != "games":
        raise ValueError(
            f"{folder} holds a {params.get('kind', 'unknown')!r} dataset, "
            "not played hands (mjsim play --out)"
        )
    return params
