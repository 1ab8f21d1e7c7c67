"""Reading lead files (CSV, TSV, Excel, or a DataFrame) as text, with their columns mapped.

Vendors and web forms export phones in every shape, and the usual readers
damage them on the way in: pandas turns a phone column into floats and drops
leading zeros, Excel has already stored some cells as numbers. So every
column is read as text, the cells a workbook holds as numbers are reported,
and a file that cannot be read raises one :class:`LeadFileError` in words,
never a codec's or pandas' traceback.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import IO, Any, TypeAlias

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv
from python_calamine import CalamineWorkbook

from ._headers import ALIASES, map_headers
from ._limits import FileLimits, LimitError, check_delimited, check_workbook

Source: TypeAlias = "str | os.PathLike[str] | IO[bytes] | pd.DataFrame"
"""What :func:`read` takes: a path, a binary file object, or a DataFrame."""

TEXT = "string[pyarrow]"
_EXCEL_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")  # xlsx/xlsm/ods (zip), xls (OLE)
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
_SNIFFED = 65_536
_BLOCK = 1 << 20  # pyarrow's default block: a line must fit in one
_RAGGED = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")


class LeadFileError(ValueError):
    """A lead file that cannot be read: the message names the file and the cause."""


@dataclass(frozen=True)
class LeadFile:
    """A lead file read as text, with its columns mapped to lead fields.

    Attributes:
        name: The file's name (``"DataFrame"`` for a frame).
        frame: Every column of the file as text (``string[pyarrow]``), empty cells
            missing, in file order; ``frame.index + 1`` is the data line.
        fields: Lead field (and ``country``) → the column that holds it.
        custom_fields: Columns sent as custom fields (at most 20, the contract's limit).
        unused: Columns beyond the 20 custom fields: reported, never sent.
        numbers: Cells the file held as numbers (``row``, ``column``, ``text``): an
            Excel cell that Excel already turned into a number, which may have
            lost a leading zero or digits before dialkit read it.
        encoding: The text encoding read, ``None`` for a workbook or a frame.
    """

    name: str
    frame: pd.DataFrame
    fields: dict[str, str]
    custom_fields: list[str]
    unused: list[str]
    numbers: pd.DataFrame = field(repr=False)
    encoding: str | None = None


def read(source: Source, *, sheet: str | int | None = None,
         mapping: Mapping[str, str] | None = None, encoding: str | None = None,
         limits: FileLimits | None = None) -> LeadFile:
    """Read a lead file as text and map its headers to lead fields.

    Args:
        source: A CSV or TSV file (delimiter sniffed), an XLSX or XLS workbook, a
            binary file object of one, or a DataFrame.
        sheet: The workbook's sheet, by name or 0-based index; the first by default.
        mapping: Lead field → column, over the names found (``{"phone": "Mobil"}``).
        encoding: The text encoding; by default UTF-8 or UTF-16 by their byte order
            mark, else UTF-8 if the file is valid UTF-8, else cp1252 (latin-1 for
            the bytes cp1252 leaves undefined).
        limits: What a file may hold, checked before it is parsed (columns and line
            length of a CSV, a workbook's uncompressed size and compression ratio);
            by default :class:`FileLimits`' defaults and their ``DIALKIT_MAX_*``
            variables. :func:`clean` and :func:`import_leads` take what this returns.

    Raises:
        LeadFileError: The file cannot be read, holds no rows, has no phone column, or
            is past a limit.

    Example:
        >>> leads = dialkit.leads.read("vendor.csv")  # doctest: +SKIP
        >>> leads.fields["phone"], len(leads.frame)  # doctest: +SKIP
    """
    if isinstance(source, pd.DataFrame):
        name, encoding_read = "DataFrame", None
        frame, numbers = _from_frame(source)
    else:
        file = _load(source)
        try:
            frame, numbers, encoding_read = _from_file(file, sheet, encoding,
                                                       limits or FileLimits.from_env())
        except LimitError as refused:
            raise LeadFileError(str(refused)) from None
        name = file.name
    return _mapped(name, frame, numbers, mapping, encoding_read)


def _from_file(file: _File, sheet: str | int | None, encoding: str | None,
               limits: FileLimits) -> tuple[pd.DataFrame, pd.DataFrame, str | None]:
    """A file's frame, its numeric cells and the encoding read, each limit checked first."""
    if file.head.startswith(_EXCEL_MAGIC):
        check_workbook(file.path, file.whole, file.name, limits)
        frame, numbers = _from_workbook(file.data(), sheet, file.name)
        return frame, numbers, None
    frame, encoding_read = _from_text(file, encoding, limits)
    return frame, _no_numbers(), encoding_read


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


def _load(source: str | os.PathLike[str] | IO[bytes]) -> _File:
    if hasattr(source, "read"):
        data = bytes(source.read())
        return _File(str(getattr(source, "name", "the file")), data[:_SNIFFED], whole=data)
    path = Path(source)
    try:
        with path.open("rb") as opened:
            head = opened.read(_SNIFFED)
    except OSError as exc:
        raise LeadFileError(f"{path}: cannot be opened ({exc.strerror or exc})") from None
    if len(head) < _SNIFFED and not head.strip():
        raise LeadFileError(f"{path}: the file is empty; expected a header line and rows")
    return _File(str(path), head, path)


def _from_text(file: _File, encoding: str | None,
               limits: FileLimits) -> tuple[pd.DataFrame, str]:
    """A CSV or TSV file's frame and the encoding it was read in.

    UTF-8 goes to pyarrow's CSV reader as it is (from the path when there is
    one; the reader checks it); other encodings are turned into UTF-8 first. A
    file that is not valid UTF-8 and names no encoding is read as a Western
    single-byte file.
    """
    plain = (encoding is None and file.path is not None and b"\x00" not in file.head
             and not file.head.startswith(tuple(bom for bom, _ in _BOMS)))
    try:
        if plain:
            return _parsed(file.head, str(file.path), file.name, limits), "utf-8"
        utf8, found = _as_utf8(file.data(), encoding, file.name)
        return _parsed(utf8, utf8, file.name, limits), found
    except _NotUtf8:
        if not plain and (encoding is not None or found != "utf-8"):
            raise LeadFileError(f"{file.name}: cannot be read as {found} (invalid bytes); leave "
                                "encoding= out to detect it, or name the right one") from None
    utf8, found = _legacy(file.data())
    return _parsed(utf8, utf8, file.name, limits), found


class _NotUtf8(Exception):
    """The bytes given to the CSV reader are not valid UTF-8."""


def _as_utf8(data: bytes, encoding: str | None, name: str) -> tuple[bytes, str]:
    """The file as UTF-8 bytes and the encoding read: ``encoding``, a BOM's, or UTF-8."""
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
            if codec == "utf-8":
                return data.removeprefix(codecs.BOM_UTF8), encoding
            return data.decode(encoding).encode("utf-8"), encoding
        except (UnicodeDecodeError, LookupError) as exc:
            cause = exc.reason if isinstance(exc, UnicodeDecodeError) else "unknown encoding"
            raise LeadFileError(f"{name}: cannot be read as {encoding} ({cause}); leave "
                                "encoding= out to detect it") from None
    for bom, found in _BOMS:
        if data.startswith(bom):
            if found == "utf-8-sig":
                return data[len(bom):], found
            return data.decode(found, errors="replace").encode("utf-8"), found
    if b"\x00" in data[:_SNIFFED]:
        raise LeadFileError(f"{name}: this is a binary file, not a CSV or Excel lead file")
    return data, "utf-8"


def _legacy(data: bytes) -> tuple[bytes, str]:
    """A Western single-byte file: cp1252, or latin-1 where cp1252 leaves a byte undefined.

    Not a statistical guess: on short Western lists charset-normalizer picked
    Baltic and Central European code pages for cp1252 files (``Zoë`` read as
    ``Zoļ``). Files in other code pages name theirs with ``encoding=``.
    """
    try:
        return data.decode("cp1252").encode("utf-8"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1").encode("utf-8"), "latin-1"


def _parsed(head: bytes, source: bytes | str, name: str, limits: FileLimits) -> pd.DataFrame:
    """Every column as text, by pyarrow's reader; rows of another width by pandas'.

    ``source`` is the UTF-8 text or the path of a UTF-8 file, ``head`` its
    first bytes; its lines are checked against ``limits`` before either reads
    it, and a block holds two of the longest lines allowed. pyarrow refuses a
    row whose width differs from the header's, where pandas fills a short row
    with empty cells and names the line of a long one: such a file is read
    again by pandas. One thread: on two cores it is as fast, and holds less
    memory at once.
    """
    sample = head[:_SNIFFED].decode("utf-8", errors="ignore")
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        delimiter = "\t" if name.lower().endswith((".tsv", ".tab")) else ","
    check_delimited(source if isinstance(source, bytes) else Path(source), delimiter, name,
                    limits)
    parse = pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True)
    header = _header(sample, delimiter)
    block = max(_BLOCK, 2 * limits.max_line_bytes)
    try:
        table = pacsv.read_csv(
            pa.BufferReader(source) if isinstance(source, bytes) else source,
            parse_options=parse,
            read_options=pacsv.ReadOptions(use_threads=False, block_size=block),
            convert_options=pacsv.ConvertOptions(
                column_types=dict.fromkeys(header, pa.large_string()),
                strings_can_be_null=True, quoted_strings_can_be_null=True))
    except UnicodeDecodeError:  # a header that is not UTF-8
        raise _NotUtf8 from None
    except pa.ArrowException as exc:
        if "UTF8" in str(exc) or "UTF-8" in str(exc):
            raise _NotUtf8 from None
        if "columns" in str(exc) or "Empty CSV" in str(exc):
            return _ragged(source if isinstance(source, bytes) else Path(source).read_bytes(),
                           delimiter, name)
        raise LeadFileError(f"{name}: it is not valid CSV ({str(exc)[:200]})") from None
    if any(kind != pa.large_string() for kind in table.schema.types):  # a header read apart
        return _ragged(source if isinstance(source, bytes) else Path(source).read_bytes(),
                       delimiter, name)
    table = table.rename_columns(_headers(table.column_names))
    # empty cells are already missing, and the columns stay pyarrow's: no copy
    frame: pd.DataFrame = table.to_pandas(
        types_mapper={pa.large_string(): pd.StringDtype("pyarrow")}.get)
    return frame


def _header(sample: str, delimiter: str) -> list[str]:
    """The header's names as the standard library reads them (for pyarrow's column types;
    a header it reads otherwise than pyarrow is caught by the types that follow)."""
    try:
        rows = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter)
        return next((row for row in rows if row), [])
    except csv.Error:
        return []


def _headers(names: Sequence[str]) -> list[str]:
    """Header names made unique as pandas makes them (``a``, ``a.1``), a blank one named
    by its position."""
    seen: dict[str, int] = {}
    unique = []
    for n, raw in enumerate(names):
        header = raw.strip() and raw or f"column {n + 1}"
        count = seen.get(header, 0)
        seen[header] = count + 1
        unique.append(header if count == 0 else f"{header}.{count}")
    return unique


def _ragged(utf8: bytes, delimiter: str, name: str) -> pd.DataFrame:
    """pandas' reading of a file whose rows are not all as wide as its header."""
    try:
        text = utf8.decode("utf-8")
    except UnicodeDecodeError:
        raise _NotUtf8 from None
    try:
        frame = pd.read_csv(io.StringIO(text), sep=delimiter, dtype=str, keep_default_na=False,
                            skip_blank_lines=True)
    except pd.errors.ParserError as exc:
        ragged = _RAGGED.search(str(exc))
        cause = (f"line {ragged[2]} has {ragged[3]} fields where the header has {ragged[1]}; "
                 "quote values that contain the delimiter") if ragged else "it is not valid CSV"
        raise LeadFileError(f"{name}: {cause}") from None
    except pd.errors.EmptyDataError:
        raise LeadFileError(f"{name}: the file has no header line") from None
    return _as_text(frame)


def _from_workbook(data: bytes, sheet: str | int | None,
                   name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(data))
        chosen = sheet if sheet is not None else 0
        if isinstance(chosen, str) and chosen not in book.sheet_names:
            raise LeadFileError(f"{name}: no sheet {chosen!r}; its sheets are "
                                f"{', '.join(book.sheet_names)}")
        table = (book.get_sheet_by_name(chosen) if isinstance(chosen, str)
                 else book.get_sheet_by_index(chosen)).to_python(skip_empty_area=True)
    except LeadFileError:
        raise
    except Exception as exc:  # calamine's errors are not one documented class
        raise LeadFileError(f"{name}: cannot be read as an Excel workbook "
                            f"({type(exc).__name__}: {str(exc)[:200]})") from None
    if not table:
        raise LeadFileError(f"{name}: the sheet is empty; expected a header row and rows")
    header = [_cell_text(cell) or f"column {n + 1}" for n, cell in enumerate(table[0])]
    numbers: list[tuple[int, str, str]] = []
    rows = [[_cell(cell, line, column, numbers) for cell, column in zip(row, header, strict=False)]
            for line, row in enumerate(table[1:], start=1)]
    frame = pd.DataFrame(rows, columns=header, dtype=object)
    return _as_text(frame), pd.DataFrame(numbers, columns=["row", "column", "text"])


def _cell(value: Any, line: int, column: str, numbers: list[tuple[int, str, str]]) -> str | None:
    """A workbook cell as text; a numeric cell is reported in ``numbers``."""
    text = _cell_text(value)
    if isinstance(value, int | float) and not isinstance(value, bool) and text is not None:
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
        columns[str(column)] = [_cell(v, n, str(column), numbers)
                                for n, v in enumerate(values.tolist(), start=1)]
    frame = pd.DataFrame(columns, index=pd.RangeIndex(len(source)), dtype=object)
    return _as_text(frame), pd.DataFrame(numbers, columns=["row", "column", "text"])


def _as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """Every column as text, empty cells missing, a fresh 0-based index."""
    frame = frame.astype(TEXT).reset_index(drop=True)
    return frame.mask(frame == "")


def _no_numbers() -> pd.DataFrame:
    return pd.DataFrame({"row": pd.Series(dtype="int64"), "column": pd.Series(dtype=str),
                         "text": pd.Series(dtype=str)})


def _mapped(name: str, frame: pd.DataFrame, numbers: pd.DataFrame,
            mapping: Mapping[str, str] | None, encoding: str | None) -> LeadFile:
    columns: Sequence[str] = [str(c) for c in frame.columns]
    unknown = [name for name in (mapping or {}) if name not in ALIASES]
    if unknown:
        raise LeadFileError(f"mapping= names fields a lead does not have: {', '.join(unknown)}; "
                            f"map any of {', '.join(ALIASES)}")
    missing = [column for column in (mapping or {}).values() if column not in columns]
    if missing:
        raise LeadFileError(f"{name}: mapping= names columns the file does not have: "
                            f"{', '.join(missing)}; its columns are {', '.join(columns)}")
    fields, custom, unused = map_headers(columns, mapping)
    if "phone" not in fields:
        raise LeadFileError(f"{name}: no phone column among {', '.join(columns) or 'none'}; "
                            "name one phone, mobile, cell or telephone, or pass "
                            "mapping={'phone': '<column>'}")
    if frame.empty:
        raise LeadFileError(f"{name}: the file has a header but no rows")
    return LeadFile(name, frame, fields, custom, unused, numbers, encoding)
