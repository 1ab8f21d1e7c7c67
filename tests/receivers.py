"""A webhook receiver on 127.0.0.1 for tests that watch real deliveries arrive."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

T = TypeVar("T")

Delivery = tuple[dict[str, str], bytes]
"""One request as received: lower-cased headers and the raw body."""


def wait_for(check: Callable[[], T | None], timeout: float = 5.0, *,
             what: str = "the delivery worker", interval: float = 0.05) -> T:
    """Poll ``check`` until it gives a truthy value."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(interval)


class Receiver:
    """An HTTP receiver on 127.0.0.1 that records each request and answers ``statuses`` in
    turn (then ``default``)."""

    def __init__(self) -> None:
        self.requests: list[Delivery] = []
        self.statuses: deque[int] = deque()
        self.default = 200
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                owner.requests.append(({k.lower(): v for k, v in self.headers.items()}, body))
                status = owner.statuses.popleft() if owner.statuses else owner.default
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                """Quiet."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/dialer"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,),
                                       daemon=True)
        self.thread.start()

    def received(self, delivery_id: str) -> Delivery:
        """The request of one delivery, once it has arrived (5 s at most)."""
        return wait_for(lambda: next((r for r in self.requests
                                      if r[0]["service-delivery-id"] == delivery_id), None))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
