"""Days a statute names by a rule (``dialkit._law._days``), dated against the
``holidays`` package's own calendars, which its maintainers keep, for forty years."""

from __future__ import annotations

from datetime import date

import holidays
import pytest

from dialkit._law._days import DayRule, DayRuleError, day_rule, observed_rule

YEARS = range(2000, 2041)
SOURCE = "https://example.org/statute"


def rule(text: str, years: str = "every") -> DayRule:
    return day_rule({"name": "a day", "rule": text, "years": years, "source": SOURCE}, "here")


@pytest.mark.parametrize(("text", "name"), [
    ("third Monday of January", "Martin Luther King Jr. Day"),
    ("third Monday of February", "Washington's Birthday"),
    ("last Monday of May", "Memorial Day"),
    ("first Monday of September", "Labor Day"),
    ("second Monday of October", "Columbus Day"),
    ("fourth Thursday of November", "Thanksgiving Day"),
    ("25 December", "Christmas Day"),
    ("4 July", "Independence Day"),
    ("11 November", "Veterans Day"),
])
def test_a_rule_gives_the_federal_calendars_date_every_year(text: str, name: str) -> None:
    federal = holidays.country_holidays("US", years=YEARS)
    dated = rule(text)
    for year in YEARS:
        day = dated.on(year)
        assert name in federal.get_list(day), (text, year, day)


def test_the_election_tuesday_is_the_calendars_in_every_year_it_has_one() -> None:
    """The package's 'unofficial' US calendar has Election Day in presidential years."""
    calendar = holidays.country_holidays("US", years=YEARS, categories=("unofficial",))
    elections = {day for day, name in calendar.items() if name == "Election Day"}
    dated = rule("Tuesday after the first Monday of November")
    assert elections and elections <= {dated.on(year) for year in YEARS}
    assert dated.on(2026) == date(2026, 11, 3) and dated.on(2027) == date(2027, 11, 2)
    assert dated.on(2022) == date(2022, 11, 8)  # 1 November 2022 was a Tuesday: not that one


def test_even_and_odd_years() -> None:
    even = rule("Tuesday after the first Monday of November", "even")
    assert even.on(2026) == date(2026, 11, 3) and even.on(2027) is None
    odd = rule("14 June", "odd")
    assert odd.between(date(2026, 1, 1), date(2028, 12, 31)) == {
        date(2027, 6, 14): "a day"}


@pytest.mark.parametrize(("raw", "message"), [
    ({"name": "x", "rule": "31 June", "source": SOURCE}, "rule '31 June' is not"),
    ({"name": "x", "rule": "fifth Monday of May", "source": SOURCE}, "is not '14 June'"),
    ({"name": "x", "rule": "14 Juin", "source": SOURCE}, "is not '14 June'"),
    ({"name": "x", "rule": "14 June"}, r"missing \['source'\]"),
    ({"name": "x", "rule": "14 June", "source": "a book"}, "source must be an http"),
    ({"name": "x", "rule": "14 June", "source": SOURCE, "years": 2026}, "years '2026' is not"),
    ("Flag Day", "a named day must be a table"),
])
def test_a_bad_rule_is_refused_naming_where(raw: object, message: str) -> None:
    with pytest.raises(DayRuleError, match=f"^here: .*{message}"):
        day_rule(raw, "here")  # type: ignore[arg-type]


# Weekend days dated by hand: 4 July 2026 is a Saturday, 4 July 2027 a Sunday.
@pytest.mark.parametrize(("text", "day", "moved"), [
    ("saturday-to-friday, sunday-to-monday", date(2026, 7, 4), date(2026, 7, 3)),
    ("saturday-to-friday, sunday-to-monday", date(2027, 7, 4), date(2027, 7, 5)),
    ("saturday-to-monday, sunday-to-monday", date(2026, 7, 4), date(2026, 7, 6)),
    ("sunday-to-monday", date(2026, 7, 4), None),
    ("sunday-to-monday", date(2027, 7, 4), date(2027, 7, 5)),
    ("none", date(2027, 7, 4), None),
    ("saturday-to-friday", date(2026, 7, 6), None),  # a Monday stays
])
def test_an_observed_rule_moves_a_weekend_holiday_as_its_words_say(
        text: str, day: date, moved: date | None) -> None:
    assert observed_rule(text, "here").on(day) == moved


def test_an_observed_rule_says_itself_in_words() -> None:
    assert observed_rule("Saturday-to-Monday, Sunday-to-Monday", "here").words() == (
        "a Saturday holiday on the Monday after; a Sunday holiday on the Monday after")
    assert observed_rule("none", "here").words() == "on its own day only"


@pytest.mark.parametrize("text", [
    "friday-to-monday", "saturday-to-sunday", "saturday-to-friday, saturday-to-monday",
    "sat-to-fri", "", "saturday to friday"])
def test_a_bad_observed_rule_is_refused_naming_where(text: str) -> None:
    with pytest.raises(DayRuleError, match=f"^here: observed rule {text!r} is not 'none'"):
        observed_rule(text, "here")
