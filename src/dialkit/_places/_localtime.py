"""Calls in the recipient's own time: wall-clock times in the zones of the numbers called.

The zones themselves come from :mod:`._zones`; here each UTC moment is converted
once per zone over all of that zone's calls, and a number's zones are turned
into what a table by local hour needs.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from .._phones._zones import ZONES, Ints, Rows, Zoned, first_zone, zones_of
from .._utils._moments import utc_times


def wall_clock(at: pd.Series, pairs: Zoned) -> NDArray[np.datetime64]:
    """Each pair's UTC moment (``at`` of its row) as wall-clock time in its zone (naive,
    nanoseconds): the moment plus its zone's UTC offset in its hour (:func:`_offsets`),
    and for the few pairs in an hour in which their zone's offset changes, converted
    one zone at a time (:func:`_converted`). pandas converts to a ``ZoneInfo`` zone by
    asking its offset of each moment: 95 ms of CPU for 1.07 million (call, zone) pairs,
    where an hourly table per zone, kept, makes it a gather. A span of more hours per
    zone met than there are pairs is converted zone by zone."""
    moments = pd.DatetimeIndex(at).as_unit("ns").asi8[pairs.row]
    known = moments != _NAT
    hour = moments // _HOUR_NS
    met = np.flatnonzero(np.bincount(pairs.zone, minlength=len(ZONES)))
    first, last = (int(f(hour[known])) for f in (np.min, np.max)) if known.any() else (0, -1)
    hours = last - first + 1
    if not 0 < len(met) * hours <= len(moments):
        return _converted(moments, pairs.zone).view("datetime64[ns]")
    rank = np.zeros(len(ZONES), np.int64)
    rank[met] = np.arange(len(met))
    tables = [_offsets(int(zone), first, hours) for zone in met]
    offset, changes = (np.concatenate([table[n] for table in tables]) for n in (0, 1))
    cell = rank[pairs.zone] * hours + np.where(known, hour - first, 0)
    local = np.where(known, moments + offset[cell], _NAT)
    mixed = np.flatnonzero(changes[cell] & known)
    local[mixed] = _converted(moments[mixed], pairs.zone[mixed])
    return local.view("datetime64[ns]")


_HOUR_NS = 3_600_000_000_000
_NAT = np.iinfo(np.int64).min
"""NaT's integer value."""


@functools.lru_cache(maxsize=1024)
def _offsets(zone: int, first: int, hours: int) -> tuple[Ints, NDArray[np.bool_]]:
    """A zone's UTC offset (ns) at the start of each of ``hours`` hours from hour ``first``
    (since 1970), and whether it differs at the hour's end (an offset changes in that
    hour: its moments are converted one by one). Kept: an audit asks the same hours of
    the same zones again. No zone's offset changes and changes back within an hour."""
    edges = (first + np.arange(hours + 1, dtype=np.int64)) * _HOUR_NS
    local = pd.DatetimeIndex(edges, tz="UTC").tz_convert(zone_info(ZONES[zone])).tz_localize(None)
    offset = local.as_unit("ns").asi8 - edges
    tables = offset[:-1], offset[:-1] != offset[1:]
    for table in tables:
        table.setflags(write=False)
    return tables


def _converted(moments: Ints, zones: Rows) -> Ints:
    """UTC moments (ns) as wall-clock times in their zones, by pandas, one zone at a time,
    the pairs put in zone order by one radix sort of the zones' indices (fewer than
    2**15: ``ZONES``), with no hashing of a million keys first."""
    local = np.empty(len(moments), np.int64)
    order = np.argsort(zones.astype(np.int16), kind="stable")
    ordered = zones[order]
    starts = np.flatnonzero(np.diff(ordered, prepend=-1))  # each zone's first pair
    for start, stop in zip(starts, [*starts[1:], len(order)], strict=False):
        members = order[start:stop]
        local[members] = pd.DatetimeIndex(moments[members], tz="UTC").tz_convert(
            zone_info(ZONES[int(ordered[start])])).tz_localize(None).as_unit("ns").asi8
    return local


@functools.cache
def zone_info(name: str) -> ZoneInfo:
    """A zone, kept, and kept beside it the pure-Python twin of it that pandas converts
    through (``get_zoneinfo_twin`` asks ``zoneinfo._zoneinfo.ZoneInfo`` for it at each
    conversion): each class holds only its last eight zones once no time refers to them
    and reads the others' files again, a millisecond a zone and a table (17 zones met:
    47.7 against 52.2 ms of CPU for a warm ``answer_rates`` of a million calls, 30 rounds
    interleaved)."""
    if _PURE_PYTHON is not None:
        _TWINS.append(_PURE_PYTHON.ZoneInfo(name))
    return ZoneInfo(name)


try:  # private to Python: only a speed-up rests on it, none where it has gone
    _PURE_PYTHON: Any = importlib.import_module("zoneinfo._zoneinfo")
except ImportError:
    _PURE_PYTHON = None
_TWINS: list[object] = []
"""The twins :func:`zone_info` keeps (a zone's, once)."""


def local_times(at: pd.Series, zones: pd.Series) -> pd.Series:
    """Each UTC moment as wall-clock time in its zone (naive), one zone group at a time."""
    local = pd.Series(pd.NaT, index=at.index, dtype="datetime64[ns]")
    for zone, rows in at.groupby(zones, sort=False).groups.items():
        local[rows] = at[rows].dt.tz_convert(str(zone)).dt.tz_localize(None).astype(
            "datetime64[ns]")
    return local


def local_call_times(calls: pd.DataFrame) -> pd.DataFrame:
    """When each call rang at the other end: ``id``, ``to_number``, ``zone``, ``local_time``
    (wall-clock, naive), one row per zone of the number; a number of no known zone has
    one row with neither."""
    pairs = calls[["id", "to_number", "created_at"]].merge(
        zones_of(calls["to_number"]), left_on="to_number", right_on="phone", how="left")
    known = pairs["zone"].notna()
    at = utc_times(pairs["created_at"], "calls.created_at")
    pairs["local_time"] = pd.Series(pd.NaT, index=pairs.index, dtype="datetime64[ns]")
    pairs.loc[known, "local_time"] = local_times(at[known], pairs.loc[known, "zone"])
    return pairs[["id", "to_number", "zone", "local_time"]]


def first_zones(phones: pd.Series, rows: Rows | None = None) -> tuple[list[str], Ints, Ints]:
    """Each row's number placed in one zone, for tables by local time: the zone names met,
    each row's index into them (its number's first zone, the one ``phonenumbers`` lists
    first; -1 when none is known), and how many zones its number has; of the ``rows`` of
    ``phones`` only, where given (the outbound calls of a table: the zones met among
    them, and no gather of the other rows).

    Examples:
        >>> names, zone, count = first_zones(pd.Series(["+12125550100"]))
        >>> names[zone[0]], int(count[0])
        ('America/New_York', 1)
    """
    first, count = first_zone(phones, rows)
    met = np.flatnonzero(np.bincount(first + 1, minlength=len(ZONES) + 1)[1:])
    rank = np.full(len(ZONES) + 1, -1, np.int64)  # a row of no zone (-1) takes the last
    rank[met] = np.arange(len(met))
    return [ZONES[int(z)] for z in met], rank[first], count
