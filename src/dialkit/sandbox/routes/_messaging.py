"""SMS sending, delivery reports and usage; WhatsApp sending, which no account has yet.

Nothing is ever texted. An accepted SMS is stored in the caller's data set and
counted against the sending caps; its delivery is simulated at read time from
the service clock, so a test that advances the clock sees it move on:

- ``queued`` until 1 s after acceptance, ``sent`` until 5 s after;
- then ``delivered``, or ``failed`` with ``error_code`` ``unreachable`` for a
  recipient number ending in ``999``.

Shapes the contract does not show (see docs/emulator.md): the delivery report,
the usage counters and the WhatsApp request body.
"""

from __future__ import annotations

import math
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter
from fastapi.routing import APIRoute
from pydantic import AwareDatetime, BaseModel, Field

from dialkit._phones._asked import PhoneNumber, country_of, e164_text
from dialkit.contract import (
    CALLING_HOURS,
    E164,
    SMS_CLIENT_REFERENCE_MAX,
    ErrorCode,
    MessageId,
    Page,
    RequestBody,
    Resource,
    SmsMessage,
    SmsSendRequest,
    new_id,
)

from .._http._problems import ApiProblem
from .._state._caps import check_caps, record_send
from .._state._clock import isoformat, parse_timestamp
from .._state._compliance import (
    is_listed,
    local_hour,
    require_phone,
    within_calling_hours,
)
from .._state._prices import PRICES
from .._state._service import RequestContext
from ._dnc import consent_withdrawn
from ._routing import Ctx, ListQuery, endpoint, json_response, paginate, query_model

router = APIRouter()

SINGLE_SEGMENT_CHARS = 160
"""A body up to this length is one segment."""

CONCATENATED_SEGMENT_CHARS = 153
"""Characters per segment of a longer body (the rest carries the joining header)."""

SENT_AFTER_SECONDS = 1
SETTLED_AFTER_SECONDS = 5
FAILING_SUFFIX = "999"
"""Recipient numbers ending in this fail delivery (the emulator's own rule)."""

FAILURE_CODE = "unreachable"


def segment_count(body: str) -> int:
    """How many SMS segments ``body`` takes (one, or 153 characters per part)."""
    if len(body) <= SINGLE_SEGMENT_CHARS:
        return 1
    return math.ceil(len(body) / CONCATENATED_SEGMENT_CHARS)


def _check_reference(ctx: RequestContext, reference: str) -> None:
    row = ctx.service.store.row(
        "SELECT id FROM sms WHERE dataset = ? AND client_reference = ?", (ctx.dataset, reference))
    if row is not None:
        raise ApiProblem(ErrorCode.DUPLICATE_CLIENT_REFERENCE,
                         f"client_reference {reference!r} was already used by message "
                         f"{row['id']}; nothing was sent again. Use a new reference for a new "
                         "message.")


def _refused(reason: str, detail: str) -> ApiProblem:
    return ApiProblem(ErrorCode.MESSAGE_REFUSED, detail, errors=[("/to", reason)])


def _check_recipient(ctx: RequestContext, number: PhoneNumber, to: str) -> None:
    """The compliance checks, in the contract's order: DNC, country, hours, consent."""
    if is_listed(ctx, to):
        raise ApiProblem(ErrorCode.ON_DNC, "The number is on the Do-Not-Call list; it must "
                         "not be texted.")
    country = country_of(number)
    if country in ctx.account.blocked_countries:
        raise ApiProblem(ErrorCode.BLOCKED_COUNTRY,
                         f"The account blocks destinations in {country}.")
    now = ctx.service.clock.now()
    if not within_calling_hours(number, now):
        start, end = CALLING_HOURS
        raise _refused("calling_hours",
                       f"The recipient's local hour is {local_hour(number, now):02d}; texts "
                       f"are allowed from {start:02d}:00 to {end:02d}:00 local time. Send "
                       "later.")
    if consent_withdrawn(ctx, to, "sms"):
        raise _refused("no_consent", "The latest consent record for this number and channel "
                       "sms withdraws consent; record new consent before texting.")


