"""Per-suit distance tables: the committed generator and the on-disk cache.

Method (after the per-suit decomposition tables of tomohxx's shanten-number calculator and
the riichi analysers built on it, e.g. Mortal's ``algo/shanten``; rebuilt here from the
definition): a suit's tiles are a count vector ``h`` of 9 digits 0–4, indexed in base 5.
For a target family T (``m`` melds and an optional pair), ``dist(h)`` is the fewest tiles
that must be added to ``h`` so that it contains some ``t`` in T, all counts ≤ 4:

* ``holds(h)`` (``h`` contains some t) is built by peeling one meld:
  ``holds_m(h) = OR over melds M ≤ h of holds_{m-1}(h - M)``;
* ``dist(h) = 0`` if ``holds(h)``, else ``1 + min over kinds i with h_i < 4 of dist(h + e_i)``.

Both sweeps run over the whole lattice in index order (5^9 vectors), so the tables are
exact by construction and take a second or two to build. A hand's fewest missing tiles is
then the min-plus combination of its suits' rows (:mod:`mjsim.kernels.shanten`).

Tables: ``std`` (chows and pungs), ``pung`` (pungs only) for the three suits, and ``honour``
(7 digits, pungs only). Row layout: column ``m * 3 + pair`` for ``m`` = 0…5 melds and
``pair`` = 0 (none), 1 (any kind) or 2 (rank 2, 5 or 8 only). ``INF`` marks no target.

>>> t = load_tables()
>>> int(t.std[suit_index([1, 1, 1, 0, 0, 0, 0, 0, 0]), 1 * 3 + 0])   # 123 is one meld
0
>>> int(t.std[suit_index([1, 1, 0, 0, 0, 0, 0, 0, 0]), 1 * 3 + 2])   # 12 + a 258 pair: 3 missing
3
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

MAX_MELDS = 5
N_PAIR = 3  # none, any, 258
N_COLS = (MAX_MELDS + 1) * N_PAIR
INF = 99
VERSION = 1

SUIT_DIGITS = 9
HONOUR_DIGITS = 7


def suit_index(digits) -> int:
    """Base-5 index of a per-suit count vector (least significant digit = rank 1)."""
    return int(sum(int(c) * 5**i for i, c in enumerate(digits)))


@njit(cache=True)
def count_digits(n_digits):
    """Every count vector of ``n_digits`` kinds (0–4 copies each) in index order (digit
    ``i`` of row ``x`` is ``x // 5**i % 5``): ``uint8[5**n_digits, n_digits]``."""
    size = 5**n_digits
    out = np.zeros((size, n_digits), dtype=np.uint8)
    for idx in range(size):
        x = idx
        for i in range(n_digits):
            out[idx, i] = x % 5
            x //= 5
    return out


@njit(cache=True)
def _build(n_digits, chows, pair_ranks_258):
    """Distance table of one tile group; ``chows`` says whether runs of three exist."""
    size = 5**n_digits
    dig = count_digits(n_digits)
    pow5 = np.ones(n_digits, dtype=np.int64)
    for i in range(1, n_digits):
        pow5[i] = pow5[i - 1] * 5
    # meld shapes as (first digit, kind: 0 pung, 1 chow)
    n_shapes = n_digits + (n_digits - 2 if chows else 0)
    shape_first = np.zeros(n_shapes, dtype=np.int64)
    shape_chow = np.zeros(n_shapes, dtype=np.bool_)
    for i in range(n_digits):
        shape_first[i] = i
    if chows:
        for i in range(n_digits - 2):
            shape_first[n_digits + i] = i
            shape_chow[n_digits + i] = True

    table = np.full((size, N_COLS), INF, dtype=np.uint8)
    holds = np.zeros((MAX_MELDS + 1, N_PAIR, size), dtype=np.bool_)
    for idx in range(size):
        holds[0, 0, idx] = True
        for r in range(n_digits):
            if dig[idx, r] >= 2:
                holds[0, 1, idx] = True
                if pair_ranks_258 and r % 3 == 1:
                    holds[0, 2, idx] = True
    for m in range(1, MAX_MELDS + 1):
        for p in range(N_PAIR):
            for idx in range(size):
                found = False
                for s in range(n_shapes):
                    f = shape_first[s]
                    if shape_chow[s]:
                        if dig[idx, f] >= 1 and dig[idx, f + 1] >= 1 and dig[idx, f + 2] >= 1:
                            if holds[m - 1, p, idx - pow5[f] - pow5[f + 1] - pow5[f + 2]]:
                                found = True
                                break
                    elif dig[idx, f] >= 3:
                        if holds[m - 1, p, idx - 3 * pow5[f]]:
                            found = True
                            break
                holds[m, p, idx] = found
    for m in range(MAX_MELDS + 1):
        for p in range(N_PAIR):
            if p == 2 and not pair_ranks_258:
                continue
            col = m * N_PAIR + p
            for idx in range(size - 1, -1, -1):
                if holds[m, p, idx]:
                    table[idx, col] = 0
                    continue
                best = INF
                for i in range(n_digits):
                    if dig[idx, i] < 4:
                        v = table[idx + pow5[i], col]
                        if v < best:
                            best = v
                if best < INF:
                    table[idx, col] = best + 1
    return table


@dataclass(frozen=True)
class Tables:
    """The distance tables the shanten kernels read (see the module docstring)."""

    std: np.ndarray
    pung: np.ndarray
    honour: np.ndarray


def cache_dir() -> Path:
    """Where tables are cached: ``$MJSIM_CACHE`` or ``~/.cache/mjsim``."""
    root = os.environ.get("MJSIM_CACHE") or Path.home() / ".cache" / "mjsim"
    return Path(root) / f"tables-v{VERSION}"


def _digest(array: np.ndarray) -> str:
    return hashlib.sha256(array.tobytes()).hexdigest()


def _write_atomic(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        write(fh)
    os.replace(tmp, path)


def cached_array(stem: Path, shape: tuple[int, ...], build, dtype=np.uint8) -> np.ndarray:
    """``stem.npy`` if its shape, dtype and ``stem.sha256`` check out; else ``build()``,
    saved atomically (a read-only cache still gets a correct, rebuilt table)."""
    path, sig = stem.with_suffix(".npy"), stem.with_suffix(".sha256")
    if path.exists() and sig.exists():
        array = np.load(path)
        if (
            array.shape == shape
            and array.dtype == dtype
            and _digest(array) == sig.read_text().strip()
        ):
            return array
    array = build()
    try:
        stem.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(path, lambda fh: np.save(fh, array))
        _write_atomic(sig, lambda fh: fh.write(_digest(array).encode()))
    except OSError:
        pass
    return array


_TABLES: Tables | None = None


def load_tables() -> Tables:
    """The tables, loaded once per process from the cache (checked) or generated."""
    global _TABLES
    if _TABLES is None:
        d = cache_dir()
        suit_shape, honour_shape = (5**SUIT_DIGITS, N_COLS), (5**HONOUR_DIGITS, N_COLS)
        _TABLES = Tables(
            std=cached_array(d / "std", suit_shape, lambda: _build(SUIT_DIGITS, True, True)),
            pung=cached_array(d / "pung", suit_shape, lambda: _build(SUIT_DIGITS, False, True)),
            honour=cached_array(
                d / "honour", honour_shape, lambda: _build(HONOUR_DIGITS, False, False)
            ),
        )
    return _TABLES
