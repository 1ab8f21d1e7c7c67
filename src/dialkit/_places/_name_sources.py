"""The names of places the registries keep (STYLE.md point 18), in two
ranks, and the few names people write that none of them gives.

The first rank, the names a place goes by now in its own languages and in English:

- CLDR's territory names, as Babel ships them (``Locale.territories``), in each official
  language of each region ``phonenumbers`` supports, de facto ones too, and each language
  official in part of one that many of its people speak (:data:`REGIONAL_SHARE`), as CLDR
  records them (``babel.languages``; 118 of Babel 2.19's locales, 105 before issue 97);
- ISO 3166-1, as pycountry ships it: each country's alpha-3 code and its short, official
  and common English names;
- :data:`EVERYDAY_NAMES`, each with its source (:data:`EVERYDAY_SOURCES`).

The second rank, read where no name of the first gives the same folded name:

- ISO 3166-1's names in those same languages, from the catalogues pycountry ships
  (``Bundesrepublik Deutschland``, ``中华人民共和国``, ``Estados Unidos de América``:
  :func:`catalogue_names`);
- the names ``phonenumbers``' geocoder gives a region in each of its languages (the JDK's,
  ``geodata.locale``, copied to ``geocoder_names.toml``: ``السعودية``, ``ประเทศไทย``,
  ``Palestinian Territory``);
- ISO 3166-3's former countries, as pycountry ships them, read as the one country that
  followed each (``Zaire``, ``Upper Volta``, ``Dahomey``); one with no single successor
  (``Netherlands Antilles``, ``Yugoslavia``) names its own alpha-4 code, no region.

The ranks are apart because the catalogues are translated by fewer hands: of their
22,907 names in the languages read, 8 give a name the first rank gives another country
(``Mexico`` for Malaysia in Guarani, ``Sámoa`` for American Samoa in Faroese), and the
first rank's reading stands.

Babel ships none of CLDR's short and variant names (``UK``, ``US``, ``Ivory Coast``, all
``alt="short"`` or ``alt="variant"`` in CLDR): its importer keeps an ``alt`` name only
where a territory has no other, and no locale of Babel 2.19 holds one.

The places are the regions ``phonenumbers`` supports and every ISO 3166-1 country, the
seven with no numbering plan of their own (:func:`planless`) among them: a name of
Antarctica is read as AQ, so that it can be refused as such, not as an unknown name.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType

import phonenumbers

_EVERYDAY = (
    ("U.S.", "US", "CLDR's short English name of US (en.xml, alt=\"short\"), which Babel "
                   "does not ship; The World Factbook's abbreviation"),
    ("UK", "GB", "CLDR's short English name of GB (en.xml, alt=\"short\"), which Babel does "
                 "not ship; The World Factbook's abbreviation"),
    ("UAE", "AE", "The World Factbook's abbreviation (its field \"Country name\")"),
    ("PRC", "CN", "The World Factbook's abbreviation (its field \"Country name\")"),
    ("DRC", "CD", "The World Factbook's abbreviation (its field \"Country name\")"),
    ("EE. UU.", "US", "the Spanish abbreviation of Estados Unidos (RAE, Diccionario "
                      "panhispánico de dudas)"),
    ("EE.UU.", "US", "the same, as it is written without its space"),
    ("한국", "KR", "the short name of 대한민국 the State Council's Notice No. 7 of 1950 "
                  "allows (대한 or 한국); NIKL's Standard Korean Dictionary, 한국 (韓國) "
                  "sense 2: =대한민국"),
    ("Libyan Arab Jamahiriya", "LY", "ISO 3166-1's English short name of LY until 2011 "
                                     "(UN M49's too until then)"),
    ("United States Virgin Islands", "VI", "UN M49's English name of VI"),
    ("Svalbard and Jan Mayen Islands", "SJ", "UN M49's English name of SJ"),
    ("Wallis and Futuna Islands", "WF", "UN M49's English name of WF"),
    ("Great Britain", "GB", "the island whose initials ISO 3166-1's GB is, and the name the "
                            "United Kingdom competes under at the Olympic Games (GBR)"),
    ("England", "GB", "ISO 3166-2:GB, a country of GB (GB-ENG)"),
    ("Scotland", "GB", "ISO 3166-2:GB, a country of GB (GB-SCT)"),
    ("Wales", "GB", "ISO 3166-2:GB, a country of GB (GB-WLS)"),
    ("Northern Ireland", "GB", "ISO 3166-2:GB, a province of GB (GB-NIR)"),
    ("Republic of Ireland", "IE", "the description of the state in Ireland's Republic of "
                                  "Ireland Act 1948"),
    ("Estados Unidos Mexicanos", "MX", "Mexico's name in its Constitution (Constitución "
                                       "Política de los Estados Unidos Mexicanos, art. 43); "
                                       "pycountry's Spanish catalogue gives it as ISO's "
                                       "official name, but it holds the US's Spanish name, so "
                                       "the catalogue's reading of it is left out"),
)
EVERYDAY_NAMES: Mapping[str, str] = MappingProxyType(
    {name: region for name, region, _ in _EVERYDAY})
"""Names people write that no source of either rank gives (a test holds each absent from
all of them), or that one gives and its rank leaves out (``Estados Unidos Mexicanos``: a
catalogue's name that holds another country's name), each with its region."""
EVERYDAY_SOURCES: Mapping[str, str] = MappingProxyType(
    {name: source for name, _, source in _EVERYDAY})
"""Where each of :data:`EVERYDAY_NAMES` is written as a name of its region."""

GEOCODER_FILE = "geocoder_names.toml"
"""The geocoder's names, copied from ``phonenumbers.geodata.locale`` (importing them there
loads the whole geocoder: 0.25 s and 99 MiB), checked against it by a test."""

_NO_SUCCESSOR = frozenset({"HH", "XX"})
"""The tails of an ISO 3166-3 alpha-4 code that name no single successor; any other names
the one country that followed (``ZRCD``: Zaire, then CD), and ``AA`` the country's own
alpha-2 (``BYAA``: the Byelorussian SSR, then BY)."""


@functools.cache
def places() -> frozenset[str]:
    """The regions ``phonenumbers`` supports and every ISO 3166-1 country (alpha-2)."""
    import pycountry

    return frozenset(phonenumbers.SUPPORTED_REGIONS) | {
        country.alpha_2 for country in pycountry.countries}


@functools.cache
def planless() -> frozenset[str]:
    """The ISO 3166-1 countries with no telephone numbering plan of their own: those
    ``phonenumbers`` gives no calling code (Antarctica, Bouvet Island, Heard Island, the
    Pitcairn Islands, the US Minor Outlying Islands, South Georgia, the French Southern
    Territories)."""
    return frozenset(code for code in places()
                     if phonenumbers.country_code_for_region(code) == 0)


@functools.cache
def alpha3_codes() -> Mapping[str, str]:
    """Each ISO 3166-1 alpha-3 code, and its country's alpha-2."""
    import pycountry

    return MappingProxyType({country.alpha_3: country.alpha_2
                             for country in pycountry.countries})


