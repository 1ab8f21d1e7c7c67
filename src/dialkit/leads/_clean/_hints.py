"""Hints for numbers refused under the default region but valid under another.

A US file that holds a few British numbers written nationally (``020 7946 0958``)
refuses them as ``invalid_phone``, which is true but not helpful: the file itself
often says where they are from, by its other rows' numbers or its ``country``
column. A refused number that the file's ten commonest regions read as one number
gets a hint naming the region it is a number of (a +1 number valid in the US is
a US number, whichever NANP region read it, and its state is named) and how to
read it so; a row whose country cell named another region gets a hint that
points at that cell. A number shorter than the default region's full numbers is
taken for an incomplete number of that region and gets none.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._arrays._bools import arrow_bools
from dialkit._places._areas import area_states

from .._normalize._columns import normalize, region_of

HINT_REGIONS = 10
"""The file's commonest regions a refused number is tried under."""

_INTERNATIONAL = r"^\s*\+"
"""A cell written with its calling code: read so under every region, so none can
change its refusal, and it is not tried again."""


def region_hints(cells: pd.Series, numbers: pd.DataFrame, region: str,
                 regions: Callable[[], list[str]], countries: pd.Series | None = None
                 ) -> tuple[pa.Array | None, dict[str, int]]:
    """Per row, a hint for a refused number valid in exactly one of the file's commonest
    regions (null elsewhere), and the rows hinted by :func:`hint_key`.

    ``regions`` gives the file's commonest regions (:func:`hint_regions`), asked
    only when a number is refused: a streamed file's chunks are given the whole
    file's. Each distinct refused text a region could change (as long as a full
    number of ``region``, not written with its calling code) is normalised once
    under every candidate region, in one call with each copy's region as its country.
    With the file's ``countries`` (each row's country cell), ``region`` is a candidate
    too (a row whose cell names another region was read in that one), and the hint of a
    row whose cell names a region points at that cell.
    """
    refused = ((numbers["reason"] == "invalid_phone")
               & ~numbers["flags"].fillna("").str.contains("excel_scientific", regex=False)
               ).fillna(False).to_numpy(dtype=bool)
    candidates = regions() if refused.any() else []
    if candidates and countries is not None:
        candidates = [region, *candidates]
    if not candidates:
        return None, {}
    rows = np.flatnonzero(refused)
    codes, distinct = pd.factorize(cells.iloc[rows].to_numpy(dtype=object))
    texts = pa.array(distinct, pa.string())
    tried = np.flatnonzero(_complete(texts, region) & ~_international(texts))
    place = np.full(len(distinct) + 1, -1, np.int64)  # distinct text -> place in tried
    place[tried] = np.arange(len(tried))
    codes = place[codes]  # a missing cell's -1 stays -1
    found = _found(_tried(texts.take(pa.array(tried)), region, candidates), candidates)
    known = np.array([reading is not None for reading in found] + [False], dtype=bool)
    hinted = known[codes]  # a code of -1 takes the last: False
    if not hinted.any():
        return None, {}
    keys, said = _said(found, codes[hinted], None if countries is None else
                       countries.iloc[rows[hinted]])
    positions = np.full(len(cells), -1, np.int64)
    positions[rows[hinted]] = np.arange(int(hinted.sum()))
    hints = pa.array(said, pa.string()).take(pa.array(positions, mask=positions < 0))
    return hints, ranked(Counter(key for key in keys if key is not None))


