"""The emulator served in the foreground until interrupted: :func:`serve`.

:func:`start` runs one on a thread for the process that started it; this is
the one another process (a notebook's kernel, a shell's client, an assistant)
reaches: ``dialkit sandbox serve`` calls it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from .._utils._net import served_url
from ._config import SandboxConfig
from ._server import keys_of, make_server, prepare


def serve(config: SandboxConfig | str | Path | None = None, *, host: str = "127.0.0.1",
          port: int = 8787, db: str | Path | None = None,
          echo: Callable[[str], object] = print, admin_key: str | None = None,
          allow_remote: bool = False) -> None:
    """Serve every operation of the v1 contract under ``/v1`` until interrupted.

    Once listening, ``echo`` is given the address, each key once under its shortest
    label, the MCP address and the admin key, a line each, before any request is
    served. An address that is not loopback is refused unless ``admin_key`` or
    ``allow_remote`` says it is meant, and a warning is logged; the URLs printed
    are ones that work (the loopback address for a bind on every interface).

    Args:
        config: A :class:`SandboxConfig`, a TOML file, or ``None`` for the default account.
        host: The address to listen on.
        port: The port; 0 picks a free one (``echo`` names it).
        db: A SQLite file that keeps the world, its data and its keys across restarts.
        echo: Where the start's lines go.
        admin_key: The key ``/_sandbox`` writes need (16 characters or more); default a
            new random one, printed.
        allow_remote: Listen on a non-loopback ``host`` with a random admin key.

    Raises:
        ConfigError: The configuration is refused.
        SandboxStartError: The port cannot be bound, or the address is refused.
        ValueError: ``admin_key`` is too short, or ``db`` is not an emulator world.

    Examples:
        >>> serve(port=0)  # serves until interrupted  # doctest: +SKIP
        listening on http://127.0.0.1:40467
        test key: sk_test_...
        mcp url: http://127.0.0.1:40467/mcp
        admin key: 3q2-...
    """
    ready = prepare(config, host=host, port=port, db=db, admin_key=admin_key,
                    allow_remote=allow_remote)
    base_url = served_url(ready.sock)
    echo(f"listening on {base_url}")
    for label, key in _labelled_once(keys_of(ready.config)).items():
        echo(f"{label} key: {key}")
    echo(f"mcp url: {base_url}/mcp")
    echo(f"admin key: {'(the one given)' if admin_key is not None else ready.admin.key}")
    make_server(ready.service, ready.admin).run(sockets=[ready.sock])


def _labelled_once(keys: Mapping[str, str]) -> dict[str, str]:
    """Each key once, under its shortest label."""
    shown: dict[str, str] = {}
    for label, key in sorted(keys.items(), key=lambda item: len(item[0])):
        if key not in shown.values():
            shown[label] = key
    return shown
