"""Where the person called is: each number's region and, for a US number, its state; and
for analysis (:func:`state_of`), a NANP number's state, province or territory.

The state of a NANP number is its area code's, by :func:`._areas.area_states`,
which the emulator's world places its numbers by too. Numbers are
answered per distinct number, a whole column at a time, with the same parse
:mod:`._zones` uses; a toll-free, non-geographic or unknown number has no state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._arrays._kept import hashed, kept
from .._arrays._texts import take
from .._phones._asked import asked_number
from .._phones._parse import parse_e164
from .._phones._types import regions_and_types
from .._phones._zones import Ints
from ._areas import Objects, area_provinces, area_states, territories


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
    parsed, code, nsn, slow = parse_e164(texts)
    found, kind = regions_and_types(code, nsn)
    region[parsed] = found
    us = np.flatnonzero((code == 1) & (found == "US") & np.isin(kind, _GEOGRAPHIC))
    if len(us):
        area = np.asarray(pc.cast(pc.utf8_slice_codeunits(take(nsn, us), 0, 3), "int64"))
        state[parsed[us]] = area_states(area)
    for at, text in zip(slow, take(texts, slow).to_pylist(), strict=True):
        region[at], state[at] = _slow_place(text)
    return region, state


_GEOGRAPHIC = [phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE,
               phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE]
"""The types of a NANP number that are geographic (``is_number_type_geographical``)."""


def _slow_place(text: str) -> tuple[str | None, str | None]:
    """Region and state of a number written other than as plain E.164, asked of
    ``phonenumbers`` itself."""
    number = asked_number(text)
    if number is None:
        return None, None
    region = phonenumbers.region_code_for_number(number)
    geographic = phonenumbers.number_type(number) in _GEOGRAPHIC
    if region != "US" or not geographic:
        return region, None
    area = int(str(number.national_number)[:3])
    return region, area_states(np.array([area]))[0]



def state_of(numbers: pd.Series | Iterable[str | None]) -> pd.Series:
    """The US state, Canadian province or territory, or US territory of each number, as
    its two-letter postal code (USPS, Canada Post: ``NY``, ``ON``, ``PR``), for tables
    by place (``answer_rates(calls, by=("state",))``).

    A NANP number is placed by its area code, from the table the compliance audit
    places numbers by: phonenumbers' geocoder names some area codes by a city
    ("Toronto, ON") and Washington as "Washington State", so a table built from it
    mixes states with other names. Each distinct number is asked once, the whole
    column at a time.

    Args:
        numbers: Phone numbers, E.164 (``+14155550123``) or any way ``phonenumbers``
            reads with a ``+``: a column of ``calls``' ``to_number``, ``leads``' ``phone``.

    Returns:
        A ``string[pyarrow]`` Series named ``state`` with the index of ``numbers``;
        missing (``<NA>``) for a number of no state: outside the NANP, toll-free or
        non-geographic, unreadable, or of an area code several provinces share
        (902 and 782: Nova Scotia and Prince Edward Island; 867: the three territories).

    Raises:
        TypeError: ``numbers`` is one text or no column at all.

    Examples:
        >>> state_of(["+12125550100", "+14165550100", "+442079460000"]).tolist()
        ['NY', 'ON', <NA>]
    """
    if isinstance(numbers, str | bytes) or not isinstance(numbers, Iterable):
        raise TypeError(f"state_of takes a column of phone numbers (a Series or a list), not "
                        f"{type(numbers).__name__}: pass calls['to_number'], or [number] "
                        f"for one")
    phones = numbers if isinstance(numbers, pd.Series) else pd.Series(list(numbers), dtype=object)
    if not isinstance(phones.dtype, pd.StringDtype):
        phones = phones.astype("string[pyarrow]")
    rows, texts = hashed(phones)
    found = pa.array(kept("states", texts, lambda: _states_of(texts)), pa.string())
    taken = found.take(pa.array(rows, mask=rows < 0))  # Arrow's gather: no million objects
    return pd.Series(pd.arrays.ArrowStringArray(taken), index=phones.index, name="state")


def _states_of(texts: pa.Array) -> Objects:
    """Each distinct number's state, province or territory (``None``: none)."""
    state = np.full(len(texts), None, object)
    parsed, code, nsn, slow = parse_e164(texts)
    region, kind = regions_and_types(code, nsn)
    nanp = np.flatnonzero((code == 1) & np.isin(kind, _GEOGRAPHIC))
    if len(nanp):
        area = np.asarray(pc.cast(pc.utf8_slice_codeunits(take(nsn, nanp), 0, 3), "int64"))
        state[parsed[nanp]] = _subdivisions(region[nanp], area)
    for at, text in zip(slow, take(texts, slow).to_pylist(), strict=True):
        number = asked_number(text)
        if number is not None and number.country_code == 1 and (
                phonenumbers.number_type(number) in _GEOGRAPHIC):
            area = np.array([int(str(number.national_number)[:3])])
            state[at] = _subdivisions(np.array([phonenumbers.region_code_for_number(number)],
                                                object), area)[0]
    return state


def _subdivisions(region: Objects, area: NDArray[np.int64]) -> Objects:
    """The state (a US number), province (a Canadian one) or the territory itself (``PR``:
    phonenumbers gives the US territories regions of their own) of NANP numbers."""
    placed = np.full(len(area), None, object)
    placed[region == "US"] = area_states(area[region == "US"])
    placed[region == "CA"] = area_provinces(area[region == "CA"])
    own = np.isin(region, list(territories()))
    placed[own] = region[own]
    return placed
