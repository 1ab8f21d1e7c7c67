"""The listening socket and the limits of every server dialkit starts (the emulator, the
webhook receiver, ``dialkit mcp serve``): one place for both.

The socket is bound first, so the port is known, and any error is the caller's to word,
before a server thread starts.

:func:`server_config` is the uvicorn configuration of such a server. uvicorn bounds the
time between requests (``timeout_keep_alive``) but not the time a client takes to send
one, and its httptools parser buffers a request head of any size (parse time growing
with its square): a client sending a 256 MiB header, or a thousand clients each sending
a byte now and then, kept every delivery out of ``dialkit webhooks listen``. uvicorn has
no setting for either (its issue 157 lists a ``--timeout-request-start`` never made), so
:class:`RequestDeadline` wraps uvicorn's HTTP protocol (h11 or httptools alike) with the
:class:`ServerLimits`: a deadline to receive each request whole, a bound on its head,
and a cap on open connections.
"""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ._base_error import InputError

if TYPE_CHECKING:
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol as _Protocol
else:
    _Protocol = asyncio.Protocol

BACKLOG = 2048
"""Connections that wait until the server accepts them (a burst of deliveries, a load)."""

REQUEST_TIMEOUT_SECONDS = 10.0
"""Time a client has to send a request whole, head and body, from its connection (or its
previous answer): the service itself waits 10 s for a delivery's answer."""

MAX_HEAD_BYTES = 32_768
"""Most bytes a request line and headers may take (h11's own default is 16 KiB)."""

MAX_CONNECTIONS = 512
"""Open connections a server keeps; one more is answered 503 and closed at once (the
default limit of open files is 1,024, shared with the rest of the process)."""

MAX_PORT = 65_535
"""The highest TCP port."""

KEEP_ALIVE_SECONDS = 5
"""How long an idle connection is kept between requests (uvicorn's default)."""

_REASONS = {408: "Request Timeout", 431: "Request Header Fields Too Large",
            503: "Service Unavailable"}

_HEAD_END = re.compile(rb"\n\r?\n")
"""The blank line that ends a head (h11 takes a bare ``\\n`` as a line's end too)."""


@dataclass(frozen=True)
class ServerLimits:
    """What a client may take of a server: see the module's constants.

    Raises:
        ValueError: A limit that is not positive.
    """

    request_timeout: float = REQUEST_TIMEOUT_SECONDS
    max_head_bytes: int = MAX_HEAD_BYTES
    max_connections: int = MAX_CONNECTIONS
    keep_alive: int = KEEP_ALIVE_SECONDS

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not value > 0:
                raise InputError(f"{name}={value!r}: pass a number above 0")


