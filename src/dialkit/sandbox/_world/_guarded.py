"""The numbers the client's guard must refuse at the world's "now", listed in
the ``planted`` table as ``guard_*`` kinds and served by ``GET /_sandbox/guard-truth``, so
that tests and notebooks find them without hard-coding a number.

Each is a lead of a campaign the API lists, picked from the world as it is built, so no
other plant and no finding of the audit or of ``upcoming`` moves:

- ``guard_dnc``: a number on the Do-Not-Call list (a lead listed before it was imported,
  never called), whose place allows calls at the anchor, so the list alone refuses it;
- ``guard_hours``: a new lead of a paused campaign (one ``campaigns.resume`` judges)
  whose place's law forbids a call at the anchor, the one it forbids longest (a state's
  shorter window, a Sunday ban, or the night: 05:00 in Honolulu at 15:00 UTC). On a
  weekday between about 18:00 and 21:00 UTC no place of the world is outside its hours
  (Honolulu opens at 08:00, Newfoundland closes at 21:30), so none is planted then;
- ``guard_cap``: a lead of a campaign that dialled, in a state that caps calls (Florida,
  Maryland, Oklahoma: three in 24 hours), not called in the day before, given three
  unanswered calls (an agent's click-to-calls, where its campaign no longer dials)
  between 10:00 and 19:00 local time in the 22 hours before the anchor, each lawful, so
  the next one is over the cap. Its lead's attempts and history follow them (a new lead
  becomes ``contacted``; a completed one stays so); a lead the three would complete (its
  campaign's ``max_attempts``) or whose next attempt would be a fourth in 24 hours is not
  picked, nor a completed one where another fits. Its place allows calls at the anchor
  where one such lead's does, so the cap alone refuses it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import numpy as np

from .._state._clock import isoformat
from ._numbers import COUNTRIES, DAY_MS, I64

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ._history import Frame, Outcomes

KINDS = ("guard_dnc", "guard_hours", "guard_cap")
RULE = {"guard_dnc": "dnc_call", "guard_hours": "calling_hours", "guard_cap": "call_frequency"}
"""The rule the guard refuses each planted number by."""
CAP_CALLS = 3
"""The calls the capped number was given: every capping state's ``max_calls``."""
_MINUTE_MS, _HOUR_MS = 60_000, 3_600_000
_CAP_HOURS = (10 * _HOUR_MS, 19 * _HOUR_MS)
"""The local hours the capped number's calls lie in: inside every window of the law and of
the house rules, whatever the day."""
_STEP = 25 * _MINUTE_MS
_SEARCH_DAYS = 8
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Guarded:
    """The planted leads (``-1``: none fits) and the capped number's calls' times."""

    dnc: int
    hours: int
    cap: int
    cap_calls: I64

    def planted(self) -> tuple[tuple[str, int], ...]:
        """Each (kind, lead) planted."""
        leads = (self.dnc, self.hours, self.cap)
        return tuple((kind, lead) for kind, lead in zip(KINDS, leads, strict=True)
                     if lead >= 0)


def choose(frame: Frame, outcomes: Outcomes, listed_at: I64, shown: NDArray[np.bool_],
           last_at: I64, taken: NDArray[np.bool_]) -> Guarded:
    """The three leads (module docstring), each picked by a rule of the anchor alone, so
    the same world always plants the same ones. ``last_at`` is each lead's last call (-1:
    none); ``taken`` marks the leads other plants hold."""
    from ._history import CONTACTED, DONE, NEW, PAUSED, RUNNING  # noqa: PLC0415 - no cycle

    nanp = np.isin(np.asarray(COUNTRIES, object)[frame.lead_country], ["US", "CA"])
    free = shown & ~taken & nanp
    wait = _closed_for(frame, np.arange(len(free)))
    campaign = frame.campaign_status[frame.lead_campaign]
    listed = np.flatnonzero(free & (outcomes.attempts == 0) & (listed_at >= 0)
                            & (listed_at < frame.anchor))
    dnc = _first(listed[wait[listed] == 0], listed)
    night = np.flatnonzero(free & (outcomes.status == NEW) & (listed_at < 0)
                           & (campaign == PAUSED) & (wait > 0))
    hours = int(night[np.argmax(wait[night])]) if len(night) else -1
    capped = np.array([row is not None and row.max_calls == CAP_CALLS
                       for row in frame.law.rows])[frame.law.lead_row]
    fit = np.flatnonzero(free & capped & (listed_at < 0) & (campaign >= RUNNING)
                         & ((outcomes.status == DONE) | np.isin(outcomes.status, (NEW, CONTACTED))
                            & (outcomes.attempts + CAP_CALLS < frame.max_attempts[
                                frame.lead_campaign]))
                         & (np.arange(len(free)) != hours))
    for lead in fit[np.lexsort((outcomes.status[fit] == DONE, wait[fit] > 0))].tolist():
        times = _cap_times(frame, lead)
        later = int(outcomes.next_attempt[lead])  # none of 4 calls in 24 h, so no finding
        if len(times) == CAP_CALLS and last_at[lead] < times[0] - DAY_MS and (
                later < 0 or later > times[0] + DAY_MS):
            return Guarded(dnc, hours, lead, times)
    return Guarded(dnc, hours, -1, np.empty(0, np.int64))


