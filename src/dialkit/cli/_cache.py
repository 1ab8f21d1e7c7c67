"""``dialkit cache info|clear``: the Parquet cache of ``client.frames``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dialkit._shown._words import counted
from dialkit.cli._shared import Csv, Json, printed

cache_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)
CacheDir = Annotated[Path | None, typer.Option(
    "--dir", metavar="PATH", help="The cache folder; default $DIALKIT_CACHE_DIR, else the "
    "user cache folder.")]


@cache_app.command("info")
def cache_info_command(cache_dir: CacheDir = None, as_json: Json = False,
                       as_csv: Csv = False) -> None:
    """List every cached frame: service, resource, rows, size, when fetched, file."""
    from dialkit.frames import cache_info, cache_root

    frame = cache_info(cache_dir)
    if printed(frame, as_json=as_json, as_csv=as_csv):
        return
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
    """Delete every cached frame of every service and key; nothing dialkit did not
    write there."""
    from dialkit.frames import cache_root, clear_cache

    root = cache_root(cache_dir)
    if not yes and not typer.confirm(f"Delete every cached frame in {root}?"):
        raise typer.Exit(1)
    cleared = clear_cache(cache_dir)
    typer.echo(f"removed {counted(cleared.removed, 'cached frame')} from {root}")
    if cleared.left_alone:
        typer.echo(f"left alone {counted(len(cleared.left_alone), 'item')} that are not "
                   "cached frames:")
        for path in cleared.left_alone:
            typer.echo(f"  {path}")
