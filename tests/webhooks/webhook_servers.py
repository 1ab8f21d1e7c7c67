"""Helpers of the webhook tests: receivers served over loopback, signed deliveries."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import uvicorn

from dialkit._utils._net import ServerLimits, server_config
from dialkit.webhooks import sign

START = "2026-11-02T15:00:00Z"


def reserve() -> socket.socket:
    """A socket bound to a free loopback port but not listening: connections are refused
    until :func:`serve` listens on it (a receiver that is down)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def url_of(sock: socket.socket, path: str = "/hooks/dialer") -> str:
    return f"http://127.0.0.1:{sock.getsockname()[1]}{path}"


@contextmanager
def serve(app: Any, sock: socket.socket | None = None, *, limits: ServerLimits | None = None,
          http: type[asyncio.Protocol] | None = None) -> Iterator[str]:
    """Serve an ASGI app with uvicorn on a thread, as dialkit's servers are served (with
    ``limits``, on the ``http`` protocol); yield its URL (stopped on exit)."""
    sock = sock or reserve()
    server = uvicorn.Server(server_config(app, limits=limits, http=http, lifespan="off",
                                          log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the receiver did not start"
        time.sleep(0.01)
    try:
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def new_id(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4()}"


def envelope(event_id: str | None = None, *, kind: str = "webhook.test",
             created_at: str = "2026-11-02T15:00:00.000Z",
             data: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """An event envelope as the service sends it."""
    return {"id": event_id or new_id("evt_"), "type": kind, "created_at": created_at,
            "api_version": "v1", "schema_version": 1,
            "data": {"message": "hello"} if data is None else data, **extra}


def delivery(body: dict[str, Any] | bytes, secrets: str | list[str], timestamp: int,
             **overrides: str | None) -> tuple[bytes, dict[str, str]]:
    """A signed delivery: raw body and the contract's headers; ``overrides`` replace
    headers by their name with ``-`` as ``_`` (``None`` drops one)."""
    raw = body if isinstance(body, bytes) else orjson.dumps(body)
    parsed = orjson.loads(raw) if raw.startswith(b"{") else {}
    headers: dict[str, str | None] = {
        "Content-Type": "application/json",
        "Service-Signature": sign(raw, secrets, timestamp=timestamp),
        "Service-Timestamp": str(timestamp),
        "Service-Event-Id": parsed.get("id", new_id("evt_")),
        "Service-Event": parsed.get("type", "webhook.test"),
        "Service-Delivery-Id": new_id("whd_"),
    }
    for name, value in overrides.items():
        headers[name.replace("_", "-")] = value
    return raw, {k: v for k, v in headers.items() if v is not None}
