"""The HTTP layer: one place for auth, idempotency, rate limiting, retries and errors.

Resources describe a call (operation, path values, query, body) and the
transport does the rest: it builds the request from the operation table,
waits on the key's token bucket, sends, retries transient failures with the
same request and Idempotency-Key, and turns problem+json answers into
:mod:`dialkit.errors` exceptions. The key goes only into the Authorization
header; reprs, logs and errors show its last four characters at most.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import os
import re
import ssl
import time
import weakref
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
import orjson
from ulid import ULID

from ..._utils._base_error import InputError
from ..._utils._secrets import KEY_SHAPE, mask
from ...contract import (
    CORRELATION_ID_PATTERN,
    MAX_BODY_BYTES,
    MAX_IDEMPOTENCY_KEY_LENGTH,
    MAX_IF_MATCH_LENGTH,
    Operation,
    RateLimit,
    ResponseInfo,
    operation_by_name,
)
from ...errors import (
    ApiConnectionError,
    ApiError,
    ApiTimeoutError,
    ClientClosedError,
    MalformedResponseError,
    error_from_answer,
)
from .._per_key import per_key
from ._deadline import bound_by_deadline, deadline, deadline_at
from ._ratelimit import TokenBucket
from ._retry import MIN_LIMIT_WAIT_SECONDS, backoff, is_transient, rate_limited

T = TypeVar("T")

logger = logging.getLogger("dialkit.client")

_CREDENTIAL_ID = re.compile(r"svc_(?:live|test)_([A-Za-z0-9]+)_")
_KEY_SHAPE_BYTES = re.compile(KEY_SHAPE.pattern.encode())
_CORRELATION_ID = re.compile(CORRELATION_ID_PATTERN)
_SNIPPET_CHARS = 200

MAX_ANSWER_BYTES = 16 * MAX_BODY_BYTES
"""Largest answer read into memory. The contract caps bodies at 1 MiB; a
larger answer is refused (``MalformedResponseError``) rather than read whole.
Recordings are streamed to their file and not capped."""

MAX_RETRY_AFTER_SECONDS = 86_400.0
"""``Retry-After`` values above a day are taken as a day."""

MAX_ANSWER_STRING_CHARS = 1_000
"""Longest text taken from an answer into an exception or a log line."""

LIMIT_WARNING_EVERY_SECONDS = 10.0
"""A wait on the key's rate limit is logged as a warning at most this often; the
waits between are logged at INFO (``dialkit -v``)."""

_DEADLINE_SLACK_SECONDS = 0.01
"""A timeout this close to the deadline was the deadline's: waits were cut to it."""


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
    """A successful answer: the operation it answers, its body and what its headers say."""

    operation: str
    content: bytes
    info: ResponseInfo


Sink = Callable[[Iterator[bytes]], None]
"""Consumes a streamed answer's chunks; called afresh on every attempt."""


def mask_keys(text: str) -> str:
    """``text`` with anything key-shaped masked to its last four characters."""
    return KEY_SHAPE.sub(lambda match: mask(match.group()), text)


