"""Every kind of error answer becomes its exception class, with what the answer said.

Answers of the contract come from the emulator (real ones, or injected with
faults); answers the emulator never gives (HTML from a gateway, broken JSON,
problems that lack fields) come from ``httpx.MockTransport``; a closed port and
a slow answer give the connection errors.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest

from conftest import KEYS, add_fault
from dialkit import Client
from dialkit.contract import FieldError
from dialkit.errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    AuthenticationError,
    ConflictError,
    IdempotencyConflictError,
    NotFoundError,
    OutcomeUnknownError,
    PermissionDeniedError,
    RateLimitError,
    ServiceUnavailableError,
    ValidationError,
)
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport

MakeClient = Callable[..., Client]
Action = Callable[[Client, Sandbox], object]

UNKNOWN_CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000000"
FUTURE = "2026-11-20T10:00:00Z"
PAST = "2026-11-01T10:00:00Z"
REQUEST_ID = re.compile(r"req_[0-9A-Z]{26}")


def campaign(client: Client, status: str) -> str:
    """The id of the first listed campaign in ``status``."""
    return next(client.campaigns.list(status=status)).id


def lead(client: Client, status: str) -> str:
    """The id of the first listed lead in ``status``."""
    return next(client.leads.list(status=status)).id


def with_fault(action: Action, **rule: Any) -> Action:
    """``action`` after the fault ``rule`` was added."""
    def run(client: Client, sandbox: Sandbox) -> object:
        add_fault(sandbox, **rule)
        return action(client, sandbox)
    return run


def reuse_key(client: Client, sandbox: Sandbox) -> object:
    """Pause two campaigns with one Idempotency-Key: the second is a different request."""
    client.campaigns.pause(campaign(client, "running"), idempotency_key="reused")
    return client.campaigns.pause(campaign(client, "completed"), idempotency_key="reused")


@dataclass(frozen=True)
class Case:
    """An action, who does it, and the error it must raise."""

    role: str
    action: Action
    kind: type[ApiError]
    status: int
    code: str
    retry_after: float | None = None
    errors: list[FieldError] = field(default_factory=list)


def me(client: Client, sandbox: Sandbox) -> object:
    return client.me()


SERVICE_ANSWER = "the service's own answer is what is tested"
"""The override of the client's guard (issue 50), which refuses these callbacks first."""

CASES: dict[str, Case] = {
    "revoked key": Case("revoked", me, AuthenticationError, 401, "invalid_api_key"),
    "reader writes": Case("reader", lambda c, s: c.campaigns.pause(campaign(c, "running")),
                          PermissionDeniedError, 403, "insufficient_scope"),
    "switch off": Case("noswitch", lambda c, s: c.campaigns.resume(UNKNOWN_CAMPAIGN),
                       PermissionDeniedError, 403, "tier_not_enabled"),
    "unknown id": Case("full", lambda c, s: c.campaigns.get(UNKNOWN_CAMPAIGN), NotFoundError,
                       404, "not_found"),
    "state refuses": Case("full", lambda c, s: c.campaigns.pause(campaign(c, "completed")),
                          ConflictError, 409, "campaign_not_running"),
    "time in the past": Case(
        "full", lambda c, s: c.callbacks.create(lead_id=lead(c, "new"), scheduled_at=PAST,
                                                override=SERVICE_ANSWER),
        ValidationError, 400, "validation_failed",
        errors=[FieldError(pointer="/scheduled_at", code="in_past")]),
    "lead on the DNC list": Case(
        "full", lambda c, s: c.callbacks.create(lead_id=lead(c, "dnc"), scheduled_at=FUTURE,
                                                override=SERVICE_ANSWER),
        ValidationError, 422, "on_dnc"),
    "private webhook URL": Case(
        "full", lambda c, s: c.webhooks.create(url="https://10.1.2.3/in",
                                               events=["call.completed"]),
        ValidationError, 422, "webhook_url_refused"),
    "rate limited": Case("full", with_fault(me, path="/v1/me", code="rate_limit_exceeded",
                                            retry_after=7),
                         RateLimitError, 429, "rate_limit_exceeded", retry_after=7.0),
    "daily cap": Case("full", with_fault(me, path="/v1/me", code="daily_cap_reached",
                                         retry_after=3600),
                      RateLimitError, 429, "daily_cap_reached", retry_after=3600.0),
    "unavailable": Case("full", with_fault(me, path="/v1/me", code="temporarily_unavailable",
                                           retry_after=0),
                        ServiceUnavailableError, 503, "temporarily_unavailable", retry_after=0.0),
    "outcome unknown": Case(
        "full", with_fault(lambda c, s: c.campaigns.pause(campaign(c, "running")),
                           path="/v1/campaigns/*/pause", kind="outcome_unknown"),
        OutcomeUnknownError, 409, "outcome_unknown"),
    "key reused": Case("full", reuse_key, IdempotencyConflictError, 409,
                       "idempotency_conflict"),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES)
