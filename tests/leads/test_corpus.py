"""Lead files others published, cleaned as a user would clean them (issue 80's proof).

``tests/leads/corpus/`` holds real files as their publishers wrote them (CRM and lead
samples, public directories of federal authorities, tourist offices, hospitals
and health insurers from Austria, Japan and Brazil; their sources in
``corpus/SOURCES.md``), each cleaned with ``dialkit.leads.clean`` and the options a user
would pass for it (the region of a file without a country column, the code page of a
Shift_JIS file). Nothing else is given: no ``mapping=``.

The truth is this module's, computed with libphonenumber and pycountry, never by dialkit:

- a row's **phone cells** are the columns this module lists for its file (by their
  headers' words, read by a person); a fax column is never one;
- a row's **country** is its country cell read by pycountry (an ISO name, code or common
  name; without accents; ``X (Y)`` where ``X`` names one country and ``Y`` the same or
  none; ``Micronesia`` where one ISO name alone starts ``Micronesia,``), by ISO 3166's
  former names pycountry no longer holds (:data:`FORMER_NAMES`), or, for a blank cell or a
  file without a country column, the region passed. A cell naming no single country
  (``Korea``) has no numbers; nor has a territory without a numbering plan of its own;
- a row's **numbers** are those libphonenumber reads as valid in its phone cells, in its
  country: ``parse`` of the whole cell, and each ``PhoneNumberMatcher`` match that is no
  fragment of a longer written number; and in a region of the North American plan (+1,
  which dials out with 011), a cell written with ``00``, the international prefix most of
  the world dials, is also read as written with ``+``, as docs/leads.md says the clean
  reads it (flag ``international_prefix``): Faker's ``001-672-799-2170`` is +1 672 799
  2170. Elsewhere ``00`` is read only as libphonenumber reads it (in Singapore ``001`` is
  itself a prefix to dial out: ``001-208-...`` is no +1 number there).

Then (a) every number the clean gives a row (``phone_e164``, and each E.164 number of
``alt_phone``) is one of the row's numbers; (b) a row with a number is not refused for its
phone or its country (nor is the whole file refused); (c) a country cell that names one
country with a numbering plan is read; and (d) ``clean_dataset`` on Dask answers for each
file what ``clean`` answers for the same rows.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd
import phonenumbers
import pycountry
import pytest
from phonenumbers import Leniency, NumberParseException, PhoneNumberFormat, PhoneNumberMatcher

from dialkit.leads import CleanResult, LeadFileError, clean, clean_dataset

CORPUS = Path(__file__).parent / "corpus"
EXAMPLES = 3
"""Rows shown in a failure's message, beside the count."""


@dataclass(frozen=True)
class Published:
    """One file of the corpus, and how a person reads it."""

    name: str
    phones: tuple[str, ...]
    """The columns whose cells hold the row's numbers to dial, in file order."""
    country: str | None = None
    """The column naming each row's country."""
    region: str = "US"
    """What a user passes as ``region=``: the country of the file's numbers."""
    encoding: str = "utf-8-sig"
    """How the file's bytes are text, as its publisher wrote them."""
    code_page: str | None = None
    """What a user passes as ``encoding=``: a code page the clean does not find itself."""
    delimiter: str = ","
    """What the publisher split the columns at."""
    above: int = 0
    """Records above the header: a title, a disclaimer, a blank line."""


