"""A lead file of any size cleaned in the memory of one chunk: ``clean_file(path, out=...)``.

The file is read once, a chunk at a time (:mod:`.._read._chunks`), the next chunk
read and its phones normalised on a thread while this one is judged. The first
reading runs every check but the request's duplicates (:func:`judged_chunk`, as a
file read whole has them), keeps the chunk's judged columns in a spill file on disk
(Arrow's format: read back, not parsed), its eligible rows' keys in buckets
(:mod:`._duplicates`), and counts what the whole file's answers need: the regions (for
the hints), the columns that gave the phones. Then the duplicates are found bucket
by bucket, and the second reading, of the spill, finishes each chunk's verdicts and
hints and writes its rows to the outputs. (The finished rows need the whole file's
hint regions, so they cannot be written in the first reading; holding every judged
chunk instead of spilling would not keep the memory flat, and the spill's round
trip costs less than parsing and normalising the file again.) The output is the file a
clean of the whole file in memory writes, byte for byte, and is written under a
temporary name and renamed once complete: a clean stopped half way leaves no file
that looks whole. A file that cannot be read in chunks (a workbook, a frame, a file in
another encoding) is read whole and goes the same way as the one chunk of a file
(:class:`_OneBatch`): one driver writes every clean to a file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa

from dialkit._files._leftovers import sweep, tagged
from dialkit._files._outputs_written import refuse_overlaps, written
from dialkit._files._stopped import cleaned_up_on_signals
from dialkit._parallel._partitions import on_dask, read_whole
from dialkit._parallel._threads import in_background
from dialkit._shown._progress import shown
from dialkit._utils import _tuning

from ..._utils._base_error import InputError
from .._read._chunks import NotStreamable, Streamed, stream
from .._read._lead_file import LeadFile, Source, read, text_frame
from ._chunked import CleanedFile, Counted, finished_chunk, judged_chunk, phone_numbers_of
from ._custom import CustomFields, phone_columns, with_numbers
from ._duplicates import Keys, Owners, spill_folder, spilling
from ._hints import hint_regions, ranked
from ._judge import AccountChecks, Normalized, country_column_of, region_code
from ._result import CleanResult, had_bom
from ._sinks import EXCEL_ROWS, CsvSink, FrameSink, ProgressBar, XlsxSink

if TYPE_CHECKING:
    from .._options import CleanOptions

T = TypeVar("T")

Progress = Callable[[int, float], None]
"""Told, after each chunk of a clean written to a file, the rows done and the seconds
since the clean began."""

OUTPUTS = (".csv", ".parquet", ".xlsx")
"""What a cleaned file can be written as."""
SPILLS = "dialkit-clean-"
"""The start of the name of a streamed clean's folder in the temporary folder (its spill
and buckets, as large as the file again), followed by the process's id: one that a
clean killed half way left is removed by the next clean."""


def clean_file_with(source: Any, options: CleanOptions, *,
                    out: str | os.PathLike[str] | None = None,
                    rejects: str | os.PathLike[str] | None = None,
                    escape_formulas: bool = True,
                    progress: Progress | bool | None = None) -> CleanedFile:
    """:func:`clean_file` of ``options``: its rows written to ``out`` and ``rejects`` as
    they are judged, not held; for ``progress=True``, bars of its steps (:mod:`._sinks`),
    told each step's total too; by default, bars where someone watches, log lines where
    nobody does (:func:`~dialkit._shown._progress.shown`)."""
    outputs = _outputs(out, rejects, source)
    blocked = options.checked()
    streamed = None if options.sheet is not None else _streamed(source, options)
    steps = None
    how = shown(progress) if progress is None or isinstance(progress, bool) else None
    if how is not None:
        steps = ProgressBar(Path(str(getattr(source, "name", source))).name, how)
    told = steps or (None if progress is None or isinstance(progress, bool) else progress)
    began = time.perf_counter()
    with cleaned_up_on_signals(), \
            contextlib.closing(steps) if steps else contextlib.nullcontext(), \
            _written(outputs) as partial:  # an output that cannot be written fails first
        spills = spill_folder()  # the user's TMPDIR, or an error naming it
        sweep(spills, SPILLS)  # what a clean killed half way left
        while True:
            batches = streamed or _one_batch(source, options)
            with tempfile.TemporaryDirectory(prefix=tagged(SPILLS), dir=spills) as folder:
                try:
                    run = _Run(batches, Path(folder), blocked, options, told, began, steps)
                    return run.write(partial, outputs, escape_formulas)
                except NotStreamable as why:  # found half way: a byte that is not UTF-8
                    again = why.encoding and batches.file.encoding != "cp1252"
            streamed = _streamed(source, options, legacy=True) if again else None


def clean_whole(source: Any, options: CleanOptions) -> CleanResult:
    """:func:`~dialkit.leads.clean`: the file read whole (or a frame) and cleaned as the
    one chunk of a streamed file, by the same driver, its keys, spill and owners held in
    memory and its rows kept."""
    blocked = options.checked()  # before the file: a mistyped id fails fast
    run = _Run(_one_batch(source, options), None, blocked, options)
    file, owners = run.judge()
    (frame,) = run.finished(owners)
    return CleanResult(frame, file, region=options.region, campaign_id=options.campaign_id,
                       blocked_countries=tuple(sorted(blocked)), skipped=options.skipped(),
                       extension_field=options.extension_field,
                       alt_phone_field=options.alt_phone_field,
                       sources=run.counted.by_column(run.columns),
                       looks_like=ranked(run.counted.looks_like), country_column=run.column,
                       advice=run.counted.advice())


def _streamed(source: Any, options: CleanOptions, *, legacy: bool = False) -> Streamed | None:
    """The file opened to be read in chunks: as UTF-8, else (``legacy``, or at once when
    its first block is not UTF-8) as cp1252 where it reads so throughout; ``None`` when
    it is read whole."""
    try:
        return stream(source, mapping=options.mapping, encoding=options.encoding,
                      legacy=legacy, header=options.header)
    except NotStreamable as why:
        if legacy or not why.encoding:
            return None
    return _streamed(source, options, legacy=True)


@dataclasses.dataclass
class _OneBatch(Streamed):
    """A file read whole as the one chunk of a streamed file, its keys held in memory;
    ``normalized``: its phones' normaliser on Dask, for a Dask frame's rows."""

    normalized: Normalized | None = None


def read_for_clean(source: Source | LeadFile,
                   options: CleanOptions) -> tuple[LeadFile, Normalized | None]:
    """A file read whole, or a frame, to be cleaned as one chunk; a Dask frame's rows
    brought to the client, with the normaliser that does their phones on Dask."""
    if on_dask((source,), compute=True):
        from .._dask import _client as _dask
        return read_for_clean(_dask.whole(source), options)[0], _dask.normalizer(source)
    return source if isinstance(source, LeadFile) else read(
        read_whole(source), sheet=options.sheet, mapping=options.mapping,
        encoding=options.encoding, header=options.header), None


def _one_batch(source: Any, options: CleanOptions) -> _OneBatch:
    """``source`` read whole (:func:`read_for_clean`), as the one chunk of a streamed file."""
    file, normalized = read_for_clean(source, options)
    return _OneBatch(file, iter([file.frame]), Path(), list(file.blank_rows),
                     len(file.frame) + len(file.blank_rows) + 1, dict(file.held_rows),
                     normalized=normalized)


def _outputs(out: Any, rejects: Any, source: Any) -> tuple[Path | None, Path | None]:
    """The output paths, each checked for a kind this can write, for not being the
    lead file itself (which the output would replace once the clean was done), and for
    not being one file (the rejects would replace the rows)."""
    out = None if out is None else Path(out)
    rejects = None if rejects is None else Path(rejects)
    if out is not None and out.suffix.lower() not in OUTPUTS:
        raise InputError(f"out={str(out)!r}: name a .csv, .parquet or .xlsx file")
    if rejects is not None and rejects.suffix.lower() != ".csv":
        raise InputError(f"rejects={str(rejects)!r}: name a .csv file")
    refuse_overlaps({"out": out, "rejects": rejects}, {"what is being cleaned": source})
    return out, rejects


@contextlib.contextmanager
def _written(outputs: tuple[Path | None, Path | None]) -> Iterator[list[Path | None]]:
    """Hidden files beside each output (made at once: an output that cannot be written
    fails before the file is read), renamed to it once every row is written; removed,
    and the outputs left as they were, if the clean stops (:func:`written`)."""
    with contextlib.ExitStack() as stack:
        yield [None if path is None else stack.enter_context(written(path, option))
               for option, path in zip(("out", "rejects"), outputs, strict=True)]


class _Sinks:
    """The outputs a clean writes, each chunk's rows in turn."""

    def __init__(self, partial: list[Path | None], kind: str, escape_formulas: bool,
                 bom: bool) -> None:
        self.files: list[IO[bytes]] = []
        self.csv: CsvSink | None = None
        self.rejects: CsvSink | None = None
        self.parquet: FrameSink | None = None
        self.xlsx: XlsxSink | None = None
        out, rejects = partial
        if out is not None and kind == ".csv":
            self.csv = CsvSink(self._open(out, bom), escape_formulas=escape_formulas)
        elif out is not None and kind == ".parquet":
            self.parquet = FrameSink(out)
        elif out is not None:
            self.xlsx = XlsxSink(out)
        if rejects is not None:
            self.rejects = CsvSink(self._open(rejects, bom), escape_formulas=escape_formulas)

    def _open(self, path: Path, bom: bool) -> IO[bytes]:
        opened = open(path, "wb")  # noqa: SIM115 (closed in close())
        self.files.append(opened)
        if bom:
            opened.write(b"\xef\xbb\xbf")
        return opened

    def write(self, frame: pd.DataFrame) -> None:
        accepted = (frame["status"] == "accepted").to_numpy(dtype=bool)
        if self.csv is not None:
            self.csv.write(frame)
        if self.parquet is not None:
            self.parquet.write(frame)
        if self.xlsx is not None:
            self.xlsx.write("accepted", frame[accepted])
            self.xlsx.write("rejected", frame[~accepted])
        if self.rejects is not None:
            self.rejects.write(frame[~accepted])

    def close(self, summary: pd.DataFrame) -> None:
        if self.xlsx is not None:
            self.xlsx.write("summary", summary)
        for sink in (self.csv, self.parquet, self.xlsx, self.rejects):
            if sink is not None:
                sink.close()
        for opened in self.files:
            opened.close()


