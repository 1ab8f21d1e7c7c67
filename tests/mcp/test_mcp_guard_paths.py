"""The paths around the guard through ``mcp serve`` that issue 62 found: arguments that are
not of their schema's type reach nothing, and an override is recorded before it is sent.

The session emulator's clock stands at 07:00 in San Francisco (before the law's 08:00).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp_harness import answering, call, text

from client._recording import RecordingTransport
from conftest import KEYS, guard_truth
from dialkit import Client
from dialkit.mcp import ClientExecutor, JsonLinesAuditLog, MemoryAuditLog, build_server
from dialkit.sandbox import Sandbox

PACIFIC = "+14155550123"
REASON = "The customer asked for this text"


def _served(sandbox: Sandbox, wire: RecordingTransport, audit: Any,
            key: str = KEYS["full"]) -> tuple[Client, Any]:
    """A client whose requests ``wire`` records, and ``mcp serve``'s server over it."""
    client = Client(key, base_url=sandbox.base_url, rate_limit=None, max_retries=0,
                    transport=wire)
    return client, build_server(ClientExecutor(client, key), audit=audit)


@pytest.mark.parametrize("dial_now", ["true", 1, "yes", "1", None])
def test_a_dial_now_that_is_no_json_boolean_reaches_nothing(
        sandbox: Sandbox, dial_now: object) -> None:
    """The service would read these as true (or refuse them): the tool refuses each
    before the guard, the question or the service, and says which argument and why."""
    wire, log = RecordingTransport(), MemoryAuditLog()
    client, server = _served(sandbox, wire, log)
    with client:
        draft = next(iter(client.campaigns.list(status="draft"))).id
        asked: list[str] = []
        result = call(server, None, "leads_create",
                      {"campaign_id": draft, "phone": PACIFIC, "dial_now": dial_now},
                      answer=answering("accept", asked=asked))
    assert result.is_error and asked == []
    assert result.structured_content["code"] == "invalid_arguments"
    assert "dial_now" in text(result) and "boolean" in text(result)
    assert str(dial_now) not in text(result).replace("boolean", "")  # the value is not echoed
    assert wire.to("/v1/leads", "POST") == []
    assert [(r.outcome, r.code) for r in log.records()] == [("not_run", "invalid_arguments")]


@pytest.mark.parametrize(("tool", "arguments", "named"), [
    ("sms_send", {"to": 14155550123, "body": "Hi", "client_reference": "n"}, "to"),
    ("sms_send", {"to": PACIFIC, "body": "", "client_reference": "n"}, "body"),
    ("calls_list", {"limit": "ten"}, "limit"),
    ("leads_create", {"campaign_id": "cmp_1"}, "campaign_id"),
    ("callbacks_create", {"lead_id": "lead_x", "scheduled_at": 5}, "scheduled_at"),
])
def test_every_tools_values_are_checked_against_its_schema(
        sandbox: Sandbox, tool: str, arguments: dict[str, Any], named: str) -> None:
    wire = RecordingTransport()
    client, server = _served(sandbox, wire, MemoryAuditLog())
    with client:
        result = call(server, None, tool, arguments, answer=answering("accept"))
    assert result.is_error, text(result)
    assert result.structured_content["code"] == "invalid_arguments"
    assert f": {named} breaks its schema" in text(result)
    assert [s for s in wire.sent if s.path != "/v1/me"] == []


def test_an_override_is_recorded_durably_before_it_is_sent(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """The record of the override is on the disk before the text leaves: the log holds a
    ``sending`` record, then the outcome's."""
    planted = guard_truth(sandbox)["guard_cap"]  # the emulator does not keep the caps
    wire = RecordingTransport()
    client, server = _served(sandbox, wire, JsonLinesAuditLog(tmp_path / "audit.jsonl"),
                             KEYS["sending"])
    with client:
        sent = call(server, None, "sms_send",
                    {"to": planted["phone"], "body": "Hi", "client_reference": "cap-1",
                     "override": REASON}, answer=answering("accept"))
    assert not sent.is_error, text(sent)
    records = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()
    assert [(r.outcome, r.code, r.override) for r in records] == [
        ("not_run", "awaiting_confirmation", REASON),
        ("sending", "override_recorded", REASON),
        ("ok", None, REASON)]
    assert len(wire.to("/v1/sms", "POST")) == 1


def test_an_override_that_cannot_be_recorded_is_not_sent(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """A folder where the log file was (or a full disk): the override is not sent, and the
    tool says why."""
    planted = guard_truth(sandbox)["guard_cap"]
    path = tmp_path / "audit.jsonl"
    wire = RecordingTransport()
    client, server = _served(sandbox, wire, JsonLinesAuditLog(path), KEYS["sending"])
    with client:
        asked = call(server, None, "sms_send",
                     {"to": planted["phone"], "body": "Hi", "client_reference": "cap-2",
                      "override": REASON}, answer=answering("accept"))
        assert not asked.is_error, text(asked)  # the question's round was written
        path.unlink()
        path.mkdir()
        refused = call(server, None, "sms_send",
                       {"to": planted["phone"], "body": "Hi", "client_reference": "cap-3",
                        "override": REASON}, answer=answering("accept"))
    assert refused.is_error
    assert refused.structured_content["code"] == "audit_log_unwritable"
    assert "nothing was sent" in text(refused)
    assert len(wire.to("/v1/sms", "POST")) == 1  # the first override's text alone


def test_an_assistants_fourth_text_in_a_day_to_a_florida_number_is_refused(
        sandbox: Sandbox) -> None:
    """Texts sent through ``mcp serve`` count toward Florida's cap of three in 24 hours as
    the client's own do (issue 62): the fourth is the tool's error, its user never asked."""
    miami = "+13055550188"  # 10:00 local at the session emulator's clock
    wire = RecordingTransport()
    client, server = _served(sandbox, wire, MemoryAuditLog(), KEYS["sending"])
    with client:
        for n in range(3):
            texted = call(server, None, "sms_send",
                          {"to": miami, "body": "Hi", "client_reference": f"fl-{n}"},
                          answer=answering("accept"))
            assert not texted.is_error, text(texted)
        asked: list[str] = []
        refused = call(server, None, "sms_send",
                       {"to": miami, "body": "Hi", "client_reference": "fl-3"},
                       answer=answering("accept", asked=asked))
    assert refused.is_error and asked == []
    said = refused.structured_content
    assert (said["code"], said["rule"]) == ("contact_forbidden", "call_frequency")
    assert "the contacts counted include 3 texts" in said["evidence"]
    assert len(wire.to("/v1/sms", "POST")) == 3
