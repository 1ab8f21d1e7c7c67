"""``dialkit sandbox serve``: the local emulator of the service, served until interrupted."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from dialkit.sandbox import ConfigError, SandboxStartError
from dialkit.sandbox._server import bind, keys_of, make_server, resolve_config
from dialkit.sandbox._service import Service

sandbox_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


@sandbox_app.command("serve")
def serve(
    host: Annotated[str, typer.Option(metavar="HOST", help="Address to listen on.")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT",
                                      help="Port to listen on; 0 picks a free one.")] = 8787,
    config: Annotated[Path | None, typer.Option(metavar="FILE",
                                                help="TOML configuration file.")] = None,
    db: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "SQLite file that keeps the world, its data and its keys across restarts."))] = None,
) -> None:
    """Serve every operation of the v1 contract under /v1 until interrupted."""
    try:
        resolved = resolve_config(config, db)
        sock = bind(host, port)
        service = Service(resolved, None if db is None else str(db))
    except (ConfigError, SandboxStartError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    bound_host, bound_port = sock.getsockname()[:2]
    typer.echo(f"listening on http://{bound_host}:{bound_port}")
    shown: set[str] = set()
    for label, key in sorted(keys_of(resolved).items(), key=lambda item: len(item[0])):
        if key not in shown:  # each key once, under its shortest label
            shown.add(key)
            typer.echo(f"{label} key: {key}")
    typer.echo(f"mcp url: http://{bound_host}:{bound_port}/mcp")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    make_server(service).run(sockets=[sock])
