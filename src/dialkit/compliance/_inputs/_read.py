"""Frames read back from files: an export of ``client.frames`` audited away from the account."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

from ..._files._encoding import SNIFFED
from ..._files._file_limits import DELIMITERS, FileLimits, check_delimited
from ..._files._text import errno_of, read_utf8, unreadable
from ..._utils._base_error import AuditInputError, InputError


def read_export(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A frame exported as CSV or Parquet (calls, leads, DNC results with the columns of
    ``client.frames``), ready for :func:`audit`, whose cover then names the file and when
    it was written.

    A CSV's text cells are read as text (an empty one as missing), and its lines are
    checked against the leads' file limits before they are parsed (a million-column
    line took 5 GB). One saved again by a spreadsheet is read as the lead reader reads
    such a file: in its encoding, with ``;``, a tab or ``|`` between its fields.

    Raises:
        AuditInputError: The file cannot be read, or passes a limit (``DIALKIT_MAX_*``).

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> client.frames.calls().to_parquet("calls.parquet")  # an export, as it came
        >>> from dialkit.compliance import audit
        >>> calls = read_export("calls.parquet")
        >>> text = audit(calls).to_text()
        >>> text.splitlines()[2].split()  # after the verdicts, a line per rule follows
        ['findings', 'law', 'policy', 'risk', 'audited', 'of', 'rate', 'not', 'judged', 'verdict']
        >>> client.close()
    """
    path = Path(path)
    try:
        frame = _read(path)
    except InputError as error:  # not text, or past a limit: named already
        raise AuditInputError(str(error)) from None
    except (OSError, ValueError) as error:
        raise AuditInputError(_refusal(path, error)) from None
    frame.attrs.update(source=str(path), fetched_at=f"{_modified(path)} (file)")
    return frame


def read_source(path: str | os.PathLike[str]) -> pd.DataFrame | Path:
    """What :func:`audit` takes for the file or folder at ``path``: a file read by
    :func:`read_export`; a folder, a Parquet dataset (``dialkit.frames.export``'s
    ``calls`` or ``leads``), as its path, which the audit reads on Dask where Dask is
    installed (else whole with pandas), once its schema was read here.

    Raises:
        AuditInputError: The file cannot be read, or the folder is not a Parquet dataset.
    """
    path = Path(path)
    if not path.is_dir():
        return read_export(path)
    try:
        ds.dataset(path, format="parquet", partitioning="hive").schema  # noqa: B018
    except (OSError, ValueError, pa.ArrowException) as error:
        raise AuditInputError(f"{path}: is not a Parquet dataset ({error}); pass a folder "
                              "that dialkit.frames.export wrote, or a CSV or Parquet "
                              "file") from None
    return path


def _read(path: Path) -> pd.DataFrame:
    """A Parquet file, or a delimited text file as a spreadsheet may have saved an export
    again: in its encoding (UTF-8, a byte order mark's, cp1252 lines: :func:`read_utf8`),
    with its delimiter (:func:`_delimiter`)."""
    if path.suffix.lower() == ".parquet":
        return pd.read_parquet(path)
    text = read_utf8(path)
    delimiter = _delimiter(text[:SNIFFED])
    check_delimited(text, delimiter, str(path), FileLimits.from_env(), keyword=False)
    return pd.read_csv(io.BytesIO(text), sep=delimiter, dtype=str,
                       keep_default_na=False).replace({"": None})


def _refusal(path: Path, error: OSError | ValueError) -> str:
    """Why the file at ``path`` cannot be read: the system's reason where it could not be
    opened (no such file, ...: :func:`unreadable`), else what its parser said."""
    if isinstance(error, OSError) and errno_of(error):
        return f"{path}: {unreadable(error)}"
    return f"{path}: cannot be read as {path.suffix or 'CSV'} ({error})"


def _delimiter(head: bytes) -> str:
    """The delimiter that splits the file's first line into the most columns, a comma
    where none splits it more: an export saved again by a spreadsheet whose locale writes
    decimals with a comma is separated by ``;``, and its "Unicode text" by tabs."""
    line = head.split(b"\n", 1)[0].decode("utf-8", "replace")
    widths = {each: len(next(csv.reader([line], delimiter=each), []))
              for each in DELIMITERS}
    return max(DELIMITERS, key=lambda each: (widths[each], -DELIMITERS.index(each)))


def _modified(path: Path) -> str:
    return f"{pd.Timestamp(path.stat().st_mtime, unit='s', tz='UTC'):%Y-%m-%d %H:%M UTC}"
