"""Callbacks over HTTP: list by campaign, schedule, cancel, reschedule, and their errors."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest import KEYS, assert_problem, base_config, client_for, write
from dialkit.sandbox import Sandbox

FUTURE = "2026-11-20T10:00:00.000Z"
LATER = "2026-11-25T16:30:00.000Z"
PAST = "2026-11-01T10:00:00Z"
CALLBACK_FIELDS = {"id", "lead_id", "campaign_id", "scheduled_at", "status", "notes",
                   "created_at"}
UNKNOWN_LEAD = "lead_00000000-0000-4000-8000-000000000000"
UNKNOWN_CALLBACK = "cb_00000000-0000-4000-8000-000000000000"
UNKNOWN_CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000000"


def _post(http: httpx.Client, path: str, body: Any = None) -> httpx.Response:
    """A write with a fresh Idempotency-Key."""
    return write(http, path, body, key=uuid.uuid4().hex)


def _campaign_ids(http: httpx.Client) -> list[str]:
    response = http.get("/v1/campaigns", params={"limit": 100})
    assert response.status_code == 200, response.text
    return [c["id"] for c in response.json()["data"]]


def _callbacks(http: httpx.Client, campaign_id: str, **params: Any) -> list[dict[str, Any]]:
    response = http.get("/v1/callbacks", params={"campaign_id": campaign_id, "limit": 100,
                                                 **params})
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def _seeded(http: httpx.Client, status: str) -> dict[str, Any]:
    """A seeded callback in ``status``."""
    for campaign_id in _campaign_ids(http):
        found = _callbacks(http, campaign_id, status=status)
        if found:
            return found[0]
    raise AssertionError(f"the seeded world holds no {status} callback")


def _callable_lead(http: httpx.Client) -> dict[str, Any]:
    """A seeded lead of a campaign whose number is not on the DNC list."""
    leads = http.get("/v1/leads", params={"status": "new", "limit": 20}).json()["data"]
    check = http.post("/v1/dnc/check", json={"phones": [lead["phone"] for lead in leads]})
    listed = {r["phone"] for r in check.json()["data"] if r["listed"]}
    return next(lead for lead in leads if lead["phone"] not in listed)


def _history(http: httpx.Client, lead_id: str) -> list[tuple[str, Any]]:
    """The lead's callback history entries: ``(event, detail)``."""
    entries = http.get(f"/v1/leads/{lead_id}/history").json()["data"]
    return [(e["event"], e["detail"]) for e in entries if e["event"].startswith("callback_")]


def _schedule(http: httpx.Client, lead_id: str, when: str = FUTURE,
              notes: str | None = "call after lunch") -> dict[str, Any]:
    response = _post(http, "/v1/callbacks",
                     {"lead_id": lead_id, "scheduled_at": when, "notes": notes})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_list_requires_campaign_id(api: httpx.Client) -> None:
    body = assert_problem(api.get("/v1/callbacks"), 400, "validation_failed")
    assert {"pointer": "/query/campaign_id", "code": "missing"} in body["errors"]


@pytest.mark.parametrize("params", [{"status": "done"}, {"limit": 0}, {"limit": 101},
                                    {"campaign_id": "cmp_1"}, {"sort": "asc"}])
def test_list_refuses_bad_parameters(api: httpx.Client, params: dict[str, Any]) -> None:
    query = {"campaign_id": UNKNOWN_CAMPAIGN, **params}
    assert_problem(api.get("/v1/callbacks", params=query), 400, "validation_failed")


@pytest.mark.parametrize("status", ["pending", "completed", "cancelled"])
def test_list_filters_by_status_newest_first(api: httpx.Client, status: str) -> None:
    campaign_id = _seeded(api, status)["campaign_id"]
    data = _callbacks(api, campaign_id, status=status)
    assert {c["status"] for c in data} == {status}
    assert all(set(c) == CALLBACK_FIELDS and c["campaign_id"] == campaign_id for c in data)
    keys = [(c["created_at"], c["id"]) for c in data]
    assert keys == sorted(keys, reverse=True)


