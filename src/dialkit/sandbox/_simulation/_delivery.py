"""The delivery worker: POSTs queued webhook deliveries and schedules their retries.

:func:`delivery_loop` runs on the server's event loop for the server's life.
Every :data:`POLL_SECONDS` it starts a pass, :func:`deliver_due`, over the
deliveries that are due (``pending``, or ``retry_scheduled`` whose
``next_attempt_at`` has come on the *service* clock, so a manual clock moved by
``POST /_sandbox/clock`` makes retries due). Passes overlap, so a receiver that
takes its full 10 s holds up nobody else; a delivery being attempted is claimed
in memory, so it is never sent twice at once.

Each attempt re-checks the endpoint's URL (:mod:`._webhook_urls`), signs
``"<timestamp>." + body`` with HMAC-SHA256 (with both secrets during a
rotation's overlap) and records the outcome by the contract's state table:
2xx within 10 s is ``delivered``; anything else is retried after 1, 5, 15, 60
and 240 minutes, and the sixth failed attempt makes it ``failed``. Deliveries
still waiting when their endpoint is disabled or deleted become ``cancelled``
(:func:`cancel_pending`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta
from weakref import WeakKeyDictionary

import httpx
import orjson

from dialkit.contract import WEBHOOK_ANSWER_SECONDS, WEBHOOK_RETRY_MINUTES

from .._state._clock import isoformat
from .._state._events import envelope
from .._state._service import Service
from .._state._store import Store
from ._webhook_urls import UrlRefused, check_url

log = logging.getLogger("dialkit.sandbox.delivery")

POLL_SECONDS = 0.2
"""How often the loop looks for due deliveries."""

SETTLE_POLL_SECONDS = 0.01
"""How often :func:`deliver_settled` looks whether the loop's attempts are over."""

WAITING = ("pending", "retry_scheduled")
"""Delivery states that still expect an attempt."""

_CLAIMED: WeakKeyDictionary[Service, set[str]] = WeakKeyDictionary()
"""Deliveries being attempted right now, per service."""


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """Hex HMAC-SHA256 of ``"<timestamp>." + body`` keyed with ``secret``."""
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(endpoint: sqlite3.Row, timestamp: int, body: bytes, now: str) -> str:
    """``sha256=<new>``, plus ``,sha256=<old>`` while a rotated-out secret still overlaps."""
    value = f"sha256={sign(endpoint['secret'], timestamp, body)}"
    previous, expires = endpoint["previous_secret"], endpoint["previous_expires_at"]
    if previous is not None and expires is not None and now < expires:
        value += f",sha256={sign(previous, timestamp, body)}"
    return value


def cancel_pending(store: Store, dataset: str, webhook_id: str, reason: str) -> None:
    """Cancel an endpoint's deliveries that still wait for an attempt (it was disabled or
    deleted), saying why in ``failure_reason``."""
    store.conn.execute(
        "UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, "
        "failure_reason = ? WHERE dataset = ? AND webhook_id = ? AND status IN (?, ?)",
        (reason, dataset, webhook_id, *WAITING))


def _client() -> httpx.AsyncClient:
    """The HTTP client of deliveries: 10 s to answer, no redirects, no proxies from the env."""
    return httpx.AsyncClient(timeout=WEBHOOK_ANSWER_SECONDS, trust_env=False,
                             follow_redirects=False)


def _claim_due(service: Service) -> list[sqlite3.Row]:
    """The due deliveries nobody is attempting, now claimed by the caller."""
    claimed = _CLAIMED.setdefault(service, set())
    rows = service.store.rows(
        "SELECT * FROM webhook_deliveries WHERE status IN (?, ?) AND next_attempt_at <= ? "
        "ORDER BY next_attempt_at, id", (*WAITING, service.clock.stamp()))
    due = [r for r in rows if r["id"] not in claimed]
    claimed.update(r["id"] for r in due)
    return due


async def deliver_due(service: Service, client: httpx.AsyncClient | None = None) -> int:
    """One pass: attempt every due delivery at once and wait for all of them.

    Args:
        service: The emulator whose deliveries to send.
        client: The HTTP client to send with; a fresh one when ``None``.

    Returns:
        The number of deliveries attempted.
    """
    due = _claim_due(service)
    if not due:
        return 0
    try:
        if client is None:
            async with _client() as own:
                await asyncio.gather(*(_attempt(service, own, d) for d in due))
        else:
            await asyncio.gather(*(_attempt(service, client, d) for d in due))
    finally:
        _CLAIMED[service].difference_update(d["id"] for d in due)
    return len(due)


