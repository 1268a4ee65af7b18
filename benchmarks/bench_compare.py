"""Speed of a rule-change study: a baseline and two variants over the same hands.

Run: ``.venv/bin/python benchmarks/bench_compare.py [-n 100000] [--dask]``. Prints the
machine, the first call's time (compile or load of the cached kernels) apart, then the time
of ``run_compare`` for the baseline and two variants (birds multiply; four birds) over
``n`` Changsha hands each, split into playing and the statistics, and the peak memory.
With ``--dask`` it also times the same study on a 2-worker ``LocalCluster`` (start-up and
the workers' first load of the kernels apart) and prints the ratio to the local time. The figures are kept in a result file under
``benchmarks/results/bench_compare/`` (:mod:`store`; ``--no-save`` for none).
"""

from __future__ import annotations

import argparse
import resource
import time

import store

from mjsim.rules import load_rules
from mjsim.sim import executor
from mjsim.stats import compare as C


def _study(n: int, scheduler=None) -> tuple[float, dict]:
    base = load_rules("changsha")
    variants = [
        C.parse_variant("mul: cs_bird_mode=mul", base),
        C.parse_variant("four birds: cs_birds=4", base),
    ]
    start = time.perf_counter()
    result = C.run_compare(
        C.Variant("baseline", base), variants, n=n, seed=0, scheduler=scheduler, progress=False
    )
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100_000, help="hands per variant")
    parser.add_argument("--dask", action="store_true", help="also time a 2-worker LocalCluster")
    store.add_arguments(parser)
    args = parser.parse_args()
    run = store.Run("bench_compare", args)
    start = time.perf_counter()
    _study(160)
    first = time.perf_counter() - start
    print(f"first call (compile or load cached kernels): {first:.2f} s")
    rules = [load_rules("changsha")] * 3
    played = time.perf_counter()
    for s in range(0, args.n, C.DEFAULT_CHUNK):  # the same hands, played alone
        C.chunk_frames(rules, 0, ("efficiency",) * 4, (s, min(C.DEFAULT_CHUNK, args.n - s)))
    play = time.perf_counter() - played
    local, result = _study(args.n)
    hands = 3 * args.n
    print(
        f"compare, 3 variants x {args.n:,} hands: {local:.1f} s ({hands / local:,.0f} "
        f"hands/s; playing alone {play:.1f} s, so statistics and exact values "
        f"{local - play:.1f} s)"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")
    run.record(
        "changsha 3 variants",
        study_s=local,
        hands_per_s=hands / local,
        playing_s=play,
        statistics_s=local - play,
        peak_mb=peak,
        first_call_s=first,
    )
    if args.dask:
        start = time.perf_counter()
        with executor.cluster("local") as handle:
            print(f"LocalCluster start: {time.perf_counter() - start:.1f} s")
            warm, _ = _study(160, handle)
            print(f"workers' first study (load kernels): {warm:.1f} s")
            remote, other = _study(args.n, handle)
        same = other["metrics"] == result["metrics"]
        print(
            f"dask, 2 workers: {remote:.1f} s ({remote / local:.2f}x local); "
            f"same numbers as local: {same}"
        )
        run.record(
            "changsha 3 variants, dask 2 workers",
            study_s=remote,
            ratio_to_local=remote / local,
            same=same,
        )
    run.saved()


if __name__ == "__main__":
    main()
