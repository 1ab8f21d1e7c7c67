"""The event store: one SQLite file in WAL mode, written in group commits.

A receiver must not answer 2xx before the event is committed, yet a commit per
request costs a write of the log (and with ``synchronous=FULL`` an fsync) for
each event. So the receiver hands the store every delivery verified in one
turn of its event loop as one batch: :meth:`EventStore.write` stores them with
one statement in one transaction, commits once, and only then are they
answered. Under load one commit serves many deliveries; alone, a delivery
waits for its own commit only.

Durability: ``synchronous="full"`` (the default) makes a commit durable against
power loss and OS crashes; ``"normal"`` in WAL mode only against a crash of the
process (a ``kill -9``), since the log is synced at checkpoints only.

A delivery of an event already stored (same event id: a retry, a replay, a
duplicate) is not stored again. A new delivery raises ``deliveries_seen`` by
one and is added to ``deliveries``; one already seen raises only ``repeats``,
so ``deliveries_seen`` counts distinct deliveries. A delivery was seen when its
delivery id was (the same delivery again: sent twice by a sender that missed
the answer), or when its signed attempt was: the signature covers the body and
``Service-Timestamp``, not ``Service-Delivery-Id``, so a delivery captured and
sent again within the tolerance under a delivery id of the sender's choosing
has the same event and timestamp, and is a repeat.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Literal, NamedTuple

from .._files._private import open_no_link
from .._utils._base_error import InputError, StoreError
from ._events import Envelope, Event, event_of, parse_envelope

Synchronous = Literal["full", "normal"]

MAX_BATCH = 500
"""Most rows one statement writes (8 parameters each, under SQLite's 32,766); a larger
batch is several statements in the one transaction."""

BUSY_TIMEOUT_MS = 5_000
"""How long a write waits for another connection's lock before it fails."""

FORMAT_VERSION = 2
"""``PRAGMA user_version`` of a store made by this module (version 1, which counted a
repeated delivery id in ``deliveries_seen``, is brought up to it when opened)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    received_at TEXT NOT NULL,
    deliveries_seen INTEGER NOT NULL,
    deliveries TEXT NOT NULL,
    body TEXT NOT NULL,
    repeats INTEGER NOT NULL DEFAULT 0
);
"""

_VALUES = ("(?, ?, ?, ?, 1, json_array(json_object('id', ?, 'received_at', ?, 'signed_at', ?)),"
           " ?, ?)")
_UPSERT = """
INSERT INTO events (id, type, created_at, received_at, deliveries_seen, deliveries, body,
                    repeats)
VALUES {values}
ON CONFLICT (id) DO UPDATE SET
    deliveries_seen = deliveries_seen + 1 - excluded.repeats,
    repeats = repeats + excluded.repeats,
    deliveries = CASE WHEN excluded.repeats THEN deliveries ELSE
        json_insert(deliveries, '$[#]', json(json_extract(excluded.deliveries, '$[0]'))) END
"""
"""``repeats`` of a row to insert is 1 when its delivery id was seen before (decided by
:meth:`EventStore.write` under the write lock), so a conflict adds it to one count or
the other; a new event's row always has 0."""


def _upsert(rows: list[Row], repeated: list[bool]) -> tuple[str, list[str | int | None]]:
    """One statement for a whole batch (the writer releases the GIL once, not per row)."""
    params: list[str | int | None] = []
    for (event_id, kind, created_at, received_at, delivery_id, signed_at, body), again in zip(
            rows, repeated, strict=True):
        params += (event_id, kind, created_at, received_at, delivery_id, received_at, signed_at,
                   body, int(again))
    return _UPSERT.format(values=", ".join([_VALUES] * len(rows))), params


Row = tuple[str, str, str, str, str | None, int | None, str]
"""What the writer inserts: id, type, created_at, received_at, delivery id, the signed
``Service-Timestamp``, body."""
Delivery = tuple[str | None, int | None]
"""A delivery as the store tells them apart: its id, and the timestamp it was signed at."""


class Stored(NamedTuple):
    """The outcome of storing one delivery.

    Attributes:
        event_id: The event's id.
        deliveries_seen: Distinct deliveries (by delivery id) of this event seen so far,
            this one included.
        repeated: Whether this delivery's id was seen before (the same delivery again).
    """

    event_id: str
    deliveries_seen: int
    repeated: bool = False

    @property
    def duplicate(self) -> bool:
        """Whether the event was stored before (this delivery only counted)."""
        return self.deliveries_seen > 1 or self.repeated


def stamp(moment: datetime) -> str:
    """Storage form of a time: UTC, microseconds, fixed width (sorts as text)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def row_of(event: Event | Envelope, body: bytes, received_at: datetime,
           delivery_id: str | None, signed_at: int | None = None) -> Row:
    """The stored row of a verified delivery (``signed_at``: its ``Service-Timestamp``)."""
    return (event.id, str(event.type), stamp(event.created_at), stamp(received_at),
            delivery_id, signed_at, body.decode())


class EventStore:
    """Verified events, each stored once, in a SQLite file (WAL mode).

    Args:
        path: The SQLite file; created (owner-only) if missing.
        synchronous: ``"full"`` (durable against power loss) or ``"normal"``
            (durable against a crash of the process only; faster on slow disks).

    Raises:
        StoreError: The file cannot be opened (a symbolic link at its name too: it is
            never written through) or is not an event store.

    Examples:
        >>> from dialkit.webhooks import verify
        >>> # body, headers: a call.completed delivery signed with "whsec_test",
        >>> # built as in verify's example
        >>> with EventStore("events.sqlite") as store:
        ...     store.add(verify(body, headers, "whsec_test"), body)
        Stored(event_id='evt_5f0c6c1e-...', deliveries_seen=1, repeated=False)
    """

    def __init__(self, path: str | os.PathLike[str], *, synchronous: Synchronous = "full") -> None:
        if synchronous not in ("full", "normal"):
            raise InputError(f"synchronous={synchronous!r}: pass 'full' or 'normal'")
        self.path = Path(path)
        self.synchronous = synchronous
        self._conn = _open(self.path, synchronous)
        self._lock = threading.Lock()
        self._closed = False

    def __repr__(self) -> str:
        return f"EventStore({str(self.path)!r}, synchronous={self.synchronous!r})"

    def add(self, event: Event, body: bytes, *, received_at: datetime | None = None) -> Stored:
        """Store a verified delivery and return once it is committed.

        Args:
            event: What :func:`~dialkit.webhooks.verify` returned for ``body``.
            body: The raw body, kept as delivered.
            received_at: The receiver's time; now when ``None``.

        Raises:
            StoreError: The write failed; nothing was stored.
        """
        return self.write([row_of(event, body, received_at or datetime.now(UTC),
                                  event.delivery_id, event.signed_at)])[0]

    def write(self, rows: list[Row]) -> list[Stored]:
        """Store rows (from :func:`row_of`) in one transaction: one commit for all.

        Safe to call from several threads (one writes at a time).

        Raises:
            StoreError: The write failed; none of the rows was stored.
        """
        with self._lock:
            if self._closed:
                raise StoreError(f"the event store {self.path} is closed")
            try:
                self._conn.execute("BEGIN IMMEDIATE")
                stored = _outcomes(rows, self._seen_before(rows))
                repeated = [outcome.repeated for outcome in stored]
                for start in range(0, len(rows), MAX_BATCH):
                    end = start + MAX_BATCH
                    self._conn.execute(*_upsert(rows[start:end], repeated[start:end]))
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise StoreError(f"could not store events in {self.path}: {exc}") from None
        return stored

    def events(self) -> list[Event]:
        """Every stored event as :func:`~dialkit.webhooks.verify` gave it, oldest first
        (``created_at``), its ``delivery_id`` and ``signed_at`` the first delivery's (no
        ``signed_at`` for one stored before it was kept): to run handlers again
        after the process stopped before they ran (``registry.dispatch`` each one).

        Raises:
            StoreError: The store is closed or cannot be read.
        """
        with self._lock:
            if self._closed:
                raise StoreError(f"the event store {self.path} is closed")
            try:
                rows = self._conn.execute(
                    "SELECT body, json_extract(deliveries, '$[0].id'), "
                    "json_extract(deliveries, '$[0].signed_at') FROM events "
                    "ORDER BY created_at, id").fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"cannot read the event store {self.path}: {exc}") from None
        return [event_of(parse_envelope(body.encode()), delivery_id, signed_at)
                for body, delivery_id, signed_at in rows]

    def close(self) -> None:
        """Close the file (a write in progress ends first)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._conn.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def _seen_before(self, rows: list[Row]) -> dict[str, list[Delivery]]:
        """The deliveries seen of the rows' events already stored (usually none)."""
        ids = list({row[0] for row in rows})
        seen: dict[str, list[Delivery]] = {}
        for start in range(0, len(ids), MAX_BATCH):
            chunk = ids[start:start + MAX_BATCH]
            marks = ", ".join("?" * len(chunk))
            for event_id, delivery_id, signed_at in self._conn.execute(
                    "SELECT events.id, json_extract(value, '$.id'), "
                    "json_extract(value, '$.signed_at') FROM events, "
                    f"json_each(events.deliveries) WHERE events.id IN ({marks})", chunk):
                seen.setdefault(event_id, []).append((delivery_id, signed_at))
        return seen