def checked_port(port: int, name: str = "port") -> int:
    """``port`` where it is one a socket can listen on, 0 to :data:`MAX_PORT` (0: a free
    one); the one reading of a port every server dialkit starts makes, before it writes
    or asks anything.

    Raises:
        InputError: Any other number (``socket`` would raise ``OverflowError``, told as a
            bug in dialkit); the message names ``name`` (``port``, ``http``).

    Examples:
        >>> checked_port(8787)
        8787
        >>> checked_port(70000)
        Traceback (most recent call last):
        dialkit.errors.InputError: port=70000 is no port: pass one from 0 to 65535 ...
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= MAX_PORT:
        raise InputError(f"{name}={port!r} is no port: pass one from 0 to {MAX_PORT} "
                         "(0 picks a free one)")
    return port


def listening_socket(host: str, port: int, *, name: str = "port") -> socket.socket:
    """A TCP socket listening on ``host:port`` (0: a free port), inheritable by a worker.

    Raises:
        InputError: ``port`` is no port (:func:`checked_port`, naming it ``name``).
        OSError: The address cannot be bound; the socket is closed.
    """
    checked_port(port, name)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(BACKLOG)
    sock.set_inheritable(True)
    return sock


WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})
"""Bind addresses that listen on every interface."""


def shown_host(host: str) -> str:
    """How ``host`` (a bound address) is written in a URL that works: a wildcard bind as
    the loopback address, an IPv6 address in brackets."""
    if host in WILDCARD_HOSTS:
        return "[::1]" if host == "::" else "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def served_url(sock: socket.socket, path: str = "") -> str:
    """The URL of a listening socket (and ``path``), one that works here (never
    ``0.0.0.0``): what an in-process server is reached at."""
    bound_host, bound_port = sock.getsockname()[:2]
    return f"http://{shown_host(bound_host)}:{bound_port}{path}"


def bearer_token(authorization: str | bytes | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; ``None`` for any other.

    The scheme is matched in any case (``bearer``, ``BEARER``): RFC 7235 makes
    authentication schemes case-insensitive, and RFC 6750 names no exception.

    Examples:
        >>> bearer_token("bearer sk_test_abc"), bearer_token("Basic dXNlcg==")
        ('sk_test_abc', None)
    """
    text = authorization.decode("latin-1") if isinstance(authorization, bytes) else (
        authorization or "")
    scheme, _, token = text.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def server_config(app: Any, *, limits: ServerLimits | None = None,
                  http: type[asyncio.Protocol] | None = None,
                  **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of a server dialkit starts, with ``limits`` applied.

    It trusts no ``X-Forwarded-For`` (a local program could otherwise name any source
    address) and writes no access log.

    Args:
        app: The ASGI application.
        limits: The limits; the module's defaults when ``None``.
        http: uvicorn's HTTP protocol class, or a subclass of it (default: uvicorn's
            choice, httptools when installed, else h11); it is served guarded.
        options: Further ``uvicorn.Config`` arguments (``lifespan``, ``log_level``...).
    """
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    limits = limits or ServerLimits()
    options = {"proxy_headers": False, "access_log": False, **options}
    return uvicorn.Config(head_bounded(app, limits.max_head_bytes),
                          http=guarded(http or AutoHTTPProtocol, limits),
                          h11_max_incomplete_event_size=limits.max_head_bytes,
                          timeout_keep_alive=limits.keep_alive, **options)


def serve_on_a_thread(server: uvicorn.Server, sock: socket.socket, *, name: str,
                      within: float, error: Callable[[str], Exception]) -> threading.Thread:
    """Run ``server`` on the listening ``sock`` in a daemon thread named ``name``, and
    return once it serves: an in-process server (the emulator, a webhook receiver in a
    notebook) is ready when its start returns. ``error`` of what happened is raised where
    the thread stops first (the socket closed) or the server does not serve within
    ``within`` seconds (it is told to stop)."""
    failures: list[BaseException] = []

    def serve() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as exc:  # reported below, by the thread that waits
            failures.append(exc)

    thread = threading.Thread(target=serve, name=name, daemon=True)
    thread.start()
    deadline = time.monotonic() + within
    while not server.started:
        if not thread.is_alive():
            sock.close()
            cause = f": {failures[0]!r}" if failures else "; see the log above"
            raise error(f"the server thread stopped during start-up{cause}")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise error(f"the server did not start within {within:.0f} s")
        time.sleep(0.01)
    return thread


def head_bounded(app: Any, max_head_bytes: int) -> Any:
    """``app`` answering 431 (and closing) a request whose head, as parsed, is over
    ``max_head_bytes``, before ``app`` sees it.

    :class:`RequestDeadline` counts a head's bytes before the parser takes them; this
    catches the one it cannot: a request pipelined behind a body in the same read. The
    parsed size (:func:`head_size`) is at most the bytes sent, so a head the count let
    through is never refused here.
    """
    async def bounded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and head_size(scope) > max_head_bytes:
            await send({"type": "http.response.start", "status": 431,
                        "headers": [(b"content-length", b"0"), (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": b""})
            return
        await app(scope, receive, send)

    return bounded


def head_size(scope: dict[str, Any]) -> int:
    """The bytes of an HTTP request's head as its ASGI ``scope`` keeps it: the request
    line and each header with its ``: `` and line end (no optional whitespace, so never
    more than was sent).

    Examples:
        >>> head_size({"method": "GET", "raw_path": b"/", "query_string": b"a=1",
        ...            "headers": [(b"host", b"x")]})
        31
    """
    query = scope.get("query_string") or b""
    line = len(scope["method"]) + len(scope["raw_path"]) + len(b"  HTTP/1.1\r\n") + (
        len(query) + 1 if query else 0)
    return line + sum(len(name) + len(value) + 4 for name, value in scope["headers"]) + 2


def guarded(protocol: type[asyncio.Protocol], limits: ServerLimits) -> type[asyncio.Protocol]:
    """``protocol`` (one of uvicorn's HTTP protocols) held to ``limits``; the protocol it
    hands a connection over to (``h11_protocol``, as the emulator's httptools protocol
    does for a method httptools does not know) is held to them too."""
    attributes: dict[str, Any] = {"limits": limits}
    handed_to = getattr(protocol, "h11_protocol", None)
    if isinstance(handed_to, type) and issubclass(handed_to, asyncio.Protocol):
        attributes["h11_protocol"] = guarded(handed_to, limits)
    return type(f"Guarded{protocol.__name__}", (RequestDeadline, protocol), attributes)


class RequestDeadline(_Protocol):
    """A mixin over a uvicorn HTTP protocol: each request must arrive whole within
    ``limits.request_timeout`` of the connection (or of the previous answer), its head
    within ``limits.max_head_bytes``, and a connection over ``limits.max_connections``
    is refused. It reads only what both of uvicorn's protocols share: ``cycle``, the
    request being served, made when a head is complete, its ``more_body`` cleared when
    the body is. Its own names start with ``_deadline``: the protocols it wraps (the
    emulator's among them) keep attributes of their own.

    While no body is awaited, the bytes that arrive are a head's: they are counted up to
    the blank line that ends it before the parser takes them, and the parser is given no
    byte past that line until it has taken the head, so a second head in the same read
    is counted on its own. A head over the limit is refused (431, or the wrapped
    protocol's own ``refuse_long_head``) and never parsed.
    """

    limits: ClassVar[ServerLimits] = ServerLimits()
    _deadline: asyncio.TimerHandle | None = None
    _deadline_waits_on: object = None
    """The request in place when the clock started: a new one means a head arrived."""
    _deadline_head_bytes = 0
    """Bytes of the head being received, counted before the parser took them."""
    _deadline_head_tail = b""
    """The last bytes of that head, where its ending blank line may have begun."""
    _deadline_held = False
    """A head over the limit arrived while an answer was in flight: refused once it is sent."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            self._deadline_refuse(503)
        else:
            self._deadline_start()

    def data_received(self, data: bytes) -> None:
        if self._deadline_held:
            return  # a head was refused: nothing more is taken from this connection
        while data and not self.transport.is_closing():
            if (handed_to := self.transport.get_protocol()) is not self:  # an upgrade
                cast(asyncio.Protocol, handed_to).data_received(data)
                break
            if self.cycle is not None and self.cycle.more_body:
                super().data_received(data)  # a body: the parser knows where it ends
                break
            taken = self._deadline_count_head(data)
            if taken is None:
                self._deadline_refuse_head()
                return
            super().data_received(data[:taken])
            data = data[taken:]
        self._deadline_note()

    def on_response_complete(self) -> None:
        if self._deadline_held:  # the answer before a refused head is sent: refuse it
            self._deadline_held = False  # (and take up nothing the parser holds)
            self._deadline_refuse_head()
            return
        if not self.transport.is_closing():
            self._deadline_start()  # before a pipelined request is taken up
        super().on_response_complete()
        self._deadline_note()

    def connection_lost(self, exc: Exception | None) -> None:
        self._deadline_stop()
        super().connection_lost(exc)

    def _deadline_count_head(self, data: bytes) -> int | None:
        """How many bytes of ``data`` are the head's (up to its blank line, or all);
        ``None`` when they take it over the limit."""
        seen = self._deadline_head_tail + data
        end = _HEAD_END.search(seen)
        taken = len(data) if end is None else end.end() - len(self._deadline_head_tail)
        if self._deadline_head_bytes + taken > self.limits.max_head_bytes:
            return None
        if end is None:
            self._deadline_head_bytes += taken
            self._deadline_head_tail = seen[-2:]
        else:  # the head is whole: what follows is a body or the next head
            self._deadline_head_bytes, self._deadline_head_tail = 0, b""
        return taken

    def _deadline_start(self) -> None:
        self._deadline_stop()
        self._deadline_waits_on = self.cycle
        self._deadline = self.loop.call_later(self.limits.request_timeout, self._deadline_passed)

    def _deadline_stop(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _deadline_note(self) -> None:
        """Stop the clock once a request is whole."""
        if self._deadline is not None and self.cycle is not self._deadline_waits_on and (
                not self.cycle.more_body):
            self._deadline_stop()

    def _deadline_passed(self) -> None:
        self._deadline = None
        if self.transport.get_protocol() is not self:
            return  # handed over (an upgrade): the connection is another protocol's now
        if self.cycle is self._deadline_waits_on and self._deadline_head_bytes:
            self._deadline_refuse(408)
        else:  # idle (closed without a word, as keep-alive does), or the body is late
            self.transport.close()

    def _deadline_refuse_head(self) -> None:
        """Refuse a head over the limit, as the wrapped protocol words it if it does;
        after the answer in flight, if there is one (answers go out in order)."""
        self._deadline_stop()
        if self.cycle is not None and not self.cycle.response_complete:
            self._deadline_held = True
            self.transport.pause_reading()
            return
        own = getattr(self, "refuse_long_head", None)
        if own is None:
            self._deadline_refuse(431)
        elif not self.transport.is_closing():
            own()

    def _deadline_refuse(self, status: int) -> None:
        """Answer ``status`` (no request is being answered) and close the connection."""
        self._deadline_stop()
        if self.transport.is_closing():
            return
        self.transport.write(f"HTTP/1.1 {status} {_REASONS[status]}\r\ncontent-length: 0\r\n"
                             "connection: close\r\n\r\n".encode())
        self.transport.close()
