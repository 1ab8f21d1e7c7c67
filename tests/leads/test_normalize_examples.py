"""``normalize`` against sources nobody here wrote: libphonenumber's example number of every
supported region and number type, written E.164, INTERNATIONAL and NATIONAL, bare and with
an extension in the forms ``phonenumbers`` reads. Where ``phonenumbers.parse`` finds a valid
number, ours is the same with the same extension; and an extension never changes the
number (its digits are never joined on, issue 20)."""

from __future__ import annotations

import functools

import pandas as pd
import phonenumbers
import pytest

from dialkit.leads import normalize
from dialkit.leads._normalize._columns import _frame

Format = phonenumbers.PhoneNumberFormat

EXTENSIONS = (" x987", " #987", ";ext=987", " extn 987", " extension 987", " доб. 987",
              " anexo 987", ",,987", ";987", " ext: 987#", " - 987#", " Ext.987", " ~987",
              " int 987", ",987", " ｅｘｔ９８７")
"""Other ways ``phonenumbers`` reads an extension (its ``_EXTN_PATTERNS_FOR_PARSING``); each
example gets ``" ext. 123"`` and one of these in turn."""


@functools.cache
def _examples() -> tuple[tuple[str, phonenumbers.PhoneNumber], ...]:
    """Every (region, example number) of every supported region and type, then the
    non-geographic calling codes' (region ``001``), each distinct number once a region."""
    found: dict[tuple[str, str], phonenumbers.PhoneNumber] = {}
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for kind in phonenumbers.PhoneNumberType.values():
            number = phonenumbers.example_number_for_type(region, kind)
            if number is not None:
                found.setdefault((region, _e164(number)), number)
    for code in sorted(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS):
        number = phonenumbers.example_number_for_non_geo_entity(code)
        if number is not None:
            found.setdefault(("001", _e164(number)), number)
    return tuple((region, number) for (region, _), number in found.items())


def _e164(number: phonenumbers.PhoneNumber) -> str:
    return phonenumbers.format_number(number, Format.E164)


@functools.cache
def _cells() -> pd.DataFrame:
    """One row per cell: its text, the file's region, the bare text it was made from, and the
    extension written after it (``None`` for the bare cell)."""
    rows = []
    for index, (region, number) in enumerate(_examples()):
        home = "US" if region == "001" else region
        for style, where in ((Format.E164, "US"), (Format.INTERNATIONAL, "US"),
                             (Format.NATIONAL, home), (Format.NATIONAL, "US")):
            bare = phonenumbers.format_number(number, style)
            other = EXTENSIONS[(index + style) % len(EXTENSIONS)]
            for suffix, extension in (("", None), (" ext. 123", "123"), (other, "987")):
                rows.append((bare + suffix, where, bare, extension))
    return pd.DataFrame(rows, columns=["text", "region", "bare", "extension"])


@functools.cache
def _normalized() -> pd.DataFrame:
    cells = _cells()
    found = normalize(cells["text"], country=cells["region"])
    return found.astype(object).where(found.notna(), None)


def _theirs(text: str, region: str) -> tuple[str, str | None] | None:
    """``phonenumbers``' E.164 and extension (its digits as ASCII), where it finds a valid
    number."""
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    extension = number.extension and phonenumbers.normalize_digits_only(number.extension)
    return _e164(number), extension or None


def test_every_region_and_type_has_examples_to_try() -> None:
    cells = _cells()
    assert len(_examples()) > 1000 and cells["region"].nunique() > 200
    assert len(cells) == 12 * len(_examples())


def test_where_phonenumbers_finds_a_valid_number_ours_and_its_extension_are_the_same() -> None:
    cells, ours = _cells(), _normalized()
    differ, compared = [], 0
    for text, region, e164, extension in zip(cells["text"], cells["region"], ours["phone_e164"],
                                             ours["extension"], strict=True):
        theirs = _theirs(text, region)
        if theirs is None:
            continue
        compared += 1
        if (e164, extension) != theirs:
            differ.append((text, region, (e164, extension), theirs))
    assert compared > 0.7 * len(cells)
    assert differ == [], f"{len(differ)} cells differ, such as {differ[:5]}"


def test_an_extension_is_always_read_and_never_changes_the_number() -> None:
    """The same E.164, country, reason and flags as the bare number (but ``extension``)."""
    cells, ours = _cells(), _normalized()
    written = cells["extension"].notna()
    lost = cells[written & (ours["extension"] != cells["extension"])]
    assert lost.empty, f"{len(lost)} extensions lost or misread, such as {lost.head().values}"
    verdicts = ours.drop(columns="extension").assign(
        flags=ours["flags"].str.replace(r"^extension,?", "", regex=True).replace("", None))
    bare = {(text, region): tuple(verdict) for text, region, verdict in zip(
        cells["text"], cells["region"], verdicts.itertuples(index=False), strict=True)}
    changed = [(text, tuple(verdict), bare[plain, region]) for text, region, plain, verdict in zip(
        cells["text"][written], cells["region"][written], cells["bare"][written],
        verdicts[written].itertuples(index=False), strict=True)
        if tuple(verdict) != bare[plain, region]]
    assert changed == [], f"{len(changed)} verdicts changed by an extension, such as {changed[:5]}"


def test_no_number_ends_in_digits_an_extension_brought() -> None:
    """The issue's symptom itself: ``923 123 456 ext. 123`` became ``+923123456123``."""
    cells, ours = _cells(), _normalized()
    for digits in ("123", "987"):
        written = cells["extension"] == digits
        bare = cells["bare"].map(phonenumbers.normalize_digits_only)
        grown = written & ours["phone_e164"].str.endswith(digits, na=False) & ~bare.str.endswith(
            digits)
        assert not grown.any(), cells[grown].head().values