def test_error_answer_maps_to_its_class(sandbox: Sandbox, client_as: MakeClient,
                                        case: Case) -> None:
    client = client_as(case.role, max_retries=0)
    with pytest.raises(ApiError) as caught:
        case.action(client, sandbox)
    error = caught.value
    assert type(error) is case.kind
    assert (error.status, error.code) == (case.status, case.code)
    assert error.retry_after == case.retry_after
    assert error.errors == case.errors
    assert error.request_id is not None and REQUEST_ID.fullmatch(error.request_id)
    assert error.detail and "without an explanation" not in error.detail
    text = str(error)
    assert text.startswith(f"{case.status} {case.code}: {error.detail}")
    assert f"Request id: {error.request_id}." in text
    for each in case.errors:
        assert f"{each.pointer}: {each.code}" in text


def test_write_error_names_its_idempotency_key(client_as: MakeClient) -> None:
    client = client_as("full")
    with pytest.raises(ConflictError) as caught:
        client.campaigns.pause(campaign(client, "completed"), idempotency_key="mine-1")
    assert caught.value.idempotency_key == "mine-1"
    assert "Idempotency-Key: mine-1." in str(caught.value)


SERVER_ERRORS = {
    "503 temporarily_unavailable": (503, "temporarily_unavailable", True),
    "503 upstream_unavailable": (503, "upstream_unavailable", True),
    "503 dnc_screen_unavailable": (503, "dnc_screen_unavailable", True),
    "500 internal_error": (500, "internal_error", False),
    "502 upstream_invalid_response": (502, "upstream_invalid_response", False),
}


@pytest.mark.parametrize(("status", "code", "retried"), SERVER_ERRORS.values(), ids=SERVER_ERRORS)
def test_server_errors_are_service_unavailable_and_only_503s_are_retried(
        sandbox: Sandbox, client_as: MakeClient, status: int, code: str, retried: bool) -> None:
    spy = RecordingTransport()
    client = client_as("full", transport=spy)
    add_fault(sandbox, path="/v1/me", status=status, code=code, retry_after=0, count=1)
    if retried:
        assert client.me()["client"]["name"] == "full"
        assert spy.statuses() == [status, 200]
        return
    with pytest.raises(ServiceUnavailableError) as caught:
        client.me()
    assert (caught.value.status, caught.value.code) == (status, code)
    assert spy.statuses() == [status]


# Answers that are not problem+json: the emulator never gives them, a mock transport does. --------

HTML_PAGE = "<html><head><title>502 Bad Gateway</title></head><body>" + "x" * 5000 + "</body>"
EDGE_ID = "edge_" + "0123456789abcdef" * 2


@dataclass(frozen=True)
class Garbled:
    """An answer, the error it must raise, and how many attempts the client makes."""

    response: Callable[[], httpx.Response]
    kind: type[ApiError]
    status: int
    attempts: int
    shows: str
    request_id: str | None = None
    errors: list[FieldError] = field(default_factory=list)