def source_names() -> Iterator[tuple[str, str]]:
    """Every (name, place) of the first rank, as the sources write it."""
    yield from _cldr_names()
    yield from _iso_names()
    yield from EVERYDAY_NAMES.items()


def more_names() -> Iterator[tuple[str, str]]:
    """Every (name, place) of the second rank but the catalogues', as the sources write
    it: the geocoder's names and ISO 3166-3's former countries."""
    yield from _geocoder_names()
    yield from former_names()


REGIONAL_SHARE = 5.0
"""The share of a region's people (in %) that must speak a language official in part of
it for its names to be read (Afrikaans in South Africa, 13 %: ``Suid-Afrika``; Galician in
Spain, 7 %; not Hawaiian in the US)."""


def cldr_languages() -> list[str]:
    """The official languages (de facto ones too) of the regions ``phonenumbers``
    supports, and those official in part of one spoken by :data:`REGIONAL_SHARE` of its
    people, as CLDR records them, of which Babel ships a locale."""
    from babel import localedata
    from babel.languages import get_official_languages, get_territory_language_info

    languages = {language for region in phonenumbers.SUPPORTED_REGIONS
                 for language in get_official_languages(region, de_facto=True)}
    languages |= {language for region in phonenumbers.SUPPORTED_REGIONS
                  for language, said in get_territory_language_info(region).items()
                  if said["official_status"] == "official_regional"
                  and float(said["population_percent"] or 0) >= REGIONAL_SHARE}
    return sorted(language for language in languages if localedata.exists(language))


def _cldr_names() -> Iterator[tuple[str, str]]:
    from babel import Locale, localedata

    wanted = places()
    for language in cldr_languages():
        names = dict(Locale.parse(language).territories)
        localedata.clear_caches()  # the whole locale's data, held for no other use
        yield from ((name, code) for code, name in names.items() if code in wanted)


def _iso_names() -> Iterator[tuple[str, str]]:
    for country, names in _iso_countries():
        yield from ((name, country) for name in names)
    yield from alpha3_codes().items()


def _iso_countries() -> Iterator[tuple[str, list[str]]]:
    """Each ISO 3166-1 country (alpha-2) and its English short, official and common
    names."""
    import pycountry

    for country in pycountry.countries:
        yield country.alpha_2, [name for field in ("name", "official_name", "common_name")
                                if (name := getattr(country, field, None))]


def catalogue_names() -> Iterator[tuple[str, str]]:
    """Every (name, place) of the second rank's catalogues: ISO 3166-1's names in
    pycountry's catalogues of the languages CLDR is read in."""
    import gettext

    import pycountry

    languages = set(cldr_languages())
    countries = list(_iso_countries())
    for catalogue in sorted(os.listdir(pycountry.LOCALES_DIR)):
        if re.split("[_@]", catalogue)[0] not in languages:
            continue
        found = gettext.find("iso3166-1", pycountry.LOCALES_DIR, [catalogue])
        if found is None:  # a language with no catalogue of ISO 3166-1
            continue
        with open(found, "rb") as file:  # not gettext.translation: it keeps each, 6 MiB
            words = gettext.GNUTranslations(file)
        yield from ((words.gettext(name), country) for country, names in countries
                    for name in names)


def _geocoder_names() -> Iterator[tuple[str, str]]:
    """The names ``phonenumbers``' geocoder gives each region, in each of its languages,
    from the copy beside this module (:data:`GEOCODER_FILE`)."""
    import tomllib
    from importlib import resources

    text = resources.files("dialkit._places").joinpath(GEOCODER_FILE).read_text("utf-8")
    wanted = places()
    for region, names in tomllib.loads(text)["names"].items():
        if region in wanted:
            yield from ((name, region) for name in names)


def former_names() -> Iterator[tuple[str, str]]:
    """ISO 3166-3's former countries, each named as the one country that followed it, or
    by its own alpha-4 code where none did (or where what followed is itself gone:
    Yugoslavia, then Serbia and Montenegro)."""
    import pycountry

    wanted = places()
    for former in pycountry.historic_countries:
        tail = former.alpha_4[2:]
        successor = former.alpha_2 if tail == "AA" else tail
        named = (successor if successor in wanted and tail not in _NO_SUCCESSOR
                 else former.alpha_4)
        yield former.name, named
