"""Kernels compiled without reference counting (``mjsim.kernels.jit.njit_borrowed``) leave
numba's memory accounts balanced: every array the runs allocate is freed once, none twice.

A borrowed function that returned an array, or kept one a counted callee handed it, would
show here as a leak (more allocations than frees) or an early release (more frees). The
check runs in a child process, since numba counts only when ``NUMBA_NRT_STATS`` is set
before it starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

CHILD = r"""
import gc, json
import numpy as np
from numba.core.runtime import rtsys
from mjsim.evaluate import shanten, shanten_batch
from mjsim.efficiency import ukeire, waits, waits_batch
from mjsim.game.play import parse_bots, play_rows
from mjsim.rules import load_rules

def run():
    for rules, bots in (("changsha", "efficiency,value,cautious,efficiency"),
                        ("generic", "cautious,efficiency,value,cautious")):
        rows = play_rows(load_rules(rules), 3, 0, 96, parse_bots(bots))
        assert rows.shape[0] == 96
    rng = np.random.default_rng(5)
    hands = np.zeros((3000, 34), np.uint8)
    for i in range(hands.shape[0]):  # suit tiles only: every rule set has them
        np.add.at(hands[i], rng.choice(108, 13, replace=False) // 4, 1)
    shanten_batch(hands, "generic")
    shanten_batch(hands, "hongzhong112")  # the shape conditions' merged tables
    shanten("[111m] 1m234p567p789s", "hongzhong112")  # capped: their group DP allocates
    waits_batch(hands, "generic")
    # exposed melds cap the concealed part: rows computed by DPs that allocate
    waits("1112345678m[999m]", "generic")
    ukeire("11123456789m[555p]", "changsha")

run()  # compiles or loads the kernels (their own allocations are not ours)
gc.collect()
before = rtsys.get_allocation_stats()
run()
gc.collect()
after = rtsys.get_allocation_stats()
print(json.dumps([after[i] - before[i] for i in range(4)]))
"""


def test_memory_accounts_balance():
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stderr[-3000:]
    alloc, free, mi_alloc, mi_free = json.loads(done.stdout.strip().splitlines()[-1])
    assert alloc > 0 and mi_alloc > 0  # the runs did allocate
    assert (alloc, mi_alloc) == (free, mi_free)
