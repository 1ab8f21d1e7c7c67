"""A country cell read as people write it (issue 70): every name CLDR gives a region in
its own languages and the languages lead files come in, every ISO 3166 code and name,
everyday names, calling codes; a name two regions are called by reads as neither.

The truth is the registries' (Babel's CLDR, pycountry's ISO 3166, ``phonenumbers``' own
geocoder) or written by hand (:mod:`country_cells`), never what ``region_of`` answered.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from collections import defaultdict

import pandas as pd
import phonenumbers
import pycountry
import pytest
from babel import Locale, localedata
from babel.languages import get_official_languages
from country_cells import CELLS

from dialkit._places._country_names import EVERYDAY_NAMES, fold
from dialkit.leads import region_of

SUPPORTED = phonenumbers.SUPPORTED_REGIONS
LEAD_LANGUAGES = {"en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ru", "ar", "hi",
                  "ko", "tr", "sv", "da", "nb", "fi", "el", "hu", "cs", "ro", "uk", "vi"}
"""Languages lead files come in: each must be among those read."""
ISO_FIELDS = ("alpha_2", "alpha_3", "name", "official_name", "common_name")
UNREAD = {"DR Congo", "日本国"}
"""Cells of :data:`CELLS` no registry names (an abbreviation, an official name no
catalogue gives; issue 80 read the others): read as no region, never a wrong one."""
MOST_COLLISIONS = 12


@functools.cache
def cldr_names() -> list[tuple[str, str, str]]:
    """(language, name, region) of every region ``phonenumbers`` supports, in each official
    language (de facto ones too) of those regions of which Babel has a locale."""
    languages = {language for region in SUPPORTED
                 for language in get_official_languages(region, de_facto=True)}
    found = [(language, name, code) for language in sorted(languages)
             if localedata.exists(language)
             for code, name in Locale.parse(language).territories.items() if code in SUPPORTED]
    localedata.clear_caches()  # 84 MiB of locales, for no other test
    return found


@functools.cache
def iso_names() -> list[tuple[str, str, str]]:
    """(field, value, alpha-2) of each ISO 3166-1 country ``phonenumbers`` supports."""
    return [(field, getattr(country, field), country.alpha_2) for country in pycountry.countries
            if country.alpha_2 in SUPPORTED for field in ISO_FIELDS
            if getattr(country, field, None)]


def given_names() -> list[tuple[str, str]]:
    """Every (name, region) of CLDR and ISO 3166 but the alpha-2 codes, which are read as
    written, not as names."""
    return [*((name, code) for _, name, code in cldr_names()),
            *((name, code) for field, name, code in iso_names() if field != "alpha_2")]


@functools.cache
def collisions() -> dict[str, set[str]]:
    """Each folded name the registries (and the everyday names) give two regions or more."""
    found: defaultdict[str, set[str]] = defaultdict(set)
    for name, code in [*given_names(), *EVERYDAY_NAMES.items()]:
        found[fold(name)].add(code)
    return {name: codes for name, codes in found.items() if len(codes) > 1}


def test_the_languages_lead_files_come_in_are_read() -> None:
    assert {language for language, _, _ in cldr_names()} >= LEAD_LANGUAGES


def test_every_cldr_name_reads_as_its_region() -> None:
    wrong = [(language, name, code, region_of(name)) for language, name, code in cldr_names()
             if region_of(name) != (None if fold(name) in collisions() else code)]
    assert wrong == []


def test_every_iso_code_and_name_reads_as_its_region() -> None:
    codes = ("alpha_2", "alpha_3")  # a code in capitals is read as its country (issue 80)
    wrong = [(field, name, code, region_of(name)) for field, name, code in iso_names()
             if region_of(name) != (None if field not in codes and fold(name) in collisions()
                                    else code)]
    assert wrong == []


def test_a_name_two_regions_are_called_by_reads_as_neither() -> None:
    """The registries' names that read as no region are exactly those that collide."""
    unread = {fold(name) for name, _ in given_names() if region_of(name) is None}
    assert unread == set(collisions())
    assert 0 < len(collisions()) <= MOST_COLLISIONS, sorted(collisions().items())


