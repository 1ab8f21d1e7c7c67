"""The region a country's name names, read from the registries that keep names (STYLE.md
point 18; the sources are :mod:`._name_sources`).

An alpha-2 code is read as written (:func:`._regions.region_of`), never here: ``N.A.``
folds to ``na`` and is no country (Namibia is ``NA``). An alpha-3 code in capitals is read
as its country before any name (``NGA`` is Nigeria, though ``Nga`` is Russia in
Vietnamese).

A name is read folded (:func:`fold`): its case, accents, punctuation, width and a leading
"The" do not count. A folded name the sources give two places (``kongo``: the Republic of
the Congo in Polish, the Democratic Republic in Norwegian) names neither: the cell is not
read, never guessed. ISO's inverted names are read the other way round and by their head
too (``Korea, Republic of``: ``Republic of Korea``; ``Palestine, State of``:
``Palestine``), and a name with a bracket without it (``Holy See (Vatican City State)``):
those readings only where no source gives the same name outright, and one two places
share (``Virgin Islands``, ``Korea``) names neither. The sources' second rank is read only
where the first gives no such name, outright or so read. A cell whose name is not in the
table but has a qualifier in brackets is read as the name before it, where that names one
place and the qualifier no other (``Slovakia (Slovak Republic)``; not ``Georgia (USA)``).

A name of a place with no numbering plan of its own (``Antarctica``) or of a former
country with no single successor (``Netherlands Antilles``) reads as no region, and
:func:`unread_said` says why, as it does for a name two countries share (``Korea``).

The table is built once, on the first name read (a code never builds it): about 0.9 s of
CPU, each of Babel's locales dropped from Babel's cache once read (kept, they held 84 MiB
of the process; a process that uses Babel itself reloads a locale on its next use of it),
its 32,265 names (29,353 before issue 97 read regional languages) sharing 275 sets of
places.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType

import phonenumbers

from ._name_sources import EVERYDAY_NAMES as EVERYDAY_NAMES
from ._name_sources import (
    alpha3_codes,
    catalogue_names,
    former_names,
    more_names,
    planless,
    source_names,
)
from ._name_sources import cldr_languages as cldr_languages

_MARKS = re.compile("[\u0300-\u036f]")
"""The accents of Latin, Greek and Cyrillic letters, once decomposed (not the marks of
other scripts, which make their letters)."""
_JOINED = ".'\u2019\u02bc`"
"""Dots and apostrophes, dropped without a space: ``U.S.A.``, ``Côte d'Ivoire``."""
_INVERTED = re.compile(r"^(?P<head>[^,]+), (?P<tail>[^,]+)$")
"""ISO's inverted name: ``Korea, Republic of``."""
_BRACKETED = re.compile(r"\s*\([^)]*\)")
_QUALIFIED = re.compile(r"^(?P<name>[^(\[]*[^\s(\[])\s*[(\[](?P<qualifier>[^)\]]*)[)\]]$")
"""A cell's name with a qualifier in brackets after it: ``Slovakia (Slovak Republic)``."""


def fold(text: str) -> str:
    """A name as it is compared: by NFKC (full-width letters), case-folded, without the
    accents of Latin, Greek and Cyrillic letters, ``&`` read as "and", dots and
    apostrophes dropped, any other punctuation or symbol a space, without a leading "the".

    Examples:
        >>> fold(" The Côte d’Ivoire "), fold("U.S.A."), fold("ＤＥ"), fold("St. Kitts & Nevis")
        ('cote divoire', 'usa', 'de', 'st kitts and nevis')
    """
    if text.isascii():  # what NFKC and the accents leave as it is
        text = text.lower().replace("&", " and ")
    else:
        text = unicodedata.normalize("NFKC", text).casefold().replace("&", " and ")
        text = unicodedata.normalize("NFC", _MARKS.sub("", unicodedata.normalize("NFKD", text)))
    words = text.translate(_WORDS).split()
    return " ".join(words[1:] if words[0:1] == ["the"] and len(words) > 1 else words)


class _Words(dict[int, str | None]):
    """What each character is in a folded name, as :meth:`str.translate` reads it, found
    on its first use: a dot or an apostrophe nothing, a letter, mark or digit itself, any
    other a space."""

    def __missing__(self, code: int) -> str | None:
        char = chr(code)
        found = (None if char in _JOINED else
                 char if unicodedata.category(char)[0] in "LMN" else " ")
        if len(self) < _CHARACTERS_KEPT:  # a file of noise keeps no more
            self[code] = found
        return found


