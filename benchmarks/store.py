"""One benchmark run as data: the JSON result file every benchmark writes beside what it
prints, under ``benchmarks/results/<benchmark>/``.

A file holds one run (fields :data:`REQUIRED`): the benchmark's name; the commit measured
and whether the tree had uncommitted changes (``dirty``); the UTC date and time; the
machine and its calibration figures (:mod:`machine`, :mod:`calibrate`: the machine is
shared and its speed varies, so a figure is read beside its calibration); the arguments;
and the figures, ``results``: a case (a rule set, an entry point, …) to its named numbers
(``hands_per_s``, ``cold_compile_s``, ``peak_mb``, …; the unit is the name's ending, see
:mod:`report`). ``source`` is ``"measured"``, or for figures copied from the README's old
speed log, where they were transcribed from and what the README said of when they were
measured. The file is written atomically (a temporary file, then ``os.replace``) after
every case, so a run stopped half way keeps what it measured. ``--no-save`` (every
benchmark's) writes nothing, for trial runs.

``python benchmarks/report.py --write`` renders the latest result of each case as the
tables of ``docs/performance.md`` and the README.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from machine import print_machine

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
#: the fields of every result file
REQUIRED = (
    "benchmark",
    "commit",
    "dirty",
    "date",
    "machine",
    "calibration",
    "args",
    "results",
    "source",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-save`` to a benchmark's arguments."""
    parser.add_argument(
        "--no-save",
        action="store_true",
        help="write no result file under benchmarks/results/ (a trial run)",
    )


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def commit() -> tuple[str | None, bool | None]:
    """The checkout's commit and whether tracked files differ from it (None, None outside
    a git checkout)."""
    try:
        return _git("rev-parse", "HEAD"), bool(
            _git("status", "--porcelain", "--untracked-files=no")
        )
    except (OSError, subprocess.CalledProcessError):
        return None, None


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in its folder, then
    ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
            f.write("\n")
        os.chmod(tmp, 0o644)  # mkstemp makes it private
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _plain(value):
    """A figure as JSON keeps it: a numpy scalar as Python's, a float to 6 significant
    digits (more than any benchmark here resolves)."""
    value = value.item() if hasattr(value, "item") else value
    return float(f"{value:.6g}") if isinstance(value, float) else value


class Run:
    """One run of a benchmark: prints the machine lines (:func:`machine.print_machine`)
    on creation, and keeps the figures :meth:`record` is given in its result file."""

    def __init__(self, benchmark: str, args: argparse.Namespace) -> None:
        about, calibration = print_machine()
        sha, dirty = commit()
        now = time.gmtime()
        arguments = {k: v for k, v in vars(args).items() if k != "no_save"}
        self.data = {
            "benchmark": benchmark,
            "commit": sha,
            "dirty": dirty,
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", now),
            "machine": about,
            "calibration": calibration,
            "args": arguments,
            "results": {},
            "source": "measured",
        }
        name = f"{time.strftime('%Y%m%dT%H%M%SZ', now)}-{(sha or 'nogit')[:7]}.json"
        self.path = None if getattr(args, "no_save", False) else RESULTS / benchmark / name

    def record(self, case: str, **numbers: float | int | bool) -> None:
        """Keep ``numbers`` as the figures of ``case`` (added to any it has) and rewrite
        the result file."""
        plain = {k: _plain(v) for k, v in numbers.items()}
        self.data["results"].setdefault(case, {}).update(plain)
        if self.path is not None:
            write_json(self.path, self.data)

    def saved(self) -> None:
        """Print where the result file is (or that none is written)."""
        where = self.path.relative_to(ROOT) if self.path else "not saved (--no-save)"
        print(f"result file: {where}")
