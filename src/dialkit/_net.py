"""The listening socket every dialkit server binds before it runs (the emulator, the
webhook receiver): bound first, so the port is known, and any error is the caller's to
word, before a server thread starts."""

from __future__ import annotations

import socket

BACKLOG = 2048
"""Connections that wait until the server accepts them (a burst of deliveries, a load)."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port`` (0: a free port), inheritable by a worker.

    Raises:
        OSError: The address cannot be bound; the socket is closed.
    """
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
