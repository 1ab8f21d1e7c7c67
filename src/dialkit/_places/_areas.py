"""The US state of each NANP area code, from ``area_codes.toml`` beside this module.

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


@functools.cache
def _area_table() -> Objects:
    """Each three-digit area code's state (``None``: none), by the code as an index."""
    text = resources.files("dialkit._places").joinpath(AREA_CODES_FILE).read_text("utf-8")
    table = np.full(1000, None, object)
    for state, codes in tomllib.loads(text)["states"].items():
        table[codes] = state
    return table