def ranked(counts: Counter[str]) -> dict[str, int]:
    """Hinted rows by :func:`hint_key`, the commonest first and keys as common by name:
    a file read whole and in chunks counts its keys in another order, and says the same
    notes in the same order."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _said(found: list[Reading | None], codes: np.ndarray, cells: pd.Series | None
          ) -> tuple[list[str | None], list[str | None]]:
    """Each hinted row's :func:`hint_key` and hint (``codes``: its text's reading;
    ``cells``: its country cell), each made once per distinct text, or text and cell."""
    keys = np.array([None if r is None else hint_key(r.named) for r in found], object)
    said = np.array([None if r is None else r.hint() for r in found], object)
    row_keys, row_said = keys[codes], said[codes]
    if cells is not None:
        cell_codes, values = pd.factorize(cells.to_numpy(dtype=object))
        named = [region_of(value) for value in values]
        rows = np.flatnonzero(np.array([r is not None for r in named] + [False])[cell_codes])
        _, first, inverse = np.unique(codes[rows] * len(values) + cell_codes[rows],
                                      return_index=True, return_inverse=True)
        column = str(cells.name)
        made = [_cell_said(found[codes[rows[n]]], column, values[cell_codes[rows[n]]],
                           named[cell_codes[rows[n]]]) for n in first]
        row_keys[rows] = np.array([key for key, _ in made], object)[inverse]
        row_said[rows] = np.array([hint for _, hint in made], object)[inverse]
    return row_keys.tolist(), row_said.tolist()


def _cell_said(reading: Reading | None, column: str, cell: object,
               region: str | None) -> tuple[str | None, str | None]:
    """The key and hint of a row whose country cell names ``region``: none where the
    number is of that region (written with another's exit code, not a wrong cell)."""
    if reading is None or reading.region == region:
        return None, None
    return hint_key(reading.region, column), reading.cell_hint(column, str(cell).strip())


@dataclass(frozen=True)
class Reading:
    """A refused text read as a number of another region: ``named``, the region to read
    it in (the number's own where they share a calling code: a +1 number valid in the US
    is a US number, whichever NANP region read it), the number and its own region."""

    named: str
    e164: str
    region: str

    def hint(self) -> str:
        """The row's hint where the file gave it no country."""
        return (f"valid as a {self.named} number{self._state()} ({self.e164}): pass "
                f"region='{self.named}' or a country")

    def cell_hint(self, column: str, cell: str) -> str:
        """The row's hint where its ``column`` named a region the number is not of."""
        return (f"the row's {column} says {cell}; the number is a {self.region} "
                f"number{self._state()} ({self.e164}): correct the {column} cell")

    def _state(self) -> str:
        state = us_state(self.e164) if self.region == "US" else None
        return "" if state is None else f" in {state}"


def _found(tried: pd.DataFrame, candidates: list[str]) -> list[Reading | None]:
    """Per text tried, its reading where the candidates that read it find one number (a
    NANP number read alike under US and CA is one answer); ``None`` where none does, or
    two candidates find two numbers."""
    width = len(tried) // len(candidates)
    shape = (len(candidates), width)
    e164 = tried["phone_e164"].to_numpy(dtype=object, na_value=None).reshape(shape)
    own = tried["country"].to_numpy(dtype=object).reshape(shape)
    found = tried["phone_e164"].notna().to_numpy(dtype=bool).reshape(shape)
    first = found.argmax(axis=0)
    columns = np.arange(width)
    one = found.any(axis=0) & (~found | (e164 == e164[first, columns])).all(axis=0)
    readings: list[Reading | None] = [None] * width
    for n in np.flatnonzero(one).tolist():
        region, read_in = str(own[first[n], n]), candidates[first[n]]
        shared = (phonenumbers.country_code_for_region(region)
                  == phonenumbers.country_code_for_region(read_in))
        readings[n] = Reading(region if shared else read_in, str(e164[first[n], n]), region)
    return readings


def _tried(texts: pa.Array, region: str, candidates: list[str]) -> pd.DataFrame:
    """:func:`normalize` of every text under each candidate region, region after region."""
    copies = pa.concat_arrays([texts] * len(candidates))
    regions = np.repeat(np.array(candidates, dtype=object), len(texts))
    return normalize(pd.Series(pd.arrays.ArrowStringArray(copies)), region=region,
                     country=pd.Series(regions, dtype=object))


def hint_key(region: str, column: str | None = None) -> str:
    """How :func:`region_hints` counts hinted rows: by the region to read them in
    (``"GB"``), or by their numbers' region and the country column whose cells said
    another (``"US|Country"``)."""
    return region if column is None else f"{region}|{column}"


def hint_note(key: str, rows: int) -> str:
    """The summary's sentence for the rows hinted under one :func:`hint_key`."""
    region, _, column = key.partition("|")
    if column:
        return (f"{rows:,} {'row holds a' if rows == 1 else 'rows hold'} {region} "
                f"number{'s' if rows != 1 else ''} though {'its' if rows == 1 else 'their'} "
                f"{column} names another country: correct {'that' if rows == 1 else 'those'} "
                f"{column} cell{'s' if rows != 1 else ''} (each row's hint names it)")
    return (f"{rows:,} {'row looks like a' if rows == 1 else 'rows look like'} {region} "
            f"number{'s' if rows != 1 else ''}: pass region='{region}' or a country column")


def us_state(e164: str) -> str | None:
    """The US state (its name) of a US number, by its area code; ``None`` for one of no
    state (toll-free, non-geographic)."""
    state = area_states(np.array([int(e164[2:5])]))[0]
    return None if state is None else _state_names().get(state, state)


@functools.cache
def _state_names() -> dict[str, str]:
    """US states' names by postal code, from the ``holidays`` package's subdivisions
    (the area-code table holds the codes alone)."""
    import holidays  # a hint's words only: not at import

    aliases = holidays.country_holidays("US").get_subdivision_aliases()
    return {code: names[0] for code, names in aliases.items()}


def _complete(texts: pa.Array, region: str) -> np.ndarray:
    """Which texts hold as many digits as a full number of ``region`` (``555-0198`` in a
    US file is a US number without its area code, not the German number it also is)."""
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    general = None if metadata is None else metadata.general_desc
    lengths = () if general is None else general.possible_length
    shortest = min((n for n in lengths if n > 0), default=0)
    digits = pc.utf8_length(pc.replace_substring_regex(texts, r"\D", ""))
    return arrow_bools(pc.greater_equal(digits, shortest))


def _international(texts: pa.Array) -> np.ndarray:
    return arrow_bools(pc.match_substring_regex(texts, _INTERNATIONAL))


def region_counts(numbers: pd.DataFrame, countries: pd.Series | None) -> Counter[str]:
    """Rows by region: of their valid numbers, and of their country column."""
    counts: Counter[str] = Counter()
    counts.update({str(k): int(v) for k, v in numbers["country"].value_counts().items()})
    if countries is not None:
        for value, count in countries.value_counts().items():
            found = region_of(value)
            if found is not None:
                counts[found] += int(count)
    return counts


def hint_regions(counts: Counter[str], region: str) -> list[str]:
    """The file's ten commonest regions but ``region``, from :func:`region_counts`; of
    regions as common, the first by code (so that a file read whole and in chunks,
    whose counts arrive in another order, tries the same ones)."""
    ranked = sorted((name for name in counts if name != region),
                    key=lambda name: (-counts[name], name))
    return ranked[:HINT_REGIONS]
