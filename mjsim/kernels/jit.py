"""How the hot kernels are compiled.

:data:`njit_borrowed` is numba's ``njit`` (cached) without reference counting: the arrays
such a function reads or passes on are borrowed from its caller, which keeps them alive,
instead of being counted on every use. Numba counts with atomic operations whenever an
array leaves a tuple or enters an inlined body; on the game engine's decisions, which read
the rule set, state and scratch tuples in every evaluation, that took a quarter of the run
time and twice as long as the evaluations themselves (see the README's speed section).

Two rules for a function compiled so, the first checked by numba, the second by review:

- nothing it runs allocates an array (numba refuses: "NRT required but not enabled").
  Numba compiles its callees without counting too, unless they ask for it: a kernel that
  allocates its own work arrays and may be called from here is compiled with
  :data:`njit_counted`;
- it returns no array (a counted caller would release a reference it was never given).

>>> from mjsim.game.state import can_add, new_state  # a borrowed kernel
>>> S = new_state()
>>> bool(can_add(S, 0, S[0][0], 5))
True
"""

from __future__ import annotations

from numba import njit

njit_borrowed = njit(cache=True, _nrt=False)
#: numba's ``njit`` (cached) with reference counting whoever the caller is (see above)
njit_counted = njit(cache=True, _nrt=True)
