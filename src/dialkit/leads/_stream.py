"""``dialkit.leads.clean_file``: clean a lead file into files, a part at a time where it can.

:func:`clean` answers with every row in one frame, as a notebook wants; to write the
cleaned rows to a file, as ``dialkit leads clean --out`` does, the file, its frame
and the written text need not be held at once. A plain UTF-8 CSV on disk is read
:data:`STREAM_ROWS` rows at a time (:mod:`._parts`); each part is judged by the same
column code as :func:`clean` and written at once (:mod:`._sinks`). Across parts
only what the checks of more than one row need is kept: the phones (as integers) and
external ids of the rows taken so far, for the duplicates (:class:`Taken`); each row's
verdict as a byte, for the summary; each row's region and country as dictionary
codes, and the refused rows' cells, for the hints (which name the whole file's
commonest regions, so they are written last). The files' bytes, the summary and
the notes are :func:`clean`'s and :meth:`CleanResult.to_csv`'s.

On the 1,000,000-row mix (``benchmarks/bench_clean.py``): see :data:`STREAM_ROWS`.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._places._blocked import blocked_regions
from ._cells import CHUNK_ROWS
from ._clean import (
    _region,
    _Verdicts,
    clean,
    countries_of,
    judged,
    phone_numbers,
    phone_sources,
    settings,
    with_alt_phone,
)
from ._duplicates import Taken
from ._hints import hint_regions, hinted, refused
from ._parts import ReadWhole, read_parts
from ._read import LeadFile, Source
from ._result import (
    ALT_PHONE_FIELD,
    EXTENSION_FIELD,
    CleanResult,
    count_rows,
    said_extras,
    said_notes,
    status_counts,
)
from ._sinks import CsvSink

if TYPE_CHECKING:
    from ..client import Client

STREAM_ROWS = CHUNK_ROWS
"""Rows read, judged and written at a time: the rows :func:`normalize` takes at a time
(its cost per call and its working memory both grow with fewer or more)."""

_SUFFIXES = (".csv", ".xlsx")


@dataclass(frozen=True)
class CleanSummary:
    """What a clean written to files says besides the rows: the counts and notes of
    :class:`CleanResult`.

    Attributes:
        name: The file's name.
        rows: The rows read (blank rows left out).
        counts: Rows by ``status``.
        summary: Rows by ``status``, ``reason`` and ``field``, most frequent first.
        notes: What the verdicts do not show (:attr:`CleanResult.notes`).
        skipped: Checks that did not run, each with what would run it.
    """

    name: str
    rows: int
    counts: Mapping[str, int]
    summary: pd.DataFrame
    notes: tuple[str, ...]
    skipped: Mapping[str, str]

    @classmethod
    def of(cls, result: CleanResult) -> CleanSummary:
        """A whole :class:`CleanResult`'s."""
        return cls(result.file.name, len(result.frame), result.counts, result.summary,
                   result.notes, result.skipped)


