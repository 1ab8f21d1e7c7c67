"""The recipient's wall-clock time of each call: local hour and weekday in the number's zone.

The zones of a number come from :func:`dialkit.compliance.local_call_times`, asked
once per distinct number rather than once per call; a number that spans several
zones (some US area codes, most of Canada) is placed in its first zone, the one
``phonenumbers`` names first, and flagged, so a table can say how many of its
calls that touches. The conversion to local time then runs once per zone over
all of that zone's calls.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..compliance import local_call_times
from ._match import Ints, _encoded

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_EPOCH = pd.Timestamp("2026-01-01", tz="UTC")


def local_clock(calls: pd.DataFrame) -> pd.DataFrame:
    """Per call (same index): ``zone`` (the first zone of ``to_number``; null when none is
    known), ``multi_zone`` (the number spans several), ``local_hour`` (0-23) and
    ``weekday`` (``Mon``..``Sun``, an ordered categorical), null where the zone is not known."""
    number, distinct = _encoded(calls["to_number"])
    zone_codes, zones, multi = _first_zones(distinct.to_pylist())
    call_zone = np.where(number >= 0, zone_codes[np.maximum(number, 0)], -1)
    hour, day = _wall_clock(calls["created_at"], call_zone, zones)
    return pd.DataFrame({
        "zone": pd.array(np.array([*zones, None], dtype=object)[call_zone], "string[pyarrow]"),
        "multi_zone": (number >= 0) & multi[np.maximum(number, 0)],
        "local_hour": pd.arrays.IntegerArray(hour, hour < 0),
        "weekday": pd.Categorical.from_codes(day, categories=list(WEEKDAYS), ordered=True),
    }, index=calls.index)


def _first_zones(numbers: list[str]) -> tuple[Ints, list[str], np.ndarray]:
    """For each distinct number: its first zone (an index into the zones; -1: none known),
    the zones, and whether it has several."""
    if not numbers:
        return np.zeros(0, np.int64), [], np.zeros(0, bool)
    asked = pd.DataFrame({"id": numbers, "to_number": numbers, "created_at": _EPOCH})
    rows = local_call_times(asked)
    per_number = rows.groupby("id", sort=False)["zone"]
    first, count = per_number.first(), per_number.count()
    first, count = first.reindex(numbers), count.reindex(numbers, fill_value=0)
    codes, zones = pd.factorize(first)
    return codes.astype(np.int64), [str(z) for z in zones], (count > 1).to_numpy(bool)


def _wall_clock(created: pd.Series, zone: Ints, zones: list[str]) -> tuple[Ints, Ints]:
    """Each call's local hour and weekday (Monday 0) in its zone; -1 where none."""
    hour = np.full(len(zone), -1, np.int64)
    day = np.full(len(zone), -1, np.int64)
    moments = pd.DatetimeIndex(created)
    order = np.argsort(zone, kind="stable")
    bounds = np.searchsorted(zone[order], np.arange(len(zones) + 1))
    for code, name in enumerate(zones):
        rows = order[bounds[code]:bounds[code + 1]]
        rows = rows[moments[rows].notna()]
        local = moments[rows].tz_convert(name)
        hour[rows], day[rows] = local.hour, local.day_of_week
    return hour, day
