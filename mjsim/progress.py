"""The one progress bar of every long run, and the first run's compile notice (rich, on
stderr)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from numba.core import event
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

_stderr = Console(stderr=True)


def note(text: str) -> None:
    """One dim line on stderr (what a long step is doing)."""
    _stderr.print(f"[dim]{text}[/dim]")


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
            bar.update(
                task,
                advance=n,
                description=description if note is None else f"{description} {note}",
            )

        yield advance


@contextmanager
def compile_notice(kernel: Any, label: str, seconds: int) -> Iterator[None]:
    """Say on stderr when numba starts compiling ``kernel`` (a numba dispatcher) and what it
    calls — a signature it has no cache of: a first run, or the first of a scoring model —
    roughly how long that takes (``seconds``, measured on 2 cores by
    ``benchmarks/bench_compile.py``), and how long it took. With ``kernel`` None, any
    compile inside the block counts, and the time is from the first compile's start to the
    last one's end. A call loaded from numba's cache says nothing (numba's compile events
    tell the two apart)."""
    minutes = f"about {seconds // 60} min" if seconds >= 90 else f"about {seconds} s"
    started: list[float] = []
    ended: list[float] = []
    depth = [0]

    class Notice(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            depth[0] += 1
            if (kernel is None or ev.data["dispatcher"] is kernel) and not started:
                started.append(time.perf_counter())
                note(f"compiling {label} (once, cached afterwards; {minutes} on 2 cores)…")

        def on_end(self, ev: event.Event) -> None:
            depth[0] -= 1
            if kernel is None and started and depth[0] == 0:
                ended[:] = [time.perf_counter()]
            elif kernel is not None and ev.data["dispatcher"] is kernel and not ended:
                ended.append(time.perf_counter())
                note(f"compiled {label} in {ended[0] - started[0]:.0f} s")

    with event.install_listener("numba:compile", Notice()):
        yield
    if kernel is None and ended:
        note(f"compiled {label} in {ended[0] - started[0]:.0f} s")
