"""Notebooks are product: each is saved without outputs, and runs under nbval in the test
command (``--nbval-lax`` in pyproject's addopts collects them from ``notebooks/``)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks() -> None:
    assert {"lead_cleaning.ipynb", "compliance_audit.ipynb"} <= {path.name for path in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_is_saved_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)
    assert notebook.cells[0].cell_type == "markdown"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_tells_its_story_between_the_cells(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds.count("markdown") >= len(kinds) // 3
