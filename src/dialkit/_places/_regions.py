"""The region a country cell names: an ISO alpha-2 code, a calling code or an English
country name, as lead files and the audit's ``blocked_countries`` write countries.

Shared by leads (a lead file's country column) and compliance (naming a blocked
country), so that the two read a country the same way.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import phonenumbers

from ._country_names import COUNTRY_NAMES

_COUNTRY_ALIASES = {"usa": "US", "u.s.a.": "US", "u.s.": "US", "united states of america": "US",
                    "uk": "GB", "u.k.": "GB", "great britain": "GB", "england": "GB",
                    "scotland": "GB", "wales": "GB"}


def region_of(value: Any) -> str | None:
    """The region (ISO alpha-2) a country cell names, or ``None``.

    Examples:
        >>> [region_of(cell) for cell in ("gb", "+49", "France", "Atlantis")]
        ['GB', 'DE', 'FR', None]
    """
    if is_missing(value):
        return None
    text = str(value).strip()
    if text.upper() in phonenumbers.SUPPORTED_REGIONS:
        return text.upper()
    code = text.removeprefix("+").strip()
    if code.isdigit():
        found = phonenumbers.region_code_for_country_code(int(code))
        return None if found == phonenumbers.UNKNOWN_REGION else found
    return COUNTRY_NAMES.get(text.casefold()) or _COUNTRY_ALIASES.get(text.casefold())


def is_missing(value: Any) -> bool:
    """Whether a cell holds nothing: ``None``, NaN, ``pd.NA``, ``NaT`` (a blank text is not)."""
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))
