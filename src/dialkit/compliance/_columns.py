"""The audit's inputs checked column by column, where they are read.

Each column the audit reads must hold what ``client.frames`` gives: text (ids, numbers
called, campaigns, statuses), times (checked by :func:`dialkit.frames.utc_times`),
numbers (``duration_seconds``) and true/false (``listed``). An export that went through
a spreadsheet, or ``pd.read_csv`` without ``dtype=str``, holds phone numbers as integers
(``14155550123``: the ``+`` and any leading 0 gone); such a column ended in a traceback
deep in pyarrow (``ArrowTypeError``; on Dask "Metadata inference failed"), and ids or a
direction held as numbers were audited as nothing at all. Each is refused here with an
:class:`~._audit.AuditInputError` naming the frame, the column, the first value at fault
and its row, and what to write instead; a phone number is never given a ``+`` by guess.

A row whose times cannot both be true (:data:`ORDERS`: a number listed after the check
that found it listed, a consent revoked before it was given) is refused too, naming the
row: read as it stands, the later ``listed_at`` let the calls before it pass.

A Parquet dataset's files are checked against each other (a footer each) before any is
read: a file that lacks a column or holds another kind of value in it is named, where
Dask and pyarrow said ``KeyError`` or "Error while type casting".
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds

from .._arrays._bools import arrow_bools
from .._utils._base_error import DialkitError

TEXTS = {"calls": ("id", "direction", "from_number", "to_number", "campaign_id", "disposition"),
         "leads": ("id", "campaign_id", "phone", "status", "state", "custom_fields", "line"),
         "dnc": ("phone",),
         "consents": ("phone", "lead_id", "kind", "relationship"),
         "reassigned": ("phone", "answer")}
"""The text columns of each frame the audit reads (where the frame has them)."""
ORDERS = {"dnc": ("listed_at", "checked_at", "a number cannot be listed after the check "
                   "that found it listed"),
          "consents": ("given_at", "revoked_at", "a consent cannot be revoked before it "
                       "was given")}
"""Of each frame, two times of a row that must come in this order (the first at or before
the second, where both are known), and why."""
BOOLEANS = ("listed", "prerecorded")
"""The true/false columns: the DNC results' ``listed``, the calls' ``prerecorded``."""
PHONES = frozenset({"from_number", "to_number", "phone"})
_E164 = ("write phone numbers as E.164 text with their '+' ('+14155550123'): a "
         "spreadsheet, or pd.read_csv without dtype=str, reads them as numbers and drops "
         "the '+' and any leading 0")
_TRUE = frozenset({"true", "1", "yes", "t", "y"})
_FALSE = frozenset({"false", "0", "no", "f", "n"})


class ColumnError(DialkitError, ValueError):
    """A column that holds the wrong kind of value; :class:`~._audit.AuditInputError`
    carries its message with the frame's name."""


