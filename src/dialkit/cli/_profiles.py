"""``dialkit profiles list|add``: named accounts of the config file
(:func:`dialkit.client.profiles`), so that ``--profile NAME`` reaches one; the key is
asked for at a hidden prompt (or read from standard input), never taken as an option."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from dialkit._utils._base_error import InputError
from dialkit._utils._secrets import mask, sendable
from dialkit.cli._shared import Csv, Json, printed

profiles_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


@profiles_app.command("list")
def list_command(as_json: Json = False, as_csv: Csv = False) -> None:
    """List the profiles of the config file: name, base URL, the key's last characters."""
    import pandas as pd

    from dialkit.client import config_path, profiles

    try:
        found = profiles()
    except InputError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    table = pd.DataFrame({"profile": list(found),
                          "base_url": [p.base_url or "" for p in found.values()],
                          "api_key": [mask(p.api_key) if p.api_key else "" for p in
                                      found.values()]})
    if printed(table, as_json=as_json, as_csv=as_csv):
        return
    if table.empty:
        typer.echo(f"no profiles in {config_path()}: add one with `dialkit profiles add NAME "
                   "--base-url URL`")
        return
    typer.echo(table.to_string(index=False))


@profiles_app.command("add")
def add_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The profile's name.",
                                        show_default=False)],
    base_url: Annotated[str, typer.Option(metavar="URL", show_default=False, help=(
        "The service's address, https://..."))],
) -> None:
    """Add (or replace) a profile; its key is asked for without echo, or read from
    standard input when that is not a terminal. The file is written owner-only."""
    from dialkit.client import save_profile

    key = (typer.prompt("API key", hide_input=True) if sys.stdin.isatty()
           else sys.stdin.readline()).strip()
    if not key:
        typer.echo("error: no API key given: type it at the prompt or pipe it in", err=True)
        raise typer.Exit(2)
    try:  # a key no header carries would fail every command later: not saved
        written = save_profile(name, base_url=base_url, api_key=sendable(key, "the API key"))
    except (OSError, InputError) as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"profile {name} ({base_url}, key {mask(key)}) saved in {written}")
