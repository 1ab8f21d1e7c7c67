"""Limits on the files dialkit reads, checked before a parser sees them.

A reader's memory grows with what it parses, not with the file: a 3 MB XLSX
whose sheet inflates to a GiB of rows, or an 8 MB CSV whose header has a million
columns, took more than 6 GB. So a workbook's zip directory is read first
(sizes and compression ratios, without inflating anything), and a delimited
file's lines are scanned in chunks (lengths and columns) before pyarrow or
pandas parse it. What passes costs memory in proportion to its size.

The defaults hold real files with room to spare: a lead workbook of a million
rows and 8 columns written by xlsxwriter is 467 MiB uncompressed, its sheet
compressed 11:1 (18:1 when every row is the same); real lead files have tens of
columns and lines under a few KiB. A workbook is also weighed as it will be read
(:func:`check_read`), so that one inside the limits peaks at most about
``max_workbook_bytes`` over reading a small one: that million-row
workbook would weigh about 2 GB, past the default; its CSV is read in chunks. Each
limit can be raised with ``limits=FileLimits(...)`` or its environment variable.

Shared by the lead reader and compliance's export reader, so it lives below both
(standard library and numpy only); ``dialkit.leads.FileLimits`` publishes it. numpy is
imported by the scan, when a file is read: the commands' tables of messages
(:data:`SHELL_WAYS_OUT`) are built at every TAB of shell completion.
"""

from __future__ import annotations

import csv
import io
import os
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from .._utils._base_error import (
    InputError,
    LimitError,  # noqa: F401
)

DELIMITERS = (",", ";", "\t", "|")
"""The delimiters a delimited file may use (Excel's own in locales whose decimal mark is a
comma is ``;``), in the order that breaks a tie: tried by the lead reader and by
compliance's export reader."""

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MAX_COLUMNS = 500
"""Columns of a delimited file's line (the contract sends at most 20 custom fields)."""
MAX_LINE_BYTES = 1 << 20
"""Bytes of one line of a delimited file."""
MAX_WORKBOOK_BYTES = 1 << 30
"""Bytes of a workbook, uncompressed (the sum of its zip members' sizes)."""
MAX_WORKBOOK_RATIO = 100
"""How many times a workbook's zip member may inflate (members of 1 MiB and over)."""

VARIABLES = {"max_columns": "DIALKIT_MAX_COLUMNS", "max_line_bytes": "DIALKIT_MAX_LINE_BYTES",
             "max_workbook_bytes": "DIALKIT_MAX_WORKBOOK_BYTES",
             "max_workbook_ratio": "DIALKIT_MAX_WORKBOOK_RATIO"}
"""Each limit's environment variable, read by :meth:`FileLimits.from_env`."""

GRID_CELL_BYTES = 80
"""Bytes one cell of a sheet's grid takes as it is read: calamine holds a sheet as a
dense grid of rows x columns (its empty cells too), and Python's lists of its rows
hold each again. Measured above the 122 MiB a small sheet's read peaks at: 1,500
rows x 16,384 columns (24,576,000 cells) peaked at 1,646 MiB, 65 bytes a cell;
800,000 rows x 20 columns (16,000,000 cells, each row's phone its only cell) at
1,337 MiB, 80 bytes a cell. A sheet's grid may take no more than
:attr:`FileLimits.max_workbook_bytes`: the 1 GiB default admits 13,421,772 cells
(empty ones: a cell with a value weighs more, :func:`check_read`)."""

VALUE_CELL_EXTRA = 100
"""Bytes a cell with a value takes as an XLSX sheet is read, beyond its grid cell's
:data:`GRID_CELL_BYTES` and its text's :data:`TEXT_BYTE_COPIES`: its Python object in
calamine's rows and its place in the frame. Measured: 100,000 rows x 10
distinct short texts peaked 241 MB over a small workbook's read, 241 bytes a cell,
of which 80 its grid cell and about 35 its text."""

TEXT_BYTE_COPIES = 5
"""Times a cell's text is held as an XLSX sheet is read (calamine's string, the Python
one, the frame's and the cleaning's), a shared string once for every cell that shows
it. Measured: 5,000 cells showing one shared string of 30,000 bytes (a 47 KB
file) peaked 584 MB over a small workbook's read, 3.9 times the 150 MB they show."""

