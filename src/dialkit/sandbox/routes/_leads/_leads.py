"""Leads: list, read, history, import, single add and update.

Import and single add judge each lead with :mod:`._lead_rules` and answer one
outcome per lead, so their bodies are declared leniently: the lead fields take
any JSON (a bad value is that lead's ``invalid`` result), while the request's
shape (unknown fields, the batch size, the single add's options) is refused
with 400. The OpenAPI document shows exactly that.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header
from fastapi.responses import Response
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, JsonValue

from dialkit.contract import (
    EMAIL_MAX,
    EMAIL_PATTERN,
    EXTERNAL_ID_MAX,
    IMPORTABLE_STATUSES,
    MAX_CUSTOM_FIELDS,
    MAX_IF_MATCH_LENGTH,
    MAX_IMPORT_BATCH,
    CampaignId,
    DialNowStatus,
    ErrorCode,
    ImportResponse,
    Lead,
    LeadCreateBody,
    LeadCreated,
    LeadId,
    LeadImportBody,
    LeadInput,
    LeadResultStatus,
    LeadStatus,
    LeadUpdateRequest,
    Page,
    Scope,
    Switch,
    new_id,
)

from ..._http._problems import ApiProblem, field_error
from ..._state._clock import isoformat
from ..._state._service import RequestContext
from .._campaigns import load as load_campaign
from .._routing import Ctx, ListQuery, endpoint, find, json_response, paginate, query_model
from ._lead_rules import Accepted, CustomValue, LeadData, Verdict, judge_leads

router = APIRouter()

IMPORTABLE: tuple[str, ...] = tuple(IMPORTABLE_STATUSES)
"""Campaign states a lead import accepts."""

ADDABLE = (*IMPORTABLE, "running")
"""Campaign states a single add accepts (running needs ``calls:originate`` too)."""

class ImportQuery(BaseModel):
    """Query of POST /v1/leads/import."""

    model_config = ConfigDict(extra="forbid")

    campaign_id: CampaignId


class LeadListQuery(ListQuery):
    """Filters of GET /v1/leads; ``external_id`` matches only the caller's own leads."""

    campaign_id: CampaignId | None = None
    status: LeadStatus | None = None
    external_id: str | None = Field(None, min_length=1, max_length=EXTERNAL_ID_MAX)


class LeadPatch(LeadUpdateRequest):
    """The contract's update body, with the email shape and scalar custom values in its schema."""

    email: str | None = Field(default=None, max_length=EMAIL_MAX, pattern=EMAIL_PATTERN)
    custom_fields: dict[str, CustomValue] | None = Field(default=None,
                                                         max_length=MAX_CUSTOM_FIELDS)


class LeadHistoryEntry(BaseModel):
    """One entry of a lead's history (shape not shown by the contract)."""

    at: AwareDatetime
    event: str
    detail: JsonValue


class LeadHistory(BaseModel):
    """A lead's history, oldest first (shape not shown by the contract)."""

    lead_id: LeadId
    data: list[LeadHistoryEntry]


def render(row: sqlite3.Row) -> dict[str, Any]:
    """A lead row as the contract's Lead."""
    lead = {name: row[name] for name in Lead.model_fields}
    fields = row["custom_fields"]
    lead["custom_fields"] = None if fields is None else orjson.loads(fields)
    return lead


def etag(row: sqlite3.Row) -> str:
    """The lead's ETag: its version, changed by every update."""
    return f'"v{row["version"]}"'


def load(ctx: RequestContext, lead_id: str) -> sqlite3.Row:
    """A lead of the caller's data set, or 404 ``not_found``."""
    return find(ctx, "leads", lead_id, "lead")


def _lead_answer(row: sqlite3.Row) -> Response:
    return json_response(render(row), headers={"etag": etag(row)})


@endpoint(router, "leads.list", response_model=Page[Lead], query=True)
async def list_leads(ctx: Ctx, query: query_model(LeadListQuery)) -> Any:  # type: ignore[valid-type]
    """Leads newest first, by campaign, status or the caller's own ``external_id``."""
    where, params = "dataset = ?", [ctx.dataset]
    if query.external_id is not None:  # external ids are the caller's client's own
        where += " AND owner_client = ?"
        params.append(ctx.caller.client_id)
    return paginate(ctx, "leads", query, table="leads", where=where, params=params,
                    render=render)


@endpoint(router, "leads.get", response_model=Lead)
async def get_lead(ctx: Ctx, lead_id: str) -> Any:
    """One lead, with its ``ETag`` for a later ``If-Match``."""
    return _lead_answer(load(ctx, lead_id))


@endpoint(router, "leads.history", response_model=LeadHistory)
async def lead_history(ctx: Ctx, lead_id: str) -> Any:
    """The lead's history entries, oldest first."""
    load(ctx, lead_id)
    store = ctx.service.store
    rows = store.rows(
        "SELECT at, event, detail FROM lead_history WHERE lead_id = ? AND dataset IN (?, ?) "
        "ORDER BY at, seq", (lead_id, *store.layers(ctx.dataset, ctx.account.name)))
    return json_response({"lead_id": lead_id, "data": [
        {"at": r["at"], "event": r["event"],
         "detail": None if r["detail"] is None else orjson.loads(r["detail"])} for r in rows]})


