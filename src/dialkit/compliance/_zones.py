"""Where phone numbers are: now :mod:`dialkit._places._zones`, which leads, analytics and
the emulator share. Kept here for the compliance modules that import it by this name
(``_checks``, ``_audit``) until they import ``dialkit._places`` themselves (issue 24)."""

from dialkit._places._zones import ZONES, Rows, Zoned, codes_in, codes_of, regions_among, zoned

__all__ = ["ZONES", "Rows", "Zoned", "codes_in", "codes_of", "regions_among", "zoned"]
