"""Hints for refused rows, and advice that is checked before it is given.

A US file that holds a few British numbers written nationally (``020 7946 0958``)
refuses them as ``invalid_phone``, which is true but not helpful: the file's other
rows often say where they are from. A refused number that the file's ten commonest
regions read as one number gets a hint naming the region it is a number of (a +1
number valid in the US is a US number, whichever NANP region read it, and its state
is named) and a way to read it so that changes no other row: write it with its
calling code, or name its country. Where the file has a country column, only a row
whose country cell is blank is tried: a row whose cell names a country was read in
that country, and its number is never offered as another country's (a wrong number
is worse than a refused one). ``region=`` is advised in the summary only where no
country column is in use and re-reading the file so changes no valid row's number
(:func:`changing_regions`). A number shorter than the default region's full numbers
is taken for an incomplete number of that region and gets none.

A row whose country cell names no country, and a row whose digits read as two
numbers (``ambiguous_phone``), get a hint that says so and what to write.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._arrays._bools import arrow_bools
from dialkit._places._areas import area_states
from dialkit._shown._words import counted

from .._normalize._columns import ambiguous_readings, normalize, region_of

HINT_REGIONS = 10
"""The file's commonest regions a refused number is tried under."""

SAMPLE = 64
"""Valid numbers re-read under a region first, before all of them: a file whose numbers
are written nationally shows a change among the first few."""

_INTERNATIONAL = r"^\s*\+"
"""A cell written with its calling code: read so under every region, so none can
change its refusal, and it is not tried again."""


def region_hints(cells: pd.Series, numbers: pd.DataFrame, region: str,
                 regions: Callable[[], list[str]], countries: pd.Series | None = None
                 ) -> tuple[pa.Array | None, dict[str, int]]:
    """Per row, a hint (null where none), and the rows hinted by :func:`hint_key`.

    A refused number valid in exactly one of the file's commonest regions (``regions``,
    :func:`hint_regions`, asked only when a number is refused: a streamed file's
    chunks are given the whole file's) is hinted, each distinct refused text a region
    could change (as long as a full number of ``region``, not written with its calling
    code) normalised once under every candidate region, in one call with each copy's
    region as its country. With the file's ``countries`` (each row's country cell),
    only rows whose cell is blank are tried, and their hint says to fill it; a row whose
    cell names no country, and an ``ambiguous_phone`` row, get their own hint.
    """
    hints = pa.nulls(len(cells), pa.string())
    hints, keys = _region_said(hints, cells, numbers, region, regions, countries)
    hints = _own_said(hints, cells, numbers, region, countries)
    return (None if hints.null_count == len(hints) else hints), ranked(Counter(keys))


def _region_said(hints: pa.Array, cells: pd.Series, numbers: pd.DataFrame, region: str,
                 regions: Callable[[], list[str]], countries: pd.Series | None
                 ) -> tuple[pa.Array, list[str]]:
    """``hints`` with the region hints of :func:`region_hints`, and each hinted row's key."""
    refused = ((numbers["reason"] == "invalid_phone")
               & ~numbers["flags"].fillna("").str.contains("excel_scientific", regex=False)
               ).fillna(False).to_numpy(dtype=bool)
    if countries is not None:
        refused &= _blank(countries)
    candidates = regions() if refused.any() else []
    if not candidates:
        return hints, []
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
        return hints, []
    column = None if countries is None else str(countries.name)
    keys = np.array([None if r is None else hint_key(r.named, column) for r in found], object)
    said = np.array([None if r is None else r.hint(column) for r in found], object)
    at = rows[hinted]
    return (_put(hints, at, said[codes[hinted]].tolist()),
            keys[codes[hinted]].tolist())


