"""The realistic mix of phone cells every lead benchmark runs on (issue 21), seeded.

Shares of cells (each cell is of one kind; the shares add up to 100 %):

===============  =====  =====================================================
kind             share  what the cell holds
===============  =====  =====================================================
``us``           71 %   a US number in one of eleven national styles: with
                        dashes, spaces, dots, brackets, bare digits, ``+1``
                        and trunk ``1`` (``(415) 555-0123``, ``415.555.0123``,
                        ``+1 415-555-0123``, ``1-415-555-0123`` ...); 3 % of
                        them with an area code and exchange drawn at random
                        (mostly ones no plan has: invalid)
``international`` 20 %  a number of another region, written internationally
                        (``+44 20 7946 0123``, 40 %), as E.164 (20 %) or
                        nationally (``020 7946 0123``, 40 %)
``extension``     3 %   a US (80 %) or international number followed by an
                        extension in a form ``phonenumbers.parse`` reads
                        (`` ext. 45``, `` x45``, `` #45``, ``;ext=45``,
                        ``,,45``, `` extension 45``, `` Ext: 45`` ...)
``excel_float``   2 %   a number as Excel exports a numeric cell:
                        ``4155550123.0``, ``14155550123.0`` or a foreign
                        number's E.164 digits without ``+`` (``442079460123.0``)
``idd``           2 %   a number of another region after an exit code:
                        ``011 44 20 …`` (half) or ``00 44 20 …`` / ``0044…``
``two_numbers``   1 %   two numbers in one cell (``415-555-0123 / 212-555-0187``,
                        ``, ``, ``; ``, `` or ``, `` & ``)
``junk``          1 %   blanks (missing or empty, half) and junk (``n/a``,
                        ``TBD``, ``call back``, a date, a 7-digit number ...)
===============  =====  =====================================================

and then 10 % of the rows repeat an earlier row (phone, country and kind), as
lead files repeat leads.

**Regions and the country column.** A number written nationally only means
something with its region, so each cell comes with a ``country`` cell (ISO
alpha-2) as a lead file with a Country column has it: a foreign number written
nationally, or as Excel digits, always has its region there; one written with
``+`` has it half the time (blank otherwise); a ``00`` cell has it half the time,
an ``011`` cell never (written by US staff); a US cell has ``US`` a third of the
time, blank otherwise. A blank country means the file's default region, ``US``.
The benchmarks pass the column as ``country=`` / ``--country-column Country`` and
the naive path parses each cell with its row's region.

**A file without a Country column** (:func:`no_country_mix`, issue 70): a US file whose
foreign numbers nobody marked, so those written nationally are refused and hinted.

===============  =====  =====================================================
kind             share  what the cell holds
===============  =====  =====================================================
``us``           60 %   a US number in the same eleven styles (3 % invalid)
``foreign``      32 %   a number of one of :data:`NO_COUNTRY_REGIONS` (MX,
                        BR, DE, GB, FR, IN, as many each), written
                        internationally (40 %), as E.164 (20 %) or
                        nationally (40 %: refused in a US file)
``junk``          5 %   junk text (``n/a``, ``TBD``, a date, ``555-0123`` ...)
``blank``         3 %   an empty cell
===============  =====  =====================================================

and 10 % of the rows repeat an earlier row, as above.

**Two phone columns** (:func:`two_phones_mix`, issue 80): ``Phone 1`` of the mix and a
``Phone 2`` of a second draw of it (its own seed), empty in 40 % of the rows, as CRM
exports have a person's second number; the Country column of the first.

**Country names** (:func:`country_names_mix`, issue 80): :func:`iso_country_mix` with each
Country cell written as people write a country (:data:`SPELLINGS`: ``United States``,
``USA``, ``Deutschland``, ``México``, ``UK``, ``भारत``, in any case), none of it ISO
alpha-2.

**A Country column of ISO codes alone** (:func:`iso_country_mix`, issue 70): the mix above
with each blank country cell filled with the region the number is of (``US`` for a US
number, an invalid one or junk), so that every cell is an ISO code.

**The numbers** are not a hand list: the other regions' numbers are
``phonenumbers``' own example numbers (mobile and fixed line) with their last
four digits varied (three if shorter than eight digits; 99.8 % stay valid), of
every region the package supports outside NANP: 70 % of the international cells
from ten regions common in US lead files (``HEAD_REGIONS``, Canada among them),
30 % spread over all the others. US area codes and exchanges are those
``phonenumbers`` finds valid.

Usage::

    from leads_mix import cells, mix, write_leads
    frame = mix(1_000_000)            # columns phone, country, kind
    write_leads(1_000_000, "leads.csv")
    write_leads(1_000_000, "no_country.csv", mix_name="no_country")  # no Country column
    write_leads(1_000_000, "iso.csv", mix_name="iso_country")  # every Country cell a code
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pandas as pd
import phonenumbers

SHARES = {"us": 0.71, "international": 0.20, "extension": 0.03, "excel_float": 0.02,
          "idd": 0.02, "two_numbers": 0.01, "junk": 0.01}
"""The share of cells of each kind (see the module docstring)."""
REPEATS = 0.10
"""The share of rows that repeat an earlier row."""
HEAD_REGIONS = ("CA", "MX", "GB", "IN", "DE", "PH", "FR", "BR", "AU", "ES")
"""Regions 70 % of the international cells come from; the rest from every other region."""
HEAD_SHARE = 0.70
INVALID_US = 0.03
SEED = 21
NO_COUNTRY_SHARES = {"us": 0.60, "foreign": 0.32, "junk": 0.05, "blank": 0.03}
"""The share of cells of each kind of :func:`no_country_mix` (see the module docstring)."""
NO_COUNTRY_REGIONS = ("MX", "BR", "DE", "GB", "FR", "IN")
"""The regions of :func:`no_country_mix`'s foreign numbers, as many of each."""

