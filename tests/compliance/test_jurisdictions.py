"""The jurisdiction table: its rows against the statutes' own days and hours, its
checks against broken copies of the file, the package data and the docs page."""

from __future__ import annotations

import codecs
import fnmatch
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from importlib import resources
from pathlib import Path
from urllib.parse import urlparse

import pytest

from dialkit.compliance._rules import _checked_states
from dialkit.compliance._rules import _jurisdictions as jurisdictions
from dialkit.compliance._rules._jurisdictions import JurisdictionDataError
from dialkit.errors import UnknownJurisdictionError

ROOT = Path(__file__).resolve().parents[2]
DATA = resources.files("dialkit._law").joinpath(jurisdictions.DATA_FILE)
ROW = "[[jurisdiction]]\n"
CHECKED = "[[checked]]\n"
STATES = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN",
    "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH",
    "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT",
    "VT", "VA", "WA", "WV", "WI", "WY",
)
"""The 50 states and DC by postal code, written out here rather than taken from a
library, so that the test does not share a mistake with the code it checks."""


def test_the_table_has_the_baseline_first_and_each_id_once() -> None:
    ids = [row.id for row in jurisdictions.all()]
    assert ids[0] == "US"
    assert len(ids) == len(set(ids))
    assert {"US", "US-FL", "US-OK", "US-MD", "US-LA", "GB", "CA"} <= set(ids)


def test_the_package_table_is_read_once() -> None:
    assert jurisdictions.get("US-FL") is jurisdictions.get("US-FL")
    assert jurisdictions.all() == tuple(jurisdictions.load().values())


def test_an_unknown_id_is_named_in_the_error() -> None:
    with pytest.raises(UnknownJurisdictionError, match="'US-ZZ'.*known ids: US, "):
        jurisdictions.get("US-ZZ")


@pytest.mark.parametrize(("jid", "local", "window"), [
    ("US", datetime(2026, 11, 22, 20, 59), (time(8), time(21))),
    ("US-FL", datetime(2026, 11, 23, 19, 30), (time(8), time(20))),
    ("US-LA", datetime(2026, 11, 21, 12), (time(8), time(20))),          # a Saturday
    ("US-LA", datetime(2026, 11, 22, 12), None),                         # a Sunday
    ("US-MS", datetime(2026, 11, 22, 12), None),
    ("US-RI", datetime(2026, 11, 21, 12), (time(10), time(17))),
    ("US-RI", datetime(2026, 11, 23, 12), (time(9), time(18))),
    ("US-TX", datetime(2026, 11, 22, 10), (time(12), time(21))),
    ("US-NM", datetime(2026, 11, 23, 8, 30), (time(9), time(21))),
    ("CA", datetime(2026, 11, 23, 21), (time(9), time(21, 30))),         # a Monday
    ("CA", datetime(2026, 11, 22, 9), (time(10), time(18))),             # a Sunday
])
def test_the_window_of_a_local_time(jid: str, local: datetime,
                                    window: tuple[time, time] | None) -> None:
    assert jurisdictions.get(jid).window_for(local) == window


@pytest.mark.parametrize(("jid", "local", "allowed"), [
    ("US-FL", datetime(2026, 11, 23, 19, 59, 59), True),
    ("US-FL", datetime(2026, 11, 23, 20, 0), True),    # "after 8 p.m.": 20:00:00 is not
    ("US-FL", datetime(2026, 11, 23, 20, 0, 1), False),  # one second after 8 p.m. is
    ("US-MA", datetime(2026, 11, 23, 20, 0), False),   # "between ... 8:00 P.M.": outside
    ("US-FL", datetime(2026, 11, 23, 8, 0), True),
    ("US", datetime(2026, 11, 23, 20, 30), True),
    ("US-KY", datetime(2026, 11, 23, 9, 59), False),
    ("CA", datetime(2026, 11, 23, 21, 29), True),
    ("CA", datetime(2026, 11, 21, 18, 0), False),      # Saturday ends at 18:00
    ("US-LA", datetime(2026, 11, 22, 12, 0), False),   # no calls on Sunday at all
    ("GB", datetime(2026, 11, 22, 23, 30), True),      # no statutory hours
])
def test_a_call_is_allowed_inside_the_window_only(jid: str, local: datetime,
                                                  allowed: bool) -> None:
    assert jurisdictions.get(jid).allows(local) is allowed


