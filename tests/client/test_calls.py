"""``client.calls`` against the emulator: list, get, click-to-call, recording, transcript, summary.

Calls with a given property (answered, unanswered, a sale) and agents in a
given state are picked from the emulator's store, as the emulator tests do;
everything else goes through the client. Click-to-calls need the sending key
(``client_as("sending")``), which answers from the ``full`` client's data set.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import add_fault, service_time
from dialkit import Client
from dialkit.contract import Call, CallSummary, StartedCall
from dialkit.errors import (
    ApiConnectionError,
    ApiError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    ValidationError,
)
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport

UNKNOWN = "call_00000000-0000-4000-8000-000000000000"
DATASET = "client:acme/full"
"""The data set of the ``full`` client, whose keys include the sending key."""
EASTERN = "+12125550142"
"""New York: 10:00 local at the emulator's start (15:00 UTC), inside calling hours."""
TOKYO = "+81312345678"
"""Tokyo: midnight local at the emulator's start, outside calling hours."""
IRAN = "+989121234567"
"""A valid number of a country the account blocks."""
RECORDING = "/v1/calls/*/recording"


def seeded_call(sandbox: Sandbox, condition: str) -> str:
    """The id of a seeded call that meets an SQL ``condition``."""
    row = sandbox.service.store.row(
        f"SELECT id FROM calls WHERE dataset = 'seed:acme' AND {condition} "
        "ORDER BY duration_seconds, id LIMIT 1")
    assert row is not None, f"the seeded world has a call with {condition}"
    return str(row["id"])


def answered_call(sandbox: Sandbox) -> str:
    """A short seeded call that was answered and recorded."""
    return seeded_call(sandbox, "answered_at IS NOT NULL AND recording = 1 "
                                "AND duration_seconds > 20")


def agent_in(sandbox: Sandbox, client: Client, state: str) -> str:
    """The extension of an agent of the ``full`` client's data set in ``state``."""
    client.me()  # the data set is copied from the seeded world on the client's first request
    row = sandbox.service.store.row(
        "SELECT extension FROM agents WHERE dataset = ? AND state = ? ORDER BY extension",
        (DATASET, state))
    assert row is not None, f"the seeded world has an agent who is {state}"
    return str(row["extension"])


def agent_email(sandbox: Sandbox, extension: str) -> str:
    """The email of the ``full`` client's agent with ``extension``."""
    row = sandbox.service.store.row(
        "SELECT email FROM agents WHERE dataset = ? AND extension = ?", (DATASET, extension))
    assert row is not None
    return str(row["email"])


def first_caller_id(sandbox: Sandbox) -> str:
    """The account's first verified caller id, the one used when none is given."""
    row = sandbox.service.store.row(
        "SELECT phone FROM caller_ids WHERE dataset = 'seed:acme' ORDER BY phone")
    assert row is not None
    return str(row["phone"])


def nothing_dialled(client: Client) -> bool:
    """Whether no click-to-call was placed: seeded calls never have status ``dialing``."""
    return next(client.calls.list(limit=1)).status != "dialing"


def raw_recording(api: httpx.Client, call_id: str) -> bytes:
    """The recording as a plain httpx GET answers it."""
    response = api.get(f"/v1/calls/{call_id}/recording")
    assert response.status_code == 200, response.text
    return response.content


# --- list and get ------------------------------------------------------------------------


@pytest.mark.parametrize("direction", ["inbound", "outbound"])
def test_list_filters_by_direction_newest_first(client: Client, sandbox: Sandbox,
                                                direction: str) -> None:
    listed = list(islice(client.calls.list(direction=direction), 250))
    assert all(isinstance(call, Call) for call in listed)
    assert {call.direction for call in listed} == {direction}
    rows = sandbox.service.store.rows(
        "SELECT id FROM calls WHERE dataset = 'seed:acme' AND direction = ? "
        "ORDER BY created_at DESC, id DESC LIMIT 250", (direction,))
    assert [call.id for call in listed] == [row["id"] for row in rows]


