"""Lead files others published, cleaned as a user would clean them (issues 80 and 97).

The files live outside the project, at ``../shared/corpus/leads/`` beside the clone: the
project commits no file others published (issue 97). They are real files as their
publishers wrote them (CRM exports, dialer uploads, workbooks, public directories of
authorities, schools, hospitals and businesses in many countries; each folder's
``SOURCES.md`` names their sources), each cleaned with ``dialkit.leads.clean`` and the
documented options a user would pass for it (the region of a file without a country
column, the code page of a Shift_JIS file, ``header=None`` for a dialer's upload without a
header, the country column of a name the clean does not know). Nothing else is given: no
``mapping=``. Where the folder is absent (a clone outside this workplace), every test here
is skipped and says so; what each file taught is held by tests on small files the tests
write themselves (``test_published_quirks.py`` and the modules it names).

The truth is this module's, computed with libphonenumber and pycountry, never by dialkit:

- a row's **phone cells** are the columns this module lists for its file (by their
  headers' words, read by a person); a fax column is never one;
- a row's **country** is its country cell read by pycountry (an ISO name, code or common
  name; without accents; ``X (Y)`` where ``X`` names one country and ``Y`` the same or
  none; ``Micronesia`` where one ISO name alone starts ``Micronesia,``), by ISO 3166's
  former names pycountry no longer holds (:data:`FORMER_NAMES`), by its name in the
  file's own language (:data:`NAMED_LOCALLY`), or, for a blank cell or a file without a
  country column, the region passed. A number written in full (``+`` and its country
  code) is the row's whatever its country cell says (issue 97); a cell naming no single
  country (``Korea``), or a territory without a numbering plan of its own, gives the
  numbers written nationally beside it none;
- a row's **numbers** are those libphonenumber reads as valid in its phone cells, in its
  country: ``parse`` of the whole cell, and each ``PhoneNumberMatcher`` match that is no
  fragment of a longer written number; and in a region of the North American plan (+1,
  which dials out with 011), a cell written with ``00``, the international prefix most of
  the world dials, is also read as written with ``+``, as docs/leads.md says the clean
  reads it (flag ``international_prefix``): Faker's ``001-672-799-2170`` is +1 672 799
  2170. Elsewhere ``00`` is read only as libphonenumber reads it (in Singapore ``001`` is
  itself a prefix to dial out: ``001-208-...`` is no +1 number there). A cell of digits
  with no valid reading in its country, longer than any national number there (by
  libphonenumber's metadata, and than :data:`NATIONAL_AT_MOST`), is read with the ``+`` it
  lost (``886-2-25474189`` in a US file is Taipei's +886 2 2547 4189); and a number with
  the last digits of a second line after a slash is both lines (``0132531271/2``). A cell
  of digits both valid as written and with a ``+`` before them, two different numbers, is
  one a person cannot tell (:func:`other_readings`).

Then (a) every number the clean gives a row (``phone_e164``, and each E.164 number of
``alt_phone``) is one of the row's numbers; (b) a row with a number is not refused for its
phone or its country (nor is the whole file refused), but ``ambiguous_phone`` where a
person cannot tell either; (c) a country cell that names one
country with a numbering plan is read; and (d) ``clean_dataset`` on Dask answers for each
file what ``clean`` answers for the same rows.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import subprocess
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd
import phonenumbers
import pycountry
import pytest
from phonenumbers import Leniency, NumberParseException, PhoneNumberFormat, PhoneNumberMatcher

from dialkit.leads import CleanResult, LeadFileError, clean, clean_dataset

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "leads"
"""The published files, beside the clone (``../shared/corpus/leads/`` from its root)."""
pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the published lead files are not here ({CORPUS}): the "
    "project commits none of them (issue 97); CI and the team's workplace have the folder")
EXAMPLES = 3
"""Rows shown in a failure's message, beside the count."""


