"""Calls judged as the statutes' own words judge them (issue 37): one test per row of the
issue's table, each quoting the words it is built from. The words are also held to be in
the row's ``text``, so a row whose quoted law changes fails here until its test is re-read.
"""

from __future__ import annotations

import pandas as pd
import pytest
from test_law import calls

from dialkit.compliance import HOUSE_RULES, UK, US, audit, jurisdictions

SALT_LAKE, PHILADELPHIA, PROVIDENCE = "+18015550123", "+12155550123", "+14015550123"
ATLANTA, LONDON = "+14045550123", "+442079460000"


def judged(frame: pd.DataFrame, **options: object) -> list[tuple[str, str, str, str]]:
    """Each finding's (rule, call, basis, evidence)."""
    got = audit(frame, **options).findings  # type: ignore[arg-type]
    return list(zip(got["rule"], got["call_id"], got["basis"], got["evidence"], strict=True))


def quoted(jid: str, *words: str) -> None:
    """The row quotes the statute's words the test is built from."""
    text = " ".join(jurisdictions.get(jid).text.split())
    assert all(word in text for word in words), (jid, words)


@pytest.mark.parametrize(("number", "at", "jid", "words", "decided"), [
    # Utah Code 13-25a-103(3): no solicitation "(b) on a Sunday; or (c) on a legal holiday"
    (SALT_LAKE, "2026-11-22T19:00:00Z", "US-UT", ("(b) on a Sunday",), "no calls on Sunday"),
    # ... and Utah Code 63G-1-301 names "July 24, called Pioneer Day" (a Friday in 2026)
    (SALT_LAKE, "2026-07-24T18:00:00Z", "US-UT", ("Pioneer Day",), "no calls on Pioneer Day"),
    # Pennsylvania's holiday ban (Act 73 of 2019) lists Flag Day, 14 June (a Monday in 2027)
    (PHILADELPHIA, "2027-06-14T14:00:00Z", "US-PA", ("Flag Day",), "no calls on Flag Day"),
    # ... and Election Day: 3 November 2026, a year the holidays package lacks it
    (PHILADELPHIA, "2026-11-03T15:00:00Z", "US-PA", ("Election Day",),
     "no calls on Election Day"),
    # R.I. Gen. Laws 25-1-1 makes the general-election Tuesday a holiday; 5-61-2 bars calls
    # Monday to Friday on "a state or federal holiday"
    (PROVIDENCE, "2026-11-03T17:00:00Z", "US-RI", ("state or federal holiday",),
     "no calls on Election Day"),
])
def test_a_call_the_statute_forbids_is_a_finding_of_law(
        number: str, at: str, jid: str, words: tuple[str, ...], decided: str) -> None:
    quoted(jid, *words)
    [(rule, call, basis, evidence)] = judged(calls((number, at)), rules=US)
    assert (rule, call, basis) == ("calling_hours", "call_0", "law")
    row = jurisdictions.get(jid)
    assert f"({row.name}: {decided}, {row.cite('days')})" in evidence


def test_a_utah_call_at_noon_on_a_weekday_is_allowed() -> None:
    """The same number on the Monday after the Sunday above, and the Thursday before Pioneer
    Day: the Sunday and holiday bans are day bans, not a change of hours."""
    assert judged(calls((SALT_LAKE, "2026-11-23T19:00:00Z"),
                        (SALT_LAKE, "2026-07-23T18:00:00Z")), rules=US) == []


def test_utahs_consent_exemption_is_in_its_scope() -> None:
    """13-25a-103 covers telephone solicitations made without "prior express consent": the
    row says so, because the audit cannot know consent and applies the ban to every call."""
    quoted("US-UT", "prior express consent")
    assert "prior express consent" in jurisdictions.get("US-UT").scope
    assert jurisdictions.get("US-UT").confirmed


def test_a_rhode_island_holiday_on_a_saturday_keeps_saturdays_window() -> None:
    """5-61-2's holiday exception is in its Monday-Friday clause only: Independence Day
    2026 is a Saturday, so 12:00 is inside Saturday's 10:00-17:00 and 18:00 outside it."""
    quoted("US-RI", "Saturday")
    noon, six = "2026-07-04T16:00:00Z", "2026-07-04T22:00:00Z"  # EDT
    [(rule, call, basis, evidence)] = judged(calls((PROVIDENCE, noon), (PROVIDENCE, six)),
                                             rules=US)
    assert (rule, call, basis) == ("calling_hours", "call_1", "law")
    assert "(Rhode Island: window 10:00-17:00, " in evidence


def test_a_fourth_call_to_georgia_breaks_no_law_and_only_a_policy_cap() -> None:
    """Federal law sets no cap on calls per number (the US row's doubts), and Georgia has no
    row: only the account's own policy can make the fourth call a finding."""
    four = calls(*((ATLANTA, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    assert judged(four, rules=US) == []
    [(rule, call, basis, evidence)] = judged(four, rules=US, policy=HOUSE_RULES)
    assert (rule, call, basis) == ("call_frequency", "call_3", "policy")
    assert evidence.endswith(f"(policy: {HOUSE_RULES.name})")


def test_a_london_call_on_a_monday_at_2130_breaks_no_law() -> None:
    """PECR reg. 21 bars calls to TPS numbers and to those who objected; it sets no hours.
    08:00-21:00 is an industry code's, so a finding of policy only."""
    quoted("GB", "unsolicited calls for direct marketing purposes",
           "register kept under regulation 26")
    monday = calls((LONDON, "2026-11-23T21:30:00Z"))
    assert jurisdictions.get("GB").confirmed
    assert judged(monday, rules=UK) == []
    [(rule, _, basis, evidence)] = judged(monday, rules=UK, policy=HOUSE_RULES)
    assert (rule, basis) == ("calling_hours", "policy")
    assert evidence.startswith("called Mon 21:30 Europe/London (policy: ")
