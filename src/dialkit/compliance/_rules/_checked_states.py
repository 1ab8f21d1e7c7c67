"""The US states researched without a row in the jurisdiction table, and what was found.

Every US state and DC is looked at: a state whose rule
differs from the federal one gets a row in ``jurisdictions.toml``; every other
state is listed there as a ``[[checked]]`` entry, saying that the federal rule
applies (with the sources checked and any rule that covers some calls only,
such as prerecorded messages) or that the question is open (sources disagree,
or name a rule whose statute was not found). Reports and the docs page show
the entries so that "no row" is never read as "not looked at".

Examples:
    >>> from dialkit.compliance._rules import _checked_states
    >>> [state.id for state in _checked_states.checked() if state.finding == "open"]
    ['US-MI', 'US-MN', 'US-NV', 'US-WY']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from dialkit._law._jurisdictions import DATA_FILE, JurisdictionDataError
from dialkit._law._rows import known_columns, read, reviewed, sources, text
from dialkit._places._subdivisions import subdivision_of

__all__ = ["CHECKED_COLUMNS", "FINDINGS", "CheckedState", "checked", "load_checked"]

CHECKED_COLUMNS = frozenset({"id", "name", "finding", "note", "sources", "reviewed"})
"""Every column a ``[[checked]]`` entry may have: any other is refused."""
FINDINGS = ("federal", "open")
"""What the research found for a state without a row: the federal rule applies,
or the question is open."""


@dataclass(frozen=True)
class CheckedState:
    """A US state (or DC) that was researched and has no row, with what was found.

    Attributes:
        id: ``US-XX``, the state's postal code.
        name: The state's name.
        finding: ``federal`` (no stricter rule found: the federal rule applies) or
            ``open`` (sources disagree, or name a rule whose statute was not found;
            not applied, to be researched).
        note: What was found: the state's own rule where it equals the federal
            one, rules that cover some calls only (prerecorded, autodialled).
        sources: The public pages checked.
        reviewed: When the state was last checked.
    """

    id: str
    name: str
    finding: str
    note: str
    sources: tuple[str, ...]
    reviewed: date


def checked() -> tuple[CheckedState, ...]:
    """The package's checked states without a row, read and checked once."""
    return _package()


def load_checked(path: Path | str | None = None) -> tuple[CheckedState, ...]:
    """The states a table file lists as checked without a row, in the file's order.

    Raises:
        JurisdictionDataError: An entry is not as it must be, repeats an id or
            names a state that has a row; the message names the entry.
    """
    data, where = read(path, DATA_FILE)
    entries = data.get("checked", [])
    if not isinstance(entries, list):
        raise JurisdictionDataError(f"{where}: [[checked]] must be a list of tables")
    row_ids = {raw.get("id") for raw in data.get("jurisdiction", []) if isinstance(raw, dict)}
    found: dict[str, CheckedState] = {}
    for number, raw in enumerate(entries, start=1):
        where_entry = f"{where}, checked {number} ({raw.get('id', 'no id')!r})"
        entry = _entry(raw, where_entry)
        if entry.id in found or entry.id in row_ids:
            already = "checked" if entry.id in found else "a row"
            raise JurisdictionDataError(f"{where_entry}: {entry.id} is already {already}")
        found[entry.id] = entry
    return tuple(found.values())


@lru_cache(maxsize=1)
def _package() -> tuple[CheckedState, ...]:
    return load_checked()


def _entry(raw: Mapping[str, Any], where: str) -> CheckedState:
    """One checked ``[[checked]]`` entry."""
    known_columns(raw, CHECKED_COLUMNS, where)
    sid = text(raw, "id", where)
    if not sid.startswith("US-") or subdivision_of(sid) != sid:  # the places' own table
        raise JurisdictionDataError(f"{where}: id {sid!r} is not a state's 'US-XX' (one of "
                                    "dialkit/_places/subdivisions.toml)")
    finding = text(raw, "finding", where)
    if finding not in FINDINGS:
        raise JurisdictionDataError(f"{where}: finding {finding!r} is not one of {FINDINGS}")
    return CheckedState(id=sid, name=text(raw, "name", where), finding=finding,
                        note=text(raw, "note", where), sources=sources(raw, where, least=1),
                        reviewed=reviewed(raw, where))
