"""Package attributes imported when first used (PEP 562).

``import dialkit.leads`` used to import everything every function of the
package needs: pandas, pyarrow, ``phonenumbers``' geocoder, httpx through the
client. A package that lists its exports here imports each one's module on its
first use, so a notebook or a command pays only for what it calls (issue 21:
``import dialkit.leads`` under 0.5 s).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def exports(package: str, where: Mapping[str, str]
            ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for its exports, each found in the
    module ``where`` names (relative to ``package``); an export named as its module's
    last part (``errors``: ``.errors``) is the module itself."""

    def __getattr__(name: str) -> Any:
        module_name = where.get(name)
        if module_name is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(module_name, package)
        value = module if module_name.rpartition(".")[2] == name else getattr(module, name)
        setattr(sys.modules[package], name, value)  # once: the next use is a plain lookup
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__