def _first(preferred: I64, rest: I64) -> int:
    """The first of ``preferred``, else of ``rest`` (-1: none)."""
    for pool in (preferred, rest):
        if len(pool):
            return int(pool[0])
    return -1


def _closed_for(frame: Frame, leads: I64) -> I64:
    """Per lead, how long (ms) after the anchor its place's law next allows a call: ``0``
    where it allows one now; a week where it allows none in the days searched."""
    anchor = np.full(len(leads), frame.anchor)
    day, local = frame.clock.to_local(frame.lead_zone[leads], anchor)
    start, end = frame.law.allowed(leads, day)
    wait = np.where((start >= 0) & (local >= start) & (local < end), 0, -1)
    wait = np.where((wait < 0) & (start >= 0) & (local < start), start - local, wait)
    for ahead in range(1, _SEARCH_DAYS):
        start, _ = frame.law.allowed(leads, day + ahead)
        opens = (wait < 0) & (start >= 0)
        wait = np.where(opens, frame.at(leads, day + ahead, start) - frame.anchor, wait)
    return np.where(wait < 0, 7 * DAY_MS, wait)


def _cap_times(frame: Frame, lead: int) -> I64:
    """The latest :data:`CAP_CALLS` moments, a step apart, in the 22 hours before the anchor
    (two short of it, as every call of the world) that the lead's law allows, between 10:00
    and 19:00 local time; fewer where there are not so many."""
    at = np.arange(frame.anchor - 2 * _HOUR_MS, frame.anchor - 22 * _HOUR_MS, -_STEP)
    leads = np.full(len(at), lead)
    day, local = frame.clock.to_local(frame.lead_zone[leads], at)
    start, end = frame.law.allowed(leads, day)
    fine = (start >= 0) & (local >= np.maximum(start, _CAP_HOURS[0])) & (
        local < np.minimum(end, _CAP_HOURS[1]))
    times: I64 = np.sort(at[fine][:CAP_CALLS])
    return times


def planted_rows(account: str, guarded: Guarded, frame: Frame, listed_at: I64,
                 lead_ids: NDArray[np.object_], phones: NDArray[np.str_],
                 zones: NDArray[np.str_], call_ids: list[str]) -> Iterator[tuple[object, ...]]:
    """The ``planted`` table's rows: the lead's id where a call's id would be, the rule the
    guard refuses by, and what the world knows of why (its listing, its local time at the
    anchor, its calls)."""
    for kind, lead in guarded.planted():
        detail: dict[str, object] = {"rule": RULE[kind]}
        if kind == "guard_dnc":
            detail["listed_at"] = _stamp(int(listed_at[lead]))
        elif kind == "guard_hours":
            local = datetime.fromtimestamp(frame.anchor / 1000, ZoneInfo(str(zones[lead])))
            detail |= {"local_time": local.strftime("%a %H:%M"), "timezone": str(zones[lead]),
                       "opens_at": _stamp(frame.anchor + int(_closed_for(
                           frame, np.array([lead]))[0]))}
        else:
            detail |= {"calls_in_24h": CAP_CALLS, "call_ids": call_ids,
                       "called_at": [_stamp(int(at)) for at in guarded.cap_calls]}
        yield (account, kind, str(lead_ids[lead]), str(phones[lead]), json.dumps(detail))


def _stamp(ms: int) -> str:
    return isoformat(_EPOCH + timedelta(milliseconds=ms))
