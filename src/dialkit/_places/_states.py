"""Where the person called is: each number's region and, for a US number, its state.

The state of a NANP number is its area code's, by :func:`._areas.area_states`,
which the emulator's world places its numbers by too. Numbers are
answered per distinct number, a whole column at a time, with the same parse
:mod:`._zones` uses; a toll-free, non-geographic or unknown number has no state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc

from ._areas import Objects, area_states
from ._kept import hashed, kept
from ._texts import _take
from ._types import regions_and_types
from ._zones import Ints, _asked_number, _parse


@dataclass(frozen=True)
class Places:
    """Where a column's numbers are: ``number``, each row's index into the distinct
    numbers (-1: no number); per distinct number its ``region`` (``None``: unknown)
    and US ``state`` as a postal code (``None``: not a US geographic number)."""

    number: Ints
    region: Objects
    state: Objects


def places(phones: pd.Series) -> Places:
    """The region and US state of each distinct number of ``phones``."""
    rows, texts = hashed(phones)
    region, state = kept("places", texts, lambda: _places_of(texts))
    return Places(rows, region, state)


def _places_of(texts: pa.Array) -> tuple[Objects, Objects]:
    """Each distinct number's region and US state (kept with the column's distinct texts:
    a notebook asks them again of the same numbers)."""
    region = np.full(len(texts), None, object)
    state = np.full(len(texts), None, object)
    parsed, code, nsn, slow = _parse(texts)
    found, kind = regions_and_types(code, nsn)
    region[parsed] = found
    us = np.flatnonzero((code == 1) & (found == "US") & np.isin(kind, _GEOGRAPHIC))
    if len(us):
        area = np.asarray(pc.cast(pc.utf8_slice_codeunits(_take(nsn, us), 0, 3), "int64"))
        state[parsed[us]] = area_states(area)
    for at, text in zip(slow, _take(texts, slow).to_pylist(), strict=True):
        region[at], state[at] = _slow_place(text)
    return region, state


_GEOGRAPHIC = [phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE,
               phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE]
"""The types of a NANP number that are geographic (``is_number_type_geographical``)."""


def _slow_place(text: str) -> tuple[str | None, str | None]:
    """Region and state of a number written other than as plain E.164, asked of
    ``phonenumbers`` itself."""
    number = _asked_number(text)
    if number is None:
        return None, None
    region = phonenumbers.region_code_for_number(number)
    geographic = phonenumbers.number_type(number) in _GEOGRAPHIC
    if region != "US" or not geographic:
        return region, None
    area = int(str(number.national_number)[:3])
    return region, area_states(np.array([area]))[0]

