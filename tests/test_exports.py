"""The front doors: each public package lists exactly what it offers, sorted."""

from __future__ import annotations

import importlib
import inspect

import pytest

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
def test_every_public_class_and_function_is_listed(name: str) -> None:
    module = importlib.import_module(name)
    public = {
        attr for attr, value in vars(module).items()
        if not attr.startswith("_") and (inspect.isclass(value) or inspect.isfunction(value))
        and value.__module__.startswith("dialkit")
    }
    assert public <= set(module.__all__), public - set(module.__all__)
