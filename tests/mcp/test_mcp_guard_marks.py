"""The operations the guard judges are the contract's marks alone
(:data:`dialkit.contract.CONTACTS`), on every path: the client's method of a marked
operation takes ``override`` and is judged, its tool takes ``override`` and is judged
before the user is asked, ``dialkit mcp serve`` serves them so; no other operation is
judged on any path. A method and a tool call of one operation (its wire body) get the same
judgment.

The session emulator's clock stands at Monday 2026-11-02 15:00 UTC: 07:00 in San
Francisco, before the law's 08:00.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from mcp import Client as McpClient
from mcp import StdioServerParameters
from mcp_harness import answering, call, run, text

from client._recording import RecordingTransport
from client.test_guard import DAY, NIGHT, PACIFIC, nanp_lead, ready_agent
from client.test_surface import METHODS
from conftest import KEYS, advance
from dialkit import Client
from dialkit.contract import CONTACTS, OPERATIONS, operation_by_name
from dialkit.errors import ContactForbiddenError
from dialkit.mcp import (
    TOOLS_BY_NAME,
    ClientExecutor,
    MemoryAuditLog,
    build_server,
    reaches_people,
    tool_name,
)
from dialkit.sandbox import Sandbox

AT_NIGHT = f"{NIGHT:%Y-%m-%dT%H:%M:%SZ}"
TEXT = {"to": PACIFIC, "body": "Your table is ready.", "client_reference": "marks-1"}
"""A text to San Francisco at 07:00: the law forbids it."""
Arguments = Callable[[Client, Sandbox], dict[str, Any]]


def _callback(client: Client, _: Sandbox) -> dict[str, Any]:
    made = client.callbacks.create(lead_id=nanp_lead(client).id, scheduled_at=DAY)
    return {"callback_id": made.id, "scheduled_at": AT_NIGHT}


def _resume(client: Client, sandbox: Sandbox) -> dict[str, Any]:
    campaign = next(iter(client.campaigns.list(status="paused"))).id
    advance(sandbox, 12 * 3600)  # 03:00 UTC: night in North America, most leads forbidden
    return {"campaign_id": campaign}


REQUESTS: dict[str, tuple[str, Arguments]] = {
    "sms": ("sms.send", lambda client, _: TEXT),
    "click-to-call": ("calls.create", lambda client, sandbox: {
        "to": PACIFIC, "agent_extension": ready_agent(sandbox, client)}),
    "click-to-call of a lead": ("calls.create", lambda client, sandbox: {
        "to": PACIFIC, "agent_extension": ready_agent(sandbox, client),
        "lead_id": nanp_lead(client).id}),
    "dial-now": ("leads.create", lambda client, _: {
        "campaign_id": next(iter(client.campaigns.list(status="draft"))).id,
        "phone": PACIFIC, "dial_now": True}),
    "callback": ("callbacks.create", lambda client, _: {
        "lead_id": nanp_lead(client).id, "scheduled_at": AT_NIGHT}),
    "callback moved": ("callbacks.reschedule", _callback),
    "resume": ("campaigns.resume", _resume),
}
"""A request of each marked operation that the law forbids, as a tool's arguments (a
method takes the same names)."""


def _method(client: Client, operation: str) -> Callable[..., Any]:
    """The client's method of ``operation`` (``client.calls.create``)."""
    method: Any = client
    for name in METHODS[operation].split("."):
        method = getattr(method, name)
    return cast(Callable[..., Any], method)


def test_every_operation_the_contract_marks_is_in_the_table_of_requests() -> None:
    assert {operation for operation, _ in REQUESTS.values()} == set(CONTACTS)


