"""A tool call counts against the REST path's rate limits and caps, gets the same errors,
and every call is in the audit log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError
from mcp_harness import answering, audit, call, connect, raw_calls, run, text

from conftest import KEYS, base_config
from dialkit.contract import Scope, Switch
from dialkit.mcp import (
    AccessRefusedError,
    Identity,
    MemoryAuditLog,
    ToolAnswer,
    ToolCall,
    build_server,
)
from dialkit.sandbox import Sandbox


@pytest.fixture
def limited(make_sandbox: Callable[..., Sandbox]) -> Sandbox:
    """An emulator whose key allows 2 requests at once, refilled at 1/s, and whose
    ``capped`` account has used its daily cap."""
    config = base_config()
    config["server"]["rate_limit_scale"] = 0.1
    config["accounts"].append({
        "name": "capped", "daily_cap": 0, "switches": [Switch.TIER2_CAMPAIGN_RESUME_ENABLED],
        "clients": [{"name": "c", "scopes": [Scope.CAMPAIGNS_READ, Scope.CAMPAIGNS_RESUME],
                     "keys": [{"key": "svc_test_capped0001_AAAAbbbbCCCCddddEEEEffff0010"}]}]})
    return make_sandbox(config)


def test_rate_limits_answer_as_tool_errors_with_their_code(limited: Sandbox) -> None:
    async def scenario() -> list[Any]:
        async with connect(limited, KEYS["full"]) as client:
            return [await client.call_tool("me", {}) for _ in range(4)]

    results = run(scenario)
    refused = [r for r in results if r.is_error]
    assert refused and not results[0].is_error
    assert refused[0].structured_content["code"] == "rate_limit_exceeded"
    assert refused[0].structured_content["retry_after"] >= 1
    assert text(refused[0]).startswith("429 rate_limit_exceeded:")


def test_a_used_up_daily_cap_answers_as_a_tool_error(limited: Sandbox) -> None:
    key = "svc_test_capped0001_AAAAbbbbCCCCddddEEEEffff0010"
    paused = call(limited, key, "campaigns_list", {"status": "paused", "limit": 1})
    campaign = paused.structured_content["data"][0]["id"]
    resumed = call(limited, key, "campaigns_resume", {"campaign_id": campaign},
                   answer=answering("accept"))
    assert resumed.is_error and resumed.structured_content["code"] == "daily_cap_reached"
    record = audit(limited, "capped")[-1]
    assert (record["outcome"], record["confirmation"], record["status"], record["code"]) == (
        "error", "given", 429, "daily_cap_reached")


def test_the_audit_log_holds_every_call_with_its_outcome(sandbox: Sandbox) -> None:
    phone = "+12125550177"

    async def scenario() -> None:
        async with connect(sandbox, KEYS["full"], answer=answering("decline")) as client:
            await client.call_tool("dnc_check", {"phones": [phone]})
            await client.call_tool("leads_get",
                                   {"lead_id": "lead_00000000-0000-4000-8000-000000000000"})
            await client.call_tool("sms_send", {"to": phone, "body": "Hi",
                                                "client_reference": "a-1"})
        async with connect(sandbox, KEYS["reader"]) as client:
            await client.call_tool("calls_list", {"limit": 1})

    run(scenario)
    records = audit(sandbox)
    assert [(r["tool"], r["outcome"], r["confirmation"], r["code"]) for r in records] == [
        ("dnc_check", "ok", "not_needed", None),
        ("leads_get", "error", "not_needed", "not_found"),
        ("sms_send", "not_run", "asked", "awaiting_confirmation"),  # the question returned
        ("sms_send", "not_run", "declined", "confirmation_declined"),  # the retry's answer
        ("calls_list", "ok", "not_needed", None),
    ]
    assert {r["credential_id"] for r in records} == {"fullkey01", "readkey01"}
    assert all(r["client_id"].startswith("cli_") and r["at"].endswith("Z") for r in records)
    assert all(len(r["arguments_digest"]) == 64 for r in records)
    assert phone not in str(records), "the log holds digests, never the arguments"
    assert records[0]["request_id"].startswith("req_")


class _RefusingExecutor:
    """An executor whose key is refused: the race of a key revoked during a session."""

    async def identify(self, credentials: str | None) -> Identity:
        raise AccessRefusedError("The key was revoked.", status=401, code="invalid_api_key")

    async def execute(self, call: ToolCall) -> ToolAnswer:
        raise AssertionError("a call whose key is refused runs nothing")


def test_a_refused_key_is_in_the_audit_log_too() -> None:
    log = MemoryAuditLog()
    result = call(build_server(_RefusingExecutor(), audit=log), None, "calls_create",
                  {"to": "+12125550142"})
    assert result.is_error and text(result).startswith("401 invalid_api_key:")
    [record] = log.records()
    assert (record.tool, record.outcome, record.status, record.code, record.client_id) == (
        "calls_create", "error", 401, "invalid_api_key", None)


UNROUTED = [{"name": "calls_delete", "arguments": {"call_id": "x"}},
            {"name": "calls_list", "arguments": ["limit", 1]},
            {"name": "dnc_check", "arguments": "+12125550142"}]
"""Calls that never reach a tool: an unknown name, arguments that are not an object."""


def unrouted_records(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["tool"], r["outcome"], r["confirmation"], r["status"], r["code"])
            for r in records]


UNROUTED_RECORDS = [("calls_delete", "not_run", "not_needed", None, "unknown_tool"),
                    ("calls_list", "not_run", "not_needed", None, "invalid_arguments"),
                    ("dnc_check", "not_run", "not_needed", None, "invalid_arguments")]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_a_call_that_reaches_no_tool_is_audited_too(sandbox: Sandbox, mode: str) -> None:
    """Issue 19: an unknown tool, or arguments that are not an object, left no record."""
    answers = raw_calls(sandbox, KEYS["full"], UNROUTED, mode=mode)
    assert answers[0].is_error and "calls_delete" in text(answers[0])
    assert all(isinstance(a, MCPError) or a.is_error for a in answers[1:])
    records = audit(sandbox)
    assert unrouted_records(records) == UNROUTED_RECORDS
    assert {r["credential_id"] for r in records} == {"fullkey01"}
    assert all(len(r["arguments_digest"]) == 64 for r in records)


def test_an_integer_past_64_bits_is_answered_and_audited_once(sandbox: Sandbox) -> None:
    """Its arguments' digest failed (orjson writes no such integer), so the call ended
    as the SDK's internal error with no audit record; now the schema's maximum refuses it
    before anything is sent, and the record says so."""
    before = len(audit(sandbox))
    [answer] = raw_calls(sandbox, KEYS["full"], [{"name": "calls_list",
                                                   "arguments": {"limit": 10**30}}])
    assert not isinstance(answer, MCPError) and answer.is_error
    [record] = audit(sandbox)[before:]
    assert (record["tool"], record["outcome"], record["code"]) == (
        "calls_list", "not_run", "invalid_arguments")
    assert len(record["arguments_digest"]) == 64
