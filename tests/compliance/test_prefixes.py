"""The leading digits read off a pattern decide it, as Python's ``re`` matches it; and the
numbers answered by one of those that share them get ``phonenumbers``' own answers, on
every area code and exchange of North America that its zone table and metadata name."""

from __future__ import annotations

import random
import re

import numpy as np
import pandas as pd
import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE, PhoneMetadata, PhoneNumberType
from phonenumbers.tzdata import TIMEZONE_DATA
from zone_oracle import judged_zones

from dialkit._phones._metadata import decided_by
from dialkit._phones._zones import ZONES, zoned

TYPES = ("general_desc", "fixed_line", "mobile", "toll_free", "premium_rate", "shared_cost",
         "personal_number", "voip", "pager", "uan", "voicemail")


def _patterns() -> list[tuple[str, bool, int, str | None]]:
    """Every pattern of the metadata, as ``_types`` and ``_resolved`` match it (whole, or a
    region's leading digits at the start), with a length of number it applies to and an
    example of the metadata's of that length (None: none)."""
    found = []
    for code, regions in COUNTRY_CODE_TO_REGION_CODE.items():
        for region in regions:
            metadata = PhoneMetadata.metadata_for_region_or_calling_code(code, region)
            if metadata is None:
                continue
            examples = [d.example_number for d in (getattr(metadata, n) for n in TYPES)
                        if d is not None and d.example_number]
            if metadata.leading_digits:
                found += [(metadata.leading_digits, False, len(e), e) for e in examples]
            for name in TYPES:
                desc = getattr(metadata, name)
                if desc is not None and desc.national_number_pattern:
                    example = desc.example_number
                    found += [(desc.national_number_pattern, True, size,
                               example if example and len(example) == size else None)
                              for size in desc.possible_length or (8,) if size > 0]
    return found


PATTERNS = _patterns()


def _matches(pattern: str, whole: bool, text: str) -> bool:
    return bool(re.fullmatch(pattern, text) if whole else re.match(pattern, text))


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"\d{2}5", 3), (r"[2-9]\d{9}|3\d{6}", 1), ("8001|8[024]9", 4),
    (r"(?:2\d|3)4\d{5}", 3), (r"7(?:[01]\d{2}|2[2-5])\d{4}", 3), (r"(?:1|23)\d5", 4),
    (r"\d{2,3}5\d", 4),
    (r"(?:\d{2})+5", None), (r"(?=1)\d{3}", None), (r"(\d)\1", None), (r"\d*", 0),
])
def test_the_digits_a_pattern_reads(pattern: str, expected: int | None) -> None:
    assert decided_by(pattern) == expected


def test_almost_every_pattern_of_the_metadata_is_read() -> None:
    """Else the numbers would be asked one by one again, none the wiser."""
    read = [decided_by(pattern) is not None for pattern, _, _, _ in PATTERNS]
    assert len(PATTERNS) > 2000 and sum(read) > 0.99 * len(PATTERNS)


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, len(PATTERNS) - 1), st.randoms(use_true_random=False))
def test_texts_alike_in_the_digits_read_match_alike(at: int, rng: random.Random) -> None:
    """The metadata's example of a pattern (it matches) and random digits (most match
    not), each beside the same text with every digit after those read drawn anew."""
    pattern, whole, size, example = PATTERNS[at]
    depth = decided_by(pattern)
    if depth is None or depth >= size:
        return
    for text in filter(None, (example, "".join(rng.choices("0123456789", k=size)))):
        other = text[:depth] + "".join(rng.choices("0123456789", k=size - depth))
        assert _matches(pattern, whole, text) == _matches(pattern, whole, other)


def test_the_examples_match_their_patterns() -> None:
    """Else the test above would hold no text that matches (a region's leading digits are
    given its every type's example, some of which start otherwise: toll-free numbers)."""
    examples = [(p, whole, e) for p, whole, _, e in PATTERNS if e is not None]
    assert len(examples) > 1000
    assert sum(_matches(p, whole, e) for p, whole, e in examples) > 0.9 * len(examples)


def _north_american() -> list[str]:
    """Numbers of every +1 prefix of the zone table, each digit after the prefix up to the
    seventh tried, the rest drawn; and every exchange of the area codes whose patterns read
    seven digits, each seventh digit tried: numbers that share their first six digits,
    not always their answers' makings."""
    rng = np.random.default_rng(20261124)
    texts = []
    for prefix in (p[1:] for p in TIMEZONE_DATA if p.startswith("1") and len(p) > 1):
        for digit in "0123456789":
            head = (prefix + digit + "".join(rng.choice(list("0123456789"), 6)))[:7]
            texts.append(f"+1{head}{rng.integers(0, 1000):03d}")
    for area in ("246", "658", "876"):  # Barbados' and Jamaica's
        texts += [f"+1{area}{exchange:03d}{digit}{rng.integers(0, 1000):03d}"
                  for exchange in range(200, 1000) for digit in range(10)]
    return texts


def _expected(text: str) -> tuple[str | None, list[str]]:
    number = phonenumbers.parse(text)
    return phonenumbers.region_code_for_number(number), judged_zones(number)


def test_north_american_numbers_are_phonenumbers_own() -> None:
    """In one column, so numbers of the same six digits are answered as one."""
    texts = _north_american()
    expected = [_expected(text) for text in texts]
    pairs = zoned(pd.Series(texts, dtype="string[pyarrow]"))
    found: list[list[str]] = [[] for _ in texts]
    for row, zone in zip(pairs.row.tolist(), pairs.zone.tolist(), strict=True):
        found[row].append(ZONES[zone])
    assert found == [zones for _, zones in expected]
    regions = {region for region, _ in expected if region}
    types = {phonenumbers.number_type(phonenumbers.parse(text)) for text in texts[:3000]}
    assert len(regions) > 10 and {PhoneNumberType.FIXED_LINE_OR_MOBILE,
                                  PhoneNumberType.UNKNOWN} <= types


class _ChangedParser:
    """``re._parser`` as a later Python might have it: ``parse`` gone."""


def test_without_pythons_private_parser_every_digit_decides_and_answers_stay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``re._parser`` is private (issue 39): changed or gone, no pattern is read, each
    distinct number is asked, and the answers are still ``phonenumbers``' own."""
    from dialkit._phones import _metadata, _prefixes

    texts = _north_american()[:4000]
    monkeypatch.setattr(_metadata, "_PARSER", _ChangedParser())
    _prefixes._depths.cache_clear()
    try:
        assert decided_by(r"[2-9]\d{9}") is None
        assert _prefixes._depths(1, 10)[0] == 10  # every digit of +1's decides
        pairs = zoned(pd.Series(texts, dtype="string[pyarrow]"))
    finally:
        monkeypatch.undo()
        _prefixes._depths.cache_clear()
    found: list[list[str]] = [[] for _ in texts]
    for row, zone in zip(pairs.row.tolist(), pairs.zone.tolist(), strict=True):
        found[row].append(ZONES[zone])
    assert found == [_expected(text)[1] for text in texts]
    assert decided_by(r"[2-9]\d{9}") == 1 and _prefixes._depths(1, 10)[0] < 10