# The statutes' own named days, dated by hand (not by the holidays package):
# 2026-07-04 is a Saturday, so Friday 2026-07-03 is its observed day.
@pytest.mark.parametrize(("jid", "day", "banned"), [
    ("US-UT", date(2026, 7, 4), False),    # Independence Day on a Saturday: 63G-1-301(2)(a)
    ("US-UT", date(2026, 7, 3), True),     # makes the Friday before the legal holiday
    ("US-UT", date(2026, 6, 15), True),    # Juneteenth: June 19 is a Friday, so the Monday
    ("US-UT", date(2026, 6, 19), False),   # before is the legal holiday (2)(c), not the 19th
    ("US-UT", date(2027, 6, 21), True),    # a Saturday 19th: the Monday after (2)(d)
    ("US-UT", date(2026, 7, 24), True),    # Pioneer Day, a Friday
    ("US-UT", date(2026, 11, 26), True),   # Thanksgiving, the fourth Thursday
    ("US-UT", date(2026, 11, 25), False),  # the Wednesday before
    ("US-LA", date(2026, 2, 17), True),    # Mardi Gras: 47 days before Easter (5 April)
    ("US-LA", date(2026, 11, 26), True),   # Thanksgiving
    ("US-LA", date(2026, 7, 3), True),     # DNC.com, July 2015: "Friday, July 3: ...
    ("US-LA", date(2026, 7, 4), True),     # Louisiana" (observed) and the Saturday itself
    ("US-LA", date(2027, 7, 5), False),    # no notice moves a Sunday holiday to Monday
    ("US-AL", date(2026, 4, 27), True),    # Confederate Memorial Day, fourth Monday of April
    ("US-AL", date(2026, 12, 25), True),   # Christmas
    ("US-AL", date(2026, 7, 3), True),     # Independence Day observed (Ala. Code 1-3-8)
    ("US-RI", date(2026, 8, 10), True),    # Victory Day, second Monday of August
    ("US-RI", date(2026, 11, 11), True),   # Veterans Day, a Wednesday
    ("US-RI", date(2026, 5, 4), True),     # Rhode Island Independence Day (25-1-1), a Monday
    ("US-RI", date(2026, 11, 3), True),    # election day: a general election of state officers
    ("US-RI", date(2027, 11, 2), False),   # ... held in even years only
    ("US-RI", date(2026, 7, 6), True),     # 25-1-1: 4 July on a Saturday, "the following
    ("US-RI", date(2026, 7, 3), False),    # Monday"; not the federal Friday before
    ("US-RI", date(2027, 12, 27), True),   # Christmas 2027, a Saturday: the Monday after
    ("US-RI", date(2027, 12, 24), False),
    ("US-RI", date(2027, 6, 18), True),    # Juneteenth (federal only), a Saturday: 6103(b)
    ("US-RI", date(2025, 5, 5), True),     # 4 May 2025, a Sunday: "the day following it"
    ("US-RI", date(2024, 5, 6), False),    # 4 May 2024, a Saturday: not moved
    ("US-UT", date(2026, 4, 3), False),    # Good Friday, before its text took effect
    ("US-UT", date(2027, 3, 26), True),    # ... and after (6 May 2026)
    ("US-UT", date(2027, 7, 5), True),     # 4 July 2027, a Sunday: the following Monday
    ("US-PA", date(2026, 11, 26), True),   # Thanksgiving
    ("US-PA", date(2026, 4, 3), True),     # Good Friday: Easter is 5 April 2026
    ("US-PA", date(2028, 11, 7), True),    # Election Day, 2028
    ("US-PA", date(2026, 11, 3), True),    # Election Day, 2026: the holidays package lacks it
    ("US-PA", date(2027, 11, 2), True),    # the Tuesday after the first Monday of November
    ("US-PA", date(2027, 11, 9), False),   # a week later
    ("US-PA", date(2027, 6, 14), True),    # Flag Day, a Monday: a day the row names itself
    ("US-PA", date(2026, 6, 14), True),    # Flag Day on a Sunday: banned all the same
    ("US-PA", date(2026, 11, 27), False),  # the day after Thanksgiving: not in the Act's list
    ("US-AL", date(2026, 2, 17), False),   # Mardi Gras: Baldwin and Mobile only, unlisted
    ("US-MS", date(2026, 12, 25), False),  # holiday ban repealed in 2024; a Friday
    ("US-MS", date(2026, 12, 27), True),   # a Sunday
    ("US-FL", date(2026, 7, 4), False),    # Florida bans no day
    ("US", date(2026, 12, 25), False),
    ("CA", date(2026, 7, 1), False),       # Canada Day: the CRTC bans no day
])
def test_banned_days_are_the_statutes_named_days(jid: str, day: date, banned: bool) -> None:
    assert jurisdictions.is_banned_day(jid, day) is banned


