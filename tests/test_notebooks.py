"""Every notebook in notebooks/ runs from top to bottom without a cell error, on a small
number of deals (``MJSIM_NB_DEALS``) or played hands (``MJSIM_NB_HANDS``; with a search
seat ``MJSIM_NB_SEARCH_HANDS``, Changsha only) and, where a notebook goes through every rule
set, a few of them (``MJSIM_NB_RULES``: a 起手胡 report and a Shanghai one; tests/test_atlas.py
checks a wildcard game's report and the committed atlas of every rule set), in a kernel
that is this interpreter; notebooks are kept without outputs so their diffs stay small.

The notebooks run one after another in one kernel, each in a namespace emptied first
(``%reset -f``) and its own folder: a kernel's start, numpy, pandas, matplotlib and mjsim's
imports and numba's cache loads are paid once, not once a notebook."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DEALS = "5000"
HANDS = "1000"
SEARCH_HANDS = "32"
RULES = "changsha,shanghai_qhp"
CELL_TIMEOUT = 300


#: the environment the notebooks run in (the kernel inherits it)
ENVIRONMENT = {
    "MJSIM_NB_DEALS": DEALS,
    "MJSIM_NB_HANDS": HANDS,
    "MJSIM_NB_SEARCH_HANDS": SEARCH_HANDS,
    "MJSIM_NB_RULES": RULES,
    "MJSIM_NB_SEARCH_RULES": "changsha",  # the search compiled in warm-up
    "MJSIM_NB_PLAYER_RULES": "changsha",  # the tuned player compiled in warm-up
}


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """One running ``python3`` kernel whose interpreter is ``sys.executable``, found first.

    A ``python3`` spec in the user's Jupyter folder could name another Python (without
    mjsim); one installed into a temporary prefix and put on ``JUPYTER_PATH`` wins.
    """
    from ipykernel.kernelspec import install

    prefix = tmp_path_factory.mktemp("jupyter")
    install(prefix=str(prefix), kernel_name="python3")
    data = prefix / "share" / "jupyter"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("JUPYTER_PATH", str(data))
        for name, value in ENVIRONMENT.items():
            mp.setenv(name, value)
        spec = KernelSpecManager().get_kernel_spec("python3")
        assert Path(spec.resource_dir).is_relative_to(data), spec.resource_dir
        assert spec.argv[0] == sys.executable, spec.argv
        km = AsyncKernelManager(kernel_name="python3")
        run_sync(km.start_kernel)(cwd=str(tmp_path_factory.mktemp("kernel")))
    try:
        yield km
    finally:
        run_sync(km.shutdown_kernel)(now=True)


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
def test_notebook_runs(path, tmp_path, kernel):
    nb = nbformat.read(path, as_version=4)
    fresh = f"%reset -f\nimport os as _os\n_os.chdir({str(tmp_path)!r})\ndel _os"
    nb.cells.insert(0, nbformat.v4.new_code_cell(fresh))
    client = NotebookClient(nb, km=kernel, timeout=CELL_TIMEOUT)
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
