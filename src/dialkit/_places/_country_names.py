"""The region a country's name names, read from the registries that keep names (issue 70,
STYLE.md point 18), and from a list of ours only where they have none:

- CLDR's territory names, as Babel ships them (``Locale.territories``), in each official
  language of each region ``phonenumbers`` supports, de facto ones too, as CLDR records
  them (``babel.languages.get_official_languages``): each country's own name and the
  names in the languages lead files come in (105 of Babel 2.19's locales);
- ISO 3166-1, as pycountry ships it: each country's alpha-3 code and its short, official
  and common English names;
- :data:`EVERYDAY_NAMES`, the few that people write and neither registry has.

An alpha-2 code is read as written (:func:`._regions.region_of`), never here: ``N.A.``
folds to ``na`` and is no country (Namibia is ``NA``).

A name is read folded (:func:`fold`): its case, accents, punctuation, width and a leading
"The" do not count. A folded name the sources give two regions (``kongo``: the Republic of
the Congo in Polish, the Democratic Republic in Norwegian) names neither: the cell is not
read, never guessed. ISO's inverted names are read the other way round and by their head
too (``Korea, Republic of``: ``Republic of Korea``; ``Palestine, State of``:
``Palestine``), and a name with a bracket without it (``Holy See (Vatican City State)``):
those readings only where no source gives the same name outright, and one two regions
share (``Virgin Islands``, ``Korea``) names neither.

The table is built once, on the first name read (a code never builds it): 0.3 s, each of
Babel's locales dropped from Babel's cache once read (kept, they held 84 MiB of the
process; a process that uses Babel itself reloads a locale on its next use of it).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType

import phonenumbers

EVERYDAY_NAMES = {
    "U.S.": "US", "UK": "GB", "Great Britain": "GB", "England": "GB", "Scotland": "GB",
    "Wales": "GB", "Northern Ireland": "GB", "Republic of Ireland": "IE", "Macedonia": "MK",
    "Vatican": "VA", "Democratic Republic of Congo": "CD",
}
"""Names people write that neither CLDR nor ISO 3166 gives (a test holds each absent from
both): the usual short names of the United States and the United Kingdom, the United
Kingdom's constituent countries (its subdivisions in ISO 3166-2), Ireland's, and three
names ``phonenumbers``' geocoder gives (the table of names before issue 70 was the
geocoder's)."""

_MARKS = re.compile("[\u0300-\u036f]")
"""The accents of Latin, Greek and Cyrillic letters, once decomposed (not the marks of
other scripts, which make their letters)."""
_JOINED = str.maketrans("", "", ".'\u2019\u02bc`")
"""Dots and apostrophes, dropped without a space: ``U.S.A.``, ``Côte d'Ivoire``."""
_INVERTED = re.compile(r"^(?P<head>[^,]+), (?P<tail>[^,]+)$")
"""ISO's inverted name: ``Korea, Republic of``."""
_BRACKETED = re.compile(r"\s*\([^)]*\)")


def fold(text: str) -> str:
    """A name as it is compared: by NFKC (full-width letters), case-folded, without the
    accents of Latin, Greek and Cyrillic letters, ``&`` read as "and", dots and
    apostrophes dropped, any other punctuation or symbol a space, without a leading "the".

    Examples:
        >>> fold(" The Côte d’Ivoire "), fold("U.S.A."), fold("ＤＥ"), fold("St. Kitts & Nevis")
        ('cote divoire', 'usa', 'de', 'st kitts and nevis')
    """
    text = unicodedata.normalize("NFKC", text).casefold().replace("&", " and ")
    bare = unicodedata.normalize("NFC", _MARKS.sub("", unicodedata.normalize("NFKD", text)))
    words = "".join(char if unicodedata.category(char)[0] in "LMN" else " "
                    for char in bare.translate(_JOINED)).split()
    return " ".join(words[1:] if words[0:1] == ["the"] and len(words) > 1 else words)


def region_named(name: str) -> str | None:
    """The region (ISO alpha-2) ``name`` names, or ``None``: no source gives it, or they
    give it two regions.

    Examples:
        >>> [region_named(name) for name in ("Deutschland", "the netherlands", "Kongo")]
        ['DE', 'NL', None]
    """
    key = fold(name)
    regions = named_regions().get(key, frozenset()) if key else frozenset()
    return next(iter(regions)) if len(regions) == 1 else None


@functools.cache
def named_regions() -> Mapping[str, frozenset[str]]:
    """Each folded name the sources give, and the regions they give it (two or more: a
    name that names none); a reading of an inverted or bracketed name only where no source
    gives that name outright."""
    names = set(source_names())  # a name of many languages, folded once
    outright = _regions_by_name(names)
    readings = _regions_by_name({(reading, region) for name, region in names
                                 for reading in _readings(name)})
    return MappingProxyType(readings | outright)


def source_names() -> Iterator[tuple[str, str]]:
    """Every (name, region) the sources give, as they write it, of the regions
    ``phonenumbers`` supports."""
    regions = phonenumbers.SUPPORTED_REGIONS
    yield from _cldr_names(regions)
    yield from _iso_names(regions)
    yield from EVERYDAY_NAMES.items()


def cldr_languages() -> list[str]:
    """The official languages (de facto ones too) of the regions ``phonenumbers``
    supports, as CLDR records them, of which Babel ships a locale."""
    from babel import localedata
    from babel.languages import get_official_languages

    languages = {language for region in phonenumbers.SUPPORTED_REGIONS
                 for language in get_official_languages(region, de_facto=True)}
    return sorted(language for language in languages if localedata.exists(language))


def _cldr_names(regions: Iterable[str]) -> Iterator[tuple[str, str]]:
    from babel import Locale, localedata

    wanted = set(regions)
    for language in cldr_languages():
        names = dict(Locale.parse(language).territories)
        localedata.clear_caches()  # the whole locale's data, held for no other use
        yield from ((name, code) for code, name in names.items() if code in wanted)


def _iso_names(regions: Iterable[str]) -> Iterator[tuple[str, str]]:
    import pycountry

    wanted = set(regions)
    for country in pycountry.countries:
        if country.alpha_2 in wanted:
            for field in ("alpha_3", "name", "official_name", "common_name"):
                name = getattr(country, field, None)
                if name:
                    yield name, country.alpha_2


def _readings(name: str) -> Iterator[str]:
    """Other ways a person writes an inverted or bracketed name."""
    unbracketed = _BRACKETED.sub("", name)
    if unbracketed != name:
        yield unbracketed
    inverted = _INVERTED.match(unbracketed)
    if inverted:
        yield f"{inverted['tail']} {inverted['head']}"
        yield inverted["head"]


def _regions_by_name(names: Iterable[tuple[str, str]]) -> dict[str, frozenset[str]]:
    found: defaultdict[str, set[str]] = defaultdict(set)
    for name, region in names:
        key = fold(name)
        if key:
            found[key].add(region)
    return {key: frozenset(regions) for key, regions in found.items()}