GARBLED: dict[str, Garbled] = {
    "502 HTML page": Garbled(
        lambda: httpx.Response(502, text=HTML_PAGE, headers={"Content-Type": "text/html",
                                                             "X-Request-ID": EDGE_ID}),
        ServiceUnavailableError, 502, 2, "not problem+json (text/html)", request_id=EDGE_ID),
    "503 empty body": Garbled(lambda: httpx.Response(503), ServiceUnavailableError, 503, 2,
                              "no content type"),
    "500 broken JSON": Garbled(
        lambda: httpx.Response(500, content=b'{"code": "internal_error", "det',
                               headers={"Content-Type": "application/problem+json"}),
        ServiceUnavailableError, 500, 1, "not problem+json (application/problem+json)"),
    "404 without fields": Garbled(lambda: httpx.Response(404, json={"title": "Not Found"}),
                                  NotFoundError, 404, 1, "404 without an explanation"),
    "409 JSON array": Garbled(lambda: httpx.Response(409, json=[1, 2]), ConflictError, 409, 1,
                              "not problem+json"),
    "400 fields of wrong types": Garbled(
        lambda: httpx.Response(400, json={
            "code": 7, "detail": ["no"], "request_id": 5,
            "errors": [{"pointer": 1, "code": "x"}, "junk", {"pointer": "/a", "code": "missing"}],
        }),
        ValidationError, 400, 1, "400 without an explanation",
        errors=[FieldError(pointer="/a", code="missing")]),
}


@pytest.mark.parametrize("garbled", GARBLED.values(), ids=GARBLED)
def test_garbled_answer_still_becomes_a_clear_error(garbled: Garbled) -> None:
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return garbled.response()

    client = Client(KEYS["full"], base_url="https://api.example.test", rate_limit=None,
                    max_retries=1, transport=httpx.MockTransport(answer))
    with pytest.raises(ApiError) as caught:
        client.me()
    error = caught.value
    assert type(error) is garbled.kind
    assert (error.status, error.code, error.request_id) == (garbled.status, None,
                                                            garbled.request_id)
    assert error.errors == garbled.errors
    assert len(seen) == garbled.attempts
    text = str(error)
    assert text.startswith(f"{garbled.status}: ") and garbled.shows in text
    assert len(text) < 500 and "\n" not in text


# No answer at all. -------------------------------------------------------------------------------

def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def test_connection_refused_raises_connection_error_after_retries() -> None:
    spy = RecordingTransport()
    client = Client(KEYS["full"], base_url=f"http://127.0.0.1:{closed_port()}", rate_limit=None,
                    max_retries=1, transport=spy)
    with pytest.raises(ApiConnectionError) as caught:
        client.campaigns.pause(UNKNOWN_CAMPAIGN, idempotency_key="refused-1")
    error = caught.value
    assert type(error) is ApiConnectionError
    assert (error.status, error.code, error.request_id) == (None, None, None)
    assert isinstance(error.__cause__, httpx.ConnectError)
    assert len(spy.sent) == 2 and {s.status for s in spy.sent} == {None}
    assert error.idempotency_key == "refused-1"
    assert "The connection failed during POST" in str(error)
    assert "Idempotency-Key: refused-1." in str(error)


def test_no_answer_within_the_timeout_raises_timeout_error(sandbox: Sandbox,
                                                           client_as: MakeClient) -> None:
    client = client_as("full", timeout=0.2, max_retries=0)
    add_fault(sandbox, path="/v1/me", kind="latency", latency_ms=1000, count=1)
    started = time.monotonic()
    with pytest.raises(ApiTimeoutError) as caught:
        client.me()
    assert time.monotonic() - started < 0.9
    assert isinstance(caught.value, ApiConnectionError)
    assert (caught.value.status, caught.value.code) == (None, None)
    assert "within the timeout" in str(caught.value)


# Retry-After as an HTTP date. ---------------------------------------------------------------------


def test_retry_after_as_an_http_date_is_read_in_seconds() -> None:
    when = datetime.now(UTC) + timedelta(seconds=30)

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, headers={"Retry-After": format_datetime(when, usegmt=True)},
                              json={"code": "temporarily_unavailable", "detail": "Down."})

    client = Client(KEYS["full"], base_url="https://api.example.test", rate_limit=None,
                    max_retries=0, transport=httpx.MockTransport(answer))
    with pytest.raises(ServiceUnavailableError) as caught:
        client.me()
    assert caught.value.retry_after is not None
    assert 25 <= caught.value.retry_after <= 30
