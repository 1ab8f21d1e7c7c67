"""Where a phone number is, and the law of that place: the helpers that the toolkit's
packages and the emulator share.

Leads, compliance and analytics each place numbers (their region, time zones, local
times, US state), and the emulator's world keeps the same law of the place called
that the audit applies. So the placing and the jurisdiction table live here, below
all of them (docs/design.md: helpers two layers share live in the lower one), importing
only the standard library, third-party packages, ``dialkit.contract`` and
``dialkit.errors``. Nothing is imported here: each user imports the module it needs,
so that ``import dialkit`` stays light.
"""
