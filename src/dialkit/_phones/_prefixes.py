"""How many leading digits decide a number's region, type and zones, so that the numbers
that share them are asked as one.

``phonenumbers`` decides a number by its metadata's patterns and the prefixes of its
zone table, and those read only a number's first digits: the North American patterns
end in "any digits" (``\\d{4}``) after at most seven, the zone table's prefixes after
six. So of the 183,000 distinct numbers of an account, which share some 13,000 area
codes and exchanges, one per six leading digits is asked, and its answer is every
other's: read off the patterns themselves (:func:`decided_by`), not assumed of them.
"""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE, PhoneMetadata
from phonenumbers.tzdata import TIMEZONE_DATA

from .._arrays._texts import groups, lengths, match, sliced, take
from .._places._areas import area_zones
from ._metadata import decided_by
from ._types import type_patterns

Ints = NDArray[np.int64]
Rows = NDArray[np.intp]

MAX_DIGITS = 15
PREFIX_ZONES = {**TIMEZONE_DATA,
                **{f"1{code}": zones for code, zones in area_zones().items()}}
"""``phonenumbers``' zone table, by prefix (calling code and national digits), but for
the NANP area codes whose exchanges lie in more than one zone: there the area code's own
prefix, which decides every exchange the table does not list, gives every zone of the
area code (:func:`dialkit._places._areas.area_zones`). An exchange it lists keeps its one zone."""
"""Most leading digits a group's key is made of (an int64 holds them)."""


def representatives(code: Ints, nsn: pa.Array) -> tuple[Rows, Rows]:
    """Of parsed numbers (calling codes and national numbers), the rows of one number per
    group decided alike (ascending), and each number's group: an index into them."""
    chosen = np.arange(len(code))
    for pair, rows in groups(code * 100 + lengths(nsn)):  # a length under 100
        alike, firsts = _alike(take(nsn, rows), *divmod(pair, 100))
        chosen[rows] = rows[firsts][alike]
    own = chosen == np.arange(len(code))
    return np.flatnonzero(own), (np.cumsum(own) - 1)[chosen]


def _alike(nsn: pa.Array, code: int, size: int) -> tuple[Ints, Ints]:
    """National numbers of calling code ``code``, all ``size`` digits long, grouped by the
    leading digits that decide them: each one's group, and each group's first number (a
    group split apart is left with none: its first number is then its first part's). A
    number that a region reading further may claim is grouped by all the digits any
    region reads (more groups than needed, never fewer)."""
    base, reach, deeper = _depths(code, size)
    if reach >= size or reach > MAX_DIGITS:
        return np.arange(len(nsn)), np.arange(len(nsn))
    digits = (np.asarray(pc.cast(sliced(nsn, 0, reach), pa.int64()), np.int64) if reach
              else np.zeros(len(nsn), np.int64))  # no digit decides: all alike
    scale = 10 ** (reach - base)
    alike, firsts = _grouped(digits // scale)
    if not deeper:
        return alike, firsts
    heads = take(nsn, firsts)  # a group's first is as any: its base digits decide these
    further = np.zeros(len(firsts), bool)
    for leading in deeper:
        further |= match(heads, f"^(?:{leading})")
    rows = np.flatnonzero(further[alike])  # split by all the digits read, as new groups
    split, starts = _grouped(digits[rows])
    alike = alike.copy()
    alike[rows] = len(firsts) + split
    return alike, np.r_[firsts, rows[starts]]


def _grouped(keys: Ints) -> tuple[Ints, Ints]:
    """Each key's group (in order of first appearance) and each group's first row: a new
    group's number exceeds every one before it."""
    alike = pd.factorize(keys)[0].astype(np.int64)
    seen = np.maximum.accumulate(alike)
    return alike, np.flatnonzero(np.diff(seen, prepend=-1) > 0)


@functools.cache
def _depths(code: int, size: int) -> tuple[int, int, tuple[str, ...]]:
    """For numbers of calling code ``code`` and ``size`` national digits: how many leading
    digits decide their region, type and zones, but for the regions whose types read
    further; how many those read; and those regions' leading digits (only a number they
    match is tried as such). ``size``: every digit, where some pattern is not read
    (:func:`decided_by`)."""
    regions = COUNTRY_CODE_TO_REGION_CODE.get(code, ())
    found: list[int | None] = [max([len(str(code)), *prefix_sizes(code)]) - len(str(code))]
    deeper = []
    for region in regions:
        leading = _leading_digits(region) if len(regions) > 1 else None
        patterns = type_patterns(code, region, size)
        texts = () if patterns is None else (
            patterns.general, *(p for _, p in patterns.earlier), patterns.fixed,
            patterns.mobile)
        depths = [decided_by(text) for text in texts if text is not None]
        depth = None if None in depths else max([0, *(d for d in depths if d is not None)])
        if leading is None:
            found.append(depth)
        else:
            found.append(decided_by(leading))
            deeper.append((leading, depth))
    if None in found or any(depth is None for _, depth in deeper):
        return size, size, ()
    base = max(d for d in found if d is not None)
    further = [(lead, d) for lead, d in deeper if d is not None and d > base]
    return base, max([base, *(d for _, d in further)]), tuple(lead for lead, _ in further)


def _leading_digits(region: str) -> str | None:
    """A region's leading digits, as ``_region_code_for_number_from_list`` reads them."""
    metadata = PhoneMetadata.metadata_for_region(region.upper(), None)
    return None if metadata is None else metadata.leading_digits


@functools.cache
def prefix_sizes(code: int) -> list[int]:
    """The lengths of the zone table's prefixes a number of calling code ``code`` can start
    with, longest first."""
    text = str(code)
    return sorted({len(prefix) for prefix in PREFIX_ZONES
                   if prefix.startswith(text) or text.startswith(prefix)}, reverse=True)
