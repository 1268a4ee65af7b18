"""Throughput of the core kernels (hands/s), with first-call compile time reported apart.

Run: ``.venv/bin/python benchmarks/bench_core.py [--n 2000000] [--mahjong 20000] [--repeat 3]``.
Prints the machine, versions, and for each case the hands per second of the best of
``--repeat`` timed calls (the first call, which loads tables and compiles or loads cached
kernels, is timed apart). Each call includes the facade's input checks. The ``mahjong``
package is timed on the same hands for the ratio. The figures are kept in a result file
under ``benchmarks/results/bench_core/`` (:mod:`store`; ``--no-save`` for none).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import store

import mjsim
from mjsim.efficiency import waits_batch
from mjsim.evaluate import shanten_batch


def deal(rules, n: int, size: int, seed: int) -> np.ndarray:
    """``n`` random hands of ``size`` tiles from the rule set's wall (4 copies per kind;
    bonus tiles, which are set aside when drawn, left out)."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.array([k for k in rules.kinds if k not in rules.bonus_kinds]), 4)
    keys = rng.random((n, wall.size), dtype=np.float32)
    picks = wall[np.argpartition(keys, size, axis=1)[:, :size]]
    hands = np.zeros((n, 34), dtype=np.uint8)
    np.add.at(hands, (np.repeat(np.arange(n), size), picks.ravel()), 1)
    return hands


REPEAT = 3


def timed(func, *args, **kwargs) -> tuple[float, float]:
    """Seconds of the first call and the best of :data:`REPEAT` further calls."""
    start = time.perf_counter()
    func(*args, **kwargs)
    first = time.perf_counter() - start
    best = float("inf")
    for _ in range(REPEAT):
        start = time.perf_counter()
        func(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return first, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="hands per case")
    parser.add_argument("--mahjong", type=int, default=20_000, help="hands for the mahjong package")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="timed calls; the best is shown")
    store.add_arguments(parser)
    args = parser.parse_args()
    globals()["REPEAT"] = max(1, args.repeat)
    run = store.Run("bench_core", args)
    start = time.perf_counter()
    from mjsim.tables.suits import load_tables

    load_tables()
    from mjsim.tables.merged import load_merged

    load_merged()
    from mjsim.tables.flagged_merged import load_flag_tables

    load_flag_tables()
    tables = time.perf_counter() - start
    print(f"tables: {tables:.2f} s (load from cache, or generate; merge)")
    run.record("tables", load_s=tables)
    generic = mjsim.load_rules("generic")
    cases = [  # label, rule set, tiles, keywords: the case is "shanten <rule set> <tiles>"
        ("shanten 14 tiles generic (standard + seven pairs)", "generic", 14, {}),
        ("shanten 13 tiles generic", "generic", 13, {}),
        ("shanten 14 tiles changsha (258 pair + big-win forms)", "changsha", 14, {}),
        ("shanten 17 tiles caishen16 (wild 7z, eight pairs)", "caishen16", 17, {"wild": "7z"}),
        ("shanten 14 tiles shanghai_baida (wild 1m)", "shanghai_baida", 14, {"wild": "1m"}),
        ("shanten 14 tiles shanghai_qhp", "shanghai_qhp", 14, {}),
        ("shanten 14 tiles hongzhong112 (shape conditions)", "hongzhong112", 14, {}),
        ("shanten 14 tiles ne_alt (shape conditions)", "ne_alt", 14, {}),
    ]
    for label, rid, size, kw in cases:
        rules = mjsim.load_rules(rid)
        hands = deal(rules, args.n, size, seed=1)
        first, second = timed(shanten_batch, hands, rules, **kw)
        print(f"{label:58s} {args.n / second / 1e6:7.2f} M hands/s  (first call {first:.1f} s)")
        run.record(f"shanten {rid} {size}", hands_per_s=args.n / second, first_call_s=first)
    hands13 = deal(generic, args.n, 13, seed=2)
    first, second = timed(waits_batch, hands13, generic)
    print(
        f"{'waits + live counts, 13 tiles generic (random hands)':58s} "
        f"{args.n / second / 1e6:7.2f} M hands/s  (first call {first:.1f} s)"
    )
    run.record("waits generic 13", hands_per_s=args.n / second, first_call_s=first)
    ready = hands13[shanten_batch(hands13, generic) == 0]
    if len(ready):
        first, second = timed(waits_batch, ready, generic)
        print(
            f"{'waits + live counts, ready hands only':58s} "
            f"{len(ready) / second / 1e6:7.2f} M hands/s  ({len(ready)} hands)"
        )
        run.record(
            "waits generic 13 ready hands", hands_per_s=len(ready) / second, hands=len(ready)
        )
    try:
        from mahjong.shanten import Shanten
    except ImportError:
        print("mahjong package not installed: no comparison")
        run.saved()
        return
    sample = deal(generic, args.mahjong, 14, seed=3)
    calc = Shanten()
    start = time.perf_counter()
    for row in sample:
        tiles = row.astype(int).tolist()
        calc.calculate_shanten_for_regular_hand(tiles)
        calc.calculate_shanten_for_chiitoitsu_hand(tiles)
    theirs = args.mahjong / (time.perf_counter() - start)
    riichi = mjsim.load_rules("generic", gen_7p_quad_as_two_pairs=False)
    big = deal(generic, args.n, 14, seed=3)
    _, second = timed(shanten_batch, big, riichi)
    ours = args.n / second
    print(
        f"mahjong package (regular + chiitoitsu): {theirs:,.0f} hands/s; "
        f"mjsim {ours / 1e6:.2f} M hands/s: {ours / theirs:,.0f}x"
    )
    run.record(
        "mahjong package generic 14",
        hands_per_s=theirs,
        mjsim_hands_per_s=ours,
        mjsim_ratio=ours / theirs,
    )
    run.saved()


if __name__ == "__main__":
    main()
