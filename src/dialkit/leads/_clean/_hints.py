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
numbers (``ambiguous_phone``), get a hint that says so and what to write; a Brazilian
mobile written as before it gained its ninth digit, the mobile it reads as with it,
never read so without the user's say.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._arrays._bools import arrow_bools
from dialkit._phones._metadata import national_lengths
from dialkit._places._areas import area_states
from dialkit._places._country_names import unread_said
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
                 regions: Callable[[], list[str]], countries: pd.Series | None = None,
                 seen: dict[str, Reading | None] | None = None
                 ) -> tuple[pa.Array | None, dict[str, int]]:
    """Per row, a hint (null where none), and the rows hinted by :func:`hint_key`.

    A refused number valid in exactly one of the file's commonest regions (``regions``,
    :func:`hint_regions`, asked only when a number is refused: a streamed file's
    chunks are given the whole file's) is hinted, each distinct refused text a region
    could change (as long as a full number of ``region``, not written with its calling
    code) normalised under the candidate regions that can tell (:class:`_Tried`), a
    text met in an earlier chunk of the file not again (``seen``: each text's reading,
    kept for the next chunk, :data:`SEEN_TEXTS` at most). With the file's ``countries``
    (each row's country cell), only rows whose cell is blank are tried, and their hint
    says to fill it; a row whose cell names no country, and an ``ambiguous_phone`` row,
    get their own hint.
    """
    hints = pa.nulls(len(cells), pa.string())
    hints, keys = _region_said(hints, cells, numbers, region, regions, countries,
                               {} if seen is None else seen)
    hints = _own_said(hints, cells, numbers, region, countries)
    return (None if hints.null_count == len(hints) else hints), ranked(keys)


def _region_said(hints: pa.Array, cells: pd.Series, numbers: pd.DataFrame, region: str,
                 regions: Callable[[], list[str]], countries: pd.Series | None,
                 seen: dict[str, Reading | None]) -> tuple[pa.Array, Counter[str]]:
    """``hints`` with the region hints of :func:`region_hints`, and the hinted rows by key."""
    refused = (arrow_bools(pc.equal(text_array(numbers["reason"]), "invalid_phone"))
               & ~arrow_bools(pc.match_substring(text_array(numbers["flags"]), "excel_scientific")))
    if countries is not None:
        refused &= _blank(countries)
    candidates = regions() if refused.any() else []
    if not candidates:
        return hints, Counter()
    rows = np.flatnonzero(refused)
    codes, texts = _distinct(text_array(cells).take(pa.array(rows)))
    tried = np.flatnonzero(_complete(texts, region) & ~_international(texts))
    found = _readings(texts.take(pa.array(tried)), region, candidates, seen)
    readings = [reading for reading in found if reading is not None]
    read = np.flatnonzero(np.array([reading is not None for reading in found], bool))
    place = np.full(len(texts) + 1, -1, np.int64)  # distinct text -> its reading's place
    place[tried[read]] = np.arange(len(read))
    codes = place[codes]  # a missing cell's -1 takes the last: -1
    hinted = codes >= 0
    if not hinted.any():
        return hints, Counter()
    column = None if countries is None else str(countries.name)
    said = pa.array([reading.hint(column) for reading in readings], pa.string())
    keys: Counter[str] = Counter()
    for reading, count in zip(readings, np.bincount(codes[hinted], minlength=len(read)).tolist(),
                              strict=True):
        keys[hint_key(reading.named, column)] += count
    return put_at(hints, rows[hinted], said.take(pa.array(codes[hinted]))), +keys


def _readings(texts: pa.Array, region: str, candidates: list[str],
              seen: dict[str, Reading | None]) -> list[Reading | None]:
    """:func:`_found` of each text, those ``seen`` before taken from it, the others added."""
    written: list[str] = texts.to_pylist()
    new = [n for n, text in enumerate(written) if text not in seen]
    read = dict(zip(new, _found(_Tried.of(texts.take(pa.array(new, pa.int64())), region,
                                          candidates)), strict=True))
    seen.update((written[n], read[n]) for n in new[:max(SEEN_TEXTS - len(seen), 0)])
    return [read[n] if n in read else seen[text] for n, text in enumerate(written)]


