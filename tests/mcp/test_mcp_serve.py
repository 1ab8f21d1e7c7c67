"""``dialkit mcp serve``: the same tools over a real account's key, through dialkit.Client.

The account here is the session emulator's, reached over HTTP like a real one;
the server is connected in memory, and once as the subprocess an assistant
launches over stdio.
"""

from __future__ import annotations

import os
import re
import select
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client as McpClient
from mcp import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_harness import MODES, answering, call, connect, listed, raw_calls, run, slow, text
from typer.testing import CliRunner

from conftest import KEYS, READ_SCOPES, advance, ready_agents
from dialkit import Client
from dialkit._utils._net import listening_socket
from dialkit.cli import app
from dialkit.contract import OPERATIONS
from dialkit.mcp import ClientExecutor, JsonLinesAuditLog, build_server, select_tools, tool_name
from dialkit.mcp import serve as serve_account
from dialkit.sandbox import Sandbox

DOCS = Path(__file__).parents[2] / "docs" / "cli.md"
EASTERN = "+12125550142"
PACIFIC = "+14155550123"
"""07:00 local at the session emulator's clock (15:00 UTC): before calling hours."""
REASON = "The customer asked to be called at once"
CHECKED = ("Checked now: the calling hours and days of the place called (and of the lead's "
           "address state); the Do-Not-Call lists (a live check); the frequency caps (the "
           "number's recent calls and texts); that the law of the country called is held (a "
           "contact to a country whose law is not held is refused, not judged); none forbids "
           "it.")


@pytest.fixture
def serve(sandbox: Sandbox, tmp_path: Path) -> Iterator[Any]:
    """``build_server`` as ``dialkit mcp serve`` builds it, for a role's key."""
    clients: list[Client] = []

    def make(role: str = "full", **options: Any) -> Any:
        clients.append(Client(KEYS[role], base_url=sandbox.base_url, rate_limit=None,
                              max_retries=0))
        executor = ClientExecutor(clients[-1], KEYS[role])
        options.setdefault("audit", JsonLinesAuditLog(tmp_path / "audit.jsonl"))
        return build_server(executor, **options)

    yield make
    for client in clients:
        client.close()


def test_every_tool_is_listed_for_every_scope_and_hidden_without(serve: Any) -> None:
    assert listed(serve(), None) == [tool_name(op) for op in OPERATIONS]
    reader = listed(serve("reader"), None)
    assert reader == [tool_name(op) for op in OPERATIONS
                      if op.scope is None or op.scope in READ_SCOPES]


def test_read_only_and_tools_narrow_the_set(serve: Any) -> None:
    read_only = listed(serve(read_only=True), None)
    assert "calls_list" in read_only and "dnc_check" in read_only
    assert not {"calls_create", "leads_import", "campaigns_pause"} & set(read_only)
    assert listed(serve(tools=["calls_list", "dnc_check"]), None) == ["calls_list", "dnc_check"]
    with pytest.raises(ValueError, match="no tool named calls_delete"):
        select_tools(["calls_delete"])


def test_a_read_returns_what_the_rest_call_returns(serve: Any, api: httpx.Client) -> None:
    result = call(serve(), None, "campaigns_list", {"limit": 3})
    assert result.structured_content["data"] == api.get(
        "/v1/campaigns", params={"limit": 3}).json()["data"]


@pytest.mark.parametrize("mode", MODES)
def test_a_confirmed_call_runs_once_and_a_retry_is_replayed(
        serve: Any, sandbox: Sandbox, api: httpx.Client, mode: str, tmp_path: Path) -> None:
    api.get("/v1/me").raise_for_status()
    extension = ready_agents(sandbox, "client:acme/full")[0]["extension"]
    server = serve("sending")
    arguments = {"to": EASTERN, "agent_extension": extension}

    async def scenario() -> list[Any]:
        async with connect(server, mode=mode, answer=answering("accept")) as client:
            return [await client.call_tool("calls_create", arguments) for _ in range(2)]

    first, retry = run(scenario)
    assert not first.is_error, text(first)
    assert retry.meta["dialkit/replayed"] is True
    calls = api.get("/v1/calls", params={"limit": 20}).json()["data"]
    assert sum(c["status"] == "dialing" for c in calls) == 1
    records = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()
    assert [r.replayed for r in records if r.outcome == "ok"] == [False, True]


