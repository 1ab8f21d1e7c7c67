"""The emulator's tool audit log, kept in its store: written by ``/mcp``, read and cleared
by ``/_sandbox``. Apart from the tool server so that the admin routes load no MCP SDK."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from .._state._store import Store

if TYPE_CHECKING:
    from dialkit.mcp import AuditRecord

_AUDIT_SCHEMA = """
CREATE TABLE IF NOT EXISTS mcp_audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account TEXT,
    record TEXT NOT NULL
);
"""


class StoreAuditLog:
    """Tool-call records kept in the emulator's store (with ``--db``, across restarts)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.conn.executescript(_AUDIT_SCHEMA)

    def write(self, record: AuditRecord) -> None:
        """Keep ``record``."""
        self.store.conn.execute("INSERT INTO mcp_audit (account, record) VALUES (?, ?)",
                                (record.account, orjson.dumps(record.to_dict()).decode()))


def audit_records(store: Store, account: str | None = None) -> list[dict[str, Any]]:
    """The audit log, oldest first; only ``account``'s records when given."""
    store.conn.executescript(_AUDIT_SCHEMA)
    sql, params = "SELECT record FROM mcp_audit", tuple[str, ...]()
    if account is not None:
        sql, params = sql + " WHERE account = ?", (account,)
    return [orjson.loads(row["record"]) for row in store.rows(sql + " ORDER BY seq", params)]


def clear_audit(store: Store) -> None:
    """Forget every record (``POST /_sandbox/reset``)."""
    store.conn.executescript(_AUDIT_SCHEMA)
    store.conn.execute("DELETE FROM mcp_audit")
