"""``dialkit sandbox serve``: :func:`dialkit.sandbox.serve`, the local emulator of the
service, served until interrupted."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from dialkit._utils._base_error import InputError
from dialkit.cli._shared import PORT_FLAGS, Host, Port, cli_text

sandbox_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)

SERVE_FLAGS: Mapping[str, str] = {
    "admin_key=": "--admin-key",
    "allow_remote=True": "--allow-remote",
    "db= (or --db)": "--db",
    **PORT_FLAGS,
}
"""The library's words for the options of ``sandbox serve``."""


@sandbox_app.command("serve")
def serve(
    host: Host = "127.0.0.1", port: Port = 8787,
    config: Annotated[Path | None, typer.Option(metavar="FILE",
                                                help="TOML configuration file.")] = None,
    db: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "SQLite file that keeps the world, its data and its keys across restarts."))] = None,
    admin_key: Annotated[str | None, typer.Option(
        metavar="KEY", envvar="DIALKIT_SANDBOX_ADMIN_KEY", show_envvar=False, help=(
            "Key the /_sandbox admin surface asks for (16+ characters; default: a new "
            "one, printed). Prefer DIALKIT_SANDBOX_ADMIN_KEY: ps shows arguments."))] = None,
    allow_remote: Annotated[bool, typer.Option(
        "--allow-remote", help="Listen on a --host that is not loopback.")] = False,
) -> None:
    """Serve every operation of the v1 contract under /v1 until interrupted."""
    from dialkit.sandbox import SandboxStartError
    from dialkit.sandbox import serve as serve_sandbox

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        serve_sandbox(config, host=host, port=port, db=db, echo=typer.echo,
                      admin_key=admin_key, allow_remote=allow_remote)
    except (InputError, SandboxStartError) as exc:
        typer.echo(f"error: {cli_text(str(exc), SERVE_FLAGS)}", err=True)
        raise typer.Exit(2) from None
