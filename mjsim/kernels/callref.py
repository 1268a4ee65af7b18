"""A compiled function called by its address: compiled once, linked into no caller.

Numba links the code of every function a compiled function calls into that function's own
module and optimises it again there, so a kernel that twenty engine functions call is
optimised and turned into machine code twenty-one times (``benchmarks/bench_compile.py``
measures the cold compile). :func:`address_of` gives the address of a function's machine
code for one signature (compiled, or loaded from numba's cache); a caller made by
:func:`caller` calls the code at an address it is given at run time. The address is a value,
not a constant of the caller's code, so the caller stays cacheable (numba will not cache
code that holds one process's addresses); an address must therefore never outlive its
process (never pickle it).

>>> from numba import njit, types
>>> from numba.core.typing import signature
>>> square = njit(lambda x: x * x)
>>> sig = signature(types.float64, types.float64)
>>> call = caller(lambda args: sig)
>>> njit(lambda at, x: call(at, (x,)) + 1.0)(address_of(square, sig.args), 3.0)
10.0
"""

from __future__ import annotations

from collections.abc import Callable

from numba import typeof, types
from numba._dispatcher import compute_fingerprint
from numba.core import cgutils
from numba.core.typing import signature
from numba.core.typing.templates import Signature
from numba.extending import intrinsic


def address_of(dispatcher, args: tuple) -> int:
    """The address of ``dispatcher``'s machine code for the argument types ``args`` (numba's
    calling convention), compiled or loaded from the cache first."""
    dispatcher.compile(tuple(args))
    result = dispatcher.overloads[tuple(args)]
    return int(result.library.get_pointer_to_function(result.fndesc.llvm_func_name))


def caller(signature_of: Callable[[tuple], Signature]):
    """An intrinsic ``call(address, args)`` for compiled code: the function whose code is at
    ``address`` (:func:`address_of`), of the signature ``signature_of`` gives for the types
    of the tuple ``args``, called on ``args`` each cast to that signature's type (typing
    fails where one cannot be); its error status, if any, passed on."""

    @intrinsic
    def call(typingctx, address, args):
        if not (isinstance(address, types.Integer) and isinstance(args, types.BaseTuple)):
            return None
        sig = signature_of(tuple(args))
        if len(args) != len(sig.args):
            return None
        if any(typingctx.can_convert(a, b) is None for a, b in zip(args, sig.args)):
            return None

        def codegen(context, builder, signature, llargs):
            address, packed = llargs
            values = [
                context.cast(builder, builder.extract_value(packed, i), a, b)
                for i, (a, b) in enumerate(zip(args, sig.args))
            ]
            fnty = context.call_conv.get_function_type(sig.return_type, sig.args)
            target = builder.inttoptr(address, fnty.as_pointer())
            status, result = context.call_conv.call_function(
                builder, target, sig.return_type, sig.args, values
            )
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result

        return sig.return_type(address, args), codegen

    return call


#: addresses found by :func:`address_for`, by dispatcher and the values' type fingerprints
_ADDRESSES: dict[tuple, int] = {}


def address_for(dispatcher, values: tuple) -> int:
    """:func:`address_of` ``dispatcher``'s code for the types of ``values``: the one
    :data:`call_as_given` calls on values of those types. Kept by the values' type
    fingerprints (numba's dispatcher's own key: microseconds, where typing a record and
    finding the code take milliseconds), so a one-hand call pays for it once a process."""
    key = (dispatcher, tuple(compute_fingerprint(v) for v in values))
    at = _ADDRESSES.get(key)
    if at is None:
        at = _ADDRESSES[key] = address_of(dispatcher, tuple(typeof(v) for v in values))
    return at


#: ``call(address, args)`` of a function that returns nothing, compiled for exactly the
#: types of ``args`` (:func:`address_for`): a batch kernel's rows, called by its parallel
#: driver, which then holds none of their code
call_as_given = caller(lambda args: signature(types.none, *args))
