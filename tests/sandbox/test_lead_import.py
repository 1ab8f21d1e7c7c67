"""POST /v1/leads/import over HTTP: one result per lead, every status, and the refusals.

The helpers here read the seeded world (campaigns by status, numbers that are
free, on the DNC list or already leads) and are shared with ``test_leads.py``.
"""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from conftest import assert_problem, write
from dialkit.contract import Lead
from dialkit.sandbox import Sandbox

IMPORT = "/v1/leads/import"
BLOCKED_PHONE = "+85021234567"
"""A valid North Korean number; KP is one of the default blocked countries."""
UNKNOWN_CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000000"


def campaign_ids(sandbox: Sandbox, account: str = "acme") -> dict[str, str]:
    """One seeded campaign id per status, plus ``archived``."""
    ids: dict[str, str] = {}
    for row in sandbox.service.store.rows(
            "SELECT id, status, archived FROM campaigns WHERE dataset = ? ORDER BY id",
            (f"seed:{account}",)):
        ids.setdefault("archived" if row["archived"] else row["status"], row["id"])
    return ids


def fresh_phones(sandbox: Sandbox, count: int) -> list[str]:
    """Valid fictional US numbers that are neither leads nor on a DNC list anywhere."""
    used = {r[0] for r in sandbox.service.store.rows(
        "SELECT phone FROM leads UNION SELECT phone FROM dnc")}
    free = [p for p in (f"+1201555{line:04d}" for line in range(100, 200)) if p not in used]
    return free[:count]


def dnc_phone(sandbox: Sandbox, campaign_id: str) -> str:
    """A seeded Do-Not-Call number that is not a lead of ``campaign_id``."""
    row = sandbox.service.store.row(
        "SELECT phone FROM dnc WHERE dataset = 'seed:acme' AND phone NOT IN "
        "(SELECT phone FROM leads WHERE campaign_id = ?) ORDER BY phone", (campaign_id,))
    assert row is not None, "the seeded world has no DNC number"
    return str(row[0])


def campaign_phone(sandbox: Sandbox, campaign_id: str) -> str:
    """The phone of a seeded lead of ``campaign_id``."""
    row = sandbox.service.store.row(
        "SELECT phone FROM leads WHERE dataset = 'seed:acme' AND campaign_id = ? ORDER BY id",
        (campaign_id,))
    assert row is not None, "the seeded campaign has no lead"
    return str(row[0])


def import_leads(http: httpx.Client, campaign_id: str, leads: Any,
                 key: str | None = None) -> httpx.Response:
    """POST an import (a fresh Idempotency-Key unless ``key`` is given)."""
    return write(http, IMPORT, {"leads": leads}, params={"campaign_id": campaign_id},
                 key=key or uuid.uuid4().hex)


def lead_count(http: httpx.Client, campaign_id: str) -> int:
    """How many leads the campaign has, counted through the list."""
    total = 0
    params: dict[str, str | int] = {"campaign_id": campaign_id, "limit": 100}
    while True:
        page = http.get("/v1/leads", params=params).json()
        total += len(page["data"])
        if not page["page"]["has_more"]:
            return total
        params["cursor"] = page["page"]["next_cursor"]


def outcomes(response: httpx.Response) -> list[tuple[str, str | None, str | None]]:
    """``(status, reason, field)`` of each result, checking the indexes on the way."""
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert [r["index"] for r in data] == list(range(len(data)))
    return [(r["status"], r["reason"], r["field"]) for r in data]


