"""Reading lead files (CSV, TSV, Excel, or a DataFrame) as text, with their columns mapped.

Vendors and web forms export phones in every shape, and the usual readers
damage them on the way in: pandas turns a phone column into floats and drops
leading zeros, Excel has already stored some cells as numbers. So every
column is read as text, the cells a workbook holds as numbers are reported,
and a file that cannot be read raises one :class:`LeadFileError` in words,
never a codec's or pandas' traceback. What was found rather than given (the
delimiter, the header's line, the sheet, the encoding of each line, the blank
rows skipped) is reported in :class:`LeadFile`, never assumed silently.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeAlias

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from dialkit._files._file_limits import (
    DELIMITERS,
    FileLimits,
    check_delimited,
    check_workbook,
)
from dialkit._shown._words import noun
from dialkit.frames import ACCEPTED, ArrowStream, as_pandas, is_tabular

from ..._files._encoding import BOMS, SNIFFED, decode
from ..._utils._base_error import (
    EncodingError,
    LeadFileError,  # noqa: F401
    LimitError,
    WorkbookError,
)
from ._delimiter import Layout, layout, shown
from ._headers import ALIASES, map_headers, unique_headers
from ._workbook import cell_text, read_workbook
from ._workbook_limits import check_parts

Source: TypeAlias = "str | os.PathLike[str] | IO[bytes] | pd.DataFrame | ArrowStream"
"""What :func:`read` takes: a path, a binary file object, or a frame (pandas', Polars', a
pyarrow Table)."""
SOURCES = f"a path, a binary file object, or {ACCEPTED}"
"""What :func:`read` takes, as its refusal says."""

TEXT = "string[pyarrow]"
_EXCEL_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")  # xlsx/xlsm/ods (zip), xls (OLE)
_BLOCK = 1 << 20  # pyarrow's default block: a line must fit in one
MISSING = ("",)
"""The cell texts read as missing: the empty cell alone. pyarrow's and pandas' readers
also take ``NA`` (Namibia's code), ``NULL``, ``None``, ``N/A``, ``nan``,
``#N/A`` and more for missing by default; in a lead file they are text, and what a
phone cell's text means is the clean's to judge (``N/A`` there is no number)."""


def _no_formulas() -> pd.DataFrame:
    return pd.DataFrame({"row": pd.Series(dtype="int64"), "column": pd.Series(dtype=object)})


@dataclass(frozen=True)
class LeadFile:
    """A lead file read as text, with its columns mapped to lead fields.

    Attributes:
        name: The file's name (``"DataFrame"`` for a frame).
        frame: Every column of the file as text (``string[pyarrow]``), only empty cells
            missing (``NA``, ``null``, ``N/A`` are text: :data:`MISSING`), in file
            order; ``frame.index + 1`` is the data row (the first row after the header
            is 1), blank rows left out but counted.
        fields: Lead field (and ``country``) → the column that holds it.
        custom_fields: Columns sent as custom fields (at most 20, the contract's limit).
        unused: Columns beyond the 20 custom fields: reported, never sent.
        numbers: Cells the file held as numbers (``row``, ``column``, ``text``): an
            Excel cell that Excel already turned into a number, which may have
            lost a leading zero or digits before dialkit read it (``text`` is as the
            cell's number format shows it, ``07700900123`` for ``00000000000``).
        encoding: The text encoding read, ``None`` for a workbook or a frame.
        delimiter: The delimiter a text file was read with (chosen among
            ``, ; tab |``), ``None`` for a workbook or a frame.
        header_row: The file's line (a workbook's row) that holds the header, 1-based:
            titles and blank lines above it are skipped. ``None`` for a frame.
        sheet: The workbook's sheet read.
        hidden_sheet: Whether that sheet is hidden in the workbook (Excel does not show
            it): read only when asked for by name or number, or when no sheet is visible.
        blank_rows: Data rows of a file with no cell that holds anything: skipped, not
            leads (a DataFrame's rows are all kept).
        other_encoding_lines: Lines of a file mostly in ``encoding`` that only
            ``other_encoding`` reads (a file appended to by two tools).
        other_encoding: The encoding of those lines (``cp1252``).
        formulas: A workbook's cells holding a formula with no value (``row``,
            ``column``): never calculated, so the file does not hold what Excel shows.
    """

    name: str
    frame: pd.DataFrame
    fields: dict[str, str]
    custom_fields: list[str]
    unused: list[str]
    numbers: pd.DataFrame = field(repr=False)
    encoding: str | None = None
    delimiter: str | None = None
    header_row: int | None = None
    sheet: str | None = None
    blank_rows: tuple[int, ...] = ()
    other_encoding_lines: tuple[int, ...] = ()
    other_encoding: str | None = None
    formulas: pd.DataFrame = field(default_factory=_no_formulas, repr=False)
    hidden_sheet: bool = False

    @property
    def notes(self) -> list[str]:
        """What was found in the file rather than given, in words, for a summary."""
        notes = []
        if self.encoding is not None and not _utf8(self.encoding):
            notes.append(f"text read as {self.encoding} (not UTF-8)")
        if self.delimiter not in (None, ","):
            notes.append(f"columns split at {shown(self.delimiter)}")
        if self.sheet is not None:
            notes.append(f"{'hidden ' * self.hidden_sheet}sheet {self.sheet!r} read" + (
                " (Excel does not show it)" if self.hidden_sheet else "") + (
                f", its header on row {self.header_row}" if self.header_row != 1 else ""))
        elif self.header_row not in (None, 1):
            notes.append(f"header on line {self.header_row}")
        if blank := len(self.blank_rows):
            notes.append(f"{blank} {noun(blank, 'blank row')} skipped ({noun(blank, 'row')} "
                         f"{_listed(self.blank_rows)})")
        if self.other_encoding_lines:
            notes.append(f"{noun(len(self.other_encoding_lines), 'line')} "
                         f"{_listed(self.other_encoding_lines)} read as {self.other_encoding} "
                         f"(the rest {self.encoding})")
        if formulas := len(self.formulas):
            notes.append(f"{formulas} {noun(formulas, 'formula cell')} without a value (the "
                         "workbook was saved uncalculated)")
        return notes


def _utf8(encoding: str) -> bool:
    """Whether ``encoding`` is UTF-8, with a byte order mark or without."""
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def _listed(numbers: Sequence[int], shown_at_most: int = 10) -> str:
    listed = ", ".join(map(str, numbers[:shown_at_most]))
    return listed + (f" and {len(numbers) - shown_at_most} more"
                     if len(numbers) > shown_at_most else "")


@dataclass(frozen=True)
class _Read:
    """What a reader found besides the frame: the :class:`LeadFile` fields it fills."""

    frame: pd.DataFrame
    numbers: pd.DataFrame
    about: dict[str, Any] = field(default_factory=dict)
    blank_rows: bool = True  # rows with nothing in them are left out


def read(source: Source, *, sheet: str | int | None = None,
         mapping: Mapping[str, str] | None = None, encoding: str | None = None,
         limits: FileLimits | None = None) -> LeadFile:
    """Read a lead file as text and map its headers to lead fields.

    Args:
        source: A CSV, TSV or TXT file, an XLSX or XLS workbook, a binary file
            object of one, or a frame: pandas', Polars' or a pyarrow Table. A text
            file's delimiter is the one of ``, ; tab |`` that gives a phone column and
            rows as wide as the header; its header is the first of its first 20 lines
            with a phone-like name.
        sheet: The workbook's sheet, by name or 0-based index; by default the first,
            or the only other sheet that has a phone column.
        mapping: Lead field → column, over the names found (``{"phone": "Mobil"}``).
        encoding: The text encoding; by default UTF-8 or UTF-16 by their byte order
            mark, else UTF-8 if the file is valid UTF-8, else each line in UTF-8 if it
            reads so and cp1252 if not (latin-1 for the bytes cp1252 leaves undefined).
            An encoding that contradicts the file's byte order mark is refused.
        limits: What a file may hold, checked before it is parsed (columns and line
            length of a CSV, a workbook's uncompressed size and compression ratio);
            by default :class:`FileLimits`' defaults and their ``DIALKIT_MAX_*``
            variables. :func:`clean` and :func:`import_leads` take what this returns.

    Raises:
        LeadFileError: The file cannot be read, holds no rows, has no phone column, or
            is past a limit.
        TypeError: ``source`` is none of these.

    Examples:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
        ...     _ = file.write("Mobile,Name,E-mail\\n(415) 555-0199,Ada,ada@example.com\\n"
        ...                    "212.555.0142,Alan,\\nnot a phone,Nobody,\\n")
        >>> leads = dialkit.leads.read("vendor.csv")
        >>> leads.fields["phone"], len(leads.frame)
        ('Mobile', 3)
    """
    phones = [mapping["phone"]] if mapping and "phone" in mapping else []
    if is_tabular(source):
        name = type(source).__name__  # DataFrame (pandas' or Polars'), Table (pyarrow's)
        found = _Read(*_from_frame(as_pandas(source, "source")),
                      blank_rows=False)  # a frame's rows are its own
    else:
        file = _load(source)
        name = file.name
        try:
            found = _from_file(file, sheet, encoding, limits or FileLimits.from_env(), phones)
        except LimitError as refused:
            raise LeadFileError(str(refused)) from None
        except (EncodingError, WorkbookError) as refused:
            raise LeadFileError(f"{name}: {refused}") from None
    return _mapped(name, found, mapping)


def _from_file(file: _File, sheet: str | int | None, encoding: str | None,
               limits: FileLimits, phones: list[str]) -> _Read:
    """A file's frame and what was found reading it, each limit checked first."""
    if file.head.startswith(_EXCEL_MAGIC):
        check_workbook(file.path, file.whole, file.name, limits)
        check_parts(file.data(), file.name, limits)
        book = read_workbook(file.data(), sheet, phones)
        return _Read(_as_text(book.frame), book.numbers,
                     {"sheet": book.name, "header_row": book.header_row,
                      "formulas": book.formulas, "hidden_sheet": book.hidden})
    return _from_text(file, encoding, limits, phones)


@dataclass
class _File:
    """A file to read: its name, its first bytes, and where the rest is.

    A plain UTF-8 file on disk is parsed by pyarrow from its path, so its
    bytes are never held in Python besides the parsed columns.
    """

    name: str
    head: bytes
    path: Path | None = None
    whole: bytes | None = None

    def data(self) -> bytes:
        """Every byte of the file."""
        if self.whole is None:
            assert self.path is not None
            self.whole = self.path.read_bytes()
        return self.whole


def cannot_open(path: Path, error: OSError) -> LeadFileError:
    """A lead file that cannot be opened, named as given, with the system's reason."""
    return LeadFileError(f"{path}: cannot be opened ({error.strerror or error})")


def _load(source: str | os.PathLike[str] | IO[bytes] | ArrowStream) -> _File:
    if hasattr(source, "read"):
        data = bytes(source.read())
        return _File(str(getattr(source, "name", "the file")), data[:SNIFFED], whole=data)
    if not isinstance(source, str | os.PathLike):
        raise TypeError(f"source must be {SOURCES}, not {type(source).__name__}")
    path = Path(source)
    try:
        with path.open("rb") as opened:
            head = opened.read(SNIFFED)
    except OSError as exc:
        raise cannot_open(path, exc) from None
    if len(head) < SNIFFED and not head.strip():
        raise LeadFileError(f"{path}: the file is empty; expected a header line and rows")
    return _File(str(path), head, path)


def _from_text(file: _File, encoding: str | None, limits: FileLimits,
               phones: list[str]) -> _Read:
    """A CSV, TSV or TXT file's frame, its delimiter, header line and encoding.

    UTF-8 goes to pyarrow's CSV reader as it is (from the path when there is
    one; the reader checks it); other encodings, and a file that turns out not to
    be UTF-8 as a whole, are turned into UTF-8 first (:func:`decode`).
    """
    plain = (encoding is None and file.path is not None and b"\x00" not in file.head
             and not file.head.startswith(tuple(bom for bom, _ in BOMS)))
    if plain:
        try:
            frame, found = _parsed(file.head, Path(str(file.path)), file.name, limits, phones)
            return _Read(frame, _no_numbers(), _about(found, "utf-8"))
        except _NotUtf8:
            pass
    decoded = decode(file.data(), encoding)
    frame, found = _parsed(decoded.utf8, decoded.utf8, file.name, limits, phones)
    about = _about(found, decoded.encoding)
    if decoded.other_lines:
        about.update(other_encoding_lines=decoded.other_lines, other_encoding=decoded.other)
    return _Read(frame, _no_numbers(), about)


def _about(found: Layout, encoding: str) -> dict[str, Any]:
    return {"encoding": encoding, "delimiter": found.delimiter, "header_row": found.header_line}


class _NotUtf8(Exception):
    """The bytes given to the CSV reader are not valid UTF-8."""


def _parsed(head: bytes, source: bytes | Path, name: str, limits: FileLimits,
            phones: list[str]) -> tuple[pd.DataFrame, Layout]:
    """Every column as text, by pyarrow's reader; rows of another width by pandas'.

    ``source`` is the UTF-8 text or the path of a UTF-8 file, ``head`` its
    first bytes, from which the delimiter and the header's line are found
    (:func:`layout`); its lines are checked against ``limits`` before either
    reads it, and a block holds two of the longest lines allowed. A blank line
    is read as a row (so that the rows after it keep their numbers) and left out
    later. pyarrow refuses a row whose width differs from the header's, where
    pandas fills a short row with empty cells and names the line of a long one:
    such a file is read again by pandas. One thread: on two cores it is as fast,
    and holds less memory at once.
    """
    found = layout(head[:SNIFFED].decode("utf-8", errors="ignore"), name, phones)
    check_delimited(source, found.delimiter, name, limits)
    try:
        table = pacsv.read_csv(
            pa.BufferReader(source) if isinstance(source, bytes) else str(source),
            **csv_options(found, max(_BLOCK, 2 * limits.max_line_bytes)))
    except UnicodeDecodeError:  # a header that is not UTF-8
        raise _NotUtf8 from None
    except pa.ArrowException as exc:
        if "UTF8" in str(exc) or "UTF-8" in str(exc):
            raise _NotUtf8 from None
        if "columns" in str(exc) or "Empty CSV" in str(exc):
            return _ragged(_bytes(source), found, name), found
        raise LeadFileError(f"{name}: it is not valid CSV ({str(exc)[:200]})") from None
    if any(kind != pa.large_string() for kind in table.schema.types):  # a header read apart
        return _ragged(_bytes(source), found, name), found
    return text_frame(table.rename_columns(unique_headers(table.column_names))), found


def csv_options(found: Layout, block: int, encoding: str = "utf8",
                **parse: Any) -> dict[str, Any]:
    """pyarrow's options for a CSV of ``found``'s layout: every column text, only an empty
    cell missing (:data:`MISSING`), a blank line a row (so that the rows after it keep
    their numbers), one thread."""
    return {"parse_options": pacsv.ParseOptions(delimiter=found.delimiter,
                                                newlines_in_values=True,
                                                ignore_empty_lines=False, **parse),
            "read_options": pacsv.ReadOptions(use_threads=False, block_size=block,
                                              skip_rows=found.skip, encoding=encoding),
            "convert_options": pacsv.ConvertOptions(
                column_types=dict.fromkeys(found.header, pa.large_string()),
                null_values=MISSING, strings_can_be_null=True,
                quoted_strings_can_be_null=True)}


def _bytes(source: bytes | Path) -> bytes:
    return source if isinstance(source, bytes) else source.read_bytes()


def _ragged(utf8: bytes, found: Layout, name: str) -> pd.DataFrame:
    """pandas' reading of a file whose rows are not all as wide as its header.

    A short row is filled with empty cells. A row wider than the header is
    refused, naming its line, unless its extra cells are empty (a delimiter
    after the last cell, as some exports end every line): those are dropped.
    pandas is given the widest row's width, so it never takes a wide first row's
    first cell for an index and shifts every column by one, as it does unasked.
    """
    try:
        text = utf8.decode("utf-8")
    except UnicodeDecodeError:
        raise _NotUtf8 from None
    if found.skip:
        text = text.split("\n", found.skip)[-1]
    width = widest(io.StringIO(text), found, name)
    try:
        frame = pd.read_csv(io.StringIO(text), sep=found.delimiter, dtype=str, header=None,
                            names=range(width), keep_default_na=False,
                            skip_blank_lines=False)
    except pd.errors.ParserError:
        raise LeadFileError(f"{name}: it is not valid CSV") from None
    except pd.errors.EmptyDataError:
        raise LeadFileError(f"{name}: the file has no header line") from None
    header = frame.iloc[0, :len(found.header)].fillna("").tolist()
    frame = frame.iloc[1:, :len(found.header)].set_axis(unique_headers(header), axis=1)
    return _as_text(frame)


def widest(lines: Iterable[str], found: Layout, name: str) -> int:
    """The most cells a row of ``lines`` (the file's after the lines before its header)
    has; ``LeadFileError`` naming the first line whose cells beyond the header's width
    hold anything."""
    columns = len(found.header)
    rows = csv.reader(lines, delimiter=found.delimiter)
    try:
        return max([columns, *(_width(row, rows.line_num + found.skip, columns, found, name)
                             for row in rows)])
    except csv.Error:
        raise LeadFileError(f"{name}: line {rows.line_num + found.skip} is not valid CSV (a "
                            "cell over 131,072 characters, or a quote left open)") from None


def _width(row: list[str], line: int, columns: int, found: Layout, name: str) -> int:
    """How many cells ``row`` has, refused when cells beyond the header's hold anything."""
    if len(row) > columns and any(cell.strip() for cell in row[columns:]):
        raise LeadFileError(
            f"{name}: line {line} has {len(row)} fields where the header has {columns}; "
            f"quote values that contain the delimiter ({shown(found.delimiter)})") from None
    return len(row)


def _from_frame(source: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A frame's columns as text; numeric columns' cells reported as numbers."""
    numbers: list[tuple[int, str, str]] = []
    columns: dict[str, Any] = {}
    for column in source.columns:
        series = source[column]
        if pd.api.types.infer_dtype(series, skipna=True) in ("string", "empty"):
            columns[str(column)] = series.to_numpy(dtype=object)  # text already: no loop
            continue
        values = series.astype(object).where(series.notna(), None)
        columns[str(column)] = [cell_text(v, n, str(column), numbers)
                                for n, v in enumerate(values.tolist(), start=1)]
    frame = pd.DataFrame(columns, index=pd.RangeIndex(len(source)), dtype=object)
    return _as_text(frame), pd.DataFrame(numbers, columns=["row", "column", "text"])


def _as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """Every column as text, empty cells missing, a fresh 0-based index."""
    frame = frame.astype(TEXT).reset_index(drop=True)
    return frame.mask(frame == "")


def text_frame(table: pa.Table) -> pd.DataFrame:
    """An Arrow table as a frame, its ``large_string`` columns as pyarrow-backed text
    (no copy: empty cells are already missing)."""
    frame: pd.DataFrame = table.to_pandas(
        types_mapper={pa.large_string(): pd.StringDtype("pyarrow")}.get)
    return frame


def _no_numbers() -> pd.DataFrame:
    return pd.DataFrame({"row": pd.Series(dtype="int64"), "column": pd.Series(dtype=str),
                         "text": pd.Series(dtype=str)})


def _without_blank_rows(frame: pd.DataFrame) -> tuple[pd.DataFrame, tuple[int, ...]]:
    """The frame without rows whose every cell is empty or spaces, and those rows'
    numbers (``index + 1``); the rest keep their index, and so their numbers. Each
    column is tested whole, as bitmaps (no copy of its text), until no row is left
    that could be blank: the first column usually settles most."""
    blank = np.ones(len(frame), dtype=bool)
    for column in frame.columns:
        values = pa.array(frame[column], type=pa.large_string())
        empty = pc.or_kleene(pc.is_null(values), pc.or_kleene(pc.equal(values, ""),
                                                               pc.utf8_is_space(values)))
        blank &= pc.fill_null(empty, True).to_numpy(zero_copy_only=False)
        if not blank.any():
            return frame, ()
    return frame[~blank], tuple((frame.index[blank] + 1).tolist())


def _mapped(name: str, found: _Read, mapping: Mapping[str, str] | None) -> LeadFile:
    fields, custom, unused = mapped_columns(name, [str(c) for c in found.frame.columns],
                                            found.about, mapping)
    frame, blank = _without_blank_rows(found.frame) if found.blank_rows else (found.frame, ())
    if frame.empty:
        raise LeadFileError(f"{name}: the file has a header but no rows"
                            f"{f' ({len(blank)} blank)' if blank else ''}")
    return LeadFile(name, frame, fields, custom, unused, found.numbers, blank_rows=blank,
                    **found.about)


def mapped_columns(name: str, columns: Sequence[str], about: Mapping[str, Any],
                   mapping: Mapping[str, str] | None) -> tuple[dict[str, str], list[str],
                                                               list[str]]:
    """The lead fields of a file's columns (:func:`map_headers`), its custom fields and
    the columns past their limit; refused, naming the file, when ``mapping`` names a
    field or column it cannot or no column holds phones. ``about`` is what reading found
    (a text file's delimiter and header line, for the refusal)."""
    unknown = [name for name in (mapping or {}) if name not in ALIASES]
    if unknown:
        raise LeadFileError(f"mapping= names fields a lead does not have: {', '.join(unknown)}; "
                            f"map any of {', '.join(ALIASES)}")
    missing = [column for column in (mapping or {}).values() if column not in columns]
    if missing:
        raise LeadFileError(f"{name}: mapping= names columns the file does not have: "
                            f"{', '.join(missing)}; its columns are {', '.join(columns)}"
                            f"{_split(about)}")
    fields, custom, unused = map_headers(columns, mapping)
    if "phone" not in fields:
        raise LeadFileError(f"{name}: no phone column among {', '.join(columns) or 'none'}"
                            f"{_split(about)}; name one phone, mobile, cell or telephone, or "
                            "pass mapping={'phone': '<column>'}")
    return fields, custom, unused


def _split(about: Mapping[str, Any]) -> str:
    """How a text file's columns were found, for an error about its columns."""
    delimiter = about.get("delimiter")
    if delimiter is None:
        return ""
    tried = ", ".join(shown(d) for d in DELIMITERS)
    return (f" (the header on line {about['header_row']}, split at "
            f"{shown(delimiter)}; tried {tried})")
