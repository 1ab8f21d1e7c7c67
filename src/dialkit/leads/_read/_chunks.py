"""A lead CSV read a chunk at a time: the frames :func:`read` gives, in parts.

A vendor's file can be larger than memory, so :func:`stream` reads it with
pyarrow's streaming reader, a block at a time, and hands on frames of about
:data:`~dialkit._utils._tuning.CHUNK_ROWS` rows, each indexed by its rows' place in the file (blank
rows
counted, then left out, as :func:`read` does), so that row numbers run on across
chunks. The head decides the layout as for :func:`read`, and the limits are
checked over the whole file first, without holding it.

A file this reader cannot take as it comes (another encoding than UTF-8, cp1252 or Mac
OS Roman, a header pyarrow splits otherwise than the sniffer) raises
:class:`NotStreamable`, and is read whole by :func:`read`. A row narrower than the
header is mended as :func:`read` mends it, a wider one held as :func:`read` holds it
(its first cells kept, :attr:`Streamed.held` naming it by its line), in the stream.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from dialkit._files._file_limits import FileLimits, check_delimited, line_end
from dialkit._utils import _tuning

from ..._files._encoding import BOMS, SNIFFED, cp1252_throughout
from ..._utils._base_error import LeadFileError, LimitError
from ._delimiter import (
    TEXT,
    Layout,
    csv_options,
    data_records,
    held_words,
    layout,
    spread,
    text_frame,
)
from ._headers import unique_headers
from ._lead_file import (
    _EXCEL_MAGIC,
    MAC_ROMAN,
    ColumnMap,
    Header,
    LeadFile,
    _load,
    _no_numbers,
    _without_blank_rows,
    header_named,
    mapped_columns,
    phone_names,
)
from ._phone_cells import first_rows

_UTF8_BOM = BOMS[0][0]


class NotStreamable(Exception):
    """The file is read whole instead: its encoding or layout needs :func:`read`.
    ``encoding``: because it is not UTF-8 (it may read as cp1252 throughout)."""

    def __init__(self, *, encoding: bool = False) -> None:
        super().__init__()
        self.encoding = encoding


@dataclass
class Streamed:
    """A lead file being read in chunks.

    Attributes:
        file: The file as its header maps it (``frame`` empty, with its columns);
            :meth:`finished` adds the blank rows once every chunk is read.
        chunks: Frames of about :data:`~dialkit._utils._tuning.CHUNK_ROWS` rows, as
        :attr:`LeadFile.frame`
            would hold them (indexed by place in the file, blank rows left out).
        path: The file's path.
        blank_rows: The blank rows skipped so far (all of them once every chunk is read).
        lines: The file's lines, the header's included: the rows to expect, as a
            progress bar's total (a quoted value's newlines make it a little more).
        held: The rows held so far for more fields than the header
            (:attr:`LeadFile.held_rows`, which :attr:`file` holds too): a chunk's are in
            it before the chunk is handed on, their words naming their lines once every
            chunk is read.
    """

    file: LeadFile
    chunks: Iterator[pd.DataFrame]
    path: Path
    blank_rows: list[int]
    lines: int = 0
    held: dict[int, str] = dataclasses.field(default_factory=dict)

    def finished(self) -> LeadFile:
        """:attr:`file` with every blank row that was skipped and every row held."""
        return dataclasses.replace(self.file, blank_rows=tuple(self.blank_rows),
                                   held_rows=dict(self.held))


def stream(source: Any, *, mapping: ColumnMap | None = None,
           encoding: str | None = None, limits: FileLimits | None = None,
           rows: int | None = None, legacy: bool = False,
           header: Header = "infer") -> Streamed:
    """Open a lead CSV on disk to be read ``rows`` rows (by default
    :data:`~dialkit._utils._tuning.CHUNK_ROWS`) at a time; ``mapping`` and ``header`` as
    :func:`read` takes them.

    ``legacy``: read the file as :func:`read` reads one that is not UTF-8: in Mac OS Roman
    where its lines end in a lone CR, else in cp1252 where every byte reads so and no line
    beyond ASCII reads as UTF-8 (checked first, the file read once more): asked for once
    the file turned out not to be UTF-8.

    Raises:
        NotStreamable: The file is not a path to a UTF-8 text file (a workbook, a
            file object, a frame, another encoding; with ``legacy``, not cp1252
            throughout), or pyarrow reads its header otherwise than the sniffer:
            :func:`read` reads it whole.
        LeadFileError: As :func:`read`: the file cannot be opened, is past a limit,
            has no phone column, or (as its chunks are read) no rows or a bad row.
    """
    named = header_named(header)
    if not isinstance(source, str | os.PathLike) or encoding not in (None, "utf-8", "utf8"):
        raise NotStreamable
    loaded = _load(source)
    head, bom = loaded.head, loaded.head.startswith(_UTF8_BOM)
    if bom:
        head = head[len(_UTF8_BOM):]
    if (loaded.head.startswith(_EXCEL_MAGIC) or b"\x00" in head
            or head.startswith(tuple(mark for mark, _ in BOMS))):
        raise NotStreamable
    path, name = Path(str(source)), loaded.name
    if bom and encoding is not None:  # read() keeps the encoding given: no mark written
        raise NotStreamable
    if legacy and (bom or encoding is not None):
        raise NotStreamable
    text = "utf-8" if not legacy else MAC_ROMAN if line_end(head) == b"\r" else "cp1252"
    if text == "cp1252" and not cp1252_throughout(path):
        raise NotStreamable
    phones = [column for column in phone_names(mapping) if isinstance(column, str)]
    sample = head[:SNIFFED].decode(text, errors="ignore")
    found = layout(sample, name, phones, named=named)
    limits = limits or FileLimits.from_env()
    try:
        lines = check_delimited(path, found.delimiter, name, limits)
    except LimitError as refused:
        raise LeadFileError(str(refused)) from None
    reader = _Reader(path, name, found, limits, "utf-8-sig" if bom else text)
    columns = unique_headers(reader.names)
    about: dict[str, Any] = {"encoding": reader.encoding, "delimiter": found.delimiter,
                             "header_row": found.header_line if named else None}
    mapped = mapped_columns(name, columns, about, mapping, lambda: first_rows(
        data_records(sample, found), columns))
    empty = pd.DataFrame({column: pd.Series(dtype=TEXT) for column in columns})
    file = LeadFile(name, empty, **mapped._asdict(), numbers=_no_numbers(),
                    held_rows=reader.held, **about)
    blank_rows: list[int] = []
    chunks = _chunks(reader, columns, rows or _tuning.CHUNK_ROWS, blank_rows, name)
    return Streamed(file, chunks, path, blank_rows, lines, reader.held)


def _chunks(reader: _Reader, columns: list[str], rows: int, blank_rows: list[int],
            name: str) -> Iterator[pd.DataFrame]:
    """The file's frames, ``rows`` rows or so each, blank rows left out (and listed)."""
    start, held = 0, 0
    for frame in reader.frames(rows):
        frame = frame.set_axis(columns, axis=1).set_axis(
            pd.RangeIndex(start, start + len(frame)), axis=0)
        start += len(frame)
        frame, blank = _without_blank_rows(frame)
        blank_rows.extend(blank)
        held += len(frame)
        if len(frame):
            yield frame
        del frame  # not held while the next chunk is read
    if not held:
        raise LeadFileError(f"{name}: the file has {'a header but ' * reader.found.named}no "
                            f"rows{f' ({len(blank_rows)} blank)' if blank_rows else ''}")


