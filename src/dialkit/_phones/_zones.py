"""Where phone numbers are: their region and time zones (local times:
:mod:`dialkit._places._localtime`).

``phonenumbers`` knows the zones of a number by its prefix, once it knows the
number's type: one zone for most numbers, several for a region that spans more
(some US area codes, most of Canada's, Australia's mobiles). A number it knows
no zone for is reported as such, never read as UTC.

Asked number by number, ``phonenumbers`` takes some 40 µs a number: seconds for
an account's 200,000 numbers. So numbers written as the service writes them,
``+`` and digits, are answered a whole column at a time, each step as
``phonenumbers`` takes it: ``parse`` (:mod:`._parse`), ``region_code_for_number``
and ``number_type`` (:mod:`._types`), and ``time_zones_for_number`` (the longest
prefix in its own table). A number written any other way, or one whose national
prefix rule the column parse does not reproduce, is asked of ``phonenumbers``
itself; so every answer is the one it gives, but one: a
number of a NANP area code that spans several zones, of an exchange ``phonenumbers``
does not place, gets every zone of its area code (:data:`._prefixes.PREFIX_ZONES`),
where ``phonenumbers`` gives the area code's one default zone. A call is judged in
each zone of its number and the stricter reading wins, so such a number is not
called at 21:30 in the Eastern part of 423 because it is 20:30 in the Central part.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass
from importlib import resources

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE, PhoneNumberType

from .._arrays._kept import hashed, kept
from .._arrays._texts import groups, lengths, sliced, starts, take
from .._parallel._threads import side_by_side
from .._utils import _tuning
from ._metadata import country_zones
from ._parse import e164_shaped, parse_e164
from ._prefixes import PREFIX_ZONES, prefix_sizes, representatives
from ._types import read_numbers, regions_and_types

UNKNOWN_ZONE = "Etc/Unknown"

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Rows = NDArray[np.intp]

_SETS = tuple(dict.fromkeys([(UNKNOWN_ZONE,), *PREFIX_ZONES.values()]))
"""Every answer ``time_zones_for_number`` can give, by index; 0 is "unknown"."""
_SET_IDS = {zones: n for n, zones in enumerate(_SETS)}
ZONES = tuple(sorted({zone for zones in _SETS for zone in zones if zone != UNKNOWN_ZONE}))
"""Every zone name, by index."""
_ZONE_IDS = {zone: n for n, zone in enumerate(ZONES)}
_SET_ZONES = [[_ZONE_IDS[z] for z in zones if z != UNKNOWN_ZONE] for zones in _SETS]
_SET_NAMES: list[list[str | None]] = [[ZONES[z] for z in zones] or [None] for zones in _SET_ZONES]
_SET_SIZES = np.array([len(zones) for zones in _SET_ZONES])
_SET_STARTS = np.r_[0, np.cumsum(_SET_SIZES)[:-1]]
_SET_FLAT = np.array([zone for zones in _SET_ZONES for zone in zones])


@functools.cache
def _links() -> dict[str, str]:
    """Each zone name tzdata keeps as a link to another zone (``Europe/Guernsey``:
    ``Europe/London``): one clock under two names (``L`` lines of ``tzdata.zi``)."""
    text = resources.files("tzdata").joinpath("zoneinfo", "tzdata.zi").read_text("utf-8")
    return {link: target for _, target, link in
            (line.split()[:3] for line in text.splitlines() if line.startswith("L "))}


def _said(zones: list[int]) -> int:
    """The zone a table names for a number of ``zones``: ``phonenumbers``' first, unless
    they all share one clock and one of them is the zone the others link to (a UK
    mobile's Guernsey, Isle of Man, Jersey and London: London)."""
    clocks = {_links().get(ZONES[zone], ZONES[zone]) for zone in zones}
    if len(clocks) == 1 and (clock := clocks.pop()) in _ZONE_IDS and _ZONE_IDS[clock] in zones:
        return _ZONE_IDS[clock]
    return zones[0] if zones else -1


_SET_FIRST = np.array([_said(zones) for zones in _SET_ZONES])
_SET_CLOCKS = np.array([len({_links().get(ZONES[z], ZONES[z]) for z in zones})
                        for zones in _SET_ZONES])
"""How many clocks each set's zones keep: a UK mobile's four zones are one clock."""
_LONGEST_PREFIX = max(len(prefix) for prefix in PREFIX_ZONES)
_KEY_WIDTH = 16
"""A prefix's key: its digits as an integer times this, plus its length (at most 9)."""
_PREFIX_KEYS = pd.Index([int(prefix) * _KEY_WIDTH + len(prefix) for prefix in PREFIX_ZONES])
_PREFIX_KEY_SETS = np.array([_SET_IDS[zones] for zones in PREFIX_ZONES.values()])


@dataclass(frozen=True)
class Zoned:
    """The zones of a column of numbers: one pair per (row, zone) in row, then
    ``phonenumbers``' order; ``unknown``, the rows of no known zone (or no number)."""

    row: Rows
    zone: Rows
    unknown: Rows


def zoned(phones: pd.Series) -> Zoned:
    """Each row's zones (see :class:`Zoned`), without a join on the numbers' text."""
    sets = zone_sets(phones)
    sizes = _SET_SIZES[sets]
    row = np.repeat(np.arange(len(sets)), sizes)
    offset = np.arange(len(row)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    zone = _SET_FLAT[np.repeat(_SET_STARTS[sets], sizes) + offset]
    return Zoned(row, zone, np.flatnonzero(sizes == 0))


def first_zone(phones: pd.Series, rows: Rows | None = None) -> tuple[Ints, Ints]:
    """Each row's first zone (the one ``phonenumbers`` lists first, or the one zone the
    others name where they share one clock, :func:`_said`: an index into :data:`ZONES`,
    -1 where none is known) and how many clocks its number's zones keep; of the ``rows``
    only, where given. Read per distinct number, then gathered once per row."""
    codes, per_number = _number_sets(phones)
    at = codes if rows is None else codes[rows]  # a null's row (-1) takes the last: none
    return np.r_[_SET_FIRST[per_number], -1][at], np.r_[_SET_CLOCKS[per_number], 0][at]


def zone_sets(phones: pd.Series) -> Ints:
    """Each row's set of zones as an index into ``_SETS`` (0: none known, or no number):
    rows with the same integer have the same zones."""
    codes, per_number = _number_sets(phones)
    found: Ints = np.r_[per_number, 0][codes]  # a null's row (-1) takes the last: none
    return found


def _number_sets(phones: pd.Series) -> tuple[Ints, Ints]:
    """Each row's index into the column's distinct numbers (-1: null), and each distinct
    number's zones as an index into ``_SETS``: asked once per distinct number, and kept
    with the column's hash (:func:`hashed`)."""
    codes, distinct = hashed(phones)
    return codes, kept("zone sets", distinct, lambda: _zone_sets(distinct))


def zones_of(phones: pd.Series) -> pd.DataFrame:
    """One row per (distinct phone, zone): ``phone``, ``zone`` (``None`` when unknown)."""
    distinct = hashed(phones)[1]
    sets = _zone_sets(distinct).tolist()
    rows = [(phone, zone) for phone, found in zip(distinct.to_pylist(), sets, strict=True)
            for zone in _SET_NAMES[found]]
    return pd.DataFrame(rows, columns=["phone", "zone"])


def regions_among(phones: pd.Series, regions: Collection[str]) -> tuple[Rows, pd.Series]:
    """The rows of ``phones`` whose number's region (``region_code_for_number``) is one of
    ``regions``; and those numbers, with their region. Asked of the column's distinct
    numbers and kept with them (:func:`kept`; 25 ms of 185,000 numbers, which an audit
    asks again), then looked up by each row's hash."""
    wanted = frozenset(regions)
    rows, texts = hashed(phones)
    at, numbers = kept("regions " + ",".join(sorted(wanted)), texts,
                       lambda: _regions_among(texts, wanted))
    hit = np.zeros(len(texts) + 1, bool)  # a null's row (-1) takes the last: none
    hit[at] = True
    return np.flatnonzero(hit[rows]), numbers


def _regions_among(texts: pa.Array, wanted: frozenset[str]) -> tuple[Rows, pd.Series]:
    """Which of the distinct ``texts`` are numbers of the ``wanted`` regions, and those
    numbers with their region. Of the numbers written as E.164, only those that start with
    one of those regions' calling codes are looked at."""
    codes = [cc for cc, names in COUNTRY_CODE_TO_REGION_CODE.items() if wanted & set(names)]
    maybe = ~e164_shaped(texts)
    for cc in codes:
        maybe |= starts(texts, f"+{cc}")
    candidates = np.flatnonzero(maybe)
    distinct = take(texts, candidates)
    found = read_numbers(distinct)[0]
    among = np.isin(found, list(wanted))
    numbers = pd.Series(found[among], index=take(distinct, np.flatnonzero(among)).to_pylist(),
                        dtype=object)
    return candidates[among], numbers


def _zone_sets(texts: pa.Array) -> Ints:
    """``time_zones_for_number(parse(text))`` of each text, as an index into ``_SETS``
    (0 where ``parse`` raises). Many texts are parsed in two halves side by side (Arrow's
    kernels release the GIL), then asked once per group of numbers decided alike: 41.5
    against 49.8 ms of CPU for 183,000 numbers (25 rounds interleaved, the other core
    busy), where each half was asked apart, its groups found again."""
    sets = np.zeros(len(texts), np.int64)
    parsed, code, nsn, slow = _parsed(texts)
    sets[parsed] = _decided_sets(code, nsn)
    _, kind, code, nsn = read_numbers(take(texts, slow))  # asked of phonenumbers itself
    sets[slow] = _zones_by_type(code, nsn, kind)
    return sets


def _parsed(texts: pa.Array) -> tuple[Rows, Ints, pa.Array, Rows]:
    """:func:`parse_e164` of many texts in two halves side by side, the halves' rows joined."""
    if len(texts) < 2 * _tuning.ZONE_PART_TEXTS:
        return parse_e164(texts)
    half = len(texts) // 2
    (rows, code, nsn, slow), (more, other, rest, later) = side_by_side(
        parse_e164, [texts[:half], texts[half:]])
    return (np.r_[rows, more + half], np.r_[code, other], pa.concat_arrays([nsn, rest]),
            np.r_[slow, later + half])


def _decided_sets(code: Ints, nsn: pa.Array) -> Ints:
    """The zones of parsed numbers (their calling codes and national numbers), each number
    answered as the one its leading digits decide alike (:func:`representatives`): 13,000
    numbers asked for 183,000 of an account."""
    chosen, group = representatives(code, nsn)
    code, nsn = code[chosen], take(nsn, chosen)
    return _zones_by_type(code, nsn, regions_and_types(code, nsn)[1])[group]


def _zones_by_type(code: Ints, nsn: pa.Array, kind: Ints) -> Ints:
    """``time_zones_for_number`` given each number's type: none for an unknown type, the
    calling code's for a type not geographical there, else by the number's prefix (in
    :data:`PREFIX_ZONES`: every zone of a split NANP area code)."""
    sets = np.zeros(len(code), np.int64)
    for pair, rows in groups(code * 1000 + kind, kind != PhoneNumberType.UNKNOWN):
        cc, type_ = divmod(pair, 1000)
        if phonenumbers.is_number_type_geographical(type_, cc):
            sets[rows] = _by_prefix(take(nsn, rows), cc)
        else:
            sets[rows] = _country_zones(cc)
    return sets


@functools.cache
def _country_zones(code: int) -> int:
    """The zones of a calling code, as ``time_zones_for_number`` gives a number of it
    whose type is not geographical."""
    return _SET_IDS[country_zones(code)]


def _by_prefix(nsn: pa.Array, code: int) -> Ints:
    """``time_zones_for_geographical_number``: the zones of the longest prefix of each
    number (calling code and national number) in ``phonenumbers``' table, looked up as
    integers: a prefix and its length are one key (a text's slice shorter than the
    prefix sought is the whole text, as ``str`` slices it)."""
    room = _LONGEST_PREFIX - len(str(code))  # no prefix is longer: the rest is never read
    head_nsn = sliced(nsn, 0, room)
    digits = np.asarray(pc.cast(head_nsn, pa.int64()))
    size = lengths(head_nsn) + len(str(code))
    head = code * 10 ** (size - len(str(code))) + digits
    sets = np.zeros(len(nsn), np.int64)
    found = _prefix_table(code)
    if found is None:
        left = np.arange(len(nsn))
    else:  # a number of ``width`` digits or more: its first ones are its table's index
        width, table = found
        long = size - len(str(code)) >= width
        sets[long] = table[digits[long] // 10 ** (size[long] - len(str(code)) - width)]
        left = np.flatnonzero(~long)
    for wanted in prefix_sizes(code):
        taken = np.minimum(size[left], wanted)
        key = head[left] // 10 ** (size[left] - taken) * _KEY_WIDTH + taken
        at = _PREFIX_KEYS.get_indexer(key)
        hit = at >= 0
        sets[left[hit]] = _PREFIX_KEY_SETS[at[hit]]
        left = left[~hit]
    return sets


@functools.cache
def _prefix_table(code: int) -> tuple[int, NDArray[np.int16]] | None:
    """For calling code ``code``: ``width``, the national digits its longest prefix in the
    table reads, and by those digits of a national number, the zones (an index into
    ``_SETS``) of its longest prefix: one array lookup a number instead of one hash
    lookup per prefix length (five for +1). None where the array would take more than a
    million entries (a prefix over six digits after the calling code); two bytes an
    entry (``_SETS`` holds a few hundred answers)."""
    text = str(code)
    width = max([0, *(size - len(text) for size in prefix_sizes(code))])
    if width > 6:
        return None
    table = np.zeros(10**width, np.int16)
    for prefix, zones in sorted(PREFIX_ZONES.items(), key=lambda item: len(item[0])):
        if text.startswith(prefix):  # every number of the code: the longer ones overwrite
            table[:] = _SET_IDS[zones]
        elif prefix.startswith(text):
            start, scale = int(prefix[len(text):]), 10 ** (width - len(prefix) + len(text))
            table[start * scale:(start + 1) * scale] = _SET_IDS[zones]
    return width, table
