"""The entry points of lead cleaning, one answer each: :func:`clean` (every row, in
memory: a :class:`CleanResult`), :func:`clean_file` (the rows written to files as they
are judged: a :class:`CleanedFile`), :func:`clean_dataset` (a Dask frame's rows judged on
its workers: a :class:`CleanedDataset`).

Each gathers its keyword arguments into one :class:`CleanOptions` (:mod:`.._options`: what
a lead clean is asked to do, whichever way it runs) and hands them to its driver:
:mod:`._stream` for a clean in memory (one chunk) or written to files,
:mod:`.._dask._clean` on Dask. ``clean``'s older shapes (``out=``, a Dask source without a
client) still answer as before, with a :class:`DeprecationWarning`, for one release.
"""

from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING, Any, Unpack, overload

from dialkit._parallel._partitions import on_dask

from ..._utils._base_error import InputError
from .._options import CleanArgs, CleanOptions, FileArgs, options_of
from .._read._lead_file import LeadFile, Source
from ._chunked import CleanedFile
from ._result import CleanResult
from ._stream import Progress, clean_file_with, clean_whole

if TYPE_CHECKING:
    from dialkit.client import Client

    from .._dask._result import CleanedDataset


@overload
def clean(source: Source | LeadFile, *, client: Client | None = ...,
          campaign_id: str | None = ..., out: None = None, rejects: None = None,
          **options: Unpack[FileArgs]) -> CleanResult: ...
@overload
def clean(source: Source | LeadFile, *, client: Client | None = ...,
          campaign_id: str | None = ..., out: str | os.PathLike[str],
          rejects: str | os.PathLike[str] | None = ..., escape_formulas: bool = ...,
          progress: Progress | bool | None = ..., **options: Unpack[FileArgs]) -> CleanedFile: ...
@overload
def clean(source: Source | LeadFile, *, client: Client | None = ...,
          campaign_id: str | None = ..., out: None = None, rejects: str | os.PathLike[str],
          escape_formulas: bool = ..., progress: Progress | bool | None = ...,
          **options: Unpack[FileArgs]) -> CleanedFile: ...
