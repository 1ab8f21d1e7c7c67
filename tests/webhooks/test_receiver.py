"""The receiver end to end over loopback: the emulator delivers, the receiver verifies and
stores, and the store is read back as a frame.

The emulator signs with its manual clock's time (``Service-Timestamp``), so each
receiver here reads that clock: ``Receiver(..., now=emulator.service.clock.now)``.
Refusals are also sent by hand, to name each check.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from webhook_servers import START, delivery, envelope, new_id, reserve, serve, url_of

from conftest import KEYS, client_for, write
from dialkit import Client
from dialkit.contract import Scope, Switch
from dialkit.errors import InputError
from dialkit.sandbox import Sandbox, parse_config, start
from dialkit.webhooks import (
    AppointmentData,
    Event,
    EventStore,
    Receiver,
    events_frame,
    verify,
)
from dialkit.webhooks.handlers import Handlers
from receivers import wait_for

WRONG = "whsec_not_the_endpoints_secret_0000"


@pytest.fixture(scope="module")
def emulator() -> Iterator[Sandbox]:
    """An emulator of its own (manual clock, loopback receivers allowed), so that moving
    its clock by a day disturbs no other test."""
    every = [s.value for s in Scope]
    config: dict[str, Any] = {
        "server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START,
                   "allow_loopback_webhooks": True},
        "accounts": [{"name": "acme", "recent_activity": False,
                      "switches": [s.value for s in Switch], "clients": [
            {"name": "full", "scopes": every, "keys": [{"key": KEYS["full"]}]}]}],
    }
    with start(parse_config(config)) as running:
        yield running


@pytest.fixture
def api(emulator: Sandbox) -> Iterator[httpx.Client]:
    httpx.post(emulator.base_url + "/_sandbox/reset",
               headers=emulator.admin_headers).raise_for_status()
    with client_for(emulator, KEYS["full"]) as http:
        yield http


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "events.sqlite"


def endpoint(api: httpx.Client, url: str, events: tuple[str, ...] = ("appointment.booked",)
             ) -> dict[str, Any]:
    created = write(api, "/v1/webhooks", {"url": url, "events": list(events)}, key=new_id("k"))
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body


def send_test(api: httpx.Client, webhook_id: str) -> tuple[str, str]:
    sent = write(api, f"/v1/webhooks/{webhook_id}/test", key=new_id("t")).json()
    return sent["event_id"], sent["delivery_id"]


def state(api: httpx.Client, event_id: str, delivery_id: str) -> dict[str, Any]:
    event = api.get(f"/v1/webhook-events/{event_id}").json()
    found: dict[str, Any] = next(d for d in event["deliveries"] if d["id"] == delivery_id)
    return found


def attempted(api: httpx.Client, event_id: str, delivery_id: str, attempts: int
              ) -> dict[str, Any]:
    """The delivery once the emulator has made ``attempts`` attempts."""
    return wait_for(lambda: (s := state(api, event_id, delivery_id))["attempts"] >= attempts
                    and s)


def advance(api: httpx.Client, seconds: float) -> None:
    api.post("/_sandbox/clock", json={"advance_seconds": seconds}).raise_for_status()


def receiver_for(emulator: Sandbox, db: Path, secrets: Any, **options: Any) -> Receiver:
    return Receiver(db, secrets, now=emulator.service.clock.now, **options)


def test_a_booked_appointment_arrives_typed_and_stored(api: httpx.Client, emulator: Sandbox,
                                                       db: Path) -> None:
    handlers, seen = Handlers(), []
    handlers.on("appointment.booked")(seen.append)
    sock = reserve()
    hook = endpoint(api, url_of(sock))
    receiver = receiver_for(emulator, db, hook["secret"], handlers=handlers)
    with serve(receiver, sock):
        booked = write(api, "/v1/appointments", {
            "phone": "+14155550100", "scheduled_at": "2026-11-05T10:00:00Z",
            "timezone": "America/Los_Angeles", "contact_name": "Ada"}, key="appt").json()
        [event] = wait_for(lambda: seen)
    assert isinstance(event, Event) and isinstance(event.data, AppointmentData)
    assert (event.data.appointment_id, event.data.customer and event.data.customer.name) == (
        booked["id"], "Ada")
    frame = events_frame(db)
    assert list(frame["id"]) == [event.id] and list(frame["deliveries_seen"]) == [1]
    assert orjson.loads(frame["data"][0])["appointment_id"] == booked["id"]
    with Client(KEYS["full"], base_url=emulator.base_url, rate_limit=None) as client:
        listed = client.frames.webhook_events(progress=False)
    assert dict(frame.dtypes.drop(["received_at", "deliveries_seen", "repeats"])) == dict(
        listed.dtypes)
    assert list(frame.columns[:-3]) == list(listed.columns)
    same = ["id", "type", "created_at", "api_version", "schema_version", "data"]
    assert frame[same].equals(listed[listed["id"] == event.id][same].reset_index(drop=True))
    receiver.close()


def test_a_receiver_down_for_a_while_gets_the_retries_and_stores_once(
        api: httpx.Client, emulator: Sandbox, db: Path) -> None:
    sock = reserve()  # bound, not listening: connections are refused
    hook = endpoint(api, url_of(sock))
    ids = send_test(api, hook["id"])
    assert attempted(api, *ids, 1)["status"] == "retry_scheduled"
    advance(api, 60)
    assert attempted(api, *ids, 2)["last_status_code"] is None
    receiver = receiver_for(emulator, db, hook["secret"])
    with serve(receiver, sock):
        advance(api, 5 * 60)
        done = attempted(api, *ids, 3)
    assert (done["status"], done["last_status_code"]) == ("delivered", 200)
    frame = events_frame(db)
    assert list(frame["id"]) == [ids[0]] and list(frame["deliveries_seen"]) == [1]
    assert [d["id"] for d in orjson.loads(frame["deliveries"][0])] == [ids[1]]
    receiver.close()


def test_events_out_of_order_are_read_back_in_created_order(
        api: httpx.Client, emulator: Sandbox, db: Path) -> None:
    sock = reserve()
    hook = endpoint(api, url_of(sock))
    first = send_test(api, hook["id"])  # refused: retried a minute later
    attempted(api, *first, 1)
    advance(api, 1)
    receiver = receiver_for(emulator, db, hook["secret"])
    with serve(receiver, sock):
        second = send_test(api, hook["id"])
        attempted(api, *second, 1)
        advance(api, 60)
        assert attempted(api, *first, 2)["status"] == "delivered"
    frame = events_frame(db)
    assert list(frame["id"]) == [first[0], second[0]]
    assert frame["created_at"].is_monotonic_increasing
    assert frame["received_at"][0] > frame["received_at"][1]  # arrived last
    receiver.close()


def test_a_replay_is_stored_once_and_counted(api: httpx.Client, emulator: Sandbox,
                                             db: Path) -> None:
    with serve(receiver := receiver_for(emulator, db, WRONG)) as url:
        hook = endpoint(api, url)
        receiver.rotate_secrets(hook["secret"])
        event_id, first = send_test(api, hook["id"])
        attempted(api, event_id, first, 1)
        advance(api, 1)  # signed a second later: a delivery is told apart by what is signed
        replay = write(api, f"/v1/webhook-events/{event_id}/replay", key="r").json()
        [again] = [d["delivery_id"] for d in replay["deliveries"]]
        assert attempted(api, event_id, again, 1)["status"] == "delivered"
    frame = events_frame(db)
    assert (len(frame), frame["deliveries_seen"][0]) == (1, 2)
    assert [d["id"] for d in orjson.loads(frame["deliveries"][0])] == [first, again]
    receiver.close()


def test_rotation_old_and_new_secret_for_24_hours_then_only_the_new(
        api: httpx.Client, emulator: Sandbox, db: Path) -> None:
    with serve(receiver := receiver_for(emulator, db, WRONG)) as url:
        hook = endpoint(api, url)
        old = hook["secret"]
        new = write(api, f"/v1/webhooks/{hook['id']}/rotate-secret", key="rot").json()["secret"]
        stored = []
        for secrets in ([old], [new]):  # during the overlap either secret alone passes
            receiver.rotate_secrets(secrets)
            ids = send_test(api, hook["id"])
            assert attempted(api, *ids, 1)["status"] == "delivered"
            stored.append(ids[0])
            advance(api, 1)  # created_at apart: the frame's order is theirs
        advance(api, 24 * 3600)
        receiver.rotate_secrets([old])  # a receiver never given the new secret
        late = send_test(api, hook["id"])
        refused = attempted(api, *late, 1)
        assert (refused["status"], refused["last_status_code"]) == ("retry_scheduled", 400)
        assert list(events_frame(db)["id"]) == stored
        receiver.rotate_secrets([new, old])
        advance(api, 60)
        assert attempted(api, *late, 2)["status"] == "delivered"
    assert list(events_frame(db)["id"]) == [*stored, late[0]]
    receiver.close()


def test_a_wrong_secret_is_refused_and_nothing_is_stored(
        api: httpx.Client, emulator: Sandbox, db: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    with serve(receiver := receiver_for(emulator, db, WRONG)) as url:
        hook = endpoint(api, url)
        ids = send_test(api, hook["id"])
        with caplog.at_level(logging.WARNING, "dialkit.webhooks"):
            refused = attempted(api, *ids, 1)
    assert (refused["status"], refused["last_status_code"]) == ("retry_scheduled", 400)
    assert events_frame(db).empty
    assert "no_matching_signature" in caplog.text
    assert WRONG not in caplog.text and hook["secret"] not in caplog.text
    assert WRONG not in repr(receiver) and WRONG[-4:] in repr(receiver)
    receiver.close()


SECRET = "whsec_handmade_0123456789abcdef"
CLOCK = 1_793_631_600


def _three(body: bytes, headers: dict[str, str]) -> tuple[bytes, dict[str, str]]:
    sig = headers["Service-Signature"]
    return body, {**headers, "Service-Signature": f"{sig},{sig},{sig}"}


REFUSED: list[tuple[str, Any, str]] = [
    ("tampered body", lambda b, h: (b.replace(b"hello", b"HELLO"), h), "no_matching_signature"),
    ("wrong secret", lambda b, h: delivery(b, WRONG, CLOCK), "no_matching_signature"),
    ("old timestamp", lambda b, h: delivery(b, SECRET, CLOCK - 301), "timestamp_out_of_tolerance"),
    ("future timestamp", lambda b, h: delivery(b, SECRET, CLOCK + 301),
     "timestamp_out_of_tolerance"),
    ("missing header", lambda b, h: delivery(b, SECRET, CLOCK, Service_Timestamp=None),
     "missing_header"),
    ("three signatures", _three, "malformed_header"),
    ("signed, not an envelope", lambda b, h: delivery(b"[1, 2]", SECRET, CLOCK,
                                                      Service_Event_Id=new_id("evt_")),
     "not_an_envelope"),
]


@pytest.mark.parametrize("change, reason", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_each_refusal_answers_400_with_its_reason_and_stores_nothing(
        db: Path, change: Any, reason: str) -> None:
    receiver = Receiver(db, SECRET, now=lambda: CLOCK)
    body, headers = change(*delivery(envelope(), SECRET, CLOCK))
    with serve(receiver) as url:
        answer = httpx.post(url, content=body, headers=headers)
        good = httpx.post(url, content=b"", headers={})
    assert (answer.status_code, answer.json()["reason"]) == (400, reason), answer.text
    assert SECRET not in answer.text
    assert (good.status_code, good.json()["reason"]) == (400, "missing_header")
    assert events_frame(db).empty
    receiver.close()


def test_other_methods_and_oversized_bodies_are_refused(db: Path) -> None:
    with EventStore(db) as store, serve(Receiver(store, SECRET)) as url:
        assert httpx.get(url).status_code == 405
        assert httpx.post(url, content=b"x" * (1_048_576 + 1)).status_code == 413


def test_a_store_that_cannot_commit_answers_503_and_the_event_comes_again(
        db: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = EventStore(db)
    body, headers = delivery(envelope(), SECRET, CLOCK)
    with serve(Receiver(store, SECRET, now=lambda: CLOCK)) as url:
        store.close()
        with caplog.at_level(logging.ERROR, "dialkit.webhooks"):
            answer = httpx.post(url, content=body, headers=headers)
    assert (answer.status_code, answer.headers["retry-after"]) == (503, "60")
    assert "is closed" in caplog.text
    with EventStore(db) as again, serve(Receiver(again, SECRET, now=lambda: CLOCK)) as url:
        assert httpx.post(url, content=body, headers=headers).status_code == 200
    assert list(events_frame(db)["id"]) == [headers["Service-Event-Id"]]


def test_concurrent_deliveries_share_commits_and_repeats_count_apart(db: Path) -> None:
    bodies = [delivery(envelope(), SECRET, CLOCK) for _ in range(60)]
    receiver = Receiver(db, SECRET, now=lambda: CLOCK)
    with serve(receiver) as url, httpx.Client() as http, ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda d: http.post(url, content=d[0], headers=d[1]),
                                bodies + bodies[:10]))
    assert {a.status_code for a in answers} == {200}
    frame = events_frame(db)
    assert len(frame) == 60 and frame["deliveries_seen"].sum() == 60
    assert frame["repeats"].sum() == 10
    receiver.close()


def test_a_handler_that_fails_is_logged_and_a_duplicate_is_not_dispatched(
        db: Path, caplog: pytest.LogCaptureFixture) -> None:
    handlers, seen = Handlers(), []

    @handlers.on("webhook.test")
    def fails(event: Event) -> None:
        seen.append(event.id)
        raise RuntimeError("the handler broke")

    body, headers = delivery(envelope(), SECRET, CLOCK)
    receiver = Receiver(db, SECRET, now=lambda: CLOCK, handlers=handlers)
    with caplog.at_level(logging.ERROR, "dialkit.webhooks"), serve(receiver) as url:
        answers = [httpx.post(url, content=body, headers=headers).status_code for _ in "ab"]
        wait_for(lambda: "a handler of webhook.test failed" in caplog.text, what="the log")
    assert answers == [200, 200] and seen == [headers["Service-Event-Id"]]
    assert caplog.text.count("a handler of webhook.test failed") == 1
    frame = events_frame(db)
    assert (frame["deliveries_seen"].tolist(), frame["repeats"].tolist()) == ([1], [1])
    receiver.close()


def test_a_byte_identical_delivery_sent_again_is_a_repeat_not_a_delivery(db: Path) -> None:
    """Issue 19, item 11: a captured delivery sent again within the tolerance raised
    ``deliveries_seen``; distinct delivery ids count, the same one again counts apart."""
    event = envelope()
    body, headers = delivery(event, SECRET, CLOCK)
    retried = delivery(event, SECRET, CLOCK + 60)  # the service again: a new delivery id
    receiver = Receiver(db, SECRET, now=lambda: CLOCK + 60)
    with serve(receiver) as url, httpx.Client() as http:
        answers = [http.post(url, content=body, headers=headers).json() for _ in range(5)]
        answers.append(http.post(url, content=retried[0], headers=retried[1]).json())
        answers.append(http.post(url, content=body, headers=headers).json())
    assert [a["deliveries_seen"] for a in answers] == [1, 1, 1, 1, 1, 2, 2]
    frame = events_frame(db)
    assert (frame["deliveries_seen"].tolist(), frame["repeats"].tolist()) == ([2], [5])
    assert [d["id"] for d in orjson.loads(frame["deliveries"][0])] == [
        headers["Service-Delivery-Id"], retried[1]["Service-Delivery-Id"]]
    receiver.close()


def test_a_captured_delivery_sent_under_a_new_delivery_id_is_a_repeat(db: Path) -> None:
    """Issue 46: the signature covers the body and ``Service-Timestamp``, not
    ``Service-Delivery-Id``; a captured delivery sent again within the tolerance under a
    delivery id of the sender's choosing raised ``deliveries_seen``. A delivery signed
    anew (the service's retry or replay) still counts."""
    event = envelope()
    body, headers = delivery(event, SECRET, CLOCK)
    forged = {**headers, "Service-Delivery-Id": new_id("whd_")}
    replayed = delivery(event, SECRET, CLOCK + 60)
    receiver = Receiver(db, SECRET, now=lambda: CLOCK + 60)
    with serve(receiver) as url, httpx.Client() as http:
        seen = [http.post(url, content=sent, headers=named).json()["deliveries_seen"]
                for sent, named in [(body, headers), (body, forged), replayed, (body, forged)]]
    assert seen == [1, 1, 2, 2]
    frame = events_frame(db)
    assert (frame["deliveries_seen"].tolist(), frame["repeats"].tolist()) == ([2], [2])
    assert [d["id"] for d in orjson.loads(frame["deliveries"][0])] == [
        headers["Service-Delivery-Id"], replayed[1]["Service-Delivery-Id"]]
    receiver.close()
    with EventStore(db) as store:  # the library's way: verify, then add
        again = store.add(verify(body, forged, SECRET, now=CLOCK), body)
    assert (again.deliveries_seen, again.repeated) == (2, True)


def test_a_clock_of_naive_datetimes_is_refused_when_the_receiver_is_made(db: Path) -> None:
    with pytest.raises(ValueError, match="naive datetime; pass an aware one"):
        Receiver(db, SECRET, now=lambda: datetime(2026, 11, 2, 15))


def test_the_secrets_are_shown_masked_and_rotated_by_a_method(db: Path) -> None:
    receiver = Receiver(db, ["whsec_new_abcd", "whsec_old_wxyz"])
    assert receiver.secret_hints == ("…abcd", "…wxyz")
    assert "whsec" not in repr(receiver) and "…abcd" in repr(receiver)
    receiver.rotate_secrets("whsec_only_1234")
    assert receiver.secret_hints == ("…1234",)
    receiver.close()


def test_a_socket_is_refused_until_served() -> None:
    sock = reserve()
    with pytest.raises(ConnectionRefusedError), socket.create_connection(sock.getsockname()):
        pass
    sock.close()


def test_the_senders_text_is_logged_escaped_on_one_line(
        db: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 46: the refusal's log line held the unsigned delivery and event ids as sent;
    a C1 control (a terminal's CSI) or a long value went to the operator's log as is."""
    body, headers = delivery(envelope(), WRONG, CLOCK)
    sent = {**headers, "Service-Delivery-Id": "whd_\x9b31m" + "x" * 500}
    receiver = Receiver(db, SECRET, now=lambda: CLOCK)
    with caplog.at_level(logging.WARNING, "dialkit.webhooks"), serve(receiver) as url:
        raw = [(k.encode(), v.encode("latin-1")) for k, v in sent.items()]
        assert httpx.post(url, content=body, headers=raw).status_code == 400
    [line] = [r.getMessage() for r in caplog.records if r.name == "dialkit.webhooks"]
    assert "\x9b" not in line and "\\x9b" in line and "x" * 100 not in line
    receiver.close()


def test_a_receiver_served_by_itself_stores_each_delivery_once_until_stopped(db: Path) -> None:
    """``Receiver.serve``: a notebook's own endpoint, on a thread of its process."""
    receiver = Receiver(db, SECRET, now=lambda: CLOCK)
    body, headers = delivery(envelope(), SECRET, CLOCK)
    with receiver.serve() as served:
        assert served.url.startswith("http://127.0.0.1:") and served.url.endswith("/hooks")
        answers = [httpx.post(served.url, content=body, headers=headers) for _ in range(2)]
    assert [answer.status_code for answer in answers] == [200, 200]  # a replay, stored once
    with pytest.raises(httpx.ConnectError):
        httpx.post(served.url, content=body, headers=headers)
    assert len(events_frame(db)) == 1


def test_a_port_another_receiver_holds_is_said_so(db: Path, tmp_path: Path) -> None:
    with Receiver(db, SECRET).serve() as first:
        port = int(first.url.rsplit(":", 1)[1].removesuffix("/hooks"))
        second = Receiver(tmp_path / "second.sqlite", SECRET)
        with pytest.raises(InputError, match=f"cannot listen on 127.0.0.1:{port}: .*pass "
                                              "another port, or 0"):
            second.serve(port=port)
        second.close()
