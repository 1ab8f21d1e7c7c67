"""``client.callbacks`` and ``client.appointments`` against the emulator.

Seeded callbacks and appointments in every state are found through the
client's own lists (callbacks are listed per campaign); what the client
answers is compared with the rows of the ``full`` client's data set in the
emulator's store, and every change is read back.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

import pytest

from dialkit import Client
from dialkit.contract import Appointment, Callback, Lead
from dialkit.errors import (
    ApiError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
)
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport, offline

DATASET = "client:acme/full"
"""The data set the ``full`` test key is answered from."""
NOW = datetime(2026, 11, 2, 15, 0, tzinfo=UTC)
"""The emulator's service time: the manual clock is reset to it before every test."""
FUTURE = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)
LATER = datetime(2026, 11, 25, 18, 30, tzinfo=UTC)
PAST = datetime(2026, 10, 30, 18, 0, tzinfo=UTC)
"""Moments inside the calling hours of the leads' places (the client's guard refuses
others, issue 50): a Friday and a Wednesday, 12:00 in Chicago, 10:00 in Vancouver."""
SERVICE_REFUSAL = "the service's own refusal is what is tested"
"""The override of the client's guard (issue 50) by tests of what the service refuses."""

PHONE = "+14155550123"
IRAN = "+989121234567"
UNKNOWN_LEAD = "lead_00000000-0000-4000-8000-000000000000"
UNKNOWN_CALLBACK = "cb_00000000-0000-4000-8000-000000000000"
UNKNOWN_APPOINTMENT = "appt_00000000-0000-4000-8000-000000000000"


def stored(sandbox: Sandbox, table: str, condition: str, *args: Any) -> set[str]:
    """Ids of the ``full`` client's rows of ``table`` that meet an SQL ``condition``."""
    rows = sandbox.service.store.rows(
        f"SELECT id FROM {table} WHERE dataset = ? AND {condition}", (DATASET, *args))
    return {str(r[0]) for r in rows}


# --- callbacks ---------------------------------------------------------------------------


def seeded_callback(client: Client, status: str) -> Callback:
    """A seeded callback in ``status``, from the first campaign that holds one."""
    for campaign in client.campaigns.list():
        found = next(client.callbacks.list(campaign.id, status=status), None)
        if found is not None:
            return found
    raise AssertionError(f"the seeded world holds no {status} callback")


def callable_lead(client: Client) -> Lead:
    """A new seeded lead of a campaign whose number is not on the DNC list."""
    leads = list(islice(client.leads.list(status="new"), 20))
    listed = {r.phone for r in client.dnc.check([lead.phone for lead in leads]) if r.listed}
    return next(lead for lead in leads if lead.phone not in listed and lead.campaign_id)


def schedule(client: Client, lead: Lead, when: datetime = FUTURE) -> Callback:
    """Schedule a callback for ``lead`` and check what the answer says."""
    callback = client.callbacks.create(lead_id=lead.id, scheduled_at=when, notes="after lunch")
    assert isinstance(callback, Callback)
    assert (callback.lead_id, callback.campaign_id, callback.status, callback.scheduled_at,
            callback.notes) == (lead.id, lead.campaign_id, "pending", when, "after lunch")
    return callback


@pytest.mark.parametrize("status", ["pending", "completed", "cancelled"])
def test_callbacks_list_filters_by_status_newest_first(client: Client, sandbox: Sandbox,
                                                       status: str) -> None:
    campaign_id = seeded_callback(client, status).campaign_id
    listed = list(client.callbacks.list(campaign_id, status=status))
    assert {c.status for c in listed} == {status}
    assert {c.campaign_id for c in listed} == {campaign_id}
    assert {c.id for c in listed} == stored(sandbox, "callbacks", "campaign_id = ? AND "
                                            "status = ?", campaign_id, status)
    keys = [(c.created_at, c.id) for c in listed]
    assert keys == sorted(keys, reverse=True)


