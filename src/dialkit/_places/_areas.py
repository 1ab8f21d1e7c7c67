"""The US state of each NANP area code (and Canada's province), every zone of an area
code that spans more than one, and the US territories, from ``area_codes.toml`` beside
this module.

The table was made from ``phonenumbers``' geocoder data (the geocoder itself names
some area codes by a city, so it is not read at run time). The audit
(:func:`._states.places`) and the emulator's world both place a number by
:func:`area_states`, so the law the world keeps is the law the audit applies; it
needs numpy alone, so the emulator places its numbers without loading pandas.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

AREA_CODES_FILE = "area_codes.toml"
Objects = NDArray[np.object_]


def area_states(areas: NDArray[np.int64]) -> Objects:
    """The US state (postal code) of each three-digit NANP area code; ``None`` for a code
    of no state (toll-free, non-geographic, another country's, unassigned).

    Examples:
        >>> area_states(np.array([212, 800])).tolist()
        ['NY', None]
    """
    found: Objects = _area_table()[areas]
    return found


def area_provinces(areas: NDArray[np.int64]) -> Objects:
    """The Canadian province or territory (Canada Post code) of each three-digit NANP
    area code; ``None`` for a code of no single one (a US code, 902 of both Nova Scotia
    and Prince Edward Island, a non-geographic code).

    Examples:
        >>> area_provinces(np.array([416, 902])).tolist()
        ['ON', None]
    """
    found: Objects = _area_table("provinces")[areas]
    return found


def area_zones() -> dict[int, tuple[str, ...]]:
    """Every zone of each NANP area code whose exchanges lie in more than one (or that
    ``phonenumbers`` gives no zone of its own): what a number of an exchange it does not
    place is judged in (:data:`._prefixes.PREFIX_ZONES`).

    Examples:
        >>> area_zones()[423]
        ('America/Chicago', 'America/New_York')
    """
    return {int(code): tuple(zones) for code, zones in _file()["zones"].items()}


def territories() -> dict[str, str]:
    """The regions (``PR``) whose numbers the law of a country (``US``) covers though
    ``phonenumbers`` gives them a region of their own; the citation and quote are the
    table's (``[territories]`` in ``area_codes.toml``).

    Examples:
        >>> territories()["PR"]
        'US'
    """
    entry = _file()["territories"]
    return dict.fromkeys(entry["regions"], entry["country"])


@functools.cache
def _area_table(section: str = "states") -> Objects:
    """Each three-digit area code's state (or province, of ``section``; ``None``: none),
    by the code as an index."""
    table = np.full(1000, None, object)
    for state, codes in _file()[section].items():
        table[codes] = state
    return table


@functools.cache
def _file() -> dict[str, Any]:
    """The table, read once."""
    text = resources.files("dialkit._places").joinpath(AREA_CODES_FILE).read_text("utf-8")
    return tomllib.loads(text)
