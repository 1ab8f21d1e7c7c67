"""The CSV files a streamed clean writes a part at a time, their last hints written last.

A row refused as ``invalid_phone`` may get a hint naming one of the file's ten
commonest regions (:mod:`._hints`), which only the whole file tells; every other
cell of every row is known when its part is judged. So each part's rows are written
at once with those hints empty, and where each such row's line ends is kept (a few
bytes per refused row); at the end the hints found are written into their lines.
``hint`` is the last column, so a line's hint goes just before its line break,
and the bytes after it move up by the hint's length: one pass over the file from its
end, never the whole file in memory.
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

from ..frames import formulas_escaped
from ._result import CSV_BATCH_ROWS, CleanResult, write_csv

MOVE_BYTES = 1 << 22
"""Bytes moved at a time when hints are written into the file."""
_NEWLINE = ord("\n")


class CsvSink:
    """One CSV a streamed clean writes: every row, or the accepted or rejected ones, as
    :meth:`CleanResult.to_csv` writes them, and where each line whose hint comes last
    ends."""

    def __init__(self, path: Path, rows: str, *, escape_formulas: bool, bom: bool) -> None:
        self.path, self.rows, self.escape = path, rows, escape_formulas
        self.file = open(path, "wb")  # noqa: SIM115 (closed by finish or close)
        self.offset = 0
        self.started = False
        self.pending: list[tuple[int, int]] = []  # (the line break's offset, row number)
        if bom:
            self._emit(codecs.BOM_UTF8)

    def write(self, result: CleanResult, later: np.ndarray) -> None:
        """A part's rows; ``later``: the positions among them of the rows whose hint is
        written last (all of them rejected rows)."""
        table = result.csv_table(self.rows, escape_formulas=self.escape)
        if not self.started:
            self._emit(_csv(table.slice(0, 0), header=True))
            self.started = True
        kept = np.flatnonzero(_kept(result, self.rows))
        later = later[np.isin(later, kept)]
        at, numbers = np.searchsorted(kept, later), result.frame["row"].to_numpy()[later]
        for start in range(0, table.num_rows, CSV_BATCH_ROWS):
            inside = (at >= start) & (at < start + CSV_BATCH_ROWS)
            self._piece(table.slice(start, CSV_BATCH_ROWS), at[inside] - start,
                        numbers[inside])

    def _piece(self, piece: pa.Table, at: np.ndarray, numbers: np.ndarray) -> None:
        """Some rows, and where the lines at ``at`` end: at the line breaks of the text
        when no cell holds one, else written apart at each of those lines."""
        data = _csv(piece)
        if len(at):
            ends = np.flatnonzero(np.frombuffer(data, np.uint8) == _NEWLINE)
            if len(ends) != piece.num_rows:  # a cell holds a line break
                self._apart(piece, at, numbers)
                return
            self.pending += zip((self.offset + ends[at]).tolist(), numbers.tolist(),
                                strict=True)
        self._emit(data)

    def _apart(self, piece: pa.Table, at: np.ndarray, numbers: np.ndarray) -> None:
        cuts = [0, *(at + 1).tolist()]
        for begin, end, number in zip(cuts, cuts[1:], numbers.tolist(), strict=False):
            self._emit(_csv(piece.slice(begin, end - begin)))
            self.pending.append((self.offset - 1, number))
        self._emit(_csv(piece.slice(cuts[-1])))

    def _emit(self, data: bytes) -> None:
        self.file.write(data)
        self.offset += len(data)

    def finish(self, hints: Mapping[int, str]) -> None:
        """Close the file, with each row's hint (by row number) written into its line."""
        self.file.close()
        cells = hint_cells(hints, escape_formulas=self.escape)
        insert(self.path, [(offset, cells[number]) for offset, number in self.pending
                           if number in cells])

    def close(self) -> None:
        """Close the file as it is (the clean stopped)."""
        self.file.close()


def _kept(result: CleanResult, rows: str) -> np.ndarray:
    """Which of the result's rows ``rows`` (``all``, ``accepted``, ``rejected``) keeps."""
    if rows == "all":
        return np.ones(len(result.frame), dtype=bool)
    accepted: np.ndarray = (result.frame["status"] == "accepted").to_numpy(dtype=bool)
    return accepted if rows == "accepted" else ~accepted


def _csv(table: pa.Table, *, header: bool = False) -> bytes:
    out = io.BytesIO()
    write_csv(table, out, header=header)
    return out.getvalue()


def hint_cells(hints: Mapping[int, str], *, escape_formulas: bool) -> dict[int, bytes]:
    """Each hint as its CSV cell, as the writer writes it (escaped, quoted)."""
    frame = pd.DataFrame({"hint": pd.arrays.ArrowStringArray(
        pa.array(list(hints.values()), pa.large_string()))})
    shown = formulas_escaped(frame) if escape_formulas else frame
    lines = _csv(pa.Table.from_pandas(shown, preserve_index=False)).split(b"\n")
    return dict(zip(hints, lines, strict=False))  # the text's last line break: nothing


def insert(path: Path, inserts: list[tuple[int, bytes]]) -> None:
    """Write each text at its offset (ascending) into the file, moving the bytes after it
    up: one pass from the end, :data:`MOVE_BYTES` at a time."""
    if not inserts:
        return
    with open(path, "r+b") as file:
        fd = file.fileno()
        end = os.fstat(fd).st_size
        shift = sum(len(text) for _, text in inserts)
        for offset, text in reversed(inserts):
            while end > offset:
                size = min(MOVE_BYTES, end - offset)
                end -= size
                os.pwrite(fd, os.pread(fd, size, end), end + shift)
            shift -= len(text)
            os.pwrite(fd, text, offset + shift)
