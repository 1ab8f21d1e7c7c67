"""``client.reports``: aggregated disposition reports."""

from __future__ import annotations

from datetime import date
from typing import Unpack

from ..._utils._base_error import InputError
from ...contract import REPORT_MAX_DAYS
from .._http._results import ApiData
from .._http._transport import Call
from ._base import Area, Options


class Reports(Area):
    """Reports: ``/v1/reports/...`` (scope ``reports:read``)."""

    def dispositions(
        self,
        *,
        from_: date | str | None = None,
        to: date | str | None = None,
        campaign_id: str | None = None,
        **options: Unpack[Options]
    ) -> ApiData:
        """Disposition counts over a range of at most 92 days (shape not shown: plain data).

        The query parameters are not shown by the contract; they are sent as
        ``from`` and ``to`` (dates, inclusive, UTC), as the emulator takes them.

        Raises:
            ValueError: When the range is inverted or longer than 92 days.
        """
        if isinstance(from_, date) and isinstance(to, date):
            if to < from_:
                raise InputError(f"to ({to}) is before from_ ({from_}): pass from_ <= to")
            if (to - from_).days + 1 > REPORT_MAX_DAYS:
                raise InputError(
                    f"the range {from_}..{to} is longer than {REPORT_MAX_DAYS} days: ask for "
                    "shorter ranges and combine them"
                )
        params = {"from": from_, "to": to, "campaign_id": campaign_id}
        return self._data(Call("reports.dispositions", params=params, **options))
