"""MkDocs hook: point the API page's ``::: path`` lines at the module that defines each name.

The top-level ``mjsim`` package serves most of its functions lazily (``_LAZY`` in
``mjsim/__init__.py``: name -> module), which static analysis cannot follow, and modules
move between packages. So a line ``::: mjsim.NAME`` is rewritten to the module that
``_LAZY`` names, and a line ``::: mjsim.pkg.module.NAME`` whose module no longer defines
``NAME`` is rewritten to the one module under ``mjsim/`` that does (parsed, never imported).
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


def _defines(path: Path, name: str) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef | ast.ClassDef) and n.name == name for n in tree.body)


def _module_file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def _resolve(dotted: str) -> str:
    module, _, name = dotted.rpartition(".")
    if module == "mjsim":
        lazy = _lazy()
        return f"mjsim.{lazy[name]}.{name}" if name in lazy else dotted
    path = _module_file(module)
    if path is not None and _defines(path, name):
        return dotted
    found = sorted(p for p in PACKAGE.rglob("*.py") if _defines(p, name))
    if len(found) != 1:
        return dotted  # left for mkdocstrings to report
    rel = found[0].relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join((*parts, name))


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    if page.file.src_uri != "api.md":
        return markdown
    return DIRECTIVE.sub(lambda m: f"::: {_resolve(m.group(1))}", markdown)
