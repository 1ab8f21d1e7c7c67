"""The time zones of each US state: every zone the prefixes table
(:data:`._prefixes.PREFIX_ZONES`: ``phonenumbers``' own, with every zone of a split area
code) gives a number of one of the state's area codes (:mod:`._areas`), so that a lead's
address state is judged on its own clocks (Texas's: Central, and Mountain for El Paso's
915), not on those of a number that may be another state's.

Examples:
    >>> [ZONES[zone] for zone in state_zones("TX")]
    ['America/Chicago', 'America/Denver']
"""

from __future__ import annotations

import functools

import numpy as np

from .._phones._prefixes import PREFIX_ZONES
from .._phones._zones import _ZONE_IDS, ZONES
from ._areas import area_states

__all__ = ["ZONES", "state_zones"]


def state_zones(state: str) -> tuple[int, ...]:
    """The zones (indexes into :data:`._zones.ZONES`, sorted) of the US ``state`` (postal
    code); none for a code of no state."""
    return _by_state().get(state, ())


@functools.cache
def _by_state() -> dict[str, tuple[int, ...]]:
    """Each state's zones: those of every prefix ``1`` + one of its area codes, and of
    every longer prefix under it (an area code whose exchanges lie in two zones)."""
    codes = np.arange(1000)
    states = area_states(codes)
    found: dict[str, set[int]] = {}
    for prefix, zones in PREFIX_ZONES.items():
        if len(prefix) < 4 or prefix[0] != "1":
            continue
        state = states[int(prefix[1:4])]
        if state is not None:
            found.setdefault(state, set()).update(_ZONE_IDS[z] for z in zones if z in _ZONE_IDS)
    return {state: tuple(sorted(zones)) for state, zones in found.items()}
