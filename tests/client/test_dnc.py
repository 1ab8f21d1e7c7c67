"""``client.dnc`` and ``client.consents`` against the emulator, over real HTTP.

Listed numbers come from the seeded leads whose status is ``dnc`` (every one of
them is on the account's list); the expected answers are read from the
emulator's own DNC table. Requests are counted with a recording transport.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import orjson
import pytest

from conftest import service_time
from dialkit import ApiData, Client
from dialkit.contract import DNC_CHECK_BATCH, DncCheckResult, id_pattern
from dialkit.errors import InvalidArgumentError, PermissionDeniedError, ValidationError
from dialkit.sandbox import Sandbox

from ._recording import recording

FREE = "+12125550142"
"""A valid number on no DNC list of the seeded world."""

NOT_A_NUMBER = "+1555"
"""Matches the E.164 pattern but is no valid number: only the service can tell."""


def held(sandbox: Sandbox, *datasets: str) -> set[str]:
    """The numbers the emulator holds on the DNC lists of ``datasets``."""
    marks = ", ".join("?" * len(datasets))
    rows = sandbox.service.store.rows(f"SELECT phone FROM dnc WHERE dataset IN ({marks})",
                                      datasets)
    return {row["phone"] for row in rows}


def dnc_lead_phones(client: Client) -> list[str]:
    """Phones of the seeded leads whose status is ``dnc``."""
    phones = sorted({lead.phone for lead in client.leads.list(status="dnc")})
    assert len(phones) >= 50, "the seeded world has too few dnc leads for these tests"
    return phones


def stamp(moment: datetime) -> str:
    """A service timestamp as the emulator writes it."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def test_check_of_250_numbers_answers_in_input_order_in_three_requests(
        client_as: Callable[..., Client], sandbox: Sandbox) -> None:
    client, recorder = recording(client_as)
    listed = dnc_lead_phones(client)
    phones = [f"+1212555{line:04d}" for line in range(1000, 1250)]
    for n in range(50):  # every fifth number is a listed one
        phones[5 * n + 2] = listed[n]
    recorder.requests.clear()

    results = client.dnc.check(phones)

    truth = held(sandbox, "seed:acme", "client:acme/full")
    assert [(r.phone, r.listed) for r in results] == [(p, p in truth) for p in phones]
    assert sum(r.listed for r in results) == 50
    assert all(isinstance(r, DncCheckResult) for r in results)
    sent = [orjson.loads(r.content)["phones"] for r in recorder.requests]
    assert [(r.method, r.url.path) for r in recorder.requests] == [("POST", "/v1/dnc/check")] * 3
    assert sent == [phones[:100], phones[100:200], phones[200:]]
    batches = [{r.request_id for r in results[i:i + DNC_CHECK_BATCH]} for i in (0, 100, 200)]
    assert all(len(ids) == 1 for ids in batches)
    ids = [ids.pop() for ids in batches]
    assert len(set(ids)) == 3
    assert all(i is not None and i.startswith("req_") for i in ids)


def test_check_of_nothing_sends_nothing(client_as: Callable[..., Client]) -> None:
    client, recorder = recording(client_as)
    assert client.dnc.check([]) == []
    assert client.dnc.check(iter(())) == []
    assert recorder.requests == []


def test_check_takes_any_iterable(client: Client) -> None:
    results = client.dnc.check(p for p in (FREE, FREE))
    assert [(r.phone, r.listed) for r in results] == [(FREE, False), (FREE, False)]


@pytest.mark.parametrize(("position", "bad"), [
    (0, "2125550142"),  # no leading +
    (99, "+0212555014"),  # leading zero
    (100, ""),
    (249, "+1 212 555 0142"),  # spaces: not E.164 as sent
])
def test_check_refuses_a_bad_number_before_sending(client_as: Callable[..., Client],
                                                   position: int, bad: str) -> None:
    client, recorder = recording(client_as)
    phones = [f"+1212555{line:04d}" for line in range(1000, 1250)]
    phones[position] = bad
    with pytest.raises(InvalidArgumentError) as caught:
        client.dnc.check(phones)
    assert isinstance(caught.value, ValueError)
    assert [(e.pointer, e.code) for e in caught.value.errors] == [
        (f"/phones/{position}", "invalid_format")]
    assert f"phones[{position}] {bad!r}" in str(caught.value)
    assert recorder.requests == []


def test_a_number_only_the_service_knows_is_invalid(client: Client) -> None:
    with pytest.raises(ValidationError) as caught:
        client.dnc.check([FREE, NOT_A_NUMBER])
    assert (caught.value.status, caught.value.code) == (400, "validation_failed")
    assert [(e.pointer, e.code) for e in caught.value.errors] == [("/phones/1", "invalid_phone")]


def test_add_lists_a_number_for_this_client_only(client: Client, client_as: Callable[..., Client],
                                                 sandbox: Sandbox) -> None:
    assert [r.listed for r in client.dnc.check([FREE])] == [False]
    entry = client.dnc.add(FREE)
    assert isinstance(entry, ApiData)
    assert entry == {"phone": FREE, "listed": True, "added_at": stamp(service_time(sandbox)),
                     "source": "api"}
    assert entry.request_id is not None and entry.request_id.startswith("req_")
    assert [r.listed for r in client.dnc.check([FREE])] == [True]
    assert FREE in held(sandbox, "client:acme/full")
    assert [r.listed for r in client_as("other").dnc.check([FREE])] == [False]


