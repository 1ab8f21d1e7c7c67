"""A read beside another user of the key waits on the key's rate limit until its
deadline, says so, and a refusal at the deadline says the wait once (issue 48, item 4).

The emulator's fault rules answer 429 ``rate_limit_exceeded`` with ``Retry-After``
as the service does when something else spends the key's share.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import KEYS, add_fault
from dialkit import Client
from dialkit.cli import app
from dialkit.client._http import _transport
from dialkit.errors import RateLimitError, ServiceUnavailableError, error_from_answer
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport

MakeClient = Callable[..., Client]
runner = CliRunner()


def spied(client_as: MakeClient, **options: Any) -> tuple[Client, RecordingTransport]:
    spy = RecordingTransport()
    return client_as("full", transport=spy, **options), spy


def test_rate_limit_answers_are_waited_out_past_max_retries(
        sandbox: Sandbox, client_as: MakeClient, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_transport, "_last_limit_warning", [-math.inf])  # no earlier test's
    client, spy = spied(client_as, max_retries=1, deadline=20.0)
    add_fault(sandbox, path="/v1/me", code="rate_limit_exceeded", retry_after=0, count=4)
    with caplog.at_level(logging.INFO, logger="dialkit.client"):
        assert client.me()["client"]["name"] == "full"
    assert spy.statuses() == [429, 429, 429, 429, 200]
    waits = [r for r in caplog.records if "on the key's rate limit" in r.getMessage()]
    assert len(waits) == 4 and [w.levelno for w in waits] == [logging.WARNING] + [logging.INFO] * 3
    assert "429" in waits[0].getMessage() and "/v1/me" in waits[0].getMessage()


def test_other_transient_failures_still_stop_at_max_retries(
        sandbox: Sandbox, client_as: MakeClient) -> None:
    """The control: a 503 is a failure, and max_retries counts it."""
    client, spy = spied(client_as, max_retries=1, deadline=20.0)
    add_fault(sandbox, path="/v1/me", code="temporarily_unavailable", status=503,
              retry_after=0, count=4)
    with pytest.raises(ServiceUnavailableError):
        client.me()
    assert spy.statuses() == [503, 503]


def test_refusal_at_the_deadline_says_the_wait_once(sandbox: Sandbox,
                                                    client_as: MakeClient) -> None:
    client, spy = spied(client_as, deadline=1.5)
    add_fault(sandbox, path="/v1/me", code="rate_limit_exceeded", retry_after=1, count=5)
    started = time.monotonic()
    with pytest.raises(RateLimitError) as caught:
        client.me()
    took = time.monotonic() - started
    message = str(caught.value)
    assert 1.0 <= took < 1.5
    assert spy.statuses() == [429, 429]
    assert message.lower().count("retry after") == 1, message
    assert "waited 1 s on the key's rate limit" in message and "deadline of 1.5 s" in message


def test_audit_refused_after_waiting_exits_1_naming_timeout(sandbox: Sandbox) -> None:
    add_fault(sandbox, path="/v1/calls", code="rate_limit_exceeded", retry_after=1, count=50)
    environment = {"DIALKIT_SANDBOX_URL": sandbox.base_url, "DIALKIT_SANDBOX_KEY": KEYS["full"],
                   "DIALKIT_SANDBOX_RATE_LIMIT_SCALE": "0", "DIALKIT_TIMEOUT": None,
                   "DIALKIT_PROFILE": None}
    result = runner.invoke(app, ["--timeout", "1.5", "compliance", "audit", "--sandbox"],
                           env=environment)
    assert result.exit_code == 1, result.output
    assert "rate_limit_exceeded" in result.stderr
    assert result.stderr.lower().count("retry after") == 1, result.stderr
    assert "--timeout" in result.stderr and "deadline=" not in result.stderr


def test_the_services_own_retry_after_sentence_is_not_repeated() -> None:
    said = error_from_answer(429, {"code": "rate_limit_exceeded",
                                   "detail": "Too many requests. Retry after 1 s."},
                             retry_after=1.0)
    assert str(said).count("Retry after 1 s.") == 1
    unsaid = error_from_answer(429, {"code": "rate_limit_exceeded", "detail": "Too many."},
                               retry_after=2.0)
    assert str(unsaid).count("Retry after 2 s.") == 1
