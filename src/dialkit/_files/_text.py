"""A text file a user names (an export, a file of caller ids, a TOML configuration or
table), read as an editor or a spreadsheet saved it, by one reader for every layer.

Excel's "CSV UTF-8" and Notepad write a byte order mark, Excel's "Unicode text" is
UTF-16, and a list appended to by an older tool holds cp1252 lines: read as plain UTF-8,
the mark stuck to the first line (a file of caller ids lost its first id) and the others
could not be read at all. So every such file is decoded as :func:`decode` decodes a lead
file. And a file that cannot be opened is named with what to do about it (no such file,
a folder, no permission), in the system's words, never as a raw ``[Errno 2] ...``.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from .._utils._base_error import EncodingError, InputError
from ._encoding import decode

Refusal = Callable[[str], InputError]
"""The error a caller's file is refused with (``AuditInputError``, ``ConfigError``, ...),
made from its message."""

_MISSING = "there is no such file: check the path"
_DENIED = ("cannot be read: you have no permission to read it: ask its owner for it, or copy "
           "it somewhere you may read")
_SAID = {errno.ENOENT: _MISSING, errno.ENOTDIR: _MISSING,  # ENOTDIR: a folder of it is a file
         errno.EISDIR: "is a folder, where a file is wanted: name a file in it",
         errno.EACCES: _DENIED, errno.EPERM: _DENIED}
"""What to do about a file that cannot be opened, by its ``errno``."""
_CODES: dict[type[OSError], int] = {
    FileNotFoundError: errno.ENOENT, NotADirectoryError: errno.ENOTDIR,
    IsADirectoryError: errno.EISDIR, PermissionError: errno.EACCES}
"""The ``errno`` each kind of ``OSError`` stands for, for one raised without one."""


def read_utf8(path: str | os.PathLike[str], refused: Refusal = InputError) -> bytes:
    """The text of the file at ``path`` as UTF-8 bytes, however it was saved: a byte order
    mark's encoding (the mark dropped), UTF-8, or cp1252 lines (:func:`decode`).

    Raises:
        InputError: Made by ``refused``, its message the path and why: the file cannot be
            opened (:func:`unreadable`), or is not text.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise refused(f"{path}: {unreadable(error)}") from None
    try:
        return decode(data, None).utf8
    except EncodingError as error:
        raise refused(f"{path}: {error}") from None


def read_text(path: str | os.PathLike[str], refused: Refusal = InputError) -> str:
    """The text of the file at ``path``, as :func:`read_utf8` reads it.

    Raises:
        InputError: Made by ``refused``, as :func:`read_utf8` says.
    """
    return read_utf8(path, refused).decode("utf-8")


def unreadable(error: OSError) -> str:
    """Why a file could not be opened, in words that say what to do where there is
    something to do, else in the system's words (``input/output error``)."""
    code = errno_of(error)
    cause = os.strerror(code) if code else error.strerror or str(error)
    return _SAID.get(code, f"cannot be read: {cause[:1].lower()}{cause[1:]}")


def errno_of(error: OSError) -> int:
    """The ``errno`` of ``error``, or the one its kind stands for (pyarrow raises a
    ``FileNotFoundError`` of the path alone); 0 for a parser's ``OSError`` (a broken
    Parquet file), which says nothing of opening the file."""
    return error.errno or _CODES.get(type(error), 0)