FILES = [
    Published("datablist_customers-100.csv", ("Phone 1", "Phone 2"), country="Country"),
    Published("datablist_customers-1000_rows1-300.csv", ("Phone 1", "Phone 2"),
              country="Country"),
    Published("datablist_leads-100.csv", ("Phone 1", "Phone 2")),
    Published("datablist_people-100.csv", ("Phone",)),
    Published("northwind_customers.csv", ("Phone",), country="Country"),  # and a Fax
    Published("salesforce_leads.csv", ("Phone",)),
    Published("jp_yanai_tourism_sjis.csv", ("連絡先電話番号",), region="JP", encoding="cp932",
              code_page="cp932", above=1),
    Published("jp_tokyo_disaster_hospitals.csv", ("電話番号",), region="JP", encoding="cp932",
              code_page="cp932", above=2),
    Published("at_federal_authorities.csv", ("Tel",), region="AT"),  # and a Fax
    Published("br_ans_operators.csv", ("Telefone",), region="BR", encoding="cp1252",
              delimiter=";", above=2),  # area codes in DDD, and a Fax
]
FILE_IDS = [published.name.removesuffix(".csv") for published in FILES]
WITH_COUNTRY = [published for published in FILES if published.country]

FORMER_NAMES = {
    "Cape Verde": "CV",  # ISO 3166-1's short name until 2013 (Cabo Verde)
    "Macedonia": "MK",  # "Macedonia, the former Yugoslav Republic of" until 2019
    "Palestinian Territory": "PS",  # "Palestinian Territory, Occupied" until 2013
    "Pitcairn Islands": "PN",  # ISO's "Pitcairn", as the territory names itself
    "Swaziland": "SZ",  # until 2018 (Eswatini)
    "Turkey": "TR",  # until 2022 (Türkiye)
    "UK": "GB",  # the United Kingdom's everyday name, which ISO's code is not
    "United States Virgin Islands": "VI",  # ISO's "Virgin Islands, U.S."
}
"""Names of one country that pycountry no longer holds: ISO 3166-1's former English short
names and everyday names, each for the country ISO names otherwise."""

LOST = {"missing_phone", "invalid_phone", "unknown_country", "ambiguous_phone"}
"""The refusals of a row for its phone or its country, which lose a lead that has a
number; a duplicate or an email's rule loses none."""
E164 = re.compile(r"\+\d{1,15}")
FRAGMENT_BEFORE, FRAGMENT_AFTER = re.compile(r"\d[-.)]?$"), re.compile(r"^[-.(]?\d")
"""A match the matcher finds inside a longer written number (``4727``, a Tokelau number,
in ``529.913.4727``) is a fragment of it, not a number of the cell."""


# The truth: pycountry and libphonenumber ---------------------------------------------

def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@cache
def _iso_names() -> dict[str, set[str]]:
    """Every pycountry name without accents, and each name's part before ``, ``."""
    names: dict[str, set[str]] = {}
    for country in pycountry.countries:
        for attribute in ("name", "official_name", "common_name"):
            name = getattr(country, attribute, None)
            if name:
                names.setdefault(_folded(name), set()).add(country.alpha_2)
                names.setdefault(_folded(name.split(", ")[0]) + ",", set()).add(
                    country.alpha_2)
    return names


def _named(text: str) -> str | None:
    """The one country ``text`` names, without brackets; ``None`` for none or several."""
    try:
        return str(pycountry.countries.lookup(text).alpha_2)
    except LookupError:
        pass
    if text in FORMER_NAMES:
        return FORMER_NAMES[text]
    found = _iso_names().get(_folded(text)) or _iso_names().get(_folded(text) + ",")
    return next(iter(found)) if found and len(found) == 1 else None


def country_of(cell: str) -> str | None:
    """The one country a country cell names, or ``None``."""
    bracketed = re.fullmatch(r"(.+?)\s*\((.+)\)", cell.strip())
    if not bracketed or _named(cell.strip()):
        return _named(cell.strip())
    first, qualifier = (_named(part) for part in bracketed.groups())
    return first if qualifier in (first, None) else None


