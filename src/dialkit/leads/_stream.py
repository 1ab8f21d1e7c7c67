"""A lead file of any size cleaned in the memory of one chunk: ``clean(path, out=...)``.

The file is read twice over, a chunk at a time (:mod:`._chunks`). The first
reading normalises each chunk's phones and runs every check but the request's
duplicates (:func:`judged`, as a file read whole has them), keeps the chunk's
columns in a spill file on disk, its eligible rows' keys in buckets
(:mod:`._spill`), and counts what the whole file's answers need: the regions
(for the hints), the columns that gave the phones. Then the duplicates are found
bucket by bucket, and the second reading, of the spill, finishes each chunk's
verdicts and hints and writes its rows to the outputs. The output is the file a
clean of the whole file in memory writes, byte for byte, and is written under a
temporary name and renamed once complete: a clean stopped half way leaves no file
that looks whole.
"""

from __future__ import annotations

import contextlib
import dataclasses
import html
import os
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .._partitions import on_dask
from .._places._blocked import blocked_regions
from .._threads import in_background
from ._campaign import check_campaign
from ._cells import CHUNK_ROWS
from ._chunks import NotStreamable, Streamed, stream
from ._clean import (
    AccountChecks,
    Judged,
    clean_whole,
    country_column_of,
    field_name,
    judged,
    region_code,
    skipped_checks,
)
from ._custom import CustomFields, frame_column, phone_columns
from ._duplicates import phone_numbers
from ._hints import hint_regions, region_counts, region_hints
from ._read import LeadFile, Source
from ._result import (
    ALT_PHONE_FIELD,
    EXTENSION_FIELD,
    CleanResult,
    counts_html,
    had_bom,
    notes_of,
    numbered,
    row_hints,
)
from ._result import judged as with_verdicts
from ._sinks import EXCEL_ROWS, CsvSink, FrameSink, XlsxSink
from ._spill import Keys, Owners
from ._verdicts import VERDICTS, Checked, text, verdict_frame

if TYPE_CHECKING:
    from ..client import Client

Progress = Callable[[int, float], None]
"""Told, after each chunk of a clean written to a file, the rows done and the seconds
since the clean began."""

OUTPUTS = (".csv", ".parquet", ".xlsx")
"""What a cleaned file can be written as."""

_INTERNAL = ("__reason", "__before", "__after")
"""Columns the spill holds besides a cleaned frame's: normalize's reason (for the
hints) and the codes of the checks before and after the duplicates."""

@dataclass(frozen=True)
class CleanedFile:
    """What a clean written to a file answers: the counts, the summary and the notes,
    and where the rows went (the rows themselves are in the file, not in memory).

    Attributes:
        name: The lead file's name.
        rows: Rows read (blank rows skipped).
        summary: Rows by ``status``, ``reason`` and ``field``, as :attr:`CleanResult.summary`.
        notes: What the verdicts do not show, as :attr:`CleanResult.notes`.
        skipped: Checks that did not run, each with what would run it.
        out: The file every row went to, with its verdict (``None``: none asked).
        rejects: The file the rejected rows went to (``None``: none asked).
    """

    name: str
    rows: int
    summary: pd.DataFrame = field(repr=False)
    notes: tuple[str, ...] = field(repr=False)
    skipped: dict[str, str] = field(repr=False)
    out: Path | None = None
    rejects: Path | None = None

    @property
    def counts(self) -> dict[str, int]:
        """Rows by ``status``."""
        counts: Counter[str] = Counter()
        for status, rows in zip(self.summary["status"], self.summary["rows"], strict=True):
            counts[status] += int(rows)
        return dict(counts)

    def __repr__(self) -> str:
        shown = ", ".join(f"{status} {count:,}" for status, count in self.counts.items())
        written = f" → {self.out}" if self.out is not None else ""
        return f"<{type(self).__name__} {self.name}: {self.rows:,} rows: {shown}{written}>"

    def _repr_html_(self) -> str:
        accepted = self.counts.get("accepted", 0)
        title = html.escape(f"{self.name}: {self.rows:,} rows, {accepted:,} accepted, "
                            f"{self.rows - accepted:,} rejected")
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in self.notes)
        return f"<div><strong>{title}</strong>{counts_html(self.summary)}<ul>{notes}</ul></div>"


