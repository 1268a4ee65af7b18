"""The test session's set-up: numba's cache warmed once, on every core, before any test.

The game engine compiles once, each policy's hooks once (the heuristic bots', the search
bot's, tuned seats': :mod:`mjsim.game.policy`) and each scoring model's hooks once
(:mod:`mjsim.game.scoring`), and the deal, shanten and exact kernels once each. Cold, in
one process, the suite would compile them one after the other; here child processes
compile them side by side (one per core, each writing numba's cache next to the sources),
then the tests — in this process, or in pytest-xdist's workers (``-n``) — load them from
the cache, so nothing is compiled twice.
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
import threading
import time
from collections import Counter
from typing import NamedTuple

import pytest

#: test files that run one after another in one worker, first, in this order: those whose
#: tests start other processes, then the brute-force enumerations
ONE_LANE = (
    "test_notebooks.py",
    "test_cluster.py",
    "test_deals.py",
    "test_faults.py",
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


class Job(NamedTuple):
    """One child's share of the warm-up: ``code`` to run once the job ``after`` is done (its
    cache then loaded, not compiled again)."""

    name: str
    code: str
    after: str | None = None


#: the warm-up, in the order the children take the jobs whose ``after`` is done (the other
#: models' hooks last: the shortest job fills the end). Cold, in a fresh clone's run
#: (2026-12-07, its dependencies compiled to bytecode at install): the engine with the
#: Changsha hooks and the heuristic bots' 87 s (and the game's shanten kernel, shared by
#: every model), the deal, shanten, waits and exact kernels 73 s, the search bot's hooks
#: and ``mjsim advise`` 26 s (tests/test_search.py, tests/test_advise.py), the tuned
#: player's hooks 17 s (tests/test_tuned.py, tests/test_train.py) with the public shanten's
#: kernel, and the four other models' hooks 15 s. A search seat beside tuned seats needs
#: nothing more: the engine and the hooks are compiled once for every policy.
JOBS = (
    Job("changsha", _ENGINE.format("changsha")),
    Job(
        "kernels",
        "import mjsim; mjsim.deal_frame('changsha', 64, seed=0); mjsim.exact_qishou('changsha'); "
        "import numpy as np; h = np.zeros((4, 34), np.uint8); h[:, :13] = 1; "
        "mjsim.shanten_batch(h, rules='generic'); mjsim.waits_batch(h, rules='generic'); "
        "mjsim.ukeire('123m456p789s11223z'); mjsim.exact_shanten('changsha', 14)",
    ),
    Job(
        "search",
        "from mjsim.game.play import play_rows; "
        "play_rows('changsha', 0, 0, 16, 'search:16,efficiency,efficiency,efficiency'); "
        "from mjsim.game.advise import advise; "
        "advise('changsha', '2258m2588p22558s9m', rollouts=2)",
        after="changsha",
    ),
    Job(
        "tuned",
        "from mjsim.game.play import play_rows; "
        "play_rows('changsha', 0, 0, 16, 'tuned:efficiency'); "
        "import mjsim; mjsim.shanten('123m456p789s1122z')",
        after="changsha",
    ),
    Job(
        "other models",
        "; ".join(
            _ENGINE.format(r) for r in ("shanghai_qhp", "caishen16", "hongzhong112", "generic")
        ),
        after="changsha",
    ),
)


def _warm(job: Job) -> str:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", job.code], capture_output=True, text=True)
    status = "ok" if out.returncode == 0 else f"failed: {out.stderr.strip()[-300:]}"
    return f"{time.perf_counter() - start:6.1f} s  {status}  {job.name}"


def warm_up(jobs: tuple[Job, ...], workers: int, run=_warm) -> list[str]:
    """Each job of ``jobs`` run by ``run`` on one of ``workers`` threads, a thread taking the
    first job whose ``after`` is done; the lines ``run`` returns, in the jobs' order.

    >>> order = []
    >>> jobs = (Job("a", ""), Job("b", "", after="a"), Job("c", ""))
    >>> warm_up(jobs, 1, run=lambda job: order.append(job.name) or job.name)
    ['a', 'b', 'c']
    >>> order
    ['a', 'b', 'c']
    """
    done: set[str] = set()
    waiting = list(jobs)
    lines: dict[str, str] = {}
    ready = threading.Condition()

    def take() -> Job | None:
        with ready:
            while waiting:
                job = next((j for j in waiting if j.after is None or j.after in done), None)
                if job is not None:
                    waiting.remove(job)
                    return job
                ready.wait()
            return None

    def worker() -> None:
        while (job := take()) is not None:
            line = run(job)
            with ready:
                lines[job.name] = line
                done.add(job.name)
                ready.notify_all()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [lines[job.name] for job in jobs]


def pytest_sessionstart(session) -> None:
    if hasattr(session.config, "workerinput") or os.environ.get("MJSIM_NO_WARM"):
        return  # an xdist worker (the controller warmed the cache), or asked not to
    start = time.perf_counter()
    lines = warm_up(JOBS, os.cpu_count() or 1)
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
