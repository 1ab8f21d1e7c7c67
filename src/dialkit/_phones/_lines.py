"""What kind of line each number is (``phonenumbers``' ``number_type``), a column at a
time: the TCPA's consent rule for wireless numbers asks it of the numbers a campaign
called. Each distinct number is asked once (:func:`._types.read_numbers`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from phonenumbers import PhoneNumberType

from .._arrays._kept import hashed
from ._types import read_numbers

MOBILE = PhoneNumberType.MOBILE
MAYBE_MOBILE = PhoneNumberType.FIXED_LINE_OR_MOBILE


def number_types(phones: pd.Series) -> np.ndarray:
    """Each number's ``PhoneNumberType`` (``UNKNOWN`` for a null or unreadable one)."""
    codes, texts = hashed(phones)
    found: np.ndarray = np.r_[read_numbers(texts)[1], PhoneNumberType.UNKNOWN][codes]
    return found  # a null's row (-1) takes the last: unknown
