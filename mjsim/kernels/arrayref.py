"""A tuple of arrays handed to compiled code as one pointer.

Numba passes a tuple of arrays to a compiled function as every field of every array (a
2-d array is nine machine values): the shanten kernel's nineteen tables were 159 of the
arguments of every game engine function, which numba stored, copied and LLVM took apart
again at every call and inlined step (``benchmarks/bench_compile.py`` measures the cold
compile). :func:`array_ref` writes the arrays' addresses and shapes into one numpy record,
which numba passes as one pointer, and :func:`arrays_at` rebuilds the same tuple inside
compiled code, of the same types as the arrays themselves (so a kernel called with it
compiles once for both). Nothing is copied; the record keeps the arrays alive.

>>> import numpy as np
>>> from numba import njit
>>> ref = array_ref((np.arange(6, dtype=np.uint16).reshape(2, 3), np.ones(4)))
>>> njit(lambda r: arrays_at(r)[0][1, 2] + arrays_at(r)[1].sum())(ref)
9.0
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array
from numba.np.numpy_support import from_dtype


class _Holder(np.recarray):
    """The one-row record array behind a reference; ``arrays`` keeps its arrays alive."""


def array_ref(arrays: tuple) -> np.record:
    """One record of the addresses and shapes of ``arrays`` (C-contiguous numpy arrays),
    whose field ``a<i>_<dtype>`` holds array ``i``'s address then its shape."""
    fields = []
    for i, a in enumerate(arrays):
        if not (isinstance(a, np.ndarray) and a.flags.c_contiguous):
            raise ValueError(f"array {i} must be a C-contiguous numpy array")
        fields.append((f"a{i}_{a.dtype.name}", np.int64, (1 + a.ndim,)))
    holder = np.zeros(1, np.dtype(fields)).view(_Holder)
    holder.arrays = tuple(arrays)
    ref = holder[0]
    for (name, _, _), a in zip(fields, arrays):
        ref[name][0] = a.ctypes.data
        ref[name][1:] = a.shape
    return ref


def array_types(ref: types.Record) -> list[types.Array]:
    """The numba array type of each field of an :func:`array_ref` record (its dtype is in the
    field's name, its number of dimensions in the field's length less the address)."""
    return [
        types.Array(from_dtype(np.dtype(name.split("_", 1)[1])), field.shape[0] - 1, "C")
        for name, field in ref.members
    ]


@intrinsic
def arrays_at(typingctx, ref):
    """The tuple of arrays that :func:`array_ref` made ``ref`` of (compiled code only)."""
    if not isinstance(ref, types.Record):
        return None
    field_types = array_types(ref)
    tuple_type = types.Tuple(field_types)

    def codegen(context, builder, sig, args):
        intp = context.get_value_type(types.intp)
        base = builder.bitcast(args[0], ir.IntType(8).as_pointer())
        arrays = []
        for (name, field), aty in zip(ref.members, field_types):
            slot = builder.bitcast(
                builder.gep(base, [ir.Constant(intp, ref.offset(name))]),
                ir.IntType(64).as_pointer(),
            )
            words = [
                builder.load(builder.gep(slot, [ir.Constant(intp, j)]))
                for j in range(field.shape[0])
            ]
            item = context.get_data_type(aty.dtype)
            itemsize = ir.Constant(intp, context.get_abi_sizeof(item))
            shape = words[1:]
            strides, step = [], itemsize
            for extent in reversed(shape):
                strides.insert(0, step)
                step = builder.mul(step, extent)
            array = make_array(aty)(context, builder)
            populate_array(
                array,
                data=builder.inttoptr(words[0], item.as_pointer()),
                shape=shape,
                strides=strides,
                itemsize=itemsize,
                meminfo=None,
            )
            arrays.append(array._getvalue())
        return context.make_tuple(builder, tuple_type, arrays)

    return tuple_type(ref), codegen
