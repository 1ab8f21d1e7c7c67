"""Every error dialkit raises derives from ``dialkit.errors.DialkitError`` and keeps the
built-in base it had (issue 49): one ``except`` catches them all, and an ``except
ValueError`` written before the base existed still catches what it caught."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from dialkit.errors import DialkitError, InputError

SOURCE = Path(__file__).resolve().parents[1] / "src" / "dialkit"
BUILT_IN = {"ValueError": ValueError, "LookupError": LookupError,
            "RuntimeError": RuntimeError, "OSError": OSError}


def _errors() -> list[tuple[str, str, list[str]]]:
    """(module, class, its written bases) of each class the source names ``...Error``
    and derives from an exception, read with ``ast`` so a new one is found unasked."""
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        module = ".".join(path.relative_to(SOURCE.parent).with_suffix("").parts)
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                bases = [ast.unparse(base) for base in node.bases]
                if not {"BaseModel", "contract.FieldError"} & set(bases):
                    found.append((module.removesuffix(".__init__"), node.name, bases))
    return found


ERRORS = _errors()


def test_the_source_has_the_errors_it_is_known_to_have() -> None:
    names = {name for _, name, _ in ERRORS}
    assert {"ApiError", "LeadFileError", "AuditInputError", "SignatureError",
            "AccessRefusedError", "CacheMissError", "LawDataError"} <= names
    assert len(ERRORS) > 30


@pytest.mark.parametrize(("module", "name", "bases"), ERRORS,
                         ids=[f"{m}.{n}" for m, n, _ in ERRORS])
def test_each_error_is_a_dialkit_error_and_keeps_its_built_in_base(
        module: str, name: str, bases: list[str]) -> None:
    error = getattr(importlib.import_module(module), name)
    assert issubclass(error, DialkitError), f"{module}.{name}"
    for base in bases:
        if base in BUILT_IN:
            assert issubclass(error, BUILT_IN[base]), f"{module}.{name}"
            assert error.__mro__.index(DialkitError) < error.__mro__.index(BUILT_IN[base])


def test_one_except_catches_a_lead_files_error_and_a_value_error_still_does(
        tmp_path: Path) -> None:
    import dialkit.leads

    for caught in (DialkitError, ValueError):
        with pytest.raises(caught, match="no-such-file.csv"):
            dialkit.leads.read(tmp_path / "no-such-file.csv")


@pytest.mark.parametrize(("module", "name", "bases"), ERRORS,
                         ids=[f"{m}.{n}" for m, n, _ in ERRORS])
def test_each_error_of_bad_input_is_an_input_error(module: str, name: str,
                                                   bases: list[str]) -> None:
    """The command line answers an ``InputError`` as bad input and anything else as its own
    bug (issue 61): an error of input that is a ``ValueError`` but no ``InputError`` would
    be told as a bug in dialkit."""
    error = getattr(importlib.import_module(module), name)
    assert issubclass(error, InputError) == issubclass(error, ValueError), f"{module}.{name}"


def _drawn() -> dict[str, str | None]:
    """Each class the tree in ``dialkit.errors``' docstring draws, and its drawn parent:
    a line ``    │    ├── Name`` is a child of the nearest line above one level up."""
    import dialkit.errors

    doc = dialkit.errors.__doc__ or ""
    tree = doc[doc.index("::"):].split("\n\n")[1]
    drawn: dict[str, str | None] = {}
    above: list[str] = []  # the last class drawn at each depth
    for line in tree.splitlines():
        found = re.match(r"    ((?:[│ ]    )*)([├└]── )?([A-Z]\w*Error)\b", line)
        if found is None:
            continue
        depth = len(found.group(1)) // 5 + (found.group(2) is not None)
        del above[depth:]
        drawn[found.group(3)] = above[-1] if above else None
        above.append(found.group(3))
    return drawn


def test_the_tree_in_dialkit_errors_draws_every_error_under_its_parent() -> None:
    """One error tree in one place (issue 63): every class dialkit defines is drawn, under
    the parent it has, and importable from ``dialkit.errors``."""
    import dialkit.errors

    for module, _, _ in ERRORS:
        importlib.import_module(module)

    def subclasses(of: type) -> set[type]:
        return {c for s in of.__subclasses__() for c in {s, *subclasses(s)}}

    every = {c for c in subclasses(DialkitError) if c.__module__.startswith("dialkit")}
    parents = {c.__name__: next(b.__name__ for b in c.__bases__ if issubclass(b, DialkitError))
               for c in every}
    assert _drawn() == {"DialkitError": None, **parents}
    assert {c.__name__ for c in every} <= set(dialkit.errors.__all__)
    assert all(getattr(dialkit.errors, c.__name__) is c for c in every)
