"""Checks shared by the operations that reach people: numbers, DNC, countries, hours, caps.

Click-to-call, SMS, callbacks, appointments, lead import and the dialer
simulation all ask the same questions; they are answered once, here.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import phonenumbers
from phonenumbers import timezone as phone_timezones

from dialkit.contract import ErrorCode

from .._http._problems import ApiProblem
from ._service import RequestContext
from ._store import Store, seed_dataset

CALLING_HOURS = (8, 21)
"""Recipient local time in which calls and texts are allowed: 08:00 to 21:00."""


def parse_phone(value: object) -> phonenumbers.PhoneNumber | None:
    """The number if ``value`` is a valid E.164 string, else ``None``."""
    if not isinstance(value, str) or not value.startswith("+"):
        return None
    try:
        number = phonenumbers.parse(value, None)
    except phonenumbers.NumberParseException:
        return None
    return number if phonenumbers.is_valid_number(number) else None


def e164(number: phonenumbers.PhoneNumber) -> str:
    """The canonical E.164 text of a parsed number."""
    return str(phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164))


def country_of(number: phonenumbers.PhoneNumber) -> str | None:
    """ISO 3166 alpha-2 region of a number."""
    region: str | None = phonenumbers.region_code_for_number(number)
    return region if region and region != "ZZ" else None


def local_hour(number: phonenumbers.PhoneNumber, moment: datetime) -> int:
    """The hour at the recipient (first time zone of the number; UTC if unknown)."""
    zones = phone_timezones.time_zones_for_number(number)
    zone = zones[0] if zones and zones[0] != "Etc/Unknown" else "UTC"
    return moment.astimezone(ZoneInfo(zone)).hour


def within_calling_hours(number: phonenumbers.PhoneNumber, moment: datetime) -> bool:
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


def require_phone(value: str, pointer: str) -> phonenumbers.PhoneNumber:
    """A valid number, or 400 ``validation_failed`` at ``pointer``."""
    number = parse_phone(value)
    if number is None:
        raise ApiProblem(ErrorCode.VALIDATION_FAILED, f"{value!r} is not a valid E.164 number.",
                         errors=[(pointer, "invalid_phone")])
    return number


def check_destination(ctx: RequestContext, number: phonenumbers.PhoneNumber) -> None:
    """422 ``blocked_country`` or ``on_dnc`` for a number that must not be contacted."""
    country = country_of(number)
    if country in ctx.account.blocked_countries:
        raise ApiProblem(ErrorCode.BLOCKED_COUNTRY,
                         f"The account blocks destinations in {country}.")
    if is_listed(ctx, e164(number)):
        raise ApiProblem(ErrorCode.ON_DNC, "The number is on the Do-Not-Call list.")


def verified_caller_ids(store: Store, account: str) -> list[str]:
    """The numbers an account's seeded world may dial from, sorted: the contract lists
    them nowhere (a real account's come from its console), but an audit needs them."""
    rows = store.rows("SELECT phone FROM caller_ids WHERE dataset = ? ORDER BY phone",
                      (seed_dataset(account),))
    return [row["phone"] for row in rows]
