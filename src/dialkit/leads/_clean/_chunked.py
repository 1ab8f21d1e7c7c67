"""A file's chunks, or a Dask frame's partitions, judged apart and finished together;
a file held in memory is one chunk.

A file too large for memory is cleaned a chunk at a time (:mod:`._stream`), a file in
memory by the same driver as a single chunk, a Dask frame a partition at a time on the
workers (:mod:`.._dask._clean`); each judges its parts with :func:`judged_chunk` (the
phones chosen and normalised, every check but the request's duplicates), finds the
duplicates over the whole file's keys, and finishes each part with
:func:`finished_chunk` (the verdicts and hints). A clean to files or on Dask answers
with counts (:class:`Counted`), not rows (a :class:`CleanedFile`); one in memory with
every row (a :class:`CleanResult`).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._shown._pages import NOT_MATH
from dialkit._shown._words import counted

from .._normalize._phones import choose
from .._read._lead_file import LeadFile
from ._custom import CustomFields, frame_column, phone_columns
from ._duplicates import phone_numbers
from ._hints import (
    Reading,
    changing_regions,
    ninth_digit_hints,
    ranked,
    region_counts,
    region_hints,
)
from ._judge import (
    AccountChecks,
    Normalized,
    normalized_cells,
    region_code,
    stored_as_number,
    unevaluated,
)
from ._result import (
    Advice,
    counts_html,
    notes_of,
    numbered,
    other_number_hints,
    row_hints,
    rows_by,
)
from ._result import judged as with_verdicts
from ._verdicts import EXTRA_FIELDS, VERDICTS, Checked, checks, text, verdict_frame

_INTERNAL = ("__reason", "__before", "__after", "__other")
"""Columns the spill holds besides a cleaned frame's: normalize's reason (for the
hints), the codes of the checks before and after the duplicates, and the row's other
valid number (:attr:`Phones.other_valid`, for the hints)."""


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
        fields: Lead field (and ``country``) → the column that holds it, as
            :attr:`LeadFile.fields`.
        custom_fields: The file's columns its leads are sent with as custom fields.
    """

    name: str
    rows: int
    summary: pd.DataFrame = field(repr=False)
    notes: tuple[str, ...] = field(repr=False)
    skipped: dict[str, str] = field(repr=False)
    out: Path | None = None
    rejects: Path | None = None
    fields: dict[str, str] = field(default_factory=dict, repr=False)
    custom_fields: tuple[str, ...] = field(default=(), repr=False)

    @property
    def counts(self) -> dict[str, int]:
        """Rows by ``status``."""
        return rows_by(self.summary, "status")

    def __repr__(self) -> str:
        shown = ", ".join(f"{status} {count:,}" for status, count in self.counts.items())
        written = f" → {self.out}" if self.out is not None else ""
        return f"<{type(self).__name__} {self.name}: {counted(self.rows, 'row')}: {shown}{written}>"

    def _repr_html_(self) -> str:
        accepted = self.counts.get("accepted", 0)
        title = html.escape(f"{self.name}: {counted(self.rows, 'row')}, {accepted:,} accepted, "
                            f"{self.rows - accepted:,} rejected")
        notes = "".join(f"<li>{html.escape(note)}</li>" for note in self.notes)
        return (f'<div class="{NOT_MATH}"><strong>{title}</strong>'
                f"{counts_html(self.summary)}<ul>{notes}</ul></div>")


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
    unknown: Counter[str] = field(default_factory=Counter)  # country cells not understood
    changing: set[str] = field(default_factory=set)  # regions region= would change a row in
    # the refused texts the hints read so far, for the next chunks (region_hints' seen): a
    # part's own, not merged, nor pickled (a Dask part's counts go back to the client)
    readings: dict[str, Reading | None] = field(default_factory=dict, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "readings": {}}

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

    def count(self, numbers: pd.DataFrame, source: np.ndarray, countries: pd.Series | None,
              checked: Checked) -> None:
        """Count a judged chunk: its rows, its passing rows, its regions (for the hints),
        the columns that gave its phones (``source``: each row's), whether it holds
        extensions and other numbers."""
        self.rows += len(numbers)
        self.passing += int(((checked.before == 0) & (checked.after == 0)).sum())
        regions, unknown = region_counts(numbers, countries)
        self.regions.update(regions)
        self.unknown.update(unknown)
        valid = numbers["phone_e164"].notna().to_numpy(dtype=bool)
        self.sources += np.bincount(source[valid], minlength=len(self.sources))
        for column in self.held:
            self.held[column] |= bool(numbers[column].notna().any())

    def tally(self, frame: pd.DataFrame, codes: np.ndarray, looks_like: dict[str, int],
              custom: CustomFields, changing: set[str]) -> None:
        """Count a finished chunk's verdicts (and the row each is first met on), its
        hints' regions, the regions that would change one of its numbers, the custom
        fields its accepted rows send."""
        self.changing |= changing
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
                       _summed(self.sent, other.sent), _summed(self.looks_like, other.looks_like),
                       _summed(self.unknown, other.unknown), self.changing | other.changing)

    def notes(self, file: LeadFile, columns: list[str], custom: CustomFields,
              country: str | None = None) -> tuple[str, ...]:
        """:attr:`CleanResult.notes` from the counts: which columns gave the phones, the
        custom fields sent, the rows whose number looks like another region's
        (``country``: the column of each row's country)."""
        sent = custom.said({name: (self.sent[name, 0], self.sent[name, 1])
                            for name in custom.names()}) if any(self.held.values()) else None
        return notes_of(file, self.by_column(columns), sent, ranked(self.looks_like), country,
                        self.advice())

    def advice(self) -> Advice:
        """What the notes advise beyond the hinted rows: the country cells not understood,
        the regions ``region=`` would change a valid number under."""
        return Advice(dict(self.unknown), frozenset(self.changing))

    def by_column(self, columns: list[str]) -> dict[str, int]:
        """:attr:`CleanResult.sources`: the valid phones each of ``columns`` gave (only
        with fallback columns)."""
        return {} if len(columns) == 1 else dict(zip(
            columns, (int(n) for n in self.sources), strict=True))


