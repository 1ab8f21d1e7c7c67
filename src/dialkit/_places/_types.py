"""What type each number is, and which region of its calling code it belongs to, a column
at a time: ``region_code_for_number`` and ``number_type`` as ``phonenumbers`` decides them,
with the metadata's own patterns (whose syntax is RE2's too) matched by ``pyarrow``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE, PhoneMetadata, PhoneNumberType

from .._phones._arrays import groups, lengths, match, matched_among, take

Ints = NDArray[np.int64]

_EARLIER_TYPES = (
    ("premium_rate", PhoneNumberType.PREMIUM_RATE), ("toll_free", PhoneNumberType.TOLL_FREE),
    ("shared_cost", PhoneNumberType.SHARED_COST), ("voip", PhoneNumberType.VOIP),
    ("personal_number", PhoneNumberType.PERSONAL_NUMBER), ("pager", PhoneNumberType.PAGER),
    ("uan", PhoneNumberType.UAN), ("voicemail", PhoneNumberType.VOICEMAIL))
"""The types ``_number_type_helper`` tries before fixed line and mobile, in its order."""


def regions_and_types(code: Ints, nsn: pa.Array) -> tuple[NDArray[np.object_], Ints]:
    """``region_code_for_number`` and ``number_type`` of each parsed number."""
    region = np.full(len(code), None, object)
    kind = np.full(len(code), PhoneNumberType.UNKNOWN, np.int64)
    for cc, rows in groups(code):
        region[rows], kind[rows] = _resolved(take(nsn, rows), cc)
    return region, kind


def _resolved(nsn: pa.Array, code: int) -> tuple[NDArray[np.object_], Ints]:
    """Region and type of numbers of one calling code. Of a code several regions share,
    a number is the first region's whose ``leading_digits`` match it or, for a region
    without, whose type of number it is (``_region_code_for_number_from_list``)."""
    candidates = COUNTRY_CODE_TO_REGION_CODE[code]
    if len(candidates) == 1:
        return np.full(len(nsn), candidates[0], object), _types(nsn, code, candidates[0])
    region = np.full(len(nsn), None, object)
    kind = np.full(len(nsn), PhoneNumberType.UNKNOWN, np.int64)
    left = np.arange(len(nsn))
    for candidate in candidates:
        metadata = PhoneMetadata.metadata_for_region(candidate.upper(), None)
        if metadata is None or not len(left):
            continue
        if metadata.leading_digits is not None:
            hit = match(take(nsn, left), f"^(?:{metadata.leading_digits})")
            kinds = _types(take(nsn, left[hit]), code, candidate)
        else:
            kinds = _types(take(nsn, left), code, candidate)
            hit = kinds != PhoneNumberType.UNKNOWN
            kinds = kinds[hit]
        region[left[hit]], kind[left[hit]] = candidate, kinds
        left = left[~hit]
    return region, kind


def _types(nsn: pa.Array, code: int, region: str) -> Ints:
    """``_number_type_helper`` with the metadata of ``region`` (of ``code`` for a
    non-geographic entity): each number's ``PhoneNumberType``."""
    kind = np.full(len(nsn), PhoneNumberType.UNKNOWN, np.int64)
    for size, rows in groups(lengths(nsn)):
        patterns = type_patterns(code, region, size)
        if patterns is not None:
            kind[rows] = _types_of_length(take(nsn, rows), patterns)
    return kind


@dataclass(frozen=True)
class TypePatterns:
    """The patterns that can match a number of one metadata and one length (whole-text
    patterns; ``None``: that type has no number of that length)."""

    general: str
    earlier: tuple[tuple[int, str], ...]
    either: str | None
    fixed: str | None
    mobile: str | None
    same: bool


def _types_of_length(nsn: pa.Array, patterns: TypePatterns) -> Ints:
    """``_number_type_helper`` of numbers of one length, in its order: the general
    pattern, each earlier type (all of them tried at once first), fixed line, mobile."""
    kind = np.full(len(nsn), PhoneNumberType.UNKNOWN, np.int64)
    left = match(nsn, patterns.general)
    maybe = matched_among(nsn, left, patterns.either)
    for value, pattern in patterns.earlier:
        hit = matched_among(nsn, maybe, pattern)
        kind[hit], maybe, left = value, maybe & ~hit, left & ~hit
    fixed = matched_among(nsn, left, patterns.fixed)
    if patterns.same:
        kind[fixed] = PhoneNumberType.FIXED_LINE_OR_MOBILE
        return kind
    mobile = matched_among(nsn, left, patterns.mobile)
    kind[fixed] = np.where(mobile[fixed], PhoneNumberType.FIXED_LINE_OR_MOBILE,
                           PhoneNumberType.FIXED_LINE)
    kind[mobile & ~fixed] = PhoneNumberType.MOBILE
    return kind


@functools.cache
def type_patterns(code: int, region: str, size: int) -> TypePatterns | None:
    """The patterns of ``region``'s metadata for numbers of ``size`` digits, as
    ``_is_number_matching_desc`` applies them; ``None`` where none can match."""
    metadata = PhoneMetadata.metadata_for_region_or_calling_code(code, region)
    general = None if metadata is None else _whole(metadata.general_desc, size)
    if metadata is None or general is None:
        return None
    earlier = tuple((int(value), pattern) for name, value in _EARLIER_TYPES
                    if (pattern := _whole(getattr(metadata, name), size)) is not None)
    either = "|".join(f"(?:{pattern})" for _, pattern in earlier) or None
    return TypePatterns(general, earlier, either, _whole(metadata.fixed_line, size),
                     _whole(metadata.mobile, size),
                     bool(metadata.same_mobile_and_fixed_line_pattern))


def _whole(desc: object, size: int) -> str | None:
    """A description's pattern as a whole-text pattern, where a number of ``size`` digits
    can match it (its possible lengths allow it)."""
    pattern = getattr(desc, "national_number_pattern", None)
    possible = getattr(desc, "possible_length", None) or ()
    if not pattern or (possible and size not in possible):
        return None
    return f"^(?:{pattern})$"
