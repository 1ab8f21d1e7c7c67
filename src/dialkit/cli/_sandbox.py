"""``dialkit sandbox serve``: :func:`dialkit.sandbox.serve`, the local emulator of the
service, served until interrupted."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from dialkit.cli._flags import Host, Port
from dialkit.sandbox import ConfigError, SandboxStartError
from dialkit.sandbox import serve as serve_sandbox

sandbox_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


@sandbox_app.command("serve")
def serve(
    host: Host = "127.0.0.1", port: Port = 8787,
    config: Annotated[Path | None, typer.Option(metavar="FILE",
                                                help="TOML configuration file.")] = None,
    db: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "SQLite file that keeps the world, its data and its keys across restarts."))] = None,
) -> None:
    """Serve every operation of the v1 contract under /v1 until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        serve_sandbox(config, host=host, port=port, db=db, echo=typer.echo)
    except (ConfigError, SandboxStartError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
