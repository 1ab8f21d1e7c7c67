"""A cell of digits read the other ways it can mean: the numbers Excel's digits may be.

A workbook that held ``+49 151 20413050`` as a number shows ``4915120413050.0``; a
column exported without its ``+`` shows ``4915120413050``. ``phonenumbers`` reads
such digits as a national number of the row's country wherever that country's
numbers can be that long (German ones can), and so doubles the calling code
(``+494915120413050``), inventing a number. And a workbook that held Gabon's
``06 03 12 34`` as a number dropped its leading zero, which is part of the number
there: ``6031234.0`` reads as another valid number, ``+2416031234``.

So a cell of digits alone (or Excel's float of them) is read the other ways it may
mean (:data:`READINGS`): as E.164 digits, where they begin with the row's calling code
and fit its lengths after it; as the float of a number whose leading zero Excel
dropped. Where another reading is a valid number and the cell's own is another valid
one, the row is ``ambiguous_phone`` and refused, the numbers named in its hint: never
accepted on a guess. Where the E.164 reading alone is valid, it is the row's
(``calling_code``): digits that begin with the calling code and are no number
written nationally are that number written without its ``+``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from dialkit._arrays._bools import arrow_bools
from dialkit._arrays._texts import groups, lengths, starts
from dialkit._phones._metadata import national_lengths

DIGITS = r"^ *(?P<digits>[0-9]+)(?P<float>\.0+)? *$"
"""A cell of digits alone, or Excel's float of them (``4915120413050.0``)."""


@dataclass(frozen=True, slots=True)
class Other:
    """Another reading of some rows: where they are, the text to read, whether the
    reading is the row's where it alone is valid (``flag``: what the row is flagged),
    and how a hint names it."""

    rows: NDArray[np.intp]
    texts: pa.Array
    flag: str | None
    said: str


def other_readings(texts: pa.Array, regions: NDArray[np.int64],
                   names: Sequence[str]) -> list[Other]:
    """The other readings of the cells of digits of ``texts`` (each row's region
    ``names[regions[row]]``): as E.164 digits, and Excel's floats with their leading zero."""
    rows = np.flatnonzero(arrow_bools(pc.match_substring_regex(texts, DIGITS)))
    if not len(rows):
        return []
    parts = pc.extract_regex(texts.take(pa.array(rows)), DIGITS)
    digits = parts.field("digits")
    floats = np.flatnonzero(arrow_bools(pc.not_equal(parts.field("float"), "")))
    return [Other(*_coded(rows, digits, regions[rows], names), "calling_code",
                  "with its calling code first"),
            Other(rows[floats], pc.binary_join_element_wise(
                "0", digits.take(pa.array(floats)), ""), None,
                  "with the leading 0 a spreadsheet drops from a number")]


def _coded(rows: NDArray[np.intp], digits: pa.Array, regions: NDArray[np.int64],
           names: Sequence[str]) -> tuple[NDArray[np.intp], pa.Array]:
    """The ``rows`` whose ``digits`` begin with their region's calling code and fit its
    lengths after it, and those digits as an E.164 text."""
    size = lengths(digits)
    fits = np.zeros(len(rows), bool)
    for key, where in groups(regions):
        code = str(phonenumbers.country_code_for_region(names[key]))
        fits[where] = (starts(digits.take(pa.array(where)), code)
                       & np.isin(size[where] - len(code), list(national_lengths(names[key]))))
    chosen = np.flatnonzero(fits)
    return rows[chosen], pc.binary_join_element_wise("+", digits.take(pa.array(chosen)), "")
