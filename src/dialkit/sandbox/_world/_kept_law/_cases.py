"""Where the world breaks the law of the place called on purpose: the lead, the local day
and the local times of each planted case (the kinds are :data:`._law.KINDS`).

It sits apart from :mod:`._law` because it reads the world's :class:`~.._calls.Frame`
(each lead's campaign window, its clock), and that frame holds :mod:`._law`'s
:class:`~._law.Law`: kept in one module, the law and the calls' frame would import
each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

import numpy as np

from .._numbers import I64
from ._place import FEDERAL, HOUR_MS, KINDS, MINUTE_MS, Law

if TYPE_CHECKING:
    from dialkit._law._jurisdictions import Jurisdiction

    from .._history import Frame

_MIDDAY = (12 * HOUR_MS, 16 * HOUR_MS)
"""When day-ban and holiday calls are placed: inside every row's weekday window."""
_SEARCH_DAYS = 21
_TRIES = 400
"""Leads of a row tried for one kind at most: enough for every case, bounded on the large world."""


@dataclass(frozen=True)
class Case:
    """One planted breach: the lead, its local day, the local times of its calls, the kind."""

    lead: int
    day: int
    local: tuple[int, ...]
    kind: str


def plan_cases(rng: np.random.Generator, frame: Frame, leads: I64, days: tuple[I64, I64],
               per_case: int) -> list[Case]:
    """Up to ``per_case`` cases per (confirmed row, kind), each on a lead of ``leads``
    (free of other problems) of that row, on a day whose calls all fall in the lead's
    campaign window. ``days`` are each lead's first and last call's local days: a
    banned day (Sunday, holiday) may lie between them, as the dialer left it free;
    the other kinds come after the last call, so no day holds two calls."""
    law, cases = frame.law, []
    free = np.ones(len(leads), dtype=bool)
    start, end = frame.window(leads)
    for r, row in enumerate(law.rows):
        if row is None or not row.confirmed:
            continue
        mine = np.flatnonzero(law.lead_row[leads] == r)
        for kind in _kinds(law, r, row):
            placed = 0
            for k in rng.permutation(mine)[:_TRIES].tolist():
                if placed == per_case:
                    break
                if not free[k]:
                    continue
                banned = kind in ("state_day_ban", "state_holiday")
                first = int(days[0][k] if banned else days[1][k] + 1 + (kind == "state_frequency"))
                for day in range(first, min(int(days[1][k]) + _SEARCH_DAYS,
                                            law.windows.shape[1])):
                    local = _times(rng, law, r, kind, day, row)
                    if local is None:
                        continue
                    at = frame.at(np.full(len(local), leads[k]), np.full(len(local), day),
                                  np.array(local))
                    if at[0] >= start[k] and at[-1] < end[k]:
                        cases.append(Case(int(leads[k]), day, local, kind))
                        free[k], placed = False, placed + 1
                    break
    return cases


def _kinds(law: Law, r: int, row: Jurisdiction) -> list[str]:
    """The kinds row ``r`` can be broken by on some day of the world."""
    start, end = law.windows[r, :, 0], law.windows[r, :, 1]
    gaps = (start >= 0) & ((start > FEDERAL[0]) | (end < FEDERAL[1]))
    can = {"state_calling_hours": bool(gaps.any()), "state_day_ban": row.sunday is None,
           "state_holiday": bool(law.holiday[r].any()),
           "state_frequency": row.max_calls is not None}
    return [kind for kind in KINDS if can[kind]]


def _times(rng: np.random.Generator, law: Law, r: int, kind: str, day: int,
           row: Jurisdiction) -> tuple[int, ...] | None:
    """Local times of the case's calls on ``day``, or ``None`` if the day does not fit."""
    start, end = (int(v) for v in law.windows[r, day])
    sunday = law.weekday(day) == 6
    if kind == "state_day_ban":
        fits = sunday and start < 0 and not law.holiday[r, day]
    elif kind == "state_holiday":
        fits = bool(law.holiday[r, day]) and not sunday
    elif kind == "state_calling_hours":
        gaps = [(a, b) for a, b in ((FEDERAL[0], start), (end, FEDERAL[1])) if b - a > MINUTE_MS]
        if start < 0 or not gaps:
            return None
        a, b = gaps[int(rng.integers(len(gaps)))]
        return (int(rng.integers(a, b - MINUTE_MS)),)
    else:
        if start < 0 or row.max_calls is None or row.cap_period != timedelta(hours=24):
            return None
        first = start + int(rng.integers(0, HOUR_MS))
        steps = rng.integers(20 * MINUTE_MS, 90 * MINUTE_MS, size=row.max_calls)
        local = (first, *(first + np.cumsum(steps)).tolist())
        return local if local[-1] < end - MINUTE_MS else None
    return (int(rng.integers(*_MIDDAY)),) if fits else None
