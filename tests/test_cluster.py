"""Chunks made on dask.distributed workers (mjsim.sim.executor): the same files as a local run.

One real two-worker ``LocalCluster`` (worker processes) for the module, reached by its
address as a remote cluster would be:

* ``write_deals`` and ``write_games`` (changsha, 2,000 hands in parts of 504) write the
  same part files, byte for byte, as a local run; a part deleted from the cluster's run is
  made again, the same bytes;
* ``map_chunks`` hands results on in task order when they finish out of order; a task's
  exception reaches the caller; the local path needs no Dask;
* the workers run one Numba thread each;
* errors: an unreachable scheduler, ``--scheduler`` without ``--out``, no dask.distributed;
* ``mjsim play --out D --scheduler ADDR --json`` gives the local run's summary, and
  ``mjsim deal --dask ADDR`` the local run's parts;
* a training (``mjsim.sim.train``) whose games are played on the workers makes the local
  run's player, figure for figure.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.rules import load_rules
from mjsim.sim import train as T
from mjsim.sim.deals import write_deals
from mjsim.sim.executor import NEED_DISTRIBUTED, cluster, local_cluster, map_chunks
from mjsim.sim.games import write_games
from mjsim.sim.train import train
from mjsim.stats.adapt import player_for

distributed = pytest.importorskip("distributed")

runner = CliRunner()
BOTS = "efficiency,value,cautious,efficiency"
GAMES = {"n": 2_000, "seed": 3, "bots": BOTS, "chunk": 504}  # 4 parts, the last of 488
DEALS = {"n": 10_000, "seed": 5, "chunk": 3_000}  # 4 parts, the last of 1,000


@pytest.fixture(scope="module")
def address():
    """The scheduler address of a two-worker cluster of processes on this machine."""
    with local_cluster(n_workers=2) as local:
        yield local.scheduler_address


def _parts(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("part-*.parquet"))}


@pytest.fixture(scope="module")
def local_games(tmp_path_factory) -> Path:
    return write_games(
        "changsha", out=tmp_path_factory.mktemp("local") / "games", progress=False, **GAMES
    )


@pytest.fixture(scope="module")
def local_deals(tmp_path_factory) -> Path:
    return write_deals(
        "changsha", out=tmp_path_factory.mktemp("local") / "deals", progress=False, **DEALS
    )


def test_deals_on_the_cluster_are_the_local_files(address, local_deals, tmp_path):
    out = write_deals(
        "changsha", out=tmp_path / "deals", progress=False, scheduler=address, **DEALS
    )
    assert len(_parts(out)) == 4
    assert _parts(out) == _parts(local_deals)
    assert (out / "run.json").read_bytes() == (local_deals / "run.json").read_bytes()


def test_games_on_the_cluster_are_the_local_files_and_resume(address, local_games, tmp_path):
    out = write_games(
        "changsha", out=tmp_path / "games", progress=False, scheduler=address, **GAMES
    )
    local = _parts(local_games)
    assert len(local) == 4 and _parts(out) == local
    second = sorted(out.glob("part-*.parquet"))[1]
    second.unlink()
    with cluster(address) as handle:  # an open handle, as the CLI passes it
        write_games("changsha", out=out, progress=False, scheduler=handle, **GAMES)
    assert _parts(out) == local


def test_results_come_in_task_order(address):
    tasks = [(i, 1) for i in range(6)]

    def slow(task):  # the first task finishes last
        time.sleep(0.1 * (len(tasks) - task[0]))
        return task[0] * 10

    seen, advanced = [], []
    with cluster(address) as handle:
        map_chunks(
            slow, tasks, lambda task, r: seen.append((task, r)), handle, progress=advanced.append
        )
    assert seen == [((i, 1), 10 * i) for i in range(6)]
    assert advanced == tasks


def test_a_task_error_reaches_the_caller(address):
    def fail_on_two(task):
        if task == 2:
            raise ZeroDivisionError(f"task {task} failed")
        return task

    seen = []
    with pytest.raises(ZeroDivisionError, match="task 2 failed"):
        map_chunks(fail_on_two, list(range(5)), lambda t, r: seen.append(r), address)
    assert seen in ([], [0], [0, 1])  # in order, and nothing from the failed task on


def test_workers_run_one_numba_thread(address):
    def threads():
        import numba

        return numba.get_num_threads()

    with distributed.Client(address, set_as_default=False) as client:
        assert set(client.run(threads).values()) == {1}


def test_local_path_needs_no_dask(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    seen = []
    map_chunks(lambda t: -t, [3, 1, 2], lambda t, r: seen.append(r))
    assert seen == [-3, -1, -2]
    with cluster(None) as handle:
        assert handle is None
    with pytest.raises(ValueError, match=re.escape(NEED_DISTRIBUTED)), cluster("local"):
        pass


def _closed_port_address() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


def test_unreachable_scheduler_is_one_line_error(tmp_path):
    nowhere = _closed_port_address()
    unreachable = f"cannot reach the dask scheduler at {re.escape(nowhere)}"
    with pytest.raises(ValueError, match=unreachable), cluster(nowhere, timeout=2):
        pass
    with pytest.raises(ValueError, match="not a dask scheduler address"):
        write_deals("changsha", 10, 0, tmp_path / "x", progress=False, scheduler="nowhere")
    result = runner.invoke(
        app, ["play", "-n", "8", "--out", str(tmp_path / "p"), "--scheduler", nowhere, "--quiet"]
    )
    assert result.exit_code == 2 and nowhere in result.output
    assert not list((tmp_path / "p").glob("part-*"))


def test_play_scheduler_needs_out():
    result = runner.invoke(app, ["play", "-n", "8", "--scheduler", "local"])
    assert result.exit_code == 2 and "--scheduler needs --out" in result.output


def test_cli_on_the_cluster_gives_the_local_summary(address, local_games, local_deals, tmp_path):
    def play(out: Path, *extra: str) -> dict:
        args = [
            "play",
            "-n",
            str(GAMES["n"]),
            "--seed",
            str(GAMES["seed"]),
            "--bots",
            BOTS,
            "--chunk",
            str(GAMES["chunk"]),
            "--out",
            str(out),
            "--json",
            *extra,
        ]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        doc = json.loads(result.stdout)
        assert doc.pop("out") == str(out)
        return doc

    on_cluster = play(tmp_path / "games", "--scheduler", address)
    assert on_cluster == play(local_games)  # the local run's parts, summarised
    assert _parts(tmp_path / "games") == _parts(local_games)

    args = [
        "deal",
        "-n",
        str(DEALS["n"]),
        "--seed",
        str(DEALS["seed"]),
        "--chunk",
        str(DEALS["chunk"]),
        "--out",
        str(tmp_path / "deals"),
        "--dask",
        address,
        "--quiet",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert _parts(tmp_path / "deals") == _parts(local_deals)


def test_compare_on_the_cluster_is_the_local_run(address, tmp_path):
    """``mjsim compare --out`` on the cluster: the same parts, byte for byte, and the same
    summary as a local run (a run stopped by --precision included)."""
    args = [
        "compare",
        "--variant",
        "mul: cs_bird_mode=mul",
        "--variant",
        "4: cs_birds=4",
        "--chunk",
        "400",
        "--precision",
        "0.5",
        "--max-hands",
        "3200",
        "--json",
    ]
    here = runner.invoke(app, [*args, "--out", str(tmp_path / "here")])
    there = runner.invoke(app, [*args, "--out", str(tmp_path / "there"), "--scheduler", address])
    assert here.exit_code == 0 and there.exit_code == 0, (here.output, there.output)
    a, b = json.loads(here.stdout), json.loads(there.stdout)
    assert a.pop("out") != b.pop("out")
    assert json.dumps(a) == json.dumps(b)
    for name in ("0-baseline", "1-mul", "2-4"):
        local = _parts(tmp_path / "here" / name)
        assert local and local == _parts(tmp_path / "there" / name)


def test_a_lost_worker_is_a_one_line_error(address):
    """A task that kills its worker, again on every retry: distributed gives up on it
    (KilledWorker), and the caller gets a ValueError saying how to go on. (Last in the file:
    the workers are restarted by their nannies.)"""

    def die(task):
        import os

        os._exit(1)

    with pytest.raises(ValueError, match=r"the cluster lost a chunk.*run the same command again"):
        map_chunks(die, [(0, 1)], lambda t, r: None, address)
    # the nannies restart the killed workers; closing the cluster while one is still
    # starting fails in distributed's teardown ("can only join a started process")
    from distributed import Client

    with Client(address) as client:
        client.wait_for_workers(2, timeout=120)


def test_training_on_the_cluster_is_the_local_run(address, tmp_path):
    small = {"seed": 2, "budget": 2000, "hands": 64, "population": 4, "final_hands": 64}
    local = train("changsha", tmp_path / "local.json", **small, command="test")
    with cluster(address) as handle:
        remote = train(
            "changsha", tmp_path / "remote.json", scheduler=handle, **small, command="test"
        )
    for doc in (local, remote):
        del doc["training"]["seconds"]  # the one figure that is the machine's
    assert remote == local


def test_adapt_trains_its_players_on_the_cluster(address, tmp_path, monkeypatch):
    """compare --adapt --dask: the players it trains play their games on the cluster (every
    generation's tasks given the scheduler) and are the players trained locally."""
    for name, value in (("HANDS", 64), ("POPULATION", 4), ("FINAL_HANDS", 64)):
        monkeypatch.setattr(T, name, value)
    rules = load_rules("changsha")
    local, _, _ = player_for(rules, 2, 1000, tmp_path / "local")
    schedulers = []

    def spy(func, tasks, add, scheduler=None):
        schedulers.append(scheduler)
        return map_chunks(func, tasks, add, scheduler)

    monkeypatch.setattr(T, "map_chunks", spy)
    with cluster(address) as handle:
        remote, _, fresh = player_for(rules, 2, 1000, tmp_path / "remote", scheduler=handle)
    assert fresh and remote == local
    assert schedulers and all(s is handle for s in schedulers)
