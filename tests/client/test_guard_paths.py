"""The paths around the guard that issue 62 found, in the client, over real HTTP: a
``dial_now`` the service reads as true in any of its spellings, and a DNC answer the
client's own write made stale.

The session emulator's clock stands at 07:00 in San Francisco (before the law's 08:00),
10:00 in New York (tests/client/test_guard.py).
"""

from __future__ import annotations

from datetime import timedelta
from itertools import islice
from pathlib import Path

import phonenumbers
import pytest

from dialkit import Client
from dialkit.errors import ContactForbiddenError

from ._recording import RecordingTransport
from .test_guard import EASTERN, PACIFIC, sent


@pytest.mark.parametrize("dial_now", [True, "true", "True", "yes", "on", "1", 1])
def test_a_dial_now_the_service_reads_as_true_is_judged(
        recorded_sender: tuple[Client, RecordingTransport], dial_now: object) -> None:
    """The service's models are pydantic's, which read these as true: the guard's judgment
    of a tool call's body reads them so too (a dial-now at 07:00 is refused)."""
    client, wire = recorded_sender
    draft = next(iter(client.campaigns.list(status="draft"))).id
    body = {"campaign_id": draft, "phone": PACIFIC, "dial_now": dial_now}
    with pytest.raises(ContactForbiddenError) as refused:
        client.guard.tool("leads.create", {}, body)
    assert refused.value.rule == "calling_hours"
    assert sent(wire, "POST", "/v1/leads") == 0


@pytest.mark.parametrize("dial_now", [False, "false", "no", "off", 0, None, "maybe", [1]])
def test_a_dial_now_the_service_reads_as_false_or_refuses_is_no_contact(
        recorded_sender: tuple[Client, RecordingTransport], dial_now: object) -> None:
    client, _ = recorded_sender
    draft = next(iter(client.campaigns.list(status="draft"))).id
    body = {"campaign_id": draft, "phone": PACIFIC, "dial_now": dial_now}
    assert client.guard.tool("leads.create", {}, body) is False


def test_the_clients_own_dnc_add_is_seen_by_the_next_contact(
        recorded_sender: tuple[Client, RecordingTransport]) -> None:
    """The live DNC answer is kept a minute; the client's own ``dnc.add`` of the number
    drops it, so the next text is refused by the guard and never leaves the client."""
    client, wire = recorded_sender
    client.sms.send(to=EASTERN, body="Your table is ready.", client_reference="stale-1")
    client.dnc.add(EASTERN)
    with pytest.raises(ContactForbiddenError) as refused:
        client.sms.send(to=EASTERN, body="Your table is ready.", client_reference="stale-2")
    assert refused.value.rule == "dnc_call"
    assert sent(wire, "POST", "/v1/sms") == 1


def test_a_consent_recorded_by_the_client_drops_the_numbers_dnc_answer(
        recorded_sender: tuple[Client, RecordingTransport]) -> None:
    """A revocation puts the number on the account's own list: the next contact asks the
    list again rather than trust the answer kept from before it."""
    client, wire = recorded_sender
    client.sms.send(to=EASTERN, body="Your table is ready.", client_reference="consent-1")
    checks = sent(wire, "POST", "/v1/dnc/check")
    client.consents.create(phone=EASTERN, channel="call", granted=False,
                           captured_at="2026-11-02T14:00:00Z", method="verbal")
    client.sms.send(to=EASTERN, body="Your table is ready.", client_reference="consent-2")
    assert sent(wire, "POST", "/v1/dnc/check") == checks + 1


def test_a_refused_callbacks_evidence_dates_the_check_when_it_was_made(
        recorded_sender: tuple[Client, RecordingTransport]) -> None:
    """A callback two days ahead to a number listed now: the live check was made today,
    and the evidence says so, not the callback's day (issue 62)."""
    client, _ = recorded_sender
    lead = next(lead for lead in islice(client.leads.list(status="new"), 200)
                if phonenumbers.region_code_for_number(phonenumbers.parse(lead.phone)) == "US"
                and not client.dnc.check([lead.phone])[0].listed)
    client.dnc.add(lead.phone)
    today = client.guard.now()
    later = today + timedelta(days=2)
    with pytest.raises(ContactForbiddenError) as refused:
        client.callbacks.create(lead_id=lead.id, scheduled_at=later)
    evidence = refused.value.evidence
    assert refused.value.rule == "dnc_call"
    assert f"last check before the call was on {today:%Y-%m-%d}" in evidence, evidence
    assert f"{later:%Y-%m-%d}" not in evidence, evidence


def test_an_appointment_is_booked_unjudged_and_the_docs_say_why(
        recorded_sender: tuple[Client, RecordingTransport]) -> None:
    """A confirmation text confirms a booking: no solicitation, so the guard judges
    neither it nor the appointment's own time (07:00 in San Francisco), and docs/client.md
    says so in the law's words (issue 62)."""
    client, wire = recorded_sender
    assert client.guard.tool("appointments.create", {}, {
        "phone": PACIFIC, "scheduled_at": "2026-11-02T15:00:00Z"}) is False
    assert sent(wire, "POST", "/v1/dnc/check") == 0  # nothing was asked to judge it
    docs = (Path(__file__).resolve().parents[2] / "docs" / "client.md").read_text()
    said = " ".join(docs.split())
    assert "**An appointment is not judged, on purpose** (issue 62)" in said
    for words in ('"for the purpose of encouraging the purchase or rental of, or investment '
                  'in, property, goods, or services"', "47 CFR 64.1200(f)(15)",
                  '"a plan, program, or campaign which is conducted to induce purchases of '
                  'goods or services"', "15 U.S.C. 6106(4)"):
        assert words in said, words
