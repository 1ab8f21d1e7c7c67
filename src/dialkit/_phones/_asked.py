"""One number read by ``phonenumbers`` itself: for the few texts the column code leaves
to it, and for the emulator's world, which reads its numbers one at a time.

A module of its own that imports only ``phonenumbers``: the emulator takes it without
loading pandas and pyarrow, which :mod:`._zones` imports (2.0-3.2 s more at an
emulator's start on a loaded machine, where the emulator loads neither).
"""

from __future__ import annotations

import phonenumbers


def asked_number(text: str) -> phonenumbers.PhoneNumber | None:
    """``phonenumbers.parse(text)``, or None where it raises."""
    try:
        return phonenumbers.parse(text)
    except phonenumbers.NumberParseException:
        return None
