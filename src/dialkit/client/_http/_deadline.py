"""The call's deadline, held by the connection itself, so that nothing outlasts it.

httpx's timeouts bound each wait for the network, not a whole answer: a read
timeout starts afresh on every byte, so a server that sends its status line
and headers a byte a second is never timed out while httpx reads them in one
step. The transport reads the body in chunks and can check the deadline
between them, but not inside that step. So every network stream of the
client's connection pools is wrapped: each connect, read and write waits at
most until the current call's deadline, and fails at once past it, as a
timeout of that kind (httpx reports it as ``httpx.ReadTimeout`` and so on).

No thread watches the calls: the bound is checked by the thread that waits,
on the socket it waits on, so a pooled connection reused by the next call
carries no state of the last.
"""

from __future__ import annotations

import math
import ssl
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpcore
import httpx

_deadline_at: ContextVar[float | None] = ContextVar("dialkit_deadline_at", default=None)
"""The ``time.monotonic()`` by which the call running in this context must end."""


def deadline_at(seconds: float) -> float:
    """When a call of ``seconds`` from now must end (``time.monotonic()``): then, or by the
    deadline of the call it is made within, whichever comes first. A guarded method is one
    call: the wait for the number's turn, the guard's reads and the send share
    its deadline, as docs/client.md says ``deadline`` bounds "retries and waits included"."""
    at, outer = time.monotonic() + seconds, _deadline_at.get()
    return at if outer is None else min(at, outer)


def seconds_left() -> float:
    """Seconds left before the deadline of the call running in this context (``math.inf``
    outside any call, or in one with no deadline)."""
    at = _deadline_at.get()
    return math.inf if at is None else at - time.monotonic()


@contextmanager
def deadline(at: float) -> Iterator[None]:
    """Bound every network wait of the calls made inside the block by ``at`` (monotonic)."""
    token = _deadline_at.set(at)
    try:
        yield
    finally:
        _deadline_at.reset(token)


def bound_by_deadline(http: httpx.Client) -> None:
    """Make the connection pools of ``http`` (its proxies' too) respect :func:`deadline`.

    httpx has no public hook for the network backend of its pools, so the
    backend is wrapped in place; a transport that is not an httpcore pool
    (a test's ``MockTransport``) is left as it is: it has no socket to drip on.
    """
    transports = [getattr(http, "_transport", None), *getattr(http, "_mounts", {}).values()]
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if isinstance(backend, httpcore.NetworkBackend) and not isinstance(backend, _Backend):
            pool._network_backend = _Backend(backend)  # type: ignore[union-attr]


def _bounded(timeout: float | None, error: type[httpcore.TimeoutException]) -> float | None:
    """``timeout`` cut to the time left before the deadline; raise ``error`` once it passed."""
    at = _deadline_at.get()
    if at is None or math.isinf(at):
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise error("the call's deadline passed")
    return left if timeout is None else min(timeout, left)


class _Backend(httpcore.NetworkBackend):
    """The pool's own backend, with its connections bounded by the deadline."""

    def __init__(self, backend: httpcore.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
                    ) -> httpcore.NetworkStream:
        return _Stream(self._backend.connect_tcp(
            host, port, _bounded(timeout, httpcore.ConnectTimeout), local_address,
            socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
                            ) -> httpcore.NetworkStream:
        return _Stream(self._backend.connect_unix_socket(
            path, _bounded(timeout, httpcore.ConnectTimeout), socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


class _Stream(httpcore.NetworkStream):
    """One connection whose every wait ends by the deadline of the call using it."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, _bounded(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return _Stream(self._stream.start_tls(
            ssl_context, server_hostname, _bounded(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)
