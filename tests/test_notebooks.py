"""Notebooks are product: each is saved without outputs, and runs under nbval in the test
command (``--nbval-lax`` in pyproject's addopts collects them from ``notebooks/``); the
funnel notebook's counts, deterministic on its pinned world, are checked here against
their expected output."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import nbformat
import pytest
from matplotlib.figure import Figure

from dialkit._demo._run import demo_config
from dialkit.sandbox import attach_environment, start

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CHECKED = "# checked on every test run: tests/fixtures/"
"""The first line of a cell whose printed output must equal that fixture file: the
notebooks are saved without outputs, so the expected output lives beside the tests."""


def test_there_are_notebooks() -> None:
    assert {path.name for path in NOTEBOOKS} == {
        "lead_cleaning.ipynb", "compliance_audit.ipynb", "campaign_funnel.ipynb",
        "live_compliance.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_is_saved_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(not cell.outputs and cell.execution_count is None for cell in code)
    assert notebook.cells[0].cell_type == "markdown"


def test_the_funnel_notebooks_checked_counts_are_the_expected_ones() -> None:
    """The cells up to the checked one, on the notebook's own pinned emulator, run in this
    process as the charts' below: a kernel of their own would add only its start and
    imports, and nbval runs the whole notebook in one."""
    path = NOTEBOOKS[[p.name for p in NOTEBOOKS].index("campaign_funnel.ipynb")]
    notebook = nbformat.read(path, as_version=4)
    checked = next(n for n, cell in enumerate(notebook.cells)
                   if cell.cell_type == "code" and cell.source.startswith(CHECKED))
    expected = FIXTURES / notebook.cells[checked].source.splitlines()[0].removeprefix(CHECKED)
    namespace: dict[str, Any] = {}
    try:  # what the counts rest on, and no more, in this process (nbval runs a kernel)
        for n, cell in enumerate(notebook.cells[:checked]):
            if cell.cell_type == "code":
                exec(compile(cell.source, f"{path.name} cell {n}", "exec"), namespace)
        with redirect_stdout(io.StringIO()) as printed:
            exec(compile(notebook.cells[checked].source, f"{path.name} cell {checked}", "exec"),
                 namespace)
    finally:
        if "client" in namespace:  # the pinned emulator it started
            namespace["client"].close()
    assert printed.getvalue() == expected.read_text(encoding="utf-8")


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


@pytest.fixture(scope="module")
def demo_world() -> Iterator[dict[str, str]]:
    """The variables that attach a notebook's ``dialkit.Client.sandbox()`` to one emulator
    of the demo's world, as ``dialkit demo`` runs the notebooks: pinned (the same charts
    on every run), rate limiting off, built once for both notebooks. Each notebook
    starting its own emulator, at the service's 10 requests a second, is still run: by
    nbval, and the funnel's counts below."""
    with start(demo_config("small")) as emulator:
        yield attach_environment(emulator)


@pytest.mark.parametrize("name", CHARTED)
def test_a_notebooks_charts_are_readable(name: str, tmp_path: Path, demo_world: dict[str, str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Each code cell run in this process (figures on Agg, ``plt.show`` a no-op) against
    the demo's world, and every figure it leaves checked by :func:`unreadable`."""
    notebook = nbformat.read(NOTEBOOKS[[p.name for p in NOTEBOOKS].index(name)], as_version=4)
    for variable, value in demo_world.items():
        monkeypatch.setenv(variable, value)
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
