"""The admin surface under ``/_sandbox/``: reset, manual clock, faults, planted problems,
verified caller ids.

Outside ``/v1`` and outside the contract: it needs no key, and it exists so
that tests, notebooks and demos can steer the emulator over HTTP.
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from dialkit.contract import ErrorCode

from ..._utils._base_error import ConfigError
from .._config import AccountConfig
from .._http._checks._faults import FaultRule
from .._http._mcp_audit import audit_records, clear_audit
from .._http._problems import ApiProblem
from .._simulation._delivery import deliver_settled
from .._simulation._dialer import simulate_all, totals
from .._state._clock import isoformat
from .._state._compliance import verified_caller_ids
from .._state._service import Service
from .._state._store import seed_dataset
from .._world._history import LIST_OF_SOURCE
from .._world._kept_law._place import hours_basis
from .._world._planted import BASIS
from ._routing import json_response

router = APIRouter(prefix="/_sandbox", tags=["sandbox admin"])


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


class ClockAdvance(BaseModel):
    """Body of POST /_sandbox/clock."""

    model_config = ConfigDict(extra="forbid")

    advance_seconds: float = Field(ge=0, le=400 * 86400)
    deliver: bool = False


@router.post("/reset", summary="Back to the seeded world")
async def reset(request: Request) -> Any:
    """Forget every client's data, every idempotency key, every fault and the tool audit log."""
    service = _service(request)
    service.reset()
    clear_audit(service.store)
    return json_response({"reset": True})


@router.get("/mcp/audit", summary="The audit log of tool calls at /mcp")
async def mcp_audit(request: Request, account: str | None = None) -> Any:
    """Every tool call made at ``/mcp``, oldest first (one account's, when given)."""
    return json_response({"records": audit_records(_service(request).store, account)})


@router.get("/clock", summary="Service time")
async def get_clock(request: Request) -> Any:
    """The service clock: its time and whether it is manual."""
    clock = _service(request).clock
    return json_response({"now": isoformat(clock.now()), "manual": clock.manual})


@router.post("/clock", summary="Advance the manual clock")
async def advance_clock(request: Request, body: ClockAdvance) -> Any:
    """Move the manual clock forward; the dialer simulation moves with it.

    Every data set in use runs through the elapsed interval (:mod:`.._simulation._dialer`);
    the answer counts what happened, in total (``simulated``) and per data set. With
    ``deliver``, it answers once every webhook delivery then due was attempted
    (``delivered``: how many it attempted), so that a receiver has had what it will get.
    """
    service = _service(request)
    if not service.clock.manual:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED,
                         "The clock is real; start the sandbox with [server] clock = \"manual\".",
                         errors=[("/advance_seconds", "clock_not_manual")])
    before = service.clock.now()
    now = service.advance_clock(body.advance_seconds)
    results = simulate_all(service, before, now)
    delivered = await deliver_settled(service) if body.deliver else 0
    return json_response({"now": isoformat(now), "manual": True, "simulated": totals(results),
                          "datasets": results, "delivered": delivered})


@router.get("/faults", summary="Active fault rules")
async def list_faults(request: Request) -> Any:
    """The active fault rules, oldest first."""
    return json_response([r.model_dump(mode="json") for r in _service(request).faults.rules()])


@router.post("/faults", summary="Add a fault rule", status_code=201)
async def add_fault(request: Request, rule: FaultRule) -> Any:
    """Activate a fault rule (see the module :mod:`dialkit.sandbox._http._checks._faults`)."""
    _service(request).faults.add(rule)
    return json_response(rule.model_dump(mode="json"), status_code=201)


@router.delete("/faults", summary="Remove every fault rule")
async def clear_faults(request: Request) -> Any:
    """Remove every fault rule."""
    _service(request).faults.clear()
    return json_response({"cleared": True})


ACCOUNT_ACCESS_FIELDS = frozenset(AccountConfig.model_fields) - {"name", "seed", "scale",
                                                                   "clients"}
CLIENT_ACCESS_FIELDS = frozenset({"enabled", "scopes", "ip_allow_list", "keys"})


def _change_access(request: Request, account: str, changes: dict[str, JsonValue],
                   allowed: frozenset[str], client: str | None = None) -> Any:
    unknown = sorted(set(changes) - allowed)
    if unknown:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED,
                         f"Only these fields can change: {', '.join(sorted(allowed))}.",
                         errors=[(f"/{name}", "unknown_field") for name in unknown])
    try:
        changed = _service(request).change_access(account, changes, client)
    except KeyError:
        raise ApiProblem(ErrorCode.NOT_FOUND, "No such account or client is configured.") from None
    except ConfigError as exc:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED, str(exc)) from None
    return json_response(changed.model_dump(mode="json", exclude={"clients"}))


@router.patch("/accounts/{account}", summary="Change an account's access settings")
async def change_account(request: Request, account: str,
                         changes: dict[str, JsonValue]) -> Any:
    """Switches, access, allow-list, sending state, caps: from the next request on."""
    return _change_access(request, account, changes, ACCOUNT_ACCESS_FIELDS)


@router.patch("/accounts/{account}/clients/{client}", summary="Change a client's access")
async def change_client(request: Request, account: str, client: str,
                        changes: dict[str, JsonValue]) -> Any:
    """Enable or disable an API client, change its scopes, allow-list or keys (revoke one)."""
    return _change_access(request, account, changes, CLIENT_ACCESS_FIELDS, client)