_CHARACTERS_KEPT = 1 << 16
_WORDS = _Words()


def region_named(name: str) -> str | None:
    """The region (ISO alpha-2, one ``phonenumbers`` supports) ``name`` names, or ``None``:
    no source gives it, they give it two places, or the place has no numbering plan of
    its own.

    Examples:
        >>> [region_named(name) for name in ("Deutschland", "the netherlands", "Kongo")]
        ['DE', 'NL', None]
        >>> [region_named(name) for name in ("NGA", "Slovakia (Slovak Republic)", "Zaire")]
        ['NG', 'SK', 'CD']
    """
    place = place_named(name)
    return place if place in phonenumbers.SUPPORTED_REGIONS else None


def place_named(name: str) -> str | None:
    """The place ``name`` names: a region ``phonenumbers`` supports, an ISO 3166-1 country
    with no numbering plan of its own, or the ISO 3166-3 alpha-4 code of a former country
    with no single successor; ``None`` where no source gives it or they give it two.

    Examples:
        >>> [place_named(name) for name in ("Antarctica", "Netherlands Antilles", "Korea")]
        ['AQ', 'ANHH', None]
    """
    if len(name) == 3 and name.isascii() and name.isupper() and name in alpha3_codes():
        return alpha3_codes()[name]
    key = fold(name)
    found = named_regions().get(key) if key else None
    if found is not None:
        return _one(found)
    qualified = _QUALIFIED.match(name.strip())
    return _qualified(qualified["name"], qualified["qualifier"]) if qualified else None


def unread_said(name: str) -> str | None:
    """Why a country cell that names a place reads as no region, and what to write
    instead, or ``None``: it names no place the sources know, or it is read.

    Examples:
        >>> print(unread_said("Antarctica").split(":")[0])
        Antarctica (AQ) has no telephone numbering plan of its own
        >>> print(unread_said("Korea").split(":")[0])
        Korea names more than one country, North Korea (KP) and South Korea (KR)
        >>> unread_said("Germany"), unread_said("Atlantis")
        (None, None)
    """
    text = name.strip()
    key = fold(text)
    if not key or region_named(text) is not None:
        return None
    shared = named_regions().get(key, frozenset())
    if len(shared) > 1:
        return (f"{text} names more than one country, {_listed(shared)}: write the ISO "
                "code of the one meant")
    place = text.upper() if text.upper() in planless() else place_named(text)
    if place in planless():
        return (f"{english_name(place)} ({place}) has no telephone numbering plan of its own: "
                "write the country whose plan the number is in, or the number with + and "
                "its country code")
    if place is not None and place in _formers():
        return (f"{text} is a former country that no single country followed (withdrawn "
                f"from ISO 3166 on {_formers()[place]}): write the country the number is in "
                "now")
    return None


@functools.cache
def named_regions() -> Mapping[str, frozenset[str]]:
    """Each folded name the sources give, and the places they give it (two or more: a
    name that names none). The first rank's names outright; then its readings
    (:func:`_readings`), each joined by the places the second rank gives the same name
    outright (``Конга``: the Democratic Republic's name in Belarusian without its bracket,
    the Republic's in pycountry's catalogue: neither); then the second rank's names
    outright, then its readings (:mod:`._name_sources`), less the catalogues' names that
    hold another place's name and none of their own (:func:`_foreign`)."""
    folded: dict[str, str] = {}  # a name of many languages and sources, folded once
    first = set(source_names())
    outright = _regions_by_name(first, folded)
    heads = frozenset(key.split()[0] for key in outright)
    second = set(more_names()) | {
        (name, place) for name, place in set(catalogue_names())
        if not _foreign(_fold_once(name, folded), place, outright, heads)}
    more = _regions_by_name(second, folded)
    read = {key: found | more.get(key, frozenset())
            for key, found in _regions_by_name(_read(first), folded).items()}
    table: dict[str, frozenset[str]] = {}
    for names in (_regions_by_name(_read(second), folded), more, read, outright):
        table |= names  # the later ones win
    alike: dict[frozenset[str], frozenset[str]] = {}  # 32,265 names, 275 sets of places
    return MappingProxyType({key: alike.setdefault(found, found) for key, found in table.items()})


