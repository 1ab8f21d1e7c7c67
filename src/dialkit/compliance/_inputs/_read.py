"""Frames read back from files: an export of ``client.frames`` audited away from the account."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds

from ..._files._file_limits import FileLimits, check_delimited
from ..._utils._base_error import AuditInputError, LimitError


def read_export(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A frame exported as CSV or Parquet (calls, leads, DNC results with the columns of
    ``client.frames``), ready for :func:`audit`, whose cover then names the file and when
    it was written.

    A CSV's text cells are read as text (an empty one as missing), and its lines are
    checked against the leads' file limits before they are parsed (a million-column
    line took 5 GB).

    Raises:
        AuditInputError: The file cannot be read, or passes a limit (``DIALKIT_MAX_*``).

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> client.frames.calls().to_parquet("calls.parquet")  # an export, as it came
        >>> from dialkit.compliance import audit
        >>> calls = read_export("calls.parquet")
        >>> text = audit(calls).to_text()
        >>> text.splitlines()[1].split()  # a line per rule follows
        ['findings', 'law', 'policy', 'risk', 'audited', 'of', 'rate', 'verdict']
        >>> client.close()
    """
    path = Path(path)
    try:
        frame = _read(path)
    except LimitError as error:
        raise AuditInputError(str(error)) from None
    except (OSError, ValueError) as error:
        raise AuditInputError(f"{path}: cannot be read as {path.suffix or 'CSV'} "
                              f"({error})") from None
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
    if path.suffix.lower() == ".parquet":
        return pd.read_parquet(path)
    check_delimited(path, ",", str(path), FileLimits.from_env(), keyword=False)
    return pd.read_csv(path, dtype=str, keep_default_na=False).replace({"": None})


def _modified(path: Path) -> str:
    return f"{pd.Timestamp(path.stat().st_mtime, unit='s', tz='UTC'):%Y-%m-%d %H:%M UTC}"
