"""Each number's region and US state: now :mod:`dialkit._places._states`, which the
emulator's world shares. Kept here for ``_law``, which imports it by this name, until
it imports ``dialkit._places`` itself (issue 24)."""

from dialkit._places._states import places

__all__ = ["places"]
