"""The options several commands share, and library messages in the words of the command
that reached them.

The library's messages name what to pass as Python arguments (``mapping=``,
``region='GB'``, ``pass api_key= or set DIALKIT_API_KEY``); a shell user has
flags instead. Each command module keeps one table from the library's
spellings to its own flags, built from the pieces below, and passes every
message it prints through :func:`cli_text`. The spellings are whole phrases
matched exactly (an argument only where it starts a word), never patterns
guessed from the text; ``tests/test_cli_flags.py`` runs each command into
each refusal and checks that no Python spelling is left.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated

import typer

Host = Annotated[str, typer.Option(metavar="HOST", help="Address to listen on.")]
"""``--host`` of the commands that serve (``sandbox serve``, ``webhooks listen``)."""
Port = Annotated[int, typer.Option(metavar="PORT", help="Port to listen on; 0 picks a free one.")]
"""``--port`` of the commands that serve; each gives its own default."""

TIMEOUT_FLAG = "run it again with a larger --timeout (dialkit --timeout 300 COMMAND ...)"
"""What to do about a call that ran out of time, in the command's words."""

ACCOUNT_FLAGS: Mapping[str, str] = {
    # The key never comes from the command line (shell history and ps show it).
    "pass api_key= or set DIALKIT_API_KEY": "set DIALKIT_API_KEY",
    "DIALKIT_API_KEY or api_key=": "DIALKIT_API_KEY",
    # The deadline and the timeout of every Client() are set by `dialkit --timeout`.
    "pass a larger deadline= (and timeout=) to dialkit.Client": TIMEOUT_FLAG,
    "pass a larger deadline= to dialkit.Client": TIMEOUT_FLAG,
    "pass a larger timeout= to dialkit.Client": TIMEOUT_FLAG,
    "base_url= or DIALKIT_BASE_URL": "DIALKIT_BASE_URL",
}
"""The client's words for the key, for every command that reaches the account."""

SANDBOX_FLAGS: Mapping[str, str] = {
    "use dialkit.Client.sandbox()": "pass --sandbox",
}
"""For a command with ``--sandbox``."""

NO_SANDBOX_FLAGS: Mapping[str, str] = {
    "use dialkit.Client.sandbox()": "run `dialkit sandbox serve` and set DIALKIT_BASE_URL",
}
"""For a command that reaches the account but has no ``--sandbox``."""

LEAD_FILE_FLAGS: Mapping[str, str] = {
    "mapping={'phone': '<column>'}": "--map phone=COLUMN",
    "mapping=": "--map",
    "region=": "--region",
    "country_column=": "--country-column",
    "blocked_countries=": "--blocked-countries",
    "blocked_countries holds": "--blocked-countries holds",
    "sheet=": "--sheet",
    "encoding=": "--encoding",
}
"""The options ``dialkit leads clean`` and ``dialkit leads import`` share, as
:func:`dialkit.leads.read` and :func:`dialkit.leads.clean` name them."""


def cli_text(text: str, flags: Mapping[str, str]) -> str:
    """``text`` with every spelling of ``flags`` replaced by its flag, longest first
    (``mapping={...}`` before ``mapping=``). An argument written with its value
    (``region='XX'``) keeps the value after a space: ``--region 'XX'``."""
    for spelling in sorted(flags, key=len, reverse=True):
        text = _replaced(text, spelling, flags[spelling])
    return text


def _replaced(text: str, spelling: str, flag: str) -> str:
    found = rf"(?<![\w.-]){re.escape(spelling)}"
    if spelling.endswith("="):  # a value written at once after it gets a space: --region 'XX'
        text = re.sub(found + r"(?=[\w'\"{\[-])", lambda _: flag + " ", text)
    return re.sub(found, lambda _: flag, text)
