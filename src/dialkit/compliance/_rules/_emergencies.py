"""Declared states of emergency, and the calls the law of the place forbids during one.

Some states forbid telephone solicitation while an emergency is declared there (La. R.S.
45:844.31, N.Y. Gen. Bus. Law 399-z(5-a): the rows of :mod:`dialkit._law._jurisdictions`
with ``emergency_ban``). The ban is law; whether an emergency is declared, where and
until when, is a fact of the day (a governor's proclamation, the Louisiana PSC's notice
that its ban is in force), which no table of law can hold. The account gives them
(``audit(emergencies=...)``, an area, from, to: :mod:`.._inputs._prepared` reads them),
and the rules carry them (:attr:`._rules.Rules.emergencies`) to every judge that reads
the rules: the audit on pandas and on Dask, ``next_allowed``, ``upcoming`` and the
client's guard, so that none of them can judge a call without them.

An emergency's area is a state (``US-LA``), read as a lead's address state is read
(``LA``, ``Louisiana``, ``La.``): the statutes' areas are a state (Louisiana: the
governor's declaration) or a county, city, town or village (New York), and a number's
county is not known, so a county's emergency is given as its state's, the stricter
reading. A declaration's times are read to the minute it falls in, its start from the
minute's beginning and its end to the minute's end, the stricter reading: declarations
state their times to the minute, and the client's guard keeps a verdict for its minute.
The end is when calls may resume (the LPSC's "telephonic solicitations ... will be
permitted to resume ... at that time"); an emergency without one is in force until the
account gives its end.

Examples:
    >>> emergency("Louisiana", "2026-09-01T06:00-05:00", "2026-09-10T18:00-05:00").words()
    'US-LA from 2026-09-01 11:00 UTC to 2026-09-10 23:00 UTC'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..._places._subdivisions import subdivision_of
from ..._utils._base_error import InputError
from ..._utils._moments import utc_moment

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
_NEVER = np.iinfo(np.int64).max
"""The end of an emergency given no end: in force until the account gives one."""
_MINUTE = "min"


@dataclass(frozen=True)
class Emergency:
    """One declared state of emergency, as the account gives it.

    Attributes:
        area: The state (``US-LA``) it is declared in.
        starts_at: When it began (UTC, the start of its minute).
        ends_at: When calls may resume (UTC, the end of its minute); None: not ended.
        declaration: What declared it, in the account's words (a proclamation's
            number), for the findings' evidence; empty where not given.
    """

    area: str
    starts_at: pd.Timestamp
    ends_at: pd.Timestamp | None = None
    declaration: str = ""

    def words(self) -> str:
        """The emergency as a finding and a report's cover say it: ``US-LA from
        2026-09-01 11:00 UTC to 2026-09-10 23:00 UTC (Proclamation 115 JML 2026)``."""
        until = ("until its end is given" if self.ends_at is None
                 else f"to {self.ends_at:%Y-%m-%d %H:%M} UTC")
        said = f"{self.area} from {self.starts_at:%Y-%m-%d %H:%M} UTC {until}"
        return f"{said} ({self.declaration})" if self.declaration else said


def emergency(area: object, starts_at: object, ends_at: object = None,
              declaration: object = "", *, where: str = "emergencies") -> Emergency:
    """One declared emergency, checked: its ``area`` a state as a lead's address state is
    read, ``starts_at`` a time with its zone (ISO 8601 text, a ``datetime``), ``ends_at``
    one too or missing (not ended), ``declaration`` its name (optional).

    Raises:
        InputError: The area names no US state or Canadian province, a time is none or
            has no zone, or the end is not after the start; the message names ``where``.
    """
    code = subdivision_of(area)
    if code is None:
        raise InputError(f"{where}.area {area!r} names no state: give a US state (US-LA, LA "
                         "or Louisiana); a county's emergency is given as its state's, for "
                         "a number's county is not known")
    start = _moment(starts_at, f"{where}.starts_at")
    if start is None:
        raise InputError(f"{where}.starts_at is missing: give when the emergency was "
                         "declared (a time with its zone)")
    end = _moment(ends_at, f"{where}.ends_at")
    start = start.floor(_MINUTE)
    end = None if end is None else end.ceil(_MINUTE)
    if end is not None and end <= start:
        raise InputError(f"{where}: the emergency in {code} ends at {end} UTC, not after it "
                         f"starts ({start} UTC): give the time calls may resume")
    said = "" if _missing(declaration) else str(declaration).strip()
    return Emergency(code, start, end, said)


def emergencies_of(declared: Iterable[Emergency | tuple[object, ...]],
                   where: str = "emergencies") -> tuple[Emergency, ...]:
    """Emergencies as :class:`Emergency` values, each given one or as a tuple ``(area,
    starts_at[, ends_at[, declaration]])`` and checked by :func:`emergency`; a frame is
    read by the audit's declaration of it instead (``audit(emergencies=...)``)."""
    if isinstance(declared, pd.DataFrame | str | bytes):
        raise InputError(f"{where}: pass Emergency values or tuples (area, starts_at, "
                         "ends_at); a frame of them is read as audit(emergencies=...), "
                         "next_allowed(emergencies=...), upcoming(emergencies=...) and "
                         "GuardSettings(emergencies=...) read it")
    found = []
    for n, each in enumerate(declared):
        if isinstance(each, Emergency):
            found.append(each)
        elif isinstance(each, tuple) and 2 <= len(each) <= 4:
            found.append(emergency(*each, where=f"{where}[{n}]"))
        else:
            raise InputError(f"{where}[{n}] is {each!r}: pass (area, starts_at, ends_at) "
                             "or an Emergency")
    return tuple(found)


