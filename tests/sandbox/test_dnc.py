"""Do-Not-Call check and add, and consent records, over HTTP against the emulator.

The DNC list is layered: every client sees the account's seeded numbers plus
the numbers its own data set added, and nothing another client added.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest import assert_problem, write
from dialkit.contract import DNC_CHECK_BATCH, id_pattern
from dialkit.sandbox import Sandbox
from dialkit.sandbox._http._openapi import PHONE_FORMAT

FREE = "+12125550142"
"""A valid number that is on no DNC list of the seeded world."""

FREE_TOO = "+14155550143"

NOT_A_NUMBER = "+1555"
"""Matches the E.164 pattern but is no valid number."""

CONSENT: dict[str, Any] = {
    "phone": FREE, "channel": "sms", "granted": True, "captured_at": "2026-11-01T09:30:00Z",
    "method": "web_form", "evidence_url": "https://example.com/forms/42", "text": "Yes, text me",
}


@pytest.fixture
def seeded(sandbox: Sandbox) -> dict[str, Any]:
    """One number of the account's seeded DNC list, with its seeded fields."""
    row = sandbox.service.store.row(
        "SELECT phone, added_at, source FROM dnc WHERE dataset = 'seed:acme' ORDER BY phone "
        "LIMIT 1")
    assert row is not None, "the seeded world has no DNC numbers"
    return dict(row)


def check(http: httpx.Client, phones: Any) -> httpx.Response:
    """POST /v1/dnc/check (read-only: no Idempotency-Key)."""
    return http.post("/v1/dnc/check", json={"phones": phones})


def listed(http: httpx.Client, phone: str) -> bool:
    """Whether ``phone`` is on the caller's DNC list."""
    response = check(http, [phone])
    assert response.status_code == 200, response.text
    return bool(response.json()["data"][0]["listed"])


def test_check_answers_each_number_in_input_order(api: httpx.Client,
                                                  seeded: dict[str, Any]) -> None:
    phones = [FREE, seeded["phone"], FREE_TOO, seeded["phone"], FREE]
    response = check(api, phones)
    assert response.status_code == 200, response.text
    free = {"listed": False, "listed_at": None}
    held = {"phone": seeded["phone"], "listed": True, "listed_at": seeded["added_at"]}
    assert response.json() == {"data": [
        {"phone": FREE, **free}, held, {"phone": FREE_TOO, **free}, held, {"phone": FREE, **free}]}


def test_check_takes_up_to_the_batch_limit(api: httpx.Client) -> None:
    phones = [f"+1212555{line:04d}" for line in range(1000, 1000 + DNC_CHECK_BATCH)]
    response = check(api, phones)
    assert response.status_code == 200, response.text
    assert [r["phone"] for r in response.json()["data"]] == phones


def test_check_refuses_more_than_the_batch_limit(api: httpx.Client) -> None:
    body = assert_problem(check(api, [FREE] * (DNC_CHECK_BATCH + 1)), 400, "batch_too_large")
    assert str(DNC_CHECK_BATCH) in body["detail"]


@pytest.mark.parametrize(("body", "errors"), [
    ({"phones": []}, [{"pointer": "/phones", "code": "too_short"}]),
    ({}, [{"pointer": "/phones", "code": "missing"}]),
    ({"phones": FREE}, [{"pointer": "/phones", "code": "invalid_type"}]),
    ({"phones": [FREE], "extra": 1}, [{"pointer": "/extra", "code": "unknown_field"}]),
    ({"phones": [FREE, "2125550142", FREE_TOO, NOT_A_NUMBER]},
     [{"pointer": "/phones/1", "code": "invalid_format"},
      {"pointer": "/phones/3", "code": "invalid_phone"}]),
    ({"phones": [FREE, 14155550143]}, [{"pointer": "/phones/1", "code": "invalid_type"}]),
])
def test_check_refuses_invalid_bodies(api: httpx.Client, body: dict[str, Any],
                                      errors: list[dict[str, str]]) -> None:
    problem = assert_problem(api.post("/v1/dnc/check", json=body), 400, "validation_failed")
    assert problem["errors"] == errors