def typed(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """``frame`` (a copy the caller owns) with its text columns checked,
    ``duration_seconds`` as numbers and :data:`BOOLEANS` as booleans (as a CSV writes
    them).

    Raises:
        ColumnError: A column holds another kind of value, or a row two times that cannot
            both be true (:data:`ORDERS`); the message names it.
    """
    for column in (c for c in TEXTS[name] if c in frame):
        _check_text(frame[column], f"{name}.{column}", column in PHONES)
    if "duration_seconds" in frame:
        frame["duration_seconds"] = _numbers(frame["duration_seconds"],
                                             f"{name}.duration_seconds")
    for column in (c for c in BOOLEANS if c in frame):
        if not pd.api.types.is_bool_dtype(frame[column]):
            frame[column] = _booleans(frame[column], f"{name}.{column}")
    _check_order(frame, name)
    return frame


def _check_order(frame: pd.DataFrame, name: str) -> None:
    """Refuse a row whose two times of :data:`ORDERS` come the wrong way round (times in
    UTC, as the audit reads them), naming the frame, the column and the row."""
    if name not in ORDERS or not {ORDERS[name][0], ORDERS[name][1]} <= set(frame):
        return
    first, then, why = ORDERS[name]
    wrong = (frame[first] > frame[then]).fillna(False).to_numpy(bool)
    if wrong.any():
        at = _first(pd.Series(wrong))
        raise ColumnError(f"{name}.{first} holds {frame[first].iloc[at]} at row {at}, after "
                          f"the row's {then} ({frame[then].iloc[at]}): {why}; correct the "
                          "row (an unknown time is an empty cell, never a guess)")


def _check_text(column: pd.Series, where: str, phone: bool) -> None:
    """Refuse a column that is not text: numbers, or any value that is no string; of a
    phone column, a text of digits alone (a number that lost its ``+``)."""
    dtype = column.dtype
    values = column.cat.categories.to_series() if isinstance(
        dtype, pd.CategoricalDtype) else column
    if not _is_text_dtype(values.dtype) and pd.api.types.infer_dtype(
            values, skipna=True) not in ("string", "empty"):
        raise ColumnError(f"{where} holds {_not_text(values, dtype)}, not text: "
                          + (_E164 if phone else "write it as text, as client.frames gives it"))
    if phone:
        _check_plus(values, where, isinstance(dtype, pd.CategoricalDtype))


def _not_text(values: pd.Series, dtype: object) -> str:
    """What a column that is not text holds, in words: ``numbers (int64)``, or its first
    value that is no text, with its row (a Dask frame's meta, empty, has its type only)."""
    if pd.api.types.is_numeric_dtype(values.dtype) or not len(values):
        return f"numbers ({values.dtype})" if pd.api.types.is_numeric_dtype(
            values.dtype) else f"values of type {values.dtype}"
    at = _first(values.map(lambda v: not isinstance(v, str) and pd.notna(v)))
    row = "" if isinstance(dtype, pd.CategoricalDtype) else f" at row {at}"
    return f"{values.iloc[at]!r} ({type(values.iloc[at]).__name__}){row}"


def _is_text_dtype(dtype: object) -> bool:
    return isinstance(dtype, pd.StringDtype) or pd.api.types.is_string_dtype(dtype) and (
        not pd.api.types.is_object_dtype(dtype))


def _check_plus(values: pd.Series, where: str, categories: bool) -> None:
    """Refuse a phone column holding a number's digits without its ``+``, as a CSV column
    of numbers is read (``14155550123``)."""
    text = _arrow_text(values)
    digits = pc.ascii_is_decimal(text)  # "" is not: an empty cell is no number
    if pc.any(digits).as_py():
        at = int(np.flatnonzero(arrow_bools(digits))[0])
        row = "" if categories else f" at row {at}"
        raise ColumnError(f"{where} holds {values.iloc[at]!r}{row}, a number without its "
                          f"'+': {_E164}")


def _arrow_text(values: pd.Series) -> pa.Array | pa.ChunkedArray:
    """``values`` as Arrow text: an Arrow column's own data, else converted."""
    if isinstance(values.dtype, pd.StringDtype) and values.dtype.storage == "pyarrow":
        return values.array.__arrow_array__()
    return pa.array(values.array, pa.string(), from_pandas=True)


def _numbers(column: pd.Series, where: str) -> pd.Series:
    """``column`` as numbers (a CSV's text read as such); text that is no number refused."""
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(
            column.dtype):
        return column
    read = pd.to_numeric(column.astype(object), errors="coerce").astype("Float64")
    wrong = read.isna().to_numpy(bool) & column.notna().to_numpy(bool)
    if wrong.any():
        at = _first(pd.Series(wrong))
        raise ColumnError(f"{where} holds {column.iloc[at]!r} at row {at}, which is not a "
                          "number of seconds: write it as a number (12 or 12.5), or leave "
                          "the cell empty")
    return read


def _booleans(column: pd.Series, where: str) -> pd.Series:
    """``column`` as booleans: ``true``/``false`` as a CSV export writes them (``1``,
    ``yes``, ``t`` too), missing where empty; anything else refused, where it was read as
    missing (a listed number taken for one not checked)."""
    text = column.astype(object).map(lambda v: None if pd.isna(v) else str(v).strip().casefold())
    read = text.map(lambda v: True if v in _TRUE else False if v in _FALSE else None)
    wrong = read.isna().to_numpy(bool) & text.notna().to_numpy(bool)
    if wrong.any():
        at = _first(pd.Series(wrong))
        raise ColumnError(f"{where} holds {column.iloc[at]!r} at row {at}: write true or "
                          "false (or leave the cell empty where it is not known)")
    return read.astype("boolean")


def _first(flags: pd.Series) -> int:
    return int(np.flatnonzero(flags.to_numpy(bool))[0])


def checked_dataset(path: str | os.PathLike[str]) -> None:
    """Refuse a Parquet dataset (a folder) whose files disagree: one that lacks a column
    another has, or holds another kind of value in it (text where another holds numbers).

    Raises:
        ColumnError: Such a file; the message names it and the column.
    """
    if not Path(path).is_dir():
        return
    files = {fragment.path: fragment.physical_schema for fragment in ds.dataset(
        path, format="parquet", partitioning="hive").get_fragments()}
    first: dict[str, tuple[str, str]] = {}
    for file, schema in files.items():
        for field in (f for f in schema if not pa.types.is_null(f.type)):  # all empty
            seen = first.setdefault(field.name, (_kind(field.type), file))
            if seen[0] != _kind(field.type):
                raise ColumnError(f"{file}: {field.name} holds {_kind(field.type)} where "
                                  f"{seen[1]} holds {seen[0]}: write every file of the "
                                  "dataset with the same columns and types")
    every = set().union(*(schema.names for schema in files.values()))
    for file, schema in files.items():  # a folder's hive key is in no file: not missing
        missing = sorted(every - set(schema.names))
        if missing:
            raise ColumnError(f"{file}: has no column {', '.join(missing)}, which other "
                              "files of the dataset have: write every file of the dataset "
                              "with the same columns")


def _kind(kind: pa.DataType) -> str:
    """A column's kind of value, as files of one dataset must agree on it (a time in
    microseconds and one in nanoseconds agree; an integer and a float too)."""
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    for name, test in (("text", pa.types.is_string), ("text", pa.types.is_large_string),
                       ("text", pa.types.is_string_view), ("numbers", pa.types.is_integer),
                       ("numbers", pa.types.is_floating), ("numbers", pa.types.is_decimal),
                       ("times", pa.types.is_timestamp), ("times", pa.types.is_date),
                       ("true/false", pa.types.is_boolean)):
        if test(kind):
            return name
    return str(kind)