def numbers_in(cell: str, region: str | None) -> set[str]:
    """The E.164 numbers libphonenumber reads as valid in ``cell``, in ``region``."""
    if not cell.strip() or region not in phonenumbers.SUPPORTED_REGIONS:
        return set()
    found = {phonenumbers.format_number(match.number, PhoneNumberFormat.E164)
             for match in PhoneNumberMatcher(cell, region, leniency=Leniency.VALID)
             if not (FRAGMENT_BEFORE.search(cell[:match.start])
                     or FRAGMENT_AFTER.match(cell[match.end:]))}
    written = cell.lstrip()
    nanp = phonenumbers.country_code_for_region(region) == 1
    for text in (cell, *(["+" + written[2:]] if nanp and written.startswith("00") else [])):
        try:
            whole = phonenumbers.parse(text, region)
        except NumberParseException:
            continue
        if phonenumbers.is_valid_number(whole):
            found.add(phonenumbers.format_number(whole, PhoneNumberFormat.E164))
    return found


@dataclass(frozen=True)
class Truth:
    """One data row as this module reads it."""

    row: int
    cells: Mapping[str, str]
    country_cell: str | None
    region: str | None
    numbers: frozenset[str]


def records(published: Published) -> tuple[list[str], list[list[str]]]:
    """The file's header and data records, read with Python's csv module."""
    text = (CORPUS / published.name).read_bytes().decode(published.encoding)
    read = list(csv.reader(io.StringIO(text, newline=""), delimiter=published.delimiter))
    return read[published.above], read[published.above + 1:]


@cache
def truth(published: Published) -> dict[int, Truth]:
    """Each data row by its number (1 the first after the header), blank ones left out."""
    header, data = records(published)
    rows = {}
    for number, values in enumerate(data, start=1):
        cells = dict(zip(header, values + [""] * (len(header) - len(values)), strict=False))
        if not any(value.strip() for value in values):
            continue
        cell = cells.get(published.country) if published.country else None
        region = country_of(cell) if cell and cell.strip() else published.region
        numbers = set().union(*(numbers_in(cells.get(column, ""), region)
                                for column in published.phones))
        rows[number] = Truth(number, cells, cell, region, frozenset(numbers))
    return rows


# What the clean answers -------------------------------------------------------------

@cache
def cleaned(published: Published) -> CleanResult | LeadFileError:
    """The clean of the file as a user asks for it, or the file's refusal."""
    try:
        return clean(CORPUS / published.name, region=published.region,
                     encoding=published.code_page)
    except LeadFileError as error:
        return error


def verdicts(published: Published) -> Iterator[tuple[Truth, pd.Series]]:
    """Each row of the clean beside its truth; a row read otherwise fails the test."""
    result = cleaned(published)
    assert isinstance(result, CleanResult)
    rows = truth(published)
    for _, verdict in result.frame.iterrows():
        known = rows.get(int(verdict["row"]))
        assert known is not None, f"{published.name}: the clean has a row {verdict['row']}"
        for column in published.phones:
            read = verdict.get(column, verdict.get(f"{column} (file)", pd.NA))
            text = "" if read is None or pd.isna(read) else str(read)
            assert text == known.cells[column], (
                f"{published.name}: row {known.row}'s {column} read as {text!r}, "
                f"written {known.cells[column]!r}: the rows are not the file's")
        yield known, verdict


def claimed(verdict: pd.Series, known: Truth) -> set[str]:
    """The numbers the clean gives a row: its phone, and each E.164 number of
    ``alt_phone`` (a cell it gives back as written is no number of its own)."""
    found = set()
    if not pd.isna(verdict["phone_e164"]):
        found.add(str(verdict["phone_e164"]))
    others = "" if pd.isna(verdict["alt_phone"]) else str(verdict["alt_phone"])
    written = {known.cells[column].strip() for column in known.cells}
    for other in filter(None, others.split(", ")):
        number = other.split(" ext. ")[0]
        if E164.fullmatch(number) and other not in written:
            found.add(number)
    return found


def shown(published: Published, known: Truth, verdict: pd.Series | None = None) -> str:
    cells = {column: known.cells[column] for column in published.phones}
    where = f" in {known.country_cell!r} ({known.region})" if published.country else ""
    said = "" if verdict is None else (
        f" → {verdict['status']}/{verdict['reason']}, phone {verdict['phone_e164']}, "
        f"alt {verdict['alt_phone']}, flags {verdict['flags']}")
    return f"row {known.row}{where}: {cells}{said}"


