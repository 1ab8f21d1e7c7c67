"""The law that a marketing call must show the caller's number, as data (``caller_id.toml``
beside this module): a row per country, with the number regions it covers, its citation,
two sources and the operative words quoted.

Kept apart from the jurisdictions' table: no window, day or cap of a place decides it,
only the country of the number called. Read and checked once, on first use; a row
without a citation, two sources, or a text that quotes its citation is refused, naming
the row, as the jurisdictions' table refuses its rows.

Examples:
    >>> from dialkit._places import _caller_id
    >>> _caller_id.by_region()["PR"].citation
    '16 CFR 310.4(a)(8)'
"""

from __future__ import annotations

import builtins
import tomllib
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from typing import Any

DATA_FILE = "caller_id.toml"

BLOCKED_IDS = ("anonymous", "restricted", "private", "unknown", "unavailable", "blocked")
"""What a call's ``from_number`` says where the person called is shown no number (any
case); a null or empty ``from_number`` is no number either."""


@dataclass(frozen=True)
class CallerIdLaw:
    """One country's rule (see the file's header for each field)."""

    id: str
    name: str
    regions: tuple[str, ...]
    rule: str
    citation: str
    scope: str
    sources: tuple[str, ...]
    reviewed: date
    confirmed: bool
    doubts: str
    text: str


class CallerIdDataError(ValueError):
    """A row of ``caller_id.toml`` that cannot be applied, named with what is wrong."""


@cache
def all() -> tuple[CallerIdLaw, ...]:  # noqa: A001 - as the jurisdictions' table names it
    """Every row, as the file lists them."""
    text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    return tuple(_row(raw) for raw in tomllib.loads(text)["caller_id"])


@cache
def by_region() -> dict[str, CallerIdLaw]:
    """Each covered number region's row."""
    return {region: row for row in all() for region in row.regions}


def _row(raw: dict[str, Any]) -> CallerIdLaw:
    name = raw.get("id", "?")
    try:
        row = CallerIdLaw(**{**raw, "regions": tuple(raw["regions"]),
                             "sources": tuple(raw["sources"])})
    except (TypeError, KeyError) as error:
        raise CallerIdDataError(f"{DATA_FILE} row {name!r}: {error}") from None
    if not row.citation.strip() or row.citation not in row.text:
        raise CallerIdDataError(f"{DATA_FILE} row {name!r}: the text must quote the "
                                f"section it cites ({row.citation!r})")
    if len(row.sources) < 2 or not builtins.all(
            source.startswith(("https://", "http://")) for source in row.sources):
        raise CallerIdDataError(f"{DATA_FILE} row {name!r}: give two public pages as sources")
    return row