def _known(service: Service, account: str) -> None:
    """404 ``not_found`` for an account the configuration does not name."""
    if account not in service.accounts:
        raise ApiProblem(ErrorCode.NOT_FOUND, f"No account named {account!r} is configured.")


@router.get("/caller-ids", summary="The account's verified caller ids")
async def caller_ids(request: Request, account: str) -> Any:
    """The seeded world's verified caller ids, for an audit's ``verified_caller_ids``."""
    service = _service(request)
    _known(service, account)
    return json_response({"account": account,
                          "caller_ids": verified_caller_ids(service.store, account)})


@router.get("/dnc-lists", summary="Which DNC list each listed number is on, since when")
async def dnc_lists(request: Request, account: str) -> Any:
    """The seeded world's DNC listings as a scrub vendor or the account's records tell
    them (the contract's DNC check says only whether a number is listed): each number's
    ``list`` (``company`` where the customer asked the account, ``national`` where the
    registry listed it) and ``listed_at``, for an audit's ``dnc=`` frame."""
    service = _service(request)
    _known(service, account)
    rows = service.store.rows("SELECT phone, added_at, source FROM dnc WHERE dataset = ? "
                              "ORDER BY phone", (seed_dataset(account),))
    return json_response({"account": account, "listings": [
        {"phone": row["phone"], "listed_at": row["added_at"],
         "list": LIST_OF_SOURCE.get(row["source"], "national")}
        for row in rows]})


@router.get("/ground-truth", summary="The planted compliance problems")
async def ground_truth(request: Request, account: str,
                       law: Literal["federal", "place", "all"] = "federal") -> Any:
    """The compliance problems planted in an account's seeded world, by kind.

    ``law`` picks which: ``federal`` (the federal kinds and the house rules' frequency),
    ``place`` (the ``state_*`` kinds: the law of the place called) or ``all``.
    Each problem says its ``basis``: ``law``, or ``policy`` for a ``frequency`` call that
    only the house rules' cap forbids and an ``outside_calling_hours`` call to a place
    whose law sets no hours (the UK), which only the house rules' window forbids.
    """
    service = _service(request)
    _known(service, account)
    kinds: dict[str, list[dict[str, Any]]] = {}
    which = {"federal": "AND substr(kind, 1, 6) <> 'state_'",
             "place": "AND substr(kind, 1, 6) = 'state_'", "all": ""}[law]
    which += " AND substr(kind, 1, 9) <> 'upcoming_'"  # served by upcoming_truth
    which += " AND substr(kind, 1, 6) <> 'guard_'"  # served by guard_truth
    for row in service.store.rows(
            f"SELECT kind, call_id, phone, detail FROM planted WHERE account = ? {which} "
            "ORDER BY kind, call_id, phone", (account,)):
        kinds.setdefault(row["kind"], []).append({
            "call_id": row["call_id"], "phone": row["phone"], "basis": BASIS[row["kind"]],
            "detail": None if row["detail"] is None else orjson.loads(row["detail"])})
    by_law = {row["call_id"] for row in service.store.rows(
        "SELECT call_id FROM planted WHERE account = ? AND kind = 'state_frequency'", (account,))}
    for problem in kinds.get("frequency", []):
        if problem["call_id"] in by_law:
            problem["basis"] = "law"
    for problem in kinds.get("outside_calling_hours", []):
        problem["basis"] = hours_basis(problem["phone"])
    return json_response({"account": account, "problems": kinds,
                          "counts": {k: len(v) for k, v in kinds.items()}})


@router.get("/upcoming-truth", summary="The planted problems of the scheduled calls")
async def upcoming_truth(request: Request, account: str) -> Any:
    """The scheduled calls planted in an account's seeded world that break the law, by kind:
    each with its lead's id, number, the rule of ``compliance.upcoming`` that
    finds it and when it is due."""
    return _planted_leads(request, account, "upcoming_")


@router.get("/guard-truth", summary="The numbers the client's guard must refuse now")
async def guard_truth(request: Request, account: str) -> Any:
    """The numbers planted in an account's seeded world that the client's guard must refuse
    at the world's "now", by kind (``guard_dnc``, ``guard_hours``,
    ``guard_cap``): each with its lead's id, number, the rule that refuses it and what the
    world knows of why."""
    return _planted_leads(request, account, "guard_")


def _planted_leads(request: Request, account: str, prefix: str) -> Any:
    """The planted rows of an account whose kind starts with ``prefix`` (each a lead, its
    number and what the world knows of it), by kind, with their counts."""
    service = _service(request)
    _known(service, account)
    kinds: dict[str, list[dict[str, Any]]] = {}
    for row in service.store.rows(
            "SELECT kind, call_id, phone, detail FROM planted WHERE account = ? AND "
            "substr(kind, 1, ?) = ? ORDER BY kind, call_id", (account, len(prefix), prefix)):
        kinds.setdefault(row["kind"], []).append(
            {"lead_id": row["call_id"], "phone": row["phone"], **orjson.loads(row["detail"])})
    return json_response({"account": account, "problems": kinds,
                          "counts": {k: len(v) for k, v in kinds.items()}})
