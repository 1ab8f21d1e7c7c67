"""Opening a world kept in a file (``db=``, ``--db``): owner-only, and only an emulator's.

The file holds API keys and webhook signing secrets in clear, so it is made
owner-only before SQLite writes anything to it; SQLite gives its ``-wal`` and
``-shm`` files the database's own permissions, and any left from an earlier
session are made owner-only too. A file that is not SQLite, or that is another
program's SQLite database, is refused before anything in it changes: the
emulator would otherwise add its tables to it and switch it to WAL.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..._files._private import open_no_link, refuse_link
from ..._utils._base_error import ConfigError, SymlinkError

WORLD_MARKER = "dialkit_world"
"""The ``meta`` key every world file holds (written on first open)."""
OWNER_ONLY = 0o600
SQLITE_HEADER = b"SQLite format 3\x00"
_SIDE_FILES = ("-wal", "-shm", "-journal")
_OLDER_WORLD_KEYS = ("cursor_secret", "default_keys", "world_id")
"""``meta`` keys of a world kept before the marker was written."""
_WRITTEN = "an emulator's world"
"""What is written there, for the refusal of a link."""


def connect_world(path: str) -> sqlite3.Connection:
    """A connection to the world file at ``path``, made owner-only, its contents unchanged
    (the store writes :data:`WORLD_MARKER` with its schema).

    Raises:
        ConfigError: ``path`` cannot be opened, is not SQLite, or is another program's
            database, or it or a side file is a symbolic link (never followed);
            the message names the file and what to pass instead.
    """
    try:
        _owner_only(path)
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    except SymlinkError as exc:
        raise ConfigError(f"{exc} for db= (or --db)") from None
    except (OSError, sqlite3.Error) as exc:
        raise _refused(path, f"cannot be opened ({_reason(exc)})") from None
    try:
        _check_world(conn, path)
    except BaseException:
        conn.close()
        raise
    return conn


def _owner_only(path: str) -> None:
    """Create ``path`` owner-only if missing (the mode given to ``open``, not the umask's);
    make it and its side files owner-only; refuse a file that is not SQLite, and a
    symbolic link at any of their names (a mode is never set through a link)."""
    with open(open_no_link(path, os.O_CREAT | os.O_RDONLY, _WRITTEN), "rb") as file:
        head = file.read(len(SQLITE_HEADER))
        if head and head != SQLITE_HEADER:
            raise _refused(path, "is not a SQLite file, so not an emulator world")
        if os.name == "posix":  # elsewhere a mode is no access control
            os.fchmod(file.fileno(), OWNER_ONLY)
    for name in (path + suffix for suffix in _SIDE_FILES):
        if refuse_link(Path(name), _WRITTEN).exists():
            os.chmod(name, OWNER_ONLY)


def _check_world(conn: sqlite3.Connection, path: str) -> None:
    """Refuse a database with tables and no sign of an emulator world in them."""
    try:
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        keys = ({row[0] for row in conn.execute("SELECT key FROM meta")}
                if "meta" in tables else set())
    except sqlite3.DatabaseError as exc:
        raise _refused(path, f"is not a readable SQLite database ({exc})") from None
    if not tables or WORLD_MARKER in keys or ("datasets" in tables
                                              and keys.intersection(_OLDER_WORLD_KEYS)):
        return
    shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
    raise _refused(path, f"is another program's SQLite database (tables {shown}); it was "
                   "left as it was")


def _refused(path: str, why: str) -> ConfigError:
    return ConfigError(f"{path} {why}: pass a new file name for db= (or --db), or one an "
                       "earlier emulator kept")


def _reason(exc: BaseException) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