def clean_file(source: Source, *, out: str | os.PathLike[str] | None = None,
               rejects: str | os.PathLike[str] | None = None, escape_formulas: bool = True,
               region: str = "US", client: Client | None = None,
               campaign_id: str | None = None, blocked_countries: Collection[str] = (),
               country_column: str | None = None, sheet: str | int | None = None,
               mapping: Mapping[str, str] | None = None, encoding: str | None = None,
               extension_field: str | None = EXTENSION_FIELD,
               alt_phone_field: str | None = ALT_PHONE_FIELD) -> CleanSummary:
    """Check every row of a lead file as :func:`clean` does, and write the rows with their
    verdicts to ``out`` (``.csv`` as :meth:`CleanResult.to_csv` writes it, or ``.xlsx``
    as :meth:`CleanResult.to_excel`) and the rejected rows to ``rejects`` (CSV).

    A plain UTF-8 CSV on disk, cleaned offline into CSV files, is read, judged and
    written :data:`STREAM_ROWS` rows at a time, never whole in memory; any other file
    (a workbook, another encoding, rows of uneven width), a check with the account
    (``client``) or a workbook to write is cleaned whole by :func:`clean`. Either
    way the files hold the same bytes.

    Args:
        source: The lead file (what :func:`clean` takes).
        out: The file of every row with its verdict, if any.
        rejects: The CSV file of the rejected rows, if any.
        escape_formulas: As for :meth:`CleanResult.to_csv`.
        region, client, campaign_id, blocked_countries, country_column, sheet, mapping,
        encoding, extension_field, alt_phone_field: As for :func:`clean`.

    Returns:
        The counts, summary and notes of the clean.

    Raises:
        ValueError: ``out`` names neither a ``.csv`` nor an ``.xlsx`` file; or as
            :func:`clean`.

    Example:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
        ...     _ = file.write("Mobile,Name\\n(415) 555-0199,Ada\\nnot a phone,Alan\\n")
        >>> dialkit.leads.clean_file("vendor.csv", out="cleaned.csv").counts
        {'accepted': 1, 'invalid': 1}
    """
    if out is not None and Path(out).suffix.lower() not in _SUFFIXES:
        raise ValueError(f"out={out}: name a .csv or .xlsx file")
    options: dict[str, Any] = {
        "region": region, "blocked_countries": blocked_countries,
        "country_column": country_column, "mapping": mapping, "encoding": encoding,
        "extension_field": extension_field, "alt_phone_field": alt_phone_field}
    targets = [(Path(path), rows) for path, rows in ((out, "all"), (rejects, "rejected"))
               if path is not None]
    if client is None and _streamable(source, targets):
        parts = read_parts(source, STREAM_ROWS, mapping=mapping, encoding=encoding)
        if parts is not None:
            try:
                return _Stream(options).run(parts, targets, escape_formulas=escape_formulas)
            except ReadWhole:
                pass
    result = clean(source, client=client, campaign_id=campaign_id, sheet=sheet, **options)
    _write(result, targets, escape_formulas=escape_formulas)
    return CleanSummary.of(result)


def _streamable(source: Source, targets: list[tuple[Path, str]]) -> bool:
    """Whether the files to write can be written in parts: CSV files, each a regular
    file or none yet, neither the lead file nor each other."""
    if not isinstance(source, str | os.PathLike):
        return False
    paths = [Path(source).resolve()]
    for path, _ in targets:
        if path.suffix.lower() != ".csv" or (path.exists() and not path.is_file()):
            return False
        paths.append(path.resolve())
    return len(set(paths)) == len(paths)


def _write(result: CleanResult, targets: list[tuple[Path, str]], *,
           escape_formulas: bool) -> None:
    for path, rows in targets:
        if path.suffix.lower() == ".xlsx":
            result.to_excel(path)
        else:
            result.to_csv(path, rows=rows, escape_formulas=escape_formulas)


