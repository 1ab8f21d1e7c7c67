"""Webhook events: list, read, and replay to the endpoints that received them.

Events and deliveries are kept 30 days (the contract's history retention): an
older event is neither listed nor found. A list item is the same object as the
event detail, deliveries included, so one model reads both.

Replay rules chosen where the contract is silent:

- Without ``webhook_id``, the event goes again to every endpoint that received
  it and still exists and is enabled; with it, to that endpoint only, which
  must be an endpoint of the account (else 404 ``not_found``).
- 409 ``replay_unavailable`` when there is nothing the replay can go to right
  now: the named endpoint never received the event or is disabled, or no
  endpoint that received it still exists and is enabled.
- Each endpoint's URL is checked again (422 ``webhook_url_refused``; nothing is
  queued then). Each new delivery has ``replay_of`` = the endpoint's original
  delivery of the event.
- A replay request counts once against 5 per event per UTC day (service clock);
  the sixth answers 429 ``replay_limit_reached`` with ``Retry-After`` until the
  next UTC midnight. Refused replays do not count.
"""

from __future__ import annotations

import math
import sqlite3
from datetime import UTC, datetime, time, timedelta
from typing import Any

import orjson
from fastapi import APIRouter

from dialkit.contract import (
    MAX_REPLAYS_PER_EVENT_PER_DAY,
    WEBHOOK_RETENTION_DAYS,
    ApiVersion,
    ErrorCode,
    Page,
    ReplayRequest,
    ReplayResponse,
    WebhookEvent,
    WebhookEventType,
)

from ..._http._problems import ApiProblem
from ..._state._clock import isoformat
from ..._state._events import queue_delivery
from ..._state._service import RequestContext
from .._routing import ListQuery, endpoint, json_response, paginate, query_model
from ._webhooks import WebhookCtx, checked_host, load

router = APIRouter()

_DELIVERY_FIELDS = ("id", "webhook_id", "status", "attempts", "replay_of", "last_status_code",
                    "last_attempt_at", "next_attempt_at", "delivered_at", "failure_reason",
                    "created_at")


class WebhookEventListQuery(ListQuery):
    """Filters of GET /v1/webhook-events (not shown by the contract; see docs/emulator.md)."""

    type: WebhookEventType | None = None


def _kept_since(ctx: RequestContext) -> str:
    """The oldest ``created_at`` still in the 30-day history."""
    return isoformat(ctx.service.clock.now() - timedelta(days=WEBHOOK_RETENTION_DAYS))


def render(ctx: RequestContext, row: sqlite3.Row) -> dict[str, Any]:
    """An event row as the contract's Webhook event detail, deliveries oldest first."""
    deliveries = ctx.service.store.rows(
        "SELECT * FROM webhook_deliveries WHERE dataset = ? AND event_id = ? "
        "ORDER BY created_at, id", (ctx.dataset, row["id"]))
    return {
        "id": row["id"], "type": row["type"], "created_at": row["created_at"],
        "api_version": ApiVersion.V1.value, "schema_version": row["schema_version"],
        "deliveries": [{f: d[f] for f in _DELIVERY_FIELDS} for d in deliveries],
        "data": orjson.loads(row["data"]),
    }


def load_event(ctx: RequestContext, event_id: str) -> sqlite3.Row:
    """An event of the caller's data set within the history, or 404 ``not_found``."""
    row = ctx.service.store.row(
        "SELECT * FROM webhook_events WHERE dataset = ? AND id = ? AND created_at >= ?",
        (ctx.dataset, event_id, _kept_since(ctx)))
    if row is None:
        raise ApiProblem(ErrorCode.NOT_FOUND, "No webhook event of this account has this id "
                         f"(history is kept {WEBHOOK_RETENTION_DAYS} days).")
    return row


@endpoint(router, "webhook_events.list", response_model=Page[WebhookEvent], query=True)
async def list_events(ctx: WebhookCtx, query: query_model(WebhookEventListQuery)) -> Any:  # type: ignore[valid-type]
    """Events of the last 30 days, newest first, optionally of one ``type``."""
    where, params = "dataset = ? AND created_at >= ?", [ctx.dataset, _kept_since(ctx)]
    return paginate(ctx, "webhook_events", query, table="webhook_events", where=where,
                    params=params, render=lambda row: render(ctx, row))