def test_list_paginates_with_cursor(api: httpx.Client) -> None:
    lists = {c: [cb["id"] for cb in _callbacks(api, c)] for c in _campaign_ids(api)}
    campaign_id = max((c for c in lists if len(lists[c]) < 100), key=lambda c: len(lists[c]))
    whole = lists[campaign_id]  # the whole list in one page of 100
    assert len(whole) >= 3
    seen: list[str] = []
    params: dict[str, str | int] = {"campaign_id": campaign_id, "limit": 2}
    while True:
        page = api.get("/v1/callbacks", params=params).json()
        seen += [c["id"] for c in page["data"]]
        cursor = page["page"]["next_cursor"]
        assert page["page"]["has_more"] is (cursor is not None)
        if cursor is None:
            break
        params["cursor"] = cursor
    assert seen == whole
    first = api.get("/v1/callbacks", params={"campaign_id": campaign_id, "limit": 1}).json()
    other = {"campaign_id": campaign_id, "status": "pending",
             "cursor": first["page"]["next_cursor"]}
    assert_problem(api.get("/v1/callbacks", params=other), 400, "invalid_cursor")


def test_list_of_unknown_or_foreign_campaign_is_an_empty_page(
        api: httpx.Client, key_client: Callable[[str], httpx.Client]) -> None:
    empty = {"data": [], "page": {"next_cursor": None, "has_more": False}}
    assert api.get("/v1/callbacks", params={"campaign_id": UNKNOWN_CAMPAIGN}).json() == empty
    foreign = _seeded(key_client("noswitch"), "completed")["campaign_id"]
    assert api.get("/v1/callbacks", params={"campaign_id": foreign}).json() == empty


def test_create_schedules_and_marks_the_lead(api: httpx.Client) -> None:
    lead = _callable_lead(api)
    callback = _schedule(api, lead["id"])
    assert set(callback) == CALLBACK_FIELDS
    assert callback["id"].startswith("cb_")
    assert (callback["lead_id"], callback["campaign_id"]) == (lead["id"], lead["campaign_id"])
    assert (callback["status"], callback["scheduled_at"]) == ("pending", FUTURE)
    assert callback["notes"] == "call after lunch"
    assert callback["created_at"] == "2026-11-02T15:00:00.000Z"
    updated = api.get(f"/v1/leads/{lead['id']}").json()
    assert (updated["status"], updated["next_attempt_at"]) == ("callback", FUTURE)
    listed = _callbacks(api, lead["campaign_id"], status="pending")
    assert listed[0] == callback
    assert _history(api, lead["id"]) == [
        ("callback_scheduled", {"callback_id": callback["id"], "scheduled_at": FUTURE})]


def test_created_callback_is_private_to_the_client(api: httpx.Client,
                                                   key_client: Callable[[str], httpx.Client]
                                                   ) -> None:
    lead = _callable_lead(api)
    callback = _schedule(api, lead["id"])
    others = _callbacks(key_client("other"), lead["campaign_id"])
    assert callback["id"] not in {c["id"] for c in others}


@pytest.mark.parametrize(("body", "pointer"), [
    ({"scheduled_at": FUTURE}, "/lead_id"),
    ({"lead_id": "lead_1", "scheduled_at": FUTURE}, "/lead_id"),
    ({"lead_id": UNKNOWN_LEAD}, "/scheduled_at"),
    ({"lead_id": UNKNOWN_LEAD, "scheduled_at": "tomorrow"}, "/scheduled_at"),
    ({"lead_id": UNKNOWN_LEAD, "scheduled_at": "2026-11-20T10:00:00"}, "/scheduled_at"),
    ({"lead_id": UNKNOWN_LEAD, "scheduled_at": FUTURE, "notes": "x" * 501}, "/notes"),
    ({"lead_id": UNKNOWN_LEAD, "scheduled_at": FUTURE, "campaign_id": UNKNOWN_CAMPAIGN},
     "/campaign_id"),
])
def test_create_validates_the_body(api: httpx.Client, body: dict[str, Any],
                                   pointer: str) -> None:
    problem = assert_problem(_post(api, "/v1/callbacks", body), 400, "validation_failed")
    assert pointer in {e["pointer"] for e in problem["errors"]}


def test_create_accepts_notes_of_500_characters(api: httpx.Client) -> None:
    lead = _callable_lead(api)
    assert _schedule(api, lead["id"], notes="x" * 500)["notes"] == "x" * 500


