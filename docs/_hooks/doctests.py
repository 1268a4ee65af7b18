"""Griffe extension: render docstrings written for Sphinx and doctest as Markdown.

A run of ``>>>`` lines (and their output, up to a blank line) becomes a ``pycon`` code
block, and roles such as :func:`name` become inline code, so that mkdocstrings shows the
examples that ``pytest --doctest-modules`` runs.
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:func|mod|class|meth|attr|data|obj|exc):`~?([^`]+)`")


def markdown(text: str) -> str:
    out: list[str] = []
    block: list[str] = []
    for line in text.splitlines():
        if block and not line.strip():
            out += ["```pycon", *block, "```", ""]
            block = []
        elif block or line.lstrip().startswith(">>>"):
            block.append(line)
        else:
            out.append(ROLE.sub(r"``\1``", line))
    if block:
        out += ["```pycon", *block, "```"]
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_object(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