VALUE_CELL_BYTES = 400
"""Bytes one cell with a value takes as it is read (its Python object, its text, the
frame's copy): 100,000 rows x 20 numbers of an ODS file, each written once and
repeated by ``table:number-rows-repeated``, peaked at 795 MiB, 336 bytes a cell. A
cell written out costs its bytes in the file, which :attr:`FileLimits.max_workbook_bytes`
bounds; a cell an ODS file repeats costs nothing there, so those may take no more."""

_RATIO_FROM = 1 << 20  # a smaller member cannot exhaust memory, whatever its ratio
_CHUNK = 8 << 20
_ENDS_SEEN = 1 << 16  # the first bytes whose line ends tell a file's


def line_end(start: bytes) -> bytes:
    """The byte that ends a delimited file's lines, from its first bytes: ``\\r`` where its
    lines end in a lone carriage return (Classic Mac OS's line end, which Excel for Mac
    still writes as "CSV (Macintosh)": a line feed there is a line break typed in a
    quoted cell), else ``\\n`` (and CR LF)."""
    seen = start[:_ENDS_SEEN]
    lone = seen.count(b"\r") - seen.count(b"\r\n")
    return b"\r" if lone > seen.count(b"\n") else b"\n"


@dataclass(frozen=True)
class FileLimits:
    """What a file may hold before it is parsed; a file past one is refused, unread.

    Attributes:
        max_columns: Columns of one line of a CSV or TSV file.
        max_line_bytes: Bytes of one line of a CSV or TSV file.
        max_workbook_bytes: Bytes of a workbook: uncompressed for XLSX and ODS (read
            from the zip's directory), the file's own size for XLS; and the memory
            its sheet may take read, as :func:`check_read` weighs it.
        max_workbook_ratio: How many times a member of a workbook's zip may inflate.

    Examples:
        >>> wide = FileLimits(max_columns=2000)
        >>> leads = dialkit.leads.read("export.csv", limits=wide)  # doctest: +SKIP
    """

    max_columns: int = MAX_COLUMNS
    max_line_bytes: int = MAX_LINE_BYTES
    max_workbook_bytes: int = MAX_WORKBOOK_BYTES
    max_workbook_ratio: int = MAX_WORKBOOK_RATIO

    @classmethod
    def from_env(cls) -> FileLimits:
        """The defaults, each replaced by its environment variable when set
        (``DIALKIT_MAX_COLUMNS=2000``): how a shell raises a limit."""
        given = {}
        for name, variable in VARIABLES.items():
            value = os.environ.get(variable, "").strip()
            if value:
                if not value.isdigit() or int(value) < 1:
                    raise InputError(f"{variable}={value!r}: set a whole number of "
                                     f"{'bytes' if 'bytes' in name else name[4:]}, or unset it")
                given[name] = int(value)
        return cls(**given)

    def __post_init__(self) -> None:
        for limit in fields(self):
            value = getattr(self, limit.name)
            if not isinstance(value, int) or value < 1:
                raise InputError(f"FileLimits({limit.name}={value!r}): pass a whole number "
                                 "of 1 or more")


def refusal(name: str, found: str, limit: str, *, keyword: bool = True,
            instead: str = "") -> str:
    """The message of a file past a limit: the file, what it holds past ``limit``, and
    how to raise it (``keyword=False`` where no ``limits=`` can be passed: a shell),
    after what to do ``instead`` when there is another way."""
    return (f"{name}: {found} ({limit}); refused unread, as such a file can exhaust "
            f"memory. If the file is right, {instead + ' ' if instead else ''}"
            f"{_way_out(limit, keyword=keyword)} to raise the limit")


def _way_out(limit: str, *, keyword: bool) -> str:
    how = f"set {VARIABLES[limit]}"
    return f"pass limits=FileLimits({limit}=...) or {how}" if keyword else how


SHELL_WAYS_OUT = {_way_out(limit, keyword=True): _way_out(limit, keyword=False)
                  for limit in VARIABLES}
"""A refusal's way out for a library caller → a shell user's (who passes no ``limits=``,
only its variable): the commands that read files with limits print their refusals
through this table (``dialkit.cli._shared.cli_text``)."""


def check_grid(name: str, where: str, rows: int, columns: int, limits: FileLimits) -> None:
    """Refuse a sheet (``where``: which, and what says so) whose grid is wider than
    ``max_columns`` or would take more memory than ``max_workbook_bytes`` when read
    (:data:`GRID_CELL_BYTES` a cell)."""
    if columns > limits.max_columns:
        raise LimitError(refusal(name, f"{where} is {columns:,} columns wide, more than "
                                 f"{limits.max_columns:,}", "max_columns"))
    cells = rows * columns
    if cells * GRID_CELL_BYTES > limits.max_workbook_bytes:
        raise LimitError(refusal(
            name, f"{where} is a grid of {rows:,} rows x {columns:,} columns, whose "
            f"{cells:,} cells take about {cells * GRID_CELL_BYTES:,} bytes read, more than "
            f"{limits.max_workbook_bytes:,}", "max_workbook_bytes"))


