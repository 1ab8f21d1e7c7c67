"""Cleaning one phone cell's text before ``phonenumbers`` parses it.

Each rule answers one way people and spreadsheets write phone numbers: Unicode
digits, dashes and spaces; Excel's ``.0`` and scientific notation; an extension
after the number; two numbers in one cell; a European ``00`` prefix in a NANP
file. What a rule did is kept as a flag, so a reader can see why a number
looks different from its cell.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

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
_EXTENSION = re.compile(
    r"(?:\s*[,;]?\s*(?:ext(?:ension)?\.?|x|#)\s*:?\s*(\d{1,7})|;ext=(\d{1,7}))\s*$",
    re.IGNORECASE)
_SECOND_NUMBER = re.compile(r"\s*(?:/|,|;|\bor\b|\band\b|&)\s*(?=[+(\d])", re.IGNORECASE)
_LETTERS = re.compile(r"[A-Za-z]")


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
    text = _plain(cell)
    result = Cleaned(text)
    if _EXCEL_SCIENTIFIC.match(text):
        result.flags.append("excel_scientific")  # digits were lost; never guessed back
        result.refusal = "invalid_phone"
        return result
    if _EXCEL_FLOAT.match(text):
        text = text.split(".")[0]
        result.flags.append("excel_float")
    text = _extension(text, result)
    text = _first_number(text, result)
    if _LETTERS.search(text):
        result.flags.append("vanity")
    result.text = _international_prefix(text, region, result)
    return result


def _plain(cell: str) -> str:
    """Unicode digits as ASCII, Unicode dashes as ``-``, every kind of space as one space."""
    chars = []
    for char in unicodedata.normalize("NFKC", cell).translate(_DASHES):
        if char.isdecimal():
            chars.append(str(unicodedata.decimal(char)))
        elif char.isspace() or unicodedata.category(char) == "Zs":
            chars.append(" ")
        else:
            chars.append(char)
    return " ".join("".join(chars).split())


def _extension(text: str, result: Cleaned) -> str:
    match = _EXTENSION.search(text)
    if match is None or not re.search(r"\d{4}", text[:match.start()]):
        return text
    result.extension = match.group(1) or match.group(2)
    result.flags.append("extension")
    return text[:match.start()].rstrip()


def _first_number(text: str, result: Cleaned) -> str:
    parts = _SECOND_NUMBER.split(text, maxsplit=1)
    if len(parts) == 2 and sum(c.isdigit() for c in parts[1]) >= 6 \
            and sum(c.isdigit() for c in parts[0]) >= 6:
        result.flags.append("two_numbers")
        return parts[0].strip()
    return text


def _international_prefix(text: str, region: str, result: Cleaned) -> str:
    """``00`` written in a NANP file means what ``+`` means (``phonenumbers`` knows only
    the region's own prefix, ``011`` there)."""
    if region in NANP_REGIONS and re.match(r"^\(?00\s*[1-9]", text):
        result.flags.append("international_prefix")
        return "+" + text.lstrip("(").removeprefix("00").lstrip()
    return text