def test_the_geocoders_english_names_read_as_their_regions() -> None:
    """The names the table before issue 70 held: ``phonenumbers``' geocoder's."""
    from phonenumbers import geocoder

    named = {}
    for code in SUPPORTED:
        example = phonenumbers.example_number(code)
        name = example and geocoder.country_name_for_number(example, "en")
        if name:
            named[name] = code
    assert len(named) > 230
    assert {name: region_of(name) for name in named} == named


def test_each_everyday_name_is_in_neither_registry() -> None:
    """A name a registry gives is read from it: the list never repeats one."""
    given = {fold(name) for name, _ in given_names()}
    assert [name for name in EVERYDAY_NAMES if fold(name) in given] == []


def test_the_uk_countries_are_its_subdivisions_and_read_as_it() -> None:
    subdivisions = {fold(area.name.split(" [")[0])
                    for area in pycountry.subdivisions.get(country_code="GB")
                    if area.type in ("Country", "Province")}
    assert subdivisions == {"england", "scotland", "wales", "northern ireland"}
    assert {region_of(name) for name in EVERYDAY_NAMES if fold(name) in subdivisions} == {"GB"}


@pytest.mark.parametrize(("cell", "region"), CELLS.items(), ids=repr)
def test_a_cell_reads_as_a_person_reads_it(cell: str, region: str | None) -> None:
    assert region_of(cell) == (None if cell in UNREAD else region)


def test_the_unread_cells_are_cells_a_person_reads() -> None:
    assert {cell for cell, region in CELLS.items() if region is not None} >= UNREAD


@pytest.mark.parametrize(("cell", "region"), [
    ("u.s.a.", "US"), ("MEXICO", "MX"), ("ＤＥ", "DE"), (" the netherlands ", "NL"),
    ("Ｇｅｒｍａｎｙ", "DE"), ("ÖSTERREICH", "AT"), ("osterreich", "AT"), ("THE GAMBIA", "GM"),
    ("Cote D'Ivoire", "CI"), ("Côte d’Ivoire", "CI"), ("Guinea Bissau", "GW"),
    ("Bosnia & Herzegovina", "BA"), ("St. Kitts & Nevis", "KN"), ("Saint Kitts and Nevis", "KN"),
    ("españa", "ES"), ("ESPAÑA", "ES"), ("Deutschland\u00a0", "DE"), ("  Italia", "IT")])
def test_case_accents_punctuation_and_width_do_not_count(cell: str, region: str) -> None:
    assert region_of(cell) == region


@pytest.mark.parametrize(("cell", "region"), [
    ("+49", "DE"), ("0049", "DE"), ("49", "DE"), ("+ 49", "DE"), ("+1", "US"), ("001", "US"),
    ("٤٩", "DE"), ("+44", "GB"), ("+999", None), ("12345", None), ("0", None), ("00", None),
    pytest.param("1" * 5000, None, id="5000 digits")])
def test_a_calling_code_reads_as_its_main_region(cell: str, region: str | None) -> None:
    assert region_of(cell) == region


@pytest.mark.parametrize("cell", ["Atlantis", "", "  ", "N/A", "12345", "+999", "-", "The",
                                  "+", "00", None, float("nan"), pd.NA, "Kongo", "Korea"])
def test_what_names_no_region_reads_as_none(cell: object) -> None:
    assert region_of(cell) is None


def test_codes_read_without_loading_the_names() -> None:
    """An ISO-coded column costs what it did: Babel and pycountry stay unloaded."""
    code = ("import sys; from dialkit.leads import region_of; "
            "found = [region_of(c) for c in ['gb', 'DE', '+49', '0049', '49', '', '  ', "
            "None, '-', '12345', '0', '00', '+']]; "
            "print(found[:5], 'babel' in sys.modules or 'pycountry' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "['GB', 'DE', 'DE', 'DE', 'DE'] False"
