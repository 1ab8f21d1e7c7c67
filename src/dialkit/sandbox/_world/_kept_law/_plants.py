"""Two problems planted in the world beside its cases (:mod:`._cases`): a call judged in
every zone of a split area code, and a call that showed no caller id.

- ``split_zone_hours``: a call to a number of a split area code (:mod:`._zones`)
  moved to the last minutes before 21:00 at the number's own (first) zone, when another
  zone of its area code is already past 21:00 (20:30 Central to a 423 number is 21:30
  Eastern): 47 CFR 64.1200(c)(1) and 16 CFR 310.4(c) allow calls "before the hour of 8
  a.m. or after 9 p.m. (local time at the called party's location)" nowhere, and the
  audit, not knowing which zone the person is in, takes the stricter.
- ``caller_id``: a call that showed ``anonymous`` as its caller id (the contract's
  ``from_number`` is a string, so the world's is too): 16 CFR 310.4(a)(8).

Each is planted on a lead of its own, of a US number whose place has no rule stricter
than the federal one, inside its campaign's dialling window, so it breaks no other rule.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import numpy as np
from numpy.typing import NDArray

from dialkit._places._areas import area_zones

from .._numbers import COUNTRIES, I64

if TYPE_CHECKING:
    from .._history import Calls, Frame

MINUTE_MS, HOUR_MS = 60_000, 3_600_000
_NINE_PM = 21 * HOUR_MS
ANONYMOUS = -1
"""A call's ``caller`` index that shows no number: written as ``anonymous``."""


def plant_split_hours(rng: np.random.Generator, frame: Frame, calls: Calls, index: I64,
                      kind: int) -> None:
    """Move the calls at ``index`` (to split area codes' numbers with a zone ahead of their
    own that day) to 1-55 minutes before 21:00 of their own zone, less the zone's lead."""
    lead = calls.lead[index]
    day = frame.day_of(lead, calls.created[index])
    ahead = frame.law.spread[frame.law.lead_area[lead], day, 1]
    local = _NINE_PM - ahead + rng.integers(MINUTE_MS, np.minimum(ahead, 55 * MINUTE_MS))
    calls.shift(index, frame.at(lead, day, local) - calls.created[index])
    calls.kind[index] = kind


def split_ahead(frame: Frame, calls: Calls) -> NDArray[np.bool_]:
    """Per call: its number's area code has a zone at least ten minutes ahead of its own
    on the call's day, and the place sets no rule of its own."""
    day = frame.day_of(calls.lead, calls.created)
    ahead = frame.law.spread[frame.law.lead_area[calls.lead], day, 1]
    mask: NDArray[np.bool_] = (ahead >= 10 * MINUTE_MS) & (frame.law.lead_row[calls.lead] == 0)
    return mask


def plant_caller_id(calls: Calls, index: I64, kind: int) -> None:
    """The calls at ``index`` show no number."""
    calls.caller[index] = ANONYMOUS
    calls.kind[index] = kind


def us_leads(frame: Frame) -> NDArray[np.bool_]:
    """Per lead: its number is a US one."""
    us: NDArray[np.bool_] = frame.lead_country == COUNTRIES.index("US")
    return us


def florida(frame: Frame) -> NDArray[np.bool_]:
    """Per lead: its number is one of Florida's (whose cap counts calls to a person, Fla.
    Stat. 501.616(6)(b))."""
    rows = np.array([row is not None and row.id == "US-FL" for row in frame.law.rows])
    found: NDArray[np.bool_] = rows[frame.law.lead_row]
    return found


def split_detail(phone: str, local: datetime) -> dict[str, Any]:
    """A ``split_zone_hours`` call's ground truth: its time in the number's own zone, and
    the zone of its area code that is latest then, where the audit finds it."""
    zones = area_zones()[int(phone[2:5])]
    later = max(zones, key=lambda zone: (local.astimezone(ZoneInfo(zone)).replace(tzinfo=None),
                                         zone))
    return {"local_time": local.strftime("%H:%M"), "timezone": str(local.tzinfo),
            "stricter_timezone": later,
            "stricter_local_time": local.astimezone(ZoneInfo(later)).strftime("%H:%M")}
