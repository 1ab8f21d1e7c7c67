"""``dialkit.frames.export``: the cached frames as a Hive-partitioned Parquet dataset.

An account too large for one machine's memory is studied on Dask, Spark, DuckDB
or Polars, which all read a folder of Parquet files split by folder names
(``month=2026-11/``). The export writes the calls by month (or day) of
``created_at`` and the leads by campaign::

    <path>/
        _dialkit_export.json       what the export holds: frames, rows, partitioning
        calls/month=2026-11/part-0.parquet
        leads/campaign=cmp_…/part-0.parquet

Each file holds every column of its frame's schema (:data:`dialkit.frames.SCHEMAS`),
so a partition read alone is a frame like any other; the partition's own column
(``month``, ``campaign``) exists only in the folder names, under a name no frame
uses, so a reader of the whole dataset sees it beside the schema's columns and never
in place of one. The export is written to a temporary folder beside ``path`` and
renamed into place: a crash leaves the previous export or none, never a half one
(the readers would take a half one for the whole). The temporary folder's name holds
the writing process's id, so that the next export to the same path removes what a
killed one left (its process gone) and never a running one's; its files are named
``….parquet.unfinished`` until the export is complete, so that a glob over the
folder's parent (DuckDB's or Polars' ``**/*.parquet``, which skip no hidden folder)
never finds a killed export's parts (:mod:`dialkit._files._outputs_written`). Folders are
``0700`` and files ``0600``, as in the cache: frames hold personal data.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from .._files._leftovers import sweep
from .._files._outputs_written import UNFINISHED, written
from .._files._private import DIRECTORY_MODE, private_tree
from .._utils._base_error import CacheMissError, InputError
from ._cache import Cache
from ._cache_files import read_json, write_json
from ._schemas import SCHEMAS

if TYPE_CHECKING:
    from ..client import Client

MARKER = "_dialkit_export.json"
"""The export's own record; readers skip files whose names start with ``_``."""
KIND = "dialkit.frames.export"
FORMAT_VERSION = 1
MAX_ROWS_PER_FILE = 1_000_000
"""Rows per Parquet file of a partition: a busy month becomes several files, which a
Dask worker reads one at a time."""
ROWS_PER_GROUP = 1 << 17
"""Rows per Parquet row group: what a reader can skip or split a file by."""

PERIODS: Mapping[str, str] = {"month": "%Y-%m", "day": "%Y-%m-%d"}
"""What ``partition_by`` takes, and the text of each partition's value."""


def _period(name: str) -> Callable[[pd.DataFrame], pd.Series]:
    """The calls' partition value: the UTC month (or day) of ``created_at``."""
    return lambda frame: frame["created_at"].dt.strftime(PERIODS[name])


def _campaign(frame: pd.DataFrame) -> pd.Series:
    return frame["campaign_id"]


