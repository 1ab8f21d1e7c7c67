"""Helpers of the tool-server tests: MCP clients on the emulator's /mcp, and answers to
confirmation questions.

Tests run each scenario with ``run(...)`` (an event loop of its own), so they are
plain functions like the rest of the suite.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal

import anyio
import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, ElicitResult, Request

from dialkit.sandbox import Sandbox

Answer = Callable[[Any, Any], Awaitable[ElicitResult]]
MODES = ["auto", "legacy"]
"""The two protocol eras: 2026-07-28 (the question is returned) and 2025-11-25 (ctx.elicit)."""


def answering(action: str, confirm: bool = True, *, asked: list[str] | None = None) -> Answer:
    """An elicitation callback that answers every question with ``action``."""
    async def answer(context: Any, params: Any) -> ElicitResult:
        if asked is not None:
            asked.append(params.message)
        content = {"confirm": confirm} if action == "accept" else None
        return ElicitResult(action=action, content=content)  # type: ignore[arg-type]
    return answer


def slow(seconds: float) -> Answer:
    """A callback whose user never answers in time."""
    async def answer(context: Any, params: Any) -> ElicitResult:
        await anyio.sleep(seconds)
        return ElicitResult(action="accept", content={"confirm": True})
    return answer


@asynccontextmanager
async def connect(target: Sandbox | MCPServer, key: str | None = None, *, mode: str = "auto",
                  answer: Answer | None = None) -> AsyncIterator[Client]:
    """An MCP client on the emulator's /mcp with ``key`` (or in memory on a server)."""
    if isinstance(target, MCPServer):
        async with Client(target, mode=mode, elicitation_callback=answer) as client:  # type: ignore[arg-type]
            yield client
        return
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
        transport = streamable_http_client(target.base_url + "/mcp", http_client=http)
        async with Client(transport, mode=mode, elicitation_callback=answer) as client:  # type: ignore[arg-type]
            yield client


def run(scenario: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    """Run an async scenario to its end on a fresh event loop."""
    return anyio.run(scenario, *args)


def call(target: Sandbox | MCPServer, key: str | None, tool: str, arguments: dict[str, Any],
         *, mode: str = "auto", answer: Answer | None = None) -> CallToolResult:
    """One tool call on a fresh connection."""
    async def scenario() -> CallToolResult:
        async with connect(target, key, mode=mode, answer=answer) as client:
            return await client.call_tool(tool, arguments)
    result: CallToolResult = run(scenario)
    return result


class RawToolCall(Request[dict[str, Any], Literal["tools/call"]]):
    """A ``tools/call`` whose params are sent as given (the SDK's own request checks them)."""

    name_param = "name"


def raw_calls(target: Sandbox | MCPServer, key: str | None,
              params: list[dict[str, Any]], mode: str = "auto") -> list[CallToolResult | MCPError]:
    """Each ``tools/call`` with ``params`` as sent, and what it was answered: a result, or the
    protocol error."""
    async def scenario() -> list[CallToolResult | MCPError]:
        answers: list[CallToolResult | MCPError] = []
        async with connect(target, key, mode=mode) as client:
            for one in params:
                try:
                    answers.append(await client.session.send_request(
                        RawToolCall(method="tools/call", params=one), CallToolResult))
                except MCPError as error:
                    answers.append(error)
        return answers
    answers: list[CallToolResult | MCPError] = run(scenario)
    return answers


def listed(target: Sandbox | MCPServer, key: str | None, mode: str = "auto") -> list[str]:
    """The names ``tools/list`` shows to ``key``."""
    async def scenario() -> list[str]:
        async with connect(target, key, mode=mode) as client:
            return [tool.name for tool in (await client.list_tools()).tools]
    names: list[str] = run(scenario)
    return names


def text(result: CallToolResult) -> str:
    """Every text block of a result, joined."""
    return " ".join(getattr(block, "text", "") for block in result.content)


def audit(running: Sandbox, account: str = "acme") -> list[dict[str, Any]]:
    """The emulator's tool-call audit log for ``account``."""
    answer = httpx.get(running.base_url + "/_sandbox/mcp/audit", params={"account": account},
                       headers=running.admin_headers)
    answer.raise_for_status()
    records: list[dict[str, Any]] = answer.json()["records"]
    return records
