"""No wrong number, ever (issue 70): a truth set nobody here wrote, read every way.

The numbers are libphonenumber's own example numbers of every region it supports (fixed
line and mobile), each written as people and spreadsheets write them: nationally,
internationally, as E.164, as national digits, and as Excel's floats of the E.164 and
of the national digits (whose leading zero Excel drops). Each goes with its country
spelled as people spell it, from registries, not from us: the ISO 3166 codes
(pycountry), CLDR's name of the country in 25 languages (Babel), its calling code
(``+49``, ``0049``); with a blank country in a file of that region; and with a country
nobody can read. The property: every row accepted holds the example's own E.164 number,
and no row whose country cannot be read is accepted but one whose number is written in
full, ``+`` and its country code, which names its country itself (issue 97). A number
refused is a loss; a number of someone else is a stranger called.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import phonenumbers
import pycountry
from babel import Locale
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialkit.leads import clean, normalize, read

LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh", "ru", "ar", "hi",
             "ko", "tr", "sv", "da", "nb", "fi", "el", "hu", "cs", "ro", "uk", "vi")
"""The languages of CLDR's country names the rows are spelled in."""
UNREADABLE = ("Atlantis", "Narnia", "XX", "+999", "Untied States", "Germnay", "?", "N.A.",
              "Country", "0")
"""Country cells that name no country."""
_F = phonenumbers.PhoneNumberFormat


@dataclass(frozen=True)
class Row:
    """A phone cell, a country cell, the file's region, and the number the person owns
    (``None``: the row must not be accepted, its country being unreadable and its number
    written without its country code)."""

    phone: str
    country: str
    region: str
    owned: str | None


@functools.cache
def _writings() -> tuple[tuple[str, str, list[str]], ...]:
    """Each example number's region, its E.164, and the cells it is written as."""
    found = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for kind in (phonenumbers.PhoneNumberType.FIXED_LINE,
                     phonenumbers.PhoneNumberType.MOBILE):
            number = phonenumbers.example_number_for_type(region, kind)
            if number is None:
                continue
            e164 = phonenumbers.format_number(number, _F.E164)
            national = phonenumbers.format_number(number, _F.NATIONAL)
            digits = "".join(c for c in national if c.isdigit())
            cells = [national, phonenumbers.format_number(number, _F.INTERNATIONAL), e164,
                     digits, f"{e164[1:]}.0", f"{int(digits)}.0" if digits else national]
            found.append((region, e164, cells))
    return tuple(found)


@functools.cache
def _spellings(region: str) -> tuple[str, ...]:
    """How people write ``region``'s country: codes, CLDR's names, its calling code."""
    found = {region, region.lower()}
    country = pycountry.countries.get(alpha_2=region)
    if country is not None:
        found.add(country.alpha_3)
    for language in LANGUAGES:
        name = Locale.parse(language).territories.get(region)
        if name:
            found.add(name)
    code = phonenumbers.country_code_for_region(region)
    found |= {f"+{code}", f"00{code}"}
    return tuple(sorted(found))


def truth() -> list[Row]:
    """Every writing of every example number with every spelling of its country, blank
    in a file of its region, and with an unreadable one."""
    rows = []
    for n, (region, e164, cells) in enumerate(_writings()):
        for cell in cells:
            rows += [Row(cell, spelled, "US", e164) for spelled in _spellings(region)]
            rows.append(Row(cell, "", region, e164))
            rows.append(Row(cell, UNREADABLE[n % len(UNREADABLE)], "US",
                            e164 if cell.startswith("+") else None))
    return rows


def _wrong(rows: list[Row], e164: list[object]) -> list[tuple[Row, object]]:
    """The rows read as a number not their own, or read though unreadable."""
    return [(row, got) for row, got in zip(rows, e164, strict=True)
            if isinstance(got, str) and got != row.owned]


def test_no_row_of_the_truth_set_reads_as_another_number() -> None:
    rows = truth()
    wrong = []
    for region in sorted({row.region for row in rows}):
        some = [row for row in rows if row.region == region]
        read = normalize([row.phone for row in some], region=region,
                         country=[row.country for row in some])
        wrong += _wrong(some, [None if pd.isna(v) else v for v in read["phone_e164"]])
    assert wrong == []
    assert len(rows) > 60_000  # every region, six writings, its spellings in 25 languages


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_file_of_the_truth_set_accepts_no_number_but_the_persons(data: st.DataObject) -> None:
    """The same through the whole clean, a file at a time: its verdicts, duplicates and
    hints. The file's rows come from one region's writings (blank countries read in it),
    any region's with a country spelled, and unreadable countries."""
    region, _, _ = data.draw(st.sampled_from(_writings()))
    picked = data.draw(st.lists(st.sampled_from(_writings()), min_size=1, max_size=8))
    rows = []
    for other, e164, cells in picked:
        cell = data.draw(st.sampled_from(cells))
        country = data.draw(st.sampled_from(
            [*_spellings(other), *([""] if other == region else []), UNREADABLE[0]]))
        rows.append(Row(cell, country, region, None if country == UNREADABLE[0]
                        and not cell.startswith("+") else e164))
    frame = pd.DataFrame({"Phone": [row.phone for row in rows],
                          "Country": [row.country for row in rows]})
    result = clean(frame, region=region, country_column="Country")
    accepted = result.frame["status"] == "accepted"
    e164 = [v if ok else None for v, ok in zip(result.frame["phone_e164"], accepted,
                                                strict=True)]
    assert _wrong(rows, e164) == []
    unread = [row.owned is None for row in rows]  # nor one written nationally, unread
    assert not any(ok and not_read for ok, not_read in zip(accepted, unread, strict=True))


def _in_no_region(cell: str) -> str | None:
    """libphonenumber's reading of a cell with no country: a number written with its
    country code, else none."""
    try:
        number = phonenumbers.parse(cell, "ZZ")
    except phonenumbers.NumberParseException:
        return None
    return phonenumbers.format_number(number, _F.E164) if phonenumbers.is_valid_number(
        number) else None


def test_beside_an_unreadable_country_a_cell_reads_as_libphonenumber_reads_it_in_none() -> None:
    """Issue 97: a cell whose country names none is read as libphonenumber reads it in no
    region (a number written with its country code; of two numbers in a cell, the first),
    never in the file's region: every example writing, and the realistic mix's cells."""
    mix = read(Path(__file__).parents[1] / "fixtures" / "clean" / "mix_1500.csv").frame
    cells = [cell for _, _, written in _writings() for cell in written]
    cells += mix["Phone"].dropna().tolist()
    found = normalize(cells, region="US", country=[UNREADABLE[0]] * len(cells))
    for cell, number, flags in zip(cells, found["phone_e164"], found["flags"], strict=True):
        first = cell.split(", ")[0] if "two_numbers" in str(flags) else cell
        assert (None if pd.isna(number) else number) == _in_no_region(first), cell
    assert found["phone_e164"].notna().sum() > 1000
