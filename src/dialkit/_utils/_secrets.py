"""Masking of API keys and webhook signing secrets.

A secret must never reach a repr, a log line, an exception or a notebook
output in full, yet users need to recognise which key or secret they hold.
So everything that shows one shows only its last four characters.
"""

import re
import unicodedata
from collections.abc import Mapping

from ._base_error import InputError

VISIBLE_CHARACTERS = 4
"""How many trailing characters of a secret stay visible."""
KEY_SHAPE = re.compile(r"svc_(?:live|test)_[A-Za-z0-9]+_[A-Za-z0-9]+")
"""What an API key looks like; never sent outside the Authorization header."""
_VALUE_CHARS = 60
_SENDABLE = re.compile(r"[!-~]*")
"""What a secret sent in a header may hold: printable ASCII, no space (RFC 9110's token68
and the keys' own shape are narrower still)."""
_NAMED = {" ": "a space", "\t": "a tab", "\n": "a line break", "\r": "a line break"}


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


def sendable(secret: str, what: str, why: str = "which no HTTP header can carry") -> str:
    """``secret`` where an HTTP header can carry it: printable ASCII without spaces.

    A key pasted from a document or a chat may hold a character that looks like none or
    like another: a zero-width space, a no-break space, an en dash for a hyphen, a line
    break. httpx refuses it as it sends (``UnicodeEncodeError``, once told as a bug in
    dialkit); here it is refused before anything is sent, naming the secret only by its
    last four characters (:func:`mask`) and the character by its place and name.

    Raises:
        InputError: ``secret`` holds such a character; the message names ``what`` (``the
            API key``), the first such character, ``why`` it cannot be the secret, and
            what to do.

    Examples:
        >>> sendable("svc_test_abc\u2013def_0123456789", "the API key")
        Traceback (most recent call last):
        dialkit.errors.InputError: the API key '…6789' holds an en dash (U+2013) at ...
    """
    if _SENDABLE.fullmatch(secret):
        return secret
    at = next(i for i, c in enumerate(secret) if not _SENDABLE.fullmatch(c))
    raise InputError(f"{what} {mask(secret)!r} holds {_character(secret[at])} at "
                     f"character {at + 1} of {len(secret)}, {why}: "
                     "copy it again as plain text, without spaces, line breaks or "
                     "typographic characters")


def _character(c: str) -> str:
    """A character in words: ``a zero width space (U+200B)``, ``an en dash (U+2013)``."""
    name = _NAMED.get(c) or unicodedata.name(c, "control character").lower()
    if name[:2] not in ("a ", "an"):
        name = ("an " if name[0] in "aeiou" else "a ") + name
    return f"{name} (U+{ord(c):04X})"
