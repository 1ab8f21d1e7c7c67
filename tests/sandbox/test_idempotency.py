"""Idempotency keys over HTTP: the contract's rules 1-8.

Campaign pause is the vehicle write: pausing a running campaign changes it,
so a test can tell whether a request ran again or was answered from storage.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from test_auth import campaign_in, campaign_status, concrete

from conftest import KEYS, assert_problem, base_config, client_for, wait_until_running, write
from dialkit.contract import MAX_IDEMPOTENCY_KEY_LENGTH, OPERATIONS, Operation
from dialkit.sandbox import Sandbox

REPLAYED = "idempotency-replayed"


def admin(http: httpx.Client, path: str, body: dict[str, Any]) -> None:
    """POST to the emulator's admin surface (``http`` sends the admin key)."""
    http.post(path, json=body).raise_for_status()


def pause(http: httpx.Client, status: str = "running") -> str:
    """The pause path of a campaign in ``status``."""
    return f"/v1/campaigns/{campaign_in(http, status)}/pause"


# Rule 1: every changing POST and DELETE needs a key of 1-255 characters.

@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.write and not op.tier_blocked],
                         ids=lambda op: op.name)
def test_write_without_key_is_refused(key_client: Any, operation: Operation) -> None:
    http: httpx.Client = key_client("sending")
    response = http.request(operation.method, concrete(operation))
    assert_problem(response, 400, "idempotency_key_required")


def test_refused_write_changes_nothing(api: httpx.Client) -> None:
    path = pause(api)
    assert_problem(api.post(path), 400, "idempotency_key_required")
    assert api.get(path.removesuffix("/pause")).json()["status"] == "running"


@pytest.mark.parametrize("key", ["", "k" * (MAX_IDEMPOTENCY_KEY_LENGTH + 1)],
                         ids=["empty", "256 chars"])
def test_key_of_bad_length_is_refused(api: httpx.Client, key: str) -> None:
    body = assert_problem(write(api, pause(api), key=key), 400, "validation_failed")
    assert body["errors"][0]["pointer"] == "/header/Idempotency-Key"


def test_key_of_255_chars_is_accepted(api: httpx.Client) -> None:
    response = write(api, pause(api), key="k" * MAX_IDEMPOTENCY_KEY_LENGTH)
    assert response.status_code == 200, response.text


# Rules 3 and 5: same request replays, a different request conflicts.

def test_same_key_and_request_replays_the_stored_answer(api: httpx.Client) -> None:
    path = pause(api)
    first = write(api, path)
    assert first.status_code == 200 and REPLAYED not in first.headers
    resume = write(api, path.replace("/pause", "/resume"), key="k2")
    assert resume.json()["status"] == "running"
    again = write(api, path)
    assert (again.status_code, again.headers[REPLAYED]) == (200, "true")
    assert again.content == first.content
    assert campaign_status(api, path.split("/")[3]) == "running"


def test_error_answer_is_stored_and_replayed(api: httpx.Client) -> None:
    path = pause(api, "completed")
    first = assert_problem(write(api, path), 409, "campaign_not_running")
    again = write(api, path)
    assert again.headers[REPLAYED] == "true"
    assert assert_problem(again, 409, "campaign_not_running")["detail"] == first["detail"]


OTHER_REQUESTS: dict[str, Callable[[httpx.Client, str], httpx.Response]] = {
    "other path": lambda http, path: write(http, pause(http, "completed")),
    "other body": lambda http, path: write(http, path, {"note": "x"}),
    "other query": lambda http, path: write(http, path, params={"a": "1"}),
    "other operation": lambda http, path: write(http, path.replace("/pause", "/resume")),
}


@pytest.mark.parametrize("other", OTHER_REQUESTS.values(), ids=OTHER_REQUESTS)
def test_same_key_with_other_request_conflicts(
        api: httpx.Client, other: Callable[[httpx.Client, str], httpx.Response]) -> None:
    path = pause(api)
    assert write(api, path).status_code == 200
    assert_problem(other(api, path), 409, "idempotency_conflict")
    assert write(api, path).headers[REPLAYED] == "true"


# Rule 6: a key whose first request still runs.