def _peeked(streamed: Streamed) -> pd.DataFrame:
    """The first chunk of ``streamed``, left to be read again (its file's empty frame where
    it has none)."""
    first = next(streamed.chunks, None)
    if first is None:
        return streamed.file.frame
    streamed.chunks = itertools.chain([first], streamed.chunks)
    return first


class _Run:
    """One streamed clean: the first reading, the duplicates, the second reading."""

    def __init__(self, streamed: Streamed, folder: Path | None, blocked: frozenset[str],
                 options: CleanOptions, progress: Progress | None = None, began: float = 0.0,
                 steps: ProgressBar | None = None) -> None:
        self.streamed, self.folder, self.blocked = streamed, folder, blocked
        self.options, self.progress, self.began, self.steps = options, progress, began, steps
        self.file = streamed.file
        whole = streamed if isinstance(streamed, _OneBatch) else None
        self.normalized = None if whole is None else whole.normalized
        self.size = 0 if whole is not None else os.path.getsize(streamed.path)  # 0: held
        # one chunk has nothing to overlap, and a thread's allocations held 14 MiB more
        self.ahead = _ahead if whole is None else iter
        self.region = options.region
        self.column = country_column_of(self.file, options.country_column)
        self.file = streamed.file = with_numbers(self.file, lambda: _peeked(streamed),
                                                 self.region, self.column)
        self.columns = [self.file.fields["phone"], *phone_columns(self.file)]
        self.counted = Counted(np.zeros(len(self.columns), np.int64))
        self.custom = CustomFields.of(self.file, options.extension_field,
                                      options.alt_phone_field)
        self.keys = Keys(folder, self.size)
        self.spill = _Spill(None if folder is None or self.keys.held is not None
                            else folder / "rows.arrow")
        self.held: dict[int, str] = {}  # the rows held for more fields, once all are read

    def judge(self) -> tuple[LeadFile, Owners]:
        """The first reading, then the duplicates: the file as read, and its rows' owners."""
        self._first_reading(self.spill, self.keys)
        file = self.streamed.finished()
        self.held = dict(file.held_rows)
        self.custom.check(self.counted.held)
        return file, self.keys.owners()

    def finished(self, owners: Owners) -> Iterator[pd.DataFrame]:
        """The second reading: each chunk's verdicts and hints finished, in file order,
        the next one finished while this one is used."""
        regions = hint_regions(self.counted.regions, region_code(self.region))
        return self.ahead(finished_chunk(frame, owners.of(frame["row"].to_numpy()), regions,
                                         self.columns[0], self.region, self.counted,
                                         self.custom, self.column, self.held)
                          for frame in self.spill.chunks())

    def write(self, partial: list[Path | None], outputs: tuple[Path | None, Path | None],
              escape_formulas: bool) -> CleanedFile:
        """Clean the file into the ``partial`` files of ``outputs``."""
        with spilling(self.folder, self.size):
            file, owners = self.judge()
        self._fits(outputs[0], owners)
        if self.steps is not None:
            self.steps.finishing(self.counted.rows)
        kind = "" if outputs[0] is None else outputs[0].suffix.lower()
        sinks = _Sinks(partial, kind, escape_formulas, had_bom(file.encoding))
        try:
            self._second_reading(owners, sinks)
        finally:
            sinks.close(self.counted.summary())
        notes = self.counted.notes(file, self.columns, self.custom, self.column)
        return CleanedFile(file.name, self.counted.rows, self.counted.summary(), notes,
                           self.options.skipped(),
                           *outputs, fields=file.fields, custom_fields=self.custom.sent)

    def _first_reading(self, spill: _Spill, keys: Keys) -> None:
        """Each chunk's phones and checks; its columns to ``spill``, its keys to ``keys``."""
        client, campaign_id = self.options.client, self.options.campaign_id
        accounts = None if client is None else AccountChecks(
            client, campaign_id, cached=spill.held,
            dnc=None if self.steps is None else self.steps.dnc)
        rows = max(self.streamed.lines - 1, 1)  # the header's line, not a row
        if self.steps is not None:
            self.steps.reading(0, rows)
        try:
            for frame, first in self._read_ahead():
                read = int(frame.index[-1]) + 1 if len(frame) else rows
                if accounts is not None:
                    accounts.share = min(read / rows, 1.0)
                spilled, eligible = judged_chunk(
                    dataclasses.replace(self.file, frame=frame), self.column, self.region,
                    self.blocked, accounts, self.counted, self.normalized, first)
                keys.add(eligible["row"].to_numpy(), eligible["phone"].to_numpy(),
                         eligible["external_id"], eligible["passes"].to_numpy())
                spill.write(spilled)
                del frame, first, spilled  # not held while the chunk after next is read
                if self.steps is not None:
                    self.steps.reading(read, rows)
        finally:
            spill.close()

    def _read_ahead(self) -> Iterator[tuple[pd.DataFrame, pd.DataFrame | None]]:
        """The chunks, each with its phone column's numbers when they were normalised
        ahead: a streamed file's next chunk is read and normalised on a thread while this
        one is judged, so the judge's checks run beside normalize's parts rather than
        after them (a file read whole, one chunk, is normalised as it is judged)."""
        if self.ahead is iter:
            return ((frame, None) for frame in self.streamed.chunks)
        return self.ahead((frame, phone_numbers_of(frame, self.columns[0], self.region,
                                                   self.column))
                          for frame in self.streamed.chunks)

    def _fits(self, out: Path | None, owners: Owners) -> None:
        """Refuse, before anything is written, a workbook whose sheets cannot hold the rows."""
        if out is None or out.suffix.lower() != ".xlsx":
            return
        accepted = self.counted.passing - owners.passing
        largest = max(accepted, self.counted.rows - accepted)
        if largest >= EXCEL_ROWS:
            raise InputError(
                f"{self.file.name}: {largest:,} rows would go on one sheet of {out.name}, "
                f"and an Excel sheet holds {EXCEL_ROWS - 1:,} below its header: write a "
                ".csv or .parquet file instead")

    def _second_reading(self, owners: Owners, sinks: _Sinks) -> None:
        """Each chunk's verdicts and hints finished and written, in file order."""
        done = 0
        for frame in self.finished(owners):
            sinks.write(frame)
            done += len(frame)
            del frame  # not held while the chunk after next is finished
            if self.progress is not None:
                self.progress(done, time.perf_counter() - self.began)


