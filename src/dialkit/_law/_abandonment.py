"""How the law of each place measures abandoned calls and rings unanswered ones, as data.

Law is data (docs/design.md): the share of live-answered calls a campaign may abandon, the
period it is measured over, the ring time of an unanswered call, and their citations
and quoted words live in ``abandonment.toml`` beside this module, a row per place. The
file is read and checked once, on first use: a row without the columns every row of law has
(:mod:`._rows`), a limit outside (0, 1) or a period it cannot read is refused, naming it.

Examples:
    >>> from dialkit._law import _abandonment as table
    >>> table.get("US").limit, table.get("US").period
    (0.03, '30 days')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from typing import Any

from .._utils._base_error import LawDataError
from . import _rows as law

DATA_FILE = "abandonment.toml"
CALENDAR_MONTH = "calendar month"
"""The period of a row measured by the months of the calendar (UTC), not by a span."""
_UNITS = {"days": timedelta(days=1), "hours": timedelta(hours=1)}
COLUMNS = frozenset({"id", "name", "regions", "basis", "policy", "limit", "period",
                     "ring_seconds", "ring_citation", *law.LAW_COLUMNS})
"""Every column a row may have: any other is refused."""


@dataclass(frozen=True)
class Place(law.LawRow):
    """One row of the table: how the law (or a regulator's policy) of a place measures
    abandonment; ``ring_seconds`` None where it sets no ring time."""

    id: str
    name: str
    regions: tuple[str, ...]
    basis: str
    policy: str | None
    limit: float
    period: str
    ring_seconds: float | None
    ring_citation: str | None

    @property
    def span(self) -> timedelta | None:
        """The period as a span (None for a calendar month)."""
        return None if self.period == CALENDAR_MONTH else span_of(self.period)

    def words(self) -> str:
        """The row's measure in words, for a report's cover."""
        doubt = "" if self.confirmed else ", doubtful: its text was not read"
        what = self.policy if self.basis == "policy" else self.citation
        return (f"{self.name}: at most {self.limit:.0%} of calls answered by a live person "
                f"per campaign, each successive {self.period} ({what}{doubt})")


def span_of(period: str) -> timedelta:
    """``"30 days"`` or ``"24 hours"`` as a span; anything else is refused."""
    count, _, unit = period.partition(" ")
    if not count.isdigit() or unit not in _UNITS or int(count) < 1:
        raise LawDataError(f"period {period!r}: write 'N days', 'N hours' or "
                                   f"{CALENDAR_MONTH!r}")
    return int(count) * _UNITS[unit]


def all() -> tuple[Place, ...]:  # noqa: A001 - the table's rows, as _jurisdictions.all
    """Every row, in the file's order."""
    return _rows()


def get(place: str) -> Place:
    """The row of ``place`` (``"US"``, ``"GB"``, ``"CA"``)."""
    for row in _rows():
        if row.id == place:
            return row
    raise KeyError(f"no abandonment row {place!r}: one of "
                   f"{', '.join(row.id for row in _rows())}")


@cache
def _rows() -> tuple[Place, ...]:
    data, where = law.read(None, DATA_FILE)
    return tuple(law.by_id((_checked(raw, at), at)
                           for raw, at in law.rows(data, "abandonment", where)).values())


def _checked(raw: Mapping[str, Any], where: str) -> Place:
    """A row of the file, checked: every fact a finding cites is there."""
    law.known_columns(raw, COLUMNS, where)
    basis = law.choice(raw, "basis", ("law", "policy"), where)
    if (basis == "policy") != ("policy" in raw):
        raise LawDataError(f"{where}: basis 'law', or 'policy' with the policy's name")
    period = law.text(raw, "period", where)
    if period != CALENDAR_MONTH:
        try:
            span_of(period)
        except LawDataError as error:
            raise LawDataError(f"{where}: {error}") from None
    if ("ring_seconds" in raw) != ("ring_citation" in raw):
        raise LawDataError(f"{where}: ring_seconds needs its ring_citation")
    return Place(id=law.text(raw, "id", where), name=law.text(raw, "name", where),
                 regions=tuple(law.strings(raw, "regions", where, required=True)),
                 basis=basis, policy=law.text(raw, "policy", where) if "policy" in raw else None,
                 limit=_number(raw, "limit", where, 1), period=period,
                 ring_seconds=_number(raw, "ring_seconds", where) if "ring_seconds" in raw
                 else None,
                 ring_citation=law.text(raw, "ring_citation", where) if "ring_citation" in raw
                 else None,
                 **law.law_columns(raw, where))


def _number(raw: Mapping[str, Any], key: str, where: str, below: float = math.inf) -> float:
    """A column's number, more than 0 and less than ``below``."""
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < below:
        raise LawDataError(f"{where}: {key} must be a number above 0"
                               + (f" and below {below:g}" if below < math.inf else "")
                               + f", not {value!r}")
    return float(value)
