"""``formulas_escaped`` on text held by Arrow: the cells' first bytes and kernels give
what :func:`escaped_cell` gives cell by cell, whatever the arrays' layout (issue 21)."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit._files._outputs import escaped_cell
from dialkit.frames import formulas_escaped

CELLS = st.one_of(st.none(), st.sampled_from(["", "=1+1", "+14155550123", "+1415555012345678",
                                               "+1 415", "-", "@x", "\tx", "\rx", "+",
                                               "+١٢٣", "é=", "'=x", "+123456789012345", "+0123",
                                               "+1", "+1234567890123456"]),
                  st.text(alphabet="=+-@\t\r0123456789 aé'", max_size=18))
DTYPES = ["string[pyarrow]", "str", "string[python]"]


def expected(cells: list[str | None]) -> list[str | None]:
    return [escaped_cell(cell) for cell in cells]


def shown(values: pd.Series) -> list[str | None]:
    return [None if pd.isna(v) else v for v in values.tolist()]


@settings(max_examples=200, deadline=None)
@given(st.lists(CELLS, max_size=30), st.sampled_from(DTYPES), st.integers(0, 5))
def test_escaped_as_cell_by_cell(cells: list[str | None], dtype: str, cut: int) -> None:
    column = pd.Series(cells, dtype=dtype)
    if dtype == "string[pyarrow]" and len(cells) > cut:  # chunked and sliced arrays
        held = pa.chunked_array([pa.array(cells[:cut], pa.large_string()),
                                 pa.array(["pad", *cells[cut:]], pa.large_string())[1:]])
        column = pd.Series(pd.arrays.ArrowStringArray(held))
    out = formulas_escaped(pd.DataFrame({"a": column}))["a"]
    assert out.dtype == column.dtype
    assert shown(out) == expected(cells)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_column_with_nothing_to_escape_is_the_same_column(dtype: str) -> None:
    column = pd.Series(["a", None, "+14155550123", ""], dtype=dtype)
    assert shown(formulas_escaped(pd.DataFrame({"a": column}))["a"]) == shown(column)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_plus_and_up_to_fifteen_digits_is_a_number_left_as_written(dtype: str) -> None:
    """A dialing code (``+1``) or a number is the user's text, not a formula that does
    anything: left as written, where sixteen digits, a space or a non-ASCII digit is
    escaped."""
    column = pd.Series(["+1", "+0123", "+123456789012345", "+1234567890123456", "+1 415",
                        "+١٢٣"], dtype=dtype)
    assert shown(formulas_escaped(pd.DataFrame({"a": column}))["a"]) == [
        "+1", "+0123", "+123456789012345", "'+1234567890123456", "'+1 415", "'+١٢٣"]


def test_a_null_with_a_length_is_not_read() -> None:
    """Arrow allows a null slot to span bytes; its bytes are not a cell."""
    data = pa.py_buffer(b"=x=y")
    offsets = pa.py_buffer(pa.array([0, 2, 4], pa.int32()).buffers()[1])
    validity = pa.py_buffer(bytes([0b10]))
    array = pa.Array.from_buffers(pa.string(), 2, [validity, offsets, data], null_count=1)
    out = formulas_escaped(pd.DataFrame({"a": pd.arrays.ArrowStringArray(array)}))["a"]
    assert shown(out) == [None, "'=y"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_escaped_in_parts_as_whole(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from dialkit._utils import _tuning

    cells = ["=1", None, "+14155550123", "", "a", "-2", "+1 415", "@", "é", "\tx", None]
    monkeypatch.setattr(_tuning, "ESCAPE_ROWS", 3)
    out = formulas_escaped(pd.DataFrame({"a": pd.Series(cells, dtype=dtype)}))["a"]
    assert shown(out) == expected(cells) and out.dtype == dtype