def _foreign(key: str, place: str, outright: Mapping[str, frozenset[str]],
             heads: frozenset[str]) -> bool:
    """Whether a catalogue's name (folded) holds, in whole words, first-rank names of
    other places and none of ``place`` (``heads``: the first words of the first rank's
    names): of pycountry's 22,907 names in the languages read, 328, most of them names the
    first rank gives in a shorter form (``Ikweetiga Guinea``, ``South Georgia und die
    Südlichen Sandwichinseln``), and the catalogues' errors with them (Nigeria's official
    name in Bengali is Nepal's; Afghanistan's in Portuguese, Pakistan's)."""
    if key in outright:
        return False  # the first rank's reading stands
    words = key.split()
    found = [outright[span] for span in (" ".join(words[start:end])
                                         for start in range(len(words)) if words[start] in heads
                                         for end in range(start + 1, len(words) + 1))
             if span in outright]
    return bool(found) and all(place not in places for places in found)


def _read(names: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
    return {(reading, region) for name, region in names for reading in _readings(name)}


def _one(places: frozenset[str]) -> str | None:
    return next(iter(places)) if len(places) == 1 else None


def _qualified(name: str, qualifier: str) -> str | None:
    """The place a cell's name before a bracket names, where the table gives it one and
    the qualifier names no other place (a name, or an ISO code: ``Georgia (GA)`` is no
    country), nor only words where the sources write that name with a bracket of their
    own (``Saint-Martin (Niederländischer Teil)``: in French the bracket tells MF and SX
    apart)."""
    key = fold(name)
    place = _one(named_regions().get(key, frozenset()))
    said = qualifier.strip()
    other = (alpha3_codes().get(said.upper()) or
             (said.upper() if said.upper() in _codes() else None) or
             _one(named_regions().get(fold(said), frozenset())))
    if other is None and key in _bracketed_heads():
        return None
    return place if other in (None, place) else None


@functools.cache
def _bracketed_heads() -> frozenset[str]:
    """Each folded name that a source writes before a bracket (``Saint-Martin``, MF and SX
    in French, told apart by the bracket)."""
    names = {*source_names(), *more_names(), *catalogue_names()}
    return frozenset(fold(name.split("(")[0]) for name, _ in names if "(" in name)


@functools.cache
def _codes() -> frozenset[str]:
    return frozenset(alpha3_codes().values()) | phonenumbers.SUPPORTED_REGIONS


@functools.cache
def _formers() -> Mapping[str, str]:
    """Each former country with no single successor (by its alpha-4 code), and the date
    ISO 3166 withdrew it."""
    import pycountry

    return MappingProxyType({former.alpha_4: former.withdrawal_date
                             for former in pycountry.historic_countries
                             if former.alpha_4 in {named for _, named in former_names()}})


def english_name(place: str) -> str:
    """A region's name in English, as CLDR writes it (``France``); its code where CLDR
    has none."""
    from babel import Locale

    return str(Locale.parse("en").territories.get(place, place))


def _listed(places: Iterable[str]) -> str:
    named = sorted(f"{english_name(place)} ({place})" for place in places)
    return f"{', '.join(named[:-1])} and {named[-1]}"


def _readings(name: str) -> Iterator[str]:
    """Other ways a person writes an inverted or bracketed name."""
    unbracketed = _BRACKETED.sub("", name)
    if unbracketed != name:
        yield unbracketed
    inverted = _INVERTED.match(unbracketed)
    if inverted:
        yield f"{inverted['tail']} {inverted['head']}"
        yield inverted["head"]


def _fold_once(name: str, folded: dict[str, str]) -> str:
    """``name`` folded, from ``folded`` where it was before (added to it otherwise)."""
    key = folded.get(name)
    if key is None:
        key = folded[name] = fold(name)
    return key


def _regions_by_name(names: Iterable[tuple[str, str]], folded: dict[str, str] | None = None
                     ) -> dict[str, frozenset[str]]:
    """Each folded name, and the regions ``names`` give it (``folded``: the names folded
    so far, added to)."""
    folded = {} if folded is None else folded
    found: defaultdict[str, set[str]] = defaultdict(set)
    for name, region in names:
        key = _fold_once(name, folded)
        if key:
            found[key].add(region)
    return {key: frozenset(regions) for key, regions in found.items()}