class _Spill:
    """The judged chunks, kept until the file's duplicates are known: in memory for a
    file whose keys are held there too (:data:`~dialkit._utils._tuning.HELD_BYTES`; writing
    them to disk and reading them back took 0.12 s of a 1,000,000-row clean), else in
    Arrow streams on disk, read back a chunk at a time.

    Text is spilled as Arrow's ``string``, with 32-bit offsets: a ``large_string``'s
    offsets were 100 of the 190 bytes a row of the mix spilled, and writing a file costs
    CPU in the kernel once the page cache is full; a 20,000,000-row clean took 0.95x the
    CPU with them halved (``benchmarks/RESULTS.md``). A chunk with a column of
    more text than 32-bit offsets reach (:data:`NARROW_BYTES`) starts a stream of
    ``large_string`` of its own."""

    def __init__(self, path: Path | None) -> None:
        self.path, self.held = path, path is None
        self.frames: list[pd.DataFrame] = []
        self.files: list[Path] = []
        self.sink: FrameSink | None = None

    def write(self, frame: pd.DataFrame) -> None:
        if self.path is None:
            self.frames.append(frame)
            return
        table = pa.Table.from_pandas(frame, preserve_index=False)
        text = pa.string() if _narrow_fits(table) else pa.large_string()
        if self.sink is None or self.sink.text != text:
            self.close()
            self.files.append(self.path.with_name(f"{self.path.stem}-{len(self.files)}.arrow"))
            self.sink = FrameSink(self.files[-1], kind="arrow", text=text)
        self.sink.write_table(table)

    def close(self) -> None:
        if self.sink is not None:
            self.sink.close()
            self.sink = None

    def chunks(self) -> Iterator[pd.DataFrame]:
        """The chunks in file order, each let go once taken."""
        while self.frames:
            yield self.frames.pop(0)
        for path in self.files:
            # read, not memory-mapped: a mapped file's pages would stay in the process's
            # resident memory as they are read, and it is as large as the input
            with pa.OSFile(str(path)) as opened, pa.ipc.open_stream(opened) as reader:
                for table in _tables(reader):
                    frame = text_frame(table.cast(pa.schema([field.with_type(
                        pa.large_string()) if field.type == pa.string() else field
                        for field in table.schema])))
                    del table
                    frame.index = pd.Index(frame["row"].to_numpy() - 1)
                    yield frame