def test_an_unanswered_confirmation_runs_nothing(serve: Any, api: httpx.Client) -> None:
    result = call(serve("sending", confirm_timeout=0.2), None, "sms_send",
                  {"to": EASTERN, "body": "Hi", "client_reference": "late-1"},
                  mode="legacy", answer=slow(5))
    assert result.is_error and result.structured_content["code"] == "confirmation_unanswered"
    assert api.get("/v1/sms/delivery-reports").json()["data"] == []


def test_a_refusal_carries_the_problems_code(serve: Any) -> None:
    result = call(serve(), None, "leads_get",
                  {"lead_id": "lead_00000000-0000-4000-8000-000000000000"})
    assert result.is_error and result.structured_content["code"] == "not_found"


def test_the_stdio_server_an_assistant_launches(sandbox: Sandbox, tmp_path: Path) -> None:
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "dialkit.cli", "mcp", "serve", "--read-only",
                                      "--audit-log", str(tmp_path / "a.jsonl")],
        env={"DIALKIT_API_KEY": KEYS["full"], "DIALKIT_BASE_URL": sandbox.base_url,
             "DIALKIT_CACHE_DIR": os.environ["DIALKIT_CACHE_DIR"]})

    async def scenario() -> tuple[list[str], Any]:
        async with McpClient(parameters) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            return names, await client.call_tool("me", {})

    names, me = run(scenario)
    assert "calls_list" in names and "calls_create" not in names
    assert me.structured_content["client"]["name"] == "full"
    assert JsonLinesAuditLog(tmp_path / "a.jsonl").records()[0].tool == "me"


def test_a_missing_key_ends_with_status_2(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path) -> None:
    monkeypatch.delenv("DIALKIT_API_KEY", raising=False)
    log = tmp_path / "audit.jsonl"
    result = CliRunner().invoke(app, ["mcp", "serve", "--audit-log", str(log)])
    assert result.exit_code == 2 and "error: no API key" in result.output
    assert not log.exists(), "a refused start writes nothing"


def test_a_mistyped_tool_is_refused_before_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DIALKIT_API_KEY", raising=False)
    result = CliRunner().invoke(app, ["mcp", "serve", "--tools", "calls_list,calls_lst"])
    assert result.exit_code == 2 and "error: no tool named calls_lst;" in result.output


