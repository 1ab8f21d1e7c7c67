"""Bad arguments are refused before sending, in the service's own terms.

Each case is what a new user writes; the client refuses it with
``InvalidArgumentError`` naming the argument and the item, and nothing is
sent. The same request sent as it is to the emulator draws the refusal the
client predicted: the same code, pointers and per-field codes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import httpx
import numpy as np
import pandas as pd
import pydantic
import pytest

from conftest import KEYS, write
from dialkit import Client
from dialkit.client._http._arguments import is_missing
from dialkit.errors import ClientClosedError, InvalidArgumentError

from ._recording import RecordingTransport, offline, recording
from .test_leads import UNKNOWN_CAMPAIGN, UNKNOWN_LEAD, campaign_in

FREE = "+14155550100"
WHEN = "2026-11-03T10:00:00Z"


@dataclass(frozen=True)
class Case:
    """A bad call, the same request as JSON, and what its message must name."""

    call: Callable[[Client, str], object]
    method: str
    path: Callable[[str], str]
    body: Any
    names: tuple[str, ...]


def _import(leads: Any, *names: str) -> Case:
    return Case(lambda client, cmp: client.leads.import_batch(cmp, leads), "POST",
                lambda cmp: f"/v1/leads/import?campaign_id={cmp}", {"leads": leads}, names)


CASES: dict[str, Case] = {
    "dnc check of local numbers": Case(
        lambda client, _: client.dnc.check(["415-555-0123", FREE, "+1 (415) 555-0124"]),
        "POST", lambda _: "/v1/dnc/check",
        {"phones": ["415-555-0123", FREE, "+1 (415) 555-0124"]},
        ("phones[0] '415-555-0123' is not E.164 (pass +14155550123 if it is a US number)",
         "phones[2] '+1 (415) 555-0124' is not E.164 (pass +14155550124)", "phonenumbers")),
    "dnc add of a local number": Case(
        lambda client, _: client.dnc.add("415-555-0123"), "POST", lambda _: "/v1/dnc",
        {"phone": "415-555-0123"}, ("phone '415-555-0123' is not E.164 (pass +14155550123",)),
    "import with an extra column": _import(
        [{"phone": FREE, "plan": "gold"}, {"phone": "+14155550101"}],
        "leads[0] has an unknown field 'plan'", "put other columns in custom_fields"),
    "import of no leads": _import([], "leads []", "at least 1"),
    "import of 201 leads": _import([{"phone": FREE}] * 201, "201 leads", "batches of 200"),
    "import of bare numbers": _import([FREE], f"leads[0] {FREE!r}"),
    "create with bad options": Case(
        lambda client, _: client.leads.create(campaign_id="cmp_123", phone=FREE,
                                              dial_within_seconds=5),
        "POST", lambda _: "/v1/leads",
        {"campaign_id": "cmp_123", "phone": FREE, "dial_within_seconds": 5},
        ("campaign_id 'cmp_123'", "'cmp_' followed by", "dial_within_seconds 5")),
    "webhook without a host": Case(
        lambda client, _: client.webhooks.create(url="https://", events=["call.completed"]),
        "POST", lambda _: "/v1/webhooks", {"url": "https://", "events": ["call.completed"]},
        ("url 'https://'",)),
    "callback for a malformed lead id": Case(
        lambda client, _: client.callbacks.create(lead_id="lead_42", scheduled_at=WHEN),
        "POST", lambda _: "/v1/callbacks", {"lead_id": "lead_42", "scheduled_at": WHEN},
        ("lead_id 'lead_42'",)),
}


def verdict(error: InvalidArgumentError) -> tuple[str, list[tuple[str, str]]]:
    """The client's local refusal as the service would put it: code, then pointer/code pairs."""
    return error.code, [(problem.pointer, problem.code) for problem in error.errors]


def answered(response: httpx.Response) -> tuple[str, list[tuple[str, str]]]:
    """The service's refusal: its code, then its errors' pointer/code pairs."""
    assert response.status_code == 400, response.text
    problem = response.json()
    return problem["code"], [(e["pointer"], e["code"]) for e in problem.get("errors", [])]


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_bad_argument_is_refused_as_the_service_would(
        case: Case, client: Client, client_as: Callable[..., Client], api: httpx.Client) -> None:
    draft = campaign_in(client, "draft")
    checked, recorder = recording(client_as)
    with pytest.raises(InvalidArgumentError) as caught:
        case.call(checked, draft)
    assert recorder.requests == []
    error = caught.value
    assert isinstance(error, ValueError) and not isinstance(error, pydantic.ValidationError)
    assert error.__cause__ is None and (error.__suppress_context__ or error.__context__ is None)
    message = str(error)
    assert "Nothing was sent." in message and "should match pattern" not in message
    for name in case.names:
        assert name in message, (name, message)
    assert all(problem.detail in message for problem in error.errors)
    service = write(api, case.path(draft), case.body, method=case.method, key="same-request")
    assert verdict(error) == answered(service)