def test_list_filters_by_campaign_and_direction(client: Client, sandbox: Sandbox) -> None:
    campaign_id = next(iter(client.campaigns.list(status="paused"))).id
    listed = list(client.calls.list(campaign_id=campaign_id))
    assert {call.campaign_id for call in listed} == {campaign_id}
    stored = sandbox.service.store.rows(
        "SELECT id FROM calls WHERE dataset = 'seed:acme' AND campaign_id = ?", (campaign_id,))
    assert sorted(call.id for call in listed) == sorted(row["id"] for row in stored)
    outbound = list(client.calls.list(campaign_id=campaign_id, direction="outbound"))
    assert outbound and [c.id for c in outbound] == [c.id for c in listed
                                                     if c.direction == "outbound"]


def test_list_of_a_campaign_without_calls_is_empty(client: Client) -> None:
    draft = next(iter(client.campaigns.list(status="draft"))).id
    pages = list(client.calls.list(campaign_id=draft).pages())
    assert len(pages) == 1 and pages[0].data == []
    assert (pages[0].page.has_more, pages[0].page.next_cursor) == (False, None)


def test_get_answers_the_listed_call(client: Client) -> None:
    for listed in islice(client.calls.list(), 5):
        call = client.calls.get(listed.id)
        assert call.model_dump() == listed.model_dump()
        assert call.request_id is not None


@pytest.mark.parametrize("read", ["get", "transcript", "summary"])
def test_reads_of_an_unknown_call_are_not_found(client: Client, read: str) -> None:
    with pytest.raises(NotFoundError) as raised:
        getattr(client.calls, read)(UNKNOWN)
    assert (raised.value.status, raised.value.code) == (404, "not_found")


# --- click-to-call -----------------------------------------------------------------------


def test_create_starts_a_call_for_a_ready_agent(client: Client, sandbox: Sandbox,
                                                client_as: Callable[..., Client]) -> None:
    extension = agent_in(sandbox, client, "ready")
    started = client_as("sending").calls.create(to=EASTERN, agent_extension=extension)
    assert isinstance(started, StartedCall)
    assert (started.status, started.to, started.agent_extension, started.caller_id,
            started.campaign_id, started.lead_id, started.recording) == (
        "dialing", EASTERN, extension, first_caller_id(sandbox), None, None, True)
    assert started.created_at == service_time(sandbox)
    assert started.call_id is not None and started.request_id is not None
    call = client.calls.get(started.call_id)
    assert (call.direction, call.status, call.to_number, call.from_number) == (
        "outbound", "dialing", EASTERN, started.caller_id)
    assert next(client.calls.list()).id == started.call_id


def test_create_names_the_agent_by_email_and_keeps_references(
        client: Client, sandbox: Sandbox, client_as: Callable[..., Client]) -> None:
    extension = agent_in(sandbox, client, "ready")
    lead = next(client.leads.list(status="new"))
    assert lead.campaign_id is not None
    started = client_as("sending").calls.create(
        to=EASTERN, agent_email=agent_email(sandbox, extension).upper(),
        campaign_id=lead.campaign_id, lead_id=lead.id)
    assert (started.agent_extension, started.campaign_id, started.lead_id) == (
        extension, lead.campaign_id, lead.id)


def test_an_agent_who_is_not_ready_is_unavailable(client: Client, sandbox: Sandbox,
                                                  client_as: Callable[..., Client]) -> None:
    sender = client_as("sending")
    for state in ("on_call", "wrap_up", "break", "signed_out"):
        extension = agent_in(sandbox, client, state)
        with pytest.raises(ConflictError) as raised:
            sender.calls.create(to=EASTERN, agent_extension=extension)
        assert (raised.value.status, raised.value.code) == (409, "agent_unavailable"), state
    with pytest.raises(ConflictError):
        sender.calls.create(to=EASTERN, agent_extension="no-such-extension")
    assert nothing_dialled(client)