def test_check_is_read_only_and_never_replayed(api: httpx.Client) -> None:
    first = write(api, "/v1/dnc/check", {"phones": [FREE]}, key="same")
    assert write(api, "/v1/dnc", {"phone": FREE}).status_code == 201
    again = write(api, "/v1/dnc/check", {"phones": [FREE]}, key="same")
    assert first.json()["data"][0]["listed"] is False
    assert again.json()["data"][0]["listed"] is True
    assert "idempotency-replayed" not in again.headers


def test_check_says_since_when_a_number_is_listed(api: httpx.Client, sandbox: Sandbox) -> None:
    added = write(api, "/v1/dnc", {"phone": FREE}).json()["added_at"]
    httpx.post(sandbox.base_url + "/_sandbox/clock", json={"advance_seconds": 3600},
               headers=sandbox.admin_headers)
    assert write(api, "/v1/dnc", {"phone": FREE}, key="again").status_code == 200
    assert check(api, [FREE]).json()["data"][0]["listed_at"] == added


@pytest.mark.parametrize(("role", "path", "body"), [
    ("noscope", "/v1/dnc/check", {"phones": [FREE]}),
    ("reader", "/v1/dnc", {"phone": FREE}),
    ("reader", "/v1/consents", CONSENT),
])
def test_operations_need_their_scope(key_client: Callable[[str], httpx.Client], role: str,
                                     path: str, body: dict[str, Any]) -> None:
    assert_problem(write(key_client(role), path, body), 403, "insufficient_scope")


def test_add_lists_a_new_number(api: httpx.Client, sandbox: Sandbox) -> None:
    response = write(api, "/v1/dnc", {"phone": FREE})
    assert response.status_code == 201, response.text
    now = httpx.get(sandbox.base_url + "/_sandbox/clock").json()["now"]
    assert response.json() == {"phone": FREE, "listed": True, "added_at": now, "source": "api"}
    assert listed(api, FREE)


def test_adding_a_listed_number_answers_the_existing_entry(api: httpx.Client, sandbox: Sandbox,
                                                           seeded: dict[str, Any]) -> None:
    created = write(api, "/v1/dnc", {"phone": FREE}, key="a").json()
    httpx.post(sandbox.base_url + "/_sandbox/clock", json={"advance_seconds": 60},
               headers=sandbox.admin_headers)
    again = write(api, "/v1/dnc", {"phone": FREE}, key="b")
    assert again.status_code == 200
    assert again.json() == created
    from_seed = write(api, "/v1/dnc", {"phone": seeded["phone"]}, key="c")
    assert from_seed.status_code == 200
    assert from_seed.json() == {**seeded, "listed": True}


def test_an_added_number_stays_in_the_adding_clients_data_set(
        api: httpx.Client, key_client: Callable[[str], httpx.Client]) -> None:
    write(api, "/v1/dnc", {"phone": FREE})
    assert listed(api, FREE)
    assert not listed(key_client("other"), FREE)


def test_add_is_replayed_for_the_same_idempotency_key(api: httpx.Client) -> None:
    first = write(api, "/v1/dnc", {"phone": FREE}, key="once")
    second = write(api, "/v1/dnc", {"phone": FREE}, key="once")
    assert (second.status_code, second.json()) == (201, first.json())
    assert second.headers["idempotency-replayed"] == "true"
    assert_problem(write(api, "/v1/dnc", {"phone": FREE_TOO}, key="once"), 409,
                   "idempotency_conflict")


@pytest.mark.parametrize(("body", "error"), [
    ({"phone": "2125550142"}, {"pointer": "/phone", "code": "invalid_format"}),
    ({"phone": NOT_A_NUMBER}, {"pointer": "/phone", "code": "invalid_phone"}),
    ({}, {"pointer": "/phone", "code": "missing"}),
    ({"phone": FREE, "reason": "asked"}, {"pointer": "/reason", "code": "unknown_field"}),
])
def test_add_refuses_invalid_bodies(api: httpx.Client, body: dict[str, Any],
                                    error: dict[str, str]) -> None:
    problem = assert_problem(write(api, "/v1/dnc", body), 400, "validation_failed")
    assert problem["errors"] == [error]
    assert not listed(api, FREE)


