"""Campaigns: list, read, progress, and the pause/resume state machine."""

from __future__ import annotations

import sqlite3
from typing import Any

from fastapi import APIRouter

from dialkit.contract import Campaign, CampaignStatus, EmptyBody, ErrorCode, LeadStatus, Page

from .._http._problems import ApiProblem
from .._state._caps import check_daily_cap
from .._state._service import RequestContext
from ._routing import Ctx, ListQuery, endpoint, find, json_response, paginate, query_model

router = APIRouter()

_COLUMNS = ("id", "name", "status", "dialer_mode", "created_at", "updated_at", "started_at",
            "completed_at")


class CampaignListQuery(ListQuery):
    """Filters of GET /v1/campaigns."""

    status: CampaignStatus | None = None


def render(row: sqlite3.Row) -> dict[str, Any]:
    """A campaign row as the contract's Campaign."""
    return {c: row[c] for c in _COLUMNS}


def load(ctx: RequestContext, campaign_id: str) -> sqlite3.Row:
    """A listed (not archived) campaign of the caller's data set, or 404 ``not_found``."""
    return find(ctx, "campaigns", campaign_id, "campaign", condition=" AND archived = 0")


@endpoint(router, "campaigns.list", response_model=Page[Campaign], query=True)
async def list_campaigns(ctx: Ctx, query: query_model(CampaignListQuery)) -> Any:  # type: ignore[valid-type]
    """Campaigns newest first; archived ones are never listed."""
    where, params = "dataset = ? AND archived = 0", [ctx.dataset]
    return paginate(ctx, "campaigns", query, table="campaigns", where=where, params=params,
                    render=render)


@endpoint(router, "campaigns.get", response_model=Campaign)
async def get_campaign(ctx: Ctx, campaign_id: str) -> Any:
    """One campaign."""
    return json_response(render(load(ctx, campaign_id)))


@endpoint(router, "campaigns.progress", response_model=dict[str, Any])
async def campaign_progress(ctx: Ctx, campaign_id: str) -> Any:
    """Lead counts by status and call counts (shape not shown; see docs/emulator.md)."""
    campaign = load(ctx, campaign_id)
    store = ctx.service.store
    counts = {s.value: 0 for s in LeadStatus}
    for row in store.rows("SELECT status, COUNT(*) FROM leads WHERE dataset = ? AND "
                          "campaign_id = ? GROUP BY status", (ctx.dataset, campaign_id)):
        counts[row[0]] = row[1]
    calls = store.row(
        "SELECT COUNT(*), COUNT(answered_at) FROM calls WHERE account = ? AND campaign_id = ? "
        "AND dataset IN (?, ?)",
        (ctx.account.name, campaign_id,
         *store.layers(ctx.dataset, ctx.account.name)))
    placed, answered = (calls[0], calls[1]) if calls else (0, 0)
    return json_response({
        "campaign_id": campaign_id, "status": campaign["status"],
        "leads": {"total": sum(counts.values()), **counts},
        "calls": {"placed": placed, "answered": answered,
                  "answer_rate": round(answered / placed, 4) if placed else None},
        "as_of": ctx.now(),
    })


def _set_status(ctx: RequestContext, campaign_id: str, status: str) -> sqlite3.Row:
    now = ctx.now()
    started = ", started_at = COALESCE(started_at, ?)" if status == "running" else ""
    params = [status, now, *([now] if started else []), ctx.dataset, campaign_id]
    ctx.service.store.conn.execute(
        f"UPDATE campaigns SET status = ?, updated_at = ?{started} WHERE dataset = ? AND id = ?",
        params)
    return load(ctx, campaign_id)


@endpoint(router, "campaigns.pause", response_model=Campaign)
async def pause_campaign(ctx: Ctx, campaign_id: str, body: EmptyBody | None = None) -> Any:
    """running → paused; paused stays paused; anything else is 409 ``campaign_not_running``."""
    campaign = load(ctx, campaign_id)
    if campaign["status"] == "running":
        campaign = _set_status(ctx, campaign_id, "paused")
    elif campaign["status"] != "paused":
        raise ApiProblem(ErrorCode.CAMPAIGN_NOT_RUNNING,
                         f"The campaign is {campaign['status']}; only a running campaign can be "
                         "paused.")
    return json_response(render(campaign))


def _stale_countries(ctx: RequestContext, campaign_id: str) -> list[str]:
    stale = ctx.account.stale_dnc_registries
    if not stale or not ctx.account.block_stale_registry_launches:
        return []
    marks = ", ".join("?" * len(stale))
    rows = ctx.service.store.rows(
        f"SELECT DISTINCT country FROM leads WHERE dataset = ? AND campaign_id = ? "
        f"AND country IN ({marks})", (ctx.dataset, campaign_id, *stale))
    return sorted(r[0] for r in rows)


@endpoint(router, "campaigns.resume", response_model=Campaign)
async def resume_campaign(ctx: Ctx, campaign_id: str, body: EmptyBody | None = None) -> Any:
    """paused → running (unless a stale national DNC registry blocks it); running stays."""
    campaign = load(ctx, campaign_id)
    if campaign["status"] == "paused":
        check_daily_cap(ctx)
        stale = _stale_countries(ctx, campaign_id)
        if stale:
            raise ApiProblem(ErrorCode.REGISTRY_STALE_BLOCKED,
                             "The campaign has leads in countries whose national do-not-call "
                             f"list is outdated or unavailable ({', '.join(stale)}), and the "
                             "account blocks such launches.")
        campaign = _set_status(ctx, campaign_id, "running")
    elif campaign["status"] != "running":
        raise ApiProblem(ErrorCode.CAMPAIGN_NOT_PAUSED,
                         f"The campaign is {campaign['status']}; only a paused campaign can be "
                         "resumed.")
    return json_response(render(campaign))
