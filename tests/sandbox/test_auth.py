"""Authentication and authorisation over HTTP: the contract's rules 1-7 and tiers.

Campaign pause (scope ``campaigns:pause``), the campaign list and ``/v1/me``
are the vehicle operations; the scope and tier tables are checked over every
operation of the contract.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import KEYS, assert_problem, base_config, client_for, write
from dialkit.contract import OPERATIONS, Operation
from dialkit.sandbox import Sandbox, parse_config, start

UNKNOWN_KEY = "svc_test_unknown01_AAAAbbbbCCCCddddEEEEffff0000"
PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000"


def campaign_in(http: httpx.Client, status: str) -> str:
    """The id of a campaign in ``status`` as ``http``'s key sees it."""
    response = http.get("/v1/campaigns", params={"status": status, "limit": 100})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data, f"the seeded world has no {status} campaign"
    return str(data[0]["id"])


def campaign_status(http: httpx.Client, campaign_id: str) -> str:
    """The status of one campaign as ``http``'s key sees it."""
    response = http.get(f"/v1/campaigns/{campaign_id}")
    assert response.status_code == 200, response.text
    return str(response.json()["status"])


def concrete(operation: Operation) -> str:
    """The operation's path with every placeholder filled with a well-formed unknown id."""
    path = operation.path
    while "{" in path:
        start_, end = path.index("{"), path.index("}")
        path = path[:start_] + "x_" + PLACEHOLDER_ID + path[end + 1:]
    return path


@pytest.fixture(scope="module")
def still() -> Iterator[Sandbox]:
    """An emulator of the session's configuration for checks that change nothing.

    Refused requests write nothing, so these tests share it without the reset
    (and the copy of the world) that each use of ``sandbox`` costs.
    """
    with start(parse_config(base_config())) as running:
        yield running


def comparable(response: httpx.Response) -> tuple[int, dict[str, Any], dict[str, str]]:
    """Status, body and headers with everything tied to the single request removed."""
    body = response.json()
    del body["request_id"], body["instance"]
    headers = {k: v for k, v in response.headers.items() if k not in ("x-request-id", "date")}
    return response.status_code, body, headers


# Rule 4 (and 3): every key problem gives one identical 401.

BAD_AUTHORIZATION = {
    "missing header": None,
    "wrong scheme": f"Basic {KEYS['full']}",
    "token scheme": f"Token {KEYS['full']}",
    "scheme only": "Bearer",
    "malformed key": "Bearer svc_test_short_abc",
    "unknown prefix": "Bearer " + KEYS["full"].replace("svc_test_", "svc_prod_"),
    "unknown key": f"Bearer {UNKNOWN_KEY}",
    "known id wrong secret": f"Bearer {KEYS['full'][:-1]}9",
    "revoked key": f"Bearer {KEYS['revoked']}",
    "test key without sandbox": f"Bearer {KEYS['nosandbox']}",
}