@pytest.fixture
def account(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    """``dialkit mcp serve``'s environment: the ``full`` key of the session emulator."""
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    return sandbox


def test_an_audit_log_that_cannot_be_written_ends_the_start(account: Sandbox,
                                                            tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    log = tmp_path / "taken" / "audit.jsonl"
    result = CliRunner().invoke(app, ["mcp", "serve", "--audit-log", str(log)])
    assert result.exit_code == 2, result.output
    assert f"error: cannot write the audit log {log}: " in result.output


def test_a_busy_port_ends_the_start(account: Sandbox, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    with listening_socket("127.0.0.1", 0) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["mcp", "serve", "--http", str(port),
                                          "--audit-log", str(log)])
    assert result.exit_code == 2, result.output
    assert f"error: cannot listen on 127.0.0.1:{port}: " in result.output
    assert "listening on" not in result.output
    assert not log.exists(), "a refused start writes nothing"


def test_http_serves_streamable_http_on_the_port_it_printed(sandbox: Sandbox, api: httpx.Client,
                                                            tmp_path: Path) -> None:
    """``--http 0`` prints the port it bound, refuses a request without the key, and
    serves the SDK's own Streamable HTTP client in both eras (a 2026-07-28 call, a
    2025-11-25 session) once it carries the key."""
    server = subprocess.Popen(
        [sys.executable, "-m", "dialkit.cli", "mcp", "serve", "--http", "0", "--read-only",
         "--audit-log", str(tmp_path / "a.jsonl")],
        env={**os.environ, "DIALKIT_API_KEY": KEYS["full"], "DIALKIT_BASE_URL": sandbox.base_url},
        stderr=subprocess.PIPE, text=True)
    try:
        line = _first_line(server, timeout=30)
        found = re.fullmatch(r"listening on http://127\.0\.0\.1:(\d+)/mcp\n", line)
        assert found and int(found[1]) != 0, line
        url = f"http://127.0.0.1:{found[1]}/mcp"
        refused = httpx.post(url, json={}, timeout=10)
        assert refused.status_code == 401 and refused.json()["code"] == "invalid_api_key"
        assert _head_of(int(found[1]), b"X-Padding: " + b"a" * 40_000).startswith(
            b"HTTP/1.1 431 ")  # issue 46: the head is bounded, as the receiver's
        assert _head_of(int(found[1]), _padded_call(100_000)).startswith(
            b"HTTP/1.1 431 ")  # issue 62: a whole head in one read is counted too
        pages = [run(_calls_page, url, mode, scheme)  # issue 46: "bearer" is "Bearer"
                 for mode, scheme in zip(MODES, ["Bearer", "bearer"], strict=True)]
    finally:
        server.terminate()
        server.wait(timeout=30)
        assert server.stderr is not None
        server.stderr.close()


    expected = api.get("/v1/calls", params={"limit": 2}).json()["data"]
    assert pages == [("2026-07-28", expected), ("2025-11-25", expected)]
    records = JsonLinesAuditLog(tmp_path / "a.jsonl").records()
    assert [r.tool for r in records] == ["calls_list"] * 2, "the padded call reached no tool"


def _head_of(port: int, headers: bytes) -> bytes:
    """The start of the answer to a request head sent raw (left unfinished)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode() + headers)
        return sock.recv(4096)


def _padded_call(padding: int) -> bytes:
    """The rest of a head and the body of a modern ``calls_list`` call carrying the key,
    the head padded by ``padding`` bytes."""
    body = (b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calls_list",'
            b'"arguments":{"limit":1},"_meta":{"io.modelcontextprotocol/protocolVersion":'
            b'"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},'
            b'"io.modelcontextprotocol/clientCapabilities":{}}}}')
    return (f"Authorization: Bearer {KEYS['full']}\r\nAccept: application/json\r\n"
            "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
            f"Mcp-Name: calls_list\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n").encode() + (
        b"X-Padding: " + b"a" * padding + b"\r\n\r\n" + body)


async def _calls_page(url: str, mode: str, scheme: str = "Bearer") -> tuple[str, Any]:
    """The protocol the SDK's client settled on, and a page of calls, asked with the key
    under ``scheme``."""
    headers = {"Authorization": f"{scheme} {KEYS['full']}"}
    async with httpx2.AsyncClient(timeout=30, headers=headers) as http, McpClient(
            streamable_http_client(url, http_client=http), mode=mode) as tools:
        result = await tools.call_tool("calls_list", {"limit": 2})
        assert not result.is_error, result.content
        return tools.protocol_version, result.structured_content["data"]


@pytest.mark.parametrize(("options", "message"), [
    ({"tools": ["calls_delete"]}, "no tool named calls_delete"),
    ({"http": 0}, "serving over HTTP needs bearer_token="),
])
def test_the_library_refuses_a_start_before_it_serves(sandbox: Sandbox, tmp_path: Path,
                                                      options: dict[str, Any],
                                                      message: str) -> None:
    log = tmp_path / "audit.jsonl"
    with Client(KEYS["full"], base_url=sandbox.base_url) as client, pytest.raises(
            ValueError, match=message):
        serve_account(client, audit_log=log, **options)
    assert not log.exists(), "a refused start writes nothing"


def _first_line(process: subprocess.Popen[str], timeout: float) -> str:
    """The first line the process writes to standard error, waiting at most ``timeout``."""
    assert process.stderr is not None
    ready, _, _ = select.select([process.stderr], [], [], timeout)
    assert ready, f"nothing written to standard error within {timeout} s"
    return process.stderr.readline()


def test_the_docs_name_every_option_of_mcp_serve() -> None:
    section = DOCS.read_text().split("## `dialkit mcp serve`\n")[1].split("\n## ")[0]
    documented = set(re.findall(r"^\| `(--[a-z-]+)`", section, re.MULTILINE))
    shown = CliRunner().invoke(app, ["mcp", "serve", "--help"]).output
    assert documented == set(re.findall(r"(--[a-z][a-z-]+)", shown)) - {"--help"}


def test_a_scope_granted_while_serving_still_asks_first(sandbox: Sandbox, api: httpx.Client,
                                                        tmp_path: Path) -> None:
    """Issue 19: the key's scopes read at start made a tier-2 call granted later run unasked."""
    campaign = api.get("/v1/campaigns", params={"status": "paused", "limit": 1}
                       ).json()["data"][0]["id"]
    log = tmp_path / "a.jsonl"
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "dialkit.cli", "mcp", "serve", "--audit-log",
                                      str(log)],
        env={"DIALKIT_API_KEY": KEYS["reader"], "DIALKIT_BASE_URL": sandbox.base_url,
             "DIALKIT_CACHE_DIR": os.environ["DIALKIT_CACHE_DIR"]})

    async def scenario() -> tuple[list[str], Any]:
        async with McpClient(parameters) as client:  # declares no elicitation
            names = [t.name for t in (await client.list_tools()).tools]
            grant = httpx.patch(f"{sandbox.base_url}/_sandbox/accounts/acme/clients/reader",
                                json={"scopes": [*READ_SCOPES, "campaigns:resume"]},
                                headers=sandbox.admin_headers)
            grant.raise_for_status()
            return names, await client.call_tool("campaigns_resume",
                                                 {"campaign_id": campaign})

    names, resumed = run(scenario)
    assert "campaigns_resume" not in names, "the key lacked the scope when serve started"
    assert resumed.is_error and resumed.structured_content["code"] == "confirmation_unsupported"
    assert api.get(f"/v1/campaigns/{campaign}").json()["status"] == "paused"
    record = JsonLinesAuditLog(log).records()[-1]
    assert (record.tool, record.outcome, record.confirmation, record.code) == (
        "campaigns_resume", "not_run", "unsupported", "confirmation_unsupported")


