"""Click-to-call (POST /v1/calls): the contract's rules 1-7 and the simulated agents.

The order follows the contract. The named campaign and lead must exist; the
agent must be one of the account's agents, signed in, ready and not held for
another call (rule 1). The agent is then held, shown as ringing, for the
click-to-call maximum duration (rule 2 and 5); every later check runs inside
the same transaction, so a refusal rolls the hold back and leaves the agent
ready at once. Then the caller id (rule 3), the compliance checks (rule 4: blocked
country, Do-Not-Call, calling hours, consent for the channel ``call``) and
the caps and balance (rule 6). Nothing is dialled: an accepted call is a
``dialing`` row in the caller's data set, counted against the caps.

Rule 7 (retries) is the pipeline's: the same Idempotency-Key replays the stored
answer, and a new key is a new request that places a new call.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Any

from dialkit._phones._asked import PhoneNumber, e164_text, valid_number
from dialkit.contract import (
    CALLING_HOURS,
    CLICK_TO_CALL_MAX_MINUTES,
    CallCreateRequest,
    ErrorCode,
    new_id,
)

from ..._http._problems import ApiProblem
from ..._state._caps import check_caps, record_send
from ..._state._clock import isoformat
from ..._state._compliance import check_destination, require_phone, within_calling_hours
from ..._state._prices import PRICES
from ..._state._service import RequestContext
from .._dnc import consent_withdrawn
from .._routing import find

HOLD = timedelta(minutes=CLICK_TO_CALL_MAX_MINUTES)
"""How long an accepted call holds its agent: the call is ended after this by default."""

READY = "ready"
_NOT_READY = {
    "on_call": "is on a call",
    "wrap_up": "is in wrap-up after a call",
    "break": "is on a break",
    "signed_out": "is not signed in",
}
"""What each agent state other than ``ready`` means, for the refusal's detail."""


def start_call(ctx: RequestContext, request: CallCreateRequest) -> dict[str, Any]:
    """Place a click-to-call in the sandbox and return the Started call.

    Raises:
        ApiProblem: 400 for a bad ``to``, 404 for an unknown campaign or lead, 409
            ``agent_unavailable``, 422 ``dial_refused`` / ``on_dnc`` /
            ``blocked_country``, 402 ``insufficient_balance`` or a 429 cap.
    """
    to = require_phone(request.to, "/to")
    _check_references(ctx, request)
    now = ctx.service.clock.now()
    with ctx.service.store.transaction() as conn:
        agent = _hold_agent(ctx, conn, request, now)
        caller_id = _caller_id(ctx, request.caller_id)
        _check_compliance(ctx, to, now)
        check_caps(ctx, PRICES["call"])
        started = _place(ctx, conn, to, caller_id, agent["extension"], request)
        record_send(ctx, "call", PRICES["call"])
    return started


def _check_references(ctx: RequestContext, request: CallCreateRequest) -> None:
    """404 ``not_found`` for a ``campaign_id`` or ``lead_id`` the caller's data set lacks."""
    if request.campaign_id is not None:
        find(ctx, "campaigns", request.campaign_id, "campaign", condition=" AND archived = 0")
    if request.lead_id is not None:
        find(ctx, "leads", request.lead_id, "lead")


def _find_agent(ctx: RequestContext, conn: sqlite3.Connection,
                request: CallCreateRequest) -> sqlite3.Row:
    """The named agent of the caller's data set, or 409 ``agent_unavailable``."""
    if request.agent_extension is not None:
        sql, value = "extension = ?", request.agent_extension
    else:
        sql, value = "lower(email) = lower(?)", str(request.agent_email)
    agent: sqlite3.Row | None = conn.execute(
        f"SELECT * FROM agents WHERE dataset = ? AND {sql}", (ctx.dataset, value)).fetchone()
    if agent is None:
        raise ApiProblem(ErrorCode.AGENT_UNAVAILABLE,
                         f"No agent of this account has {value!r}; nothing was dialled. Name "
                         "an agent of the account by extension or email.")
    return agent


