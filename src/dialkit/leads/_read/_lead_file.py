"""Reading lead files (CSV, TSV, Excel, or a DataFrame) as text, with their columns mapped.

Vendors and web forms export phones in every shape, and the usual readers
damage them on the way in: pandas turns a phone column into floats and drops
leading zeros, Excel has already stored some cells as numbers. So every
column is read as text, the cells a workbook holds as numbers are reported,
and a file that cannot be read raises one :class:`LeadFileError` in words,
never a codec's or pandas' traceback. What was found rather than given (the
delimiter, the header's line, the sheet, the encoding of each line, the blank
rows skipped, a row with more fields than the header) is reported in
:class:`LeadFile`, never assumed silently.

Files as other tools save them: a CSV saved by Excel for Mac ends its lines
in a lone carriage return and writes Mac OS Roman, and is read so; a row with more
fields than its header (a value with the delimiter left unquoted) is held, named by its
line, and the rest read; a file without a header line (``header=None``, a dialer's list
upload) has its columns named by place from 0, as pandas names them, and ``mapping``
names a column by its name or its place.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple, TypeAlias

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._files._file_limits import (
    DELIMITERS,
    FileLimits,
    check_workbook,
    line_end,
)
from dialkit._shown._words import counted, noun
from dialkit.contract import MAX_CUSTOM_FIELDS
from dialkit.frames import ACCEPTED, ArrowStream, as_pandas, is_tabular

from ..._files._encoding import BOMS, SNIFFED, decode
from ..._utils._base_error import (
    EncodingError,
    InputError,
    LeadFileError,  # noqa: F401
    LimitError,
    WorkbookError,
)
from ._delimiter import MISSING as MISSING  # LeadFile's docs name it here
from ._delimiter import NotUtf8, Parsed, as_text, parse, shown
from ._delimiter import text_frame as text_frame  # as the clean's modules import it
from ._headers import ALIASES, map_headers
from ._phone_cells import SAMPLE_ROWS, phone_cells
from ._workbook import cell_text, read_workbook
from ._workbook_limits import check_parts

Source: TypeAlias = "str | os.PathLike[str] | IO[bytes] | pd.DataFrame | ArrowStream"
"""What :func:`read` takes: a path, a binary file object, or a frame (pandas', Polars', a
pyarrow Table)."""
SOURCES = f"a path, a binary file object, or {ACCEPTED}"
"""What :func:`read` takes, as its refusal says."""
Header: TypeAlias = Literal["infer"] | None
"""A file's header line, as pandas' ``header=`` says it: ``"infer"``, found among the first
lines (:func:`read`), or ``None``, none: the first line is a row."""
ColumnMap: TypeAlias = "Mapping[str, str | int]"
"""``mapping=``: lead field → the column that holds it, by its name or by its place (an
``int``, from 0, as pandas counts columns)."""
MAC_ROMAN = "mac_roman"
"""The encoding of a file that is not UTF-8 and whose lines end in a lone carriage return:
Excel for Mac writes its "CSV (Macintosh)" so (cp1252 would read its ``é`` as ``Ž``)."""

_EXCEL_MAGIC = (b"PK\x03\x04", b"\xd0\xcf\x11\xe0")  # xlsx/xlsm/ods (zip), xls (OLE)


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
            titles and blank lines above it are skipped. ``None`` for a frame, and for a
            file read with ``header=None`` (its columns named by place: ``0``, ``1``, ...).
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
        held_rows: Data rows of a text file with more fields than its header, the cells
            past its last column holding something (a value with the delimiter left
            unquoted: the row's cells do not match its columns): each row's number → why,
            naming its line. The row is in ``frame`` with its first cells; the clean
            refuses it ``extra_fields``, never a lead.
        phone_cells: The columns read as phones by their cells, the phone's first, where
            no header names a phone and ``mapping`` names none (``Number``, or a file
            read with ``header=None``); empty where a header or ``mapping`` does.
        numberless: Columns whose cells are written as phones, but none of whose first
            rows' cells is a valid number where another such column's are (a register's
            8-digit numbers beside its phones): the clean sends them as custom fields,
            neither the phone nor its fallbacks (:func:`read` alone knows no region, and
            leaves this empty).
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
    held_rows: Mapping[int, str] = field(default_factory=dict, repr=False)
    phone_cells: tuple[str, ...] = ()
    numberless: tuple[str, ...] = ()

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
        if self.header_row is None and (self.delimiter or self.sheet) is not None:
            notes.append(f"no header line: the first line is a row, the columns named by "
                         f"place, 0 to {len(self.frame.columns) - 1}")
        if blank := len(self.blank_rows):
            notes.append(f"{blank} {noun(blank, 'blank row')} skipped ({noun(blank, 'row')} "
                         f"{_listed(self.blank_rows)})")
        if self.other_encoding_lines:
            notes.append(f"{noun(len(self.other_encoding_lines), 'line')} "
                         f"{_listed(self.other_encoding_lines)} read as {self.other_encoding} "
                         f"(the rest {self.encoding})")
        if held := len(self.held_rows):
            words = list(self.held_rows.values())
            leads = "a lead" if held == 1 else "leads"
            notes.append(f"{counted(held, 'row')} with more fields than the header held, not "
                         f"read as {leads} (refused extra_fields): " + "; ".join(words[:3])
                         + (f"; and {held - 3} more" if held > 3 else ""))
        if formulas := len(self.formulas):
            notes.append(f"{formulas} {noun(formulas, 'formula cell')} without a value (the "
                         "workbook was saved uncalculated)")
        if self.unused:
            notes.append(f"{counted(len(self.unused), 'column')} past the {MAX_CUSTOM_FIELDS} "
                         f"custom fields a lead may carry, not sent: {_listed(self.unused)}"
                         " (drop the columns not needed, so that those needed fit)")
        return notes


def _utf8(encoding: str) -> bool:
    """Whether ``encoding`` is UTF-8, with a byte order mark or without."""
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def _listed(numbers: Sequence[int | str], shown_at_most: int = 10) -> str:
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
         mapping: ColumnMap | None = None, encoding: str | None = None,
         limits: FileLimits | None = None, header: Header = "infer") -> LeadFile:
    """Read a lead file as text and map its headers to lead fields.

    Args:
        source: A CSV, TSV or TXT file, an XLSX or XLS workbook, a binary file
            object of one, or a frame: pandas', Polars' or a pyarrow Table. A text
            file's delimiter is the one of ``, ; tab |`` that gives a phone column and
            rows as wide as the header; its header is the first of its first 20 lines
            with a phone-like name. Its lines may end in LF, CR LF, or a lone CR (a CSV
            saved by Excel for Mac). A row with more fields than the header, the cells
            past its last column holding something, is held (:attr:`LeadFile.held_rows`)
            and the rest read.
        sheet: The workbook's sheet, by name or 0-based index; by default the first,
            or the only other sheet that has a phone column.
        mapping: Lead field → column, by the column's name (``{"phone": "Mobil"}``) or
            its place from 0, as pandas counts columns (``{"phone": 0}``).
        encoding: The text encoding; by default UTF-8 or UTF-16 by their byte order
            mark, else UTF-8 if the file is valid UTF-8, else Mac OS Roman if its lines
            end in a lone CR (Excel for Mac's "CSV (Macintosh)"), else each line in UTF-8
            if it reads so and cp1252 if not (latin-1 for the bytes cp1252 leaves
            undefined). An encoding that contradicts the file's byte order mark is refused.
        limits: What a file may hold, checked before it is parsed (columns and line
            length of a CSV, a workbook's uncompressed size and compression ratio);
            by default :class:`FileLimits`' defaults and their ``DIALKIT_MAX_*``
            variables. :func:`clean` and :func:`import_leads` take what this returns.
        header: ``None`` for a file without a header line (a dialer's list upload: numbers
            alone, or ``number,name,...``): its first line is a row, and its columns are
            named by place, ``"0"``, ``"1"``, ..., as ``pd.read_csv(..., header=None)``
            names them; name the phone's with ``mapping={"phone": 0}``. By default
            (``"infer"``) the header is found as above.

    Raises:
        LeadFileError: The file cannot be read, holds no rows, has no phone column, or
            is past a limit.
        InputError: ``header`` is neither ``"infer"`` nor ``None``, or ``None`` for a
            frame (whose columns are named already).
        TypeError: ``source`` is none of these.

    Examples:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
        ...     _ = file.write("Mobile,Name,E-mail\\n(415) 555-0199,Ada,ada@example.com\\n"
        ...                    "212.555.0142,Alan,\\nnot a phone,Nobody,\\n")
        >>> leads = dialkit.leads.read("vendor.csv")
        >>> leads.fields["phone"], len(leads.frame)
        ('Mobile', 3)
        >>> with open("upload.csv", "w") as file:  # a dialer's upload: no header line
        ...     _ = file.write("(415) 555-0199,Ada\\n212.555.0142,Alan\\n")
        >>> leads = dialkit.leads.read("upload.csv", header=None, mapping={"phone": 0})
        >>> leads.fields["phone"], len(leads.frame)
        ('0', 2)
    """
    named = header_named(header, tabular := is_tabular(source))
    if tabular:
        name = type(source).__name__  # DataFrame (pandas' or Polars'), Table (pyarrow's)
        found = _Read(*_from_frame(as_pandas(source, "source")),
                      blank_rows=False)  # a frame's rows are its own
    else:
        file = _load(source)
        name = file.name
        try:
            found = _from_file(file, sheet, encoding, limits or FileLimits.from_env(),
                               phone_names(mapping), named)
        except LimitError as refused:
            raise LeadFileError(str(refused)) from None
        except (EncodingError, WorkbookError) as refused:
            raise LeadFileError(f"{name}: {refused}") from None
    return _mapped(name, found, mapping)


def header_named(header: Any, tabular: bool = False) -> bool:
    """Whether a file read with ``header=`` has a header line (``"infer"``), or not
    (``None``); refused where it is another value, or ``None`` for a frame."""
    if header is None and tabular:
        raise InputError("header=None: a frame has no header line to leave out, its columns "
                         "are named already; for a file without one, read it with "
                         "pd.read_csv(..., header=None) or pass the file's path")
    if header is None or (isinstance(header, str) and header == "infer"):
        return header is not None
    raise InputError(f"header={header!r}: pass header=None for a file without a header "
                     "line (its columns named by place: 0, 1, 2 ...), or leave header= "
                     "out to find the header line")


def phone_names(mapping: ColumnMap | None) -> list[str | int]:
    """The phone column ``mapping`` names, by name or place, as the readers look for it
    (a header line with that name, a workbook's column whose number formats to read)."""
    column = (mapping or {}).get("phone")
    return [] if column is None else [column]


def _from_file(file: _File, sheet: str | int | None, encoding: str | None,
               limits: FileLimits, phones: list[str | int], named: bool) -> _Read:
    """A file's frame and what was found reading it, each limit checked first."""
    if file.head.startswith(_EXCEL_MAGIC):
        check_workbook(file.path, file.whole, file.name, limits)
        check_parts(file.data(), file.name, limits)
        book = read_workbook(file.data(), sheet, phones, named=named)
        return _Read(as_text(book.frame), book.numbers,
                     {"sheet": book.name, "header_row": book.header_row or None,
                      "formulas": book.formulas, "hidden_sheet": book.hidden})
    names = [column for column in phones if isinstance(column, str)]
    return _from_text(file, encoding, limits, names, named)


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
               phones: list[str], named: bool = True) -> _Read:
    """A CSV, TSV or TXT file's frame, its delimiter, header line and encoding.

    UTF-8 goes to pyarrow's CSV reader as it is (from the path when there is
    one; the reader checks it); other encodings, and a file that turns out not to
    be UTF-8 as a whole, are turned into UTF-8 first (:func:`decode`).
    """
    plain = (encoding is None and file.path is not None and b"\x00" not in file.head
             and not file.head.startswith(tuple(bom for bom, _ in BOMS)))
    if plain:
        try:
            parsed = parse(file.head, Path(str(file.path)), file.name, limits, phones, named)
            return _Read(parsed.frame, _no_numbers(), _about(parsed, "utf-8"))
        except NotUtf8:
            pass
    decoded = decode(file.data(), encoding or _mac_roman(file))
    parsed = parse(decoded.utf8, decoded.utf8, file.name, limits, phones, named)
    about = _about(parsed, decoded.encoding)
    if decoded.other_lines:
        about.update(other_encoding_lines=decoded.other_lines, other_encoding=decoded.other)
    return _Read(parsed.frame, _no_numbers(), about)


def _about(parsed: Parsed, encoding: str) -> dict[str, Any]:
    found = parsed.layout
    return {"encoding": encoding, "delimiter": found.delimiter,
            "header_row": found.header_line if found.named else None, "held_rows": parsed.held}



def _mac_roman(file: _File) -> str | None:
    """:data:`MAC_ROMAN` for a file whose lines end in a lone CR and that is not UTF-8 (nor
    marked as another encoding): Excel for Mac's "CSV (Macintosh)"."""
    if (line_end(file.head) != b"\r" or b"\x00" in file.head
            or file.head.startswith(tuple(bom for bom, _ in BOMS))):
        return None
    try:
        file.data().decode("utf-8")
    except UnicodeDecodeError:
        return MAC_ROMAN
    return None


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
    return as_text(frame), pd.DataFrame(numbers, columns=["row", "column", "text"])


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


def _mapped(name: str, found: _Read, mapping: ColumnMap | None) -> LeadFile:
    columns = mapped_columns(name, [str(c) for c in found.frame.columns], found.about,
                             mapping, lambda: found.frame.head(SAMPLE_ROWS))
    frame, blank = _without_blank_rows(found.frame) if found.blank_rows else (found.frame, ())
    if frame.empty:
        raise LeadFileError(f"{name}: the file has {'a header but ' * _named(found.about)}no "
                            f"rows{f' ({len(blank)} blank)' if blank else ''}")
    return LeadFile(name, frame, **columns._asdict(), numbers=found.numbers,
                    blank_rows=blank, **found.about)


def _named(about: Mapping[str, Any]) -> bool:
    """Whether a file read as ``about`` says has a header line (a frame's columns count)."""
    return about.get("header_row") is not None or about.get("delimiter", about.get(
        "sheet")) is None


class Columns(NamedTuple):
    """What a file's columns are read as: :class:`LeadFile`'s attributes of that name."""

    fields: dict[str, str]
    custom_fields: list[str]
    unused: list[str]
    phone_cells: tuple[str, ...] = ()


def mapped_columns(name: str, columns: Sequence[str], about: Mapping[str, Any],
                   mapping: ColumnMap | None,
                   rows: Callable[[], pd.DataFrame] | None = None) -> Columns:
    """The lead fields of a file's columns (:func:`map_headers`), its custom fields and
    the columns past their limit; where neither ``mapping`` nor a header names a phone,
    the columns whose cells hold phones (:func:`._phone_cells.phone_cells` of ``rows()``,
    the file's first rows). Refused, naming the file, when ``mapping`` names a field or
    column it cannot or no column holds phones. ``mapping`` names a column by its name
    or its place from 0 (:func:`by_name`). ``about`` is what reading found (a text
    file's delimiter and header line, for the refusal)."""
    unknown = [name for name in (mapping or {}) if name not in ALIASES]
    if unknown:
        raise LeadFileError(f"mapping= names fields a lead does not have: {', '.join(unknown)}; "
                            f"map any of {', '.join(ALIASES)}")
    named = by_name(name, columns, mapping)
    missing = [column for column in named.values() if column not in columns]
    if missing:
        raise LeadFileError(f"{name}: mapping= names columns the file does not have: "
                            f"{', '.join(missing)}; its columns are {', '.join(columns)}"
                            f"{_split(about)}")
    fields, custom, unused = map_headers(columns, named or None)
    by_cells: tuple[str, ...] = ()
    if "phone" not in fields and rows is not None and not _row_as_header(columns, about):
        by_cells = tuple(phone_cells(rows().set_axis(columns, axis=1), set(fields.values())))
    if by_cells:
        fields = {"phone": by_cells[0], **fields}
        rest = [column for column in [*custom, *unused] if column != by_cells[0]]
        custom, unused = rest[:MAX_CUSTOM_FIELDS], rest[MAX_CUSTOM_FIELDS:]
    if "phone" not in fields:
        raise LeadFileError(f"{name}: no phone column among {', '.join(columns) or 'none'}"
                            f"{_split(about)}; {_naming(columns, about)}")
    return Columns(fields, custom, unused, by_cells)


def by_name(name: str, columns: Sequence[str], mapping: ColumnMap | None) -> dict[str, str]:
    """``mapping`` with each column given by its place (an ``int``, from 0, as pandas
    counts columns) given by its name; refused where no column has that place."""
    named: dict[str, str] = {}
    for field_name, column in (mapping or {}).items():
        if isinstance(column, bool) or not isinstance(column, str | int):
            raise InputError(f"mapping={{{field_name!r}: {column!r}}}: name the column by its "
                             "name, or by its place from 0 (mapping={'phone': 0})")
        if isinstance(column, int):
            if not 0 <= column < len(columns):
                raise LeadFileError(f"{name}: mapping= names column {column} by place, but "
                                    f"the file's columns are 0 to {len(columns) - 1}: "
                                    f"{', '.join(columns)}")
            column = columns[column]
        named[field_name] = column
    return named


def _naming(columns: Sequence[str], about: Mapping[str, Any]) -> str:
    """How to name the phone's column: by a header's name or ``mapping``; and, where the
    file was read without a header line or its header reads as a row (a cell of a phone
    number's digits), by place."""
    if not _named(about):
        return ("its columns are named by place, as read with header=None, and none holds "
                "cells written as phones: pass mapping={'phone': 0} if the phone is in the "
                "first, 1 in the second ...")
    place = next((n for n, column in enumerate(columns) if _number_like(column)), None)
    way = ("name one phone, mobile, cell or telephone, or pass "
           "mapping={'phone': '<column>'}")
    if place is None:
        return way
    return (f"{way}; if that first line is a row, not a header, pass header=None (the "
            f"column whose cells hold phones is then the phone; or name it by place, "
            f"mapping={{'phone': {place}}})")


def _row_as_header(columns: Sequence[str], about: Mapping[str, Any]) -> bool:
    """Whether a file's header line reads as a row (a cell of a phone number's digits):
    its first lead would be lost as a header, so its columns are not read by their cells
    and the refusal says to pass ``header=None``."""
    return _named(about) and any(_number_like(column) for column in columns)


def _number_like(cell: str) -> bool:
    """Whether a header cell reads as a phone number rather than a name: 7 digits or
    more, and no letter (``+1 (415) 555-0100``, ``4155550100``)."""
    return sum(c.isdigit() for c in cell) >= 7 and not any(c.isalpha() for c in cell)


def _split(about: Mapping[str, Any]) -> str:
    """How a text file's columns were found, for an error about its columns."""
    delimiter = about.get("delimiter")
    if delimiter is None:
        return ""
    tried = ", ".join(shown(d) for d in DELIMITERS)
    return (f" (the header on line {about['header_row']}, split at "
            f"{shown(delimiter)}; tried {tried})")