def clean(source: Source | LeadFile, *, region: str = "US", client: Client | None = None,
          campaign_id: str | None = None, blocked_countries: Collection[str] = (),
          country_column: str | None = None, sheet: str | int | None = None,
          mapping: Mapping[str, str] | None = None, encoding: str | None = None,
          extension_field: str | None = EXTENSION_FIELD,
          alt_phone_field: str | None = ALT_PHONE_FIELD,
          out: str | os.PathLike[str] | None = None,
          rejects: str | os.PathLike[str] | None = None, escape_formulas: bool = True,
          progress: Progress | bool | None = None) -> CleanResult | CleanedFile:
    """Check every row of a lead file as the service will, before importing it.

    Args:
        source: A lead file (CSV, TSV, XLSX, XLS), a binary file object, a frame
            (pandas', Polars', a pyarrow Table), or what :func:`read` returned; or a
            Dask DataFrame, or a Parquet dataset (a folder, or a ``.parquet`` file),
            read with Dask when it is installed: each partition is judged on Dask's
            workers, the duplicates across partitions found by a shuffle on the
            number, and the rows never come to this machine (``docs/scale.md``).
            With ``client``, a Dask source's rows are judged on this machine (the
            service is asked from here), their phones normalised on the workers.
        region: The default region of numbers written nationally.
        client: With a client, the checks that need the account run too: the
            DNC screen (``client.frames.dnc``, cached) and, with ``campaign_id``,
            the leads already in the campaign (and, when the file has external
            ids, the ids this API client uses in other campaigns).
        campaign_id: The campaign the leads are for.
        blocked_countries: Countries the account blocks: ISO 3166 alpha-2 codes or
            English names, in a list or one comma-separated text (``"KP, IR"``), as
            :func:`dialkit.compliance.audit` takes them; the service knows the
            account's list, the API does not show it.
        country_column: The column of each row's country; by default the one
            named country or country code.
        sheet: As for :func:`read`.
        mapping: As for :func:`read`.
        encoding: As for :func:`read`.
        extension_field: The custom field a phone's extension is sent as, ``None``
            to leave extensions out (the E.164 phone cannot hold one).
        alt_phone_field: The custom field a row's other numbers are sent as (a
            second number in the phone cell, the other phone columns' numbers),
            ``None`` to leave them out.

        out: Write every row with its verdict to this file (``.csv``, ``.parquet``,
            or ``.xlsx``: the accepted rows, the rejected rows and the summary) as it
            is judged, and hold none: a CSV on disk is read in chunks, in memory that
            does not grow with the file (``docs/scale.md``). The file appears once
            complete (written under a temporary name and renamed).
            For a Dask source (without ``client``), a folder (``cleaned`` or
            ``cleaned.parquet``) the workers write the cleaned partitions into as
            Parquet, a file each, in the same run as the counts; a ``.csv`` or
            ``.xlsx`` is refused (write ``.compute()``'s result, which holds every
            row here). A folder written earlier is replaced once the new one is
            complete; one holding other files is refused.
        rejects: Write the rejected rows alone to this CSV file, likewise (for a Dask
            source, a folder of Parquet files).
        escape_formulas: As for :meth:`CleanResult.to_csv`, for ``out`` and ``rejects``.
        progress: With ``out`` or ``rejects``: ``True`` to show the rows done and the
            rows per second as the clean goes (in a notebook's output, else on a
            terminal's standard error), or a function called after each chunk with the
            rows done and the seconds since the clean began.

    Returns:
        A :class:`CleanResult`: one row per input row with its ``status``,
        ``reason`` and ``field`` in the vocabulary of the service's ``LeadResult``.
        With ``out`` or ``rejects``, a :class:`CleanedFile`: the summary, the notes,
        the counts and the paths written, the rows in the files only. For a Dask
        source (without ``client``), a :class:`CleanedDataset`: the summary, notes and
        counts, computed from each partition's counts, and the cleaned rows as a lazy
        Dask frame (``.frame``; ``.compute()`` gives the :class:`CleanResult`,
        ``.to_parquet(folder)`` writes them from the workers).

    Raises:
        CampaignError: With ``client`` and ``campaign_id``: the campaign is not the
            account's, or cannot take leads (read before the file).
        LeadFileError: The file cannot be read, or has no phone column.

    Examples:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
        ...     _ = file.write("Mobile,Name,E-mail\\n(415) 555-0199,Ada,ada@example.com\\n"
        ...                    "212.555.0142,Alan,\\nnot a phone,Nobody,\\n")
        >>> result = dialkit.leads.clean("vendor.csv", region="US")
        >>> result.summary
             status         reason field rows
        0  accepted           None  None    2
        1   invalid  invalid_phone  None    1
    """
    options: dict[str, Any] = {
        "region": region, "client": client, "campaign_id": campaign_id,
        "blocked_countries": blocked_countries, "country_column": country_column,
        "sheet": sheet, "mapping": mapping, "encoding": encoding,
        "extension_field": extension_field, "alt_phone_field": alt_phone_field}
    if client is None and on_dask((source,), compute=True):
        from ._dask_clean import clean_dataset  # imports Dask

        return clean_dataset(source, out=out, rejects=rejects, progress=progress, **options)
    if out is None and rejects is None:
        return clean_whole(source, **options)
    return clean_file(source, out=out, rejects=rejects, escape_formulas=escape_formulas,
                      progress=progress, **options)