def _outcomes(rows: list[Row], seen: dict[str, list[Delivery]]) -> list[Stored]:
    """Each row's outcome, in order: a delivery seen before (stored, or earlier in
    ``rows``) is a repeat; any other, one without an id or timestamp included, is new."""
    stored = []
    for event_id, _, _, _, delivery_id, signed_at, _ in rows:
        known = seen.setdefault(event_id, [])
        repeated = any(_same(delivery, (delivery_id, signed_at)) for delivery in known)
        if not repeated:
            known.append((delivery_id, signed_at))
        stored.append(Stored(event_id, len(known), repeated))
    return stored


def _same(seen: Delivery, new: Delivery) -> bool:
    """Whether two deliveries of one event are one: the same delivery id, or the same
    signed timestamp (what the signature covers; the delivery id it does not)."""
    return any(old is not None and old == given for old, given in zip(seen, new, strict=True))


def _open(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    """A connection in WAL mode with the schema in place; ``StoreError`` saying why not."""
    try:  # made owner-only if missing (personal data); a link refused, never followed
        os.close(open_no_link(path, os.O_CREAT | os.O_RDONLY, "the webhook event store"))
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                               timeout=BUSY_TIMEOUT_MS / 1000)
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open the event store {path}: {exc}") from None
    try:
        _prepare(conn)
        conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError(f"cannot use {path} as an event store: {exc}") from None
    return conn