def test_import_answers_every_status_and_reason(api: httpx.Client, sandbox: Sandbox) -> None:
    draft = campaign_ids(sandbox)["draft"]
    first, second = fresh_phones(sandbox, 2)
    spaced = f"{second[:2]} ({second[2:5]}) {second[5:8]}-{second[8:]}"
    cases: list[tuple[dict[str, Any], tuple[str, str | None, str | None]]] = [
        ({"phone": first, "external_id": "crm-1", "first_name": "Ada", "last_name": "Lovelace"},
         ("accepted", None, None)),
        ({"external_id": "crm-2"}, ("invalid", "missing_phone", None)),
        ({"phone": None}, ("invalid", "missing_phone", None)),
        ({"phone": "  "}, ("invalid", "missing_phone", None)),
        ({"phone": "555-0100"}, ("invalid", "invalid_phone", None)),
        ({"phone": "+12345"}, ("invalid", "invalid_phone", None)),
        ({"phone": 12015550100}, ("invalid", "invalid_phone", None)),
        ({"phone": "+1" + "2" * 40}, ("invalid", "field_rule", "phone")),
        ({"phone": BLOCKED_PHONE}, ("blocked_country", None, None)),
        ({"phone": first}, ("duplicate", "duplicate_in_request", None)),
        ({"phone": second, "external_id": "crm-1"}, ("duplicate", "duplicate_in_request", None)),
        ({"phone": campaign_phone(sandbox, draft)}, ("duplicate", "duplicate_in_campaign", None)),
        ({"phone": dnc_phone(sandbox, draft)}, ("on_dnc", None, None)),
        ({"phone": second, "email": "not-an-email"}, ("invalid", "field_rule", "email")),
        ({"phone": second, "full_name": "x" * 201}, ("invalid", "field_rule", "full_name")),
        ({"phone": second, "external_id": ""}, ("invalid", "field_rule", "external_id")),
        ({"phone": second, "email": "bad", "last_name": 7}, ("invalid", "field_rule", "last_name")),
        ({"phone": second, "custom_fields": {"ok": 1, "nested": {"a": 1}}},
         ("invalid", "field_rule", "custom_fields.nested")),
        ({"phone": second, "custom_fields": {f"k{i}": i for i in range(21)}},
         ("invalid", "field_rule", "custom_fields")),
        ({"phone": second, "custom_fields": "gold"}, ("invalid", "field_rule", "custom_fields")),
        ({"phone": spaced, "external_id": "crm-3", "custom_fields": {"tier": "gold", "x": None}},
         ("accepted", None, None)),
    ]
    response = import_leads(api, draft, [lead for lead, _ in cases])
    assert outcomes(response) == [expected for _, expected in cases]
    body = response.json()
    assert body["campaign_id"] == draft
    assert body["summary"] == {"received": len(cases), "accepted": 2, "rejected": len(cases) - 2}
    data = body["data"]
    assert [r["external_id"] for r in data[:3]] == ["crm-1", "crm-2", None]
    assert all((r["lead_id"] is not None) == (r["status"] == "accepted") for r in data)
    assert all(r["field"] is None for r in data if r["reason"] != "field_rule")

    lead = api.get(f"/v1/leads/{data[0]['lead_id']}").json()
    assert set(lead) == set(Lead.model_fields)
    assert (lead["phone"], lead["full_name"], lead["status"], lead["attempts"],
            lead["campaign_id"], lead["external_id"], lead["custom_fields"]) == (
        first, "Ada Lovelace", "new", 0, draft, "crm-1", None)
    last = api.get(f"/v1/leads/{data[-1]['lead_id']}").json()
    assert (last["phone"], last["custom_fields"]) == (second, {"tier": "gold"})
    history = api.get(f"/v1/leads/{data[0]['lead_id']}/history").json()
    assert [entry["event"] for entry in history["data"]] == ["created"]


def test_import_stores_the_country(api: httpx.Client, sandbox: Sandbox) -> None:
    [phone] = fresh_phones(sandbox, 1)
    response = import_leads(api, campaign_ids(sandbox)["ready"], [{"phone": phone}])
    lead_id = response.json()["data"][0]["lead_id"]
    row = sandbox.service.store.row("SELECT country FROM leads WHERE id = ?", (lead_id,))
    assert row is not None and row["country"] == "US"


@pytest.mark.parametrize(("body", "pointer"), [
    ({"leads": []}, "/leads"),
    ({"leads": {"phone": "+12015550100"}}, "/leads"),
    ({"leads": ["+12015550100"]}, "/leads/0"),
    ({"leads": [{"phone": "+12015550100"}], "dedupe": True}, "/dedupe"),
    ({"leads": [{"phone": "+12015550100"}, {"phone": "+12015550101", "mobile": "x"}]},
     "/leads/1/mobile"),
    ({}, "/leads"),
    ([], ""),
])
def test_import_refuses_a_badly_shaped_request(api: httpx.Client, sandbox: Sandbox, body: Any,
                                               pointer: str) -> None:
    draft = campaign_ids(sandbox)["draft"]
    before = lead_count(api, draft)
    response = write(api, IMPORT, body, params={"campaign_id": draft})
    problem = assert_problem(response, 400, "validation_failed")
    assert pointer in [e["pointer"] for e in problem["errors"]]
    assert lead_count(api, draft) == before


