"""Chunked runs written as Parquet parts: atomic, resumable, with provenance metadata.

A run writes ``part-<start>-<n>.parquet`` files into one folder, each covering the item
indices ``start .. start+n-1``, plus ``run.json`` with the run's parameters. A part is
written to a temporary name and renamed, so an interrupted run leaves only whole parts;
running the same command again skips them and writes the rest. A folder holding a
different run (other rules, options, seed or chunk size) is refused, never mixed. The
chunks may be made on the workers of a dask.distributed cluster (``scheduler``, see
:mod:`mjsim.sim.executor`); the parts are written here, the same bytes as a local run.

>>> import tempfile, pyarrow as pa
>>> d = tempfile.mkdtemp()
>>> make = lambda start, n: pa.table({"i": list(range(start, start + n))})
>>> run_parts(d, 10, 4, make, {"what": "demo"}, progress=False)
10
>>> read_parts(d)["i"].tolist() == list(range(10))
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..progress import progress_bar
from .executor import Cluster, map_chunks

META_KEY = b"mjsim"


class RunMismatch(ValueError):
    """The output folder holds parts of a different run."""


def part_name(start: int, n: int) -> str:
    """The file name of the part of items ``start .. start+n-1``."""
    return f"part-{start:012d}-{n:09d}.parquet"


def _atomic(path: Path, write: Callable[[Path], Any]) -> None:
    """``write(tmp)`` to a temporary name beside ``path``, then renamed to ``path``; a
    write that fails (a full disk, an interrupt) removes its temporary file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON atomically (a temporary file renamed)."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    _atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) atomically (a temporary file renamed)."""
    _atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_part(path: Path, table: pa.Table, meta: bytes) -> None:
    """Write one part atomically, with the run's parameters ``meta`` in its metadata."""
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: meta})
    _atomic(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))


def clear_stale(folder: Path) -> None:
    """Remove the temporary files (``.<name>.<pid>.tmp``) a killed run left in ``folder``."""
    for stale in folder.glob(".*.tmp"):
        stale.unlink(missing_ok=True)


def read_manifest(manifest: Path) -> dict[str, Any]:
    """A run folder's ``run.json``; a file that is not a run's is one line naming it."""
    try:
        old = json.loads(manifest.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        old = None
    if not isinstance(old, dict):
        raise RunMismatch(
            f"{manifest} is not a run's parameters (a JSON object); delete it or choose "
            f"another --out"
        )
    return old


def _check_manifest(folder: Path, params: dict[str, Any]) -> None:
    manifest = folder / "run.json"
    if manifest.exists():
        old = read_manifest(manifest)
        diff = sorted(k for k in set(old) | set(params) if old.get(k) != params.get(k))
        if diff:
            shown = ", ".join(f"{k}: {old.get(k)!r} there, {params.get(k)!r} now" for k in diff)
            raise RunMismatch(
                f"{folder} holds a different run ({shown}); choose another --out or delete it"
            )
        return
    write_json(manifest, params)


def part_ok(path: Path, meta: bytes) -> bool:
    """Whether a part is on disk and whole; a whole part of another run is an error."""
    if not path.exists():
        return False
    try:
        found = (pq.read_schema(path).metadata or {}).get(META_KEY)
    except (OSError, pa.ArrowInvalid):
        return False  # damaged: written again
    if found != meta:
        raise RunMismatch(f"{path} belongs to a different run; choose another --out or delete it")
    return True


def _make(make_chunk: Callable[[int, int], pa.Table], task: tuple[int, int]) -> pa.Table:
    return make_chunk(*task)


def run_parts(
    folder: str | Path,
    total: int,
    chunk: int,
    make_chunk: Callable[[int, int], pa.Table],
    params: dict[str, Any],
    progress: bool = True,
    label: str = "items",
    scheduler: Cluster | str | None = None,
) -> int:
    """Write items ``0 .. total-1`` in chunks of ``chunk``; return how many are on disk.

    ``make_chunk(start, n)`` returns the table of items ``start .. start+n-1``;
    ``params`` (JSON-ready) goes into ``run.json`` and every part's metadata.
    ``scheduler`` (:func:`mjsim.sim.executor.map_chunks`): where the missing chunks are
    made — here (``None``) or on a cluster, where ``make_chunk`` must pickle.
    """
    if total < 1 or chunk < 1:
        raise ValueError(f"need at least one item and a chunk of at least 1 (got {total}, {chunk})")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    params = dict(params, total=total, chunk=chunk)
    _check_manifest(folder, params)
    meta = json.dumps(params, ensure_ascii=False).encode()
    clear_stale(folder)
    tasks = [(start, min(chunk, total - start)) for start in range(0, total, chunk)]

    def write(task: tuple[int, int], table: pa.Table) -> None:
        write_part(folder / part_name(*task), table, meta)

    with progress_bar(label, total, enabled=progress) as advance:
        missing = []
        for task in tasks:
            if part_ok(folder / part_name(*task), meta):
                advance(task[1])
            else:
                missing.append(task)
        map_chunks(
            partial(_make, make_chunk),
            missing,
            write,
            scheduler,
            progress=lambda task: advance(task[1]),
        )
    return total


def part_paths(folder: str | Path) -> list[Path]:
    """The parts of a run in index order (their zero-padded starts sort so); none: an error."""
    paths = sorted(Path(folder).glob("part-*.parquet"))
    if not paths:
        raise FileNotFoundError(f"no parts in {folder}")
    return paths


def read_parts(folder: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """All parts of a run as one DataFrame, in index order."""
    return pd.concat(
        [pq.read_table(p, columns=columns).to_pandas() for p in part_paths(folder)],
        ignore_index=True,
    )


def run_params(folder: str | Path) -> dict[str, Any]:
    """The parameters a run folder was written with (its ``run.json``)."""
    return read_manifest(Path(folder) / "run.json")
