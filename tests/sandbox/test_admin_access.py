"""Who may use the admin surface /_sandbox (issue 46): the admin key for every write and
for the tool audit log, the emulator's own Host and Origin names (as /mcp), the body limit
of /v1; and a key-shaped X-Correlation-ID never logged whole.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mcp.server.transport_security import TransportSecurityMiddleware
from starlette.requests import Request

from conftest import KEYS, assert_problem, client_for
from dialkit.sandbox import RemoteSandbox, Sandbox, attach_environment
from dialkit.sandbox._http._checks._admin_access import AdminAccess, admin_key_or_new, served_names

HEADER = "X-Sandbox-Admin-Key"
ATTACKER_KEY = "svc_test_attacker1_AAAAbbbbCCCCddddEEEEffff0666"

WRITES = [
    ("POST", "/_sandbox/reset", None),
    ("POST", "/_sandbox/clock", {"advance_seconds": 60}),
    ("POST", "/_sandbox/faults", {"path": "/v1/me", "code": "temporarily_unavailable"}),
    ("DELETE", "/_sandbox/faults", None),
    ("PATCH", "/_sandbox/accounts/acme", {"api_access_enabled": False}),
    ("PATCH", "/_sandbox/accounts/acme/clients/full", {"keys": [{"key": ATTACKER_KEY}]}),
    ("GET", "/_sandbox/mcp/audit", None),  # a read, but of what assistants did
]
BEARER = {"Authorization": f"Bearer {KEYS['full']}"}
"""What /mcp asks first (its key, checked before its Host and Origin)."""
HOSTS_AND_ORIGINS = [
    ("127.0.0.1:8787", None), ("localhost", None), ("[::1]:1", "http://[::1]:1"), (None, None),
    ("", None), ("attacker.example:8787", None), ("127.0.0.1.attacker.example", None),
    ("127.0.0.1:8787", "http://attacker.example"), ("127.0.0.1:8787", "http://127.0.0.1"),
    ("127.0.0.1:8787", "https://127.0.0.1:8787"), ("localhost:1", "http://localhost:5"),
    ("127.0.0.1:8787", "null"), ("127.0.0.1:8787", "")]
"""Host and Origin headers (``None``: not sent) that the two checks must judge alike."""
READS = ["/_sandbox/clock", "/_sandbox/faults", "/_sandbox/caller-ids?account=acme",
         "/_sandbox/ground-truth?account=acme", "/_sandbox/openapi.json"]


def send(sandbox: Sandbox, method: str, path: str, body: Any = None,
         **headers: str) -> httpx.Response:
    """A request to ``sandbox`` with exactly ``headers`` (no admin key unless given)."""
    return httpx.request(method, sandbox.base_url + path, json=body, headers=headers,
                         timeout=30)


@pytest.fixture
def full(sandbox: Sandbox) -> Iterator[httpx.Client]:
    """A client with the full key that sends no admin key."""
    with httpx.Client(base_url=sandbox.base_url, timeout=10,
                      headers={"Authorization": f"Bearer {KEYS['full']}"}) as http:
        yield http


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
@pytest.mark.parametrize("given", [None, "a-wrong-admin-key-of-20"])
def test_a_write_without_the_admin_key_is_refused_saying_what_to_send(
        sandbox: Sandbox, full: httpx.Client, method: str, path: str, body: Any,
        given: str | None) -> None:
    headers = {} if given is None else {HEADER: given}
    now = send(sandbox, "GET", "/_sandbox/clock").json()["now"]
    answer = send(sandbox, method, path, body, **headers)
    detail = assert_problem(answer, 401, "invalid_api_key")["detail"]
    assert HEADER in detail and "admin key: ..." in detail and "--admin-key" in detail
    assert full.get("/v1/me").status_code == 200  # access, keys and clock as they were
    assert send(sandbox, "GET", "/_sandbox/faults").json() == []
    assert send(sandbox, "GET", "/_sandbox/clock").json()["now"] == now


def test_the_rebinding_attack_on_the_keys_fails(sandbox: Sandbox, full: httpx.Client) -> None:
    """The issue's attack: a page sets a key of its choosing for the client with every scope."""
    answer = send(sandbox, "PATCH", "/_sandbox/accounts/acme/clients/full",
                  {"keys": [{"key": ATTACKER_KEY}]})
    assert answer.status_code == 401
    with httpx.Client(base_url=sandbox.base_url,
                      headers={"Authorization": f"Bearer {ATTACKER_KEY}"}) as attacker:
        assert_problem(attacker.get("/v1/me"), 401, "invalid_api_key")
    assert full.get("/v1/me").status_code == 200


def test_a_reset_without_the_key_keeps_the_data(sandbox: Sandbox, api: httpx.Client) -> None:
    campaign = api.get("/v1/campaigns", params={"status": "running"}).json()["data"][0]["id"]
    paused = api.post(f"/v1/campaigns/{campaign}/pause", headers={"Idempotency-Key": "p"})
    assert paused.status_code == 200
    assert send(sandbox, "POST", "/_sandbox/reset").status_code == 401
    assert api.get(f"/v1/campaigns/{campaign}").json()["status"] == "paused"