def test_an_agent_held_for_a_call_is_unavailable(client: Client, sandbox: Sandbox,
                                                 client_as: Callable[..., Client]) -> None:
    sender = client_as("sending")
    extension = agent_in(sandbox, client, "ready")
    first = sender.calls.create(to=EASTERN, agent_extension=extension)
    with pytest.raises(ConflictError) as raised:
        sender.calls.create(to=EASTERN, agent_extension=extension)
    assert raised.value.code == "agent_unavailable"
    assert next(client.calls.list()).id == first.call_id


def test_the_same_key_replays_the_started_call(client: Client, sandbox: Sandbox,
                                               client_as: Callable[..., Client]) -> None:
    sender = client_as("sending")
    extension = agent_in(sandbox, client, "ready")
    first = sender.calls.create(to=EASTERN, agent_extension=extension, idempotency_key="c-1")
    again = sender.calls.create(to=EASTERN, agent_extension=extension, idempotency_key="c-1")
    assert (first.replayed, again.replayed) == (False, True)
    assert again.model_dump() == first.model_dump()
    assert [c.status for c in islice(client.calls.list(), 2)].count("dialing") == 1


@pytest.mark.parametrize(("to", "caller_id", "code", "field_code"), [
    ("dnc", None, "on_dnc", None),
    (IRAN, None, "blocked_country", None),
    (TOKYO, None, "dial_refused", "calling_hours"),
    (EASTERN, "+12125550199", "dial_refused", "caller_id_not_registered"),
])
def test_compliance_refusals_are_validation_errors(
        client: Client, sandbox: Sandbox, client_as: Callable[..., Client], to: str,
        caller_id: str | None, code: str, field_code: str | None) -> None:
    if to == "dnc":
        row = sandbox.service.store.row("SELECT phone FROM dnc WHERE dataset = 'seed:acme'")
        assert row is not None
        to = str(row["phone"])
    sender = client_as("sending")
    extension = agent_in(sandbox, client, "ready")
    with pytest.raises(ValidationError) as raised:  # the service's refusal, past the guard
        sender.calls.create(to=to, agent_extension=extension, caller_id=caller_id,
                            override="the service's own refusal is what is tested")
    assert (raised.value.status, raised.value.code) == (422, code)
    if field_code is not None:
        assert [e.code for e in raised.value.errors] == [field_code]
    assert nothing_dialled(client)
    assert sender.calls.create(to=EASTERN, agent_extension=extension).status == "dialing"


def test_create_names_exactly_one_agent_before_any_request() -> None:
    wire = RecordingTransport()
    sender = Client("svc_test_offline01_AAAAbbbbCCCCddddEEEE0000",
                    base_url="http://127.0.0.1:9", transport=wire, rate_limit=None)
    with pytest.raises(ValueError, match="exactly one"):
        sender.calls.create(to=EASTERN)
    with pytest.raises(ValueError, match="exactly one"):
        sender.calls.create(to=EASTERN, agent_extension="1001", agent_email="a@example.com")
    with pytest.raises(ValueError, match="to"):
        sender.calls.create(to="2125550142", agent_extension="1001")
    assert wire.requests == []


@pytest.mark.parametrize(("role", "code"), [
    ("full", "tier_not_enabled"),
    ("noswitch", "tier_not_enabled"),
    ("reader", "insufficient_scope"),
])
def test_create_needs_scope_switch_and_a_sending_key(
        client: Client, client_as: Callable[..., Client], role: str, code: str) -> None:
    with pytest.raises(PermissionDeniedError) as raised:
        client_as(role).calls.create(to=EASTERN, agent_extension="1001")
    assert (raised.value.status, raised.value.code) == (403, code)
    assert nothing_dialled(client)


# --- recording ---------------------------------------------------------------------------


