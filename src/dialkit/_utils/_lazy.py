"""Package attributes imported when first used (PEP 562).

``import dialkit.leads`` used to import everything every function of the
package needs: pandas, pyarrow, ``phonenumbers``' geocoder, httpx through the
client. A package that lists its exports here imports each one's module on its
first use, so a notebook or a command pays only for what it calls
(``import dialkit.leads`` under 0.5 s).

A package names each export once, in its ``if TYPE_CHECKING:`` block, the imports
the type checker and the docs read (before, the same names were kept by hand in
that block, in ``__all__`` and in a map here). The map of which module holds each
export is read from that block on the first lookup, not at import, and
``tests/test_exports.py`` holds ``__all__`` equal to the names the package offers.
"""

from __future__ import annotations

import functools
import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


def exports(package: str, where: Mapping[str, str] | None = None, *,
            retired: Mapping[str, str] | None = None,
            ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A package's ``__getattr__`` and ``__dir__`` for its exports, each found in the
    module ``where`` names (relative to ``package``; by default the modules of the
    package's ``if TYPE_CHECKING:`` imports); an export named as its module's last part
    (``errors``: ``.errors``) is the module itself.

    ``retired`` names, with their modules, what left the package's public names but
    still works for one release: each use warns (``DeprecationWarning``), and ``dir()``
    leaves them out."""
    gone = dict(retired or {})

    @functools.cache
    def places() -> Mapping[str, str]:
        return where if where is not None else checked_imports(sys.modules[package])

    def __getattr__(name: str) -> Any:
        if name in gone:
            warnings.warn(f"{package}.{name} is internal and leaves {package} in the next "
                          "release; stop using it", DeprecationWarning,
                          stacklevel=2)
            return _load(package, gone[name], name)
        module_name = places().get(name)
        if module_name is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = _load(package, module_name, name)
        setattr(sys.modules[package], name, value)  # once: the next use is a plain lookup
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *places()})

    return __getattr__, __dir__


def _load(package: str, module_name: str, name: str) -> Any:
    """``name`` from the module ``module_name`` (relative to ``package``), or that module."""
    module = importlib.import_module(module_name, package)
    return module if module_name.rpartition(".")[2] == name else getattr(module, name)


def checked_imports(module: Any) -> dict[str, str]:
    """Each name a module's top-level ``if TYPE_CHECKING:`` block imports, with the
    module it comes from, as a relative name (``.._file_limits``) where it was one."""
    import ast  # here, not at import: ``import dialkit`` without ast is 5-8 ms quicker

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for each in node.body:
                if isinstance(each, ast.ImportFrom):
                    for alias in each.names:
                        source = "." * each.level + (each.module or alias.name)
                        found[alias.asname or alias.name] = source
    return found