def test_create_refuses_a_time_in_the_past(api: httpx.Client) -> None:
    lead = _callable_lead(api)
    problem = assert_problem(
        _post(api, "/v1/callbacks", {"lead_id": lead["id"], "scheduled_at": PAST}),
        400, "validation_failed")
    assert problem["errors"] == [{"pointer": "/scheduled_at", "code": "in_past"}]
    assert api.get(f"/v1/leads/{lead['id']}").json()["status"] == "new"


def test_create_for_unknown_lead_is_not_found(api: httpx.Client) -> None:
    response = _post(api, "/v1/callbacks", {"lead_id": UNKNOWN_LEAD, "scheduled_at": FUTURE})
    assert_problem(response, 404, "not_found")


def test_create_for_a_dnc_lead_is_refused(api: httpx.Client) -> None:
    lead = api.get("/v1/leads", params={"status": "dnc", "limit": 1}).json()["data"][0]
    response = _post(api, "/v1/callbacks", {"lead_id": lead["id"], "scheduled_at": FUTURE})
    assert_problem(response, 422, "on_dnc")


def test_create_for_a_number_added_to_the_dnc_list_is_refused(api: httpx.Client) -> None:
    lead = _callable_lead(api)
    assert _post(api, "/v1/dnc", {"phone": lead["phone"]}).status_code == 201
    response = _post(api, "/v1/callbacks", {"lead_id": lead["id"], "scheduled_at": FUTURE})
    assert_problem(response, 422, "on_dnc")
    pending = _callbacks(api, lead["campaign_id"], status="pending")
    assert lead["id"] not in {c["lead_id"] for c in pending}


def test_create_for_a_lead_without_campaign_is_refused(sandbox: Sandbox,
                                                       api: httpx.Client) -> None:
    lead = _callable_lead(api)
    sandbox.service.store.conn.execute(
        "UPDATE leads SET campaign_id = NULL WHERE dataset = ? AND id = ?",
        ("client:acme/full", lead["id"]))
    problem = assert_problem(
        _post(api, "/v1/callbacks", {"lead_id": lead["id"], "scheduled_at": FUTURE}),
        400, "validation_failed")
    assert problem["errors"] == [{"pointer": "/lead_id", "code": "lead_without_campaign"}]


@pytest.mark.parametrize(("role", "status", "code"), [
    ("reader", 403, "insufficient_scope"),
    ("noswitch", 403, "tier_not_enabled"),
])
def test_writes_need_scope_and_switch(api: httpx.Client,
                                      key_client: Callable[[str], httpx.Client],
                                      role: str, status: int, code: str) -> None:
    pending = _seeded(api, "pending")
    http = key_client(role)
    body = {"lead_id": pending["lead_id"], "scheduled_at": FUTURE}
    assert_problem(_post(http, "/v1/callbacks", body), status, code)
    assert_problem(_post(http, f"/v1/callbacks/{pending['id']}/reschedule",
                         {"scheduled_at": FUTURE}), status, code)


def test_cancel_needs_the_cancel_scope_but_no_switch(api: httpx.Client,
                                                     key_client: Callable[[str], httpx.Client]
                                                     ) -> None:
    pending = _seeded(api, "pending")
    path = f"/v1/callbacks/{pending['id']}/cancel"
    assert_problem(_post(key_client("reader"), path), 403, "insufficient_scope")
    noswitch = key_client("noswitch")
    mine = _seeded(noswitch, "pending")
    response = _post(noswitch, f"/v1/callbacks/{mine['id']}/cancel")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "cancelled"


def test_reader_can_list(key_client: Callable[[str], httpx.Client]) -> None:
    reader = key_client("reader")
    assert _seeded(reader, "pending")["status"] == "pending"
    assert_problem(key_client("noscope").get("/v1/callbacks",
                                             params={"campaign_id": UNKNOWN_CAMPAIGN}),
                   403, "insufficient_scope")


def test_create_respects_the_account_daily_cap(make_sandbox: Callable[..., Sandbox]) -> None:
    config = base_config()
    config["accounts"] = [{
        "name": "capped", "daily_cap": 0, "switches": ["tier2_callback_write_enabled"],
        "clients": [{"name": "c", "scopes": ["callbacks:write", "leads:read", "dnc:check"],
                     "keys": [{"key": KEYS["full"]}]}]}]
    with client_for(make_sandbox(config), KEYS["full"]) as http:
        lead = _callable_lead(http)
        response = _post(http, "/v1/callbacks", {"lead_id": lead["id"], "scheduled_at": FUTURE})
        assert_problem(response, 429, "daily_cap_reached")
        assert http.get(f"/v1/leads/{lead['id']}").json()["status"] == "new"