_US_STYLES = ("({a}) {b}-{c}", "{a}-{b}-{c}", "{a}.{b}.{c}", "{a} {b} {c}", "{a}{b}{c}",
              "+1 {a}-{b}-{c}", "+1 ({a}) {b}-{c}", "+1{a}{b}{c}", "1-{a}-{b}-{c}",
              "1 ({a}) {b}-{c}", "1.{a}.{b}.{c}")
_EXTENSIONS = (" ext. {}", " x{}", " ext {}", " #{}", ";ext={}", ",,{}", " extension {}",
               " Ext: {}", " x. {}")
_JOINS = (" / ", ", ", "; ", " or ", " & ")
_JUNK = ("n/a", "N/A", "none", "-", "unknown", "TBD", "call back", "no phone", "2024-03-15",
         "555-0123", "0", "asdf", "12/05/2023", "see notes", "?")
_TYPES = (phonenumbers.PhoneNumberType.MOBILE, phonenumbers.PhoneNumberType.FIXED_LINE)
_FORMATS = phonenumbers.PhoneNumberFormat
_NANP = 1


def cells(rows: int, seed: int = SEED) -> pd.Series:
    """``rows`` phone cells of the mix (object dtype; ``None`` for a missing cell)."""
    return mix(rows, seed)["phone"]


def mix(rows: int, seed: int = SEED) -> pd.DataFrame:
    """``rows`` rows of the mix: ``phone`` (the cell), ``country`` (ISO alpha-2 or ``""``)
    and ``kind`` (which share of :data:`SHARES` the cell belongs to)."""
    rng = np.random.default_rng(seed)
    kinds = rng.choice(list(SHARES), rows, p=list(SHARES.values()))
    phone = np.empty(rows, dtype=object)
    country = np.full(rows, "", dtype=object)
    for kind, make in _MAKERS.items():
        at = np.flatnonzero(kinds == kind)
        made = make(rng, len(at))
        phone[at], country[at] = made[0], made[1]
    repeat = np.flatnonzero(rng.random(rows) < REPEATS)
    repeat = repeat[repeat > 0]
    source = (rng.random(len(repeat)) * repeat).astype(np.int64)
    phone[repeat], country[repeat], kinds[repeat] = phone[source], country[source], kinds[source]
    return pd.DataFrame({"phone": phone, "country": country, "kind": kinds})


