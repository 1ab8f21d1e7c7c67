"""Callbacks: list by campaign, schedule, cancel and move, with the lead kept in step.

A callback belongs to one lead and takes its campaign from it. While a lead
has a pending callback its status is ``callback`` and its ``next_attempt_at``
is the earliest pending ``scheduled_at``; when none is left (cancelled), the
lead goes back to ``contacted`` (or ``new`` if it was never dialled). Each
change is noted in the lead's history as ``callback_scheduled``,
``callback_moved`` or ``callback_cancelled`` with ``{callback_id, scheduled_at}``.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

import orjson
from fastapi import APIRouter

from dialkit.contract import (
    Callback,
    CallbackCreateRequest,
    CallbackRescheduleRequest,
    CallbackStatus,
    CampaignId,
    EmptyBody,
    ErrorCode,
    LeadStatus,
    Page,
    new_id,
)

from .._http._problems import ApiProblem, field_error
from .._state._caps import check_daily_cap
from .._state._clock import isoformat
from .._state._compliance import is_listed
from .._state._service import RequestContext
from ._routing import Ctx, ListQuery, endpoint, find, json_response, paginate, query_model

router = APIRouter()

_COLUMNS = ("id", "lead_id", "campaign_id", "scheduled_at", "status", "notes", "created_at")


class CallbackListQuery(ListQuery):
    """Filters of GET /v1/callbacks; ``campaign_id`` is required."""

    campaign_id: CampaignId
    status: CallbackStatus | None = None


def render(row: sqlite3.Row) -> dict[str, Any]:
    """A callback row as the contract's Callback."""
    return {c: row[c] for c in _COLUMNS}


def require_future(ctx: RequestContext, moment: datetime, pointer: str) -> str:
    """``moment`` in storage form, or 400 ``validation_failed`` if it is not after now.

    A time already past could never come due, so it is refused rather than
    stored (the contract does not say; see docs/emulator.md).
    """
    if moment <= ctx.service.clock.now():
        raise field_error(pointer, "in_past",
                          "The time is in the past. Send a future date-time in ISO 8601 with "
                          "an offset, e.g. 2026-11-21T10:00:00Z.")
    return isoformat(moment)


def _load(ctx: RequestContext, callback_id: str) -> sqlite3.Row:
    return find(ctx, "callbacks", callback_id, "callback")


def _check_callable(ctx: RequestContext, lead: sqlite3.Row) -> None:
    """A callback needs a campaign to dial from and a number that may be called."""
    if lead["campaign_id"] is None:
        raise field_error("/lead_id", "lead_without_campaign",
                          "The lead belongs to no campaign, so no campaign could call it back. "
                          "Schedule callbacks for leads of a campaign.")
    if lead["status"] == LeadStatus.DNC or is_listed(ctx, lead["phone"]):
        raise ApiProblem(ErrorCode.ON_DNC,
                         "The lead's number is on the Do-Not-Call list; it cannot be called "
                         "back.")


def _sync_lead(conn: sqlite3.Connection, ctx: RequestContext, callback_id: str,
               event: str) -> None:
    """Note ``event`` in the lead's history; its status and next attempt follow its callbacks."""
    callback = conn.execute("SELECT lead_id, scheduled_at FROM callbacks WHERE dataset = ? "
                            "AND id = ?", (ctx.dataset, callback_id)).fetchone()
    lead_id, now = callback["lead_id"], ctx.now()
    if lead_id is None:
        return
    detail = {"callback_id": callback_id, "scheduled_at": callback["scheduled_at"]}
    conn.execute("INSERT INTO lead_history (dataset, lead_id, at, event, detail) "
                 "VALUES (?, ?, ?, ?, ?)",
                 (ctx.dataset, lead_id, now, event, orjson.dumps(detail).decode()))
    due = conn.execute(
        "SELECT MIN(scheduled_at) FROM callbacks WHERE dataset = ? AND lead_id = ? "
        "AND status = 'pending'", (ctx.dataset, lead_id)).fetchone()[0]
    if due is not None:
        conn.execute(
            "UPDATE leads SET status = 'callback', next_attempt_at = ?, updated_at = ?, "
            "version = version + 1 WHERE dataset = ? AND id = ?",
            (due, now, ctx.dataset, lead_id))
        return
    conn.execute(
        "UPDATE leads SET status = CASE WHEN attempts > 0 THEN 'contacted' ELSE 'new' END, "
        "next_attempt_at = NULL, updated_at = ?, version = version + 1 "
        "WHERE dataset = ? AND id = ? AND status = 'callback'",
        (now, ctx.dataset, lead_id))


