"""Phone numbers to E.164: every messy case a lead file holds, per-row countries, and the
verdict held to ``phonenumbers``' own on the cleaned text."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit.leads import normalize
from dialkit.leads._normalize._columns import _frame
from dialkit.leads._normalize._phone_text import clean

SF = "+14155550123"
LONDON = "+442079460123"

MESSY = {
    "separators and brackets": ("(415) 555-0123", SF, None, None),
    "dots": ("415.555.0123", SF, None, None),
    "non-breaking spaces": ("415\u00a0555\u00a00123", SF, None, None),
    "thin and ideographic spaces": ("415\u2009555\u30000123", SF, None, None),
    "unicode dashes": ("415\u2013555\u20120123", SF, None, None),
    "full-width digits": ("４１５５５５０１２３", SF, None, None),
    "arabic-indic digits": ("٤١٥٥٥٥٠١٢٣", SF, None, None),
    "00 prefix in a US file": ("0044 20 7946 0123", LONDON, None, "international_prefix"),
    "011 prefix": ("011 44 20 7946 0123", LONDON, None, None),
    "lost plus": ("442079460123", LONDON, None, "added_plus"),
    "trunk 1": ("1 415 555 0123", SF, None, None),
    "excel float": ("4155550123.0", SF, None, "excel_float"),
    "extension x": ("415-555-0123 x123", SF, "123", "extension"),
    "extension ext.": ("415 555 0123 ext. 45", SF, "45", "extension"),
    "extension #": ("415 555 0123 #12", SF, "12", "extension"),
    "extension ;ext=": ("+1 415 555 0123;ext=7", SF, "7", "extension"),
    "vanity": ("1-800-FLOWERS", "+18003569377", None, "vanity"),
    "two numbers /": ("415 555 0123 / 212 555 0142", SF, None, "two_numbers"),
    "two numbers ,": ("415 555 0123, 212 555 0142", SF, None, "two_numbers"),
    "two numbers or": ("415 555 0123 or 212 555 0142", SF, None, "two_numbers"),
}


@pytest.mark.parametrize(("cell", "e164", "extension", "flag"), MESSY.values(), ids=MESSY)
def test_a_messy_cell_becomes_its_e164(cell: str, e164: str, extension: str | None,
                                       flag: str | None) -> None:
    row = normalize([cell]).iloc[0]
    assert row["phone_e164"] == e164 and pd.isna(row["reason"])
    assert (None if pd.isna(row["extension"]) else row["extension"]) == extension
    assert (None if pd.isna(row["flags"]) else row["flags"]) == flag


@pytest.mark.parametrize("cell", ["", "  ", "N/A", "n/a", "null", "None", "-", "0", None,
                                  float("nan"), pd.NA])
def test_an_empty_cell_is_missing_phone(cell: object) -> None:
    row = normalize([cell]).iloc[0]
    assert (row["reason"], pd.isna(row["phone_e164"])) == ("missing_phone", True)


@pytest.mark.parametrize(("cell", "flag"), [("4.15555E+09", "excel_scientific"),
                                            ("4,15555E+09", "excel_scientific"),
                                            ("555-0123", None), ("+1 415 555", None),
                                            ("call me", "not_a_phone"),
                                            ("49502000000000000", "over_15_digits"),
                                            ("4630463310", None),  # not Sweden's +46
                                            ("0442079460123", None)])
def test_what_cannot_be_recovered_is_refused_never_guessed(cell: str, flag: str | None) -> None:
    row = normalize([cell]).iloc[0]
    assert (row["reason"], pd.isna(row["phone_e164"])) == ("invalid_phone", True)
    assert (None if pd.isna(row["flags"]) else row["flags"]) in (flag, f"added_plus,{flag}")


def test_each_row_can_have_its_own_country() -> None:
    cells = ["020 7946 0123", "030 123456", "(415) 555-0123", "020 7946 0123", "0412 345 678"]
    countries = ["GB", "Germany", None, "+44", "Narnia"]
    frame = normalize(cells, region="AU", country=countries)
    assert frame["phone_e164"].tolist() == [LONDON, "+4930123456", pd.NA, LONDON, pd.NA]
    assert frame["reason"][2] == "invalid_phone"  # no country: the default region, AU
    assert frame["reason"][4] == "unknown_country"  # never read as AU's: a guess
    assert frame["flags"].tolist() == [pd.NA] * 4 + ["unknown_country"]


@pytest.mark.parametrize("blank", ["", "   ", "\u00a0", None, float("nan")])
def test_a_blank_country_cell_is_the_default_region_unflagged(blank: object) -> None:
    """A CSV's empty country field reads as ``""``: the file's default region, as a
    missing value is, never ``unknown_country`` (half the rows of a real file had it)."""
    cells = ["4155550123", "020 7946 0123", "+44 20 7946 0123", "N/A"]
    for region in ("US", "GB"):
        fast = normalize(cells, region=region, country=[blank] * len(cells))
        slow = _frame(cells, region=region, country=[blank] * len(cells), fast=False)
        pd.testing.assert_frame_equal(fast, slow)
        pd.testing.assert_frame_equal(fast, normalize(cells, region=region))
    row = normalize(["4155550123"], country=[""]).iloc[0]
    assert (row["phone_e164"], row["country"], pd.isna(row["flags"])) == (SF, "US", True)


def test_country_cells_leave_the_geocoder_unloaded() -> None:
    """Codes, blank texts and names are read without ``phonenumbers``' geocoder, whose
    data took 0.34 CPU s and ~98 MiB of a process (a blank text or a name loaded it)."""
    code = ("import sys; from dialkit.leads import normalize; "
            "normalize(['4155550123', '020 7946 0123', '030 901820'], country=['', 'GB', "
            "'Germany']); print('phonenumbers.geocoder' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_the_index_is_kept_and_repeats_are_parsed_once() -> None:
    cells = pd.Series(["(415) 555-0123"] * 1000 + ["bad"], index=range(10, 1011))
    frame = normalize(cells)
    assert frame.index.equals(cells.index)
    assert frame["phone_e164"].value_counts()[SF] == 1000


def test_a_bad_region_or_country_length_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="region='XX' is not a region"):
        normalize(["1"], region="XX")
    with pytest.raises(ValueError, match="country has 1 values for 2 phones"):
        normalize(["1", "2"], country=["US"])


REGIONS = sorted(phonenumbers.SUPPORTED_REGIONS)[::6]  # 41 regions, spread over the alphabet


def _formatted(region: str, style: phonenumbers.PhoneNumberFormat) -> str:
    example = phonenumbers.example_number(region)
    return "" if example is None else phonenumbers.format_number(example, style)


@settings(max_examples=300, deadline=None)
@given(region=st.sampled_from(REGIONS),
       style=st.sampled_from([phonenumbers.PhoneNumberFormat.NATIONAL,
                              phonenumbers.PhoneNumberFormat.INTERNATIONAL,
                              phonenumbers.PhoneNumberFormat.E164]),
       noise=st.text(alphabet=" -.()\u00a0", max_size=3))
def test_the_verdict_is_phonenumbers_own_on_the_cleaned_text(
        region: str, style: phonenumbers.PhoneNumberFormat, noise: str) -> None:
    cell = noise + _formatted(region, style)
    row = normalize([cell], region=region).iloc[0]
    text = clean(cell, region).text
    expected = None
    if text:
        try:
            number = phonenumbers.parse(text, region)
        except phonenumbers.NumberParseException:
            number = None
        if number is not None and phonenumbers.is_valid_number(number):
            expected = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    got = None if pd.isna(row["phone_e164"]) else row["phone_e164"]
    if expected is not None or "added_plus" not in str(row["flags"]):
        assert got == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(max_size=30), st.floats(), st.integers()),
                max_size=20))
def test_any_cell_gets_one_row_and_nothing_else(cells: list[object]) -> None:
    frame = normalize(cells)
    assert len(frame) == len(cells)
    assert set(frame["reason"].dropna()) <= {"missing_phone", "invalid_phone"}
    assert frame["phone_e164"].dropna().str.match(r"^\+[1-9]\d{1,14}$").all()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.sampled_from(
    ["(415) 555-0123", "020 7946 0958", "+44 20 7946 0958", "n/a", "5550123", "0044 20 7946 0958",
     "4155550123 / 2125550187", "1 415 555 0123 x12"])), st.sampled_from(["", "GB", "US", "XX"])),
    max_size=30))
def test_a_missing_cell_changes_no_other_rows_answer(rows: list[tuple[str | None, str]]) -> None:
    """A column with blank cells among its numbers answers each number as the column of
    the numbers alone does (a blank is skipped, not read: issue 80's two-phone files),
    and each blank ``missing_phone``, flagged as the row's country says."""
    cells = pd.Series([cell for cell, _ in rows], dtype=object)
    countries = pd.Series([country for _, country in rows], dtype=object)
    whole = normalize(cells, country=countries)
    filled = cells.notna()
    alone = normalize(cells[filled], country=countries[filled])
    pd.testing.assert_frame_equal(whole[filled], alone)
    blanks = whole[~filled]
    assert (blanks["reason"] == "missing_phone").all() and blanks["phone_e164"].isna().all()
    unknown = countries[~filled] == "XX"
    assert (blanks["flags"].fillna("") == unknown.map({True: "unknown_country",
                                                      False: ""})).all()
