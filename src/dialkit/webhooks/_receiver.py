"""The receiver: an ASGI app that verifies each delivery, stores it, then answers.

It answers 200 only once the event is committed (a new event, or a duplicate
counted), 400 to a delivery it refuses (nothing is stored), 503 when the store
could not commit (the service retries), 405 to anything but POST and 413 to a
body over the contract's 1 MiB. It is a plain ASGI callable, so it can be
mounted in a user's own Starlette or FastAPI app, or run alone by
``dialkit webhooks listen``.

Group commit: the deliveries verified in one turn of the event loop wait
together; at the end of that turn one :meth:`EventStore.write` commits them
all, and each is answered. The commit runs on the event loop itself: a thread
would wait for the GIL between SQLite's steps while the loop parses the next
requests, and a commit of a batch costs less than those waits.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson

from dialkit._utils._secrets import mask
from dialkit.contract import MAX_BODY_BYTES, SIGNATURE_TOLERANCE_SECONDS

from .._utils._base_error import EnvelopeError, SignatureError, StoreError
from .._utils._net import ServerLimits
from ._events import Event, event_of
from ._store import EventStore, Row, Stored, row_of
from ._verify import Secrets, check_lowered, clock_seconds, secret_keys
from .handlers import Handlers

if TYPE_CHECKING:
    from ._served import Served

log = logging.getLogger("dialkit.webhooks")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Clock = Callable[[], float | datetime]
Waiting = tuple[Row, "asyncio.Future[Stored]"]
"""A verified delivery waiting for the turn's commit."""