READ_ROWS = 100_000
"""Most rows one call of :func:`normalize` reads for the hints (copies of the texts, one
per region): a call's fixed cost (3-5 ms) is paid once for many regions where the texts
are few, and a column this short is read on one thread (``_tuning.PHONE_THREAD_ROWS``),
where threads would cost CPU; where they are many, a few regions a call, and the texts
two regions read as two numbers are not read again."""
SEEN_TEXTS = 100_000
"""Refused texts whose readings a file's chunks keep for the next (a few hundred bytes each):
lead files repeat numbers, and the foreign numbers written nationally recur chunk after
chunk."""


def text_array(column: pd.Series) -> pa.Array:
    """A column of text (or nulls) as one Arrow array of text."""
    values = pa.array(column.array, from_pandas=True)
    values = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    text = pa.types.is_string(values.type) or pa.types.is_large_string(values.type)
    return values if text else pc.cast(values, pa.string())


def _distinct(texts: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Each text's place among the distinct ones (-1: null), and those, as first met."""
    encoded = pc.dictionary_encode(pc.cast(texts, pa.string()))
    return (pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False).astype(np.int64),
            encoded.dictionary)


def _own_said(hints: pa.Array, cells: pd.Series, numbers: pd.DataFrame, region: str,
              countries: pd.Series | None) -> pa.Array:
    """``hints`` with those of the rows refused ``unknown_country`` (what the cell says)
    and ``ambiguous_phone`` (both numbers its digits read as), each made once per
    distinct cell (and country)."""
    reason = numbers["reason"]
    column = None if countries is None else str(countries.name)
    for refusal in ("unknown_country", "ambiguous_phone"):
        rows = np.flatnonzero((reason == refusal).fillna(False).to_numpy(dtype=bool))
        if not len(rows):
            continue
        phone = cells.iloc[rows].astype(object).tolist()
        country = ([None] * len(rows) if countries is None
                   else countries.iloc[rows].astype(object).tolist())
        keys = list(dict.fromkeys(zip(phone, country, strict=True)))
        said = ([_unknown_said(column or "country", cell) for _, cell in keys]
                if refusal == "unknown_country" else _ambiguous_said(keys, region))
        made = dict(zip(keys, said, strict=True))
        hints = put_at(hints, rows, pa.array([made[key] for key in zip(phone, country,
                                                                    strict=True)], pa.string()))
    return hints


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
    texts = pa.array(cells.iloc[rows], pa.string())
    if region != "BR":  # of another region, only a cell written with +55 can be one,
        # or one whose country cell may name Brazil: the others are not read (RE2 over
        # every refused cell of a 1,000,000-row US file took 0.13 CPU s, this 0.06)
        maybe = arrow_bools(pc.match_substring(texts, "+"))
        if countries is not None:
            maybe |= ~_blank(countries.iloc[rows])
        rows, texts = rows[maybe], texts.filter(pa.array(maybe))
    digits = pc.replace_substring_regex(texts, _NOT_DIGIT, "")
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


def put_at(hints: pa.Array, rows: np.ndarray, said: pa.Array) -> pa.Array:
    """``hints`` with ``said`` at ``rows`` (sorted)."""
    positions = np.full(len(hints), -1, np.int64)
    positions[rows] = np.arange(len(rows))
    return pc.coalesce(said.take(pa.array(positions, mask=positions < 0)), hints)


def _blank(countries: pd.Series) -> np.ndarray:
    """Which country cells are blank (missing, empty or spaces): read in the file's region."""
    text = countries.astype("string[pyarrow]").str.strip()
    blank: np.ndarray = (text.isna() | (text == "")).to_numpy(dtype=bool)
    return blank


def _unknown_said(column: str, cell: object) -> str:
    text = str(cell).strip()
    why = unread_said(text)  # a territory with no plan of its own, a name two share
    return (f"the row's {column} says {text!r}: {why}" if why else
            f"the row's {column} says {text!r}, which names no country the clean can "
            "read: write its ISO code (such as 'DE') or its name")


def _ambiguous_said(keys: list[tuple[object, object]], region: str) -> list[str]:
    """The hint of each ``ambiguous_phone`` (cell, country cell), its numbers read in the
    country cell's region (else ``region``)."""
    regions = [region_of(country) or region for _, country in keys]
    readings = ambiguous_readings([str(cell) for cell, _ in keys], regions)
    return [f"the digits read as more than one valid {each} number: "
            f"{'; '.join(f'{number} {how}' for number, how in read)}; write the number with + "
            "and its country code" for read, each in zip(readings, regions, strict=True)]


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
        kind = "non-geographic" if self.region == "001" else self.region  # +800, +882
        found = f"a valid {kind} number{self._state()}, {self.e164}" + (
            "" if self.named == self.region else f", read in {self.named}")
        if column is None:
            return f"{found}: write it as {self.e164}, or name {self.named} in a country column"
        return (f"the row's {column} is blank; the number is {found}: fill that cell with "
                f"{self.named}, or write it as {self.e164}")

    def _state(self) -> str:
        state = us_state(self.e164) if self.region == "US" else None
        return "" if state is None else f" in {state}"


