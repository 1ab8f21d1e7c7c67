"""The emulator's assistant-tool server: ``/mcp`` (Streamable HTTP) beside ``/v1``.

The tools are :mod:`dialkit.mcp`'s; what runs them is :class:`PipelineExecutor`,
which sends each tool call as an in-process ASGI request through the
emulator's own request pipeline. A tool call therefore meets exactly what
the REST request meets: the key, access, allow-lists, rate limits, scope,
tier, sending setup, caps, faults and idempotency. The key is checked once
more for every HTTP request to ``/mcp`` (401 / 403 problem+json, as on
``/v1``), and every tool call is written to the audit log, readable at
``GET /_sandbox/mcp/audit`` with the admin key. Its Host and Origin are checked
as ``/_sandbox``'s, with the same settings (:mod:`._checks._admin_access`).

This module loads the MCP SDK (2 CPU-seconds): :class:`._mcp_mount.McpMount` imports
it at the first request to ``/mcp``, so an emulator that serves none never pays.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote, urlencode

import orjson
from starlette.types import ASGIApp, Message, Scope

from dialkit.mcp import (
    AccessRefusedError,
    Identity,
    StreamableHttp,
    ToolAnswer,
    ToolCall,
    build_server,
)

from .._state._service import Service
from ._checks._admin_access import AdminAccess
from ._mcp_audit import StoreAuditLog
from ._problems import ApiProblem


class PipelineExecutor:
    """Runs tool calls through the emulator's request pipeline, in-process."""

    def __init__(self, service: Service, pipeline: Callable[[], ASGIApp]) -> None:
        self.service = service
        self._pipeline = pipeline

    async def identify(self, credentials: str | None) -> Identity:
        """The caller behind a bearer token, by the emulator's own key lookup."""
        header = None if credentials is None else f"Bearer {credentials}"
        try:
            caller = self.service.keys.authenticate(header)
        except ApiProblem as problem:
            raise AccessRefusedError(problem.detail, status=problem.status,
                                     code=problem.code) from None
        return Identity(caller.account.name, caller.client_id, caller.key.credential_id,
                        frozenset(caller.client.scopes))

    async def execute(self, call: ToolCall) -> ToolAnswer:
        """Send ``call`` through the pipeline as the REST request it stands for."""
        body = b"" if call.body is None else orjson.dumps(call.body)
        scope = _http_scope(call, body)
        collected = _Collector()
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self._pipeline()(scope, receive, collected)
        return collected.answer()


def _http_scope(call: ToolCall, body: bytes) -> Scope:
    operation = call.operation
    path = operation.path.format_map({k: quote(v, safe="") for k, v in call.path.items()})
    headers = [(b"host", b"127.0.0.1")]
    if call.credentials is not None:
        headers.append((b"authorization", f"Bearer {call.credentials}".encode("latin-1")))
    if body:
        headers += [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())]
    if call.idempotency_key is not None:
        headers.append((b"idempotency-key", call.idempotency_key.encode("latin-1")))
    if call.if_match is not None:
        headers.append((b"if-match", call.if_match.encode("latin-1")))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": operation.method, "scheme": "http", "path": path,
            "raw_path": path.encode(), "query_string": urlencode(call.query).encode(),
            "root_path": "", "headers": headers, "client": (call.source or "127.0.0.1", 0),
            "server": ("127.0.0.1", 0), "state": {}}


class _Collector:
    """An ASGI ``send`` that keeps the whole answer."""

    def __init__(self) -> None:
        self.status = 0
        self.headers: dict[str, str] = {}
        self.chunks: list[bytes] = []
        self.complete = False

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {bytes(k).decode("latin-1").lower(): bytes(v).decode("latin-1")
                            for k, v in message.get("headers", [])}
        elif message["type"] == "http.response.body":
            self.chunks.append(message.get("body", b""))
            self.complete = not message.get("more_body", False)

    def answer(self) -> ToolAnswer:
        if not self.complete:  # an injected connection drop: no complete answer
            return ToolAnswer(0, b"", request_id=self.headers.get("x-request-id"))
        retry_after = self.headers.get("retry-after")
        return ToolAnswer(
            self.status, b"".join(self.chunks),
            content_type=self.headers.get("content-type", "application/octet-stream"),
            request_id=self.headers.get("x-request-id"),
            replayed=self.headers.get("idempotency-replayed") == "true",
            retry_after=float(retry_after) if retry_after else None,
            etag=self.headers.get("etag"))


def tool_server(service: Service, admin: AdminAccess, path: str,
                pipeline: Callable[[], ASGIApp]) -> StreamableHttp:
    """The tool server at ``path``, running tools through ``pipeline`` and answering only
    ``admin``'s Host and Origin names; its audit log in the emulator's store."""
    server = build_server(PipelineExecutor(service, pipeline),
                          audit=StoreAuditLog(service.store))
    return StreamableHttp(server, path, admin.security)
