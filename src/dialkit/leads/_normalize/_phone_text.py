"""Cleaning one phone cell's text before ``phonenumbers`` parses it.

Each rule answers one way people and spreadsheets write phone numbers: Unicode
digits, dashes and spaces; Excel's ``.0`` and scientific notation; an extension
after the number; two numbers in one cell; a European ``00`` prefix in a NANP
file; a date or a time where a number should be. What a rule did is kept as a
flag, so a reader can see why a number looks different from its cell.

An extension is found exactly as ``phonenumbers.parse`` finds it, with its own
private helpers (:func:`dialkit._phones._metadata.extension_of`): a copy of its
patterns would drift from the package's, and an extension it reads that we did not
would have its digits joined onto the number by a later fix-up.
``tests/leads/test_normalize_examples.py`` holds the two to the same extension on
every example number of every region.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

import phonenumbers

from dialkit._phones._metadata import MAX_TEXT, extension_of

EMPTY_TOKENS = frozenset({"", "n/a", "na", "null", "none", "nil", "-", "--", "0", "nan",
                          "#n/a", "unknown"})
"""Cell texts that mean "no number" (compared without case or surrounding space)."""

NANP_REGIONS = frozenset({"US", "CA", "AG", "AI", "AS", "BB", "BM", "BS", "DM", "DO", "GD",
                          "GU", "JM", "KN", "KY", "LC", "MP", "MS", "PR", "SX", "TC", "TT",
                          "VC", "VG", "VI"})
"""Regions of the North American Numbering Plan, whose international prefix is 011."""

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"),
                        "-")
_EXCEL_FLOAT = re.compile(r"^\+?\d+\.0+$")
_EXCEL_SCIENTIFIC = re.compile(r"^[+-]?\d(?:[.,]\d+)?[eE][+-]?\d+$")
SECOND_NUMBER = re.compile(r"\s*(?:/|,|;|\bor\b|\band\b|&)\s*(?=[+(\d])", re.IGNORECASE)
"""Where a cell holds a second number (split once; :mod:`._phones` keeps the second)."""
LAST_DIGITS = re.compile(r"(?P<first>[+(\d][\d ().\-]*\d) */ *(?P<last>\d{1,3})")
"""A second line written as the first's last digits after a slash (``0132531271/2``: 013
253 1271 and 013 253 1272), as an office with consecutive lines writes them."""
SECOND_DIGITS = 6
"""Digits each of two numbers written whole needs."""
_LETTERS = re.compile(r"[A-Za-z]")
_PLAIN = re.compile(r"[\d ().\-]+")
"""Digits and separators only: text whose digits are all one number's."""


def _date_shapes() -> tuple[str, str]:
    """A date (year 19xx or 20xx; day and month in range), optionally with a time, or a
    time alone: for Python's ``re`` and, without the time (its ``:`` is never plain), for
    RE2 over the fast path's plain cells. No back-references, which RE2 lacks."""
    year, month, day = r"(?:19|20)\d\d", r"(?:0?[1-9]|1[0-2])", r"(?:0?[1-9]|[12]\d|3[01])"
    dates = [f"{year}{s}{month}{s}{day}|{day}{s}{day}{s}{year}" for s in ("-", r"\.", "/")]
    date = "(?:" + "|".join([*dates, rf"{day}/{day}/\d\d"]) + ")"
    clock = r"\d{1,2}:\d\d(?::\d\d(?:\.\d+)?)?(?: ?[AaPp]\.?[Mm]\.?)?"
    zone = r"(?: ?(?:Z|UTC|GMT|[+-]\d\d:?\d\d))?"
    return rf"^(?:{date}(?:[ T]{clock}{zone})?|{clock}{zone})$", rf"^ *{date} *$"


DATE_OR_TIME, PLAIN_DATE = _date_shapes()
"""A cell that is a date or a time, not a phone number; the same for a plain cell (RE2)."""
_DATE_OR_TIME = re.compile(DATE_OR_TIME)


@dataclass(slots=True)
class Cleaned:
    """A cell's text ready for ``phonenumbers``, and what was done to it."""

    text: str | None
    extension: str | None = None
    flags: list[str] = field(default_factory=list)
    refusal: str | None = None
    """Why the cell holds no usable number: ``missing_phone`` or ``invalid_phone``."""