def _hold_agent(ctx: RequestContext, conn: sqlite3.Connection, request: CallCreateRequest,
                now: datetime) -> sqlite3.Row:
    """Hold a ready agent for this call (rule 2), or 409 ``agent_unavailable`` (rule 1)."""
    agent = _find_agent(ctx, conn, request)
    who = f"Agent {agent['extension']}"
    if agent["state"] != READY:
        doing = _NOT_READY.get(agent["state"], f"is {agent['state']}")
        raise ApiProblem(ErrorCode.AGENT_UNAVAILABLE,
                         f"{who} {doing}; nothing was dialled. When the agent is ready, "
                         "send the call again with a new Idempotency-Key, or name another agent.")
    stamp = isoformat(now)
    if agent["held_until"] is not None and agent["held_until"] > stamp:
        raise ApiProblem(ErrorCode.AGENT_UNAVAILABLE,
                         f"{who} is held for another call until {agent['held_until']}; nothing "
                         "was dialled. Send the call again later with a new Idempotency-Key, or "
                         "name another agent.")
    conn.execute("UPDATE agents SET held_until = ? WHERE dataset = ? AND id = ?",
                 (isoformat(now + HOLD), ctx.dataset, agent["id"]))
    return agent


def _caller_id(ctx: RequestContext, requested: str | None) -> str:
    """The given caller id if it is a verified number of the account, else the first one."""
    store = ctx.service.store
    layers = store.layers(ctx.dataset, ctx.account.name)
    if requested is None:
        row = store.row("SELECT phone FROM caller_ids WHERE dataset IN (?, ?) "
                        "ORDER BY phone LIMIT 1", layers)
        if row is not None:
            return str(row[0])
        detail = "The account has no verified caller id to dial from."
    else:
        number = valid_number(requested)
        phone = e164_text(number) if number is not None else requested
        if store.row("SELECT 1 FROM caller_ids WHERE phone = ? AND dataset IN (?, ?)",
                     (phone, *layers)) is not None:
            return phone
        detail = f"{requested} is not one of the account's verified caller ids."
    raise ApiProblem(ErrorCode.DIAL_REFUSED,
                     f"{detail} Nothing was dialled. Verify the number in the console, or leave "
                     "caller_id out to dial from the account's first verified number.",
                     errors=[("/caller_id", "caller_id_not_registered")])


def _check_compliance(ctx: RequestContext, to: PhoneNumber, now: datetime) -> None:
    """Blocked country and Do-Not-Call, then calling hours and consent at the recipient."""
    check_destination(ctx, to)
    if not within_calling_hours(to, now):
        raise ApiProblem(ErrorCode.DIAL_REFUSED,
                         f"It is outside calling hours ({CALLING_HOURS[0]:02d}:00-"
                         f"{CALLING_HOURS[1]:02d}:00) at the recipient; nothing was dialled. "
                         "Retry within the recipient's calling hours.",
                         errors=[("/to", "calling_hours")])
    if consent_withdrawn(ctx, e164_text(to), "call"):
        raise ApiProblem(ErrorCode.DIAL_REFUSED,
                         "The latest consent record for this number and channel call withdraws "
                         "consent; nothing was dialled. Record new consent before calling.",
                         errors=[("/to", "no_consent")])


def _place(ctx: RequestContext, conn: sqlite3.Connection, to: PhoneNumber,
           caller_id: str, extension: str, request: CallCreateRequest) -> dict[str, Any]:
    """Write the ``dialing`` call row and return the Started call."""
    call_id, now, number = new_id("call_"), ctx.now(), e164_text(to)
    conn.execute(
        "INSERT INTO calls (dataset, account, id, direction, from_number, to_number, status, "
        "created_at, campaign_id, lead_id, agent_extension, recording) "
        "VALUES (?, ?, ?, 'outbound', ?, ?, 'dialing', ?, ?, ?, ?, 1)",
        (ctx.dataset, ctx.account.name, call_id, caller_id, number, now, request.campaign_id,
         request.lead_id, extension))
    return {"call_id": call_id, "status": "dialing", "to": number, "agent_extension": extension,
            "caller_id": caller_id, "campaign_id": request.campaign_id,
            "lead_id": request.lead_id, "recording": True, "created_at": now}
