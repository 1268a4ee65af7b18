"""Throughput of the wall shuffle, the opening deal and the full dataset row
(deal + 起手胡 + shanten per family + waits of every seat), in deals/s and seat-hands/s.

Run: ``.venv/bin/python benchmarks/bench_deal.py [--n 2000000] [--rules changsha] [--repeat 3]``.
Prints the machine and versions, the first call's time (compile, or load from the numba
cache) apart, then the best of ``--repeat`` timed calls of ``deal_batch`` (shuffle, deal,
bonus replacement, indicator, first draws, dice), of ``walls`` (shuffle only) and of
``deal_columns`` (every column of the ``mjsim deal`` dataset, in chunks of 250,000 deals).
The figures are kept in a result file under ``benchmarks/results/bench_deal/``
(:mod:`store`; ``--no-save`` for none).
"""

from __future__ import annotations

import argparse
import time

import store

from mjsim.rules import load_rules
from mjsim.sim.deals import deal_columns
from mjsim.walls import WallSpec, deal_batch, walls


def best_of(repeat: int, func, *args) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2_000_000, help="deals per timed call")
    parser.add_argument("--rules", default="changsha", help="rule set id")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls; the best is shown")
    parser.add_argument("--seed", type=int, default=1)
    store.add_arguments(parser)
    args = parser.parse_args()
    run = store.Run("bench_deal", args)
    spec = WallSpec.from_rules(load_rules(args.rules))
    print(f"rule set {args.rules}: {spec.size} tiles, {spec.dealt} dealt, n = {args.n:,}")

    start = time.perf_counter()
    deal_batch(spec, args.seed, 0, 10)
    walls(spec, args.seed, 0, 10)
    first = time.perf_counter() - start
    print(f"first call (compile or load cached kernels): {first:.2f} s")

    seconds = best_of(args.repeat, deal_batch, spec, args.seed, 0, args.n)
    rate = args.n / seconds
    print(
        f"deal_batch  {rate / 1e6:7.2f} M deals/s  {4 * rate / 1e6:7.2f} M seat-hands/s  "
        f"({seconds:.3f} s)"
    )
    run.record(
        f"deal_batch {args.rules}", deals_per_s=rate, seat_hands_per_s=4 * rate, first_call_s=first
    )
    chunk = min(args.n, 200_000)
    seconds = best_of(args.repeat, walls, spec, args.seed, 0, chunk)
    print(f"walls       {chunk / seconds / 1e6:7.2f} M walls/s  (shuffle only, n = {chunk:,})")
    run.record(f"walls {args.rules}", walls_per_s=chunk / seconds)
    rules = load_rules(args.rules)
    deal_columns(rules, args.seed, 0, 100)
    chunk = min(args.n, 250_000)
    seconds = best_of(args.repeat, deal_columns, rules, args.seed, 0, chunk)
    print(
        f"dataset     {chunk / seconds / 1e6:7.2f} M deals/s  {4 * chunk / seconds / 1e6:7.2f} "
        f"M seat-hands/s  (deal + 起手胡 + shanten per family + waits, n = {chunk:,})"
    )
    run.record(
        f"dataset {args.rules}", deals_per_s=chunk / seconds, seat_hands_per_s=4 * chunk / seconds
    )
    run.saved()


if __name__ == "__main__":
    main()