SEEN = {  # issue 20, default region US
    "Pakistan from an Angolan number": ("923 123 456 ext. 123", None, "123", "extension"),
    "Russia from a French one": ("79 56 12 34 ext. 123", None, "123", "extension"),
    "Japan after its trunk 0": ("810 12 34 56 ext. 123", None, "123", "extension"),
    "Angola's extension kept": ("+244 923 123 456 ext. 123", "+244923123456", "123", "extension"),
    "a two-digit extension": ("+44 20 7946 0123 x12", "+442079460123", "12", "extension"),
    "a lost plus with an extension": ("442079460123 ext. 5", "+442079460123", "5",
                                      "extension,added_plus"),
    "a second extension": ("(530) 583-6985 x302/x2303", "+15305836985", "302", "extension"),
    "an extension after two numbers": ("415 555 0123 / 212 555 0142 x9", "+14155550123", None,
                                       "two_numbers"),
    # read as a number and its second line's last digits (issue 97), each invalid
    "no lost plus across a slash": ("4420 7946 0/123", None, None, "two_numbers"),
    "a second line's last digits": ("415 555 0123/45", "+14155550123", None, "two_numbers"),
    "two numbers": ("4420 7946/0123 4567", None, None, "two_numbers"),
    "a label before the number": ("Tel: 415 555 0123", "+14155550123", None, None),
    "vanity": ("1-800-FLOWERS ext. 12", "+18003569377", "12", "extension,vanity"),
    "two letters are not vanity": ("415 555 0123 ab", "+14155550123", None, None),
}


@pytest.mark.parametrize(("cell", "e164", "extension", "flags"), SEEN.values(), ids=SEEN)
def test_no_fix_up_takes_digits_from_beyond_an_extension_or_a_second_number(
        cell: str, e164: str | None, extension: str | None, flags: str | None) -> None:
    row = normalize([cell], region="US").astype(object).iloc[0]
    got = tuple(None if pd.isna(row[c]) else row[c] for c in ("phone_e164", "extension", "flags"))
    assert got == (e164, extension, flags)
    assert row["reason"] == ("invalid_phone" if e164 is None else None) or pd.isna(row["reason"])


DATES = ["2012-01-02 08:00", "2012-01-02", "2012-01-02 08:00:00", "2012-01-02T08:00:00Z",
         "2012-01-02T08:00:00+01:00", "02.01.2012", "1/2/2012", "01/02/12", "1-2-2012",
         "2012/1/2", "1/2/2012 8:00 PM", "08:00", "8:00:00", "8:00 am", " 2012-01-02 "]


@pytest.mark.parametrize("cell", DATES)
@pytest.mark.parametrize("region", ["US", "DE", "EG"])
def test_a_date_or_a_time_is_not_a_phone(cell: str, region: str) -> None:
    row = normalize([cell], region=region).astype(object).iloc[0]
    assert (row["reason"], row["flags"], row["phone_e164"]) == ("invalid_phone", "not_a_phone",
                                                                pd.NA)


@pytest.mark.parametrize(("cell", "region", "e164"), [
    ("2012 0102", "US", None), ("12-34-5678", "US", None), ("030 2012 0102", "DE", "+493020120102"),
    ("06.12.34.56.78", "FR", "+33612345678"), ("1-800-555-2012", "US", "+18005552012")])
def test_a_number_that_only_holds_a_date_s_digits_is_still_read(cell: str, region: str,
                                                                  e164: str | None) -> None:
    row = normalize([cell], region=region).astype(object).iloc[0]
    assert (None if pd.isna(row["phone_e164"]) else row["phone_e164"]) == e164
    assert "not_a_phone" not in str(row["flags"])


def test_the_fast_path_gives_the_slow_path_s_answer_on_every_example() -> None:
    cells = _cells()
    slow = _frame(cells["text"], region="US", country=cells["region"], fast=False)
    pd.testing.assert_frame_equal(normalize(cells["text"], country=cells["region"]), slow)


WIDE = str.maketrans("0123456789", "０１２３４５６７８９")


@functools.cache
def _other_shapes() -> pd.DataFrame:
    """Each example as the other shapes a lead file holds, read column-wise before the fast
    path: its E.164 digits as an Excel float, after ``00`` and ``011``, national and
    international full-width, and first of two numbers; each with the file's region."""
    rows = []
    examples = _examples()
    for index, (region, number) in enumerate(examples):
        home = "US" if region == "001" else region
        e164 = _e164(number)
        international = phonenumbers.format_number(number, Format.INTERNATIONAL)
        national = phonenumbers.format_number(number, Format.NATIONAL)
        other = _e164(examples[(index + 1) % len(examples)][1])
        for cell, where in ((e164[1:] + ".0", home), (e164[1:] + ".0", "US"),
                            ("+" + e164[1:] + ".00", "US"), ("00" + e164[1:], "US"),
                            ("00 " + international[1:], home), ("011 " + international[1:], "US"),
                            (national.translate(WIDE), home),
                            (international.translate(WIDE) + " x12", "US"),
                            (national + " / " + other, home), (international + ", " + national,
                                                               "US")):
            rows.append((cell, where))
    return pd.DataFrame(rows, columns=["text", "region"])


def test_the_fast_path_gives_the_slow_path_s_answer_on_every_example_in_other_shapes() -> None:
    cells = _other_shapes()
    fast = normalize(cells["text"], country=cells["region"])
    slow = _frame(cells["text"], region="US", country=cells["region"], fast=False)
    pd.testing.assert_frame_equal(fast, slow)
    flags = fast["flags"].fillna("")
    for flag in ("excel_float", "international_prefix", "two_numbers", "extension"):
        assert flags.str.contains(flag).sum() > 500, flag
