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


BIRMINGHAM, TOLL_FREE = "+12055550123", "+18005550123"


def cited(frame: pd.DataFrame, **options: object) -> list[tuple[str, str, str]]:
    """Each finding's (call, basis, citation)."""
    got = audit(frame, **options).findings  # type: ignore[arg-type]
    return list(zip(got["call_id"], got["basis"], got["citation"], strict=True))


def test_rhode_islands_saturday_holiday_moves_to_the_following_monday() -> None:
    """25-1-1: 'the fourth day of July or, in the event that day is a Saturday or Sunday,
    then state employees will celebrate the holiday on the following Monday'. 4 July 2026
    is a Saturday: Monday 6 July is a holiday (no calls, 5-61-2), Friday 3 July is not."""
    quoted("US-RI", "in the event that day is a Saturday or Sunday", "on the following Monday")
    friday, monday = "2026-07-03T16:00:00Z", "2026-07-06T16:00:00Z"  # 12:00 EDT
    [(rule, call, basis, evidence)] = judged(calls((PROVIDENCE, friday), (PROVIDENCE, monday)),
                                             rules=US)
    assert (rule, call, basis) == ("calling_hours", "call_1", "law")
    assert "(Rhode Island: no calls on Independence Day (observed), " in evidence


@pytest.mark.parametrize(("at", "banned"), [
    ("2025-05-05T16:00:00Z", True),   # 4 May 2025 was a Sunday: "the day following it"
    ("2024-05-06T16:00:00Z", False),  # 4 May 2024 a Saturday: 25-1-1 moves it nowhere
])
def test_rhode_island_independence_day_moves_from_a_sunday_only(at: str, banned: bool) -> None:
    quoted("US-RI", "the fourth day of May (as Rhode Island Independence Day)",
           "falls on the first day of the week, then the day following it")
    assert bool(judged(calls((PROVIDENCE, at)), rules=US)) is banned


def test_utahs_good_friday_counts_from_the_day_its_text_took_effect() -> None:
    """63G-1-301 as in force from 6 May 2026 adds '(iii) subject to Subsection (6), the
    Friday preceding Easter Sunday, Good Friday': not a legal holiday on 3 April 2026, one
    on 26 March 2027."""
    quoted("US-UT", "the Friday preceding Easter Sunday, Good Friday")
    before, after = "2026-04-03T18:00:00Z", "2027-03-26T18:00:00Z"  # 12:00 MDT
    [(rule, call, _, evidence)] = judged(calls((SALT_LAKE, before), (SALT_LAKE, after)),
                                         rules=US)
    assert (rule, call) == ("calling_hours", "call_1")
    assert "(Utah: no calls on Good Friday, " in evidence


def test_alabamas_rule_covers_the_calls_the_dialer_places_only() -> None:
    """770-X-5-.17(1): 'The following requirements apply to all automated solicitation
    telephone calls'; (b) 'No solicitation calls are allowed on Sundays'. A Sunday call at
    noon from a campaign breaks it; an agent's click-to-call (no campaign) does not, and
    the federal rule allows it."""
    quoted("US-AL", "apply to all automated solicitation telephone calls",
           "No solicitation calls are allowed on Sundays or holidays")
    sunday = calls((BIRMINGHAM, "2026-11-22T18:00:00Z"), (BIRMINGHAM, "2026-11-22T18:30:00Z"))
    sunday.loc[1, "campaign_id"] = None  # placed by an agent
    assert cited(sunday, rules=US) == [
        ("call_0", "law", jurisdictions.get("US-AL").cite("days"))]
    assert "campaign calls" in jurisdictions.get("US-AL").scope


def test_a_number_of_no_known_state_cites_the_row_that_forbids_the_call() -> None:
    """A toll-free number (Guam to Adak) on a Sunday: judged by the strictest US row, each
    finding cites the first of its rows that forbids the call in the zone it names, and
    the evidence names that row. Alabama's rule is one of them for a campaign call only."""
    sunday = calls((TOLL_FREE, "2026-11-22T18:00:00Z"), (TOLL_FREE, "2026-11-22T18:30:00Z"))
    sunday.loc[1, "campaign_id"] = ""  # blank: placed by an agent
    found = audit(sunday, rules=US).findings
    assert found["decided_by"].tolist() == ["strictest", "strictest"]
    by_name = {row.name: row for row in jurisdictions.all()}
    for evidence, citation in zip(found["evidence"], found["citation"], strict=True):
        name = evidence.split("; forbidden by ")[1].split(", ")[0]
        row = by_name[name]
        assert citation in (row.cite("hours"), row.cite("days")), (name, citation)
        assert all(part in " ".join(row.text.split()) for part in citation.split("; "))
    agents = audit(sunday.iloc[[1]], rules=US).findings
    assert "Alabama" not in agents["evidence"].iloc[0]
    assert "for calls an agent places" in agents["evidence"].iloc[0]


# One number in each US state with a row, and Winnipeg for the CRTC; Monday 23 November
# 2026 at 09:00 UTC is 01:00-04:00 in every US zone, before every row's window, and Sunday
# 22 November at 18:00 UTC is 10:00-13:00, inside them except where Sundays are banned.
STATE_NUMBERS = {
    "US": "+12125550123", "US-AL": BIRMINGHAM, "US-CT": "+12035550123",
    "US-FL": "+13055550123", "US-KY": "+15025550123", "US-LA": "+15045550123",
    "US-MA": "+16175550123", "US-MD": "+14105550123", "US-MS": "+16015550123",
    "US-NM": "+15055550123", "US-OK": "+14055550123", "US-PA": PHILADELPHIA,
    "US-RI": PROVIDENCE, "US-TX": "+12145550123", "US-UT": SALT_LAKE,
    "US-WA": "+12065550123", "CA": "+12042345678",
}


def test_every_finding_of_law_cites_a_section_quoted_in_the_deciding_rows_text() -> None:
    night = [(number, "2026-11-23T09:00:00Z") for number in STATE_NUMBERS.values()]
    sunday = [(number, "2026-11-22T18:00:00Z") for number in STATE_NUMBERS.values()]
    burst = [(STATE_NUMBERS["US-FL"], f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)]
    found = audit(calls(*night, *sunday, *burst, (TOLL_FREE, "2026-11-23T09:00:00Z")),
                  rules=US).findings
    law = found[found["basis"] == "law"]
    assert set(law["rule"]) == {"calling_hours", "unknown_jurisdiction", "call_frequency"}
    assert set(law["jurisdiction"]) >= set(STATE_NUMBERS) - {"US"}  # each row decided
    texts = {row.id: " ".join(row.text.split()) for row in jurisdictions.all()}
    for jid, by, citation in zip(law["jurisdiction"], law["decided_by"], law["citation"],
                                 strict=True):
        assert isinstance(citation, str) and citation.strip(), (jid, citation)
        quoting = [texts[jid]] if by != "strictest" else list(texts.values())
        assert any(all(part in text for part in citation.split("; "))
                   for text in quoting), (jid, citation)
    assert not law["citation"].str.contains("310.4(b)(3)(iv)", regex=False).any()
