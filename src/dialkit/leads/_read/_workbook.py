"""Reading a lead workbook (XLSX, XLS, ODS) as Excel shows it.

Which sheet: the one asked for, else the first visible one, unless another visible
sheet alone has a phone column; a hidden sheet (a suppression list, a lookup table:
Excel does not show it) is read only when asked for or when no sheet is visible,
and then said so. Which row is the header: the first of the first rows with a phone-like
name, so that a merged title row above it is skipped. Which text: a number
formatted ``00000000000`` is the ``07700900123`` Excel shows (and is still reported
among the cells held as numbers); a formula Excel never calculated has no value
and is reported as such, not as an empty cell. A sheet without a header row (a list of
numbers pasted in, read with ``header=None``) is read from its first row, its columns
named by place from 0 as pandas names them.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any

import pandas as pd
from python_calamine import CalamineSheet, CalamineWorkbook, SheetVisibleEnum

from ..._utils._base_error import WorkbookError
from ._delimiter import HEADER_ROWS, header_index, phone_like
from ._headers import unique_headers
from ._xlsx import CellFacts, cell_facts, shown


@dataclass(frozen=True)
class Sheet:
    """A sheet read as text: its frame (index: data row - 1), the cells it held as
    numbers and the formulas with no value (``row``, ``column``), its name, the
    1-based sheet row of its header (0: none), and whether the workbook hides it."""

    frame: pd.DataFrame
    numbers: pd.DataFrame
    formulas: pd.DataFrame
    name: str
    header_row: int
    hidden: bool = False


def read_workbook(data: bytes, sheet: str | int | None,
                  phone_columns: Collection[str | int] = (), *, named: bool = True) -> Sheet:
    """The sheet of a workbook's bytes that holds the leads, read as text; ``phone_columns``
    the phone's column by name or place (``mapping``'s); without ``named``, the sheet
    has no header row."""
    names = [column for column in phone_columns if isinstance(column, str)]
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        chosen = _chosen(book, sheet, names, named)
        table = chosen.to_python(skip_empty_area=True)
    except WorkbookError:
        raise
    except Exception as exc:  # calamine's errors are not one documented class
        raise WorkbookError(f"cannot be read as an Excel workbook "
                            f"({type(exc).__name__}: {str(exc)[:200]})") from None
    if not table:
        raise WorkbookError(f"the sheet {chosen.name!r} is empty; expected a header row and rows")
    top, left = chosen.start or (0, 0)
    if named:
        at = _header_at(table, names)
        header = unique_headers([_cell_text(cell) or "" for cell in table[at]])
    else:  # every row is a row: the columns named by place
        at, header = -1, [str(n) for n in range(max(map(len, table)))]
    phones = [n for n, name in enumerate(header)
              if n in phone_columns or phone_like(name, names)]
    body = table[at + 1:]
    facts = _facts(data, chosen.name, body, phones, left, top + at + 1)
    read = _sheet(body, header, phones, facts, chosen.name, top + at + 1 if named else 0)
    return dataclasses.replace(read, hidden=chosen.name in _hidden(book))


def _chosen(book: CalamineWorkbook, sheet: str | int | None,
            phone_columns: Collection[str], named: bool = True) -> CalamineSheet:
    """The sheet asked for; else the first visible one, or the one other visible sheet
    with a phone column (the hidden ones when none is visible); without ``named`` (no
    header row to tell them by), the first visible one."""
    if isinstance(sheet, str):
        if sheet not in book.sheet_names:
            raise WorkbookError(f"no sheet {sheet!r}; its sheets are "
                                f"{', '.join(book.sheet_names)}")
        return book.get_sheet_by_name(sheet)
    if sheet is not None:
        return book.get_sheet_by_index(sheet)
    hidden = _hidden(book)
    names = [name for name in book.sheet_names if name not in hidden] or book.sheet_names
    first = book.get_sheet_by_name(names[0])
    if len(names) == 1 or not named or _phone_row(first.to_python(nrows=HEADER_ROWS),
                                                  phone_columns) is not None:
        return first
    heads = {name: book.get_sheet_by_name(name).to_python(nrows=HEADER_ROWS)
             for name in names}
    with_phone = [name for name, rows in heads.items()
                  if _phone_row(rows, phone_columns) is not None]
    if len(with_phone) == 1:
        return book.get_sheet_by_name(with_phone[0])
    if with_phone:
        raise WorkbookError(f"{len(with_phone)} sheets have a phone column: "
                            f"{', '.join(with_phone)}; pass sheet= with the one to read")
    listed = ", ".join(f"{name} ({_columns(rows)})" for name, rows in heads.items())
    unread = [name for name in book.sheet_names if name not in heads]
    passed = f" (hidden, so not read: {', '.join(unread)})" if unread else ""
    raise WorkbookError(f"no {'visible ' * bool(unread)}sheet has a phone column: {listed}"
                        f"{passed}; name one phone, mobile, cell or telephone, or pass "
                        "sheet= and mapping={'phone': '<column>'}")


def _hidden(book: CalamineWorkbook) -> set[str]:
    """The sheets the workbook hides (``hidden`` or ``veryHidden``), in any format:
    calamine reads XLSX's ``state``, XLS's and ODS's own marks."""
    return {sheet.name for sheet in book.sheets_metadata
            if sheet.visible != SheetVisibleEnum.Visible}


