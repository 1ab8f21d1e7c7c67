"""Country cells as registries and generators write them (issue 80, item 2): alpha-3 codes
in capitals, ISO's former countries and older names, a name with a qualifier in brackets,
the official names of pycountry's catalogues, the geocoder's names in their own scripts,
a few abbreviations; and a territory with no numbering plan of its own, refused naming
that.

The truth is the registries' (pycountry's ISO 3166-1 and 3166-3 and its catalogues,
Babel's CLDR, ``phonenumbers``' metadata and its geocoder's names), computed here, never
what dialkit answered; a cell of the issue is given the country pycountry looks its
current name up as.
"""

from __future__ import annotations

import functools
import gettext
import json
import os
import re
import sys
import tomllib
from importlib import resources

import pandas as pd
import phonenumbers
import pycountry
import pytest
from babel import Locale, localedata
from babel.languages import get_official_languages
from phonenumbers.geodata.locale import LOCALE_DATA

from dialkit._places._country_names import fold
from dialkit.leads import clean, region_of

SUPPORTED = phonenumbers.SUPPORTED_REGIONS
PLANLESS = frozenset(country.alpha_2 for country in pycountry.countries
                     if phonenumbers.country_code_for_region(country.alpha_2) == 0)
"""ISO 3166-1's countries ``phonenumbers`` gives no calling code."""
FIELDS = ("name", "official_name", "common_name")


def iso(name: str) -> str:
    """The alpha-2 code pycountry looks a country's current name up as."""
    return str(pycountry.countries.lookup(name).alpha_2)


ISSUE_CELLS = {
    "Slovakia (Slovak Republic)": iso("Slovakia"),
    "Libyan Arab Jamahiriya": iso("Libya"),
    "Palestinian Territory": iso("Palestine, State of"),
    "United States Virgin Islands": iso("Virgin Islands, U.S."),
    "Svalbard & Jan Mayen Islands": iso("Svalbard and Jan Mayen"),
    "British Indian Ocean Territory (Chagos Archipelago)": iso("British Indian Ocean Territory"),
    "NGA": iso("Nigeria"), "UAE": iso("United Arab Emirates"), "PRC": iso("China"),
    "السعودية": iso("Saudi Arabia"), "ประเทศไทย": iso("Thailand"),
    "한국": iso("Korea, Republic of"), "Bundesrepublik Deutschland": iso("Germany"),
    "Zaire": iso("Congo, The Democratic Republic of the"),
}
"""The cells issue 80 names as refused (and a few of their kinds), each with its country."""


@functools.cache
def languages() -> list[str]:
    """The official languages (de facto ones too) of the supported regions, as CLDR records
    them, that Babel has a locale of."""
    found = {language for region in SUPPORTED
             for language in get_official_languages(region, de_facto=True)}
    return sorted(language for language in found if localedata.exists(language))


@functools.cache
def first_rank() -> dict[str, set[str]]:
    """Each folded name CLDR (in those languages) and ISO 3166-1 (English) give, and the
    countries they give it."""
    found: dict[str, set[str]] = {}
    for language in languages():
        for code, name in Locale.parse(language).territories.items():
            found.setdefault(fold(name), set()).add(code)
        localedata.clear_caches()
    for country in pycountry.countries:
        for name in [country.alpha_3, *(getattr(country, field, None) for field in FIELDS)]:
            if name:
                found.setdefault(fold(name), set()).add(country.alpha_2)
    return found


@functools.cache
def catalogue_names() -> list[tuple[str, str, str, str]]:
    """(catalogue, field, name, alpha-2) of ISO 3166-1's names in pycountry's catalogues
    of those languages, where a catalogue translates the English name."""
    found = []
    for catalogue in sorted(os.listdir(pycountry.LOCALES_DIR)):
        if re.split("[_@]", catalogue)[0] not in languages():
            continue
        try:
            words = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, [catalogue])
        except OSError:
            continue
        found += [(catalogue, field, words.gettext(name), country.alpha_2)
                  for country in pycountry.countries for field in FIELDS
                  if (name := getattr(country, field, None)) and words.gettext(name) != name]
    return found


def geocoder_names() -> set[tuple[str, str]]:
    """(name, region) of the geocoder's names of each supported region, in each language."""
    return {(name, region) for region, names in geocoder_table().items() if region in SUPPORTED
            for name in names}


def geocoder_table() -> dict[str, list[str]]:
    """Each region (supported, or an ISO 3166-1 country) and the distinct names the
    geocoder gives it (``*de``: the name in German)."""
    places = SUPPORTED | {country.alpha_2 for country in pycountry.countries}
    return {region: sorted({names.get(name[1:], "") if name.startswith("*") else name
                            for name in names.values()} - {""})
            for region, names in sorted(LOCALE_DATA.items()) if region in places}


