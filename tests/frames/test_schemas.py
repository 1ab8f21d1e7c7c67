"""A page read through Arrow (:meth:`Schema.table`) gives the frame pandas' reading of the
same values gives (:meth:`Column.convert`, the reading before issue 49): Arrow reads the
contract's forms, and hands every other form to pandas rather than read it otherwise."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pyarrow as pa
import pytest

from dialkit.frames import SCHEMAS

ODD_VALUES: dict[str, list[Any]] = {
    "string": ["a", "", "é", 7, None],
    "json": [{"a": 1}, [1, 2], "t", 3, None],
    "timestamp": ["2026-11-02T15:00:00Z", "2026-11-02T15:00:00.5+02:00", "2026-11-02T15:00:00",
                  "2026-11-02", "2026-01-02T03:04:05.123456789Z", None],
    "date": ["2026-11-02", "2026-01-31T00:00:00", None],
    "int": [1, 0, -5, 2**40, 3.0, None],
    "float": [1, 0.5, -2.25, None],
    "bool": [True, False, None],
}
"""Values of each kind in the contract's forms and in others (a time without an offset,
nanoseconds, a number where text belongs), each column's values in turn on its own."""


def _pandas_frame(name: str, rows: list[dict[str, Any]]) -> pd.DataFrame:
    schema = SCHEMAS[name]
    return pd.DataFrame({c.name: c.convert([row.get(c.name) for row in rows])
                         for c in schema.columns}, index=pd.RangeIndex(len(rows)))


def _values(kind: str, categories: tuple[str, ...]) -> list[Any]:
    return [*categories[:2], "newer than the contract", None] if kind == "category" else (
        ODD_VALUES[kind])


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_arrow_reads_a_page_as_pandas_does(name: str) -> None:
    schema = SCHEMAS[name]
    for column in schema.columns:
        rows = [{column.name: value} for value in _values(column.kind, column.categories)]
        pd.testing.assert_frame_equal(schema.frame(rows), _pandas_frame(name, rows),
                                      check_exact=True)


@pytest.mark.parametrize("name", ["calls", "webhook_events"])
def test_pages_made_one_frame_keep_every_category(name: str) -> None:
    schema = SCHEMAS[name]
    column = next(c for c in schema.columns if c.kind == "category")
    first, second = ([{column.name: value}] for value in ("newer", column.categories[0]))
    frame = schema.frame_of(pa.concat_tables([schema.table(first), schema.table(second)]))
    pd.testing.assert_frame_equal(frame, _pandas_frame(name, first + second), check_exact=True)
    assert frame[column.name].tolist() == ["newer", column.categories[0]]