def no_country_mix(rows: int, seed: int = SEED) -> pd.DataFrame:
    """``rows`` rows of a US file without a Country column (the module docstring):
    ``phone`` (the cell) and ``kind`` (which share of :data:`NO_COUNTRY_SHARES`)."""
    rng = np.random.default_rng(seed)
    kinds = rng.choice(list(NO_COUNTRY_SHARES), rows, p=list(NO_COUNTRY_SHARES.values()))
    phone = np.empty(rows, dtype=object)
    for kind, make in _NO_COUNTRY_MAKERS.items():
        at = np.flatnonzero(kinds == kind)
        phone[at] = make(rng, len(at))
    repeat = np.flatnonzero(rng.random(rows) < REPEATS)
    repeat = repeat[repeat > 0]
    source = (rng.random(len(repeat)) * repeat).astype(np.int64)
    phone[repeat], kinds[repeat] = phone[source], kinds[source]
    return pd.DataFrame({"phone": phone, "kind": kinds})


def iso_country_mix(rows: int, seed: int = SEED) -> pd.DataFrame:
    """:func:`mix` with each blank country cell filled with its number's region (``US``
    where the number is a US one, invalid, or none): a Country column of ISO codes alone."""
    frame = mix(rows, seed)
    blank = frame["country"] == ""
    foreign = blank & ~frame["kind"].isin(["us", "two_numbers", "junk"])
    regions = {cell: _region_of(cell) for cell in frame.loc[foreign, "phone"].unique()}
    frame.loc[blank, "country"] = "US"
    frame.loc[foreign, "country"] = frame.loc[foreign, "phone"].map(regions)
    return frame


def _region_of(cell: str) -> str:
    """The region of the number ``cell`` holds, read as a US file reads it (``US``
    where it holds no valid number)."""
    try:
        number = phonenumbers.parse(cell, "US")
    except phonenumbers.NumberParseException:
        return "US"
    region = phonenumbers.region_code_for_number(number)
    return region if phonenumbers.is_valid_number(number) and region else "US"


def write_leads(rows: int, path: str | Path, seed: int = SEED, *,
                mix_name: str = "leads") -> pd.DataFrame:
    """A lead CSV of ``rows`` rows of the mix (``mix_name``, one of :data:`MIXES`) at
    ``path``: ``Lead ID``, ``First Name``, ``Last Name``, ``Email``, ``Phone`` (``Phone
    1`` and ``Phone 2`` in ``two_phones``), ``Country`` (not in ``no_country``),
    ``Source``; returns the mix."""
    frame = MIXES[mix_name](rows, seed)
    lead_rows(frame, seed).to_csv(path, index=False)
    return frame


def stream_leads(rows: int, path: str | Path, *, chunk: int = 1_000_000,
                 seed: int = SEED, mix_name: str = "leads") -> None:
    """A lead CSV of ``rows`` rows at ``path`` written ``chunk`` rows at a time, each
    chunk a mix (``mix_name``) of its own seed (its repeats within itself), so that a
    file of any size is made in the memory of one chunk."""
    with open(path, "w", encoding="utf-8", newline="") as file:
        for first in range(0, rows, chunk):
            size = min(chunk, rows - first)
            lead_rows(MIXES[mix_name](size, seed + first), seed + first,
                      first_id=first).to_csv(file, index=False, header=first == 0)