def _store_message(ctx: RequestContext, body: SmsSendRequest, to: str, segments: int,
                   cost: float) -> dict[str, Any]:
    message = {"id": new_id("msg_"), "to": to, "status": "queued",
               "client_reference": body.client_reference, "created_at": ctx.now()}
    with ctx.service.store.transaction() as conn:
        conn.execute(
            "INSERT INTO sms (dataset, id, credential_id, to_number, body, status, "
            "client_reference, segments, cost, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ctx.dataset, message["id"], ctx.caller.key.credential_id, to, body.body, "queued",
             body.client_reference, segments, cost, message["created_at"],
             message["created_at"]))
        record_send(ctx, "sms", cost)
    return message


@endpoint(router, "sms.send", status_code=202, response_model=SmsMessage)
async def send_sms(ctx: Ctx, body: SmsSendRequest) -> Any:
    """Accept one SMS after the reference, compliance, balance and cap checks."""
    number = require_phone(body.to, "/to")
    to = e164_text(number)
    _check_reference(ctx, body.client_reference)
    _check_recipient(ctx, number, to)
    segments = segment_count(body.body)
    cost = round(segments * PRICES["sms"], 4)
    check_caps(ctx, cost)
    return json_response(_store_message(ctx, body, to, segments, cost), status_code=202)


class DeliveryReport(Resource):
    """Where one SMS stands (shape not shown by the contract)."""

    message_id: MessageId
    to: str
    status: str = Field(description="queued, sent, delivered or failed")
    error_code: str | None
    client_reference: str
    segments: int
    estimated_cost: float
    created_at: AwareDatetime
    updated_at: AwareDatetime


class DeliveryReportQuery(ListQuery):
    """Filters of GET /v1/sms/delivery-reports."""

    client_reference: str | None = Field(None, min_length=1, max_length=SMS_CLIENT_REFERENCE_MAX)


def _delivery(row: sqlite3.Row, now: datetime) -> tuple[str, str | None, datetime]:
    """Status, error code and time of the last change of a message at ``now``."""
    created = parse_timestamp(row["created_at"])
    settled = created + timedelta(seconds=SETTLED_AFTER_SECONDS)
    sent = created + timedelta(seconds=SENT_AFTER_SECONDS)
    if now >= settled:
        if row["to_number"].endswith(FAILING_SUFFIX):
            return "failed", FAILURE_CODE, settled
        return "delivered", None, settled
    if now >= sent:
        return "sent", None, sent
    return "queued", None, created


def _report(row: sqlite3.Row, now: datetime) -> dict[str, Any]:
    status, error_code, changed = _delivery(row, now)
    return {"message_id": row["id"], "to": row["to_number"], "status": status,
            "error_code": error_code, "client_reference": row["client_reference"],
            "segments": row["segments"], "estimated_cost": row["cost"],
            "created_at": row["created_at"], "updated_at": isoformat(changed)}


@endpoint(router, "sms.delivery_reports", response_model=Page[DeliveryReport], query=True)
async def delivery_reports(ctx: Ctx, query: query_model(DeliveryReportQuery)) -> Any:  # type: ignore[valid-type]
    """Delivery reports of the caller's messages, newest first."""
    where, params = "dataset = ?", [ctx.dataset]
    now = ctx.service.clock.now()
    return paginate(ctx, "sms_delivery_reports", query, table="sms", where=where, params=params,
                    render=lambda row: _report(row, now))


class UsagePeriod(Resource):
    """SMS counted since ``since``."""

    since: AwareDatetime
    messages: int
    segments: int
    estimated_spend: float


class SendingCaps(Resource):
    """The caps SMS counts against (null: no cap configured), and what today used of them."""

    key_daily_cap: int | None
    key_per_minute_cap: int | None
    key_sent_today: int
    account_daily_cap: int | None
    account_sent_today: int
    spend_limit: float | None
    spend_today: float
    balance: float


