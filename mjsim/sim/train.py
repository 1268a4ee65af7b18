"""Self-play training of a tuned player (:mod:`mjsim.game.tuned`) for one rule set.

Each generation, CMA-ES (the ``cma`` package) proposes candidate parameter vectors, in
the box of :data:`mjsim.game.tuned.PARAMS` scaled to [0, 1]. A candidate plays one seat
against three **incumbents** (tuned seats with the incumbent's parameters) on the
generation's hands, in each of the four seats in turn: the same walls for every candidate
and every seating (common random numbers), so a candidate's fitness — its mean payment a
hand, averaged over the four seatings — is compared with the others' on equal terms. The
training starts from the efficiency bot's point, which is also the first incumbent.

**The incumbents.** Every :data:`PROMOTE_EVERY` generations the search's mean and the best
candidate of those generations (by its generation's gain) play the incumbent on hands of
their own (fresh walls, four seatings): the one that gains most with its 95% interval above
zero becomes the incumbent (testing the mean alone, 20 minutes of shanghai_qhp training
promoted nothing while single candidates gained a point a hand: the noisy mean wandered).
A promotion must also not lose to the efficiency point on the same hands (its interval's
upper end above zero), so a cycle of players each beating the last but losing to where
training began is refused.

**Against fixed opponents** (``opponents``, ``mjsim train --against tuned[:FILE]``): the
candidates play three seats of one player that never changes — the training starts from
that player, the best found so far stands in for the incumbent and is replaced only by one
that gains on it against them — and the final gain is against them: how much a seat
re-trained against a player gains, a measure of how exploitable it is.

Deterministic per seed: the walls of generation ``g`` come from the seed and ``g``; CMA-ES
draws from its own seeded generator, saved with the search in the checkpoint
(``<out>.train``, written atomically every generation), so a run resumed from it makes the
same player as one never stopped. ``--budget`` (hands) stops at the same generation on
any machine; ``--minutes`` stops at the first generation past the time (the file says how
many generations ran). With a Dask cluster the games of a generation are spread over its
workers (:func:`mjsim.sim.executor.map_chunks`: the same results, in the same order).

>>> to_unit(from_unit(np.full(len(PARAMS), 0.25)))[:2].tolist()
[0.25, 0.25]
"""

from __future__ import annotations

import math
import pickle
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..game.config import game_config
from ..game.play import play_rows
from ..game.players import player_document
from ..game.tuned import EFFICIENCY, PARAMS
from ..rules import RuleSet, load_rules
from .executor import map_chunks
from .parts import write_json

#: generations between promotion tests, and the hands (per seating) of a test
PROMOTE_EVERY = 5
PROMOTE_HANDS = 4_000
#: hands a candidate plays per seating each generation, and candidates per generation
HANDS = 1_000
POPULATION = 10
#: the search's first step, in the unit box
SIGMA0 = 0.05
#: hands (per seating) of the closing measurement against three efficiency seats
FINAL_HANDS = 20_000
_LOW = np.array([p.low for p in PARAMS])
_HIGH = np.array([p.high for p in PARAMS])
#: purposes of the walls' seeds: a generation's, a promotion test's, the closing test's
_GENERATION, _PROMOTION, _FINAL = 1, 2, 3


def to_unit(theta: np.ndarray) -> np.ndarray:
    """Parameters scaled to the unit box of their training ranges."""
    return (np.asarray(theta, dtype=np.float64) - _LOW) / (_HIGH - _LOW)


def from_unit(x: np.ndarray) -> np.ndarray:
    """Parameters from a point of the unit box (clipped to it)."""
    return _LOW + np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0) * (_HIGH - _LOW)


def walls_seed(seed: int, purpose: int, index: int) -> int:
    """The seed of the walls of generation (or test) ``index`` of a training of ``seed``."""
    return int(np.random.SeedSequence([seed, purpose, index]).generate_state(1, np.uint32)[0])


@dataclass(frozen=True)
class Settings:
    """What a training is: its rule set (id and options), seed, budget and sizes. A
    checkpoint resumes only a training of the same settings."""

    rules: str
    options_hash: str
    seed: int
    budget: int | None
    minutes: float | None
    hands: int = HANDS
    population: int = POPULATION
    promote_hands: int = PROMOTE_HANDS
    #: three fixed opponents' parameters (a training against them; None: the incumbents)
    opponents: tuple[float, ...] | None = None
    #: the parameters the search and the incumbents start from (None: the efficiency point)
    start: tuple[float, ...] | None = None


def seat_payments(
    rules: RuleSet, seed: int, n: int, seat: int, player: np.ndarray, others: np.ndarray
) -> np.ndarray:
    """The payments a hand of ``player`` in ``seat`` against three ``others`` (tuned seats)
    on the ``n`` hands of ``seed``."""
    theta = np.tile(np.asarray(others, dtype=np.float64), (4, 1))
    theta[seat] = player
    rows = play_rows(rules, seed, 0, n, bots=("tuned",) * 4, theta=theta)
    return rows[:, game_config(rules).columns.index(f"pay_{seat}")].astype(np.float64)