def clean_file(source: Any, *, progress: Progress | bool | None = None,
               **options: Any) -> CleanedFile:
    """:func:`clean_to`, with a bar of its progress for ``progress=True``: the command
    line's clean, whose outputs may be none (the summary alone, the rows held nowhere)."""
    if progress is not True:
        return clean_to(source, progress=progress or None, **options)
    from ._progress import ProgressBar

    bar = ProgressBar(Path(str(getattr(source, "name", source))).name)
    try:
        return clean_to(source, progress=bar, **options)
    finally:
        bar.close()


def clean_to(source: Any, *, out: str | os.PathLike[str] | None = None,
             rejects: str | os.PathLike[str] | None = None, escape_formulas: bool = True,
             bom: bool | None = None, progress: Progress | None = None,
             region: str = "US", client: Client | None = None, campaign_id: str | None = None,
             blocked_countries: Any = (), country_column: str | None = None,
             sheet: str | int | None = None, mapping: Any = None, encoding: str | None = None,
             extension_field: str | None = EXTENSION_FIELD,
             alt_phone_field: str | None = ALT_PHONE_FIELD) -> CleanedFile:
    """:func:`clean` with the rows written to ``out`` (``.csv``, ``.parquet`` or ``.xlsx``)
    and the rejected ones to ``rejects`` (CSV) as they are judged, not held: a CSV on
    disk is read in chunks, anything else (a workbook, a frame, a file in another
    encoding) read whole and written the same way."""
    outputs = _outputs(out, rejects)
    options = {"region": region, "client": client, "campaign_id": campaign_id,
               "blocked_countries": blocked_countries, "country_column": country_column,
               "extension_field": extension_field, "alt_phone_field": alt_phone_field}
    blocked = frozenset(blocked_regions(blocked_countries))
    if client is not None and campaign_id is not None:
        check_campaign(client, campaign_id)
    field_name("extension_field", extension_field)
    field_name("alt_phone_field", alt_phone_field)
    streamed = None if sheet is not None else _streamed(source, mapping, encoding)
    began = time.perf_counter()
    with _written(outputs) as partial:  # an output that cannot be written fails first
        while streamed is not None:
            with tempfile.TemporaryDirectory(prefix="dialkit-clean-") as folder:
                try:
                    run = _Run(streamed, Path(folder), blocked, options, progress, began)
                    return run.write(partial, outputs, escape_formulas, bom)
                except NotStreamable as why:  # found half way: a byte that is not UTF-8
                    again = why.encoding and streamed.file.encoding != "cp1252"
                    streamed = _streamed(source, mapping, encoding, legacy=True) if again \
                        else None
        result = clean_whole(source, sheet=sheet, mapping=mapping, encoding=encoding,
                             **options)
        _write_whole(result, partial, _kind(outputs), escape_formulas, bom)
    if progress is not None:
        progress(len(result.frame), time.perf_counter() - began)
    return CleanedFile(result.file.name, len(result.frame), result.summary, result.notes,
                       dict(result.skipped), *outputs)


