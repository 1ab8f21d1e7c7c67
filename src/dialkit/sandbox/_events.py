"""Webhook events: recording an event and queueing one delivery per subscribed endpoint.

Operations and the dialer simulation call :func:`record_event`; the delivery
worker (:mod:`._delivery`) sends what is queued. An event belongs to one data
set, so a sandbox client's endpoints only ever receive that client's events.
"""

from __future__ import annotations

from typing import Any

import orjson

from dialkit.contract import new_id

from ._store import Store

SCHEMA_VERSION = 1


def envelope(row: Any) -> dict[str, Any]:
    """The delivered JSON of a stored event: ``{id, type, created_at, api_version, ...}``."""
    body: dict[str, Any] = {
        "id": row["id"], "type": row["type"], "created_at": row["created_at"],
        "api_version": "v1", "schema_version": row["schema_version"],
        "data": orjson.loads(row["data"]),
    }
    if row["call_details"] is not None:
        body["call_details"] = orjson.loads(row["call_details"])
    return body


def queue_delivery(store: Store, dataset: str, event_id: str, webhook_id: str, now: str,
                   replay_of: str | None = None) -> str:
    """A new pending delivery of an event to one endpoint; its ``whd_`` id."""
    delivery_id = new_id("whd_")
    store.conn.execute(
        "INSERT INTO webhook_deliveries (dataset, id, event_id, webhook_id, status, attempts, "
        "replay_of, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?, ?)",
        (dataset, delivery_id, event_id, webhook_id, replay_of, now, now))
    return delivery_id


def record_event(store: Store, dataset: str, event_type: str, data: dict[str, Any], now: str,
                 *, call_details: dict[str, Any] | None = None,
                 only_webhook: str | None = None) -> str:
    """Store an event and queue it for every enabled endpoint subscribed to its type.

    Args:
        store: The emulator's store.
        dataset: The data set the event belongs to.
        event_type: One of the contract's event types.
        data: The event data, exactly as it will be delivered.
        now: Service time in storage form.
        call_details: The envelope's ``call_details``, for call events.
        only_webhook: Deliver to this endpoint only (``webhook.test``), subscribed or not.
    """
    event_id = new_id("evt_")
    store.conn.execute(
        "INSERT INTO webhook_events (dataset, id, type, created_at, schema_version, data, "
        "call_details) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (dataset, event_id, event_type, now, SCHEMA_VERSION, orjson.dumps(data).decode(),
         None if call_details is None else orjson.dumps(call_details).decode()))
    if only_webhook is not None:
        targets = [only_webhook]
    else:
        rows = store.rows("SELECT id, events FROM webhooks WHERE dataset = ? AND enabled = 1",
                          (dataset,))
        targets = [r["id"] for r in rows if event_type in orjson.loads(r["events"])]
    for webhook_id in targets:
        queue_delivery(store, dataset, event_id, webhook_id, now)
    return event_id
