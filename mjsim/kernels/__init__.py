"""Numba kernels on arrays: shanten, waits, deals, 起手胡 — no Python objects, no I/O.

Compiled kernels are cached next to the sources (``cache=True``). Numba keys each cache on
the file that defines the function only, so a kernel that inlines a kernel of another
module would keep stale machine code after that module changes. On first import, the
caches of the whole package are therefore dropped whenever a source that kernels may read
changed: every module of ``kernels`` and ``game`` and any other module that imports numba
or compiles with ``njit``. Editing the rest (CLI, reports, statistics, even a module that only
names numba in a comment or an environment variable) costs no recompile.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

_KERNEL_PACKAGES = ("kernels", "game")
#: a module outside those packages whose source matches this compiles kernels
_USES_NUMBA = re.compile(rb"^\s*(from numba|import numba)\b|\bnjit\b", re.M)


def _drop_stale_caches() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # caches live elsewhere, under the user's control
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        source = path.read_bytes()
        # kernels/ and game/ with their subpackages (game/scoring/ too)
        if path.relative_to(root).parts[0] not in _KERNEL_PACKAGES and not _USES_NUMBA.search(
            source
        ):
            continue
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(source)
    stamp = root / "__pycache__" / "numba-sources.sha256"
    try:
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        for cached in (*root.rglob("__pycache__/*.nbi"), *root.rglob("__pycache__/*.nbc")):
            cached.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_name(f".{stamp.name}.{os.getpid()}")
        tmp.write_text(digest.hexdigest())
        os.replace(tmp, stamp)
    except OSError:
        pass  # a read-only install: numba then compiles in memory


_drop_stale_caches()
