"""The law of the place each lead's number is in, for the seeded world.

The world is clean under the law of the place called, not only under the federal
rule: its dialer keeps to every row of :mod:`dialkit._law._jurisdictions`
(a state's shorter window, its Sundays and banned holidays, Canada's weekend
hours), and the problems it breaks that law with are planted and listed, as the
federal ones are. A number's row comes from its area code (its state by
:func:`dialkit._places._areas.area_states`, the table the audit places numbers
by, so the world keeps the law the audit applies) or its country (``CA``); a
number whose place has no row (a state without one, ``GB``'s "any time") keeps
the federal 08:00-21:00.

Planted, each on a lead of its own, one or more per (confirmed row, rule kind),
always inside 08:00-21:00 local time and never on a listed number, so no federal
rule (nor today's presets) finds them:

- ``state_calling_hours``: a call in the federal window but outside the row's
  window that day (20:00-21:00 in Florida, 08:00-10:00 in Kentucky);
- ``state_day_ban``: a call at midday on a Sunday the row bans;
- ``state_holiday``: a call at midday on a holiday the row bans (where the
  world's dialling window holds one);
- ``state_frequency``: the row's cap plus one calls within one day, all inside
  the row's window; the last is the finding. The house rules' policy
  (``HOUSE_RULES``: at most 3 calls per number per 24 h) forbids that call too, so
  it is listed as ``frequency`` as well (its ``basis`` the law's).

Unconfirmed rows are kept by the dialer but get no planted case: the audit is not
to apply them as law. Which lead, day and times each case takes is chosen in
:mod:`._cases`, which reads the world's :class:`~.._calls.Frame`: that frame holds this
module's :class:`Law`, so the law names nothing of the calls and the two do not import
each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from dialkit._places._areas import area_states

from .._numbers import COUNTRIES, DAY_MS, I64, LocalClock, Numbers, country_of
from ._zones import area_spread

if TYPE_CHECKING:
    from dialkit._law._jurisdictions import Jurisdiction

MINUTE_MS, HOUR_MS = 60_000, 3_600_000
FEDERAL = (8 * HOUR_MS, 21 * HOUR_MS)
"""The federal window (TSR, TCPA) in local ms: every row's window is cut to it."""

KINDS = ("state_calling_hours", "state_day_ban", "state_holiday", "state_frequency")
"""The planted kinds of the place's law, in the order :data:`.._planted.KINDS` ends with."""


@cache
def _rows() -> tuple[Jurisdiction, ...]:
    from dialkit._law import _jurisdictions  # noqa: PLC0415 - the table, on first build

    return tuple(row for row in _jurisdictions.all() if row.id != "US")


def allows(jurisdiction: str, local: datetime) -> bool:
    """Whether the row ``jurisdiction`` (``""``: none) allows a call at this recipient-local
    time; the federal window is the caller's to check."""
    return not jurisdiction or next(r for r in _rows() if r.id == jurisdiction).allows(local)


@cache
def area_jurisdiction(country: str, prefix: str) -> str:
    """The row id for a number's country and first digits (``+1`` and the area code),
    or ``""`` where no row applies."""
    ids = {row.id for row in _rows()}
    if country != "US":
        return country if country in ids else ""
    state = area_states(np.array([int(prefix[2:5])]))[0]
    return f"US-{state}" if state is not None and f"US-{state}" in ids else ""


@dataclass(frozen=True)
class Law:
    """Each lead's row and each row's allowed local window per day of the world's clock.

    Attributes:
        rows: The rows; ``None`` at index 0, the federal rule alone.
        lead_row: Per lead, the index of its row.
        windows: ``[row, day, 2]``: the allowed ``[start, end)`` in local ms,
            cut to the federal window; ``-1`` on a day without calls.
        holiday: ``[row, day]``: the day is a holiday the row bans calls on.
        first_day: The epoch day of day index 0 (the world clock's).
        lead_area: Per lead, its split area code's index in ``spread`` (``0``: none).
        spread: ``[area, day, 2]``: the least and most offset of the area code's zones
            from the number's own (:func:`._zones.area_spread`).
    """

    rows: tuple[Jurisdiction | None, ...]
    lead_row: I64
    windows: I64
    holiday: NDArray[np.bool_]
    first_day: int
    lead_area: I64
    spread: I64

    def allowed(self, lead: I64, day: I64) -> tuple[I64, I64]:
        """The allowed local window of each lead on each local day (``-1``: no calls), in
        every zone of its area code: the row's window moved by the zones' offsets."""
        days = np.clip(day, 0, self.windows.shape[1] - 1)
        at = self.windows[self.lead_row[lead], days]
        spread = self.spread[self.lead_area[lead], days]
        start, end = at[..., 0] - spread[..., 0], at[..., 1] - spread[..., 1]
        shut = (at[..., 0] < 0) | (start >= end)
        return np.where(shut, -1, start), np.where(shut, -1, end)

    def split(self) -> NDArray[np.bool_]:
        """Per lead: its number's area code spans several zones that differ on some day."""
        split: NDArray[np.bool_] = (self.spread[..., 0] != self.spread[..., 1]).any(axis=1)[
            self.lead_area]
        return split

    def weekday(self, day: int) -> int:
        """Monday 0 to Sunday 6 of a day index."""
        return (self.first_day + day + 3) % 7

    def strict(self) -> NDArray[np.bool_]:
        """Per lead: its row is stricter than the federal rule somewhere."""
        federal = (self.windows == np.array(FEDERAL)).all(axis=(1, 2))
        capped = np.array([row is not None and row.max_calls is not None for row in self.rows])
        strict: NDArray[np.bool_] = (~federal | capped)[self.lead_row]
        return strict


