"""The HTTP layer: one place for auth, idempotency, rate limiting, retries and errors.

Resources describe a call (operation, path values, query, body) and the
transport does the rest: it builds the request from the operation table,
waits on the key's token bucket, sends, retries transient failures with the
same request and Idempotency-Key, and turns problem+json answers into
:mod:`dialkit.errors` exceptions. The key goes only into the Authorization
header; reprs, logs and errors show its last four characters at most.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import quote

import httpx
import orjson
from ulid import ULID

from .._secrets import mask
from ..contract import (
    CORRELATION_ID_PATTERN,
    MAX_IDEMPOTENCY_KEY_LENGTH,
    MAX_IF_MATCH_LENGTH,
    Operation,
    RateLimit,
    ResponseInfo,
    operation_by_name,
)
from ..errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    ClientClosedError,
    error_from_answer,
)
from ._ratelimit import TokenBucket, bucket_for
from ._retry import backoff, is_transient

logger = logging.getLogger("dialkit.client")

KEY_SHAPE = re.compile(r"svc_(?:live|test)_[A-Za-z0-9]+_[A-Za-z0-9]+")
"""What an API key looks like; never sent outside the Authorization header."""

_CREDENTIAL_ID = re.compile(r"svc_(?:live|test)_([A-Za-z0-9]+)_")
_KEY_SHAPE_BYTES = re.compile(KEY_SHAPE.pattern.encode())
_CORRELATION_ID = re.compile(CORRELATION_ID_PATTERN)
_SNIPPET_CHARS = 200


@dataclass(frozen=True, slots=True)
class Call:
    """One call of an operation, as a resource method describes it.

    Attributes:
        operation: The operation's name in :data:`~dialkit.contract.OPERATIONS`.
        path: Values of the path template's placeholders.
        params: Query parameters; ``None`` values are not sent.
        body: The JSON body, already in wire form, or ``None``.
        idempotency_key: The caller's key for a write; one is made otherwise.
        correlation_id: ``X-Correlation-ID`` for this call, over the client's.
        if_match: ``If-Match``: the ETag of the caller's last read.
    """

    operation: str
    path: Mapping[str, str] | None = None
    params: Mapping[str, Any] | None = None
    body: Any = None
    idempotency_key: str | None = None
    correlation_id: str | None = None
    if_match: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """A successful answer: its body and what its headers say."""

    content: bytes
    info: ResponseInfo


Sink = Callable[[httpx.Response], None]
"""Consumes a streamed answer; called afresh on every attempt."""


def check_correlation_id(value: str | None) -> str | None:
    """Return ``value`` if it fits the contract's pattern, else raise ``ValueError``."""
    if value is not None and not _CORRELATION_ID.fullmatch(value):
        raise ValueError(
            f"correlation_id {value!r} is not valid: use 1-128 characters of "
            "A-Z a-z 0-9 . _ : -"
        )
    return value


def credential_id(api_key: str) -> str:
    """The key's credential id (``svc_live_<credential_id>_<secret>``), never its secret.

    A key of another form is named by a digest of it instead, so that caches
    can tell keys apart without holding anything a key can be rebuilt from.
    """
    match = _CREDENTIAL_ID.match(api_key)
    if match:
        return match.group(1)
    return "sha256-" + hashlib.sha256(api_key.encode()).hexdigest()[:16]


def new_idempotency_key() -> str:
    """A fresh Idempotency-Key: ``dk_`` plus a ULID (time-ordered, unique)."""
    return f"dk_{ULID()}"


