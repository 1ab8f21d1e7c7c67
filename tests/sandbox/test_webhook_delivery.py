"""Webhook delivery end to end: a receiver on 127.0.0.1, signatures, retries, events, replays.

The module runs its own emulator (manual clock, loopback receivers allowed), so
that moving its clock by hours never disturbs the session emulator. The
``delivering`` fixture runs :func:`delivery_loop` on the emulator's event loop;
if the server already runs one, the two share the in-memory claims and never
send a delivery twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Coroutine, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx
import orjson
import pytest

from conftest import KEYS, assert_problem, client_for, write
from dialkit.contract import WEBHOOK_RETRY_MINUTES, Scope
from dialkit.sandbox import Sandbox, parse_config, start
from dialkit.sandbox._simulation._delivery import deliver_due, delivery_loop
from dialkit.sandbox._state._clock import parse_timestamp
from dialkit.sandbox._state._events import record_event
from receivers import Receiver, wait_for

T = TypeVar("T")
DATASET = "client:acme/full"


@pytest.fixture(scope="module")
def emulator() -> Iterator[Sandbox]:
    """An emulator of its own: manual clock, loopback receivers allowed, two clients."""
    every = [s.value for s in Scope]
    config: dict[str, Any] = {
        "server": {"rate_limit_scale": 0, "clock": "manual", "start_time": "2026-11-02T15:00:00Z",
                   "allow_loopback_webhooks": True},
        "accounts": [{"name": "acme", "clients": [
            {"name": "full", "scopes": every, "keys": [{"key": KEYS["full"]}]},
            {"name": "other", "scopes": every, "keys": [{"key": KEYS["other"]}]}]}],
    }
    with start(parse_config(config)) as running:
        yield running


def on_server(emulator: Sandbox, work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` on the emulator's event loop (where handlers touch the store) and wait."""
    loop = emulator._server.servers[0].get_loop()
    return asyncio.run_coroutine_threadsafe(work, loop).result(timeout=10)


@pytest.fixture
def delivering(emulator: Sandbox) -> Iterator[None]:
    """A reset emulator with the delivery loop running for the test."""
    httpx.post(emulator.base_url + "/_sandbox/reset",
               headers=emulator.admin_headers).raise_for_status()
    loop = emulator._server.servers[0].get_loop()
    task = asyncio.run_coroutine_threadsafe(delivery_loop(emulator.service), loop)
    yield
    task.cancel()


@pytest.fixture
def api(emulator: Sandbox, delivering: None) -> Iterator[httpx.Client]:
    """The ``full`` client of the module's emulator."""
    with client_for(emulator, KEYS["full"]) as http:
        yield http


def endpoint(http: httpx.Client, url: str, *, key: str = "wh",
             events: list[str] | None = None) -> dict[str, Any]:
    """A created endpoint, secret included."""
    body = {"url": url, "events": events or ["appointment.cancelled"]}
    response = write(http, "/v1/webhooks", body, key=key)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def send_test(http: httpx.Client, webhook_id: str, key: str = "test") -> dict[str, str]:
    """POST /test; ``{event_id, delivery_id}``."""
    response = write(http, f"/v1/webhooks/{webhook_id}/test", key=key)
    assert response.status_code == 202, response.text
    answer: dict[str, str] = response.json()
    return answer


def delivery(http: httpx.Client, event_id: str, delivery_id: str) -> dict[str, Any]:
    """One delivery as the event detail shows it."""
    event = http.get(f"/v1/webhook-events/{event_id}").json()
    return next(d for d in event["deliveries"] if d["id"] == delivery_id)


def attempted(http: httpx.Client, event_id: str, delivery_id: str,
              attempts: int) -> dict[str, Any]:
    """The delivery once it has had ``attempts`` attempts."""
    return wait_for(lambda: (d := delivery(http, event_id, delivery_id))["attempts"] >= attempts
                    and d)


