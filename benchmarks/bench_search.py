"""The search bot against the efficiency bot: its gain a hand, paired, and its speed.

Run: ``.venv/bin/python benchmarks/bench_search.py [--rules changsha,hongzhong112,…]
[--n 2000] [--rollouts 64] [--seed 1] [--param NAME=VALUE …] [--trace HANDS
--trace-worlds 1024]`` (``--param``: a search parameter other than its default, e.g.
``tempo=0`` for uniform worlds). For each rule set, the same ``n`` hands (walls and dice)
are played five times: by four efficiency bots, and with one search bot in each seat in
turn (the four seatings). A hand's gain is the search seat's net score less the
efficiency bot's in that seat on the same hand, averaged over the four seatings; its
standard error is by game (the games are the independent units), beside the s.e. the
same number of unpaired hands would give (the pairing's gain). Printed per rule set: the
gain with its 95% interval, the search seats' win, deal-in and self-drawn rates against
the efficiency seats', hands per second with one search seat (numba's threads), the
discards, the win-or-pass and the claim decisions searched per hand, worlds per decision,
the share that left the efficiency choice (a win passed), how far from ready the worlds
imagine the other seats against how far they are, and the run time per searched decision
(all threads; × threads for one core's). ``--param claims=1`` weighs the claims too (by
default the efficiency bot makes them). ``--against efficiency,tuned`` (or
``tuned:FILE``) plays the other seats as each line-up in turn on the same hands, the
search's rollouts playing them as they play, and compares the search's gains: how
exploitable the tuned players are. With ``--param base=1`` a search seat among tuned seats
is built on their player (it plays their choices wherever it does not search, ranks them
first, and plays them in its rollouts), so its gain is what its search adds to the seat it
replaces; against efficiency seats it is built on the efficiency bot, as always.

``--trace HANDS``: how much there is to gain. One search seat plays ``HANDS`` hands with
every candidate of every decision played in ``--trace-worlds`` worlds (no early stop);
printed: the share of alternatives to the efficiency choice that are 2 and 3 standard
errors better and 2 worse (with no true difference about 2.3% would be 2 s.e. better by
chance), and the paired difference's quantiles — the room the search has.

The figures are kept in a result file under ``benchmarks/results/bench_search/``
(:mod:`store`; ``--no-save`` for none): a case per rule set (with the ``--param`` values
when given, and ``trace`` for ``--trace``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numba
import numpy as np
import store

import mjsim.game.play as play_mod
from mjsim.game import record as R
from mjsim.game.play import columns, game_length, play_rows
from mjsim.game.players import shipped_path
from mjsim.game.search import COUNTS, PARAMS, TRACE, built_on_tuned, search_policy
from mjsim.rules import load_rules

Z95 = 1.959963984540054


def lineup(seat: int, rollouts: int, against: str = "efficiency") -> str:
    """One search seat in ``seat``, the others ``against``'s bot.

    >>> lineup(1, 16, "tuned")
    'tuned,search:16,tuned,tuned'
    """
    return ",".join(f"search:{rollouts}" if s == seat else against for s in range(4))


@contextmanager
def policies(make: Callable) -> Iterator[list]:
    """Within the block, the runs' policies made by ``make`` (``play.make_policy``'s arguments)
    in place of ``play.make_policy``, each kept in the list yielded (one per thread)."""
    made = []
    saved = play_mod.make_policy

    def making(*args):
        made.append(make(*args))
        return made[-1]

    play_mod.make_policy = making
    try:
        yield made
    finally:
        play_mod.make_policy = saved


def counted_rows(
    rules: str, seed: int, n: int, rollouts: int, bots: str, params: dict[str, int]
) -> tuple[np.ndarray, np.ndarray]:
    """``play_rows`` with the search's ``params`` and its counts summed over the threads'
    policies."""

    def making(names, G, wall_size, rec_size, theta=None):
        if params.get("base"):
            theta = built_on_tuned(names, theta)
        return search_policy(G, wall_size, rec_size, rollouts, theta=theta, **params)

    with policies(making) as made:
        rows = play_rows(rules, seed, 0, n, bots)
    return rows, sum(p.search.counts for p in made)


def traced(rules: str, seed: int, hands: int, worlds: int) -> np.ndarray:
    """The :data:`TRACE` of every decision of one search seat over ``hands`` hands, each
    candidate played in ``worlds`` worlds: (decisions, candidates, TRACE)."""

    def tracing(names, G, wall_size, rec_size, theta=None):
        return search_policy(G, wall_size, rec_size, worlds, trace=100_000, min_rollouts=worlds)

    with policies(tracing) as made:
        play_rows(rules, seed, 0, hands, lineup(0, worlds))
    return np.concatenate([p.search.trace[: p.search.counts[0]] for p in made])


def room(rules: str, seed: int, hands: int, worlds: int, run: store.Run) -> None:
    """Print how much there is to gain over the efficiency choice (:func:`traced`)."""
    start = time.perf_counter()
    alts = traced(rules, seed, hands, worlds)[:, 1:, :]  # the alternatives to candidate 0
    valid = alts[..., TRACE.index("worlds")] > 0  # a decision may have fewer candidates
    # NaN: equal to the efficiency choice in every world
    z = np.where(valid, np.nan_to_num(alts[..., TRACE.index("z")], nan=0.0), -np.inf)
    diff = alts[..., TRACE.index("mean_diff")][valid]
    if not diff.size:
        print(f"{rules}: no searched decision with an alternative in {hands} hands")
        return
    print(
        f"{rules}: {len(alts)} decisions of one search seat in {hands} hands, "
        f"{valid.sum()} alternatives to the efficiency choice, each in {worlds} worlds "
        f"({time.perf_counter() - start:.0f} s)"
    )
    zs = z[valid]
    print(
        f"  alternatives 2 s.e. better {100 * np.mean(zs > 2):.1f}%, 3 s.e. better "
        f"{100 * np.mean(zs > 3):.1f}%, 2 s.e. worse {100 * np.mean(zs < -2):.1f}%; "
        f"decisions with an alternative 2 s.e. better {100 * np.mean(z.max(axis=1) > 2):.1f}%"
    )
    q = np.quantile(diff, [0.05, 0.25, 0.5, 0.75, 0.95])
    print(
        "  paired difference to the efficiency choice (mean a world), quantiles "
        "5/25/50/75/95%: " + " ".join(f"{v:+.2f}" for v in q)
    )
    run.record(
        f"{rules} trace",
        decisions=len(alts),
        alternatives=int(valid.sum()),
        better_2se_share=float(np.mean(zs > 2)),
        better_3se_share=float(np.mean(zs > 3)),
        worse_2se_share=float(np.mean(zs < -2)),
    )


def by_game(x: np.ndarray, length: int) -> tuple[float, float]:
    """Mean a hand and its standard error with games as the units."""
    games = x[: len(x) // length * length].reshape(-1, length).sum(axis=1)
    mean = games.sum() / (len(games) * length)
    se = games.std(ddof=1) / np.sqrt(len(games)) / length
    return float(mean), float(se)


def study(
    rules: str,
    n: int,
    rollouts: int,
    seed: int,
    params: dict[str, int],
    run: store.Run,
    against: str = "efficiency",
    exploit_run: bool = False,
) -> np.ndarray:
    """One search seat against three ``against`` seats, printed and recorded (apart from
    the speed case in an ``exploit_run``, beside other line-ups); the gain of each hand
    (over the four seatings)."""
    if against == "efficiency":  # built on the efficiency bot whatever ``base`` says
        params = {k: v for k, v in params.items() if k != "base"}
    cols = columns(rules)
    pay = [cols.index(f"pay_{s}") for s in range(4)]
    length = game_length(rules)
    base = play_rows(rules, seed, 0, n, against)
    gains, seconds, counts = [], 0.0, np.zeros(len(COUNTS), np.int64)
    rates = {"search": np.zeros(3), against: np.zeros(3)}
    play_rows(rules, seed, 0, length, lineup(0, rollouts, against))  # compile or load
    for seat in range(4):
        start = time.perf_counter()
        rows, c = counted_rows(rules, seed, n, rollouts, lineup(seat, rollouts, against), params)
        seconds += time.perf_counter() - start
        counts += c
        gains.append(rows[:, pay[seat]].astype(float) - base[:, pay[seat]])
        won = rows[:, R.C_OUTCOME] == R.OUT_WIN
        wins = (rows[:, R.C_WINNERS] >> seat) & 1 == 1
        self_drawn = np.isin(rows[:, R.C_WIN_KIND], R.SELF_DRAWN)
        rates["search"] += [
            wins.mean(),
            (won & (rows[:, R.C_DISCARDER] == seat)).mean(),
            (wins & self_drawn).sum() / max(wins.sum(), 1),
        ]
        bwins = (base[:, R.C_WINNERS] >> seat) & 1 == 1
        bwon = base[:, R.C_OUTCOME] == R.OUT_WIN
        rates[against] += [
            bwins.mean(),
            (bwon & (base[:, R.C_DISCARDER] == seat)).mean(),
            (bwins & np.isin(base[:, R.C_WIN_KIND], R.SELF_DRAWN)).sum() / max(bwins.sum(), 1),
        ]
    gain = np.mean(gains, axis=0)
    mean, se = by_game(gain, length)
    # unpaired: the search seat's scores over the four seatings and the efficiency seat's,
    # each seating's games as independent samples (the mean over seatings of one hand's
    # seats would cancel: payments sum to zero)
    whole = len(base) // length * length
    searched = np.concatenate([(g + base[:, pay[s]])[:whole] for s, g in enumerate(gains)])
    plain = np.concatenate([base[:whole, pay[s]] for s in range(4)]).astype(float)
    se_unpaired = np.hypot(by_game(searched, length)[1], by_game(plain, length)[1])
    print(
        f"{rules}: gain of a search seat against three {against} seats {mean:+.3f} a hand, "
        f"s.e. {se:.3f}, 95% "
        f"[{mean - Z95 * se:+.3f}, {mean + Z95 * se:+.3f}] (unpaired s.e. {se_unpaired:.3f}: "
        f"pairing x{(se_unpaired / se) ** 2 if se else float('inf'):.1f} fewer hands)"
    )
    for who, r in rates.items():
        print(
            f"  {who:>10} seats: wins {100 * r[0] / 4:.2f}%, deals in {100 * r[1] / 4:.2f}%, "
            f"self-drawn {100 * r[2] / 4:.1f}% of wins"
        )
    (
        searched_n,
        worlds,
        changed,
        wins_n,
        win_worlds,
        passed,
        hidden,
        real,
        imagined,
        redrawn,
        impossible,
        claims_n,
        claim_worlds,
        claims_changed,
    ) = counts
    decisions = max(searched_n + wins_n + claims_n, 1)
    threads = numba.get_num_threads()
    print(
        f"  {4 * n / seconds:.1f} hands/s with one search seat ({threads} threads); "
        f"{searched_n / (4 * n):.2f} searched discards a hand, "
        f"{worlds / max(searched_n, 1):.1f} worlds each, "
        f"{100 * changed / max(searched_n, 1):.1f}% changed; "
        f"{wins_n / (4 * n):.3f} win-or-pass decisions a hand, "
        f"{win_worlds / max(wins_n, 1):.1f} worlds each, {passed} passed "
        f"({100 * passed / max(wins_n, 1):.1f}%); {claims_n / (4 * n):.3f} claims weighed "
        f"a hand, {claim_worlds / max(claims_n, 1):.1f} worlds each, "
        f"{100 * claims_changed / max(claims_n, 1):.1f}% changed"
    )
    print(
        f"  the other seats' hidden hands, shanten: {real / max(hidden, 1) - 1:.2f} a seat "
        f"really, {imagined / max(hidden, 1) - 1:.2f} in the worlds; "
        f"{redrawn / max(worlds + win_worlds + claim_worlds, 1):.2f} redraws a world "
        f"played (a hidden seat dealt a ready hand it would have declared), {impossible} "
        f"worlds played after the last redraw"
    )
    print(
        f"  {1000 * seconds / decisions:.1f} ms of run time a searched decision "
        f"(x{threads} threads: {1000 * seconds * threads / decisions:.1f} ms of one core, "
        f"an upper bound: it includes the hands' own play)"
    )
    case = rules + "".join(f" {k}={v}" for k, v in params.items())
    if against != "efficiency" or exploit_run:
        case += f" vs {against}"  # an exploitability run's cases apart from the speed case
    run.record(
        case,
        hands_per_s=4 * n / seconds,
        gain_per_hand=mean,
        gain_se=se,
        searched_discards_per_hand=searched_n / (4 * n),
        win_decisions_per_hand=wins_n / (4 * n),
        claims_per_hand=claims_n / (4 * n),
        ms_per_decision=1000 * seconds / decisions,
        threads=threads,
    )
    return gain


def playable(rules: str, against: str) -> bool:
    """Whether the line-up ``against`` can play ``rules`` (``tuned`` needs a shipped
    player); says so where it cannot."""
    if against == "tuned" and not shipped_path(load_rules(rules)).exists():
        print(f"{rules}: no shipped tuned player, so no run against tuned seats")
        return False
    return True


def exploit(rules: str, gains: dict[str, np.ndarray], run: store.Run) -> None:
    """How much less a search seat gains against each other line-up than against the
    first of ``--against`` (the efficiency seats, as a rule), on the same hands: the gain less a third of the first's,
    with its interval by game, and, where the first gain's interval excludes 0, the ratio
    of the gains with a 95% interval (games resampled, both gains together)."""
    length = game_length(rules)
    (first, g0), *others = gains.items()
    games = len(g0) // length
    per_game = {
        a: g[: games * length].reshape(games, length).mean(axis=1) for a, g in gains.items()
    }
    mean0, se0 = by_game(g0, length)
    picks = np.random.default_rng(0).integers(0, games, (2000, games))
    for against, g in others:
        margin, se = by_game(g - g0 / 3, length)
        figures = {"margin_to_third": margin, "margin_se": se}
        line = (
            f"{rules}: the search's gain against {against} seats less a third of its gain "
            f"against {first} seats: {margin:+.3f} a hand, 95% [{margin - Z95 * se:+.3f}, "
            f"{margin + Z95 * se:+.3f}]"
        )
        if abs(mean0) > Z95 * se0:
            boot = per_game[against][picks].mean(axis=1) / per_game[first][picks].mean(axis=1)
            lo, hi = np.quantile(boot, [0.025, 0.975])
            figures.update(ratio=float(g.mean() / g0.mean()), ratio_lo=lo, ratio_hi=hi)
            line += f"; the ratio of the gains {g.mean() / g0.mean():.2f} (95% {lo:.2f} … {hi:.2f})"
        else:
            line += f"; no ratio: the gain against {first} seats does not exclude 0"
        print(line)
        run.record(f"{rules} exploit {against}", **{k: float(v) for k, v in figures.items()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="changsha,shanghai_qhp,hongzhong112")
    parser.add_argument("--n", type=int, default=2000, help="hands (whole games are used)")
    parser.add_argument("--rollouts", type=int, default=64, help="worlds a decision, at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--against",
        default="efficiency",
        help="the other seats' bot; a comma list (e.g. efficiency,tuned) plays each on the "
        "same hands and compares the search's gains (how exploitable the later ones are)",
    )
    parser.add_argument(
        "--trace",
        type=int,
        default=0,
        metavar="HANDS",
        help="instead: how much there is to gain, over this many hands",
    )
    parser.add_argument("--trace-worlds", type=int, default=1024)
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a search parameter other than its default ({', '.join(PARAMS)})",
    )
    store.add_arguments(parser)
    args = parser.parse_args()
    params = {}
    for item in args.param:
        name, _, value = item.partition("=")
        if name not in PARAMS or name == "max_rollouts" or not value.lstrip("-").isdigit():
            parser.error(
                f"--param {item!r}: expected NAME=INTEGER, NAME one of "
                f"{', '.join(p for p in PARAMS if p != 'max_rollouts')}"
            )
        params[name] = int(value)
    run = store.Run("bench_search", args)
    if args.trace:
        for rules in args.rules.split(","):
            room(rules.strip(), args.seed, args.trace, args.trace_worlds, run)
        run.saved()
        return
    print(
        f"n = {args.n:,} hands x 4 seatings, at most {args.rollouts} worlds a decision"
        + "".join(f", {k} {v}" for k, v in params.items())
    )
    for rules in args.rules.split(","):
        lineups = [a for a in args.against.split(",") if playable(rules.strip(), a)]
        gains = {
            a: study(
                rules.strip(), args.n, args.rollouts, args.seed, params, run, a, len(lineups) > 1
            )
            for a in lineups
        }
        if len(gains) > 1:
            exploit(rules.strip(), gains, run)
    run.saved()


if __name__ == "__main__":
    main()
