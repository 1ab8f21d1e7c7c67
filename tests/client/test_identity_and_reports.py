"""``client.me()`` and ``client.reports`` against the emulator, over real HTTP.

Identity is checked for every role of the session emulator; the dispositions
report is checked against the call records the client itself can list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta

import pytest

from conftest import KEYS
from dialkit import ApiData, Client
from dialkit.contract import Scope, Switch
from dialkit.errors import AuthenticationError, PermissionDeniedError, ValidationError

from ._recording import RecordingTransport, recording

TODAY = date(2026, 11, 2)
EVERY_SCOPE = sorted(s.value for s in Scope)
READ_SCOPES = sorted(s for s in EVERY_SCOPE if s.endswith(":read"))
EVERY_SWITCH = sorted(s.value for s in Switch)


@pytest.mark.parametrize(("role", "client_name", "scopes", "mode", "sending"), [
    ("full", "full", EVERY_SCOPE, "test", False),
    ("full_live", "full", EVERY_SCOPE, "live", False),
    ("sending", "full", EVERY_SCOPE, "test", True),
    ("reader", "reader", READ_SCOPES, "test", False),
    ("noscope", "noscope", [], "test", False),
])
def test_me_tells_account_client_and_key(client_as: Callable[..., Client], role: str,
                                         client_name: str, scopes: list[str], mode: str,
                                         sending: bool) -> None:
    me = client_as(role).me()
    assert isinstance(me, ApiData)
    assert me.request_id is not None and me.request_id.startswith("req_")
    assert me["account"] == {"name": "acme", "switches": EVERY_SWITCH, "webhooks_enabled": True,
                             "sandbox_enabled": True}
    assert me["client"]["name"] == client_name
    assert me["client"]["id"].startswith("cli_")
    assert sorted(me["client"]["scopes"]) == scopes
    assert me["key"] == {"credential_id": KEYS[role].split("_")[2], "mode": mode,
                         "sending": sending}


def test_me_of_another_account(client_as: Callable[..., Client]) -> None:
    me = client_as("noswitch").me()
    assert (me["account"]["name"], me["account"]["switches"]) == ("noswitch", [])
    assert me["client"]["id"] != client_as("full").me()["client"]["id"]


def test_a_key_without_scopes_can_only_ask_who_it_is(client_as: Callable[..., Client]) -> None:
    client = client_as("noscope")
    assert client.me()["client"]["scopes"] == []
    with pytest.raises(PermissionDeniedError) as caught:
        next(client.leads.list())
    assert (caught.value.status, caught.value.code) == (403, "insufficient_scope")
    assert caught.value.request_id is not None and caught.value.request_id.startswith("req_")


@pytest.mark.parametrize("role", ["revoked", "nosandbox"])
def test_a_refused_key_is_an_authentication_error_and_not_retried(
        client_as: Callable[..., Client], role: str) -> None:
    recorder = RecordingTransport()
    client = client_as(role, transport=recorder, max_retries=5)
    with pytest.raises(AuthenticationError) as caught:
        client.me()
    assert (caught.value.status, caught.value.code) == (401, "invalid_api_key")
    assert KEYS[role] not in str(caught.value)
    assert len(recorder.requests) == 1


def calls_by_disposition(client: Client, campaign_id: str, first: date,
                         last: date) -> Counter[str]:
    """Dispositions of the campaign's calls created from ``first`` to ``last`` (UTC, inclusive)."""
    return Counter(call.disposition for call in client.calls.list(campaign_id=campaign_id)
                   if call.disposition is not None
                   and first <= call.created_at.date() <= last)


