"""Files people open: workbooks and CSV that hold text as text, never as a formula.

A lead file, an id or an account name can hold ``=HYPERLINK(...)`` or
``=cmd|' /C calc'!A0``; a spreadsheet that opens a file holding it as a formula
runs it. So every workbook dialkit writes goes through :func:`excel_writer`,
which writes each text as a string cell, and every CSV meant for a spreadsheet
through :func:`formulas_escaped`, OWASP's advice for CSV injection: a text cell
that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
leading ``'``, which a spreadsheet shows and never evaluates. Numbers, times
and missing cells are not text and are written as they are.

One exception keeps phone numbers readable: a cell that is wholly an E.164
number, ``+`` and 1 to 15 digits (``+14155550123``), is left as it is. No
spreadsheet runs anything from it (Excel and LibreOffice read it as the number
14155550123), and dialkit's own readers and other programs get the exact
number. A number written otherwise (``+1 415 555 0123``) or masked
(``+1415*****23``) is text and is escaped.
"""

from __future__ import annotations

import contextlib
import os
import re
import zipfile
from collections.abc import Iterator, Mapping
from typing import Any, Final

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._arrays._bools import arrow_bools
from .._arrays._texts import buffers
from .._utils import _tuning
from ._outputs_written import written

FORMULA_START: Final = r"[=+\-@\t\r]"
"""The first characters that make a spreadsheet read a CSV cell as a formula (OWASP)."""
NUMBER_DIGITS: Final = 15
"""A whole cell of a ``+`` and 1 to this many ASCII digits is a number to a spreadsheet
(an E.164 number, a dialing code such as ``+1``), never escaped: a looser rule than
E.164's on purpose (``contract.is_e164``), for ``+1`` in a column of dialing codes is
the user's text and no formula that does anything (:func:`plus_number`)."""
EXCEL_OPTIONS: Final = {"strings_to_formulas": False, "strings_to_urls": False,
                        "strings_to_numbers": False}
"""xlsxwriter's options: a text is always a string cell, not a formula, link or number."""

_START = re.compile(FORMULA_START)
_FIRST_BYTES = np.array([bool(_START.match(chr(byte))) for byte in range(256)])
"""Which bytes :data:`FORMULA_START` matches (each of its characters is ASCII)."""


@contextlib.contextmanager
def excel_writer(path: str | os.PathLike[str], *, option: str = "path",
                 inputs: Mapping[str, Any] | None = None) -> Iterator[pd.ExcelWriter]:
    """A ``pd.ExcelWriter`` (xlsxwriter) that writes every text as a string cell, into a
    hidden file renamed to ``path`` when the block ends (never through a link at
    ``path``, never half a workbook; :func:`dialkit._files._outputs_written.written`, which
    ``option`` and ``inputs`` are for).

    Examples:
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"phone": ["+14155550199"], "note": ["=1+1"]})
        >>> with excel_writer("out.xlsx") as book:
        ...     frame.to_excel(book, sheet_name="leads", index=False)
        >>> pd.read_excel("out.xlsx", engine="calamine")["note"].tolist()  # text, not a formula
        ['=1+1']
    """
    with written(path, option, inputs=inputs) as partial, xlsx_errors(), pd.ExcelWriter(
            partial, engine="xlsxwriter", engine_kwargs={"options": dict(EXCEL_OPTIONS)}) as book:
        yield book


@contextlib.contextmanager
def xlsx_errors() -> Iterator[None]:
    """xlsxwriter's ``FileCreateError`` (a full disk, a file-size limit when it writes
    the workbook) raised as the ``OSError`` it wraps, so that the output's write names
    it as any other."""
    from xlsxwriter.exceptions import FileCreateError  # type: ignore[import-untyped]

    try:
        yield
    except FileCreateError as error:
        cause = error.args[0] if error.args else None
        if not isinstance(cause, OSError):
            raise
        _close_zip_left_open(cause)
        raise cause from None


def header_filtered(sheet: Any, rows: int, columns: int) -> None:
    """A worksheet (xlsxwriter's) of a header and ``rows`` rows below it, as a person
    works through it: the header frozen above the rows as they scroll, and a filter on
    each of its ``columns`` (every workbook dialkit writes for people has both)."""
    sheet.freeze_panes(1, 0)
    sheet.autofilter(0, 0, max(rows, 1), max(columns - 1, 0))


def _close_zip_left_open(error: OSError) -> None:
    """Close the ``ZipFile`` xlsxwriter leaves open when writing a workbook fails (its
    own complaint on closing ignored): collected later, it prints "Exception ignored"
    and a traceback into a notebook's output, long after the error was told."""
    trace = error.__traceback__
    while trace is not None:
        for value in list(trace.tb_frame.f_locals.values()):
            if isinstance(value, zipfile.ZipFile):
                written = value.fp  # close() lets go of it before it closes it, and fails
                with contextlib.suppress(Exception):
                    value.close()
                if written is not None:
                    written.close()
        trace = trace.tb_next


def write_csv(frame: pd.DataFrame, path: str | os.PathLike[str] | None = None, *,
              escape_formulas: bool = True, option: str = "path",
              inputs: Mapping[str, Any] | None = None) -> str | None:
    """Write ``frame`` as CSV (UTF-8, no index) to ``path``, or return the text.

    With ``escape_formulas`` (the default) the text cells and column names go through
    :func:`formulas_escaped`, for people who open the file in a spreadsheet; pass
    ``False`` for raw values, for programs.

    Lines end in CRLF, as RFC 4180 has them, so that a cell holding a carriage return
    is quoted (pandas quotes only the characters of its line ending, and a bare CR
    would start a new row, and a new first cell, in a spreadsheet).

    The file is written under a hidden name and renamed to ``path`` when complete
    (:func:`dialkit._files._outputs_written.written`: ``option`` names ``path`` in its
    messages, and ``inputs`` are refused as ``path``).

    Examples:
        >>> write_csv(pd.DataFrame({"name": ["=1+1"]}))
        "name\\r\\n'=1+1\\r\\n"
    """
    shown = formulas_escaped(frame) if escape_formulas else frame
    if path is None:
        text: str = shown.to_csv(index=False, lineterminator="\r\n")
        return text
    with written(path, option, inputs=inputs) as partial:
        shown.to_csv(partial, index=False, lineterminator="\r\n")
    return None


