"""Notebooks are product: each is saved without outputs, and runs under nbval in the test
command (``--nbval-lax`` in pyproject's addopts collects them from ``notebooks/``); the
funnel notebook's counts, deterministic on its pinned world, are checked here against
their expected output."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHECKED = "# checked on every test run: tests/fixtures/"
"""The first line of a cell whose printed output must equal that fixture file: the
notebooks are saved without outputs, so the expected output lives beside the tests."""


def test_there_are_notebooks() -> None:
    assert {path.name for path in NOTEBOOKS} == {
        "lead_cleaning.ipynb", "compliance_audit.ipynb", "campaign_funnel.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_is_saved_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)
    assert notebook.cells[0].cell_type == "markdown"


def test_the_funnel_notebooks_checked_counts_are_the_expected_ones() -> None:
    path = NOTEBOOKS[[p.name for p in NOTEBOOKS].index("campaign_funnel.ipynb")]
    notebook = nbformat.read(path, as_version=4)
    checked = next(n for n, cell in enumerate(notebook.cells)
                   if cell.cell_type == "code" and cell.source.startswith(CHECKED))
    expected = FIXTURES / notebook.cells[checked].source.splitlines()[0].removeprefix(CHECKED)
    notebook.cells = notebook.cells[:checked + 1]  # what the counts rest on, and no more
    NotebookClient(notebook, timeout=120,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    printed = "".join(output.get("text", "") for output in notebook.cells[-1].outputs)
    assert printed == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_tells_its_story_between_the_cells(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds.count("markdown") >= len(kinds) // 3
