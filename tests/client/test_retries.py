"""Retries through the emulator's faults, over real HTTP.

A recording transport shows what went on the wire: how many attempts, with
which Idempotency-Key, and what each got. The emulator's own state shows that
a retried write was applied once. Waits stay short: Retry-After 1 only where
the wait itself is under test, 0 elsewhere; dropped connections use the
client's backoff (0.5 s ceiling on the first retry).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest import add_fault, wait_until_running
from dialkit import Client
from dialkit.errors import (
    ApiError,
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
IMPORT = "/v1/leads/import"
CREATE = "/v1/leads"
PHONE = "+442079460101"
UNKNOWN_CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000000"


def importable(client: Client) -> str:
    """A paused campaign: leads can be imported into it and added to it."""
    return next(client.campaigns.list(status="paused")).id


def lead_count(client: Client, campaign_id: str) -> int:
    """How many leads the campaign holds, by listing them."""
    return sum(1 for _ in client.leads.list(campaign_id=campaign_id))


def spied(client_as: MakeClient, **options: Any) -> tuple[Client, RecordingTransport]:
    """A ``full`` client whose requests are recorded."""
    spy = RecordingTransport()
    return client_as("full", transport=spy, **options), spy


# Transient answers are retried with the same key, and the write happens once. -------------------

def test_rate_limited_write_waits_retry_after_and_writes_once(sandbox: Sandbox,
                                                              client_as: MakeClient) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    before = lead_count(client, campaign)
    add_fault(sandbox, path=IMPORT, method="POST", code="rate_limit_exceeded", retry_after=1,
              count=1)
    started = time.monotonic()
    result = client.leads.import_batch(campaign, [{"phone": PHONE, "full_name": "Rate Limited"}])
    elapsed = time.monotonic() - started
    attempts = spy.to(IMPORT)
    assert [a.status for a in attempts] == [429, 200]
    assert attempts[0].idempotency_key == attempts[1].idempotency_key is not None
    assert elapsed >= 1.0
    assert result.summary.accepted == 1 and not result.replayed
    assert lead_count(client, campaign) == before + 1


TRANSIENT_503 = {
    "temporarily_unavailable": {"code": "temporarily_unavailable"},
    "upstream_unavailable": {"code": "upstream_unavailable"},
    "dnc_screen_unavailable": {"kind": "dnc_screen_unavailable"},
}


@pytest.mark.parametrize("fault", TRANSIENT_503.values(), ids=TRANSIENT_503)
def test_unavailable_import_is_retried_with_the_same_key(
        sandbox: Sandbox, client_as: MakeClient, fault: dict[str, Any]) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    before = lead_count(client, campaign)
    add_fault(sandbox, path=IMPORT, method="POST", retry_after=0, count=2, **fault)
    leads = [{"phone": PHONE, "full_name": "Ada"}, {"phone": "+442079460102"}]
    result = client.leads.import_batch(campaign, leads)
    attempts = spy.to(IMPORT)
    assert [a.status for a in attempts] == [503, 503, 200]
    assert len({a.idempotency_key for a in attempts}) == 1
    assert result.summary.accepted == 2 and not result.replayed
    assert lead_count(client, campaign) == before + 2


def test_dropped_answer_to_a_write_is_replayed_from_storage(sandbox: Sandbox,
                                                            client_as: MakeClient) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    before = lead_count(client, campaign)
    add_fault(sandbox, path=CREATE, method="POST", kind="drop", count=1)
    created = client.leads.create(campaign_id=campaign, phone=PHONE, full_name="Dropped Once")
    attempts = spy.to(CREATE, "POST")
    assert len(attempts) == 2
    assert attempts[0].idempotency_key == attempts[1].idempotency_key is not None
    assert created.replayed and created.status == "accepted" and created.lead_id is not None
    assert lead_count(client, campaign) == before + 1
    assert client.leads.get(created.lead_id).full_name == "Dropped Once"


def test_timed_out_write_is_retried_with_its_key_and_applied_once(
        sandbox: Sandbox, client_as: MakeClient) -> None:
    client, spy = spied(client_as, timeout=0.3, max_retries=4)
    campaign = importable(client)
    before = lead_count(client, campaign)
    add_fault(sandbox, path=CREATE, method="POST", kind="latency", latency_ms=600, count=1)
    created = client.leads.create(campaign_id=campaign, phone=PHONE)
    attempts = spy.to(CREATE, "POST")
    assert attempts[0].status is None  # no answer within the timeout
    assert len({a.idempotency_key for a in attempts}) == 1
    assert created.replayed and created.status == "accepted"
    assert lead_count(client, campaign) == before + 1


def test_request_in_flight_gets_conflict_then_the_stored_answer(
        sandbox: Sandbox, client_as: MakeClient) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    before = lead_count(client, campaign)
    add_fault(sandbox, path=CREATE, method="POST", kind="latency", latency_ms=1000, count=1)
    first: list[Any] = []

    def send_first() -> None:
        try:
            first.append(client.leads.create(campaign_id=campaign, phone=PHONE,
                                             idempotency_key="in-flight-1"))
        except BaseException as error:  # reported by the assertion below
            first.append(error)

    runner = threading.Thread(target=send_first)
    runner.start()
    wait_until_running(sandbox, "in-flight-1")
    second = client.leads.create(campaign_id=campaign, phone=PHONE, idempotency_key="in-flight-1")
    runner.join()
    statuses = [a.status for a in spy.to(CREATE, "POST")]
    assert statuses.count(409) >= 1 and statuses.count(200) == 2, statuses
    assert {a.idempotency_key for a in spy.to(CREATE, "POST")} == {"in-flight-1"}
    original = first[0]
    assert not isinstance(original, BaseException), original
    assert not original.replayed and second.replayed
    assert second.lead_id == original.lead_id is not None
    assert lead_count(client, campaign) == before + 1


def test_get_is_retried_after_dropped_connections(sandbox: Sandbox,
                                                  client_as: MakeClient) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    add_fault(sandbox, path="/v1/campaigns/*", method="GET", kind="drop", count=2)
    assert client.campaigns.get(campaign).id == campaign
    attempts = spy.to(f"/v1/campaigns/{campaign}")
    assert len(attempts) == 3
    assert {a.idempotency_key for a in attempts} == {None}


# Answers that are final: raised at once. ---------------------------------------------------------

def test_outcome_unknown_is_raised_at_once(sandbox: Sandbox, client_as: MakeClient) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    add_fault(sandbox, path=CREATE, method="POST", kind="outcome_unknown", count=1)
    with pytest.raises(OutcomeUnknownError) as caught:
        client.leads.create(campaign_id=campaign, phone=PHONE)
    error = caught.value
    (attempt,) = spy.to(CREATE, "POST")
    key = error.idempotency_key
    assert (error.status, error.code) == (409, "outcome_unknown")
    assert key is not None and key == attempt.idempotency_key
    assert "Never retry it with a new Idempotency-Key" in str(error)
    assert f"Idempotency-Key: {key}." in str(error)
    with pytest.raises(OutcomeUnknownError):  # the emulator keeps answering it for that key
        client.leads.create(campaign_id=campaign, phone=PHONE, idempotency_key=key)
    assert len(spy.to(CREATE, "POST")) == 2


NEVER_RETRIED: dict[str, tuple[int, str, type[ApiError]]] = {
    "daily cap": (429, "daily_cap_reached", RateLimitError),
    "spend cap": (429, "spend_cap_reached", RateLimitError),
    "replay limit": (429, "replay_limit_reached", RateLimitError),
    "not found": (404, "not_found", NotFoundError),
    "validation": (400, "validation_failed", ValidationError),
    "scope": (403, "insufficient_scope", PermissionDeniedError),
    "internal error": (500, "internal_error", ServiceUnavailableError),
}


@pytest.mark.parametrize(("status", "code", "kind"), NEVER_RETRIED.values(), ids=NEVER_RETRIED)
def test_final_answers_are_not_retried(sandbox: Sandbox, client_as: MakeClient, status: int,
                                       code: str, kind: type[ApiError]) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    add_fault(sandbox, path=IMPORT, method="POST", status=status, code=code, retry_after=0,
              count=3)
    with pytest.raises(kind) as caught:
        client.leads.import_batch(campaign, [{"phone": PHONE}])
    assert (caught.value.status, caught.value.code) == (status, code)
    assert len(spy.to(IMPORT)) == 1


def test_real_not_found_is_not_retried(client_as: MakeClient) -> None:
    client, spy = spied(client_as)
    with pytest.raises(NotFoundError):
        client.campaigns.get(UNKNOWN_CAMPAIGN)
    assert len(spy.sent) == 1


@pytest.mark.parametrize("max_retries", [0, 1, 2])
def test_max_retries_bounds_the_attempts(sandbox: Sandbox, client_as: MakeClient,
                                         max_retries: int) -> None:
    client, spy = spied(client_as, max_retries=max_retries)
    add_fault(sandbox, path="/v1/me", code="temporarily_unavailable", retry_after=0, count=10)
    with pytest.raises(ServiceUnavailableError) as caught:
        client.me()
    assert caught.value.code == "temporarily_unavailable"
    assert spy.statuses() == [503] * (max_retries + 1)
    remaining = httpx.get(sandbox.base_url + "/_sandbox/faults").json()
    assert [rule["count"] for rule in remaining] == [10 - (max_retries + 1)]


@pytest.mark.parametrize(("retry_after", "deadline"), [(30, 5.0), (2, 1.0)])
def test_retry_after_beyond_the_deadline_raises_without_sleeping(
        sandbox: Sandbox, client_as: MakeClient, retry_after: int, deadline: float) -> None:
    client, spy = spied(client_as, deadline=deadline)
    add_fault(sandbox, path="/v1/me", code="rate_limit_exceeded", retry_after=retry_after,
              count=1)
    started = time.monotonic()
    with pytest.raises(RateLimitError) as caught:
        client.me()
    assert time.monotonic() - started < 0.5
    assert caught.value.retry_after == retry_after
    assert spy.statuses() == [429]


# Keys: the caller's as given, else one per call kept across its retries. --------------------------

CALLER_KEYS = ["caller-key", "k", "Order:2026-11-02.batch_7", "x" * 255]


@pytest.mark.parametrize("key", CALLER_KEYS, ids=["plain", "one char", "punctuated", "255 chars"])
def test_caller_idempotency_key_is_sent_verbatim_on_every_attempt(
        sandbox: Sandbox, client_as: MakeClient, key: str) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    add_fault(sandbox, path=IMPORT, method="POST", code="temporarily_unavailable",
              retry_after=0, count=1)
    client.leads.import_batch(campaign, [{"phone": PHONE}], idempotency_key=key)
    assert [(a.status, a.idempotency_key) for a in spy.to(IMPORT)] == [(503, key), (200, key)]


def test_each_write_without_a_key_gets_a_new_one(client_as: MakeClient) -> None:
    client, spy = spied(client_as)
    campaign = importable(client)
    client.campaigns.pause(campaign)
    client.campaigns.pause(campaign)
    keys = [a.idempotency_key for a in spy.to(f"/v1/campaigns/{campaign}/pause")]
    assert len(keys) == 2 and keys[0] != keys[1]
    assert all(key is not None and key.startswith("dk_") for key in keys)


@pytest.mark.parametrize("key", ["", "x" * 256], ids=["empty", "256 chars"])
def test_idempotency_key_of_bad_length_is_refused_before_sending(client_as: MakeClient,
                                                                 key: str) -> None:
    client, spy = spied(client_as)
    with pytest.raises(ValueError, match="idempotency_key"):
        client.campaigns.pause(UNKNOWN_CAMPAIGN, idempotency_key=key)
    assert spy.sent == []
