"""The explorer in a plain ``jupyter nbconvert --execute --to html`` (issue 48): the
notebook run by nbclient, which saves the widget's state, then exported by nbconvert's
HTMLExporter as configured by default, which then shows the widget, and could only
draw it with a renderer loaded from a CDN. Offline, the page must still show the
explorer: its view as HTML, the output after the widget's.

One kernel starts (about 5 s): the export of a notebook that ran is what is tested.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pandas as pd
import pytest
from bs4 import BeautifulSoup
from nbclient import NotebookClient
from nbconvert import HTMLExporter
from test_known import account

from browser import Browser, chromium
from dialkit.analytics import Explorer
from dialkit.analytics._plots._explore import BESIDE_A_WIDGET, STATIC_NOTE

CELL = """import pandas as pd
import dialkit.analytics as analytics

analytics.explore(pd.read_pickle({path!r}))"""
ALTS = {"The funnel: leads at each stage", "Answer rates by local hour and weekday",
        "Dispositions per campaign", "Attempts until a lead was reached"}
SHOWN = """(() => {
  const view = document.querySelector(".dialkit-explorer");
  return {height: view.getBoundingClientRect().height, text: view.innerText,
          images: [...view.querySelectorAll("img")].filter(
            i => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().height > 0)
            .length};
})()"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of a notebook that runs ``analytics.explore``, executed and exported as
    ``jupyter nbconvert --execute --to html`` does, with nothing configured."""
    folder = tmp_path_factory.mktemp("export")
    frames = folder / "frames.pkl"
    pd.to_pickle(account(), frames)
    notebook = nbformat.v4.new_notebook(cells=[  # type: ignore[no-untyped-call]
        nbformat.v4.new_code_cell(CELL.format(path=str(frames)))])  # type: ignore[no-untyped-call]
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(folder)}}).execute()
    assert "widgets" in notebook.metadata  # the state nbconvert draws the widget from
    page = folder / "explore.html"
    page.write_text(HTMLExporter().from_notebook_node(notebook)[0],  # type: ignore[no-untyped-call]
                    encoding="utf-8")
    return page


def test_a_plain_export_shows_the_explorers_view(exported: Path) -> None:
    soup = BeautifulSoup(exported.read_text("utf-8"), "html.parser")
    for hidden in soup(["script", "style"]):
        hidden.decompose()  # the widget's saved state is a script: not shown
    view = soup.select_one(".dialkit-explorer")
    assert view is not None
    assert "all campaigns" in view.get_text() and "2 campaigns" in view.get_text()
    assert {image["alt"] for image in view.select("img")} == ALTS
    assert STATIC_NOTE not in soup.get_text()  # nbconvert drew the widget's place


def test_in_a_browser_offline_the_explorers_view_is_visible(exported: Path,
                                                           tmp_path: Path) -> None:
    binary = chromium()
    if binary is None:
        pytest.skip("no chromium on PATH: install Debian's chromium package "
                    "(python3 tasks.py test does so when it runs as root on Debian)")
    browser = Browser(binary)
    try:
        seen = browser.look(exported, SHOWN, tmp_path / "explore.png")
    finally:
        browser.close()
    assert seen["height"] > 300 and seen["images"] == len(ALTS)
    assert "all campaigns" in seen["text"]


def test_where_the_widget_is_drawn_its_view_as_html_hides_itself() -> None:
    widget, static = Explorer(account()).outputs()
    assert "application/vnd.jupyter.widget-view+json" in widget
    assert widget["text/plain"] == STATIC_NOTE
    assert static["text/html"].startswith(f"<style>{BESIDE_A_WIDGET}</style>")
    assert ":has(.widget-vbox)" in BESIDE_A_WIDGET
