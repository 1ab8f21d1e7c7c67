"""What a workbook's XML declares and holds, checked before calamine sees the file.

calamine sizes its memory by what a workbook says: the grid from the first to the
last cell of a sheet (one cell at ``XFD1048576`` and one at ``A1`` make a grid of
17 billion cells), the shared strings by their declared ``uniqueCount``. Past what
the machine has, its allocator aborts the process (SIGABRT: no exception, and a
notebook's kernel dies). So the parts are read here first, cheaply: no part has
a DOCTYPE (which dialkit refuses outright), the shared strings declare no more
than their bytes can hold, and each sheet's declared dimension and the grid its
cells actually reach (streamed in chunks, the cell references found by numpy,
never one Python object a cell) fit :class:`~dialkit._files._file_limits.FileLimits`.
ODS tables are scanned too: a row or a cell there can say it repeats a million times
(``table:number-rows-repeated``), and calamine expands it (a 1.5 KB file asked for 2.9
GB). An XLS grid cannot pass 65,536 rows x 256 columns.

A sheet's cells are then weighed as calamine will hold them: each cell with
a value and the text it shows, a shared string at every cell that shows it, so that a
47 KB file whose 5,000 cells show one 30,000-byte string (584 MB read) is refused
before it is read, as the limits promise.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from dialkit._files._file_limits import (
    FileLimits,
    check_count,
    check_grid,
    check_read,
    check_repeats,
)

from ..._utils._base_error import DoctypeError
from ._xlsx import pieces, reference, sheet_members

_CHUNK = 8 << 20
_PROLOG = 1 << 16  # how far into a part its root element is looked for
_DOCTYPE = re.compile(rb"<!DOCTYPE", re.I)
_ROOT = re.compile(rb"<[A-Za-z_]")
_DIMENSION = re.compile(rb"<(?:[\w.-]+:)?dimension\s[^>]*?\bref\s*=\s*[\"']([A-Z]+)(\d+)"
                        rb"(?::([A-Z]+)(\d+))?")
_COUNTS = re.compile(rb"\s(count|uniqueCount)\s*=\s*[\"'](\d+)")
_EMPTY_STRING = len(b"<si/>")  # the fewest bytes a shared string takes
_HUGE = 1 << 40  # a reference longer than any sheet's: 5 letters, 11 digits
_SPACE = np.zeros(256, dtype=bool)
_SPACE[list(b" \t\r\n")] = True
_UPPER = np.zeros(256, dtype=bool)
_UPPER[65:91] = True
_DIGIT = np.zeros(256, dtype=bool)
_DIGIT[48:58] = True
_TAG_END = _SPACE.copy()
_TAG_END[list(b"/>")] = True
_SHARED_STRING = re.compile(rb"<(?:[\w.-]+:)?si[\s/>]")
_VALUE = re.compile(rb"<(?:[\w.-]+:)?(?:v|is)[\s>]")
_INDEX = re.compile(rb"<(?:[\w.-]+:)?v\b[^>]*>(\d{1,10})")


def check_parts(data: bytes, name: str, limits: FileLimits) -> None:
    """Refuse a zip workbook (XLSX or ODS) one of whose parts declares a DOCTYPE, whose
    shared strings declare more than they hold, or one of whose sheets' grids is past
    ``limits`` (:func:`~dialkit._files._file_limits.check_grid`); a file that is not a zip, or
    whose parts cannot be found, is left to calamine, which names what is wrong."""
    try:
        book = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError):
        return
    with book:
        parts = {info.filename.lower(): info.filename for info in book.infolist()}
        for part in parts.values():
            _no_doctype(book, part)
        _check_strings(book, parts, name)
        shared = _shared_sizes(book, parts.get("xl/sharedstrings.xml"))
        for sheet, path in sheet_members(book):
            check_sheet(book, path, f"sheet {sheet!r} ({path})", name, limits, shared)
        if "content.xml" in parts:
            check_tables(book, parts["content.xml"], name, limits)


def _no_doctype(book: zipfile.ZipFile, part: str) -> None:
    """Refuse ``part`` when its prolog (before the root element) has a DOCTYPE: the
    XML parsers below would expand its entities, calamine says only that it cannot
    detect the file's format."""
    with book.open(part) as opened:
        head = opened.read(_PROLOG)
    root = _ROOT.search(head)
    if _DOCTYPE.search(head, 0, root.start() if root else len(head)):
        raise DoctypeError(f"its part {part} declares a DOCTYPE, which dialkit refuses "
                           "in a workbook (its entities can exhaust memory or read other "
                           "files); save the file again from Excel or LibreOffice")