GEOCODER_FILE = resources.files("dialkit._places").joinpath("geocoder_names.toml")
GEOCODER_HEAD = """\
# The names phonenumbers' geocoder gives each region, in each of its languages (the JDK's
# java.util.Locale names, phonenumbers.geodata.locale, phonenumbers {version}): the
# second rank of dialkit._places._name_sources, as the region's distinct names. Copied here
# because importing them from phonenumbers loads its whole geocoder (0.25 s and 99 MiB, for
# 3,625 names). Checked against phonenumbers by tests/leads/test_country_registries.py, which
# writes it anew when run as a script.

[names]
"""


def geocoder_file() -> str:
    """``geocoder_names.toml`` as :func:`geocoder_table` makes it."""
    return GEOCODER_HEAD.format(version=phonenumbers.__version__) + "".join(
        f"{region} = {json.dumps(names, ensure_ascii=False)}\n"
        for region, names in geocoder_table().items())


def english(code: str) -> str:
    return str(Locale.parse("en").territories[code])


# Codes, former countries, qualifiers --------------------------------------------------

def test_each_alpha3_code_in_capitals_reads_as_its_country() -> None:
    """``NGA`` is Nigeria's code, though ``Nga`` is Russia's name in Vietnamese."""
    wrong = {country.alpha_3: region_of(country.alpha_3) for country in pycountry.countries
             if country.alpha_2 in SUPPORTED and region_of(country.alpha_3) != country.alpha_2}
    assert wrong == {}
    assert "RU" in first_rank()["nga"]  # why it once read as none


def test_a_former_country_reads_as_the_one_that_followed_it() -> None:
    """ISO 3166-3's alpha-4 code names the country that followed in its last two letters
    (``AA``: the same code kept); ``HH`` and ``XX``: none did."""
    expected, gone = {}, {}
    for former in pycountry.historic_countries:
        tail = former.alpha_4[2:]
        successor = former.alpha_2 if tail == "AA" else tail
        if successor in SUPPORTED:
            expected[former.name] = successor
        elif successor not in PLANLESS:
            gone[former.name] = None
    assert len(expected) >= 15 and {"Zaire, Republic of", "Dahomey"} <= set(expected)
    assert {name: region_of(name) for name in expected} == expected
    assert {name: region_of(name) for name in gone} == gone
    heads = {name.split(", ")[0]: code for name, code in expected.items() if ", " in name}
    assert {"Zaire", "Upper Volta"} <= set(heads)
    assert {head: region_of(head) for head in heads} == heads  # ISO's inverted names' heads


def test_a_former_country_that_none_followed_is_named_so() -> None:
    from dialkit._places._country_names import unread_said

    for former in pycountry.historic_countries:
        if former.alpha_4[2:] in ("HH", "XX"):
            said = unread_said(former.name) or ""
            assert "former country" in said and former.withdrawal_date in said, said


def test_a_qualifier_in_brackets_reads_as_the_name_before_it() -> None:
    """Each country's short name with its official name in brackets, as generators write
    ``Slovakia (Slovak Republic)``: read as the country, or (where the short name alone is
    one two countries are called by) as none, never another."""
    cells = {f"{country.name} ({country.official_name})": country.alpha_2
             for country in pycountry.countries
             if country.alpha_2 in SUPPORTED and getattr(country, "official_name", None)}
    found = {cell: region_of(cell) for cell in cells}
    assert {cell: code for cell, code in found.items() if code not in (cells[cell], None)} == {}
    assert sum(found[cell] == code for cell, code in cells.items()) >= 0.95 * len(cells)
    assert found["Slovakia (Slovak Republic)"] == "SK"


def test_a_qualifier_that_names_another_country_reads_as_none() -> None:
    """``Georgia (USA)`` is the state: a country's name that is also a subdivision's of
    another country, qualified by that country's name or code, names neither."""
    countries = {fold(country.name): country for country in pycountry.countries
                 if country.alpha_2 in SUPPORTED}
    cells = []
    for area in pycountry.subdivisions:
        country = countries.get(fold(area.name))
        owner = pycountry.countries.get(alpha_2=area.country_code)
        if country and owner and country.alpha_2 != owner.alpha_2 and owner.alpha_2 in SUPPORTED:
            cells += [f"{area.name} ({owner.name})", f"{area.name} ({owner.alpha_2})",
                      f"{area.name} ({owner.alpha_3})"]
    assert "Georgia (United States)" in cells
    assert {cell: region_of(cell) for cell in cells if region_of(cell) is not None} == {}


# Names in other languages and scripts -------------------------------------------------