NARROW_BYTES = (1 << 31) - 1
"""The most bytes a column of text with 32-bit offsets (Arrow's ``string``) holds."""


def _narrow_fits(table: pa.Table) -> bool:
    """Whether each part of each text column of ``table`` fits :data:`NARROW_BYTES`
    (its offsets and bitmap counted too: an upper bound)."""
    return all(part.nbytes <= NARROW_BYTES for column in table.columns
               if column.type in (pa.string(), pa.large_string()) for part in column.chunks)


def _ahead(chunks: Iterator[T]) -> Iterator[T]:
    """The chunks, each next one made on a thread (:mod:`dialkit._parallel._threads`) while this
    one is used: the next one read while this is judged, the next one finished while this
    is written. pyarrow's parser and writer let go of the GIL, and a core was idle."""
    ahead = in_background(lambda: next(chunks, None))
    while (frame := ahead.result()) is not None:
        ahead = in_background(lambda: next(chunks, None))
        yield frame
        del frame


def _tables(reader: pa.ipc.RecordBatchStreamReader) -> Iterator[pa.Table]:
    """The spill's batches joined into tables of :data:`~dialkit._utils._tuning.CHUNK_ROWS` rows or
    so."""
    batches: list[pa.RecordBatch] = []
    held = 0
    for batch in reader:
        batches.append(batch)
        held += batch.num_rows
        if held >= _tuning.CHUNK_ROWS:
            table, batches, held = pa.Table.from_batches(batches), [], 0
            yield table
            del table  # not held while the next is read
    if batches:
        yield pa.Table.from_batches(batches)