async def deliver_settled(service: Service) -> int:
    """Attempt every due delivery now, and wait for those the loop's passes are attempting
    too (:func:`deliver_due`): after it, each delivery due by the service's clock has been
    attempted (one that failed waits for its retry, on the service clock). Returns how many
    this call attempted. A manual clock's advance asks it, so that its caller reads what was
    delivered; the wait is bounded by the contract's 10 s a receiver may take."""
    attempted = await deliver_due(service)
    deadline = asyncio.get_running_loop().time() + WEBHOOK_ANSWER_SECONDS + 1
    while _CLAIMED.get(service) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(SETTLE_POLL_SECONDS)
    return attempted


async def delivery_loop(service: Service) -> None:
    """Start a :func:`deliver_due` pass every :data:`POLL_SECONDS`, forever (until cancelled)."""
    passes: set[asyncio.Task[int]] = set()
    async with _client() as client:
        try:
            while True:
                task = asyncio.create_task(deliver_due(service, client))
                passes.add(task)
                task.add_done_callback(_pass_done(passes))
                await asyncio.sleep(POLL_SECONDS)
        finally:
            for task in passes:
                task.cancel()
            await asyncio.gather(*passes, return_exceptions=True)


def _pass_done(passes: set[asyncio.Task[int]]) -> Callable[[asyncio.Task[int]], None]:
    def done(task: asyncio.Task[int]) -> None:
        passes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("webhook delivery pass failed", exc_info=task.exception())
    return done


async def _attempt(service: Service, client: httpx.AsyncClient, delivery: sqlite3.Row) -> None:
    """Send one delivery and record the outcome; an unexpected error is logged, not raised."""
    try:
        store, dataset = service.store, delivery["dataset"]
        endpoint = store.row("SELECT * FROM webhooks WHERE dataset = ? AND id = ?",
                             (dataset, delivery["webhook_id"]))
        if endpoint is None:
            cancel_pending(store, dataset, delivery["webhook_id"], "the endpoint was deleted")
            return
        event = store.row("SELECT * FROM webhook_events WHERE dataset = ? AND id = ?",
                          (dataset, delivery["event_id"]))
        assert event is not None, "a delivery's event is deleted only with the delivery"
        now = service.clock.now()
        status_code, outcome = await _send(service, client, endpoint, event, delivery, now)
        _record(store, delivery, status_code, outcome, now)
    except Exception:
        log.exception("webhook delivery %s failed unexpectedly", delivery["id"])


async def _send(service: Service, client: httpx.AsyncClient, endpoint: sqlite3.Row,
                event: sqlite3.Row, delivery: sqlite3.Row,
                now: datetime) -> tuple[int | None, str]:
    """POST the envelope; the receiver's status code (if it answered) and a note for people."""
    try:
        await check_url(endpoint["url"],
                        allow_loopback=service.config.server.allow_loopback_webhooks)
    except UrlRefused as exc:
        return None, f"the URL was refused: {exc}"
    body = orjson.dumps(envelope(event))
    timestamp = int(now.timestamp())
    headers = {
        "Content-Type": "application/json",
        "Service-Signature": signature_header(endpoint, timestamp, body, isoformat(now)),
        "Service-Timestamp": str(timestamp),
        "Service-Event-Id": event["id"],
        "Service-Event": event["type"],
        "Service-Delivery-Id": delivery["id"],
    }
    try:
        response = await client.post(endpoint["url"], content=body, headers=headers)
    except httpx.TimeoutException:
        return None, f"no answer within {WEBHOOK_ANSWER_SECONDS} s"
    except httpx.HTTPError as exc:
        return None, f"the receiver could not be reached ({type(exc).__name__})"
    return response.status_code, f"the receiver answered HTTP {response.status_code}"


def _record(store: Store, delivery: sqlite3.Row, status_code: int | None, outcome: str,
            now: datetime) -> None:
    """Write an attempt's outcome, unless the delivery was cancelled meanwhile."""
    attempts, stamp = delivery["attempts"] + 1, isoformat(now)
    next_at = delivered_at = reason = None
    if status_code is not None and 200 <= status_code < 300:
        status, delivered_at = "delivered", stamp
    elif attempts <= len(WEBHOOK_RETRY_MINUTES):
        status = "retry_scheduled"
        next_at = isoformat(now + timedelta(minutes=WEBHOOK_RETRY_MINUTES[attempts - 1]))
    else:
        status, reason = "failed", f"{attempts} attempts failed; the last: {outcome}"
    store.conn.execute(
        "UPDATE webhook_deliveries SET status = ?, attempts = ?, last_status_code = ?, "
        "last_attempt_at = ?, next_attempt_at = ?, delivered_at = ?, failure_reason = ? "
        "WHERE dataset = ? AND id = ? AND status IN (?, ?)",
        (status, attempts, status_code, stamp, next_at, delivered_at, reason,
         delivery["dataset"], delivery["id"], *WAITING))