@dataclass(frozen=True)
class Published:
    """One file of the corpus, and how a person reads it."""

    name: str
    """The file's path under :data:`CORPUS` (its folder, then its name)."""
    phones: tuple[str, ...]
    """The columns whose cells hold the row's numbers to dial, in file order (a file
    without a header names them by place from 0, as the clean does: ``"4"``)."""
    country: str | None = None
    """The column naming each row's country."""
    region: str = "US"
    """What a user passes as ``region=``: the country of the file's numbers."""
    encoding: str = "utf-8-sig"
    """How the file's bytes are text, as its publisher wrote them."""
    delimiter: str = ","
    """What the publisher split the columns at."""
    above: int = 0
    """Records above the header: a title, a disclaimer, a blank line."""
    header: bool = True
    """Whether the file's first record (after ``above``) names its columns."""
    options: tuple[tuple[str, Any], ...] = ()
    """What else a user passes, each a documented option of the clean (``encoding=`` for a
    code page the clean does not find itself, ``country_column=`` for a country column
    named as none of the clean's names, ``header=None`` is :attr:`header`'s)."""

    @property
    def path(self) -> Path:
        return CORPUS / self.name

    @property
    def asked(self) -> dict[str, Any]:
        """The clean's keyword arguments: the region, the options and the header."""
        return {"region": self.region, **dict(self.options),
                **({} if self.header else {"header": None})}


def _in(folder: str, *files: Published) -> list[Published]:
    return [replace(published, name=f"{folder}/{published.name}") for published in files]


FILES = [
    *_in("published",
         Published("datablist_customers-100.csv", ("Phone 1", "Phone 2"), country="Country"),
         Published("datablist_customers-1000_rows1-300.csv", ("Phone 1", "Phone 2"),
                   country="Country"),
         Published("datablist_leads-100.csv", ("Phone 1", "Phone 2")),
         Published("datablist_people-100.csv", ("Phone",)),
         Published("northwind_customers.csv", ("Phone",), country="Country"),  # and a Fax
         Published("salesforce_leads.csv", ("Phone",)),
         Published("jp_yanai_tourism_sjis.csv", ("連絡先電話番号",), region="JP",
                   encoding="cp932", above=1, options=(("encoding", "cp932"),)),
         Published("jp_tokyo_disaster_hospitals.csv", ("電話番号",), region="JP",
                   encoding="cp932", above=2, options=(("encoding", "cp932"),)),
         Published("at_federal_authorities.csv", ("Tel",), region="AT"),  # and a Fax
         Published("br_ans_operators.csv", ("Telefone",), region="BR", encoding="cp1252",
                   delimiter=";", above=2)),  # area codes in DDD, and a Fax
    *_in("set1",
         Published("at_versicherungen.csv", ("Tel", "Tel2"), country="Land", region="AT"),
         Published("br_crm_empresas.csv", ("Telefone",), region="BR"),
         Published("datablist_customers-100.csv", ("Phone 1", "Phone 2"), country="Country"),
         Published("datablist_customers-1000.csv", ("Phone 1", "Phone 2"), country="Country"),
         Published("datablist_leads-100.csv", ("Phone 1", "Phone 2")),
         Published("jp_saiyo_leads-1000.csv", ("電話番号",), region="JP"),
         Published("kz_almaty_leads.csv", ("phone",), region="KZ"),  # a second in "note"
         Published("salesforce_devorg_Lead.csv", ("Phone", "MobilePhone")),
         Published("sfdc_datacloud_Lead.csv", ("Phone", "Home_Phone__c"), country="Country")),
    *_in("set2",
         Published("ar_medios_contactos.csv", ("Tel",), country="Pais", region="AR"),
         Published("fr_goautodial_nettoyage.csv", ("TEL ok", "TEL"), region="FR",
                   encoding="cp1252", delimiter=";"),
         Published("hubspot_dummy_contacts.csv", ("Phone Number", "Mobile Phone Number"),
                   country="Country"),
         Published("in_realestate_sample_leads.csv", ("Phone",), region="IN"),
         Published("it_dialer_sample_leads.csv",
                   ("telefono", "telefono2", "telefono3", "telefono4"), country="paese",
                   region="IT"),
         Published("mx_denue_aguascalientes.csv", ("Número de teléfono",), region="MX"),
         Published("mx_denue_cdmx_empresas.csv", ("Numero_telefonico",), region="MX"),
         Published("northwind_customers.csv", ("Phone",), country="Country"),  # and a Fax
         Published("northwind_suppliers.csv", ("Phone",), country="Country"),  # and a Fax
         Published("suitecrm8_leads_export.csv",
                   ("Mobile", "Office Phone", "Home Phone", "Other Phone"),
                   country="Primary Address Country"),
         Published("uk500_briandunning.csv", ("phone1", "phone2"), region="GB"),
         Published("zoho_crm_leads.csv", ("Mobile",))),
    *_in("set3",
         Published("au500_briandunning.csv", ("phone1", "phone2"), region="AU"),
         Published("de_berlin_schulen.csv", ("Telefon",), region="DE", delimiter=";"),
         Published("es_madrid_centros_educativos.csv",
                   tuple(f"contacto_telefono{n}" for n in range(1, 5)), region="ES",
                   encoding="cp1252", delimiter=";"),
         Published("id_dapodik_sumut_swasta.xlsx", ("Telpon",), region="ID"),
         Published("ma_tanger_gmaps_leads.xlsx", ("Phone",), region="MA"),
         Published("newfies_import_contact_10.txt", ("0",), country="9", region="ES",
                   delimiter="|", header=False),
         Published("nl_almanak_gemeenten.csv", ("gemeente.contact.telefoon",), region="NL"),
         Published("scapr_societies.tsv", ("Society contact phone",), country="Country ISO code",
                   delimiter="\t", options=(("country_column", "Country ISO code"),)),
         Published("vicidial_test_lead_file.txt", ("4", "19"), country="16", delimiter="|",
                   header=False),
         Published("za_dbe_special_needs.xlsx", ("Telephone",), region="ZA")),
]
FILE_IDS = [Path(published.name).stem for published in FILES]
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

