"""Files shipped inside the package (the notebooks, the sample files), read through
:mod:`importlib.resources`.

The repository keeps them in ``notebooks/`` and ``data_samples/`` beside ``src/``;
pyproject.toml maps those folders to the packages ``dialkit.notebooks`` and
``dialkit.data_samples``, so the wheel and the editable install both find them here
by package name, never by a path relative to this file.
"""

from __future__ import annotations

import atexit
import contextlib
from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path

_extracted = contextlib.ExitStack()
"""Files extracted to a temporary folder because their package is not a folder on
disk (a zip import); removed when the process exits."""
atexit.register(_extracted.close)


def names(package: str, suffixes: tuple[str, ...]) -> list[str]:
    """The names (``/`` between parts, sorted) of the files of ``package``'s folder,
    and of its sub-folders, that end with one of ``suffixes``."""
    found: list[str] = []

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(suffixes):
                found.append(prefix + entry.name)

    walk(files(package), "")
    return sorted(found)


def file(package: str, name: str) -> Path:
    """The file ``name`` (as :func:`names` gives it) of ``package`` as a path on disk,
    which pandas, nbformat and shutil can open."""
    resource = files(package).joinpath(*name.split("/"))
    if isinstance(resource, Path):
        return resource
    return _extracted.enter_context(as_file(resource))
