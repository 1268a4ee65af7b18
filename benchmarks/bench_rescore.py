"""``mjsim score`` against the engine: every won hand of a played run scored again.

Run: ``.venv/bin/python benchmarks/bench_rescore.py [--rules all] [--n 10000] [--seed 7]``.
Plays ``n`` hands of each rule set (the efficiency bots), then scores every won hand
again from its record and replayed state (:func:`mjsim.game.rescore.rescore`: several
winners in one score, the first in turn order and the others ``also``) and compares the payments with the record's. Prints, per
rule set, the won hands, those scored again, how many agree exactly (the claim: all),
those left out (none since several winners, 开杠, 天胡 on the dealt tiles, bonus-tile wins
and 对宝 are scored: the column stays so that older results read alike) and the hands
scored again per second. A disagreement is printed with its hands. Figures are kept under ``benchmarks/results/bench_rescore/``
(:mod:`store`; ``--no-save`` for none).
"""

from __future__ import annotations

import argparse
import time

import store

from mjsim.game import record as R
from mjsim.game.config import playable_rules
from mjsim.game.play import play_frame
from mjsim.game.rescore import rescore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="all", help="a playable preset, or all")
    parser.add_argument("--n", type=int, default=10_000, help="hands played per rule set")
    parser.add_argument("--seed", type=int, default=7)
    store.add_arguments(parser)
    args = parser.parse_args()
    names = [r.id for r in playable_rules()] if args.rules == "all" else [args.rules]
    run = store.Run("bench_rescore", args)
    for rules in names:
        frame = play_frame(rules, args.n, seed=args.seed)
        won = frame[frame.outcome == R.OUT_WIN]
        start = time.perf_counter()
        agree = left_out = 0
        for index in won["index"]:
            r = rescore(rules, args.seed, int(index))
            if r is None:
                left_out += 1
            elif r.agrees:
                agree += 1
            else:
                print(
                    f"  {rules} hand {index}: {r.score.hand} {r.score.how}: scored "
                    f"{r.payments}, recorded {r.recorded}",
                    flush=True,
                )
        seconds = time.perf_counter() - start
        scored = len(won) - left_out
        print(
            f"{rules}: {len(won):,} won of {args.n:,}; {scored:,} scored again, "
            f"{agree:,} agree, {scored - agree} disagree, {left_out} left out; "
            f"{scored / seconds:,.0f} hands/s",
            flush=True,
        )
        run.record(
            rules,
            won=len(won),
            scored=scored,
            agree=agree,
            disagree=scored - agree,
            left_out=left_out,
            hands_per_s=scored / seconds,
        )
    run.saved()


if __name__ == "__main__":
    main()
