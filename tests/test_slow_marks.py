"""The ``slow`` mark: the root conftest's list names tests that exist, and marks them; the
longest modules, which it runs first, exist too."""

from __future__ import annotations

import importlib.util
import re
import tomllib
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


@pytest.mark.parametrize("path", _root_conftest().LONGEST_FIRST)
def test_each_of_the_longest_modules_exists(path: str) -> None:
    assert (ROOT / path).is_dir() if path.endswith("/") else (ROOT / path).is_file(), (
        f"{path} is gone: take it off conftest.py's LONGEST_FIRST")


class _Item:
    """What the collection hook reads and writes of a test item."""

    def __init__(self, nodeid: str) -> None:
        self.nodeid, self.marks = nodeid, []

    def add_marker(self, mark: pytest.MarkDecorator) -> None:
        self.marks.append(mark.name)


def test_the_longest_modules_run_first_and_the_rest_in_their_order() -> None:
    root = _root_conftest()
    first, second = root.LONGEST_FIRST[:2]
    ids = ["tests/test_bools.py::test_a", f"{second}::test_b", "tests/test_cli.py::test_c",
           "notebooks/lead_cleaning.ipynb::Cell 0_g", f"{first}::test_d", f"{second}::test_e",
           "tests/test_bools.py::test_f"]
    items = [_Item(nodeid) for nodeid in ids]
    root.pytest_collection_modifyitems(items)
    assert [item.nodeid.rsplit("_", 1)[1] for item in items] == list("dbegacf")


def test_xdist_hands_out_the_modules_in_that_order() -> None:
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))[
        "tool"]["pytest"]["ini_options"]["addopts"].split()
    assert {"--dist", "loadfile", "--no-loadscope-reorder"} <= set(addopts)
