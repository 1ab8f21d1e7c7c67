"""Cleaned rows written a part at a time (CSV, Parquet, an Excel workbook), and how far a
long clean to a file has come.

A cleaned frame in memory is written by one call (:meth:`CleanResult.to_csv`), a
streamed file's (:mod:`._stream`) by one call per chunk; both through these
writers, so that the bytes are the same however the rows came. Each writer is
told the whole's parts in file order and holds no more than one part.

:func:`dialkit.leads.clean` with ``out=`` tells its ``progress`` the rows done and
the seconds gone after each chunk; ``progress=True`` draws its steps with
``tqdm.auto`` (a widget in a notebook, a line on a terminal's standard error), as
the frames' loads draw their pages (:mod:`dialkit._shown._progress`). A streamed
file's rows are counted against its lines (counted when its limits were checked,
before the first row is read): ``reading vendor.csv: 45%|... | 900k/2.00M [00:05<00:06,
180k rows/s]``, then ``finishing vendor.csv`` against the rows read. The DNC
screen (asked for with ``client=``) has a bar of its own: ``checking 1,702,344
numbers against the DNC list: 12%|... [02:57<21:40, 1.15k numbers/s]``. By default,
where nobody watches, the same steps log lines instead (``reading vendor.csv: 900,000 of
2,000,000 rows (45.0%), 180,000/s, about 6 s left``).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import IO, Any

import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from dialkit._files._outputs import EXCEL_OPTIONS, header_filtered, xlsx_errors
from dialkit._files._private import private_new
from dialkit._parallel._threads import in_background
from dialkit._shown._progress import Shown, bar
from dialkit._utils import _tuning
from dialkit.frames import formulas_escaped

from ._verdicts import explained

EXCEL_ROWS = 1_048_576
"""Rows of an Excel sheet, its header's among them."""

WIDEST = 60
"""The widest a cleaned workbook's column is made, in characters: a longer cell shows
in part rather than push the columns after it off the screen."""
WIDTH_ROWS = 1000
"""Rows of a sheet's first part its columns' widths are measured on."""

NO_FORMULAS = ("phone_e164", "country")
"""Verdict columns that never hold a formula: E.164 numbers and region codes, as
:func:`normalize` writes them."""


TEXT = pa.large_string()
"""How a writer types text unless told: with 64-bit offsets, as pandas' Arrow text is."""


class TableSink:
    """Arrow tables written in turn to one writer, opened (:meth:`_open`) with the first
    table's schema, text as ``text`` (``large_string`` unless told; a column empty in
    the first part is ``null`` to Arrow) and no pandas metadata; every later table cast
    to it."""

    def __init__(self, text: pa.DataType = TEXT) -> None:
        self.writer: Any = None
        self.schema: pa.Schema | None = None
        self.text = text

    def _open(self, schema: pa.Schema) -> Any:
        raise NotImplementedError

    def write_table(self, table: pa.Table) -> None:
        if self.writer is None:
            self.schema = pa.schema([pa.field(f.name, self.text if f.type in (
                pa.null(), pa.string(), pa.large_string()) else f.type) for f in table.schema])
            self.writer = self._open(self.schema)
        self.writer.write_table(table.cast(self.schema))

    def close(self) -> None:
        """Flush what the writer holds (a file object given to it is the caller's)."""
        if self.writer is not None:
            self.writer.close()


