"""A plain UTF-8 lead CSV on disk read a part at a time, for a clean that streams.

:func:`read` holds a file's whole frame, which a notebook wants. A clean that writes
its rows to a file needs only some rows at a time: the same reader (pyarrow's, with
the same options: :func:`csv_options`) opened as a stream gives the same columns a
block at a time, and the parts are cut from them. The file's layout (delimiter,
header line) is found on its head and its limits checked first, as :func:`read`
does; a file that needs more than its head to be read (a workbook, another
encoding, a byte order mark) is not read in parts, nor one that turns out midway
not to be UTF-8 or to hold rows wider or narrower than its header
(:class:`ReadWhole`): :func:`read` reads those whole, as it always did.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pacsv

from .._file_limits import FileLimits, LimitError, check_delimited
from ._delimiter import layout
from ._encoding import BOMS, SNIFFED
from ._read import (
    _EXCEL_MAGIC,
    LeadFile,
    LeadFileError,
    Source,
    _about,
    _load,
    _no_numbers,
    all_text,
    csv_options,
    mapped_fields,
    text_frame,
    without_blank_rows,
)


class ReadWhole(Exception):  # noqa: N818 (an instruction, not an error)
    """The file cannot be read in parts after all: read it whole with :func:`read`."""


def read_parts(source: Source, rows: int, *, mapping: Mapping[str, str] | None = None,
               encoding: str | None = None) -> Iterator[LeadFile] | None:
    """The file's rows ``rows`` at a time, each part a :class:`LeadFile` as :func:`read`
    gives (its frame's index the rows' places in the whole file, its ``blank_rows``
    the part's); ``None`` when the file is to be read whole: not a path, a workbook,
    an encoding given or marked, or pyarrow cannot start reading it.

    Raises:
        LeadFileError: As :func:`read`: the file cannot be opened, or is past a limit;
            or (on the first part) no phone column, or a mapping of unknown names.
    """
    if encoding is not None or not isinstance(source, str | os.PathLike):
        return None
    file = _load(source)
    if (file.head.startswith((*_EXCEL_MAGIC, *(bom for bom, _ in BOMS)))
            or b"\x00" in file.head):
        return None
    found = layout(file.head[:SNIFFED].decode("utf-8", errors="ignore"), file.name, [
        mapping["phone"]] if mapping and "phone" in mapping else [])
    limits = FileLimits.from_env()
    path = Path(str(file.path))
    try:
        check_delimited(path, found.delimiter, file.name, limits)
    except LimitError as refused:
        raise LeadFileError(str(refused)) from None
    try:
        reader = pacsv.open_csv(str(path), **csv_options(found, limits))
    except (pa.ArrowException, UnicodeDecodeError):
        return None
    if not all_text(reader.schema):
        return None
    return _parts(reader, rows, file.name, mapping, _about(found, "utf-8"))


def _parts(reader: pacsv.CSVStreamingReader, rows: int, name: str,
           mapping: Mapping[str, str] | None, about: dict[str, Any]) -> Iterator[LeadFile]:
    """Each part of ``rows`` rows as a :class:`LeadFile`, blank rows left out."""
    mapped: tuple[dict[str, str], list[str], list[str]] | None = None
    start = 0
    for table in _tables(reader, rows):
        frame = text_frame(table, start)
        start += len(frame)
        if mapped is None:
            mapped = mapped_fields(name, [str(c) for c in frame.columns], mapping, about)
        frame, blank = without_blank_rows(frame)
        yield LeadFile(name, frame, *mapped, _no_numbers(), blank_rows=blank, **about)


def _tables(reader: pacsv.CSVStreamingReader, rows: int) -> Iterator[pa.Table]:
    """The reader's batches as tables of ``rows`` rows (the last one the rest);
    :class:`ReadWhole` when a batch cannot be read."""
    held: list[pa.RecordBatch] = []
    count = 0
    try:
        for batch in reader:
            held.append(batch)
            count += batch.num_rows
            while count >= rows:
                table = pa.Table.from_batches(held, reader.schema)
                yield table.slice(0, rows)
                held, count = table.slice(rows).to_batches(), count - rows
    except (pa.ArrowException, UnicodeDecodeError):
        raise ReadWhole from None
    if count:
        yield pa.Table.from_batches(held, reader.schema)
