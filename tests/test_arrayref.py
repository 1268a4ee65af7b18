"""A tuple of arrays handed to compiled code as one pointer (mjsim.kernels.arrayref)."""

from __future__ import annotations

import gc

import numba
import numpy as np
import pytest
from numba import njit

from mjsim.evaluate import compile_rules
from mjsim.kernels.arrayref import array_ref, array_types, arrays_at
from mjsim.rules import load_rules


@njit(cache=True)
def _cells(ref):
    """Every element of every array of ``ref``, in order, and each array's shape."""
    arrays = arrays_at(ref)
    first, second = arrays[0], arrays[1]
    out = np.empty(first.size + second.size, np.int64)
    j = 0
    for i in range(first.shape[0]):
        for k in range(first.shape[1]):
            out[j] = first[i, k]
            j += 1
    for i in range(second.shape[0]):
        out[j] = second[i]
        j += 1
    return out, first.shape, second.shape


def test_arrays_read_back_as_numpy_holds_them():
    first = np.arange(15, dtype=np.uint16).reshape(5, 3) * 7
    second = np.array([-4, 9, 2**40], dtype=np.int64)
    ref = array_ref((first, second))
    expected = np.concatenate([first.ravel(), second]).astype(np.int64)
    del first, second
    gc.collect()  # the record keeps the arrays alive
    cells, shape0, shape1 = _cells(ref)
    assert cells.tolist() == expected.tolist()
    assert shape0 == (5, 3) and shape1 == (3,)


@njit(cache=True)
def _write(ref):
    arrays_at(ref)[0][2, 1] = 99


def test_writes_reach_the_arrays():
    a = np.zeros((3, 2), np.int64)
    _write(array_ref((a, np.zeros(1))))
    assert a[2, 1] == 99 and a.sum() == 99


@pytest.mark.parametrize("rules", ["changsha", "generic", "shanghai_baida", "hongzhong112"])
def test_the_kernel_tables_keep_their_types(rules):
    """The rebuilt tuple has the type of the tables themselves: a kernel called with either
    compiles once."""
    tables = compile_rules(load_rules(rules)).tables
    ref = array_ref(tables)
    assert numba.types.Tuple(array_types(numba.typeof(ref))) == numba.typeof(tables)


def test_a_strided_array_is_refused():
    with pytest.raises(ValueError, match="array 1 must be a C-contiguous numpy array"):
        array_ref((np.zeros(3), np.zeros((4, 4))[:, 1]))
