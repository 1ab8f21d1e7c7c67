"""Phone numbers read a whole column at a time, as ``phonenumbers`` reads them one by one.

One package owns how the toolkit reads numbers:

- :mod:`._metadata`: the only module that touches ``phonenumbers``' private functions
  and Python's ``re._parser``; the calling codes and the lengths ``parse`` keeps.
- :mod:`._parse`: ``parse`` over a column, the one the leads' verdicts
  (``dialkit.leads._normalize._fast``) and the zones share.
- :mod:`._types`: ``region_code_for_number``, ``number_type`` (what kind of line, for
  the TCPA's consent rule) and validity over columns, the one choice of a region among
  those of a calling code, and the one reading of a column of distinct numbers
  (``read_numbers``).
- :mod:`._prefixes` and :mod:`._zones`: how many leading digits decide a number, and
  its time zones (``time_zones_for_number``) a column at a time.
- :mod:`._asked`: one number read by ``phonenumbers`` itself (parsed, checked, written
  in E.164, placed in its region and zones), imported alone by the emulator and the MCP
  tools, which load no pyarrow.

They read columns with the one set of array helpers, :mod:`dialkit._arrays`.

A shared-helpers package (docs/design.md): it imports only the standard library,
third-party packages and the other shared helpers (``dialkit._places``' area-code table
and ``dialkit._arrays``). Nothing is imported here, so that
``import dialkit`` stays light.
"""
