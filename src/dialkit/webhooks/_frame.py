"""The stored events as a typed DataFrame, next to what ``client.frames`` loads."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd

from dialkit.frames import SCHEMAS, Column

from .._utils._base_error import InputError, StoreError
from ._store import FORMAT_VERSION, EventStore

COLUMNS = (*SCHEMAS["webhook_events"].columns, Column("received_at", "timestamp"),
           Column("deliveries_seen", "int"), Column("repeats", "int"))
"""The columns of ``client.frames.webhook_events()``, then ``received_at``,
``deliveries_seen`` and ``repeats``."""

_SELECT = """
SELECT id, type, created_at, json_extract(body, '$.api_version'),
       json_extract(body, '$.schema_version'), deliveries, json_extract(body, '$.data'),
       received_at, deliveries_seen, repeats, rowid
FROM events WHERE rowid > ?
"""
"""The frame's columns of each event stored after a cursor, then the event's ``rowid``."""


class NewEvents(NamedTuple):
    """What :func:`events_after` read.

    Attributes:
        frame: The events stored after the cursor given, as :func:`events_frame` types and
            orders them.
        cursor: Where the read ended: pass it as ``after=`` to read only the events stored
            since (the cursor given, where none was).
    """

    frame: pd.DataFrame
    cursor: int


def events_frame(db: EventStore | str | os.PathLike[str]) -> pd.DataFrame:
    """The events a receiver stored, one row per event, ordered by ``created_at``.

    The columns and dtypes are those of ``client.frames.webhook_events()``
    (``docs/frames.md``), then ``received_at`` (when the first delivery of the
    event arrived, by the receiver's clock), ``deliveries_seen`` (distinct
    deliveries, by id and signed timestamp) and ``repeats`` (arrivals of a delivery
    already seen). Here ``deliveries`` is the deliveries this receiver saw, as JSON text
    (``[{"id": "whd_...", "received_at": ..., "signed_at": ...}]``), ``data`` the data as
    delivered (as compact JSON text), and ``type`` keeps an event type newer
    than the contract's list as a category of its own.

    Args:
        db: The receiver's store, or the path of its SQLite file.

    Raises:
        StoreError: There is no readable event store at ``db``.

    Examples:
        >>> from dialkit.webhooks import EventStore, verify
        >>> # body, headers: a call.completed delivery signed with "whsec_test",
        >>> # built as in verify's example
        >>> with EventStore("events.sqlite") as store:
        ...     _ = store.add(verify(body, headers, "whsec_test"), body)
        >>> frame = events_frame("events.sqlite")
        >>> frame.groupby("type", observed=True).size().to_dict()
        {'call.completed': 1}
    """
    return events_after(db).frame


def events_after(db: EventStore | str | os.PathLike[str], after: int = 0) -> NewEvents:
    """The events a receiver stored after the cursor ``after``, and the cursor after them:
    a reader that follows the store while a receiver writes it reads each event once
    (``dialkit compliance watch --follow`` does).

    The cursor is the order the store added its events in (SQLite's ``rowid``): a new event
    is added after every event already committed, and a later delivery of one already
    stored (a retry, a replay) updates its row in place, so it is not read again. The
    store never deletes an event, so no cursor is ever given again. Read-only, as
    :func:`events_frame`.

    Args:
        db: The receiver's store, or the path of its SQLite file.
        after: 0 (every event), or the :attr:`NewEvents.cursor` an earlier read returned.

    Returns:
        The events stored since (:func:`events_frame`'s columns, ordered by
        ``created_at``) and the cursor to pass next.

    Raises:
        StoreError: There is no readable event store at ``db``.
        InputError: ``after`` is not a cursor (a whole number, 0 or more).

    Examples:
        >>> from dialkit.webhooks import EventStore, verify
        >>> # body, headers: a call.completed delivery signed with "whsec_test",
        >>> # built as in verify's example
        >>> with EventStore("events.sqlite") as store:
        ...     _ = store.add(verify(body, headers, "whsec_test"), body)
        >>> read = events_after("events.sqlite")  # every event stored so far
        >>> len(read.frame), read.cursor
        (1, 1)
        >>> events_after("events.sqlite", after=read.cursor).frame.empty  # none since
        True
    """
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise InputError(f"after={after!r}: pass 0 (every event), or the cursor an earlier "
                         "events_after returned")
    path = db.path if isinstance(db, EventStore) else Path(db)
    if not path.is_file():
        raise StoreError(f"no event store at {path}")
    if 0 < _version(path) < FORMAT_VERSION:
        EventStore(path).close()  # brings a store of an older dialkit up to date
    try:
        with _reader(path) as conn:
            rows = conn.execute(_SELECT, (after,)).fetchall()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read the event store {path}: {exc}") from None
    *values, rowids = list(zip(*rows, strict=True)) if rows else [()] * (len(COLUMNS) + 1)
    frame = pd.DataFrame({column.name: _typed(column, list(vals))
                          for column, vals in zip(COLUMNS, values, strict=True)})
    frame = frame.sort_values(["created_at", "id"], kind="stable").reset_index(drop=True)
    return NewEvents(frame, max(rowids, default=after))


def _typed(column: Column, values: list[Any]) -> pd.Series:
    if column.kind == "json":  # already JSON text
        return pd.Series(values, dtype=object).astype(column.dtype)
    return column.convert(values)


def _version(path: Path) -> int:
    """The store's format version (0 for a file that is not one: the read then says why)."""
    try:
        with _reader(path) as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error:
        return FORMAT_VERSION


def _reader(path: Path) -> contextlib.closing[sqlite3.Connection]:
    """A read-only connection, closed on exit (``sqlite3.connect``'s own manager only
    commits)."""
    return contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True))