def test_import_of_more_than_200_leads_is_batch_too_large(api: httpx.Client,
                                                         sandbox: Sandbox) -> None:
    leads = [{"phone": "+12015550100"}] * 201
    assert_problem(import_leads(api, campaign_ids(sandbox)["draft"], leads), 400,
                   "batch_too_large")
    ok = import_leads(api, campaign_ids(sandbox)["draft"], leads[:200])
    assert ok.json()["summary"]["received"] == 200


@pytest.mark.parametrize(("params", "pointer"), [
    ({}, "/query/campaign_id"),
    ({"campaign_id": "cmp_123"}, "/query/campaign_id"),
    ({"campaign_id": UNKNOWN_CAMPAIGN, "dry_run": "1"}, "/query/dry_run"),
])
def test_import_refuses_a_bad_query(api: httpx.Client, params: dict[str, str],
                                    pointer: str) -> None:
    response = write(api, IMPORT, {"leads": [{"phone": "+12015550100"}]}, params=params)
    problem = assert_problem(response, 400, "validation_failed")
    assert pointer in [e["pointer"] for e in problem["errors"]]


@pytest.mark.parametrize("campaign", ["unknown", "archived"])
def test_import_into_a_campaign_that_is_not_listed_is_not_found(
        api: httpx.Client, sandbox: Sandbox, campaign: str) -> None:
    campaign_id = campaign_ids(sandbox).get(campaign, UNKNOWN_CAMPAIGN)
    assert_problem(import_leads(api, campaign_id, [{"phone": "+12015550100"}]), 404,
                   "not_found")


@pytest.mark.parametrize(("status", "importable"), [
    ("draft", True), ("ready", True), ("paused", True), ("running", False), ("completed", False),
])
def test_import_depends_on_the_campaign_state(api: httpx.Client, sandbox: Sandbox, status: str,
                                              importable: bool) -> None:
    campaign_id = campaign_ids(sandbox)[status]
    [phone] = fresh_phones(sandbox, 1)
    before = lead_count(api, campaign_id)
    response = import_leads(api, campaign_id, [{"phone": phone}])
    if importable:
        assert outcomes(response) == [("accepted", None, None)]
        assert lead_count(api, campaign_id) == before + 1
    else:
        assert_problem(response, 409, "campaign_not_importable")
        assert lead_count(api, campaign_id) == before


def test_import_writes_nothing_when_the_dnc_screen_cannot_run(api: httpx.Client,
                                                              sandbox: Sandbox) -> None:
    draft = campaign_ids(sandbox)["draft"]
    leads = [{"phone": phone} for phone in fresh_phones(sandbox, 3)]
    before = lead_count(api, draft)
    httpx.post(sandbox.base_url + "/_sandbox/faults", headers=sandbox.admin_headers, json={
        "path": IMPORT, "kind": "dnc_screen_unavailable", "count": 1}).raise_for_status()
    assert_problem(import_leads(api, draft, leads, key="screen"), 503, "dnc_screen_unavailable")
    assert lead_count(api, draft) == before
    retried = import_leads(api, draft, leads, key="screen")
    assert outcomes(retried) == [("accepted", None, None)] * 3
    assert lead_count(api, draft) == before + 3


def test_import_compares_with_leads_of_earlier_imports(api: httpx.Client,
                                                       sandbox: Sandbox) -> None:
    ids = campaign_ids(sandbox)
    first, second = fresh_phones(sandbox, 2)
    assert outcomes(import_leads(api, ids["draft"], [{"phone": first, "external_id": "e-1"}])) \
        == [("accepted", None, None)]
    again = [{"phone": first}, {"phone": second, "external_id": "e-1"}]
    assert outcomes(import_leads(api, ids["draft"], again)) == [
        ("duplicate", "duplicate_in_campaign", None), ("duplicate", "duplicate_in_campaign", None)]
    elsewhere = [{"phone": first}, {"phone": second, "external_id": "e-1"}]
    assert outcomes(import_leads(api, ids["ready"], elsewhere)) == [
        ("accepted", None, None), ("invalid", "field_rule", "external_id")]


def test_import_needs_the_leads_write_scope(key_client: Any, sandbox: Sandbox) -> None:
    reader = key_client("reader")
    response = import_leads(reader, campaign_ids(sandbox)["draft"], [{"phone": "+12015550100"}])
    assert_problem(response, 403, "insufficient_scope")


def test_import_path_is_not_a_lead_id(api: httpx.Client) -> None:
    response = api.get(IMPORT)
    assert_problem(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "POST"