class Transport:
    """Sends calls to one service with one key; safe to share between threads.

    Args:
        api_key: The whole key (``svc_live_...`` or ``svc_test_...``).
        base_url: The service's address, without ``/v1``.
        timeout: Seconds to wait for each attempt's answer.
        max_retries: Retries after the first attempt, at most.
        deadline: Seconds a call may take in total, waits included.
        correlation_id: ``X-Correlation-ID`` sent with every call.
        rate_limit: The key's bucket figures, or ``None`` for no limiting.
        transport: An httpx transport, for tests that need a broken network.
    """

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        timeout: float,
        max_retries: int,
        deadline: float,
        correlation_id: str | None,
        rate_limit: RateLimit | None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url
        self.key_hint = mask(api_key)
        self.credential_id = credential_id(api_key)
        self.max_retries = max_retries
        self.deadline = deadline
        self.correlation_id = check_correlation_id(correlation_id)
        self._key = api_key.encode()
        self.bucket: TokenBucket | None = (
            None if rate_limit is None else bucket_for(base_url, api_key, rate_limit)
        )
        self._http = httpx.Client(
            base_url=base_url,
            timeout=timeout,
            headers={"Authorization": f"Bearer {api_key}"},
            transport=transport,
        )

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def send(self, call: Call, sink: Sink | None = None) -> Answer:
        """Send ``call``, retrying transient failures; raise an ApiError otherwise.

        With ``sink``, a successful answer is streamed into it rather than read.
        """
        if self._http.is_closed:
            raise ClientClosedError("This client is closed (by close() or the end of its with "
                                    "block): make a new dialkit.Client to call the service.")
        operation = operation_by_name(call.operation)
        key = self._idempotency_key(operation, call)
        request = self._build(operation, call, key)
        started = time.monotonic()
        for attempt in range(self.max_retries + 1):
            try:
                return self._attempt(request, attempt, key, sink)
            except ApiError as error:
                wait = self._retry_wait(error, attempt, started)
                if wait is None:
                    raise
                self._log_retry(request, error, attempt, wait)
                time.sleep(wait)
        raise AssertionError("unreachable: the last attempt raises or returns")

    def _idempotency_key(self, operation: Operation, call: Call) -> str | None:
        """The call's key: the caller's, else a new one for every write and PATCH."""
        if call.idempotency_key is not None:
            if not 1 <= len(call.idempotency_key) <= MAX_IDEMPOTENCY_KEY_LENGTH:
                raise ValueError("idempotency_key must be 1-255 characters long")
            return call.idempotency_key
        return new_idempotency_key() if operation.write or operation.method == "PATCH" else None

    def _build(self, operation: Operation, call: Call, key: str | None) -> httpx.Request:
        path = operation.path.format_map(
            {name: quote(str(value), safe="") for name, value in (call.path or {}).items()}
        )
        params = {k: _query_value(v) for k, v in (call.params or {}).items() if v is not None}
        content = None if call.body is None else orjson.dumps(call.body)
        headers = self._headers(call, key, content is not None)
        for name, value in headers.items():
            self._refuse_credentials(value.encode(), f"{name} header")
        request = self._http.build_request(
            operation.method, path, params=params, content=content, headers=headers,
        )
        self._refuse_credentials(request.url.raw_path, "URL")
        if content is not None:
            self._refuse_credentials(content, "request body")
        return request

    def _headers(self, call: Call, key: str | None, has_body: bool) -> dict[str, str]:
        headers = {"Content-Type": "application/json"} if has_body else {}
        if key is not None:
            headers["Idempotency-Key"] = key
        correlation_id = check_correlation_id(call.correlation_id) or self.correlation_id
        if correlation_id is not None:
            headers["X-Correlation-ID"] = correlation_id
        if call.if_match is not None:
            if len(call.if_match) > MAX_IF_MATCH_LENGTH:
                raise ValueError("if_match must be at most 128 characters: pass an ETag")
            headers["If-Match"] = call.if_match
        return headers

    def _refuse_credentials(self, data: bytes, where: str) -> None:
        """Refuse to send a key anywhere but the Authorization header."""
        if self._key in data or _KEY_SHAPE_BYTES.search(data):
            raise ValueError(
                f"the {where} contains an API key; keys travel only in the Authorization "
                "header, and the service treats a key seen elsewhere as exposed. "
                "Remove it from the arguments."
            )

    def _attempt(
        self, request: httpx.Request, attempt: int, key: str | None, sink: Sink | None
    ) -> Answer:
        if self.bucket is not None:
            self.bucket.acquire()
        started = time.perf_counter()
        response = self._transmit(request, key, sink is not None)
        try:
            info = _response_info(response)
            if logger.isEnabledFor(logging.DEBUG):
                logger.debug("%s %s -> %s %s in %.1f ms (attempt %d)", request.method,
                             request.url.path, response.status_code, info.request_id,
                             1000 * (time.perf_counter() - started), attempt + 1)
            if not response.is_success:
                raise self._error(response, info, key)
            if sink is None:
                return Answer(response.content, info)
            self._stream(response, info, key, sink)
            return Answer(b"", info)
        finally:
            response.close()

    def _transmit(self, request: httpx.Request, key: str | None, stream: bool) -> httpx.Response:
        """Send once; a missing answer becomes an ApiConnectionError."""
        try:
            response = self._http.send(request, stream=True)
            if not stream or not response.is_success:
                response.read()
            return response
        except httpx.TimeoutException as exc:
            raise ApiTimeoutError(
                f"No answer to {request.method} {request.url.path} within the timeout.",
                idempotency_key=key,
            ) from exc
        except httpx.TransportError as exc:
            raise ApiConnectionError(
                f"The connection failed during {request.method} {request.url.path} "
                f"({type(exc).__name__}).", idempotency_key=key,
            ) from exc

    def _stream(self, response: httpx.Response, info: ResponseInfo, key: str | None,
                sink: Sink) -> None:
        try:
            sink(response)
        except httpx.TransportError as exc:
            raise ApiConnectionError(
                f"The connection broke while streaming {response.request.url.path} "
                f"({type(exc).__name__}).", request_id=info.request_id, idempotency_key=key,
            ) from exc

    def _error(self, response: httpx.Response, info: ResponseInfo, key: str | None) -> ApiError:
        """The exception for an error answer, problem+json or not."""
        retry_after = _retry_after(response.headers.get("Retry-After"))
        try:
            problem = orjson.loads(response.content)
        except orjson.JSONDecodeError:
            problem = None
        if not isinstance(problem, dict):
            snippet = self._scrub(response.content[:_SNIPPET_CHARS].decode("utf-8", "replace"))
            problem = {"detail": (
                f"The service answered {response.status_code} {response.reason_phrase} "
                f"with a body that is not problem+json "
                f"({response.headers.get('Content-Type', 'no content type')}): {snippet!r}"
            )}
        if isinstance(problem.get("detail"), str):
            # Scrubbed before the error exists: its args (and so its repr) keep the detail.
            problem = {**problem, "detail": self._scrub(problem["detail"])}
        return error_from_answer(
            response.status_code, problem, request_id=info.request_id, retry_after=retry_after,
            idempotency_key=key, replayed=info.replayed,
        )

    def _scrub(self, text: str) -> str:
        """Mask anything key-shaped, in case an answer echoes what it was sent."""
        text = text.replace(self._key.decode(), mask(self._key.decode()))
        return KEY_SHAPE.sub(lambda match: mask(match.group()), text)

    def _retry_wait(self, error: ApiError, attempt: int, started: float) -> float | None:
        """Seconds to wait before retrying, or ``None`` when the error is final."""
        if error.status == 429 and self.bucket is not None and is_transient(error):
            self.bucket.slow_down(error.retry_after)
        if attempt >= self.max_retries or not is_transient(error):
            return None
        wait = backoff(attempt + 1, error.retry_after)
        if time.monotonic() - started + wait > self.deadline:
            return None
        return wait

    def _log_retry(self, request: httpx.Request, error: ApiError, attempt: int,
                   wait: float) -> None:
        logger.info("retrying %s %s in %.2f s after %s (retry %d of %d)", request.method,
                    request.url.path, wait, error.code or type(error).__name__,
                    attempt + 1, self.max_retries)


def _query_value(value: Any) -> str:
    """A query parameter in wire form: enums by value, dates in ISO 8601."""
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return str(getattr(value, "value", value))


def _response_info(response: httpx.Response) -> ResponseInfo:
    headers = response.headers
    return ResponseInfo(
        request_id=headers.get("X-Request-ID"),
        replayed=headers.get("Idempotency-Replayed", "").lower() == "true",
        status_code=response.status_code,
        etag=headers.get("ETag"),
    )


def _retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds, from delta-seconds or an HTTP date."""
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())
