"""The Do-Not-Call lists and the law of each, as data: ``dnc_lists.toml`` beside this module.

Law is data (DESIGN.md): which list a number is on decides which rule a call to it breaks
and how long after the listing the call may still be placed (PECR's 28 days, the CRTC's
31, none for a person's own request), and which consent records exempt it. A row per list
of a country, with its citation, two sources, the quoted text and what was left in doubt,
checked on first use as the jurisdictions' table is (:mod:`._jurisdictions`, whose column
readers these rows share).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from importlib import resources
from typing import Any

from ._jurisdictions import (
    JurisdictionDataError,
    _reviewed,
    _sources,
    _strings,
    _text,
    _typed,
)

DATA_FILE = "dnc_lists.toml"
LISTS = ("national", "company")
"""The kinds of list (shared decision 3 of issue 47): the country's register, or the
account's own list of people who asked not to be called."""
KINDS = ("written", "ebr", "oral")
"""The kinds of consent record (``consents=``'s ``kind``)."""
COLUMNS = frozenset({
    "id", "country", "list", "name", "grace_days", "grace_needs_check", "late_citation",
    "late_business_days", "late_since", "late_days_before", "exempt_by", "ebr_months",
    "citation", "sources", "reviewed", "confirmed", "doubts", "text"})


@dataclass(frozen=True)
class DncList:
    """One row: a list of a country and its law.

    Attributes:
        id: ``US-national``, ``GB-company``, ...
        country: The country whose numbers it holds (``US``, ``GB``, ``CA``).
        list: ``national`` or ``company``.
        name: What reports call it.
        grace: How long after the listing a call is not a breach.
        grace_needs_check: Whether the grace is a safe harbor that holds only for a call
            placed with a check of the number no older than ``grace``, made before the
            listing.
        late_citation, late_business_days, late_since, late_days_before: A second rule
            with a longer period of its own, which a later call breaks too (empty: none).
        exempt_by: The consent kinds that exempt a call to a listed number.
        ebr_months: How long an established business relationship lasts.
        citation: The section that decides a call to a listed number.
        sources, reviewed, confirmed, doubts, text: As the jurisdictions' rows have them.
    """

    id: str
    country: str
    list: str
    name: str
    grace: timedelta
    grace_needs_check: bool
    late_citation: str
    late_business_days: int
    late_since: date | None
    late_days_before: int
    exempt_by: tuple[str, ...]
    ebr_months: int
    citation: str
    sources: tuple[str, ...]
    reviewed: date
    confirmed: bool
    doubts: str
    text: str


@dataclass(frozen=True)
class ConsentRule:
    """A rule that needs a consent record of its own (``[[consent]]`` rows): its
    ``citation``, and the ``text`` quoted, with ``sources``, ``reviewed``, ``confirmed``
    and ``doubts`` as the lists have them."""

    id: str
    citation: str
    sources: tuple[str, ...]
    reviewed: date
    confirmed: bool
    doubts: str
    text: str


def consent_rule(rule_id: str) -> ConsentRule:
    """The ``[[consent]]`` row ``rule_id`` (``US-wireless``)."""
    return _consents()[rule_id]


def get(country: str, kind: str) -> DncList | None:
    """The row of a country's list of ``kind``, or None where the table has none."""
    return _table().get(f"{country}-{kind}")


def all() -> tuple[DncList, ...]:  # noqa: A001 - as the jurisdictions' table names it
    """Every row, in the file's order."""
    return tuple(_table().values())


def load(text: str, where: str = DATA_FILE) -> dict[str, DncList]:
    """The rows of a table's TOML ``text``, by id.

    Raises:
        JurisdictionDataError: The text is not such a table; the message names the row.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise JurisdictionDataError(f"{where} is not valid TOML: {exc}") from None
    rows = [_row(raw, f"{where}, row {n} ({raw.get('id', 'no id')!r})")
            for n, raw in enumerate(data.get("list", []), start=1)]
    table = {row.id: row for row in rows}
    if not rows or len(table) < len(rows):
        raise JurisdictionDataError(f"{where} has no [[list]] rows, or repeats an id")
    return table


@lru_cache(maxsize=1)
def _table() -> dict[str, DncList]:
    return load(_text_of_file())


@lru_cache(maxsize=1)
def _consents() -> dict[str, ConsentRule]:
    rows = tomllib.loads(_text_of_file()).get("consent", [])
    found = {}
    for n, raw in enumerate(rows, start=1):
        where = f"{DATA_FILE}, consent row {n}"
        found[_text(raw, "id", where)] = ConsentRule(
            id=_text(raw, "id", where), citation=_text(raw, "citation", where),
            sources=_sources(raw, where), reviewed=_reviewed(raw, where),
            confirmed=_typed(raw, "confirmed", bool, where, None),
            doubts=_typed(raw, "doubts", str, where, ""), text=_text(raw, "text", where))
    return found


def _text_of_file() -> str:
    return resources.files("dialkit._places").joinpath(DATA_FILE).read_text(encoding="utf-8")


def _row(raw: Mapping[str, Any], where: str) -> DncList:
    """One checked row from its TOML table."""
    unknown = sorted(set(raw) - COLUMNS)
    if unknown:
        raise JurisdictionDataError(f"{where}: unknown column(s) {unknown}")
    kind, country = _text(raw, "list", where), _text(raw, "country", where)
    exempt = tuple(_strings(raw, "exempt_by", where, required=True))
    if kind not in LISTS or not set(exempt) <= set(KINDS):
        raise JurisdictionDataError(f"{where}: list must be one of {LISTS} and exempt_by "
                                    f"hold only {KINDS}")
    if _text(raw, "id", where) != f"{country}-{kind}":
        raise JurisdictionDataError(f"{where}: id must be {country}-{kind}")
    since = raw.get("late_since")
    return DncList(
        id=f"{country}-{kind}", country=country, list=kind, name=_text(raw, "name", where),
        grace=timedelta(days=_typed(raw, "grace_days", int, where, None)),
        grace_needs_check=_typed(raw, "grace_needs_check", bool, where, None),
        late_citation=_typed(raw, "late_citation", str, where, ""),
        late_business_days=_typed(raw, "late_business_days", int, where, 0),
        late_since=since if isinstance(since, date) else None,
        late_days_before=_typed(raw, "late_days_before", int, where, 0),
        exempt_by=exempt, ebr_months=_typed(raw, "ebr_months", int, where, 0),
        citation=_text(raw, "citation", where), sources=_sources(raw, where),
        reviewed=_reviewed(raw, where), confirmed=_typed(raw, "confirmed", bool, where, None),
        doubts=_typed(raw, "doubts", str, where, ""), text=_text(raw, "text", where))
