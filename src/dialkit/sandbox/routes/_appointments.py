"""Appointments: list, read, book, cancel and move, with ETags and webhook events.

Every change bumps the row's ``version``; the ``ETag`` is that version in
quotes (``"3"``), and an ``If-Match`` that names another version answers 412
``precondition_failed``. Booking, moving and cancelling emit
``appointment.booked``, ``appointment.moved`` and ``appointment.cancelled``.
"""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter, Header

from dialkit._phones._asked import country_of, e164_text
from dialkit.contract import (
    MAX_IF_MATCH_LENGTH,
    Appointment,
    AppointmentCreateRequest,
    AppointmentRescheduleRequest,
    AppointmentStatus,
    EmptyBody,
    ErrorCode,
    Page,
    WebhookEventType,
    new_id,
    time_zone_names,
)

from .._http._problems import ApiProblem, field_error
from .._state._compliance import require_phone
from .._state._events import record_event
from .._state._service import RequestContext
from ._callbacks import require_future
from ._routing import Ctx, ListQuery, endpoint, find, json_response, paginate, query_model

router = APIRouter()

DEFAULT_DURATION_MINUTES = 30
"""Length of a booking that names none (the contract gives no default)."""

SOURCE = "api"
"""``source`` of an appointment booked through the API."""

MODIFIABLE = frozenset({AppointmentStatus.SCHEDULED, AppointmentStatus.CONFIRMED})
"""States an appointment can be cancelled or moved from."""

_COLUMNS = ("id", "status", "scheduled_at", "timezone", "duration_minutes", "service_type",
            "contact_name", "phone", "email", "notes", "source", "created_at", "updated_at")

IfMatch = Annotated[str | None, Header(alias="If-Match", max_length=MAX_IF_MATCH_LENGTH)]


class AppointmentListQuery(ListQuery):
    """Filters of GET /v1/appointments (not shown by the contract; see docs/emulator.md)."""

    status: AppointmentStatus | None = None


def render(row: sqlite3.Row) -> dict[str, Any]:
    """An appointment row as the contract's Appointment."""
    return {c: row[c] for c in _COLUMNS}


def etag(row: sqlite3.Row) -> str:
    """The strong ETag of an appointment's current version."""
    return f'"{row["version"]}"'


def _answer(row: sqlite3.Row, status_code: int = 200) -> Any:
    return json_response(render(row), status_code=status_code, headers={"ETag": etag(row)})


def event_data(row: sqlite3.Row) -> dict[str, Any]:
    """The data of an appointment event, as the contract's ``appointment.booked`` table."""
    return {
        "appointment_id": row["id"], "status": row["status"], "service": row["service_type"],
        "starts_at": row["scheduled_at"], "timezone": row["timezone"],
        "duration_minutes": row["duration_minutes"],
        "customer": {"name": row["contact_name"], "phone": row["phone"]},
        "source": row["source"],
    }


def _load(ctx: RequestContext, appointment_id: str) -> sqlite3.Row:
    return find(ctx, "appointments", appointment_id, "appointment")


def _modifiable(ctx: RequestContext, appointment_id: str, if_match: str | None) -> sqlite3.Row:
    """The appointment, after the ``If-Match`` check; 412 when it changed since that read."""
    row = _load(ctx, appointment_id)
    if if_match is not None and if_match.strip() not in ("*", etag(row)):
        raise ApiProblem(ErrorCode.PRECONDITION_FAILED,
                         f"The appointment changed since that read (its ETag is now {etag(row)})."
                         " Read it again and retry with the new ETag.")
    return row


def _not_modifiable(row: sqlite3.Row) -> ApiProblem:
    return ApiProblem(ErrorCode.APPOINTMENT_NOT_MODIFIABLE,
                      f"The appointment is {row['status']}; only a scheduled or confirmed "
                      "appointment can be cancelled or moved. Book a new one instead.")


def _timezone(value: str | None) -> str | None:
    if value is not None and value not in time_zone_names():
        raise field_error("/timezone", "invalid_timezone",
                          f"{value!r} is not an IANA time zone; send a name such as "
                          "'Europe/Berlin' or 'America/New_York'.")
    return value


