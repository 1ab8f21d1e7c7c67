"""Webhook events: recording an event and queueing one delivery per subscribed endpoint.

Operations and the dialer simulation call :func:`record_event`; the delivery
worker (:mod:`.._simulation._delivery`) sends what is queued. An event belongs to one data
set, so a sandbox client's endpoints only ever receive that client's events.
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class CallFacts:
    """What a finished outbound call's events say (times in storage form)."""

    call_id: str
    campaign_id: str | None
    lead_id: str | None
    from_number: str
    to_number: str
    status: str
    started_at: str
    answered_at: str | None
    ended_at: str
    duration_seconds: float
    hangup_cause: str | None
    disposition: str | None
    follow_up_at: str | None = None


def call_events(call: CallFacts) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """``call.completed`` and, when an agent logged an outcome, ``disposition.logged``:
    each as (type, data, call_details), stamped with the call's end.

    The one description of these events, for the dialer simulation and the
    seeded world's history alike.
    """
    answered = call.answered_at is not None
    summary: dict[str, Any] = dict.fromkeys(
        ("text", "next_action", "language", "source", "generated_at"))
    summary.update(status="processing" if answered else "not_generated", truncated=False)
    disposition = None if call.disposition is None else {
        "status": "ready", "code": call.disposition, "notes": None,
        "follow_up_at": call.follow_up_at, "logged_at": call.ended_at}
    details = {"schema_version": 1, "summary": summary, "disposition": disposition}
    events = [("call.completed", {
        "call_id": call.call_id, "direction": "outbound", "status": call.status,
        "from": call.from_number, "to": call.to_number, "campaign_id": call.campaign_id,
        "started_at": call.started_at, "answered_at": call.answered_at,
        "ended_at": call.ended_at, "duration_seconds": call.duration_seconds,
        "hangup_cause": call.hangup_cause}, details)]
    if answered and call.disposition:
        events.append(("disposition.logged", {
            "call_id": call.call_id, "campaign_id": call.campaign_id, "lead_id": call.lead_id,
            "disposition_code": call.disposition, "notes": None, "phone": call.to_number,
            "logged_at": call.ended_at}, details))
    return events