def test_add_needs_an_idempotency_key(api: httpx.Client) -> None:
    assert_problem(api.post("/v1/dnc", json={"phone": FREE}), 400, "idempotency_key_required")


def test_numbers_cannot_be_removed(api: httpx.Client) -> None:
    response = api.delete("/v1/dnc", headers={"Idempotency-Key": "k"})
    assert_problem(response, 405, "method_not_allowed")
    assert "POST" in response.headers["allow"]


def test_consent_is_recorded(api: httpx.Client, sandbox: Sandbox) -> None:
    response = write(api, "/v1/consents", {**CONSENT, "captured_at": "2026-11-01T10:30:00+01:00"})
    assert response.status_code == 201, response.text
    record = response.json()
    now = httpx.get(sandbox.base_url + "/_sandbox/clock").json()["now"]
    assert re.fullmatch(id_pattern("cns_"), record.pop("id"))
    assert record == {**CONSENT, "captured_at": "2026-11-01T09:30:00.000Z", "created_at": now}


def test_consent_optional_fields_are_null_when_not_sent(api: httpx.Client) -> None:
    body = {k: v for k, v in CONSENT.items() if k not in ("evidence_url", "text")}
    record = write(api, "/v1/consents", {**body, "granted": False, "channel": "call",
                                         "method": "verbal"}).json()
    assert (record["evidence_url"], record["text"], record["granted"]) == (None, None, False)


@pytest.mark.parametrize(("change", "error"), [
    ({"phone": NOT_A_NUMBER}, {"pointer": "/phone", "code": "invalid_phone"}),
    ({"phone": "0142"}, {"pointer": "/phone", "code": "invalid_format"}),
    ({"channel": "email"}, {"pointer": "/channel", "code": "invalid"}),
    ({"method": "telepathy"}, {"pointer": "/method", "code": "invalid"}),
    ({"granted": "yes"}, {"pointer": "/granted", "code": "invalid_type"}),
    ({"captured_at": "2026-11-01T09:30:00"}, {"pointer": "/captured_at", "code": "invalid"}),
    ({"captured_at": "2027-01-01T00:00:00Z"}, {"pointer": "/captured_at", "code": "in_future"}),
    ({"evidence_url": "ftp://example.com/x"}, {"pointer": "/evidence_url",
                                               "code": "invalid_format"}),
    ({"text": ""}, {"pointer": "/text", "code": "too_short"}),
    ({"signature": "x"}, {"pointer": "/signature", "code": "unknown_field"}),
    ({"granted": None}, {"pointer": "/granted", "code": "invalid_type"}),
])
def test_consent_refuses_invalid_bodies(api: httpx.Client, change: dict[str, Any],
                                        error: dict[str, str]) -> None:
    problem = assert_problem(write(api, "/v1/consents", {**CONSENT, **change}), 400,
                             "validation_failed")
    assert problem["errors"] == [error]


@pytest.mark.parametrize("field", ["phone", "channel", "granted", "captured_at", "method"])
def test_consent_requires_its_fields(api: httpx.Client, field: str) -> None:
    body = {k: v for k, v in CONSENT.items() if k != field}
    problem = assert_problem(write(api, "/v1/consents", body), 400, "validation_failed")
    assert problem["errors"] == [{"pointer": f"/{field}", "code": "missing"}]


def test_consent_needs_the_tier_two_switch(key_client: Callable[[str], httpx.Client]) -> None:
    assert_problem(write(key_client("noswitch"), "/v1/consents", CONSENT), 403,
                   "tier_not_enabled")


def test_the_openapi_document_keeps_the_contract_limits(sandbox: Sandbox) -> None:
    document = httpx.get(sandbox.base_url + "/_sandbox/openapi.json").json()
    phones = document["components"]["schemas"]["DncCheckBody"]["properties"]["phones"]
    assert (phones["minItems"], phones["maxItems"]) == (1, DNC_CHECK_BATCH)
    assert phones["items"]["format"] == PHONE_FORMAT  # the pattern alone admits "+10"
    assert "ConsentCreateRequest" in document["components"]["schemas"]
