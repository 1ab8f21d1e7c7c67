"""The region a country cell names: an ISO 3166 code, a calling code or a country's name in
any of the ways people write one (:mod:`._country_names`), as lead files and the audit's
``blocked_countries`` write countries.

Shared by leads (a lead file's country column) and compliance (naming a blocked
country), so that the two read a country the same way. An alpha-2 code or a calling code
is read at once; only a name builds the table of names.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pandas as pd
import phonenumbers

from ._country_names import region_named


def region_of(value: Any) -> str | None:
    """The region (ISO alpha-2, one ``phonenumbers`` supports) a country cell names, or
    ``None``: an ISO 3166 alpha-2 or alpha-3 code, a calling code (``+49``, ``0049``,
    ``49``: its main region) or a country's name in English or a language of the country,
    in any case, with or without accents, punctuation or a leading "The". A name that
    two regions are called by names neither.

    Examples:
        >>> [region_of(cell) for cell in ("gb", "+49", "AUS", "U.S.A.", "Österreich", "Éire")]
        ['GB', 'DE', 'AU', 'US', 'AT', 'IE']
        >>> [region_of(cell) for cell in ("Atlantis", "N.A.", "NA", "Namibia")]
        [None, None, 'NA', 'NA']
    """
    if is_missing(value):
        return None
    text = str(value).strip()
    if not text.isascii():  # full-width ＤＥ, Arabic-Indic digits; an ASCII code costs nothing
        text = unicodedata.normalize("NFKC", text).strip()
    if text.upper() in phonenumbers.SUPPORTED_REGIONS:
        return text.upper()
    digits = text.removeprefix("+").strip()
    if digits.isdecimal():
        return _calling_region(digits.lstrip("0"))  # 0049: the international prefix's zeros
    return region_named(text) if text else None


def _calling_region(code: str) -> str | None:
    """The main region of a calling code (one to three digits), or ``None``."""
    found = (phonenumbers.region_code_for_country_code(int(code)) if 0 < len(code) <= 3
             else phonenumbers.UNKNOWN_REGION)
    return None if found == phonenumbers.UNKNOWN_REGION else found


def is_missing(value: Any) -> bool:
    """Whether a cell holds nothing: ``None``, NaN, ``pd.NA``, ``NaT`` (a blank text is not)."""
    return value is None or (not isinstance(value, str) and bool(pd.isna(value)))