def _streamed(source: Any, mapping: Any, encoding: str | None, *,
              legacy: bool = False) -> Streamed | None:
    """The file opened to be read in chunks: as UTF-8, else (``legacy``, or at once when
    its first block is not UTF-8) as cp1252 where it reads so throughout; ``None`` when
    it is read whole."""
    try:
        return stream(source, mapping=mapping, encoding=encoding, legacy=legacy)
    except NotStreamable as why:
        if legacy or not why.encoding:
            return None
    return _streamed(source, mapping, encoding, legacy=True)


def _outputs(out: Any, rejects: Any) -> tuple[Path | None, Path | None]:
    """The output paths, each checked for a kind this can write."""
    out = None if out is None else Path(out)
    rejects = None if rejects is None else Path(rejects)
    if out is not None and out.suffix.lower() not in OUTPUTS:
        raise ValueError(f"out={str(out)!r}: name a .csv, .parquet or .xlsx file")
    if rejects is not None and rejects.suffix.lower() != ".csv":
        raise ValueError(f"rejects={str(rejects)!r}: name a .csv file")
    return out, rejects


def _kind(outputs: tuple[Path | None, Path | None]) -> str:
    return "" if outputs[0] is None else outputs[0].suffix.lower()


@contextlib.contextmanager
def _written(outputs: tuple[Path | None, Path | None]) -> Iterator[list[Path | None]]:
    """Temporary files beside each output (made at once: an output that cannot be written
    fails before the file is read), renamed to it once every row is written; removed,
    and the outputs left as they were, if the clean stops."""
    partial: list[Path | None] = []
    try:
        for path in outputs:
            if path is None:
                partial.append(None)
                continue
            name = path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.partial")
            try:
                name.open("xb").close()  # the user's umask, as a file written in place has
            except OSError as error:  # named as the output, not as its temporary file
                raise type(error)(error.errno, error.strerror, str(path)) from None
            partial.append(name)
        yield partial
        for written, path in zip(partial, outputs, strict=True):
            if written is not None and path is not None:
                os.replace(written, path)
    finally:
        for written in partial:
            if written is not None:
                written.unlink(missing_ok=True)


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


def _write_whole(result: CleanResult, partial: list[Path | None], kind: str,
                 escape_formulas: bool, bom: bool | None) -> None:
    """A clean of a whole file written as a streamed one's chunks are."""
    sinks = _Sinks(partial, kind, escape_formulas,
                   had_bom(result.file.encoding) if bom is None else bom)
    sinks.write(result.frame)
    sinks.close(result.summary)