def _prepare(conn: sqlite3.Connection) -> None:
    if sqlite3.sqlite_version_info < (3, 31):
        raise sqlite3.NotSupportedError(f"SQLite {sqlite3.sqlite_version} is older than 3.31 "
                                        "(JSON paths with [#])")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version not in (0, 1, FORMAT_VERSION):
        raise sqlite3.DatabaseError(f"it is a SQLite file of another kind (user_version "
                                    f"{version})")
    if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
        raise sqlite3.OperationalError("WAL mode is not available for it")
    conn.executescript(SCHEMA)
    if version == 1:
        _from_version_1(conn)
    conn.execute(f"PRAGMA user_version = {FORMAT_VERSION}")


def _from_version_1(conn: sqlite3.Connection) -> None:
    """Add ``repeats`` to a version-1 store and count each event's repeated delivery ids
    there instead of in ``deliveries_seen``, in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("ALTER TABLE events ADD COLUMN repeats INTEGER NOT NULL DEFAULT 0")
        rows = conn.execute("SELECT id, deliveries FROM events").fetchall()
        conn.executemany(
            "UPDATE events SET deliveries = ?, deliveries_seen = ?, repeats = ? WHERE id = ?",
            [(*_distinct(deliveries), event_id) for event_id, deliveries in rows])
        conn.execute("COMMIT")
    except sqlite3.Error:
        conn.execute("ROLLBACK")
        raise


def _distinct(deliveries: str) -> tuple[str, int, int]:
    """A version-1 ``deliveries`` list without its repeated ids (the first arrival of each
    kept), its length, and how many were left out."""
    listed = json.loads(deliveries)
    kept: list[dict[str, str | None]] = []
    for delivery in listed:
        if delivery["id"] is None or all(k["id"] != delivery["id"] for k in kept):
            kept.append(delivery)
    return json.dumps(kept, separators=(",", ":")), len(kept), len(listed) - len(kept)
