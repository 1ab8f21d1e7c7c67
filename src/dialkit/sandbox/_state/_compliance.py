"""Checks shared by the operations that reach people: numbers, DNC, countries, hours, caps.

Click-to-call, SMS, callbacks, appointments, lead import and the dialer
simulation all ask the same questions; they are answered once, here.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from dialkit._phones._asked import PhoneNumber, country_of, e164_text, time_zones, valid_number
from dialkit.contract import CALLING_HOURS, ErrorCode

from .._http._problems import ApiProblem
from ._service import RequestContext
from ._store import Store, seed_dataset


def local_hour(number: PhoneNumber, moment: datetime) -> int:
    """The hour at the recipient (first time zone of the number; UTC if unknown)."""
    zones = time_zones(number)
    zone = zones[0] if zones and zones[0] != "Etc/Unknown" else "UTC"
    return moment.astimezone(ZoneInfo(zone)).hour


def within_calling_hours(number: PhoneNumber, moment: datetime) -> bool:
    """Whether ``moment`` is inside the recipient's calling hours."""
    start, end = CALLING_HOURS
    return start <= local_hour(number, moment) < end


def is_listed(ctx: RequestContext, phone: str) -> bool:
    """Whether ``phone`` is on the account's Do-Not-Call list (seeded or added)."""
    return listed_since(ctx, phone) is not None


def listed_since(ctx: RequestContext, phone: str) -> str | None:
    """When ``phone`` was first put on the account's Do-Not-Call list, or ``None``."""
    layers = ctx.service.store.layers(ctx.dataset, ctx.account.name)
    row = ctx.service.store.row(
        "SELECT MIN(added_at) AS since FROM dnc WHERE phone = ? AND dataset IN (?, ?)",
        (phone, *layers))
    return None if row is None else row["since"]


def require_phone(value: str, pointer: str) -> PhoneNumber:
    """A valid number, or 400 ``validation_failed`` at ``pointer``."""
    number = valid_number(value)
    if number is None:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED, f"{value!r} is not a valid E.164 number.",
                         errors=[(pointer, "invalid_phone")])
    return number


def check_destination(ctx: RequestContext, number: PhoneNumber) -> None:
    """422 ``blocked_country`` or ``on_dnc`` for a number that must not be contacted."""
    country = country_of(number)
    if country in ctx.account.blocked_countries:
        raise ApiProblem(ErrorCode.BLOCKED_COUNTRY,
                         f"The account blocks destinations in {country}.")
    if is_listed(ctx, e164_text(number)):
        raise ApiProblem(ErrorCode.ON_DNC, "The number is on the Do-Not-Call list.")


def verified_caller_ids(store: Store, account: str) -> list[str]:
    """The numbers an account's seeded world may dial from, sorted: the contract lists
    them nowhere (a real account's come from its console), but an audit needs them."""
    rows = store.rows("SELECT phone FROM caller_ids WHERE dataset = ? ORDER BY phone",
                      (seed_dataset(account),))
    return [row["phone"] for row in rows]