def export(client_or_cache: Client | Cache, path: str | os.PathLike[str], *,
           partition_by: str = "month") -> Path:
    """Write the account's calls and leads as a Hive-partitioned Parquet dataset.

    With a client, the frames are ``client.frames.calls()`` and ``leads()`` (from the
    cache while fresh, else fetched). With a :class:`Cache`, every cached entry of each
    frame is read, whatever its filters, and a record cached twice is written once
    (its newest copy); nothing is fetched.

    Args:
        client_or_cache: A :class:`dialkit.Client`, or its ``client.cache``.
        path: The dataset's folder: new, empty, or an earlier export (replaced whole).
        partition_by: ``"month"`` or ``"day"``: the calls' partitions, by the UTC
            ``created_at``. Leads are split by campaign.

    Returns:
        ``path``; read its ``calls`` and ``leads`` folders with
        ``dask.dataframe.read_parquet``, ``duckdb.read_parquet('…/**/*.parquet',
        hive_partitioning=true)``, ``polars.scan_parquet`` or Spark.

    Raises:
        ValueError: ``partition_by`` is not one of :data:`PERIODS`, or ``path`` holds
            files and is not an export (nothing is written).
        CacheMissError: Given a cache that holds neither calls nor leads.

    Examples:
        >>> import dialkit.frames, pandas as pd
        >>> client = dialkit.Client.sandbox()
        >>> dialkit.frames.export(client, "account-data")
        PosixPath('account-data')
        >>> calls = pd.read_parquet("account-data/calls")  # or dask.dataframe.read_parquet
        >>> len(calls) == len(client.frames.calls())
        True
        >>> client.close()
    """
    if partition_by not in PERIODS:
        raise InputError(f"partition_by={partition_by!r}: pass one of "
                         f"{', '.join(map(repr, PERIODS))} (the calls' partitions)")
    target = Path(path)
    _check_target(target)
    frames = _frames(client_or_cache)
    keys = {"calls": ("month" if partition_by == "month" else "day", _period(partition_by)),
            "leads": ("campaign", _campaign)}
    sweep(target.parent, f".{target.name}.")  # older exports' leftovers too (no .partial)
    with written(target, "path", folder=True, mode=DIRECTORY_MODE) as temporary:
        done = {name: _write(temporary / name, frame, *keys[name])
                for name, frame in frames.items()}
        write_json(temporary / MARKER, {
            "kind": KIND, "format": FORMAT_VERSION, "partition_by": partition_by,
            "written_at": datetime.now(UTC).isoformat(), "frames": done})
        private_tree(temporary)  # pyarrow writes with the umask's modes
    return target


def _check_target(target: Path) -> None:
    """Refuse a file, or a folder holding anything but an earlier export."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_file() or target.is_symlink():
        raise InputError(f"{target} is a file: pass a folder for the dataset (new, empty, or "
                         "an earlier dialkit export)")
    if not target.is_dir() or not any(target.iterdir()):
        return
    marker = read_json(target / MARKER)
    if not isinstance(marker, dict) or marker.get("kind") != KIND:
        raise InputError(f"{target} holds files and is not a dialkit export (no {MARKER}): "
                         "nothing was written; pass a new or empty folder, or an earlier "
                         "export to replace")


def _frames(source: Client | Cache) -> dict[str, pd.DataFrame]:
    """The calls and leads of a client, or those its cache holds."""
    if not isinstance(source, Cache):
        return {"calls": source.frames.calls(), "leads": source.frames.leads()}
    frames = {name: frame for name in ("calls", "leads")
              if (frame := _cached(source, name)) is not None}
    if not frames:
        raise CacheMissError(f"{source} holds no calls or leads: load them once with "
                             "client.frames.calls() and client.frames.leads(), or pass the "
                             "client to export()")
    return frames


def _cached(cache: Cache, name: str) -> pd.DataFrame | None:
    """Every cached entry of frame ``name``, a record held twice kept once (the copy
    fetched last)."""
    schema = SCHEMAS[name]
    info = cache.info()
    entries = info[info["resource"] == name].sort_values("fetched_at", ascending=False)
    read = [cache.entry(name, filters).read(schema) for filters in entries["filters"]]
    frames = [found[0] for found in read if found is not None]
    if not frames:
        return None
    whole = pd.concat(frames, ignore_index=True).drop_duplicates("id", keep="first")
    return schema.conform(whole.sort_values(["created_at", "id"], ascending=False,
                                            ignore_index=True, kind="stable"))


def _write(folder: Path, frame: pd.DataFrame, key: str,
           value: Callable[[pd.DataFrame], pd.Series]) -> dict[str, Any]:
    """One frame as a dataset partitioned by ``key``; its rows and partitions."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    parts = pa.array(value(frame), pa.string())
    table = table.append_column(key, parts)  # not in the pandas metadata: files keep the schema
    ds.write_dataset(table, folder, format="parquet", partitioning=ds.partitioning(
        pa.schema([(key, pa.string())]), flavor="hive"), preserve_order=True,
        max_rows_per_file=MAX_ROWS_PER_FILE, max_rows_per_group=ROWS_PER_GROUP,
        existing_data_behavior="error", basename_template=f"part-{{i}}.parquet{UNFINISHED}")
    return {"rows": len(frame), "partitions": len(pc.unique(parts)),
            "partitioned_by": key}
