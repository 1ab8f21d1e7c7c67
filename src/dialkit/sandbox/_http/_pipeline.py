"""The request pipeline: every check the contract puts before an operation runs.

A pure ASGI middleware in front of the FastAPI routes. For each ``/v1`` request,
in this order:

1. request id, and ``X-Request-ID`` / ``Cache-Control: no-store`` on every answer;
2. the route (404 ``route_not_available``, 405 with ``Allow``);
3. a declared or received body over 1 MiB (413, at once, without reading on; on every
   path the pipeline serves, ``/_sandbox`` too, after its Host, Origin and admin key
   checks: :mod:`._checks._admin_access`), then a
   key in the URL or anywhere in the body, raw or JSON-decoded (400
   ``credential_in_url`` / ``credential_in_body``), before anything else is looked at;
4. the per-address rate limit, the key (401), access and allow-lists (403), the
   other rate limits (429), scope, tier and sending setup (403);
5. ``X-Correlation-ID``, media type (415), JSON, its depth and its numbers;
6. faults, the Idempotency-Key and the operation itself, whose answer is stored
   for replay.

Handlers then validate query and body against the contract models.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.utils import format_datetime
from typing import Any
from urllib.parse import unquote_plus

import orjson
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from ulid import ULID

from dialkit._utils._secrets import mask
from dialkit.contract import (
    CORRELATION_ID_PATTERN,
    MAX_BODY_BYTES,
    MAX_IDEMPOTENCY_KEY_LENGTH,
    RATE_LIMIT_PER_ACCOUNT,
    RATE_LIMIT_PER_CLIENT,
    RATE_LIMIT_PER_KEY,
    RATE_LIMIT_PER_SOURCE_ADDRESS,
    ErrorCode,
    Operation,
    operation_by_name,
)

from .._state._service import RequestContext, Service
from ._checks._admin_access import ADMIN_PREFIX, AdminAccess
from ._checks._auth import CREDENTIAL, Caller, authorize, check_access
from ._checks._faults import FaultRule
from ._checks._idempotency import StoredAnswer, fingerprint, outcome_unknown
from ._checks._json_body import JsonBody, decode
from ._problems import ApiProblem, field_error, render

log = logging.getLogger("dialkit.sandbox")
_CORRELATION = re.compile(CORRELATION_ID_PATTERN)
_CONTROL = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")

MAX_URL_BYTES = 8_192
"""Longest path and query string taken; lists and filters need far less."""

MAX_HEADER_BYTES = 16_384
"""Most bytes of header names and values taken, all headers together."""
CONTEXT_KEY = "dialkit.context"


@dataclass(slots=True)
class Admitted:
    """A request that passed every check before the operation."""

    context: RequestContext
    body: bytes
    parsed: Any
    idempotency_key: str | None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class Pipeline:
    """The ASGI middleware; ``app`` is the FastAPI application behind it, ``admin`` who may
    use the admin surface."""

    def __init__(self, app: ASGIApp, service: Service, admin: AdminAccess) -> None:
        self.app = app
        self.service = service
        self.admin = admin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = f"req_{ULID()}"
        scope.setdefault("state", {})["request_id"] = request_id
        send = _stamped(send, request_id, self.service.clock.now)
        path: str = scope["path"]
        if path != "/v1" and not path.startswith("/v1/"):
            await self._outside_api(scope, receive, send)
            return
        try:
            admitted = await self._admit(scope, receive, request_id)
        except ApiProblem as problem:
            await self.send_problem(send, problem, request_id)
            return
        except ClientGone:
            return  # nobody to answer, and nothing was asked in full
        await self._run(scope, admitted, send)

    async def _outside_api(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The admin surface and what else is not ``/v1``: the admin checks on ``/_sandbox``,
        and the body limit of ``/v1`` everywhere (an unread body would be held whole)."""
        path: str = scope["path"]
        try:
            if path == ADMIN_PREFIX or path.startswith(ADMIN_PREFIX + "/"):
                refusal = await self.admin.refusal(scope)
                if refusal is not None:
                    raise refusal
            body = await _read_body(scope, receive)
        except ApiProblem as problem:
            await self.send_problem(send, problem, scope["state"]["request_id"])
            return
        except ClientGone:
            return
        await self._guarded(scope, _replay(body), send)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the application; a crash becomes 500 ``internal_error``, logged, no traceback."""
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception:
            log.exception("internal error in %s %s", scope["method"], scope["path"])
            if not started:
                problem = ApiProblem(ErrorCode.INTERNAL_ERROR,
                                     "The emulator failed; the error is in its log.")
                await self.send_problem(send, problem, scope["state"]["request_id"])

    async def send_problem(self, send: Send, problem: ApiProblem, request_id: str) -> None:
        """Answer with ``problem`` as problem+json."""
        status, headers, body = render(problem, request_id, self.service.docs_base)
        await _send_whole(send, StoredAnswer(status, list(headers.items()), body))

    def _operation(self, scope: Scope) -> Operation:
        """The operation of the most literal path template matching (literal segments first)."""
        routes = getattr(self.app, "routes", [])
        path = next((r.path for r in routes if r.matches(scope)[0] is not Match.NONE), None)
        if path is None:
            raise ApiProblem(ErrorCode.ROUTE_NOT_AVAILABLE,
                             "No operation of the API has this path.")
        same_path = [r for r in routes if getattr(r, "path", None) == path]
        for route in same_path:
            if scope["method"] in route.methods:
                return operation_by_name(route.name)
        allowed = sorted(m for r in same_path for m in r.methods)
        raise ApiProblem(ErrorCode.METHOD_NOT_ALLOWED,
                         f"{scope['method']} is not allowed on this path; use "
                         f"{' or '.join(allowed)}.", headers={"allow": ", ".join(allowed)})

    async def _admit(self, scope: Scope, receive: Receive, request_id: str) -> Admitted:
        raw_url = scope.get("raw_path", b"").decode("latin-1") + "?" + \
            scope.get("query_string", b"").decode("latin-1")
        if CREDENTIAL.search(raw_url) or CREDENTIAL.search(unquote_plus(raw_url)):
            raise ApiProblem(ErrorCode.CREDENTIAL_IN_URL,
                             "An API key appeared in the URL. Treat that key as exposed: revoke "
                             "it, and send keys only in the Authorization header.")
        _check_head(scope, raw_url)
        body = await _read_body(scope, receive)
        json_body = decode(body) if body else JsonBody(None)
        if _exposes_key(body, json_body):
            raise ApiProblem(ErrorCode.CREDENTIAL_IN_BODY,
                             "An API key appeared in the request body. Send keys only in the "
                             "Authorization header, and treat that key as exposed.")
        operation = self._operation(scope)
        caller = self._authenticate(scope)
        authorize(caller, operation)
        context = RequestContext(self.service, caller, operation, request_id)
        _check_correlation(scope, request_id)
        parsed = _parse_body(scope, body, json_body)
        if operation.method == "GET" or operation.name == "dnc.check":
            return Admitted(context, body, parsed, None)  # reads do not use the key (rule 8)
        key = _header(scope, b"idempotency-key")
        if key is not None and not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY_LENGTH:
            raise field_error("/header/Idempotency-Key", "invalid_length",
                              "Idempotency-Key must be 1-255 characters.")
        if operation.write and key is None:
            raise ApiProblem(ErrorCode.IDEMPOTENCY_KEY_REQUIRED,
                             "This write needs an Idempotency-Key header (1-255 characters). "
                             "Reuse the same key when you retry.")
        return Admitted(context, body, parsed, key)

    def _authenticate(self, scope: Scope) -> Caller:
        address = (scope.get("client") or ("unknown", 0))[0]
        limiter = self.service.limiter
        self._limit(limiter.take([(f"ip:{address}", RATE_LIMIT_PER_SOURCE_ADDRESS)]))
        caller = self.service.keys.authenticate(_header(scope, b"authorization"))
        check_access(caller, address)
        self._limit(limiter.take([
            (f"key:{caller.key.credential_id}", RATE_LIMIT_PER_KEY),
            (f"client:{caller.client_id}", RATE_LIMIT_PER_CLIENT),
            (f"account:{caller.account.name}", RATE_LIMIT_PER_ACCOUNT),
        ]))
        self.service.store.ensure_dataset(caller.dataset, caller.account.name,
                                          self.service.clock.stamp())
        return caller

    @staticmethod
    def _limit(wait: int | None) -> None:
        if wait is not None:
            raise ApiProblem(ErrorCode.RATE_LIMIT_EXCEEDED,
                             f"Too many requests. Retry after {wait} s.", retry_after=wait)

    async def _run(self, scope: Scope, admitted: Admitted, send: Send) -> None:
        context = admitted.context
        scope["state"][CONTEXT_KEY] = context
        fault = self.service.faults.pick(scope["method"], scope["path"])
        idem_scope = f"{context.caller.client_id}|{context.dataset}"
        key = admitted.idempotency_key
        try:
            if key is not None:
                digest = fingerprint(scope["method"], scope["path"],
                                     scope.get("query_string", b"").decode("latin-1"),
                                     admitted.parsed)
                stored = self.service.idempotency.begin(idem_scope, key, digest)
                if stored is not None:
                    await _send_whole(send, stored, replayed=True)
                    return
            if fault is not None and fault.kind in ("error", "dnc_screen_unavailable"):
                raise _fault_problem(fault)
        except ApiProblem as problem:
            if key is not None and problem.code not in _KEY_ANSWERS:
                self.service.idempotency.forget(idem_scope, key)
            await self.send_problem(send, problem, context.request_id)
            return
        if fault is not None and fault.kind == "latency":
            await asyncio.sleep(fault.latency_ms / 1000)
        if key is None and (fault is None or fault.kind == "latency"):
            await self._guarded(scope, _replay(admitted.body), send)
            return
        answer = await self._call_app(scope, admitted.body)
        if key is not None:
            await self._settle(idem_scope, key, answer, fault, send, context.request_id)
        else:
            await _send_whole(send, answer, drop=fault is not None and fault.kind == "drop")

    async def _settle(self, idem_scope: str, key: str, answer: StoredAnswer,
                      fault: FaultRule | None, send: Send, request_id: str) -> None:
        keys = self.service.idempotency
        if fault is not None and fault.kind == "outcome_unknown":
            keys.mark_unknown(idem_scope, key)
            await self.send_problem(send, outcome_unknown(), request_id)
            return
        keys.finish(idem_scope, key, _without_secret(answer))
        await _send_whole(send, answer, drop=fault is not None and fault.kind == "drop")

    async def _call_app(self, scope: Scope, body: bytes) -> StoredAnswer:
        """Run the route and collect its whole answer."""
        status, headers, chunks = 500, [], []

        async def collect(message: Message) -> None:
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [(bytes(k).decode("latin-1"), bytes(v).decode("latin-1"))
                           for k, v in message.get("headers", [])]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self._guarded(scope, _replay(body), collect)
        return StoredAnswer(status, headers, b"".join(chunks))


_KEY_ANSWERS = frozenset({ErrorCode.CONFLICT, ErrorCode.IDEMPOTENCY_CONFLICT,
                          ErrorCode.OUTCOME_UNKNOWN})
"""Answers about the key itself: they must not forget the key's record."""


