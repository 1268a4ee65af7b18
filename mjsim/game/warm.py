"""A scoring model's game engine compiled in a child process while the caller does other
work: ``mjsim report`` compiles the deal-time kernels meanwhile, on the other core.

The child plays a few hands of the rule set and exits; numba's cache hands the compiled
engine to the parent, which then loads it instead of compiling it (a child that fails costs
only its time: the parent compiles as it would have). Nothing starts where the engine of
the rule set's model is cached already.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba

from ..progress import note
from ..rules import RuleSet
from . import engine as EN
from .config import game_config
from .play import play_rows


def compiled(rules: RuleSet) -> bool:
    """Whether numba's cache holds the game engine of ``rules``'s scoring model.

    >>> from mjsim.rules import load_rules
    >>> isinstance(compiled(load_rules("generic")), bool)
    True
    """
    arrays = numba.typeof(game_config(rules).base_arrays)  # the kernel's address: same type
    index = EN.play_games._cache._cache_file._load_index()  # numba's own cache index
    return any(key[0] and key[0][0] == arrays for key in index)


@contextmanager
def meanwhile(rules: RuleSet, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """Compile the engine of ``rules``'s model in a child process (where ``enabled`` and it
    is not cached) while the block runs; yields ``ready()``, which waits for the child.
    Leaving the block early (an error, Ctrl-C) stops the child.

    >>> from mjsim.rules import load_rules
    >>> with meanwhile(load_rules("generic"), enabled=False) as ready:
    ...     ready()
    """
    child = None
    if enabled and not compiled(rules):
        note(f"compiling the game engine ({game_config(rules).model} model) in a second "
             f"process while the deal study runs (once, cached afterwards)…")
        child = subprocess.Popen([sys.executable, "-m", "mjsim.game.warm", rules.id],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def ready() -> None:
        if child is not None and child.poll() is None:
            note("waiting for the game engine's compile…")
            child.wait()

    try:
        yield ready
    finally:
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()


if __name__ == "__main__":
    play_rows(sys.argv[1], 0, 0, 16, "efficiency,value,cautious,efficiency")
