"""Texts count toward the caps in the guard, as in the audit (issue 62), over real HTTP.

A text is a call in law (47 CFR 64.1200(e); FCC 04-194) and Florida's cap of three in 24
hours counts it as one: the audit judges each text of ``client.frames.sms_reports()`` as a
call (compliance/_checks/_texts.py), so the guard counts the account's texts with its calls. At the
session emulator's clock (Monday 2026-11-02 15:00 UTC) it is 10:00 in Miami, inside the
hours; the emulator keeps no caps itself, so what the guard lets through is sent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pandas as pd
import pytest

from conftest import KEYS, add_fault, advance, base_config
from dialkit import Client
from dialkit.compliance import audit
from dialkit.contract import Scope
from dialkit.errors import ContactForbiddenError, MalformedResponseError, OutcomeUnknownError
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport
from .test_guard import REASON, ready_agent, sent

MIAMI = "+13055550188"
"""A Florida number no lead of the seeded world holds: 10:00 local at the emulator's now."""


def contact(kind: str, client: Client, sandbox: Sandbox, n: int,
            **options: Any) -> Callable[[], object]:
    """The ``n``-th contact to :data:`MIAMI`: a text, a click-to-call, or a click-to-call
    of a campaign (``campaign call``)."""
    if kind == "text":
        return lambda: client.sms.send(to=MIAMI, body="Your table is ready.",
                                       client_reference=f"fl-{n}", **options)
    if kind == "campaign call":
        options["campaign_id"] = next(iter(client.campaigns.list())).id
    extension = ready_agent(sandbox, client)
    return lambda: client.calls.create(to=MIAMI, agent_extension=extension, **options)


@pytest.mark.parametrize(("before", "fourth"), [
    (("text", "text", "text"), "text"),
    (("text", "text", "text"), "call"),
    (("text", "text", "call"), "text"),
    (("call", "text", "text"), "call"),
    (("campaign call", "text", "text", "text"), "text"),
])
def test_the_fourth_contact_in_a_day_to_a_florida_number_is_refused(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport],
        before: tuple[str, ...], fourth: str) -> None:
    """Three contacts of no campaign, texts among them, and a fourth: refused. A call of a
    campaign is on another subject (Florida counts per subject, the audit per campaign),
    so it does not count, nor does it move the texts' fourth onto its subject."""
    client, wire = recorded_sender
    for n, kind in enumerate(before):
        contact(kind, client, sandbox, n)()
    with pytest.raises(ContactForbiddenError) as refused:
        contact(fourth, client, sandbox, len(before))()
    error = refused.value
    assert (error.rule, error.basis, error.jurisdiction) == ("call_frequency", "law", "US-FL")
    assert error.evidence.startswith("4th call in the 24 hours up to this one")
    assert "on this subject (campaign none)" in error.evidence
    texts = before.count("text")
    assert f"the contacts counted include {texts} texts" in error.evidence, error.evidence
    assert "47 CFR 64.1200(e)" in error.evidence
    assert error.next_allowed_at is not None and error.next_allowed_at > error.at
    assert sent(wire, "POST", "/v1/sms") == texts
    assert sent(wire, "POST", "/v1/calls") == len(before) - texts


def test_the_audit_finds_the_cap_broken_exactly_where_the_guard_refused(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport]) -> None:
    """Two texts and a call let through, the fourth contact refused and then sent with an
    override: the audit of the number's calls and texts finds ``call_frequency`` on that
    fourth contact alone, at the verdict's count (a minute apart: the manual clock would
    give them all one moment, and no order)."""
    client, _ = recorded_sender
    for n, kind in enumerate(("text", "call", "text")):
        contact(kind, client, sandbox, n)()
        advance(sandbox, 60)
    with pytest.raises(ContactForbiddenError) as refused:
        contact("text", client, sandbox, 3)()
    overridden = client.sms.send(to=MIAMI, body="Your table is ready.",
                                 client_reference="fl-3", override=REASON)
    assert client.guard.overrides[-1].verdict is not None
    calls = client.frames.calls(refresh="full")
    texts = client.frames.sms_reports(refresh="full")
    report = audit(calls[calls["to_number"] == MIAMI], texts=texts[texts["to"] == MIAMI],
                   as_of=pd.Timestamp(refused.value.at))
    found = report.findings[report.findings["rule"] == "call_frequency"]
    assert found["call_id"].tolist() == [overridden.id]
    assert found["channel"].tolist() == ["text"]
    assert found["jurisdiction"].tolist() == [refused.value.jurisdiction]
    assert found["calls_in_24h"].tolist() == [4]
    assert report.texts_audited == 3