def test_an_import_shows_five_problems_and_counts_the_rest() -> None:
    leads = [{"phone": f"+1415555{n:04d}", "plan": "gold"} for n in range(100, 130)]
    with pytest.raises(InvalidArgumentError) as caught:
        offline(RecordingTransport()).leads.import_batch(UNKNOWN_CAMPAIGN, leads)
    message = str(caught.value)
    assert len(caught.value.errors) == 30
    assert "leads[4] has an unknown field 'plan'" in message and "leads[5]" not in message
    assert "and 25 more (see .errors)" in message
    assert message.count("A lead's fields are") == 1


@pytest.mark.parametrize(("leads", "says"), [
    (pd.DataFrame({"phone": [FREE]}), "leads is a DataFrame: pass its rows as "
                                       "leads.to_dict('records')"),
    ({"phone": FREE}, "leads is one lead: pass a list of leads, such as [lead]"),
], ids=["a DataFrame", "one lead"])
def test_leads_that_are_not_a_list_say_what_to_pass(leads: Any, says: str) -> None:
    wire = RecordingTransport()
    with pytest.raises(InvalidArgumentError, match="Nothing was sent") as caught:
        offline(wire).leads.import_batch(UNKNOWN_CAMPAIGN, leads)
    assert says in str(caught.value)
    assert wire.requests == []


@pytest.mark.parametrize(("call", "pointer", "named"), [
    (lambda client: client.leads.create(campaign_id=UNKNOWN_CAMPAIGN, phone=FREE,
                                        custom_fields={"seen": {1, 2}}),
     "/custom_fields/seen", "custom_fields.seen is of type set"),
    (lambda client: client.leads.update(UNKNOWN_LEAD, custom_fields={"a": [1, object()]}),
     "/custom_fields/a/1", "custom_fields.a[1] is of type object"),
], ids=["create", "update"])
def test_a_value_json_cannot_carry_is_named(call: Callable[[Client], object], pointer: str,
                                            named: str) -> None:
    wire = RecordingTransport()
    with pytest.raises(InvalidArgumentError) as caught:
        call(offline(wire))
    assert [(e.pointer, e.code) for e in caught.value.errors] == [(pointer, "invalid_type")]
    assert str(caught.value).startswith(named)
    assert wire.requests == []


def test_a_key_shaped_value_is_masked_in_the_error() -> None:
    key = KEYS["full"]
    with pytest.raises(InvalidArgumentError) as caught:
        offline(RecordingTransport()).dnc.check([FREE, key])
    shown = str(caught.value) + repr(caught.value.errors)
    assert key not in shown and key[:-4] not in shown
    assert "phones[1] '…0001' is not E.164" in shown


@pytest.mark.parametrize(("value", "missing"), [
    (None, True), (float("nan"), True), (np.nan, True), (np.float32("nan"), True),
    (pd.NA, True), (pd.NaT, True), (0, False), (0.0, False), ("", False), (False, False),
    ([], False), ({}, False), (pd.Timestamp("2026-01-01"), False), (Decimal("1.5"), False),
], ids=repr)
def test_what_counts_as_an_empty_cell(value: object, missing: bool) -> None:
    assert is_missing(value) is missing


# The closed client. ---------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda client: client.me(),
    lambda client: client.dnc.check([FREE]),
    lambda client: next(client.leads.list()),
    lambda client: client.campaigns.pause(UNKNOWN_CAMPAIGN),
], ids=["me", "dnc.check", "leads.list", "campaigns.pause"])
def test_a_call_on_a_closed_client_raises_client_closed(
        client_as: Callable[..., Client], call: Callable[[Client], object]) -> None:
    client = client_as("full")
    assert client.me()["key"]["mode"] == "test"
    client.close()
    with pytest.raises(ClientClosedError) as caught:
        call(client)
    assert isinstance(caught.value, RuntimeError)
    assert "closed" in str(caught.value) and "dialkit.Client" in str(caught.value)


def test_a_list_started_before_close_raises_client_closed_after(
        client_as: Callable[..., Client]) -> None:
    with client_as("full") as client:
        leads = client.leads.list(limit=1)
        next(leads)
    with pytest.raises(ClientClosedError):
        next(leads)