def test_callbacks_list_pages_hold_the_whole_list(client: Client) -> None:
    campaign_id = max((c.id for c in client.campaigns.list()),
                      key=lambda c: len(list(client.callbacks.list(c))))
    pages = list(client.callbacks.list(campaign_id, limit=10).pages())
    assert len(pages) >= 3 and all(len(p.data) == 10 for p in pages[:-1])
    assert [c.id for p in pages for c in p.data] == [c.id for c in
                                                     client.callbacks.list(campaign_id)]


def test_callbacks_of_an_unknown_campaign_are_an_empty_list(client: Client) -> None:
    assert list(client.callbacks.list("cmp_00000000-0000-4000-8000-000000000000")) == []


def test_create_schedules_a_callback_and_marks_the_lead(client: Client) -> None:
    lead = callable_lead(client)
    callback = schedule(client, lead)
    assert callback.id.startswith("cb_") and callback.created_at == NOW
    assert callback.request_id is not None and not callback.replayed
    assert lead.campaign_id is not None
    listed = next(client.callbacks.list(lead.campaign_id, status="pending"))
    assert listed.model_dump() == callback.model_dump()
    marked = client.leads.get(lead.id)
    assert (marked.status, marked.next_attempt_at) == ("callback", FUTURE)
    events = [e["event"] for e in client.leads.history(lead.id)["data"]]
    assert events[-1] == "callback_scheduled"


def test_create_takes_an_iso_string_and_any_offset(client: Client) -> None:
    lead = callable_lead(client)
    callback = client.callbacks.create(lead_id=lead.id, scheduled_at="2026-11-20T19:00:00+01:00")
    assert callback.scheduled_at == FUTURE


def test_create_refuses_a_naive_time_before_any_request() -> None:
    wire = RecordingTransport()
    with pytest.raises(ValueError, match="scheduled_at"):
        offline(wire).callbacks.create(lead_id=UNKNOWN_LEAD,
                                       scheduled_at=datetime(2026, 11, 20, 10))
    with pytest.raises(ValueError, match="scheduled_at"):
        offline(wire).callbacks.reschedule(UNKNOWN_CALLBACK, scheduled_at="tomorrow")
    assert wire.requests == []


def test_create_for_a_dnc_lead_is_on_dnc(client: Client) -> None:
    lead = next(client.leads.list(status="dnc"))
    with pytest.raises(ValidationError) as raised:
        client.callbacks.create(lead_id=lead.id, scheduled_at=FUTURE, override=SERVICE_REFUSAL)
    assert (raised.value.status, raised.value.code) == (422, "on_dnc")
    assert client.leads.get(lead.id).status == "dnc"


def test_create_for_a_number_just_listed_is_on_dnc(client: Client) -> None:
    lead = callable_lead(client)
    client.dnc.add(lead.phone)
    with pytest.raises(ValidationError) as raised:
        client.callbacks.create(lead_id=lead.id, scheduled_at=FUTURE, override=SERVICE_REFUSAL)
    assert raised.value.code == "on_dnc"
    assert client.leads.get(lead.id).status == "new"


def test_create_in_the_past_is_refused(client: Client) -> None:
    lead = callable_lead(client)
    with pytest.raises(ValidationError) as raised:
        client.callbacks.create(lead_id=lead.id, scheduled_at=PAST)
    assert (raised.value.status, raised.value.code) == (400, "validation_failed")
    assert [(e.pointer, e.code) for e in raised.value.errors] == [("/scheduled_at", "in_past")]


def test_cancel_of_a_pending_callback_cancels_it(client: Client) -> None:
    lead = callable_lead(client)
    callback = schedule(client, lead)
    cancelled = client.callbacks.cancel(callback.id)
    assert (cancelled.id, cancelled.status, cancelled.scheduled_at) == (
        callback.id, "cancelled", FUTURE)
    assert client.leads.get(lead.id).status == "new"
    assert lead.campaign_id is not None
    assert callback.id in {c.id for c in client.callbacks.list(lead.campaign_id,
                                                                status="cancelled")}
    again = client.callbacks.cancel(callback.id)
    assert again.model_dump() == cancelled.model_dump()


def test_cancel_of_a_seeded_pending_callback(client: Client, sandbox: Sandbox) -> None:
    pending = seeded_callback(client, "pending")
    cancelled = client.callbacks.cancel(pending.id)
    assert cancelled.model_dump() == {**pending.model_dump(), "status": "cancelled"}
    assert pending.id in stored(sandbox, "callbacks", "status = 'cancelled'")


