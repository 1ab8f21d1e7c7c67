"""Notebooks are product: each is saved without outputs, and runs under nbval in the test
command (``--nbval-lax`` in pyproject's addopts collects them from ``notebooks/``)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


CHECKED = "# NBVAL_CHECK_OUTPUT"
"""The first line of a cell whose saved output nbval compares with the output of a run."""


def test_there_are_notebooks() -> None:
    assert {path.name for path in NOTEBOOKS} == {
        "lead_cleaning.ipynb", "compliance_audit.ipynb", "campaign_funnel.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_is_saved_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    unchecked = [cell for cell in code if not cell.source.startswith(CHECKED)]
    assert unchecked and all(not cell.outputs and cell.execution_count is None
                             for cell in unchecked)
    assert notebook.cells[0].cell_type == "markdown"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_checked_cell_holds_the_output_it_is_checked_against(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    checked = [cell for cell in notebook.cells
               if cell.cell_type == "code" and cell.source.startswith(CHECKED)]
    assert all(cell.outputs and cell.execution_count for cell in checked)  # as nbval wants
    assert all(output.get("output_type") != "error" for cell in checked
               for output in cell.outputs)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_tells_its_story_between_the_cells(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds.count("markdown") >= len(kinds) // 3
