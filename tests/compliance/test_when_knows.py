"""``next_allowed`` knows what the audit knows (issue 47, items 11 and 12): a number a cap
forbids is not allowed until the cap frees it, one on a DNC list is not allowed at all,
each judged by the audit's own code; a time without a zone is read in the zone named or
refused; the answer names every zone of the number.

The cap's cases are Fla. Stat. 501.616(6)(b)'s words: no "more than three commercial
telephone sales calls from any number to a person over a 24-hour period on the same
subject matter or issue".
"""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import audit, next_allowed

MIAMI, NEW_YORK = "+13055550123", "+12125550123"
TUESDAY_10_MIAMI = pd.Timestamp("2026-11-24T15:00Z")


def calls(number: str, *hours_before: float, campaign: str = "cmp_1") -> pd.DataFrame:
    return pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": number, "created_at": TUESDAY_10_MIAMI - pd.Timedelta(hours=h),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": campaign,
        "disposition": None} for n, h in enumerate(hours_before)])


def test_a_fourth_call_in_24_hours_to_florida_waits_until_the_first_leaves_the_period() -> None:
    past = calls(MIAMI, 5, 3, 1)  # three calls today: a fourth would be "more than three"
    [row] = next_allowed(MIAMI, TUESDAY_10_MIAMI, calls=past).to_dict("records")
    assert (row["allowed"], row["rule"], row["jurisdiction"], row["basis"]) == (
        False, "call_frequency", "US-FL", "law")
    assert "Fla. Stat. 501.616" in row["forbidden_by"]
    freed = TUESDAY_10_MIAMI - pd.Timedelta(hours=5) + pd.Timedelta(hours=24)  # 05:00 Miami
    assert f"the cap frees the number at {freed:%Y-%m-%d %H:%M} UTC" in row["forbidden_by"]
    assert row["next_allowed_at"] == pd.Timestamp("2026-11-25T13:00Z")  # 08:00, hours open
    # the audit agrees: a call then is no finding, a minute before the cap frees it is
    for at, capped in ((row["next_allowed_at"], False), (freed, False),
                       (freed - pd.Timedelta(minutes=1), True)):
        asked = pd.concat([past, calls(MIAMI, 0).assign(id="asked", created_at=at)])
        found = audit(asked).findings
        rules = set(found.loc[found["call_id"] == "asked", "rule"])
        assert ("call_frequency" in rules) == capped, at
        assert at != row["next_allowed_at"] or not rules


def test_three_calls_leave_a_third_allowed_and_other_subjects_are_the_audits_to_count() -> None:
    assert next_allowed(MIAMI, TUESDAY_10_MIAMI, calls=calls(MIAMI, 5, 3)).loc[0, "allowed"]
    assert next_allowed(NEW_YORK, TUESDAY_10_MIAMI, calls=calls(NEW_YORK, 5, 3, 1, 0.5)).loc[
        0, "allowed"]  # New York's law sets no cap


def test_a_listed_number_is_not_allowed_and_has_no_next_moment() -> None:
    dnc = pd.DataFrame({"phone": [NEW_YORK], "listed": [True],
                        "checked_at": [TUESDAY_10_MIAMI - pd.Timedelta(days=1)],
                        "listed_at": [TUESDAY_10_MIAMI - pd.Timedelta(days=90)]})
    answers = next_allowed([NEW_YORK, MIAMI], TUESDAY_10_MIAMI, dnc=dnc)
    listed, other = answers.to_dict("records")
    assert (listed["allowed"], listed["rule"], listed["basis"]) == (False, "dnc_call", "law")
    assert pd.isna(listed["next_allowed_at"]) and "listed" in listed["forbidden_by"]
    assert other["allowed"] and pd.isna(other["rule"])


def test_a_time_without_a_zone_is_read_in_the_zone_named_or_refused() -> None:
    in_new_york = next_allowed(NEW_YORK, "2026-11-24 20:30", tz="America/New_York")
    assert in_new_york.loc[0, "allowed"]  # 20:30 in New York: inside 08:00-21:00
    late = next_allowed(NEW_YORK, "2026-11-24 20:30", tz="America/Los_Angeles")
    assert not late.loc[0, "allowed"]  # 20:30 in Los Angeles is 23:30 in New York
    with pytest.raises(ValueError, match="has no time zone"):
        next_allowed(NEW_YORK, "2026-11-24 20:30")
    result = CliRunner().invoke(app, ["compliance", "when", NEW_YORK, "--at",
                                      "2026-11-24 20:30"])
    assert result.exit_code == 2 and "name the zone it is read in (--tz " in result.output
    result = CliRunner().invoke(app, ["compliance", "when", NEW_YORK, "--at",
                                      "2026-11-24 20:30", "--tz", "America/New_York"])
    assert result.exit_code == 0 and f"{NEW_YORK}: allowed" in result.output


