"""``next_allowed``: whether a number may be called at a moment, and the next moment it
may, by the law of the place called; held equal to the audit's own judgement of a call
at that moment, and to asking number by number."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from test_law import calls

from dialkit.compliance import HOUSE_RULES, UK, US, AuditInputError, audit, next_allowed

SALT_LAKE, NEW_YORK, MIAMI = "+18015550123", "+12125550123", "+13055550123"
LONDON, TOLL_FREE = "+442079460000", "+18005550123"


def test_a_sunday_in_utah_is_forbidden_until_monday_8_in_denver() -> None:
    [row] = next_allowed(SALT_LAKE, "2026-11-22T19:00:00Z").to_dict("records")
    assert (row["allowed"], row["rule"], row["jurisdiction"], row["basis"]) == (
        False, "calling_hours", "US-UT", "law")
    assert row["forbidden_by"].startswith("Sun 12:00 America/Denver (Utah: no calls on Sunday")
    assert row["next_allowed_at"] == pd.Timestamp("2026-11-23T15:00:00Z")
    assert (row["next_local_time"], row["timezone"]) == ("2026-11-23 08:00:00",
                                                         "America/Denver")


def test_an_allowed_number_is_allowed_at_the_moment_asked() -> None:
    at = pd.Timestamp("2026-11-22T19:00:00Z")
    [row] = next_allowed([NEW_YORK], at).to_dict("records")
    assert row["allowed"] and row["next_allowed_at"] == at and pd.isna(row["rule"])
    assert row["next_local_time"] == "2026-11-22 14:00:00"


@pytest.mark.parametrize(("number", "at", "expected"), [
    (MIAMI, "2026-11-24T01:30:00Z", "2026-11-24T13:00:00Z"),      # Mon 20:30 EST -> Tue 08:00
    (NEW_YORK, "2026-03-08T03:30:00Z", "2026-03-08T12:00:00Z"),   # Sat 22:30 EST -> Sun 08:00 EDT
    (NEW_YORK, "2026-11-01T04:30:00Z", "2026-11-01T13:00:00Z"),   # Sun 00:30 EDT -> 08:00 EST
    ("+14015550123", "2026-11-03T12:00:00Z", "2026-11-04T14:00:00Z"),  # RI Election Day
])
def test_the_next_allowed_moment_is_the_first_the_law_allows_across_dst(
        number: str, at: str, expected: str) -> None:
    [row] = next_allowed(number, at).to_dict("records")
    assert not row["allowed"]
    assert row["next_allowed_at"] == pd.Timestamp(expected)


def test_the_answer_is_the_audits_judgement_at_that_moment_and_not_a_minute_before() -> None:
    numbers = [SALT_LAKE, NEW_YORK, MIAMI, "+15045550123", "+14015550123", "+15025550123",
               "+12155550123", "+19075550123", "+18085550123", "+12045550123"]
    at = pd.Timestamp("2026-11-22T11:00:00Z")  # Sunday, 01:00 in Honolulu, 06:00 in New York
    answers = next_allowed(numbers, at)
    assert not answers["allowed"].any()
    when = answers["next_allowed_at"]
    assert when.notna().all()
    at_it = calls(*zip(numbers, when.dt.strftime("%Y-%m-%dT%H:%M:%SZ"), strict=True))
    before = calls(*zip(numbers, (when - pd.Timedelta(minutes=1)).dt.strftime(
        "%Y-%m-%dT%H:%M:%SZ"), strict=True))
    assert audit(at_it, rules=US).findings.empty
    late = audit(before, rules=US).findings
    assert sorted(late["call_id"]) == sorted(at_it["id"])


def test_many_numbers_answer_as_each_asked_alone() -> None:
    numbers = [SALT_LAKE, NEW_YORK, SALT_LAKE, "+1415555012", "+999123", TOLL_FREE, LONDON,
               "+12042345678", MIAMI, "+13055550199"]
    at = "2026-07-24T03:00:00Z"
    together = next_allowed(numbers, at)
    alone = pd.concat([next_allowed([n], at) for n in numbers], ignore_index=True)
    pd.testing.assert_frame_equal(together, alone)
    assert together.loc[3, "rule"] == together.loc[4, "rule"] == "unknown_timezone"
    assert together.loc[5, "rule"] == "unknown_jurisdiction"


def test_a_policy_window_forbids_what_the_law_allows_and_says_so() -> None:
    late = "2026-11-23T21:30:00Z"  # Monday 21:30 in London
    assert next_allowed(LONDON, late, rules=UK)["allowed"].item()
    [row] = next_allowed(LONDON, late, rules=UK, policy=HOUSE_RULES).to_dict("records")
    assert (row["allowed"], row["basis"], row["policy"]) == (False, "policy", HOUSE_RULES.name)
    assert row["next_allowed_at"] == pd.Timestamp("2026-11-24T08:00:00Z")


def test_leads_bring_their_address_state() -> None:
    leads = pd.DataFrame({"id": ["lead_1", "lead_2"], "phone": [TOLL_FREE, TOLL_FREE],
                          "state": ["UT", None]})
    answers = next_allowed(leads, "2026-11-22T19:00:00Z")
    assert answers.columns[0] == "lead_id" and list(answers["lead_id"]) == ["lead_1", "lead_2"]
    assert "(Utah (the lead's address state): no calls on Sunday" in answers.loc[
        0, "forbidden_by"]
    assert answers.loc[1, "rule"] == "unknown_jurisdiction"


@pytest.mark.parametrize(("given", "error", "message"), [
    (42, TypeError, "takes a number, numbers or leads, not int"),
    ([14155550123], AuditInputError, "numbers as text"),
    (pd.DataFrame({"contact": ["+14155550123"]}), AuditInputError, "a 'phone' column"),
])
def test_what_is_not_numbers_is_refused_saying_what_to_pass(
        given: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        next_allowed(given)  # type: ignore[arg-type]


@pytest.mark.parametrize(("given", "message"), [
    ("415-555-0123", "phones_or_leads '415-555-0123' is not E.164 (pass +14155550123 if it "
                     "is a US number)"),
    (None, "phones_or_leads is empty: pass a number in E.164, e.g. +14155550123"),
    ("", "phones_or_leads '' is not E.164 (E.164 is + then the country code"),
    ([NEW_YORK, "(212) 555-0199"], "phones_or_leads[1] '(212) 555-0199' is not E.164 (pass "
                                   "+12125550199 if it is a US number)"),
    (pd.Series([NEW_YORK, None], index=["a", "b"]), "phones_or_leads['b'] is empty"),
    (pd.DataFrame({"phone": [NEW_YORK, "02079460000"]}), "leads.phone[1] '02079460000' is "
                                                          "not E.164"),
])
def test_what_is_not_an_e164_number_is_an_input_error_not_an_answer(
        given: object, message: str) -> None:
    """Issue 48: ``415-555-0123`` was answered "not allowed ... no allowed moment is
    known"; it is the caller's mistake, refused as ``client.dnc.check`` refuses it."""
    with pytest.raises(AuditInputError, match=re.escape(message)) as refused:
        next_allowed(given, "2026-11-22T19:00Z")  # type: ignore[arg-type]
    assert isinstance(refused.value, ValueError)


def test_a_number_in_e164_that_no_zone_is_known_for_is_still_an_answer() -> None:
    answer = next_allowed("+1415555012", "2026-11-22T19:00Z").iloc[0]
    assert not answer["allowed"] and answer["rule"] == "unknown_timezone"
