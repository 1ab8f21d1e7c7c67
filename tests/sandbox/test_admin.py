"""The admin surface under /_sandbox/: reset, clock, faults and the planted ground truth.

Tests that move the clock start their own emulator, so that the session's
clock stays where the other tests expect it.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import KEYS, START, add_fault, assert_problem, base_config, client_for, write
from dialkit import Client
from dialkit.errors import ApiConnectionError, InputError
from dialkit.sandbox import RemoteSandbox, Sandbox, attach_environment
from dialkit.sandbox._http._checks._admin_access import AdminKey
from dialkit.webhooks import Receiver, events_after

IMPORT_LEAD = {"leads": [{"phone": "+442079460997", "full_name": "Fault Test"}]}


def admin(running: Sandbox, method: str, path: str, body: Any = None,
          **params: Any) -> httpx.Response:
    """A request to the admin surface, with its admin key."""
    return httpx.request(method, running.base_url + "/_sandbox" + path, json=body,
                         params=params, timeout=30, headers=running.admin_headers)


def first_campaign(http: httpx.Client, status: str) -> str:
    """The id of the newest campaign with ``status``."""
    return str(http.get("/v1/campaigns", params={"status": status}).json()["data"][0]["id"])


def lead_total(http: httpx.Client, campaign_id: str) -> int:
    """How many leads the campaign holds."""
    return int(http.get(f"/v1/campaigns/{campaign_id}/progress").json()["leads"]["total"])


@pytest.fixture
def own(make_sandbox: Callable[..., Sandbox]) -> Sandbox:
    """An emulator of the ``acme`` account alone, whose clock the test may move."""
    config = base_config()
    config["accounts"] = config["accounts"][:1]
    return make_sandbox(config)


# Reset ------------------------------------------------------------------------------------------

def test_reset_restores_the_seeded_world(sandbox: Sandbox, api: httpx.Client) -> None:
    campaign = first_campaign(api, "running")
    phone = "+442079460996"
    assert write(api, f"/v1/campaigns/{campaign}/pause", key="same").status_code == 200
    assert write(api, "/v1/dnc", {"phone": phone}, key="dnc").status_code == 201
    add_fault(sandbox, path="/v1/me", code="temporarily_unavailable")
    answer = admin(sandbox, "POST", "/reset")
    assert answer.status_code == 200 and answer.json() == {"reset": True}
    assert api.get(f"/v1/campaigns/{campaign}").json()["status"] == "running"
    checked = api.post("/v1/dnc/check", json={"phones": [phone]}).json()["data"]
    assert checked == [{"phone": phone, "listed": False, "listed_at": None}]
    assert admin(sandbox, "GET", "/faults").json() == []
    assert api.get("/v1/me").status_code == 200
    again = write(api, f"/v1/campaigns/{campaign}/resume", key="same")
    assert again.status_code == 200 and "idempotency-replayed" not in again.headers


def test_reset_forgets_simulated_calls(own: Sandbox) -> None:
    with client_for(own, KEYS["full"]) as http:
        newest = http.get("/v1/calls", params={"limit": 1}).json()["data"]
        assert admin(own, "POST", "/clock", {"advance_seconds": 3600}).status_code == 200
        assert http.get("/v1/calls", params={"limit": 1}).json()["data"] != newest
        admin(own, "POST", "/reset")
        assert http.get("/v1/calls", params={"limit": 1}).json()["data"] == newest


# Clock ------------------------------------------------------------------------------------------

def test_clock_advances_and_reports_the_simulation(own: Sandbox) -> None:
    assert admin(own, "GET", "/clock").json() == {"now": "2026-11-02T15:00:00.000Z",
                                                  "manual": True}
    answer = admin(own, "POST", "/clock", {"advance_seconds": 90.5})
    assert answer.status_code == 200
    body = answer.json()
    assert (body["now"], body["manual"], body["datasets"]) == (
        "2026-11-02T15:01:30.500Z", True, {})
    assert body["simulated"]["calls_placed"] == 0
    assert admin(own, "GET", "/clock").json()["now"] == "2026-11-02T15:01:30.500Z"


@pytest.mark.parametrize("body", [{"advance_seconds": -1}, {"advance_seconds": "soon"},
                                  {"advance_seconds": 1, "extra": True}, {}])
def test_clock_refuses_a_bad_advance(sandbox: Sandbox, body: dict[str, Any]) -> None:
    before = admin(sandbox, "GET", "/clock").json()
    problem = assert_problem(admin(sandbox, "POST", "/clock", body), 400, "validation_failed")
    assert problem["errors"]
    assert admin(sandbox, "GET", "/clock").json() == before


def test_a_real_clock_cannot_be_moved(make_sandbox: Callable[..., Sandbox]) -> None:
    config = base_config()
    config["server"]["clock"] = "real"
    config["accounts"] = config["accounts"][:1]
    real = make_sandbox(config)
    assert admin(real, "GET", "/clock").json()["manual"] is False
    problem = assert_problem(admin(real, "POST", "/clock", {"advance_seconds": 60}), 400,
                             "validation_failed")
    assert problem["errors"] == [{"pointer": "/advance_seconds", "code": "clock_not_manual"}]


# Faults: the rules themselves --------------------------------------------------------------------

def test_faults_are_added_listed_and_cleared(sandbox: Sandbox) -> None:
    assert admin(sandbox, "GET", "/faults").json() == []
    rule = add_fault(sandbox, path="/v1/leads*", method="post", kind="outcome_unknown")
    assert (rule["method"], rule["status"], rule["code"]) == ("POST", 409, "outcome_unknown")
    add_fault(sandbox, path="/v1/me", code="upstream_unavailable")
    listed = admin(sandbox, "GET", "/faults").json()
    assert [r["path"] for r in listed] == ["/v1/leads*", "/v1/me"]
    assert listed[1]["status"] == 503
    assert admin(sandbox, "DELETE", "/faults").json() == {"cleared": True}
    assert admin(sandbox, "GET", "/faults").json() == []


@pytest.mark.parametrize("rule", [
    {"path": "/v1/me", "kind": "error"},
    {"path": "/v1/me", "code": "no_such_code"},
    {"path": "", "code": "internal_error"},
    {"path": "/v1/me", "kind": "explode"},
    {"path": "/v1/me", "code": "internal_error", "probability": 2},
    {"path": "/v1/me", "code": "internal_error", "surprise": 1},
])
def test_a_bad_fault_rule_is_refused(sandbox: Sandbox, rule: dict[str, Any]) -> None:
    assert_problem(admin(sandbox, "POST", "/faults", rule), 400, "validation_failed")
    assert admin(sandbox, "GET", "/faults").json() == []


# Faults: each kind over HTTP ---------------------------------------------------------------------

@pytest.mark.parametrize(("code", "status", "expected"), [
    ("temporarily_unavailable", None, 503),
    ("upstream_invalid_response", None, 502),
    ("rate_limit_exceeded", None, 429),
    ("internal_error", 503, 503),
])
def test_error_fault_answers_its_status_and_code(sandbox: Sandbox, api: httpx.Client, code: str,
                                                 status: int | None, expected: int) -> None:
    add_fault(sandbox, path="/v1/campaigns", method="GET", code=code, status=status,
              retry_after=7, count=1)
    problem = assert_problem(api.get("/v1/campaigns"), expected, code)
    assert problem["status"] == expected
    assert api.get("/v1/campaigns").status_code == 200


def test_error_fault_on_a_write_writes_nothing(sandbox: Sandbox, api: httpx.Client) -> None:
    campaign = first_campaign(api, "running")
    add_fault(sandbox, path="/v1/campaigns/*/pause", code="temporarily_unavailable",
              retry_after=3, count=1)
    answer = write(api, f"/v1/campaigns/{campaign}/pause", key="k")
    assert_problem(answer, 503, "temporarily_unavailable")
    assert answer.headers["retry-after"] == "3"
    assert api.get(f"/v1/campaigns/{campaign}").json()["status"] == "running"
    retry = write(api, f"/v1/campaigns/{campaign}/pause", key="k")
    assert retry.status_code == 200 and retry.json()["status"] == "paused"
    assert "idempotency-replayed" not in retry.headers


def test_latency_fault_delays_the_answer(sandbox: Sandbox, api: httpx.Client) -> None:
    add_fault(sandbox, path="/v1/me", kind="latency", latency_ms=400)
    started = time.perf_counter()
    assert api.get("/v1/me").status_code == 200
    assert time.perf_counter() - started >= 0.4


def test_drop_fault_breaks_the_connection(sandbox: Sandbox, api: httpx.Client) -> None:
    add_fault(sandbox, path="/v1/campaigns", method="GET", kind="drop", count=1)
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        api.get("/v1/campaigns")
    assert api.get("/v1/campaigns").status_code == 200


def test_drop_fault_on_a_write_keeps_the_answer_for_the_retry(sandbox: Sandbox,
                                                              api: httpx.Client) -> None:
    campaign = first_campaign(api, "paused")
    total = lead_total(api, campaign)
    add_fault(sandbox, path="/v1/leads/import", kind="drop", count=1)
    path = f"/v1/leads/import?campaign_id={campaign}"
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        write(api, path, IMPORT_LEAD, key="imp")
    retry = write(api, path, IMPORT_LEAD, key="imp")
    assert retry.status_code == 200 and retry.headers["idempotency-replayed"] == "true"
    assert retry.json()["summary"]["accepted"] == 1
    assert lead_total(api, campaign) == total + 1


def test_outcome_unknown_fault_writes_once_and_answers_409_on_every_retry(
        sandbox: Sandbox, api: httpx.Client) -> None:
    campaign = first_campaign(api, "paused")
    total = lead_total(api, campaign)
    add_fault(sandbox, path="/v1/leads/import", kind="outcome_unknown", count=1)
    path = f"/v1/leads/import?campaign_id={campaign}"
    for _ in range(3):
        assert_problem(write(api, path, IMPORT_LEAD, key="imp"), 409, "outcome_unknown")
    assert lead_total(api, campaign) == total + 1


def test_dnc_screen_unavailable_refuses_the_import(sandbox: Sandbox, api: httpx.Client) -> None:
    campaign = first_campaign(api, "paused")
    total = lead_total(api, campaign)
    add_fault(sandbox, path="/v1/leads/import", kind="dnc_screen_unavailable", retry_after=5,
              count=1)
    path = f"/v1/leads/import?campaign_id={campaign}"
    answer = write(api, path, IMPORT_LEAD, key="imp")
    assert_problem(answer, 503, "dnc_screen_unavailable")
    assert answer.headers["retry-after"] == "5"
    assert lead_total(api, campaign) == total
    retry = write(api, path, IMPORT_LEAD, key="imp")
    assert retry.status_code == 200 and retry.json()["summary"]["accepted"] == 1
    assert lead_total(api, campaign) == total + 1


# Ground truth -----------------------------------------------------------------------------------

def test_ground_truth_lists_the_planted_problems(sandbox: Sandbox, api: httpx.Client) -> None:
    answer = admin(sandbox, "GET", "/ground-truth", account="acme")
    assert answer.status_code == 200
    body = answer.json()
    assert body["account"] == "acme"
    assert set(body["problems"]) == {"outside_calling_hours", "dnc_call", "frequency",
                                     "abandoned", "split_zone_hours", "caller_id",
                                     "dnc_grace", "abandonment_period", "person_frequency"}
    assert body["counts"] == {kind: len(items) for kind, items in body["problems"].items()}
    assert all(count > 0 for count in body["counts"].values())
    for items in body["problems"].values():
        call = api.get(f"/v1/calls/{items[0]['call_id']}")
        assert call.status_code == 200
        assert call.json()["to_number"] == items[0]["phone"]


def test_dnc_lists_say_which_list_and_since_when(sandbox: Sandbox) -> None:
    """Issue 47: the DNC check says only whether a number is listed; the admin surface
    says on which list, as the planted DNC calls' ground truth does."""
    body = admin(sandbox, "GET", "/dnc-lists", account="acme").json()
    listings = {item["phone"]: item for item in body["listings"]}
    assert {item["list"] for item in listings.values()} == {"company", "national"}
    truth = admin(sandbox, "GET", "/ground-truth", account="acme").json()["problems"]
    for problem in truth["dnc_call"] + truth["dnc_grace"]:
        listed = listings[problem["phone"]]
        assert (listed["list"], listed["listed_at"]) == (problem["detail"]["list"],
                                                         problem["detail"]["listed_at"])


