"""The vectorised fast path gives what ``phonenumbers`` gives: on generated numbers of many
regions in every shape, and on every number of the emulator's synthetic world."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit._utils import _tuning
from dialkit.leads import normalize
from dialkit.leads._normalize._columns import _frame
from dialkit.leads._normalize._fast import _leading, verdicts
from dialkit.sandbox._state._store import Store
from dialkit.sandbox._world._build import build_world

REGIONS = sorted(phonenumbers.SUPPORTED_REGIONS)[1::5]  # 49 regions over the alphabet
TYPES = (phonenumbers.PhoneNumberType.FIXED_LINE, phonenumbers.PhoneNumberType.MOBILE,
         phonenumbers.PhoneNumberType.TOLL_FREE, phonenumbers.PhoneNumberType.PREMIUM_RATE,
         phonenumbers.PhoneNumberType.VOIP, phonenumbers.PhoneNumberType.UAN)
STYLES = (phonenumbers.PhoneNumberFormat.NATIONAL, phonenumbers.PhoneNumberFormat.INTERNATIONAL,
          phonenumbers.PhoneNumberFormat.E164, phonenumbers.PhoneNumberFormat.RFC3966)
PREFIXES = ("", "", "+", "00", "011", "0", "1", "8", "+0", "0 ")
EXTENSIONS = ("", "", "", " ext. 123", " x12", " #7", ";ext=45", ",,9", " доб. 3", " - 12#")
DATES = ("2012-01-02", "02.01.2012", "1-2-2012", "2012.1.2", "2012-01-02 08:00", "08:00",
         "1/2/12", "2012-13-02", "32.01.2012", "2012-01-02-03", "012-01-02")
"""Dates in the shapes a spreadsheet writes, plain (dashes and dots) or not; and shapes that
are no date (month 13, day 32, a third dash, a short year)."""


def _with_separators(text: str, seps: list[str]) -> str:
    return "".join(c + (seps[i % len(seps)] if seps else "") for i, c in enumerate(text))


@st.composite
def cells(draw: st.DrawFn) -> tuple[str, str]:
    """A cell and the row's region: an example number of some type and region, its digits
    perturbed, written in one of ``phonenumbers``' formats, with a prefix and separators;
    or a random digit string."""
    region = draw(st.sampled_from(REGIONS))
    if draw(st.integers(0, 5)) == 0:
        return draw(st.text("0123456789", min_size=3, max_size=18)), region
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(DATES)), region
    source = draw(st.sampled_from(REGIONS)) if draw(st.booleans()) else region
    example = phonenumbers.example_number_for_type(source, draw(st.sampled_from(TYPES)))
    if example is None:
        example = phonenumbers.example_number(source)
    assert example is not None
    digits = list(phonenumbers.national_significant_number(example))
    for _ in range(draw(st.integers(0, 3))):
        digits[draw(st.integers(0, len(digits) - 1))] = draw(st.sampled_from("0123456789"))
    digits += draw(st.text("0123456789", max_size=2))
    number = phonenumbers.PhoneNumber(country_code=example.country_code,
                                      national_number=int("".join(digits)))
    if digits[0] == "0":
        number.italian_leading_zero = True
        number.number_of_leading_zeros = len(digits) - len("".join(digits).lstrip("0")) or None
    text = phonenumbers.format_number(number, draw(st.sampled_from(STYLES))).removeprefix("tel:")
    prefix = draw(st.sampled_from(PREFIXES))
    text = prefix + text.removeprefix("+") if prefix and text.startswith("+") else text
    seps = draw(st.lists(st.sampled_from([" ", "-", ".", "(", ")", "", ""]), max_size=3))
    text = _with_separators(text, seps) if draw(st.booleans()) else text
    return text + draw(st.sampled_from(EXTENSIONS)), region


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(cells(), min_size=1, max_size=40), default=st.sampled_from(REGIONS))
def test_normalize_equals_the_slow_path_on_every_row(rows: list[tuple[str, str]],
                                                     default: str) -> None:
    texts, regions = [t for t, _ in rows], [r for _, r in rows]
    for country in (regions, None):
        fast = normalize(texts, region=default, country=country)
        slow = _frame(texts, region=default, country=country, fast=False)
        pd.testing.assert_frame_equal(fast, slow)


def test_plain_cells_of_many_regions_do_go_fast() -> None:
    """Else the property above would hold by never taking the fast path."""
    texts, where = [], []
    for index, region in enumerate(REGIONS):
        for style in STYLES[:3]:
            example = phonenumbers.example_number(region)
            assert example is not None
            texts.append(phonenumbers.format_number(example, style))
            where.append(index)
    found = verdicts(pa.array(texts, pa.string()), np.array(where, np.int64), REGIONS)
    assert found.done.mean() > 0.9
    assert set(found.reason.to_pylist()) == {None}


@pytest.mark.parametrize(("cell", "region", "e164", "country", "flags"), [
    ("(415) 555-0123", "US", "+14155550123", "US", None),
    ("0044 20 7946 0123", "US", "+442079460123", "GB", "international_prefix"),
    ("442079460123", "US", "+442079460123", "GB", "added_plus"),
    ("+1 268 464 1234", "US", "+12684641234", "AG", None),
    ("464 1234", "AG", "+12684641234", "AG", None),
    ("020 7946 0123", "GB", "+442079460123", "GB", None),
    ("+39 06 6981 2345", "US", "+390669812345", "VA", None),  # 06 698: the Vatican
    ("+39 06 4820 1234", "US", "+390648201234", "IT", None),
    ("+800 1234 5678", "US", "+80012345678", "001", None),
    ("49502000000000000", "US", None, None, "added_plus,over_15_digits"),
])
def test_a_plain_cell_goes_fast_and_gets_phonenumbers_answer(
        cell: str, region: str, e164: str | None, country: str | None, flags: str | None) -> None:
    found = verdicts(pa.array([cell], pa.string()), np.zeros(1, np.int64), [region])
    assert found.done.tolist() == [True]
    assert (found.phone_e164[0].as_py(), found.country[0].as_py(), found.flags[0].as_py()) == (
        e164, country, flags)
    row = normalize([cell], region=region).iloc[0]
    assert [None if pd.isna(v) else v for v in row[["phone_e164", "country", "flags"]]] == [
        e164, country, flags]


@pytest.mark.parametrize("region", ["US", "GB", "DE", "FR", "EG", "JP"])
def test_dates_and_extensions_get_the_slow_path_s_answer(region: str) -> None:
    """A plain date (``2012-01-02``) is no number: the fast path leaves it to the slow one,
    which says ``not_a_phone``; an extension never goes fast, and both paths agree."""
    numbers = ["923 123 456", "79 56 12 34", "810 12 34 56", "+244 923 123 456",
               "442079460123", "020 7946 0123", "(415) 555-0123", "0044 20 7946 0123"]
    texts = [*DATES, *(n + e for n in numbers for e in EXTENSIONS)]
    fast = normalize(texts, region=region)
    pd.testing.assert_frame_equal(fast, _frame(texts, region=region, country=None, fast=False))
    found = verdicts(pa.array(DATES, pa.string()), np.zeros(len(DATES), np.int64), [region])
    dates = fast["flags"].iloc[:len(DATES)].eq("not_a_phone").fillna(False).to_numpy(bool)
    assert dates.tolist() == [True] * 7 + [False] * 4
    assert not found.done[dates].any()


def _world_phones() -> list[str]:
    """Every phone number of the smallest world, in any table."""
    store = Store()
    build_world(store, "demo", seed=7, scale="small", anchor=datetime(2026, 11, 21, 10, tzinfo=UTC))
    phones: set[str] = set()
    for (table,) in store.rows("SELECT name FROM sqlite_master WHERE type = 'table'"):
        for column in (c[1] for c in store.rows(f"PRAGMA table_info({table})") if "phone" in c[1]):
            phones.update(str(p) for (p,) in store.rows(
                f"SELECT DISTINCT {column} FROM {table} WHERE {column} IS NOT NULL"))
    store.close()
    return sorted(phones)


def test_every_world_number_gets_the_same_answer_fast_slow_and_from_phonenumbers() -> None:
    phones = _world_phones()
    assert len(phones) > 1000
    cells, countries, expected = [], [], []
    for e164 in phones:  # as stored, and as a person in its country writes it
        number = phonenumbers.parse(e164)
        national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
        cells += [e164, national, national.replace(" ", "-")]
        countries += [phonenumbers.region_code_for_number(number)] * 3
        valid = phonenumbers.is_valid_number(number)
        expected += [phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
                     if valid else None] * 3
    fast = normalize(cells, country=countries)
    slow = _frame(cells, region="US", country=countries, fast=False)
    pd.testing.assert_frame_equal(fast, slow)
    assert fast["phone_e164"].astype(object).where(fast["phone_e164"].notna(), None).tolist() \
        == expected
    assert fast["reason"].isna().all() and fast["country"].tolist() == countries


def test_a_column_long_enough_for_threads_gets_the_same_rows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads, two parts, as 200,000 rows get by default (a 20th of the sizes: each
    region's rows in a part still past ``PHONE_SMALL_MATCH``, matched by RE2)."""
    monkeypatch.setattr(_tuning, "PHONE_THREAD_ROWS", _tuning.PHONE_THREAD_ROWS // 20)
    monkeypatch.setattr(_tuning, "PHONE_PART_ROWS", _tuning.PHONE_PART_ROWS // 20)
    rows = [("(415) 555-0123", "US"), ("+44 20 7946 0123", "US"), ("0044 20 7946 0123", "US"),
            ("020 7946 0123", "GB"), ("06 12 34 56 78", "FR"), ("N/A", "US"),
            ("415 555 0123 x7", "CA"), ("12", "DE"), ("+54 9 11 2345-6789", "AR")]
    count = 2 * _tuning.PHONE_THREAD_ROWS // len(rows) + 1
    texts, countries = [t for t, _ in rows] * count, [c for _, c in rows] * count
    once = normalize([t for t, _ in rows], country=[c for _, c in rows])
    repeated = pd.concat([once] * count, ignore_index=True)
    pd.testing.assert_frame_equal(normalize(texts, country=countries), repeated)


@given(texts=st.lists(st.one_of(st.none(), st.text(
    st.characters(min_codepoint=1, exclude_categories=("Cs",)),  # a file's text has none
    max_size=6)), min_size=1, max_size=30))
def test_leading_bytes_order_cells_as_their_first_bytes_do(texts: list[str | None]) -> None:
    """Cells ordered by :func:`_leading` are in the order of their first bytes (Python's
    order of ``bytes``; a missing cell as an empty one), read from a slice's own offset
    as a part is: so a calling code's rows lie together."""
    heads = [(text or "").encode()[:_tuning.LEADING_BYTES] for text in texts[1:]]
    keys = _leading(pa.array(texts, pa.string()).slice(1)).tolist()
    assert sorted(range(len(keys)), key=lambda n: (keys[n], n)) == sorted(
        range(len(heads)), key=lambda n: (heads[n], n))


@pytest.mark.parametrize("part_rows", [3, 97, 400])  # 1 row a part: 25x the time of 97
def test_more_parts_than_threads_give_each_row_its_own_answer(
        part_rows: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read in parts of ``PHONE_PART_ROWS`` on the threads, the mix's
    phones (many small regions) and one row of each of 49 regions more get, row by row,
    what one part of them all gives."""
    from dialkit.leads import read
    from dialkit.leads._normalize import _fast
    from dialkit.leads._normalize._columns import _row_regions, _texts

    mix = read(Path(__file__).parents[1] / "fixtures" / "clean" / "mix_1500.csv").frame
    singles = [phonenumbers.format_number(phonenumbers.example_number(region),
                                          phonenumbers.PhoneNumberFormat.NATIONAL)
               for region in REGIONS]
    cells = pd.Series([*mix["Phone"].tolist(), *singles], dtype="string[pyarrow]")
    countries = pd.Series([*mix["Country"].tolist(), *REGIONS], dtype="string[pyarrow]")
    texts = _texts(cells)
    where, names, _, _ = _row_regions(countries, "US", cells.index)
    whole = _fast._verdicts(texts, where, names)
    monkeypatch.setattr(_tuning, "PHONE_THREAD_ROWS", 2)
    monkeypatch.setattr(_tuning, "PHONE_PART_ROWS", part_rows)
    parted = verdicts(texts, where, names)
    assert parted.done.tolist() == whole.done.tolist()
    for name in ("phone_e164", "country", "extension", "reason", "flags"):
        assert getattr(parted, name).equals(getattr(whole, name)), name


def test_small_groups_matched_by_python_re_get_what_re2_gives() -> None:
    """Fewer than ``PHONE_SMALL_MATCH`` values are matched with Python's ``re``, more with RE2 in
    pyarrow: example numbers of every type of 49 regions, national and international, with
    and without an IDD or a trunk prefix, and dates, read once (small groups) and repeated
    ``PHONE_SMALL_MATCH`` times (every group large), give the same verdicts, row by row."""
    texts, where = [], []
    for index, region in enumerate(REGIONS):
        for kind in TYPES:
            example = phonenumbers.example_number_for_type(region, kind)
            for style in STYLES[:2] if example is not None else ():
                text = phonenumbers.format_number(example, style)
                for prefix in ("", "00", "0", "1"):
                    texts.append(prefix + text.removeprefix("+"))
                    where.append(index)
    texts += DATES
    where += [0] * len(DATES)
    once = verdicts(pa.array(texts, pa.string()), np.array(where, np.int64), REGIONS)
    times = _tuning.PHONE_SMALL_MATCH
    many = verdicts(pa.array(texts * times, pa.string()), np.array(where * times, np.int64),
                    REGIONS)
    assert once.done.mean() > 0.5
    assert many.done.tolist() == once.done.tolist() * times
    for column in ("phone_e164", "country", "extension", "reason", "flags"):
        assert getattr(many, column).to_pylist() == getattr(once, column).to_pylist() * times


TRANSFORMED = ("AR", "BR", "GA")
"""The regions whose national-prefix transform rule is not NANP-style: whether its last
group took part decides between the rule and a plain strip (Brazil's carrier code,
Argentina's mobile ``15``)."""


def _national_forms(region: str) -> list[str]:
    """Each example number of the region, in every type, written as people write it at
    home: national, with the national prefix and each carrier code the prefix names, and
    Argentina's mobiles with ``15`` after the area code."""
    forms = []
    for kind in TYPES:
        example = phonenumbers.example_number_for_type(region, kind)
        if example is None:
            continue
        nsn = phonenumbers.national_significant_number(example)
        forms += [nsn, "0" + nsn, "90" + nsn, "0 21 " + nsn, "015 " + nsn, "0 99 " + nsn,
                  phonenumbers.format_number(example, phonenumbers.PhoneNumberFormat.NATIONAL)]
        if region == "AR" and nsn.startswith("9"):
            forms += ["0" + nsn[1:3] + "15" + nsn[3:], nsn[1:3] + " 15 " + nsn[3:]]
    return forms


@pytest.mark.parametrize("region", TRANSFORMED)
def test_a_transform_rule_s_region_goes_fast_and_gets_phonenumbers_answer(region: str) -> None:
    """Every such number went to ``phonenumbers`` once per row, and once more per region a
    hint tried: a file of national Brazilian numbers cost what no other country's did."""
    texts = _national_forms(region)
    fast = normalize(texts, region=region)
    pd.testing.assert_frame_equal(fast, _frame(texts, region=region, country=None, fast=False))
    found = verdicts(pa.array(texts, pa.string()), np.zeros(len(texts), np.int64), [region])
    plain = np.array([t.replace(" ", "").isdecimal() for t in texts])
    assert found.done[plain].all()
    assert fast["phone_e164"].notna().sum() >= len(texts) // 3
