"""The one progress bar of every long run, and the first run's compile notice (rich, on
stderr)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

_stderr = Console(stderr=True)


@contextmanager
def progress_bar(description: str, total: int, enabled: bool = True) -> Iterator[Any]:
    """The one progress bar of every long run; yields ``advance(n, note=None)`` (``note``:
    shown after the description, e.g. a current half-width), on stderr.

    Hidden when ``enabled`` is false (``--json`` or ``--quiet``) or stderr is not a terminal.
    """
    show = enabled and _stderr.is_terminal
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=_stderr,
        disable=not show,
        transient=False,
    ) as bar:
        task = bar.add_task(description, total=total)

        def advance(n: int = 1, note: str | None = None) -> None:
            bar.update(task, advance=n,
                       description=description if note is None else f"{description} {note}")

        yield advance




@contextmanager
def compile_notice(kernel: Any, label: str, seconds: int) -> Iterator[None]:
    """Say on stderr that ``kernel`` (a numba dispatcher) and what it calls compile now —
    only when numba has no cache of it yet (a first run) — roughly how long that takes
    (``seconds``, measured on 2 cores by ``benchmarks/bench_compile.py``), and how long it
    took."""
    cache = getattr(getattr(kernel, "_cache", None), "_cache_file", None)  # numba's own
    index = getattr(cache, "_index_path", None)
    if index is None or os.path.exists(index):
        yield
        return
    minutes = f"about {seconds // 60} min" if seconds >= 90 else f"about {seconds} s"
    _stderr.print(f"[dim]compiling {label} (first run only, {minutes} on 2 cores; cached "
                  f"afterwards)…[/dim]")
    start = time.perf_counter()
    yield
    _stderr.print(f"[dim]compiled {label} in {time.perf_counter() - start:.0f} s[/dim]")
