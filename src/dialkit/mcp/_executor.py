"""The seam between the tool server and whatever runs an operation.

The tool server knows the contract and MCP, nothing else. What runs a tool
call is an :class:`Executor`: the emulator runs it through its own request
pipeline in-process, ``dialkit mcp serve`` through :class:`dialkit.Client`.
Both answer with the REST answer itself (:class:`ToolAnswer`), so a tool
call meets exactly the REST path's key, scopes, limits and errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from dialkit.contract import Operation, Scope

from .._utils._base_error import (
    AccessRefusedError,  # noqa: F401
    )


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a tool call acts for: what ``GET /v1/me`` says about the key.

    Attributes:
        account: The account's name, where the service tells it.
        client_id: The API client's ``cli_`` id.
        credential_id: The key's credential id (never its secret).
        scopes: The scopes the key's API client holds.
    """

    account: str | None
    client_id: str
    credential_id: str
    scopes: frozenset[Scope]


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One operation to run for a tool call, in REST terms.

    Attributes:
        operation: The contract operation.
        path: Values of the path template's placeholders.
        query: Query parameters (already in wire form, ``None`` dropped).
        body: The JSON body, or ``None`` for no body.
        idempotency_key: The key derived from the tool call (writes and PATCH).
        if_match: ``If-Match``, where the operation takes one.
        credentials: The bearer token the MCP request carried (``None`` on stdio).
        source: The MCP client's address, where the transport knows it.
        override: The reason, confirmed by the user, to send a contact the guard forbids;
            ``None``: the guard refuses it.
    """

    operation: Operation
    path: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, str] = field(default_factory=dict)
    body: Any = None
    idempotency_key: str | None = None
    if_match: str | None = None
    credentials: str | None = None
    source: str | None = None
    override: str | None = None


@dataclass(frozen=True, slots=True)
class GuardCheck:
    """What a guard said of a tool call before the user is asked.

    Attributes:
        checked: The rules it judged the contact by, in words; empty where it judged
            none (the call reaches nobody now, or the guard is off).
        refusal: The refusal's problem (``code`` ``contact_forbidden``, ``rule``,
            ``basis``, ``evidence``, ``next_allowed_at``, ``detail``); ``None``: allowed.
    """

    checked: tuple[str, ...]
    refusal: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ToolAnswer:
    """The REST answer to a :class:`ToolCall`.

    Attributes:
        status: The HTTP status; 0 when no complete answer arrived.
        body: The answer's bytes (problem+json for an error).
        content_type: The media type of ``body``.
        request_id: ``X-Request-ID``, if the answer had one.
        replayed: ``Idempotency-Replayed: true``: the stored answer of an earlier call.
        retry_after: ``Retry-After`` in seconds, if given.
        etag: ``ETag``, if given: the assistant passes it back as ``if_match`` to
            guard an update against a change made since its read.
    """

    status: int
    body: bytes
    content_type: str = "application/json"
    request_id: str | None = None
    replayed: bool = False
    retry_after: float | None = None
    etag: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the operation succeeded (2xx)."""
        return 200 <= self.status < 300

    def json(self) -> Any:
        """The body as JSON; ``None`` for an empty or non-JSON body."""
        if not self.body or "json" not in self.content_type:
            return None
        try:
            return orjson.loads(self.body)
        except orjson.JSONDecodeError:
            return None


class Executor(Protocol):
    """Runs tool calls as REST operations for one service."""

    async def identify(self, credentials: str | None) -> Identity:
        """The identity behind ``credentials`` (``None``: the executor's own key).

        Raises:
            AccessRefusedError: The key is refused.
        """
        ...

    async def execute(self, call: ToolCall) -> ToolAnswer:
        """Run ``call`` and return the service's answer, success or problem."""
        ...


class GuardedExecutor(Executor, Protocol):
    """An executor with a guard on the contacts it sends (``dialkit mcp serve``'s; the
    emulator's own ``/mcp`` has none: docs/mcp.md)."""

    async def judge(self, call: ToolCall) -> GuardCheck:
        """What the guard says of ``call`` now, without sending it."""
        ...
