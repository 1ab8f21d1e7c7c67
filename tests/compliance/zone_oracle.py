"""The zones a number is judged in, asked number by number: ``phonenumbers``' own
(``time_zones_for_number``), but for a NANP number of an area code listed in
``area_codes.toml``'s ``[zones]`` whose exchange ``phonenumbers`` does not place (no
prefix of its zone table longer than the area code's own is the number's): every zone
the table lists for that area code. Read here from the file, apart from the package."""

from __future__ import annotations

import tomllib
from importlib import resources

import phonenumbers
from phonenumbers import timezone as phone_timezones
from phonenumbers.tzdata import TIMEZONE_DATA

UNKNOWN = "Etc/Unknown"
AREA_ZONES: dict[str, list[str]] = tomllib.loads(resources.files("dialkit._places").joinpath(
    "area_codes.toml").read_text("utf-8"))["zones"]


def judged_zones(number: phonenumbers.PhoneNumber) -> list[str]:
    """The zones ``number`` is judged in (none: unknown)."""
    zones = [z for z in phone_timezones.time_zones_for_number(number) if z != UNKNOWN]
    digits = f"{number.country_code}{phonenumbers.national_significant_number(number)}"
    area = digits[1:4]
    geographic = phonenumbers.is_number_type_geographical(
        phonenumbers.number_type(number), number.country_code)
    listed = any(digits[:size] in TIMEZONE_DATA for size in range(5, len(digits) + 1))
    if number.country_code == 1 and geographic and area in AREA_ZONES and not listed:
        return AREA_ZONES[area]
    return zones