def test_a_handle_moves_the_clock_and_the_dialer_with_it(own: Sandbox) -> None:
    """``Sandbox.advance`` (and an attached process's ``RemoteSandbox.advance``) is the
    admin surface's ``POST /_sandbox/clock``: the campaigns dial through the time moved."""
    with client_for(own, KEYS["full"]) as http:
        before = http.get("/v1/calls", params={"limit": 100}).json()["data"]  # the data set
        moved = own.advance(3600)
        after = http.get("/v1/calls", params={"limit": 100}).json()["data"]  # newest first
    assert moved.now == datetime.fromisoformat(START) + timedelta(hours=1)
    assert moved.simulated["calls_placed"] > 0 and before
    new = [call for call in after if call["created_at"] >= "2026-11-02T15:00"]
    assert 0 < len(new) <= moved.simulated["calls_placed"]  # this key's data set's share
    assert all(call["created_at"] < "2026-11-02T16:00" for call in new)
    remote = RemoteSandbox.from_environment(attach_environment(own, key="acme/full/test"))
    assert remote is not None and remote.advance(600).now == moved.now + timedelta(minutes=10)
    assert own.now() == remote.now() == moved.now + timedelta(minutes=10)
    assert admin(own, "GET", "/clock").json()["now"] == "2026-11-02T16:10:00.000Z"


