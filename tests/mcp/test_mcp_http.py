"""The emulator's /mcp over HTTP: a 2026-07-28 call is one request and one JSON answer.

Such calls are served by a session manager that answers in JSON (issue 21: the SSE
stream the SDK otherwise opens for each call carried nothing and cost a fifth to a
third of the call's time in the server); older connections keep their SSE sessions,
where a confirmation is asked during the call (``test_mcp_confirm`` runs both).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import httpx2
import pytest
import uvicorn
from mcp import Client as McpClient
from mcp.client.streamable_http import streamable_http_client
from mcp_harness import MODES, audit, run

from conftest import KEYS, base_config
from dialkit import Client
from dialkit._utils._net import listening_socket
from dialkit.mcp import ClientExecutor, StreamableHttp, build_server
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


def test_calls_that_come_together_first_mid_life_all_find_the_tools(make_sandbox: Any) -> None:
    """The tool server is built and its sessions started at the first request to /mcp,
    after the emulator has served others (issue 49); calls arriving together wait for it."""
    fresh = make_sandbox(base_config())
    assert httpx.get(fresh.base_url + "/_sandbox/clock").status_code == 200
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: _tool_call(fresh, "application/json", "calls_list",
                                                     {"limit": 1}), range(4)))
    assert [answer.status_code for answer in answers] == [200] * 4, answers[0].text
    assert [record["tool"] for record in audit(fresh)] == ["calls_list"] * 4


def test_a_handshake_version_without_a_session_is_still_refused(sandbox: Sandbox) -> None:
    answer = _tool_call(sandbox, "application/json, text/event-stream", "calls_list", {},
                        version="2025-11-25")
    assert answer.status_code == 400 and audit(sandbox) == []


def test_the_app_serves_both_eras_under_an_asgi_servers_lifespan(sandbox: Sandbox,
                                                                 api: httpx.Client) -> None:
    """``StreamableHttp`` on its own under uvicorn (as ``dialkit mcp serve --http`` could
    serve it): its lifespan runs both session managers, so a 2026-07-28 call and a
    2025-11-25 session are both answered."""
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None) as client:
        app = StreamableHttp(build_server(ClientExecutor(client, KEYS["full"])))
        with listening_socket("127.0.0.1", 0) as sock:
            server = uvicorn.Server(uvicorn.Config(app, lifespan="on", log_level="warning"))
            thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]})
            thread.start()
            try:
                while not server.started and thread.is_alive():
                    time.sleep(0.01)
                url = f"http://127.0.0.1:{sock.getsockname()[1]}"
                pages = [run(_calls_page, url, mode) for mode in MODES]
            finally:
                server.should_exit = True
                thread.join(timeout=10)
    expected = api.get("/v1/calls", params={"limit": 2}).json()["data"]
    assert pages == [(MODERN, expected), ("2025-11-25", expected)]


async def _calls_page(url: str, mode: str) -> tuple[str, Any]:
    """The protocol the SDK's client settled on (``auto`` falls back to a 2025 session when
    a 2026-07-28 call fails), and a page of calls."""
    async with httpx2.AsyncClient(timeout=30) as http, McpClient(
            streamable_http_client(url + "/mcp", http_client=http), mode=mode) as tools:
        result = await tools.call_tool("calls_list", {"limit": 2})
        assert not result.is_error, result.content
        return tools.protocol_version, result.structured_content["data"]