NAMED_LOCALLY = {
    "Österreich": "AT", "Italia": "IT", "Belgique": "BE", "Irland": "IE",
    "Great Britain": "GB", "The Netherlands": "NL", "Svalbard & Jan Mayen Islands": "SJ",
}
"""Country names in the corpus in a language other than ISO's English, as a person reads
them: German, Italian and French names, and English names of everyday use that no ISO name
holds (UN M49's ``Svalbard and Jan Mayen Islands``, with an ampersand)."""

LOST = {"missing_phone", "invalid_phone", "unknown_country", "ambiguous_phone"}
"""The refusals of a row for its phone or its country, which lose a lead that has a
number; a duplicate or an email's rule loses none."""
E164 = re.compile(r"\+\d{1,15}")
SHORTHAND = re.compile(r"(.*\d)\s*/\s*(\d{1,3})")
"""Two lines of one office written as one number and the other's last digits
(``0132531271/2``: 013 253 1271 and 013 253 1272)."""
NATIONAL_AT_MOST = 10
"""Digits a cell needs beyond this, and beyond its country's longest national number, to be
read as international with its ``+`` lost: a ten-digit number is the national shape of
too many countries (Faker's US numbers beside ``Djibouti``) to be taken for another's."""
PLAIN = re.compile(r"[\d\s().\-]+")
"""A cell of digits and the separators people group them with, nothing else."""
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
    if text in FORMER_NAMES or text in NAMED_LOCALLY:
        return FORMER_NAMES.get(text) or NAMED_LOCALLY[text]
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
    if not cell.strip():
        return set()
    if region not in phonenumbers.SUPPORTED_REGIONS:
        region = "ZZ"  # no country known: only a number written with its country code
    found = {phonenumbers.format_number(match.number, PhoneNumberFormat.E164)
             for match in PhoneNumberMatcher(cell, region, leniency=Leniency.VALID)
             if not (FRAGMENT_BEFORE.search(cell[:match.start])
                     or FRAGMENT_AFTER.match(cell[match.end:]))}
    written = cell.lstrip()
    nanp = phonenumbers.country_code_for_region(region) == 1
    shorthand = SHORTHAND.fullmatch(written.rstrip())
    texts = [cell, *(["+" + written[2:]] if nanp and written.startswith("00") else []),
             *([shorthand[1], shorthand[1][:-len(shorthand[2])] + shorthand[2]]
               if shorthand else [])]
    found |= set(filter(None, (_valid(text, region) for text in texts)))
    digits = re.sub(r"\D", "", cell)
    if not found and PLAIN.fullmatch(cell) and len(digits) > max(_longest(region),
                                                                 NATIONAL_AT_MOST):
        found |= set(filter(None, [_valid("+" + digits, region)]))
    return found


def other_readings(cell: str, region: str | None) -> set[str]:
    """The numbers a cell of digits alone reads as with a ``+`` before them, where that
    and its reading in ``region`` are both valid and differ: a person cannot tell which
    it is (``62614512686`` in Indonesia: ``+62 61 4512686`` in Medan, or the national
    ``626 1451 2686``)."""
    digits = re.sub(r"\D", "", cell)
    if region not in phonenumbers.SUPPORTED_REGIONS or not digits or not PLAIN.fullmatch(cell):
        return set()
    own, international = _valid(cell, region), _valid("+" + digits, region)
    return {international} if own and international and own != international else set()


def _valid(text: str, region: str) -> str | None:
    try:
        number = phonenumbers.parse(text, region)
    except NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, PhoneNumberFormat.E164)


