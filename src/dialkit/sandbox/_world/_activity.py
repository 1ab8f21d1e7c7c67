"""The seeded world's recent activity: webhook events with their delivery history, and SMS.

A newcomer's first frames include ``webhook_events()`` and ``sms_reports()``;
an empty world would show them nothing. So the world also holds what the
live service would have produced before its "now": a ``call.completed`` event
(and a ``disposition.logged`` one when an agent logged an outcome) for each of
its most recent outbound calls, delivered to one endpoint with a delivery
history (most delivered at once, some after retries, a few failed), and a
handful of text messages to its leads with their reports. The endpoint is
disabled, so nothing the user does is delivered to it.

The events are the dialer simulation's own (:func:`.._state._events.call_events`),
built from the calls just written; everything is a pure function of the
world's random stream.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from datetime import timedelta

import numpy as np
import orjson

from dialkit.contract import WEBHOOK_RETRY_MINUTES

from .._state._clock import isoformat, parse_timestamp
from .._state._events import SCHEMA_VERSION, CallFacts, call_events
from .._state._prices import PRICES

EVENT_CALLS = 150
"""The most recent outbound calls that get events."""

SMS_MESSAGES = 40
"""Text messages in the world, over its last week."""

WEBHOOK_URL = "https://hooks.example.invalid/dialkit-world"
DELIVERY_OUTCOMES = (0.9, 0.07, 0.03)
"""Shares of deliveries that succeeded at once, after retries, and failed."""

_SMS_BODIES = ("Your appointment is confirmed for tomorrow.",
               "We tried to reach you today; reply CALL for a callback.",
               "Thanks for your time on the phone today.")
IdMaker = Callable[[str, int], list[str]]
"""Makes ``n`` ids with a prefix, from the world's id stream."""

_CALL_COLUMNS = ("id", "campaign_id", "lead_id", "from_number", "to_number", "status",
                 "created_at", "answered_at", "ended_at", "duration_seconds", "hangup_cause",
                 "disposition")


def write_activity(conn: sqlite3.Connection, dataset: str, anchor: str,
                   rng: np.random.Generator, new_ids: IdMaker) -> None:
    """Write the endpoint, the events and their deliveries, and the messages."""
    webhook_id = new_ids("wh_", 1)[0]
    created = isoformat(parse_timestamp(anchor) - timedelta(days=7))
    conn.execute(
        "INSERT INTO webhooks (dataset, id, url, host, description, events, enabled, secret, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
        (dataset, webhook_id, WEBHOOK_URL, "hooks.example.invalid",
         "The seeded world's endpoint: it received the recent call events (disabled)",
         orjson.dumps(["call.completed", "disposition.logged"]).decode(),
         "whsec_" + bytes(rng.integers(0, 256, 24, dtype=np.uint8)).hex(), created, anchor))
    events = list(_events(conn, dataset))
    event_ids = new_ids("evt_", len(events))
    delivery_ids = new_ids("whd_", len(events))
    outcomes = rng.choice(len(DELIVERY_OUTCOMES), size=len(events), p=DELIVERY_OUTCOMES)
    for (kind, data, details), event_id, delivery_id, outcome in zip(
            events, event_ids, delivery_ids, outcomes.tolist(), strict=True):
        at = str(data["ended_at"] if kind == "call.completed" else data["logged_at"])
        conn.execute(
            "INSERT INTO webhook_events (dataset, id, type, created_at, schema_version, data, "
            "call_details) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (dataset, event_id, kind, at, SCHEMA_VERSION, orjson.dumps(data).decode(),
             orjson.dumps(details).decode()))
        conn.execute(
            "INSERT INTO webhook_deliveries (dataset, id, event_id, webhook_id, status, "
            "attempts, last_status_code, last_attempt_at, delivered_at, failure_reason, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (dataset, delivery_id, event_id, webhook_id, *_history(at, outcome), at))
    _write_messages(conn, dataset, anchor, rng, new_ids)


def _events(conn: sqlite3.Connection,
            dataset: str) -> Iterator[tuple[str, dict[str, object], dict[str, object]]]:
    """The events of the most recent outbound campaign calls, oldest first."""
    rows = conn.execute(
        f"SELECT {', '.join(_CALL_COLUMNS)} FROM calls WHERE dataset = ? AND "
        "direction = 'outbound' AND campaign_id IS NOT NULL "
        "ORDER BY ended_at DESC, id LIMIT ?", (dataset, EVENT_CALLS)).fetchall()
    for row in reversed(rows):
        facts = dict(zip(_CALL_COLUMNS, row, strict=True))
        yield from call_events(CallFacts(
            call_id=facts["id"], campaign_id=facts["campaign_id"], lead_id=facts["lead_id"],
            from_number=facts["from_number"], to_number=facts["to_number"],
            status=facts["status"], started_at=facts["created_at"],
            answered_at=facts["answered_at"], ended_at=facts["ended_at"],
            duration_seconds=facts["duration_seconds"], hangup_cause=facts["hangup_cause"],
            disposition=facts["disposition"]))


def _history(at: str, outcome: int) -> tuple[object, ...]:
    """status, attempts, last status code, last attempt, delivered at, failure reason."""
    sent = parse_timestamp(at)
    if outcome == 0:
        done = isoformat(sent + timedelta(milliseconds=300))
        return "delivered", 1, 200, done, done, None
    if outcome == 1:
        done = isoformat(sent + timedelta(minutes=WEBHOOK_RETRY_MINUTES[0]))
        return "delivered", 2, 200, done, done, None
    attempts = len(WEBHOOK_RETRY_MINUTES) + 1
    last = isoformat(sent + timedelta(minutes=sum(WEBHOOK_RETRY_MINUTES)))
    return ("failed", attempts, 503, last, None,
            f"{attempts} attempts failed; the last: the receiver answered HTTP 503")


def _write_messages(conn: sqlite3.Connection, dataset: str, anchor: str,
                    rng: np.random.Generator, new_ids: IdMaker) -> None:
    phones = [row[0] for row in conn.execute(
        "SELECT phone FROM leads WHERE dataset = ? ORDER BY created_at DESC, id LIMIT ?",
        (dataset, SMS_MESSAGES))]
    now = parse_timestamp(anchor)
    ages = np.sort(rng.integers(3_600, 7 * 86_400, len(phones)))[::-1]
    bodies = rng.integers(0, len(_SMS_BODIES), len(phones))
    for n, (phone, age, body, message_id) in enumerate(zip(
            phones, ages.tolist(), bodies.tolist(), new_ids("msg_", len(phones)), strict=True)):
        at = isoformat(now - timedelta(seconds=age))
        conn.execute(
            "INSERT INTO sms (dataset, id, credential_id, to_number, body, status, "
            "client_reference, segments, cost, created_at, updated_at) "
            "VALUES (?, ?, 'world', ?, ?, 'queued', ?, 1, ?, ?, ?)",
            (dataset, message_id, phone, _SMS_BODIES[body], f"world-{n:04d}",
             PRICES["sms"], at, at))
