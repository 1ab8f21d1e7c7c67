"""How the law of each place measures abandoned calls and rings unanswered ones, as data.

Law is data (DESIGN.md): the share of live-answered calls a campaign may abandon, the
period it is measured over, the ring time of an unanswered call, and their citations
and quoted words live in ``abandonment.toml`` beside this module, a row per place. The
file is read and checked once, on first use: a row without a citation, two sources or
a quoted text, a limit outside (0, 1) or a period it cannot read is refused, naming it.

Examples:
    >>> from dialkit._places import _abandonment as table
    >>> table.get("US").limit, table.get("US").period
    (0.03, '30 days')
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from importlib import resources
from typing import Any

DATA_FILE = "abandonment.toml"
CALENDAR_MONTH = "calendar month"
"""The period of a row measured by the months of the calendar (UTC), not by a span."""
_UNITS = {"days": timedelta(days=1), "hours": timedelta(hours=1)}


class AbandonmentDataError(ValueError):
    """A row of ``abandonment.toml`` the audit cannot apply; the message names it."""


@dataclass(frozen=True)
class Place:
    """One row of the table: how the law (or a regulator's policy) of a place measures
    abandonment; ``ring_seconds`` None where it sets no ring time."""

    id: str
    name: str
    regions: tuple[str, ...]
    basis: str
    policy: str | None
    limit: float
    period: str
    citation: str
    ring_seconds: float | None
    ring_citation: str | None
    sources: tuple[str, ...]
    reviewed: date
    confirmed: bool
    text: str
    doubts: str

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
        raise AbandonmentDataError(f"period {period!r}: write 'N days', 'N hours' or "
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
    text = resources.files("dialkit._places").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return tuple(_checked(raw) for raw in tomllib.loads(text)["abandonment"])


def _checked(raw: dict[str, Any]) -> Place:
    """A row of the file, checked: every fact a finding cites is there."""
    name = raw.get("id", "?")
    missing = [key for key in ("name", "regions", "basis", "limit", "period", "citation",
                               "sources", "reviewed", "confirmed", "text", "doubts")
               if key not in raw]
    if missing:
        raise AbandonmentDataError(f"{DATA_FILE} row {name}: no {', '.join(missing)}")
    if raw["basis"] not in ("law", "policy") or (raw["basis"] == "policy") != ("policy" in raw):
        raise AbandonmentDataError(f"{DATA_FILE} row {name}: basis 'law', or 'policy' "
                                   "with the policy's name")
    if not 0 < raw["limit"] < 1 or len(raw["sources"]) < 2:
        raise AbandonmentDataError(f"{DATA_FILE} row {name}: a limit between 0 and 1 and "
                                   "two sources")
    if raw["period"] != CALENDAR_MONTH:
        span_of(raw["period"])
    if ("ring_seconds" in raw) != ("ring_citation" in raw):
        raise AbandonmentDataError(f"{DATA_FILE} row {name}: ring_seconds needs its "
                                   "ring_citation")
    return Place(id=raw["id"], name=raw["name"], regions=tuple(raw["regions"]),
                 basis=raw["basis"], policy=raw.get("policy"), limit=float(raw["limit"]),
                 period=raw["period"], citation=raw["citation"],
                 ring_seconds=raw.get("ring_seconds"), ring_citation=raw.get("ring_citation"),
                 sources=tuple(raw["sources"]), reviewed=raw["reviewed"],
                 confirmed=bool(raw["confirmed"]), text=raw["text"], doubts=raw["doubts"])
