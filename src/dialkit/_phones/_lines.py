"""What kind of line each number is (``phonenumbers``' ``number_type``), a column at a
time: the TCPA's consent rule for wireless numbers asks it of the numbers a campaign
called. Each distinct number is asked once, parsed with the metadata's own patterns
(:mod:`._types`); a text only ``parse`` itself reads is asked of it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import phonenumbers
from phonenumbers import PhoneNumberType

from .._arrays._kept import hashed
from .._arrays._texts import take
from ._parse import parse_e164
from ._types import regions_and_types

MOBILE = PhoneNumberType.MOBILE
MAYBE_MOBILE = PhoneNumberType.FIXED_LINE_OR_MOBILE


def number_types(phones: pd.Series) -> np.ndarray:
    """Each number's ``PhoneNumberType`` (``UNKNOWN`` for a null or unreadable one)."""
    codes, texts = hashed(phones)
    kind = np.full(len(texts) + 1, PhoneNumberType.UNKNOWN, np.int64)  # a null: the last
    parsed, code, nsn, slow = parse_e164(texts)
    kind[parsed] = regions_and_types(code, nsn)[1]
    kind[slow] = [_asked(text) for text in take(texts, slow).to_pylist()]
    found: np.ndarray = kind[codes]
    return found


def _asked(text: str) -> int:
    try:
        return int(phonenumbers.number_type(phonenumbers.parse(text)))
    except phonenumbers.NumberParseException:
        return int(PhoneNumberType.UNKNOWN)
