"""Leads over HTTP: list, read, history, single add with dial-now, and update.

The import is tested in ``test_lead_import.py``, whose helpers read the seeded
world. A second emulator (``shared``) holds what the session one lacks: two API
clients sharing live data, a client without ``calls:originate``, an account
without the sending setup and one whose sending is suspended.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from test_lead_import import (
    BLOCKED_PHONE,
    UNKNOWN_CAMPAIGN,
    campaign_ids,
    campaign_phone,
    dnc_phone,
    fresh_phones,
    import_leads,
    lead_count,
)

from conftest import KEYS, START, assert_problem, client_for, write
from dialkit.contract import Lead, LeadCreated, Scope, Switch
from dialkit.sandbox import Sandbox, parse_config, start
from dialkit.sandbox._state._clock import isoformat, parse_timestamp

UNKNOWN_LEAD = "lead_00000000-0000-4000-8000-000000000000"
SHARED_KEYS = {
    "a": "svc_live_leadsclia01_AAAAbbbbCCCCddddEEEEff01",
    "a_sending": "svc_live_leadsclia02_AAAAbbbbCCCCddddEEEEff02",
    "b": "svc_live_leadsclib01_AAAAbbbbCCCCddddEEEEff03",
    "nooriginate": "svc_test_leadsnoor01_AAAAbbbbCCCCddddEEEEff04",
    "nosetup": "svc_test_leadsnose01_AAAAbbbbCCCCddddEEEEff05",
    "halted": "svc_test_leadshalt01_AAAAbbbbCCCCddddEEEEff06",
    "halted_sending": "svc_test_leadshalt02_AAAAbbbbCCCCddddEEEEff07",
}


def _shared_config() -> dict[str, Any]:
    every = [s.value for s in Scope]
    switches = [s.value for s in Switch]

    def client(name: str, *keys: str, scopes: list[str] = every) -> dict[str, Any]:
        return {"name": name, "scopes": scopes, "keys": [
            {"key": SHARED_KEYS[k], "sending": k.endswith("_sending")} for k in keys]}

    return {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
            "accounts": [
                {"name": "acme", "switches": switches, "clients": [
                    client("a", "a", "a_sending"), client("b", "b"),
                    client("nooriginate", "nooriginate",
                           scopes=[s for s in every if s != Scope.CALLS_ORIGINATE])]},
                {"name": "nosetup", "switches": switches,
                 "clients": [client("c", "nosetup")]},
                {"name": "halted", "switches": switches, "sending_suspended": True,
                 "clients": [client("c", "halted", "halted_sending")]},
            ]}


@pytest.fixture(scope="module")
def shared() -> Iterator[Sandbox]:
    """The second emulator; tests on it use fresh numbers and ids, as it is never reset."""
    with start(parse_config(_shared_config())) as running:
        yield running


def _create(http: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    return write(http, "/v1/leads", body, key=uuid.uuid4().hex)


def _patch(http: httpx.Client, lead_id: str, body: Any, **headers: str) -> httpx.Response:
    return http.patch(f"/v1/leads/{lead_id}", json=body, headers=headers)


def _outcome(response: httpx.Response) -> tuple[str, str | None, str | None]:
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == set(LeadCreated.model_fields)
    return body["status"], body["reason"], body["field"]


def _seeded_lead(sandbox: Sandbox, custom: bool = False) -> str:
    """A seeded lead id (one with custom fields when ``custom``)."""
    where = "custom_fields IS NOT NULL" if custom else "1"
    row = sandbox.service.store.row(
        f"SELECT id FROM leads WHERE dataset = 'seed:acme' AND {where} ORDER BY id")
    assert row is not None
    return str(row[0])


# --- list -----------------------------------------------------------------------------------


def test_list_is_newest_first_across_pages(api: httpx.Client) -> None:
    first = api.get("/v1/leads", params={"limit": 7}).json()
    assert first["page"]["has_more"] and len(first["data"]) == 7
    second = api.get("/v1/leads", params={"limit": 7, "cursor": first["page"]["next_cursor"]})
    leads = first["data"] + second.json()["data"]
    keys = [(lead["created_at"], lead["id"]) for lead in leads]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 14
    assert all(set(lead) == set(Lead.model_fields) for lead in leads)


def test_list_shows_a_new_lead_first(api: httpx.Client, sandbox: Sandbox) -> None:
    [phone] = fresh_phones(sandbox, 1)
    import_leads(api, campaign_ids(sandbox)["draft"], [{"phone": phone}])
    assert api.get("/v1/leads", params={"limit": 1}).json()["data"][0]["phone"] == phone


@pytest.mark.parametrize("status", ["new", "contacted", "callback", "dnc", "completed"])
def test_list_filters_by_status(api: httpx.Client, status: str) -> None:
    data = api.get("/v1/leads", params={"status": status, "limit": 100}).json()["data"]
    assert data and {lead["status"] for lead in data} == {status}


def test_list_filters_by_campaign(api: httpx.Client, sandbox: Sandbox) -> None:
    campaign_id = campaign_ids(sandbox)["running"]
    data = api.get("/v1/leads", params={"campaign_id": campaign_id, "limit": 100}).json()["data"]
    assert data and {lead["campaign_id"] for lead in data} == {campaign_id}
    empty = api.get("/v1/leads", params={"campaign_id": UNKNOWN_CAMPAIGN}).json()
    assert empty == {"data": [], "page": {"next_cursor": None, "has_more": False}}


@pytest.mark.parametrize(("params", "pointer"), [
    ({"status": "lost"}, "/query/status"),
    ({"external_id": ""}, "/query/external_id"),
    ({"external_id": "x" * 129}, "/query/external_id"),
    ({"campaign_id": "cmp_1"}, "/query/campaign_id"),
    ({"limit": 0}, "/query/limit"),
    ({"phone": "+12015550100"}, "/query/phone"),
])
def test_list_refuses_bad_parameters(api: httpx.Client, params: dict[str, Any],
                                     pointer: str) -> None:
    problem = assert_problem(api.get("/v1/leads", params=params), 400, "validation_failed")
    assert pointer in [e["pointer"] for e in problem["errors"]]


def test_list_cursor_is_bound_to_its_filters(api: httpx.Client) -> None:
    page = api.get("/v1/leads", params={"status": "new", "limit": 1}).json()["page"]
    response = api.get("/v1/leads", params={"status": "dnc", "cursor": page["next_cursor"]})
    assert_problem(response, 400, "invalid_cursor")


def test_external_id_is_unique_per_client_and_filters_per_client(shared: Sandbox) -> None:
    draft, ready = campaign_ids(shared)["draft"], campaign_ids(shared)["ready"]
    one, two, three = fresh_phones(shared, 3)
    with client_for(shared, SHARED_KEYS["a"]) as a, client_for(shared, SHARED_KEYS["b"]) as b:
        lead = {"campaign_id": draft, "external_id": "shared-1"}
        assert _outcome(_create(a, {**lead, "phone": one})) == ("accepted", None, None)
        assert _outcome(_create(b, {**lead, "phone": two})) == ("accepted", None, None)
        assert _outcome(_create(a, {**lead, "phone": three})) == (
            "duplicate", "duplicate_in_campaign", None)
        assert _outcome(_create(a, {**lead, "campaign_id": ready, "phone": three})) == (
            "invalid", "field_rule", "external_id")
        for http, phone in ((a, one), (b, two)):
            found = http.get("/v1/leads", params={"external_id": "shared-1"}).json()["data"]
            assert [lead["phone"] for lead in found] == [phone]


# --- get and history ------------------------------------------------------------------------


def test_get_answers_the_lead_with_an_etag(api: httpx.Client, sandbox: Sandbox) -> None:
    lead_id = _seeded_lead(sandbox, custom=True)
    response = api.get(f"/v1/leads/{lead_id}")
    assert response.status_code == 200
    lead = response.json()
    assert set(lead) == set(Lead.model_fields) and lead["id"] == lead_id
    assert isinstance(lead["custom_fields"], dict)
    assert response.headers["etag"] == '"v1"'


def test_get_of_an_unknown_or_other_clients_lead_is_not_found(
        api: httpx.Client, key_client: Any, sandbox: Sandbox) -> None:
    assert_problem(api.get(f"/v1/leads/{UNKNOWN_LEAD}"), 404, "not_found")
    [phone] = fresh_phones(sandbox, 1)
    made = _create(api, {"campaign_id": campaign_ids(sandbox)["draft"], "phone": phone})
    other = key_client("other")
    assert_problem(other.get(f"/v1/leads/{made.json()['lead_id']}"), 404, "not_found")


def test_history_lists_seeded_and_new_entries_oldest_first(api: httpx.Client,
                                                          sandbox: Sandbox) -> None:
    row = sandbox.service.store.row(
        "SELECT lead_id FROM lead_history WHERE dataset = 'seed:acme' GROUP BY lead_id "
        "HAVING COUNT(*) > 1 ORDER BY lead_id")
    assert row is not None
    seeded = api.get(f"/v1/leads/{row[0]}/history").json()
    assert seeded["lead_id"] == row[0] and len(seeded["data"]) > 1
    times = [entry["at"] for entry in seeded["data"]]
    assert times == sorted(times)
    assert all(set(entry) == {"at", "event", "detail"} for entry in seeded["data"])
    [phone] = fresh_phones(sandbox, 1)
    lead_id = _create(api, {"campaign_id": campaign_ids(sandbox)["draft"],
                            "phone": phone}).json()["lead_id"]
    _patch(api, lead_id, {"full_name": "Grace Hopper"})
    events = api.get(f"/v1/leads/{lead_id}/history").json()["data"]
    assert [(e["event"], e["detail"]) for e in events] == [
        ("created", {"campaign_id": campaign_ids(sandbox)["draft"], "via": "create"}),
        ("updated", {"fields": ["full_name"]})]
    assert_problem(api.get(f"/v1/leads/{UNKNOWN_LEAD}/history"), 404, "not_found")


# --- single add -----------------------------------------------------------------------------


def test_create_adds_a_lead_with_its_source(api: httpx.Client, sandbox: Sandbox) -> None:
    draft = campaign_ids(sandbox)["draft"]
    [phone] = fresh_phones(sandbox, 1)
    response = _create(api, {"campaign_id": draft, "phone": phone, "external_id": "web-9",
                             "full_name": "Ada L.", "first_name": "Ada", "email": "ada@example.org",
                             "custom_fields": {"plan": "pro"}, "source": "web_form"})
    assert _outcome(response) == ("accepted", None, None)
    body = response.json()
    assert (body["campaign_id"], body["external_id"]) == (draft, "web-9")
    assert body["dial_now"] == {"status": "not_requested", "expires_at": None}
    lead = api.get(f"/v1/leads/{body['lead_id']}").json()
    assert (lead["full_name"], lead["email"], lead["custom_fields"]) == (
        "Ada L.", "ada@example.org", {"plan": "pro", "lead_source": "web_form"})


def _refusal_cases(sandbox: Sandbox, draft: str) -> list[tuple[dict[str, Any], tuple[Any, ...]]]:
    return [
        ({}, ("invalid", "missing_phone", None)),
        ({"phone": "0201 555 0100"}, ("invalid", "invalid_phone", None)),
        ({"phone": [1]}, ("invalid", "invalid_phone", None)),
        ({"email": "ada@"}, ("invalid", "field_rule", "email")),
        ({"first_name": "x" * 101}, ("invalid", "field_rule", "first_name")),
        ({"source": "billboard"}, ("invalid", "unknown_source", None)),
        ({"source": "web_form", "custom_fields": {f"k{i}": i for i in range(20)}},
         ("invalid", "field_rule", "custom_fields")),
        ({"phone": campaign_phone(sandbox, draft)}, ("duplicate", "duplicate_in_campaign", None)),
        ({"phone": dnc_phone(sandbox, draft)}, ("on_dnc", None, None)),
        ({"phone": BLOCKED_PHONE}, ("blocked_country", None, None)),
    ]


def test_create_refuses_leads_with_the_imports_rules(api: httpx.Client,
                                                     sandbox: Sandbox) -> None:
    draft = campaign_ids(sandbox)["draft"]
    [phone] = fresh_phones(sandbox, 1)
    before = lead_count(api, draft)
    for change, expected in _refusal_cases(sandbox, draft):
        body = {"campaign_id": draft, **({"phone": phone} if change else {}), **change}
        response = _create(api, body)
        assert _outcome(response) == expected, change
        assert response.json()["lead_id"] is None
    assert lead_count(api, draft) == before


@pytest.mark.parametrize(("status", "code"), [
    ("draft", None), ("ready", None), ("paused", None), ("running", None),
    ("completed", "campaign_not_importable"), ("archived", "not_found"), ("unknown", "not_found"),
])
def test_create_depends_on_the_campaign_state(api: httpx.Client, sandbox: Sandbox, status: str,
                                              code: str | None) -> None:
    campaign_id = campaign_ids(sandbox).get(status, UNKNOWN_CAMPAIGN)
    [phone] = fresh_phones(sandbox, 1)
    response = _create(api, {"campaign_id": campaign_id, "phone": phone})
    if code is None:
        assert _outcome(response) == ("accepted", None, None)
    else:
        assert_problem(response, 404 if code == "not_found" else 409, code)


@pytest.mark.parametrize(("change", "pointer"), [
    ({"campaign_id": None}, "/campaign_id"),
    ({"campaign_id": "cmp_1"}, "/campaign_id"),
    ({"dial_within_seconds": 29}, "/dial_within_seconds"),
    ({"dial_within_seconds": 3601}, "/dial_within_seconds"),
    ({"dial_now": "maybe"}, "/dial_now"),
    ({"source": ""}, "/source"),
    ({"source": "s" * 101}, "/source"),
    ({"priority": 1}, "/priority"),
])
def test_create_refuses_bad_options(api: httpx.Client, sandbox: Sandbox, change: dict[str, Any],
                                    pointer: str) -> None:
    body = {"campaign_id": campaign_ids(sandbox)["draft"], "phone": "+12015550100", **change}
    body = {k: v for k, v in body.items() if v is not None}
    problem = assert_problem(_create(api, body), 400, "validation_failed")
    assert pointer in [e["pointer"] for e in problem["errors"]]


def _now(sandbox: Sandbox) -> str:
    return str(httpx.get(sandbox.base_url + "/_sandbox/clock").json()["now"])


@pytest.mark.parametrize(("campaign", "dial_now", "phone", "status"), [
    ("running", True, "fresh", "queued"),
    ("running", False, "fresh", "not_requested"),
    ("paused", True, "fresh", "campaign_not_running"),
    ("running", True, "dnc", "lead_not_accepted"),
])
def test_create_dial_now_outcomes(api: httpx.Client, sandbox: Sandbox, campaign: str,
                                  dial_now: bool, phone: str, status: str) -> None:
    campaign_id = campaign_ids(sandbox)[campaign]
    number = fresh_phones(sandbox, 1)[0] if phone == "fresh" else dnc_phone(sandbox, campaign_id)
    response = _create(api, {"campaign_id": campaign_id, "phone": number, "dial_now": dial_now,
                             "dial_within_seconds": 120})
    dial = response.json()["dial_now"]
    assert dial["status"] == status
    if status != "queued":
        assert dial["expires_at"] is None
        return
    expected = isoformat(parse_timestamp(_now(sandbox)) + timedelta(seconds=120))
    assert dial["expires_at"] == expected
    row = sandbox.service.store.row("SELECT priority_until FROM leads WHERE id = ?",
                                    (response.json()["lead_id"],))
    assert row is not None and row[0] == expected


def test_create_dial_now_is_unavailable_while_sending_is_suspended(shared: Sandbox) -> None:
    [phone] = fresh_phones(shared, 1)
    running = campaign_ids(shared, "halted")["running"]
    with client_for(shared, SHARED_KEYS["halted"]) as http:
        response = _create(http, {"campaign_id": running, "phone": phone, "dial_now": True})
    assert _outcome(response) == ("accepted", None, None)
    assert response.json()["dial_now"] == {"status": "unavailable", "expires_at": None}


@pytest.mark.parametrize(("key", "account", "campaign", "dial_now", "code"), [
    ("nooriginate", "acme", "running", False, "insufficient_scope"),
    ("nooriginate", "acme", "draft", True, "insufficient_scope"),
    ("nosetup", "nosetup", "running", False, "tier_not_enabled"),
    ("nosetup", "nosetup", "ready", True, "tier_not_enabled"),
    ("nooriginate", "acme", "draft", False, None),
])
def test_create_into_the_dialling_order_needs_originate_rights(
        shared: Sandbox, key: str, account: str, campaign: str, dial_now: bool,
        code: str | None) -> None:
    campaign_id = campaign_ids(shared, account)[campaign]
    [phone] = fresh_phones(shared, 1)
    with client_for(shared, SHARED_KEYS[key]) as http:
        before = lead_count(http, campaign_id)
        response = _create(http, {"campaign_id": campaign_id, "phone": phone,
                                  "dial_now": dial_now})
        if code is None:
            assert _outcome(response) == ("accepted", None, None)
            return
        assert_problem(response, 403, code)
        assert lead_count(http, campaign_id) == before


def test_create_into_a_running_campaign_needs_the_switch(key_client: Any,
                                                         sandbox: Sandbox) -> None:
    running = campaign_ids(sandbox, "noswitch")["running"]
    [phone] = fresh_phones(sandbox, 1)
    response = _create(key_client("noswitch"), {"campaign_id": running, "phone": phone})
    assert_problem(response, 403, "tier_not_enabled")


# --- update ---------------------------------------------------------------------------------


def test_update_changes_fields_merges_custom_fields_and_moves_the_etag(
        api: httpx.Client, sandbox: Sandbox) -> None:
    [phone] = fresh_phones(sandbox, 1)
    lead_id = _create(api, {"campaign_id": campaign_ids(sandbox)["draft"], "phone": phone,
                            "custom_fields": {"a": 1, "b": 2}}).json()["lead_id"]
    response = _patch(api, lead_id, {"full_name": "Grace", "email": "g@example.org",
                                     "custom_fields": {"b": None, "c": True}},
                      **{"If-Match": '"v1"'})
    assert response.status_code == 200, response.text
    lead = response.json()
    assert (lead["full_name"], lead["email"], lead["custom_fields"], lead["phone"]) == (
        "Grace", "g@example.org", {"a": 1, "c": True}, phone)
    assert response.headers["etag"] == '"v2"'
    assert api.get(f"/v1/leads/{lead_id}").headers["etag"] == '"v2"'
    same = _patch(api, lead_id, {"full_name": "Grace"}, **{"If-Match": "*"})
    assert same.headers["etag"] == '"v2"'
    cleared = _patch(api, lead_id, {"email": None, "custom_fields": None}).json()
    assert (cleared["email"], cleared["custom_fields"]) == (None, None)


def test_update_with_a_stale_etag_is_refused(api: httpx.Client, sandbox: Sandbox) -> None:
    lead_id = _seeded_lead(sandbox)
    assert _patch(api, lead_id, {"full_name": "One"}, **{"If-Match": '"v1"'}).status_code == 200
    stale = _patch(api, lead_id, {"full_name": "Two"}, **{"If-Match": '"v1"'})
    assert_problem(stale, 412, "precondition_failed")
    assert api.get(f"/v1/leads/{lead_id}").json()["full_name"] == "One"
    too_long = _patch(api, lead_id, {"full_name": "Two"}, **{"If-Match": "x" * 129})
    assert_problem(too_long, 400, "validation_failed")


@pytest.mark.parametrize(("body", "pointer"), [
    ({"phone": "+12015550100"}, "/phone"),
    ({"status": "completed"}, "/status"),
    ({"email": "nobody"}, "/email"),
    ({"full_name": "x" * 201}, "/full_name"),
    ({"custom_fields": {"x": [1]}}, "/custom_fields/x"),
    ({"custom_fields": {f"k{i}": i for i in range(21)}}, "/custom_fields"),
    ({"custom_fields": {f"k{i}": i for i in range(20)}}, "/custom_fields"),
])
def test_update_refuses_what_cannot_change(api: httpx.Client, sandbox: Sandbox, body: Any,
                                           pointer: str) -> None:
    lead_id = _seeded_lead(sandbox, custom=True)
    before = api.get(f"/v1/leads/{lead_id}").json()
    problem = assert_problem(_patch(api, lead_id, body), 400, "validation_failed")
    assert pointer in [e["pointer"] for e in problem["errors"]]
    assert api.get(f"/v1/leads/{lead_id}").json() == before


def test_update_of_an_unknown_lead_is_not_found(api: httpx.Client) -> None:
    assert_problem(_patch(api, UNKNOWN_LEAD, {"full_name": "x"}), 404, "not_found")


def test_update_needs_the_leads_write_scope(key_client: Any, sandbox: Sandbox) -> None:
    response = _patch(key_client("reader"), _seeded_lead(sandbox), {"full_name": "x"})
    assert_problem(response, 403, "insufficient_scope")


def test_live_and_test_keys_see_separate_leads(api: httpx.Client, sandbox: Sandbox) -> None:
    [phone] = fresh_phones(sandbox, 1)
    lead_id = _create(api, {"campaign_id": campaign_ids(sandbox)["draft"],
                            "phone": phone}).json()["lead_id"]
    with client_for(sandbox, KEYS["full_live"]) as live:
        assert_problem(live.get(f"/v1/leads/{lead_id}"), 404, "not_found")
