"""Output conventions of the CLI: JSON documents, rich tables, user errors (the progress
bar of long runs is :func:`mjsim.progress.progress_bar`).

>>> import io, contextlib
>>> buf = io.StringIO()
>>> with contextlib.redirect_stdout(buf):
...     emit_json({"a": 1})
>>> buf.getvalue()
'{\\n  "a": 1\\n}\\n'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import typer
from rich.console import Console
from rich.markup import escape

console = Console()
err_console = Console(stderr=True)


def folder(text: str) -> Path:
    """An output folder option's value (``parser=`` of ``--out``): an empty name, which
    would write into the current folder, or an existing file is refused."""
    if not text.strip():
        raise typer.BadParameter("needs a folder name, got an empty one")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise typer.BadParameter(f"{text!r} is a file, not a folder")
    return path


#: the most hands or deals one run may ask for (``-n``): a stream's positions are 64-bit
#: integers, and 10^15 deals would take decades here
MAX_COUNT = 10**15

SCHEDULER = typer.Option(
    None,
    "--scheduler",
    "--dask",
    metavar="ADDRESS",
    help="Make the chunks on a dask.distributed cluster: a scheduler's address "
    "(tcp://HOST:8786) or 'local' (one worker per core here); the same output as "
    "without. Needs dask.distributed (the mjsim extra 'cluster').",
)


def _default(obj: Any) -> Any:
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def emit_json(data: Any) -> None:
    """Print one JSON document on stdout (non-ASCII kept readable)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=_default) + "\n")


def fail(message: str) -> typer.Exit:
    """Print a user error on stderr and return the exit to raise (status 2)."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code=2)


class Interrupted(Exception):
    """Ctrl-C during a verb, with the one line to say (what is kept, how to go on): the
    console script (:func:`mjsim.cli.main`) prints it and exits with status 130."""


def interrupted(out: Any) -> Interrupted:
    """The interruption of a verb whose ``--out`` is ``out``: the whole parts there, if
    any, and how to resume.

    >>> str(interrupted(None))
    'interrupted'
    """
    kept = len(list(out.rglob("part-*.parquet"))) if isinstance(out, Path) else 0
    if not kept:
        return Interrupted("interrupted")
    return Interrupted(
        f"interrupted with {kept} whole parts in {out}; run the same command again to resume"
    )


def write_resumable(out: Path, write: Callable[[], Any]) -> None:
    """Run ``write()`` (a run of Parquet parts into ``out``), turning a folder of another
    run and a full disk into one-line errors that say how to go on."""
    from ..sim.parts import RunMismatch

    try:
        write()
    except RunMismatch as error:
        raise fail(str(error)) from None
    except OSError as error:
        reason = error.strerror or str(error).splitlines()[0]
        raise fail(
            f"cannot write to {out}: {reason}; the whole parts there are kept: make room "
            "and run the same command again to resume"
        ) from None


def rules_from(name: str, settings: list[str] | None):
    """Load a rule set with ``--set key=value`` overrides (errors become user errors)."""
    from ..rules import load_rules, parse_override

    base = load_rules(name)
    overrides = dict(parse_override(item, base) for item in settings or [])
    return base.with_options(**overrides) if overrides else base


def user_errors(func):
    """Turn input errors (bad notation, rules, hands) and unwritable outputs into one-line
    messages and exit 2, and Ctrl-C into :class:`Interrupted`."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ValueError as error:  # NotationError, RulesError and HandError are ValueErrors
            raise fail(str(error)) from None
        except OSError as error:  # an output folder that cannot be made or written
            where = f"{error.filename}: " if error.filename else ""
            raise fail(f"cannot write {where}{error.strerror or error}") from None
        except KeyboardInterrupt:
            raise interrupted(kwargs.get("out")) from None
        except SystemError as error:  # Ctrl-C inside a callback of compiled code
            if not _by_interrupt(error):
                raise
            raise interrupted(kwargs.get("out")) from None

    return wrapper


def _by_interrupt(error: BaseException) -> bool:
    """Whether ``error`` came of a Ctrl-C: a ``SystemError`` numba raises when the
    interrupt lands in Python code its compiled function called (its constants'
    unpickling) carries the ``KeyboardInterrupt`` as its cause.

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as stop:
    ...         raise SystemError("returned a result with an exception set") from stop
    ... except SystemError as error:
    ...     _by_interrupt(error)
    True
    """
    seen = error
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False
