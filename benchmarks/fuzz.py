"""The long fuzz profile (issue 43): random inputs into the public API and random command
lines over every verb, counted, with every crash and every write outside ``--out``.

Run: ``.venv/bin/python benchmarks/fuzz.py [--api 100000] [--cli 5000] [--seed 0]
[--jobs 2]``.
The inputs come from ``tests/fuzzing.py`` (the generators of ``tests/test_fuzz.py``'s
quick profile), each from its own ``random.Random`` keyed by the seed and its index, so a
case is made again from ``--seed`` and the index printed beside it. Command lines are the
long profile's: a verb outside ``fuzzing.CHEAP`` is valid one time in a hundred
(``fuzzing.LONG_VALID``), with small sizes, so the long verbs run too; ``--jobs`` spreads the
command lines over processes (each case depends on its index alone, so the counts do not
depend on ``--jobs``), and a progress line goes to stderr every ``--every`` lines. A
command line still running after ``--limit`` seconds is stopped and counted a failure (an
unbounded size: ``report --hands 10**20`` ran on, growing, before it was bounded). Prints the machine, the inputs tried, the outcomes
(results and one-line errors), the crashes and writes outside ``--out`` (both must be 0,
else the script exits 1 after listing them) and the run time. No result file: the figures
are quoted in ``docs/testing.md``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import shlex
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from machine import print_machine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import fuzzing  # tests/ is not a package: on the path above


def fuzz_api(n: int, seed: int) -> tuple[Counter, list[str]]:
    """``n`` API calls: outcome counts and the failures (call and traceback)."""
    outcomes: Counter = Counter()
    failures = []
    for i in range(n):
        call = fuzzing.api_call(random.Random(f"api-{seed}-{i}"))
        try:
            outcomes[fuzzing.check_api(call)] += 1
        except AssertionError as failure:
            outcomes["crash"] += 1
            failures.append(f"api case {i}: {failure}")
    return outcomes, failures


class PastLimit(BaseException):
    """A command line still running at the time limit (it would run on: a size unbounded)."""


def _stop(signum, frame):
    raise PastLimit


def fuzz_cli_cases(
    cases: range, seed: int, slow: float, limit: float
) -> tuple[Counter, list, int, list]:
    """The command lines of ``cases``: counts by verb and exit status, the failures (a run
    past ``limit`` seconds, stopped, among them), how many wrote outside ``--out``, and the
    runs slower than ``slow`` seconds."""
    outcomes: Counter = Counter()
    failures, slowest, strays = [], [], 0
    signal.signal(signal.SIGALRM, _stop)
    for i in cases:
        argv = fuzzing.command_line(random.Random(f"cli-{seed}-{i}"), fuzzing.VERBS, quick=False)
        with tempfile.TemporaryDirectory(prefix="mjsim-fuzz-") as cwd:
            signal.setitimer(signal.ITIMER_REAL, limit)
            outcome = fuzzing.run_cli(argv, Path(cwd))
            signal.setitimer(signal.ITIMER_REAL, 0)
        verb = " ".join(argv[:2]) if argv[0] == "rules" else argv[0]
        if outcome.crash and "PastLimit" in outcome.crash:
            outcomes[(verb, "past limit")] += 1
            failures.append(
                f"cli case {i}: mjsim {shlex.join(argv)}: still running at {limit:.0f} s"
            )
            continue
        outcomes[(verb, outcome.status)] += 1
        found = fuzzing.problems(outcome)
        strays += bool(outcome.strays)
        if found:
            failures.append(f"cli case {i}: mjsim {shlex.join(argv)}: {'; '.join(found)}")
        if outcome.seconds > slow:
            slowest.append(f"{outcome.seconds:6.1f} s  cli case {i}: mjsim {shlex.join(argv)}")
    return outcomes, failures, strays, slowest


def fuzz_cli(n: int, seed: int, slow: float, limit: float, jobs: int, every: int):
    """``n`` command lines in batches of ``every`` over ``jobs`` processes, a progress line
    after each batch; the totals of :func:`fuzz_cli_cases`."""
    batches = [range(start, min(start + every, n)) for start in range(0, n, every)]
    outcomes: Counter = Counter()
    failures, slowest, strays, done = [], [], 0, 0
    start = time.perf_counter()
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no forked threads
    with context.Pool(jobs) as pool:
        work = [(cases, seed, slow, limit) for cases in batches]
        for counts, failed, stray, slow_ones in pool.imap_unordered(_cases, work):
            outcomes.update(counts)
            failures += failed
            for failure in failed:  # at once, not after the slowest batch
                print(failure, file=sys.stderr, flush=True)
            strays += stray
            slowest += slow_ones
            done += sum(counts.values())
            seconds = time.perf_counter() - start
            print(
                f"  {done:,}/{n:,} command lines, {seconds:.0f} s, "
                f"failures {len(failures)}, writes outside --out {strays}",
                file=sys.stderr,
                flush=True,
            )
    return outcomes, failures, strays, slowest


def _cases(work: tuple) -> tuple:
    return fuzz_cli_cases(*work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api", type=int, default=100_000, help="public API calls")
    parser.add_argument("--cli", type=int, default=5_000, help="command lines")
    parser.add_argument("--seed", type=int, default=0, help="the cases' seed")
    parser.add_argument(
        "--limit", type=float, default=900.0, help="stop a command line past this (s): a failure"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for the command lines")
    parser.add_argument("--every", type=int, default=50, help="command lines a progress line")
    parser.add_argument(
        "--slow", type=float, default=30.0, help="list command lines slower than this (s)"
    )
    args = parser.parse_args()
    print_machine()
    start = time.perf_counter()
    api, api_failures = fuzz_api(args.api, args.seed)
    api_seconds = time.perf_counter() - start
    print(f"API: {args.api:,} calls in {api_seconds:.0f} s: {dict(api)}")
    start = time.perf_counter()
    cli, cli_failures, strays, slowest = fuzz_cli(
        args.cli, args.seed, args.slow, args.limit, args.jobs, args.every
    )
    cli_seconds = time.perf_counter() - start
    print(f"command lines: {args.cli:,} in {cli_seconds:.0f} s")
    for (verb, status), count in sorted(
        cli.items(), key=lambda item: (item[0][0], str(item[0][1]))
    ):
        print(f"  {verb:14} exit {status}: {count:,}")
    crashes = len(api_failures) + sum("wrote outside" not in f for f in cli_failures)
    print(*slowest, sep="\n")
    print(*api_failures, *cli_failures, sep="\n")
    print(
        f"inputs tried: {args.api + args.cli:,} ({args.api:,} API calls, {args.cli:,} command "
        f"lines); failures (crashes, tracebacks, malformed errors): {crashes}; writes outside --out: {strays}; "
        f"run time {api_seconds + cli_seconds:.0f} s (API {api_seconds:.0f} s, command lines "
        f"{cli_seconds:.0f} s)"
    )
    sys.exit(1 if api_failures or cli_failures else 0)


if __name__ == "__main__":
    main()
