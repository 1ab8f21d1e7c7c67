"""``dialkit mcp serve``: the assistant-tool server over a real account.

The tools are :mod:`dialkit.mcp`'s; :class:`ClientExecutor` runs them through
:class:`dialkit.Client` with ``DIALKIT_API_KEY`` (so the client's rate
limiting, retries with the same Idempotency-Key and error mapping apply).
stdio is the usual way an assistant launches a local server; ``--http PORT``
serves Streamable HTTP on loopback instead, where every request must carry
the same key as its bearer token.
"""

from __future__ import annotations

import hmac
import os
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import anyio.to_thread
import orjson
import platformdirs
import typer
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Receive, Scope, Send

from dialkit._net import listening_socket
from dialkit.client import API_KEY_VARIABLE, Client
from dialkit.client._transport import Call
from dialkit.contract import ErrorCode
from dialkit.contract import Scope as ApiScope
from dialkit.errors import ApiError
from dialkit.mcp import (
    AccessRefusedError,
    Identity,
    JsonLinesAuditLog,
    ToolAnswer,
    ToolCall,
    build_server,
    select_tools,
)

mcp_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)

AUDIT_FILE = "mcp-audit.jsonl"
HOST = "127.0.0.1"
"""``--http`` serves on loopback only: the key travels as a bearer token."""


def default_audit_path() -> Path:
    """Where ``dialkit mcp serve`` appends its audit log unless told otherwise."""
    return Path(platformdirs.user_log_dir("dialkit")) / AUDIT_FILE


def identity_from_me(me: dict[str, Any], credential_id: str) -> Identity:
    """An :class:`Identity` from ``GET /v1/me`` (whose shape the contract does not show:
    missing parts are left open, and with no scopes listed every tool is shown)."""
    client = _part(me, "client")
    account = _part(me, "account")
    listed = client.get("scopes")
    known = {s.value for s in ApiScope}
    scopes = (frozenset(ApiScope) if not isinstance(listed, list)
              else frozenset(ApiScope(s) for s in listed if s in known))
    return Identity(account.get("name"), str(client.get("id", "")), credential_id, scopes)


def _part(me: dict[str, Any], name: str) -> dict[str, Any]:
    part = me.get(name)
    return part if isinstance(part, dict) else {}


class ClientExecutor:
    """Runs tool calls through a :class:`dialkit.Client` (its key, its retries)."""

    def __init__(self, client: Client, api_key: str) -> None:
        self.client = client
        self._key = api_key
        self._identity: Identity | None = None

    def identity(self) -> Identity:
        """The key's identity, asked of the service once (``GET /v1/me``). Its scopes shape
        only what ``tools/list`` shows: whether a call asks the user never depends on them
        (a scope granted later must not skip a question), and the service checks each call."""
        if self._identity is None:
            self._identity = identity_from_me(dict(self.client.me()), self.client.credential_id)
        return self._identity

    async def identify(self, credentials: str | None) -> Identity:
        """The key's identity; over HTTP, the bearer token must be that very key."""
        if credentials is not None and not hmac.compare_digest(credentials.encode(),
                                                               self._key.encode()):
            raise AccessRefusedError("The bearer token is not this server's key.",
                                     status=401, code=ErrorCode.INVALID_API_KEY)
        if self._identity is not None:
            return self._identity
        return await anyio.to_thread.run_sync(self.identity)

    async def execute(self, call: ToolCall) -> ToolAnswer:
        """Send ``call`` with the client; a refusal comes back as its problem."""
        request = Call(call.operation.name, path=dict(call.path), params=dict(call.query),
                       body=call.body, idempotency_key=call.idempotency_key,
                       if_match=call.if_match)
        try:
            answer = await anyio.to_thread.run_sync(self.client._transport.send, request)
        except ApiError as error:
            return _problem_answer(error)
        except ValueError as refused:  # refused before sending (a key in the arguments)
            body = {"code": ErrorCode.VALIDATION_FAILED, "status": 400, "detail": str(refused)}
            return ToolAnswer(400, orjson.dumps(body), "application/problem+json")
        info = answer.info
        return ToolAnswer(info.status_code, answer.content, _media_type(answer.content),
                          request_id=info.request_id, replayed=info.replayed, etag=info.etag)


