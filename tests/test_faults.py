"""Faults injected into runs with ``--out``: nothing a user or the machine does loses work
or ends in a traceback (issue 43).

* ``mjsim deal``, ``play``, ``compare``, ``waits-study`` and ``report`` killed (SIGKILL)
  or interrupted (SIGINT: :data:`FAULT`) as subprocesses at seeded random moments, then
  run again: the
  rows equal an uninterrupted run's, no row twice, no temporary file left; SIGINT is
  status 130 and one ``error:`` line, during start-up too;
* a corrupt or foreign ``run.json``, ``compare.json`` or part: status 2 and one line naming
  the file and what to do, nothing in the folder changed (a part with no Parquet footer
  is written again: its rows are made again, the same);
* a full disk (a small tmpfs where this runs as root, else a writer that fails with
  ENOSPC half-way): one line, no half-written file, and the run resumes once there is room;
* a Dask worker killed mid-run: the run completes with the same bytes as a local run.

The runs are small (a few thousand hands, parts of a few hundred) on changsha, whose
engine the suite's warm-up compiles.
"""

from __future__ import annotations

import errno
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from mjsim.cli import app
from mjsim.sim import parts as parts_module
from mjsim.sim.deals import write_deals
from mjsim.sim.parts import read_parts

runner = CliRunner()
#: the console script as a user runs it (python -m mjsim is the same entry)
MJSIM = [sys.executable, "-m", "mjsim"]
SEED = 7
#: each verb's small run and the columns that key its rows (no row twice)
RUNS = {
    "deal": (["deal", "-n", "40000", "--chunk", "4000"], ["deal", "seat"]),
    "play": (["play", "-n", "3200", "--chunk", "320"], ["index"]),
    "waits-study": (["waits-study", "-n", "2400", "--chunk", "240", "--deals", "0"], ["index"]),
    "compare": (
        ["compare", "--variant", "birds: cs_birds=4", "-n", "1600", "--chunk", "160"],
        ["index"],
    ),
    "report": (["report", "-n", "1000", "--hands", "16"], None),
}
#: seconds after the start within which SIGINT comes (start-up is 1-3 s of it)
WINDOW = 4.0


def _args(verb: str, out: Path) -> list[str]:
    return [*RUNS[verb][0], "--seed", str(SEED), "--out", str(out), "-q"]


def _signal_at(
    cmd: list[str], sig: int, delay: float, parts_in: Path | None = None
) -> subprocess.CompletedProcess:
    """Run ``cmd`` and send ``sig`` ``delay`` seconds after its start, or after the first
    part appears under ``parts_in`` (if it is still running then)."""
    # a shell's background job inherits SIGINT ignored: give the child the default back
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    start = time.monotonic()
    while parts_in is not None and not list(parts_in.rglob("part-*.parquet")):
        if proc.poll() is not None or time.monotonic() - start > 120:
            break
        time.sleep(0.002)
    try:
        proc.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        proc.send_signal(sig)
    out, err = proc.communicate(timeout=300)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _assert_interrupt_line(done: subprocess.CompletedProcess) -> None:
    """Status 130 with one ``error:`` line and no traceback, or a run that was done."""
    assert "Traceback" not in done.stderr, done.stderr
    if done.returncode == 0:
        return
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 130 and len(lines) == 1, (done.returncode, done.stderr)
    assert lines[0].startswith("error: interrupted"), lines


