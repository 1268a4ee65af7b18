"""How mjsim's modules import each other: no cycle and no private name of another module.

The scan reads every ``import`` of ``mjsim/`` with :mod:`ast`, those inside functions too (a
lazy import is still a dependency); the private-name test also reads the tests, the
benchmarks and the code cells of ``notebooks/``. import-linter checks the layers between
packages (``tests/test_checks.py`` runs it); the cycle test covers every module.
"""

from __future__ import annotations

import ast
import json
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mjsim"


def _modules() -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's ``__init__``)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


MODULES = _modules()


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    base = module.split(".")[: None if is_package else -1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _owner(name: str) -> str | None:
    """The mjsim module a dotted name lives in (the longest prefix that is a module)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in MODULES:
            return ".".join(parts[:i])
    return None


def _imports(tree: ast.AST, module: str, is_package: bool):
    """``(imported module, name or None, local alias)`` of every mjsim import in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mjsim":
                    yield _owner(alias.name), None, alias.asname
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, is_package, node.level, node.module)
            if source.split(".")[0] != "mjsim":
                continue
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full in MODULES:
                    yield full, None, alias.asname or alias.name
                else:
                    yield _owner(source), alias.name, alias.asname or alias.name


def _private_uses(tree: ast.AST, module: str, is_package: bool) -> list[str]:
    """``from m import _x`` and ``m._x`` where ``m`` is another mjsim module."""
    found, aliases = [], {}
    for target, name, local in _imports(tree, module, is_package):
        if name is None:
            if local is not None:
                aliases[local] = target
        elif name.startswith("_") and not name.startswith("__") and target != module:
            found.append(f"from {target} import {name}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
        ):
            target = aliases.get(node.value.id)
            if target is not None and target != module:
                found.append(f"{target}.{node.attr} (line {node.lineno})")
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle():
    graph: dict[str, set[str]] = defaultdict(set)
    for module, (path, is_package) in MODULES.items():
        graph[module]
        for target, _, _ in _imports(ast.parse(path.read_text()), module, is_package):
            if target is not None and target != module:
                graph[module].add(target)
    assert _cycles(graph) == []


def test_no_private_name_of_another_module():
    found = {
        module: _private_uses(ast.parse(path.read_text()), module, is_package)
        for module, (path, is_package) in MODULES.items()
    }
    for script in [
        *sorted((ROOT / "tests").glob("*.py")),
        *sorted((ROOT / "benchmarks").glob("*.py")),
    ]:
        found[script.name] = _private_uses(ast.parse(script.read_text()), "__script__", False)
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        code = "\n".join(
            line for line in code.splitlines() if not line.lstrip().startswith(("%", "!"))
        )
        found[notebook.name] = _private_uses(ast.parse(code), "__notebook__", False)
    assert {k: v for k, v in found.items() if v} == {}