class SmsUsage(Resource):
    """Usage counters of the caller's data set (shape not shown by the contract)."""

    as_of: AwareDatetime
    today: UsagePeriod
    month: UsagePeriod
    caps: SendingCaps


def _period(ctx: RequestContext, since: datetime) -> dict[str, Any]:
    row = ctx.service.store.row(
        "SELECT COUNT(*), COALESCE(SUM(segments), 0), COALESCE(SUM(cost), 0) FROM sms "
        "WHERE dataset = ? AND created_at >= ?", (ctx.dataset, isoformat(since)))
    messages, segments, spend = (row[0], row[1], row[2]) if row else (0, 0, 0.0)
    return {"since": isoformat(since), "messages": messages, "segments": segments,
            "estimated_spend": round(spend, 4)}


def _sent_today(ctx: RequestContext, day: datetime) -> tuple[int, int, float]:
    """Sends (calls and SMS, as the caps count them) today: by this key, in all, and spend."""
    row = ctx.service.store.row(
        "SELECT COALESCE(SUM(credential_id = ?), 0), COUNT(*), COALESCE(SUM(cost), 0) "
        "FROM sending_log WHERE dataset = ? AND at >= ?",
        (ctx.caller.key.credential_id, ctx.dataset, isoformat(day)))
    return (row[0], row[1], round(row[2], 4)) if row else (0, 0, 0.0)


def _caps(ctx: RequestContext, day: datetime) -> dict[str, Any]:
    key, account = ctx.caller.key, ctx.account
    by_key, in_all, spend = _sent_today(ctx, day)
    return {"key_daily_cap": key.daily_cap, "key_per_minute_cap": key.per_minute_cap,
            "key_sent_today": by_key, "account_daily_cap": account.daily_cap,
            "account_sent_today": in_all, "spend_limit": account.spend_limit,
            "spend_today": spend, "balance": account.balance}


@endpoint(router, "sms.usage", response_model=SmsUsage)
async def sms_usage(ctx: Ctx) -> Any:
    """SMS counters for today and this month (UTC), and the caps with today's use."""
    now = ctx.service.clock.now()
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return json_response({"as_of": isoformat(now), "today": _period(ctx, day),
                          "month": _period(ctx, day.replace(day=1)), "caps": _caps(ctx, day)})


class WhatsAppSendRequest(RequestBody):
    """Body of ``POST /v1/whatsapp/messages`` as published (shape not shown by the contract).

    Documentation only: every request is answered 403 ``tier_not_enabled``
    before its body is looked at. Exactly one of ``text`` or
    ``template_name`` would name the content.
    """

    to: E164
    text: str | None = Field(default=None, min_length=1, max_length=4096)
    template_name: str | None = Field(default=None, min_length=1, max_length=512)
    template_language: str | None = Field(default=None, min_length=2, max_length=35)
    template_parameters: list[str] | None = Field(default=None, max_length=20)
    client_reference: str = Field(min_length=1, max_length=SMS_CLIENT_REFERENCE_MAX)


@endpoint(router, "whatsapp.send", status_code=202)
async def send_whatsapp() -> Any:
    """Always 403 ``tier_not_enabled`` (the pipeline answers before this runs)."""
    raise ApiProblem(ErrorCode.TIER_NOT_ENABLED,
                     "WhatsApp sending is not available for any account yet; use POST /v1/sms.")


def _publish_body(name: str, model: type[BaseModel]) -> None:
    """Show ``model`` as the request body of operation ``name`` in the OpenAPI document.

    For an operation whose handler must not validate a body (it would answer
    400 before the contract's 403).
    """
    route = next(r for r in router.routes if isinstance(r, APIRoute) and r.name == name)
    route.openapi_extra = {"requestBody": {"required": True, "content": {
        "application/json": {"schema": model.model_json_schema()}}}}


_publish_body("whatsapp.send", WhatsAppSendRequest)
