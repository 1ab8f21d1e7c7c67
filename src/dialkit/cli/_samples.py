"""``dialkit samples [--copy DIR]``: the sample lead files packaged with dialkit
(:mod:`dialkit.samples`), listed or copied out to try ``dialkit leads clean`` on."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dialkit import samples
from dialkit.cli._shared import Csv, Json, printed

samples_app = typer.Typer(invoke_without_command=True, subcommand_metavar="",
                          rich_markup_mode=None)


@samples_app.callback()
def samples_command(
    copy: Annotated[Path | None, typer.Option(metavar="DIR", help=(
        "Copy every sample into DIR (made if missing; a different file of the same name "
        "is never overwritten) and print each copy's path."))] = None,
    as_json: Json = False, as_csv: Csv = False,
) -> None:
    """List the packaged sample files' names, or copy them into a folder."""
    import pandas as pd

    if copy is None:
        listed = pd.DataFrame({"name": samples.names()})
        listed["path"] = [str(samples.path(name)) for name in listed["name"]]
        if printed(listed, as_json=as_json, as_csv=as_csv):
            return
        for name in samples.names():
            typer.echo(name)
        return
    try:
        written = samples.copy(copy)
    except OSError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(2) from None
    for path in written:
        typer.echo(str(path))
