"""The files of the Parquet cache: written whole or not at all, read only when whole.

Every file is written to a hidden temporary name beside its target and renamed
(:func:`write_json`, :func:`write_parquet`), so a crash leaves the old file or the
new one, never half of one. A data file is read (:func:`read_parquet`) only when it
has the size and CRC-32 its manifest vouches for (Parquet's own page checksums leave
the page headers and the footer unchecked) and each column of the frame's schema has
a type of its kind; anything else is logged and read as absent, so that the caller
fetches it again. Times the cache wrote are read by :func:`written_time`.
"""

from __future__ import annotations

import logging
import mmap
import os
import tempfile
import zlib
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import orjson
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .._files._private import FILE_MODE
from .._utils._moments import iso_datetime
from ._schemas import PANDAS_TYPES, Schema

logger = logging.getLogger("dialkit.frames")
_T = TypeVar("_T")


def _replace(temporary: Path, target: Path) -> None:
    """Make ``temporary`` owner-only and rename it over ``target`` (atomic on one file system).

    No fsync: the rename protects against a crashed or interrupted process,
    which is what a notebook meets; a lost machine loses at most a cache.
    """
    temporary.chmod(FILE_MODE)
    os.replace(temporary, target)


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically, owner-only."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "wb") as handle:
        handle.write(orjson.dumps(data, option=orjson.OPT_INDENT_2))
    _replace(Path(name), path)


def read_json(path: Path) -> Any:
    """Read JSON, or ``None`` when the file is absent, unreadable or not valid JSON."""
    try:
        return orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None


def write_parquet(path: Path, frame: pd.DataFrame) -> dict[str, int]:
    """Write ``frame`` atomically with page checksums; its ``bytes`` and ``crc32``,
    which the manifest keeps to know the file again."""
    write_table(path, pa.Table.from_pandas(frame, preserve_index=False))
    return {"bytes": path.stat().st_size, "crc32": _crc32(path)}


def write_table(path: Path, table: pa.Table) -> None:
    """Write an Arrow ``table`` atomically with page checksums."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    pq.write_table(table, name, write_page_checksum=True)
    _replace(Path(name), path)


def _crc32(path: Path) -> int:
    """The CRC-32 of the file's bytes: Parquet's page checksums leave its page headers
    and footer (the schema, the offsets, the pandas metadata) unchecked."""
    with path.open("rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            return zlib.crc32(b"")
        with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            return zlib.crc32(mapped)


def read_parquet(path: Path, schema: Schema,
                 vouched: Mapping[str, int] | None = None) -> pd.DataFrame | None:
    """Read a frame, or ``None`` if the file is absent, cut short, corrupt, other than
    the ``bytes`` and ``crc32`` its manifest ``vouched`` for, or of another schema."""
    table = read_table(path, schema, vouched)
    if table is None:
        return None
    # One block per column, each Arrow column freed once converted: half the
    # peak memory of a plain to_pandas(), and far fewer page faults. The pandas
    # metadata is not read: the types were checked, and the schema gives the rest.
    return _unless_unreadable(path, lambda: schema.conform(table.to_pandas(
        split_blocks=True, self_destruct=True, ignore_metadata=True,
        types_mapper=PANDAS_TYPES.get)))


def read_table(path: Path, schema: Schema,
               vouched: Mapping[str, int] | None = None) -> pa.Table | None:
    """Read a file as an Arrow table, or ``None`` as :func:`read_parquet` would."""
    def read() -> pa.Table:
        if vouched is not None:
            _check_bytes(path, vouched)
        table = pq.read_table(path, page_checksum_verification=True, memory_map=True)
        _check_types(table.schema, schema)
        return table

    return _unless_unreadable(path, read)


def _unless_unreadable(path: Path, read: Callable[[], _T]) -> _T | None:
    """What ``read`` reads of ``path``, or ``None`` (logged unless simply absent) when
    the file is missing, cut short, corrupt or of another schema."""
    try:
        return read()
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, pa.ArrowException) as exc:
        logger.warning("cache file %s is unreadable (%s); fetching it again", path, exc)
        return None


def _check_bytes(path: Path, vouched: Mapping[str, int]) -> None:
    """Raise ``OSError`` unless the file has the size and CRC-32 its manifest holds."""
    size = path.stat().st_size
    if size != vouched["bytes"]:
        raise OSError(f"{path.name} has {size} bytes, its manifest {vouched['bytes']}")
    if _crc32(path) != vouched["crc32"]:
        raise OSError(f"{path.name} is not the file its manifest describes (CRC-32)")


def _is_text(kind: pa.DataType) -> bool:
    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))


_ARROW_KINDS: Mapping[str, Any] = {
    "string": _is_text, "json": _is_text,
    "timestamp": lambda kind: pa.types.is_timestamp(kind) and kind.tz == "UTC",
    "int": pa.types.is_integer, "float": pa.types.is_floating, "bool": pa.types.is_boolean,
    "date": pa.types.is_date32,
    "category": lambda kind: pa.types.is_dictionary(kind) and _is_text(kind.value_type),
}
"""Whether a file's Arrow type holds a column of each kind, as :func:`write_parquet`
writes it."""


def _check_types(found: pa.Schema, schema: Schema) -> None:
    """Raise ``TypeError`` unless each of the schema's columns is in the file with a type
    of its kind: a column of another type would be cast, its values lost to NA."""
    for column in schema.columns:
        index = found.get_field_index(column.name)
        if index < 0:
            raise TypeError(f"the {schema.name} frame lacks column {column.name!r}")
        if not _ARROW_KINDS[column.kind](found.field(index).type):
            raise TypeError(f"column {column.name!r} holds {found.field(index).type}, "
                            f"not {column.kind}")


def written_time(value: Any) -> datetime | None:
    """A time dialkit wrote (ISO 8601 with its offset), or ``None`` when ``value`` is
    not one: missing, not text, not a time, or naive (no offset, so no instant)."""
    try:
        moment = iso_datetime(value)
    except (TypeError, ValueError):
        return None
    return moment if moment.utcoffset() is not None else None
