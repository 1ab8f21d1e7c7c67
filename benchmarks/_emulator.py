"""The emulator in its own process, for benchmarks that must not share its CPU.

``serve`` runs ``dialkit sandbox serve --port 0`` with a one-account, one-key
configuration written by ``config_file`` (manual clock, so the dialer
simulation does not run during a measurement) and yields its base URL; its
``/_sandbox`` writes take :data:`ADMIN_HEADERS`.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from dialkit.contract import RATE_LIMIT_PER_KEY
from dialkit.sandbox._config import generate_key

LISTENING = "listening on "
_ADMIN_KEY = secrets.token_urlsafe(24)
ADMIN_HEADERS = {"X-Sandbox-Admin-Key": _ADMIN_KEY}
"""What the emulator's admin surface asks of a write (its key, given in its environment)."""


def new_key() -> str:
    """A fresh test key for a benchmark's configuration."""
    return generate_key()


def config_file(key: str, *, scale: str, rate_limit_scale: float,
                scopes: tuple[str, ...] = ("calls:read",)) -> Path:
    """A TOML configuration: one account at ``scale``, one client with ``scopes``, ``key``."""
    scope_list = ", ".join(f'"{scope}"' for scope in scopes)
    text = (
        f"[server]\nrate_limit_scale = {rate_limit_scale}\nclock = \"manual\"\n\n"
        f"[[accounts]]\nname = \"big\"\nscale = \"{scale}\"\n\n"
        f"[[accounts.clients]]\nname = \"bench\"\nscopes = [{scope_list}]\n\n"
        f"[[accounts.clients.keys]]\nkey = \"{key}\"\n"
    )
    path = Path(tempfile.mkdtemp()) / "bench.toml"
    path.write_text(text)
    return path


@contextmanager
def serve(config: Path) -> Iterator[str]:
    """Run the emulator with ``config`` in a child process; yield ``http://HOST:PORT``."""
    with tempfile.TemporaryFile(mode="w+") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "dialkit.cli", "sandbox", "serve", "--port", "0",
             "--config", str(config)],
            stdout=subprocess.PIPE, stderr=log, text=True,
            env=os.environ | {"DIALKIT_SANDBOX_ADMIN_KEY": _ADMIN_KEY})
        try:
            assert server.stdout is not None
            first = server.stdout.readline().strip()
            if not first.startswith(LISTENING):
                log.seek(0)
                raise RuntimeError(f"the emulator did not start: {first!r}\n{log.read()}")
            yield first.removeprefix(LISTENING)
        finally:
            server.terminate()
            server.wait(timeout=30)


def refill_pause(given: float | None) -> float:
    """Seconds to wait before each timed run: ``given``, else until the key's bucket has
    refilled, so no run pays for the one before it."""
    if given is not None:
        return given
    return RATE_LIMIT_PER_KEY.burst / RATE_LIMIT_PER_KEY.rate + 1


class PathCounter(httpx.HTTPTransport):
    """An httpx transport that counts the requests it forwards, by method and path kind:
    the first of ``kinds`` the path starts with, else the path itself."""

    def __init__(self, kinds: tuple[str, ...]) -> None:
        super().__init__()
        self.kinds = kinds
        self.sent = Counter[str]()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        kind = next((name for name in self.kinds if path.startswith(name)), path)
        self.sent[f"{request.method} {kind}"] += 1
        return super().handle_request(request)
