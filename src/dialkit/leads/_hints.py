"""Hints for numbers refused under the default region but valid under another.

A US file that holds a few British numbers written nationally (``020 7946 0958``)
refuses them as ``invalid_phone``, which is true but not helpful: the file itself
often says where they are from, by its other rows' numbers or its ``country``
column. A refused number that is valid under exactly one of the file's ten
commonest regions gets a hint naming that region and how to read it so; one
shorter than the default region's full numbers is taken for an incomplete
number of that region and gets none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc

from .._bools import arrow_bools
from ._normalize import normalize, region_of

HINT_REGIONS = 10
"""The file's commonest regions a refused number is tried under."""

_INTERNATIONAL = r"^\s*\+"
"""A cell written with its calling code: read so under every region, so none can
change its refusal, and it is not tried again."""


def region_hints(cells: pd.Series, numbers: pd.DataFrame, region: str,
                 regions: Callable[[], list[str]]) -> tuple[pa.Array | None, dict[str, int]]:
    """Per row, a hint for a refused number valid in exactly one of the file's commonest
    regions (null elsewhere), and the rows hinted per region.

    ``regions`` gives the file's commonest regions (:func:`hint_regions`), asked
    only when a number is refused: a streamed file's chunks are given the whole
    file's. Each distinct refused text a region could change (as long as a full
    number of ``region``, not written with its calling code) is normalised once
    under every candidate region, in one call with each copy's region as its country.
    """
    refused = ((numbers["reason"] == "invalid_phone")
               & ~numbers["flags"].fillna("").str.contains("excel_scientific", regex=False)
               ).fillna(False).to_numpy(dtype=bool)
    candidates = regions() if refused.any() else []
    if not candidates:
        return None, {}
    rows = np.flatnonzero(refused)
    codes, distinct = pd.factorize(cells.iloc[rows].to_numpy(dtype=object))
    texts = pa.array(distinct, pa.string())
    tried = np.flatnonzero(_complete(texts, region) & ~_international(texts))
    place = np.full(len(distinct) + 1, -1, np.int64)  # distinct text -> place in tried
    place[tried] = np.arange(len(tried))
    codes = place[codes]  # a missing cell's -1 stays -1
    e164 = _tried(texts.take(pa.array(tried)), region, candidates)
    found = e164.notna().to_numpy(dtype=bool).reshape(len(candidates), len(tried))
    single = found.sum(axis=0) == 1
    if not single.any():
        return None, {}
    where = found.argmax(axis=0)
    valid = e164.to_numpy(dtype=object).reshape(len(candidates), len(tried))
    said = [f"valid as a {candidates[where[n]]} number ({valid[where[n], n]}): pass "
            f"region='{candidates[where[n]]}' or a country" if single[n] else None
            for n in range(len(tried))]
    hinted = (codes >= 0) & single[codes]
    positions = np.full(len(cells), -1, np.int64)
    positions[rows[hinted]] = codes[hinted]
    hints = pa.array(said, pa.string()).take(pa.array(positions, mask=positions < 0))
    counts = Counter(candidates[where[code]] for code in codes[hinted].tolist())
    return hints, dict(counts.most_common())


def _tried(texts: pa.Array, region: str, candidates: list[str]) -> pd.Series:
    """``phone_e164`` of every text under each candidate region, region after region."""
    copies = pa.concat_arrays([texts] * len(candidates))
    regions = np.repeat(np.array(candidates, dtype=object), len(texts))
    return normalize(pd.Series(pd.arrays.ArrowStringArray(copies)), region=region,
                     country=pd.Series(regions, dtype=object))["phone_e164"]


def hint_note(region: str, rows: int) -> str:
    """The summary's sentence for the rows hinted to one region."""
    return (f"{rows} {'row looks like a' if rows == 1 else 'rows look like'} {region} "
            f"number{'s' if rows != 1 else ''}: pass region='{region}' or a country column")


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