def clean(source: Source | LeadFile, *, client: Client | None = None,
          campaign_id: str | None = None, out: str | os.PathLike[str] | None = None,
          rejects: str | os.PathLike[str] | None = None, escape_formulas: bool = True,
          progress: Progress | bool | None = None,
          **options: Unpack[FileArgs]) -> CleanResult | CleanedFile:
    """Check every row of a lead file as the service will, before importing it.

    Args:
        source: A lead file (CSV, TSV, XLSX, XLS), a binary file object, a frame
            (pandas', Polars', a pyarrow Table), or what :func:`read` returned; with
            ``client``, also a Dask DataFrame or a Parquet dataset, whose rows are judged
            on this machine (the service is asked from here), their phones normalised on
            Dask's workers. Without ``client``, clean a Dask source on the workers with
            :func:`clean_dataset`.
        client: With a client, the checks that need the account run too: the
            DNC screen (``client.frames.dnc``, cached) and, with ``campaign_id``,
            the leads already in the campaign (and, when the file has external
            ids, the ids this API client uses in other campaigns).
        campaign_id: The campaign the leads are for.
        out: Deprecated: call :func:`clean_file`, which takes ``out``, ``rejects``,
            ``escape_formulas`` and ``progress`` and answers a :class:`CleanedFile`.
        rejects: Deprecated, as ``out``.
        escape_formulas: Deprecated, as ``out``.
        progress: Deprecated, as ``out``.

    Keyword Args:
        region: The default region of numbers written nationally.
        blocked_countries: Countries the account blocks: ISO 3166 codes or names
            (as a country cell is read), in a list or one comma-separated text (``"KP, IR"``), as
            :func:`dialkit.compliance.audit` takes them; the service knows the
            account's list, the API does not show it.
        country_column: The column of each row's country; by default the one
            named country or country code.
        sheet: As for :func:`read`.
        mapping: As for :func:`read`: lead field → column, by its name or its place
            from 0 (``{"phone": 0}``).
        encoding: As for :func:`read`.
        extension_field: The custom field a phone's extension is sent as, ``None``
            to leave extensions out (the E.164 phone cannot hold one).
        alt_phone_field: The custom field a row's other numbers are sent as (a
            second number in the phone cell, the other phone columns' numbers),
            ``None`` to leave them out.
        header: As for :func:`read`: ``None`` for a file without a header line (a
            dialer's list upload), its columns named by place, ``"0"``, ``"1"``, ...

    Returns:
        A :class:`CleanResult`: one row per input row with its ``status``,
        ``reason`` and ``field`` in the vocabulary of the service's ``LeadResult``.

    Raises:
        CampaignError: With ``client`` and ``campaign_id``: the campaign is not the
            account's, or cannot take leads (read before the file).
        LeadFileError: The file cannot be read, or has no phone column.

    Examples:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
        ...     _ = file.write("Mobile,Name,E-mail\\n(415) 555-0199,Ada,ada@example.com\\n"
        ...                    "212.555.0142,Alan,\\nnot a phone,Nobody,\\n")
        >>> result = dialkit.leads.clean("vendor.csv", region="US")
        >>> result.summary
             status         reason field rows
        0  accepted           None  None    2
        1   invalid  invalid_phone  None    1
    """
    asked = options_of("clean", options, FileArgs, client=client, campaign_id=campaign_id)
    if client is None and on_dask((source,), compute=True):
        return _deprecated_dataset(source, asked, out, rejects, progress)
    if out is not None or rejects is not None:
        warnings.warn("clean(out=..., rejects=...) is deprecated and will be removed in the "
                      "next release: call dialkit.leads.clean_file(), which takes the same "
                      "arguments and answers a CleanedFile", DeprecationWarning, stacklevel=2)
        return clean_file_with(source, asked, out=out, rejects=rejects,
                               escape_formulas=escape_formulas, progress=progress)
    if progress is not None or escape_formulas is not True:
        warnings.warn("clean(progress=..., escape_formulas=...) does nothing without out=, "
                      "and is deprecated: pass them to dialkit.leads.clean_file(), or "
                      "escape_formulas to CleanResult.to_csv()", DeprecationWarning,
                      stacklevel=2)
    return clean_whole(source, asked)


def _deprecated_dataset(source: Any, options: CleanOptions, out: Any, rejects: Any,
                        progress: Any) -> CleanedFile:
    """The old shape of :func:`clean_dataset`, through :func:`clean` without a client."""
    warnings.warn("clean() of a Dask frame or Parquet dataset without client= is deprecated "
                  "and will be removed in the next release: call "
                  "dialkit.leads.clean_dataset(), which answers the same CleanedDataset",
                  DeprecationWarning, stacklevel=3)
    if progress is not None:
        raise InputError("progress= counts a file's chunks; a Dask clean's progress is "
                         "in Dask's dashboard (distributed.Client.dashboard_link): pass no "
                         "progress=")
    from .._dask._clean import clean_dataset_with  # imports Dask

    return clean_dataset_with(source, options, out=out, rejects=rejects)