def test_recording_to_a_path_is_the_served_wav(client: Client, sandbox: Sandbox,
                                               api: httpx.Client, tmp_path: Path) -> None:
    call_id = answered_call(sandbox)
    target = tmp_path / "call.wav"
    info = client.calls.recording(call_id, target)
    audio = target.read_bytes()
    assert audio == raw_recording(api, call_id)
    assert audio[:4] == b"RIFF" and audio[8:12] == b"WAVE"
    duration = client.calls.get(call_id).duration_seconds
    assert duration is not None
    assert struct.unpack("<I", audio[40:44])[0] == round(duration * 8000) * 2 == len(audio) - 44
    assert (info.status_code, info.request_id is not None) == (200, True)
    assert [p.name for p in tmp_path.iterdir()] == ["call.wav"]


def test_recording_to_a_str_path_replaces_an_older_file(client: Client, sandbox: Sandbox,
                                                       api: httpx.Client,
                                                       tmp_path: Path) -> None:
    call_id = answered_call(sandbox)
    target = tmp_path / "call.wav"
    target.write_bytes(b"an older, longer file " * 100_000)
    client.calls.recording(call_id, str(target))
    assert target.read_bytes() == raw_recording(api, call_id)
    assert [p.name for p in tmp_path.iterdir()] == ["call.wav"]


def test_recording_to_a_file_object(client: Client, sandbox: Sandbox,
                                    api: httpx.Client) -> None:
    call_id = answered_call(sandbox)
    buffer = io.BytesIO(b"header:")
    buffer.seek(0, io.SEEK_END)
    info = client.calls.recording(call_id, buffer)
    assert buffer.getvalue() == b"header:" + raw_recording(api, call_id)
    assert info.status_code == 200


@pytest.mark.parametrize("condition", ["answered_at IS NULL", "unknown"])
def test_no_recording_raises_not_found_and_writes_no_file(client: Client, sandbox: Sandbox,
                                                          tmp_path: Path,
                                                          condition: str) -> None:
    call_id = UNKNOWN if condition == "unknown" else seeded_call(sandbox, condition)
    with pytest.raises(NotFoundError) as raised:
        client.calls.recording(call_id, tmp_path / "call.wav")
    assert (raised.value.status, raised.value.code) == (404, "not_found")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_download_keeps_an_existing_file(client: Client, sandbox: Sandbox,
                                                  tmp_path: Path) -> None:
    target = tmp_path / "call.wav"
    target.write_bytes(b"keep me")
    with pytest.raises(NotFoundError):
        client.calls.recording(seeded_call(sandbox, "answered_at IS NULL"), target)
    assert target.read_bytes() == b"keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["call.wav"]


def test_a_broken_download_is_retried_from_the_start(
        client_as: Callable[..., Client], sandbox: Sandbox, api: httpx.Client,
        tmp_path: Path) -> None:
    call_id = answered_call(sandbox)
    expected = raw_recording(api, call_id)
    add_fault(sandbox, path=RECORDING, method="GET", kind="drop", count=2)
    wire = RecordingTransport()
    client = client_as("full", max_retries=2, transport=wire)
    client.calls.recording(call_id, tmp_path / "call.wav")
    buffer = io.BytesIO()
    client.calls.recording(call_id, buffer)
    assert len(wire.requests) == 4
    assert (tmp_path / "call.wav").read_bytes() == buffer.getvalue() == expected
    assert [p.name for p in tmp_path.iterdir()] == ["call.wav"]


def test_a_broken_download_leaves_no_partial_file(client_as: Callable[..., Client],
                                                  sandbox: Sandbox, tmp_path: Path) -> None:
    add_fault(sandbox, path=RECORDING, method="GET", kind="drop", count=1)
    with pytest.raises(ApiConnectionError):
        client_as("full", max_retries=0).calls.recording(answered_call(sandbox),
                                                         tmp_path / "call.wav")
    assert list(tmp_path.iterdir()) == []


