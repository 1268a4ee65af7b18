"""The one progress bar of every long run (rich, on stderr)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

_stderr = Console(stderr=True)


@contextmanager
def progress_bar(description: str, total: int, enabled: bool = True) -> Iterator[Any]:
    """The one progress bar of every long run; yields ``advance(n)``, on stderr.

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
        yield lambda n=1: bar.advance(task, n)


