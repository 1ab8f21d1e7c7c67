"""The time zones of phone numbers, and the local time of calls in them.

``phonenumbers`` knows the zones of a number by its prefix: one for most
numbers, several for a region that spans more (some US area codes, most of
Canada's, Australia's mobiles). A number it knows no zone for is reported as
such, never read as UTC.
"""

from __future__ import annotations

import pandas as pd
import phonenumbers
from phonenumbers import timezone as phone_timezones

UNKNOWN_ZONE = "Etc/Unknown"


def zones_of(phones: pd.Series) -> pd.DataFrame:
    """One row per (distinct phone, zone): ``phone``, ``zone`` (``None`` when unknown)."""
    rows: list[tuple[str, str | None]] = []
    for phone in phones.dropna().unique().tolist():
        zones: list[str | None] = list(_zones(phone)) or [None]
        rows.extend((phone, zone) for zone in zones)
    return pd.DataFrame(rows, columns=["phone", "zone"])


def _zones(phone: str) -> list[str]:
    try:
        number = phonenumbers.parse(phone)
    except phonenumbers.NumberParseException:
        return []
    return [zone for zone in phone_timezones.time_zones_for_number(number)
            if zone != UNKNOWN_ZONE]


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
    at = pd.to_datetime(pairs["created_at"], utc=True, format="ISO8601")
    pairs["local_time"] = pd.Series(pd.NaT, index=pairs.index, dtype="datetime64[ns]")
    pairs.loc[known, "local_time"] = local_times(at[known], pairs.loc[known, "zone"])
    return pairs[["id", "to_number", "zone", "local_time"]]