def test_an_advance_that_delivers_answers_once_the_receiver_holds_every_event(
        make_sandbox: Callable[..., Sandbox], tmp_path: Path) -> None:
    """``advance(..., deliver=True)`` waits for the deliveries it made due: the receiver's
    store holds each call's events when it answers, nothing read later needs a wait."""
    config = base_config()
    config["accounts"] = config["accounts"][:1]
    config["server"]["allow_loopback_webhooks"] = True
    world = make_sandbox(config)
    store = tmp_path / "events.sqlite"
    receiver = Receiver(store, "whsec_until_the_hook_exists", now=world.now)
    with receiver.serve() as served, Client(KEYS["full"], base_url=world.base_url,
                                            rate_limit=None) as client:
        hook = client.webhooks.create(url=served.url,
                                      events=["call.completed", "disposition.logged"])
        receiver.rotate_secrets(hook.secret)
        moved = world.advance(3600, deliver=True)
        assert moved.delivered == moved.simulated["events_recorded"] > 0
        assert len(events_after(store).frame) == moved.delivered
        remote = RemoteSandbox.from_environment(attach_environment(world, key="acme/full/test"))
        assert remote is not None
        more = remote.advance(1800, deliver=True)
        assert more.delivered == more.simulated["events_recorded"] > 0
        assert len(events_after(store).frame) == moved.delivered + more.delivered
    assert world.advance(60).delivered == 0  # not asked: the emulator's loop delivers


