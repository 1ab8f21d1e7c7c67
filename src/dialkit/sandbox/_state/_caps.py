"""Sending caps and balance: what click-to-call and SMS count against, each send at its
price (:mod:`._prices`).

The contract does not show the values; the emulator takes them from the
configuration (``daily_cap`` and ``per_minute_cap`` of a key, ``daily_cap``,
``spend_limit`` and ``balance`` of an account) and leaves a cap unset when
the configuration does.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from dialkit.contract import ErrorCode

from .._http._problems import ApiProblem
from ._clock import isoformat

if TYPE_CHECKING:
    from ._service import RequestContext


def _sent_since(ctx: RequestContext, since: str, credential_id: str | None) -> tuple[int, float]:
    sql = "SELECT COUNT(*), COALESCE(SUM(cost), 0) FROM sending_log WHERE dataset = ? AND at >= ?"
    params: list[object] = [ctx.dataset, since]
    if credential_id is not None:
        sql += " AND credential_id = ?"
        params.append(credential_id)
    row = ctx.service.store.row(sql, params)
    return (int(row[0]), float(row[1])) if row else (0, 0.0)


def _start_of_day(ctx: RequestContext) -> str:
    now = ctx.service.clock.now()
    return isoformat(now.replace(hour=0, minute=0, second=0, microsecond=0))


def _until_tomorrow(ctx: RequestContext) -> int:
    now = ctx.service.clock.now()
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    return max(1, int((midnight - now).total_seconds()))


def _cap_reached(ctx: RequestContext, code: ErrorCode, whose: str) -> ApiProblem:
    return ApiProblem(code, f"{whose} daily limit is reached. It resets at 00:00 UTC.",
                      retry_after=_until_tomorrow(ctx))


def check_daily_cap(ctx: RequestContext) -> None:
    """429 ``daily_cap_reached`` when the account's daily cap is used up."""
    cap = ctx.account.daily_cap
    if cap is not None and _sent_since(ctx, _start_of_day(ctx), None)[0] >= cap:
        raise _cap_reached(ctx, ErrorCode.DAILY_CAP_REACHED, "The account's")


def check_caps(ctx: RequestContext, cost: float) -> None:
    """Balance (402), daily caps (429), per-minute cap (429) and spend limit (429)."""
    account, key = ctx.account, ctx.caller.key
    if account.balance < cost:
        raise ApiProblem(ErrorCode.INSUFFICIENT_BALANCE, "The account's balance is too low.")
    check_daily_cap(ctx)
    day = _start_of_day(ctx)
    key_today, _ = _sent_since(ctx, day, key.credential_id)
    if key.daily_cap is not None and key_today >= key.daily_cap:
        raise _cap_reached(ctx, ErrorCode.DAILY_CAP_REACHED, "This key's")
    minute_ago = isoformat(ctx.service.clock.now() - timedelta(minutes=1))
    if key.per_minute_cap is not None and \
            _sent_since(ctx, minute_ago, key.credential_id)[0] >= key.per_minute_cap:
        raise ApiProblem(ErrorCode.RATE_LIMIT_EXCEEDED,
                         "This key's per-minute sending cap is reached.", retry_after=60)
    spent = _sent_since(ctx, day, None)[1]
    if account.spend_limit is not None and spent + cost > account.spend_limit:
        raise _cap_reached(ctx, ErrorCode.SPEND_CAP_REACHED, "The account's estimated-spend")


def record_send(ctx: RequestContext, kind: str, cost: float) -> None:
    """Count one call or message against the caps."""
    ctx.service.store.conn.execute(
        "INSERT INTO sending_log (dataset, credential_id, kind, at, cost) VALUES (?, ?, ?, ?, ?)",
        (ctx.dataset, ctx.caller.key.credential_id, kind, ctx.now(), cost))
