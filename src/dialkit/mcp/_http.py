"""The tool server over Streamable HTTP, each 2026-07-28 call answered as one JSON body.

On a 2026-07-28 connection a tool call is one request and one answer: a
confirmation is returned as the answer (``InputRequiredResult``), and no tool
sends a notification before it answers. The SDK would still open an SSE
stream for each such call in case one came (a task group, a watcher of the
client's disconnect, a ping timer), which costs a fifth to a third of the
call's time in the server, so those requests go to a session manager that
answers them as plain JSON. The SDK's own routing rule picks them (a
``MCP-Protocol-Version`` header that is no handshake revision). Older
connections keep their SSE sessions: there a confirmation is asked with
``ctx.elicit`` during the call, over the call's own stream.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.types import Receive, Scope, Send

_VERSION_HEADER = b"mcp-protocol-version"


class StreamableHttp:
    """An ASGI application serving ``server`` at ``path``.

    Its session managers run for as long as :meth:`running` is entered: an ASGI
    server's lifespan does that (uvicorn's default), or the application that mounts it
    enters it in its own lifespan. ``security`` names the Host and Origin values
    answered (default: the loopback names, the SDK's protection against DNS
    rebinding); the emulator passes the names it serves.

    Examples:
        >>> from dialkit.mcp import ClientExecutor, build_server
        >>> client = dialkit.Client.sandbox()
        >>> app = StreamableHttp(build_server(ClientExecutor(client)))
        >>> app.path
        '/mcp'
        >>> import uvicorn
        >>> uvicorn.run(app, port=8000)  # serves until interrupted  # doctest: +SKIP
        >>> client.close()
    """

    def __init__(self, server: MCPServer, path: str = "/mcp",
                 security: TransportSecuritySettings | None = None) -> None:
        self.path = path
        self.sessions = server.streamable_http_app(streamable_http_path=path,
                                                   transport_security=security)
        legacy = server.session_manager
        self._legacy = legacy
        self._single = StreamableHTTPSessionManager(
            app=legacy.app, json_response=True, security_settings=legacy.security_settings,
            max_request_body_size=legacy.max_request_body_size)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Both session managers' tasks, for as long as the application serves."""
        async with self._legacy.run(), self._single.run():
            yield

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http" and scope["path"] == self.path and _single_exchange(scope):
            await self._single.handle_request(scope, receive, send)
        else:
            await self.sessions(scope, receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """Run :meth:`running` from the server's start-up to its shut-down."""
        await receive()  # lifespan.startup
        async with self.running():
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
        await send({"type": "lifespan.shutdown.complete"})


def _single_exchange(scope: Scope) -> bool:
    """Whether the SDK serves the request as one exchange (2026-07-28 and later)."""
    version = next((value for name, value in scope["headers"] if name == _VERSION_HEADER), None)
    return version is not None and version.decode("latin-1") not in HANDSHAKE_PROTOCOL_VERSIONS