def test_a_banned_holiday_is_named() -> None:
    assert jurisdictions.get("US-UT").holiday_on(date(2026, 7, 3)) == \
        "Independence Day (observed)"
    assert jurisdictions.get("US-LA").holiday_on(date(2026, 2, 17)) == "Mardi Gras"
    assert jurisdictions.get("US-FL").holiday_on(date(2026, 7, 4)) is None


@pytest.mark.parametrize("jid", ["US-UT", "US-AL", "US-LA", "US-RI", "US-PA", "US-FL"])
def test_the_holidays_of_a_period_are_those_asked_day_by_day(jid: str) -> None:
    row = jurisdictions.get(jid)
    start = date(2025, 12, 1)
    days = [start + timedelta(days=n) for n in range(400)]
    by_day = {day: row.holiday_on(day) for day in days}
    assert row.holidays_between(days[0], days[-1]) == \
        {day: name for day, name in by_day.items() if name is not None}


def test_frequency_caps_and_scrub_ages() -> None:
    for jid in ("US-FL", "US-OK", "US-MD"):
        row = jurisdictions.get(jid)
        assert (row.max_calls, row.cap_period) == (3, timedelta(hours=24))
    assert jurisdictions.get("US").max_calls is None
    assert jurisdictions.get("US").dnc_scrub_age == timedelta(days=31)
    assert jurisdictions.get("GB").dnc_scrub_age == timedelta(days=28)
    assert jurisdictions.get("US-FL").dnc_scrub_age is None   # the federal rule applies


def test_unconfirmed_rows_are_exposed_not_hidden(unconfirm: Callable[[str], None]) -> None:
    assert jurisdictions.unconfirmed() == ()   # every shipped row was read or confirmed
    unconfirm("US-UT")
    [utah] = jurisdictions.unconfirmed()
    assert (utah.id, utah.status) == ("US-UT", "unconfirmed")
    assert utah.doubts


def test_a_day_the_calendar_lacks_is_stated_as_the_statute_states_it_and_applied() -> None:
    pennsylvania = jurisdictions.get("US-PA")
    assert [(day.name, day.rule) for day in pennsylvania.named_days] == [
        ("Flag Day", "14 June"), ("Election Day", "Tuesday after the first Monday of November")]
    assert pennsylvania.holiday_on(date(2026, 11, 3)) == "Election Day"
    assert pennsylvania.holidays_between(date(2026, 6, 1), date(2026, 6, 30)) == {
        date(2026, 6, 14): "Flag Day"}
    for row in jurisdictions.all():
        assert not {day.name for day in row.named_days} & set(row.holidays), row.id


def test_mini_tcpa_rows_say_which_calls_they_cover() -> None:
    for jid in ("US-FL", "US-OK", "US-MD", "US-PA", "US-MS"):
        assert jurisdictions.get(jid).scope, jid
    assert jurisdictions.get("US").scope == ""
    covered = {row.id: row.applies_to for row in jurisdictions.all()}
    assert {jid for jid, what in covered.items() if what != "all"} == {"US-AL"}
    assert "automated solicitation telephone calls" in jurisdictions.get("US-AL").text
    assert covered["US-AL"] == "campaign" and "campaign calls" in jurisdictions.get(
        "US-AL").scope


def test_each_cited_section_is_quoted_in_the_rows_text() -> None:
    """A finding's citation is the section that decides it, and its words are in the row:
    every part of each row's hours, days and cap citation appears in its ``text``."""
    for row in jurisdictions.all():
        if row.id == "GB":  # GB sets no hours, no day, no cap
            assert not row.cites, row.id
            continue
        text = " ".join(row.text.split())
        kinds = ["hours", "days"] + (["cap"] if row.max_calls else [])
        for kind in kinds:
            assert all(part in text for part in row.cite(kind).split("; ")), (row.id, kind)
    us = jurisdictions.get("US")
    assert us.cite("hours") == "16 CFR 310.4(c); 47 CFR 64.1200(c)(1)"


