"""The compliance package by stage (issue 63; docs/design.md): the rules, then what an audit
reads, then the checks, then what it hands on, then the audit run itself (``_rows``,
``_part``, ``_run``, ``_entry``), then what runs on it (the law judged ahead, the audit on
Dask, the audit kept as the calls happen: ``_live``), and last what the command line runs
(its choices read, ``_command_choices``, then ``_command_runs``, and the monitor the
``watch`` command runs, ``_command_monitor``). A stage imports only the
stages before it and itself: the data go one way, none back up; and no two modules of the
package import each other, even for the type checker alone."""

from __future__ import annotations

import pytest

from test_layers import SRC, Import, cycles, imports

PACKAGE = "dialkit.compliance"
STAGES = ("_rules", "_inputs", "_checks", "_report", "", "_ahead", "_dask", "_live",
          "_command_choices", "_command_runs", "_command_monitor")
"""The stages in order; ``""``: the audit run's own modules at the package's top (``_rows``,
``_part``, ``_run``, ``_entry``); last, what the commands run: their choices read as plain
values (``_command_choices``), then the runs (``_command_runs``), which ask them all."""
DISPATCH = Import("dialkit.compliance._entry", "audit", "dialkit.compliance._dask._audit", 0)
"""The one import forward: ``audit`` hands a Dask input to the Dask stage, on its first use,
which runs the audit's own functions on each partition."""


def stage_of(module: str) -> int | None:
    """The stage of a module of the package (None: the package itself, which names all)."""
    if module == PACKAGE:
        return None
    part = module.removeprefix(f"{PACKAGE}.").split(".")
    return STAGES.index(part[0] if len(part) > 1 or part[0] in STAGES else "")


def backwards(found: list[Import]) -> list[str]:
    """Each import by a compliance module of a module of a later stage, naming both."""
    said = []
    for each in found:
        if not (each.importer.startswith(f"{PACKAGE}.")
                and each.imported.startswith(f"{PACKAGE}.")):
            continue
        if (each.importer, each.scope, each.imported) == (
                DISPATCH.importer, DISPATCH.scope, DISPATCH.imported):
            continue
        mine, theirs = stage_of(each.importer), stage_of(each.imported)
        if mine is not None and theirs is not None and theirs > mine:
            said.append(f"{each.importer} imports {each.imported}: a stage imports only the "
                        f"stages before it ({', '.join(s or 'the top' for s in STAGES)})")
    return said


def test_no_compliance_stage_imports_a_later_one() -> None:
    assert (SRC / "compliance" / "_checks").is_dir()
    assert backwards(imports(SRC, typing=True)) == []


def test_no_compliance_modules_import_each_other() -> None:
    """No cycle inside the package, counting an import in a function and one under
    ``if TYPE_CHECKING:``: a name the type checker reads is a dependence too (the report's
    plots named the report in the module that also ran the audit, and read back into it)."""
    ours = [each for each in imports(SRC, typing=True)
            if each.importer.startswith(f"{PACKAGE}.") and each.imported.startswith(f"{PACKAGE}.")]
    assert cycles(ours, excused=set()) == []


@pytest.mark.parametrize("importer, imported, broken", [
    ("dialkit.compliance._rules._address_clock", "dialkit.compliance._checks._findings", 1),
    ("dialkit.compliance._inputs._load", "dialkit.compliance._checks._dnc", 1),
    ("dialkit.compliance._checks._hours", "dialkit.compliance._report._text", 1),
    ("dialkit.compliance._run", "dialkit.compliance._ahead._when", 1),
    ("dialkit.compliance._checks._ring", "dialkit.compliance._rows", 1),
    ("dialkit.compliance._report._plots", "dialkit.compliance._run", 1),
    ("dialkit.compliance._inputs._prepared", "dialkit.compliance._checks._findings", 1),
    ("dialkit.compliance._run", "dialkit.compliance._report._audit_report", 0),
    ("dialkit.compliance._checks._dnc", "dialkit.compliance._rules._place_law", 0),
    ("dialkit.compliance._ahead._when_past", "dialkit.compliance._part", 0),
    ("dialkit.compliance", "dialkit.compliance._ahead._judge", 0),
    ("dialkit.compliance._command_runs", "dialkit.compliance._ahead._when", 0),
    ("dialkit.compliance._ahead._when", "dialkit.compliance._command_runs", 1),
    ("dialkit.compliance._command_runs", "dialkit.compliance._command_choices", 0),
    ("dialkit.compliance._command_choices", "dialkit.compliance._command_runs", 1),
])
def test_an_import_back_up_is_named(importer: str, imported: str, broken: int) -> None:
    said = backwards([Import(importer, "", imported, 1)])
    assert len(said) == broken
    assert all(each.startswith(f"{importer} imports {imported}: ") for each in said)
