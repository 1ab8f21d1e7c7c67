"""Where the ideas of issue 63's "one home per idea" row live: a count over the source of a
commit, by ``ast``, of each idea found outside its home.

- private ISO-time parsers outside ``_utils/_moments``: modules that call
  ``fromisoformat``, ``strptime`` or ``isoparse`` themselves;
- ``pd.to_datetime(..., utc=True)`` outside ``utc_times``: such calls, by module;
- private E.164 patterns outside ``contract/``: a name with ``E164`` in it bound to a
  compiled pattern, or a pattern text of a ``+`` and digits (``\\+[1-9]``, ``\\+\\d``);
- modules importing ``phonenumbers`` outside ``_phones``, ``_places`` and
  ``leads/_normalize`` (an import inside a function counts too);
- calling hours outside ``contract/``: a name with ``CALLING_HOURS`` in it bound to a
  value;
- error classes outside the error tree's modules (``errors.py``, ``_utils/_base_error.py``):
  a class named ``...Error`` deriving from an error.

Run: ``python3 benchmarks/homes.py [REV]`` (``HEAD`` by default), e.g. ``python3
benchmarks/homes.py 1469b38`` for issue 63's "before".
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator

ROOT = "src/dialkit/"
_PARSERS = {"fromisoformat", "strptime", "isoparse"}
_E164_TEXT = re.compile(r"\\\+(\[1-9\]|\\d|\[0-9\])")
"""A pattern text of a ``+`` then digits, as a regex writes it."""
PHONE_HOMES = ("_phones/", "_places/", "leads/_normalize/")


def _git(*arguments: str) -> str:
    return subprocess.run(["git", *arguments], capture_output=True, text=True,
                          check=True).stdout


def _named(node: ast.AST) -> str:
    """The last name of a call's function (``fromisoformat`` of ``datetime.fromisoformat``)."""
    func = node.func if isinstance(node, ast.Call) else node
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _bound(tree: ast.AST) -> Iterator[tuple[str, ast.expr]]:
    """Each name bound by an assignment, and its value."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    yield target.id, node.value
        elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
              and node.value is not None):
            yield node.target.id, node.value


def iso_parsers(tree: ast.AST, path: str) -> int:
    """Calls of an ISO-time parser of the standard library (or dateutil's)."""
    if path == ROOT + "_utils/_moments.py":
        return 0
    return sum(isinstance(n, ast.Call) and _named(n) in _PARSERS for n in ast.walk(tree))


def utc_to_datetime(tree: ast.AST, path: str) -> int:
    """``to_datetime(..., utc=True)`` calls outside a function named ``utc_times``."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "utc_times":
            inside.update(id(n) for n in ast.walk(node))
    return sum(isinstance(n, ast.Call) and _named(n) == "to_datetime" and id(n) not in inside
               and any(k.arg == "utc" and isinstance(k.value, ast.Constant) and k.value.value
                       is True for k in n.keywords) for n in ast.walk(tree))


def e164_patterns(tree: ast.AST, path: str) -> int:
    """Compiled patterns named for E.164, and pattern texts of a ``+`` and digits."""
    if path.startswith(ROOT + "contract/"):
        return 0
    compiled = sum("E164" in name.upper() and isinstance(value, ast.Call)
                   and _named(value) == "compile" for name, value in _bound(tree))
    texts = sum(isinstance(n, ast.Constant) and isinstance(n.value, str)
                and _E164_TEXT.search(n.value) is not None for n in ast.walk(tree))
    return compiled + texts


def phonenumbers_imports(tree: ast.AST, path: str) -> int:
    """1 where the module imports ``phonenumbers`` (or one of its modules)."""
    if path.removeprefix(ROOT).startswith(PHONE_HOMES):
        return 0
    for node in ast.walk(tree):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                 else [])
        if any(name.split(".")[0] == "phonenumbers" for name in names):
            return 1
    return 0


def calling_hours(tree: ast.AST, path: str) -> int:
    """Names of calling hours bound outside ``contract/`` (an import is no binding)."""
    if path.startswith(ROOT + "contract/"):
        return 0
    return sum("CALLING_HOURS" in name.upper() for name, _ in _bound(tree))


_ERROR_HOMES = (ROOT + "errors.py", ROOT + "_utils/_base_error.py")


def error_classes(tree: ast.AST, path: str) -> int:
    """Classes named ``...Error`` that derive from an error, outside the error tree's two
    modules (``errors.py``, the service's; ``_utils/_base_error.py``, the rest)."""
    if path in _ERROR_HOMES:
        return 0
    return sum(isinstance(node, ast.ClassDef) and node.name.endswith("Error")
               and any(_named(base).endswith(("Error", "Exception")) for base in node.bases)
               for node in ast.walk(tree))


ROWS: dict[str, Callable[[ast.AST, str], int]] = {
    "error classes outside errors.py and _utils/_base_error.py": error_classes,
    "private ISO-time parsers outside _utils/_moments (calls)": iso_parsers,
    "pd.to_datetime(..., utc=True) outside utc_times": utc_to_datetime,
    "private E.164 patterns outside contract/": e164_patterns,
    "modules importing phonenumbers outside _phones, _places, leads/_normalize":
        phonenumbers_imports,
    "calling hours bound outside contract/": calling_hours,
}
"""Each row of the table and what it counts in one module."""


def counted(rev: str) -> dict[str, Counter[str]]:
    """Per row, the count of each module of ``src/dialkit`` at ``rev`` (modules of 0 left
    out)."""
    found: dict[str, Counter[str]] = {row: Counter() for row in ROWS}
    for path in _git("ls-tree", "-r", "--name-only", rev, ROOT).split():
        if not path.endswith(".py"):
            continue
        tree = ast.parse(_git("show", f"{rev}:{path}"))
        for row, count in ROWS.items():
            if number := count(tree, path):
                found[row][path.removeprefix(ROOT)] = number
    return found


def main(argv: list[str]) -> None:
    rev = argv[0] if argv else "HEAD"
    print(f"Issue 63, one home per idea, at {_git('rev-parse', '--short', rev).strip()}:")
    for row, modules in counted(rev).items():
        print(f"\n{row}: {sum(modules.values())} in {len(modules)} modules")
        for module, number in sorted(modules.items()):
            print(f"    {module}: {number}")


if __name__ == "__main__":
    main(sys.argv[1:])