class CsvSink(TableSink):
    """A cleaned CSV (a header, strings quoted where needed) written by pyarrow's
    writer, :data:`~dialkit._utils._tuning.CSV_BATCH_ROWS` rows at a time: a batch's text is
    all that is held besides the part. Each :data:`~dialkit._utils._tuning.CSV_PART_ROWS` rows
    of a part are escaped and turned into an Arrow table in another thread
    (:mod:`dialkit._parallel._threads`) while the writer, which lets go of the GIL, writes the rows
    before: escaping a whole frame first left a core idle, and held an escaped copy of
    every column a formula starts in.
    (Parts written as text on two threads took more CPU time, 0.48 against 0.33 s for
    the 1M-row mix, and no less wall time on a shared machine.)"""

    def __init__(self, out: IO[bytes], *, escape_formulas: bool = True) -> None:
        super().__init__()
        self.out, self.escape_formulas = out, escape_formulas

    def _open(self, schema: pa.Schema) -> pacsv.CSVWriter:
        options = pacsv.WriteOptions(quoting_style="needed", batch_size=_tuning.CSV_BATCH_ROWS)
        return pacsv.CSVWriter(self.out, schema, write_options=options)

    def write(self, frame: pd.DataFrame) -> None:
        """Write ``frame``'s rows (the header first, with the first part, even empty)."""
        rows = _tuning.CSV_PART_ROWS

        def table(start: int) -> pa.Table:
            part = frame.iloc[start:start + rows]
            return pa.Table.from_pandas(_escaped(part) if self.escape_formulas else part,
                                        preserve_index=False)

        part = table(0)
        for start in range(rows, len(frame), rows):
            ahead = in_background(functools.partial(table, start))
            self.write_table(part)
            part = ahead.result()
        self.write_table(part)  # the last, or an empty frame's header