def check_read(name: str, where: str, cells: int, values: int, text: int,
               limits: FileLimits) -> None:
    """Refuse a sheet whose read would take more than ``max_workbook_bytes``: its grid of
    ``cells`` (:data:`GRID_CELL_BYTES` each), its ``values`` cells with a value
    (:data:`VALUE_CELL_EXTRA` more each) and the ``text`` they show
    (:data:`TEXT_BYTE_COPIES` times): a 47 KB workbook whose cells all show one long
    shared string took 584 MB, a 40 MiB sheet of short cells 758 MiB."""
    read = cells * GRID_CELL_BYTES + values * VALUE_CELL_EXTRA + text * TEXT_BYTE_COPIES
    if read > limits.max_workbook_bytes:
        raise LimitError(refusal(
            name, f"{where} shows {text:,} bytes of text in {values:,} cells with a value "
            f"(a grid of {cells:,}), which take about {read:,} bytes read, more than "
            f"{limits.max_workbook_bytes:,}", "max_workbook_bytes",
            instead="save the sheet as CSV (read in chunks, in constant memory), or"))


def check_repeats(name: str, where: str, cells: int, limits: FileLimits) -> None:
    """Refuse a sheet whose cells with a value, repeated as it says rather than written
    out, would take more than ``max_workbook_bytes`` when read (:data:`VALUE_CELL_BYTES`
    a cell)."""
    if cells * VALUE_CELL_BYTES > limits.max_workbook_bytes:
        raise LimitError(refusal(
            name, f"{where} repeats cells with a value {cells:,} times, which take about "
            f"{cells * VALUE_CELL_BYTES:,} bytes read, more than "
            f"{limits.max_workbook_bytes:,}", "max_workbook_bytes"))


def check_count(name: str, where: str, count: int, most: int, what: str) -> None:
    """Refuse a part that declares more ``what`` (``count``) than its bytes can hold
    (``most``): a reader that sizes its memory by the declaration can be made to abort
    by a number alone."""
    if count > most:
        raise LimitError(f"{name}: {where} declares {count:,} {what}, where its bytes "
                         f"hold at most {most:,}; refused unread, as a reader sizes its "
                         "memory by that number. The file is damaged or built to harm: "
                         "save it again from the program that made it")


def check_workbook(path: Path | None, data: bytes | None, name: str, limits: FileLimits) -> None:
    """Refuse a workbook whose zip members would inflate past the limits, from the sizes
    in the zip's directory (the reader holds each member to its stated size, so the
    sizes cannot lie); a workbook that is not a zip (XLS) by its own size."""
    source: Path | io.BytesIO = path if path is not None else io.BytesIO(data or b"")
    size = path.stat().st_size if path is not None else len(data or b"")
    if not zipfile.is_zipfile(source):
        if size > limits.max_workbook_bytes:
            raise LimitError(refusal(name, f"{size:,} bytes, more than "
                                     f"{limits.max_workbook_bytes:,}", "max_workbook_bytes"))
        return
    try:
        members = zipfile.ZipFile(source).infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # the workbook reader names what is wrong with it
    _check_members(members, name, limits)


def _check_members(members: list[zipfile.ZipInfo], name: str, limits: FileLimits) -> None:
    total = sum(member.file_size for member in members)
    if total > limits.max_workbook_bytes:
        raise LimitError(refusal(name, f"{total:,} bytes uncompressed, more than "
                                 f"{limits.max_workbook_bytes:,}", "max_workbook_bytes"))
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size >= _RATIO_FROM and ratio > limits.max_workbook_ratio:
            raise LimitError(refusal(
                name, f"{member.filename} inflates {ratio:.0f} times ({member.compress_size:,} "
                f"bytes to {member.file_size:,}), more than {limits.max_workbook_ratio:,}",
                "max_workbook_ratio"))