def _own_said(hints: pa.Array, cells: pd.Series, numbers: pd.DataFrame, region: str,
              countries: pd.Series | None) -> pa.Array:
    """``hints`` with those of the rows refused ``unknown_country`` (what the cell says)
    and ``ambiguous_phone`` (both numbers its digits read as), each made once per
    distinct cell (and country)."""
    reason = numbers["reason"]
    for refusal in ("unknown_country", "ambiguous_phone"):
        rows = np.flatnonzero((reason == refusal).fillna(False).to_numpy(dtype=bool))
        if not len(rows):
            continue
        phone = cells.iloc[rows].astype(object).tolist()
        country = ([None] * len(rows) if countries is None
                   else countries.iloc[rows].astype(object).tolist())
        column = None if countries is None else str(countries.name)
        made: dict[tuple[object, object], str] = {}
        for key in zip(phone, country, strict=True):
            if key not in made:
                made[key] = (_unknown_said(column or "country", key[1])
                             if refusal == "unknown_country"
                             else _ambiguous_said(str(key[0]), region_of(key[1]) or region))
        hints = _put(hints, rows, [made[key] for key in zip(phone, country, strict=True)])
    return hints


def _put(hints: pa.Array, rows: np.ndarray, said: list[str | None]) -> pa.Array:
    """``hints`` with ``said`` at ``rows`` (sorted)."""
    positions = np.full(len(hints), -1, np.int64)
    positions[rows] = np.arange(len(rows))
    spread = pa.array(said, pa.string()).take(pa.array(positions, mask=positions < 0))
    return pc.coalesce(spread, hints)


def _blank(countries: pd.Series) -> np.ndarray:
    """Which country cells are blank (missing, empty or spaces): read in the file's region."""
    text = countries.astype("string[pyarrow]").str.strip()
    blank: np.ndarray = (text.isna() | (text == "")).to_numpy(dtype=bool)
    return blank


def _unknown_said(column: str, cell: object) -> str:
    return (f"the row's {column} says {str(cell).strip()!r}, which names no country the "
            "clean can read: write its ISO code (such as 'DE') or its name")


def _ambiguous_said(cell: str, region: str) -> str:
    readings = "; ".join(f"{number} {said}" for number, said in ambiguous_readings(cell, region))
    return (f"the digits read as more than one valid {region} number: {readings}; write the "
            "number with + and its country code")


def ranked(counts: Counter[str]) -> dict[str, int]:
    """Hinted rows by :func:`hint_key`, the commonest first and keys as common by name:
    a file read whole and in chunks counts its keys in another order, and says the same
    notes in the same order."""
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


@dataclass(frozen=True)
class Reading:
    """A refused text read as a number of another region: ``named``, the region to read
    it in (the number's own where they share a calling code: a +1 number valid in the US
    is a US number, whichever NANP region read it), the number and its own region."""

    named: str
    e164: str
    region: str

    def hint(self, column: str | None) -> str:
        """The row's hint: with no country ``column``, write the number with its calling
        code or name its country; with one (the row's cell blank), fill that cell."""
        found = f"a valid {self.region} number{self._state()}, {self.e164}" + (
            "" if self.named == self.region else f", read in {self.named}")
        if column is None:
            return f"{found}: write it as {self.e164}, or name {self.named} in a country column"
        return (f"the row's {column} is blank; the number is {found}: fill that cell with "
                f"{self.named}, or write it as {self.e164}")

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
    (``"GB"``), or, where the file has a country column, by that region and the column
    whose blank cells to fill (``"GB|Country"``)."""
    return region if column is None else f"{region}|{column}"


def hint_note(key: str, rows: int, changing: Collection[str] = ()) -> str:
    """The summary's sentence for the rows hinted under one :func:`hint_key`; ``region=``
    is advised only for a region not among ``changing`` (:func:`changing_regions`)."""
    region, _, column = key.partition("|")
    one = rows == 1
    like = (f"{'looks like a' if one else 'look like'} {region} number{'' if one else 's'}")
    if column:
        return (f"{counted(rows, 'row')} with a blank {column} {like}: fill "
                f"{'its' if one else 'their'} {column} with {region} (each row's hint names "
                "its number)")
    look = f"{counted(rows, 'row')} {like}"
    code = phonenumbers.country_code_for_region(region)
    if region in changing:
        return (f"{look}: write {'it' if one else 'them'} with +{code}, or name each "
                "row's country in a country column (region= would change other rows' "
                "numbers)")
    return (f"{look}: pass region='{region}' (no valid row's number changes), or write "
            f"{'it' if one else 'them'} with +{code}")


def unknown_note(column: str, values: Counter[str]) -> str:
    """The summary's sentence for the country cells not understood, commonest first."""
    shown = [f"{value!r} ({counted(rows, 'row')})" for value, rows in
             sorted(values.items(), key=lambda item: (-item[1], item[0]))[:UNKNOWN_SHOWN]]
    more = len(values) - len(shown)
    rows = sum(values.values())
    return (f"{counted(rows, 'row')} {'was' if rows == 1 else 'were'} not read: "
            f"{'its' if rows == 1 else 'their'} {column} names no country the clean can "
            f"read: {', '.join(shown)}{f' and {more} more' if more else ''}; write each as an "
            "ISO 3166 code (such as 'DE') or a country's name, then clean again")