def failed(published: Published, what: str, found: list[str]) -> str:
    return (f"{published.name}: {len(found)} rows {what}, such as:\n  "
            + "\n  ".join(found[:EXAMPLES]))


def refused_whole(published: Published) -> str:
    return f"; the file was refused whole: {cleaned(published)}"


# The assertions ---------------------------------------------------------------------

@pytest.mark.parametrize("published", FILES, ids=FILE_IDS)
def test_no_number_the_clean_gives_is_wrong(published: Published) -> None:
    if isinstance(cleaned(published), LeadFileError):
        return  # no number given
    wrong = [shown(published, known, verdict) + f" gives {sorted(numbers - known.numbers)}"
             f", libphonenumber reads {sorted(known.numbers)}"
             for known, verdict in verdicts(published)
             if (numbers := claimed(verdict, known)) - known.numbers]
    assert not wrong, failed(published, "with a number that is none of the row's", wrong)


@pytest.mark.parametrize("published", FILES, ids=FILE_IDS)
def test_no_lead_with_a_valid_number_is_lost(published: Published) -> None:
    if isinstance(cleaned(published), LeadFileError):
        lost = [shown(published, known) for known in truth(published).values()
                if known.numbers]
        assert not lost, failed(published, "with a valid number lost",
                                lost) + refused_whole(published)
        return
    lost = [shown(published, known, verdict) for known, verdict in verdicts(published)
            if known.numbers and verdict["reason"] in LOST]
    assert not lost, failed(published, "with a valid number refused", lost)


@pytest.mark.parametrize("published", WITH_COUNTRY,
                         ids=[published.name.removesuffix(".csv") for published in WITH_COUNTRY])
def test_every_country_cell_that_names_one_country_is_read(published: Published) -> None:
    named = [known for known in truth(published).values() if known.country_cell
             and known.region in phonenumbers.SUPPORTED_REGIONS]
    if isinstance(cleaned(published), LeadFileError):
        assert not named, failed(published, "not read", [shown(published, known)
                                                        for known in named])
        return
    rows = {known.row for known in named}
    unread = [shown(published, known, verdict) for known, verdict in verdicts(published)
              if known.row in rows and verdict["reason"] == "unknown_country"]
    assert not unread, failed(published, "refused as unknown_country though their "
                              "country cell names one country", unread)


def _read(published: Published, reader: Any, **options: Any) -> Any:
    return reader(CORPUS / published.name, dtype=str, keep_default_na=False,
                  sep=published.delimiter, encoding=published.encoding,
                  skiprows=published.above, **options)


def _answer(run: Any) -> Any:
    """What a clean answers: its result, or its error's kind and words."""
    try:
        return run()
    except (LeadFileError, ValueError) as error:
        return type(error), str(error)


@pytest.mark.parametrize("published", FILES, ids=FILE_IDS)
def test_dask_cleans_each_file_as_pandas_does(published: Published) -> None:
    dd = pytest.importorskip("dask.dataframe")
    frame = _read(published, pd.read_csv)
    parts = _read(published, dd.read_csv, blocksize=None).repartition(npartitions=3)
    expected = _answer(lambda: clean(frame, region=published.region))
    found = _answer(lambda: clean_dataset(parts, region=published.region))
    if isinstance(expected, tuple) or isinstance(found, tuple):
        assert found == expected
        return
    computed = found.compute()
    pd.testing.assert_frame_equal(computed.frame, expected.frame)
    pd.testing.assert_frame_equal(found.summary, expected.summary)
    assert (found.rows, found.counts, found.notes, found.skipped) == (
        len(expected.frame), expected.counts, expected.notes, expected.skipped)
    assert (computed.notes, computed.sources, computed.looks_like) == (
        expected.notes, expected.sources, expected.looks_like)