def _found(tried: _Tried) -> list[Reading | None]:
    """Per text tried, its reading where the candidates that read it find one number (a
    NANP number read alike under US and CA is one answer); ``None`` where none does, or
    two candidates find two numbers."""
    number, own = tried.number, tried.own  # a row per group, as the candidates come
    if not len(number):  # every candidate reads as the file's region does
        return [None] * number.shape[1]
    first = (number > 0).argmax(axis=0)
    columns = np.arange(number.shape[1])
    one = ((number > 0).any(axis=0) & ~_two_numbers(number)).tolist()
    readings: list[Reading | None] = [None] * len(one)
    for n, at, e164, region in zip(columns.tolist(), first.tolist(),
                                   number[first, columns].tolist(),
                                   own[first, columns].tolist(), strict=True):
        if one[n]:
            named, read_in = _OWN[region], tried.candidates[tried.groups[at][0]]
            shared = _calling_code(named) == _calling_code(read_in)
            readings[n] = Reading(named if shared else read_in, f"+{e164}", named)
    return readings


@functools.cache
def _calling_code(region: str) -> int:
    return phonenumbers.country_code_for_region(region)


_OWN = ("", "001", *sorted(phonenumbers.SUPPORTED_REGIONS))
"""The regions a valid number can be of (``001``: of a calling code of no region, as +800),
by the codes :class:`_Tried` keeps (0: none)."""
_PLACES = {name: place for place, name in enumerate(_OWN)}


