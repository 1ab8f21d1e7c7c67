"""``dialkit leads clean`` and ``import`` as library calls: what the commands
decided besides the clean and the import (which account to check or import with, which
outcome file may be written and how), taken as plain Python values, so a scheduled job
runs what the shell runs; the commands parse their options, call one of these, print.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._files._outputs_written import refuse_overlaps, shown
from .._utils._base_error import InputError

if TYPE_CHECKING:
    from ..client import Client
    from ._clean._chunked import CleanedFile
    from ._import._report import ImportReport

FilePath = str | os.PathLike[str]
"""A file given by its path."""


def run_clean(source: FilePath, *, campaign_id: str | None = None, client: Client | None = None,
              out: FilePath | None = None, rejects: FilePath | None = None,
              **options: Any) -> CleanedFile:
    """``dialkit leads clean`` as one call: :func:`clean_file`, with the account's checks
    (its DNC list, the campaign's leads) where ``campaign_id`` is given.

    Args:
        source: The lead file.
        campaign_id: Also check the campaign's leads and the DNC list.
        client: The account of those checks; default ``Client()`` (``DIALKIT_API_KEY``),
            made only with ``campaign_id`` and closed after.
        out: As for :func:`clean_file`, as are ``rejects`` and ``options``.
        rejects: As for :func:`clean_file`.
        **options: :func:`clean_file`'s other arguments.

    Returns:
        :func:`clean_file`'s :class:`CleanedFile`.
    """
    from ._clean._entry import clean_file

    if campaign_id is None:
        return clean_file(source, out=out, rejects=rejects, **options)
    with ExitStack() as stack:
        account = client if client is not None else stack.enter_context(_client())
        return clean_file(source, out=out, rejects=rejects, client=account,
                          campaign_id=campaign_id, **options)


def run_import(source: FilePath, campaign_id: str, *, client: Client | None = None,
               out: FilePath | None = None, escape_formulas: bool = True,
               **options: Any) -> ImportReport:
    """``dialkit leads import`` as one call: :func:`import_leads`, and every row's outcome
    written to ``out``.

    Args:
        source: The lead file.
        campaign_id: The draft, ready or paused campaign to import into.
        client: The account; default ``Client()`` (``DIALKIT_API_KEY``), closed after.
        out: Write every row's outcome here: ``.csv``, or ``.parquet`` (the report's own
            file as it is). Refused before anything is sent where it is another kind of
            file or would replace the lead file.
        escape_formulas: As for :meth:`ImportReport.to_csv`.
        **options: :func:`import_leads`'s other arguments (``journal``, ``screen``,
            ``region``, ``mapping`` ...).

    Returns:
        :func:`import_leads`'s :class:`ImportReport`.

    Raises:
        InputError: ``out`` refused, and what :func:`import_leads` raises.
    """
    from ._import._run import import_leads

    if out is not None and Path(out).suffix.lower() not in (".csv", ".parquet"):
        raise InputError(f"{shown('out', os.fspath(out))}: name a .csv or .parquet file for "
                         "the outcomes")
    refuse_overlaps({"out": out}, {"the lead file being imported": source})
    with ExitStack() as stack:
        account = client if client is not None else stack.enter_context(_client())
        report = import_leads(account, source, campaign_id, **options)
    if out is not None and Path(out).suffix.lower() == ".parquet":
        report.to_parquet(out)
    elif out is not None:
        report.to_csv(out, escape_formulas=escape_formulas)
    return report


def _client() -> Client:
    """The account of ``DIALKIT_API_KEY``: httpx imported only when an account is used."""
    from ..client import Client

    return Client()