@pytest.mark.parametrize("authorization", BAD_AUTHORIZATION.values(), ids=BAD_AUTHORIZATION)
def test_every_key_problem_gives_one_identical_401(still: Sandbox,
                                                   authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    with httpx.Client(base_url=still.base_url) as http:
        for method, path in [("GET", "/v1/me"), ("POST", "/v1/campaigns/x/pause")]:
            reference = http.request(method, path)
            response = http.request(method, path, headers=headers)
            assert_problem(response, 401, "invalid_api_key")
            assert comparable(response) == comparable(reference)


def test_bearer_scheme_is_case_insensitive(still: Sandbox) -> None:
    response = httpx.get(still.base_url + "/v1/me",
                         headers={"Authorization": f"bearer {KEYS['full']}"})
    assert response.status_code == 200, response.text


# Rule 2: a key in the URL or the body is refused before anything else.

ENCODED_KEY = KEYS["full"].replace("_", "%5F")

URL_CASES = {
    "query": f"/v1/campaigns?api_key={KEYS['full']}",
    "url-encoded query": f"/v1/campaigns?api_key={ENCODED_KEY}",
    "inside a query value": f"/v1/campaigns?status=x{KEYS['other']}x",
    "unknown key in query": f"/v1/campaigns?cursor={UNKNOWN_KEY}",
    "query of an operation without parameters": f"/v1/me?key={KEYS['full']}",
    "path": f"/v1/campaigns/{KEYS['full']}",
    "url-encoded path": f"/v1/campaigns/{ENCODED_KEY}",
    "path of a write": f"/v1/campaigns/{KEYS['revoked']}/pause",
}


@pytest.mark.parametrize("url", URL_CASES.values(), ids=URL_CASES)
@pytest.mark.parametrize("key", [None, KEYS["full"]], ids=["no key", "key"])
def test_key_in_url_is_refused_first(still: Sandbox, url: str, key: str | None) -> None:
    method = "POST" if url.endswith("/pause") else "GET"
    with client_for(still, key) as http:
        response = http.request(method, url)
    assert_problem(response, 400, "credential_in_url")


BODY_CASES = {
    "json field": ("application/json", f'{{"note": "{KEYS["full"]}"}}'),
    "unknown key in json": ("application/json", f'{{"note": "{UNKNOWN_KEY}"}}'),
    "invalid json": ("application/json", f'{{"note": {KEYS["full"]}'),
    "text body": ("text/plain", f"key={KEYS['full']}"),
    "form body": ("application/x-www-form-urlencoded", f"api_key={KEYS['full']}"),
}


@pytest.mark.parametrize(("content_type", "body"), BODY_CASES.values(), ids=BODY_CASES)
@pytest.mark.parametrize("key", [None, KEYS["full"]], ids=["no key", "key"])
def test_key_in_body_is_refused_before_auth(still: Sandbox, content_type: str, body: str,
                                            key: str | None) -> None:
    with client_for(still, key) as http:
        response = http.post("/v1/campaigns/x/pause", content=body,
                             headers={"Content-Type": content_type})
    assert_problem(response, 400, "credential_in_body")


EXPOSED_ON_NO_ROUTE = {
    "url, unknown path": ("GET", f"/v1/nope?api_key={KEYS['full']}", None, "credential_in_url"),
    "url, other method": ("GET", f"/v1/campaigns/x/pause?api_key={KEYS['full']}", None,
                          "credential_in_url"),
    "body, unknown path": ("POST", "/v1/nope", {"key": KEYS["full"]}, "credential_in_body"),
    "body, other method": ("PUT", "/v1/campaigns/x/pause", {"key": KEYS["full"]},
                           "credential_in_body"),
}


@pytest.mark.parametrize(("method", "url", "body", "code"), EXPOSED_ON_NO_ROUTE.values(),
                         ids=EXPOSED_ON_NO_ROUTE)
def test_exposed_key_is_reported_even_without_a_route(still: Sandbox, method: str, url: str,
                                                      body: Any, code: str) -> None:
    """A key sent on a mistyped path is just as exposed; the caller must learn it (rule 2)."""
    with client_for(still, None) as http:
        assert_problem(http.request(method, url, json=body), 400, code)


# Rule 5: access switched off and the allow-lists (a sandbox of its own).

ACCESS_KEYS = {
    "account off": "svc_test_acctoff01_AAAAbbbbCCCCddddEEEEffff0101",
    "client off": "svc_test_clioff001_AAAAbbbbCCCCddddEEEEffff0102",
    "account list": "svc_test_acctip001_AAAAbbbbCCCCddddEEEEffff0103",
    "client list": "svc_test_cliip0001_AAAAbbbbCCCCddddEEEEffff0104",
    "both lists pass": "svc_test_bothok001_AAAAbbbbCCCCddddEEEEffff0105",
    "account passes client refuses": "svc_test_cliout001_AAAAbbbbCCCCddddEEEEffff0106",
    "exact address": "svc_test_exact0001_AAAAbbbbCCCCddddEEEEffff0107",
}


def _client(name: str, role: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "scopes": ["campaigns:read"], "keys": [{"key": ACCESS_KEYS[role]}],
            **fields}


def access_config() -> dict[str, Any]:
    """Accounts and clients with access switched off or allow-lists set."""
    return {
        "server": {"rate_limit_scale": 0, "clock": "manual",
                   "start_time": "2026-11-02T15:00:00Z"},
        "accounts": [
            {"name": "off", "api_access_enabled": False,
             "clients": [_client("c", "account off")]},
            {"name": "listed", "ip_allow_list": ["10.0.0.0/8"],
             "clients": [_client("c", "account list")]},
            {"name": "open", "clients": [
                _client("off", "client off", enabled=False),
                _client("listed", "client list", ip_allow_list=["10.0.0.0/8"]),
                _client("exact", "exact address", ip_allow_list=["127.0.0.1/32"])]},
            {"name": "loopback", "ip_allow_list": ["127.0.0.0/8"], "clients": [
                _client("ok", "both lists pass", ip_allow_list=["127.0.0.0/8", "::1/128"]),
                _client("out", "account passes client refuses",
                        ip_allow_list=["192.168.0.0/16"])]},
        ],
    }


@pytest.fixture(scope="module")
def access_sandbox() -> Iterator[Sandbox]:
    """The emulator of :func:`access_config` (one for the module: start-up seeds a world)."""
    with start(parse_config(access_config())) as running:
        yield running


ACCESS_CASES = [
    ("account off", 403, "api_access_disabled"),
    ("client off", 403, "api_access_disabled"),
    ("account list", 403, "ip_not_allowed"),
    ("client list", 403, "ip_not_allowed"),
    ("account passes client refuses", 403, "ip_not_allowed"),
    ("both lists pass", 200, None),
    ("exact address", 200, None),
]


@pytest.mark.parametrize(("role", "status", "code"), ACCESS_CASES,
                         ids=[case[0] for case in ACCESS_CASES])
@pytest.mark.parametrize("path", ["/v1/me", "/v1/campaigns"])
def test_access_and_allow_lists(access_sandbox: Sandbox, role: str, status: int,
                                code: str | None, path: str) -> None:
    with client_for(access_sandbox, ACCESS_KEYS[role]) as http:
        response = http.get(path)
    if code is None:
        assert response.status_code == status, response.text
    else:
        assert_problem(response, status, code)


def test_allow_list_is_checked_against_the_source_address(access_sandbox: Sandbox) -> None:
    transport = httpx.HTTPTransport(local_address="127.0.0.2")
    headers = {"Authorization": f"Bearer {ACCESS_KEYS['exact address']}"}
    with httpx.Client(base_url=access_sandbox.base_url, headers=headers,
                      transport=transport) as http:
        assert_problem(http.get("/v1/me"), 403, "ip_not_allowed")


# Rule 6 and tiers: scopes and switches.

def test_missing_scope_is_refused(sandbox: Sandbox, key_client: Any) -> None:
    reader: httpx.Client = key_client("reader")
    campaign = campaign_in(reader, "running")
    assert_problem(write(reader, f"/v1/campaigns/{campaign}/pause"), 403, "insufficient_scope")
    assert campaign_status(reader, campaign) == "running"


def test_client_without_scopes_can_call_me(still: Sandbox) -> None:
    with client_for(still, KEYS["noscope"]) as http:
        response = http.get("/v1/me")
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.scope is not None],
                         ids=lambda op: op.name)
