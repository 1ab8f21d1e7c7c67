"""Owner-only folders and files, whatever the umask.

Cached frames, import journals, exports and the MCP audit log hold names and phone
numbers, so what dialkit makes for them is ``0700`` (folders) and ``0600`` (files).
A mode passed to ``mkdir`` or ``open`` is masked by the umask and applies to the one
folder made, not to the parents ``parents=True`` makes on the way (those get the
umask's ``0755``), and an existing file keeps its mode; so every mode here is set
with ``chmod`` after the fact, on each folder made.

The standard library and the error tree only: shared by the frames' cache and export,
the leads' journal and the MCP audit log.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .._utils._base_error import InputError

DIRECTORY_MODE = 0o700
"""Folders that hold personal data: their owner alone may list or enter them."""
FILE_MODE = 0o600
"""Files that hold personal data: their owner alone may read or write them."""


def private_dir(path: Path) -> Path:
    """Make ``path`` and every missing folder above it, each owner-only; ``path``.

    Folders that exist already are left as they are: they are the user's (a cache
    folder named by ``$DIALKIT_CACHE_DIR``, a project folder), not dialkit's to change.

    Raises:
        InputError: A file stands where a folder of the path must be (a
            ``$DIALKIT_CACHE_DIR`` or a ``--journal`` that names a file): the user's to
            fix, named so (issue 72), not a ``NotADirectoryError`` told as dialkit's bug.
    """
    for folder in [*reversed(path.parents), path]:
        if folder.is_dir():
            continue
        try:
            folder.mkdir(mode=DIRECTORY_MODE)
        except FileExistsError:
            if folder.is_dir():  # made meanwhile, by another thread or process
                continue
            raise InputError(f"{folder}: {os.strerror(errno.ENOTDIR)}: it is a file, where "
                             f"dialkit needs a folder to keep {path} in: name a folder "
                             "instead (it is made if missing), or move the file away") from None
        folder.chmod(DIRECTORY_MODE)
    return path


def private_tree(folder: Path) -> None:
    """Make ``folder`` and every folder and file under it owner-only (a tree a
    library such as pyarrow wrote with the umask's modes)."""
    for root, folders, files in os.walk(folder):
        Path(root).chmod(DIRECTORY_MODE)
        for name in folders:
            (Path(root) / name).chmod(DIRECTORY_MODE)
        for name in files:
            (Path(root) / name).chmod(FILE_MODE)


def private_file(descriptor: int) -> int:
    """Make the open file ``descriptor`` owner-only, whether it was just made or
    existed with a wider mode; ``descriptor`` (closed if that fails: the caller
    raises instead of writing personal data into a file others may read)."""
    if os.name == "posix":  # elsewhere a mode is no access control
        try:
            os.fchmod(descriptor, FILE_MODE)
        except OSError:
            os.close(descriptor)
            raise
    return descriptor


def private_opener(path: str | os.PathLike[str], flags: int) -> int:
    """An ``opener`` for :func:`open` that makes a new file owner-only from its first
    byte (``open(path, "ab", opener=private_opener)``): in a folder of dialkit's own,
    where every file is new, no ``chmod`` after the fact is needed."""
    return os.open(path, flags, FILE_MODE)


def private_new(path: Path) -> Path:
    """``path`` made a new, empty, owner-only file; ``path``. For a library that opens a
    file by its name with the umask's mode (pyarrow's writers): a file that exists keeps
    its mode when it is opened again to be written."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    return path
