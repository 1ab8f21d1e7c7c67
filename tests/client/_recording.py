"""A recording transport: what the client put on the wire, for tests that count requests.

It is a spy, not a mock: every request goes to the real network through
``httpx.HTTPTransport`` and is recorded on the way (method, path, the
Idempotency-Key and X-Correlation-ID headers, and the answer's status once
its headers arrived).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from dialkit import Client


@dataclass
class Sent:
    """One request as it left the client."""

    method: str
    path: str
    idempotency_key: str | None
    correlation_id: str | None
    status: int | None = None
    """The answer's status; ``None`` while none arrived (refused, timed out)."""


class RecordingTransport(httpx.HTTPTransport):
    """``httpx.HTTPTransport`` that records each request before forwarding it."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.sent: list[Sent] = []
        self.requests: list[httpx.Request] = []
        self._lock = threading.Lock()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        entry = Sent(request.method, request.url.path, request.headers.get("Idempotency-Key"),
                     request.headers.get("X-Correlation-ID"))
        with self._lock:
            self.sent.append(entry)
            self.requests.append(request)
        response = super().handle_request(request)
        entry.status = response.status_code
        return response

    def to(self, path: str, method: str | None = None) -> list[Sent]:
        """The requests sent to ``path`` (with ``method``, when given)."""
        with self._lock:
            return [s for s in self.sent if s.path == path and method in (None, s.method)]

    def statuses(self) -> list[int | None]:
        """The status of every answer, in the order the requests were sent."""
        with self._lock:
            return [s.status for s in self.sent]


def recording(client_as: Callable[..., Client],
              role: str = "full") -> tuple[Client, RecordingTransport]:
    """A client of the session emulator for ``role`` whose requests are recorded."""
    recorder = RecordingTransport()
    return client_as(role, transport=recorder), recorder


def offline(wire: RecordingTransport) -> Client:
    """A client of an address where nothing listens: any request would fail (and is recorded)."""
    return Client("svc_test_offline01_AAAAbbbbCCCCddddEEEE0000", base_url="http://127.0.0.1:9",
                  transport=wire, rate_limit=None, max_retries=0)
