"""Notebooks are product: each is saved without outputs, and runs under nbval in the test
command (``--nbval-lax`` in pyproject's addopts collects them from ``notebooks/``); the
funnel notebook's counts, deterministic on its pinned world, are checked here against
their expected output."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import nbformat
import pytest
from matplotlib.figure import Figure
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


CHARTED = ["lead_cleaning.ipynb", "compliance_audit.ipynb"]
MOST_LABELS = 24
"""Labelled ticks on an axis at most: about 20 categories, or the 24 hours of a day."""


def unreadable(figure: Figure) -> list[str]:
    """What a reader of ``figure`` would struggle with: an axes without a title or an
    axis label, more than :data:`MOST_LABELS` labels on an axis, labels that overlap.
    The figure is laid out as a draw lays it out, but nothing is painted: where a label
    stands and how wide it is are all the check reads (painting was a third of the draw:
    1.18 against 0.80 CPU-s for the two notebooks' figures)."""
    figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    found = []
    for ax in figure.axes:
        if ax.get_label() == "<colorbar>":
            continue
        if not ax.get_title() or not (ax.get_xlabel() or ax.get_ylabel()):
            found.append(f"axes without a title or an axis label: {ax.get_title()!r}")
        for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
            shown = [label for label in labels if label.get_text() and label.get_visible()]
            if len(shown) > MOST_LABELS:
                found.append(f"{len(shown)} labels on an axis of {ax.get_title()!r}")
            boxes = [label.get_window_extent(renderer) for label in shown]
            if any(a.overlaps(b) for n, a in enumerate(boxes) for b in boxes[n + 1:]):
                found.append(f"labels overlap on an axis of {ax.get_title()!r}")
    return found


@pytest.mark.parametrize("name", CHARTED)
def test_a_notebooks_charts_are_readable(name: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Each code cell run in this process (figures on Agg, ``plt.show`` a no-op), and
    every figure it leaves checked by :func:`unreadable`."""
    notebook = nbformat.read(NOTEBOOKS[[p.name for p in NOTEBOOKS].index(name)], as_version=4)
    monkeypatch.setenv("DIALKIT_OUTPUT_DIR", str(tmp_path))
    monkeypatch.setattr(plt, "show", lambda *args, **kwargs: None)
    namespace: dict[str, object] = {}
    found: dict[int, list[str]] = {}
    try:
        for n, cell in enumerate(notebook.cells):
            if cell.cell_type == "code":
                exec(compile(cell.source, f"{name} cell {n}", "exec"), namespace)
                problems = [problem for number in plt.get_fignums()
                            for problem in unreadable(plt.figure(number))]
                if problems:
                    found[n] = problems
                plt.close("all")
    finally:
        plt.close("all")
    assert found == {}
