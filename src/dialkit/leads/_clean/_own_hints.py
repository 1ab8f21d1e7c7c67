"""Hints a refused row's own cells give: a Brazilian mobile written without its ninth
digit, and a valid number in the row's other phone columns (issue 80).

Neither is ever read so without the user's say: a hint names the number, and the user
writes it into the file if it is the one meant.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._arrays._bools import arrow_bools

from .._normalize._columns import region_of
from ._hints import put_at
from ._verdicts import (
    AMBIGUOUS_PHONE,
    DUPLICATE_IN_CAMPAIGN,
    DUPLICATE_IN_REQUEST,
    INVALID_PHONE,
    MISSING,
    PHONE_TOO_LONG,
)

FOR_ITS_PHONE = (MISSING, PHONE_TOO_LONG, INVALID_PHONE, AMBIGUOUS_PHONE,
                 DUPLICATE_IN_REQUEST, DUPLICATE_IN_CAMPAIGN)
"""The verdicts a row gets for its phone alone, which another of its numbers may not get:
a duplicate of another row's phone is the commonest (an office line a team shares, each
person's mobile beside it). Not a blocked country or a Do-Not-Call listing: a person
who is not to be called is not called on another number either."""


def ninth_digit_hints(hints: pa.Array | None, cells: pd.Series, numbers: pd.DataFrame,
                      region: str, countries: pd.Series | None) -> pa.Array | None:
    """``hints`` (:func:`region_hints`') with, for each ``invalid_phone`` row of Brazil (its
    country cell's, else the file's region) left without one, the mobile its number reads
    as with the ninth digit Brazil's mobiles gained in 2012-2016 (:func:`ninth_digit`),
    where that is a valid mobile: named, never read so without the user's say."""
    invalid = (numbers["reason"] == "invalid_phone").fillna(False).to_numpy(dtype=bool)
    if hints is None:
        hints = pa.nulls(len(cells), pa.string())
    rows = np.flatnonzero(invalid & ~hints.is_valid().to_numpy(zero_copy_only=False))
    digits = pc.replace_substring_regex(pa.array(cells.iloc[rows], pa.string()), _NOT_DIGIT, "")
    rows = rows[arrow_bools(pc.match_substring_regex(digits, _BRAZIL_OLD_MOBILE.pattern))]
    if not len(rows):  # none written as an old mobile is (a US file's: most of them)
        return None if hints.null_count == len(hints) else hints
    country = ([None] * len(rows) if countries is None
               else countries.iloc[rows].astype(object).tolist())
    said = [ninth_digit(str(cell), region_of(each) or region)
            for cell, each in zip(cells.iloc[rows].astype(object), country, strict=True)]
    hints = put_at(hints, rows, pa.array(said, pa.string()))
    return None if hints.null_count == len(hints) else hints


_BRAZIL_OLD_MOBILE = re.compile(r"^(?:\+?55)?0?([0-9]{2})([6-9][0-9]{7})$")
"""A Brazilian mobile as written before it gained its ninth digit, its digits alone: an
area code, then eight digits from 6 to 9 (``553198710659``, ``(31) 8871-0659``); read by
RE2 over a chunk's refused cells first, by ``re`` in the few it matches."""
_NOT_DIGIT = r"[^0-9+]"  # ASCII digits, as RE2 and re both read them


def ninth_digit(cell: str, region: str) -> str | None:
    """The hint of a number of Brazil (``region`` BR, or written with ``+55``) that is no
    valid number as written but is a valid mobile with a ``9`` before its eight digits:
    Brazil's mobiles gained a ninth digit in 2012-2016 (Anatel), and lists kept from
    before write them without it. None for any other cell."""
    digits = re.sub(_NOT_DIGIT, "", cell)
    if region != "BR" and not digits.startswith("+55"):
        return None
    old = _BRAZIL_OLD_MOBILE.match(digits)
    if old is None:
        return None
    number = phonenumbers.parse(f"+55{old[1]}9{old[2]}")
    if not (phonenumbers.is_valid_number(number)
            and phonenumbers.number_type(number) == phonenumbers.PhoneNumberType.MOBILE):
        return None
    written = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return (f"a Brazilian mobile written as before 2016, without its ninth digit, reads "
            f"as {written}: write it so if it is that number")




def other_number_hints(hints: pa.Array, codes: np.ndarray, others: pd.Series) -> pa.Array:
    """``hints`` with, for each row refused for its phone (:data:`FOR_ITS_PHONE`, by its
    verdict's code in ``codes``) whose other phone columns hold a valid number
    (``others``: :attr:`Phones.other_valid`), that number named after the row's hint."""
    rows = np.flatnonzero(np.isin(codes, FOR_ITS_PHONE) & others.notna().to_numpy(bool))
    if not len(rows):
        return hints
    said = [f"{hint + '; ' if hint else ''}its other number {number} is valid: make it the "
            "row's phone to send the lead on it" for number, hint in zip(
                others.iloc[rows].tolist(), hints.take(pa.array(rows)).to_pylist(), strict=True)]
    return put_at(hints, rows, pa.array(said, pa.string()))
