"""The ``slow`` mark: the root conftest's list names tests that exist, and marks them."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _root_conftest() -> ModuleType:
    """The root conftest.py, loaded under a name of its own (``conftest`` is the tests')."""
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("entry", _root_conftest().SLOW)
def test_each_slow_entry_names_a_test_that_exists(entry: str) -> None:
    path, _, name = entry.partition("::")
    assert (ROOT / path).exists(), f"{path} is gone: take it off conftest.py's SLOW"
    if name:
        assert re.search(rf"^(async )?def {name}\(", (ROOT / path).read_text("utf-8"),
                         re.MULTILINE), f"{entry} is gone: take it off conftest.py's SLOW"


@pytest.mark.parametrize("nodeid, slow", [
    ("tests/test_demo.py::test_the_demo_writes_each_notebook_its_files_and_an_index", True),
    ("notebooks/lead_cleaning.ipynb::Cell 3", True),
    ("tests/leads/test_normalize.py::test_any_cell_gets_one_row_and_nothing_else", True),
    ("tests/frames/test_refresh.py::test_an_incremental_refresh_fetches_only_the_new_pages"
     "[nothing-new]", True),
    ("tests/leads/test_normalize.py::test_any_cell_gets_one_row_and_nothing_else_quickly", False),
    ("tests/test_demo_pages.py::test_x", False),
    ("tests/leads/test_read.py::test_a_csv_is_read", False),
])
def test_a_listed_module_test_or_folder_is_slow_and_nothing_else(nodeid: str,
                                                                 slow: bool) -> None:
    assert _root_conftest().is_slow(nodeid) is slow