def lead_rows(frame: pd.DataFrame, seed: int, *, first_id: int = 0) -> pd.DataFrame:
    """The columns of a lead file around the mix's ``frame``: ids from ``first_id``,
    names, emails, the phone and country cells (none where ``frame`` has no
    ``country``), a source."""
    rows = len(frame)
    rng = np.random.default_rng(seed + 1)
    first = rng.choice(["Ada", "Grace", "Alan", "Zoë", "José", "Chloé", "Wei", "Priya"], rows)
    last = rng.choice(["Lovelace", "Hopper", "Turing", "Müller", "García", "Nguyen"], rows)
    ids = "L" + pd.Series(np.arange(first_id, first_id + rows).astype(str))
    email = (pd.Series(first).str.lower() + "." + pd.Series(last).str.lower() + ids
             + "@example.com")
    phone = frame["phone"].where(frame["phone"].notna(), "")
    phones = ({"Phone 1": phone, "Phone 2": frame["phone_2"].where(frame["phone_2"].notna(), "")}
              if "phone_2" in frame else {"Phone": phone})
    country = {"Country": frame["country"]} if "country" in frame else {}
    return pd.DataFrame({"Lead ID": ids, "First Name": first, "Last Name": last,
                         "Email": email, **phones, **country,
                         "Source": rng.choice(["web", "partner", "event"], rows)})


def _us(rng: np.random.Generator, count: int, *, styles: int = len(_US_STYLES)) -> list[str]:
    """US numbers in the first ``styles`` of ``_US_STYLES``."""
    digits = _us_digits(rng, count)
    picked = rng.integers(0, styles, count).tolist()
    return [_US_STYLES[s].format(a=d[:3], b=d[3:6], c=d[6:])
            for d, s in zip(digits, picked, strict=True)]


def _us_digits(rng: np.random.Generator, count: int) -> list[str]:
    """Ten-digit US numbers, :data:`INVALID_US` of them with a random area code and exchange."""
    prefixes = _us_prefixes()
    picked = prefixes[rng.integers(0, len(prefixes), count)]
    wrong = rng.random(count) < INVALID_US
    picked[wrong] = rng.integers(200_000, 1_000_000, int(wrong.sum()))
    lines = rng.integers(0, 10_000, count)
    return [f"{p}{line:04d}" for p, line in zip(picked.tolist(), lines.tolist(), strict=True)]


@functools.cache
def _us_prefixes() -> np.ndarray:
    """Area code and exchange pairs ``phonenumbers`` finds valid (with line 0123)."""
    rng = np.random.default_rng(1)
    found = [prefix for prefix in rng.integers(200_000, 1_000_000, 10_000).tolist()
             if phonenumbers.is_valid_number(phonenumbers.PhoneNumber(
                 country_code=_NANP, national_number=prefix * 10_000 + 123))]
    return np.array(found, dtype=np.int64)


@functools.cache
def _examples_of(wanted: tuple[str, ...]) -> tuple[list[phonenumbers.PhoneNumber], list[str],
                                                   np.ndarray]:
    """The example numbers of the ``wanted`` regions, as :func:`_examples` has them, each
    region as likely as another."""
    numbers, regions, _ = _examples()
    kept = [at for at, region in enumerate(regions) if region in wanted]
    counts = {region: regions.count(region) for region in wanted}
    weights = np.array([1 / counts[regions[at]] for at in kept])
    return [numbers[at] for at in kept], [regions[at] for at in kept], weights / weights.sum()


@functools.cache
def _examples() -> tuple[list[phonenumbers.PhoneNumber], list[str], np.ndarray]:
    """Every non-NANP region's example numbers (and Canada's), their regions, and the
    weight each is drawn with."""
    numbers, regions = [], []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        if region == "US" or (phonenumbers.country_code_for_region(region) == _NANP
                              and region != "CA"):
            continue
        for kind in _TYPES:
            example = phonenumbers.example_number_for_type(region, kind)
            if example is not None:
                numbers.append(example)
                regions.append(region)
    head = np.isin(regions, HEAD_REGIONS)
    weights = np.where(head, HEAD_SHARE / head.sum(), (1 - HEAD_SHARE) / (~head).sum())
    return numbers, regions, weights / weights.sum()


