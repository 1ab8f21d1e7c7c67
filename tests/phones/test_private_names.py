"""Only ``dialkit._phones._metadata`` touches ``phonenumbers``' private names and Python's
``re._parser`` (issue 49): a release that moves one breaks in one module, which
docs/install.md names beside the version bound. Read from the source with ``ast``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import dialkit

SRC = Path(dialkit.__file__).parent
OWNER = Path("_phones/_metadata.py")
PRIVATE_MODULES = ("re._parser", "re._constants")


def private_uses(source: str) -> Iterator[str]:
    """Each private name of ``phonenumbers`` the source reads (``pnu._x``, ``from
    phonenumbers... import _x``), and each private module of ``re`` it names."""
    tree = ast.parse(source)
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("phonenumbers"):
            for alias in node.names:
                if alias.name.startswith("_"):
                    yield f"{node.module}.{alias.name}"
                bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names
                         if a.name.startswith("phonenumbers"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in bound and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            yield f"{node.value.id}.{node.attr}"
        elif isinstance(node, ast.Constant) and node.value in PRIVATE_MODULES:
            yield str(node.value)


def test_only_the_metadata_module_touches_private_names() -> None:
    found = {str(path.relative_to(SRC)): sorted(set(private_uses(path.read_text("utf-8"))))
             for path in SRC.rglob("*.py")}
    assert {path: uses for path, uses in found.items() if uses} == {
        str(OWNER): found[str(OWNER)]}
    assert found[str(OWNER)]  # it does touch them: the check reads what it should


def test_a_private_use_is_seen_however_it_is_written() -> None:
    source = ("import phonenumbers\nfrom phonenumbers import phonenumberutil as pnu\n"
              "from phonenumbers.timezone import _country_level_time_zones_for_number\n"
              "import importlib\n"
              "pnu._test_number_length\nphonenumbers._x\nimportlib.import_module('re._parser')\n"
              "pnu.__name__\npnu.parse\n")
    assert sorted(private_uses(source)) == [
        "phonenumbers._x", "phonenumbers.timezone._country_level_time_zones_for_number",
        "pnu._test_number_length", "re._parser"]