def _check_strings(book: zipfile.ZipFile, parts: dict[str, str], name: str) -> None:
    """The shared strings' declared ``uniqueCount`` (calamine reserves room for that
    many at once) and ``count``, against what their part and the workbook can hold."""
    path = parts.get("xl/sharedstrings.xml")
    if path is None:
        return
    with book.open(path) as opened:
        head = opened.read(_PROLOG)
    root = re.search(rb"<(?:[\w.-]+:)?sst\b[^>]*>", head)
    if root is None:
        return
    total = sum(info.file_size for info in book.infolist())
    for attribute, value in _COUNTS.findall(root[0]):
        most = (book.getinfo(path).file_size if attribute == b"uniqueCount" else total)
        check_count(name, f"{path} ({attribute.decode()})", int(value),
                    most // _EMPTY_STRING, "strings")


def check_sheet(book: zipfile.ZipFile, path: str, where: str, name: str,
                limits: FileLimits, shared: npt.NDArray[np.int64]) -> None:
    """Refuse the sheet at ``path`` whose declared dimension, or whose cells as they are
    placed, make a grid past ``limits``, or whose cells would take more than they allow
    once read (``shared``: the bytes of each shared string)."""
    grid, values = _Grid(), _Values(shared)
    with book.open(path) as xml:
        for n, piece in enumerate(pieces(xml, b"<", size=_CHUNK)):
            if n == 0:
                _check_dimension(piece, where, name, limits)
            grid.add(piece)
            values.add(piece)
            rows, columns = grid.size()
            check_grid(name, where, rows, columns, limits)  # as soon as one is past
            check_read(name, where, rows * columns, values.cells, values.text, limits)


def _shared_sizes(book: zipfile.ZipFile, path: str | None) -> npt.NDArray[np.int64]:
    """The bytes of each shared string (its ``<si>`` element, markup and all: never less
    than its text); none when the workbook has no shared strings."""
    if path is None:
        return np.zeros(0, np.int64)
    starts, offset = [], 0
    with book.open(path) as xml:
        for piece in pieces(xml, b"<", size=_CHUNK):
            starts.append(np.fromiter((offset + m.start() for m in
                                       _SHARED_STRING.finditer(piece)), np.int64))
            offset += len(piece)
    at = np.concatenate(starts)
    return np.diff(np.append(at, offset)) if len(at) else at


@dataclass
class _Values:
    """The cells with a value a sheet's pieces hold and the bytes of text they show:
    every text between tags, and a shared string's bytes at every cell whose value is
    its index. Each ``<v>`` that holds a whole number counts as an index (a number
    cell too: an overcount, never an undercount, as a cell's type may be written
    anywhere among its attributes)."""

    shared: npt.NDArray[np.int64]
    cells: int = 0
    text: int = 0

    def add(self, piece: bytes) -> None:
        """Take a piece cut before a tag (so no value is cut in two)."""
        if not piece:
            return
        array = np.frombuffer(piece + bytes(16), np.uint8)  # room to look past the end
        opens = np.flatnonzero(array[:len(piece)] == ord("<"))
        self.text += _text_bytes(array[:len(piece)], opens)
        values = opens[array[opens + 1] == ord("v")]
        if b":v" in piece or b":is" in piece or (array[values + 2] != ord(">")).any():
            self.cells += len(_VALUE.findall(piece))  # a prefix, or attributes
            indexes = np.array(_INDEX.findall(piece) or [b"0"]).astype(np.int64)
        else:  # as Excel and the libraries write: <v>12</v>, <is>
            self.cells += len(values) + piece.count(b"<is>")
            indexes = _values(array, values + 3)[0]
        self.text += int(self.shared[indexes[indexes < len(self.shared)]].sum())


def _check_dimension(head: bytes, where: str, name: str, limits: FileLimits) -> None:
    """The sheet's ``<dimension ref="A1:H9">``, when it declares one."""
    found = _DIMENSION.search(head)
    if found is None:
        return
    first = reference(found[1], found[2])
    last = reference(found[3], found[4]) if found[3] else first
    rows, columns = last[0] - first[0] + 1, last[1] - first[1] + 1
    check_grid(name, f"{where}, by its declared dimension,", max(rows, 1), max(columns, 1),
               limits)


def _text_bytes(array: npt.NDArray[np.uint8], opens: npt.NDArray[np.intp]) -> int:
    """The bytes between tags (``>`` to the next ``<``) of a piece that starts with one."""
    closes = np.flatnonzero(array == ord(">"))
    if len(closes) == len(opens) and (closes > opens).all():  # no ">" in a text
        return len(array) - int(closes.sum() - opens.sum()) - len(opens)
    following = np.append(opens, len(array))[np.searchsorted(opens, closes)]
    return int((following - closes - 1).sum())


@dataclass
class _Grid:
    """The rows and columns a sheet's cells reach, as calamine places them: by a cell's
    ``r`` (``B12``), else one past the cell before it in its row (a row without ``r``
    one past the row before). Bounds from above: every reference counts, and each
    cell without one may widen its row by one."""

    top: int = _HUGE
    bottom: int = 0
    left: int = _HUGE
    right: int = 0
    loose_rows: int = 0  # rows without r
    open_row: int = 0  # cells without r in the row that a chunk ended in
    widest_loose: int = 0  # the most cells without r in a row

    def add(self, buffer: bytes) -> None:
        """Take the references and tags of ``buffer``, which ends between two tags."""
        if not buffer:
            return
        array = np.frombuffer(buffer + bytes(24), np.uint8)  # room to look past the end
        opens = np.flatnonzero(array[:len(buffer)] == ord("<"))
        cells, row_tags = _plain(array, opens, b"c"), _plain(array, opens, b"row")
        if _r_first(array, cells, 2) and _r_first(array, row_tags, 4) and not (
                b":c" in buffer or b":row" in buffer):
            # as Excel, LibreOffice, xlsxwriter and openpyxl write: each cell and row
            # with its r first, no prefix: the references are at known places
            self._reach(*_values(array, cells + 6))  # a cell's own r places it
            return
        self._add_any(array, buffer)

    def _add_any(self, array: npt.NDArray[np.uint8], buffer: bytes) -> None:
        """:meth:`add` for a buffer written otherwise: every ``r`` attribute counts,
        and each cell (row) without one is one past the cell (row) before."""
        at, rows, columns = _references(array, len(buffer))
        cells, row_tags = _starts(array, buffer, b"c"), _starts(array, buffer, b"row")
        ends = np.flatnonzero(array[:len(buffer)] == ord(">"))
        loose_cells = cells[~_has_ref(cells, ends, at[columns > 0])]
        self.loose_rows += int((~_has_ref(row_tags, ends, at[columns == 0])).sum())
        self._widen(loose_cells, row_tags)
        self._reach(rows, columns)
        if len(loose_cells):
            self.left = 1
        if self.loose_rows:
            self.top = 1

    def _reach(self, rows: npt.NDArray[np.int64], columns: npt.NDArray[np.int64]) -> None:
        """Widen the grid to the references' rows and columns (0: none given)."""
        placed = rows > 0
        if placed.any():
            self.top = min(self.top, int(rows[placed].min()))
            self.bottom = max(self.bottom, int(rows[placed].max()))
        cell = columns > 0
        if cell.any():
            self.left = min(self.left, int(columns[cell].min()))
            self.right = max(self.right, int(columns[cell].max()))

    def _widen(self, loose_cells: npt.NDArray[np.intp], row_tags: npt.NDArray[np.intp]) -> None:
        """Count the cells without ``r`` of each row (the first continues the row the
        last buffer ended in)."""
        rows = np.searchsorted(row_tags, loose_cells)
        counts = np.bincount(rows, minlength=len(row_tags) + 1)
        counts[0] += self.open_row
        self.widest_loose = max(self.widest_loose, int(counts.max()))
        self.open_row = int(counts[-1])

    def size(self) -> tuple[int, int]:
        """Rows and columns of the grid the cells reach so far (at least 1 x 1)."""
        bottom = self.bottom + self.loose_rows
        right = self.right + self.widest_loose
        top, left = min(self.top, bottom), min(self.left, right)
        return max(bottom - top + 1, 1), max(right - left + 1, 1)


def _references(array: npt.NDArray[np.uint8], size: int) -> tuple[
        npt.NDArray[np.intp], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every ``r="..."`` attribute (after a space, quoted either way): where it is, its
    row and its column (0 for a row's ``r``, which has no letters)."""
    equals = np.flatnonzero(array[:size] == ord("="))
    equals = equals[(equals >= 2) & (array[equals - 1] == ord("r"))]
    equals = equals[_SPACE[array[equals - 2]] & np.isin(array[equals + 1], (34, 39))]
    return (equals - 1, *_values(array, equals + 2))


def _values(array: npt.NDArray[np.uint8], start: npt.NDArray[np.intp]) -> tuple[
        npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The 1-based row and column of each reference starting at ``start`` (``B12``: 12
    and 2; a row's ``12``: 12 and 0); one of 11 digits or 5 letters and more is huge."""
    columns = np.zeros(len(start), np.int64)
    letters = np.zeros(len(start), np.intp)
    going = np.ones(len(start), bool)
    for n in range(5):
        going &= _UPPER[array[start + n]]
        if not going.any():
            break
        columns[going] = columns[going] * 26 + array[start[going] + n] - 64
        letters += going
    columns[letters >= 5] = _HUGE
    rows = np.zeros(len(start), np.int64)
    going = np.ones(len(start), bool)
    for n in range(11):
        going &= _DIGIT[array[start + letters + n]]
        if not going.any():
            break
        rows[going] = rows[going] * 10 + array[start[going] + letters[going] + n] - 48
    rows[going] = _HUGE  # 11 digits and more
    return rows, columns


def _plain(array: npt.NDArray[np.uint8], opens: npt.NDArray[np.intp],
           tag: bytes) -> npt.NDArray[np.intp]:
    """Which of ``opens`` (each ``<``) start a tag ``tag`` with no prefix."""
    found = _TAG_END[array[opens + 1 + len(tag)]]
    for n, byte in enumerate(tag):
        found &= array[opens + 1 + n] == byte
    return opens[found]


def _r_first(array: npt.NDArray[np.uint8], tags: npt.NDArray[np.intp], length: int) -> bool:
    """Whether each of ``tags`` (of a name ``length`` long) has ``r="`` first."""
    return all(bool((array[tags + length + n] == byte).all()) for n, byte in enumerate(b' r="'))


def _starts(array: npt.NDArray[np.uint8], buffer: bytes, tag: bytes) -> npt.NDArray[np.intp]:
    """Where each start tag ``<tag`` (or ``<prefix:tag``) of ``buffer`` begins, in order."""
    plain = _plain(array, np.flatnonzero(array[:len(buffer)] == ord("<")), tag)
    pattern = rb"<[\w.-]+:" + re.escape(tag) + rb"[\s/>]"
    if re.search(pattern, buffer) is None:  # the usual: no prefix, no Python loop
        return plain
    prefixed = np.fromiter((m.start() for m in re.finditer(pattern, buffer)), np.intp)
    return np.sort(np.concatenate([plain, prefixed]))


def _has_ref(tags: npt.NDArray[np.intp], ends: npt.NDArray[np.intp],
             refs: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    """Per start tag, whether one of ``refs`` lies inside it (before its ``>``)."""
    if not len(tags):
        return np.zeros(0, bool)
    end = ends[np.minimum(np.searchsorted(ends, tags), len(ends) - 1)] if len(ends) else \
        np.full(len(tags), np.iinfo(np.intp).max)
    nxt = np.searchsorted(refs, tags)
    ref = np.where(nxt < len(refs), refs[np.minimum(nxt, max(len(refs) - 1, 0))]
                   if len(refs) else 0, np.iinfo(np.intp).max)
    return ref < end


_ODS_TAG = re.compile(rb"<(/?)[\w.-]+:(table-row|table-cell|covered-table-cell|table)\b"
                      rb"([^>]*?)(/?)>")
_REPEATED = re.compile(rb"number-(?:rows|columns)-repeated\s*=\s*[\"'](\d+)")
_VALUED = re.compile(rb"value-type\s*=")
_TABLE_NAME = re.compile(rb"\bname\s*=\s*[\"']([^\"']*)")


def check_tables(book: zipfile.ZipFile, path: str, name: str, limits: FileLimits) -> None:
    """Refuse an ODS table whose rows and cells, repeated as they say, make a grid past
    ``limits``. Only what holds a value counts: LibreOffice ends every row with an empty
    cell repeated to the last column, and every table with empty rows to the last."""
    table = _Table(name, limits)
    with book.open(path) as xml:
        for piece in pieces(xml, b"<", size=_CHUNK):
            for tag in _ODS_TAG.finditer(piece):
                table.take(tag)


@dataclass
class _Table:
    """An ODS table as its tags stream by: where the next row and cell go, and how far
    the rows and cells that hold something reach."""

    name: str
    limits: FileLimits
    sheet: str = "?"
    row: int = 0  # the rows before the current one
    rows: int = 1  # the current row's repeats
    column: int = 0
    reach: int = 0  # the current row's columns up to its last cell with a value
    values: int = 0  # the current row's cells with a value, repeats counted
    written: int = 0  # the tags of those
    repeats: int = 0  # the table's cells with a value that repetition alone made
    bottom: int = 0
    right: int = 0

    def take(self, tag: re.Match[bytes]) -> None:
        """One tag: a table, a row or a cell, opening or closing."""
        closing, kind, attributes, empty = tag[1], tag[2], tag[3], tag[4]
        repeated = _REPEATED.search(attributes)
        times = int(repeated[1]) if repeated else 1
        if kind == b"table":
            if not closing:
                found = _TABLE_NAME.search(attributes)
                self.sheet = found[1].decode("utf-8", "replace") if found else "?"
                self.row = self.bottom = self.right = self.repeats = 0
        elif kind == b"table-row":
            if not closing:
                self.rows, self.column, self.reach, self.values, self.written = times, 0, 0, 0, 0
            if closing or empty:
                self._row_ended()
        elif not closing:
            self.column += times
            if not empty or _VALUED.search(attributes):
                self.reach, self.values, self.written = (self.column, self.values + times,
                                                         self.written + 1)

    def _row_ended(self) -> None:
        if self.reach:
            where = f"sheet {self.sheet!r} (content.xml)"
            self.bottom, self.right = self.row + self.rows, max(self.right, self.reach)
            self.repeats += self.values * self.rows - self.written
            check_grid(self.name, where, self.bottom, self.right, self.limits)
            check_repeats(self.name, where, self.repeats, self.limits)
        self.row += self.rows
