"""Appointments over HTTP: list, read, book, cancel, reschedule, ETags and webhook events."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest import assert_problem, write

FUTURE = "2026-11-20T10:00:00.000Z"
LATER = "2026-11-25T16:30:00.000Z"
PAST = "2026-11-01T10:00:00Z"
PHONE = "+14155550123"
APPOINTMENT_FIELDS = {"id", "status", "scheduled_at", "timezone", "duration_minutes",
                      "service_type", "contact_name", "phone", "email", "notes", "source",
                      "created_at", "updated_at"}
UNKNOWN = "appt_00000000-0000-4000-8000-000000000000"
BOOKING = {"phone": PHONE, "scheduled_at": FUTURE, "duration_minutes": 45,
           "timezone": "America/Los_Angeles", "service_type": "consultation",
           "contact_name": "Dana Fictional", "notes": "bring the contract"}


def _post(http: httpx.Client, path: str, body: Any = None,
          headers: dict[str, str] | None = None) -> httpx.Response:
    """A write with a fresh Idempotency-Key."""
    return write(http, path, body, key=uuid.uuid4().hex, headers=headers or {})


def _book(http: httpx.Client, **changes: Any) -> httpx.Response:
    response = _post(http, "/v1/appointments", {**BOOKING, **changes})
    assert response.status_code == 201, response.text
    return response


def _seeded(http: httpx.Client, status: str) -> dict[str, Any]:
    """A seeded appointment in ``status``."""
    data = http.get("/v1/appointments", params={"status": status, "limit": 1}).json()["data"]
    assert data, f"the seeded world holds no {status} appointment"
    found: dict[str, Any] = data[0]
    return found


def _events(http: httpx.Client, event_type: str) -> list[dict[str, Any]]:
    response = http.get("/v1/webhook-events", params={"type": event_type})
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def _event_data(appointment: dict[str, Any]) -> dict[str, Any]:
    return {
        "appointment_id": appointment["id"], "status": appointment["status"],
        "service": appointment["service_type"], "starts_at": appointment["scheduled_at"],
        "timezone": appointment["timezone"], "duration_minutes": appointment["duration_minutes"],
        "customer": {"name": appointment["contact_name"], "phone": appointment["phone"]},
        "source": appointment["source"],
    }


def test_list_is_newest_first_with_every_field(api: httpx.Client) -> None:
    data = api.get("/v1/appointments", params={"limit": 100}).json()["data"]
    assert data and all(set(a) == APPOINTMENT_FIELDS for a in data)
    keys = [(a["created_at"], a["id"]) for a in data]
    assert keys == sorted(keys, reverse=True)


@pytest.mark.parametrize("status", ["scheduled", "confirmed", "cancelled", "completed",
                                    "no-show"])
def test_list_filters_by_status(api: httpx.Client, status: str) -> None:
    data = api.get("/v1/appointments", params={"status": status, "limit": 100}).json()["data"]
    assert data and {a["status"] for a in data} == {status}


@pytest.mark.parametrize("params", [{"status": "booked"}, {"limit": 0}, {"phone": PHONE},
                                    {"cursor": "x"}])
def test_list_refuses_bad_parameters(api: httpx.Client, params: dict[str, Any]) -> None:
    assert_problem(api.get("/v1/appointments", params=params), 400,
                   "invalid_cursor" if "cursor" in params else "validation_failed")


def test_list_paginates(api: httpx.Client) -> None:
    whole = [a["id"] for a in api.get("/v1/appointments", params={"limit": 100}).json()["data"]]
    first = api.get("/v1/appointments", params={"limit": 3}).json()
    assert first["page"]["has_more"] is True
    second = api.get("/v1/appointments",
                     params={"limit": 3, "cursor": first["page"]["next_cursor"]}).json()
    assert [a["id"] for a in first["data"] + second["data"]] == whole[:6]


def test_get_answers_with_an_etag(api: httpx.Client) -> None:
    seeded = _seeded(api, "scheduled")
    response = api.get(f"/v1/appointments/{seeded['id']}")
    assert response.status_code == 200
    assert response.json() == seeded
    assert response.headers["etag"].startswith('"')


@pytest.mark.parametrize("appointment_id", [UNKNOWN, "appt_x"])
def test_get_unknown_is_not_found(api: httpx.Client, appointment_id: str) -> None:
    assert_problem(api.get(f"/v1/appointments/{appointment_id}"), 404, "not_found")


def test_book_creates_a_scheduled_api_appointment(api: httpx.Client) -> None:
    response = _book(api)
    booked = response.json()
    assert set(booked) == APPOINTMENT_FIELDS
    assert booked["id"].startswith("appt_")
    expected = {**BOOKING, "status": "scheduled", "source": "api", "email": None,
                "created_at": "2026-11-02T15:00:00.000Z",
                "updated_at": "2026-11-02T15:00:00.000Z"}
    assert {k: booked[k] for k in expected} == expected
    read = api.get(f"/v1/appointments/{booked['id']}")
    assert read.json() == booked
    assert read.headers["etag"] == response.headers["etag"]
    assert booked["id"] in {a["id"] for a in
                            api.get("/v1/appointments", params={"limit": 5}).json()["data"]}
    events = _events(api, "appointment.booked")
    assert [e["data"] for e in events] == [_event_data(booked)]


def test_book_defaults_and_nulls(api: httpx.Client) -> None:
    response = _post(api, "/v1/appointments", {"phone": PHONE, "scheduled_at": FUTURE})
    assert response.status_code == 201, response.text
    booked = response.json()
    assert booked["duration_minutes"] == 30
    assert [booked[k] for k in ("timezone", "service_type", "contact_name", "notes")] == \
        [None] * 4


@pytest.mark.parametrize(("duration", "notes"), [(5, "x" * 1000), (480, "")])
def test_book_accepts_the_limits(api: httpx.Client, duration: int, notes: str) -> None:
    booked = _book(api, duration_minutes=duration, notes=notes).json()
    assert (booked["duration_minutes"], booked["notes"]) == (duration, notes)


@pytest.mark.parametrize(("changes", "pointer", "code"), [
    ({"phone": None}, "/phone", "missing"),
    ({"phone": 14155550123}, "/phone", "invalid_type"),
    ({"phone": "4155550123"}, "/phone", "invalid_format"),
    ({"phone": "+10000000000"}, "/phone", "invalid_phone"),
    ({"scheduled_at": None}, "/scheduled_at", "missing"),
    ({"scheduled_at": "soon"}, "/scheduled_at", "invalid_type"),
    ({"scheduled_at": 1893456000}, "/scheduled_at", "invalid_type"),  # not a Unix time
    ({"scheduled_at": "1893456000"}, "/scheduled_at", "invalid_type"),
    ({"scheduled_at": "2026-11-20T10:00:00"}, "/scheduled_at", "invalid"),
    ({"scheduled_at": PAST}, "/scheduled_at", "in_past"),
    ({"duration_minutes": 4}, "/duration_minutes", "out_of_range"),
    ({"duration_minutes": 481}, "/duration_minutes", "out_of_range"),
    ({"timezone": "Mars/Olympus_Mons"}, "/timezone", "invalid_timezone"),
    ({"timezone": "../../etc/passwd"}, "/timezone", "invalid_timezone"),
    ({"timezone": "localtime"}, "/timezone", "invalid_timezone"),
    ({"timezone": "Factory"}, "/timezone", "invalid_timezone"),
    ({"timezone": "A" * 65}, "/timezone", "too_long"),
    ({"service_type": "s" * 101}, "/service_type", "too_long"),
    ({"contact_name": "n" * 201}, "/contact_name", "too_long"),
    ({"notes": "x" * 1001}, "/notes", "too_long"),
    ({"email": "dana@example.com"}, "/email", "unknown_field"),
])
def test_book_validates_the_body(api: httpx.Client, changes: dict[str, Any], pointer: str,
                                 code: str) -> None:
    body = {k: v for k, v in {**BOOKING, **changes}.items() if v is not None}
    problem = assert_problem(_post(api, "/v1/appointments", body), 400, "validation_failed")
    assert {"pointer": pointer, "code": code} in problem["errors"]
    assert _events(api, "appointment.booked") == []


@pytest.mark.parametrize("phone", ["+85021234567", "+982123456789"])
def test_book_refuses_a_blocked_country(api: httpx.Client, phone: str) -> None:
    response = _post(api, "/v1/appointments", {**BOOKING, "phone": phone})
    assert_problem(response, 422, "blocked_country")


@pytest.mark.parametrize(("role", "code"), [("reader", "insufficient_scope"),
                                            ("noswitch", "tier_not_enabled")])
def test_writes_need_scope_and_switch(api: httpx.Client,
                                      key_client: Callable[[str], httpx.Client],
                                      role: str, code: str) -> None:
    seeded = _seeded(api, "scheduled")
    http = key_client(role)
    assert_problem(_post(http, "/v1/appointments", BOOKING), 403, code)
    assert_problem(_post(http, f"/v1/appointments/{seeded['id']}/cancel"), 403, code)
    assert_problem(_post(http, f"/v1/appointments/{seeded['id']}/reschedule",
                         {"scheduled_at": FUTURE}), 403, code)


def test_reads_need_the_read_scope(key_client: Callable[[str], httpx.Client]) -> None:
    reader = key_client("reader")
    seeded = _seeded(reader, "scheduled")
    assert reader.get(f"/v1/appointments/{seeded['id']}").status_code == 200
    noscope = key_client("noscope")
    assert_problem(noscope.get("/v1/appointments"), 403, "insufficient_scope")
    assert_problem(noscope.get(f"/v1/appointments/{seeded['id']}"), 403, "insufficient_scope")


@pytest.mark.parametrize("status", ["scheduled", "confirmed"])
def test_cancel_then_cancel_again(api: httpx.Client, status: str) -> None:
    seeded = _seeded(api, status)
    before = api.get(f"/v1/appointments/{seeded['id']}").headers["etag"]
    response = _post(api, f"/v1/appointments/{seeded['id']}/cancel")
    assert response.status_code == 200, response.text
    cancelled = response.json()
    assert cancelled == {**seeded, "status": "cancelled",
                         "updated_at": "2026-11-02T15:00:00.000Z"}
    assert response.headers["etag"] != before
    again = _post(api, f"/v1/appointments/{seeded['id']}/cancel", {})
    assert again.status_code == 200
    assert (again.json(), again.headers["etag"]) == (cancelled, response.headers["etag"])
    events = _events(api, "appointment.cancelled")
    assert [e["data"] for e in events] == [_event_data(cancelled)]


@pytest.mark.parametrize("status", ["completed", "no-show"])
def test_terminal_appointments_are_not_modifiable(api: httpx.Client, status: str) -> None:
    seeded = _seeded(api, status)
    path = f"/v1/appointments/{seeded['id']}"
    assert_problem(_post(api, f"{path}/cancel"), 409, "appointment_not_modifiable")
    assert_problem(_post(api, f"{path}/reschedule", {"scheduled_at": FUTURE}), 409,
                   "appointment_not_modifiable")
    assert api.get(path).json() == seeded


def test_cancelled_appointment_cannot_be_moved(api: httpx.Client) -> None:
    seeded = _seeded(api, "cancelled")
    response = _post(api, f"/v1/appointments/{seeded['id']}/reschedule",
                     {"scheduled_at": FUTURE})
    assert_problem(response, 409, "appointment_not_modifiable")
    assert _events(api, "appointment.moved") == []


@pytest.mark.parametrize("action", ["cancel", "reschedule"])
def test_if_match_guards_changes(api: httpx.Client, action: str) -> None:
    booked = _book(api)
    path = f"/v1/appointments/{booked.json()['id']}/{action}"
    body = {"scheduled_at": LATER} if action == "reschedule" else None
    stale = _post(api, path, body, headers={"If-Match": '"999"'})
    assert_problem(stale, 412, "precondition_failed")
    too_long = _post(api, path, body, headers={"If-Match": '"' + "9" * 128 + '"'})
    problem = assert_problem(too_long, 400, "validation_failed")
    assert problem["errors"][0]["pointer"].lower() == "/header/if-match"
    current = _post(api, path, body, headers={"If-Match": booked.headers["etag"]})
    assert current.status_code == 200, current.text
    replayed = _post(api, path, body, headers={"If-Match": booked.headers["etag"]})
    assert_problem(replayed, 412, "precondition_failed")


def test_cancel_unknown_and_with_fields(api: httpx.Client) -> None:
    assert_problem(_post(api, f"/v1/appointments/{UNKNOWN}/cancel"), 404, "not_found")
    assert_problem(_post(api, f"/v1/appointments/{UNKNOWN}/reschedule",
                         {"scheduled_at": FUTURE}), 404, "not_found")
    seeded = _seeded(api, "scheduled")
    assert_problem(_post(api, f"/v1/appointments/{seeded['id']}/cancel", {"reason": "x"}),
                   400, "validation_failed")


@pytest.mark.parametrize("status", ["scheduled", "confirmed"])
def test_reschedule_moves_and_keeps_the_status(api: httpx.Client, status: str) -> None:
    seeded = _seeded(api, status)
    before = api.get(f"/v1/appointments/{seeded['id']}").headers["etag"]
    response = _post(api, f"/v1/appointments/{seeded['id']}/reschedule",
                     {"scheduled_at": LATER})
    assert response.status_code == 200, response.text
    moved = response.json()
    assert moved == {**seeded, "scheduled_at": LATER, "updated_at": "2026-11-02T15:00:00.000Z"}
    assert response.headers["etag"] != before
    assert [e["data"] for e in _events(api, "appointment.moved")] == [_event_data(moved)]


def test_reschedule_changes_duration_and_timezone(api: httpx.Client) -> None:
    booked = _book(api).json()
    response = _post(api, f"/v1/appointments/{booked['id']}/reschedule",
                     {"scheduled_at": "2026-11-25T17:30:00+01:00", "duration_minutes": 90,
                      "timezone": "Europe/Berlin"})
    assert response.status_code == 200, response.text
    moved = response.json()
    assert (moved["scheduled_at"], moved["duration_minutes"], moved["timezone"]) == \
        (LATER, 90, "Europe/Berlin")
    assert api.get(f"/v1/appointments/{booked['id']}").json() == moved


@pytest.mark.parametrize(("body", "pointer", "code"), [
    ({}, "/scheduled_at", "missing"),
    ({"scheduled_at": PAST}, "/scheduled_at", "in_past"),
    ({"scheduled_at": LATER, "duration_minutes": 481}, "/duration_minutes", "out_of_range"),
    ({"scheduled_at": LATER, "timezone": "Nowhere/City"}, "/timezone", "invalid_timezone"),
    ({"scheduled_at": LATER, "timezone": "localtime"}, "/timezone", "invalid_timezone"),
    ({"scheduled_at": LATER, "phone": PHONE}, "/phone", "unknown_field"),
])
def test_reschedule_validates_the_body(api: httpx.Client, body: dict[str, Any], pointer: str,
                                       code: str) -> None:
    booked = _book(api).json()
    response = _post(api, f"/v1/appointments/{booked['id']}/reschedule", body)
    problem = assert_problem(response, 400, "validation_failed")
    assert {"pointer": pointer, "code": code} in problem["errors"]
    assert api.get(f"/v1/appointments/{booked['id']}").json() == booked


def test_if_match_star_matches_any_version(api: httpx.Client) -> None:
    seeded = _seeded(api, "confirmed")
    response = _post(api, f"/v1/appointments/{seeded['id']}/cancel", headers={"If-Match": "*"})
    assert response.status_code == 200, response.text


def test_replayed_booking_keeps_its_etag_and_books_once(api: httpx.Client) -> None:
    first = write(api, "/v1/appointments", BOOKING, key="book-once")
    again = write(api, "/v1/appointments", BOOKING, key="book-once")
    assert again.headers["idempotency-replayed"] == "true"
    assert (again.json(), again.headers["etag"]) == (first.json(), first.headers["etag"])
    assert len(_events(api, "appointment.booked")) == 1