def test_the_guarded_operations_are_the_contracts_marks_on_every_path(
        client: Client) -> None:
    """A method takes ``override`` and a tool has it in its schema exactly where the
    contract marks the operation; every marked one asks the user first; and the guard's
    one entry judges nothing of an operation left unmarked, whatever its body says."""
    lead = nanp_lead(client)
    named = {"to": PACIFIC, "phone": PACIFIC, "lead_id": lead.id, "dial_now": True,
             "campaign_id": lead.campaign_id, "scheduled_at": AT_NIGHT}
    wrong = []
    for operation in OPERATIONS:
        marked = operation.contact is not None
        takes = "override" in inspect.signature(_method(client, operation.name)).parameters
        schema = TOOLS_BY_NAME[tool_name(operation)].input_schema.get("properties", {})
        if takes != marked or ("override" in schema) != marked:
            wrong.append(operation.name)
        if marked and not reaches_people(operation):
            wrong.append(f"{operation.name} asks nobody")
        path = {name: named.get(name, "x") for name in operation.placeholders}
        if not marked and client.guard.tool(operation.name, path, named) is not False:
            wrong.append(f"{operation.name} judged")
    assert wrong == []
    assert client.guard.overrides == [] and client.guard.resumes == []


@pytest.mark.parametrize("case", REQUESTS)
def test_a_method_and_a_tool_call_of_one_operation_get_the_same_judgment(
        sandbox: Sandbox, case: str) -> None:
    """The method's refusal, the guard's judgment of the tool's wire path and body, and
    the tool's error through ``mcp serve``'s server name one rule, evidence and moment;
    nothing of the operation is sent."""
    operation, arguments_of = REQUESTS[case]
    wire = RecordingTransport()
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                transport=wire) as client:
        arguments = arguments_of(client, sandbox)
        before = len(wire.sent)
        with pytest.raises(ContactForbiddenError) as by_method:
            _method(client, operation)(**arguments)
        tool = TOOLS_BY_NAME[tool_name(operation_by_name(operation))]
        request = tool.request(arguments)
        with pytest.raises(ContactForbiddenError) as by_wire:
            client.guard.tool(operation, request.path, request.body)
        server = build_server(ClientExecutor(client, KEYS["sending"]), audit=MemoryAuditLog())
        by_tool = call(server, None, tool.name, arguments, answer=answering("accept"))
        operations_sent = [s for s in wire.sent[before:] if s.method == "POST"
                           and s.path != "/v1/dnc/check"]
    method, wired = by_method.value, by_wire.value
    said = (method.operation, method.phone, method.rule, method.basis, method.evidence,
            method.next_allowed_at)
    assert (wired.operation, wired.phone, wired.rule, wired.basis, wired.evidence,
            wired.next_allowed_at) == said
    assert by_tool.is_error, text(by_tool)
    problem = by_tool.structured_content
    assert (problem["code"], problem["rule"], problem["basis"], problem["evidence"]) == (
        "contact_forbidden", method.rule, method.basis, method.evidence)
    later = method.next_allowed_at
    assert problem["next_allowed_at"] == (None if later is None else later.isoformat())
    assert abs(wired.at - method.at) < timedelta(seconds=5)
    assert operations_sent == []
    assert client.guard.overrides == []


def test_the_command_lines_server_judges_the_marked_tools_alone(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """``dialkit mcp serve`` over stdio, the guard on as every command's client has it: the
    tools taking ``override`` are the marked operations', and a text the law forbids is
    the guard's refusal, never asked of the user nor sent."""
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "dialkit.cli", "mcp", "serve", "--audit-log",
                                      str(tmp_path / "a.jsonl")],
        env={"DIALKIT_API_KEY": KEYS["sending"], "DIALKIT_BASE_URL": sandbox.base_url,
             "DIALKIT_CACHE_DIR": os.environ["DIALKIT_CACHE_DIR"]})
    async def scenario() -> tuple[set[str], Any]:
        async with McpClient(parameters) as served:
            tools = (await served.list_tools()).tools
            guarded = {t.name for t in tools if "override" in t.input_schema["properties"]}
            return guarded, await served.call_tool("sms_send", TEXT)

    guarded, refused = run(scenario)
    assert guarded == {name.replace(".", "_") for name in CONTACTS}
    assert refused.is_error and refused.structured_content["code"] == "contact_forbidden"
    assert refused.structured_content["rule"] == "calling_hours"
