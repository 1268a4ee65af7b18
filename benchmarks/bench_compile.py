"""Cold compile time of each entry point: what a new user's first run pays.

Run: ``.venv/bin/python benchmarks/bench_compile.py [--only game]``. Each entry runs in a
child process with an empty numba cache directory (``NUMBA_CACHE_DIR``), so everything it
calls compiles from scratch; the per-suit tables are built once beforehand (they are data,
cached in ``~/.cache/mjsim``, not compiled code). Prints the seconds of the call and the
child's peak memory. The game engine compiles once for every scoring model, and each
model's hooks apart (:mod:`mjsim.game.scoring`): ``game (R)`` is the engine with R's
model, and ``game (caishen16) after changsha`` plays caishen16 in a new process after a
first one compiled the engine with the Changsha hooks into the same cache — what a second
model costs (only its hooks). ``game (dingque) after generic``: a rule set of a model
already compiled costs nothing. ``search (changsha) after changsha`` and ``tuned (changsha)
after changsha``: a line-up with a search seat, or tuned seats, after the heuristic engine
is cached — only that policy's hooks compile (:mod:`mjsim.game.policy`); ``search beside
tuned (changsha) after both``: a search seat beside tuned seats once both are cached.
``advise (changsha) after changsha``: a first ``mjsim advise`` (its rollouts' hooks). The
figures are kept in a result file under ``benchmarks/results/bench_compile/`` (:mod:`store`;
``--no-save`` for none), one case per entry.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap

import store

_PLAY = """
    from mjsim.game.play import play_rows
    t = time.perf_counter()
    play_rows({!r}, 0, 0, 16, "efficiency,value,cautious,efficiency")
"""
_LINEUP = """
    from mjsim.game.play import play_rows
    t = time.perf_counter()
    play_rows({!r}, 0, 0, 16, {!r})
"""
_SEARCH = "search:8,efficiency,efficiency,efficiency"
_TUNED = "tuned:efficiency"
#: name -> the code of each child, in order (the last one's timed part is reported)
ENTRIES = {
    **{
        f"game ({r})": (_PLAY.format(r),)
        for r in ("changsha", "generic", "shanghai_qhp", "caishen16", "hongzhong112")
    },
    "game (caishen16) after changsha": (_PLAY.format("changsha"), _PLAY.format("caishen16")),
    "game (dingque) after generic": (_PLAY.format("generic"), _PLAY.format("dingque")),
    "search (changsha) after changsha": (
        _PLAY.format("changsha"),
        _LINEUP.format("changsha", _SEARCH),
    ),
    "tuned (changsha) after changsha": (
        _PLAY.format("changsha"),
        _LINEUP.format("changsha", _TUNED),
    ),
    "search beside tuned (changsha) after both": (
        _PLAY.format("changsha"),
        _LINEUP.format("changsha", _SEARCH),
        _LINEUP.format("changsha", _TUNED),
        _LINEUP.format("changsha", "search:8,tuned:efficiency,tuned:efficiency,efficiency"),
    ),
    "advise (changsha) after changsha": (
        _PLAY.format("changsha"),
        """
        from mjsim.game.advise import advise
        t = time.perf_counter()
        advise("changsha", "2258m2588p22558s9m", rollouts=8)
    """,
    ),
    "shanten batch": (
        """
        import numpy as np, mjsim
        hands = np.zeros((4, 34), np.uint8); hands[:, :13] = 1
        t = time.perf_counter()
        mjsim.shanten_batch(hands, rules="generic")
    """,
    ),
    "waits batch": (
        """
        import numpy as np, mjsim
        hands = np.zeros((4, 34), np.uint8); hands[:, :13] = 1
        t = time.perf_counter()
        mjsim.waits_batch(hands, rules="generic")
    """,
    ),
    "deal dataset rows": (
        """
        import mjsim
        t = time.perf_counter()
        mjsim.deal_frame("changsha", 64, seed=0)
    """,
    ),
    "exact 起手胡": (
        """
        import mjsim
        t = time.perf_counter()
        mjsim.exact_qishou("changsha")
    """,
    ),
}
_PRELUDE = "import time, resource\n"
_AFTER = """
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{time.perf_counter() - t:.1f} {peak:.0f}")
"""


def cold_compile(codes: tuple[str, ...]) -> tuple[float, float]:
    """Seconds and peak MB of the last of ``codes``, each in a child of its own, the first
    with an empty numba cache and the others with what the earlier ones left in it."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for code in codes:
            src = _PRELUDE + textwrap.dedent(code) + _AFTER
            out = subprocess.run(
                [sys.executable, "-c", src], env=env, capture_output=True, text=True, check=True
            )
    seconds, peak = out.stdout.split()[-2:]
    return float(seconds), float(peak)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the entries whose name contains this")
    store.add_arguments(parser)
    args = parser.parse_args()
    run = store.Run("bench_compile", args)
    from mjsim.tables.merged import load_merged
    from mjsim.tables.suits import load_tables

    load_tables()
    load_merged()
    for name, code in ENTRIES.items():
        if args.only and args.only not in name:
            continue
        seconds, peak = cold_compile(code)
        print(f"{name:34s} {seconds:7.1f} s cold compile   peak RSS {peak:6.0f} MB", flush=True)
        run.record(name, cold_compile_s=seconds, peak_mb=peak)
    run.saved()


if __name__ == "__main__":
    main()
