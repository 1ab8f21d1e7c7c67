"""A receiver served in this process, on a thread (:meth:`Receiver.serve`): a notebook's or a
script's own endpoint for the deliveries of the emulator (a loopback receiver, which an
emulator started with ``allow_loopback_webhooks`` delivers to) or of the service behind a
tunnel, without a second process. It is served as ``dialkit webhooks listen`` serves one
(uvicorn, the same limits), so what it accepts and refuses is the command's."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .._utils._base_error import InputError
from .._utils._net import (
    ServerLimits,
    listening_socket,
    serve_on_a_thread,
    served_url,
    server_config,
)

if TYPE_CHECKING:
    import uvicorn

START_SECONDS = 10.0
"""How long a receiver's server may take to start serving."""


@dataclass
class Served:
    """A :class:`~dialkit.webhooks.Receiver` served on a thread of this process.

    Attributes:
        url: Where deliveries go: the URL to register (``client.webhooks.create(url=...)``).
    """

    url: str
    _server: uvicorn.Server
    _thread: threading.Thread

    def stop(self) -> None:
        """Stop serving, once the deliveries being answered are (the receiver's store is
        closed if it opened it); stopping again does nothing."""
        self._server.should_exit = True
        self._thread.join(timeout=START_SECONDS)

    def __enter__(self) -> Served:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"Served(url={self.url!r})"


def served(receiver: Any, host: str, port: int, path: str,
           limits: ServerLimits | None) -> Served:
    """``receiver`` (an ASGI app: :class:`~dialkit.webhooks.Receiver`) served on
    ``host``:``port`` (0: a free one) at ``path`` (:meth:`Receiver.serve`)."""
    import uvicorn

    try:
        sock = listening_socket(host, port)
    except OSError as error:
        raise InputError(f"the receiver cannot listen on {host}:{port}: "
                         f"{error.strerror or error}: pass another port, or 0 for a free one"
                         ) from None
    server = uvicorn.Server(server_config(receiver, limits=limits, lifespan="on",
                                          log_level="warning"))
    thread = serve_on_a_thread(server, sock, name="dialkit-receiver", within=START_SECONDS,
                               error=lambda why: OSError(f"the receiver did not start: {why}"))
    return Served(served_url(sock, path), server, thread)