def _replay(body: bytes) -> Receive:
    """A ``receive`` that hands the already-read body to the application again."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}
    return receive


def _fault_problem(fault: FaultRule) -> ApiProblem:
    assert fault.code is not None
    return ApiProblem(fault.code, "Injected fault: the service is failing on purpose.",
                      status=fault.status, retry_after=fault.retry_after)


def _without_secret(answer: StoredAnswer) -> StoredAnswer:
    """The copy kept for replay: a webhook signing secret is never stored."""
    if b'"secret":"' not in answer.body:
        return answer
    data = orjson.loads(answer.body)
    if isinstance(data, dict) and "secret" in data:
        data["secret"] = None
    return StoredAnswer(answer.status, answer.headers, orjson.dumps(data))


def _check_correlation(scope: Scope, request_id: str) -> None:
    correlation = _header(scope, b"x-correlation-id")
    if correlation is None:
        return
    if not _CORRELATION.fullmatch(correlation):
        raise field_error("/header/X-Correlation-ID", "invalid_format",
                          "X-Correlation-ID must be 1-128 characters of A-Z a-z 0-9 . _ : -")
    shown = CREDENTIAL.sub(lambda key: mask(key.group()), correlation)  # a key never logged
    log.info("request %s correlation %s", request_id, shown)


def _exposes_key(body: bytes, json_body: JsonBody) -> bool:
    """Whether a key appears in the body as sent or in any string of its decoded JSON.

    Decoded text differs from the bytes only through escapes, so the strings are
    walked only for a body that has a backslash.
    """
    if CREDENTIAL.search(body.decode("utf-8", "replace")):
        return True
    return b"\\" in body and any(CREDENTIAL.search(text) for text in json_body.strings())


def _check_head(scope: Scope, raw_url: str) -> None:
    """Refuse an oversize URL or header block, and control characters in header values.

    uvicorn's parser takes these when they arrive in one piece; the service
    answers them as its other validation failures.
    """
    if len(raw_url) > MAX_URL_BYTES:
        raise field_error("/url", "too_long", f"The path and query string are over "
                          f"{MAX_URL_BYTES} bytes; send fewer or shorter query parameters.")
    headers = scope["headers"]
    if sum(len(name) + len(value) for name, value in headers) > MAX_HEADER_BYTES:
        raise field_error("/header", "too_long",
                          f"The headers are over {MAX_HEADER_BYTES} bytes together.")
    for name, value in headers:
        if _CONTROL.search(value):
            header = bytes(name).decode("latin-1")
            raise field_error(f"/header/{header}", "invalid_format",
                              f"The {header} header holds a control character.")


class ClientGone(Exception):  # noqa: N818 (not an error of the request: its sender left)
    """The client disconnected before its request's body arrived whole."""


