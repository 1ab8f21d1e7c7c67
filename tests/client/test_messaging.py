"""``client.sms`` and ``client.whatsapp`` against the emulator, over real HTTP.

Sending needs the ``sending`` key (made by the guided sending setup); its data
set is the ``full`` client's, so ``client`` sees what ``sender`` sent. Every
test starts at 15:00 UTC, 10:00 in New York, inside calling hours for
``EASTERN``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from conftest import advance, service_time
from dialkit import ApiData, Client, ListIterator
from dialkit.contract import SmsMessage, id_pattern
from dialkit.errors import (
    ConflictError,
    InvalidArgumentError,
    PermissionDeniedError,
    ValidationError,
)
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport

EASTERN = "+12125550142"
"""New York: 10:00 local at the emulator's start."""

KP = "+8501921234567"
SERVICE_REFUSAL = "the service's own refusal is what is tested"
"""The override of the client's guard (issue 50) by tests of what the service refuses."""
"""A valid number in a country the account blocks."""


@pytest.fixture
def sender(client_as: Callable[..., Client]) -> Client:
    """A client with the sending key of the ``full`` API client."""
    return client_as("sending")


def iso(moment: datetime) -> str:
    """A timestamp as the emulator writes it."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def send(client: Client, reference: str, to: str = EASTERN, text: str = "Your table is ready.",
         **options: Any) -> SmsMessage:
    """Send one SMS."""
    return client.sms.send(to=to, body=text, client_reference=reference, **options)


def test_send_accepts_a_message_as_queued(sender: Client, sandbox: Sandbox) -> None:
    message = send(sender, "order-1")
    assert isinstance(message, SmsMessage)
    assert re.fullmatch(id_pattern("msg_"), message.id)
    assert (message.to, message.status, message.client_reference) == (EASTERN, "queued",
                                                                      "order-1")
    assert message.created_at == service_time(sandbox)
    assert message.request_id is not None and message.request_id.startswith("req_")
    assert message.replayed is False


def test_send_with_the_same_key_is_replayed_not_sent_again(sender: Client) -> None:
    first = send(sender, "order-2", idempotency_key="sms-1")
    again = send(sender, "order-2", idempotency_key="sms-1")
    assert again.replayed is True
    assert again.model_dump() == first.model_dump()
    assert [r["message_id"] for r in sender.sms.delivery_reports()] == [first.id]


def test_a_repeated_client_reference_is_a_conflict_and_not_retried(
        client_as: Callable[..., Client]) -> None:
    recorder = RecordingTransport()
    sender = client_as("sending", transport=recorder, max_retries=5)
    first = send(sender, "order-3")
    recorder.requests.clear()
    with pytest.raises(ConflictError) as caught:
        send(sender, "order-3", text="Another text")
    assert (caught.value.status, caught.value.code) == (409, "duplicate_client_reference")
    sent = [r for r in recorder.requests if r.url.path == "/v1/sms"]  # the guard reads too
    assert len(sent) == 1
    assert [r["message_id"] for r in sender.sms.delivery_reports()] == [first.id]


def test_a_number_on_the_dnc_list_is_refused(sender: Client, client: Client) -> None:
    listed = next(lead.phone for lead in client.leads.list(status="dnc"))
    with pytest.raises(ValidationError) as caught:  # the service's refusal, past the guard
        send(sender, "dnc-1", to=listed, override=SERVICE_REFUSAL)
    assert (caught.value.status, caught.value.code) == (422, "on_dnc")
    client.dnc.add(EASTERN)
    with pytest.raises(ValidationError) as caught:
        send(sender, "dnc-2", override=SERVICE_REFUSAL)
    assert (caught.value.status, caught.value.code) == (422, "on_dnc")
    assert list(sender.sms.delivery_reports()) == []


def test_a_blocked_country_is_refused(sender: Client) -> None:
    with pytest.raises(ValidationError) as caught:
        send(sender, "kp-1", to=KP, override=SERVICE_REFUSAL)  # no law of KP is held
    assert (caught.value.status, caught.value.code) == (422, "blocked_country")


def test_withdrawn_consent_is_refused_with_its_reason(sender: Client, client: Client) -> None:
    client.consents.create(phone=EASTERN, channel="sms", granted=False,
                           captured_at="2026-10-20T10:00:00Z", method="verbal")
    with pytest.raises(ValidationError) as caught:
        send(sender, "consent-1")
    assert (caught.value.status, caught.value.code) == (422, "message_refused")
    assert [(e.pointer, e.code) for e in caught.value.errors] == [("/to", "no_consent")]


@pytest.mark.parametrize(("role", "code"), [
    ("full", "tier_not_enabled"),  # not a sending key
    ("noswitch", "tier_not_enabled"),
    ("reader", "insufficient_scope"),
])
def test_send_needs_scope_switch_and_a_sending_key(client_as: Callable[..., Client], role: str,
                                                   code: str) -> None:
    with pytest.raises(PermissionDeniedError) as caught:
        send(client_as(role), "role-1")
    assert (caught.value.status, caught.value.code) == (403, code)


@pytest.mark.parametrize("fields", [
    {"to": "2125550142"},
    {"to": "+1 212 555 0142"},
    {"body": ""},
    {"body": "x" * 919},
    {"client_reference": ""},
    {"client_reference": "r" * 65},
])
def test_bad_arguments_are_refused_before_sending(client_as: Callable[..., Client],
                                                  fields: dict[str, str]) -> None:
    recorder = RecordingTransport()
    sender = client_as("sending", transport=recorder)
    arguments = {"to": EASTERN, "body": "Hello", "client_reference": "bad-1", **fields}
    with pytest.raises(InvalidArgumentError) as caught:
        sender.sms.send(**arguments)
    (name,) = fields
    assert [e.pointer for e in caught.value.errors] == [f"/{name}"]
    assert str(caught.value).startswith(name)
    assert recorder.requests == []


def test_delivery_reports_list_every_message_newest_first(
        client_as: Callable[..., Client], sandbox: Sandbox) -> None:
    recorder = RecordingTransport()
    sender = client_as("sending", transport=recorder)
    sent = []
    for n in range(3):
        sent.append(send(sender, f"report-{n}", text="x" * (150 + 10 * n)))
        advance(sandbox, 1)
    recorder.requests.clear()
    reports = sender.sms.delivery_reports(limit=2)
    assert isinstance(reports, ListIterator)
    assert recorder.requests == []  # lazy: nothing is fetched before iteration
    items = list(reports)
    assert len(recorder.requests) == 2
    assert all(isinstance(r, ApiData) for r in items)
    assert [r["message_id"] for r in items] == [m.id for m in reversed(sent)]
    assert [r["segments"] for r in items] == [2, 1, 1]
    ids = [r.request_id for r in items]
    assert all(i is not None and i.startswith("req_") for i in ids)
    assert ids[0] == ids[1] != ids[2]  # one request id per page
    assert items[2] == {  # 3 s old: sent 1 s after acceptance, delivered after 5 s
        "message_id": sent[0].id, "to": EASTERN, "status": "sent", "error_code": None,
        "client_reference": "report-0", "segments": 1, "estimated_cost": 0.01,
        "created_at": iso(sent[0].created_at),
        "updated_at": iso(sent[0].created_at + timedelta(seconds=1))}


def test_delivery_reports_filter_by_client_reference(sender: Client) -> None:
    messages = [send(sender, reference) for reference in ("alpha", "beta", "gamma")]
    [only] = sender.sms.delivery_reports(client_reference="beta")
    assert (only["message_id"], only["client_reference"]) == (messages[1].id, "beta")
    assert only.request_id is not None
    assert list(sender.sms.delivery_reports(client_reference="delta")) == []


def test_delivery_status_moves_on_with_the_clock(sender: Client, sandbox: Sandbox) -> None:
    ok = send(sender, "status-ok")
    failing = send(sender, "status-failing", to="+12125550999")

    def states() -> dict[str, tuple[str, str | None]]:
        return {r["message_id"]: (r["status"], r["error_code"])
                for r in sender.sms.delivery_reports()}

    assert states() == {ok.id: ("queued", None), failing.id: ("queued", None)}
    advance(sandbox, 5)
    assert states() == {ok.id: ("delivered", None), failing.id: ("failed", "unreachable")}


def test_usage_counts_what_was_sent(sender: Client, sandbox: Sandbox) -> None:
    before = sender.sms.usage()
    assert before["today"]["messages"] == 0
    send(sender, "usage-1", text="x" * 200)
    send(sender, "usage-2")
    usage = sender.sms.usage()
    assert isinstance(usage, ApiData)
    assert usage.request_id is not None and usage.request_id != before.request_id
    assert usage["as_of"] == iso(service_time(sandbox))
    assert usage["today"] == {"since": "2026-11-02T00:00:00.000Z", "messages": 2, "segments": 3,
                              "estimated_spend": 0.03}
    assert usage["month"]["messages"] == 2
    assert (usage["caps"]["key_sent_today"], usage["caps"]["account_sent_today"]) == (2, 2)


@pytest.mark.parametrize(("role", "code"), [
    ("full", "tier_not_enabled"),
    ("sending", "tier_not_enabled"),
    ("reader", "insufficient_scope"),
])
def test_whatsapp_is_not_enabled(client_as: Callable[..., Client], role: str, code: str) -> None:
    recorder = RecordingTransport()
    client = client_as(role, transport=recorder, max_retries=5)
    with pytest.raises(PermissionDeniedError) as caught:
        client.whatsapp.send(to=EASTERN, text="Hello")
    assert (caught.value.status, caught.value.code) == (403, code)
    [request] = recorder.requests
    assert (request.url.path, request.read()) == ("/v1/whatsapp/messages",
                                                  b'{"to":"+12125550142","text":"Hello"}')
