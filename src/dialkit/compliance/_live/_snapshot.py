"""The monitor's calls and judgment kept whole in its state now and then (a snapshot), so
that a restart reads them back and judges again only the calls that changed since, as an
observation would, not every call: at a million calls, reading each call's row back and
judging them all took 12 s.

A frame is kept as an Arrow IPC file (Feather), compressed by zstd: at a million calls it
read back in half the time Parquet took, and smaller. Arrow reads Python text back as
pandas' text type, and a category of no values without its categories, so each column's
type is written beside the table and given back after reading. A judgment kept is read
back only by a monitor of the same inputs (:func:`fingerprint`): one given others judges
every call again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
from collections.abc import Mapping
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.feather as feather

_TYPES = b"dialkit.types"
"""The table's metadata key of its columns' (and index's) pandas types."""
_INDEX = "__index__"


def to_blob(frame: pd.DataFrame) -> bytes:
    """``frame`` as Feather bytes, its types written beside it."""
    types = {str(name): _type(frame[name].dtype) for name in frame.columns}
    if not isinstance(frame.index, pd.RangeIndex):
        types[_INDEX] = _type(frame.index.dtype)
    table = pa.Table.from_pandas(frame, preserve_index=not isinstance(frame.index,
                                                                       pd.RangeIndex))
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           _TYPES: json.dumps(types).encode()})
    written = io.BytesIO()  # one batch: read back in one chunk a column (._calls.in_one_chunk)
    feather.write_feather(table.combine_chunks(), written, compression="zstd",
                          chunksize=max(len(frame), 1))
    return written.getvalue()


def from_blob(blob: bytes) -> pd.DataFrame:
    """The frame :func:`to_blob` wrote, with its types."""
    table = feather.read_table(pa.BufferReader(blob))  # the blob's bytes, not a copy
    types = json.loads((table.schema.metadata or {})[_TYPES])
    frame = table.to_pandas()
    for name in frame.columns:
        frame[name] = _typed(frame[name], types[str(name)])
    if _INDEX in types:
        frame.index = pd.Index(_typed(frame.index.to_series(), types[_INDEX]),
                               name=frame.index.name)
    return frame


def _type(dtype: Any) -> Any:
    """A pandas type as JSON: its name, or a category's categories."""
    if isinstance(dtype, pd.CategoricalDtype):
        return {"categories": dtype.categories.tolist(), "ordered": bool(dtype.ordered)}
    return str(dtype)


def _typed(column: pd.Series, kind: Any) -> pd.Series:
    """``column`` as the type :func:`_type` wrote (Python text: None where missing)."""
    if isinstance(kind, dict):
        return column.astype(pd.CategoricalDtype(kind["categories"], kind["ordered"]))
    if kind == "object":
        values = column.astype(object)
        return values.where(values.notna(), None)
    return column if str(column.dtype) == kind else column.astype(kind)


def fingerprint(*inputs: Any) -> str:
    """A digest of a monitor's inputs (frames by their values, the options by their
    fields, but the moment, which moves with every event)."""
    digest = hashlib.sha256()
    for value in inputs:
        _feed(digest, value)
    return digest.hexdigest()


def _feed(digest: Any, value: Any) -> None:
    """Feed ``value`` to ``digest``, the same value the same bytes in any process (a set's
    members in order, not as hashing placed them)."""
    if isinstance(value, pd.DataFrame):
        digest.update(repr((list(value.columns), value.dtypes.astype(str).tolist())).encode())
        _feed_arrow(digest, value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for each in dataclasses.fields(value):
            if each.name != "moment":
                _feed(digest, each.name)
                _feed(digest, getattr(value, each.name))
    elif isinstance(value, Mapping):
        for key in sorted(value, key=repr):
            _feed(digest, key)
            _feed(digest, value[key])
    elif isinstance(value, (set, frozenset)):
        _feed(digest, sorted(map(repr, value)))
    elif isinstance(value, (list, tuple)):
        digest.update(f"[{len(value)}".encode())
        for each in value:
            _feed(digest, each)
    else:
        digest.update(f"{type(value).__name__}:{value!r};".encode())


def _feed_arrow(digest: Any, frame: pd.DataFrame) -> None:
    """Feed ``frame``'s values to ``digest`` as an Arrow IPC stream, written into it piece by
    piece, not kept whole (a ninth of the time pandas' hashing of 200,000 leads took); a
    frame Arrow cannot type (cells of mixed kinds) by its text."""
    try:
        table = pa.Table.from_pandas(frame, preserve_index=False)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        table = pa.Table.from_pandas(frame.astype(str), preserve_index=False)
    with pa.PythonFile(_Digesting(digest), mode="w") as sink, \
            pa.ipc.new_stream(sink, table.schema) as stream:
        stream.write_table(table)


@dataclasses.dataclass
class _Digesting:
    """A file that feeds what is written to it to a digest."""

    digest: Any
    closed: bool = False

    def write(self, data: Any) -> int:
        self.digest.update(data)
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True