@dataclass
class Counted:
    """What the whole file's answers need, counted chunk by chunk (a Dask clean's
    partitions counted apart and :meth:`merged`)."""

    sources: np.ndarray  # valid phones by the column that gave them
    rows: int = 0
    passing: int = 0
    regions: Counter[str] = field(default_factory=Counter)
    held: dict[str, bool] = field(default_factory=lambda: {"extension": False,
                                                            "alt_phone": False})
    verdicts: np.ndarray = field(default_factory=lambda: np.zeros(len(VERDICTS), np.int64))
    first: np.ndarray = field(default_factory=lambda: np.full(len(VERDICTS), np.iinfo(
        np.int64).max))
    sent: Counter[tuple[str, int]] = field(default_factory=Counter)  # (field, 0 sent/1 not)
    looks_like: Counter[str] = field(default_factory=Counter)

    def summary(self) -> pd.DataFrame:
        """Rows by verdict, most frequent first, then in order of first appearance, as
        :func:`count_rows` has them."""
        present = sorted(np.flatnonzero(self.verdicts).tolist(),
                         key=lambda code: (-self.verdicts[code], self.first[code]))
        table = pd.DataFrame({"status": [VERDICTS[code][0] for code in present],
                              "reason": [VERDICTS[code][1] for code in present],
                              "field": [VERDICTS[code][2] for code in present],
                              "rows": [int(self.verdicts[code]) for code in present]},
                             dtype=object)
        return table.where(table.notna(), None)

    def count(self, part: Judged, checked: Checked) -> None:
        """Count a judged chunk: its rows, its passing rows, its regions (for the hints),
        the columns that gave its phones, whether it holds extensions and other numbers."""
        numbers = part.numbers
        self.rows += len(numbers)
        self.passing += int(((checked.before == 0) & (checked.after == 0)).sum())
        self.regions.update(region_counts(numbers, part.countries))
        valid = numbers["phone_e164"].notna().to_numpy(dtype=bool)
        self.sources += np.bincount(part.chosen.source[valid], minlength=len(self.sources))
        for column in self.held:
            self.held[column] |= bool(numbers[column].notna().any())

    def tally(self, frame: pd.DataFrame, codes: np.ndarray, looks_like: dict[str, int],
              custom: CustomFields) -> None:
        """Count a finished chunk's verdicts (and the row each is first met on), its
        hints' regions, the custom fields its accepted rows send."""
        self.verdicts += np.bincount(codes, minlength=len(VERDICTS))
        present, first = np.unique(codes, return_index=True)
        self.first[present] = np.minimum(self.first[present],
                                         frame["row"].to_numpy()[first])
        self.looks_like.update(looks_like)
        if any(frame[column].notna().any() for column in self.held):
            for name, (sent, no_room) in custom.counted(frame, accepted_only=True).items():
                self.sent.update({(name, 0): sent, (name, 1): no_room})

    def merged(self, other: Counted) -> Counted:
        """The counts of two parts of a file together (a Dask clean's partitions)."""
        return Counted(self.sources + other.sources, self.rows + other.rows,
                       self.passing + other.passing, _summed(self.regions, other.regions),
                       {name: held or other.held[name] for name, held in self.held.items()},
                       self.verdicts + other.verdicts, np.minimum(self.first, other.first),
                       _summed(self.sent, other.sent), _summed(self.looks_like, other.looks_like))

    def notes(self, file: LeadFile, columns: list[str],
              custom: CustomFields) -> tuple[str, ...]:
        """:attr:`CleanResult.notes` from the counts: which columns gave the phones, the
        custom fields sent, the rows whose number looks like another region's."""
        sent = custom.said({name: (self.sent[name, 0], self.sent[name, 1])
                            for name in custom.names()}) if any(self.held.values()) else None
        return notes_of(file, self.by_column(columns), sent, dict(self.looks_like.most_common()))

    def by_column(self, columns: list[str]) -> dict[str, int]:
        """:attr:`CleanResult.sources`: the valid phones each of ``columns`` gave (only
        with fallback columns)."""
        return {} if len(columns) == 1 else dict(zip(
            columns, (int(n) for n in self.sources), strict=True))


def _summed(first: Counter[Any], second: Counter[Any]) -> Counter[Any]:
    """Two counters added as ``update`` adds them (a count of 0 kept, as ``+`` does not)."""
    summed = Counter(first)
    summed.update(second)
    return summed