def test_dispositions_of_a_campaign_count_its_calls(client: Client) -> None:
    first, last = date(2026, 10, 20), date(2026, 10, 26)
    counted = {c.id: calls_by_disposition(client, c.id, first, last)
               for c in client.campaigns.list()}
    campaign_id, expected = max(counted.items(), key=lambda item: item[1].total())
    assert expected.total() > 0, "the seeded world has no calls in the window"

    report = client.reports.dispositions(from_=first, to=last, campaign_id=campaign_id)

    assert isinstance(report, ApiData)
    assert report.request_id is not None and report.request_id.startswith("req_")
    assert (report["from"], report["to"], report["campaign_id"]) == (
        "2026-10-20", "2026-10-26", campaign_id)
    assert {row["disposition_code"]: row["count"] for row in report["data"]} == expected
    assert report["total"] == sum(row["count"] for row in report["data"]) == expected.total()
    counts = [row["count"] for row in report["data"]]
    assert counts == sorted(counts, reverse=True)


def test_dispositions_of_the_account_add_up_over_campaigns(client: Client) -> None:
    whole = client.reports.dispositions(from_=date(2026, 10, 1), to=TODAY)
    assert whole["total"] == sum(row["count"] for row in whole["data"]) > 0
    parts = [client.reports.dispositions(from_=date(2026, 10, 1), to=TODAY, campaign_id=c.id)
             for c in client.campaigns.list()]
    assert 0 < sum(p["total"] for p in parts) <= whole["total"]


def test_dispositions_default_to_the_last_seven_days(client: Client) -> None:
    report = client.reports.dispositions()
    assert (report["from"], report["to"], report["campaign_id"]) == (
        "2026-10-27", "2026-11-02", None)


@pytest.mark.parametrize(("first", "last"), [
    (TODAY, TODAY - timedelta(days=1)),  # inverted
    (TODAY - timedelta(days=92), TODAY),  # 93 days
    (date(2025, 1, 1), TODAY),
])
def test_a_bad_date_range_is_refused_before_sending(client_as: Callable[..., Client],
                                                    first: date, last: date) -> None:
    client, recorder = recording(client_as)
    with pytest.raises(ValueError, match=r"from_|92 days"):
        client.reports.dispositions(from_=first, to=last)
    assert recorder.requests == []


def test_the_longest_range_is_sent(client_as: Callable[..., Client]) -> None:
    client, recorder = recording(client_as)
    report = client.reports.dispositions(from_=TODAY - timedelta(days=91), to=TODAY)
    assert (report["from"], report["to"]) == ("2026-08-03", "2026-11-02")
    [request] = recorder.requests
    assert dict(request.url.params) == {"from": "2026-08-03", "to": "2026-11-02"}


def test_string_dates_are_passed_to_the_service(client_as: Callable[..., Client]) -> None:
    client, recorder = recording(client_as)
    report = client.reports.dispositions(from_="2026-10-30", to="2026-11-01")
    assert (report["from"], report["to"]) == ("2026-10-30", "2026-11-01")
    assert dict(recorder.requests[0].url.params) == {"from": "2026-10-30", "to": "2026-11-01"}


@pytest.mark.parametrize(("arguments", "code"), [
    ({"from_": "2026-01-01", "to": "2026-11-02"}, "range_too_long"),
    ({"from_": "2026-01-01"}, "range_too_long"),  # to defaults to today at the service
    ({"from_": "2026-11-02", "to": "2026-11-01"}, "before_from"),
])
def test_a_bad_string_range_is_refused_by_the_service(client_as: Callable[..., Client],
                                                      arguments: dict[str, str],
                                                      code: str) -> None:
    client, recorder = recording(client_as)
    with pytest.raises(ValidationError) as caught:
        client.reports.dispositions(**arguments)
    assert (caught.value.status, caught.value.code) == (400, "validation_failed")
    assert [(e.pointer, e.code) for e in caught.value.errors] == [("/query/to", code)]
    assert len(recorder.requests) == 1


def test_reports_need_their_scope(client_as: Callable[..., Client]) -> None:
    assert client_as("reader").reports.dispositions()["total"] > 0
    with pytest.raises(PermissionDeniedError) as caught:
        client_as("noscope").reports.dispositions()
    assert caught.value.code == "insufficient_scope"