def test_cancel_pending_then_again(api: httpx.Client) -> None:
    lead = _callable_lead(api)
    callback = _schedule(api, lead["id"])
    first = _post(api, f"/v1/callbacks/{callback['id']}/cancel")
    assert first.status_code == 200, first.text
    assert first.json() == {**callback, "status": "cancelled"}
    again = _post(api, f"/v1/callbacks/{callback['id']}/cancel", {})
    assert again.status_code == 200
    assert again.json() == first.json()
    updated = api.get(f"/v1/leads/{lead['id']}").json()
    assert (updated["status"], updated["next_attempt_at"]) == ("new", None)
    assert [event for event, _ in _history(api, lead["id"])] == \
        ["callback_scheduled", "callback_cancelled"]


def test_cancel_keeps_the_lead_scheduled_while_another_callback_pends(
        api: httpx.Client) -> None:
    lead = _callable_lead(api)
    early = _schedule(api, lead["id"], FUTURE)
    _schedule(api, lead["id"], LATER)
    assert _post(api, f"/v1/callbacks/{early['id']}/cancel").status_code == 200
    updated = api.get(f"/v1/leads/{lead['id']}").json()
    assert (updated["status"], updated["next_attempt_at"]) == ("callback", LATER)


def test_cancel_of_a_completed_callback_conflicts(api: httpx.Client) -> None:
    completed = _seeded(api, "completed")
    response = _post(api, f"/v1/callbacks/{completed['id']}/cancel")
    assert_problem(response, 409, "callback_not_pending")
    assert completed in _callbacks(api, completed["campaign_id"], status="completed")


@pytest.mark.parametrize("action", ["cancel", "reschedule"])
def test_unknown_callback_is_not_found(api: httpx.Client, action: str) -> None:
    body = {"scheduled_at": FUTURE} if action == "reschedule" else None
    for callback_id in (UNKNOWN_CALLBACK, "cb_nope"):
        response = _post(api, f"/v1/callbacks/{callback_id}/{action}", body)
        assert_problem(response, 404, "not_found")


def test_cancel_refuses_a_body_with_fields(api: httpx.Client) -> None:
    pending = _seeded(api, "pending")
    response = _post(api, f"/v1/callbacks/{pending['id']}/cancel", {"reason": "x"})
    assert_problem(response, 400, "validation_failed")


def test_reschedule_moves_a_pending_callback(api: httpx.Client) -> None:
    lead = _callable_lead(api)
    callback = _schedule(api, lead["id"])
    response = _post(api, f"/v1/callbacks/{callback['id']}/reschedule",
                     {"scheduled_at": "2026-11-25T17:30:00+01:00"})
    assert response.status_code == 200, response.text
    assert response.json() == {**callback, "scheduled_at": LATER}
    assert api.get(f"/v1/leads/{lead['id']}").json()["next_attempt_at"] == LATER
    assert _history(api, lead["id"])[-1] == \
        ("callback_moved", {"callback_id": callback["id"], "scheduled_at": LATER})


@pytest.mark.parametrize("status", ["completed", "cancelled"])
def test_reschedule_of_a_callback_not_pending_conflicts(api: httpx.Client,
                                                       status: str) -> None:
    callback = _seeded(api, status)
    response = _post(api, f"/v1/callbacks/{callback['id']}/reschedule",
                     {"scheduled_at": FUTURE})
    assert_problem(response, 409, "callback_not_pending")


@pytest.mark.parametrize(("body", "code"), [
    ({"scheduled_at": PAST}, "in_past"),
    ({}, "missing"),
    ({"scheduled_at": FUTURE, "notes": "x"}, "unknown_field"),
])
def test_reschedule_validates_the_body(api: httpx.Client, body: dict[str, Any],
                                       code: str) -> None:
    pending = _seeded(api, "pending")
    response = _post(api, f"/v1/callbacks/{pending['id']}/reschedule", body)
    problem = assert_problem(response, 400, "validation_failed")
    assert code in {e["code"] for e in problem["errors"]}