class _Stream:
    """One streamed clean: the parts judged in order, and what they leave for the end."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.region = options["region"]
        self.blocked = frozenset(blocked_regions(options["blocked_countries"]))
        self.country_column = options["country_column"]
        self.about = settings(self.region, None, self.blocked, None,
                              options["extension_field"], options["alt_phone_field"])
        self.taken = Taken()
        self.verdicts: list[_Verdicts] = []
        self.found: list[pa.Array] = []  # each row's number's region, dictionary-encoded
        self.countries: list[pa.Array] = []  # each row's country cell, dictionary-encoded
        self.later: list[pd.Series] = []  # the refused rows' phone cells, for the hints
        self.sources: Counter[str] = Counter()
        self.extras: Counter[str] = Counter()
        self.no_room: Counter[str] = Counter()
        self.blank_rows: list[int] = []
        self.file: LeadFile | None = None

    def run(self, parts: Iterator[LeadFile], targets: list[tuple[Path, str]], *,
            escape_formulas: bool) -> CleanSummary:
        """Judge and write every part; then the hints, and the summary."""
        sinks: list[CsvSink] | None = None
        try:
            for part in parts:
                self.blank_rows += part.blank_rows
                if part.frame.empty:
                    continue
                result, later = self.judge(part)
                if sinks is None:
                    sinks = self._open(result, targets, escape_formulas)
                for sink in sinks:
                    sink.write(result, later)
            if sinks is None:
                raise ReadWhole  # no rows: read whole, which says so
            hints, looks_like = self.hints()
            for sink in sinks:
                sink.finish(hints)
        except BaseException:
            for sink in sinks or []:
                sink.close()
                sink.path.unlink(missing_ok=True)
            raise
        return self.summary(looks_like)

    def _open(self, result: CleanResult, targets: list[tuple[Path, str]],
              escape_formulas: bool) -> list[CsvSink]:
        """The files, opened when the first rows are judged; :class:`ReadWhole` when a
        column of the file takes the extension's or ``alt_phone``'s custom field name
        (whether it is refused depends on every row)."""
        if result.named_twice():
            raise ReadWhole
        return [CsvSink(path, rows, escape_formulas=escape_formulas, bom=result.had_bom())
                for path, rows in targets]

    def judge(self, part: LeadFile) -> tuple[CleanResult, np.ndarray]:
        """A part's rows judged as :func:`clean` judges a file's, the hints of other
        regions left out, and the positions of the rows that may get one."""
        self.file = part
        countries = countries_of(part, self.country_column)
        chosen, numbers = phone_numbers(part, self.region, countries)
        verdicts, duplicate_of = judged(part, chosen.cells, numbers, self.blocked, None,
                                        in_request=self.taken)
        later = np.flatnonzero(refused(numbers))
        self.verdicts.append(verdicts)
        self.found += _encoded(numbers["country"])
        self.countries += [] if countries is None else _encoded(countries)
        self.later.append(part.frame[chosen.columns[0]].iloc[later])
        self.sources.update(phone_sources(chosen))
        result = CleanResult.build(part, with_alt_phone(numbers, chosen),
                                   verdicts.frame(part.frame.index), duplicate_of=duplicate_of,
                                   **self.about)
        for name, (sent, no_room) in result.extra_counts().items():
            self.extras[name] += sent
            self.no_room[name] += no_room
        return result, later

    def hints(self) -> tuple[dict[int, str], dict[str, int]]:
        """The hints of the refused rows (by row number) that name one of the whole
        file's commonest regions, and the rows hinted per region."""
        cells = pd.concat(self.later)
        if not len(cells):
            return {}, {}
        region = _region(self.region)
        candidates = hint_regions(_decoded(self.found),
                                  _decoded(self.countries) if self.countries else None, region)
        said, looks_like = hinted(cells, region, candidates)
        if said is None:
            return {}, {}
        found = zip((cells.index + 1).tolist(), said.to_pylist(), strict=True)
        return {row: text for row, text in found if text is not None}, looks_like

    def summary(self, looks_like: dict[str, int]) -> CleanSummary:
        """The counts, the summary and the notes, as :class:`CleanResult` has them."""
        assert self.file is not None
        rows = sum(len(part.codes) for part in self.verdicts)
        verdicts = _Verdicts.joined(self.verdicts).frame(pd.RangeIndex(rows))
        extras = {name: (self.extras[name], self.no_room[name]) for name in self.extras}
        sent = said_extras(extras, self.about["extension_field"], self.about["alt_phone_field"])
        file = replace(self.file, blank_rows=tuple(self.blank_rows))
        return CleanSummary(file.name, rows, status_counts(verdicts),
                            count_rows(verdicts, ["status", "reason", "field"]),
                            said_notes(file.notes, self.sources, sent, looks_like),
                            self.about["skipped"])


def _encoded(column: pd.Series) -> list[pa.Array]:
    """A text column's Arrow chunks, dictionary-encoded: a byte or four a row."""
    held = pa.chunked_array(column.array.__arrow_array__())
    return list(pc.dictionary_encode(held.cast(pa.large_string())).chunks)


def _decoded(chunks: list[pa.Array]) -> pd.Series:
    """:func:`_encoded`'s chunks as one text column."""
    return pd.Series(pd.arrays.ArrowStringArray(pa.chunked_array(
        [chunk.dictionary_decode() for chunk in chunks], pa.large_string())))