class Unseekable(io.BytesIO):
    """A file object that cannot be rewound, like a pipe or a socket."""

    def seekable(self) -> bool:
        return False


def test_a_broken_download_into_an_unseekable_file_is_not_retried(
        client_as: Callable[..., Client], sandbox: Sandbox, api: httpx.Client) -> None:
    call_id = answered_call(sandbox)
    whole = raw_recording(api, call_id)
    add_fault(sandbox, path=RECORDING, method="GET", kind="drop", count=1)
    target = Unseekable()
    wire = RecordingTransport()
    with pytest.raises(ApiError, match="cannot be rewound"):
        client_as("full", max_retries=2, transport=wire).calls.recording(call_id, target)
    assert len(wire.requests) == 2
    assert whole.startswith(target.getvalue()) and 0 < len(target.getvalue()) < len(whole)


def test_recording_needs_its_scope(client: Client, sandbox: Sandbox,
                                   client_as: Callable[..., Client], tmp_path: Path) -> None:
    with pytest.raises(PermissionDeniedError) as raised:
        client_as("noscope").calls.recording(answered_call(sandbox), tmp_path / "x.wav")
    assert raised.value.code == "insufficient_scope"
    assert list(tmp_path.iterdir()) == []


# --- transcript and summary --------------------------------------------------------------


def test_transcript_is_plain_data_of_the_conversation(client: Client,
                                                      sandbox: Sandbox) -> None:
    call_id = seeded_call(sandbox, "direction = 'outbound' AND disposition = "
                                   "'callback_requested' AND duration_seconds > 30")
    transcript = client.calls.transcript(call_id)
    assert transcript.request_id is not None and transcript.request_id.startswith("req_")
    assert (transcript["call_id"], transcript["status"]) == (call_id, "ready")
    segments: list[dict[str, Any]] = transcript["segments"]
    assert {s["speaker"] for s in segments} == {"agent", "customer"}
    assert any("call me back" in s["text"] for s in segments)
    assert segments[-1]["end_seconds"] == pytest.approx(
        client.calls.get(call_id).duration_seconds, abs=0.1)


def test_a_ready_summary_has_its_content(client: Client, sandbox: Sandbox) -> None:
    call_id = seeded_call(sandbox, "disposition = 'sale' AND duration_seconds > 30")
    summary = client.calls.summary(call_id)
    assert isinstance(summary, CallSummary)
    assert (summary.status, summary.schema_version, summary.not_generated_reason) == (
        "ready", 1, None)
    assert (summary.outcome_candidate, summary.intent) == ("sale", "purchase")
    assert summary.language in ("en-US", "en-CA", "en-GB")
    call = client.calls.get(call_id)
    assert call.ended_at is not None and summary.generated_at is not None
    assert (summary.generated_at - call.ended_at).total_seconds() == 45
    assert summary.request_id is not None


def test_an_unanswered_call_has_no_summary_content(client: Client, sandbox: Sandbox) -> None:
    summary = client.calls.summary(seeded_call(sandbox, "answered_at IS NULL"))
    assert (summary.status, summary.not_generated_reason) == ("not_generated",
                                                              "no_conversation")
    assert (summary.reason_for_contact, summary.intent, summary.next_action,
            summary.generated_at) == (None, None, None, None)


def test_a_started_call_is_processing(client: Client, sandbox: Sandbox,
                                      client_as: Callable[..., Client],
                                      tmp_path: Path) -> None:
    started = client_as("sending").calls.create(
        to=EASTERN, agent_extension=agent_in(sandbox, client, "ready"))
    assert started.call_id is not None
    assert client.calls.summary(started.call_id).status == "processing"
    assert client.calls.transcript(started.call_id)["status"] == "processing"
    with pytest.raises(NotFoundError):
        client.calls.recording(started.call_id, tmp_path / "call.wav")
    assert list(tmp_path.iterdir()) == []
