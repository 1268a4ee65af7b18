"""Throughput of the game engine: full hands (局) per second with the chosen bots.

Run: ``.venv/bin/python benchmarks/bench_game.py [--n 20000] [--rules changsha]
[--bots efficiency] [--repeat 3]``. Prints the machine and versions, the first call's time
(compile, or load from the numba cache) apart, then the best of ``--repeat`` timed calls of
``play_rows`` (every hand played to its end and recorded), and the peak memory.
"""

from __future__ import annotations

import argparse
import resource
import time


from mjsim.game.play import parse_bots, play_rows
from mjsim.rules import load_rules
from machine import print_machine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000, help="hands per timed call")
    parser.add_argument("--rules", default="changsha", help="rule set id")
    parser.add_argument("--bots", default="efficiency", help="one bot or four, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls; the best is shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print_machine()
    rules = load_rules(args.rules)
    bots = parse_bots(args.bots)
    print(f"rule set {args.rules}, bots {','.join(bots)}, n = {args.n:,} hands")
    start = time.perf_counter()
    play_rows(rules, args.seed, 0, 16, bots)
    print(f"first call (compile or load cached kernels): {time.perf_counter() - start:.2f} s")
    best = float("inf")
    for r in range(args.repeat):
        start = time.perf_counter()
        play_rows(rules, args.seed + r, 0, args.n, bots)
        best = min(best, time.perf_counter() - start)
    print(f"play_rows  {args.n / best:10,.0f} hands/s  ({best:.2f} s for {args.n:,})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
