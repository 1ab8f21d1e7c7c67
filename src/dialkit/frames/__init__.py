"""Typed pandas DataFrames of the account's data, with a Parquet cache.

Reached through a client: ``client.frames.calls()``, ``client.cache.info()``.
Each frame's columns and dtypes are in :data:`SCHEMAS` and ``docs/frames.md``.
Files for people (workbooks, CSV) are written by :func:`excel_writer` and
:func:`write_csv`, which keep every text inert; :func:`export` writes the calls and
leads as a partitioned Parquet dataset for Dask, DuckDB, Polars or Spark.

Each export is imported on first use (:mod:`dialkit._utils._lazy`, from the imports under
``TYPE_CHECKING``), so a module that needs the schemas or the writers does not load the
cache's Parquet and the client's HTTP stack with them. ``watched`` and ``windows`` were
internal and warn for a release.
"""

from typing import TYPE_CHECKING

from .._utils import _lazy

if TYPE_CHECKING:
    from .._files._cache_folder import CACHE_DIR_VARIABLE, cache_root
    from .._files._outputs import excel_writer, formulas_escaped, write_csv
    from .._utils._base_error import CacheMissError
    from .._utils._moments import utc_times
    from ..client import FrameOptions, Frames
    from ._cache import Cache, Cleared, Entry, cache_info, clear_cache
    from ._dnc import checked_in_parts
    from ._export import export
    from ._frames import SPECS, CachedFrames, Spec
    from ._schemas import SCHEMAS, Column, Schema
    from ._tabular import (
        ACCEPTED,
        ArrowStream,
        as_pandas,
        is_tabular,
        maybe_pandas,
        pandas_frames,
    )

__all__ = [
    "ACCEPTED",
    "ArrowStream",
    "CACHE_DIR_VARIABLE",
    "Cache",
    "CacheMissError",
    "CachedFrames",
    "Cleared",
    "Column",
    "Entry",
    "FrameOptions",
    "Frames",
    "SCHEMAS",
    "SPECS",
    "Schema",
    "Spec",
    "as_pandas",
    "cache_info",
    "cache_root",
    "checked_in_parts",
    "clear_cache",
    "excel_writer",
    "export",
    "formulas_escaped",
    "is_tabular",
    "maybe_pandas",
    "pandas_frames",
    "utc_times",
    "write_csv",
]

__getattr__, __dir__ = _lazy.exports(__name__, retired={
    "watched": ".._shown._progress", "windows": "._reports"})
