"""The emulator's /mcp over HTTP: a 2026-07-28 call is one request and one JSON answer.

Such calls are served by a session manager that answers in JSON (issue 21: the SSE
stream the SDK otherwise opens for each call carried nothing and cost a fifth to a
third of the call's time in the server); older connections keep their SSE sessions,
where a confirmation is asked during the call (``test_mcp_confirm`` runs both).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from mcp_harness import audit

from conftest import KEYS
from dialkit.sandbox import Sandbox

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}


def _tool_call(sandbox: Sandbox, accept: str, tool: str, arguments: dict[str, Any],
               version: str = MODERN) -> httpx.Response:
    """One ``tools/call`` POSTed as the SDK's client sends it, with ``accept``."""
    return httpx.post(sandbox.base_url + "/mcp", headers={
        "Authorization": f"Bearer {KEYS['full']}", "Accept": accept,
        "MCP-Protocol-Version": version, "Mcp-Method": "tools/call", "Mcp-Name": tool,
    }, json={"jsonrpc": "2.0", "id": 7, "method": "tools/call",
             "params": {"name": tool, "arguments": arguments, "_meta": META}})


@pytest.mark.parametrize("accept", ["application/json", "application/json, text/event-stream"])
def test_a_modern_call_is_answered_as_one_json_body(sandbox: Sandbox, api: httpx.Client,
                                                    accept: str) -> None:
    answer = _tool_call(sandbox, accept, "calls_list", {"limit": 3})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    result = answer.json()["result"]
    assert answer.json()["id"] == 7 and not result["isError"]
    assert result["structuredContent"]["data"] == api.get("/v1/calls", params={"limit": 3}
                                                          ).json()["data"]
    assert [record["tool"] for record in audit(sandbox)] == ["calls_list"]


def test_a_handshake_version_without_a_session_is_still_refused(sandbox: Sandbox) -> None:
    answer = _tool_call(sandbox, "application/json, text/event-stream", "calls_list", {},
                        version="2025-11-25")
    assert answer.status_code == 400 and audit(sandbox) == []
