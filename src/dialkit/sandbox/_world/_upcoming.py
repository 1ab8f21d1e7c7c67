"""The calls the seeded world has scheduled: pending callbacks and leads' next
attempts, each at a moment the law of the place called allows, but for a few planted
ones that the law forbids, listed in the ``planted`` table as ``upcoming_*`` kinds and
served by ``GET /_sandbox/upcoming-truth``. The planted callbacks are of paused
campaigns: the emulator's dialer keeps the law and would not call them when due, so
they stay pending until the campaign resumes, as the audit's world expects.

A scheduled call is moved to at least a day after the lead's last call (so that no
state's cap of three a day counts it) and into its row's window (a state's shorter
hours, its Sundays and banned holidays, cut to the federal 08:00-21:00) on that day or
the next that allows calls. Then, per kind, up to ``per_kind`` leads of a US or Canadian
number (the UK sets no hours):

- ``upcoming_callback_hours``: a pending callback moved to 22:30 local time, after every
  row's window;
- ``upcoming_attempt_hours``: a lead's next attempt (no callback) moved to 07:00 local
  time, before every row's window;
- ``upcoming_callback_dnc``: a pending callback at a lawful moment whose number, a US one,
  was put on the Do-Not-Call list half an hour before the world's "now", after the
  callback was set (the lead keeps its ``callback`` status, so the audit's ``dnc_lead``
  finds it too). Not a Canadian one: the National DNCL gives a listing 31 days' grace, so
  a callback due within days of it breaks no rule, and which leads were pending, so
  which country was drawn, turned on the hour the world was anchored at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import numpy as np

from .._state._clock import isoformat
from ._numbers import COUNTRIES, DAY_MS, I64

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ._history import Calls, Frame, Outcomes

KINDS = ("upcoming_callback_hours", "upcoming_attempt_hours", "upcoming_callback_dnc")
RULE = {"upcoming_callback_hours": "calling_hours", "upcoming_attempt_hours": "calling_hours",
        "upcoming_callback_dnc": "dnc_call"}
"""The rule of the audit's ``upcoming`` that finds each planted kind."""
_MINUTE_MS = 60_000
_LATE, _EARLY = (22 * 60 + 30) * _MINUTE_MS, 7 * 60 * _MINUTE_MS
_SEARCH_DAYS = 8
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Scheduled:
    """The outcomes with lawful (and planted) next attempts, the listings with the planted
    late ones, and each planted (kind, lead)."""

    outcomes: Outcomes
    listed_at: I64
    listed_by: NDArray[np.str_]
    planted: tuple[tuple[str, int], ...]


def scheduled(rng: np.random.Generator, frame: Frame, calls: Calls, outcomes: Outcomes,
              listed_at: I64, listed_by: NDArray[np.str_], per_kind: int,
              shown: NDArray[np.bool_]) -> Scheduled:
    """The world's scheduled calls made lawful, then a few planted (module docstring), on
    leads of campaigns the API lists (``shown``: not archived)."""
    from ._history import CALLBACK_DUE, CONTACTED, PAUSED  # noqa: PLC0415 - no cycle

    due = np.flatnonzero(outcomes.next_attempt >= 0)
    at = outcomes.next_attempt.copy()
    last = np.where(outcomes.last[due] >= 0, calls.created[np.maximum(outcomes.last[due], 0)],
                    -1)
    at[due] = _lawful(frame, due, np.maximum(at[due], last + DAY_MS))
    country = np.asarray(COUNTRIES, object)[frame.lead_country]
    spoken, us = np.isin(country, ["US", "CA"]), country == "US"
    held = (frame.campaign_status[frame.lead_campaign] == PAUSED) & shown  # not dialled
    pending = due[(outcomes.status[due] == CALLBACK_DUE) & spoken[due] & held[due]]
    redial = due[(outcomes.status[due] == CONTACTED) & spoken[due]]
    chosen = rng.permutation(pending)
    listed = chosen[us[chosen]][:per_kind]  # the registry's listing binds at once
    late = chosen[~np.isin(chosen, listed)][:per_kind]
    ahead = _moved(frame, redial, at[redial], _EARLY) > frame.anchor  # still to come
    early = rng.permutation(redial[shown[redial] & ahead])[:per_kind]
    at[late] = _moved(frame, late, at[late], _LATE)
    at[early] = _moved(frame, early, at[early], _EARLY)
    listed_at, listed_by = listed_at.copy(), listed_by.copy()
    listed_at[listed] = frame.anchor - 30 * _MINUTE_MS
    listed_by[listed] = "registry"
    planted = tuple((kind, int(lead)) for kind, leads in zip(KINDS, (late, early, listed),
                                                              strict=True) for lead in leads)
    return Scheduled(replace(outcomes, next_attempt=at), listed_at, listed_by, planted)


def _lawful(frame: Frame, leads: I64, at: I64) -> I64:
    """Each moment, or the first the lead's row allows from then on: inside its window that
    day, else half an hour into the window of the next day with one."""
    day, local = frame.clock.to_local(frame.lead_zone[leads], at)
    start, end = frame.law.allowed(leads, day)
    fine = (start >= 0) & (local >= start) & (local < end - 5 * _MINUTE_MS)
    moved = at.copy()
    todo = ~fine
    for ahead in range(1, _SEARCH_DAYS):
        if not todo.any():
            break
        start, end = frame.law.allowed(leads, day + ahead)
        opens = todo & (start >= 0)
        local = np.minimum(start + 30 * _MINUTE_MS, end - 15 * _MINUTE_MS)
        moved[opens] = frame.at(leads[opens], (day + ahead)[opens], local[opens])
        todo &= ~opens
    return moved


def _moved(frame: Frame, leads: I64, at: I64, local: int) -> I64:
    """The same local day, at ``local`` ms past midnight."""
    day, _ = frame.clock.to_local(frame.lead_zone[leads], at)
    return frame.at(leads, day, np.full(len(leads), local, np.int64))


def planted_rows(account: str, planted: tuple[tuple[str, int], ...], at: I64,
                 lead_ids: NDArray[np.object_],
                 phones: NDArray[np.str_]) -> Iterator[tuple[object, ...]]:
    """The ``planted`` table's rows of the scheduled calls: the lead's id where a call's
    id would be, and the rule and due time in the detail."""
    for kind, lead in planted:
        due = isoformat(_EPOCH + timedelta(milliseconds=int(at[lead])))
        yield (account, kind, str(lead_ids[lead]), str(phones[lead]),
               json.dumps({"rule": RULE[kind], "due_at": due}))
