"""Where a phone number is: the region a country cell names, the state and time zones of an area
code (``area_codes.toml``), each number's state, zones and local time, the countries a
caller blocks. The law of those places is :mod:`dialkit._law`.

Leads, compliance, analytics and the emulator's world each place numbers, so the placing lives
here, below all of them (docs/design.md: helpers two layers share live in the lower one),
importing only the standard library, third-party packages and the other shared helpers,
nothing of ``dialkit.contract``, which sits above them. Nothing is imported
here: each user imports the module it needs, so that ``import dialkit`` stays light.
"""
