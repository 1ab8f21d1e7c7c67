"""Typed pandas DataFrames of the account's data, with a Parquet cache.

Reached through a client: ``client.frames.calls()``, ``client.cache.info()``.
Each frame's columns and dtypes are in :data:`SCHEMAS` and ``docs/frames.md``.
Files for people (workbooks, CSV) are written by :func:`excel_writer` and
:func:`write_csv`, which keep every text inert.
"""

from ._cache import (
    CACHE_DIR_VARIABLE,
    Cache,
    CacheMissError,
    Entry,
    cache_info,
    cache_root,
    clear_cache,
)
from ._frames import SPECS, FrameOptions, Frames, Spec
from ._outputs import excel_writer, formulas_escaped, write_csv
from ._progress import watched
from ._reports import windows
from ._schemas import SCHEMAS, Column, Schema, utc_times

__all__ = [
    "CACHE_DIR_VARIABLE",
    "Cache",
    "CacheMissError",
    "Column",
    "Entry",
    "FrameOptions",
    "Frames",
    "SCHEMAS",
    "SPECS",
    "Schema",
    "Spec",
    "cache_info",
    "cache_root",
    "clear_cache",
    "excel_writer",
    "formulas_escaped",
    "utc_times",
    "watched",
    "windows",
    "write_csv",
]
