"""Played hands written as Parquet parts, locally and on a dask.distributed LocalCluster.

Run: ``.venv/bin/python benchmarks/bench_dask.py [-n 100000] [--chunk 10000]
[--rules changsha] [--bots efficiency] [--repeat 3]`` (needs ``mjsim[cluster]``). Times
``mjsim.sim.games.write_games`` of ``n`` hands in this process (numba threads over every
core) and on ``cluster("local")`` (one single-threaded worker process per core), after a
warm-up that loads the kernels in this process and in every worker; the cluster's start-up
and warm-up are printed apart and left out of the ratio, which compares the best of
``--repeat`` runs each, local and dask alternated. Both runs must give the same part
files, byte for byte. The figures are kept in a result file under
``benchmarks/results/bench_dask/`` (:mod:`store`; ``--no-save`` for none).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import store


def _warm(rules: str, bots: tuple[str, ...]) -> None:
    from mjsim.game.play import play_rows

    play_rows(rules, 0, 0, 16, bots)


def _timed(write) -> float:
    start = time.perf_counter()
    write()
    return time.perf_counter() - start


def main() -> None:
    from mjsim.game.play import parse_bots
    from mjsim.sim.executor import cluster
    from mjsim.sim.games import write_games

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100_000, help="hands per timed run")
    parser.add_argument("--chunk", type=int, default=10_000, help="hands per part")
    parser.add_argument("--rules", default="changsha", help="rule set id")
    parser.add_argument("--bots", default="efficiency", help="one bot or four, comma-separated")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed runs each, alternated; the best is shown"
    )
    parser.add_argument("--seed", type=int, default=1)
    store.add_arguments(parser)
    args = parser.parse_args()
    run = store.Run("bench_dask", args)
    bots = parse_bots(args.bots)
    print(
        f"rule set {args.rules}, bots {','.join(bots)}, n = {args.n:,} hands in parts of "
        f"{args.chunk:,}"
    )

    with tempfile.TemporaryDirectory() as tmp:

        def write(where: str, scheduler=None) -> Path:
            out = Path(tmp) / where
            for part in out.glob("part-*.parquet"):
                part.unlink()  # a timed run makes every part
            return write_games(
                args.rules,
                args.n,
                args.seed,
                out,
                bots=bots,
                chunk=args.chunk,
                progress=False,
                scheduler=scheduler,
            )

        start = time.perf_counter()
        _warm(args.rules, bots)
        print(f"local warm-up (load cached kernels): {time.perf_counter() - start:.2f} s")
        start = time.perf_counter()
        with cluster("local") as handle:
            workers = len(handle.client.scheduler_info()["workers"])
            print(
                f"cluster start-up: {time.perf_counter() - start:.2f} s ({workers} workers, "
                f"{handle.nthreads()} threads, {handle.address})"
            )
            start = time.perf_counter()
            handle.client.run(_warm, args.rules, bots)
            print(f"worker warm-up (load cached kernels): {time.perf_counter() - start:.2f} s")
            times: dict[str, list[float]] = {"local": [], "dask": []}
            for _ in range(args.repeat):  # alternated, so a busy moment hits both alike
                times["local"].append(_timed(lambda: write("local")))
                times["dask"].append(_timed(lambda: write("dask", handle)))
        local, on_cluster = min(times["local"]), min(times["dask"])

        def parts(where: str) -> list[bytes]:
            return [p.read_bytes() for p in sorted((Path(tmp) / where).glob("part-*.parquet"))]

        same = parts("local") == parts("dask")

    for name, best in (("local", local), ("dask", on_cluster)):
        runs = ", ".join(f"{t:.2f}" for t in times[name])
        print(f"{name:8s} {args.n / best:10,.0f} hands/s  (best of {runs} s)")
    print(f"dask / local: {local / on_cluster:.2f}; same part files: {'yes' if same else 'NO'}")
    run.record(
        f"write_games {args.rules}",
        local_hands_per_s=args.n / local,
        dask_hands_per_s=args.n / on_cluster,
        dask_ratio=local / on_cluster,
        same=same,
    )
    run.saved()


if __name__ == "__main__":
    main()
