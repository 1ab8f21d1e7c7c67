"""Every Python block of ``docs/*.md`` runs as written, as the README's do.

A page's blocks run in order in one namespace (a reader pastes them into one session,
whose ``__name__`` is ``"__main__"``, as a script's: a block under ``if __name__ ==
"__main__":`` runs),
in an empty folder of the test's, in the environment the pages assume a reader has:
``DIALKIT_API_KEY`` and ``DIALKIT_BASE_URL`` naming an emulator (the session's), a
``DIALKIT_WEBHOOK_SECRETS``, and a lead file ``vendor.csv`` (the sample
``messy_us.csv``). ``dialkit.Client.sandbox()`` starts its own emulator, as it does for
the reader. A block marked ``<!-- not run: reason -->`` is skipped, saying the reason.
"""

from __future__ import annotations

import gc
import shutil
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest

from conftest import KEYS
from dialkit import Client, samples
from dialkit.sandbox import Sandbox
from doc_blocks import ROOT, Block, python_blocks, run

PAGES = sorted(path for path in (ROOT / "docs").glob("*.md") if python_blocks(path))


@pytest.fixture
def reader(sandbox: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder and environment a reader of the docs runs their blocks in."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(samples.path("messy_us.csv"), tmp_path / "vendor.csv")
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", "whsec_new,whsec_old")


def _open_clients() -> dict[int, Client]:
    """Every dialkit client alive in the process, by id."""
    return {id(each): each for each in gc.get_objects() if isinstance(each, Client)}


def _run_page(blocks: list[Block]) -> list[str]:
    """Run a page's blocks in order; the reasons of those not run. Every client the page
    made is closed after it, those it no longer names too (``client = dialkit.Client()``
    then ``client = dialkit.Client.sandbox()``): one left to the garbage collector would
    warn of an unclosed socket in whichever test runs then."""
    namespace: dict[str, Any] = {"__name__": "__main__"}  # as in a session or a script
    skipped = []
    before = _open_clients()
    try:
        for block in blocks:
            if block.not_run is None:
                run(block, namespace)
            else:
                skipped.append(f"{block}: {block.not_run}")
    finally:
        for key, made in _open_clients().items():
            if key not in before:
                made.close()
        plt.close("all")
    return skipped


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.name)
@pytest.mark.usefixtures("reader")
def test_every_python_block_of_the_page_runs(page: Path) -> None:
    blocks = python_blocks(page)
    skipped = _run_page(blocks)
    assert len(skipped) < len(blocks), f"{page.name}: every block is marked not run"


def test_a_block_that_fails_names_its_page_and_line(tmp_path: Path) -> None:
    page = tmp_path / "failing.md"
    page.write_text("# A page\n\n```python\nx = 1\n\n1 / 0\n```\n", "utf-8")
    with pytest.raises(ZeroDivisionError) as raised:
        run(python_blocks(page)[0], {})
    assert raised.traceback[-1].path == page and raised.traceback[-1].lineno + 1 == 6


def test_blocks_marked_not_run_are_told_apart_and_sessions_are_checked(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("## One\n\n<!-- not run: a fragment -->\n```python\nreturn 1\n```\n\n"
                    "```python\n>>> 1 + 1\n3\n```\n\n## Two\n\n```python\nawait f()\n```\n",
                    "utf-8")
    fragment, session = python_blocks(page, "One")
    assert (fragment.not_run, session.not_run, session.line) == ("a fragment", None, 9)
    # the lines as doctest reports them; pytest may indent an assertion's message further
    with pytest.raises(AssertionError, match=r"Expected:\n\s+3\n\s*Got:\n\s+2"):
        run(session, {})
    (awaiting,) = python_blocks(page, "Two")
    done: list[int] = []

    async def f() -> None:
        done.append(1)
    run(awaiting, {"f": f})
    assert done == [1]
