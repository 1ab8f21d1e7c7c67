"""The sample lead files packaged with dialkit, by name.

The files of the repository's ``data_samples/`` folder are package data of the
wheel (``dialkit.data_samples``), so a notebook or a script finds them from any
folder, in a clone or in an installed package alike: ``dialkit.samples.path(
"messy_us.csv")`` is a real file that pandas reads. ``dialkit samples [--copy
DIR]`` lists and copies them.

Examples:
    >>> from dialkit import samples
    >>> "messy_us.csv" in samples.names()
    True
    >>> samples.path("messy_us.csv").name
    'messy_us.csv'
"""

from __future__ import annotations

import filecmp
import os
import shutil
from pathlib import Path

from ._files import _packaged
from ._files._outputs_written import written

_PACKAGE = "dialkit.data_samples"
_SUFFIXES = (".csv", ".tsv", ".xlsx")
"""The sample files are the data files; the folder's README and the script that
writes them stay in the repository's copy."""

__all__ = ["copy", "names", "path"]


def names() -> list[str]:
    """The packaged sample files' names, relative to the samples' folder with ``/``
    between parts (``messy_us.csv``), sorted."""
    return _packaged.names(_PACKAGE, _SUFFIXES)


def path(name: str) -> Path:
    """The packaged sample file ``name`` (one of :func:`names`) as a file on disk.

    Raises:
        FileNotFoundError: ``name`` is not a packaged sample; the message lists the
            names there are.
    """
    known = names()
    if name not in known:
        raise FileNotFoundError(f"dialkit has no sample file {name!r}; the samples are: "
                                f"{', '.join(known)}")
    return _packaged.file(_PACKAGE, name)


def copy(dest: str | os.PathLike[str]) -> list[Path]:
    """Copy every packaged sample into the folder ``dest`` (made if missing) and
    return the copies' paths, in :func:`names` order.

    A file already in ``dest`` with the same bytes is left as it is; one with other
    bytes is never overwritten, nor is a link written through. Each copy appears
    whole or not at all.

    Raises:
        FileExistsError: a file of ``dest`` has a sample's name and other contents,
            or ``dest`` is a file; nothing is copied then.
    """
    folder = Path(dest)
    if folder.exists() and not folder.is_dir():
        raise FileExistsError(f"cannot copy the samples into {folder}: it is a file, "
                              "not a folder; name a folder")
    pairs = [(path(name), folder / name) for name in names()]
    clashes = [str(target) for source, target in pairs
               if (target.exists() or target.is_symlink())  # a dangling link: a clash
               and not (target.is_file() and filecmp.cmp(source, target, shallow=False))]
    if clashes:
        raise FileExistsError(f"not copying the samples into {folder}: a different file "
                              f"is already at {', '.join(clashes)}; move it away or "
                              "choose another folder")
    for source, target in pairs:
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            with written(target, "dest") as partial:
                shutil.copyfile(source, partial)
    return [target for _, target in pairs]