def test_a_doubtful_reading_is_named_on_the_cover_not_chosen_silently() -> None:
    """Where a text could not be read, the row applies a reading and says which one: the
    report's cover names each such row (rows of the preset's countries only)."""
    from dialkit.compliance import UK, US

    doubtful = {row.id for row in jurisdictions.doubtful()}
    assert {"US-CT", "US-KY", "US-TX", "US-UT", "US-RI", "US-LA"} <= doubtful
    cover = US.describe()["doubtful readings (applied)"]
    for row in jurisdictions.doubtful():
        assert f"({row.id}): {row.doubtful.rstrip('.')}" in cover
        assert row.doubts and row.confirmed, row.id  # applied, and its doubts say why
    assert "Good Friday" in cover and "Subsection (6)" in cover
    assert "(US-UT)" in UK.describe()["doubtful readings (applied)"]


def test_each_row_with_holidays_states_its_observed_day_rule_in_words() -> None:
    words = {row.id: row.observed_rule.words() for row in jurisdictions.all()
             if row.holidays or row.named_days}
    assert words == {
        "US-AL": "a Saturday holiday on the Friday before; a Sunday holiday on the Monday after",
        "US-LA": "a Saturday holiday on the Friday before",
        "US-PA": "on its own day only",
        "US-RI": "a Saturday holiday on the Monday after; a Sunday holiday on the Monday after",
        "US-UT": "a Saturday holiday on the Friday before; a Sunday holiday on the Monday after",
    }
    rhode_island = jurisdictions.get("US-RI")
    assert rhode_island.observed_on("Juneteenth National Independence Day").text == \
        jurisdictions.get("US-UT").observed_rule.text  # the same words, the same rule
    assert dict(jurisdictions.get("US-UT").holiday_since) == {"Good Friday": date(2026, 5, 6)}


def test_every_state_and_dc_is_a_row_or_checked_once() -> None:
    rows = [row.id for row in jurisdictions.all() if row.id.startswith("US-")]
    checked = [state.id for state in _checked_states.checked()]
    assert sorted(rows + checked) == sorted(f"US-{code}" for code in STATES)


def test_checked_states_say_what_was_found_and_where() -> None:
    states = _checked_states.checked()
    assert {state.id for state in states if state.finding == "open"} == \
        {"US-MI", "US-MN", "US-NV", "US-WY"}
    for state in states:
        if state.finding == "open":   # an open state names the sections it read
            assert re.search(r"\b(MCL|Minn\. Stat\.|NRS|W\.S\.) \d", state.note), state.id
        assert state.note and state.sources and state.reviewed <= date.today(), state.id
        assert all(url.startswith(("https://", "http://")) for url in state.sources)
    assert _checked_states.checked() is _checked_states.checked()   # read once


def test_each_row_cites_its_law_and_two_independent_sources() -> None:
    for row in jurisdictions.all():
        hosts = {urlparse(url).hostname for url in row.sources}
        assert len(row.sources) >= 2 and len(hosts) >= 2, row.id
        assert row.citation and row.reviewed <= date.today(), row.id


def test_the_data_file_ships_in_the_package() -> None:
    assert DATA.is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["dialkit"]
    shipped = f"_law/{jurisdictions.DATA_FILE}"
    assert any(fnmatch.fnmatch(shipped, pattern) for pattern in patterns)
    assert any(dep.startswith("holidays") for dep in project["project"]["dependencies"])


def test_the_docs_page_shows_the_table_as_generated() -> None:
    page = (ROOT / "docs" / "jurisdictions.md").read_text(encoding="utf-8")
    start, end = "<!-- table: generated -->\n", "<!-- table: end -->"
    shown = page[page.index(start) + len(start):page.index(end)]
    assert shown.strip() == jurisdictions.markdown().strip(), (
        "docs/jurisdictions.md is out of date: paste the output of "
        "`python -c 'from dialkit.compliance import _jurisdictions as j; print(j.markdown())'`"
        " between its table markers")


