"""A rule change measured twice: with the players unchanged, and with players adapted to it.

``mjsim compare --adapt`` plays four tuned seats (:mod:`mjsim.game.tuned`). Each rule set
of the comparison — the baseline and every variant — gets its own player, trained by
:func:`mjsim.sim.train.train` with the same seed and budget of hands (so they differ by the
rules they learned, not by the effort), and kept in a folder of players keyed by the rule
set, its options, the seed and the budget, so it is trained once. Then three comparisons,
each paired on the same walls:

- **players unchanged**: every variant played by the baseline's player (what a rule
  change does before anyone adapts: the answer of a plain ``compare``);
- **players adapted**: every variant played by its own player;
- **what players change under this rule**: per variant, its own player against the
  baseline's, both under the variant's rules.

>>> from mjsim.rules import load_rules
>>> key_name(load_rules("changsha"), seed=1, budget=1000).endswith("-s1-b1000.json")
True
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..game.players import read_player
from ..rules import RuleSet
from ..sim.train import train
from .compare import Variant, run_compare

#: the hands a player is trained for unless told (about ten minutes on 2 cores)
BUDGET = 1_000_000
#: the training seed unless told (the shipped players' seed)
SEED = 1
#: four tuned seats
TUNED = ("tuned",) * 4


def players_folder() -> Path:
    """Where trained players are kept: ``$MJSIM_PLAYERS``, else the user's cache folder."""
    if os.environ.get("MJSIM_PLAYERS"):
        return Path(os.environ["MJSIM_PLAYERS"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mjsim" / "players"


def key_name(
    rules: RuleSet,
    seed: int,
    budget: int,
    start: tuple | None = None,
    hands: int | None = None,
    test_hands: int | None = None,
) -> str:
    """The file name of the player of ``rules`` trained with ``seed`` and ``budget`` (from
    the parameters ``start``, and with a candidate's ``hands`` and a promotion test's
    ``test_hands`` a seating, where given).

    >>> from mjsim.rules import load_rules
    >>> key_name(load_rules("generic"), 1, 1000, hands=2000, test_hands=12000)[-27:]
    '-s1-b1000-h2000-t12000.json'
    """
    tag = "" if hands is None else f"-h{hands}"
    tag += "" if test_hands is None else f"-t{test_hands}"
    if start is not None:
        digest = hashlib.sha256(np.asarray(start, np.float64).tobytes()).hexdigest()
        tag += f"-from-{digest[:12]}"
    return f"{rules.id}-{rules.options_hash}-s{seed}-b{budget}{tag}.json"


def player_for(
    rules: RuleSet,
    seed: int = SEED,
    budget: int = BUDGET,
    folder: Path | None = None,
    progress: Callable[[Any, dict], None] | None = None,
    scheduler: Any = None,
    start: tuple[tuple[float, ...], str] | None = None,
    hands: int | None = None,
    test_hands: int | None = None,
) -> tuple[tuple[float, ...], Path, bool]:
    """``(parameters, file, trained now)``: the player of ``rules`` kept in ``folder``
    (default :func:`players_folder`), trained there first if missing (an interrupted
    training resumes from its checkpoint; its games on ``scheduler``'s cluster where
    given: the same player); with ``start`` (parameters, and the line-up name they were
    read from), continued from that player; ``hands`` and ``test_hands`` are the
    training's ``--hands`` and ``--test-hands`` (its defaults where not given)."""
    folder = Path(folder) if folder is not None else players_folder()
    folder.mkdir(parents=True, exist_ok=True)
    begin, label = start if start is not None else (None, None)
    path = folder / key_name(rules, seed, budget, begin, hands, test_hands)
    fresh = not path.exists()
    if fresh:
        sizes = "" if hands is None else f" --hands {hands}"
        sizes += "" if test_hands is None else f" --test-hands {test_hands}"
        train(
            rules,
            path,
            seed=seed,
            budget=budget,
            resume=Path(f"{path}.train").exists(),
            progress=progress,
            scheduler=scheduler,
            hands=hands,
            promote_hands=test_hands,
            command=f"mjsim train --rules {rules.id}{_sets(rules)} --budget {budget} "
            f"--seed {seed}{sizes}{f' --from {label}' if label else ''} (for compare --adapt)",
            start=None if begin is None else np.asarray(begin, np.float64),
        )
    return tuple(float(x) for x in read_player(path, rules)), path, fresh


def _sets(rules: RuleSet) -> str:
    return "".join(f" --set {k}={v}" for k, v in rules.overrides.items())


def adapt_compare(
    baseline: Variant,
    variants: list[Variant],
    n: int,
    seed: int,
    train_seed: int = SEED,
    budget: int = BUDGET,
    folder: Path | None = None,
    out: Path | None = None,
    scheduler: Any = None,
    progress: bool = True,
    on_training: Callable[[RuleSet], Callable[[Any, dict], None] | None] | None = None,
    start: tuple[tuple[float, ...], str] | None = None,
    hands: int | None = None,
    test_hands: int | None = None,
) -> dict[str, Any]:
    """The three comparisons of the module on ``n`` hands of ``seed`` (each kept under
    ``out`` where given: ``unchanged``, ``adapted``, ``change-<i>``), with the players used.
    With ``start`` (a player's parameters and name) every rule set's player, the
    baseline's too, is that player trained on for ``budget`` hands under its rules: the
    players then differ by what the rules taught them from one start. ``hands`` and
    ``test_hands``: each training's sizes (:func:`player_for`)."""
    players, files, trained = [], [], []
    for v in [baseline, *variants]:
        hook = on_training(v.rules) if on_training is not None else None
        p, path, fresh = player_for(
            v.rules, train_seed, budget, folder, hook, scheduler, start, hands, test_hands
        )
        players.append(p)
        files.append(str(path))
        trained.append(fresh)
    base = players[0]

    def run(name: str, first: Variant, others: list[Variant]) -> dict[str, Any]:
        return run_compare(
            first,
            others,
            n=n,
            seed=seed,
            bots=TUNED,
            out=None if out is None else Path(out) / name,
            scheduler=scheduler,
            progress=progress,
        )

    played = baseline._replace(player=base)
    unchanged = run("unchanged", played, [v._replace(player=base) for v in variants])
    adapted = run("adapted", played, [v._replace(player=p) for v, p in zip(variants, players[1:])])
    change = [
        run(
            f"change-{i}",
            Variant(f"{v.name} (players unchanged)", v.rules, base),
            [Variant(f"{v.name} (players adapted)", v.rules, p)],
        )
        for i, (v, p) in enumerate(zip(variants, players[1:]))
    ]
    return {
        "rules": baseline.rules.id,
        "seed": seed,
        "players": [
            {
                "rules": v.name,
                "file": f,
                "trained_now": t,
                "moved": _moved(p),
            }
            for v, f, t, p in zip([baseline, *variants], files, trained, players)
        ],
        "training": {
            "seed": train_seed,
            "budget": budget,
            "hands": hands,
            "test_hands": test_hands,
            "from": None if start is None else start[1],
        },
        "unchanged": unchanged,
        "adapted": adapted,
        "change": change,
    }


def _moved(player: tuple[float, ...]) -> dict[str, float]:
    """The parameters where ``player`` differs from the efficiency point."""
    from ..game.tuned import EFFICIENCY, PARAMS

    return {
        p.name: round(x, 4) for p, x, e in zip(PARAMS, player, EFFICIENCY) if not np.isclose(x, e)
    }
