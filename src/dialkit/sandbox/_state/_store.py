"""The emulator's SQLite store: schema, data sets and copy-on-first-use.

Every row belongs to a *data set*:

- ``seed:<account>`` holds the account's synthetic world, written once by
  :mod:`.._world._build` and never changed afterwards;
- ``live:<account>`` answers the account's live keys;
- ``client:<account>/<client>`` answers one API client's test keys (the
  contract's sandbox: a private data set per API client).

Tables fall in two groups. *Copied* tables (campaigns, leads, callbacks,
appointments, agents) are mutable: a data set gets its own copy of the seeded
rows on first use, so every client starts from the same world and changes only
its own copy. *Layered* tables (calls, lead history, DNC numbers, caller ids)
only ever grow: a data set reads the seeded rows plus its own, so a large world
of a million calls is never copied. See :meth:`Store.layers`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .._world._file import WORLD_MARKER, connect_world

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS datasets (
    dataset TEXT PRIMARY KEY, account TEXT NOT NULL, created_at TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS campaigns (
    dataset TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, status TEXT NOT NULL,
    dialer_mode TEXT NOT NULL, archived INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL, updated_at TEXT, started_at TEXT, completed_at TEXT,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS campaigns_order ON campaigns (dataset, created_at, id);

CREATE TABLE IF NOT EXISTS leads (
    dataset TEXT NOT NULL, id TEXT NOT NULL, campaign_id TEXT, owner_client TEXT,
    external_id TEXT, phone TEXT NOT NULL, country TEXT, full_name TEXT, email TEXT,
    status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, custom_fields TEXT,
    last_attempt_at TEXT, next_attempt_at TEXT, disposition_code TEXT, hangup_cause TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 1,
    priority_until TEXT,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS leads_order ON leads (dataset, created_at, id);
CREATE INDEX IF NOT EXISTS leads_campaign ON leads (dataset, campaign_id, created_at, id);
CREATE INDEX IF NOT EXISTS leads_phone ON leads (dataset, campaign_id, phone);
CREATE UNIQUE INDEX IF NOT EXISTS leads_external
    ON leads (dataset, owner_client, external_id) WHERE external_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS lead_history (
    seq INTEGER PRIMARY KEY, dataset TEXT NOT NULL, lead_id TEXT NOT NULL, at TEXT NOT NULL,
    event TEXT NOT NULL, detail TEXT);
CREATE INDEX IF NOT EXISTS lead_history_lead ON lead_history (lead_id, at);

CREATE TABLE IF NOT EXISTS calls (
    dataset TEXT NOT NULL, account TEXT NOT NULL, id TEXT NOT NULL, direction TEXT NOT NULL,
    from_number TEXT NOT NULL, to_number TEXT NOT NULL, status TEXT NOT NULL,
    created_at TEXT NOT NULL, answered_at TEXT, ended_at TEXT, duration_seconds REAL,
    campaign_id TEXT, lead_id TEXT, disposition TEXT, hangup_cause TEXT,
    agent_extension TEXT, agent_joined_at TEXT, ai_agent TEXT, recording INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS calls_order ON calls (account, created_at, id);
CREATE INDEX IF NOT EXISTS calls_campaign ON calls (account, campaign_id, created_at, id);
CREATE INDEX IF NOT EXISTS calls_id ON calls (id);

CREATE TABLE IF NOT EXISTS callbacks (
    dataset TEXT NOT NULL, id TEXT NOT NULL, lead_id TEXT, campaign_id TEXT NOT NULL,
    scheduled_at TEXT NOT NULL, status TEXT NOT NULL, notes TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS callbacks_order ON callbacks (dataset, campaign_id, created_at, id);

CREATE TABLE IF NOT EXISTS appointments (
    dataset TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, scheduled_at TEXT NOT NULL,
    timezone TEXT, duration_minutes INTEGER NOT NULL, service_type TEXT, contact_name TEXT,
    phone TEXT NOT NULL, email TEXT, notes TEXT, source TEXT NOT NULL,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS appointments_order ON appointments (dataset, created_at, id);

CREATE TABLE IF NOT EXISTS agents (
    dataset TEXT NOT NULL, id TEXT NOT NULL, extension TEXT NOT NULL, email TEXT NOT NULL,
    name TEXT NOT NULL, state TEXT NOT NULL, held_until TEXT,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS dnc (
    dataset TEXT NOT NULL, phone TEXT NOT NULL, added_at TEXT NOT NULL, source TEXT NOT NULL,
    PRIMARY KEY (dataset, phone)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS dnc_phone ON dnc (phone);

CREATE TABLE IF NOT EXISTS caller_ids (
    dataset TEXT NOT NULL, phone TEXT NOT NULL, PRIMARY KEY (dataset, phone)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS consents (
    dataset TEXT NOT NULL, id TEXT NOT NULL, phone TEXT, data TEXT NOT NULL,
    created_at TEXT NOT NULL, PRIMARY KEY (dataset, id)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS sms (
    dataset TEXT NOT NULL, id TEXT NOT NULL, credential_id TEXT NOT NULL, to_number TEXT NOT NULL,
    body TEXT NOT NULL, status TEXT NOT NULL, client_reference TEXT NOT NULL,
    segments INTEGER NOT NULL, cost REAL NOT NULL, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS sms_reference ON sms (dataset, client_reference);
CREATE INDEX IF NOT EXISTS sms_order ON sms (dataset, created_at, id);

CREATE TABLE IF NOT EXISTS sending_log (
    dataset TEXT NOT NULL, credential_id TEXT NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL,
    cost REAL NOT NULL);
CREATE INDEX IF NOT EXISTS sending_log_at ON sending_log (dataset, at);

CREATE TABLE IF NOT EXISTS webhooks (
    dataset TEXT NOT NULL, id TEXT NOT NULL, url TEXT NOT NULL, host TEXT NOT NULL,
    description TEXT NOT NULL, events TEXT NOT NULL, enabled INTEGER NOT NULL,
    secret TEXT NOT NULL, previous_secret TEXT, previous_expires_at TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhooks_order ON webhooks (dataset, created_at, id);

CREATE TABLE IF NOT EXISTS webhook_events (
    dataset TEXT NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL, created_at TEXT NOT NULL,
    schema_version INTEGER NOT NULL, data TEXT NOT NULL, call_details TEXT,
    replay_day TEXT, replay_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhook_events_order ON webhook_events (dataset, created_at, id);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    dataset TEXT NOT NULL, id TEXT NOT NULL, event_id TEXT NOT NULL, webhook_id TEXT NOT NULL,
    status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, replay_of TEXT,
    last_status_code INTEGER, last_attempt_at TEXT, next_attempt_at TEXT, delivered_at TEXT,
    failure_reason TEXT, created_at TEXT NOT NULL,
    PRIMARY KEY (dataset, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS webhook_deliveries_event ON webhook_deliveries (dataset, event_id);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);

CREATE TABLE IF NOT EXISTS idempotency (
    scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, state TEXT NOT NULL,
    status INTEGER, headers TEXT, body BLOB, created_at TEXT NOT NULL,
    PRIMARY KEY (scope, key)) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS planted (
    account TEXT NOT NULL, kind TEXT NOT NULL, call_id TEXT, phone TEXT, detail TEXT);
CREATE INDEX IF NOT EXISTS planted_account ON planted (account, kind);
"""

