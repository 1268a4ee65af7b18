"""Calling a compiled function by its address (mjsim.kernels.callref): the value, an error
passed on, a cached caller in a new process, and the engine's kernel compiled once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit, types
from numba.core.errors import TypingError

from mjsim.kernels.callref import address_for, address_of, call_as_given, caller

ARGS = (types.int64, types.Array(types.int64, 1, "C"))


@njit
def _weighted(k, xs):
    if k < 0:
        raise ValueError("k must be at least 0")
    return k * xs.sum()


_call = caller(lambda args: types.int64(*ARGS))


@njit
def _twice(at, k, xs):
    return _call(at, (k, xs)) + _call(at, (k + 1, xs))


def test_a_call_by_address_returns_the_functions_value():
    at = address_of(_weighted, ARGS)
    xs = np.arange(5, dtype=np.int64)
    assert _twice(at, np.int64(2), xs) == 2 * 10 + 3 * 10
    assert len(_weighted.signatures) == 1  # compiled for its one signature, not per caller


def test_an_error_in_the_callee_is_raised_by_the_caller():
    with pytest.raises(ValueError, match="k must be at least 0"):
        _twice(address_of(_weighted, ARGS), np.int64(-5), np.arange(3, dtype=np.int64))


def test_arguments_that_cannot_be_cast_fail_typing():
    @njit
    def bad(at):
        return _call(at, (1.5j, np.zeros(3)))

    with pytest.raises(TypingError):
        bad(address_of(_weighted, ARGS))


@njit
def _fill(xs, value):
    for i in range(xs.size):
        xs[i] = value


@njit
def _fill_by(at, xs, value):
    call_as_given(at, (xs, value))


def test_an_address_for_values_is_the_code_of_their_types():
    """``address_for``: the code of the values' types, found once (the same address for
    other values of the same types), another for other types; ``call_as_given`` runs it."""
    xs = np.zeros(3, np.int64)
    at = address_for(_fill, (xs, 0))
    assert at == address_for(_fill, (np.ones(5, np.int64), 7))
    assert at == address_of(_fill, (types.Array(types.int64, 1, "C"), types.int64))
    assert address_for(_fill, (np.zeros(3), 0.5)) != at
    _fill_by(at, xs, 4)
    assert xs.tolist() == [4, 4, 4]


def test_a_cached_caller_runs_in_a_new_process(tmp_path):
    """The caller's code holds no address (numba caches it) and reads its callee's address
    at run time: loaded from the cache in a second process, where the callee's code is
    elsewhere, it still calls it."""
    (tmp_path / "m.py").write_text(
        textwrap.dedent("""
        import numpy as np
        from numba import njit, types
        from mjsim.kernels.callref import address_for, address_of, call_as_given, caller
        ARGS = (types.int64, types.Array(types.int64, 1, "C"))
        @njit(cache=True)
        def weighted(k, xs):
            return k * xs.sum()
        call = caller(lambda args: types.int64(*ARGS))
        @njit(cache=True)
        def outer(at, xs):
            return call(at, (np.int64(7), xs))
        print(outer(address_of(weighted, ARGS), np.arange(4, dtype=np.int64)),
              sum(outer.stats.cache_hits.values()))
    """)
    )
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *filter(None, sys.path)]),
    }
    run = [sys.executable, "-c", "import m"]
    first, second = (
        subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout.split()
        for _ in range(2)
    )
    assert first[0] == second[0] == "42"
    assert (first[1], second[1]) == ("0", "1")  # compiled, then loaded from the cache