def test_a_call_that_reaches_no_tool_is_audited_too(serve: Any, tmp_path: Path) -> None:
    """Issue 19: an unknown tool, or arguments that are not an object, left no record."""
    answers = raw_calls(serve(tools=["calls_list", "dnc_check"]), None, [
        {"name": "calls_create", "arguments": {"to": EASTERN}},  # a tool not served
        {"name": "calls_list", "arguments": [1]}])
    assert answers[0].is_error
    records = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()
    assert [(r.tool, r.outcome, r.code, r.credential_id) for r in records] == [
        ("calls_create", "not_run", "unknown_tool", "fullkey01"),
        ("calls_list", "not_run", "invalid_arguments", "fullkey01")]


def test_a_contact_the_law_forbids_is_the_tools_error_and_is_not_sent(
        serve: Any, api: httpx.Client, tmp_path: Path) -> None:
    """``mcp serve``'s client holds the guard (issue 50): a text at 07:00 in San Francisco
    (the emulator's clock is 15:00 UTC) comes back as the tool's error with the rule, the
    evidence and the next allowed moment, before the user is asked anything."""
    asked: list[str] = []
    result = call(serve("sending"), None, "sms_send",
                  {"to": PACIFIC, "body": "Hi", "client_reference": "night-1"},
                  answer=answering("accept", asked=asked))
    assert result.is_error and asked == []
    record = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()[-1]
    assert (record.outcome, record.confirmation, record.code, record.override) == (
        "not_run", "not_needed", "contact_forbidden", None)
    said = result.structured_content
    assert (said["code"], said["rule"], said["next_allowed_at"]) == (
        "contact_forbidden", "calling_hours", "2026-11-02T16:00:00+00:00")
    assert "16 CFR 310.4(c)" in said["evidence"]
    assert api.get("/v1/sms/delivery-reports").json()["data"] == []
    allowed = call(serve("sending"), None, "sms_send",
                   {"to": EASTERN, "body": "Hi", "client_reference": "day-1"},
                   answer=answering("accept"))
    assert not allowed.is_error, text(allowed)


