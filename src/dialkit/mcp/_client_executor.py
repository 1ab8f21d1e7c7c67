"""Tool calls run through a :class:`dialkit.Client`: its key, rate limit, retries with the
same Idempotency-Key, and error mapping.

This package may not import :mod:`dialkit.client` (it takes an executor; the
layers test holds it to the contract), so the client comes in as
:class:`AccountClient`, the part of a ``dialkit.Client`` this executor uses.
Its transport is that part too: the one place that sends any operation by
name, which no public client method does today.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, Protocol

import anyio.to_thread
import orjson

from dialkit.contract import ErrorCode, ResponseInfo, Scope
from dialkit.errors import ApiError, ContactForbiddenError

from .._utils._base_error import AccessRefusedError
from ._executor import GuardCheck, Identity, ToolAnswer, ToolCall


class SentAnswer(Protocol):
    """A successful answer of the client's transport."""

    @property
    def content(self) -> bytes: ...

    @property
    def info(self) -> ResponseInfo: ...


class OperationSender(Protocol):
    """The client's transport: sends one operation, retrying as the client does."""

    def send(self, call: Any, /) -> SentAnswer: ...


class ToolGuard(Protocol):
    """The client's guard, as a tool call asks it before the call is sent."""

    def tool(self, operation: str, path: Mapping[str, str], body: Any, /, *,
             override: str | None = None, turn: ExitStack | None = None) -> bool: ...

    def checks(self) -> tuple[str, ...]: ...


class AccountClient(Protocol):
    """What :class:`ClientExecutor` uses of a :class:`dialkit.Client` (and its ``guard``,
    where it has one)."""

    @property
    def credential_id(self) -> str: ...

    @property
    def _transport(self) -> OperationSender: ...

    def me(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True, slots=True)
class _Call:
    """One operation for the client's transport, in the fields its own ``Call`` has."""

    operation: str
    path: Mapping[str, str]
    params: Mapping[str, Any]
    body: Any
    idempotency_key: str | None
    if_match: str | None
    correlation_id: str | None = None


def identity_from_me(me: Mapping[str, Any], credential_id: str) -> Identity:
    """An :class:`Identity` from ``GET /v1/me`` (whose shape the contract does not show:
    missing parts are left open, and with no scopes listed every tool is shown).

    Examples:
        >>> me = {"account": {"name": "Acme"}, "client": {"id": "cli_1", "scopes": ["calls:read"]}}
        >>> identity_from_me(me, "cred_1").scopes
        frozenset({<Scope.CALLS_READ: 'calls:read'>})
    """
    client = _part(me, "client")
    listed = client.get("scopes")
    known = {s.value for s in Scope}
    scopes = (frozenset(Scope) if not isinstance(listed, list)
              else frozenset(Scope(s) for s in listed if s in known))
    return Identity(_part(me, "account").get("name"), str(client.get("id", "")), credential_id,
                    scopes)


