"""The documentation: citations that resolve, and console examples that still print what
they show.

* Every section of the rule sets document cited as ``§N`` or ``§N.N.N`` (alone, in a range
  ``§5.3–§5.10`` / ``§5.3–5.10``, or with an item of its table, ``§6.3 C26``) in the code,
  presets, tests, benchmarks, notebooks, reports, ``docs/`` and the README is a heading of
  ``docs/RULES.md``; so is every preset's ``section`` (the column of ``mjsim rules list``).
* Every Markdown document cited by name exists in the repository, and nothing cites the
  folder of the Chinese source texts, which the repository does not hold.
* Every fenced ``console`` block of the README and of ``docs/*.md`` is run: each line
  ``$ mjsim ...`` runs with this environment's ``mjsim`` first on ``PATH``, in a temporary
  folder, with ``COLUMNS=100``, and its output must be the lines that follow (trailing
  spaces aside). A line ``...`` stands for any number of lines (an abridged output). The
  output compared is the command's standard output, or its standard error when it prints
  nothing else (the one-line user errors).
"""

from __future__ import annotations

import ast
import doctest
import functools
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "RULES.md"
SCANNED = ("mjsim", "tests", "benchmarks", "notebooks", "reports", "docs")
SUFFIXES = {".md", ".json", ".py", ".toml", ".ipynb"}
SKIPPED_DIRS = {"__pycache__", ".ipynb_checkpoints", "_parts"}

