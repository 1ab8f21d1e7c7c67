"""The dispositions frame: any date range, split into windows the service accepts."""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

import pandas as pd

from .._utils._base_error import InputError
from ..contract import REPORT_MAX_DAYS
from ._cache import Cache, lookup
from ._schemas import DISPOSITIONS

if TYPE_CHECKING:
    from ..client import Client


def windows(start: date, end: date) -> list[tuple[date, date]]:
    """``start``..``end`` (inclusive) as consecutive windows of at most 92 days.

    Examples:
        >>> windows(date(2026, 1, 1), date(2026, 4, 30))[0]
        (datetime.date(2026, 1, 1), datetime.date(2026, 4, 2))
    """
    if end < start:
        raise InputError(f"end ({end}) is before start ({start}): pass start <= end")
    spans = []
    while start <= end:
        last = min(end, start + timedelta(days=REPORT_MAX_DAYS - 1))
        spans.append((start, last))
        start = last + timedelta(days=1)
    return spans


def load_dispositions(client: Client, cache: Cache, start: date, end: date,
                      campaign_id: str | None, *, refresh: str,
                      max_age: timedelta) -> pd.DataFrame:
    """One row per window and disposition code, from the cache or one request per window."""
    spans = windows(start, end)
    entry = cache.entry("dispositions", {"start": start.isoformat(), "end": end.isoformat(),
                                         "campaign_id": campaign_id})
    with entry.locked():
        ready, _ = lookup(entry, DISPOSITIONS, refresh, max_age)
        if ready is not None:
            return ready
        rows = [{"from": first.isoformat(), "to": last.isoformat(), "campaign_id": campaign_id,
                 "disposition_code": item.get("disposition_code"), "count": item.get("count")}
                for first, last in spans
                for item in client.reports.dispositions(from_=first, to=last,
                                                        campaign_id=campaign_id).get("data", [])]
        frame = DISPOSITIONS.frame(rows)
        entry.write(frame)
        return frame
