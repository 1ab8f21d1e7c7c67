"""Webhook endpoints: list, read, create, change, delete, test and rotate the signing secret.

Every webhook operation (here and in :mod:`._webhook_events`) takes its context
through :data:`WebhookCtx`, which answers 403 ``webhooks_disabled`` before
anything else of the operation runs. Endpoints belong to the caller's data set,
so the contract's "10 endpoints per account" is 10 per sandbox client (each
client's data set is its own view of the account). The full URL and the secret
are shown only in the create answer (the secret again, new, by rotate-secret);
the pipeline nulls ``secret`` in stored answers, so a replayed create shows
``secret: null``.
"""

from __future__ import annotations

import secrets
import sqlite3
from datetime import timedelta
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends
from fastapi.responses import Response

from dialkit.contract import (
    MAX_WEBHOOK_ENDPOINTS,
    SECRET_ROTATION_OVERLAP_SECONDS,
    EmptyBody,
    ErrorCode,
    Page,
    SecretRotation,
    WebhookCreateRequest,
    WebhookEndpoint,
    WebhookEndpointCreated,
    WebhookEventType,
    WebhookUpdateRequest,
    new_id,
)

from ..._http._problems import ApiProblem
from ..._simulation._delivery import cancel_pending
from ..._simulation._webhook_urls import UrlRefused, check_url, url_preview
from ..._state._clock import isoformat
from ..._state._events import record_event
from ..._state._service import RequestContext
from .._routing import Ctx, ListQuery, endpoint, json_response, paginate, query_model

router = APIRouter()

SECRET_PREFIX = "whsec_"


def _webhooks_enabled(ctx: Ctx) -> RequestContext:
    if not ctx.account.webhooks_enabled:
        raise ApiProblem(ErrorCode.WEBHOOKS_DISABLED,
                         "Webhooks are not enabled for this account. Ask the operator to switch "
                         "them on; until then every webhook operation answers 403.")
    return ctx


WebhookCtx = Annotated[RequestContext, Depends(_webhooks_enabled)]
"""The request context of a webhook operation; 403 ``webhooks_disabled`` comes first."""


def render(row: sqlite3.Row) -> dict[str, Any]:
    """An endpoint row as the contract's Webhook endpoint (never the full URL or secret)."""
    return {
        "id": row["id"], "url_preview": url_preview(row["url"]), "host": row["host"],
        "description": row["description"], "events": orjson.loads(row["events"]),
        "enabled": bool(row["enabled"]), "secret_hint": row["secret"][-4:],
        "created_at": row["created_at"], "updated_at": row["updated_at"],
    }


def load(ctx: RequestContext, webhook_id: str) -> sqlite3.Row:
    """An endpoint of the caller's data set, or 404 ``not_found``."""
    row = ctx.service.store.row("SELECT * FROM webhooks WHERE dataset = ? AND id = ?",
                                (ctx.dataset, webhook_id))
    if row is None:
        raise ApiProblem(ErrorCode.NOT_FOUND, "No webhook endpoint of this account has this id. "
                         "List them with GET /v1/webhooks.")
    return row


async def checked_host(ctx: RequestContext, url: str) -> str:
    """The host of ``url`` if the service may call it; else 422 ``webhook_url_refused``."""
    try:
        return await check_url(url, allow_loopback=ctx.service.config.server
                               .allow_loopback_webhooks)
    except UrlRefused as exc:
        raise ApiProblem(ErrorCode.WEBHOOK_URL_REFUSED, str(exc)) from None


def _events_json(events: list[WebhookEventType]) -> str:
    """The subscribed types as stored: each once, in the order first sent."""
    return orjson.dumps(list(dict.fromkeys(e.value for e in events))).decode()


def _new_secret() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


@endpoint(router, "webhooks.list", response_model=Page[WebhookEndpoint], query=True)
async def list_webhooks(ctx: WebhookCtx, query: query_model(ListQuery)) -> Any:  # type: ignore[valid-type]
    """The caller's endpoints, newest first."""
    return paginate(ctx, "webhooks", query, table="webhooks", where="dataset = ?",
                    params=[ctx.dataset], render=render)


@endpoint(router, "webhooks.get", response_model=WebhookEndpoint)
async def get_webhook(ctx: WebhookCtx, webhook_id: str) -> Any:
    """One endpoint."""
    return json_response(render(load(ctx, webhook_id)))


