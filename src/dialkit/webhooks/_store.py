"""The event store: one SQLite file in WAL mode, written by one thread in group commits.

A receiver must not answer 2xx before the event is committed, yet a commit per
request costs a full write of the log (and with ``synchronous=FULL`` an
fsync) while nothing else is written. So every request hands its row to one
writer thread and waits; the writer takes whatever has queued up meanwhile,
writes it all in one transaction, commits once, and only then tells each
request. Under load one commit serves many requests; alone, a request waits
for its own commit only.

Durability: ``synchronous="full"`` (the default) makes a commit durable against
power loss and OS crashes; ``"normal"`` in WAL mode only against a crash of the
process (a ``kill -9``), since the log is synced at checkpoints only.

A delivery of an event already stored (same id: a retry, a replay, a
duplicate) is not stored again: its ``deliveries_seen`` goes up by one and its
delivery id is added to ``deliveries``.
"""

from __future__ import annotations

import os
import queue
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Literal, NamedTuple

from ._errors import StoreError
from ._events import Event

Synchronous = Literal["full", "normal"]

MAX_BATCH = 512
"""Most rows one commit writes."""

BUSY_TIMEOUT_MS = 5_000
"""How long a write waits for another connection's lock before it fails."""

FORMAT_VERSION = 1
"""``PRAGMA user_version`` of a store made by this module."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    created_at TEXT NOT NULL,
    received_at TEXT NOT NULL,
    deliveries_seen INTEGER NOT NULL,
    deliveries TEXT NOT NULL,
    body TEXT NOT NULL
);
"""

UPSERT = """
INSERT INTO events (id, type, created_at, received_at, deliveries_seen, deliveries, body)
VALUES (?1, ?2, ?3, ?4, 1, json_array(json_object('id', ?5, 'received_at', ?4)), ?6)
ON CONFLICT (id) DO UPDATE SET deliveries_seen = deliveries_seen + 1,
    deliveries = json_insert(deliveries, '$[#]', json_object('id', ?5, 'received_at', ?4))
RETURNING deliveries_seen
"""

Row = tuple[str, str, str, str, str | None, str]
"""What the writer inserts: id, type, created_at, received_at, delivery id, body."""


class Stored(NamedTuple):
    """The outcome of storing one delivery.

    Attributes:
        event_id: The event's id.
        deliveries_seen: Deliveries of this event seen so far, this one included.
    """

    event_id: str
    deliveries_seen: int

    @property
    def duplicate(self) -> bool:
        """Whether the event was stored before (this delivery only counted)."""
        return self.deliveries_seen > 1


Done = Callable[[Stored | StoreError], None]
"""Told, on the writer thread, how storing a row ended."""


def stamp(moment: datetime) -> str:
    """Storage form of a time: UTC, microseconds, fixed width (sorts as text)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def row_of(event: Event, body: bytes, received_at: datetime) -> Row:
    """The stored row of a verified delivery."""
    return (event.id, str(event.type), stamp(event.created_at), stamp(received_at),
            event.delivery_id, body.decode())


class EventStore:
    """Verified events, each stored once, in a SQLite file (WAL mode).

    Args:
        path: The SQLite file; created (owner-only) if missing.
        synchronous: ``"full"`` (durable against power loss) or ``"normal"``
            (durable against a crash of the process only; faster on slow disks).

    Raises:
        StoreError: The file cannot be opened or is not an event store.

    Example:
        >>> with EventStore("events.sqlite") as store:  # doctest: +SKIP
        ...     store.add(verify(body, headers, secret), body)
        Stored(event_id='evt_...', deliveries_seen=1)
    """

    def __init__(self, path: str | os.PathLike[str], *, synchronous: Synchronous = "full") -> None:
        if synchronous not in ("full", "normal"):
            raise ValueError(f"synchronous={synchronous!r}: pass 'full' or 'normal'")
        self.path = Path(path)
        self.synchronous = synchronous
        self._conn = _open(self.path, synchronous)
        self._queue: queue.SimpleQueue[tuple[Row, Done] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
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
        finished = threading.Event()
        outcome: list[Stored | StoreError] = []

        def done(result: Stored | StoreError) -> None:
            outcome.append(result)
            finished.set()

        self.submit(row_of(event, body, received_at or datetime.now(UTC)), done)
        finished.wait()
        if isinstance(outcome[0], StoreError):
            raise outcome[0]
        return outcome[0]

    def submit(self, row: Row, done: Done) -> None:
        """Queue a row for the next group commit; ``done`` is called on the writer thread."""
        with self._lock:
            if self._closed:
                raise StoreError(f"the event store {self.path} is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._write_loop, daemon=True,
                                                 name="dialkit event store")
                self._thread.start()
            self._queue.put((row, done))

    def close(self) -> None:
        """Commit what is queued, stop the writer and close the file."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join()
        self._conn.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch, stop = [first], False
            while len(batch) < MAX_BATCH:
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                batch.append(job)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Row, Done]]) -> None:
        """Write a batch in one transaction; tell every request how it ended."""
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            seen = [self._conn.execute(UPSERT, row).fetchone()[0] for row, _ in batch]
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            failed = StoreError(f"could not store events in {self.path}: {exc}")
            for _, done in batch:
                done(failed)
            return
        for (row, done), count in zip(batch, seen, strict=True):
            done(Stored(row[0], count))


def _open(path: Path, synchronous: Synchronous) -> sqlite3.Connection:
    """A connection in WAL mode with the schema in place; ``StoreError`` saying why not."""
    try:
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))  # personal data
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
    if sqlite3.sqlite_version_info < (3, 35):
        raise sqlite3.NotSupportedError(f"SQLite {sqlite3.sqlite_version} is older than 3.35 "
                                        "(RETURNING)")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version not in (0, FORMAT_VERSION):
        raise sqlite3.DatabaseError(f"it is a SQLite file of another kind (user_version "
                                    f"{version})")
    if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
        raise sqlite3.OperationalError("WAL mode is not available for it")
    conn.executescript(SCHEMA)
    conn.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