def _held_hints(hints: pa.Array, rows: pd.Series, held: Mapping[int, str]) -> pa.Array:
    """``hints`` with each held row's (``rows``: each row's number) replaced by why it was
    held; the rows looked up in ``held`` at once, only the held ones' words made."""
    places = rows.to_numpy(np.int64)
    at = np.flatnonzero(np.isin(places, np.fromiter(held, np.int64, len(held))))
    if not len(at):
        return hints
    words = pa.array([held[int(place)] for place in places[at]], hints.type)
    index = np.full(len(places), -1, np.int64)
    index[at] = np.arange(len(at))
    return pc.coalesce(words.take(pa.array(index, mask=index < 0)), hints)


def _summed(first: Counter[Any], second: Counter[Any]) -> Counter[Any]:
    """Two counters added as ``update`` adds them (a count of 0 kept, as ``+`` does not)."""
    summed = Counter(first)
    summed.update(second)
    return summed


def judged_chunk(file: LeadFile, column: str | None, region: str, blocked: frozenset[str],
                 accounts: AccountChecks | None, counted: Counted,
                 normalized: Normalized | None = None, first: pd.DataFrame | None = None
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A chunk's rows (``file.frame``) numbered, their phones chosen (:func:`choose`, the
    country ``column``'s region for each) and normalised (by ``normalized``, on Dask, if
    given; ``first``: the phone column's numbers, normalised ahead by
    :func:`phone_numbers_of`), their checks run (but the request's duplicates), counted
    into ``counted``;
    and its eligible rows' keys: ``row``, ``phone`` (:func:`phone_numbers`),
    ``external_id`` and whether each ``passes`` the later checks."""
    countries = None if column is None else file.frame[column]
    chosen = choose(file.frame, [file.fields["phone"], *phone_columns(file)],
                    lambda cells: (normalized or normalized_cells)(cells, region, countries),
                    first)
    numbers = chosen.numbers
    numbers["flags"] = stored_as_number(numbers["flags"], file, chosen)
    numbers = unevaluated(numbers, file.formulas, chosen.columns[0], file.frame.index)
    external = text(file.frame, file.fields.get("external_id"))
    account = None if accounts is None else accounts.of(numbers["phone_e164"], external)
    checked = checks(file.frame, file.fields, chosen.cells, numbers, blocked, account)
    held = _held(file)
    if held is not None:  # rows of more fields than the header: refused before any check
        checked.before[held], checked.after[held] = EXTRA_FIELDS, 0
    numbers["alt_phone"] = chosen.alt_phone
    counted.count(numbers, chosen.source, countries, checked)
    eligible = checked.before == 0
    keys = pd.DataFrame({"row": (file.frame.index + 1).to_numpy()[eligible],
                         "phone": phone_numbers(numbers["phone_e164"])[eligible],
                         "external_id": external[eligible].reset_index(drop=True),
                         "passes": (checked.after == 0)[eligible]})
    spilled = numbered(file.frame, numbers).assign(__reason=numbers["reason"],
                                                   __before=checked.before,
                                                   __after=checked.after,
                                                   __other=chosen.other_valid)
    return spilled, keys


def _held(file: LeadFile) -> np.ndarray | None:
    """Which rows of ``file.frame`` the reader held for more fields than the header
    (:attr:`LeadFile.held_rows`), ``None`` where none is."""
    if not file.held_rows:
        return None
    held = np.fromiter(dict(file.held_rows), np.int64)  # a copy: a streamed file's reader
    return np.isin(file.frame.index.to_numpy() + 1, held)  # may add the next chunk's


def phone_numbers_of(frame: pd.DataFrame, phone_column: str, region: str,
                     column: str | None) -> pd.DataFrame:
    """A chunk's phone column normalised as :func:`judged_chunk` normalises it (the
    country ``column``'s region for each row), to be handed to it as ``first``."""
    return normalized_cells(frame[phone_column], region,
                            None if column is None else frame[column])


def finished_chunk(spilled: pd.DataFrame, owner: np.ndarray, regions: list[str],
                   phone_column: str, region: str, counted: Counted,
                   custom: CustomFields, country_column: str | None = None,
                   held: Mapping[int, str] | None = None) -> pd.DataFrame:
    """A chunk's cleaned rows from :func:`judged_chunk`'s frame: its verdicts (``owner``:
    per row, the number of the row it repeats, or -1), its hints (``regions``: the whole
    file's, :func:`hint_regions`; ``country_column``: the file's column of each row's
    country; ``held``: the file's rows held for more fields than the header, whose hint
    is why, :attr:`LeadFile.held_rows`); tallied into ``counted``."""
    checked = Checked(spilled["__before"].to_numpy(), spilled["__after"].to_numpy())
    codes = checked.final(owner >= 0)
    numbers = pd.DataFrame({"reason": spilled["__reason"], "flags": spilled["flags"]})
    cells = spilled[frame_column(phone_column)]
    countries = None if country_column is None else spilled[
        frame_column(country_column)].rename(country_column)
    hints, looks_like = region_hints(cells, numbers, region_code(region), lambda: regions,
                                     countries, counted.readings)
    hints = ninth_digit_hints(hints, cells, numbers, region_code(region), countries)
    base = spilled.drop(columns=list(_INTERNAL))
    said = other_number_hints(row_hints(hints, owner, len(base)), codes, spilled["__other"])
    frame = with_verdicts(base, verdict_frame(codes, base.index),
                          said if not held else _held_hints(said, spilled["row"], held))
    changing = set() if country_column is not None else changing_regions(
        cells, frame[["phone_e164", "flags"]], region_code(region),
        set(regions) - counted.changing)
    counted.tally(frame, codes, looks_like, custom, changing)
    return frame