def test_key_in_flight_answers_conflict_then_the_stored_answer(sandbox: Sandbox,
                                                               api: httpx.Client) -> None:
    path = pause(api)
    admin(api, "/_sandbox/faults", {"path": "/v1/campaigns/*/pause", "kind": "latency",
                                    "latency_ms": 1500})
    answers: list[httpx.Response] = []

    def first() -> None:
        with client_for(sandbox, KEYS["full"]) as http:
            answers.append(write(http, path))

    runner = threading.Thread(target=first)
    runner.start()
    wait_until_running(sandbox, "k1")
    busy = write(api, path)
    runner.join()
    assert_problem(busy, 409, "conflict")
    assert int(busy.headers["retry-after"]) >= 1
    assert answers[0].status_code == 200, answers[0].text
    later = write(api, path)
    assert later.headers[REPLAYED] == "true" and later.content == answers[0].content


# Rule 2: keys belong to the API client.

@pytest.mark.parametrize("same_request", [True, False], ids=["same request", "other request"])
def test_keys_of_another_client_are_independent(api: httpx.Client, key_client: Any,
                                                same_request: bool) -> None:
    other: httpx.Client = key_client("other")
    assert write(api, pause(api)).status_code == 200
    path = pause(other) if same_request else pause(other, "paused")
    response = write(other, path)
    assert response.status_code == 200, response.text
    assert REPLAYED not in response.headers
    assert campaign_status(other, path.split("/")[3]) == "paused"


# Rule 8: reads ignore the key.

def test_get_ignores_the_key(api: httpx.Client) -> None:
    path = pause(api)
    campaign = path.removesuffix("/pause")
    before = api.get(campaign, headers={"Idempotency-Key": "r1"})
    assert write(api, path).status_code == 200
    after = api.get(campaign, headers={"Idempotency-Key": "r1"})
    assert (before.json()["status"], after.json()["status"]) == ("running", "paused")
    assert REPLAYED not in after.headers


def test_dnc_check_needs_no_key_and_ignores_one(api: httpx.Client) -> None:
    numbers = [["+14155550123"], ["+14155550124", "+14155550125"]]
    assert api.post("/v1/dnc/check", json={"phones": numbers[0]}).status_code == 200
    for phones in numbers:
        response = write(api, "/v1/dnc/check", {"phones": phones}, key="r1")
        assert response.status_code == 200, response.text
        assert REPLAYED not in response.headers
        assert [r["phone"] for r in response.json()["data"]] == phones


# Retention: 24 hours of service time.

def test_key_is_kept_24_hours(make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(base_config())
    with client_for(running, KEYS["full"]) as http:
        path, other = pause(http), pause(http, "completed")
        assert write(http, path).status_code == 200
        admin(http, "/_sandbox/clock", {"advance_seconds": 86_399})
        assert write(http, path).headers[REPLAYED] == "true"
        assert_problem(write(http, other), 409, "idempotency_conflict")
        admin(http, "/_sandbox/clock", {"advance_seconds": 2})
        again = write(http, path)
        assert again.status_code == 200 and REPLAYED not in again.headers


def test_expired_key_runs_a_different_request_as_new(make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(base_config())
    with client_for(running, KEYS["full"]) as http:
        assert write(http, pause(http)).status_code == 200
        admin(http, "/_sandbox/clock", {"advance_seconds": 86_401})
        response = write(http, f"/v1/campaigns/{campaign_in(http, 'completed')}/pause")
        assert_problem(response, 409, "campaign_not_running")
        assert REPLAYED not in response.headers


# Transient failures are not stored; unconfirmed writes answer outcome_unknown for good.

def test_transient_failure_is_not_stored(api: httpx.Client) -> None:
    path = pause(api)
    admin(api, "/_sandbox/faults", {"path": "/v1/campaigns/*/pause", "kind": "error",
                                    "code": "temporarily_unavailable", "count": 1})
    assert_problem(write(api, path), 503, "temporarily_unavailable")
    assert campaign_status(api, path.split("/")[3]) == "running"
    retry = write(api, path)
    assert retry.status_code == 200 and REPLAYED not in retry.headers
    assert retry.json()["status"] == "paused"


def test_unconfirmed_write_answers_outcome_unknown_on_every_retry(api: httpx.Client) -> None:
    path = pause(api)
    admin(api, "/_sandbox/faults", {"path": "/v1/campaigns/*/pause", "kind": "outcome_unknown",
                                    "count": 1})
    for _ in range(3):
        assert_problem(write(api, path), 409, "outcome_unknown")
    assert campaign_status(api, path.split("/")[3]) == "paused"
    assert write(api, path, key="k2").status_code == 200
