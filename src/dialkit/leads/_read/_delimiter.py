"""Which delimiter a text lead file uses, and on which line its header is.

``csv.Sniffer`` gives up on a file whose one quoted cell holds the delimiter or a
doubled quote (``"the ""VIP"" list; call first"``), and a reader that then falls
back to ``,`` finds no phone column in ``Full Name;Phone;Notes``. So each of
``, ; tab |`` is tried on the file's first records, and the one that gives a
phone column and rows as wide as the header wins; the header is the first of
the first :data:`HEADER_ROWS` records that holds a phone-like name, so that a
title row or blank lines above it are skipped. What was chosen is reported,
never assumed.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection
from dataclasses import dataclass

from ..._files._file_limits import DELIMITERS
from ..._files._headers import squeeze
from ._headers import ALIASES

HEADER_ROWS = 20
"""Records searched for the header: a title, notes or blank lines may come first."""

_RECORDS = 200  # records read per delimiter: enough to see the rows' width
_PHONE_NAMES = frozenset(ALIASES["phone"])
_NAMES = {"\t": "tab", ",": "','", ";": "';'", "|": "'|'"}


@dataclass(frozen=True, order=True)
class _Score:
    """How well a delimiter splits the file; the greatest wins."""

    phone: bool
    consistent: float
    splits_header: bool
    width: int


@dataclass(frozen=True)
class Layout:
    """A text file's delimiter and header: ``skip`` physical lines come before the
    header, which is on line ``header_line`` (1-based) and holds ``header``."""

    delimiter: str
    header_line: int
    skip: int
    header: list[str]
    phone: bool


def layout(sample: str, name: str, phone_columns: Collection[str] = ()) -> Layout:
    """The delimiter and header of a file whose first bytes (decoded) are ``sample``.

    ``phone_columns`` are names that count as a phone column besides the usual ones
    (``mapping``'s). Of the delimiters that give a phone column, the one whose rows
    are most often as wide as the header wins, then the one the header line holds
    most of; without a phone column anywhere, the same order decides, so that the
    error names the columns as the file most likely has them.
    """
    found = {d: _try(sample, d, phone_columns) for d in DELIMITERS}
    fallback = "\t" if name.lower().endswith((".tsv", ".tab")) else ","
    best = max(DELIMITERS, key=lambda d: (found[d][0], d == fallback, -DELIMITERS.index(d)))
    return found[best][1]


def _try(sample: str, delimiter: str, wanted: Collection[str]) -> tuple[_Score, Layout]:
    """A delimiter's score and the layout it gives."""
    records = _records(sample, delimiter)
    header_at = header_index([row for row, _ in records], wanted)
    if header_at is None:
        header_at = next((n for n, (row, _) in enumerate(records) if _filled(row)), 0)
    header, line = records[header_at] if records else ([], 1)
    rows = [len(row) for row, _ in records[header_at + 1:] if _filled(row)]
    consistent = sum(width == len(header) for width in rows) / len(rows) if rows else 1.0
    skip = records[header_at - 1][1] if header_at > 0 else 0
    phone = any(phone_like(cell, wanted) for cell in header)
    split = len(header) > 1  # the header's own delimiter: it splits the header
    score = _Score(phone, consistent if split or phone else 0.0, split, len(header))
    return score, Layout(delimiter, skip + 1 if records else 1, skip, header, phone)


def _records(sample: str, delimiter: str) -> list[tuple[list[str], int]]:
    """The first records of ``sample``, each with the physical line it ends on; the
    last, which the sample may cut, left out when there are others."""
    reader = csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter)
    records: list[tuple[list[str], int]] = []
    try:
        for row in reader:
            records.append((row, reader.line_num))
            if len(records) > _RECORDS:
                break
    except csv.Error:  # a quote left open by the cut: what came before is enough
        pass
    if len(records) > 1 and len(records) <= _RECORDS:
        records.pop()
    return records[:_RECORDS]


def header_index(rows: list[list[str]], wanted: Collection[str] = ()) -> int | None:
    """The header among a file's first rows: the first of the first :data:`HEADER_ROWS`
    with a phone-like cell, if every row above it that holds anything holds fewer cells
    (a title, an export date); else ``None``. So a data row whose type column says
    ``Mobile`` under a header without a phone name is never taken for the header."""
    widest = 0
    for n, row in enumerate(rows[:HEADER_ROWS]):
        filled = sum(1 for cell in row if cell.strip())
        if any(phone_like(cell, wanted) for cell in row):
            return n if filled > widest else None
        widest = max(widest, filled)
    return None


def phone_like(name: str, phone_columns: Collection[str] = ()) -> bool:
    """Whether a header cell names a phone column: a usual name (``Phone``, ``Mobile``,
    ``Tel.``) or one of ``phone_columns``."""
    return squeeze(name) in _PHONE_NAMES or (bool(phone_columns) and name in phone_columns)


def _filled(row: list[str]) -> bool:
    return any(cell.strip() for cell in row)


def shown(delimiter: str) -> str:
    """A delimiter as a message names it: ``';'``, ``tab``."""
    return _NAMES.get(delimiter, repr(delimiter))
