"""The ``dialkit`` command: a thin layer over library functions a notebook can call too."""

from __future__ import annotations

import logging
from enum import StrEnum
from importlib.metadata import version
from pathlib import Path
from typing import Annotated

import typer

from dialkit._cli_campaigns import campaigns_app
from dialkit._cli_compliance import compliance_app
from dialkit._cli_leads import leads_app
from dialkit._cli_mcp import mcp_app
from dialkit._cli_webhooks import webhooks_app
from dialkit.frames import cache_info, cache_root, clear_cache
from dialkit.sandbox import ConfigError, SandboxStartError
from dialkit.sandbox._server import bind, keys_of, make_server, resolve_config
from dialkit.sandbox._service import Service

app = typer.Typer(help="dialkit: a toolkit for the accounts of an outbound dialing service.",
                  no_args_is_help=True, add_completion=False, rich_markup_mode=None)
sandbox_app = typer.Typer(help="The local emulator of the service.", no_args_is_help=True,
                          rich_markup_mode=None)
app.add_typer(sandbox_app, name="sandbox")
cache_app = typer.Typer(help="The Parquet cache of client.frames.", no_args_is_help=True,
                        rich_markup_mode=None)
app.add_typer(cache_app, name="cache")
app.add_typer(campaigns_app, name="campaigns")
app.add_typer(leads_app, name="leads")
app.add_typer(compliance_app, name="compliance")
app.add_typer(mcp_app, name="mcp")
app.add_typer(webhooks_app, name="webhooks")
CacheDir = Annotated[Path | None, typer.Option(
    "--dir", metavar="PATH", help="The cache folder; default $DIALKIT_CACHE_DIR, else the "
    "user cache folder.")]


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"dialkit {version('dialkit')}")
        raise typer.Exit()


@app.callback()
def _options(
    show_version: Annotated[bool, typer.Option(
        "--version", help="Show dialkit's version and exit.", is_eager=True,
        callback=_print_version)] = False,
) -> None:
    """dialkit: a toolkit for the accounts of an outbound dialing service."""


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


@cache_app.command("info")
def cache_info_command(cache_dir: CacheDir = None) -> None:
    """List every cached frame: service, resource, rows, size, when fetched, file."""
    frame = cache_info(cache_dir)
    if frame.empty:
        typer.echo(f"no cached frames in {cache_root(cache_dir)}")
        return
    shown = frame[["service", "resource", "rows", "bytes", "fetched_at", "path"]]
    typer.echo(shown.to_string(index=False))


@cache_app.command("clear")
def cache_clear_command(
    cache_dir: CacheDir = None,
    yes: Annotated[bool, typer.Option("--yes", help="Clear without asking.")] = False,
) -> None:
    """Delete every cached frame of every service and key."""
    root = cache_root(cache_dir)
    if not yes and not typer.confirm(f"Delete every cached frame in {root}?"):
        raise typer.Exit(1)
    typer.echo(f"removed {clear_cache(cache_dir)} cached frames from {root}")


class DemoScale(StrEnum):
    """The worlds ``dialkit demo`` offers."""

    small = "small"
    medium = "medium"


@app.command()
def demo(
    out: Annotated[Path, typer.Option(metavar="DIR", help=(
        "Folder to write the report into: a page per notebook, the files they write, "
        "index.html."))] = Path("reports"),
    scale: Annotated[DemoScale, typer.Option(metavar="SCALE", help=(
        "The emulator's world: small or medium."))] = DemoScale.medium,
) -> None:
    """Run the notebooks against the emulator and write them, their files and an index."""
    from dialkit._demo import run_demo
    from dialkit._demo_index import summary

    try:
        report = run_demo(out, scale=scale.value, echo=typer.echo)
    except OSError as exc:  # a notebook missing, an --out that cannot be written
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for line in summary(report):
        typer.echo(line, err=line.startswith("error:"))
    if not report.ok:
        raise typer.Exit(1)


def main() -> None:
    """Entry point of the ``dialkit`` console script."""
    app()


if __name__ == "__main__":
    main()
