"""Every error dialkit raises derives from ``dialkit.errors.DialkitError`` and keeps the
built-in base it had (issue 49): one ``except`` catches them all, and an ``except
ValueError`` written before the base existed still catches what it caught."""

from __future__ import annotations

import ast
import importlib
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
