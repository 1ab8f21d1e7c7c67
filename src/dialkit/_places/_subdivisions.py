"""The state, province or territory a lead's address names, read the ways people and
systems write it: a postal code (``FL``), an ISO 3166-2 code (``US-FL``, ``CA-ON``), an
AP-style abbreviation (``Fla.``, ``Ont.``) or the name (``florida``, ``New  York``), in any
case, spacing and width (Unicode NFKC: a full-width ``ＦＬ`` is ``FL``).

The spellings are data, ``subdivisions.toml`` beside this module, with their sources.
Every reader of an address state (the audit's law of the place called, its
``unknown_address_state`` rule, :func:`~dialkit.compliance.next_allowed` and so the
client's guard) reads it here, so that a spelling one of them knows none of them drops.
"""

from __future__ import annotations

import functools
import re
import tomllib
import unicodedata
from importlib import resources
from typing import Any

import numpy as np
import pandas as pd

from ._areas import Objects
from ._regions import is_missing

SUBDIVISIONS_FILE = "subdivisions.toml"

_ISO = re.compile(r"(?P<country>us|ca)\s*-\s*(?P<rest>.+)")
"""An ISO 3166-2 code's country prefix, read case-folded: ``US-FL``, ``ca - on``."""
_IGNORED = re.compile(r"[\s.,\-_'’]+")
"""What a spelling is read without: spaces, dots, commas, hyphens, apostrophes (``N. Y.``,
``W.Va.``, ``Nouveau Brunswick``)."""


def subdivision_of(cell: Any) -> str | None:
    """The ISO 3166-2 code (``US-FL``, ``CA-ON``) of the US state, DC or territory, or
    the Canadian province or territory, that ``cell`` names; ``None`` for a missing or
    blank cell and for one that names none of them (``Flordia``, ``XX``).

    A bare two-letter code is read as a US postal code first: ``CA`` is California
    (Canada's provinces are ``CA-ON`` or ``ON``, whose postal codes no state shares).

    Examples:
        >>> [subdivision_of(cell) for cell in ("FL", "US-FL", "ＦＬ", "Fla.", " florida ")]
        ['US-FL', 'US-FL', 'US-FL', 'US-FL', 'US-FL']
        >>> [subdivision_of(cell) for cell in ("CA", "CA-ON", "Ont.", "Flordia", "")]
        ['US-CA', 'CA-ON', 'CA-ON', None, None]
    """
    if is_missing(cell):
        return None
    text = unicodedata.normalize("NFKC", str(cell)).strip().casefold()
    iso = _ISO.fullmatch(text)
    if iso is not None:
        return _spellings(iso["country"].upper()).get(_key(iso["rest"]))
    key = _key(text)
    return _spellings("US").get(key) or _spellings("CA").get(key)


def subdivisions(cells: Objects | pd.Series) -> Objects:
    """:func:`subdivision_of` of each cell, each distinct cell read once (a column of a
    million leads holds a few dozen spellings)."""
    codes, distinct = pd.factorize(pd.Series(np.asarray(cells, object), dtype=object))
    found = np.array([subdivision_of(cell) for cell in distinct] + [None], object)
    read: Objects = found[np.where(codes >= 0, codes, len(distinct))]
    return read


def subdivision_name(code: str) -> str:
    """The name of the place of an ISO 3166-2 code :func:`subdivision_of` answers.

    Examples:
        >>> subdivision_name("CA-QC")
        'Quebec'
    """
    country, postal = code.split("-", 1)
    return str(_file()[country][postal][0])


def _key(text: str) -> str:
    """A spelling as it is looked up: NFKC, case-folded, without :data:`_IGNORED`."""
    return _IGNORED.sub("", unicodedata.normalize("NFKC", text).casefold())


@functools.cache
def _spellings(country: str) -> dict[str, str]:
    """Every spelling of ``country``'s places (postal code, names, abbreviations) by its
    key, to the place's ISO 3166-2 code.

    Raises:
        ValueError: Two places share a spelling (the table is wrong, not the input)."""
    found: dict[str, str] = {}
    for postal, spelled in _file()[country].items():
        for spelling in (postal, *spelled):
            key, code = _key(spelling), f"{country}-{postal}"
            if found.setdefault(key, code) != code:
                raise ValueError(f"{SUBDIVISIONS_FILE}: {spelling!r} names both "
                                 f"{found[key]} and {code}")
    return found


@functools.cache
def _file() -> dict[str, Any]:
    """The table, read once."""
    text = resources.files("dialkit._places").joinpath(SUBDIVISIONS_FILE).read_text("utf-8")
    return tomllib.loads(text)