def test_an_allowed_contacts_question_says_which_rules_were_checked(serve: Any) -> None:
    asked: list[str] = []
    result = call(serve("sending"), None, "sms_send",
                  {"to": EASTERN, "body": "Hi", "client_reference": "day-2"},
                  answer=answering("accept", asked=asked))
    assert not result.is_error, text(result)
    assert asked == [f"Send an SMS to +1 212 555 0142 now: “Hi”. {CHECKED}"]


def test_an_override_needs_the_users_yes_to_its_reason_and_is_audited(
        serve: Any, api: httpx.Client, tmp_path: Path) -> None:
    """Issue 50: the assistant may ask to override a refusal; the user is shown the rule,
    its evidence and the reason, and only their yes sends it, recorded with the reason."""
    server = serve("sending")
    draft = api.get("/v1/campaigns", params={"status": "draft", "limit": 1}).json()["data"]
    lead = {"campaign_id": draft[0]["id"], "phone": PACIFIC, "dial_now": True}
    blank = call(server, None, "leads_create", {**lead, "override": " "})
    assert blank.structured_content["code"] == "invalid_arguments"
    asked: list[str] = []
    declined = call(server, None, "leads_create", {**lead, "override": f" {REASON} "},
                    answer=answering("decline", asked=asked))
    assert declined.is_error
    assert [lead for lead in api.get("/v1/leads", params={"campaign_id": draft[0]["id"],
                                                          "limit": 100}).json()["data"]
            if lead["phone"] == PACIFIC] == []
    [question] = asked
    assert question.startswith("Add +1 415 555 0123 to campaign ")
    assert "The guard FORBIDS this contact now: calling_hours (law): " in question
    assert "16 CFR 310.4(c)" in question and "next allowed 2026-11-02 16:00 UTC" in question
    assert f"overriding it for the reason “{REASON}”. Confirm only if" in question
    accepted = call(server, None, "leads_create", {**lead, "override": REASON},
                    answer=answering("accept"))
    assert not accepted.is_error, text(accepted)
    assert accepted.structured_content["status"] == "accepted"
    records = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()
    assert [(r.outcome, r.confirmation, r.code, r.override, r.overridden)
            for r in records] == [
        ("not_run", "not_needed", "invalid_arguments", "", None),
        ("not_run", "asked", "awaiting_confirmation", REASON, "calling_hours"),
        ("not_run", "declined", "confirmation_declined", REASON, "calling_hours"),
        ("not_run", "asked", "awaiting_confirmation", REASON, "calling_hours"),
        ("sending", "given", "override_recorded", REASON, "calling_hours"),
        ("ok", "given", None, REASON, "calling_hours")]


def test_a_resume_at_night_is_overridden_only_with_the_users_yes(
        serve: Any, api: httpx.Client, sandbox: Sandbox, tmp_path: Path) -> None:
    """The campaign's refusal (most of its diallable leads at night) takes the same path:
    the question gives the count of leads the law forbids, the rule and the reason."""
    campaign = api.get("/v1/campaigns", params={"status": "paused", "limit": 1}
                       ).json()["data"][0]["id"]
    advance(sandbox, 12 * 3600)  # 03:00 UTC: night in North America
    asked: list[str] = []
    resumed = call(serve("full"), None, "campaigns_resume",
                   {"campaign_id": campaign, "override": REASON},
                   answer=answering("accept", asked=asked))
    assert not resumed.is_error, text(resumed)
    assert api.get(f"/v1/campaigns/{campaign}").json()["status"] == "running"
    [question] = asked
    assert question.startswith(f"Resume campaign {campaign} now: its dialler starts calling "
                               "its leads. The guard FORBIDS this contact now: ")
    assert "diallable leads may not be called now" in question and REASON in question
    record = JsonLinesAuditLog(tmp_path / "audit.jsonl").records()[-1]
    assert (record.outcome, record.override) == ("ok", REASON)