def _moment(value: object, name: str) -> pd.Timestamp | None:
    """``value`` as a UTC moment (None where missing), refused without its zone."""
    if _missing(value):
        return None
    try:
        return utc_moment(value, name)
    except ValueError as error:
        raise InputError(str(error)) from None


def _missing(value: object) -> bool:
    return value is None or (not isinstance(value, str | tuple) and bool(pd.isna(value))) \
        or (isinstance(value, str) and not value.strip())


@dataclass(frozen=True)
class Bans:
    """The declared emergencies that forbid calls, each against one law row of an
    audit's :class:`._place_law.Law`: ban ``b`` forbids the calls that row ``row[b]`` judges
    from ``start[b]`` to before ``end[b]`` (UTC ns), for the emergency ``events[b]``,
    whose area is row ``area_row[b]``'s (a country's strictest row forbids a call during
    an emergency of any of its states, and that state's row is cited)."""

    row: Ints
    start: Ints
    end: Ints
    area_row: Ints
    events: tuple[Emergency, ...]

    def during(self, rows: Ints, utc: Ints) -> Ints:
        """Per call, the first ban in force at its moment (``utc``, ns) for its law row
        (``rows``; -1: none), or -1: a loop over the bans, which are few."""
        found = np.full(len(rows), -1, np.int64)
        for b in range(len(self.row)):
            hit = (found < 0) & (rows == self.row[b]) & (utc >= self.start[b]) & (
                utc < self.end[b])
            found[hit] = b
        return found

    def words(self, bans: Ints) -> NDArray[np.object_]:
        """Each ban's emergency in words (:meth:`Emergency.words`); empty for -1."""
        said = np.array([each.words() for each in self.events] + [""], object)
        return said[np.where(bans >= 0, bans, len(self.events))]


def bans(declared: tuple[Emergency, ...] | None, ids: list[str | None], banned: Bools,
         members: dict[int, list[int]]) -> Bans:
    """The bans of the ``declared`` emergencies over an audit's law rows (``ids``: each
    row's id; ``banned``: whether its law forbids calls during an emergency;
    ``members``: each country's strictest row's rows)."""
    found: list[tuple[int, int, Emergency]] = []  # (row, the area's row, emergency)
    for each in declared or ():
        own = [n for n, jid in enumerate(ids) if banned[n] and jid == each.area]
        found += [(n, n, each) for n in own]
        found += [(at, n, each) for at, rows in members.items() for n in own if n in rows]
    return Bans(np.array([f[0] for f in found], np.int64),
                np.array([f[2].starts_at.value for f in found], np.int64),
                np.array([_NEVER if f[2].ends_at is None else f[2].ends_at.value
                          for f in found], np.int64),
                np.array([f[1] for f in found], np.int64), tuple(f[2] for f in found))


def ends(declared: tuple[Emergency, ...] | None) -> list[pd.Timestamp]:
    """The moments declared emergencies end, when calls may resume: where a search for
    the next lawful moment looks besides the openings of the windows."""
    return sorted({each.ends_at for each in declared or () if each.ends_at is not None})
