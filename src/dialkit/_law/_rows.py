"""Reading a table of law shipped in the package, and checking what every row of law has.

Law is data (docs/design.md): the jurisdictions' calling rules, the abandonment limits, the
caller-id rule and the Do-Not-Call lists live in TOML tables beside this module. Each
row of law carries the same six columns (:data:`LAW_COLUMNS`): the ``citation`` that
decides a finding, two public ``sources``, the date it was ``reviewed``, whether two
sources ``confirmed`` it, the ``doubts`` the research left open and the statute's
operative words quoted in ``text``. They are read and checked here, once for all the
tables, so a row of any table is held to the same rule; each table's module checks only
its own columns.

Every refusal is a :class:`LawDataError` naming the file, the row and the column, so a
broken edit of a table is found on first use, not applied silently as law.
"""

from __future__ import annotations

import builtins
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from datetime import date, datetime
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .._files._text import read_text
from .._utils._base_error import (
    LawDataError,  # noqa: F401
)


@dataclass(frozen=True)
class LawRow:
    """What every row of law has, whichever table it is in (each table's row class adds
    its own columns to these).

    Attributes:
        citation: The section of law that decides a finding of the row.
        sources: The public pages the row was checked against (two or more).
        reviewed: When the row was last checked.
        confirmed: Whether two independent sources agree on the row.
        doubts: What the research left open (empty: nothing).
        text: The statute's operative words, quoted, and where they were read.
    """

    citation: str
    sources: tuple[str, ...]
    reviewed: date
    confirmed: bool
    doubts: str
    text: str


LAW_COLUMNS = tuple(field.name for field in fields(LawRow))
"""The columns every row of law has (the house rule for a table of law)."""


class _Row(Protocol):
    @property
    def id(self) -> str: ...


RowT = TypeVar("RowT", bound=_Row)


def read(path: Path | str | None, packaged: str) -> tuple[dict[str, Any], str]:
    """A table file's TOML (the package's file ``packaged`` when ``path`` is None; a user's
    as an editor saved it, :func:`read_text`) and the name errors call it by."""
    if path is None:
        text = resources.files(__package__).joinpath(packaged).read_text(encoding="utf-8")
        return parse(text, packaged), packaged
    return parse(read_text(path, LawDataError), str(path)), str(path)


def parse(text: str, where: str) -> dict[str, Any]:
    """A table's TOML ``text``, refused with the file's name when it is not TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LawDataError(f"{where} is not valid TOML: {exc}") from None


def rows(data: Mapping[str, Any], table: str, where: str,
         label: str = "row") -> Iterator[tuple[Mapping[str, Any], str]]:
    """Each ``[[table]]`` row with the words its errors name it by (``row 3 ('US-FL')``);
    a file without one is refused."""
    raws = data.get(table)
    if not isinstance(raws, list) or not raws or not builtins.all(
            isinstance(raw, dict) for raw in raws):
        raise LawDataError(f"{where} has no [[{table}]] rows")
    for number, raw in enumerate(raws, start=1):
        yield raw, f"{where}, {label} {number} ({raw.get('id', 'no id')!r})"


def by_id(checked: Iterable[tuple[RowT, str]]) -> dict[str, RowT]:
    """Checked rows by their ``id``, in the file's order, each given with the words
    naming it; a repeated id is refused."""
    table: dict[str, RowT] = {}
    for row, where in checked:
        if row.id in table:
            raise LawDataError(f"{where}: id {row.id!r} is repeated")
        table[row.id] = row
    return table


def known_columns(raw: Mapping[str, Any], columns: frozenset[str], where: str) -> None:
    """Refuse a column the table does not have, so that a misspelt one cannot drop a
    rule without a word."""
    unknown = sorted(set(raw) - columns)
    if unknown:
        raise LawDataError(f"{where}: unknown column(s) {unknown}; the columns are "
                           f"{sorted(columns)}")


def law_columns(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The row's :data:`LAW_COLUMNS`, checked, by name (to pass to its :class:`LawRow`)."""
    return {"citation": text(raw, "citation", where), "sources": sources(raw, where),
            "reviewed": reviewed(raw, where),
            "confirmed": typed(raw, "confirmed", bool, where, None),
            "doubts": typed(raw, "doubts", str, where, None), "text": text(raw, "text", where)}


def typed(raw: Mapping[str, Any], key: str, kind: type, where: str, default: Any) -> Any:
    """A column's value of the given type; its default when absent (None: required)."""
    if key not in raw:
        if default is None:
            raise LawDataError(f"{where}: {key} is missing")
        return default
    value = raw[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise LawDataError(f"{where}: {key} must be a {kind.__name__}, not {value!r}")
    return value


def text(raw: Mapping[str, Any], key: str, where: str) -> str:
    """A required column of non-blank text."""
    value: str = typed(raw, key, str, where, None)
    if not value.strip():
        raise LawDataError(f"{where}: {key} is missing (empty)")
    return value


def strings(raw: Mapping[str, Any], key: str, where: str, *, required: bool) -> list[str]:
    """A column that is a list of non-blank strings (empty when absent and not required)."""
    values: list[Any] = typed(raw, key, list, where, None if required else [])
    if not builtins.all(isinstance(value, str) and value.strip() for value in values):
        raise LawDataError(f"{where}: {key} must be a list of non-empty strings")
    return values


def choice(raw: Mapping[str, Any], key: str, choices: tuple[str, ...], where: str) -> str:
    """A column that is one of ``choices`` (the first when absent)."""
    value: str = typed(raw, key, str, where, choices[0])
    if value not in choices:
        raise LawDataError(f"{where}: {key} {value!r} is not one of {list(choices)}")
    return value


def by_name(raw: Mapping[str, Any], key: str, kind: type, names: tuple[str, ...],
            where: str) -> dict[str, Any]:
    """A column that is a table of values by name, each name one of ``names``."""
    table: dict[str, Any] = typed(raw, key, dict, where, {})
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise LawDataError(f"{where}: {key} names {unknown}, not one of {list(names)}")
    for name, value in table.items():
        if not isinstance(value, kind) or (isinstance(value, str) and not value.strip()) or (
                kind is date and isinstance(value, datetime)):
            raise LawDataError(f"{where}: {key}.{name} must be a {kind.__name__}, not {value!r}")
    return table


def sources(raw: Mapping[str, Any], where: str, least: int = 2) -> tuple[str, ...]:
    """The public pages a row was checked against: ``least`` or more http(s) addresses."""
    found = strings(raw, "sources", where, required=True)
    if len(found) < least or not builtins.all(
            s.startswith(("https://", "http://")) for s in found):
        raise LawDataError(
            f"{where}: sources must be {'two' if least == 2 else 'one'} or more http(s) addresses")
    return tuple(found)


def reviewed(raw: Mapping[str, Any], where: str) -> date:
    """The date a row was last checked (a TOML date, not a date and time)."""
    value = raw.get("reviewed")
    if not isinstance(value, date) or isinstance(value, datetime):
        raise LawDataError(
            f"{where}: reviewed must be a date (reviewed = 2026-11-23), not {value!r}")
    return value