COPIED_TABLES = ("campaigns", "leads", "callbacks", "appointments", "agents", "sms",
                 "webhooks", "webhook_events", "webhook_deliveries")
"""Mutable tables: each data set works on its own copy of the seeded rows."""

LAYERED_TABLES = ("calls", "lead_history", "dnc", "caller_ids")
"""Append-only tables: a data set reads the seeded rows plus its own."""

OWN_TABLES = ("consents", "sending_log")
"""Tables with no seeded rows at all."""


def seed_dataset(account: str) -> str:
    """The data set holding an account's seeded world."""
    return f"seed:{account}"


class Store:
    """One SQLite connection shared by the server's event loop and the admin surface.

    The emulator answers requests on one event loop, so statements never run
    concurrently; the lock guards the rare calls from other threads (start-up,
    tests).
    """

    def __init__(self, path: str = ":memory:") -> None:
        """Open the store at ``path`` (a file: see :func:`.._world._file.connect_world`)."""
        self.path = path
        in_memory = path == ":memory:"
        self.conn = (sqlite3.connect(path, check_same_thread=False, isolation_level=None)
                     if in_memory else connect_world(path))
        self.conn.row_factory = sqlite3.Row
        self.lock = threading.RLock()
        if not in_memory:
            self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(SCHEMA)
        self.set_meta(WORLD_MARKER, "sandbox")
        self._columns = {t: self._table_columns(t) for t in COPIED_TABLES}
        self._ready: set[str] = {r[0] for r in self.conn.execute("SELECT dataset FROM datasets")}

    def _table_columns(self, table: str) -> list[str]:
        return [r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")]

    def close(self) -> None:
        """Close the connection (the file, if any, keeps the data)."""
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction: everything in it is written, or nothing."""
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """All rows of a query."""
        return self.conn.execute(sql, params).fetchall()

    def row(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """The first row of a query, or ``None``."""
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def meta(self, key: str) -> str | None:
        """A value from the meta table."""
        row = self.row("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Store a value in the meta table."""
        self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def layers(self, dataset: str, account: str) -> tuple[str, str]:
        """The two data sets a layered table is read from: the seed and ``dataset``."""
        return seed_dataset(account), dataset

    def ensure_dataset(self, dataset: str, account: str, now: str) -> None:
        """Give ``dataset`` its copy of the account's seeded rows, once."""
        if dataset in self._ready:
            return
        with self.transaction() as conn:
            seed = seed_dataset(account)
            for table in COPIED_TABLES:
                cols = self._columns[table]
                rest = ", ".join(c for c in cols if c != "dataset")
                conn.execute(
                    f"INSERT INTO {table} (dataset, {rest}) SELECT ?, {rest} FROM {table} "
                    "WHERE dataset = ?",
                    (dataset, seed),
                )
            conn.execute("INSERT INTO datasets VALUES (?, ?, ?)", (dataset, account, now))
        self._ready.add(dataset)

    def drop_datasets(self, account: str) -> None:
        """Forget every data set of ``account`` but its seed (the admin reset)."""
        with self.transaction() as conn:
            names = [r[0] for r in conn.execute(
                "SELECT dataset FROM datasets WHERE account = ?", (account,))]
            for name in names:
                for table in (*COPIED_TABLES, *LAYERED_TABLES, *OWN_TABLES):
                    conn.execute(f"DELETE FROM {table} WHERE dataset = ?", (name,))
            conn.execute("DELETE FROM datasets WHERE account = ?", (account,))
            self._ready.difference_update(names)
