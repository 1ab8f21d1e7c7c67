"""One number read by ``phonenumbers`` itself: for the few texts the column code leaves
to it, and for the emulator's world and service and the MCP tools' questions, which read
their numbers one at a time.

A module of its own that imports only ``phonenumbers``: the emulator takes it without
loading pandas and pyarrow, which :mod:`._zones` imports (2.0-3.2 s more at an
emulator's start on a loaded machine, where the emulator loads neither). The modules
outside this package that read one number ask these functions, not ``phonenumbers``
(nine of the emulator's modules once imported it).
"""

from __future__ import annotations

import phonenumbers
from phonenumbers import PhoneNumber, PhoneNumberFormat
from phonenumbers import timezone as phone_timezones

__all__ = ["ASSUMED_REGION", "PhoneNumber", "asked_number", "country_of", "e164_advice",
           "e164_text", "international_text", "time_zones", "valid_number"]

ASSUMED_REGION = "US"
"""Region a number without ``+`` is read in, only to suggest its E.164 form."""


def asked_number(text: str) -> PhoneNumber | None:
    """``phonenumbers.parse(text)``, or None where it raises."""
    try:
        return phonenumbers.parse(text)
    except phonenumbers.NumberParseException:
        return None


def valid_number(value: object) -> PhoneNumber | None:
    """The number ``value`` writes with its ``+``, where ``phonenumbers`` reads it and finds
    it valid (``is_valid_number``); else None."""
    if not isinstance(value, str) or not value.startswith("+"):
        return None
    number = asked_number(value)
    return number if number is not None and phonenumbers.is_valid_number(number) else None


def e164_text(number: PhoneNumber) -> str:
    """The number in E.164 form, as the service writes it: ``+14155550123``."""
    return str(phonenumbers.format_number(number, PhoneNumberFormat.E164))


def international_text(number: PhoneNumber) -> str:
    """The number as ``phonenumbers`` spaces it for reading: ``+1 415-555-0123``."""
    return str(phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL))


def country_of(number: PhoneNumber) -> str | None:
    """The number's ISO 3166 alpha-2 region (``region_code_for_number``), None where it has
    none (``ZZ``: a non-geographic code)."""
    region: str | None = phonenumbers.region_code_for_number(number)
    return region if region and region != "ZZ" else None


def time_zones(number: PhoneNumber) -> tuple[str, ...]:
    """``time_zones_for_number``: the number's IANA zones, ``("Etc/Unknown",)`` where
    ``phonenumbers`` knows none."""
    return tuple(phone_timezones.time_zones_for_number(number))


def e164_advice(value: str) -> str:
    """What to pass instead of ``value``: its E.164 form when it can be told for sure.

    A number written with ``+`` names its country; one without is read as a
    US number, and the suggestion says so.

    Examples:
        >>> e164_advice("415-555-0123")
        'pass +14155550123 if it is a US number'
    """
    international = value.lstrip().startswith("+")
    try:
        number = phonenumbers.parse(value, None if international else ASSUMED_REGION)
    except phonenumbers.NumberParseException:
        number = None
    if number is None or not phonenumbers.is_valid_number(number):
        return "E.164 is + then the country code and number, digits only, e.g. +14155550123"
    e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return f"pass {e164}" if international else f"pass {e164} if it is a US number"