def _part(me: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    part = me.get(name)
    return part if isinstance(part, dict) else {}


class ClientExecutor:
    """Runs tool calls through a :class:`dialkit.Client` (its key, its retries).

    Args:
        client: The client whose account the tools act on.
        bearer_token: Over HTTP, the token every request must carry (the client's key,
            for one); ``None`` where the transport carries none (stdio).

    Examples:
        >>> from dialkit.mcp import build_server
        >>> client = dialkit.Client.sandbox()
        >>> executor = ClientExecutor(client)
        >>> "calls:read" in executor.identity().scopes  # what the tools may do
        True
        >>> server = build_server(executor)
        >>> client.close()
    """

    def __init__(self, client: AccountClient, bearer_token: str | None = None) -> None:
        self.client = client
        self._token = bearer_token
        self._identity: Identity | None = None

    def identity(self) -> Identity:
        """The key's identity, asked of the service once (``GET /v1/me``). Its scopes shape
        only what ``tools/list`` shows: whether a call asks the user never depends on them
        (a scope granted later must not skip a question), and the service checks each call."""
        if self._identity is None:
            self._identity = identity_from_me(self.client.me(), self.client.credential_id)
        return self._identity

    async def identify(self, credentials: str | None) -> Identity:
        """The key's identity; a request that carries a bearer token must carry this
        executor's."""
        if credentials is not None and (self._token is None or not hmac.compare_digest(
                credentials.encode(), self._token.encode())):
            raise AccessRefusedError("The bearer token is not this server's key.",
                                     status=401, code=ErrorCode.INVALID_API_KEY)
        if self._identity is not None:
            return self._identity
        return await anyio.to_thread.run_sync(self.identity)

    async def judge(self, call: ToolCall) -> GuardCheck:
        """What the client's guard says of ``call`` now, nothing sent: the question to the
        user names the rules checked, or the refusal a confirmed ``override`` would pass."""
        guard: ToolGuard | None = getattr(self.client, "guard", None)
        if guard is None:
            return GuardCheck(())
        try:
            judged = await anyio.to_thread.run_sync(
                guard.tool, call.operation.name, call.path, call.body)
        except ContactForbiddenError as refused:
            return GuardCheck(guard.checks(), _forbidden_problem(refused))
        return GuardCheck(guard.checks() if judged else ())

    async def execute(self, call: ToolCall) -> ToolAnswer:
        """Send ``call`` with the client, judged again by its guard at the moment it is
        sent (an override recorded in ``client.guard.overrides``); a refusal comes back as
        its problem."""
        sent = _Call(call.operation.name, path=dict(call.path), params=dict(call.query),
                     body=call.body, idempotency_key=call.idempotency_key,
                     if_match=call.if_match)
        guard: ToolGuard | None = getattr(self.client, "guard", None)
        try:
            answer = await anyio.to_thread.run_sync(self._sent, guard, sent, call.override)
        except ContactForbiddenError as refused:
            return _forbidden_answer(refused)
        except ApiError as error:
            return _problem_answer(error)
        except ValueError as refused:  # refused before sending (a key in the arguments)
            body = {"code": ErrorCode.VALIDATION_FAILED, "status": 400, "detail": str(refused)}
            return ToolAnswer(400, orjson.dumps(body), "application/problem+json")
        info = answer.info
        return ToolAnswer(info.status_code, answer.content, _media_type(answer.content),
                          request_id=info.request_id, replayed=info.replayed, etag=info.etag)

    def _sent(self, guard: ToolGuard | None, sent: Any, override: str | None) -> SentAnswer:
        """``sent``, judged by ``guard`` and sent as one step: the number it
        contacts held from the judgment until the service answers. A contact the law
        forbids is not sent: the tool's error."""
        with ExitStack() as turn:
            if guard is not None:
                guard.tool(sent.operation, sent.path, sent.body, override=override, turn=turn)
            return self.client._transport.send(sent)


def _media_type(content: bytes) -> str:
    if content.startswith(b"RIFF"):
        return "audio/wav"
    return "application/json" if content[:1] in (b"{", b"[") else "application/octet-stream"


def _forbidden_answer(refused: ContactForbiddenError) -> ToolAnswer:
    """The guard's refusal as the tool's error; nothing was sent."""
    return ToolAnswer(422, orjson.dumps(_forbidden_problem(refused)), "application/problem+json")


def _forbidden_problem(refused: ContactForbiddenError) -> dict[str, Any]:
    """The guard's refusal as a problem: the rule, the evidence and the next allowed
    moment, as the client's error says them."""
    later = refused.next_allowed_at
    return {"code": "contact_forbidden", "status": 422, "detail": str(refused),
            "rule": refused.rule, "basis": refused.basis, "evidence": refused.evidence,
            "next_allowed_at": None if later is None else later.isoformat(), "errors": []}


def _problem_answer(error: ApiError) -> ToolAnswer:
    problem = {"code": error.code, "status": error.status, "detail": error.detail,
               "request_id": error.request_id,
               "errors": [{"pointer": e.pointer, "code": e.code} for e in error.errors]}
    return ToolAnswer(error.status or 0, orjson.dumps(problem), "application/problem+json",
                      request_id=error.request_id, replayed=error.replayed,
                      retry_after=error.retry_after)
