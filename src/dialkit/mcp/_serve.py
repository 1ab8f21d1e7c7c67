"""A client's account served as MCP tools until interrupted: :func:`serve`.

stdio is the usual way an assistant launches a local server; ``http=PORT``
serves Streamable HTTP on loopback instead (:class:`StreamableHttp`), where
every request must carry the bearer token (the key travels in it, so only
loopback is offered). ``dialkit mcp serve`` is this function with the key of
``DIALKIT_API_KEY``; a notebook or script calls it with its own client.
"""

from __future__ import annotations

import hmac
import os
import socket
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson
import platformdirs
from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Receive, Scope, Send

from dialkit._utils._net import bearer_token, checked_port, listening_socket, server_config
from dialkit.contract import ErrorCode

from .._utils._base_error import InputError
from ._call_log import AuditLog, JsonLinesAuditLog
from ._client_executor import AccountClient, ClientExecutor
from ._http import StreamableHttp
from ._server import build_server, select_tools

AUDIT_FILE = "mcp-audit.jsonl"
HOST = "127.0.0.1"
"""``http=`` serves on loopback only: the key travels as a bearer token."""


def default_audit_path() -> Path:
    """Where :func:`serve` appends its audit log unless told otherwise."""
    return Path(platformdirs.user_log_dir("dialkit")) / AUDIT_FILE


def serve(client: AccountClient, *, http: int | None = None, bearer_token: str | None = None,
          tools: Iterable[str] | None = None, read_only: bool = False,
          audit_log: AuditLog | str | os.PathLike[str] | None = None) -> None:
    """Serve every operation as an MCP tool over ``client``'s account until interrupted.

    Everything that can refuse the start does so before anything is served: the tool
    names, the key (``GET /v1/me``, asked once), the port, the audit log's file.

    Args:
        client: A :class:`dialkit.Client`; it stays open (the caller closes it).
        http: Serve Streamable HTTP on ``127.0.0.1:http`` (0: a free port, printed to
            stderr as ``listening on http://127.0.0.1:PORT/mcp``) instead of stdio.
        bearer_token: With ``http``, the token every request must carry as
            ``Authorization: Bearer ...``: the client's key, for one.
        tools: Serve only these tools (names such as ``calls_list``).
        read_only: Serve only the tier-1 read tools.
        audit_log: Where every tool call is recorded: an :class:`AuditLog` or a JSON
            Lines file; default ``mcp-audit.jsonl`` in the user log folder.

    Raises:
        ValueError: A name that is no tool's, a malformed key, ``http`` without
            ``bearer_token``, or an ``http`` that is no port (0 to 65535).
        dialkit.errors.ApiError: The service refused the key.
        OSError: The port cannot be bound or the audit log cannot be written.

    Examples:
        >>> import os
        >>> import dialkit.mcp
        >>> client = dialkit.Client.sandbox()  # or dialkit.Client() for the service
        >>> token = os.environ["DIALKIT_SANDBOX_KEY"]  # the client's key, for one
        >>> # serves until interrupted (so the doctests skip it):
        >>> dialkit.mcp.serve(client, http=8000, bearer_token=token)  # doctest: +SKIP
        >>> client.close()
    """
    names = None if tools is None else list(tools)
    select_tools(names, read_only=read_only)
    if http is not None and not bearer_token:
        raise InputError("serving over HTTP needs bearer_token=: the token every request "
                         "must carry (the client's key, for one)")
    if http is not None:
        checked_port(http, "http")  # before the key is asked about
    executor = ClientExecutor(client, bearer_token)
    executor.identity()
    if http is None or bearer_token is None:
        build_server(executor, tools=names, read_only=read_only,
                     audit=_audit(audit_log)).run("stdio")
        return
    sock = _listen(http)
    try:
        audit = _audit(audit_log)
    except BaseException:  # an InputError too (a link, a file for a folder): no socket left
        sock.close()
        raise
    _serve_http(build_server(executor, tools=names, read_only=read_only, audit=audit),
                bearer_token, sock)


def _listen(port: int) -> socket.socket:
    """The HTTP socket, bound before anything is served, so a busy port ends the start
    and ``http=0`` learns its port."""
    try:
        return listening_socket(HOST, port, name="http")
    except OSError as exc:
        raise OSError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}; pick another "
                      "port (0: any free one)") from exc


def _audit(given: AuditLog | str | os.PathLike[str] | None) -> AuditLog:
    """The audit log, a file opened now: a tool must never run an operation and then
    fail to record it."""
    if given is not None and not isinstance(given, (str, os.PathLike)):
        return given
    path = Path(given) if given is not None else default_audit_path()
    try:
        return JsonLinesAuditLog(path)
    except InputError as exc:  # a file where its folder must be: what to do is said
        raise InputError(f"cannot write the audit log {path}: {exc}") from None
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(path) else ""
        raise OSError(f"cannot write the audit log {path}: {exc.strerror or exc}{where}; "
                      "pass a writable audit_log= path") from exc


def _serve_http(server: MCPServer, bearer_token: str, sock: socket.socket) -> None:
    """Serve Streamable HTTP on the bound socket, behind the bearer gate."""
    import uvicorn

    host, port = sock.getsockname()[:2]
    print(f"listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    config = server_config(bearer_gate(StreamableHttp(server), bearer_token),
                           log_level="warning")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()


def bearer_gate(app: ASGIApp, token: str) -> ASGIApp:
    """``app`` refusing (401, problem+json) any HTTP request whose bearer token is not
    ``token``; other scopes (the lifespan) pass through. The scheme may be written in
    any case (``bearer``), as RFC 7235 has it.

    Examples:
        >>> import asyncio, httpx
        >>> from dialkit.mcp import ClientExecutor, build_server
        >>> client = dialkit.Client.sandbox()
        >>> app = bearer_gate(StreamableHttp(build_server(ClientExecutor(client))), "s3cret")
        >>> async def post(token):
        ...     async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
        ...                                  base_url="http://mcp") as http:
        ...         return await http.post("/mcp", headers={"Authorization": f"Bearer {token}"})
        >>> asyncio.run(post("wrong")).status_code
        401
        >>> client.close()
    """
    expected = token.encode()

    async def gate(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = bearer_token(dict(scope["headers"]).get(b"authorization")) or ""
            if not hmac.compare_digest(given.encode(), expected):
                await _refuse(send)
                return
        await app(scope, receive, send)

    return gate


async def _refuse(send: Send) -> None:
    body = orjson.dumps({"code": ErrorCode.INVALID_API_KEY, "status": 401,
                         "detail": "Send 'Authorization: Bearer <DIALKIT_API_KEY>'."})
    headers: list[Any] = [(b"content-type", b"application/problem+json"),
                          (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 401, "headers": headers})
    await send({"type": "http.response.body", "body": body})