def test_client_without_scopes_can_call_nothing_else(still: Sandbox,
                                                     operation: Operation) -> None:
    with client_for(still, KEYS["noscope"]) as http:
        response = http.request(operation.method, concrete(operation))
    assert_problem(response, 403, "insufficient_scope")


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.switch is not None],
                         ids=lambda op: op.name)
def test_tier_two_needs_the_account_switch(still: Sandbox, operation: Operation) -> None:
    with client_for(still, KEYS["noswitch"]) as http:
        response = http.request(operation.method, concrete(operation))
    assert_problem(response, 403, "tier_not_enabled")


def test_resume_with_switch_off_changes_nothing(key_client: Any) -> None:
    http: httpx.Client = key_client("noswitch")
    campaign = campaign_in(http, "paused")
    assert_problem(write(http, f"/v1/campaigns/{campaign}/resume"), 403, "tier_not_enabled")
    assert campaign_status(http, campaign) == "paused"


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.tier_blocked],
                         ids=lambda op: op.name)
def test_blocked_operation_is_refused_for_every_account(still: Sandbox,
                                                        operation: Operation) -> None:
    with client_for(still, KEYS["full"]) as http:
        response = write(http, concrete(operation), {})
    assert_problem(response, 403, "tier_not_enabled")


# Data sets: live and test keys, and other clients, never see each other's changes.

@pytest.mark.parametrize(("writer", "readers"), [
    ("full", ["full_live", "other"]),
    ("full_live", ["full", "other"]),
    ("other", ["full", "full_live"]),
])
def test_a_change_is_seen_only_in_its_data_set(key_client: Any, writer: str,
                                               readers: list[str]) -> None:
    http: httpx.Client = key_client(writer)
    campaign = campaign_in(http, "running")
    response = write(http, f"/v1/campaigns/{campaign}/pause")
    assert response.status_code == 200, response.text
    assert campaign_status(http, campaign) == "paused"
    for reader in readers:
        assert campaign_status(key_client(reader), campaign) == "running", reader


def test_me_names_the_key_mode(key_client: Any) -> None:
    test_me = key_client("full").get("/v1/me").json()
    live_me = key_client("full_live").get("/v1/me").json()
    assert (test_me["key"]["mode"], live_me["key"]["mode"]) == ("test", "live")
    assert test_me["client"]["id"] == live_me["client"]["id"]