@pytest.mark.parametrize("path", READS)
def test_reads_need_no_key(sandbox: Sandbox, path: str) -> None:
    assert send(sandbox, "GET", path).status_code == 200


def test_the_admin_key_lets_a_write_through(sandbox: Sandbox) -> None:
    answer = send(sandbox, "POST", "/_sandbox/clock", {"advance_seconds": 0},
                  **sandbox.admin_headers)
    assert answer.status_code == 200, answer.text
    assert send(sandbox, "GET", "/_sandbox/mcp/audit", **sandbox.admin_headers).json() == {
        "records": []}


@pytest.mark.parametrize("path", ["/_sandbox/clock", "/_sandbox/reset", "/mcp"])
def test_a_foreign_host_is_refused_as_at_mcp(sandbox: Sandbox, path: str) -> None:
    """What a page that rebound its name to 127.0.0.1 sends: its own name as Host."""
    method = "GET" if path == "/_sandbox/clock" else "POST"
    answer = send(sandbox, method, path, {}, Host="attacker.example:8787",
                  **sandbox.admin_headers, **BEARER)
    assert answer.status_code == 421
    if path != "/mcp":
        detail = assert_problem(answer, 421, "validation_failed")["detail"]
        assert "'attacker.example:8787'" in detail and "127.0.0.1" in detail


@pytest.mark.parametrize("path", ["/_sandbox/clock", "/_sandbox/reset", "/mcp"])
def test_another_sites_origin_is_refused_as_at_mcp(sandbox: Sandbox, path: str) -> None:
    method = "GET" if path == "/_sandbox/clock" else "POST"
    answer = send(sandbox, method, path, {}, Origin="http://attacker.example",
                  **sandbox.admin_headers, **BEARER)
    assert answer.status_code == 403
    if path != "/mcp":
        assert "http://attacker.example" in assert_problem(answer, 403,
                                                           "validation_failed")["detail"]


@pytest.mark.parametrize(("host", "origin"), HOSTS_AND_ORIGINS)
@pytest.mark.parametrize("bound", ["127.0.0.1", "0.0.0.0"])
def test_the_admin_check_judges_host_and_origin_as_the_mcp_sdk(
        host: str | None, origin: str | None, bound: str) -> None:
    """/_sandbox checks the names without loading the SDK, which /mcp uses (issue 49)."""
    access = AdminAccess(admin_key_or_new(None), served_names(bound))
    sent = {"host": host, "origin": origin}
    scope = {"type": "http", "headers": [(name.encode(), value.encode())
                                         for name, value in sent.items() if value is not None]}
    sdk = asyncio.run(TransportSecurityMiddleware(access.security).validate_request(
        Request(scope)))
    assert access.foreign(host, origin) == (None if sdk is None else sdk.status_code)


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_the_emulators_own_names_are_served(sandbox: Sandbox, name: str) -> None:
    port = sandbox.base_url.rsplit(":", 1)[1]
    answer = send(sandbox, "POST", "/_sandbox/clock", {"advance_seconds": 0},
                  Host=f"{name}:{port}", Origin=f"http://{name}:{port}",
                  **sandbox.admin_headers)
    assert answer.status_code == 200, answer.text


def test_an_oversize_body_is_refused_as_on_v1(sandbox: Sandbox) -> None:
    big = b'{"path": "' + b"x" * (2 << 20) + b'"}'
    answer = httpx.post(sandbox.base_url + "/_sandbox/faults", content=big, timeout=30,
                        headers={**sandbox.admin_headers, "Content-Type": "application/json"})
    assert_problem(answer, 413, "payload_too_large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: refused as it arrives
        yield b'{"path": "'
        for _ in range(64):
            yield b"x" * 65_536

    answer = httpx.post(sandbox.base_url + "/_sandbox/faults", content=chunks(), timeout=30,
                        headers={**sandbox.admin_headers, "Content-Type": "application/json"})
    assert_problem(answer, 413, "payload_too_large")
    assert send(sandbox, "GET", "/_sandbox/faults").json() == []


def test_an_attached_process_holds_the_admin_key(sandbox: Sandbox) -> None:
    remote = RemoteSandbox.from_environment(attach_environment(sandbox, "acme/full/test"))
    assert remote is not None and remote.admin_headers == sandbox.admin_headers
    assert str(sandbox.admin_key) not in repr(sandbox.admin_key)
    bare = RemoteSandbox.from_environment({"DIALKIT_SANDBOX_URL": sandbox.base_url,
                                           "DIALKIT_SANDBOX_KEY": KEYS["full"]})
    assert bare is not None
    with pytest.raises(ValueError, match="DIALKIT_SANDBOX_ADMIN_KEY is not set"):
        bare.admin_headers  # noqa: B018


def test_a_key_shaped_correlation_id_is_logged_masked(sandbox: Sandbox,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="dialkit.sandbox"), \
            client_for(sandbox, KEYS["full"]) as http:
        answer = http.get("/v1/me", headers={"X-Correlation-ID": f"order:{KEYS['other']}"})
        assert answer.status_code == 200
    logged = [r.getMessage() for r in caplog.records if "correlation" in r.getMessage()]
    assert logged and all(KEYS["other"] not in line for line in logged)
    assert any(f"order:…{KEYS['other'][-4:]}" in line for line in logged)