def _longest(region: str) -> int:
    """The most digits a national number of ``region`` has, by libphonenumber's metadata."""
    metadata = phonenumbers.PhoneMetadata.metadata_for_region(region)
    return max(metadata.general_desc.possible_length) if metadata else 0


@dataclass(frozen=True)
class Truth:
    """One data row as this module reads it."""

    row: int
    cells: Mapping[str, str]
    country_cell: str | None
    region: str | None
    numbers: frozenset[str]
    ambiguous: frozenset[str] = frozenset()
    """Numbers a cell of the row may be besides its own reading (:func:`other_readings`):
    a row holding the clean's ``ambiguous_phone`` for it is not lost."""


def records(published: Published) -> tuple[list[str], list[list[str]]]:
    """The file's header and data records, read with Python's csv module (a workbook's
    first sheet with openpyxl); a file without a header has its columns' places."""
    read = _workbook(published.path) if published.path.suffix == ".xlsx" else list(
        csv.reader(io.StringIO(published.path.read_bytes().decode(published.encoding),
                               newline=""), delimiter=published.delimiter))
    if not published.header:
        width = max(map(len, read))
        return [str(place) for place in range(width)], read[published.above:]
    return read[published.above], read[published.above + 1:]


def _workbook(path: Path) -> list[list[str]]:
    """A workbook's first sheet as text: a whole number as its digits (``99``, not
    ``99.0``), as a spreadsheet shows it."""
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        return [["" if value is None else _shown(value) for value in row]
                for row in book.worksheets[0].iter_rows(values_only=True)]
    finally:
        book.close()


def _shown(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


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
        ambiguous = set().union(*(other_readings(cells.get(column, ""), region)
                                  for column in published.phones))
        rows[number] = Truth(number, cells, cell, region, frozenset(numbers),
                             frozenset(ambiguous))
    return rows


# What the clean answers -------------------------------------------------------------

@cache
def cleaned(published: Published) -> CleanResult | LeadFileError:
    """The clean of the file as a user asks for it, or the file's refusal."""
    try:
        return clean(published.path, **published.asked)
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
            if known.numbers and verdict["reason"] in LOST
            and not (known.ambiguous and verdict["reason"] == "ambiguous_phone")]
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


def frames(published: Published) -> tuple[pd.DataFrame, Any]:
    """The file as a user hands it to each engine: read by pandas, and by Dask in three
    parts (a workbook read by pandas, then parted), as text, columns by place where the
    file has no header."""
    dd = pytest.importorskip("dask.dataframe")
    if published.path.suffix == ".xlsx":
        frame = pd.read_excel(published.path, dtype=str, keep_default_na=False,
                              engine="calamine")
        return frame, dd.from_pandas(frame, npartitions=3)
    options: dict[str, Any] = {
        "dtype": str, "keep_default_na": False, "sep": published.delimiter,
        "encoding": published.encoding, "skiprows": published.above,
        **({} if published.header else {"header": None})}
    frame = pd.read_csv(published.path, **options)
    parts = dd.read_csv(published.path, blocksize=None, **options).repartition(npartitions=3)
    if not published.header:
        frame, parts = (read.rename(columns=str) for read in (frame, parts))
    return frame, parts


def _answer(run: Any) -> Any:
    """What a clean answers: its result, or its error's kind and words."""
    try:
        return run()
    except (LeadFileError, ValueError) as error:
        return type(error), str(error)


@pytest.mark.parametrize("published", FILES, ids=FILE_IDS)
def test_dask_cleans_each_file_as_pandas_does(published: Published) -> None:
    frame, parts = frames(published)
    asked = {key: value for key, value in published.asked.items()
             if key not in ("encoding", "header")}  # a file's options, not a frame's
    expected = _answer(lambda: clean(frame, **asked))
    found = _answer(lambda: clean_dataset(parts, **asked))
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


def test_the_project_holds_no_published_file() -> None:
    """Issue 97: no file the project tracks is, byte for byte, one others published (the
    sdist and the wheel are built from what it tracks)."""
    root = Path(__file__).resolve().parents[2]
    published = {hashlib.sha256(path.read_bytes()).hexdigest(): path.relative_to(CORPUS)
                 for path in CORPUS.rglob("*") if path.is_file() and path.name != "SOURCES.md"}
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                             check=True).stdout.decode().split("\0")
    copies = [(name, published[digest]) for name in filter(None, tracked)
              if (root / name).is_file()
              and (digest := hashlib.sha256((root / name).read_bytes()).hexdigest()) in published]
    assert copies == []
    assert len(published) >= 40