def test_a_clock_that_cannot_move_is_said_so(own: Sandbox, sandbox: Sandbox,
                                             make_sandbox: Callable[..., Sandbox]) -> None:
    with pytest.raises(InputError, match="greater than or equal to 0"):
        own.advance(-1)
    config = base_config()
    config["server"]["clock"] = "real"
    with pytest.raises(InputError, match="The clock is real"):
        make_sandbox(config).advance(60)
    unkeyed = RemoteSandbox(own.base_url, own.keys)
    with pytest.raises(InputError, match="DIALKIT_SANDBOX_ADMIN_KEY is not set"):
        unkeyed.advance(60)
    wrong = RemoteSandbox(own.base_url, own.keys, admin_key=AdminKey("x" * 24))
    with pytest.raises(InputError, match="not moved 60 s: This admin key is not valid") as told:
        wrong.advance(60)
    assert "x" * 24 not in str(told.value)


def test_an_emulator_that_stopped_is_named_not_a_transport_traceback() -> None:
    """An emulator another process started may have stopped: its admin surface's silence is
    the service's connection error, naming the emulator and what was asked."""
    with socket.socket() as free:  # a port nothing listens on once closed
        free.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{free.getsockname()[1]}"
    gone = RemoteSandbox(url, KEYS, admin_key=AdminKey("k" * 24))
    for asked, words in ((gone.now, "its clock"), (lambda: gone.advance(60), "a move of its clock"),
                         (lambda: gone.caller_ids("acme"), "the caller ids asked")):
        with pytest.raises(ApiConnectionError, match=f"the emulator at {url} did not answer "
                                                     f"{words} .*: is it still running"):
            asked()


def test_caller_ids_are_the_ones_the_world_dials_from(sandbox: Sandbox,
                                                      api: httpx.Client) -> None:
    answer = admin(sandbox, "GET", "/caller-ids", account="acme")
    assert answer.status_code == 200
    verified = answer.json()["caller_ids"]
    assert answer.json()["account"] == "acme" and verified == sorted(set(verified))
    calls = api.get("/v1/calls", params={"direction": "outbound", "limit": 100}).json()["data"]
    assert len(calls) == 100 and {call["from_number"] for call in calls} <= set(verified)


@pytest.mark.parametrize("path", ["/ground-truth", "/caller-ids", "/dnc-lists"])
@pytest.mark.parametrize(("params", "status", "code"), [
    ({"account": "nobody"}, 404, "not_found"),
    ({}, 400, "validation_failed"),
])
def test_admin_reads_of_an_unknown_account(sandbox: Sandbox, path: str, params: dict[str, str],
                                           status: int, code: str) -> None:
    assert_problem(admin(sandbox, "GET", path, **params), status, code)
