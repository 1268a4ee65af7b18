"""Throughput of the game engine: full hands (局) per second with the chosen bots.

Run: ``.venv/bin/python benchmarks/bench_game.py [--n 20000] [--rules changsha[,R…] | all]
[--bots efficiency] [--versus BOTS] [--player FILE] [--repeat 3] [--readiness]``. Prints the machine and
versions, then for each rule set the first call's time (compile, or load from the numba
cache) apart and the best of ``--repeat`` timed calls of ``play_rows`` (every hand played
to its end and recorded); with several rule sets, each one's speed as a ratio of the
first's, measured in the same run (the machine's load swings absolute figures from hour to
hour, much less their ratio); with ``--versus``, each rule set is also played by that
line-up, timed right after, and the first line-up's speed given as a ratio of it (``--bots
tuned:efficiency --versus efficiency``: what the tuned player costs; ``--bots tuned --player
mjsim/game/players/generic.json``: a trained player's parameters in every rule set). Last, the peak
memory. The figures are kept in a result file under
``benchmarks/results/bench_game/`` (:mod:`store`; ``--no-save`` for none): a rule set's
case is its id, with the bots when they are not four efficiency bots and ``readiness``
when on.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import numpy as np
import store

from mjsim.game.config import playable_rules
from mjsim.game.play import parse_bots, play_rows
from mjsim.game.tuned import PARAMS
from mjsim.rules import load_rules


def rule_ids(text: str) -> list[str]:
    """``all`` (every playable rule set, changsha first) or a comma-separated list."""
    if text == "all":
        ids = [r.id for r in playable_rules()]
        return ["changsha"] + [i for i in ids if i != "changsha"]
    return [t.strip() for t in text.split(",") if t.strip()]


def player_rows(path: str | None) -> np.ndarray | None:
    """Four rows of the parameters of the player file ``path``, whatever its rule set."""
    if path is None:
        return None
    parameters = json.loads(Path(path).read_text(encoding="utf-8"))["parameters"]
    return np.tile([parameters[p.name] for p in PARAMS], (4, 1)).astype(np.float64)


def hands_per_second(
    rules, bots, n: int, repeat: int, seed: int, readiness: bool, theta=None
) -> tuple[float, float]:
    """The best of ``repeat`` timed calls, in hands per second, and the seconds of the
    untimed first call before them (the tuned seats with the rows ``theta`` where given)."""
    start = time.perf_counter()
    play_rows(rules, seed, 0, 16, bots, readiness, theta)
    first = time.perf_counter() - start
    print(f"  first call (compile or load cached kernels): {first:.2f} s")
    best = float("inf")
    for r in range(repeat):
        start = time.perf_counter()
        play_rows(rules, seed + r, 0, n, bots, readiness, theta)
        best = min(best, time.perf_counter() - start)
    return n / best, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000, help="hands per timed call")
    parser.add_argument(
        "--rules", default="changsha", help="rule set id, several comma-separated, or all"
    )
    parser.add_argument("--bots", default="efficiency", help="one bot or four, comma-separated")
    parser.add_argument("--versus", help="a line-up to time beside, per rule set")
    parser.add_argument(
        "--player",
        metavar="FILE",
        help="the tuned seats' parameters from this player file, whatever its rule set (the "
        "features a player weighs are what its seat pays for: the same player everywhere)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed calls; the best is shown")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--readiness",
        action="store_true",
        help="record the readiness columns (as the waits study does)",
    )
    store.add_arguments(parser)
    args = parser.parse_args()
    run = store.Run("bench_game", args)
    bots = parse_bots(args.bots)
    theta = player_rows(args.player)
    print(
        f"bots {','.join(bots)}, n = {args.n:,} hands, readiness "
        f"{'on' if args.readiness else 'off'}"
    )
    first = None
    for rid in rule_ids(args.rules):
        print(f"rule set {rid}")
        speed, first_call = hands_per_second(
            load_rules(rid), bots, args.n, args.repeat, args.seed, args.readiness, theta
        )
        first = first or speed
        print(
            f"  play_rows  {speed:10,.0f} hands/s  ({args.n / speed:.2f} s for {args.n:,})"
            f"   {speed / first:.2f}× the first",
            flush=True,
        )
        case = (
            rid
            + ("" if set(bots) == {"efficiency"} else f" {','.join(bots)}")
            + (f" player={Path(args.player).name}" if args.player and "tuned" in str(bots) else "")
            + (" readiness" if args.readiness else "")
        )
        figures = {
            "hands_per_s": speed,
            "ratio_to_first": speed / first,
            "first_call_s": first_call,
        }
        if args.versus:
            other, _ = hands_per_second(
                load_rules(rid),
                parse_bots(args.versus),
                args.n,
                args.repeat,
                args.seed,
                args.readiness,
                theta,
            )
            print(f"  versus {args.versus}: {other:10,.0f} hands/s, ratio {speed / other:.2f}")
            figures.update(versus_hands_per_s=other, ratio_to_versus=speed / other)
        run.record(case, **figures)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak:.0f} MB")
    run.record("process", peak_mb=peak)
    run.saved()


if __name__ == "__main__":
    main()
