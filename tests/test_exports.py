"""The front doors: each public package lists exactly what it offers, sorted."""

from __future__ import annotations

import importlib
import inspect
import typing
from typing import Any, Literal, Union

import pytest

from dialkit._parallel._partitions import Lazy
from dialkit._utils._lazy import checked_imports

PUBLIC_PACKAGES = ["dialkit", "dialkit.client", "dialkit.contract", "dialkit.errors",
                   "dialkit.frames", "dialkit.leads", "dialkit.sandbox", "dialkit.compliance",
                   "dialkit.analytics", "dialkit.mcp", "dialkit.webhooks"]


@pytest.mark.parametrize("name", PUBLIC_PACKAGES)
def test_all_is_sorted_and_importable(name: str) -> None:
    module = importlib.import_module(name)
    assert list(module.__all__) == sorted(module.__all__)
    for member in module.__all__:
        assert hasattr(module, member), f"{name}.{member} is listed but missing"


@pytest.mark.parametrize("name", PUBLIC_PACKAGES)
def test_every_public_name_is_listed(name: str) -> None:
    """``__all__`` lists every name a package offers (in a module, every class and
    function of dialkit's), the constants it imports too, and the exports of its ``if
    TYPE_CHECKING:`` imports, the one place a lazy package names them
    (:mod:`dialkit._utils._lazy` reads the module of each from there)."""
    module = importlib.import_module(name)
    package = module.__file__ is not None and module.__file__.endswith("__init__.py")
    public = {attr for attr, value in vars(module).items()
              if not attr.startswith("_") and not inspect.ismodule(value)
              and attr != "TYPE_CHECKING"
              and (package or getattr(value, "__module__", "").startswith("dialkit"))}
    assert public <= set(module.__all__), public - set(module.__all__)
    assert set(checked_imports(module)) <= set(module.__all__)


def _functions_with_compute() -> list[Any]:
    """Every exported function whose answer depends on ``compute`` (a Dask answer or not)."""
    found = []
    for name in PUBLIC_PACKAGES:
        module = importlib.import_module(name)
        for member in module.__all__:
            value = getattr(module, member)
            if inspect.isfunction(value) and "compute" in inspect.signature(value).parameters:
                found.append(value)
    return found


def test_compute_false_is_typed_as_its_lazy_answer() -> None:
    """A function whose ``compute=False`` answers Dask's lazy object says so in its
    overloads (issue 49): ``compute=True`` (the default) gives the answer itself, any
    other ``compute`` the answer or :class:`~dialkit._parallel._partitions.Lazy` of it."""
    functions = _functions_with_compute()
    assert {f.__name__ for f in functions} >= {"audit", "funnel", "answer_rates"}
    for function in functions:
        eager, either = (typing.get_type_hints(overload)
                         for overload in typing.get_overloads(function))
        assert eager["compute"] == Literal[True] and either["compute"] is bool, function
        assert Lazy not in _parts(eager["return"]), function
        assert Lazy[eager["return"]] in _parts(either["return"]), function
        assert typing.get_type_hints(function)["return"] == either["return"], function


def _parts(hint: Any) -> set[Any]:
    return set(typing.get_args(hint)) if typing.get_origin(hint) is Union else {hint}


RETIRED = [("dialkit.frames", "watched"), ("dialkit.frames", "windows"),
           ("dialkit.client", "TokenBucket"),
           ("dialkit.mcp", "allowed"), ("dialkit.mcp", "derived_key")]
"""Internal helpers that were public names until issue 49: they work, and warn, for a
release."""


@pytest.mark.parametrize(("name", "member"), RETIRED)
def test_a_retired_name_still_works_and_warns(name: str, member: str) -> None:
    module = importlib.import_module(name)
    assert member not in module.__all__ and member not in dir(module)
    with pytest.warns(DeprecationWarning, match=rf"{name}\.{member} is internal"):
        found = getattr(module, member)
    assert callable(found) and any(part.startswith("_") for part in found.__module__.split("."))
