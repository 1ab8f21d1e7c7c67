"""Calls in the recipient's own time: now :mod:`dialkit._places._localtime`, which
analytics shares. Kept here for ``_checks``, which imports it by this name, until it
imports ``dialkit._places`` itself (issue 24)."""

from dialkit._places._localtime import wall_clock

__all__ = ["wall_clock"]
