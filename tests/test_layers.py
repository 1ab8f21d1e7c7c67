"""The import contract (issue 24; docs/design.md's layers), read from the source with ``ast``.

Layers, each importing only the layers above it::

    1  shared helpers   dialkit/_utils/ (_lazy, _net, _secrets, ...), dialkit/_files/,
                        dialkit/_shown/, dialkit/_parallel/, dialkit/_arrays/,
                        dialkit/_phones/, dialkit/_places/ and dialkit/_law/
    2  contract         dialkit.contract, dialkit.errors
    3  guarding         dialkit/_guarding/ (what the client's guard and its judge exchange)
    4  client
    5  frames
    6  leads | compliance | analytics | webhooks   (side by side: none imports another)
    7  application      dialkit.cli, dialkit._demo, dialkit.samples, the dialkit package
                        and its ``__main__``

The ground floor is one-way (issue 72): the shared helpers import only the standard
library, third-party packages and each other, nothing of the contract; the contract may
import them. Beside the layers: ``mcp`` imports only the contract and the shared helpers
(it takes an executor); ``sandbox`` only those and ``mcp``; and no module outside the
sandbox imports it but through its public ``dialkit.sandbox``, and then only
``Client.sandbox()``, the demo and the CLI. The one exception is :data:`ALLOWED`: the
client names for the type checker the emulator ``Client.sandbox()`` starts. Neither the
guard's judge nor ``client.frames`` is an exception: the client declares what it knows of
each (the judge's interface, the frames' methods) and the ``dialkit`` package wires the
compliance layer's judge and the frames layer's loading in (``dialkit/_utils/_wiring.py``).

An import counts wherever it is written, in a function too, and under
``if TYPE_CHECKING:`` too (issue 72): a name the type checker reads is a dependence, so no
module names a layer it may not import even for the type checker. The cycles are counted
the same way, every import of the three kinds (a module's top, ``TYPE_CHECKING``, a
function), none excused, and no two modules import each other, directly or round a longer
cycle.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import dialkit

SRC = Path(dialkit.__file__).parent
PACKAGE = "dialkit"

TOOLKIT = ("leads", "compliance", "analytics", "webhooks")
TYPING = "TYPE_CHECKING"
"""The scope of an import under ``if TYPE_CHECKING:`` (at a module's top)."""
BELOW_CLIENT = {"shared", "contract", "guarding"}
MAY_IMPORT = {
    "shared": {"shared"},
    "contract": {"shared", "contract"},
    "guarding": {"shared", "contract", "guarding"},
    "client": BELOW_CLIENT | {"client"},
    "frames": BELOW_CLIENT | {"client", "frames"},
    **{package: BELOW_CLIENT | {"client", "frames", package} for package in TOOLKIT},
    "mcp": {"shared", "contract", "mcp"},
    "sandbox": {"shared", "contract", "mcp", "sandbox"},
    "application": BELOW_CLIENT | {"client", "frames", *TOOLKIT, "mcp", "sandbox",
                                   "application"},
}
"""Which layers each layer's modules may import."""
SANDBOX_USERS = {"application": "", "client": "Client.sandbox"}
"""Who may import the public ``dialkit.sandbox``, from where (``""``: anywhere in it)."""
ALLOWED = {("dialkit.client._client", TYPING, "dialkit.sandbox")}
"""The imports against the layers: the client names for the type checker the emulator
``Client.sandbox()`` starts (``Sandbox``, ``RemoteSandbox``, ``SandboxConfig``), which
imports nothing of the client."""

@dataclass(frozen=True)
class Import:
    """One import of one module of the package by another, where it is written."""

    importer: str
    scope: str
    """The def or class it is written in (``Client.frames``); ``""``: the module's body;
    :data:`TYPING`: under ``if TYPE_CHECKING:``."""
    imported: str
    line: int

    @property
    def typing(self) -> bool:
        """Whether only the type checker runs it."""
        return self.scope.endswith(TYPING)


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by its dotted name (a package by its own)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = [PACKAGE, *path.relative_to(root).with_suffix("").parts]
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(root: Path, *, typing: bool = False) -> list[Import]:
    """The package's imports of its own modules; with ``typing``, those under
    ``if TYPE_CHECKING:`` too (their scope :data:`TYPING`)."""
    known = modules(root)
    found: list[Import] = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        base = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found += [Import(name, scope, target, node.lineno)
                  for node, scope in _import_nodes(tree.body, "")
                  for target in _targets(node, base, known)
                  if typing or not scope.endswith(TYPING)]
    return list(dict.fromkeys(found))  # one per module a statement imports


def _import_nodes(body: Iterable[ast.stmt], scope: str) -> Iterator[tuple[ast.stmt, str]]:
    """The import statements of ``body`` and every block inside it, with their scope."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, scope
        elif isinstance(node, ast.If) and _type_checking(node.test):
            yield from _import_nodes(node.body, f"{scope}.{TYPING}".lstrip("."))
            yield from _import_nodes(node.orelse, scope)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield from _import_nodes(node.body, f"{scope}.{node.name}".lstrip("."))
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(node, field, [])
                for block in inner:
                    yield from _import_nodes(
                        block.body if isinstance(block, ast.excepthandler | ast.match_case)
                        else [block], scope)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(node: ast.stmt, base: str, known: dict[str, Path]) -> list[str]:
    """The package's modules an import statement imports (``from x import y``: ``x.y``
    where that is a module, else ``x``)."""
    if isinstance(node, ast.Import):
        return [_module(alias.name, known) for alias in node.names
                if alias.name.split(".")[0] == PACKAGE]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        parts = base.split(".")
        source = ".".join(parts[:len(parts) - node.level + 1] + [node.module or ""]).rstrip(".")
    else:
        source = node.module or ""
    if source.split(".")[0] != PACKAGE:
        return []
    return [f"{source}.{alias.name}" if f"{source}.{alias.name}" in known
            else _module(source, known) for alias in node.names]


def _module(name: str, known: dict[str, Path]) -> str:
    """The longest known module ``name`` starts with."""
    while name not in known and "." in name:
        name = name.rpartition(".")[0]
    return name


def layer_of(module: str) -> str:
    """The layer of a module of the package, by its name."""
    top = (module.split(".") + [""])[1]
    if top in ("contract", "errors"):
        return "contract"
    if top == "_guarding":
        return "guarding"
    if top in ("client", "frames", "mcp", "sandbox", *TOOLKIT):
        return top
    if top in ("", "cli", "samples", "__main__", "_demo"):
        return "application"
    if top.startswith("_"):
        return "shared"
    raise AssertionError(f"{module} is in no layer of the import contract: place it in "
                         "tests/test_layers.py (layer_of) and docs/design.md")


def breaches(found: Iterable[Import]) -> list[str]:
    """Each import against the contract, as a sentence naming both modules and the rule."""
    said = []
    for each in found:
        rule = _broken_rule(each)
        if rule and (each.importer, each.scope, each.imported) not in ALLOWED:
            where = (" (under TYPE_CHECKING)" if each.typing
                     else f" (in {each.scope})" if each.scope else "")
            said.append(f"{each.importer} line {each.line}{where} imports {each.imported}: "
                        f"{rule}")
    return said


def _broken_rule(each: Import) -> str | None:
    """The rule an import breaks, or None."""
    mine, theirs = layer_of(each.importer), layer_of(each.imported)
    if theirs == "sandbox" and mine != "sandbox":
        scope = SANDBOX_USERS.get(mine)
        if scope is None or not each.scope.startswith(scope):
            return ("only Client.sandbox(), the demo and the CLI may start the emulator, "
                    "through dialkit.sandbox")
        if each.imported != "dialkit.sandbox":
            return "the sandbox is used through its public API, dialkit.sandbox, only"
        return None
    if theirs in MAY_IMPORT[mine]:
        return None
    if mine in TOOLKIT and theirs in TOOLKIT:
        return (f"leads, compliance, analytics and webhooks are side by side: {mine} may not "
                f"import {theirs} (a helper both need goes into a shared module)")
    allowed = ", ".join(sorted(MAY_IMPORT[mine] - {mine}))
    if not allowed:
        return (f"the {mine} layer imports only itself (issue 72: the shared helpers sit "
                f"below the contract), not {theirs}")
    return f"the {mine} layer imports only {allowed} (and itself), not {theirs}"


def cycles(found: Iterable[Import], excused: set[tuple[str, str, str]] = ALLOWED,
           ) -> list[list[str]]:
    """Each strongly connected group of modules (two or more that import each other,
    directly or round a cycle), as one cycle through it; the ``excused`` imports left
    out."""
    graph = _graph(found, excused)
    return [_cycle(group, graph) for group in _components(graph) if len(group) > 1]


def package_of(module: str) -> str:
    """The package a module is part of (``dialkit.client._http._retry``: ``dialkit.client``)."""
    return ".".join(module.split(".")[:2])


def cycles_between_packages(found: Iterable[Import],
                            excused: set[tuple[str, str, str]] = ALLOWED) -> list[list[str]]:
    """Each strongly connected group of modules that spans two packages or more, as one
    cycle through an import from one of them into another; the ``excused`` left out."""
    graph = _graph(found, excused)
    said = []
    for group in _components(graph):
        crossing = sorted((importer, imported) for importer in group
                          for imported in graph.get(importer, set()) & group
                          if package_of(importer) != package_of(imported))
        if crossing:
            said.append(_cycle(group, graph, crossing[0]))
    return said


def _graph(found: Iterable[Import], excused: set[tuple[str, str, str]],
           ) -> dict[str, set[str]]:
    """The modules each module imports, the ``excused`` imports left out."""
    graph: dict[str, set[str]] = {}
    for each in found:
        if (each.importer, each.scope, each.imported) not in excused:
            graph.setdefault(each.importer, set()).add(each.imported)
    return graph


def _components(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components, iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = {stack.pop()}
                    while node not in group:
                        group.add(stack.pop())
                    on_stack -= group
                    groups.append(group)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return groups


def _cycle(group: set[str], graph: dict[str, set[str]],
           through: tuple[str, str] | None = None) -> list[str]:
    """A shortest cycle through the group's first module (or through the import
    ``through``, a pair of modules), as the modules in import order."""
    first, start = through or (min(group), min(group))
    paths = {start: [first, start] if through else [first]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph.get(node, set()) & group):
                if child == first:
                    return [*paths[node], first]
                if child not in paths:
                    paths[child] = [*paths[node], child]
                    following.append(child)
        frontier = following
    raise AssertionError(f"no cycle through {first}")  # a component of 2+ always has one


# The contract held by the package ------------------------------------------------------------

@functools.cache
def _ours(typing: bool = True) -> tuple[Import, ...]:
    """The package's own imports, read once for the tests below; with ``typing``, those
    under ``if TYPE_CHECKING:`` too."""
    return tuple(imports(SRC, typing=typing))


def test_every_module_is_in_a_layer() -> None:
    assert all(layer_of(name) for name in modules(SRC))


def test_the_package_keeps_its_layers() -> None:
    found = breaches(_ours())
    assert not found, "imports against the layers (tests/test_layers.py):\n" + "\n".join(found)


def test_no_modules_import_each_other() -> None:
    """Every import counted (a module's top, ``TYPE_CHECKING``, a function) and none
    excused, no two modules of the package import each other, directly or round a longer
    cycle (issue 82: the last group, the client, the frames and compliance, was closed by
    ``Client.frames`` and the guard's judge, now wired at the ``dialkit`` package)."""
    found = cycles(_ours(), excused=set())
    assert not found, "import cycles, every import counted:\n" + "\n".join(
        " -> ".join(c) for c in found)


def test_no_cycle_runs_between_packages_even_for_the_type_checker() -> None:
    """Issue 72: read with its type-checking imports, the package was one circle of 162
    modules, the contract and the shared helpers importing each other and two of the
    lowest naming the highest; no cycle may run from one package into another."""
    found = cycles_between_packages(_ours())
    assert not found, "import cycles between packages:\n" + "\n".join(
        " -> ".join(c) for c in found)


def private_of_another(importer: str, imported: str) -> bool:
    """Whether ``imported`` is a private module of a public package other than the
    ``importer``'s own (``dialkit.frames._pages`` from ``dialkit.compliance``); the shared
    layer's private packages (``dialkit._utils``, ``dialkit._files``, ...) are meant to be
    imported."""
    theirs, ours = imported.split(".")[1:], importer.split(".")[1:2]
    return (len(theirs) > 1 and not theirs[0].startswith("_") and theirs[:1] != ours
            and any(part.startswith("_") for part in theirs[1:]))


def test_no_package_imports_another_packages_private_module() -> None:
    """Issue 63: what a package offers the others is a public name of it; what several
    need and none owns lives in the shared layer."""
    found = [f"{i.importer} line {i.line} imports {i.imported}" for i in _ours()
             if private_of_another(i.importer, i.imported)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("importer", "imported", "private"), [
    ("dialkit.compliance._entry", "dialkit.frames._tabular", True),
    ("dialkit.cli._compliance", "dialkit.compliance._report._evidence", True),
    ("dialkit.compliance._entry", "dialkit.frames", False),
    ("dialkit.compliance._entry", "dialkit._utils._moments", False),
    ("dialkit.compliance._entry", "dialkit.compliance._checks._dnc", False),
    ("dialkit._demo._run", "dialkit.client", False),
])
def test_a_private_module_of_another_package_is_told(importer: str, imported: str,
                                                     private: bool) -> None:
    assert private_of_another(importer, imported) is private


LAYER_ORDER = ("application", "leads", "compliance", "analytics", "webhooks", "frames",
               "client", "sandbox", "mcp", "guarding", "contract", "shared")
"""The layers from the top down, as the drawing lists them (the emulator below the client,
which ``Client.sandbox()`` starts; it imports nothing of the client)."""
DESIGN = SRC.parents[1] / "docs" / "design.md"
DRAWING = re.compile(r"(<!-- the layers' imports: tests/test_layers.py -->\n```text\n)(.*?)(```)",
                     re.S)


def drawing(found: Iterable[Import]) -> str:
    """Each layer and the layers its modules import, every import counted, from the top
    down: an arrow that pointed up the list would be a circle."""
    reached: dict[str, set[str]] = {layer: set() for layer in LAYER_ORDER}
    for each in found:
        mine, theirs = layer_of(each.importer), layer_of(each.imported)
        if mine != theirs:
            reached[mine].add(theirs)
    width = max(map(len, LAYER_ORDER))
    return "".join(f"{layer:<{width}} -> "
                   f"{', '.join(sorted(reached[layer], key=LAYER_ORDER.index)) or 'nothing'}\n"
                   for layer in LAYER_ORDER)


def test_the_design_draws_the_layers_imports_and_none_points_up() -> None:
    """docs/design.md's drawing of the layers' imports is the code's, and each layer
    imports only layers below it in the drawing: no circle, even between layers."""
    drawn = drawing(_ours())
    for line in drawn.splitlines():
        layer, _, reached = line.partition(" -> ")
        below = LAYER_ORDER[LAYER_ORDER.index(layer.strip()) + 1:]
        assert reached == "nothing" or set(reached.split(", ")) <= set(below), line
    page = DRAWING.search(DESIGN.read_text(encoding="utf-8"))
    assert page is not None, "docs/design.md has no drawing of the layers' imports"
    assert page.group(2) == drawn, f"docs/design.md's drawing is not the code's:\n{drawn}"


def test_the_exception_is_still_there() -> None:
    found = {(i.importer, i.scope, i.imported) for i in _ours()}
    assert found >= ALLOWED


# The check itself fails where it should ------------------------------------------------------

FAKE = {
    "__init__.py": "",
    "errors.py": "",
    "contract/__init__.py": "from ..leads import clean  # a breach\n",
    "client/__init__.py": "",
    "client/_client.py": ("from typing import TYPE_CHECKING\n"
                          "if TYPE_CHECKING:\n    from ..analytics import x\n"
                          "class Client:\n"
                          "    def sandbox(self):\n        from .. import sandbox\n"
                          "    def frames(self):\n        from ..frames import Frames\n"
                          "    def other(self):\n        from ..sandbox._server import k\n"),
    "frames/__init__.py": "import dialkit.client\n",
    "leads/__init__.py": "from dialkit._places import _regions\nfrom . import clean\n",
    "leads/clean.py": "",
    "compliance/__init__.py": "from ._audit import audit\n",
    "compliance/_audit.py": "def audit():\n    from . import _evidence\n",
    "compliance/_evidence.py": "from ._audit import audit  # a cycle\n",
    "analytics/__init__.py": "try:\n    from ..compliance import audit\nexcept ImportError:\n"
                             "    pass\n",
    "_places/__init__.py": "",
    "_places/_regions.py": ("from typing import TYPE_CHECKING\n"
                            "if TYPE_CHECKING:\n    from ..leads import x  # names a higher one\n"
                            "from dialkit.errors import x  # the contract, above the helpers\n"),
    "mcp/__init__.py": "from ..client import Client\n",
    "sandbox/__init__.py": "from ..mcp import serve\n",
    "sandbox/_server.py": "",
    "cli/__init__.py": "from ..sandbox import _server\nfrom .. import sandbox, leads\n",
}


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    for name, text in FAKE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_a_breach_names_both_modules_and_the_rule(fake: Path) -> None:
    said = breaches(imports(fake, typing=True))
    assert said == [
        "dialkit._places._regions line 3 (under TYPE_CHECKING) imports dialkit.leads: the "
        "shared layer imports only itself (issue 72: the shared helpers sit below the "
        "contract), not leads",
        "dialkit._places._regions line 4 imports dialkit.errors: the shared layer imports "
        "only itself (issue 72: the shared helpers sit below the contract), not contract",
        "dialkit.analytics line 2 imports dialkit.compliance: leads, compliance, analytics "
        "and webhooks are side by side: analytics may not import compliance (a helper both "
        "need goes into a shared module)",
        "dialkit.cli line 1 imports dialkit.sandbox._server: the sandbox is used through its "
        "public API, dialkit.sandbox, only",
        "dialkit.client._client line 3 (under TYPE_CHECKING) imports dialkit.analytics: the "
        "client layer imports only contract, guarding, shared (and itself), not analytics",
        "dialkit.client._client line 8 (in Client.frames) imports dialkit.frames: the "
        "client layer imports only contract, guarding, shared (and itself), not frames",
        "dialkit.client._client line 10 (in Client.other) imports dialkit.sandbox._server: "
        "only Client.sandbox(), the demo and the CLI may start the emulator, through "
        "dialkit.sandbox",
        "dialkit.contract line 1 imports dialkit.leads.clean: the contract layer imports "
        "only shared (and itself), not leads",
        "dialkit.mcp line 1 imports dialkit.client: the mcp layer imports only contract, "
        "shared (and itself), not client",
    ]


def test_a_cycle_is_found_through_a_function_level_import(fake: Path) -> None:
    assert cycles(imports(fake)) == [
        ["dialkit.compliance._audit", "dialkit.compliance._evidence",
         "dialkit.compliance._audit"]]


def test_a_cycle_between_packages_is_found_through_a_type_checking_import(fake: Path) -> None:
    """The helper that names ``dialkit.leads`` for the type checker closes a circle with
    ``leads``, which imports it; the cycle inside ``compliance`` is not one between
    packages, and without the type-checking imports there is none."""
    assert cycles_between_packages(imports(fake, typing=True)) == [
        ["dialkit._places._regions", "dialkit.leads", "dialkit._places._regions"]]
    assert cycles_between_packages(imports(fake)) == []


def test_a_function_level_import_is_found_and_an_unplaced_module_is_refused(fake: Path) -> None:
    found = imports(fake)
    assert Import("dialkit.client._client", "Client.frames", "dialkit.frames", 8) in found
    assert not any(i.imported == "dialkit.analytics" for i in found)  # under TYPE_CHECKING
    assert Import("dialkit.client._client", TYPING, "dialkit.analytics", 3) in imports(
        fake, typing=True)
    (fake / "extra").mkdir()
    (fake / "extra" / "__init__.py").write_text("")
    with pytest.raises(AssertionError, match="dialkit.extra is in no layer"):
        layer_of("dialkit.extra")


# The README's layout table names every folder (issue 49, item 3) -------------------------

def test_the_readme_layout_names_every_folder_of_the_package() -> None:
    readme = (SRC.parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.partition("## Layout")[2].partition("\n## ")[0]
    folders = sorted(f"src/dialkit/{p.parent.relative_to(SRC).as_posix()}/"
                     for p in SRC.rglob("__init__.py") if p.parent != SRC)
    missing = [folder for folder in folders if f"| `{folder}` |" not in table]
    assert not missing, f"README.md's layout table names no row for {missing}"
