"""The emulator served in the foreground until interrupted: :func:`serve`.

:func:`start` runs one on a thread for the process that started it; this is
the one another process (a notebook's kernel, a shell's client, an assistant)
reaches: ``dialkit sandbox serve`` calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ._config import SandboxConfig
from ._server import bind, keys_of, make_server, resolve_config
from ._service import Service


def serve(config: SandboxConfig | str | Path | None = None, *, host: str = "127.0.0.1",
          port: int = 8787, db: str | Path | None = None,
          echo: Callable[[str], object] = print) -> None:
    """Serve every operation of the v1 contract under ``/v1`` until interrupted.

    Once listening, ``echo`` is given the address, each key once under its shortest
    label, and the MCP address, a line each, before any request is served.

    Args:
        config: A :class:`SandboxConfig`, a TOML file, or ``None`` for the default account.
        host: The address to listen on.
        port: The port; 0 picks a free one (``echo`` names it).
        db: A SQLite file that keeps the world, its data and its keys across restarts.
        echo: Where the start's lines go.

    Raises:
        ConfigError: The configuration is refused.
        SandboxStartError: The port cannot be bound.

    Examples:
        >>> serve(port=0)  # serves until interrupted  # doctest: +SKIP
        listening on http://127.0.0.1:40467
        test key: sk_test_...
        mcp url: http://127.0.0.1:40467/mcp
    """
    resolved = resolve_config(config, db)
    sock = bind(host, port)
    try:
        service = Service(resolved, None if db is None else str(db))
    except BaseException:
        sock.close()
        raise
    bound_host, bound_port = sock.getsockname()[:2]
    echo(f"listening on http://{bound_host}:{bound_port}")
    for label, key in _labelled_once(keys_of(resolved)).items():
        echo(f"{label} key: {key}")
    echo(f"mcp url: http://{bound_host}:{bound_port}/mcp")
    make_server(service).run(sockets=[sock])


def _labelled_once(keys: Mapping[str, str]) -> dict[str, str]:
    """Each key once, under its shortest label."""
    shown: dict[str, str] = {}
    for label, key in sorted(keys.items(), key=lambda item: len(item[0])):
        if key not in shown.values():
            shown[label] = key
    return shown
