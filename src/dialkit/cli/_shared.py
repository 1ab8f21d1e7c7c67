"""What the commands share: the options several take, what those options print, and the
end of a command that no one answered.

**Library messages in the command's words.** The library's messages name what to pass as
Python arguments (``mapping=``, ``region='GB'``, ``pass api_key= or set
DIALKIT_API_KEY``); a shell user has flags instead. Each command module keeps one table
from the library's spellings to its own flags, built from the pieces below, and passes
every message it prints through :func:`cli_text`. The spellings are whole phrases
matched exactly (an argument only where it starts a word), never patterns guessed from
the text; ``tests/test_cli_flags.py`` runs each command into each refusal and checks that
no Python spelling is left.

**``--json`` and ``--csv``: a command's table for programs instead of people.** Every
command that prints a table takes both: ``--json`` prints its rows as a JSON array of
objects (times in ISO 8601, missing values ``null``), ``--csv`` as CSV with a header
(text that a spreadsheet would read as a formula starts with ``'``, as in every CSV
dialkit writes). Either prints the table alone, nothing else, on standard output; an
empty table is ``[]`` or a header, not a sentence.

**What a TAB offers after an option that takes one of a closed set of values.**
Completion runs the ``dialkit`` command for every TAB (click's ``_DIALKIT_COMPLETE``
protocol): it builds the command's options, so the values come from light constants
(:mod:`dialkit._utils._choices`, an enum beside the command), never from the code that
acts on them, and the command modules import pandas, the client or the audit inside the
commands only. ``tests/test_cli_completion.py`` holds each option's offer equal to what
the command accepts, and every completion free of pandas, numpy and ``phonenumbers``.

**An exception no command answered: dialkit's own fault, told as such.** Each
command answers the errors it expects: bad input (an :class:`~dialkit.errors.InputError`)
as ``error: ...`` with exit status 2, a refusal of the service with 1. Anything else is a
bug in dialkit, never the user's input: it is told as an internal error with exit status
:data:`EXIT_INTERNAL`, its traceback written to an owner-only file (or shown, with
``-v``), so that the user can report it.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dialkit._files._private import private_file

if TYPE_CHECKING:
    import pandas as pd

Host = Annotated[str, typer.Option(metavar="HOST", help="Address to listen on.")]
"""``--host`` of the commands that serve (``sandbox serve``, ``webhooks listen``)."""
Port = Annotated[int, typer.Option(metavar="PORT", help="Port to listen on; 0 picks a free one.")]
"""``--port`` of the commands that serve; each gives its own default."""
PORT_FLAGS: Mapping[str, str] = {"port=": "--port"}
"""The library's word for ``--port`` (:func:`dialkit._utils._net.checked_port`)."""


def finite_seconds(param: typer.CallbackParam, seconds: float | None) -> float | None:
    """A ``SECONDS`` option's callback: ``inf`` and ``nan`` pass click's ``min=`` (``nan``
    compares false) and would mean no limit at all; refused as bad input instead, naming
    the option and its environment variable, if it has one."""
    if seconds is not None and not math.isfinite(seconds):
        variable = f" (or {param.envvar})" if isinstance(param.envvar, str) else ""
        raise typer.BadParameter("pass a number of seconds, such as 300",
                                 param_hint=f"'{param.opts[0]}'{variable}")
    return seconds


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
        from dialkit.frames import write_csv  # pandas: not for shell completion

        typer.echo(write_csv(frame), nl=False)
    return as_json or as_csv

def offering(values: Iterable[str]) -> Callable[[str], list[str]]:
    """An ``autocompletion=`` for an option that takes one of ``values``: a TAB offers
    those that start with what is typed, in their order."""
    choices = tuple(values)

    def complete(incomplete: str) -> list[str]:
        return [value for value in choices if value.startswith(incomplete)]

    return complete

EXIT_INTERNAL = 70
"""The exit status of an internal error: ``EX_SOFTWARE`` of sysexits.h, apart from 1
(found, or refused by the service) and 2 (bad input)."""


def internal_error(error: BaseException) -> int:
    """Tell ``error`` on standard error as dialkit's own fault, its traceback shown (at
    ``-v``) or written to a file; :data:`EXIT_INTERNAL`."""
    text = "".join(traceback.format_exception(error))
    head = f"internal error: {type(error).__name__}: {error}"
    where = None if _verbose() else _written(text)
    if where is None:
        sys.stderr.write(text)
        told = "the traceback is above"
    else:
        told = f"the traceback is in {where} (or run the command again with -v to see it)"
    sys.stderr.write(f"{head}\nThis is a bug in dialkit, not in your input: please report "
                     f"it with the traceback; {told}.\n")
    return EXIT_INTERNAL


def _verbose() -> bool:
    """Whether ``-v`` was given: dialkit's records from INFO on are shown."""
    return logging.getLogger("dialkit").isEnabledFor(logging.INFO)


def _written(text: str) -> Path | None:
    """``text`` in a new owner-only file of the temporary folder (paths and values of the
    user's data may be in it); its path, or None where it cannot be written."""
    try:
        descriptor, name = tempfile.mkstemp(prefix="dialkit-error-", suffix=".txt")
        with os.fdopen(private_file(descriptor), "w", encoding="utf-8") as file:
            file.write(text)
    except OSError:
        return None
    return Path(name)
