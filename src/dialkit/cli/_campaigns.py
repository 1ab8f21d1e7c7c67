"""``dialkit campaigns list``: the account's campaigns, so a shell user can find the
campaign id a lead file goes to; a thin layer over :func:`dialkit.leads.campaigns`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from dialkit._shown._words import counted
from dialkit._utils._base_error import InputError
from dialkit.cli._shared import ACCOUNT_FLAGS, SANDBOX_FLAGS, Csv, Json, cli_text, printed

if TYPE_CHECKING:
    import pandas as pd

LIST_FLAGS = {**ACCOUNT_FLAGS, **SANDBOX_FLAGS}
"""``dialkit campaigns list``'s flags for the arguments the library's messages name."""

campaigns_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


@campaigns_app.command("list")
def list_command(
    importable: Annotated[bool, typer.Option("--importable", help=(
        "Only the campaigns that can take leads now: draft, ready or paused."))] = False,
    sandbox: Annotated[bool, typer.Option("--sandbox", help=(
        "List the local emulator's campaigns instead of DIALKIT_API_KEY's."))] = False,
    count_leads: Annotated[bool, typer.Option("--count-leads", help=(
        "Where the service gives no lead count, count the leads from the account's "
        "lead list (a request per 100 leads, with a progress bar)."))] = False,
    as_json: Json = False, as_csv: Csv = False,
) -> None:
    """List the account's campaigns, newest first: id, name, status and how many leads
    each holds (from each campaign's progress: a request per campaign)."""
    from dialkit.client import Client
    from dialkit.errors import ApiError
    from dialkit.leads import campaigns

    try:
        with Client.sandbox() if sandbox else Client() as client:
            frame = campaigns(client, count_leads=count_leads, refresh="full")
    except InputError as error:  # no key, or a malformed one
        typer.echo(f"error: {cli_text(str(error), LIST_FLAGS)}", err=True)
        raise typer.Exit(2) from None
    except ApiError as error:
        typer.echo(f"error: {cli_text(str(error), LIST_FLAGS)}", err=True)
        raise typer.Exit(1) from None
    if importable:
        frame = frame[frame["importable"]]
    if printed(frame, as_json=as_json, as_csv=as_csv):
        return
    if frame.empty:
        typer.echo("no campaigns that can take leads" if importable else "no campaigns")
        return
    typer.echo(_table(frame))
    unknown = int(frame["leads"].isna().sum())
    if unknown:
        typer.echo(f"note: the service gave no lead count for {counted(unknown, 'campaign')} "
                   "(left blank); --count-leads counts them from the lead list, a request "
                   "per 100 leads")


def _table(frame: pd.DataFrame) -> str:
    """Id, name and status left-aligned, the lead count right-aligned, a space apart; a
    count the service did not give is blank."""
    import pandas as pd

    texts = {column: [column, *frame[column].astype(str)]
             for column in ("id", "name", "status")}
    texts["leads"] = ["leads", *("" if pd.isna(n) else f"{n:,}" for n in frame["leads"])]
    widths = {column: max(map(len, cells)) for column, cells in texts.items()}
    return "\n".join(
        " ".join([*(f"{texts[c][n]:<{widths[c]}}" for c in ("id", "name", "status")),
                  f"{texts['leads'][n]:>{widths['leads']}}"])
        for n in range(len(frame) + 1))
