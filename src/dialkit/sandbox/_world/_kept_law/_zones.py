"""Every zone of a split area code, for the seeded world.

A number of an area code whose exchanges lie in more than one zone (423: Chicago and
New York), of an exchange ``phonenumbers`` does not place (every ``555`` exchange of the
world), is judged by the audit in every zone of its area code
(:func:`dialkit._places._areas.area_zones`): a call is allowed only when every zone's
clock allows it. The world keeps its dialling to the same reading, so that its only
split-zone findings are the ones it plants. Its clock keeps a number's first zone; what
the other zones add is each area code's least and most offset from that zone per day,
tabulated once (a few dozen area codes by a few dozen days), never per call.
"""

from __future__ import annotations

import numpy as np

from dialkit._places._areas import area_zones

from .._numbers import COUNTRIES, I64, LocalClock, Numbers, _noon_offset


def area_spread(phones: Numbers, clock: LocalClock) -> tuple[I64, I64]:
    """Per lead, the index of its split area code (``0``: none); per such index and day of
    ``clock``, the least and most offset (ms) of the area code's zones from the number's
    own (``[index, day, 2]``; ``0`` on index 0): a local time ``t`` at the number is
    ``t + offset`` in each other zone."""
    zones = area_zones()
    nanp = np.isin(phones.country, [COUNTRIES.index("US"), COUNTRIES.index("CA")])
    area = phones.e164.astype("U5").astype(np.int64) % 1000  # "+1423..." (np.strings.slice
    code = np.where(nanp, area, 0)                            # is numpy 2.3's, past our floor)
    split = nanp & np.isin(code, list(zones))
    keys, where = np.unique(np.strings.add(code.astype(np.str_), phones.zone)[split],
                            return_inverse=True)
    lead_area = np.zeros(len(phones.e164), dtype=np.int64)
    lead_area[split] = where.ravel() + 1
    days = range(clock.first_day, clock.first_day + clock.offsets.shape[1])
    spread = np.zeros((len(keys) + 1, len(days), 2), dtype=np.int64)
    of: dict[str, I64] = {}
    for k, key in enumerate(keys.tolist(), 1):
        for zone in (key[3:], *zones[int(key[:3])]):
            if zone not in of:
                of[zone] = np.array([_noon_offset(zone, day) for day in days], dtype=np.int64)
        offsets = np.array([of[zone] for zone in zones[int(key[:3])]]) - of[key[3:]]
        spread[k, :, 0] = np.minimum(offsets.min(axis=0), 0)
        spread[k, :, 1] = np.maximum(offsets.max(axis=0), 0)
    return lead_area, spread