class _MaskKeys(logging.Filter):
    """Masks key-shaped text in httpx's own log lines.

    httpx logs every answer at INFO with its reason phrase, which a hostile
    server can make the key itself; our own log lines are scrubbed already.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(mask_keys(arg) if isinstance(arg, str) else arg
                                for arg in record.args)
        return True


logging.getLogger("httpx").addFilter(_MaskKeys())


def check_correlation_id(value: str | None) -> str | None:
    """Return ``value`` if it fits the contract's pattern, else raise ``ValueError``."""
    if value is not None and not _CORRELATION_ID.fullmatch(value):
        raise InputError(
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
        self.timeout = timeout
        self.key_hint = mask(api_key)
        self.credential_id = credential_id(api_key)
        self.max_retries = max_retries
        self.deadline = deadline
        self.correlation_id = check_correlation_id(correlation_id)
        self._key = api_key.encode()
        self._service_date: tuple[float, float] | None = None
        self._write_observers: list[Callable[[Call, Answer | None], None]] = []
        self.bucket: TokenBucket | None = None if rate_limit is None else self.shared(
            rate_limit, functools.partial(TokenBucket, rate_limit))
        self._http = httpx.Client(
            base_url=base_url,
            timeout=timeout,
            headers={"Authorization": f"Bearer {api_key}"},
            transport=transport,
            verify=tls_context(),
        )
        bound_by_deadline(self._http)
        # A client dropped unclosed (``client = Client.sandbox()`` run again in a notebook)
        # closes its connections once nothing can send through them: the transport is held
        # by the client and by every resource and paginator it handed out, so a chain
        # (``Client.sandbox().calls.list()``) keeps it open while the pages are read.
        weakref.finalize(self, self._http.close)

    def shared(self, what: Hashable, make: Callable[[], T]) -> T:
        """The one ``what`` of this key at this service in this process
        (:func:`~dialkit.client._per_key.per_key`): the bucket with these figures, the
        guard's locks on the numbers."""
        return per_key(self.base_url, self._key.decode(), what, make)

    def close(self) -> None:
        """Close the connection pool."""
        self._http.close()

    def one_call(self) -> AbstractContextManager[None]:
        """The block of one method call: every send and wait in it ends by the client's
        deadline from now (or the enclosing call's, where that comes first). The guard runs
        a contact's wait, reads and send in one."""
        return deadline(deadline_at(self.deadline))

    def service_now(self) -> float | None:
        """The service's now (POSIX seconds): the ``Date`` of its latest answer, plus the
        time passed here since (None before any answer had one). The service's clock, not
        this machine's, says when a contact happens (for the client's guard)."""
        said = self._service_date
        return None if said is None else said[0] + time.monotonic() - said[1]

    def on_write(self, observer: Callable[[Call, Answer | None], None]) -> None:
        """Call ``observer`` with every write this transport has tried to send and its
        answer (None: it failed, and the service may have done it all the same): what the
        client keeps of the account (the guard's DNC answers, the texts it counts) is made
        stale by its own writes, whichever way they are sent, a resource's method or a
        tool call."""
        self._write_observers.append(observer)

    def send(self, call: Call, sink: Sink | None = None) -> Answer:
        """Send ``call``, retrying transient failures; raise an ApiError otherwise.

        With ``sink``, a successful answer is streamed into it rather than read.
        """
        operation = operation_by_name(call.operation)
        answer = None
        try:
            answer = self._send(operation, call, sink)
            return answer
        finally:
            if operation.changes:
                for observer in self._write_observers:
                    observer(call, answer)

    def _send(self, operation: Operation, call: Call, sink: Sink | None) -> Answer:
        if self._http.is_closed:
            raise ClientClosedError(
                f"this client was closed, so {call.operation} was not sent: create a new "
                "dialkit.Client (or keep the calls inside its with block)")
        key = self._idempotency_key(operation, call)
        request = self._build(operation, call, key)
        attempts = _Attempts(operation.name, key, self.timeout, self.deadline,
                             origin(request.url))
        retries = 0
        with deadline(attempts.deadline_at):
            while True:
                try:
                    return self._attempt(request, retries, attempts, sink)
                except ApiError as error:
                    wait = self._retry_wait(error, retries, attempts.deadline_at)
                    if wait is None:
                        attempts.tell_waits(error)
                        raise
                    if rate_limited(error):
                        attempts.waited_on_limit += wait
                        log_limit_wait(request, wait, attempts.remaining())
                    else:
                        retries += 1
                        self._log_retry(request, error, retries - 1, wait)
                    time.sleep(wait)

    def _idempotency_key(self, operation: Operation, call: Call) -> str | None:
        """The call's key: the caller's, else a new one for every write and PATCH."""
        if call.idempotency_key is not None:
            if not 1 <= len(call.idempotency_key) <= MAX_IDEMPOTENCY_KEY_LENGTH:
                raise InputError("idempotency_key must be 1-255 characters long")
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
                raise InputError("if_match must be at most 128 characters: pass an ETag")
            headers["If-Match"] = call.if_match
        return headers

    def _refuse_credentials(self, data: bytes, where: str) -> None:
        """Refuse to send a key anywhere but the Authorization header."""
        if self._key in data or _KEY_SHAPE_BYTES.search(data):
            raise InputError(
                f"the {where} contains an API key; keys travel only in the Authorization "
                "header, and the service treats a key seen elsewhere as exposed. "
                "Remove it from the arguments."
            )

    def _attempt(self, request: httpx.Request, attempt: int, attempts: _Attempts,
                 sink: Sink | None) -> Answer:
        if self.bucket is not None:
            self.bucket.acquire(max_wait=attempts.remaining())
        request.extensions["timeout"] = httpx.Timeout(
            max(0.001, min(self.timeout, attempts.remaining()))).as_dict()
        started = time.perf_counter()
        response = self._transmit(request, attempts)
        said = _date(response.headers.get("Date"))
        if said is not None:
            self._service_date = (said, time.monotonic())
        try:
            info = _response_info(response, self._scrub)
            if logger.isEnabledFor(logging.DEBUG):
                logger.debug("%s %s -> %s %s in %.1f ms (attempt %d)", request.method,
                             request.url.path, response.status_code, info.request_id,
                             1000 * (time.perf_counter() - started), attempt + 1)
            if not response.is_success:
                raise self._error(response, attempts.read(response, info), info, attempts.key)
            if sink is None:
                return Answer(attempts.operation, attempts.read(response, info), info)
            sink(attempts.chunks(response, info, limit=None))
            return Answer(attempts.operation, b"", info)
        finally:
            response.close()

    def _transmit(self, request: httpx.Request, attempts: _Attempts) -> httpx.Response:
        """Send once and receive the headers; a missing answer becomes an ApiConnectionError."""
        try:
            return self._http.send(request, stream=True)
        except httpx.TransportError as exc:
            raise attempts.no_answer(exc, attempts.where(request), None) from exc

    def _error(self, response: httpx.Response, content: bytes, info: ResponseInfo,
               key: str | None) -> ApiError:
        """The exception for an error answer, problem+json or not.

        Every string of the problem is scrubbed before the error exists: its
        args (and so its repr) keep what they were given.
        """
        retry_after = _retry_after(response.headers.get("Retry-After"))
        try:
            problem = orjson.loads(content)
        except orjson.JSONDecodeError:
            problem = None
        if not isinstance(problem, dict):
            snippet = content[:_SNIPPET_CHARS].decode("utf-8", "replace")
            problem = {"detail": (
                f"The service answered {response.status_code} {response.reason_phrase} "
                f"with a body that is not problem+json "
                f"({response.headers.get('Content-Type', 'no content type')}): {snippet!r}"
            )}
        problem = self._scrub_all(problem)
        return error_from_answer(
            response.status_code, problem, request_id=info.request_id, retry_after=retry_after,
            idempotency_key=key, replayed=info.replayed,
        )

    def _scrub(self, text: str) -> str:
        """Mask anything key-shaped, in case an answer echoes what it was sent,
        and cut text too long to show."""
        text = text.replace(self._key.decode(), mask(self._key.decode()))
        return mask_keys(text)[:MAX_ANSWER_STRING_CHARS]

    def _scrub_all(self, value: Any) -> Any:
        """``value`` with every string in it, keys of objects included, scrubbed."""
        if isinstance(value, str):
            return self._scrub(value)
        if isinstance(value, list):
            return [self._scrub_all(item) for item in value]
        if isinstance(value, dict):
            return {self._scrub(k): self._scrub_all(v) for k, v in value.items()}
        return value

    def _retry_wait(self, error: ApiError, attempt: int, deadline_at: float) -> float | None:
        """Seconds to wait before retrying, or ``None`` when the error is final.

        A 429 ``rate_limit_exceeded`` is waited out as often as it comes, until the
        deadline: the key's limit, shared with whatever else uses the key, says
        when to come back, and ``max_retries`` counts failures, not waits (0 still
        turns every retry off)."""
        if rate_limited(error) and self.bucket is not None:
            self.bucket.slow_down(error.retry_after)
        if rate_limited(error) and self.max_retries > 0:
            wait = max(MIN_LIMIT_WAIT_SECONDS, backoff(attempt + 1, error.retry_after))
            return None if time.monotonic() + wait > deadline_at else wait
        if attempt >= self.max_retries or not is_transient(error):
            return None
        wait = backoff(attempt + 1, error.retry_after)
        if time.monotonic() + wait > deadline_at:
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


class _Attempts:
    """One call's attempts: its operation, key and deadline, and how answers are read.

    The deadline bounds the whole call: the bucket's wait, each attempt's
    timeout, the retries' waits, and every network wait of each attempt,
    headers and body included (:mod:`._deadline` bounds the connection's
    reads, so an answer that drips in cannot outlast it).
    """

    def __init__(self, operation: str, key: str | None, timeout: float,
                 deadline_seconds: float, origin: str) -> None:
        self.operation = operation
        self.key = key
        self.timeout = timeout
        self.deadline = deadline_seconds
        self.deadline_at = deadline_at(deadline_seconds)
        self.origin = origin
        self.waited_on_limit = 0.0
        """Seconds slept on 429 ``rate_limit_exceeded`` answers so far."""

    def tell_waits(self, error: ApiError) -> None:
        """Add to the final ``error`` how long the call waited on the key's rate limit,
        so that a refusal after minutes of waiting does not read as a sudden one."""
        if self.waited_on_limit <= 0:
            return
        error.detail = (f"{error.detail} (This call waited {self.waited_on_limit:.0f} s on "
                        "the key's rate limit, which something else using the key holds, "
                        f"and stopped at its deadline of {self.deadline:g} s; if a longer "
                        "wait is fine, pass a larger deadline= to dialkit.Client.)")
        error.args = (error.detail,)

    def remaining(self) -> float:
        """Seconds left before the deadline (negative once it passed)."""
        return self.deadline_at - time.monotonic()

    def read(self, response: httpx.Response, info: ResponseInfo) -> bytes:
        """The whole body, within the deadline and :data:`MAX_ANSWER_BYTES`."""
        return b"".join(self.chunks(response, info, limit=MAX_ANSWER_BYTES))

    def chunks(self, response: httpx.Response, info: ResponseInfo,
               limit: int | None) -> Iterator[bytes]:
        """The body's chunks as they arrive; refused once past ``limit`` bytes."""
        where = self.where(response.request)
        if limit is not None:
            self._check_size(_content_length(response), limit, response, info)
        received = 0
        try:
            for chunk in response.iter_bytes():
                received += len(chunk)
                if limit is not None:
                    self._check_size(received, limit, response, info)
                if self.remaining() < 0:
                    raise httpx.ReadTimeout("the deadline passed", request=response.request)
                yield chunk
        except httpx.TransportError as exc:
            raise self.no_answer(exc, where, info.request_id) from exc

    def _check_size(self, size: int | None, limit: int, response: httpx.Response,
                    info: ResponseInfo) -> None:
        if size is not None and size > limit:
            raise MalformedResponseError(
                f"the answer is larger than {limit // MAX_BODY_BYTES} MiB, far past the "
                "contract's 1 MiB; it was not read. Check base_url points at the service.",
                operation=self.operation, status=response.status_code,
                request_id=info.request_id, idempotency_key=self.key)

    def where(self, request: httpx.Request) -> str:
        """The request as messages name it: method and address, without the query."""
        return f"{request.method} {self.origin}{request.url.path}"

    def _timed_out(self, where: str) -> str:
        """What ran out, the deadline or an attempt's timeout, and what to pass instead."""
        if self.remaining() < _DEADLINE_SLACK_SECONDS:
            return (f"No complete answer to {where} within the call's deadline of "
                    f"{self.deadline:g} s (headers, body and retries included): the service, "
                    "or something between, answers too slowly. If it is only slow, pass a "
                    "larger deadline= (and timeout=) to dialkit.Client.")
        return (f"No answer to {where} within the timeout of {self.timeout:g} s (a wait "
                "for the connection or for the next bytes), with the call's deadline of "
                f"{self.deadline:g} s not yet reached. If the service is only slow, pass a "
                "larger timeout= to dialkit.Client.")

    def no_answer(self, exc: httpx.TransportError, where: str,
                  request_id: str | None) -> ApiConnectionError:
        """The error for httpx's network failure ``exc``: no (complete) answer."""
        if isinstance(exc, httpx.TimeoutException):
            return ApiTimeoutError(self._timed_out(where), request_id=request_id,
                                   idempotency_key=self.key)
        reason = mask_keys(str(exc))[:_SNIPPET_CHARS] or "no reason given"
        advice = (f" Check that {self.origin} is the service's address (base_url= or "
                  "DIALKIT_BASE_URL) and that it is reachable from here."
                  if isinstance(exc, httpx.ConnectError) else "")
        return ApiConnectionError(
            f"The connection failed during {where} ({type(exc).__name__}: {reason}).{advice}",
            request_id=request_id, idempotency_key=self.key)


def origin(url: httpx.URL) -> str:
    """``scheme://host[:port]`` of ``url``: where a call went, for messages, with
    neither the user part nor the query (either could hold a secret)."""
    host = f"[{url.host}]" if ":" in url.host else url.host
    return f"{url.scheme}://{host}" + ("" if url.port is None else f":{url.port}")


_last_limit_warning = [-math.inf]
"""When the last rate-limit wait was logged as a warning (monotonic)."""


def log_limit_wait(request: httpx.Request, wait: float, left: float) -> None:
    """Say that a call waits on the key's rate limit: a warning (shown without any
    logging set up, in a terminal and a notebook) at most every
    :data:`LIMIT_WARNING_EVERY_SECONDS`, and the further waits at INFO."""
    now = time.monotonic()
    level = logging.INFO
    if now - _last_limit_warning[0] >= LIMIT_WARNING_EVERY_SECONDS:
        _last_limit_warning[0], level = now, logging.WARNING
    logger.log(level, "waiting %.1f s on the key's rate limit (429 rate_limit_exceeded) "
               "before %s %s again; the call gives up at its deadline, %.0f s from now",
               wait, request.method, request.url.path, left)


def _content_length(response: httpx.Response) -> int | None:
    try:
        return int(response.headers.get("Content-Length", ""))
    except ValueError:
        return None


def _response_info(response: httpx.Response, scrub: Callable[[str], str]) -> ResponseInfo:
    """What the headers say, every value scrubbed: a hostile server may echo the key."""
    headers = response.headers

    def header(name: str) -> str | None:
        value = headers.get(name)
        return None if value is None else scrub(value)

    return ResponseInfo(
        request_id=header("X-Request-ID"),
        replayed=headers.get("Idempotency-Replayed", "").lower() == "true",
        status_code=response.status_code,
        etag=header("ETag"),
    )


def _retry_after(value: str | None) -> float | None:
    """``Retry-After`` in seconds, from delta-seconds or an HTTP date.

    A value that is not a finite, non-negative number or a date is ignored;
    one over :data:`MAX_RETRY_AFTER_SECONDS` is taken as that; a date in the
    past means now.
    """
    if value is None:
        return None
    seconds: float | None
    try:
        seconds = float(value)
    except ValueError:
        seconds = _seconds_until(value)
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return None
    return min(seconds, MAX_RETRY_AFTER_SECONDS)


def _seconds_until(value: str) -> float | None:
    """Seconds from now until an HTTP date (0 if it is past), or ``None``."""
    moment = _date(value)
    return None if moment is None else max(0.0, moment - time.time())


def _date(value: str | None) -> float | None:
    """An HTTP date as POSIX seconds, or ``None`` (no date, or not one with its zone)."""
    if value is None:
        return None
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return None if moment.tzinfo is None else moment.timestamp()


def tls_context() -> ssl.SSLContext:
    """httpx's default TLS settings (certifi's authorities, or those ``SSL_CERT_FILE`` or
    ``SSL_CERT_DIR`` names), made once per such setting and shared by every client: loading
    the authorities takes about 50 ms of CPU, which each new client paid again (a test
    suite makes thousands; a notebook one per ``Client.sandbox()``)."""
    return _tls_context(os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))


@functools.cache
def _tls_context(cert_file: str | None, cert_dir: str | None) -> ssl.SSLContext:
    return httpx.create_ssl_context()  # reads the two variables itself
