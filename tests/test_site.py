"""The docs site (issue 39, item 5): the guides of ``docs/``, an API reference drawn from
the docstrings and a gallery of the plots, built by ``mkdocs build --strict``: a broken
link fails the build, and a public name without a docstring fails here."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import griffe
import pytest
import yaml

from test_exports import PUBLIC_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTED = [*PUBLIC_PACKAGES, "dialkit.samples"]
"""Every package whose ``__all__`` the reference shows: the public ones and the samples."""
PAGES = {"dialkit": "dialkit", **{name: name.removeprefix("dialkit.") for name in DOCUMENTED
                                  if name != "dialkit"}}
"""Each package's page under ``reference/``."""


def _build(root: Path, site: Path) -> subprocess.CompletedProcess[str]:
    # not -q: strict counts the warnings it logs, and -q drops them
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(root / "mkdocs.yml"), "-d", str(site)],
                          cwd=root, capture_output=True, text=True, check=False,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = tmp_path_factory.mktemp("site")
    done = _build(ROOT, built)
    assert done.returncode == 0, done.stderr
    return built


def _exported(package: str) -> list[str]:
    return list(importlib.import_module(package).__all__)


@pytest.mark.parametrize("package", DOCUMENTED)
def test_every_public_name_is_in_the_reference(site: Path, package: str) -> None:
    """Each name of ``__all__`` has its entry on the package's page; a module (``errors``,
    ``compliance.jurisdictions``) its members, on that page or its own."""
    page = (site / "reference" / PAGES[package] / "index.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="([\w.]+)"', page))
    for other in (site / "reference").glob("*/index.html"):
        anchors |= {a for a in re.findall(r'id="([\w.]+)"', other.read_text(encoding="utf-8"))
                    if a.count(".") > 1 or a.startswith("dialkit.errors.")}
    missing = [name for name in _exported(package) if f"{package}.{name}" not in anchors
               and not any(a.startswith(f"{package}.{name}.") for a in anchors)]
    assert not missing, f"{package}: not in reference/{PAGES[package]}.md's page: {missing}"


@pytest.fixture(scope="module")
def source() -> Any:
    """The package as the site reads it: griffe, from the source, aliases resolved."""
    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "src")])
    loaded = loader.load("dialkit")
    loader.resolve_aliases(external=False)
    return loaded


@pytest.mark.parametrize("package", DOCUMENTED)
def test_every_public_name_has_a_docstring(source: Any, package: str) -> None:
    """A class's, a function's, and a constant's attribute docstring (the string under
    it), as the site shows them."""
    loaded = source if package == "dialkit" else source[package.removeprefix("dialkit.")]
    bare = []
    for name in _exported(package):
        found = loaded[name]
        target = found.final_target if found.is_alias else found
        if target.docstring is None or not target.docstring.value.strip():
            bare.append(name)
    assert not bare, f"{package}: public names without a docstring: {bare}"


def test_docstrings_show_their_roles_as_code(site: Path) -> None:
    page = (site / "reference" / "leads" / "index.html").read_text(encoding="utf-8")
    assert ":func:" not in page and ":class:" not in page and ":mod:" not in page
    assert "<code>read</code>" in page  # clean's "As for :func:`read`"


def test_the_guides_are_the_docs_pages(site: Path) -> None:
    for guide in sorted(ROOT.glob("docs/*.md")):
        built = site / ("" if guide.stem == "index" else guide.stem) / "index.html"
        assert built.is_file(), f"{guide.name} is not on the site"
    home = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="leads/"' in home and 'href="gallery/"' in home


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The site's own settings (strict, link validation, theme, extensions) on a site of
    two pages, one linking to the other and to a missing page. The guides and the
    reference are left out: the ``site`` fixture builds those, and 13 CPU s a build."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    del config["nav"]
    config["plugins"] = [plugin for plugin in config["plugins"] if "mkdocstrings" not in plugin]
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    docs = tmp_path / config["docs_dir"]
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the guide](leads.md).\n", encoding="utf-8")
    (docs / "leads.md").write_text("# Leads\n\nSee [the missing page](nowhere.md).\n",
                                   encoding="utf-8")
    done = _build(tmp_path, tmp_path / "site")
    assert done.returncode != 0 and "nowhere.md" in done.stderr, done.stderr


def _pictures() -> Any:
    spec = importlib.util.spec_from_file_location("pictures", ROOT / "docs" / "pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gallery_shows_every_plot(site: Path) -> None:
    plots = {f"{package}.{name}" for package in ("analytics", "compliance")
             for name in _exported(f"dialkit.{package}") if name.startswith("plot_")}
    assert {name.partition(".")[2] for name in plots} == set(_pictures().GALLERY)
    gallery = (ROOT / "docs" / "gallery.md").read_text(encoding="utf-8")
    assert set(re.findall(r"^## `(\w+\.plot_\w+)`$", gallery, re.MULTILINE)) == plots
    page = (site / "gallery" / "index.html").read_text(encoding="utf-8")
    for name in plots:
        image = f"images/gallery/{name.partition('.')[2]}.png"
        assert (ROOT / "docs" / image).is_file() and image in page