def formulas_escaped(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells and column names that a spreadsheet would read
    as a formula start with ``'``; numbers, times, missing cells and whole E.164 numbers
    are left as they are."""
    out = frame.copy(deep=False)  # the columns' data shared until a column is escaped
    out.columns = [escaped_cell(name) for name in frame.columns]
    for n in range(out.shape[1]):
        values = out.iloc[:, n]
        if _textual(values):
            out.isetitem(n, _escaped(values))
    return out


def plus_number(text: str) -> bool:
    """Whether ``text`` is a ``+`` and 1 to :data:`NUMBER_DIGITS` ASCII digits."""
    digits = text[1:]
    return (text[:1] == "+" and 0 < len(digits) <= NUMBER_DIGITS and digits.isascii()
            and digits.isdigit())


def escaped_cell(value: Any) -> Any:
    """One cell, escaped if it is text that starts as a formula would."""
    if isinstance(value, str) and _START.match(value) and not plus_number(value):
        return "'" + value
    return value


def _textual(values: pd.Series) -> bool:
    """Whether a column can hold text: strings, Python objects, or categories of either."""
    dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    return bool(pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype))


def _escaped(values: pd.Series) -> pd.Series:
    """A text column escaped: over its Arrow strings for string columns, cell by cell for
    columns of Python objects (which may mix text with numbers), by category for
    categoricals."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        categories = values.cat.categories.to_series()
        if not categories.map(escaped_cell).ne(categories).any():
            return values
        return values.astype(object).map(escaped_cell)
    if pd.api.types.is_object_dtype(values.dtype):
        return values.map(escaped_cell)
    column = _arrow_text(values)
    at_once = _tuning.ESCAPE_ROWS
    held = [chunk.slice(start, at_once) for chunk in column.chunks
            for start in range(0, len(chunk), at_once)]
    chunks = [_escaped_chunk(chunk) for chunk in held]
    if all(new is old for new, old in zip(chunks, held, strict=True)):
        return values  # the common case: no copy
    escaped = pa.chunked_array(chunks, type=column.type)
    return pd.Series(pd.array(escaped, dtype=values.dtype), index=values.index, name=values.name)


def _escaped_chunk(chunk: pa.Array) -> pa.Array:
    """One Arrow array of a text column escaped, or the same array when no cell needs it
    (a part at a time: a take over the whole chunked column first joined its chunks, and
    the work arrays of a million cells took 70 MiB)."""
    starts = np.flatnonzero(_FIRST_BYTES[_first_bytes(chunk)])
    risky = starts[~_whole_plus_numbers(chunk, starts)] if len(starts) else starts
    if not len(risky):
        return chunk
    mask = np.zeros(len(chunk), dtype=bool)
    mask[risky] = True
    quoted = pc.utf8_replace_slice(chunk.take(pa.array(risky)), 0, 0, "'")
    return pc.replace_with_mask(chunk, pa.array(mask), quoted)


def _arrow_text(values: pd.Series) -> pa.ChunkedArray:
    """A string column's cells as Arrow (large) strings, as pandas holds them when Arrow
    does."""
    column = values.array.__arrow_array__()
    column = column if isinstance(column, pa.ChunkedArray) else pa.chunked_array([column])
    if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
        return column
    return column.cast(pa.large_string())


def _first_bytes(chunk: pa.Array) -> np.ndarray:
    """Each cell's first byte (0 when empty or missing), read from the array's buffers: a
    regex over a million cells took 50 ms, this a few. The characters of
    :data:`FORMULA_START` are ASCII, so a UTF-8 cell starts with one exactly when its
    first byte is one."""
    offsets, data = buffers(chunk)
    if not data.size:
        return np.zeros(len(chunk), dtype=np.uint8)
    filled = offsets[1:] > offsets[:-1]
    if chunk.null_count:
        filled &= arrow_bools(chunk.is_valid())
    at = np.minimum(offsets[:-1], data.size - 1)  # an empty last cell ends the data
    first: np.ndarray = np.where(filled, data[at], 0).astype(np.uint8)
    return first


def _whole_plus_numbers(chunk: pa.Array, rows: np.ndarray) -> np.ndarray:
    """Which of the cells at ``rows`` (each of a byte at least) are wholly
    :func:`plus_number`, read from the array's bytes: a ``+`` and up to
    :data:`NUMBER_DIGITS` ASCII digits after it. The regex over the part took 0.09 of the
    0.19 CPU s of escaping the 1M-row mix's phone column."""
    offsets, data = buffers(chunk)
    start = offsets[rows].astype(np.int64)
    size = offsets[rows + 1] - start
    after = np.arange(1, NUMBER_DIGITS + 1)
    at = np.minimum(start[:, None] + after, max(data.size - 1, 0))
    digit = (data[at] - ord("0")) <= 9  # uint8: a byte below "0" wraps past 9
    whole: np.ndarray = ((size >= 2) & (size <= NUMBER_DIGITS + 1) & (data[start] == ord("+"))
                         & (digit | (after >= size[:, None])).all(axis=1))
    return whole