def law_of(phones: Numbers, clock: LocalClock) -> Law:
    """Each lead's row (by area code or country) and the rows' windows on the clock's days."""
    rows = _rows()
    ids = ("", *(row.id for row in rows))
    prefixes, where = np.unique(phones.e164.astype("U5"), return_inverse=True)
    first = np.zeros(len(prefixes), dtype=np.int64)
    first[where] = phones.country
    per_prefix = np.array([ids.index(area_jurisdiction(COUNTRIES[c], p))
                           for p, c in zip(prefixes.tolist(), first.tolist(), strict=True)],
                          dtype=np.int64)
    days = [local_date(clock.first_day, d) for d in range(clock.offsets.shape[1])]
    windows = np.empty((len(ids), len(days), 2), dtype=np.int64)
    windows[0] = FEDERAL
    holiday = np.zeros((len(ids), len(days)), dtype=bool)
    for r, row in enumerate(rows, 1):
        banned = row.holidays_between(days[0], days[-1]) if row.holiday is None else {}
        for d, day in enumerate(days):
            windows[r, d] = _cut(row.window_on(day))
            holiday[r, d] = day in banned
    lead_area, spread = area_spread(phones, clock)
    return Law(rows=(None, *rows), lead_row=per_prefix[where.ravel()],
               windows=windows, holiday=holiday, first_day=clock.first_day,
               lead_area=lead_area, spread=spread)


def _ms(moment: time) -> int:
    return ((moment.hour * 60 + moment.minute) * 60 + moment.second) * 1000


def _cut(window: tuple[time, time] | None) -> tuple[int, int]:
    """A row's window in local ms, cut to the federal one; ``(-1, -1)`` for no calls."""
    if window is None:
        return -1, -1
    start, end = max(_ms(window[0]), FEDERAL[0]), min(_ms(window[1]) or DAY_MS, FEDERAL[1])
    return (start, end) if start < end else (-1, -1)


def squeeze(local: I64, start: I64, end: I64, last: int) -> I64:
    """Dial times drawn in ``08:00``-``last`` mapped onto ``[start, end)`` (five minutes
    short of its end), keeping their order; the federal window maps onto itself."""
    span = np.maximum(end - 5 * MINUTE_MS - start, 0)
    moved: I64 = np.where(start >= 0, start + (local - FEDERAL[0]) * span // (last - FEDERAL[0]),
                          local)
    return moved


def describe(row: Jurisdiction, kind: str, local: datetime) -> str:
    """The rule a planted case breaks, in words, as its ``detail.rule``."""
    if kind == "state_day_ban":
        return "no calls on Sunday"
    if kind == "state_holiday":
        return f"no calls on {row.holiday_on(local.date())}"
    if kind == "state_frequency":
        return f"at most {row.max_calls} calls per number in any 24 hours"
    window = row.window_on(local.date())
    assert window is not None
    return f"calls {window[0]:%H:%M}-{window[1]:%H:%M} on {local:%A}"


def detail(law: Law, kind: str, lead: int, local: datetime, zone: str) -> dict[str, Any]:
    """A planted row's ``detail``: the jurisdiction, the rule, the local time and zone."""
    row = law.rows[int(law.lead_row[lead])]
    assert row is not None
    return {"jurisdiction": row.id, "rule": describe(row, kind, local),
            "local_time": local.strftime("%a %Y-%m-%d %H:%M"), "timezone": zone}


def hours_basis(phone: str) -> str:
    """What decides an ``outside_calling_hours`` case (a call at 06:00-07:45 or 21:15-23:30
    recipient time) to ``phone``: ``law`` where the row of the number's country sets
    calling hours (the US federal rule, the CRTC's), ``policy`` where it sets none (the
    UK: any time), so that only the house rules' window forbids the call."""
    from dialkit._law import _jurisdictions  # noqa: PLC0415 - the ground truth's, on first use

    country = country_of(phone)
    row = next((r for r in _jurisdictions.all() if r.id == country), None)
    free = row is None or not row.confirmed or row.weekday == _jurisdictions.WHOLE_DAY
    return "policy" if free else "law"


def local_date(first_day: int, day: int) -> date:
    """The calendar date of a day index."""
    return (datetime(1970, 1, 1, tzinfo=UTC) + timedelta(days=first_day + day)).date()