def _change(ctx: RequestContext, row: sqlite3.Row, event: WebhookEventType,
            **changes: Any) -> sqlite3.Row:
    """Write ``changes`` as a new version and emit ``event``, all or nothing."""
    sets = "".join(f"{name} = ?, " for name in changes)
    with ctx.service.store.transaction() as conn:
        conn.execute(f"UPDATE appointments SET {sets}updated_at = ?, version = version + 1 "
                     "WHERE dataset = ? AND id = ?",
                     (*changes.values(), ctx.now(), ctx.dataset, row["id"]))
        changed = _load(ctx, row["id"])
        record_event(ctx.service.store, ctx.dataset, event, event_data(changed), ctx.now())
    return changed


@endpoint(router, "appointments.list", response_model=Page[Appointment], query=True)
async def list_appointments(ctx: Ctx, query: query_model(AppointmentListQuery)) -> Any:  # type: ignore[valid-type]
    """Appointments newest created first, optionally of one status."""
    where, params = "dataset = ?", [ctx.dataset]
    return paginate(ctx, "appointments", query, table="appointments", where=where,
                    params=params, render=render)


@endpoint(router, "appointments.get", response_model=Appointment)
async def get_appointment(ctx: Ctx, appointment_id: str) -> Any:
    """One appointment, with its ``ETag``."""
    return _answer(_load(ctx, appointment_id))


@endpoint(router, "appointments.create", status_code=201, response_model=Appointment)
async def create_appointment(ctx: Ctx, body: AppointmentCreateRequest) -> Any:
    """Book an appointment (``scheduled``, source ``api``); emit ``appointment.booked``."""
    number = require_phone(body.phone, "/phone")
    timezone = _timezone(body.timezone)
    scheduled_at = require_future(ctx, body.scheduled_at, "/scheduled_at")
    country = country_of(number)
    if country in ctx.account.blocked_countries:
        raise ApiProblem(ErrorCode.BLOCKED_COUNTRY,
                         f"The account blocks numbers in {country}; book with a number of "
                         "another country.")
    appointment_id, now = new_id("appt_"), ctx.now()
    with ctx.service.store.transaction() as conn:
        conn.execute(
            "INSERT INTO appointments (dataset, id, status, scheduled_at, timezone, "
            "duration_minutes, service_type, contact_name, phone, email, notes, source, "
            "created_at, updated_at, version) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, 1)",
            (ctx.dataset, appointment_id, AppointmentStatus.SCHEDULED.value, scheduled_at,
             timezone, body.duration_minutes or DEFAULT_DURATION_MINUTES, body.service_type,
             body.contact_name, e164_text(number), body.notes, SOURCE, now, now))
        row = _load(ctx, appointment_id)
        record_event(ctx.service.store, ctx.dataset, WebhookEventType.APPOINTMENT_BOOKED,
                     event_data(row), now)
    return _answer(row, status_code=201)


@endpoint(router, "appointments.cancel", response_model=Appointment)
async def cancel_appointment(ctx: Ctx, appointment_id: str, if_match: IfMatch = None,
                             body: EmptyBody | None = None) -> Any:
    """scheduled or confirmed → cancelled; cancelled stays; completed or no-show is 409."""
    row = _modifiable(ctx, appointment_id, if_match)
    if row["status"] in MODIFIABLE:
        row = _change(ctx, row, WebhookEventType.APPOINTMENT_CANCELLED,
                      status=AppointmentStatus.CANCELLED.value)
    elif row["status"] != AppointmentStatus.CANCELLED:
        raise _not_modifiable(row)
    return _answer(row)


@endpoint(router, "appointments.reschedule", response_model=Appointment)
async def reschedule_appointment(ctx: Ctx, appointment_id: str,
                                 body: AppointmentRescheduleRequest,
                                 if_match: IfMatch = None) -> Any:
    """Move a scheduled or confirmed appointment (its status stays); emit ``appointment.moved``."""
    row = _modifiable(ctx, appointment_id, if_match)
    if row["status"] not in MODIFIABLE:
        raise _not_modifiable(row)
    changes: dict[str, Any] = {
        "scheduled_at": require_future(ctx, body.scheduled_at, "/scheduled_at")}
    if body.duration_minutes is not None:
        changes["duration_minutes"] = body.duration_minutes
    if body.timezone is not None:
        changes["timezone"] = _timezone(body.timezone)
    return _answer(_change(ctx, row, WebhookEventType.APPOINTMENT_MOVED, **changes))
