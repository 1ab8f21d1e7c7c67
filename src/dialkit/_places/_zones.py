"""The names :mod:`dialkit._phones._zones` gave the compliance package here before phone
numbers had a package of their own (issue 49): to go once its modules import them from
there (a separate change, so that the move merges without touching theirs)."""

from __future__ import annotations

from .._phones._zones import ZONES, Rows, Zoned, regions_among, zone_sets, zoned

__all__ = ["ZONES", "Rows", "Zoned", "regions_among", "zone_sets", "zoned"]