def _play_task(task: tuple) -> np.ndarray:
    rules, seed, n, seat, player, others, _ = task
    return seat_payments(rules, seed, n, seat, player, others)


def paired_gains(
    rules: RuleSet,
    players: list[np.ndarray],
    others: np.ndarray,
    seed: int,
    n: int,
    scheduler: Any = None,
) -> np.ndarray:
    """Per hand, each player's payment averaged over the four seats it takes against three
    ``others`` on the same ``n`` hands of ``seed``: an array of players × hands."""
    others = np.asarray(others, np.float64)
    tasks = [
        (rules, seed, n, seat, np.asarray(p, np.float64), others, i)
        for i, p in enumerate(players)
        for seat in range(4)
    ]
    gains = np.zeros((len(players), n))

    def add(task: tuple, pays: np.ndarray) -> None:
        gains[task[-1]] += pays / 4

    map_chunks(_play_task, tasks, add, scheduler)
    return gains


def interval(x: np.ndarray) -> dict[str, float]:
    """The mean of ``x`` with its standard error and 95% interval."""
    mean = float(np.mean(x))
    se = float(np.std(x, ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan
    return {"mean": mean, "se": se, "ci95": [mean - 1.96 * se, mean + 1.96 * se], "hands": len(x)}


@dataclass
class State:
    """A training between generations (the checkpoint)."""

    settings: Settings
    search: Any  #: the CMA-ES object
    generation: int
    hands: int
    seconds: float
    incumbent: list[float]
    promotions: list[dict]
    history: list[dict]
    #: the best candidate since the last promotion test, and its generation's gain
    best: list[float] | None = None
    best_gain: float = -math.inf


def _checkpoint(path: Path, state: State) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(pickle.dumps(state))
    tmp.replace(path)


def _resume(path: Path, settings: Settings) -> State | None:
    if not path.exists():
        return None
    try:
        state = pickle.loads(path.read_bytes())
    except Exception as error:  # a foreign or truncated file: say which, never a traceback
        raise ValueError(f"checkpoint {path} is not readable ({type(error).__name__})") from None
    if not isinstance(state, State) or state.settings != settings:
        raise ValueError(
            f"checkpoint {path} is of another training (other rules, options, seed or "
            f"budget); delete it or train without --resume"
        )
    return state


class Normal:
    """Standard normal draws of a generator seeded by the training's seed, called as CMA-ES
    calls ``np.random.randn`` (pickled with the search: a resumed run draws on)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng([seed, 0x636D61])

    def __call__(self, *shape: int) -> np.ndarray:
        return self.rng.standard_normal(shape)


def _new_search(settings: Settings):
    import cma

    return cma.CMAEvolutionStrategy(
        to_unit(np.array(_start(settings))),
        SIGMA0,
        {
            "bounds": [0.0, 1.0],
            "popsize": settings.population,
            "randn": Normal(settings.seed),
            "verbose": -9,
            "verb_log": 0,
            "verb_disp": 0,
        },
    )


def _start(settings: Settings) -> list[float]:
    """Where a training starts: the fixed opponents' point, else its start, else the
    efficiency point."""
    return list(settings.opponents or settings.start or EFFICIENCY)


def _done(settings: Settings, state: State) -> bool:
    if settings.budget is not None and state.hands >= settings.budget:
        return True
    return settings.minutes is not None and state.seconds >= 60 * settings.minutes


def train(
    rules: str | RuleSet,
    out: Path,
    seed: int = 0,
    budget: int | None = None,
    minutes: float | None = None,
    resume: bool = False,
    scheduler: Any = None,
    hands: int | None = None,
    population: int | None = None,
    final_hands: int | None = None,
    promote_hands: int | None = None,
    progress: Callable[[State, dict], None] | None = None,
    command: str | None = None,
    opponents: np.ndarray | None = None,
    start: np.ndarray | None = None,
) -> dict[str, Any]:
    """Train a tuned player for ``rules`` and write its file ``out`` (with the checkpoint
    ``out.train`` beside it while it runs); return the file's document. ``hands`` (a
    seating's, per generation), ``population``, ``final_hands`` and ``promote_hands`` (a
    seating's, in each test for promotion) default to :data:`HANDS`, :data:`POPULATION`,
    :data:`FINAL_HANDS` and :data:`PROMOTE_HANDS`. With ``opponents`` (a player's
    parameters) the candidates play three fixed seats of that player instead of incumbents:
    the training starts from it, a promotion replaces only the player trained (it must gain
    on the last one against them), and the final gain is against them — how much one seat
    re-trained against the player gains, how exploitable it is. With ``start`` (a player's
    parameters) the search and the incumbents start from it: a player continued, under
    changed rules say (:mod:`mjsim.stats.adapt`)."""
    rules = load_rules(rules)
    hands = hands or HANDS
    population = population or POPULATION
    final_hands = final_hands or FINAL_HANDS
    promote_hands = promote_hands or PROMOTE_HANDS
    if budget is None and minutes is None:
        raise ValueError("give a budget of hands (--budget) or of minutes (--minutes)")
    if (budget is not None and budget <= 0) or (minutes is not None and minutes <= 0):
        raise ValueError("the budget must be positive")
    if opponents is not None and start is not None:
        raise ValueError("a training against fixed opponents starts from them: give no start")
    fixed = None if opponents is None else tuple(float(v) for v in opponents)
    begin = None if start is None else tuple(float(v) for v in start)
    settings = Settings(
        rules.id,
        rules.options_hash,
        seed,
        budget,
        minutes,
        hands,
        population,
        promote_hands,
        fixed,
        begin,
    )
    check = Path(f"{out}.train")
    state = _resume(check, settings) if resume else None
    if state is None:
        state = State(settings, _new_search(settings), 0, 0, 0.0, _start(settings), [], [])
    efficiency = np.array(EFFICIENCY)
    while not _done(settings, state):
        start = time.perf_counter()
        incumbent = np.array(state.incumbent)
        others = incumbent if fixed is None else np.array(fixed)
        xs = state.search.ask()
        thetas = [from_unit(x) for x in xs]
        wseed = walls_seed(seed, _GENERATION, state.generation)
        gains = paired_gains(rules, thetas, others, wseed, hands, scheduler)
        state.search.tell(xs, [-float(g.mean()) for g in gains])
        played = len(thetas) * 4 * hands
        means = gains.mean(axis=1)
        top = int(np.argmax(means))
        row = {
            "generation": state.generation,
            "best_gain": float(means[top]),
            "mean_gain": float(gains.mean()),
        }
        if means[top] > state.best_gain:
            state.best, state.best_gain = thetas[top].tolist(), float(means[top])
        if (state.generation + 1) % PROMOTE_EVERY == 0:
            tested = {"mean": from_unit(state.search.mean), "best": np.array(state.best)}
            pseed = walls_seed(seed, _PROMOTION, state.generation)
            # the players a tested one is measured against play the same hands, unless they
            # are the seats played against (their seat then gains nothing, hand for hand):
            # the incumbent (against fixed opponents) and the efficiency point (else: a
            # promotion must not lose to where training began)
            players = list(tested.values())
            refs = {"incumbent": incumbent} if fixed is not None else {"efficiency": efficiency}
            refs = {k: v for k, v in refs.items() if not np.array_equal(v, others)}
            test = paired_gains(
                rules, players + list(refs.values()), others, pseed, promote_hands, scheduler
            )
            ref = dict(zip(refs, test[len(players) :]))
            played += (len(players) + len(refs)) * 4 * promote_hands
            row["test"], chosen = {}, None
            for i, name in enumerate(tested):
                vs_incumbent = interval(test[i] - ref.get("incumbent", 0.0))
                row["test"][name] = {"vs_incumbent": vs_incumbent}
                holds = True
                if fixed is None:
                    vs_efficiency = interval(test[i] - ref.get("efficiency", 0.0))
                    row["test"][name]["vs_efficiency_seat"] = vs_efficiency
                    holds = vs_efficiency["ci95"][1] > 0
                if vs_incumbent["ci95"][0] > 0 and holds:
                    if chosen is None or vs_incumbent["mean"] > chosen[1]["mean"]:
                        chosen = (name, vs_incumbent)
            row["promoted"] = chosen[0] if chosen is not None else None
            if chosen is not None:
                state.incumbent = tested[chosen[0]].tolist()
                state.promotions.append(
                    {"generation": state.generation, "player": chosen[0], **chosen[1]}
                )
            state.best, state.best_gain = None, -math.inf
        state.generation += 1
        state.hands += played
        state.seconds += time.perf_counter() - start
        state.history.append(row)
        _checkpoint(check, state)
        if progress is not None:
            progress(state, row)
    player = np.array(state.incumbent)
    fseed = walls_seed(seed, _FINAL, 0)
    against = efficiency if fixed is None else np.array(fixed)
    final = paired_gains(rules, [player], against, fseed, final_hands, scheduler)[0]
    vs = "three efficiency seats" if fixed is None else "three seats of the fixed opponents"
    doc = player_document(
        rules,
        player,
        {
            "command": command or shlex.join(["mjsim", *sys.argv[1:]]),
            "settings": asdict(settings),
            "generations": state.generation,
            "hands_played": state.hands,
            "seconds": round(state.seconds, 1),
            "promotions": state.promotions,
            "final": {"vs": vs, "seed": fseed, **interval(final)},
        },
    )
    write_json(Path(out), doc)
    check.unlink(missing_ok=True)
    return doc