def check_delimited(source: Path | bytes, delimiter: str, name: str, limits: FileLimits, *,
                    keyword: bool = True) -> int:
    """Refuse a delimited file with a line longer or wider than the limits, scanning it
    in chunks (never whole in memory when it is a path); its lines, counted on the way
    (a streamed clean's progress has them as its total).

    A line's columns are its delimiters plus one, counted again by the csv module only
    when past the limit, so that delimiters inside quotes are not columns (a line
    inside a quoted value that holds newlines is counted alone, as if it were a row).
    The header record is also read whole (up to the line limit), as a header whose
    quoted values hold newlines spans lines, and its columns are every row's. Lines end
    where the file's first lines say (:func:`line_end`): a file saved by Excel for Mac
    is counted in its lines, not as one line of every row's columns.
    """
    import numpy as np

    scan = _Scan(delimiter, name, limits, keyword)
    start = _start(source, limits.max_line_bytes + 2)  # the longest line, its CR LF
    scan.header(start)
    end = line_end(start)
    line, carry = 1, b""
    for chunk in _chunks(source):
        buffer = carry + chunk
        ends = np.flatnonzero(np.frombuffer(buffer, np.uint8) == end[0])
        scan.lines(buffer, ends, line)
        line += len(ends)
        carry = buffer[ends[-1] + 1:] if len(ends) else buffer
        if len(carry) > limits.max_line_bytes:
            scan.too_long(line)
    scan.lines(carry + end, np.array([len(carry)]), line)
    return line if carry.strip() else line - 1


@dataclass(frozen=True)
class _Scan:
    """The checks of :func:`check_delimited`, with what each refusal names."""

    delimiter: str
    name: str
    limits: FileLimits
    keyword: bool

    def lines(self, buffer: bytes, ends: npt.NDArray[np.intp], first: int) -> None:
        """Check the whole lines of ``buffer`` (ending at ``ends``; ``first`` is the
        first's number): their lengths, then the columns of those long enough to hold
        too many (real lead lines are shorter: their delimiters are not counted)."""
        import numpy as np

        if not len(ends):
            return
        starts = np.concatenate(([0], ends[:-1] + 1))
        long = np.flatnonzero(ends - starts > self.limits.max_line_bytes)
        if len(long):
            self.too_long(first + int(long[0]))
        mark = self.delimiter.encode()
        for n in np.flatnonzero(ends - starts >= self.limits.max_columns):  # room for as many
            start, end = int(starts[n]), int(ends[n])
            if buffer.count(mark, start, end) >= self.limits.max_columns:
                self.columns(buffer[start:end], first + int(n))

    def columns(self, line: bytes, number: int) -> None:
        """A line's columns by the csv module, so that delimiters in quotes do not count."""
        text = line.decode("utf-8", errors="replace")
        try:
            columns = len(next(csv.reader([text], delimiter=self.delimiter), []))
        except csv.Error:  # a field past the csv module's size: count the delimiters
            columns = text.count(self.delimiter) + 1
        if columns > self.limits.max_columns:
            self.too_wide(f"line {number}", columns)

    def header(self, start: bytes) -> None:
        """The header record's columns, read whole by the csv module from the file's
        first bytes; a header not ended within the line limit is too long."""
        text = io.StringIO(start.decode("utf-8", errors="replace"), newline="")
        rows = csv.reader(text, delimiter=self.delimiter)
        cut = len(start) > self.limits.max_line_bytes
        header: list[str] = []
        try:
            while not header:
                header = next(rows)
        except StopIteration:
            return
        except csv.Error:  # a broken header: the parser names it, unless it is too long
            header = []
        if cut and (not header or text.tell() >= len(text.getvalue())):
            self.too_long(1)
        if len(header) > self.limits.max_columns:
            lines = rows.line_num
            self.too_wide("line 1" if lines == 1 else f"the header (lines 1-{lines})",
                          len(header))

    def too_wide(self, where: str, columns: int) -> NoReturn:
        raise LimitError(refusal(self.name, f"{where} has {columns:,} columns, more than "
                                 f"{self.limits.max_columns:,}", "max_columns",
                                 keyword=self.keyword))

    def too_long(self, line: int) -> NoReturn:
        raise LimitError(refusal(self.name, f"line {line} is longer than "
                                 f"{self.limits.max_line_bytes:,} bytes", "max_line_bytes",
                                 keyword=self.keyword))


def _start(source: Path | bytes, size: int) -> bytes:
    if isinstance(source, bytes):
        return source[:size]
    with source.open("rb") as opened:
        return opened.read(size)


def _chunks(source: Path | bytes) -> Iterator[bytes]:
    if isinstance(source, bytes):
        for at in range(0, len(source), _CHUNK):
            yield source[at:at + _CHUNK]
        return
    with source.open("rb") as opened:
        while chunk := opened.read(_CHUNK):
            yield chunk