def test_importing_the_module_loads_neither_the_table_nor_the_calendar() -> None:
    code = ("import sys, dialkit; from dialkit.compliance import jurisdictions; "
            "import dialkit._law._jurisdictions as j; "
            "print('holidays' in sys.modules, j._table.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "0"]


# A broken copy of the real file: each case changes one thing in one row, and the
# error names the row and what is wrong with it.
@pytest.mark.parametrize(("jid", "old", "new", "message"), [
    ("US-AL", 'weekday = "08:00-20:00"', 'weekday = "25:00-20:00"',
     r"row 2 \('US-AL'\): weekday '25:00-20:00' is not a window"),
    ("US-CT", 'weekday = "09:00-20:00"', 'weekday = "20:00-09:00"',
     r"'US-CT'\): weekday '20:00-09:00' ends before it starts"),
    ("US-AL", 'sunday = "no calls"', 'sunday = "closed"',
     r"'US-AL'\): sunday 'closed' is not a window"),
    ("US-UT", '"Pioneer Day",', '"Pioneers Day",',
     r"'US-UT'\): unknown holiday name\(s\) \['Pioneers Day'\] for US-UT"),
    ("US-FL", 'citation = "Fla. Stat. 501.616(6)(a)-(b) (Florida Telemarketing Act, as amended '
     'by SB 1120, 2021); 501.059 (Telephone Solicitation)"\n', "",
     r"'US-FL'\): citation is missing"),
    ("US-KY", 'citation = "KRS 367.46955 (prohibited telephone solicitation acts and practices)"',
     'citation = " "', r"'US-KY'\): citation is missing \(empty\)"),
    ("US-FL", '    "https://natlawreview.com/article/part-2-definitive-guide-to-new-florida-robocall-'
     'bill-you-ve-been-waiting-section",\n', "", r"'US-FL'\): sources must be two or more"),
    ("US-FL", "reviewed = 2026-11-27", 'reviewed = "last week"',
     r"'US-FL'\): reviewed must be a date"),
    ("US-FL", "cap_hours = 24\n", "", r"'US-FL'\): max_calls and cap_hours must both"),
    ("US-OK", 'id = "US-OK"', 'id = "US-FL"', r"id 'US-FL' is repeated"),
    ("CA", 'id = "CA"', 'id = "Canada"', r"'Canada'\): id 'Canada' is not"),
    ("CA", "confirmed = true", 'confirmed = "yes"', r"'CA'\): confirmed must be a bool"),
    ("US", 'id = "US"', 'id = "US', "is not valid TOML"),
    ("US-MD", "max_calls = 3", "max_call = 3", r"'US-MD'\): unknown column\(s\) \['max_call'\]"),
    ("US-CT", 'sunday = "09:00-20:00"', 'sunday = "09:00-20:00"\nholiday = "no calls"',
     r"'US-CT'\): a holiday window needs the holidays"),
    ("US-PA", '{ name = "Flag Day", rule = "14 June"', '{ name = "Labor Day", rule = "first '
     'Monday of September"', r"'US-PA'\): named day\(s\) \['Labor Day'\] are holidays of the "
     r"holidays calendar in every year now"),
    ("US-PA", 'rule = "14 June"', 'rule = "June the 14th"',
     r"'US-PA'\): named day 'Flag Day': rule 'June the 14th' is not '14 June'"),
    ("US-PA", 'rule = "14 June"', 'rule = "31 June"',
     r"'US-PA'\): named day 'Flag Day': rule '31 June' is not"),
    ("US-PA", '{ name = "Flag Day", rule = "14 June"', '{ name = "Flag Day", rule = "14 June", '
     'years = "leap"', r"'US-PA'\): named day 'Flag Day': years 'leap' is not one of every"),
    ("US-PA", '{ name = "Flag Day", rule = "14 June", source = "https://',
     '{ name = "Flag Day", rule = "14 June", source = "ftp://',
     r"'US-PA'\): named day 'Flag Day': source must be an http\(s\) address"),
    ("US-PA", '{ name = "Flag Day", rule = "14 June", ', '{ name = "Flag Day", day = "14 June", ',
     r"'US-PA'\): named day .*unknown key\(s\) \['day'\]"),
    ("US-PA", 'holiday_categories = ["public", "unofficial"]', 'holiday_categories = ["public"]',
     r"'US-PA'\): unknown holiday name\(s\) \['Good Friday'\]"),
    ("US-RI", "holiday_weekdays_only = true", 'holiday_weekdays_only = "yes"',
     r"'US-RI'\): holiday_weekdays_only must be a bool"),
    ("US-PA", 'holiday_categories = ["public", "unofficial"]',
     'holiday_categories = ["public", "folklore"]',
     r"'US-PA'\): holiday_categories \['public', 'folklore'\]: Category is not supported"),
    ("US-RI", 'observed_rule = "saturday-to-monday, sunday-to-monday"\n', "",
     r"'US-RI'\): a row with holidays states its observed_rule"),
    ("US-RI", 'observed_rule = "saturday-to-monday, sunday-to-monday"',
     'observed_rule = "saturday-to-tuesday"', r"'US-RI'\): observed rule 'saturday-to-tuesday'"),
    ("US-RI", '"Rhode Island Independence Day" = "sunday-to-monday"',
     '"Rhode Island Day" = "sunday-to-monday"',
     r"'US-RI'\): observed_rules names \['Rhode Island Day'\], not one of"),
    ("US-UT", 'holiday_since = { "Good Friday" = 2026-05-06 }',
     'holiday_since = { "Good Friday" = "May 2026" }',
     r"'US-UT'\): holiday_since.Good Friday must be a date"),
    ("US-TX", """doubtful = "301.051(b)'s own words were not reached (law firms' advisories)." """
     .strip(), 'doubtful = " "',
     r"'US-TX'\): doubtful is missing \(empty\)"),
    ("US-AL", 'applies_to = "campaign"', 'applies_to = "robocalls"',
     r"'US-AL'\): applies_to 'robocalls' is not one of \['all', 'campaign'\]"),
    ("US-KY", 'cites = { hours = "KRS 367.46955(16)" }', 'cites = { scrub = "KRS 367.46955(16)" }',
     r"'US-KY'\): cites names \['scrub'\], not one of \['hours', 'days', 'cap', 'emergency'\]"),
])
def test_a_broken_copy_of_the_file_is_refused_naming_the_row(
        tmp_path: Path, jid: str, old: str, new: str, message: str) -> None:
    broken = _broken_copy(tmp_path, ROW, jid, old, new)
    with pytest.raises(JurisdictionDataError, match=message):
        jurisdictions.load(broken)


# The same for the [[checked]] entries: each change breaks one entry.
@pytest.mark.parametrize(("sid", "old", "new", "message"), [
    ("US-AK", 'finding = "federal"', 'finding = "probably fine"',
     r"checked 1 \('US-AK'\): finding 'probably fine' is not one of"),
    ("US-AZ", 'id = "US-AZ"', 'id = "US-AK"', r"checked 2 \('US-AK'\): US-AK is already checked"),
    ("US-AZ", 'id = "US-AZ"', 'id = "US-FL"', r"'US-FL'\): US-FL is already a row"),
    ("US-AZ", 'id = "US-AZ"', 'id = "GB"', r"'GB'\): id 'GB' is not a state's 'US-XX'"),
    ("US-AZ", 'id = "US-AZ"', 'id = "US-ZZ"', r"'US-ZZ'\): id 'US-ZZ' is not a state's"),
    ("US-AZ", 'finding = "federal"', 'verdict = "federal"',
     r"'US-AZ'\): unknown column\(s\) \['verdict'\]"),
    ("US-IN", '    "http://in.gov/attorneygeneral/2538.htm",\n    "https://www.dropcowboy.com/'
     'state-compliance",\n', "", r"'US-IN'\): sources must be one or more"),
    ("US-AZ", "reviewed = 2026-11-23", "reviewed = 2026", r"'US-AZ'\): reviewed must be a date"),
])
def test_a_broken_checked_entry_is_refused_naming_it(
        tmp_path: Path, sid: str, old: str, new: str, message: str) -> None:
    broken = _broken_copy(tmp_path, CHECKED, sid, old, new)
    with pytest.raises(JurisdictionDataError, match=message):
        _checked_states.load_checked(broken)


def _broken_copy(tmp_path: Path, marker: str, key: str, old: str, new: str) -> Path:
    """A copy of the real file with ``old`` replaced by ``new`` in the one table
    (after ``marker``) whose id is ``key``."""
    head, *tables = DATA.read_text(encoding="utf-8").split(marker)
    (index,) = [n for n, table in enumerate(tables) if table.startswith(f'id = "{key}"\n')]
    assert tables[index].count(old) == 1, old
    tables[index] = tables[index].replace(old, new)
    broken = tmp_path / "jurisdictions.toml"
    broken.write_text(marker.join([head, *tables]), encoding="utf-8")
    return broken


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(JurisdictionDataError, match=r"nowhere\.toml: there is no such file: "
                                                    r"check the path$"):
        jurisdictions.load(tmp_path / "nowhere.toml")


@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8], ids=["utf-8", "with a byte order mark"])
def test_the_real_file_passes_the_same_checks(tmp_path: Path, bom: bytes) -> None:
    """Saved again by an editor that writes a byte order mark too (issue 78)."""
    copy = tmp_path / "jurisdictions.toml"
    copy.write_bytes(bom + DATA.read_bytes())
    assert jurisdictions.load(copy) == jurisdictions.load()
    assert _checked_states.load_checked(copy) == _checked_states.checked()