class _Reader:
    """pyarrow's streaming reader over the file, rows of another width mended as
    :func:`read` mends them (a short row filled with empty cells, empty cells past the
    header dropped, a row with more in them held, its first cells kept) and put back in
    their place."""

    def __init__(self, path: Path, name: str, found: Layout, limits: FileLimits,
                 encoding: str) -> None:
        self.path, self.name, self.found, self.encoding = path, name, found, encoding
        self.width = len(found.header)
        self.mended: list[tuple[int, list[str | None]]] = []
        self.held: dict[int, str] = {}  # a row held → why (its line named at the end)
        self.unplaced = False  # a row pyarrow could not say the place of
        block = max(_tuning.READ_BLOCK, 2 * limits.max_line_bytes)
        try:
            self.reader = pacsv.open_csv(str(path), **csv_options(
                found, block, encoding.removesuffix("-sig"), invalid_row_handler=self._row))
        except (UnicodeDecodeError, pa.ArrowException) as exc:
            raise self._failed(exc) from None
        if any(kind != pa.large_string() for kind in self.reader.schema.types):
            raise NotStreamable  # a header pyarrow reads apart from the sniffer
        self.names = self.reader.schema.names

    def frames(self, rows: int) -> Iterator[pd.DataFrame]:
        """Frames of ``rows`` rows (the file's blocks cut where a chunk ends), in file
        order, mended rows in their places."""
        held = pa.Table.from_batches([], schema=self.reader.schema)
        done = 0
        while True:
            try:
                batch = self.reader.read_next_batch()
            except StopIteration:
                break
            except (UnicodeDecodeError, pa.ArrowException) as exc:
                raise self._failed(exc) from None
            held = pa.concat_tables([held, pa.Table.from_batches([batch])])
            while held.num_rows >= rows:
                frame, held = self._frame(held.slice(0, rows), done), held.slice(rows)
                done += len(frame)
                yield frame
                del frame  # not held while the next chunk is read
        if held.num_rows or self.mended:
            yield self._frame(held, done, last=True)
        if self.held:
            self.held.update(self._lines_named())

    def _frame(self, table: pa.Table, done: int, *, last: bool = False) -> pd.DataFrame:
        """The table's rows as text columns, the mended rows of their span put back."""
        frame = text_frame(table)
        if not self.mended:
            return frame
        self.mended.sort()
        places = [place for place, _ in self.mended]
        taken = 0  # the mended rows that fall among these rows (or after them, at the end)
        while taken < len(places) and (last or places[taken] < done + len(frame) + taken):
            taken += 1
        if not taken:
            return frame
        mended, self.mended = self.mended[:taken], self.mended[taken:]
        at = np.array([place - done for place, _ in mended])
        others = np.setdiff1d(np.arange(len(frame) + taken), at)
        extra = pd.DataFrame([cells for _, cells in mended], columns=frame.columns,
                             index=at).astype(TEXT)
        return pd.concat([frame.set_axis(others, axis=0), extra]).sort_index()

    def _row(self, row: Any) -> str:
        """pyarrow's question about a row of another width: mend it (``"skip"`` it here,
        put it back in :meth:`_frame`; one with more fields held too), or, where pyarrow
        cannot say its place, read the file whole (``"error"``)."""
        if row.number is None:
            self.unplaced = True
            return "error"
        cells = next(csv.reader(io.StringIO(row.text, newline=""),
                                delimiter=self.found.delimiter), [])
        place = row.number - self.found.data_record - 1  # pyarrow counts every record
        if len(cells) > self.width and any(cell.strip() for cell in cells[self.width:]):
            self.held[place + 1] = held_words(cells, row.number, self.found)  # named again
        kept = [cell or None for cell in cells[:self.width]]
        self.mended.append((place, kept + [None] * (self.width - len(kept))))
        return "skip"

    def _lines_named(self) -> dict[int, str]:
        """The held rows' words as :func:`read` says them, each naming the row's physical
        line (a quoted cell's line break is one, where pyarrow counts records): the file's
        lines read again, one at a time, up to the last row held."""
        with open(self.path, encoding=self.encoding, newline="") as text:
            for _ in range(self.found.skip):
                text.readline()
            return spread(text, self.found, self.name, until=max(self.held))[1]

    def _failed(self, exc: BaseException) -> Exception:
        """What a reading error means: not UTF-8, or a row whose place pyarrow cannot say
        (read whole), or a file that is not CSV."""
        said = str(exc)
        if isinstance(exc, UnicodeDecodeError) or "UTF8" in said or "UTF-8" in said:
            return NotStreamable(encoding=True)
        if self.unplaced or "columns" in said or "Empty CSV" in said:
            return NotStreamable()
        return LeadFileError(f"{self.name}: it is not valid CSV ({said[:200]})")