def test_add_of_a_listed_number_answers_the_existing_entry(client: Client,
                                                           sandbox: Sandbox) -> None:
    first = client.dnc.add(FREE, idempotency_key="add-1")
    again = client.dnc.add(FREE, idempotency_key="add-1")
    assert (again, again.replayed, first.replayed) == (first, True, False)
    httpx.post(sandbox.base_url + "/_sandbox/clock", headers=sandbox.admin_headers,
               json={"advance_seconds": 60}).raise_for_status()
    later = client.dnc.add(FREE)
    assert (later, later.replayed) == (first, False)
    seeded = dnc_lead_phones(client)[0]
    assert client.dnc.add(seeded)["listed"] is True


def test_add_refuses_a_bad_number_before_sending(client_as: Callable[..., Client]) -> None:
    client, recorder = recording(client_as)
    with pytest.raises(InvalidArgumentError, match=r"phone '2125550142' is not E.164 \(pass "
                       r"\+12125550142") as caught:
        client.dnc.add("2125550142")
    assert [(e.pointer, e.code) for e in caught.value.errors] == [("/phone", "invalid_format")]
    assert recorder.requests == []


@pytest.mark.parametrize(("operation", "role", "code"), [
    (lambda c: c.dnc.check([FREE]), "reader", "insufficient_scope"),
    (lambda c: c.dnc.add(FREE), "reader", "insufficient_scope"),
    (lambda c: c.dnc.check([FREE]), "noscope", "insufficient_scope"),
    (lambda c: consent(c), "reader", "insufficient_scope"),
    (lambda c: consent(c), "noswitch", "tier_not_enabled"),
], ids=["check-reader", "add-reader", "check-noscope", "consent-reader", "consent-noswitch"])
def test_operations_need_their_scope_and_switch(client_as: Callable[..., Client],
                                                operation: Callable[[Client], object], role: str,
                                                code: str) -> None:
    with pytest.raises(PermissionDeniedError) as caught:
        operation(client_as(role))
    assert (caught.value.status, caught.value.code) == (403, code)


def consent(client: Client, **changes: Any) -> ApiData:
    """Record an SMS consent for ``FREE`` (fields overridden by ``changes``)."""
    fields: dict[str, Any] = {
        "phone": FREE, "channel": "sms", "granted": True,
        "captured_at": datetime(2026, 11, 1, 9, 30, tzinfo=UTC), "method": "web_form",
        **changes}
    return client.consents.create(**fields)


def test_consent_is_recorded(client: Client, sandbox: Sandbox) -> None:
    record = consent(client, evidence_url="https://example.com/forms/42", text="Yes, text me")
    assert isinstance(record, ApiData)
    assert re.fullmatch(id_pattern("cns_"), record["id"])
    assert record.request_id is not None
    assert {k: v for k, v in record.items() if k != "id"} == {
        "phone": FREE, "channel": "sms", "granted": True,
        "captured_at": "2026-11-01T09:30:00.000Z", "method": "web_form",
        "evidence_url": "https://example.com/forms/42", "text": "Yes, text me",
        "created_at": stamp(service_time(sandbox))}


def test_consent_drops_fields_given_as_none(client: Client) -> None:
    record = consent(client, granted=False, channel="call", method="verbal", evidence_url=None,
                     text=None, captured_at="2026-10-30T08:00:00+01:00")
    assert (record["granted"], record["channel"], record["method"]) == (False, "call", "verbal")
    assert (record["evidence_url"], record["text"]) == (None, None)
    assert record["captured_at"] == "2026-10-30T07:00:00.000Z"


def test_consent_is_replayed_for_the_same_key(client: Client) -> None:
    first = consent(client, idempotency_key="consent-1")
    again = consent(client, idempotency_key="consent-1")
    assert (again, again.replayed) == (first, True)
    assert consent(client)["id"] != first["id"]


@pytest.mark.parametrize(("changes", "pointer", "code"), [
    ({"captured_at": datetime(2027, 1, 1, tzinfo=UTC)}, "/captured_at", "in_future"),
    ({"channel": "email"}, "/channel", "invalid"),
    ({"signature": "x"}, "/signature", "unknown_field"),
])
def test_consent_fields_are_checked_by_the_service(client: Client, changes: dict[str, Any],
                                                   pointer: str, code: str) -> None:
    with pytest.raises(ValidationError) as caught:
        consent(client, **changes)
    assert (caught.value.status, caught.value.code) == (400, "validation_failed")
    assert [(e.pointer, e.code) for e in caught.value.errors] == [(pointer, code)]


def test_a_consent_captured_just_now_is_accepted(client: Client, sandbox: Sandbox) -> None:
    now = service_time(sandbox)
    record = consent(client, captured_at=now + timedelta(seconds=299))
    assert record["captured_at"] == stamp(now + timedelta(seconds=299))