async def _read_body(scope: Scope, receive: Receive) -> bytes:
    """The body; refused with 413 as soon as its declared or received size is over 1 MiB.

    A client that disconnects before the body is whole (killed mid-request) raises
    :class:`ClientGone`: the request is not handled, as a server does not handle half of
    one. Handled as the part received, an empty body's request stored its
    Idempotency-Key with another request's fingerprint, and the client's retry of the
    whole request was refused with 409 ``idempotency_conflict``.

    Nothing more is read after the refusal, so an endless upload costs the
    service one MiB, not what the sender chooses.
    """
    declared = _header(scope, b"content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _too_large()
    chunks, size, more = [], 0, True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise _too_large()
        chunks.append(chunk)
        more = message.get("more_body", False)
    return b"".join(chunks)


def _too_large() -> ApiProblem:
    return ApiProblem(ErrorCode.PAYLOAD_TOO_LARGE,
                      f"The request body is over {MAX_BODY_BYTES} bytes. Send fewer items "
                      "per request.")


def _parse_body(scope: Scope, body: bytes, json_body: JsonBody) -> Any:
    if not body:
        return None
    media = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
    if media != "application/json":
        raise ApiProblem(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                         "Send the body as JSON with 'Content-Type: application/json'.")
    if json_body.problem is not None:
        raise json_body.problem
    return json_body.value


def _stamped(send: Send, request_id: str, now: Callable[[], datetime]) -> Send:
    """``send`` that adds the headers every answer carries: ``Date`` is the service
    clock's (a manual clock's too), as a real service's is its own, so that a client's
    guard judges a call at the service's now."""
    async def stamped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [(k, v) for k, v in message.get("headers", [])
                       if k.lower() not in (b"x-request-id", b"cache-control", b"date")]
            headers += [(b"x-request-id", request_id.encode()), (b"cache-control", b"no-store"),
                        (b"date", format_datetime(now(), usegmt=True).encode())]
            message = {**message, "headers": headers}
        await send(message)
    return stamped


async def _send_whole(send: Send, answer: StoredAnswer, *, replayed: bool = False,
                      drop: bool = False) -> None:
    """Send a collected answer; with ``drop``, break off in the middle of the body."""
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers
               if k.lower() not in ("content-length", "idempotency-replayed")]
    headers.append((b"content-length", str(len(answer.body)).encode()))
    if replayed:
        headers.append((b"idempotency-replayed", b"true"))
    await send({"type": "http.response.start", "status": answer.status, "headers": headers})
    if drop:
        await send({"type": "http.response.body", "body": answer.body[: len(answer.body) // 2],
                    "more_body": True})
        return
    await send({"type": "http.response.body", "body": answer.body})
