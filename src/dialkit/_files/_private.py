"""Owner-only folders and files, whatever the umask.

Cached frames, import journals, exports and the MCP audit log hold names and phone
numbers, so what dialkit makes for them is ``0700`` (folders) and ``0600`` (files).
A mode passed to ``mkdir`` or ``open`` is masked by the umask and applies to the one
folder made, not to the parents ``parents=True`` makes on the way (those get the
umask's ``0755``), and an existing file keeps its mode; so every mode here is set
with ``chmod`` after the fact, on each folder made.

Nothing here writes through a symbolic link. On a shared or group-writable
folder another user can plant ``name -> ~/.bashrc`` where dialkit is about to write
``name``: a file written whole goes under a new name and is renamed over it
(:func:`os.replace` replaces the link itself), and a file appended to or opened in place
is opened with :data:`NO_FOLLOW` (:func:`open_private`), which refuses the link with a
:class:`~dialkit.errors.SymlinkError` naming it; no mode is set through a link.

The standard library and the error tree only: shared by the frames' cache and export,
the leads' journal and clean, the MCP audit log, the webhook store and the emulator's
world file.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .._utils._base_error import InputError, SymlinkError

DIRECTORY_MODE = 0o700
"""Folders that hold personal data: their owner alone may list or enter them."""
FILE_MODE = 0o600
"""Files that hold personal data: their owner alone may read or write them."""
NO_FOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
"""Added to the flags of every file dialkit opens to write in place: an ``open`` of a
symbolic link then fails, instead of writing the file the link points to (none on Windows,
where making a link takes a privilege)."""


def private_dir(path: Path) -> Path:
    """Make ``path`` and every missing folder above it, each owner-only; ``path``.

    Folders that exist already are left as they are: they are the user's (a cache
    folder named by ``$DIALKIT_CACHE_DIR``, a project folder), not dialkit's to change.

    Raises:
        InputError: A file stands where a folder of the path must be (a
            ``$DIALKIT_CACHE_DIR`` or a ``--journal`` that names a file): the user's to
            fix, named so, not a ``NotADirectoryError`` told as dialkit's bug.
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
        _chmod(folder, DIRECTORY_MODE)
    return path


def private_tree(folder: Path) -> None:
    """Make ``folder`` and every folder and file under it owner-only (a tree a
    library such as pyarrow wrote with the umask's modes); a symbolic link in it is left
    as it is, and so is what it points to."""
    if folder.is_symlink():
        return
    for root, folders, files in os.walk(folder):  # enters no link to a folder
        _chmod(Path(root), DIRECTORY_MODE)
        for name in folders:
            _chmod(Path(root) / name, DIRECTORY_MODE)
        for name in files:
            _chmod(Path(root) / name, FILE_MODE)


def _chmod(path: Path, mode: int) -> None:
    """``path`` given ``mode``, unless it is a symbolic link: ``chmod`` follows one (Linux
    cannot set a link's own mode), and would set the mode of the file it points to."""
    if not path.is_symlink():
        path.chmod(mode)


def refuse_link(path: Path, what: str) -> Path:
    """``path``, unless it is a symbolic link: for a folder dialkit keeps files of its own
    in, or a file a library opens by its name (SQLite, a lock).

    Raises:
        SymlinkError: ``path`` is a link; ``what`` (``"the MCP audit log"``) says in its
            message what dialkit writes there.
    """
    if path.is_symlink():
        raise SymlinkError(path, what)
    return path


def open_private(path: Path, flags: int, what: str) -> int:
    """``path`` opened with ``flags`` (``os.O_WRONLY | os.O_APPEND | os.O_CREAT``: a log
    appended to) never through a symbolic link (:func:`open_no_link`), made owner-only
    whether it was just made or existed with a wider mode (:func:`private_file`); its
    descriptor."""
    return private_file(open_no_link(path, flags, what))


def open_no_link(path: str | os.PathLike[str], flags: int, what: str) -> int:
    """``os.open`` of ``path`` itself with ``flags`` and :data:`NO_FOLLOW`, never of what a
    symbolic link at its name points to; a file it makes is owner-only (``0600``).

    Raises:
        SymlinkError: ``path`` is a link, named with ``what`` (:func:`refuse_link`).
        OSError: ``path`` cannot be opened.
    """
    try:
        return os.open(path, flags | NO_FOLLOW, FILE_MODE)
    except OSError:
        refuse_link(Path(path), what)  # ELOOP, or EEXIST with O_EXCL: told as what it is
        raise


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
    where every file is new, no ``chmod`` after the fact is needed. A symbolic link at
    ``path`` is refused (:class:`~dialkit.errors.SymlinkError`), never written through."""
    return open_no_link(path, flags, "a file of its own")


def private_new(path: Path) -> Path:
    """``path`` made a new, empty, owner-only file; ``path``. For a library that opens a
    file by its name with the umask's mode (pyarrow's writers): a file that exists keeps
    its mode when it is opened again to be written. A symbolic link at ``path`` is
    refused (:class:`~dialkit.errors.SymlinkError`)."""
    os.close(open_no_link(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, "a file of its own"))
    return path