UNKNOWN_SHOWN = 10
"""Country cells not understood that the summary names, the commonest."""


def changing_regions(cells: pd.Series, numbers: pd.DataFrame, region: str,
                     candidates: Collection[str]) -> set[str]:
    """The ``candidates`` under which re-reading the rows' valid numbers (from ``cells``,
    read in ``region``) changes one: ``region=`` is never advised for those. A region
    that parses as ``region`` does (:func:`_parses_alike`) changes none; a cell written
    with ``+`` reads alike everywhere and is not tried; a number from a fallback column
    cannot be told from its cell here, so a file with one counts every candidate as
    changing."""
    valid = numbers["phone_e164"].notna().to_numpy(dtype=bool)
    candidates = [name for name in candidates if not _parses_alike(name, region)]
    if not candidates or not valid.any():
        return set()
    if numbers["flags"].fillna("").str.contains("from_", regex=False).to_numpy(dtype=bool)[
            valid].any():
        return set(candidates)
    texts = cells.astype("string[pyarrow]")[valid]
    national = ~texts.str.match(_INTERNATIONAL).fillna(False).to_numpy(dtype=bool)
    pairs = pd.DataFrame({"cell": texts[national].to_numpy(),
                          "e164": numbers["phone_e164"][valid][national].to_numpy()}
                         ).drop_duplicates("cell")
    return {name for name in candidates if _changes(pairs, name)}


def _parses_alike(first: str, second: str) -> bool:
    """Whether ``phonenumbers`` reads every text alike in two regions: one calling code,
    international and national prefixes (the clean's own ``00`` rule is the NANP's, one
    calling code too). A number's validity is its own region's, whichever read it."""
    one, two = (phonenumbers.PhoneMetadata.metadata_for_region(name) for name in (first, second))
    fields = ("country_code", "international_prefix", "national_prefix_for_parsing",
              "national_prefix_transform_rule", "national_prefix")
    return one is not None and two is not None and all(
        getattr(one, name) == getattr(two, name) for name in fields)


def _changes(pairs: pd.DataFrame, region: str) -> bool:
    """Whether one of ``pairs``' cells reads as another number (or none) under ``region``:
    a sample first, then the rest."""
    for part in (pairs.iloc[:SAMPLE], pairs.iloc[SAMPLE:]):
        if len(part) and bool((normalize(part["cell"], region=region)["phone_e164"].to_numpy(
                dtype=object, na_value=None) != part["e164"].to_numpy(dtype=object)).any()):
            return True
    return False


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


def region_counts(numbers: pd.DataFrame, countries: pd.Series | None
                  ) -> tuple[Counter[str], Counter[str]]:
    """Rows by region, of their valid numbers and of their country column; and the
    country cells not understood (but blank ones), by their text."""
    counts: Counter[str] = Counter()
    unknown: Counter[str] = Counter()
    counts.update({str(k): int(v) for k, v in numbers["country"].value_counts().items()})
    if countries is not None:
        for value, count in countries.value_counts().items():
            found = region_of(value)
            if found is not None:
                counts[found] += int(count)
            elif str(value).strip():
                unknown[str(value).strip()] += int(count)
    return counts, unknown


def hint_regions(counts: Counter[str], region: str) -> list[str]:
    """The file's ten commonest regions but ``region``, from :func:`region_counts`; of
    regions as common, the first by code (so that a file read whole and in chunks,
    whose counts arrive in another order, tries the same ones)."""
    ranked = sorted((name for name in counts if name != region),
                    key=lambda name: (-counts[name], name))
    return ranked[:HINT_REGIONS]
