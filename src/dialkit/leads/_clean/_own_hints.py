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

from .._normalize._columns import region_of
from .._normalize._phones import ALT_SEPARATOR
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
    if not len(rows):
        return None if hints.null_count == len(hints) else hints
    country = ([None] * len(rows) if countries is None
               else countries.iloc[rows].astype(object).tolist())
    said = [ninth_digit(str(cell), region_of(each) or region)
            for cell, each in zip(cells.iloc[rows].astype(object), country, strict=True)]
    hints = put_at(hints, rows, pa.array(said, pa.string()))
    return None if hints.null_count == len(hints) else hints


_BRAZIL_OLD_MOBILE = re.compile(r"(?:\+?55)?0?(\d{2})([6-9]\d{7})")
"""A Brazilian mobile as written before it gained its ninth digit: an area code, then
eight digits from 6 to 9 (``553198710659``, ``(31) 8871-0659``)."""


def ninth_digit(cell: str, region: str) -> str | None:
    """The hint of a number of Brazil (``region`` BR, or written with ``+55``) that is no
    valid number as written but is a valid mobile with a ``9`` before its eight digits:
    Brazil's mobiles gained a ninth digit in 2012-2016 (Anatel), and lists kept from
    before write them without it. None for any other cell."""
    digits = re.sub(r"[^\d+]", "", cell)
    if region != "BR" and not digits.startswith("+55"):
        return None
    old = _BRAZIL_OLD_MOBILE.fullmatch(digits)
    if old is None:
        return None
    number = phonenumbers.parse(f"+55{old[1]}9{old[2]}")
    if not (phonenumbers.is_valid_number(number)
            and phonenumbers.number_type(number) == phonenumbers.PhoneNumberType.MOBILE):
        return None
    written = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return (f"a Brazilian mobile written as before 2016, without its ninth digit, reads "
            f"as {written}: write it so if it is that number")




def other_number_hints(hints: pa.Array, codes: np.ndarray, phones: pd.Series,
                       others: pd.Series) -> pa.Array:
    """``hints`` with, for each row refused for its phone (:data:`FOR_ITS_PHONE`, by its
    verdict's code in ``codes``) whose other numbers (``others``, its ``alt_phone``) hold
    a valid one besides its phone (``phones``, its ``phone_e164``), that number named after
    the row's hint."""
    rows = np.flatnonzero(np.isin(codes, FOR_ITS_PHONE) & others.notna().to_numpy(bool))
    if not len(rows):
        return hints
    said = [_other_said(str(other), phone, hint) for other, phone, hint in zip(
        others.iloc[rows].tolist(), phones.iloc[rows].fillna("").tolist(),
        hints.take(pa.array(rows)).to_pylist(), strict=True)]
    return put_at(hints, rows, pa.array(said, pa.string()))


def _other_said(others: str, phone: str, hint: str | None) -> str | None:
    number = next((each for each in _valid(others) if each != phone), None)
    if number is None:
        return hint
    said = f"its other number {number} is valid: make it the row's phone to send the lead on it"
    return f"{hint}; {said}" if hint else said


def _valid(others: str) -> list[str]:
    """The valid numbers of a row's ``alt_phone`` (E.164, an extension after some)."""
    valid = []
    for other in others.split(ALT_SEPARATOR):
        number = other.split(" ext. ")[0].strip()
        if not number.startswith("+"):
            continue  # a cell that read as no number, kept as written
        try:
            parsed = phonenumbers.parse(number)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(parsed):
            valid.append(phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164))
    return valid
