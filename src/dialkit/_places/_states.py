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

from .._arrays._kept import hashed, kept
from .._arrays._texts import take
from .._phones._types import read_numbers
from .._phones._zones import Ints, Rows
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
    region, place, us = kept("places", texts, lambda: _places_of(texts))
    state = np.full(len(region), None, object)
    state[us] = place[us]  # a province or territory is no US state
    return Places(rows, region, state)


def _places_of(texts: pa.Array) -> tuple[Objects, Objects, Rows]:
    """Each distinct number's region; its state (a US number), province (a Canadian one)
    or the territory itself (``PR``: phonenumbers gives the US territories regions of
    their own), ``None`` for a number of none of them; and the US numbers' rows. Kept
    with the column's distinct texts, which a notebook and an audit ask again. The
    territories are sought among the few numbers of neither country (``np.isin`` sorts
    the texts it is given: 35 ms of 200,000 regions)."""
    region, kind, code, nsn = read_numbers(texts)
    place = np.full(len(texts), None, object)
    nanp = np.flatnonzero((code == 1) & np.isin(kind, _GEOGRAPHIC))
    area = np.asarray(pc.cast(pc.utf8_slice_codeunits(take(nsn, nanp), 0, 3), "int64"))
    us, ca = region[nanp] == "US", region[nanp] == "CA"
    place[nanp[us]], place[nanp[ca]] = area_states(area[us]), area_provinces(area[ca])
    rest = nanp[~(us | ca)]
    own = rest[np.isin(region[rest], list(territories()))]
    place[own] = region[own]
    return region, place, nanp[us]


_GEOGRAPHIC = [phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE,
               phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE]
"""The types of a NANP number that are geographic (``is_number_type_geographical``)."""


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
    found = pa.array(kept("places", texts, lambda: _places_of(texts))[1], pa.string())
    taken = found.take(pa.array(rows, mask=rows < 0))  # Arrow's gather: no million objects
    return pd.Series(pd.arrays.ArrowStringArray(taken), index=phones.index, name="state")
