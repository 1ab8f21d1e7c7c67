"""GET /v1/reports/dispositions: disposition counts of the account's calls over a date range.

The contract names the operation and its range limit (92 days) but shows no
shape; the emulator's choice (see docs/emulator.md): query ``from`` and ``to``
(UTC dates, both inclusive, default the last 7 days up to today) and an
optional ``campaign_id``; the answer is ``{from, to, campaign_id, total,
data: [{disposition_code, count}]}``, most frequent code first.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from dialkit.contract import REPORT_MAX_DAYS, CampaignId

from .._http._problems import field_error
from .._state._service import RequestContext
from ._routing import Ctx, endpoint, json_response, query_model

router = APIRouter()

DEFAULT_REPORT_DAYS = 7
"""Days covered when the caller names no ``from`` (today and the six before)."""


_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _iso_date(value: object) -> object:
    """Only ``YYYY-MM-DD`` passes on to pydantic, which would read ``0`` as 1970-01-01."""
    if isinstance(value, str) and not _ISO_DATE.fullmatch(value):
        raise PydanticCustomError("date_parsing", "Input should be a date as YYYY-MM-DD")
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_date)]
"""A date of the query: ``YYYY-MM-DD`` and nothing else."""


class DispositionReportQuery(BaseModel):
    """Query of the dispositions report; ``from`` is a Python keyword, hence the alias."""

    model_config = ConfigDict(extra="forbid")

    from_: IsoDate | None = Field(None, alias="from")
    to: IsoDate | None = None
    campaign_id: CampaignId | None = None


def _range(ctx: RequestContext, query: DispositionReportQuery) -> tuple[date, date]:
    """The inclusive date range asked for, or 400 when it is inverted or too long."""
    to = query.to or ctx.service.clock.now().date()
    start = query.from_ or date.fromordinal(max(1, to.toordinal() - DEFAULT_REPORT_DAYS + 1))
    if to < start:
        raise field_error("/query/to", "before_from",
                          "'to' is before 'from'; send from <= to (dates as YYYY-MM-DD).")
    if (to - start).days + 1 > REPORT_MAX_DAYS:
        raise field_error("/query/to", "range_too_long",
                          f"The range covers more than {REPORT_MAX_DAYS} days; ask for a "
                          "shorter range and combine the reports.")
    return start, to


@endpoint(router, "reports.dispositions", response_model=dict[str, Any], query=True)
async def dispositions(ctx: Ctx, query: query_model(DispositionReportQuery)) -> Any:  # type: ignore[valid-type]
    """Calls with a disposition, counted by code, over whole UTC days."""
    start, to = _range(ctx, query)
    store = ctx.service.store
    where = ("account = ? AND dataset IN (?, ?) AND disposition IS NOT NULL "
             "AND created_at >= ? AND created_at <= ?")
    params: list[Any] = [ctx.account.name, *store.layers(ctx.dataset, ctx.account.name),
                         start.isoformat(), f"{to.isoformat()}T23:59:59.999Z"]
    if query.campaign_id is not None:
        where += " AND campaign_id = ?"
        params.append(query.campaign_id)
    rows = store.rows(f"SELECT disposition, COUNT(*) AS n FROM calls WHERE {where} "
                      "GROUP BY disposition ORDER BY n DESC, disposition", params)
    data = [{"disposition_code": r["disposition"], "count": r["n"]} for r in rows]
    return json_response({
        "from": start.isoformat(), "to": to.isoformat(), "campaign_id": query.campaign_id,
        "total": sum(d["count"] for d in data), "data": data,
    })