def _foreign(rng: np.random.Generator, count: int, wanted: tuple[str, ...] | None = None
             ) -> tuple[list[phonenumbers.PhoneNumber], list[str]]:
    """``count`` numbers of other regions (``wanted``'s, or every one's): example numbers
    with their last four digits varied (three when the national number is shorter than
    eight digits)."""
    numbers, regions, weights = _examples() if wanted is None else _examples_of(wanted)
    picked = rng.choice(len(numbers), count, p=weights).tolist()
    tails = rng.integers(0, 10_000, count).tolist()
    made = []
    for which, tail in zip(picked, tails, strict=True):
        example = numbers[which]
        size = 10_000 if example.national_number >= 10_000_000 else 1000
        made.append(phonenumbers.PhoneNumber(
            country_code=example.country_code,
            national_number=example.national_number // size * size + tail % size,
            italian_leading_zero=example.italian_leading_zero,
            number_of_leading_zeros=example.number_of_leading_zeros))
    return made, [regions[w] for w in picked]


def _make_us(rng: np.random.Generator, count: int) -> tuple[list[str], list[str]]:
    country = np.where(rng.random(count) < 1 / 3, "US", "").tolist()
    return _us(rng, count), country


def _make_international(rng: np.random.Generator, count: int,
                        wanted: tuple[str, ...] | None = None) -> tuple[list[str], list[str]]:
    numbers, regions = _foreign(rng, count, wanted)
    styles = rng.choice(3, count, p=[0.4, 0.2, 0.4]).tolist()
    named = (rng.random(count) < 0.5).tolist()
    texts, country = [], []
    for number, region, style, name in zip(numbers, regions, styles, named, strict=True):
        shape = (_FORMATS.INTERNATIONAL, _FORMATS.E164, _FORMATS.NATIONAL)[style]
        texts.append(phonenumbers.format_number(number, shape))
        country.append(region if style == 2 or name else "")
    return texts, country


def _make_extension(rng: np.random.Generator, count: int) -> tuple[list[str], list[str]]:
    foreign = int((rng.random(count) < 0.2).sum())
    texts, country = _make_international(rng, foreign)
    us, us_country = _make_us(rng, count - foreign)
    forms = rng.integers(0, len(_EXTENSIONS), count).tolist()
    numbers = rng.integers(1, 100_000, count).tolist()
    cells = [t + _EXTENSIONS[f].format(n)
             for t, f, n in zip(texts + us, forms, numbers, strict=True)]
    return _shuffled(rng, cells, country + us_country)


def _make_excel_float(rng: np.random.Generator, count: int) -> tuple[list[str], list[str]]:
    kinds = rng.choice(3, count, p=[0.8, 0.1, 0.1])
    us = _us_digits(rng, count)
    numbers, regions = _foreign(rng, count)
    texts, country = [], []
    for kind, digits, number, region in zip(kinds.tolist(), us, numbers, regions, strict=True):
        if kind == 2:
            texts.append(phonenumbers.format_number(number, _FORMATS.E164)[1:] + ".0")
            country.append(region)
        else:
            texts.append(("1" if kind else "") + digits + ".0")
            country.append("")
    return texts, country


def _make_idd(rng: np.random.Generator, count: int) -> tuple[list[str], list[str]]:
    numbers, regions = _foreign(rng, count)
    ways = rng.integers(0, 4, count).tolist()
    texts, country = [], []
    for number, region, way in zip(numbers, regions, ways, strict=True):
        written = phonenumbers.format_number(number, _FORMATS.INTERNATIONAL)[1:]
        prefix = ("011 ", "011 ", "00 ", "00")[way]
        texts.append(prefix + (written.replace(" ", "") if way == 3 else written))
        country.append(region if way == 2 else "")
    return texts, country


def _make_two_numbers(rng: np.random.Generator, count: int) -> tuple[list[str], list[str]]:
    first, country = _make_us(rng, count)
    second = _us(rng, count)
    joins = rng.integers(0, len(_JOINS), count).tolist()
    return [a + _JOINS[j] + b for a, j, b in zip(first, joins, second, strict=True)], country