def test_the_catalogues_official_names_read_as_their_countries() -> None:
    """pycountry's translations of ISO 3166-1's official names (``Bundesrepublik
    Deutschland``, ``中华人民共和国``): most read as their country, and each as its country,
    as none, or as a country a registry gives the same name (a catalogue's error:
    Gambia's official name in Catalan is Zambia's), never one no registry gives it."""
    names = [(catalogue, name, code) for catalogue, field, name, code in catalogue_names()
             if field == "official_name" and code in SUPPORTED]
    given: dict[str, set[str]] = {}
    for _, _, name, code in catalogue_names():
        given.setdefault(fold(name), set()).add(code)
    found = {(catalogue, name, code): region_of(name) for catalogue, name, code in names}
    wrong = {key: read for key, read in found.items()
             if read not in (key[2], None) and read not in first_rank().get(fold(key[1]), ())
             and read not in given[fold(key[1])]}
    assert wrong == {}
    assert sum(read == key[2] for key, read in found.items()) >= 0.9 * len(found)
    official = {catalogue: gettext.translation("iso3166-1", pycountry.LOCALES_DIR, [catalogue])
                for catalogue in ("de", "es", "fr", "zh_CN")}
    for catalogue, code in [("de", "DE"), ("de", "US"), ("es", "US"), ("fr", "FR"),
                            ("zh_CN", "CN")]:
        name = official[catalogue].gettext(pycountry.countries.get(alpha_2=code).official_name)
        assert region_of(name) == code, (catalogue, name)


def test_the_copy_of_the_geocoders_names_is_phonenumbers_own() -> None:
    """``geocoder_names.toml`` holds what ``phonenumbers`` gives now (run this module as
    a script to write it anew)."""
    copied = tomllib.loads(GEOCODER_FILE.read_text("utf-8"))["names"]
    assert copied == geocoder_table()


def test_the_geocoders_names_in_every_language_read_as_their_regions() -> None:
    """The geocoder's names (the JDK's) in each of its languages, short names in their own
    scripts among them: each read as its region or, where two countries share it, none."""
    names = geocoder_names()
    found = {(name, region): region_of(name) for name, region in names}
    assert {key: read for key, read in found.items() if read not in (key[1], None)} == {}
    assert sum(read == key[1] for key, read in found.items()) >= 0.99 * len(names)
    for region, language in [("SA", "ar"), ("TH", "th"), ("PS", "ms"), ("AL", "sq")]:
        assert region_of(LOCALE_DATA[region][language]) == region


def test_each_everyday_name_is_in_no_registry_and_names_its_source() -> None:
    """The table of ours holds only what no source read gives, each with where it is
    written as its country's name."""
    from dialkit._places._name_sources import EVERYDAY_NAMES, EVERYDAY_SOURCES

    given = set(first_rank()) | {fold(name) for _, _, name, _ in catalogue_names()}
    given |= {fold(name) for name, _ in geocoder_names()}
    given |= {fold(former.name) for former in pycountry.historic_countries}
    # given by a catalogue, but left out as it holds the US's Spanish name
    assert [name for name in EVERYDAY_NAMES if fold(name) in given] == [
        "Estados Unidos Mexicanos"]
    assert set(EVERYDAY_SOURCES) == set(EVERYDAY_NAMES)
    assert all(len(source) > 20 for source in EVERYDAY_SOURCES.values())
    assert len(EVERYDAY_NAMES) <= 20


@pytest.mark.parametrize("abbreviation", ["UAE", "PRC", "DRC", "UK", "U.S."])
def test_an_everyday_abbreviation_is_the_initials_of_its_countrys_name(
        abbreviation: str) -> None:
    """Each abbreviation of the table is the initials of a name ISO or CLDR (English)
    gives the country it reads as (``of``, ``the`` and ``and`` left out)."""
    code = region_of(abbreviation)
    assert code is not None
    country = pycountry.countries.get(alpha_2=code)
    names = [english(code), *(getattr(country, field, None) or "" for field in FIELDS)]
    names += [" ".join(reversed(name.split(", "))) for name in names]  # ISO's inverted ones
    initials = {"".join(word[0] for word in re.split(r"[\s-]+", name.upper())
                        if word not in ("OF", "THE", "AND")) for name in names if name}
    assert abbreviation.replace(".", "") in initials


# No numbering plan, and names two countries share -------------------------------------

def test_the_territories_with_no_numbering_plan_are_the_issues() -> None:
    assert {"AQ", "BV", "HM", "PN", "UM"} <= PLANLESS
    assert not PLANLESS & SUPPORTED


@pytest.mark.parametrize("code", sorted(PLANLESS))
def test_a_territory_with_no_numbering_plan_is_refused_naming_that(code: str) -> None:
    """Each of its codes and names reads as no region, and the words say it has no plan
    of its own, not to write an ISO code (its own is refused too)."""
    from dialkit._places._country_names import unread_said

    country = pycountry.countries.get(alpha_2=code)
    cells = {code, code.lower(), country.alpha_3, country.name, english(code),
             f"{country.name} (the territory)"}
    for cell in cells:
        said = unread_said(cell) or ""
        assert region_of(cell) is None
        assert said.startswith(f"{english(code)} ({code}) has no telephone numbering plan "
                               "of its own"), (cell, said)
        assert "ISO code" not in said