def test_reschedule_moves_a_pending_callback(client: Client) -> None:
    lead = callable_lead(client)
    callback = schedule(client, lead)
    moved = client.callbacks.reschedule(callback.id, scheduled_at=LATER)
    assert moved.model_dump() == {**callback.model_dump(), "scheduled_at": LATER}
    assert client.leads.get(lead.id).next_attempt_at == LATER
    assert lead.campaign_id is not None
    assert next(client.callbacks.list(lead.campaign_id, status="pending")).scheduled_at == LATER


@pytest.mark.parametrize(("status", "operation"), [
    ("completed", "cancel"), ("completed", "reschedule"), ("cancelled", "reschedule"),
])
def test_a_callback_that_is_not_pending_is_a_conflict(client: Client, status: str,
                                                      operation: str) -> None:
    callback = seeded_callback(client, status)
    with pytest.raises(ConflictError) as raised:
        if operation == "cancel":
            client.callbacks.cancel(callback.id)
        else:
            client.callbacks.reschedule(callback.id, scheduled_at=LATER)
    assert (raised.value.status, raised.value.code) == (409, "callback_not_pending")
    current = next(c for c in client.callbacks.list(callback.campaign_id, status=status)
                   if c.id == callback.id)
    assert current.model_dump() == callback.model_dump()


@pytest.mark.parametrize("operation", ["create", "cancel", "reschedule"])
def test_callbacks_of_an_unknown_id_are_not_found(client: Client, operation: str) -> None:
    calls: dict[str, Callable[[], object]] = {
        "create": lambda: client.callbacks.create(lead_id=UNKNOWN_LEAD, scheduled_at=FUTURE),
        "cancel": lambda: client.callbacks.cancel(UNKNOWN_CALLBACK),
        "reschedule": lambda: client.callbacks.reschedule(UNKNOWN_CALLBACK, scheduled_at=LATER),
    }
    with pytest.raises(NotFoundError) as raised:
        calls[operation]()
    assert (raised.value.status, raised.value.code) == (404, "not_found")


@pytest.mark.parametrize(("role", "operation", "code"), [
    ("reader", "create", "insufficient_scope"),
    ("reader", "cancel", "insufficient_scope"),
    ("noswitch", "reschedule", "tier_not_enabled"),
])
def test_callback_writes_need_scope_and_switch(client_as: Callable[..., Client], role: str,
                                               operation: str, code: str) -> None:
    caller = client_as(role)
    pending = seeded_callback(caller, "pending")
    assert pending.lead_id is not None
    before = [c.model_dump() for c in caller.callbacks.list(pending.campaign_id)]
    calls: dict[str, Callable[[], object]] = {
        "create": lambda: caller.callbacks.create(lead_id=str(pending.lead_id),
                                                  scheduled_at=FUTURE),
        "cancel": lambda: caller.callbacks.cancel(pending.id),
        "reschedule": lambda: caller.callbacks.reschedule(pending.id, scheduled_at=LATER),
    }
    with pytest.raises(PermissionDeniedError) as raised:
        calls[operation]()
    assert (raised.value.status, raised.value.code) == (403, code)
    assert [c.model_dump() for c in caller.callbacks.list(pending.campaign_id)] == before


# --- appointments ------------------------------------------------------------------------

BOOKING: dict[str, Any] = {
    "phone": PHONE, "scheduled_at": FUTURE, "duration_minutes": 45,
    "timezone": "America/Los_Angeles", "service_type": "consultation",
    "contact_name": "Dana Fictional", "notes": "bring the contract",
}


def seeded_appointment(client: Client, status: str) -> Appointment:
    """A seeded appointment in ``status``, read by id (so it carries its ETag)."""
    found = next(client.appointments.list(status=status), None)
    assert found is not None, f"the seeded world holds no {status} appointment"
    return client.appointments.get(found.id)


def book(client: Client, **changes: Any) -> Appointment:
    """Book the standard appointment, with ``changes``."""
    booked = client.appointments.create(**{**BOOKING, **changes})
    assert isinstance(booked, Appointment)
    return booked