def _escaped(frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`formulas_escaped` of the frame but :data:`NO_FORMULAS`, which it would read
    a million cells of for nothing (0.07 of 0.28 CPU s); those put back in their place."""
    shown = formulas_escaped(frame.drop(columns=list(NO_FORMULAS)))
    for name in NO_FORMULAS:  # in the frame's order, so each lands where it was
        shown.insert(frame.columns.get_loc(name), name, frame[name])
    return shown


class FrameSink(TableSink):
    """Frames written as they are, a part at a time: a cleaned Parquet file (a row
    group per part: no escaping, no spreadsheet reads Parquet; ``status`` and ``reason``
    as dictionaries), or an Arrow stream (a streamed clean's spill of its chunks)."""

    def __init__(self, path: str | os.PathLike[str], *, kind: str = "parquet",
                 text: pa.DataType = TEXT) -> None:
        super().__init__(text)
        self.path, self.kind = path, kind

    def _open(self, schema: pa.Schema) -> Any:
        if self.kind == "arrow":  # a spill: the lead file's numbers, owner-only
            return pa.ipc.new_stream(str(private_new(Path(self.path))), schema)
        import pyarrow.parquet as pq

        return pq.ParquetWriter(self.path, schema)

    def write(self, frame: pd.DataFrame) -> None:
        self.write_table(pa.Table.from_pandas(frame, preserve_index=False))


class XlsxSink:
    """A cleaned workbook of three sheets, the accepted rows, the rejected rows and the
    summary, as :meth:`CleanResult.to_excel` writes them for a person (a vendor sent
    the rejected rows back): the row numbers and counts number cells (that sort and
    add up), every other cell a string cell (no phone becomes a number, no text a
    formula), an empty one blank; the header frozen, with a filter on each column; the
    refusals in words beside their codes (:func:`explained`); written a row at a time
    in xlsxwriter's constant-memory mode."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        import xlsxwriter  # type: ignore[import-untyped]

        self.book = xlsxwriter.Workbook(str(path), {"constant_memory": True, **EXCEL_OPTIONS})
        self.bold = self.book.add_format({"bold": True, "border": 1, "align": "center",
                                          "valign": "top"})
        self.sheets = {name: self.book.add_worksheet(name)
                       for name in ("accepted", "rejected", "summary")}
        self.rows = dict.fromkeys(self.sheets, 0)
        self.columns = dict.fromkeys(self.sheets, 0)

    def write(self, sheet: str, frame: pd.DataFrame) -> None:
        """Append ``frame``'s rows to ``sheet`` (its header first, with the first part)."""
        if sheet != "accepted":
            frame = explained(frame)
        target = self.sheets[sheet]
        if self.rows[sheet] == 0:
            self._header(sheet, frame)
        start = self.rows[sheet]
        for offset, values in enumerate(frame.astype(object).itertuples(index=False)):
            for column, value in enumerate(values):
                if isinstance(value, int | float) and not isinstance(value, bool):
                    if value == value:  # NaN: an empty cell
                        target.write_number(start + offset, column, value)
                elif value is not None and value is not pd.NA:
                    target.write_string(start + offset, column, str(value))
        self.rows[sheet] = start + len(frame)

    def _header(self, sheet: str, frame: pd.DataFrame) -> None:
        """The sheet's header, its columns as wide as the header and the first part's
        first rows need (up to :data:`WIDEST`)."""
        target = self.sheets[sheet]
        for column, name in enumerate(frame.columns):
            target.write_string(0, column, str(name), self.bold)
            cells = frame[name].head(WIDTH_ROWS).dropna().astype(str).str.len()
            target.set_column(column, column, min(max([len(str(name)), *cells]) + 2, WIDEST))
        self.rows[sheet], self.columns[sheet] = 1, len(frame.columns)

    def close(self) -> None:
        for name, sheet in self.sheets.items():
            header_filtered(sheet, self.rows[name] - 1, self.columns[name])
        with xlsx_errors():  # a full disk named as any other failed write
            self.book.close()

# How far a long clean has come --------------------------------------------------------------

SCALED = 10_000
"""Counts from which a bar shows them scaled (``1.70M/2.00M``): below, as they are
(``450/450``, not ``450.0/450.0``)."""


class ProgressBar:
    """The bar of a clean's rows, read then finished; :meth:`close` ends it. It is drawn
    once its total is known: a streamed file's lines before its first row is read, a file
    read whole (a workbook) once its rows are."""

    def __init__(self, name: str, how: Shown = "bar") -> None:
        self.name, self.how = name, how
        self.bar: Any = None
        self.done = 0
        self.dnc = DncBar(how)

    def _step(self, what: str, total: int) -> None:
        if self.bar is None:
            self.bar = bar(self.how, desc=f"{what} {self.name}", total=total, unit=" rows",
                           unit_scale=total >= SCALED)
            return
        self.bar.refresh()  # the step before as it ended
        self.bar.set_description(f"{what} {self.name}", refresh=False)
        self.bar.reset(total=total)

    def reading(self, rows: int, lines: int) -> None:
        """``rows`` of the file's rows read and judged, of about ``lines``."""
        if self.bar is None:
            self._step("reading", lines)
        self.bar.total = max(lines, rows)
        self.bar.update(rows - self.bar.n)

    def finishing(self, rows: int) -> None:
        """The second step begins: the ``rows`` read are finished and written."""
        self._step("finishing", rows)
        self.done = 0

    def __call__(self, rows: int, seconds: float) -> None:
        if self.bar is None:  # a file read whole: told once, at its end
            self._step("cleaned", rows)
        self.bar.update(rows - self.done)
        self.done = rows

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.dnc.close()


class DncBar:
    """The numbers checked against the account's DNC list, of those a clean will ask
    about: a file read in chunks asks a chunk's numbers at a time, so its total is
    estimated from the share of the file read, and exact once the last chunk is."""

    def __init__(self, how: Shown = "bar") -> None:
        self.how = how
        self.bar: Any = None
        self.asked = 0

    def asking(self, numbers: int, share: float) -> None:
        """``numbers`` more are to be asked about, the file ``share`` (0-1) read."""
        self.asked += numbers
        total = max(round(self.asked / max(share, 1e-9)), self.asked) if share < 1 \
            else self.asked
        what = f"checking {total:,} numbers against the DNC list"
        if self.bar is None:
            self.bar = bar(self.how, desc=what, total=total, unit=" numbers",
                           unit_scale=total >= SCALED)
            return
        self.bar.total = total
        self.bar.set_description(what)

    def checked(self, numbers: int) -> None:
        self.bar.update(numbers)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.total = self.asked  # the file read: the count is known
            self.bar.set_description(f"checked {self.asked:,} numbers against the DNC list",
                                     refresh=False)
            self.bar.close()
