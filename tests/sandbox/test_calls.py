"""Call list, call record, recording, transcript and summary over HTTP against the emulator.

Calls with a given property (answered, short, unanswered) are picked from the
seeded world in the store; everything else goes through the API.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from datetime import datetime
from typing import Any

import httpx
import pytest
from test_click_to_call import dial, number_at

from conftest import assert_problem, ready_agents
from dialkit.sandbox import Sandbox

CALL_FIELDS = {"id", "direction", "from_number", "to_number", "status", "created_at",
               "answered_at", "ended_at", "duration_seconds", "campaign_id", "disposition",
               "hangup_cause", "agent_joined_at"}
"""The contract's Call record, and the emulator's extra ``agent_joined_at``."""

SUMMARY_CONTENT = ("reason_for_contact", "intent", "next_action", "outcome_candidate",
                   "language", "source", "generated_at")
"""Summary fields that are null unless the summary is ready."""

UNKNOWN = "call_00000000-0000-4000-8000-000000000000"


def seeded_call(running: Sandbox, condition: str, account: str = "acme") -> str:
    """The id of a seeded call of ``account`` that meets an SQL ``condition``."""
    row = running.service.store.row(
        f"SELECT id FROM calls WHERE dataset = ? AND {condition} ORDER BY id LIMIT 1",
        (f"seed:{account}",))
    assert row is not None, f"the seeded world has a call with {condition}"
    return str(row["id"])


def place_call(running: Sandbox, sender: httpx.Client) -> str:
    """Start a click-to-call with the sending key and a ready agent; its id."""
    sender.get("/v1/me").raise_for_status()
    started = dial(sender, {"to": number_at(running, allowed=True),
                            "agent_extension": ready_agents(running)[0]["extension"]})
    assert started.status_code == 201, started.text
    return str(started.json()["call_id"])


def pages(http: httpx.Client, limit: int, count: int, **params: Any) -> list[dict[str, Any]]:
    """The calls of the first ``count`` pages, following ``next_cursor``."""
    calls: list[dict[str, Any]] = []
    cursor = None
    for _ in range(count):
        response = http.get("/v1/calls", params={**params, "limit": limit,
                                                 **({"cursor": cursor} if cursor else {})})
        assert response.status_code == 200, response.text
        body = response.json()
        calls += body["data"]
        cursor = body["page"]["next_cursor"]
        assert body["page"]["has_more"] is (cursor is not None)
        if cursor is None:
            break
    return calls


def test_the_list_is_newest_first_across_pages(api: httpx.Client) -> None:
    calls = pages(api, 100, 4)
    assert len(calls) == 400
    assert all(set(call) == CALL_FIELDS for call in calls)
    keys = [(call["created_at"], call["id"]) for call in calls]
    assert keys == sorted(keys, reverse=True)
    assert len(set(keys)) == len(keys)
    assert calls[:50] == api.get("/v1/calls").json()["data"]


@pytest.mark.parametrize("direction", ["inbound", "outbound"])
def test_the_list_filters_by_direction(api: httpx.Client, direction: str) -> None:
    calls = pages(api, 100, 2, direction=direction)
    assert calls
    assert {call["direction"] for call in calls} == {direction}
    keys = [(call["created_at"], call["id"]) for call in calls]
    assert keys == sorted(keys, reverse=True)


def test_the_list_filters_by_campaign(api: httpx.Client) -> None:
    campaign = next(call["campaign_id"] for call in api.get("/v1/calls").json()["data"]
                    if call["campaign_id"])
    calls = pages(api, 100, 3, campaign_id=campaign, direction="outbound")
    assert calls
    assert {(call["campaign_id"], call["direction"]) for call in calls} == {(campaign,
                                                                             "outbound")}
    everything = pages(api, 100, 50, campaign_id=campaign)
    assert len(everything) >= len(calls)
    assert {call["campaign_id"] for call in everything} == {campaign}


def test_the_last_page_has_no_cursor(api: httpx.Client) -> None:
    campaign = api.get("/v1/campaigns", params={"status": "draft"}).json()["data"][0]["id"]
    body = api.get("/v1/calls", params={"campaign_id": campaign}).json()
    assert body == {"data": [], "page": {"next_cursor": None, "has_more": False}}


def test_a_cursor_is_bound_to_its_filters(api: httpx.Client) -> None:
    cursor = api.get("/v1/calls", params={"limit": 1}).json()["page"]["next_cursor"]
    response = api.get("/v1/calls", params={"cursor": cursor, "direction": "inbound"})
    assert_problem(response, 400, "invalid_cursor")
    assert_problem(api.get("/v1/calls", params={"cursor": cursor[:-2] + "xx"}), 400,
                   "invalid_cursor")


@pytest.mark.parametrize("params", [
    {"direction": "sideways"}, {"campaign_id": "cmp_1"}, {"limit": 0}, {"limit": 101},
    {"status": "completed"},
])
def test_the_list_refuses_bad_parameters(api: httpx.Client, params: dict[str, Any]) -> None:
    assert_problem(api.get("/v1/calls", params=params), 400, "validation_failed")


def test_the_list_holds_every_call_of_the_account_and_only_those(
        sandbox: Sandbox, key_client: Callable[[str], httpx.Client]) -> None:
    reader, other_account = key_client("reader"), key_client("noswitch")
    mine = {call["id"] for call in pages(reader, 100, 2)}
    theirs = {call["id"] for call in pages(other_account, 100, 2)}
    assert mine and theirs and not mine & theirs
    total = sandbox.service.store.row("SELECT COUNT(*) FROM calls WHERE dataset = 'seed:acme'")
    assert total is not None
    assert len(pages(reader, 100, 1000)) == total[0]


def test_a_call_is_read_by_id(api: httpx.Client) -> None:
    for call in api.get("/v1/calls", params={"limit": 5}).json()["data"]:
        response = api.get(f"/v1/calls/{call['id']}")
        assert (response.status_code, response.json()) == (200, call)


def test_calls_of_another_account_or_data_set_are_not_found(
        sandbox: Sandbox, key_client: Callable[[str], httpx.Client]) -> None:
    sender, other = key_client("sending"), key_client("other")
    foreign = seeded_call(sandbox, "1 = 1", account="noswitch")
    for path in ("", "/recording", "/transcript", "/summary"):
        assert_problem(sender.get(f"/v1/calls/{UNKNOWN}{path}"), 404, "not_found")
        assert_problem(sender.get(f"/v1/calls/{foreign}{path}"), 404, "not_found")
        assert_problem(sender.get(f"/v1/calls/not-an-id{path}"), 404, "not_found")
    own = place_call(sandbox, sender)
    assert sender.get(f"/v1/calls/{own}").status_code == 200
    assert_problem(other.get(f"/v1/calls/{own}"), 404, "not_found")


def test_the_recording_is_a_wav_file_as_long_as_the_call(
        sandbox: Sandbox, key_client: Callable[[str], httpx.Client]) -> None:
    call_id = seeded_call(sandbox, "answered_at IS NOT NULL AND duration_seconds > 60")
    reader = key_client("reader")
    call = reader.get(f"/v1/calls/{call_id}").json()
    ringing = int((datetime.fromisoformat(call["answered_at"])
                   - datetime.fromisoformat(call["created_at"])).total_seconds()) * 16000
    with reader.stream("GET", f"/v1/calls/{call_id}/recording") as response:
        assert response.status_code == 200
        assert response.headers["content-type"] == "audio/wav"
        chunks = list(response.iter_raw())
    audio = b"".join(chunks)
    assert len(chunks) > 1
    assert int(response.headers["content-length"]) == len(audio)
    riff, size, wave, fmt, _, pcm, channels, rate, _, _, bits, data, data_size = struct.unpack(
        "<4sI4s4sIHHIIHH4sI", audio[:44])
    assert (riff, wave, fmt, data) == (b"RIFF", b"WAVE", b"fmt ", b"data")
    assert (pcm, channels, rate, bits) == (1, 1, 8000, 16)
    assert size == len(audio) - 8 and data_size == len(audio) - 44
    assert data_size == round(call["duration_seconds"] * 8000) * 2
    assert audio[44:44 + ringing] == bytes(ringing)
    assert any(audio[44 + ringing + 16000:]), "the conversation is not silent"
    assert reader.get(f"/v1/calls/{call_id}/recording").content == audio


def test_an_unanswered_call_has_no_recording(sandbox: Sandbox, api: httpx.Client) -> None:
    call_id = seeded_call(sandbox, "answered_at IS NULL")
    assert_problem(api.get(f"/v1/calls/{call_id}/recording"), 404, "not_found")


def test_the_transcript_of_an_answered_call_follows_the_conversation(
        sandbox: Sandbox, api: httpx.Client) -> None:
    call_id = seeded_call(sandbox, "direction = 'outbound' AND disposition = 'callback_requested' "
                                   "AND duration_seconds > 30")
    duration = api.get(f"/v1/calls/{call_id}").json()["duration_seconds"]
    transcript = api.get(f"/v1/calls/{call_id}/transcript").json()
    assert transcript["status"] == "ready" and transcript["not_generated_reason"] is None
    assert transcript["call_id"] == call_id and transcript["generated_at"] is not None
    assert transcript["language"].startswith("en")
    segments = transcript["segments"]
    assert {s["speaker"] for s in segments} == {"agent", "customer"}
    assert 0 < segments[0]["start_seconds"] < 60
    assert all(a["end_seconds"] == b["start_seconds"] for a, b in zip(segments, segments[1:],
                                                                      strict=False))
    assert segments[-1]["end_seconds"] == pytest.approx(duration, abs=0.1)
    assert any("call me back" in s["text"] for s in segments)
    assert api.get(f"/v1/calls/{call_id}/transcript").json() == transcript


def test_a_ready_summary_has_its_content(sandbox: Sandbox, api: httpx.Client) -> None:
    call_id = seeded_call(sandbox, "disposition = 'sale' AND duration_seconds > 30")
    summary = api.get(f"/v1/calls/{call_id}/summary").json()
    assert summary["status"] == "ready" and summary["schema_version"] == 1
    assert summary["not_generated_reason"] is None
    assert all(summary[field] is not None for field in SUMMARY_CONTENT)
    assert (summary["outcome_candidate"], summary["intent"]) == ("sale", "purchase")
    assert summary["language"] in ("en-US", "en-CA", "en-GB")


@pytest.mark.parametrize(("condition", "reason"), [
    ("answered_at IS NULL", "no_conversation"),
    ("answered_at IS NOT NULL AND julianday(ended_at) - julianday(answered_at) < 9 / 86400.0",
     "too_short"),
])
def test_a_call_without_a_conversation_has_no_summary_or_transcript(
        sandbox: Sandbox, api: httpx.Client, condition: str, reason: str) -> None:
    call_id = seeded_call(sandbox, condition)
    summary = api.get(f"/v1/calls/{call_id}/summary").json()
    assert (summary["status"], summary["not_generated_reason"]) == ("not_generated", reason)
    assert all(summary[field] is None for field in SUMMARY_CONTENT)
    transcript = api.get(f"/v1/calls/{call_id}/transcript").json()
    assert (transcript["status"], transcript["not_generated_reason"]) == ("not_generated",
                                                                          reason)
    assert transcript["segments"] is None


def test_a_call_in_progress_is_processing(sandbox: Sandbox, api: httpx.Client,
                                          key_client: Callable[[str], httpx.Client]) -> None:
    call_id = place_call(sandbox, key_client("sending"))
    summary = api.get(f"/v1/calls/{call_id}/summary").json()
    assert (summary["status"], summary["generated_at"]) == ("processing", None)
    assert api.get(f"/v1/calls/{call_id}/transcript").json()["status"] == "processing"
    assert_problem(api.get(f"/v1/calls/{call_id}/recording"), 404, "not_found")


@pytest.mark.parametrize("path", ["", "/recording", "/transcript", "/summary"])
def test_call_reads_need_their_scope(sandbox: Sandbox, path: str,
                                     key_client: Callable[[str], httpx.Client]) -> None:
    call_id = seeded_call(sandbox, "answered_at IS NOT NULL AND duration_seconds > 30")
    assert_problem(key_client("noscope").get(f"/v1/calls/{call_id}{path}"), 403,
                   "insufficient_scope")
    assert key_client("reader").get(f"/v1/calls/{call_id}{path}").status_code == 200


def test_reads_take_no_query_parameters(api: httpx.Client) -> None:
    assert_problem(api.get(f"/v1/calls/{UNKNOWN}/summary", params={"x": 1}), 400,
                   "validation_failed")