def judged_chunk(file: LeadFile, column: str | None, region: str, blocked: frozenset[str],
                 accounts: AccountChecks | None,
                 counted: Counted) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A chunk's rows (``file.frame``) numbered, their numbers normalised, their checks run
    (but the duplicates), counted into ``counted``; and its eligible rows' keys: ``row``,
    ``phone`` (:func:`phone_numbers`), ``external_id`` and whether each ``passes`` the
    later checks."""
    part = judged(file, column, region, blocked, accounts)
    numbers, checked = part.numbers, part.checked
    numbers["alt_phone"] = part.chosen.alt_phone
    counted.count(part, checked)
    eligible = checked.before == 0
    external = text(file.frame, file.fields.get("external_id"))
    keys = pd.DataFrame({"row": (file.frame.index + 1).to_numpy()[eligible],
                         "phone": phone_numbers(numbers["phone_e164"])[eligible],
                         "external_id": external[eligible].reset_index(drop=True),
                         "passes": (checked.after == 0)[eligible]})
    spilled = numbered(file.frame, numbers).assign(__reason=numbers["reason"],
                                                   __before=checked.before,
                                                   __after=checked.after)
    return spilled, keys


def finished_chunk(spilled: pd.DataFrame, owner: np.ndarray, regions: list[str],
                   phone_column: str, region: str, counted: Counted,
                   custom: CustomFields) -> pd.DataFrame:
    """A chunk's cleaned rows from :func:`judged_chunk`'s frame: its verdicts (``owner``:
    per row, the number of the row it repeats, or -1), its hints (``regions``: the whole
    file's, :func:`hint_regions`); tallied into ``counted``."""
    checked = Checked(spilled["__before"].to_numpy(), spilled["__after"].to_numpy())
    codes = checked.final(owner >= 0)
    numbers = pd.DataFrame({"reason": spilled["__reason"], "flags": spilled["flags"]})
    hints, looks_like = region_hints(spilled[frame_column(phone_column)], numbers,
                                     region_code(region), lambda: regions)
    base = spilled.drop(columns=list(_INTERNAL))
    frame = with_verdicts(base, verdict_frame(codes, base.index),
                          row_hints(hints, owner, len(base)))
    counted.tally(frame, codes, looks_like, custom)
    return frame


class _Run:
    """One streamed clean: the first reading, the duplicates, the second reading."""

    def __init__(self, streamed: Streamed, folder: Path, blocked: frozenset[str],
                 options: dict[str, Any], progress: Progress | None, began: float) -> None:
        self.streamed, self.folder, self.blocked = streamed, folder, blocked
        self.options, self.progress, self.began = options, progress, began
        self.file = streamed.file
        self.region = options["region"]
        self.column = country_column_of(self.file, options["country_column"])
        self.columns = [self.file.fields["phone"], *phone_columns(self.file)]
        self.counted = Counted(np.zeros(len(self.columns), np.int64))
        self.custom = CustomFields(self.file, options["extension_field"],
                                   options["alt_phone_field"])

    def write(self, partial: list[Path | None], outputs: tuple[Path | None, Path | None],
              escape_formulas: bool, bom: bool | None) -> CleanedFile:
        """Clean the file into the ``partial`` files of ``outputs``."""
        spill = self.folder / "rows.arrow"
        keys = Keys(self.folder, os.path.getsize(self.streamed.path))
        self._first_reading(spill, keys)
        file = self.streamed.finished()
        self.custom.check(self.counted.held)
        owners = keys.owners()
        self._fits(outputs[0], owners)
        regions = hint_regions(self.counted.regions, region_code(self.region))
        sinks = _Sinks(partial, _kind(outputs), escape_formulas,
                       had_bom(file.encoding) if bom is None else bom)
        try:
            self._second_reading(spill, owners, regions, sinks)
        finally:
            sinks.close(self.counted.summary())
        notes = self.counted.notes(file, self.columns, self.custom)
        return CleanedFile(file.name, self.counted.rows, self.counted.summary(), notes,
                           skipped_checks(self.options["client"], self.options["campaign_id"]),
                           *outputs)

    def _first_reading(self, spill: Path, keys: Keys) -> None:
        """Each chunk's phones and checks; its columns to ``spill``, its keys to ``keys``."""
        client, campaign_id = self.options["client"], self.options["campaign_id"]
        accounts = None if client is None else AccountChecks(
            client, campaign_id, "external_id" in self.file.fields)
        spilled = FrameSink(spill, kind="arrow")
        try:
            for frame in _ahead(self.streamed.chunks):
                spilled.write(self._judged(frame, accounts, keys))
                del frame  # not held while the chunk after next is read
        finally:
            spilled.close()

    def _judged(self, frame: pd.DataFrame, accounts: AccountChecks | None,
                keys: Keys) -> pd.DataFrame:
        """:func:`judged_chunk` of a chunk, its keys added to ``keys``."""
        spilled, eligible = judged_chunk(dataclasses.replace(self.file, frame=frame),
                                         self.column, self.region, self.blocked, accounts,
                                         self.counted)
        keys.add(eligible["row"].to_numpy(), eligible["phone"].to_numpy(),
                 eligible["external_id"], eligible["passes"].to_numpy())
        return spilled

    def _fits(self, out: Path | None, owners: Owners) -> None:
        """Refuse, before anything is written, a workbook whose sheets cannot hold the rows."""
        if out is None or out.suffix.lower() != ".xlsx":
            return
        accepted = self.counted.passing - owners.passing
        largest = max(accepted, self.counted.rows - accepted)
        if largest >= EXCEL_ROWS:
            raise ValueError(
                f"{self.file.name}: {largest:,} rows would go on one sheet of {out.name}, "
                f"and an Excel sheet holds {EXCEL_ROWS - 1:,} below its header: write a "
                ".csv or .parquet file instead")

    def _second_reading(self, spill: Path, owners: Owners, regions: list[str],
                        sinks: _Sinks) -> None:
        """Each chunk's verdicts and hints finished and written, in file order."""
        # read, not memory-mapped: a mapped file's pages would stay in the process's
        # resident memory as they are read, and it is as large as the input
        with pa.OSFile(str(spill)) as opened, pa.ipc.open_stream(opened) as reader:
            finished = (self._finished(table, owners, regions) for table in _tables(reader))
            done = 0
            for frame in _ahead(finished):  # the next chunk finished while this is written
                sinks.write(frame)
                done += len(frame)
                del frame  # not held while the chunk after next is finished
                if self.progress is not None:
                    self.progress(done, time.perf_counter() - self.began)

    def _finished(self, table: pa.Table, owners: Owners, regions: list[str]) -> pd.DataFrame:
        """A spilled chunk's cleaned rows (:func:`finished_chunk`)."""
        spilled = table.to_pandas(types_mapper={pa.large_string(): pd.StringDtype("pyarrow")}.get)
        del table
        spilled.index = pd.Index(spilled["row"].to_numpy() - 1)
        return finished_chunk(spilled, owners.of(spilled["row"].to_numpy()), regions,
                              self.columns[0], self.region, self.counted, self.custom)


def _ahead(chunks: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
    """The chunks, each next one made on a thread (:mod:`dialkit._threads`) while this
    one is used: the next one read while this is judged, the next one finished while this
    is written. pyarrow's parser and writer let go of the GIL, and a core was idle."""
    ahead = in_background(lambda: next(chunks, None))
    while (frame := ahead.result()) is not None:
        ahead = in_background(lambda: next(chunks, None))
        yield frame
        del frame


def _tables(reader: pa.ipc.RecordBatchStreamReader) -> Iterator[pa.Table]:
    """The spill's batches joined into tables of :data:`CHUNK_ROWS` rows or so."""
    batches: list[pa.RecordBatch] = []
    held = 0
    for batch in reader:
        batches.append(batch)
        held += batch.num_rows
        if held >= CHUNK_ROWS:
            table, batches, held = pa.Table.from_batches(batches), [], 0
            yield table
            del table  # not held while the next is read
    if batches:
        yield pa.Table.from_batches(batches)
