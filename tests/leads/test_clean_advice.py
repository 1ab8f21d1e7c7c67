"""Every piece of advice the clean gives, followed, changes no accepted row's number, and
gives the hinted row the number its hint named (issue 70, item 3).

The clean's hints and notes tell a person what to change: write a number with its
calling code, name its country, fill a blank country cell, pass ``region=``. Each is
applied here as a person would, to the file the clean was given, and the file cleaned
again: the rows that had a number keep it, and the row a hint was about reads as the
number the hint named. The files are drawn by hypothesis from rows people write
(national and international numbers of several countries, Excel's floats, blank,
unknown and contradicting country cells, junk), with a country column or without one.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dialkit.leads import clean

ROWS = [
    ("(415) 555-0123", ""), ("+1 212 555 0187", ""), ("312.555.0150", "US"),
    ("020 7946 0958", ""), ("0161 496 0123", ""), ("+44 20 7946 0000", "GB"),
    ("07400 123456", "GB"), ("0151 20413050", ""), ("+49 30 901820", "DE"),
    ("030 901821", "DE"), ("4915120413050.0", "Germany"), ("06 12345678", "NL"),
    ("0412 345 678", "AU"), ("55 1234 5678", "Atlantis"), ("n/a", ""),
    ("call me", ""), ("415 555 0199", "GB"), ("+52 55 1234 5678", ""),
]
"""Rows as people write them: a phone cell and a country cell ("" when blank)."""
INTERNATIONAL = [row for row in ROWS if row[0].startswith("+")]

WRITE_AS = re.compile(r"write it as (\+\d+)")
NAME_IN_COLUMN = re.compile(r"(?:valid [A-Z]{2} number.*?, (\+\d+)(?:, read in [A-Z]{2})?): "
                            r"write it as \+\d+, or name ([A-Z]{2}) in a country column")
FILL = re.compile(r"is blank; the number is a valid [A-Z]{2} number[^,]*, (\+\d+)"
                  r"(?:, read in [A-Z]{2})?: fill that cell with ([A-Z]{2})")
PASS_REGION = re.compile(r"pass region='([A-Z]{2})'")
EITHER = re.compile(r"(\+\d+) (?:as written|with)")
"""The numbers an ``ambiguous_phone`` hint names: writing either with its ``+`` reads so."""


def _cleaned(phones: list[str], countries: list[str] | None, region: str) -> pd.DataFrame:
    frame = pd.DataFrame({"Phone": phones} if countries is None
                         else {"Phone": phones, "Country": countries})
    result = clean(frame, region=region,
                   country_column=None if countries is None else "Country")
    return result.frame.assign(notes=[result.notes] * len(frame))


def _numbers(frame: pd.DataFrame) -> list[object]:
    return [None if pd.isna(v) else v for v in frame["phone_e164"].tolist()]


def _kept(before: pd.DataFrame, after: pd.DataFrame) -> None:
    """No row that had a number before has another (or none) after."""
    for row, (old, new) in enumerate(zip(_numbers(before), _numbers(after), strict=True)):
        if old is not None:
            assert new == old, (row, old, new)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(st.sampled_from(ROWS), min_size=1, max_size=12),
       with_column=st.booleans(), region=st.sampled_from(["US", "GB"]))
@example(rows=[ROWS[0], ROWS[3], ROWS[5], ROWS[7], ROWS[8]], with_column=False, region="US")
@example(rows=[ROWS[0], ROWS[3], ROWS[5], ROWS[7], ROWS[8]], with_column=True, region="US")
@example(rows=[ROWS[1], ROWS[3], ROWS[4], ROWS[5]], with_column=False, region="US")
def test_following_each_hint_changes_no_other_number(rows: list[tuple[str, str]],
                                                     with_column: bool, region: str) -> None:
    phones, countries = [p for p, _ in rows], [c for _, c in rows]
    given_countries = countries if with_column else None
    before = _cleaned(phones, given_countries, region)
    followed = 0
    for row, hint in enumerate(before["hint"].tolist()):
        if pd.isna(hint):
            continue
        for number, country in NAME_IN_COLUMN.findall(hint):  # no country column: add one
            assert not with_column
            after = _cleaned(phones, [country if n == row else "" for n in range(len(rows))],
                             region)
            _kept(before, after)
            assert _numbers(after)[row] == number, hint
            followed += 1
        for number, country in FILL.findall(hint):  # the row's country cell was blank
            assert with_column and countries[row] == ""
            filled = [country if n == row else c for n, c in enumerate(countries)]
            after = _cleaned(phones, filled, region)
            _kept(before, after)
            assert _numbers(after)[row] == number, hint
            followed += 1
        for number in WRITE_AS.findall(hint) + EITHER.findall(hint):
            written = [number if n == row else p for n, p in enumerate(phones)]
            after = _cleaned(written, given_countries, region)
            _kept(before, after)
            assert _numbers(after)[row] == number, hint
            followed += 1
        assert followed or "valid" not in hint, hint  # every region hint was followed
    for advised in PASS_REGION.findall(" ".join(before["notes"].iloc[0])):
        assert not with_column  # region= is never advised beside a country column
        after = _cleaned(phones, None, advised)
        _kept(before, after)
        for row, hint in enumerate(before["hint"].tolist()):
            if not pd.isna(hint) and f"name {advised} in a country column" in hint:
                assert _numbers(after)[row] == WRITE_AS.findall(hint)[0], hint


def test_a_row_whose_country_names_a_country_is_never_offered_another() -> None:
    """Issue 70: "The Netherlands" was not read, and its Dutch number was offered as a
    German one; a row whose cell names a country gets no other country's number."""
    phones, countries = zip(*ROWS, strict=True)
    frame = _cleaned(list(phones), list(countries), "US")
    named = [bool(c) and c != "Atlantis" for c in countries]
    hints = [None if pd.isna(hint) else hint for hint in frame["hint"].tolist()]
    assert [hint for hint, name in zip(hints, named, strict=True)
            if name and hint is not None and "valid" in hint and "number" in hint
            and "more than one" not in hint] == []


@pytest.mark.parametrize("international", [True, False])
def test_region_is_advised_only_where_it_changes_no_number(international: bool) -> None:
    """A file of +1 numbers and British numbers written nationally: ``region='GB'`` is
    advised and, followed, reads them all; with a US number written nationally beside
    them it would make that one British, and is not advised."""
    phones = [*(p for p, _ in INTERNATIONAL[:2]), "020 7946 0958", "0161 496 0123",
              *([] if international else ["(415) 555-0123"])]
    before = _cleaned(phones, None, "US")
    advised = PASS_REGION.findall(" ".join(before["notes"].iloc[0]))
    assert advised == (["GB"] if international else [])
    after = _cleaned(phones, None, "GB")
    assert _numbers(after)[2:4] == ["+442079460958", "+441614960123"]
    if not international:
        assert _numbers(after)[4] != _numbers(before)[4]  # why it was not advised