def clean_file(source: Source | LeadFile, *, out: str | os.PathLike[str] | None = None,
               rejects: str | os.PathLike[str] | None = None, escape_formulas: bool = True,
               progress: Progress | bool | None = None, client: Client | None = None,
               campaign_id: str | None = None, **options: Unpack[FileArgs]) -> CleanedFile:
    """Check every row of a lead file as :func:`clean` does, writing the rows to files as
    they are judged and holding none: a CSV on disk is read in chunks, in memory that does
    not grow with the file (``docs/scale.md``); anything else (a workbook, a frame, a file
    in another encoding) is read whole and written the same way.

    Args:
        source: As for :func:`clean`.
        out: Write every row with its verdict to this file (``.csv``, ``.parquet``, or
            ``.xlsx``: the accepted rows, the rejected rows and the summary). The file
            appears once complete (written under a temporary name and renamed).
        rejects: Write the rejected rows alone to this CSV file, likewise.
        escape_formulas: As for :meth:`CleanResult.to_csv`, for ``out`` and ``rejects``.
        progress: ``True`` to show each step as the clean goes, with its total,
            percentage, rate and time left (the rows read of the file's lines, then the
            rows finished; with ``client``, the numbers checked against the DNC list), in
            a notebook's output, else on standard error; ``False`` for nothing; or a
            function called after each chunk written with the rows done and the seconds
            since the clean began. By default, bars where someone watches (a notebook,
            a terminal), else a line on the ``dialkit.progress`` logger every 10 seconds,
            and at the end of a step that ran longer (``DIALKIT_PROGRESS=0``: neither).
        client: As for :func:`clean`, as is ``campaign_id``.
        campaign_id: As for :func:`clean`.

    Keyword Args:
        region: As for :func:`clean`, as are ``blocked_countries``, ``country_column``,
            ``sheet``, ``mapping``, ``encoding``, ``extension_field``,
            ``alt_phone_field`` and ``header``.

    Returns:
        A :class:`CleanedFile`: the summary, the notes, the counts and the paths
        written; the rows are in the files only (with neither ``out`` nor ``rejects``,
        the summary alone).

    Raises:
        CampaignError: As for :func:`clean`.
        LeadFileError: As for :func:`clean`.
        ValueError: An output is not a kind this writes, is the lead file itself, or
            a workbook's sheet could not hold the rows (refused before it is written).

    Examples:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:
        ...     _ = file.write("Mobile\\n(415) 555-0199\\nnot a phone\\n")
        >>> dialkit.leads.clean_file("vendor.csv", out="cleaned.csv")
        <CleanedFile vendor.csv: 2 rows: accepted 1, invalid 1 → cleaned.csv>
    """
    asked = options_of("clean_file", options, FileArgs, client=client,
                       campaign_id=campaign_id)
    return clean_file_with(source, asked, out=out, rejects=rejects,
                           escape_formulas=escape_formulas, progress=progress)


def clean_dataset(source: Any, *, out: str | os.PathLike[str] | None = None,
                  rejects: str | os.PathLike[str] | None = None, campaign_id: str | None = None,
                  **options: Unpack[CleanArgs]) -> CleanedDataset:
    """Check every row of a Dask DataFrame or a Parquet dataset (a folder, or a
    ``.parquet`` file) as :func:`clean` does, on Dask's workers: each partition is
    judged there, the duplicates across partitions found by a shuffle on the number,
    and the rows never come to this machine (``docs/scale.md``). To ask the account
    (``client=``), call :func:`clean`, which judges a Dask source's rows here.

    Args:
        source: A Dask DataFrame, or the path of a Parquet dataset (read with Dask).
        out: A folder (``cleaned`` or ``cleaned.parquet``) the workers write the
            cleaned partitions into as Parquet, a file each, in the same run as the
            counts; a ``.csv`` or ``.xlsx`` is refused (write ``.compute()``'s result,
            which holds every row here). A folder written earlier is replaced once the
            new one is complete; one holding other files is refused.
        rejects: A folder the rejected rows' partitions are written to, likewise.
        campaign_id: As for :func:`clean`.

    Keyword Args:
        region: As for :func:`clean`, as are ``blocked_countries``, ``country_column``,
            ``mapping``, ``extension_field`` and ``alt_phone_field``.

    Returns:
        A :class:`CleanedDataset`: the summary, notes and counts, computed from each
        partition's counts, and the cleaned rows as a lazy Dask frame (``.frame``;
        ``.compute()`` gives the :class:`CleanResult`, ``.to_parquet(folder)`` writes
        them from the workers).
    """
    asked = options_of("clean_dataset", options, CleanArgs, campaign_id=campaign_id)
    from .._dask._clean import clean_dataset_with  # imports Dask

    return clean_dataset_with(source, asked, out=out, rejects=rejects)