def _temporary(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.tmp"))


def _rows(verb: str, out: Path) -> dict[str, pd.DataFrame]:
    """The rows of a run's parts, by folder (a compare run has one per variant)."""
    folders = sorted(p.parent for p in out.rglob("run.json")) if verb != "report" else []
    return {str(f.relative_to(out)): read_parts(f) for f in folders}


def _report_files(out: Path) -> dict[str, bytes]:
    folder = out / "changsha"
    return {name: (folder / name).read_bytes() for name in ("summary.json", "report.md")}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """Each verb's run, uninterrupted, in this process: its rows (report: its files)."""
    made = {}

    def get(verb: str):
        if verb not in made:
            out = tmp_path_factory.mktemp("whole") / verb
            result = runner.invoke(app, _args(verb, out))
            assert result.exit_code == 0, result.output
            made[verb] = _report_files(out) if verb == "report" else _rows(verb, out)
        return made[verb]

    return get


#: the fault each verb's run meets (both kinds, spread over the verbs: each run is a few
#: seconds of subprocess start-up on 2 cores)
FAULT = {
    "deal": signal.SIGKILL,
    "play": signal.SIGINT,
    "waits-study": signal.SIGINT,
    "compare": signal.SIGKILL,
    "report": signal.SIGINT,
}


@pytest.mark.parametrize("verb", list(RUNS))
def test_stopped_then_rerun(verb, tmp_path, uninterrupted):
    """SIGKILL (mid-run: after its first part) or SIGINT (at any moment, start-up included)
    at a seeded random moment; run again it finishes, and what it wrote equals an
    uninterrupted run's."""
    rng = random.Random(f"faults-{verb}")
    out = tmp_path / "out"
    cmd = [*MJSIM, *_args(verb, out)]
    if FAULT[verb] == signal.SIGKILL:
        first_part = None if verb == "report" else out
        killed = _signal_at(cmd, signal.SIGKILL, rng.uniform(0, 0.5), first_part)
        assert killed.returncode in (0, -signal.SIGKILL), killed.stderr
    else:
        stopped = _signal_at(cmd, signal.SIGINT, rng.uniform(0.3, WINDOW))
        _assert_interrupt_line(stopped)
        if stopped.returncode == 130 and list(out.rglob("part-*.parquet")):  # how to go on
            assert re.search(r"run (the same command|it) again", stopped.stderr), stopped.stderr
        assert _temporary(out) == []  # an interrupted write removes its temporary file
    # a kill mid-write leaves its temporary file (nothing runs after SIGKILL): the run
    # resumed clears it (checked below)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert _temporary(out) == []
    if verb == "report":
        assert _report_files(out) == uninterrupted(verb)
        return
    got, whole = _rows(verb, out), uninterrupted(verb)
    assert list(got) == list(whole)
    key = RUNS[verb][1]
    for name, frame in got.items():
        assert not frame.duplicated(key).any(), name
        pd.testing.assert_frame_equal(frame, whole[name])


def test_interrupt_during_start_up_is_one_line(tmp_path):
    """Ctrl-C while the command line is still importing its modules (about the first
    second): status 130 and one line, not a KeyboardInterrupt traceback."""
    rng = random.Random("faults-start-up")
    cmd = [*MJSIM, *_args("play", tmp_path / "out")]
    for delay in sorted(rng.uniform(0.15, 0.6) for _ in range(2)):
        done = _signal_at(cmd, signal.SIGINT, delay)
        assert done.returncode == 130, (delay, done.stderr)
        _assert_interrupt_line(done)
    assert not (tmp_path / "out").exists() or _temporary(tmp_path / "out") == []


# ---------------------------------------------------------------- corrupt and foreign files


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    return lines[0]


DEAL = ["deal", "-n", "3000", "--chunk", "1000", "-q"]


@pytest.fixture(scope="module")
def deals_done(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("deals") / "run"
    assert runner.invoke(app, [*DEAL, "--seed", "1", "--out", str(out)]).exit_code == 0
    return out


@pytest.mark.parametrize(
    "content, change, words",
    [
        (b"{not json", [], "is not a run's parameters"),
        (b"[1, 2]", [], "is not a run's parameters"),
        (b"\xff\xfe", [], "is not a run's parameters"),
        (None, ["--seed", "2"], "seed: 1 there, 2 now"),
        (None, ["-r", "changsha_classic_1980s"], "rules: 'changsha' there, 'changsha_classic"),
    ],
    ids=["not-json", "a-list", "not-utf8", "another-seed", "another-rules"],
)
def test_a_bad_or_foreign_run_json_is_one_line(tmp_path, deals_done, content, change, words):
    """A ``run.json`` that is not a run's, or is another run's: named, nothing touched."""
    out = tmp_path / "run"
    shutil.copytree(deals_done, out)
    if content is not None:
        (out / "run.json").write_bytes(content)
    before = _snapshot(out)
    line = _one_error_line(runner.invoke(app, [*DEAL, "--seed", "1", *change, "--out", str(out)]))
    assert words in line and ("another --out" in line or "delete it" in line), line
    assert str(out / "run.json") in line if content else str(out) in line, line
    assert _snapshot(out) == before  # nothing written, nothing lost


def test_a_foreign_part_is_one_line(tmp_path, deals_done):
    """A part of another run (another seed) among a run's parts: named, nothing touched."""
    other = tmp_path / "other"
    assert runner.invoke(app, [*DEAL, "--seed", "2", "--out", str(other)]).exit_code == 0
    out = tmp_path / "run"
    shutil.copytree(deals_done, out)
    stranger = sorted(other.glob("part-*.parquet"))[1]
    shutil.copy(stranger, out / stranger.name)
    before = _snapshot(out)
    line = _one_error_line(runner.invoke(app, [*DEAL, "--seed", "1", "--out", str(out)]))
    assert str(out / stranger.name) in line and "different run" in line, line
    assert _snapshot(out) == before


def test_a_part_without_its_footer_is_made_again(tmp_path, deals_done):
    """A part cut short (no Parquet footer) is no run's part: its rows are made again,
    the same, and the other parts are kept as they are."""
    out = tmp_path / "run"
    shutil.copytree(deals_done, out)
    first, cut = sorted(out.glob("part-*.parquet"))[:2]
    cut.write_bytes(cut.read_bytes()[:200])
    kept = first.stat().st_mtime_ns
    assert runner.invoke(app, [*DEAL, "--seed", "1", "--out", str(out)]).exit_code == 0
    assert first.stat().st_mtime_ns == kept
    pd.testing.assert_frame_equal(read_parts(out), read_parts(deals_done))


@pytest.mark.parametrize("content", [b"{not json", b"[]"], ids=["not-json", "a-list"])
def test_a_bad_compare_json_is_one_line(tmp_path, content):
    out = tmp_path / "cmp"
    out.mkdir()
    (out / "compare.json").write_bytes(content)
    args = ["compare", "--variant", "birds: cs_birds=4", "-n", "32", "--out", str(out), "-q"]
    line = _one_error_line(runner.invoke(app, args))
    assert str(out / "compare.json") in line and "not a run's parameters" in line, line
    assert _snapshot(out) == {"compare.json": content}


# ---------------------------------------------------------------- a full disk


def _mount_tmpfs(folder: Path, size: str) -> bool:
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True
    )
    return done.returncode == 0


@pytest.fixture
def small_disk(tmp_path, monkeypatch):
    """``(folder, make_room)``: a 96 KiB tmpfs (root) or, where mounting is not allowed, a
    folder whose fourth Parquet write fails half-way with ENOSPC; ``make_room()`` ends it."""
    folder = tmp_path / "disk"
    if _mount_tmpfs(folder, "96k"):

        def make_room() -> None:
            subprocess.run(["mount", "-o", "remount,size=8m", str(folder)], check=True)

        yield folder, make_room
        subprocess.run(["umount", str(folder)], check=False)
        return
    real = pq.write_table
    writes = []

    def full(table, where, **kw):
        writes.append(where)
        if len(writes) >= 4:
            Path(where).write_bytes(b"PAR1 half")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(table, where, **kw)

    monkeypatch.setattr(parts_module.pq, "write_table", full)
    yield folder, lambda: monkeypatch.setattr(parts_module.pq, "write_table", real)


def test_a_full_disk_is_one_line_and_resumes(small_disk, tmp_path, deals_done):
    folder, make_room = small_disk
    out = folder / "run"
    args = ["deal", "-n", "12000", "--chunk", "1000", "--seed", "1", "--out", str(out), "-q"]
    line = _one_error_line(runner.invoke(app, args))
    assert "No space left on device" in line and "run the same command again" in line, line
    assert _temporary(out) == []
    written = sorted(out.glob("part-*.parquet"))
    assert 1 <= len(written) < 12
    whole = write_deals("changsha", 12_000, 1, tmp_path / "whole", chunk=1000, progress=False)
    for path in written:  # every part on the full disk is whole and right
        pd.testing.assert_frame_equal(
            pq.read_table(path).to_pandas(), pq.read_table(whole / path.name).to_pandas()
        )
    make_room()
    assert runner.invoke(app, args).exit_code == 0
    pd.testing.assert_frame_equal(read_parts(out), read_parts(whole))


# ---------------------------------------------------------------- a Dask worker lost


def test_a_killed_dask_worker_costs_nothing(tmp_path):
    """A worker process killed while the chunks run: the scheduler runs its chunks again
    elsewhere and the parts are the bytes of a local run."""
    distributed = pytest.importorskip("distributed")
    from mjsim.sim.executor import local_cluster

    args = {"rules": "changsha", "n": 40_000, "seed": 3, "chunk": 2_000, "progress": False}
    local = write_deals(**args, out=tmp_path / "local")
    with (
        local_cluster(n_workers=2) as cluster,
        distributed.Client(cluster, set_as_default=False) as client,
    ):
        client.wait_for_workers(2, timeout=60)
        pids = client.run(os.getpid)
        victim = pids[sorted(pids)[0]]
        out = tmp_path / "cluster"

        def kill_when_started() -> None:
            deadline = time.monotonic() + 60
            while not list(out.glob("part-*.parquet")) and time.monotonic() < deadline:
                time.sleep(0.005)
            os.kill(victim, signal.SIGKILL)

        killer = threading.Thread(target=kill_when_started)
        killer.start()
        write_deals(**args, out=out, scheduler=cluster.scheduler_address)
        killer.join()
        assert victim not in client.run(os.getpid).values()  # it was killed mid-run
    made = {p.name: p.read_bytes() for p in sorted(out.glob("part-*.parquet"))}
    assert made == {p.name: p.read_bytes() for p in sorted(local.glob("part-*.parquet"))}
    assert json.loads((out / "run.json").read_text()) == json.loads(
        (local / "run.json").read_text()
    )