@pytest.mark.parametrize("cell", ["Korea", "KOREA", " korea "])
def test_korea_alone_stays_ambiguous_and_is_named(cell: str) -> None:
    from dialkit._places._country_names import unread_said

    said = unread_said(cell) or ""
    assert region_of(cell) is None
    assert f"{english('KP')} (KP)" in said and f"{english('KR')} (KR)" in said
    assert said.startswith(f"{cell.strip()} names more than one country")


# The clean ----------------------------------------------------------------------------

def national(code: str) -> tuple[str, str]:
    """A valid number of ``code`` written nationally, and its E.164 form."""
    example = phonenumbers.example_number_for_type(code, phonenumbers.PhoneNumberType.MOBILE)
    example = example or phonenumbers.example_number(code)
    assert example is not None
    return (phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.NATIONAL),
            phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.E164))


def test_the_clean_reads_the_issues_cells_as_their_countries() -> None:
    written = {cell: national(code) for cell, code in ISSUE_CELLS.items()}
    frame = pd.DataFrame({"Phone": [number for number, _ in written.values()],
                          "Country": list(written)})
    result = clean(frame, country_column="Country")
    assert result.frame["phone_e164"].tolist() == [e164 for _, e164 in written.values()]


def test_the_clean_reads_no_territory_with_no_plan_nor_korea() -> None:
    """Such a cell names no country to read a number in: a number written without its
    country is refused, one written in full is read as written (issue 97), each flagged."""
    frame = pd.DataFrame({"Phone": ["+64 21 123 4567", "010-1234-5678", "+1 202 555 0111",
                                    "21 123 4567"],
                          "Country": ["Pitcairn Islands", "Korea",
                                      "Antarctica (the territory South of 60 deg S)",
                                      "Pitcairn Islands"]})
    result = clean(frame, country_column="Country")
    assert [reason if isinstance(reason, str) else None
            for reason in result.frame["reason"]] == [
        None, "unknown_country", None, "unknown_country"]
    assert result.frame["phone_e164"].fillna("").tolist() == [
        "+64211234567", "", "+12025550111", ""]
    assert all("unknown_country" in flags for flags in result.frame["flags"])
    note = next(note for note in result.notes if "names no country" in note)
    assert note.startswith("4 rows: their Country names no country the clean can read: "
                           "'Pitcairn Islands' (2 rows")  # read or refused, each named
    assert "a number written with + and its country code is read as written" in note


def test_blocked_countries_reads_the_issues_names() -> None:
    codes = ("LY", "AE", "DE")
    frame = pd.DataFrame({"Phone": [national(code)[0] for code in codes],
                          "Country": list(codes)})
    result = clean(frame, country_column="Country",
                   blocked_countries=["Libyan Arab Jamahiriya", "UAE"])
    assert result.frame["phone_e164"].tolist() == [national(code)[1] for code in codes]
    assert result.frame["status"].tolist() == ["blocked_country", "blocked_country",
                                               "accepted"]


if __name__ == "__main__":  # write geocoder_names.toml anew from phonenumbers
    with resources.as_file(GEOCODER_FILE) as path:
        path.write_text(geocoder_file(), encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)


def test_a_number_of_another_country_than_its_cell_names_is_kept_and_flagged() -> None:
    """Issue 97: the cell decides only numbers written without their country; a valid
    number of another is kept as written, flagged ``other_country``, unless the named
    country shares it under its calling code (an Australian mobile of Christmas Island)."""
    def written(region: str, kind: int = phonenumbers.PhoneNumberType.FIXED_LINE,
                how: int = phonenumbers.PhoneNumberFormat.INTERNATIONAL) -> str:
        return phonenumbers.format_number(
            phonenumbers.example_number_for_type(region, kind), how)

    mobile = phonenumbers.PhoneNumberType.MOBILE
    national = phonenumbers.PhoneNumberFormat.NATIONAL
    cells = [(written("US"), "Ghana"), (written("CA", how=national), "US"),
             (written("AU", mobile, national), "CX"), (written("GB"), "UK"),
             (written("DE"), "Korea")]
    frame = pd.DataFrame(cells, columns=["Phone", "Country"])
    result = clean(frame, country_column="Country")
    assert result.frame["status"].tolist() == ["accepted"] * 5
    assert result.frame["country"].tolist() == ["US", "CA", "AU", "GB", "DE"]
    assert [str(flags) for flags in result.frame["flags"]] == [
        "other_country", "other_country", "<NA>", "<NA>", "unknown_country"]
