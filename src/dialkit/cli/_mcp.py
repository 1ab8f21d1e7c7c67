"""``dialkit mcp serve``: :func:`dialkit.mcp.serve` over ``DIALKIT_API_KEY``'s account.

stdio is the usual way an assistant launches a local server; ``--http PORT``
serves Streamable HTTP on loopback instead, where every request must carry
the same key as its bearer token.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from dialkit._utils._base_error import InputError
from dialkit.cli._shared import ACCOUNT_FLAGS, NO_SANDBOX_FLAGS, cli_text

SERVE_FLAGS = {**ACCOUNT_FLAGS, **NO_SANDBOX_FLAGS, "audit_log= path": "--audit-log PATH",
               "http=": "--http"}
"""``dialkit mcp serve``'s flags for the arguments the library's messages name."""

mcp_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None)


@mcp_app.command("serve")
def serve(
    http: Annotated[int | None, typer.Option(metavar="PORT", help=(
        "Serve Streamable HTTP on 127.0.0.1:PORT instead of stdio (0: a free port)."))] = None,
    read_only: Annotated[bool, typer.Option("--read-only", help=(
        "Offer only the tier-1 read tools."))] = False,
    tools: Annotated[str | None, typer.Option(metavar="NAMES", help=(
        "Offer only these tools, comma-separated: calls_list,dnc_check."))] = None,
    audit_log: Annotated[Path | None, typer.Option(metavar="PATH", help=(
        "JSON Lines file the audit log is appended to; default in the user log folder."))
    ] = None,
) -> None:
    """Serve every operation as an MCP tool over DIALKIT_API_KEY's account."""
    from dialkit.client import API_KEY_VARIABLE, Client
    from dialkit.errors import ApiError
    from dialkit.mcp import select_tools
    from dialkit.mcp import serve as serve_account

    names = None if tools is None else [t.strip() for t in tools.split(",") if t.strip()]
    api_key = os.environ.get(API_KEY_VARIABLE, "")
    try:
        select_tools(names, read_only=read_only)  # a mistyped name first, before the key
        with Client(api_key or None) as client:
            serve_account(client, http=http, bearer_token=api_key, tools=names,
                          read_only=read_only, audit_log=audit_log)
    except (InputError, ApiError, OSError) as error:
        typer.echo(f"error: {cli_text(str(error), SERVE_FLAGS)}", err=True)
        raise typer.Exit(2) from None