def test_appointments_list_filters_by_status(client: Client, sandbox: Sandbox) -> None:
    for status in ("scheduled", "confirmed", "cancelled", "completed", "no-show"):
        listed = list(client.appointments.list(status=status))
        assert listed and {a.status for a in listed} == {status}
        assert {a.id for a in listed} == stored(sandbox, "appointments", "status = ?", status)


def test_appointments_list_is_newest_first_across_pages(client: Client,
                                                        sandbox: Sandbox) -> None:
    pages = list(client.appointments.list(limit=7).pages())
    listed = [a for page in pages for a in page.data]
    assert len(pages) >= 3 and all(len(p.data) == 7 for p in pages[:-1])
    assert {a.id for a in listed} == stored(sandbox, "appointments", "1 = 1")
    keys = [(a.created_at, a.id) for a in listed]
    assert keys == sorted(keys, reverse=True)
    assert len({p.request_id for p in pages}) == len(pages)


def test_get_answers_the_listed_appointment_with_its_etag(client: Client) -> None:
    listed = next(client.appointments.list(status="confirmed"))
    appointment = client.appointments.get(listed.id)
    assert appointment.model_dump() == listed.model_dump()
    assert listed.etag is None
    assert appointment.etag is not None and re.fullmatch(r'"\d+"', appointment.etag)


def test_create_books_a_scheduled_appointment(client: Client) -> None:
    booked = book(client)
    assert booked.id.startswith("appt_") and booked.etag is not None
    assert {k: getattr(booked, k) for k in BOOKING} == BOOKING
    assert (booked.status, booked.source, booked.email, booked.created_at,
            booked.updated_at) == ("scheduled", "api", None, NOW, NOW)
    read = client.appointments.get(booked.id)
    assert read.model_dump() == booked.model_dump() and read.etag == booked.etag
    assert next(client.appointments.list()).id == booked.id


def test_create_leaves_out_what_is_not_given(client: Client) -> None:
    booked = client.appointments.create(phone=PHONE, scheduled_at=FUTURE)
    assert booked.duration_minutes == 30
    assert (booked.timezone, booked.service_type, booked.contact_name, booked.notes) == (
        None, None, None, None)


def test_create_in_a_blocked_country_is_refused(client: Client) -> None:
    before = {a.id for a in client.appointments.list()}
    with pytest.raises(ValidationError) as raised:
        book(client, phone=IRAN)
    assert (raised.value.status, raised.value.code) == (422, "blocked_country")
    assert {a.id for a in client.appointments.list()} == before


@pytest.mark.parametrize("changes", [{"duration_minutes": 4}, {"duration_minutes": 481},
                                     {"phone": "4155550123"}, {"notes": "x" * 1001}])
def test_create_refuses_bad_fields_before_any_request(changes: dict[str, Any]) -> None:
    wire = RecordingTransport()
    with pytest.raises(ValueError, match=next(iter(changes))):
        book(offline(wire), **changes)
    assert wire.requests == []


@pytest.mark.parametrize("status", ["scheduled", "confirmed"])
def test_cancel_cancels_and_moves_the_etag(client: Client, status: str) -> None:
    appointment = seeded_appointment(client, status)
    assert appointment.etag is not None
    cancelled = client.appointments.cancel(appointment.id, if_match=appointment.etag)
    assert (cancelled.id, cancelled.status, cancelled.scheduled_at) == (
        appointment.id, "cancelled", appointment.scheduled_at)
    assert cancelled.etag is not None and cancelled.etag != appointment.etag
    read = client.appointments.get(appointment.id)
    assert read.model_dump() == cancelled.model_dump() and read.etag == cancelled.etag
    again = client.appointments.cancel(appointment.id)
    assert again.model_dump() == cancelled.model_dump() and again.etag == cancelled.etag