def clean(cell: str | None, region: str) -> Cleaned:
    """The number in ``cell`` as text ``phonenumbers`` can parse for ``region``."""
    if cell is None or cell.strip().casefold() in EMPTY_TOKENS:
        return Cleaned(None, refusal="missing_phone")
    text = normalized_text(cell)
    result = Cleaned(text)
    if _EXCEL_SCIENTIFIC.match(text):
        result.flags.append("excel_scientific")  # digits were lost; never guessed back
        result.refusal = "invalid_phone"
        return result
    if _DATE_OR_TIME.match(text) or not any(c.isdigit() for c in text):
        result.flags.append("not_a_phone")
        result.refusal = "invalid_phone"
        return result
    if _EXCEL_FLOAT.match(text):
        text = text.split(".")[0]
        result.flags.append("excel_float")
    text = _number_alone(text, result)
    if _LETTERS.search(text) and phonenumbers.is_alpha_number(text):
        result.flags.append("vanity")
    result.text = _international_prefix(text, region, result)
    return result


def plain(text: str) -> bool:
    """Whether ``text`` holds nothing but digits and separators, so that its digits are all
    one number's: the only text a fix-up that joins digits (``added_plus``) may read."""
    return _PLAIN.fullmatch(text) is not None


def normalized_text(cell: str) -> str:
    """Unicode digits as ASCII, Unicode dashes as ``-``, every kind of space as one space:
    what every other rule reads."""
    chars = []
    for char in unicodedata.normalize("NFKC", cell).translate(_DASHES):
        if char.isdecimal():
            chars.append(str(unicodedata.decimal(char)))
        elif char.isspace() or unicodedata.category(char) == "Zs":
            chars.append(" ")
        else:
            chars.append(char)
    return " ".join("".join(chars).split())


def _number_alone(text: str, result: Cleaned) -> str:
    """The first number of ``text``, without its extension: an extension at the end goes
    first (it is one only if ``phonenumbers`` reads it so), then a second number, whose
    extension the first one's is not."""
    extension, text = _extension(text)
    parts = SECOND_NUMBER.split(text, maxsplit=1)
    if len(parts) == 2 and sum(c.isdigit() for c in parts[0]) >= SECOND_DIGITS and (
            sum(c.isdigit() for c in parts[1]) >= SECOND_DIGITS or LAST_DIGITS.fullmatch(text)):
        result.flags.append("two_numbers")
        extension, text = _extension(parts[0].strip())
    if extension is not None:
        result.extension = extension
        result.flags.append("extension")
    return text


def second_number(cell: str) -> str | None:
    """The second number of a cell flagged ``two_numbers``: written whole after the first,
    or the first with its last digits replaced (:data:`LAST_DIGITS`)."""
    shorthand = LAST_DIGITS.fullmatch(normalized_text(cell))
    if shorthand:
        first, last = shorthand["first"], shorthand["last"]
        digits = "".join(c for c in first if c.isdigit())
        return "+" * first.startswith("+") + digits[:-len(last)] + last
    parts = SECOND_NUMBER.split(cell, maxsplit=1)
    return parts[1].strip() or None if len(parts) == 2 else None


def _extension(text: str) -> tuple[str | None, str]:
    """The extension at the end of ``text`` and the number before it, as ``phonenumbers.parse``
    reads them (it takes an extension off only a text it finds viable as a number, and
    reads only from the first digit or ``+`` on); ``None`` and ``text`` without one."""
    if len(text) > MAX_TEXT or plain(text):  # no extension form is plain
        return None, text
    found = extension_of(text)
    return (found[0], found[1].rstrip()) if found else (None, text)


def _international_prefix(text: str, region: str, result: Cleaned) -> str:
    """``00`` written in a NANP file means what ``+`` means (``phonenumbers`` knows only
    the region's own prefix, ``011`` there)."""
    if region in NANP_REGIONS and re.match(r"^\(?00\s*[1-9]", text):
        result.flags.append("international_prefix")
        return "+" + text.lstrip("(").removeprefix("00").lstrip()
    return text
