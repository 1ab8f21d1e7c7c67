"""The recipient's wall-clock time of each call: local hour and weekday in the number's zone.

The zones of a number come from :func:`dialkit.compliance.first_zones`, asked
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

from ..compliance import first_zones
from ._match import Ints

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


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
        """One of ``zone``, ``local_hour``, ``weekday``: the codes, and the values they
        index with a missing value last (code -1 is that one)."""
        if name == "local_hour":
            return self.hour, pd.array([*range(24), None], "Int64")
        if name == "weekday":
            return self.day, pd.Categorical([*WEEKDAYS, None], categories=list(WEEKDAYS),
                                            ordered=True)
        if name == "zone":
            return self.zone, pd.array([*self.zones, None], "string[pyarrow]")
        raise ValueError(f"no local column {name!r}: zone, local_hour or weekday")


def local_clock(calls: pd.DataFrame) -> Clock:
    """The zone, local hour and weekday of each call (``to_number``, ``created_at``)."""
    zones, zone, count = first_zones(calls["to_number"])
    hour, day = _wall_clock(calls["created_at"], zone, zones)
    return Clock(zone, zones, count > 1, hour, day)


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
