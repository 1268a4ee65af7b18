"""The repository's own checks, run as tests so the test command runs them all.

ruff (lint and format, configured in ``pyproject.toml``) and import-linter (the layers of
``docs/DESIGN.md``, contracts in ``.importlinter``), each the tool's own command run from the
repository root with the test environment's installation. ``mkdocs build --strict`` is in
``tests/test_docs.py``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    tool = BIN / args[0]
    if not tool.exists():
        pytest.fail(f"{args[0]} is not installed beside {sys.executable}: pip install -e '.[test]'")
    return subprocess.run(
        [str(tool), *args[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


@pytest.mark.parametrize(
    "command",
    [("ruff", "check", "."), ("ruff", "format", "--check", "."), ("lint-imports",)],
    ids=["ruff-check", "ruff-format", "import-layers"],
)
def test_tool_passes(command: tuple[str, ...]) -> None:
    done = _run(*command)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]


def test_no_game_file_over_600_lines() -> None:
    """The engine stays split by job: no file of ``mjsim/game/`` grows past 600 lines."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in (ROOT / "mjsim" / "game").rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600
    }
    assert long == {}