def test_the_answer_names_every_zone_of_the_number() -> None:
    answers = next_allowed([NEW_YORK, "+18005550123", "+999123"], TUESDAY_10_MIAMI)
    assert answers.loc[0, "timezones"] == "America/New_York"
    assert len(answers.loc[1, "timezones"].split(", ")) > 4  # toll-free: every NANP zone
    assert pd.isna(answers.loc[2, "timezones"])


@pytest.mark.parametrize(("state", "fields", "expected"), [
    ("", '{"state": "UT"}', "US-UT"),     # a blank cell falls back to custom_fields
    (None, '{"state": "UT"}', "US-UT"),
    ("  ", None, None),                    # nothing anywhere: no address state
])
def test_a_blank_state_cell_falls_back_to_custom_fields(state: object, fields: object,
                                                        expected: object) -> None:
    leads = pd.DataFrame({"id": ["lead_1"], "phone": ["+18005550123"], "state": [state],
                          "custom_fields": [fields]})
    [row] = next_allowed(leads, "2026-11-22T19:00:00Z").to_dict("records")  # a Sunday
    assert (row["jurisdiction"] if expected else None) == expected
    assert row["rule"] == ("calling_hours" if expected else "unknown_jurisdiction")


def test_an_address_states_rule_is_judged_on_that_states_clock() -> None:
    """Tex. Bus. & Com. Code 301.051 (the row's window 09:00-21:00): a New York number whose
    lead lives in Texas, called Monday 08:30 in New York, rang at 07:30 in Texas."""
    monday_0830_new_york = pd.Timestamp("2026-11-23T13:30Z")
    leads = pd.DataFrame({"id": ["lead_tx", "lead_ny"], "phone": [NEW_YORK, NEW_YORK],
                          "state": ["TX", "NY"], "campaign_id": "cmp_1", "status": "new"})
    texas, home = next_allowed(leads, monday_0830_new_york).to_dict("records")
    assert texas["forbidden_by"].startswith("Mon 07:30 America/Chicago (Texas (the lead's "
                                            "address state): window 09:00-21:00")
    assert texas["timezones"] == "America/New_York, America/Chicago, America/Denver"
    # 09:00 on Texas's later clock, El Paso's Mountain time: 16:00 UTC
    assert texas["next_allowed_at"] == pd.Timestamp("2026-11-23T16:00Z")
    assert home["allowed"] and home["timezones"] == "America/New_York"
    # the audit judges the same call the same way: on Texas's clock, not New York's
    calls = pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                          "from_number": "+14155550100", "to_number": NEW_YORK,
                          "created_at": monday_0830_new_york, "answered_at": pd.NaT,
                          "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
    [row] = audit(calls, leads=leads.iloc[:1]).findings.to_dict("records")
    assert (row["timezone"], row["jurisdiction"], row["decided_by"]) == (
        "America/Chicago", "US-TX", "address")


@pytest.mark.parametrize(("subjects", "counted_on"), [
    (None, "campaign cmp_1"),  # no subject column: the campaign, as for the past calls
    (["solar", "solar", "solar"], "subject solar"),  # the past calls' one subject
    (["roofs", "roofs", "solar"], None),  # two on one subject at most: a third is lawful
    (["roofs", "roofs", "roofs", "solar"], "subject roofs")])  # the latest on solar
def test_a_call_to_come_is_counted_on_the_subject_its_past_calls_took(
        subjects: list[str] | None, counted_on: str | None) -> None:
    """Issue 61, item 4: with a ``subject`` column, the call asked about has none yet; it
    takes the subject of the number's past calls in its campaign, and where they took
    several, it is counted against each, the highest count standing."""
    past = calls(MIAMI, *(5, 4, 3, 1)[-len(subjects or "abc"):])
    if subjects is not None:
        past = past.assign(subject=subjects)
    [row] = next_allowed(MIAMI, TUESDAY_10_MIAMI, calls=past).to_dict("records")
    assert row["allowed"] is (counted_on is None)
    if counted_on is not None:
        assert row["rule"] == "call_frequency"
        assert f"4th call in the 24 hours up to this one to this person (no leads given: " \
            f"the number stands for the person) on this subject ({counted_on})" \
            in row["forbidden_by"]


def test_the_cap_frees_a_person_when_a_call_to_its_other_number_leaves_the_period() -> None:
    """A Florida lead called on its other number 20 hours ago and on its own twice since:
    a call now is the person's fourth in 24 hours, and the cap frees it when the call to
    the other number leaves the period, 4 hours from now, not when its own number's
    first does (21 hours from now)."""
    mobile = "+13055550199"
    past = pd.concat([calls(mobile, 20), calls(MIAMI, 3, 2).assign(id=["call_1", "call_2"])])
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [MIAMI],
                          "status": ["new"], "other_phones": [mobile]})
    [row] = next_allowed(leads, TUESDAY_10_MIAMI, calls=past).to_dict("records")
    freed = TUESDAY_10_MIAMI + pd.Timedelta(hours=4)
    assert (row["allowed"], row["rule"]) == (False, "call_frequency")
    assert f"the cap frees the number at {freed:%Y-%m-%d %H:%M} UTC" in row["forbidden_by"]
    assert row["next_allowed_at"] == freed