HEADING = re.compile(r"^(#{1,6})\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)
NUMBER = r"\d+(?:\.\d+)*(?<!\.)"
CITATION = re.compile(rf"§\s?({NUMBER})(?:\s?[–-]\s?§?({NUMBER}))?(?:\s+([A-Z]\d+)\b)?")
SOURCES = "se" + "eds/"  # the source texts' folder (spelt so that this file does not cite it)
DOCUMENT = re.compile(r"(?<![\w.-])([\w/-][\w./-]*\.md)\b")


def scanned_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if (
                path.suffix in SUFFIXES
                and path.is_file()
                and not SKIPPED_DIRS & set(path.relative_to(ROOT).parts)
            ):
                files.append(path)
    return files


@functools.cache
def sections() -> dict[str, str]:
    """{number: the text under that heading, up to the next heading of its level or above}."""
    text = RULES_MD.read_text(encoding="utf-8")
    heads = list(HEADING.finditer(text))
    out = {}
    for i, head in enumerate(heads):
        level = len(head.group(1))
        end = next((h.start() for h in heads[i + 1 :] if len(h.group(1)) <= level), len(text))
        out[head.group(2)] = text[head.start() : end]
    return out


def test_rules_document_has_its_sections():
    found = sections()
    assert {"0.6", "2.4.3", "4.11", "5.10", "6.6", "7.2"} <= set(found)
    assert len(found) > 70


def citations(text: str):
    for match in CITATION.finditer(text):
        yield match.group(0), match.group(1), match.group(2), match.group(3)


def test_citation_pattern():
    text = (
        "RULES.md §2.4–§2.10, §5.3–5.10, §2.4.1. and §6.3 C26; §x and §{r.section} are no citations"
    )
    assert [c[1:] for c in citations(text)] == [
        ("2.4", "2.10", None),
        ("5.3", "5.10", None),
        ("2.4.1", None, None),
        ("6.3", None, "C26"),
    ]


def test_every_rules_citation_resolves():
    found = sections()
    bad = []
    for path in scanned_files():
        text = path.read_text(encoding="utf-8")
        for cited, first, last, item in citations(text):
            where = f"{path.relative_to(ROOT)}: {cited!r}"
            for number in filter(None, (first, last)):
                if number not in found:
                    bad.append(f"{where}: no section {number}")
            if item and first in found and not re.search(rf"\|\s*{item}\s*\|", found[first]):
                bad.append(f"{where}: no item {item} in §{first}")
    assert not bad, "\n".join(bad)


def test_every_preset_section_resolves():
    presets = sorted((ROOT / "mjsim" / "rules" / "presets").glob("*.toml"))
    assert presets
    for path in presets:
        section = tomllib.loads(path.read_text(encoding="utf-8"))["section"]
        assert section in sections(), f"{path.name}: section {section!r} is not in RULES.md"


@functools.cache
def markdown_names() -> set[str]:
    return {
        path.name
        for path in ROOT.rglob("*.md")
        if not {".venv", ".git", "site", "node_modules"} & set(path.relative_to(ROOT).parts)
    }


def test_every_cited_document_exists():
    bad = []
    for path in scanned_files():
        text = re.sub(r"https?://\S+", "", path.read_text(encoding="utf-8"))
        for name in set(DOCUMENT.findall(text)):
            if any(c in name for c in "{}*<>"):
                continue
            here = (path.parent / name, ROOT / name)
            if not any(p.exists() for p in here) and Path(name).name not in markdown_names():
                bad.append(f"{path.relative_to(ROOT)}: {name}")
        if SOURCES in text and not (ROOT / SOURCES).is_dir():
            bad.append(f"{path.relative_to(ROOT)}: {SOURCES}")
    assert not bad, "documents cited but not in the repository:\n" + "\n".join(sorted(bad))


# ---------------------------------------------------------------- console examples


def console_examples() -> list[tuple[str, int, str, list[str]]]:
    """(file, line, command, expected lines) for every ``$ mjsim`` line of a console block."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if lines[i].strip() != "```console":
                i += 1
                continue
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            block, start = lines[i + 1 : end], i + 2
            prompts = [k for k, line in enumerate(block) if line.startswith("$ ")]
            assert prompts and prompts[0] == 0, (
                f"{path.name}:{start}: a console block starts with $"
            )
            for k, nxt in zip(prompts, [*prompts[1:], len(block)], strict=True):
                command = block[k][2:]
                assert command.startswith("mjsim "), f"{path.name}:{start + k}: {command}"
                found.append((str(path.relative_to(ROOT)), start + k, command, block[k + 1 : nxt]))
            i = end + 1
    return found


EXAMPLES = console_examples()


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` with each ``...`` line standing for any lines."""
    expected = [line.rstrip() for line in expected]
    actual = [line.rstrip() for line in actual]
    while actual and not actual[-1]:
        actual.pop()
    segments = [[]]
    for line in expected:
        if line == "...":
            segments.append([])
        else:
            segments[-1].append(line)
    if len(segments) == 1:
        return actual == segments[0]
    first, *middle, last = segments
    if actual[: len(first)] != first:
        return False
    pos, stop = len(first), len(actual) - len(last)
    if stop < pos or actual[stop:] != last:
        return False
    for segment in middle:
        found = next(
            (
                j
                for j in range(pos, stop - len(segment) + 1)
                if actual[j : j + len(segment)] == segment
            ),
            None,
        )
        if found is None:
            return False
        pos = found + len(segment)
    return True


def test_matches():
    assert matches(["a", "...", "c"], ["a", "b", "b", "c", ""])
    assert matches(["a", "...", "c", "...", "e"], ["a", "c", "d", "e"])
    assert matches(["a  ", "b"], ["a", "b  "])
    assert not matches(["a", "...", "c"], ["a", "b"])
    assert not matches(["a", "b"], ["a", "b", "c"])
    assert not matches(["...", "x", "..."], ["a", "b"])


def test_the_docs_have_console_examples():
    commands = {command.split()[1] for _, _, command, _ in EXAMPLES}
    assert {"shanten", "waits", "exact"} <= commands


@functools.cache
def run(command: str, tmp: str) -> str:
    env = dict(
        os.environ,
        COLUMNS="100",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    env.pop("FORCE_COLOR", None)
    out = subprocess.run(
        shlex.split(command), cwd=tmp, env=env, capture_output=True, text=True, timeout=900
    )
    if out.stdout.strip():  # an example of a command that works: it must exit 0
        assert out.returncode == 0, f"`{command}` exited {out.returncode}:\n{out.stderr}"
        return out.stdout
    assert out.returncode != 0, f"`{command}` printed nothing and exited 0"
    return out.stderr  # an example of an error: its one line on stderr


@pytest.mark.parametrize(
    "where, line, command, expected", EXAMPLES, ids=[f"{w}:{n}" for w, n, _, _ in EXAMPLES]
)
def test_console_example(where, line, command, expected, tmp_path_factory):
    tmp = tmp_path_factory.getbasetemp() / "console"
    tmp.mkdir(exist_ok=True)
    actual = run(command, str(tmp)).splitlines()
    assert matches(expected, actual), f"{where}:{line}: `{command}` printed\n" + "\n".join(actual)


# ---------------------------------------------------------------- the README and the API page


def test_readme_is_short_and_starts_with_the_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    blocks = re.findall(r"```(\w*)\n(.*?)\n```", text, flags=re.S)
    assert [body for _, body in blocks[:2]] == [
        "python3 -m venv .venv && .venv/bin/pip install -q uv && .venv/bin/uv pip install -q -e . "
        "&& .venv/bin/mjsim report",
        "python3 -m venv .venv && .venv/bin/pip install -q uv "
        "&& .venv/bin/uv pip install -q -e '.[test]' && .venv/bin/python -m pytest",
    ]


def test_readme_names_no_commit_and_no_date():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.findall(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b", text)
    assert not re.findall(r"\b20\d\d-\d\d-\d\d\b", text)


def test_api_page_lists_the_public_names():
    import mjsim

    listed = set(
        re.findall(
            r"^::: mjsim\.(\w+)$",
            (ROOT / "docs" / "api.md").read_text(encoding="utf-8"),
            flags=re.M,
        )
    )
    assert set(mjsim.__all__) <= listed


def defined_names(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
    return names


def test_paths_and_names_the_pages_cite_exist():
    """Every ``mjsim/...`` path and every ``mjsim.module.name`` of the README and the pages."""
    bad = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for path in set(re.findall(r"\bmjsim/[\w/]+(?:\.py|/)", text)):
            if not (ROOT / path).exists():
                bad.append(f"{page.name}: {path}")
        for dotted in set(re.findall(r"\bmjsim(?:\.\w+){2,}", text)):
            parts = dotted.split(".")
            for k in range(len(parts), 1, -1):
                base = ROOT.joinpath(*parts[:k])
                module = (
                    base.with_suffix(".py")
                    if base.with_suffix(".py").exists()
                    else (base / "__init__.py")
                )
                if module.exists():
                    if k < len(parts) and parts[k] not in defined_names(module):
                        bad.append(f"{page.name}: {dotted} ({parts[k]} not in {module.name})")
                    break
            else:
                bad.append(f"{page.name}: {dotted} (no such module)")
    assert not bad, "\n".join(sorted(bad))


def test_the_pages_build_strictly(tmp_path):
    """``mkdocs build --strict``: every link, page and API entry resolves."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert (tmp_path / "site" / "api" / "index.html").exists()


# ------------------------------------------------------- the Python examples of the pages

PYTHON_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """The fenced ``python`` blocks of ``page`` that hold ``>>>`` examples: (line, code)."""
    text = page.read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
        if ">>>" in m.group(1):
            found.append((text.count("\n", 0, m.start()) + 2, m.group(1)))
    return found


PYTHON_EXAMPLES = [(p.name, line, code) for p in PYTHON_PAGES for line, code in python_blocks(p)]


def test_the_pages_have_python_examples():
    assert {"README.md", "getting-started.md"} <= {name for name, _, _ in PYTHON_EXAMPLES}


@pytest.mark.parametrize(
    "where, line, code", PYTHON_EXAMPLES, ids=[f"{w}:{n}" for w, n, _ in PYTHON_EXAMPLES]
)
def test_python_example(where, line, code):
    """Each ``>>>`` block runs as a doctest, in a namespace of its own."""
    test = doctest.DocTestParser().get_doctest(code, {}, f"{where}:{line}", where, line)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
