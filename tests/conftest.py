"""The test session's set-up: numba's cache warmed once, on every core, before any test.

The game engine compiles once per scoring model (:mod:`mjsim.game.scoring`), and the deal,
shanten and exact kernels once each. Cold, in one process, the suite would compile them
one after the other; here child processes compile them side by side (one per core, each
writing numba's cache next to the sources), then the tests — in this process, or in
pytest-xdist's workers (``-n``) — load them from the cache, so nothing is compiled twice.
A warm cache makes each child a load of a second or two. ``MJSIM_NO_WARM=1`` skips it.

Memory: the files whose tests start other processes (a notebook's kernel, the Dask test
cluster's workers, a ``mjsim deal`` run, children that play hands) or enumerate hands by
brute force (:data:`ONE_LANE`) run one after another in one pytest-xdist worker, first,
while that worker is small; the other worker takes the rest, the files with most tests
first. Sampled over the process tree, the heavy moments no longer meet.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

#: test files that run one after another in one worker, first, in this order: those whose
#: tests start other processes, then the brute-force enumerations
ONE_LANE = (
    "test_notebooks.py",
    "test_cluster.py",
    "test_deals.py",
    "test_refcounts.py",
    "test_callref.py",
    "test_charts.py",
    "test_exact_shanten.py",
)
_LANE = "one lane"

_ENGINE = (
    "from mjsim.game.play import play_rows; "
    "play_rows({!r}, 0, 0, 16, 'efficiency,value,cautious,efficiency', readiness=True)"
)
#: one job a child: the deal, shanten and exact kernels, then each scoring model's engine (a
#: rule set of it), the longest first (cold on 2 cores, two at a time, 2026-12-04: the
#: kernels 90 s, changsha 64 s, generic 60 s, shanghai_qhp 50 s, caishen16 49 s,
#: hongzhong112 45 s). The first engine compiles the engine's shanten kernel
#: (evaluation.kernel_trials, shared by every model) while the kernels job runs beside it, so
#: the later engines load it instead of compiling it again. The Changsha job then compiles
#: what the search bot and ``mjsim advise`` add to its engine (tests/test_search.py,
#: tests/test_advise.py); the kernels job, done by then, what the tuned player adds to it
#: (tests/test_tuned.py, tests/test_train.py).
_ADVISE = "; from mjsim.game.advise import advise; advise({!r}, {!r}, rollouts=2)"
JOBS = (
    "import mjsim; mjsim.deal_frame('changsha', 64, seed=0); mjsim.exact_qishou('changsha'); "
    "import numpy as np; h = np.zeros((4, 34), np.uint8); h[:, :13] = 1; "
    "mjsim.shanten_batch(h, rules='generic'); mjsim.waits_batch(h, rules='generic'); "
    "mjsim.ukeire('123m456p789s11223z'); from mjsim.game.play import play_rows; "
    "play_rows('changsha', 0, 0, 16, 'tuned:efficiency')",
    _ENGINE.format("changsha")
    + "; play_rows('changsha', 0, 0, 16, 'search:16,efficiency,efficiency,efficiency')"
    + _ADVISE.format("changsha", "2258m2588p22558s9m"),
    _ENGINE.format("generic"),
    _ENGINE.format("shanghai_qhp"),
    _ENGINE.format("caishen16"),
    _ENGINE.format("hongzhong112"),
)


def _warm(code: str) -> str:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    status = "ok" if out.returncode == 0 else f"failed: {out.stderr.strip()[-300:]}"
    return f"{time.perf_counter() - start:6.1f} s  {status}  {code[:70]}"


def pytest_sessionstart(session) -> None:
    if hasattr(session.config, "workerinput") or os.environ.get("MJSIM_NO_WARM"):
        return  # an xdist worker (the controller warmed the cache), or asked not to
    start = time.perf_counter()
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        lines = list(pool.map(_warm, JOBS))
    print(f"\nnumba cache warmed in {time.perf_counter() - start:.0f} s:", *lines, sep="\n  ")


#: the C library, where it has ``malloc_trim`` (glibc), else None
_LIBC = next(
    (
        lib
        for lib in [ctypes.CDLL(ctypes.util.find_library("c") or None)]
        if hasattr(lib, "malloc_trim")
    ),
    None,
)


@pytest.fixture(autouse=True)
def _naive_caches():
    """After each test, the slow references' memo tables emptied (tests/naive.py): kept,
    they held more than a gigabyte of a worker by the end of a module; and glibc's freed
    heap returned to the system."""
    yield
    naive = sys.modules.get("naive")
    if naive is not None:
        naive.clear_caches()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)  # hand the freed heap back to the system


def _path(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def _scope(nodeid: str) -> str:
    """A test's unit of work: its file, or :data:`_LANE` for the files of :data:`ONE_LANE`."""
    path = _path(nodeid)
    return _LANE if path.rsplit("/", 1)[-1] in ONE_LANE else path


def pytest_collection_modifyitems(config, items) -> None:
    """The lane's files first, in :data:`ONE_LANE`'s order, then the files with most tests
    first (pytest-xdist hands the units of work out in this order: ``--no-loadscope-reorder``)."""
    size = Counter(_path(item.nodeid) for item in items)

    def rank(item) -> tuple:
        path = _path(item.nodeid)
        name = path.rsplit("/", 1)[-1]
        if name in ONE_LANE:
            return (0, ONE_LANE.index(name), path)
        return (1, -size[path], path)

    items.sort(key=rank)  # stable: a file's tests keep their order


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's ``loadfile`` schedule with :data:`ONE_LANE` as one unit of work."""
    from xdist.scheduler import LoadFileScheduling

    class LaneScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope(nodeid)

    return LaneScheduling(config, log)