def _not_pending(row: sqlite3.Row) -> ApiProblem:
    return ApiProblem(ErrorCode.CALLBACK_NOT_PENDING,
                      f"The callback is {row['status']}; only a pending callback can be "
                      "cancelled or moved. Schedule a new one instead.")


@endpoint(router, "callbacks.list", response_model=Page[Callback], query=True)
async def list_callbacks(ctx: Ctx, query: query_model(CallbackListQuery)) -> Any:  # type: ignore[valid-type]
    """A campaign's callbacks, newest created first; an unknown campaign gives an empty page."""
    where, params = "dataset = ?", [ctx.dataset]
    return paginate(ctx, "callbacks", query, table="callbacks", where=where, params=params,
                    render=render)


@endpoint(router, "callbacks.create", status_code=201, response_model=Callback)
async def create_callback(ctx: Ctx, body: CallbackCreateRequest) -> Any:
    """Schedule a callback for a lead that is not on the Do-Not-Call list."""
    lead = find(ctx, "leads", body.lead_id, "lead")
    scheduled_at = require_future(ctx, body.scheduled_at, "/scheduled_at")
    _check_callable(ctx, lead)
    check_daily_cap(ctx)
    callback_id, now = new_id("cb_"), ctx.now()
    with ctx.service.store.transaction() as conn:
        conn.execute(
            "INSERT INTO callbacks (dataset, id, lead_id, campaign_id, scheduled_at, status, "
            "notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
            (ctx.dataset, callback_id, lead["id"], lead["campaign_id"], scheduled_at,
             body.notes, now, now))
        _sync_lead(conn, ctx, callback_id, "callback_scheduled")
    return json_response(render(_load(ctx, callback_id)), status_code=201)


def _update(ctx: RequestContext, row: sqlite3.Row, event: str, **changes: str) -> sqlite3.Row:
    """Write ``changes`` to a callback and bring its lead in step, all or nothing."""
    sets = ", ".join(f"{name} = ?" for name in changes)
    with ctx.service.store.transaction() as conn:
        conn.execute(f"UPDATE callbacks SET {sets}, updated_at = ? WHERE dataset = ? AND id = ?",
                     (*changes.values(), ctx.now(), ctx.dataset, row["id"]))
        _sync_lead(conn, ctx, row["id"], event)
    return _load(ctx, row["id"])


@endpoint(router, "callbacks.cancel", response_model=Callback)
async def cancel_callback(ctx: Ctx, callback_id: str,
                          body: EmptyBody | None = None) -> Any:
    """pending → cancelled; cancelled stays; anything else is 409 ``callback_not_pending``."""
    row = _load(ctx, callback_id)
    if row["status"] == CallbackStatus.PENDING:
        row = _update(ctx, row, "callback_cancelled", status=CallbackStatus.CANCELLED.value)
    elif row["status"] != CallbackStatus.CANCELLED:
        raise _not_pending(row)
    return json_response(render(row))


@endpoint(router, "callbacks.reschedule", response_model=Callback)
async def reschedule_callback(ctx: Ctx, callback_id: str,
                              body: CallbackRescheduleRequest) -> Any:
    """A pending callback moves to a new future time; any other is 409."""
    row = _load(ctx, callback_id)
    if row["status"] != CallbackStatus.PENDING:
        raise _not_pending(row)
    scheduled_at = require_future(ctx, body.scheduled_at, "/scheduled_at")
    return json_response(render(_update(ctx, row, "callback_moved", scheduled_at=scheduled_at)))