def advance(http: httpx.Client, seconds: float) -> datetime:
    """Move the manual clock; the new service time."""
    response = http.post("/_sandbox/clock", json={"advance_seconds": seconds})
    return parse_timestamp(response.json()["now"])


def clock(http: httpx.Client) -> datetime:
    return parse_timestamp(http.get("/_sandbox/clock").json()["now"])


def deliver(emulator: Sandbox) -> int:
    """One delivery pass now, at the manual clock's time: how many deliveries it attempted.

    To show that nothing is due, a test moves the clock and runs the pass the background
    loops run, rather than sleeping a while and finding nothing happened (which a slow
    loop would pass too)."""
    return on_server(emulator, deliver_due(emulator.service))


def signatures(headers: dict[str, str], body: bytes, *secrets: str) -> str:
    """The Service-Signature value expected for ``secrets``."""
    signed = headers["service-timestamp"].encode() + b"." + body
    return ",".join("sha256=" + hmac.new(s.encode(), signed, hashlib.sha256).hexdigest()
                    for s in secrets)


def test_delivery_is_signed_and_carries_the_contract_headers(api: httpx.Client,
                                                            receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    sent = send_test(api, hook["id"])
    done = attempted(api, sent["event_id"], sent["delivery_id"], 1)
    assert (done["status"], done["last_status_code"], done["next_attempt_at"]) == (
        "delivered", 200, None)
    assert done["delivered_at"] == done["last_attempt_at"] is not None
    [(headers, body)] = receiver.requests
    assert headers["content-type"] == "application/json"
    assert (headers["service-event-id"], headers["service-delivery-id"]) == (
        sent["event_id"], sent["delivery_id"])
    assert headers["service-event"] == "webhook.test"
    assert int(headers["service-timestamp"]) == int(clock(api).timestamp())
    assert headers["service-signature"] == signatures(headers, body, hook["secret"])
    envelope = orjson.loads(body)
    event = api.get(f"/v1/webhook-events/{sent['event_id']}").json()
    assert envelope == {k: event[k] for k in ("id", "type", "created_at", "api_version",
                                              "schema_version", "data")}


def test_rotation_signs_with_both_secrets_for_24_hours(api: httpx.Client,
                                                       receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    rotated = write(api, f"/v1/webhooks/{hook['id']}/rotate-secret", key="rot").json()
    sent = send_test(api, hook["id"], key="t1")
    attempted(api, sent["event_id"], sent["delivery_id"], 1)
    headers, body = receiver.requests[-1]
    assert headers["service-signature"] == signatures(headers, body, rotated["secret"],
                                                      hook["secret"])
    advance(api, 24 * 3600)
    sent = send_test(api, hook["id"], key="t2")
    attempted(api, sent["event_id"], sent["delivery_id"], 1)
    headers, body = receiver.requests[-1]
    assert headers["service-signature"] == signatures(headers, body, rotated["secret"])


def test_failing_receiver_is_retried_on_the_contract_schedule(api: httpx.Client,
                                                              emulator: Sandbox,
                                                              receiver: Receiver) -> None:
    receiver.default = 500
    sent = send_test(api, endpoint(api, receiver.url)["id"])
    ids = sent["event_id"], sent["delivery_id"]
    now = clock(api)
    for attempt, minutes in enumerate(WEBHOOK_RETRY_MINUTES, start=1):
        state = attempted(api, *ids, attempt)
        assert (state["status"], state["attempts"], state["last_status_code"]) == (
            "retry_scheduled", attempt, 500)
        assert parse_timestamp(state["next_attempt_at"]) == now + timedelta(minutes=minutes)
        assert state["failure_reason"] is None
        if attempt == 1:  # not attempted before it is due
            advance(api, minutes * 60 - 1)
            assert deliver(emulator) == 0
            assert delivery(api, *ids)["attempts"] == 1
            now = advance(api, 1)
        else:
            now = advance(api, minutes * 60)
    final = attempted(api, *ids, len(WEBHOOK_RETRY_MINUTES) + 1)
    assert (final["status"], final["next_attempt_at"], final["delivered_at"]) == (
        "failed", None, None)
    assert "500" in final["failure_reason"]
    assert len(receiver.requests) == 6
    assert {h["service-delivery-id"] for h, _ in receiver.requests} == {sent["delivery_id"]}


def test_receiver_that_recovers_gets_the_retry(api: httpx.Client, receiver: Receiver) -> None:
    receiver.statuses.extend([503])
    sent = send_test(api, endpoint(api, receiver.url)["id"])
    assert attempted(api, sent["event_id"], sent["delivery_id"], 1)["status"] == "retry_scheduled"
    advance(api, 60)
    state = attempted(api, sent["event_id"], sent["delivery_id"], 2)
    assert (state["status"], state["last_status_code"]) == ("delivered", 200)


@pytest.mark.parametrize("url", ["http://127.0.0.1:1/closed", "https://receiver.invalid/x"])
def test_unreachable_receiver_is_retried(api: httpx.Client, url: str) -> None:
    sent = send_test(api, endpoint(api, url)["id"])
    state = attempted(api, sent["event_id"], sent["delivery_id"], 1)
    assert (state["status"], state["last_status_code"]) == ("retry_scheduled", None)


def set_url(emulator: Sandbox, webhook_id: str, url: str) -> None:
    """Change a stored URL behind the API's back (as if its DNS had changed)."""
    async def change() -> None:
        emulator.service.store.conn.execute("UPDATE webhooks SET url = ? WHERE id = ?",
                                            (url, webhook_id))
    on_server(emulator, change())


def test_url_is_checked_again_before_delivery_and_replay(api: httpx.Client, emulator: Sandbox,
                                                         receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    set_url(emulator, hook["id"], "https://10.0.0.7/in")
    sent = send_test(api, hook["id"])
    state = attempted(api, sent["event_id"], sent["delivery_id"], 1)
    assert (state["status"], state["last_status_code"]) == ("retry_scheduled", None)
    replay = write(api, f"/v1/webhook-events/{sent['event_id']}/replay", key="r")
    assert_problem(replay, 422, "webhook_url_refused")
    assert receiver.requests == []


def test_disabling_or_deleting_cancels_waiting_deliveries(api: httpx.Client, emulator: Sandbox,
                                                          receiver: Receiver) -> None:
    receiver.default = 500
    first, second = endpoint(api, receiver.url, key="a"), endpoint(api, receiver.url, key="b")
    sent = [send_test(api, first["id"], key="t1"), send_test(api, second["id"], key="t2")]
    for s in sent:
        attempted(api, s["event_id"], s["delivery_id"], 1)
    api.patch(f"/v1/webhooks/{first['id']}", json={"enabled": False}).raise_for_status()
    write(api, f"/v1/webhooks/{second['id']}", method="DELETE", key="d").raise_for_status()
    states = [delivery(api, s["event_id"], s["delivery_id"]) for s in sent]
    assert [(s["status"], s["next_attempt_at"], s["failure_reason"]) for s in states] == [
        ("cancelled", None, "the endpoint was disabled"),
        ("cancelled", None, "the endpoint was deleted")]
    advance(api, 120)  # past both retries' time: a pass now attempts neither
    assert deliver(emulator) == 0
    assert len(receiver.requests) == 2


def test_test_event_reaches_a_disabled_endpoint(api: httpx.Client, receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    api.patch(f"/v1/webhooks/{hook['id']}", json={"enabled": False}).raise_for_status()
    sent = send_test(api, hook["id"])
    assert attempted(api, sent["event_id"], sent["delivery_id"], 1)["status"] == "delivered"


def record(emulator: Sandbox, event_type: str, data: dict[str, Any]) -> str:
    """Record an event in the ``full`` client's data set, as an operation would."""
    async def work() -> str:
        return record_event(emulator.service.store, DATASET, event_type, data,
                            emulator.service.clock.stamp())
    return on_server(emulator, work())


def test_events_go_to_subscribed_enabled_endpoints(api: httpx.Client, emulator: Sandbox,
                                                   receiver: Receiver) -> None:
    wanted = endpoint(api, receiver.url, key="a", events=["appointment.booked"])
    endpoint(api, receiver.url, key="b", events=["call.completed"])
    off = endpoint(api, receiver.url, key="c", events=["appointment.booked"])
    api.patch(f"/v1/webhooks/{off['id']}", json={"enabled": False}).raise_for_status()
    event_id = record(emulator, "appointment.booked", {"appointment_id": "appt_1"})
    event = api.get(f"/v1/webhook-events/{event_id}").json()
    assert [d["webhook_id"] for d in event["deliveries"]] == [wanted["id"]]
    wait_for(lambda: receiver.requests)
    headers, body = receiver.requests[0]
    assert (headers["service-event"], orjson.loads(body)["data"]) == (
        "appointment.booked", {"appointment_id": "appt_1"})


def test_replay_is_a_new_delivery_of_the_same_event(api: httpx.Client,
                                                    receiver: Receiver) -> None:
    hook = endpoint(api, receiver.url)
    sent = send_test(api, hook["id"])
    attempted(api, sent["event_id"], sent["delivery_id"], 1)
    response = write(api, f"/v1/webhook-events/{sent['event_id']}/replay",
                     {"webhook_id": hook["id"]}, key="r")
    assert response.status_code == 202
    answer = response.json()
    [new] = answer["deliveries"]
    assert answer["event_id"] == new["event_id"] == sent["event_id"]
    assert new["delivery_id"] != sent["delivery_id"]
    state = attempted(api, sent["event_id"], new["delivery_id"], 1)
    assert (state["status"], state["replay_of"]) == ("delivered", sent["delivery_id"])
    headers, _ = receiver.requests[-1]
    assert (headers["service-event-id"], headers["service-delivery-id"]) == (
        sent["event_id"], new["delivery_id"])


def test_replay_without_webhook_id_goes_to_every_enabled_receiver(
        api: httpx.Client, emulator: Sandbox, receiver: Receiver) -> None:
    hooks = [endpoint(api, receiver.url, key=k, events=["appointment.moved"]) for k in "abc"]
    event_id = record(emulator, "appointment.moved", {"appointment_id": "appt_2"})
    originals = {d["webhook_id"]: d["id"]
                 for d in api.get(f"/v1/webhook-events/{event_id}").json()["deliveries"]}
    api.patch(f"/v1/webhooks/{hooks[2]['id']}", json={"enabled": False}).raise_for_status()
    response = write(api, f"/v1/webhook-events/{event_id}/replay", key="r")
    assert response.status_code == 202
    new_ids = {d["delivery_id"] for d in response.json()["deliveries"]}
    event = api.get(f"/v1/webhook-events/{event_id}").json()
    replays = {d["webhook_id"]: d["replay_of"] for d in event["deliveries"] if d["id"] in new_ids}
    assert replays == {h["id"]: originals[h["id"]] for h in hooks[:2]}


def test_replay_limit_is_five_per_event_per_utc_day(api: httpx.Client, receiver: Receiver) -> None:
    sent = send_test(api, endpoint(api, receiver.url)["id"])
    path = f"/v1/webhook-events/{sent['event_id']}/replay"
    for n in range(5):
        assert write(api, path, key=f"r{n}").status_code == 202
    refused = write(api, path, key="r5")
    assert_problem(refused, 429, "replay_limit_reached")
    now = clock(api)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    assert int(refused.headers["retry-after"]) == int((midnight - now).total_seconds())
    advance(api, (midnight - now).total_seconds())
    assert write(api, path, key="r6").status_code == 202


def test_replay_unavailable_and_not_found(api: httpx.Client, receiver: Receiver) -> None:
    hook, other = endpoint(api, receiver.url, key="a"), endpoint(api, receiver.url, key="b")
    sent = send_test(api, hook["id"])
    path = f"/v1/webhook-events/{sent['event_id']}/replay"
    assert_problem(write(api, path, {"webhook_id": other["id"]}, key="r1"), 409,
                   "replay_unavailable")  # never received it
    api.patch(f"/v1/webhooks/{hook['id']}", json={"enabled": False}).raise_for_status()
    assert_problem(write(api, path, {"webhook_id": hook["id"]}, key="r2"), 409,
                   "replay_unavailable")  # disabled
    write(api, f"/v1/webhooks/{hook['id']}", method="DELETE", key="d").raise_for_status()
    assert_problem(write(api, path, key="r3"), 409, "replay_unavailable")  # nobody left
    assert_problem(write(api, path, {"webhook_id": hook["id"]}, key="r4"), 404, "not_found")
    unknown = "/v1/webhook-events/evt_123e4567-e89b-42d3-a456-426614174000"
    assert_problem(write(api, unknown + "/replay", key="r5"), 404, "not_found")
    assert_problem(api.get(unknown), 404, "not_found")
    assert_problem(write(api, path, {"webhook_id": "wh_1"}, key="r6"), 400, "validation_failed")


def stable(event: dict[str, Any]) -> dict[str, Any]:
    """An event without what a delivery attempt changes: its deliveries' ids and endpoints."""
    deliveries = [(d["id"], d["webhook_id"], d["replay_of"]) for d in event["deliveries"]]
    return {**event, "deliveries": deliveries}


def test_event_list_newest_first_filtered_and_kept_30_days(api: httpx.Client,
                                                           emulator: Sandbox) -> None:
    hook = endpoint(api, "https://receiver.example/in")
    old = send_test(api, hook["id"], key="t1")["event_id"]
    advance(api, 1)
    booked = record(emulator, "appointment.booked", {"appointment_id": "appt_3"})
    advance(api, 1)
    new = send_test(api, hook["id"], key="t2")["event_id"]
    mine = {old, booked, new}  # the dialer simulation may add call events as the clock moves
    listed = [e for e in api.get("/v1/webhook-events").json()["data"] if e["id"] in mine]
    assert [e["id"] for e in listed] == [new, booked, old]
    # The server's delivery loop may attempt the (unreachable) endpoint between the two
    # reads, so the deliveries' states may move on; the event and its deliveries may not.
    single = api.get(f"/v1/webhook-events/{new}").json()
    assert stable(listed[0]) == stable(single)
    tests = api.get("/v1/webhook-events", params={"type": "webhook.test", "limit": 1}).json()
    assert [e["id"] for e in tests["data"]] == [new]
    rest = api.get("/v1/webhook-events", params={"type": "webhook.test", "limit": 1,
                                                 "cursor": tests["page"]["next_cursor"]}).json()
    assert [e["id"] for e in rest["data"]] == [old]
    assert_problem(api.get("/v1/webhook-events", params={"type": "call.started"}), 400,
                   "validation_failed")
    advance(api, 30 * 86400 - 1)
    kept = api.get("/v1/webhook-events", params={"type": "webhook.test"}).json()["data"]
    assert [e["id"] for e in kept] == [new]
    assert api.get(f"/v1/webhook-events/{booked}").status_code == 200
    assert_problem(api.get(f"/v1/webhook-events/{old}"), 404, "not_found")


def test_events_of_another_client_are_not_found(api: httpx.Client, emulator: Sandbox) -> None:
    sent = send_test(api, endpoint(api, "https://receiver.example/in")["id"])
    with client_for(emulator, KEYS["other"]) as other:
        assert_problem(other.get(f"/v1/webhook-events/{sent['event_id']}"), 404, "not_found")
        listed = other.get("/v1/webhook-events").json()["data"]
    assert sent["event_id"] not in [e["id"] for e in listed]
