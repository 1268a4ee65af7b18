"""Where chunk work runs: in this process, or on the workers of a dask.distributed cluster.

:func:`map_chunks` calls ``func(task)`` for every task and hands each result to
``on_result`` in this process, in task order, wherever ``func`` ran — so whatever the
caller does with the results (write a part, add floats) gives the same bytes as a local
run. :func:`cluster` opens the cluster to run on: ``None`` (this process, no Dask needed),
``"local"`` (one single-threaded worker process per core on this machine) or the address
of a running scheduler (``tcp://HOST:8786``).

>>> seen = []
>>> map_chunks(lambda task: sum(task), [(0, 4), (4, 4)], lambda task, r: seen.append((task, r)))
>>> seen
[((0, 4), 4), ((4, 4), 8)]
>>> with cluster(None) as handle:
...     handle is None
True
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from typing import Any

#: the message when ``--scheduler`` is asked for without dask.distributed installed
NEED_DISTRIBUTED = '--scheduler needs dask.distributed: pip install "mjsim[cluster]"'

#: seconds to wait for a scheduler to answer
CONNECT_TIMEOUT = 10.0

#: what a worker must have in the versions of this process to make the same bytes
PACKAGES = ["mjsim", "numba", "numpy", "pandas", "pyarrow"]

#: environment of the workers :func:`cluster` starts: one Numba thread each, one worker per core
WORKER_ENV = {"NUMBA_NUM_THREADS": "1"}


@dataclass(frozen=True)
class Cluster:
    """An open connection to a dask.distributed cluster (made by :func:`cluster`)."""

    client: Any  #: the ``distributed.Client``
    address: str  #: the scheduler's address

    def nthreads(self) -> int:
        """Worker threads in the cluster now."""
        return sum(self.client.nthreads().values())


def map_chunks(
    func: Callable[[Any], Any],
    tasks: Sequence[Any],
    on_result: Callable[[Any, Any], None],
    scheduler: Cluster | str | None = None,
    progress: Callable[[Any], None] | None = None,
) -> None:
    """Call ``on_result(task, func(task))`` for every task, in task order, in this process.

    ``scheduler``: ``None`` runs ``func`` here, one task after another; a :class:`Cluster`
    (or an address, opened for this call with :func:`cluster`) runs it on the workers, at
    most about two tasks per worker thread submitted and not yet handed on, so memory stays
    flat however many tasks there are. ``func`` and the tasks must pickle (cloudpickle)
    there. ``progress(task)`` is called after each ``on_result``. A task's exception is
    raised here; the tasks not yet done are cancelled.
    """
    tasks = list(tasks)
    if scheduler is None:
        for task in tasks:
            on_result(task, func(task))
            if progress is not None:
                progress(task)
        return
    if isinstance(scheduler, str):
        with cluster(scheduler) as handle:
            map_chunks(func, tasks, on_result, handle, progress)
        return
    _map_on_cluster(func, tasks, on_result, scheduler, progress)


def _map_on_cluster(func, tasks, on_result, handle: Cluster, progress) -> None:
    from distributed import as_completed

    client = handle.client
    window = max(2, 2 * handle.nthreads())
    index: dict[Any, int] = {}  # future -> task number
    done: dict[int, Any] = {}  # results that came before an earlier task's
    submitted = delivered = 0
    running = as_completed(loop=client.loop)

    def top_up() -> None:
        nonlocal submitted
        while submitted < len(tasks) and submitted - delivered < window:
            future = client.submit(func, tasks[submitted], pure=False)
            index[future] = submitted
            running.add(future)
            submitted += 1

    try:
        top_up()
        for future in running:
            try:
                done[index.pop(future)] = future.result()  # a task's exception is raised here
            except Exception as error:
                if not type(error).__module__.startswith("distributed"):
                    raise
                raise ValueError(
                    f"the cluster lost a chunk ({type(error).__name__}: "
                    f"{_first_line(error)}); what was written is kept: run the "
                    "same command again to resume"
                ) from None
            del future  # release the result on the cluster
            while delivered in done:
                on_result(tasks[delivered], done.pop(delivered))
                if progress is not None:
                    progress(tasks[delivered])
                delivered += 1
            top_up()
    finally:
        if index:
            client.cancel(list(index))


@contextmanager
def cluster(address: str | None, timeout: float = CONNECT_TIMEOUT) -> Iterator[Cluster | None]:
    """Open where :func:`map_chunks` runs: ``None`` → here (yields ``None``); ``"local"`` →
    a new cluster of one single-threaded worker process per core on this machine, shut
    down on exit; any other address (``tcp://HOST:8786``) → a client of that running
    scheduler, closed on exit (the cluster stays).

    Errors are one-line ``ValueError``: dask.distributed not installed, a scheduler that
    does not answer within ``timeout`` seconds, or workers whose mjsim, numba, numpy,
    pandas or pyarrow differ from this process's (the records would not be the same).
    """
    if address is None:
        yield None
        return
    try:
        import distributed
    except ImportError:
        raise ValueError(NEED_DISTRIBUTED) from None
    with ExitStack() as stack:
        if address == "local":
            local = stack.enter_context(local_cluster())
            client = stack.enter_context(distributed.Client(local, set_as_default=False))
        else:
            try:
                _knock(address, timeout)
            except (ValueError, TypeError) as error:
                raise ValueError(
                    f"{address!r} is not a dask scheduler address ({_first_line(error)})"
                ) from None
            except OSError as error:
                raise ValueError(
                    f"cannot reach the dask scheduler at {address} ({_first_line(error)})"
                ) from None
            try:
                client = distributed.Client(address, timeout=timeout, set_as_default=False)
            except Exception as error:
                _discard_client(error)
                raise ValueError(
                    f"no dask scheduler answered at {address} within "
                    f"{timeout:g} s ({_first_line(error)})"
                ) from None
            stack.enter_context(client)
            mismatch = version_mismatch(client.get_versions(check=False, packages=PACKAGES))
            if mismatch:
                raise ValueError(
                    f"the workers of {address} {mismatch}: install the same "
                    "mjsim and libraries on every worker"
                )
        yield Cluster(client, client.scheduler.address)


def version_mismatch(versions: dict[str, Any]) -> str | None:
    """What differs between the workers' :data:`PACKAGES` and this process's, in
    ``distributed.Client.get_versions`` form (``None``: nothing).

    >>> here = {"mjsim": "0.1.0", "numpy": "2.4.6"}
    >>> version_mismatch({"client": {"packages": here},
    ...                   "workers": {"tcp://w:1": {"packages": {"numpy": "2.4.6"}}}})
    'have no mjsim, here 0.1.0 (tcp://w:1)'
    """
    here = versions["client"]["packages"]
    found: dict[tuple[str, Any], list[str]] = {}
    for worker, info in versions["workers"].items():
        for name in PACKAGES:
            if name in here and info["packages"].get(name) != here[name]:
                found.setdefault((name, info["packages"].get(name)), []).append(worker)
    return (
        "; ".join(
            f"{f'run {name} {version}' if version else f'have no {name}'}, here "
            f"{here[name]} ({', '.join(workers)})"
            for (name, version), workers in found.items()
        )
        or None
    )


def _first_line(error: BaseException) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _discard_client(error: BaseException) -> None:
    """Mark the half-made ``Client`` of a failed connection closed: left as it is, its
    ``__del__`` waits twice the timeout for a scheduler that is not there, then warns."""
    from distributed import Client

    tb = error.__traceback__
    while tb is not None:
        client = tb.tb_frame.f_locals.get("self")
        if isinstance(client, Client):
            with suppress(Exception):
                client.status = "closed"
                client._loop_runner.stop()
            return
        tb = tb.tb_next


def _knock(address: str, timeout: float) -> None:
    """Open and close a TCP connection to a ``tcp://`` or ``tls://`` scheduler: a refused
    connection fails at once (a ``Client`` would retry until its timeout and then hang
    as long again closing itself)."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    scheme, location = parse_address(address)
    get_backend(scheme)  # a ValueError naming the known schemes
    if scheme in ("tcp", "tls"):
        with socket.create_connection(parse_host_port(location), timeout=timeout):
            pass


def local_cluster(n_workers: int | None = None):
    """A ``distributed.LocalCluster`` on this machine: ``n_workers`` (default: one per core)
    single-threaded worker processes with one Numba thread each, no dashboard."""
    from distributed import LocalCluster

    # the workers are spawned: a variable in this process's environment at spawn time is
    # there before anything imports numba (``env=`` alone is set after the child has run
    # the __main__ module, which may have imported it already); restored at once
    saved = {k: os.environ.get(k) for k in WORKER_ENV}
    os.environ.update(WORKER_ENV)
    try:
        return LocalCluster(
            n_workers=n_workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            env=WORKER_ENV,
        )
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