def _columns(rows: list[list[Any]]) -> str:
    first = next((row for row in rows if any(_cell_text(c) for c in row)), [])
    return ", ".join(t for t in map(_cell_text, first) if t) or "empty"


def _phone_row(rows: list[list[Any]], phone_columns: Collection[str]) -> int | None:
    """The header row, when one has a phone-like cell (:func:`header_index`)."""
    return header_index([[_cell_text(cell) or "" for cell in row] for row in rows[:HEADER_ROWS]],
                        phone_columns)


def _header_at(rows: list[list[Any]], phone_columns: Collection[str]) -> int:
    """The header: the first row with a phone-like cell, else the first that holds anything."""
    found = _phone_row(rows, phone_columns)
    if found is not None:
        return found
    return next((n for n, row in enumerate(rows) if any(_cell_text(c) for c in row)), 0)


def _facts(data: bytes, sheet: str, body: list[list[Any]], phones: list[int], left: int,
           top: int) -> CellFacts:
    """Formats and unevaluated formulas of the phone cells, looked up only when a phone
    cell is a number or empty (the sheet's XML is read again for them)."""
    values = [row[n] for row in body for n in phones if n < len(row)]
    numeric = any(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    empty = any(v is None or v == "" for v in values) or any(len(r) <= max(phones, default=0)
                                                           for r in body)
    facts = cell_facts(data, sheet, [left + n for n in phones], formats=numeric, formulas=empty)
    return CellFacts({(r - top, c - left): f for (r, c), f in facts.formats.items()},
                     {(r - top, c - left) for r, c in facts.unevaluated})


def _sheet(body: list[list[Any]], header: list[str], phones: list[int], facts: CellFacts,
           name: str, header_row: int) -> Sheet:
    numbers: list[tuple[int, str, str]] = []
    rows = []
    for line, row in enumerate(body, start=1):
        cells = []
        for n, (cell, column) in enumerate(zip(row, header, strict=False)):
            code = facts.formats.get((line - 1, n)) if n in phones else None
            cells.append(cell_text(cell, line, column, numbers, code))
        rows.append(cells)
    frame = pd.DataFrame(rows, columns=header, dtype=object)
    formulas = pd.DataFrame(sorted((r + 1, header[c]) for r, c in facts.unevaluated
                                   if 0 <= r < len(body) and 0 <= c < len(header)),
                            columns=["row", "column"]).astype({"row": "int64", "column": object})
    return Sheet(frame, pd.DataFrame(numbers, columns=["row", "column", "text"]), formulas, name,
                 header_row)


def cell_text(value: Any, line: int, column: str, numbers: list[tuple[int, str, str]],
              code: str | None = None) -> str | None:
    """A workbook cell as text (as its number format ``code`` shows it, when given); a
    numeric cell is reported in ``numbers``."""
    text = _cell_text(value)
    if isinstance(value, int | float) and not isinstance(value, bool) and text is not None:
        text = (shown(value, code) if code is not None and math.isfinite(value) else None) or text
        numbers.append((line, column, text))
    return text


def _cell_text(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return str(int(value))
        return repr(value)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    return str(value)