def test_cancel_with_a_stale_etag_is_precondition_failed(client: Client) -> None:
    booked = book(client)
    assert booked.etag is not None
    moved = client.appointments.reschedule(booked.id, scheduled_at=LATER)
    with pytest.raises(ApiError) as raised:
        client.appointments.cancel(booked.id, if_match=booked.etag)
    assert (raised.value.status, raised.value.code) == (412, "precondition_failed")
    assert client.appointments.get(booked.id).model_dump() == moved.model_dump()
    assert client.appointments.cancel(booked.id, if_match=moved.etag).status == "cancelled"


def test_reschedule_moves_and_keeps_the_status(client: Client) -> None:
    appointment = seeded_appointment(client, "confirmed")
    assert appointment.etag is not None
    moved = client.appointments.reschedule(appointment.id, scheduled_at=LATER,
                                           duration_minutes=60, timezone="Europe/London",
                                           if_match=appointment.etag)
    assert moved.model_dump() == {**appointment.model_dump(), "scheduled_at": LATER,
                                  "duration_minutes": 60, "timezone": "Europe/London",
                                  "updated_at": NOW}
    assert moved.etag is not None and moved.etag != appointment.etag
    assert client.appointments.get(appointment.id).etag == moved.etag


def test_reschedule_with_a_stale_etag_is_precondition_failed(client: Client) -> None:
    booked = book(client)
    assert booked.etag is not None
    client.appointments.reschedule(booked.id, scheduled_at=LATER, if_match=booked.etag)
    with pytest.raises(ApiError) as raised:
        client.appointments.reschedule(booked.id, scheduled_at=FUTURE + timedelta(days=1),
                                       if_match=booked.etag)
    assert (raised.value.status, raised.value.code) == (412, "precondition_failed")
    assert client.appointments.get(booked.id).scheduled_at == LATER


@pytest.mark.parametrize(("status", "operation"), [
    ("completed", "cancel"), ("no-show", "cancel"), ("completed", "reschedule"),
    ("no-show", "reschedule"), ("cancelled", "reschedule"),
])
def test_a_finished_appointment_is_not_modifiable(client: Client, status: str,
                                                  operation: str) -> None:
    appointment = seeded_appointment(client, status)
    with pytest.raises(ConflictError) as raised:
        if operation == "cancel":
            client.appointments.cancel(appointment.id)
        else:
            client.appointments.reschedule(appointment.id, scheduled_at=LATER)
    assert (raised.value.status, raised.value.code) == (409, "appointment_not_modifiable")
    read = client.appointments.get(appointment.id)
    assert read.model_dump() == appointment.model_dump() and read.etag == appointment.etag


@pytest.mark.parametrize("operation", ["get", "cancel", "reschedule"])
def test_appointments_of_an_unknown_id_are_not_found(client: Client, operation: str) -> None:
    calls: dict[str, Callable[[], object]] = {
        "get": lambda: client.appointments.get(UNKNOWN_APPOINTMENT),
        "cancel": lambda: client.appointments.cancel(UNKNOWN_APPOINTMENT),
        "reschedule": lambda: client.appointments.reschedule(UNKNOWN_APPOINTMENT,
                                                             scheduled_at=LATER),
    }
    with pytest.raises(NotFoundError) as raised:
        calls[operation]()
    assert (raised.value.status, raised.value.code) == (404, "not_found")


@pytest.mark.parametrize(("role", "operation", "code"), [
    ("reader", "create", "insufficient_scope"),
    ("reader", "reschedule", "insufficient_scope"),
    ("noswitch", "cancel", "tier_not_enabled"),
])
def test_appointment_writes_need_scope_and_switch(client_as: Callable[..., Client], role: str,
                                                  operation: str, code: str) -> None:
    caller = client_as(role)
    appointment = seeded_appointment(caller, "scheduled")
    before = [a.model_dump() for a in caller.appointments.list()]
    calls: dict[str, Callable[[], object]] = {
        "create": lambda: book(caller),
        "cancel": lambda: caller.appointments.cancel(appointment.id),
        "reschedule": lambda: caller.appointments.reschedule(appointment.id,
                                                             scheduled_at=LATER),
    }
    with pytest.raises(PermissionDeniedError) as raised:
        calls[operation]()
    assert (raised.value.status, raised.value.code) == (403, code)
    assert [a.model_dump() for a in caller.appointments.list()] == before
