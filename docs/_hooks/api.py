"""MkDocs hook: point the API page's ``::: path`` lines at the module that defines each name.

The top-level ``mjsim`` package serves most of its functions lazily (``_LAZY`` in
``mjsim/__init__.py``: name -> module), which static analysis cannot follow. So a line
``::: mjsim.NAME`` is rewritten to the module that ``_LAZY`` names (parsed, never
imported); every other line is left as written, for ``--strict`` to check.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "mjsim"
DIRECTIVE = re.compile(r"^::: (mjsim(?:\.\w+)+)\s*$", re.MULTILINE)


def _lazy() -> dict[str, str]:
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "_LAZY" for t in targets):
                return ast.literal_eval(node.value)
    return {}


def _resolve(dotted: str) -> str:
    module, _, name = dotted.rpartition(".")
    lazy = _lazy() if module == "mjsim" else {}
    return f"mjsim.{lazy[name]}.{name}" if name in lazy else dotted


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    if page.file.src_uri != "api.md":
        return markdown
    return DIRECTIVE.sub(lambda m: f"::: {_resolve(m.group(1))}", markdown)
