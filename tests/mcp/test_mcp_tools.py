"""The tools at the emulator's /mcp: one per operation, shown by scope, the REST answers."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import httpx
import pytest
from mcp_harness import MODES, audit, call, listed, text

from conftest import KEYS, READ_SCOPES
from dialkit.contract import OPERATIONS, Scope
from dialkit.mcp import (
    TOOLS,
    TOOLS_BY_NAME,
    AuditRecord,
    confirmation_text,
    reaches_people,
    tool_name,
)
from dialkit.mcp._server import SECRET_WITHHELD
from dialkit.sandbox import Sandbox

EVERY_TOOL = [operation.name.replace(".", "_") for operation in OPERATIONS]


def test_every_operation_has_one_tool_named_from_the_contract() -> None:
    assert [tool.name for tool in TOOLS] == EVERY_TOOL
    assert {"leads_import", "calls_create", "dnc_check"} <= set(EVERY_TOOL)
    assert [tool.operation for tool in TOOLS] == list(OPERATIONS)


def test_the_guarded_tools_take_an_override_and_keep_it_out_of_the_request() -> None:
    """Issue 50: the tools whose operation the client's guard judges take ``override`` (the
    user's reason, confirmed); it is the tool server's, never sent to the service."""
    takes = [tool.name for tool in TOOLS if "override" in tool.input_schema["properties"]]
    assert takes == ["leads_create", "campaigns_resume", "calls_create", "callbacks_create",
                     "callbacks_reschedule", "sms_send"]
    request = TOOLS_BY_NAME["sms_send"].request({"to": "+12125550142", "body": "Hi",
                                                 "override": "asked"})
    assert (request.body, request.override) == ({"to": "+12125550142", "body": "Hi"}, "asked")


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_is_listed_for_a_key_with_every_scope(sandbox: Sandbox, mode: str) -> None:
    assert listed(sandbox, KEYS["full"], mode) == EVERY_TOOL


@pytest.mark.parametrize(("role", "scopes"), [
    ("reader", set(READ_SCOPES)),
    ("noscope", set()),
])
def test_a_tool_is_hidden_from_a_key_without_its_scope(sandbox: Sandbox, role: str,
                                                      scopes: set[Scope]) -> None:
    shown = listed(sandbox, KEYS[role])
    assert shown == [tool_name(op) for op in OPERATIONS if op.scope is None or op.scope in scopes]
    assert "me" in shown and "calls_create" not in shown


@pytest.mark.parametrize(("tool", "read_only", "destructive", "idempotent", "open_world"), [
    ("calls_list", True, None, True, False),
    ("dnc_check", True, None, True, False),
    ("leads_import", False, False, True, False),
    ("webhooks_delete", False, True, True, False),
    ("calls_create", False, True, True, True),
    ("sms_send", False, True, True, True),
    ("campaigns_resume", False, True, True, True),
    ("callbacks_cancel", False, True, True, False),
])
def test_annotations_match_the_operation(tool: str, read_only: bool, destructive: bool | None,
                                         idempotent: bool, open_world: bool) -> None:
    hints = TOOLS_BY_NAME[tool].annotations
    assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint,
            hints.open_world_hint) == (read_only, destructive, idempotent, open_world)


def test_input_schemas_are_the_contracts_request_models() -> None:
    create = TOOLS_BY_NAME["calls_create"].input_schema
    assert create["required"] == ["to"] and create["additionalProperties"] is False
    assert {"to", "agent_extension", "agent_email", "caller_id", "idempotency_key"} <= set(
        create["properties"])
    imported = TOOLS_BY_NAME["leads_import"].input_schema
    assert set(imported["required"]) == {"campaign_id", "leads"}
    assert "if_match" in TOOLS_BY_NAME["leads_update"].input_schema["properties"]
    assert "idempotency_key" not in TOOLS_BY_NAME["calls_list"].input_schema["properties"]
    assert TOOLS_BY_NAME["calls_recording"].output_schema is None
    assert "data" in TOOLS_BY_NAME["calls_list"].output_schema["properties"]


@pytest.mark.parametrize("mode", MODES)
def test_a_read_tool_returns_what_the_rest_call_returns(sandbox: Sandbox, api: httpx.Client,
                                                       mode: str) -> None:
    result = call(sandbox, KEYS["full"], "calls_list", {"limit": 5, "direction": "outbound"},
                  mode=mode)
    rest = api.get("/v1/calls", params={"limit": 5, "direction": "outbound"}).json()
    assert not result.is_error
    assert result.structured_content["data"] == rest["data"]
    assert result.structured_content["page"]["has_more"] == rest["page"]["has_more"]
    lead = api.get("/v1/leads", params={"limit": 1}).json()["data"][0]
    got = call(sandbox, KEYS["full"], "leads_get", {"lead_id": lead["id"]}, mode=mode)
    assert got.structured_content == api.get(f"/v1/leads/{lead['id']}").json()


def test_a_success_text_is_the_answers_json_and_a_signing_secret_is_in_neither(
        sandbox: Sandbox, api: httpx.Client) -> None:
    page = call(sandbox, KEYS["full"], "calls_list", {"limit": 3})
    assert [block.type for block in page.content] == ["text"]
    assert json.loads(text(page)) == page.structured_content == api.get(
        "/v1/calls", params={"limit": 3}).json()
    made = call(sandbox, KEYS["full"], "webhooks_create",
                {"url": "https://hooks.example.com/in", "events": ["call.completed"]})
    answer = json.loads(made.content[0].text)
    assert answer == made.structured_content and answer["secret"] is None
    assert answer["secret_hint"] and SECRET_WITHHELD in text(made)
    assert "whsec" not in text(made) and "whsec" not in json.dumps(made.structured_content)


def test_a_refusal_is_a_tool_error_carrying_the_problems_code(sandbox: Sandbox) -> None:
    missing = "lead_00000000-0000-4000-8000-000000000000"
    result = call(sandbox, KEYS["full"], "leads_get", {"lead_id": missing})
    assert result.is_error and text(result).startswith("404 not_found:")
    assert result.structured_content["code"] == "not_found"
    invalid = call(sandbox, KEYS["full"], "dnc_check", {"phones": ["0415 555"]})
    assert invalid.is_error and invalid.structured_content["code"] == "invalid_arguments"
    assert "phones/0 breaks its schema (pattern" in text(invalid)  # the schema foretold it


def test_a_key_without_the_scope_gets_the_rest_paths_refusal(sandbox: Sandbox) -> None:
    result = call(sandbox, KEYS["reader"], "dnc_add", {"phone": "+12125550100"})
    assert result.is_error and result.structured_content["code"] == "insufficient_scope"


def test_unknown_arguments_are_refused_before_anything_runs(sandbox: Sandbox) -> None:
    result = call(sandbox, KEYS["full"], "calls_list", {"limit": 1, "colour": "red"})
    assert result.is_error and "calls_list takes no argument colour" in text(result)
    assert result.structured_content["code"] == "invalid_arguments"
    missing = call(sandbox, KEYS["full"], "leads_get", {})
    assert missing.is_error and "missing the required argument lead_id" in text(missing)
    records = audit(sandbox)
    assert [(r["tool"], r["outcome"], r["status"], r["code"]) for r in records] == [
        ("calls_list", "not_run", None, "invalid_arguments"),
        ("leads_get", "not_run", None, "invalid_arguments"),
    ]
    assert all(r["credential_id"] == "fullkey01" for r in records)


def test_the_etag_of_a_read_guards_an_update(sandbox: Sandbox, api: httpx.Client) -> None:
    lead_id = api.get("/v1/leads", params={"limit": 1}).json()["data"][0]["id"]
    read = call(sandbox, KEYS["full"], "leads_get", {"lead_id": lead_id})
    etag = read.meta["dialkit/etag"]
    assert etag == api.get(f"/v1/leads/{lead_id}").headers["etag"]
    updated = call(sandbox, KEYS["full"], "leads_update",
                   {"lead_id": lead_id, "full_name": "Ada Lovelace", "if_match": etag})
    assert not updated.is_error, text(updated)
    assert updated.meta["dialkit/etag"] not in (None, etag)
    stale = call(sandbox, KEYS["full"], "leads_update",
                 {"lead_id": lead_id, "full_name": "Grace Hopper", "if_match": etag})
    assert stale.is_error and text(stale).startswith("412 precondition_failed:")
    assert stale.structured_content["code"] == "precondition_failed"
    assert api.get(f"/v1/leads/{lead_id}").json()["full_name"] == "Ada Lovelace"


def test_an_answer_without_an_etag_has_none_in_meta(sandbox: Sandbox) -> None:
    listed_calls = call(sandbox, KEYS["full"], "calls_list", {"limit": 1})
    assert "dialkit/etag" not in listed_calls.meta


def test_every_tool_that_reaches_people_has_its_own_confirmation_text() -> None:
    texts = {tool.name: confirmation_text(tool.name, {}) for tool in TOOLS
             if reaches_people(tool.operation)}  # a tool without a text raises
    assert "calls_create" in texts and all(texts.values())
    with pytest.raises(ValueError, match="calls_list has no confirmation text"):
        confirmation_text("calls_list", {})


@pytest.mark.parametrize(("key", "status", "code"), [
    (None, 401, "invalid_api_key"),
    (KEYS["revoked"], 401, "invalid_api_key"),
    (KEYS["nosandbox"], 401, "invalid_api_key"),
])
def test_mcp_refuses_a_bad_key_as_v1_does(sandbox: Sandbox, key: str | None, status: int,
                                          code: str,
                                          key_client: Callable[[str], httpx.Client]) -> None:
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    answer = httpx.post(sandbox.base_url + "/mcp", json={}, headers=headers)
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == code


def test_output_schemas_refer_to_nothing_and_admit_null_where_null_is_allowed() -> None:
    schemas = [tool.output_schema for tool in TOOLS if tool.output_schema is not None]
    assert schemas and not any("$ref" in json.dumps(schema) for schema in schemas)
    reason = TOOLS_BY_NAME["leads_create"].output_schema["properties"]["reason"]
    assert None in reason["enum"] and "null" in reason["type"]  # a null reason is valid


@pytest.mark.parametrize("record", [
    AuditRecord(at="2026-11-23T10:00:00.000Z", account="acme", client_id="cli_1",
                credential_id="fullkey01", tool="calls_list", arguments_digest="0" * 64,
                outcome="ok", confirmation="not_needed", status=200, request_id="req_1"),
    AuditRecord(at="2026-11-23T10:00:00.001Z", account=None, client_id=None,
                credential_id=None, tool="sms_send", arguments_digest="f" * 64,
                outcome="not_run", confirmation="declined", code="confirmation_declined",
                replayed=True),
])
def test_an_audit_record_as_data_is_every_field_in_order(record: AuditRecord) -> None:
    assert list(record.to_dict().items()) == list(dataclasses.asdict(record).items())
