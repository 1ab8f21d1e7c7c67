"""``--json`` and ``--csv``: a command's table for programs instead of people.

Every command that prints a table takes both: ``--json`` prints its rows as a JSON
array of objects (times in ISO 8601, missing values ``null``), ``--csv`` as CSV
with a header (text that a spreadsheet would read as a formula starts with ``'``,
as in every CSV dialkit writes). Either prints the table alone, nothing else, on
standard output; an empty table is ``[]`` or a header, not a sentence.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    import pandas as pd

Json = Annotated[bool, typer.Option("--json", help=(
    "Print the table as JSON, an array of objects (one per row), for programs."))]
Csv = Annotated[bool, typer.Option("--csv", help=(
    "Print the table as CSV; a text cell starting with = + - @ gets a leading '."))]


def printed(frame: pd.DataFrame, *, as_json: bool, as_csv: bool) -> bool:
    """Print ``frame`` as ``--json`` or ``--csv`` asks; ``False`` when neither was given
    (the command prints its own text). Both given: exit 2, naming them."""
    if as_json and as_csv:
        typer.echo("error: --json and --csv: pass one of them", err=True)
        raise typer.Exit(2)
    if as_json:
        rows = json.loads(frame.to_json(orient="records", date_format="iso"))
        typer.echo(json.dumps(rows, ensure_ascii=False))  # pandas writes "/" as "\\/"
    elif as_csv:
        from dialkit.frames import write_csv  # pandas: not for shell completion (issue 48)

        typer.echo(write_csv(frame), nl=False)
    return as_json or as_csv
