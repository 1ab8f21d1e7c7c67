"""Which delimiter a text lead file uses, on which line its header is, and its rows as text.

``csv.Sniffer`` gives up on a file whose one quoted cell holds the delimiter or a
doubled quote (``"the ""VIP"" list; call first"``), and a reader that then falls
back to ``,`` finds no phone column in ``Full Name;Phone;Notes``. So each of
``, ; tab |`` is tried on the file's first records, and the one that gives a
phone column and rows as wide as the header wins; the header is the first of
the first :data:`HEADER_ROWS` records that holds a phone-like name, so that a
title row or blank lines above it are skipped. What was chosen is reported,
never assumed. A file without a header line (a dialer's list upload: numbers alone,
or ``number,name,...``) has its columns named by place from 0, as pandas names them
with ``header=None``: the delimiter is the one whose first rows are most often as wide
as the widest of them.

Then the file is parsed (:func:`parse`): every column as text, by pyarrow's reader, its
lines ended by LF, CR LF or a lone CR (Excel for Mac's); a file whose rows are not all as
wide as its header by pandas' (:func:`ragged`), which fills a short row, and a row with
more fields than the header is held, named by its line (:func:`spread`), the rest read.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ..._files._encoding import SNIFFED
from ..._files._file_limits import DELIMITERS, FileLimits, check_delimited
from ..._files._headers import squeeze
from ..._utils._base_error import LeadFileError
from ._headers import ALIASES, unique_headers
from ._phone_names import phone_header

HEADER_ROWS = 20
"""Records searched for the header: a title, notes or blank lines may come first."""

TEXT = "string[pyarrow]"
_BLOCK = 1 << 20  # pyarrow's default block: a line must fit in one
MISSING = ("",)
"""The cell texts read as missing: the empty cell alone. pyarrow's and pandas' readers
also take ``NA`` (Namibia's code), ``NULL``, ``None``, ``N/A``, ``nan``,
``#N/A`` and more for missing by default; in a lead file they are text, and what a
phone cell's text means is the clean's to judge (``N/A`` there is no number)."""
_RECORDS = 200  # records read per delimiter: enough to see the rows' width
_HEADER_LONGEST = 60  # characters of a cell read for a phone's words: a header's, not a note
_PHONE_NAMES = frozenset(ALIASES["phone"])
_NAMES = {"\t": "tab", ",": "','", ";": "';'", "|": "'|'"}


@dataclass(frozen=True, order=True)
class _Score:
    """How well a delimiter splits the file; the greatest wins."""

    phone: bool
    consistent: float
    splits_header: bool
    width: int


@dataclass(frozen=True)
class Layout:
    """A text file's delimiter and header: ``skip`` physical lines come before the
    header, which is on line ``header_line`` (1-based) and holds ``header``; without
    ``named``, the file has no header line (``header_line`` 0) and ``header`` names its
    columns by place, ``0``, ``1``, ...: its first line is a row."""

    delimiter: str
    header_line: int
    skip: int
    header: list[str]
    phone: bool
    named: bool = True

    @property
    def data_record(self) -> int:
        """The records before the first row: the lines skipped and the header's."""
        return self.skip + int(self.named)


def layout(sample: str, name: str, phone_columns: Collection[str] = (), *,
           named: bool = True) -> Layout:
    """The delimiter and header of a file whose first bytes (decoded) are ``sample``.

    ``phone_columns`` are names that count as a phone column besides the usual ones
    (``mapping``'s). Of the delimiters that give a phone column, the one whose rows
    are most often as wide as the header wins, then the one the header line holds
    most of; without a phone column anywhere, the same order decides, so that the
    error names the columns as the file most likely has them. Without ``named``, the
    file has no header line (:func:`_unnamed`).
    """
    tried = _try if named else _unnamed
    found = {d: tried(sample, d, phone_columns) for d in DELIMITERS}
    fallback = "\t" if name.lower().endswith((".tsv", ".tab")) else ","
    best = max(DELIMITERS, key=lambda d: (found[d][0], d == fallback, -DELIMITERS.index(d)))
    return found[best][1]


def _try(sample: str, delimiter: str, wanted: Collection[str]) -> tuple[_Score, Layout]:
    """A delimiter's score and the layout it gives."""
    records = _records(sample, delimiter)
    header_at = header_index([row for row, _ in records], wanted)
    if header_at is None:
        header_at = next((n for n, (row, _) in enumerate(records) if _filled(row)), 0)
    header, line = records[header_at] if records else ([], 1)
    rows = [len(row) for row, _ in records[header_at + 1:] if _filled(row)]
    consistent = sum(width == len(header) for width in rows) / len(rows) if rows else 1.0
    skip = records[header_at - 1][1] if header_at > 0 else 0
    phone = any(phone_like(cell, wanted) for cell in header)
    split = len(header) > 1  # the header's own delimiter: it splits the header
    score = _Score(phone, consistent if split or phone else 0.0, split, len(header))
    return score, Layout(delimiter, skip + 1 if records else 1, skip, header, phone)


def _unnamed(sample: str, delimiter: str, _: Collection[str]) -> tuple[_Score, Layout]:
    """A delimiter's score and layout for a file without a header line: as many columns
    as the widest of its first rows has (a shorter row is filled with empty cells, a
    later, wider one held), named by place from 0 as ``pd.read_csv(header=None)`` names
    them; the more of those rows as wide, the better."""
    widths = [len(row) for row, _ in _records(sample, delimiter) if _filled(row)]
    width = max(widths, default=1)
    consistent = sum(each == width for each in widths) / len(widths) if widths else 1.0
    split = width > 1
    score = _Score(False, consistent if split else 0.0, split, width)
    return score, Layout(delimiter, 0, 0, [str(n) for n in range(width)], False, named=False)


def _records(sample: str, delimiter: str) -> list[tuple[list[str], int]]:
    """The first records of ``sample``, each with the physical line it ends on; the
    last, which the sample may cut, left out when there are others."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter)
    records: list[tuple[list[str], int]] = []
    try:
        for row in reader:
            records.append((row, reader.line_num))
            if len(records) > _RECORDS:
                break
    except csv.Error:  # a quote left open by the cut: what came before is enough
        pass
    if len(records) > 1 and len(records) <= _RECORDS:
        records.pop()
    return records[:_RECORDS]


def data_records(sample: str, found: Layout) -> list[list[str]]:
    """The rows of ``sample`` (a file's first bytes, decoded) after the header ``found``
    names, as split: the first rows a streamed file's columns are judged by."""
    records = _records(sample, found.delimiter)
    if not found.named:
        return [row for row, _ in records]
    header = next((n for n, (_, line) in enumerate(records) if line >= found.header_line),
                  len(records))
    return [row for row, _ in records[header + 1:]]


def header_index(rows: list[list[str]], wanted: Collection[str] = ()) -> int | None:
    """The header among a file's first rows: the first of the first :data:`HEADER_ROWS`
    with a phone-like cell, if every row above it that holds anything holds fewer cells
    (a title, an export date); else ``None``. So a data row whose type column says
    ``Mobile`` under a header without a phone name is never taken for the header."""
    widest = 0
    for n, row in enumerate(rows[:HEADER_ROWS]):
        filled = sum(1 for cell in row if cell.strip())
        if any(phone_like(cell, wanted) for cell in row):
            return n if filled > widest else None
        widest = max(widest, filled)
    return None


def phone_like(name: str, phone_columns: Collection[str] = ()) -> bool:
    """Whether a header cell names a phone column: a usual name (``Phone``, ``Mobile``,
    ``Tel.``), one whose words name a phone as the columns are read (``Telefon``,
    ``電話番号``, ``Phone 1``: :func:`._phone_names.phone_header`), or one of
    ``phone_columns``; so a title line above such a header is skipped too."""
    return (squeeze(name) in _PHONE_NAMES or (bool(phone_columns) and name in phone_columns)
            or (len(name) <= _HEADER_LONGEST and phone_header(name)))


def _filled(row: list[str]) -> bool:
    return any(cell.strip() for cell in row)


def shown(delimiter: str) -> str:
    """A delimiter as a message names it: ``';'``, ``tab``."""
    return _NAMES.get(delimiter, repr(delimiter))

# A text file parsed -----------------------------------------------------------------------

@dataclass(frozen=True)
class Parsed:
    """A text file's frame, its layout, and its rows held for more fields than its header
    (:attr:`LeadFile.held_rows`)."""

    frame: pd.DataFrame
    layout: Layout
    held: dict[int, str] = field(default_factory=dict)


class NotUtf8(Exception):
    """The bytes given to the CSV reader are not valid UTF-8."""


def parse(head: bytes, source: bytes | Path, name: str, limits: FileLimits,
            phones: list[str], named: bool = True) -> Parsed:
    """Every column as text, by pyarrow's reader; rows of another width by pandas'.

    ``source`` is the UTF-8 text or the path of a UTF-8 file, ``head`` its
    first bytes, from which the delimiter and the header's line are found
    (:func:`layout`; without ``named``, the file has no header line); its lines are
    checked against ``limits`` before either reads it, and a block holds two of the
    longest lines allowed. A blank line is read as a row (so that the rows after it
    keep their numbers) and left out later. pyarrow refuses a row whose width differs
    from the header's, where pandas fills a short row with empty cells: such a file is
    read again by pandas (:func:`ragged`), a row with more fields held. One thread: on
    two cores it is as fast, and holds less memory at once.
    """
    found = layout(head[:SNIFFED].decode("utf-8", errors="ignore"), name, phones, named=named)
    check_delimited(source, found.delimiter, name, limits)
    try:
        table = pacsv.read_csv(
            pa.BufferReader(source) if isinstance(source, bytes) else str(source),
            **csv_options(found, max(_BLOCK, 2 * limits.max_line_bytes)))
    except UnicodeDecodeError:  # a header that is not UTF-8
        raise NotUtf8 from None
    except pa.ArrowException as exc:
        if "UTF8" in str(exc) or "UTF-8" in str(exc):
            raise NotUtf8 from None
        if "columns" in str(exc) or "Empty CSV" in str(exc):
            return ragged(_bytes(source), found, name)
        raise LeadFileError(f"{name}: it is not valid CSV ({str(exc)[:200]})") from None
    if any(kind != pa.large_string() for kind in table.schema.types):  # a header read apart
        return ragged(_bytes(source), found, name)
    frame = text_frame(table.rename_columns(unique_headers(table.column_names)))
    return Parsed(frame, found)


def csv_options(found: Layout, block: int, encoding: str = "utf8",
                **parse: Any) -> dict[str, Any]:
    """pyarrow's options for a CSV of ``found``'s layout: every column text, only an empty
    cell missing (:data:`MISSING`), a blank line a row (so that the rows after it keep
    their numbers), one thread; a file without a header line read from its first line,
    its columns named by place."""
    names = {} if found.named else {"column_names": found.header}
    return {"parse_options": pacsv.ParseOptions(delimiter=found.delimiter,
                                                newlines_in_values=True,
                                                ignore_empty_lines=False, **parse),
            "read_options": pacsv.ReadOptions(use_threads=False, block_size=block,
                                              skip_rows=found.skip, encoding=encoding,
                                              **names),
            "convert_options": pacsv.ConvertOptions(
                column_types=dict.fromkeys(found.header, pa.large_string()),
                null_values=MISSING, strings_can_be_null=True,
                quoted_strings_can_be_null=True)}


def spread(lines: Iterable[str], found: Layout, name: str,
           until: int | None = None) -> tuple[int, dict[int, str]]:
    """The most cells a row of ``lines`` (the file's after the lines before its header)
    has, and the rows held: those whose cells beyond the header's width hold anything,
    each data row's number → why (:func:`held_words`, naming its physical line, as the
    csv module counts lines: a quoted cell's line break is one); read up to the data row
    ``until`` when given."""
    columns, held = len(found.header), {}
    rows = csv.reader(lines, delimiter=found.delimiter)
    width = columns
    try:
        for row_number, row in enumerate(rows, start=1 - int(found.named)):  # header: 0
            width = max(width, len(row))
            if len(row) > columns and any(cell.strip() for cell in row[columns:]):
                held[row_number] = held_words(row, rows.line_num + found.skip, found)
            if row_number == until:
                break
    except csv.Error:
        raise LeadFileError(f"{name}: line {rows.line_num + found.skip} is not valid CSV (a "
                            "cell over 131,072 characters, or a quote left open)") from None
    return width, held


_PAST_SHOWN = 80
"""Characters of a held row's cells past the header's last column its words show."""


def held_words(cells: list[str], line: int, found: Layout) -> str:
    """Why a row with more fields than the header is held, as its hint and the file's note
    say it: its line, its fields, the cells past the header's last column (kept in words,
    so the rejected rows still hold all the row said), what to write instead."""
    columns = len(found.header)
    past = ", ".join(repr(cell) for cell in cells[columns:])
    past = past if len(past) <= _PAST_SHOWN else past[:_PAST_SHOWN - 1] + "…"
    where = "the header has" if found.named else "the first rows have"
    return (f"line {line} has {len(cells)} fields where {where} {columns} (past the last "
            f"column: {past}); quote values that contain the delimiter "
            f"({shown(found.delimiter)})")


def _bytes(source: bytes | Path) -> bytes:
    return source if isinstance(source, bytes) else source.read_bytes()


def ragged(utf8: bytes, found: Layout, name: str) -> Parsed:
    """pandas' reading of a file whose rows are not all as wide as its header.

    A short row is filled with empty cells. A row wider than the header keeps its
    first cells and is held, named by its line (:func:`spread`), unless its extra cells
    are empty (a delimiter after the last cell, as some exports end every line): those
    are dropped. pandas is given the widest row's width, so it never takes a wide first
    row's first cell for an index and shifts every column by one, as it does unasked.
    """
    try:
        text = utf8.decode("utf-8")
    except UnicodeDecodeError:
        raise NotUtf8 from None
    lines = io.StringIO(text, newline="")  # lines end in LF, CR LF or CR, as csv reads them
    for _ in range(found.skip):
        lines.readline()
    text = lines.read()
    width, held = spread(io.StringIO(text, newline=""), found, name)
    try:
        frame = pd.read_csv(io.StringIO(text, newline=""), sep=found.delimiter, dtype=str,
                            header=None, names=range(width), keep_default_na=False,
                            skip_blank_lines=False)
    except pd.errors.ParserError:
        raise LeadFileError(f"{name}: it is not valid CSV") from None
    except pd.errors.EmptyDataError:
        raise LeadFileError(f"{name}: the file has no header line") from None
    columns = found.header
    if found.named:
        columns = unique_headers(frame.iloc[0, :len(found.header)].fillna("").tolist())
        frame = frame.iloc[1:]
    return Parsed(as_text(frame.iloc[:, :len(found.header)].set_axis(columns, axis=1)),
                   found, held)


def as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """Every column as text, empty cells missing, a fresh 0-based index."""
    frame = frame.astype(TEXT).reset_index(drop=True)
    return frame.mask(frame == "")


def text_frame(table: pa.Table) -> pd.DataFrame:
    """An Arrow table as a frame, its ``large_string`` columns as pyarrow-backed text
    (no copy: empty cells are already missing)."""
    frame: pd.DataFrame = table.to_pandas(
        types_mapper={pa.large_string(): pd.StringDtype("pyarrow")}.get)
    return frame