def _addable(ctx: RequestContext, campaign_id: str, states: Sequence[str]) -> sqlite3.Row:
    """The campaign, or 404 / 409 ``campaign_not_importable`` when leads cannot go in."""
    campaign = load_campaign(ctx, campaign_id)
    if campaign["status"] not in states:
        raise ApiProblem(ErrorCode.CAMPAIGN_NOT_IMPORTABLE,
                         f"The campaign is {campaign['status']}; leads can go only into a "
                         f"{', '.join(states[:-1])} or {states[-1]} campaign.")
    return campaign


def _insert(ctx: RequestContext, campaign_id: str, leads: Sequence[Accepted], *, via: str,
            priority_until: str | None = None) -> list[str]:
    """Store accepted leads (status ``new``) and their ``created`` history, all or nothing."""
    now, ids = ctx.now(), [new_id("lead_") for _ in leads]
    detail = orjson.dumps({"campaign_id": campaign_id, "via": via}).decode()
    rows = [(ctx.dataset, lead_id, campaign_id, ctx.caller.client_id, lead.external_id,
             lead.phone, lead.country, lead.full_name, lead.email, LeadStatus.NEW.value,
             None if lead.custom_fields is None else orjson.dumps(lead.custom_fields).decode(),
             now, now, priority_until) for lead_id, lead in zip(ids, leads, strict=True)]
    with ctx.service.store.transaction() as conn:
        conn.executemany(
            "INSERT INTO leads (dataset, id, campaign_id, owner_client, external_id, phone, "
            "country, full_name, email, status, attempts, custom_fields, created_at, updated_at, "
            "version, priority_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 1, ?)",
            rows)
        conn.executemany(
            "INSERT INTO lead_history (dataset, lead_id, at, event, detail) "
            "VALUES (?, ?, ?, 'created', ?)", [(ctx.dataset, i, now, detail) for i in ids])
    return ids


def _outcome(lead: LeadData, verdict: Verdict, lead_id: str | None) -> dict[str, Any]:
    """The fields LeadResult and LeadCreated share."""
    if isinstance(verdict, Accepted):
        return {"external_id": verdict.external_id, "status": LeadResultStatus.ACCEPTED,
                "reason": None, "field": None, "lead_id": lead_id}
    sent = lead.get("external_id")
    return {"external_id": sent if isinstance(sent, str) else None, "status": verdict.status,
            "reason": verdict.reason, "field": verdict.field, "lead_id": None}


def _sent(item: BaseModel) -> dict[str, JsonValue]:
    """The lead fields of a body item that the request actually sent."""
    sent: dict[str, JsonValue] = item.model_dump(include=set(LeadInput.model_fields),
                                                 exclude_unset=True)
    return sent


def _store_accepted(ctx: RequestContext, campaign_id: str, verdicts: Sequence[Verdict], *,
                    via: str, priority_until: str | None = None) -> list[str | None]:
    """Store the accepted leads; the new id of each verdict (``None`` if refused)."""
    accepted = [v for v in verdicts if isinstance(v, Accepted)]
    ids = iter(_insert(ctx, campaign_id, accepted, via=via, priority_until=priority_until))
    return [next(ids) if isinstance(v, Accepted) else None for v in verdicts]


@endpoint(router, "leads.import", response_model=ImportResponse, query=True)
async def import_leads(ctx: Ctx, query: query_model(ImportQuery),  # type: ignore[valid-type]
                       body: LeadImportBody) -> Any:
    """One result per lead; the accepted ones are written in one transaction."""
    if len(body.leads) > MAX_IMPORT_BATCH:
        raise ApiProblem(ErrorCode.BATCH_TOO_LARGE,
                         f"An import takes at most {MAX_IMPORT_BATCH} leads; this one has "
                         f"{len(body.leads)}. Split it into several imports.")
    campaign_id = query.campaign_id
    _addable(ctx, campaign_id, IMPORTABLE)
    leads = [_sent(item) for item in body.leads]
    verdicts = judge_leads(ctx, campaign_id, leads)
    ids = _store_accepted(ctx, campaign_id, verdicts, via="import")
    results = [{"index": i, **_outcome(lead, verdict, lead_id)}
               for i, (lead, verdict, lead_id) in enumerate(zip(leads, verdicts, ids, strict=True))]
    accepted = sum(1 for lead_id in ids if lead_id is not None)
    return json_response({"campaign_id": campaign_id, "data": results, "summary": {
        "received": len(leads), "accepted": accepted, "rejected": len(leads) - accepted}})


