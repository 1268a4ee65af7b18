"""How the hot kernels are compiled.

:data:`njit_borrowed` is numba's ``njit`` (cached) without reference counting: the arrays
such a function reads or passes on are borrowed from its caller, which keeps them alive,
instead of being counted on every use. Numba counts with atomic operations whenever an
array leaves a tuple or enters an inlined body. The game engine's decisions read the rule
set, state and scratch tuples in every evaluation: ``perf`` found a quarter of a played
hand's time in numba's ``NRT_incref`` / ``NRT_decref``, and one shanten evaluation in a
bot's loop took 175 ns counted against 78 ns borrowed (docs/engine.md, *Compile time*).

Two rules for a function compiled so:

- nothing it runs allocates an array. Numba refuses to compile an allocation there ("NRT
  required but not enabled"), and compiles the callees without counting too unless they
  ask for it: a kernel that allocates its own work arrays and may be called from here is
  compiled with :data:`njit_counted`;
- no array comes out of it or into it from a callee, except the arguments it was given.
  Numba refuses to return any other array; a new array returned by a counted callee would
  never be freed, which ``tests/test_refcounts.py`` would see in numba's memory accounts.

>>> from mjsim.game.state import can_add, new_state  # a borrowed kernel
>>> S = new_state()
>>> bool(can_add(S, 0, S.concealed[0], 5))
True
"""

from __future__ import annotations

from numba import njit

njit_borrowed = njit(cache=True, _nrt=False)
#: numba's ``njit`` inlined into each caller at numba's level: only for helpers of a few
#: lines (a test or a count inside a bot's loop) and those that hand out a view of an array
#: field, which a borrowed function may not return. Numba types and lowers an inlined
#: function again at each use and an inlined call chain multiplies that: with the engine's
#: steps inlined, one engine compiled in 172 s, with them compiled once each in 45 s
#: (benchmarks/bench_compile.py). The shanten kernel itself is called by its address
#: (:mod:`mjsim.kernels.callref`)
njit_inline = njit(cache=True, inline="always", _nrt=False)
#: numba's ``njit`` (cached) with reference counting whoever the caller is (see above)
njit_counted = njit(cache=True, _nrt=True)
