"""A column of values checked for the kind it must hold, where it is read: text where text
is needed (a phone number above all), and the files of a Parquet dataset against each
other. One home for the check every reader of phone columns applies (the audit, the
analytics), below both.

An export that went through a spreadsheet, or ``pd.read_csv`` without ``dtype=str``, holds
phone numbers as integers (``14155550123``: the ``+`` and any leading 0 gone); such a
column is refused here with a :class:`ColumnError` naming the column, the first value at
fault and its row, and what to write instead: a phone number is never given a ``+`` by
guess. A Parquet dataset's files are checked against each other (a footer each) before
any is read: a file that lacks a column or holds another kind of value in it is named,
where Dask and pyarrow said ``KeyError`` or "Error while type casting", or cast one
file's numbers to text without their ``+`` and answered with the wrong cells.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._utils._base_error import (
    ColumnError,  # noqa: F401
    )
from ._bools import arrow_bools

E164 = ("write phone numbers as E.164 text with their '+' ('+14155550123'): a "
        "spreadsheet, or pd.read_csv without dtype=str, reads them as numbers and drops "
        "the '+' and any leading 0")
"""What to do about a phone column that holds numbers, as every refusal of one says."""


def check_text(column: pd.Series, where: str, phone: bool) -> None:
    """Refuse a column that is not text: numbers, or any value that is no string; of a
    phone column, a text of digits alone (a number that lost its ``+``). ``where`` names
    the column (``calls.to_number``); a Dask frame's meta, empty, is checked by its type
    (but a float column without a value is what pandas makes of nothing: it passes).

    Raises:
        ColumnError: Such a column; the message names it, its value and row.
    """
    dtype = column.dtype
    values = column.cat.categories.to_series() if isinstance(
        dtype, pd.CategoricalDtype) else column
    if pd.api.types.is_float_dtype(values.dtype) and not values.notna().any():
        return  # pandas' type of a column of nothing (no rows, or every cell empty)
    if not _is_text_dtype(values.dtype) and pd.api.types.infer_dtype(
            values, skipna=True) not in ("string", "empty"):
        raise ColumnError(f"{where} holds {_not_text(values, dtype)}, not text: "
                          + (E164 if phone else "write it as text, as client.frames gives it"))
    if phone:
        _check_plus(values, where, isinstance(dtype, pd.CategoricalDtype))


def _not_text(values: pd.Series, dtype: object) -> str:
    """What a column that is not text holds, in words: ``numbers (int64)``, or its first
    value that is no text, with its row (a Dask frame's meta, empty, has its type only)."""
    if pd.api.types.is_numeric_dtype(values.dtype) or not len(values):
        return f"numbers ({values.dtype})" if pd.api.types.is_numeric_dtype(
            values.dtype) else f"values of type {values.dtype}"
    at = first_row(values.map(lambda v: not isinstance(v, str) and pd.notna(v)))
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
                          f"'+': {E164}")


def _arrow_text(values: pd.Series) -> pa.Array | pa.ChunkedArray:
    """``values`` as Arrow text: an Arrow column's own data, else converted."""
    if isinstance(values.dtype, pd.StringDtype) and values.dtype.storage == "pyarrow":
        return values.array.__arrow_array__()
    return pa.array(values.array, pa.string(), from_pandas=True)


def first_row(flags: pd.Series) -> int:
    """The position of the first true flag (there is one)."""
    return int(np.flatnonzero(flags.to_numpy(bool))[0])


def checked_dataset(path: str | os.PathLike[str]) -> None:
    """Refuse a Parquet dataset (a folder) whose files disagree: one that lacks a column
    another has, or holds another kind of value in it (text where another holds numbers).

    Raises:
        ColumnError: Such a file; the message names it and the column.
    """
    if not Path(path).is_dir():
        return
    import pyarrow.dataset as ds  # a dataset's readers only: 0.1 s to import

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
