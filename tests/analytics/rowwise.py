"""A second, plainer method: the same counts computed one row at a time in plain Python.

The tests hold ``dialkit.analytics`` equal to these on the seeded world, and
``benchmarks/bench_analytics.py`` times them beside it. Nothing here is
vectorised or shared with the library: zones come from ``phonenumbers`` number by
number, local times from ``zoneinfo`` call by call.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pandas as pd
import phonenumbers
from phonenumbers import timezone as phone_timezones

STAGES = ("leads", "dialled", "answered", "conversation", "positive", "booked")
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def _rows(frame: pd.DataFrame | None) -> list[dict[str, Any]]:
    if frame is None:
        return []
    return [{k: (None if _missing(v) else v) for k, v in row.items()}
            for row in frame.to_dict("records")]


def _missing(value: Any) -> bool:
    return value is None or value is pd.NA or value is pd.NaT or (
        isinstance(value, float) and value != value)


def _when(value: Any) -> datetime | None:
    return None if value is None else pd.Timestamp(value).tz_convert("UTC").to_pydatetime()


def calls_by_lead(calls: pd.DataFrame) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Outbound calls by (campaign_id, to_number)."""
    found: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for call in _rows(calls):
        if call["direction"] == "outbound" and call["campaign_id"] and call["to_number"]:
            found[(call["campaign_id"], call["to_number"])].append(call)
    return found


def funnel(leads: pd.DataFrame, calls: pd.DataFrame, callbacks: pd.DataFrame | None = None,
           appointments: pd.DataFrame | None = None, conversation_seconds: float = 30,
           positive: Collection[str] = ("sale", "callback_requested", "info_sent"),
           ) -> dict[tuple[str, str], int]:
    """{(campaign_id, stage): leads}, every lead walked through the stages in turn."""
    by_lead = calls_by_lead(calls)
    called_back = {row["lead_id"] for row in _rows(callbacks) if row["lead_id"]}
    booked_phones = {row["phone"] for row in _rows(appointments) if row["phone"]}
    counts: Counter[tuple[str, str]] = Counter()
    for lead in _rows(leads):
        mine = by_lead.get((lead["campaign_id"], lead["phone"]), [])
        passed = [True, bool(mine)]
        passed.append(any(call["answered_at"] is not None for call in mine))
        passed.append(any(call["answered_at"] is not None and call["ended_at"] is not None
                          and (_when(call["ended_at"]) - _when(call["answered_at"])
                               ).total_seconds() >= conversation_seconds for call in mine))
        passed.append(any(call["disposition"] in positive for call in mine))
        passed.append(lead["id"] in called_back or lead["phone"] in booked_phones)
        for stage, ok in zip(STAGES, passed, strict=True):
            if not ok:
                break
            counts[(lead["campaign_id"], stage)] += 1
    return counts


def first_zone(number: str, cache: dict[str, str | None]) -> str | None:
    """The first zone ``phonenumbers`` gives a number (None when it knows none)."""
    if number not in cache:
        try:
            zones = phone_timezones.time_zones_for_number(phonenumbers.parse(number))
        except phonenumbers.NumberParseException:
            zones = ()
        cache[number] = zones[0] if zones and zones[0] != "Etc/Unknown" else None
    return cache[number]


def answer_rates(calls: pd.DataFrame) -> dict[tuple[int | None, str | None], tuple[int, int]]:
    """{(local_hour, weekday): (calls, answered)} over outbound calls, call by call."""
    cache: dict[str, str | None] = {}
    cells: dict[tuple[int | None, str | None], list[int]] = defaultdict(lambda: [0, 0])
    for call in _rows(calls):
        if call["direction"] != "outbound":
            continue
        zone = first_zone(call["to_number"], cache) if call["to_number"] else None
        key: tuple[int | None, str | None] = (None, None)
        if zone is not None:
            local = _when(call["created_at"]).astimezone(ZoneInfo(zone))
            key = (local.hour, WEEKDAYS[local.weekday()])
        cells[key][0] += 1
        cells[key][1] += call["answered_at"] is not None
    return {key: (n, k) for key, (n, k) in cells.items()}


def attempts(leads: pd.DataFrame, calls: pd.DataFrame) -> dict[tuple[str, int | None], int]:
    """{(campaign_id, attempts until the first answer, None: never): dialled leads}."""
    by_lead = calls_by_lead(calls)
    counts: Counter[tuple[str, int | None]] = Counter()
    for lead in _rows(leads):
        mine = sorted(by_lead.get((lead["campaign_id"], lead["phone"]), []),
                      key=lambda call: _when(call["created_at"]))
        if not mine:
            continue
        tries: int | None = None
        for n, call in enumerate(mine, start=1):
            if call["answered_at"] is not None:
                tries = n
                break
        counts[(lead["campaign_id"], tries)] += 1
    return counts