@endpoint(router, "webhooks.create", status_code=201, response_model=WebhookEndpointCreated)
async def create_webhook(ctx: WebhookCtx, body: WebhookCreateRequest) -> Any:
    """A new enabled endpoint; the answer carries its signing secret, shown this once."""
    host = await checked_host(ctx, body.url)
    store, now = ctx.service.store, ctx.now()
    count = store.row("SELECT COUNT(*) FROM webhooks WHERE dataset = ?", (ctx.dataset,))
    if count is not None and count[0] >= MAX_WEBHOOK_ENDPOINTS:
        raise ApiProblem(ErrorCode.WEBHOOK_LIMIT_REACHED,
                         f"The account already has {MAX_WEBHOOK_ENDPOINTS} webhook endpoints. "
                         "Delete one, or subscribe an existing one to more event types.")
    webhook_id, secret = new_id("wh_"), _new_secret()
    store.conn.execute(
        "INSERT INTO webhooks (dataset, id, url, host, description, events, enabled, secret, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
        (ctx.dataset, webhook_id, body.url, host, body.description or "",
         _events_json(body.events), secret, now, now))
    return json_response({**render(load(ctx, webhook_id)), "secret": secret}, status_code=201)


async def _changes(ctx: RequestContext, body: WebhookUpdateRequest) -> dict[str, Any]:
    """The columns a PATCH sets; a field that is absent or null stays as it is."""
    changes: dict[str, Any] = {}
    if body.url is not None:
        changes.update(url=body.url, host=await checked_host(ctx, body.url))
    if body.events is not None:
        changes["events"] = _events_json(body.events)
    if body.description is not None:
        changes["description"] = body.description
    if body.enabled is not None:
        changes["enabled"] = int(body.enabled)
    return changes


@endpoint(router, "webhooks.update", response_model=WebhookEndpoint)
async def update_webhook(ctx: WebhookCtx, webhook_id: str, body: WebhookUpdateRequest) -> Any:
    """Change URL, events, description or enabled; disabling cancels waiting deliveries."""
    load(ctx, webhook_id)
    changes = await _changes(ctx, body)
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        with ctx.service.store.transaction() as conn:
            conn.execute(f"UPDATE webhooks SET {assignments}, updated_at = ? "
                         "WHERE dataset = ? AND id = ?",
                         (*changes.values(), ctx.now(), ctx.dataset, webhook_id))
            if changes.get("enabled") == 0:
                cancel_pending(ctx.service.store, ctx.dataset, webhook_id,
                               "the endpoint was disabled")
    return json_response(render(load(ctx, webhook_id)))


@endpoint(router, "webhooks.delete", status_code=204)
async def delete_webhook(ctx: WebhookCtx, webhook_id: str) -> Any:
    """Remove the endpoint (204); its waiting deliveries are cancelled, its history kept."""
    load(ctx, webhook_id)
    with ctx.service.store.transaction() as conn:
        conn.execute("DELETE FROM webhooks WHERE dataset = ? AND id = ?",
                     (ctx.dataset, webhook_id))
        cancel_pending(ctx.service.store, ctx.dataset, webhook_id, "the endpoint was deleted")
    return Response(status_code=204)


@endpoint(router, "webhooks.test", status_code=202)
async def test_webhook(ctx: WebhookCtx, webhook_id: str, body: EmptyBody | None = None) -> Any:
    """Queue a ``webhook.test`` event for this endpoint only (even a disabled one).

    Answers 202 ``{event_id, delivery_id}``, the shape of a replay's deliveries.
    """
    load(ctx, webhook_id)
    store = ctx.service.store
    data = {"webhook_id": webhook_id, "message": "A test event requested for this endpoint."}
    with store.transaction():
        event_id = record_event(store, ctx.dataset, WebhookEventType.WEBHOOK_TEST.value, data,
                                ctx.now(), only_webhook=webhook_id)
    delivery = store.row("SELECT id FROM webhook_deliveries WHERE dataset = ? AND event_id = ?",
                         (ctx.dataset, event_id))
    assert delivery is not None
    return json_response({"event_id": event_id, "delivery_id": delivery["id"]}, status_code=202)


@endpoint(router, "webhooks.rotate_secret", response_model=SecretRotation)
async def rotate_secret(ctx: WebhookCtx, webhook_id: str, body: EmptyBody | None = None) -> Any:
    """A new signing secret; the one it replaces keeps signing too for 24 hours."""
    current = load(ctx, webhook_id)["secret"]
    now = ctx.service.clock.now()
    secret = _new_secret()
    expires = isoformat(now + timedelta(seconds=SECRET_ROTATION_OVERLAP_SECONDS))
    ctx.service.store.conn.execute(
        "UPDATE webhooks SET secret = ?, previous_secret = ?, previous_expires_at = ?, "
        "updated_at = ? WHERE dataset = ? AND id = ?",
        (secret, current, expires, isoformat(now), ctx.dataset, webhook_id))
    return json_response({"webhook_id": webhook_id, "secret": secret,
                          "secret_hint": secret[-4:], "previous_secret_expires_at": expires})
