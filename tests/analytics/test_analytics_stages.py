"""The analytics' stages (issue 63; docs/design.md): the measures at the package's top read
their frames from ``_inputs/`` and are shown by ``_plots/``. What the measures read
imports no measure and no plot, and no measure imports a plot."""

from __future__ import annotations

from pathlib import Path

import pytest

import dialkit.analytics
from test_layers import SRC, Import, imports

INPUTS, PLOTS = "dialkit.analytics._inputs", "dialkit.analytics._plots"


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def against_the_stages(found: list[Import]) -> list[str]:
    """Each import of an analytics module against the stages, naming both modules."""
    said = []
    for each in found:
        if not _within(each.importer, "dialkit.analytics"):
            continue
        if (_within(each.importer, INPUTS) and _within(each.imported, "dialkit.analytics")
                and not _within(each.imported, INPUTS)):
            said.append(f"{each.importer} imports {each.imported}: _inputs reads frames only")
        if (_within(each.imported, PLOTS) and not _within(each.importer, PLOTS)
                and each.importer != "dialkit.analytics"):
            said.append(f"{each.importer} imports {each.imported}: only the package shows "
                        "its plots")
    return said


def test_the_analytics_keep_their_stages() -> None:
    assert Path(dialkit.analytics.__file__).parent == SRC / "analytics"
    assert against_the_stages(imports(SRC)) == []


@pytest.mark.parametrize("importer, imported, broken", [
    ("dialkit.analytics._inputs._match", "dialkit.analytics._funnel", 1),
    ("dialkit.analytics._rates", "dialkit.analytics._plots._explore", 1),
    ("dialkit.analytics._inputs._load", "dialkit.analytics._plots._plots", 2),
    ("dialkit.analytics._inputs._local", "dialkit.analytics._inputs._match", 0),
    ("dialkit.analytics", "dialkit.analytics._plots._explore", 0),
])
def test_an_import_against_the_stages_is_named(importer: str, imported: str,
                                               broken: int) -> None:
    said = against_the_stages([Import(importer, "", imported, 1)])
    assert len(said) == broken
    assert all(each.startswith(f"{importer} imports {imported}: ") for each in said)
