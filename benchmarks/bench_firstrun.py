"""A new user's first hour: the README's two commands on a fresh clone, timed, with the
peak memory of the whole process tree.

Run: ``python3 benchmarks/bench_firstrun.py [--only main|tests] [--keep]`` from a checkout.
The committed ``HEAD`` is cloned into a temporary folder (no ``.venv``, no numba cache, no
reports), and each command of the README's *Two commands* section runs there as written,
in a shell; every 0.2 s the resident memory of the shell and all its descendants is summed
(from ``/proc``), and the largest sum is the peak. The tables of ``~/.cache/mjsim``
(``$MJSIM_CACHE``) are sent to a fresh folder too, so nothing of an earlier run is reused.
Prints, per command, the wall time, the peak RSS and its exit status, kept in a result file
under ``benchmarks/results/bench_firstrun/`` (:mod:`store`; ``--no-save`` for none).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import store

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> dict[str, str]:
    """The two commands of the README's *Two commands* section: main job, then tests."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)\n```", section, flags=re.S)
    if len(blocks) != 2:
        raise SystemExit(f"the README's Two commands section has {len(blocks)} bash blocks, not 2")
    return {"main": blocks[0].strip(), "tests": blocks[1].strip()}


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and all its descendants now."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total


def timed(command: str, cwd: Path, env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, peak RSS (MB) of the process tree, and exit status of ``command``."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _tree_rss(proc.pid))
        time.sleep(0.2)
    return time.perf_counter() - start, peak / 2**20, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("main", "tests"), help="run one command only")
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path printed)")
    store.add_arguments(parser)
    args = parser.parse_args()
    run = store.Run("bench_firstrun", args)
    run.data["dirty"] = False  # the clone is of the committed HEAD, whatever the tree holds
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=ROOT,
        text=True,
        capture_output=True,
        check=True,
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="mjsim-firstrun-"))
    clone = folder / "mjsim"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = dict(os.environ, MJSIM_CACHE=str(folder / "tables"))
    env.pop("NUMBA_CACHE_DIR", None)
    print(f"commit {commit}, {time.strftime('%Y-%m-%d')}, fresh clone in {clone}", flush=True)
    for name, command in readme_commands().items():
        if args.only and name != args.only:
            continue
        seconds, peak, status = timed(command, clone, env)
        print(
            f"{name:5s}  {seconds // 60:.0f} min {seconds % 60:4.1f} s   peak RSS "
            f"{peak:6.0f} MB   exit {status}   $ {command}",
            flush=True,
        )
        run.record(name, wall_s=seconds, peak_mb=peak, exit_status=status)
    if not args.keep:
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    run.saved()


if __name__ == "__main__":
    main()