class Receiver:
    """An ASGI app that receives webhook deliveries durably.

    Args:
        store: An :class:`EventStore`, or the path of its SQLite file (then the
            receiver opens it, and closes it when the server shuts down).
        secrets: The endpoint's signing secret, or several during a rotation.
        tolerance: Seconds a ``Service-Timestamp`` may be from the receiver's clock.
        now: The receiver's clock (returning Unix seconds or an aware datetime);
            the real clock by default. Tests against the emulator's manual clock
            pass the emulator's: ``now=sandbox.now``.
        handlers: Called with each new event after it is stored and answered
            (never for a duplicate); see :mod:`dialkit.webhooks.handlers`.
        close_store: Close the store when the server serving the receiver shuts down
            (its lifespan's end, before uvicorn re-raises a SIGTERM, so the file is
            checkpointed and its ``-wal`` and ``-shm`` removed); by default only a
            store the receiver opened itself.

    Examples:
        >>> from starlette.applications import Starlette
        >>> receiver = Receiver("events.sqlite", ["whsec_new...", "whsec_old..."])
        >>> app = Starlette()
        >>> app.add_route("/hooks/dialer", receiver, methods=["POST"])  # not a Mount: 307
    """

    def __init__(self, store: EventStore | str | os.PathLike[str], secrets: Secrets, *,
                 tolerance: float = SIGNATURE_TOLERANCE_SECONDS, now: Clock | None = None,
                 handlers: Handlers | None = None, close_store: bool | None = None) -> None:
        self._owns_store = (not isinstance(store, EventStore) if close_store is None
                            else close_store)
        self.store = store if isinstance(store, EventStore) else EventStore(store)
        self.rotate_secrets(secrets)
        self.tolerance = tolerance
        self.now = now
        if now is not None:
            clock_seconds(now())  # a clock of naive datetimes is refused here, not per delivery
        self.handlers = handlers
        self._batches: dict[asyncio.AbstractEventLoop, list[Waiting]] = {}

    @property
    def secret_hints(self) -> tuple[str, ...]:
        """The secrets accepted, masked (``…cdef``): which ones, without showing them."""
        return tuple(mask(key.decode()) for key in self._keys)

    def rotate_secrets(self, secrets: Secrets) -> None:
        """Accept ``secrets`` from now on, without a restart (new and old during a
        rotation's overlap, then the new one alone)."""
        self._keys = secret_keys(secrets)

    def __repr__(self) -> str:
        return f"Receiver({self.store!r}, secrets={list(self.secret_hints)})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    def serve(self, host: str = "127.0.0.1", port: int = 0, *, path: str = "/hooks",
              limits: ServerLimits | None = None) -> Served:
        """Serve this receiver in this process, on a thread, until the answer's
        :meth:`~Served.stop` (or the end of its ``with``): a notebook's own endpoint, as
        ``dialkit webhooks listen`` serves one (uvicorn, the same ``limits``).

        Args:
            host: The address to listen on (loopback by default: an emulator started with
                ``allow_loopback_webhooks`` delivers there).
            port: The port; 0 picks a free one.
            path: The path of :attr:`Served.url` (the receiver answers on any).
            limits: The server's limits (:class:`dialkit._utils._net.ServerLimits`).

        Raises:
            InputError: ``port`` cannot be listened on (taken, or no port).

        Examples:
            >>> receiver = Receiver("events.sqlite", "whsec_test_secret")
            >>> with receiver.serve() as served:
            ...     served.url.startswith("http://127.0.0.1:")
            True
        """
        from ._served import served  # uvicorn: imported where a receiver is served

        return served(self, host, port, path, limits)

    def close(self) -> None:
        """Close the store if the receiver opened it (or was told to: ``close_store``)."""
        if self._owns_store:
            self.store.close()

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await asyncio.to_thread(self.close)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] != "POST":
            await _answer(send, 405, {"error": "method_not_allowed"}, [(b"allow", b"POST")])
            return
        body = await _body(receive, scope["headers"])
        if body is None:
            await _answer(send, 413, {"error": "body_too_large", "limit": MAX_BODY_BYTES})
            return
        headers = {name.decode("latin-1"): value.decode("latin-1")
                   for name, value in scope["headers"]}
        received_at = self._clock()
        try:
            envelope, delivery_id, signed_at = check_lowered(
                body, headers, self._keys, tolerance=self.tolerance,
                now=received_at.timestamp())
        except (SignatureError, EnvelopeError) as exc:
            await self._refuse(send, exc, headers)
            return
        stored = await self._store(row_of(envelope, body, received_at, delivery_id, signed_at))
        if stored is None:
            await _answer(send, 503, {"error": "not_stored"}, [(b"retry-after", b"60")])
            return
        await _answer(send, 200, {"event_id": envelope.id,
                                  "deliveries_seen": stored.deliveries_seen})
        if self.handlers is not None and not stored.duplicate:
            await self._dispatch(event_of(envelope, delivery_id, signed_at))

    def _clock(self) -> datetime:
        """The receiver's time, by :func:`verify`'s rules (a naive datetime refused)."""
        return datetime.fromtimestamp(clock_seconds(None if self.now is None else self.now()),
                                      UTC)

    async def _refuse(self, send: Send, exc: ValueError, headers: dict[str, str]) -> None:
        reason = exc.reason if isinstance(exc, SignatureError) else "not_an_envelope"
        log.warning("refused delivery %r of event %r (%s): %s",  # %r: the sender's text
                    headers.get("service-delivery-id", "?")[:60],  # escaped, one line
                    headers.get("service-event-id", "?")[:60], reason, exc)
        await _answer(send, 400, {"error": "delivery_refused", "reason": reason,
                                  "detail": str(exc)})

    async def _store(self, row: Row) -> Stored | None:
        """The commit's outcome, shared with the turn's other deliveries; ``None`` (logged)
        when it failed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Stored] = loop.create_future()
        batch = self._batches.setdefault(loop, [])
        if not batch:
            loop.call_soon(self._commit, loop)
        batch.append((row, future))
        try:
            return await future
        except StoreError as exc:
            log.error("event %s: %s; answered 503 (the service retries)", row[0], exc)
            return None

    def _commit(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write the turn's batch in one transaction, then settle each delivery's future."""
        batch = self._batches.pop(loop, [])
        try:
            stored = self.store.write([row for row, _ in batch])
        except StoreError as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        for (_, future), result in zip(batch, stored, strict=True):
            if not future.done():
                future.set_result(result)

    async def _dispatch(self, event: Event) -> None:
        assert self.handlers is not None
        try:
            await asyncio.to_thread(self.handlers.dispatch, event)
        except Exception:
            log.exception("a handler of %s failed on event %s (the event is stored)",
                          event.type, event.id)


async def _body(receive: Receive, headers: Iterable[tuple[bytes, bytes]]) -> bytes | None:
    """The whole request body; ``None`` when it is over :data:`MAX_BODY_BYTES`."""
    for name, value in headers:
        if name == b"content-length" and value.isdigit() and int(value) > MAX_BODY_BYTES:
            return None
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b""
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _answer(send: Send, status: int, body: dict[str, Any],
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    content = orjson.dumps(body)
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(content)).encode()),
        *(headers or [])]})
    await send({"type": "http.response.body", "body": content})