@endpoint(router, "webhook_events.get", response_model=WebhookEvent)
async def get_event(ctx: WebhookCtx, event_id: str) -> Any:
    """One event with its deliveries."""
    return json_response(render(ctx, load_event(ctx, event_id)))


def _unavailable(detail: str) -> ApiProblem:
    return ApiProblem(ErrorCode.REPLAY_UNAVAILABLE, detail)


def _originals(ctx: RequestContext, event_id: str) -> dict[str, str]:
    """The first delivery of the event to each endpoint that received it, by endpoint id."""
    originals: dict[str, str] = {}
    for row in ctx.service.store.rows(
            "SELECT webhook_id, id FROM webhook_deliveries WHERE dataset = ? AND event_id = ? "
            "ORDER BY replay_of IS NOT NULL, created_at, id", (ctx.dataset, event_id)):
        originals.setdefault(row["webhook_id"], row["id"])
    return originals


def _targets(ctx: RequestContext, event_id: str,
             webhook_id: str | None) -> list[tuple[sqlite3.Row, str]]:
    """The endpoints a replay goes to, each with its original delivery; or 404/409."""
    originals = _originals(ctx, event_id)
    if webhook_id is not None:
        named = load(ctx, webhook_id)
        if webhook_id not in originals:
            raise _unavailable("This endpoint never received the event; a replay goes only to "
                               "endpoints that received it. Omit webhook_id to replay to them.")
        if not named["enabled"]:
            raise _unavailable("The endpoint is disabled. Enable it with PATCH "
                               "/v1/webhooks/{webhook_id}, then replay.")
        return [(named, originals[webhook_id])]
    marks = ", ".join("?" * len(originals))
    endpoints = ctx.service.store.rows(
        f"SELECT * FROM webhooks WHERE dataset = ? AND enabled = 1 AND id IN ({marks}) "
        "ORDER BY created_at, id", (ctx.dataset, *originals))
    if not endpoints:
        raise _unavailable("No endpoint that received this event still exists and is enabled. "
                           "Enable one, or name an endpoint that received it in webhook_id.")
    return [(e, originals[e["id"]]) for e in endpoints]


def _count_replay(ctx: RequestContext, event_id: str) -> None:
    """Count one replay of the event today (UTC), or 429 ``replay_limit_reached``."""
    now = ctx.service.clock.now()
    today = now.date().isoformat()
    event = load_event(ctx, event_id)
    count = event["replay_count"] if event["replay_day"] == today else 0
    if count >= MAX_REPLAYS_PER_EVENT_PER_DAY:
        midnight = datetime.combine(now.date() + timedelta(days=1), time(), tzinfo=UTC)
        raise ApiProblem(ErrorCode.REPLAY_LIMIT_REACHED,
                         f"This event was replayed {count} times today (UTC), the most allowed. "
                         "Replay it again after midnight UTC.",
                         retry_after=math.ceil((midnight - now).total_seconds()))
    ctx.service.store.conn.execute(
        "UPDATE webhook_events SET replay_day = ?, replay_count = ? WHERE dataset = ? AND id = ?",
        (today, count + 1, ctx.dataset, event_id))


@endpoint(router, "webhook_events.replay", status_code=202, response_model=ReplayResponse)
async def replay_event(ctx: WebhookCtx, event_id: str, body: ReplayRequest | None = None) -> Any:
    """Queue the event again, as new deliveries, to the endpoints that received it."""
    load_event(ctx, event_id)
    targets = _targets(ctx, event_id, body.webhook_id if body else None)
    for target, _ in targets:
        await checked_host(ctx, target["url"])
    store, now = ctx.service.store, ctx.now()
    with store.transaction():
        _count_replay(ctx, event_id)
        delivery_ids = [queue_delivery(store, ctx.dataset, event_id, target["id"], now,
                                       replay_of=original) for target, original in targets]
    return json_response({"event_id": event_id,
                          "deliveries": [{"event_id": event_id, "delivery_id": d}
                                         for d in delivery_ids]}, status_code=202)