def _media_type(content: bytes) -> str:
    if content.startswith(b"RIFF"):
        return "audio/wav"
    return "application/json" if content[:1] in (b"{", b"[") else "application/octet-stream"


def _problem_answer(error: ApiError) -> ToolAnswer:
    problem = {"code": error.code, "status": error.status, "detail": error.detail,
               "request_id": error.request_id,
               "errors": [{"pointer": e.pointer, "code": e.code} for e in error.errors]}
    return ToolAnswer(error.status or 0, orjson.dumps(problem), "application/problem+json",
                      request_id=error.request_id, replayed=error.replayed,
                      retry_after=error.retry_after)


def bearer_gate(app: ASGIApp, api_key: str) -> ASGIApp:
    """Refuse (401) any HTTP request whose bearer token is not ``api_key``."""
    expected = f"Bearer {api_key}".encode()

    async def gate(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, expected):
                await _refuse(send)
                return
        await app(scope, receive, send)

    return gate


async def _refuse(send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    body = orjson.dumps({"code": ErrorCode.INVALID_API_KEY, "status": 401,
                         "detail": "Send 'Authorization: Bearer <DIALKIT_API_KEY>'."})
    await send({"type": "http.response.start", "status": 401, "headers": [
        (b"content-type", b"application/problem+json"),
        (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _tool_names(tools: str | None) -> list[str] | None:
    return None if tools is None else [t.strip() for t in tools.split(",") if t.strip()]


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _executor(names: list[str] | None, read_only: bool) -> tuple[ClientExecutor, str]:
    """The executor over ``DIALKIT_API_KEY``, its identity asked once; the tool names are
    checked first, so a mistyped one is refused before the key is used."""
    api_key = os.environ.get(API_KEY_VARIABLE, "")
    try:
        select_tools(names, read_only=read_only)
        client = Client(api_key or None)
    except ValueError as exc:
        _fail(str(exc))
    executor = ClientExecutor(client, api_key)
    try:
        executor.identity()
    except (ValueError, ApiError) as exc:
        client.close()
        _fail(str(exc))
    return executor, api_key


def _listen(port: int) -> socket.socket:
    """The HTTP socket, bound before anything is written, so a busy port ends the start
    and ``--http 0`` learns its port."""
    try:
        return listening_socket(HOST, port)
    except OSError as exc:
        _fail(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}; pick another port "
              "(0: any free one)")


def _audit(path: Path) -> JsonLinesAuditLog:
    """The audit log, its file opened now: a tool must never run an operation and then
    fail to record it."""
    try:
        return JsonLinesAuditLog(path)
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(path) else ""
        _fail(f"cannot write the audit log {path}: {exc.strerror or exc}{where}; pass a "
              "writable --audit-log PATH")


def _serve_http(server: MCPServer, api_key: str, sock: socket.socket) -> None:
    """Serve Streamable HTTP on the bound socket, behind the bearer gate."""
    import uvicorn

    host, port = sock.getsockname()[:2]
    typer.echo(f"listening on http://{host}:{port}/mcp", err=True)
    config = uvicorn.Config(bearer_gate(server.streamable_http_app(), api_key),
                            log_level="warning")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


@mcp_app.command("serve")
def serve(
    http: Annotated[int | None, typer.Option(metavar="PORT", help=(
        "Serve Streamable HTTP on 127.0.0.1:PORT instead of stdio (0: a free port)."))] = None,
    read_only: Annotated[bool, typer.Option("--read-only", help=(
        "Offer only the tier-1 read tools."))] = False,
    tools: Annotated[str | None, typer.Option(metavar="NAMES", help=(
        "Offer only these tools, comma-separated: calls_list,dnc_check."))] = None,
    audit_log: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "JSON Lines file the audit log is appended to; default in the user log folder."))
    ] = None,
) -> None:
    """Serve every operation as an MCP tool over DIALKIT_API_KEY's account."""
    names = _tool_names(tools)
    executor, api_key = _executor(names, read_only)
    sock: socket.socket | None = None
    try:
        if http is not None:
            sock = _listen(http)
        audit = _audit(audit_log or default_audit_path())
    except typer.Exit:  # a refused start: let go of what was opened
        executor.client.close()
        if sock is not None:
            sock.close()
        raise
    server = build_server(executor, tools=names, read_only=read_only, audit=audit)
    if sock is None:
        server.run("stdio")
    else:
        _serve_http(server, api_key, sock)
