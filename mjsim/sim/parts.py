"""Chunked runs written as Parquet parts: atomic, resumable, with provenance metadata.

A run writes ``part-<start>-<n>.parquet`` files into one folder, each covering the item
indices ``start .. start+n-1``, plus ``run.json`` with the run's parameters. A part is
written to a temporary name and renamed, so an interrupted run leaves only whole parts;
running the same command again skips them and writes the rest. A folder holding a
different run (other rules, options, seed or chunk size) is refused, never mixed.

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
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ..progress import progress_bar

META_KEY = b"mjsim"


class RunMismatch(ValueError):
    """The output folder holds parts of a different run."""


def _part_name(start: int, n: int) -> str:
    return f"part-{start:012d}-{n:09d}.parquet"


def _check_manifest(folder: Path, params: dict[str, Any]) -> None:
    manifest = folder / "run.json"
    if manifest.exists():
        old = json.loads(manifest.read_text())
        diff = sorted(k for k in set(old) | set(params) if old.get(k) != params.get(k))
        if diff:
            shown = ", ".join(f"{k}: {old.get(k)!r} there, {params.get(k)!r} now" for k in diff)
            raise RunMismatch(
                f"{folder} holds a different run ({shown}); choose another --out or delete it"
            )
        return
    tmp = manifest.with_name(f".run.json.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(params, indent=2, ensure_ascii=False))
    os.replace(tmp, manifest)


def _part_ok(path: Path, meta: bytes) -> bool:
    """Whether a part on disk is whole; a whole part of another run is an error."""
    try:
        found = (pq.read_schema(path).metadata or {}).get(META_KEY)
    except (OSError, pa.ArrowInvalid):
        return False  # damaged: written again
    if found != meta:
        raise RunMismatch(f"{path} belongs to a different run; choose another --out or delete it")
    return True


def run_parts(folder: str | Path, total: int, chunk: int,
              make_chunk: Callable[[int, int], pa.Table], params: dict[str, Any],
              progress: bool = True, label: str = "items") -> int:
    """Write items ``0 .. total-1`` in chunks of ``chunk``; return how many are on disk.

    ``make_chunk(start, n)`` returns the table of items ``start .. start+n-1``;
    ``params`` (JSON-ready) goes into ``run.json`` and every part's metadata.
    """
    if total < 1 or chunk < 1:
        raise ValueError(f"need at least one item and a chunk of at least 1 (got {total}, {chunk})")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    params = dict(params, total=total, chunk=chunk)
    _check_manifest(folder, params)
    meta = json.dumps(params, ensure_ascii=False).encode()
    for stale in folder.glob(".part-*.tmp"):
        stale.unlink(missing_ok=True)  # left by an interrupted write
    starts = list(range(0, total, chunk))
    with progress_bar(label, total, enabled=progress) as advance:
        for start in starts:
            n = min(chunk, total - start)
            path = folder / _part_name(start, n)
            if path.exists() and _part_ok(path, meta):
                advance(n)
                continue
            table = make_chunk(start, n)
            table = table.replace_schema_metadata({**(table.schema.metadata or {}), META_KEY: meta})
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            pq.write_table(table, tmp, compression="zstd")
            os.replace(tmp, path)
            advance(n)
    return total


def read_parts(folder: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """All parts of a run as one DataFrame, in index order."""
    folder = Path(folder)
    paths = sorted(folder.glob("part-*.parquet"))
    if not paths:
        raise FileNotFoundError(f"no parts in {folder}")
    return pd.concat([pq.read_table(p, columns=columns).to_pandas() for p in paths],
                     ignore_index=True)


def run_params(folder: str | Path) -> dict[str, Any]:
    """The parameters a run folder was written with (its ``run.json``)."""
    return json.loads((Path(folder) / "run.json").read_text())