def _make_junk(rng: np.random.Generator, count: int) -> tuple[list[str | None], list[str]]:
    picked = rng.integers(0, len(_JUNK), count).tolist()
    blank = rng.integers(0, 4, count).tolist()  # 0: missing, 1: "", 2 and 3: junk text
    cells: list[str | None] = [None if b == 0 else "" if b == 1 else _JUNK[p]
                               for p, b in zip(picked, blank, strict=True)]
    return cells, [""] * count


def _shuffled(rng: np.random.Generator, cells: list[str],
              country: list[str]) -> tuple[list[str], list[str]]:
    order = rng.permutation(len(cells)).tolist()
    return [cells[i] for i in order], [country[i] for i in order]


_MAKERS = {"us": _make_us, "international": _make_international, "extension": _make_extension,
           "excel_float": _make_excel_float, "idd": _make_idd, "two_numbers": _make_two_numbers,
           "junk": _make_junk}


def _no_country_foreign(rng: np.random.Generator, count: int) -> list[str]:
    """Numbers of :data:`NO_COUNTRY_REGIONS`, written as ``international`` cells are."""
    return _make_international(rng, count, NO_COUNTRY_REGIONS)[0]


def _no_country_junk(rng: np.random.Generator, count: int) -> list[str]:
    return [_JUNK[p] for p in rng.integers(0, len(_JUNK), count).tolist()]


_NO_COUNTRY_MAKERS = {"us": _us, "foreign": _no_country_foreign, "junk": _no_country_junk,
                      "blank": lambda rng, count: [""] * count}
SECOND_BLANK = 0.40
"""The share of rows of :func:`two_phones_mix` without a second number."""
SPELLINGS = {
    "US": ("United States", "USA", "United States of America", "U.S.A.", "united states"),
    "CA": ("Canada", "CANADA", "CAN"), "MX": ("Mexico", "México", "MEX"),
    "GB": ("United Kingdom", "UK", "Great Britain", "England"),
    "IN": ("India", "भारत", "IND"), "DE": ("Germany", "Deutschland", "DEU", "GERMANY"),
    "PH": ("Philippines", "Pilipinas", "PHL"), "FR": ("France", "FRANCE", "FRA"),
    "BR": ("Brazil", "Brasil", "BRA"), "AU": ("Australia", "AUS", "australia"),
    "ES": ("Spain", "España", "ESP"),
}
"""How a lead file writes each country of the mix: English, its own language, alpha-3,
capitals; other regions by their English name (:func:`country_names_mix`)."""


def two_phones_mix(rows: int, seed: int = SEED) -> pd.DataFrame:
    """:func:`mix` with a second phone cell, ``phone_2``: another draw of the mix, empty
    in :data:`SECOND_BLANK` of the rows."""
    frame = mix(rows, seed)
    second = mix(rows, seed + 7)["phone"]
    blank = np.random.default_rng(seed + 8).random(rows) < SECOND_BLANK
    return frame.assign(phone_2=second.where(~blank, ""))


def country_names_mix(rows: int, seed: int = SEED) -> pd.DataFrame:
    """:func:`iso_country_mix` with each country written as one of its :data:`SPELLINGS`,
    drawn at random (a region not listed by its English name, ISO's)."""
    import pycountry  # noqa: PLC0415 (this mix alone)

    frame = iso_country_mix(rows, seed)
    rng = np.random.default_rng(seed + 9)
    codes = frame["country"].to_numpy()
    named = np.empty(rows, dtype=object)
    for code in np.unique(codes):
        at = np.flatnonzero(codes == code)
        known = pycountry.countries.get(alpha_2=code)  # not a code of its own: as it is
        spellings = SPELLINGS.get(code) or ((code,) if known is None else (known.name,))
        named[at] = np.array(spellings, dtype=object)[rng.integers(0, len(spellings), len(at))]
    return frame.assign(country=named)


MIXES = {"leads": mix, "no_country": no_country_mix, "iso_country": iso_country_mix,
         "two_phones": two_phones_mix, "country_names": country_names_mix}
"""The mixes by name: ``rows``, ``seed`` → the frame of :func:`mix`, :func:`no_country_mix`,
:func:`iso_country_mix`, :func:`two_phones_mix` or :func:`country_names_mix`."""
