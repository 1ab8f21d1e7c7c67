"""Masking of API keys and webhook signing secrets.

A secret must never reach a repr, a log line, an exception or a notebook
output in full, yet users need to recognise which key or secret they hold.
So everything that shows one shows only its last four characters.
"""

import re
from collections.abc import Mapping

VISIBLE_CHARACTERS = 4
"""How many trailing characters of a secret stay visible."""
KEY_SHAPE = re.compile(r"svc_(?:live|test)_[A-Za-z0-9]+_[A-Za-z0-9]+")
"""What an API key looks like; never sent outside the Authorization header."""
_VALUE_CHARS = 60


def mask(secret: str) -> str:
    """The secret with all but its last four characters hidden.

    Secrets of eight characters or fewer are hidden entirely, since four
    characters would be half of them.

    Examples:
        >>> mask("whsec_0123456789abcdef")
        '…cdef'
    """
    if len(secret) <= 2 * VISIBLE_CHARACTERS:
        return "…"
    return f"…{secret[-VISIBLE_CHARACTERS:]}"


class MaskedStr(str):
    """A string that shows only its last four characters in its repr.

    It is a real ``str`` (``print`` and ``str()`` give the whole value, for
    the one place that needs it), but reprs, which is what pydantic models,
    containers and notebook cells show, are masked.
    """

    def __repr__(self) -> str:
        return f"{type(self).__name__}('{mask(self)}')"


def shown(value: object) -> str:
    """A value for a message: its repr, with anything key-shaped masked, or what it is if long."""
    text = KEY_SHAPE.sub(lambda match: mask(match.group()), repr(value))
    if len(text) <= _VALUE_CHARS:
        return text
    if isinstance(value, Mapping | list):
        return f"(a {type(value).__name__} of {len(value)})"
    return text[:_VALUE_CHARS - 1] + "…"
