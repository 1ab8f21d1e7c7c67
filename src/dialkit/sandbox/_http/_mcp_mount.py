"""``/mcp`` in front of the pipeline, its tool server built at its first request.

Building the tool server loads the MCP SDK and every tool's schema (2 CPU-seconds in a
fresh process, 0.05 s each start after): most emulators, in tests and notebooks, never
serve ``/mcp``, so :class:`McpMount` builds it when first asked. Its session
managers need a task group that lives as long as the emulator: :meth:`McpMount.running`,
entered by the application's lifespan, holds one, and the first request starts the
sessions in it, whenever in the emulator's life that request comes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import import_module
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from anyio.abc import TaskGroup, TaskStatus
from starlette.types import Receive, Scope, Send
from ulid import ULID

from .._state._service import Service
from ._checks._admin_access import AdminAccess
from ._checks._auth import check_access
from ._problems import ApiProblem

if TYPE_CHECKING:
    from dialkit.mcp import StreamableHttp

MCP_PATH = "/mcp"
"""Where the tool server answers, beside ``/v1``."""


class McpMount:
    """The ASGI application in front: ``/mcp`` to the tool server, the rest to the pipeline."""

    def __init__(self, service: Service, admin: AdminAccess) -> None:
        self.service = service
        self.admin = admin
        self.pipeline: Any = None
        self.http: StreamableHttp | None = None
        self._group: TaskGroup | None = None
        self._building = anyio.Lock()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Room for the tool server's sessions, for as long as the emulator runs (its
        lifespan); they start with the first request to ``/mcp``."""
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                self._group = None
                group.cancel_scope.cancel()

    def in_front_of(self, pipeline: Any) -> McpMount:
        """Route everything but ``/mcp`` to ``pipeline``; return self."""
        self.pipeline = pipeline
        return self

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == MCP_PATH:
            await self._gate(scope, receive, send)
        else:
            await self.pipeline(scope, receive, send)

    async def _gate(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The key and access of every ``/mcp`` request, answered as on ``/v1``."""
        headers = dict(scope["headers"])
        authorization = headers.get(b"authorization")
        address = (scope.get("client") or ("unknown", 0))[0]
        try:
            caller = self.service.keys.authenticate(
                None if authorization is None else authorization.decode("latin-1"))
            check_access(caller, address)
        except ApiProblem as problem:
            await self.pipeline.send_problem(send, problem, f"req_{ULID()}")
            return
        await (await self._tool_server())(scope, receive, send)

    async def _tool_server(self) -> StreamableHttp:
        """The tool server, built and its sessions started on the first call (once, however
        many requests arrive together)."""
        async with self._building:
            if self.http is None:
                # The imports (the 2 s) on a thread, so /v1 keeps answering meanwhile; the
                # build on the loop, as it writes to the store.
                tools = await anyio.to_thread.run_sync(import_module, f"{__package__}._mcp")
                http = tools.tool_server(self.service, self.admin, MCP_PATH,
                                         lambda: self.pipeline)
                if self._group is not None:  # without a lifespan, the SDK says what is amiss
                    await self._group.start(_serve, http)
                self.http = http
        return self.http


async def _serve(http: StreamableHttp, *, task_status: TaskStatus[None]) -> None:
    """Run ``http``'s sessions until the emulator stops (its task group is cancelled)."""
    async with http.running():
        task_status.started()
        await anyio.sleep_forever()
