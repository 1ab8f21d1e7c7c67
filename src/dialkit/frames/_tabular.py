"""Frames of other libraries taken in as pandas: a Polars DataFrame, a pyarrow Table, or
anything else that speaks the Arrow PyCapsule stream interface (``__arrow_c_stream__``).

Every entry point that takes a frame (``leads.read`` and ``clean``, the analytics
functions, ``compliance.audit``, the explorer) passes it through :func:`as_pandas`
once, so the rules below them see the pandas frame they were written for and give
the same answer whatever library held the rows. The stream is read by pyarrow, which
dialkit needs anyway: no Polars import, no copy through Python objects. Columns come
out with the dtypes ``client.frames`` uses: Arrow-backed strings, nullable integers,
floats and booleans, UTC timestamps as they were, dictionaries as categoricals, whose
categories take the order of the frame's schema where it has them (Polars keeps its
categories in the order it met them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import pandas as pd
import pyarrow as pa

from ._schemas import SCHEMAS

ACCEPTED = "a pandas DataFrame, a Polars DataFrame or a pyarrow Table"
"""What every frame argument takes, as error messages name it."""


class ArrowStream(Protocol):
    """A frame that exports its rows as an Arrow stream (a Polars DataFrame, a pyarrow
    Table): the Arrow PyCapsule interface."""

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """The rows as an ``ArrowArrayStream`` capsule."""


def is_tabular(value: Any) -> bool:
    """Whether ``value`` is a frame :func:`as_pandas` takes: pandas', or one with the Arrow
    stream interface (Polars, pyarrow, DuckDB's relations, ...)."""
    return isinstance(value, pd.DataFrame) or hasattr(type(value), "__arrow_c_stream__")


def as_pandas(value: Any, name: str, source: str | None = None) -> pd.DataFrame:
    """``value`` as a pandas DataFrame: itself when it is one, else its Arrow stream read
    whole (see the module's docstring for the dtypes).

    Args:
        value: The frame given.
        name: The argument's name, for the error; where it names a frame of
            ``client.frames`` (``calls``, ``leads``, ...), its schema's categories.
        source: Where such a frame comes from (``client.frames.calls()``), for the error.

    Raises:
        TypeError: ``value`` is none of :data:`ACCEPTED`.

    Examples:
        >>> import pyarrow as pa
        >>> as_pandas(pa.table({"phone": ["+14155550199", None]}), "leads")["phone"].tolist()
        ['+14155550199', <NA>]
        >>> as_pandas([1, 2], "calls", "client.frames.calls()")
        Traceback (most recent call last):
        TypeError: calls must be a pandas DataFrame, a Polars DataFrame or a pyarrow Table \
(client.frames.calls()), not list
    """
    if isinstance(value, pd.DataFrame):
        return value
    if not is_tabular(value):
        where = f" ({source})" if source else ""
        raise TypeError(f"{name} must be {ACCEPTED}{where}, not {type(value).__name__}")
    table = (value if isinstance(value, pa.Table)  # from_stream: pyarrow 15 and later
             else pa.RecordBatchReader.from_stream(value).read_all())
    frame: pd.DataFrame = _viewless(table).to_pandas(types_mapper=_pandas_dtype)
    return _in_schema_order(frame, name)


def _viewless(table: pa.Table) -> pa.Table:
    """``table`` with the lists of Arrow ``string_view`` (a Polars list of texts, such as
    a lead's ``other_phones``) as lists of ``large_string``, which pyarrow converts to
    pandas (each cell an array of its texts) and ``string_view`` items it cannot."""
    for at, field in enumerate(table.schema):
        kind = field.type
        if (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and _is_view(
                kind.value_type):
            table = table.set_column(at, field.name, table.column(at).cast(
                pa.large_list(pa.large_string())))
    return table


def _in_schema_order(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """``frame`` with each categorical column the schema ``name`` (if any) also holds as a
    categorical given the schema's categories, where its own values are among them."""
    schema = SCHEMAS.get(name)
    wanted = {} if schema is None else {
        column: list(dtype.categories) for column, dtype in schema.dtypes.items()
        if column in frame and isinstance(dtype, pd.CategoricalDtype)
        and isinstance(frame[column].dtype, pd.CategoricalDtype)
        and set(frame[column].cat.categories) <= set(dtype.categories)}
    # set_categories, not astype: unordered categoricals' dtypes are equal in any order
    return frame.assign(**{column: frame[column].cat.set_categories(categories)
                           for column, categories in wanted.items()})


def maybe_pandas(value: Any, name: str, source: str | None = None) -> pd.DataFrame | None:
    """:func:`as_pandas` for an optional frame: ``None`` stays ``None``."""
    return None if value is None else as_pandas(value, name, source)


def pandas_frames(frames: Mapping[str, Any]) -> dict[str, Any]:
    """Each frame of ``frames`` by its name as :func:`maybe_pandas` reads it: a mapping of
    frames given whole (``upcoming``'s, ``repair``'s), read as one frame argument is."""
    return {name: maybe_pandas(frame, name) for name, frame in frames.items()}


def _pandas_dtype(kind: pa.DataType) -> Any:
    """The pandas dtype ``client.frames`` gives an Arrow type, or ``None`` for pyarrow's
    default (timestamps, dates, dictionaries)."""
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or _is_view(kind):
        return pd.StringDtype("pyarrow")
    if pa.types.is_floating(kind):
        return pd.api.types.pandas_dtype(f"Float{kind.bit_width}")
    if pa.types.is_boolean(kind):
        return pd.BooleanDtype()
    if pa.types.is_integer(kind):
        return pd.api.types.pandas_dtype(
            f"{'Int' if pa.types.is_signed_integer(kind) else 'UInt'}{kind.bit_width}")
    return None


def _is_view(kind: pa.DataType) -> bool:
    """Whether ``kind`` is Arrow's ``string_view`` (Polars' strings; pyarrow 16 and later)."""
    is_view = getattr(pa.types, "is_string_view", None)
    return bool(is_view is not None and is_view(kind))
