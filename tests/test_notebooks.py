"""Every notebook in notebooks/ runs from top to bottom without a cell error, on a small
number of deals (``MJSIM_NB_DEALS``) or played hands (``MJSIM_NB_HANDS``; with a search
seat ``MJSIM_NB_SEARCH_HANDS``, Changsha only) and, where a notebook goes through every rule
set, a few of them (``MJSIM_NB_RULES``: a 起手胡 report, a wildcard deal report and a
Shanghai one; tests/test_atlas.py checks the committed atlas of every rule set), in a kernel
that is this interpreter; notebooks are kept without outputs so their diffs stay small."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DEALS = "5000"
HANDS = "1000"
SEARCH_HANDS = "32"
RULES = "changsha,hongzhong112,shanghai_qhp"  # hands played with a search seat (about 45 a second)
CELL_TIMEOUT = 300


@pytest.fixture(scope="module")
def python3_kernel(tmp_path_factory) -> str:
    """A ``python3`` kernelspec whose interpreter is ``sys.executable``, found first.

    A ``python3`` spec in the user's Jupyter folder could name another Python (without
    mjsim); one installed into a temporary prefix and put on ``JUPYTER_PATH`` wins.
    """
    from ipykernel.kernelspec import install

    prefix = tmp_path_factory.mktemp("jupyter")
    install(prefix=str(prefix), kernel_name="python3")
    data = prefix / "share" / "jupyter"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(data))
        spec = KernelSpecManager().get_kernel_spec("python3")
        assert Path(spec.resource_dir).is_relative_to(data), spec.resource_dir
        assert spec.argv[0] == sys.executable, spec.argv
        yield "python3"


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_saved_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.source[:60]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path, monkeypatch, python3_kernel):
    monkeypatch.setenv("MJSIM_NB_DEALS", DEALS)  # the kernel inherits the environment
    monkeypatch.setenv("MJSIM_NB_HANDS", HANDS)
    monkeypatch.setenv("MJSIM_NB_SEARCH_HANDS", SEARCH_HANDS)
    monkeypatch.setenv("MJSIM_NB_RULES", RULES)
    monkeypatch.setenv("MJSIM_NB_SEARCH_RULES", "changsha")  # the search compiled in warm-up
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name=python3_kernel,
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert not errors, errors
    assert all(cell.execution_count for cell in nb.cells if cell.cell_type == "code")