@dataclass(frozen=True)
class _Tried:
    """The texts read under the candidate regions, a group of regions that read texts
    alike at a time (``groups``: their places among the ``candidates``): each text's
    number (its E.164 digits as an integer, 0 where none or where the group did not read
    the text, two others having found it two numbers) and the number's own region (its
    place in :data:`_OWN`), a row per group."""

    candidates: list[str]
    groups: list[list[int]]
    number: np.ndarray
    own: np.ndarray

    @classmethod
    def of(cls, texts: pa.Array, region: str, candidates: list[str]) -> _Tried:
        """:func:`normalize` of the texts under each candidate, and only where it can tell:
        a candidate that reads every text as ``region`` does (:func:`_parses_alike`) finds
        none (each text was refused there), and candidates that read texts alike read
        them once for all of them; a text two candidates read as two numbers is
        ambiguous. The texts are read under as many groups at a time as :data:`READ_ROWS`
        allows, the texts found ambiguous left out of the next call."""
        groups = _alike(candidates, region)
        number = np.zeros((len(groups), len(texts)), np.int64)
        own = np.zeros((len(groups), len(texts)), np.int64)
        ambiguous = np.zeros(len(texts), bool)
        wave = list(range(len(groups)))
        while wave and not ambiguous.all():
            rows = np.flatnonzero(~ambiguous)
            size = max(READ_ROWS // len(rows), 1)
            batch, wave = wave[:size], wave[size:]
            at = np.ix_(np.array(batch, np.int64), rows)
            number[at], own[at] = _read(texts.take(pa.array(rows)),
                                        [candidates[groups[g][0]] for g in batch], region)
            ambiguous |= _two_numbers(number)
        return cls(candidates, groups, number, own)


def _read(texts: pa.Array, regions: list[str], region: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`normalize` of ``texts`` under each of ``regions``, in one call (a copy of them
    each, with its region as its country): each one's number and its own region, as
    :class:`_Tried` keeps them, a row per region."""
    copies = pa.array(np.tile(np.arange(len(texts)), len(regions)))
    country = pa.array(regions, pa.string()).take(
        pa.array(np.repeat(np.arange(len(regions)), len(texts))))
    read = normalize(pd.Series(pd.arrays.ArrowStringArray(texts.take(copies))), region=region,
                     country=pd.Series(pd.arrays.ArrowStringArray(country)))
    e164 = text_array(read["phone_e164"])
    number = pc.fill_null(pc.cast(pc.utf8_slice_codeunits(e164, 1), pa.int64()), 0)
    codes = pc.dictionary_encode(text_array(read["country"]))
    places = np.array([_PLACES[name] for name in codes.dictionary.to_pylist()] + [0], np.int64)
    own = places[pc.fill_null(codes.indices, -1).to_numpy(zero_copy_only=False)]
    shape = (len(regions), len(texts))
    return number.to_numpy(zero_copy_only=False).reshape(shape), own.reshape(shape)


def _two_numbers(number: np.ndarray) -> np.ndarray:
    """Which texts (columns) were read as two numbers by the groups (rows) that read one."""
    first = number[(number > 0).argmax(axis=0), np.arange(number.shape[1])]
    found: np.ndarray = ((number > 0) & (number != first)).any(axis=0)
    return found


def _alike(candidates: list[str], region: str) -> list[list[int]]:
    """The candidates' places, in groups that read every text alike (:func:`_parses_alike`),
    in the candidates' order; none alike ``region``."""
    groups: list[list[int]] = []
    for place, name in enumerate(candidates):
        if _parses_alike(name, region):
            continue
        group = next((g for g in groups if _parses_alike(candidates[g[0]], name)), None)
        if group is None:
            groups.append([place])
        else:
            group.append(place)
    return groups


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
    shown = [f"{value!r} ({counted(rows, 'row')}{_why(value)})" for value, rows in
             sorted(values.items(), key=lambda item: (-item[1], item[0]))[:UNKNOWN_SHOWN]]
    more = len(values) - len(shown)
    rows = sum(values.values())
    return (f"{counted(rows, 'row')}: {'its' if rows == 1 else 'their'} {column} names no "
            f"country the clean can read: {', '.join(shown)}"
            f"{f' and {more} more' if more else ''} (a number written with + and its country "
            "code is read as written, any other refused unknown_country); write each as an "
            "ISO 3166 code (such as 'DE') or a country's name, then clean again")


def _why(value: str) -> str:
    """Why a cell names no region, where it names a place (a territory with no plan of its
    own, a name two countries share), after a colon."""
    why = unread_said(value)
    return f": {why}" if why else ""


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
    candidates = [name for name in candidates if not _parses_alike(name, region)]
    if not candidates:
        return set()
    e164 = text_array(numbers["phone_e164"])
    valid = arrow_bools(e164.is_valid())
    if not valid.any():
        return set()
    if (arrow_bools(pc.match_substring(text_array(numbers["flags"]), "from_")) & valid).any():
        return set(candidates)
    rows, texts = np.flatnonzero(valid), text_array(cells)
    changing: set[str] = set()
    for part in (rows[:SAMPLE], rows[SAMPLE:]):  # a sample first, then the rest
        left = [name for name in candidates if name not in changing]
        if not left:
            break
        pairs = _national(texts.take(pa.array(part)), e164.take(pa.array(part)))
        changing.update(name for name in left if _changes(pairs, name))
    return changing


def _national(cells: pa.Array, e164: pa.Array) -> tuple[pa.Array, pa.Array]:
    """The distinct ``cells`` not written with their calling code, each with its number."""
    national = ~_international(cells)
    codes, _ = _distinct(cells.filter(pa.array(national)))
    _, first = np.unique(codes, return_index=True)
    at = pa.array(np.flatnonzero(national)[first])
    return cells.take(at), e164.take(at)


def _parses_alike(first: str, second: str) -> bool:
    """Whether ``phonenumbers`` reads every text alike in two regions: one calling code,
    international and national prefixes (the clean's own ``00`` rule is the NANP's, one
    calling code too). A number's validity is its own region's, whichever read it."""
    one, two = (phonenumbers.PhoneMetadata.metadata_for_region(name) for name in (first, second))
    fields = ("country_code", "international_prefix", "national_prefix_for_parsing",
              "national_prefix_transform_rule", "national_prefix")
    return one is not None and two is not None and all(
        getattr(one, name) == getattr(two, name) for name in fields)


def _changes(pairs: tuple[pa.Array, pa.Array], region: str) -> bool:
    """Whether one of the cells of ``pairs`` reads as another number (or none) under
    ``region`` than its own."""
    cells, e164 = pairs
    if not len(cells):
        return False
    read = normalize(pd.Series(pd.arrays.ArrowStringArray(cells)), region=region)["phone_e164"]
    return bool(pc.any(pc.fill_null(pc.not_equal(text_array(read), e164), True)).as_py())


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
    shortest = min(national_lengths(region), default=0)
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