def test_another_clients_texts_are_read_from_the_delivery_reports(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport]) -> None:
    """Texts sent by another client of the account (a notebook, the dialer's key) are read
    over ``GET /v1/sms/delivery-reports`` as the calls are over ``GET /v1/calls``."""
    client, wire = recorded_sender
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None) as other:
        for n in range(3):
            contact("text", other, sandbox, n)()
    with pytest.raises(ContactForbiddenError) as refused:
        contact("text", client, sandbox, 3)()
    assert refused.value.rule == "call_frequency"
    assert sent(wire, "GET", "/v1/sms/delivery-reports") >= 1
    assert sent(wire, "POST", "/v1/sms") == 0


def test_a_text_whose_answer_was_lost_is_looked_for_at_the_next_contact(
        sandbox: Sandbox, recorded_sender: tuple[Client, RecordingTransport]) -> None:
    """The service stored the third text but its answer was lost (``outcome_unknown``):
    the next contact reads the texts again at once, finds it, and is refused."""
    client, wire = recorded_sender
    for n in range(2):
        contact("text", client, sandbox, n)()
    add_fault(sandbox, path="/v1/sms", method="POST", kind="outcome_unknown", count=1)
    with pytest.raises(OutcomeUnknownError):
        contact("text", client, sandbox, 2)()
    with pytest.raises(ContactForbiddenError) as refused:
        contact("text", client, sandbox, 3)()
    assert refused.value.rule == "call_frequency"
    assert "the contacts counted include 3 texts" in refused.value.evidence
    assert sent(wire, "POST", "/v1/sms") == 3


def _sender_without_sms_read() -> dict[str, Any]:
    """The session emulator's configuration with a sending key whose client may send
    texts but not read their delivery reports (no ``sms:read``)."""
    config = base_config()
    scopes = [s.value for s in Scope if s != Scope.SMS_READ]
    config["accounts"][0]["clients"].append(
        {"name": "blind", "scopes": scopes, "keys": [{"key": BLIND, "sending": True}]})
    return config


BLIND = "svc_test_blindkey1_AAAAbbbbCCCCddddEEEEffff0010"


def test_a_key_without_sms_read_counts_the_texts_it_sent_and_says_what_it_cannot(
        make_sandbox: Callable[..., Sandbox], caplog: pytest.LogCaptureFixture) -> None:
    running = make_sandbox(_sender_without_sms_read())
    wire = RecordingTransport()
    with caplog.at_level(logging.WARNING, logger="dialkit.client.guard"), \
            Client(BLIND, base_url=running.base_url, rate_limit=None,
                   transport=wire) as client:
        for n in range(3):
            contact("text", client, running, n)()
        with pytest.raises(ContactForbiddenError) as refused:
            contact("text", client, running, 3)()
    assert refused.value.rule == "call_frequency"
    assert "the contacts counted include 3 texts" in refused.value.evidence
    assert sent(wire, "POST", "/v1/sms") == 3
    assert sent(wire, "GET", "/v1/sms/delivery-reports") == 1  # refused once, not asked again
    [warning] = [r.getMessage() for r in caplog.records if r.name == "dialkit.client.guard"]
    assert "sms:read" in warning and "other clients" in warning
    assert BLIND[-12:] not in caplog.text


class _ReportsWithoutTo(httpx.HTTPTransport):
    """A service whose delivery reports lack ``to`` (a hostile one, or one whose shape
    changed: the contract shows none), which the emulator cannot be made to answer."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        answer = super().handle_request(request)
        if request.url.path != "/v1/sms/delivery-reports":
            return answer
        body = orjson.loads(answer.read())
        for report in body["data"]:
            report.pop("to", None)
        headers = {k: v for k, v in answer.headers.items()
                   if k.lower() not in ("content-length", "content-encoding")}
        return httpx.Response(answer.status_code, headers=headers, content=orjson.dumps(body))


def test_a_delivery_report_the_guard_cannot_count_is_said_to_be_the_services(
        sandbox: Sandbox) -> None:
    """Never a ``KeyError`` nor pydantic's error: the answer is named as the service's."""
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None) as other:
        contact("text", other, sandbox, 0)()
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                transport=_ReportsWithoutTo()) as client:
        for n in range(1, 3):
            with pytest.raises(MalformedResponseError,
                               match=r"sms.delivery_reports: a delivery report with no 'to'"):
                contact("text", client, sandbox, n)()
