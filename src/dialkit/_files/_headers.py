"""A file's header names read as people write them, for every reader of another tool's
file (a lead file's columns, an export's the audit reads): compared without case,
accents, spaces or punctuation, so ``Phone Number``, ``phone_number`` and ``PHONE-NUMBER``
are one name, and a ``#`` read as "number" where the name without it is none."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import TypeVar

_NOT_ALNUM = re.compile(r"[\W_]+")
Named = TypeVar("Named")


def squeeze(header: str) -> str:
    """A header without case, accents, spaces or punctuation: ``"E-mail Address"`` →
    ``"emailaddress"``, ``"Téléphone"`` → ``"telephone"``."""
    letters = unicodedata.normalize("NFKD", header.casefold())
    return _NOT_ALNUM.sub("", "".join(c for c in letters if not unicodedata.combining(c)))


def header_named(header: str, by_name: Mapping[str, Named]) -> Named | None:
    """What ``header`` names in ``by_name`` (squeezed names to what each means), its ``#``
    read as "number" where the header without it names nothing (``Lead #`` is ``Lead
    Number``, ``Mobile #`` stays ``Mobile``)."""
    named = by_name.get(squeeze(header))
    if named is None and "#" in header:
        named = by_name.get(squeeze(header.replace("#", " number ")))
    return named
