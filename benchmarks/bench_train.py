"""Training time: a preset's shipped player trained again to its figures, timed.

Run: ``.venv/bin/python benchmarks/bench_train.py [--rules shanghai_qhp]``. Reads the shipped
player (``mjsim/game/players/RULES.json``): its training's seed and the hands it played.
Then it runs ``mjsim train --rules RULES --seed SEED --budget HANDS`` (with the training's
``--hands`` and ``--test-hands``) into a temporary file,
in this process, as the command runs it. A budget of hands stops at the same generation as
the shipped training's ``--minutes``, so the run is deterministic. Prints the wall time, the
hands played per second, the generations, the held-out gain, and whether the player equals
the shipped one parameter for parameter. The figures are kept in a result file under
``benchmarks/results/bench_train/`` (:mod:`store`; ``--no-save`` for none).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import store

from mjsim.game.players import SHIPPED
from mjsim.sim.train import train


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="shanghai_qhp", help="a preset with a shipped player")
    store.add_arguments(parser)
    args = parser.parse_args()
    shipped_path = SHIPPED / f"{args.rules}.json"
    if not shipped_path.exists():
        raise SystemExit(f"no shipped player for {args.rules!r} ({shipped_path} is missing)")
    shipped = json.loads(shipped_path.read_text(encoding="utf-8"))
    settings = shipped["training"]["settings"]
    seed, hands, tests = settings["seed"], settings["hands"], settings["promote_hands"]
    budget = shipped["training"]["hands_played"]
    run = store.Run("bench_train", args)
    command = (
        f"mjsim train --rules {args.rules} --seed {seed} --budget {budget} --hands {hands} "
        f"--test-hands {tests}"
    )
    print(f"$ {command}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        doc = train(
            args.rules,
            Path(folder) / "player.json",
            seed=seed,
            budget=budget,
            command=command,
            hands=hands,
            promote_hands=tests,
            population=settings["population"],
            opponents=settings.get("opponents"),
        )
        seconds = time.perf_counter() - start
    final = doc["training"]["final"]
    same = doc["parameters"] == shipped["parameters"]
    print(
        f"{args.rules}: {seconds / 60:.1f} min ({seconds:.0f} s), "
        f"{doc['training']['hands_played']:,} hands ({doc['training']['hands_played'] / seconds:,.0f}"
        f" a second), {doc['training']['generations']} generations; held out "
        f"{final['mean']:+.3f} ± {final['se']:.3f}; the shipped player: {'yes' if same else 'NO'}",
        flush=True,
    )
    run.record(
        args.rules,
        wall_s=round(seconds, 1),
        hands=doc["training"]["hands_played"],
        generations=doc["training"]["generations"],
        gain=final["mean"],
        gain_se=final["se"],
        same_as_shipped=same,
    )
    run.saved()


if __name__ == "__main__":
    main()
