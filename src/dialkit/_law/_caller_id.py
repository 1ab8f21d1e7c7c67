"""The law that a marketing call must show the caller's number, as data (``caller_id.toml``
beside this module): a row per country, with the number regions it covers, its citation,
two sources and the operative words quoted.

Kept apart from the jurisdictions' table: no window, day or cap of a place decides it,
only the country of the number called. Read and checked once, on first use, as every
table of law is (:mod:`._rows`); a row whose text does not quote its citation is
refused too, naming the row.

Examples:
    >>> from dialkit._law import _caller_id
    >>> _caller_id.by_region()["PR"].citation
    '16 CFR 310.4(a)(8)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from .._utils._base_error import LawDataError
from . import _rows as law

DATA_FILE = "caller_id.toml"
COLUMNS = frozenset({"id", "name", "regions", "rule", "scope", *law.LAW_COLUMNS})
"""Every column a row has: any other is refused."""

BLOCKED_IDS = ("anonymous", "restricted", "private", "unknown", "unavailable", "blocked")
"""What a call's ``from_number`` says where the person called is shown no number (any
case); a null or empty ``from_number`` is no number either."""


@dataclass(frozen=True)
class CallerIdLaw(law.LawRow):
    """One country's rule (see the file's header for each field)."""

    id: str
    name: str
    regions: tuple[str, ...]
    rule: str
    scope: str


@cache
def all() -> tuple[CallerIdLaw, ...]:  # noqa: A001 - as the jurisdictions' table names it
    """Every row, as the file lists them."""
    data, where = law.read(None, DATA_FILE)
    return tuple(law.by_id((_row(raw, at), at)
                           for raw, at in law.rows(data, "caller_id", where)).values())


@cache
def by_region() -> dict[str, CallerIdLaw]:
    """Each covered number region's row."""
    return {region: row for row in all() for region in row.regions}


def _row(raw: Mapping[str, Any], where: str) -> CallerIdLaw:
    law.known_columns(raw, COLUMNS, where)
    row = CallerIdLaw(id=law.text(raw, "id", where), name=law.text(raw, "name", where),
                      regions=tuple(law.strings(raw, "regions", where, required=True)),
                      rule=law.text(raw, "rule", where), scope=law.text(raw, "scope", where),
                      **law.law_columns(raw, where))
    if row.citation not in row.text:
        raise LawDataError(f"{where}: the text must quote the section it cites "
                               f"({row.citation!r})")
    return row
