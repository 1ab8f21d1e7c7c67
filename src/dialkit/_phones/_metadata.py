"""What the column readers take from ``phonenumbers`` beyond its public functions, and
Python's own reader of regular expressions: the one module that touches either's
private names, so that a release that moves one breaks here and nowhere else.

``phonenumbers`` keeps private the steps its ``parse`` takes (the length test, the
extension's patterns, a calling code's zones); reproducing them over columns, or finding
an extension exactly as ``parse`` does, needs them, and a copy of them would drift from
the package's (its stubs type them). ``re._parser`` gives a pattern's tree, which no
public module does.
"""

from __future__ import annotations

import functools
import importlib
import math
from typing import Any

import numpy as np
import phonenumbers
import pyarrow as pa
from numpy.typing import NDArray
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE, PhoneMetadata
from phonenumbers import phonenumberutil as pnu
from phonenumbers import timezone as phone_timezones

from .._arrays._texts import heads

Ints = NDArray[np.int64]

MAX_TEXT: int = pnu._MAX_INPUT_STRING_LENGTH
"""Longest text ``parse`` reads (250)."""
MIN_NSN: int = pnu._MIN_LENGTH_FOR_NSN
MAX_NSN: int = pnu._MAX_LENGTH_FOR_NSN
"""National significant numbers ``parse`` keeps (2 to 17 digits)."""
CALLING_CODES = np.zeros(1000, bool)
CALLING_CODES[list(COUNTRY_CODE_TO_REGION_CODE)] = True
"""The calling codes ``phonenumbers`` knows, by value."""


def calling_codes(digits: pa.Array) -> tuple[Ints, Ints]:
    """``_extract_country_code`` of texts of three digits or more: the first of their 1, 2,
    3 leading digits that is a calling code (0: none), and how many digits it took."""
    three = np.maximum(heads(digits, 3), 0)
    code = np.zeros(len(digits), np.int64)
    width = np.zeros(len(digits), np.int64)
    for size in (3, 2, 1):
        head = three // 10 ** (3 - size)
        hit = (head >= 10 ** (size - 1)) & CALLING_CODES[head]
        code, width = np.where(hit, head, code), np.where(hit, size, width)
    return code, width


@functools.cache
def national_lengths(region: str) -> frozenset[int]:
    """The lengths a national significant number of ``region`` can have (its general
    description's), none for a region ``phonenumbers`` has no metadata for."""
    metadata = PhoneMetadata.metadata_for_region(region)
    general = None if metadata is None else metadata.general_desc
    return frozenset(n for n in (() if general is None else general.possible_length) if n > 0)


def length_verdicts(metadata: PhoneMetadata, up_to: int) -> tuple[int, ...]:
    """Per length to ``up_to``, ``_test_number_length``'s verdict on a number of the
    ``metadata``: 2 ``TOO_LONG``, 1 ``IS_POSSIBLE`` (kept after a national prefix is
    stripped), 0 else."""
    verdicts = []
    for length in range(up_to + 1):
        result = pnu._test_number_length("0" * length, metadata)
        verdicts.append(2 if result == pnu.ValidationResult.TOO_LONG else int(
            result == pnu.ValidationResult.IS_POSSIBLE))
    return tuple(verdicts)


def extension_of(text: str) -> tuple[str, str] | None:
    """The extension at the end of ``text`` and the number before it, as ``parse`` reads
    them (only off a text it finds viable, from its first digit or ``+`` on); ``None``
    where it reads none."""
    try:
        number = pnu._build_national_number_for_parsing(text)
    except phonenumbers.NumberParseException:
        return None
    if not pnu._is_viable_phone_number(number):
        return None
    extension, rest = pnu._maybe_strip_extension(number)
    return (extension, rest) if extension else None


def country_zones(code: int) -> tuple[str, ...]:
    """The zones ``time_zones_for_number`` gives a number of calling code ``code`` whose
    type is not geographical."""
    number = phonenumbers.PhoneNumber(country_code=code, national_number=0)
    return tuple(phone_timezones._country_level_time_zones_for_number(number))


try:
    _PARSER: Any = importlib.import_module("re._parser")
    """Python's own reader of regular expressions (no public module has its parse tree).
    It is private, so nothing depends on it being there or unchanged: without it, or
    with a tree :func:`_reach` cannot read, every digit decides (the same answers,
    each distinct number asked)."""
    _C: Any = importlib.import_module("re._constants")
    _ANY_DIGIT = ([(_C.CATEGORY, _C.CATEGORY_DIGIT)], [(_C.RANGE, (48, 57))])
    _ANCHORS = (_C.AT_BEGINNING, _C.AT_END, _C.AT_BEGINNING_STRING, _C.AT_END_STRING)
except (ImportError, AttributeError):  # a Python whose re keeps them elsewhere
    _PARSER = None


def decided_by(pattern: str) -> int | None:
    """How many leading characters decide whether a text of digits matches ``pattern``,
    whole or at its start, among texts of one length: the furthest a character that is
    not "any digit" ends, on any path through it (after a repeat of a character that
    is, or alternatives of several lengths, at its furthest). Any path matches the same
    texts' other characters alike (each is any digit), and a path of another length
    than the text's matches none of them. None: a repeat without bound before such a
    character, or a construct this does not read (a look-around, a back reference)."""
    try:
        _, decided = _reach(_PARSER.parse(pattern), 0.0)
    except Exception:  # _Unread, or a private parser that changed (see _PARSER)
        return None
    return None if math.isinf(decided) else int(decided)


class _Unread(Exception):
    """A construct :func:`_reach` does not read."""


def _reach(items: Any, start: float) -> tuple[float, float]:
    """The furthest end of ``items`` begun at ``start`` at the furthest, and the furthest
    end of a character among them that is not "any digit" (``start``'s own: none)."""
    end = decided = start
    for op, value in items:
        if op is _C.AT and value in _ANCHORS:
            continue
        if op is _C.IN and value in _ANY_DIGIT:
            end += 1
        elif op in (_C.LITERAL, _C.NOT_LITERAL, _C.IN, _C.ANY):
            end = decided = end + 1
        elif op is _C.SUBPATTERN:
            end, inner = _reach(value[-1], end)
            decided = max(decided, inner)
        elif op is _C.BRANCH:
            reached = [_reach(path, end) for path in value[1]]
            end, decided = max(e for e, _ in reached), max(decided, *(d for _, d in reached))
        elif op in (_C.MAX_REPEAT, _C.MIN_REPEAT):
            size, inner = _reach(value[2], 0.0)
            times = math.inf if value[1] is _C.MAXREPEAT else value[1]
            end += times * size if size else 0
            decided = max(decided, end) if inner else decided
        else:
            raise _Unread(op)
    return end, decided
