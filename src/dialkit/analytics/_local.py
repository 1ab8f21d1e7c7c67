"""The recipient's wall-clock time of each call: local hour and weekday in the number's zone.

The zones of a number come from :func:`dialkit.compliance.local_call_times`, asked
once per distinct number rather than once per call; a number that spans several
zones (some US area codes, most of Canada) is placed in its first zone, the one
``phonenumbers`` names first, and flagged, so a table can say how many of its
calls that touches. The conversion to local time then runs once per zone over
all of that zone's calls.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..compliance import local_call_times
from ._match import Ints, _encoded

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_EPOCH = pd.Timestamp("2026-01-01", tz="UTC")


@dataclass(frozen=True)
class Clock:
    """Each call's place and local time, as integer codes (-1: the zone is not known).

    Attributes:
        zone: An index into ``zones`` (sorted names): the first zone of ``to_number``.
        zones: The zones met.
        multi_zone: Whether the number spans several zones.
        hour: The local hour, 0-23.
        day: The local weekday, Monday 0.
    """

    zone: Ints
    zones: list[str]
    multi_zone: NDArray[np.bool_]
    hour: Ints
    day: Ints

    def column(self, name: str) -> tuple[Ints, pd.api.extensions.ExtensionArray]:
        """One of ``zone``, ``multi_zone``, ``local_hour``, ``weekday``: the codes, and
        the values they index with a missing value last (code -1 is that one)."""
        if name == "local_hour":
            return self.hour, pd.array([*range(24), None], "Int64")
        if name == "weekday":
            return self.day, pd.Categorical([*WEEKDAYS, None], categories=list(WEEKDAYS),
                                            ordered=True)
        if name == "zone":
            return self.zone, pd.array([*self.zones, None], "string[pyarrow]")
        return self.multi_zone.astype(np.int64), pd.array([False, True, None], "boolean")


def local_clock(calls: pd.DataFrame) -> Clock:
    """The zone, local hour and weekday of each call (``to_number``, ``created_at``)."""
    number, distinct = _encoded(calls["to_number"])
    zone_codes, zones, multi = _first_zones(distinct.to_pylist())
    known = number >= 0
    call_zone = np.where(known, zone_codes[np.maximum(number, 0)], -1)
    hour, day = _wall_clock(calls["created_at"], call_zone, zones)
    return Clock(call_zone, zones, known & multi[np.maximum(number, 0)], hour, day)


def _first_zones(numbers: list[str]) -> tuple[Ints, list[str], np.ndarray]:
    """For each distinct number: its first zone (an index into the zones; -1: none known),
    the zones, and whether it has several."""
    if not numbers:
        return np.zeros(0, np.int64), [], np.zeros(0, bool)
    asked = pd.DataFrame({"id": numbers, "to_number": numbers, "created_at": _EPOCH})
    rows = local_call_times(asked)
    starts = np.flatnonzero(~rows["id"].duplicated().to_numpy(bool))
    if len(starts) == len(numbers) and (rows["id"].to_numpy(object)[starts] == numbers).all():
        first = rows["zone"].iloc[starts]  # one run of rows per number, in their order
        several = np.diff(np.r_[starts, len(rows)]) > 1
    else:
        per_number = rows.groupby("id", sort=False)["zone"]
        first = per_number.first().reindex(numbers)
        several = (per_number.count().reindex(numbers, fill_value=0) > 1).to_numpy(bool)
    codes, zones = pd.factorize(first.to_numpy(object), sort=True)
    return codes.astype(np.int64), [str(z) for z in zones], several


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