def _require_originate(ctx: RequestContext) -> None:
    """403 unless the caller may put a lead in front of a dialler: scope, switch, setup."""
    why = "Adding a lead to a running campaign, or with dial_now, "
    if Scope.CALLS_ORIGINATE not in ctx.caller.client.scopes:
        raise ApiProblem(ErrorCode.INSUFFICIENT_SCOPE,
                         why + "needs the scope 'calls:originate'. An account administrator "
                         "can grant it in the console.")
    if Switch.TIER2_CALLS_ORIGINATE_ENABLED not in ctx.account.switches:
        raise ApiProblem(ErrorCode.TIER_NOT_ENABLED,
                         why + "needs the account switch 'tier2_calls_originate_enabled', "
                         "which is off. The operator enables it on request.")
    if not ctx.caller.has_sending_setup():
        raise ApiProblem(ErrorCode.TIER_NOT_ENABLED,
                         why + "needs the account's guided sending setup, not yet done.")


def _dial_now(ctx: RequestContext, options: Mapping[str, Any], running: bool,
              accepted: bool) -> tuple[DialNowStatus, str | None]:
    """The dial-now outcome and, when queued, the end of the front-of-queue window."""
    if not options["dial_now"]:
        return DialNowStatus.NOT_REQUESTED, None
    if not accepted:
        return DialNowStatus.LEAD_NOT_ACCEPTED, None
    if not running:
        return DialNowStatus.CAMPAIGN_NOT_RUNNING, None
    if ctx.account.sending_suspended or not ctx.account.outbound_approved:
        return DialNowStatus.UNAVAILABLE, None
    window = timedelta(seconds=options["dial_within_seconds"])
    return DialNowStatus.QUEUED, isoformat(ctx.service.clock.now() + window)


@endpoint(router, "leads.create", response_model=LeadCreated)
async def create_lead(ctx: Ctx, body: LeadCreateBody) -> Any:
    """Add one lead with the import's checks; optionally put it first in the dialling order."""
    options = body.model_dump(exclude=set(LeadInput.model_fields))
    campaign = _addable(ctx, options["campaign_id"], ADDABLE)
    running = campaign["status"] == "running"
    if running or options["dial_now"]:
        _require_originate(ctx)
    lead = _sent(body)
    [verdict] = judge_leads(ctx, campaign["id"], [lead], source=options["source"])
    dial, expires = _dial_now(ctx, options, running, isinstance(verdict, Accepted))
    [lead_id] = _store_accepted(ctx, campaign["id"], [verdict], via="create",
                                priority_until=expires)
    return json_response({**_outcome(lead, verdict, lead_id), "campaign_id": campaign["id"],
                          "dial_now": {"status": dial, "expires_at": expires}})


def _matches(if_match: str, tag: str) -> bool:
    """Whether an ``If-Match`` value (``*`` or a list of ETags) names ``tag``."""
    return any(part.strip() in ("*", tag) for part in if_match.split(","))


def _merged_fields(row: sqlite3.Row, sent: dict[str, JsonValue] | None
                   ) -> dict[str, JsonValue] | None:
    """Custom fields after a PATCH: null removes a key, keys not sent are kept.

    Raises:
        ApiProblem: 400 ``validation_failed`` for more than 20 keys after the merge.
    """
    if sent is None:
        return None
    current = row["custom_fields"]
    merged: dict[str, JsonValue] = {} if current is None else orjson.loads(current)
    for key, value in sent.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    if len(merged) > MAX_CUSTOM_FIELDS:
        raise field_error("/custom_fields", "too_long",
                          f"A lead holds at most {MAX_CUSTOM_FIELDS} custom fields; this change "
                          f"would leave {len(merged)}. Remove some by setting them to null.")
    return merged


def _changes(row: sqlite3.Row, body: LeadPatch) -> dict[str, Any]:
    """The columns a PATCH changes (only those whose value differs)."""
    sent = body.model_dump(exclude_unset=True)
    if "custom_fields" in sent:
        fields = _merged_fields(row, sent["custom_fields"])
        sent["custom_fields"] = None if fields is None else orjson.dumps(fields).decode()
    return {name: value for name, value in sent.items() if value != row[name]}


@endpoint(router, "leads.update", response_model=Lead)
async def update_lead(
    ctx: Ctx, lead_id: str, body: LeadPatch,
    if_match: Annotated[str | None, Header(max_length=MAX_IF_MATCH_LENGTH)] = None,
) -> Any:
    """Change name, email or custom fields; ``If-Match`` guards against lost updates."""
    row = load(ctx, lead_id)
    if if_match is not None and not _matches(if_match, etag(row)):
        raise ApiProblem(ErrorCode.PRECONDITION_FAILED,
                         f"The lead changed since it was read (its ETag is now {etag(row)}). "
                         "Read it again and retry with the new ETag.")
    changes = _changes(row, body)
    if changes:
        now = ctx.now()
        columns = "".join(f"{name} = ?, " for name in changes)
        detail = orjson.dumps({"fields": sorted(changes)}).decode()
        with ctx.service.store.transaction() as conn:
            conn.execute(f"UPDATE leads SET {columns}updated_at = ?, version = version + 1 "
                         "WHERE dataset = ? AND id = ?", (*changes.values(), now, ctx.dataset,
                                                           lead_id))
            conn.execute("INSERT INTO lead_history (dataset, lead_id, at, event, detail) "
                         "VALUES (?, ?, ?, 'updated', ?)", (ctx.dataset, lead_id, now, detail))
        row = load(ctx, lead_id)
    return _lead_answer(row)
