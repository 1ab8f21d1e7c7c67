"""The law of the place called, through ``audit`` on frames made by hand: each call to
a US number is judged by the federal rule and its state's, the stricter deciding and
named; a US number of no known state by the strictest row (``unknown_jurisdiction``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pandas as pd
import pytest

from dialkit.compliance import (
    CA,
    HOUSE_RULES,
    POLICY,
    PRESETS,
    UK,
    US,
    US_FEDERAL,
    US_WITH_HOUSE_RULES,
    audit,
    jurisdictions,
)

LOUISIANA, MIAMI, NEW_YORK = "+15045550123", "+13055550123", "+12125550123"
TOLL_FREE, LONDON, WINNIPEG = "+18005550123", "+442079460000", "+12042345678"


POLICY_OF_TWO = POLICY("two calls a day", max_calls_per_24h=2)


def calls(*rows: tuple[str, str]) -> pd.DataFrame:
    """Outbound unanswered calls, one per (number, UTC time)."""
    return pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": number, "created_at": pd.Timestamp(at, tz="UTC"), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None}
        for n, (number, at) in enumerate(rows)])


def found(frame: pd.DataFrame, rules: object = US) -> list[tuple[str, str, str]]:
    report = audit(frame, rules=rules)  # type: ignore[arg-type]
    got = report.findings
    return list(zip(got["rule"], got["call_id"], got["evidence"], strict=True))


def test_a_sunday_call_to_louisiana_is_named_by_louisianas_rule() -> None:
    sunday = calls((LOUISIANA, "2026-11-22T16:14:00Z"))  # Sun 10:14 CST
    [(rule, _, evidence)] = found(sunday)
    assert rule == "calling_hours"
    assert evidence.startswith("called Sun 10:14 America/Chicago (Louisiana: no calls on "
                               "Sunday, " + jurisdictions.get("US-LA").cite("days") + ")")
    assert found(sunday, US_FEDERAL) == []  # the federal rule alone allows it
    assert found(calls((NEW_YORK, "2026-11-22T15:14:00Z"))) == []  # New York: no Sunday ban


def test_a_call_at_2030_to_florida_breaks_floridas_8_pm_end() -> None:
    late = calls((MIAMI, "2026-11-24T01:30:00Z"), (NEW_YORK, "2026-11-24T01:30:00Z"))
    [(rule, call, evidence)] = found(late)
    assert (rule, call) == ("calling_hours", "call_0")
    assert evidence.startswith("called Mon 20:30 America/New_York (Florida: window "
                               "08:00 through 20:00:00, Fla. Stat.")  # 20:00:00 allowed
    early = calls((MIAMI, "2026-11-24T00:59:00Z"))  # 19:59
    assert found(early) == []


def test_a_holiday_call_to_louisiana_names_the_holiday() -> None:
    thanksgiving = calls((LOUISIANA, "2026-11-26T16:00:00Z"))  # Thu 10:00 CST
    [(rule, _, evidence)] = found(thanksgiving)
    assert rule == "calling_hours"
    assert "(Louisiana: no calls on Thanksgiving Day, " in evidence
    assert found(calls((LOUISIANA, "2026-11-25T16:00:00Z"))) == []  # the day before


def test_a_toll_free_number_is_an_unknown_jurisdiction_judged_by_the_strictest_row() -> None:
    sunday = calls((TOLL_FREE, "2026-11-22T19:00:00Z"))  # Sunday afternoon in every zone
    [(rule, _, evidence)] = found(sunday)
    assert rule == "unknown_jurisdiction"
    assert "no state is known for this number, so the strictest US row: no calls on Sunday" \
        in evidence
    # a toll-free number spans Guam to Adak: no moment is inside 10:00-18:00 in all of them
    [(_, _, tuesday)] = found(calls((TOLL_FREE, "2026-11-24T21:00:00Z")))
    assert "Pacific/Guam (no state is known" in tuesday and "window 10:00-18:00" in tuesday
    assert "unknown_jurisdiction" in audit(sunday, rules=US).ran
    assert "unknown_jurisdiction" not in audit(sunday, rules=US_FEDERAL).ran


def test_a_london_number_under_uk_and_a_winnipeg_one_under_ca() -> None:
    """UK law sets no calling hours (GB's row: any time), so a London call at 21:30 is a
    finding only of a policy that sets some; Winnipeg keeps the CRTC's hours."""
    late = calls((LONDON, "2026-11-24T21:30:00Z"), (WINNIPEG, "2026-11-22T23:00:00Z"))
    # Winnipeg Sunday 17:00: inside the CRTC's 10:00-18:00 weekend window
    assert found(late, UK) == found(late, CA) == []
    [(rule, call, evidence)] = found(late, UK.with_policy(HOUSE_RULES))
    assert (rule, call) == ("calling_hours", "call_0")
    assert evidence == ("called Tue 21:30 Europe/London (policy: " + HOUSE_RULES.name
                        + ", window 08:00-21:00)")
    sunday_evening = calls((WINNIPEG, "2026-11-23T01:00:00Z"))  # Sun 19:00 CST
    [(rule, _, evidence)] = found(sunday_evening, CA)
    assert rule == "calling_hours" and "(Canada (CRTC): window 10:00-18:00, " in evidence


def test_unconfirmed_rows_are_named_on_the_cover_and_not_applied(
        unconfirm: Callable[[str], None]) -> None:
    sunday = calls(("+18015550123", "2026-11-22T19:00:00Z"))  # Salt Lake City, Sun 12:00
    assert [rule for rule, _, _ in found(sunday)] == ["calling_hours"]
    unconfirm("US-UT")
    assert found(sunday) == []   # Utah's Sunday ban is not applied as law unconfirmed
    cover = US.describe()
    assert "Utah (US-UT)" in cover["unconfirmed (not applied)"]
    assert "(US-UT)" not in cover["jurisdictions applied"]
    assert "Canada (CRTC) (CA)" in UK.describe()["jurisdictions applied"]
    assert set(PRESETS) == {"us", "uk", "ca", "us-federal"}


def test_a_fourth_call_in_24_hours_to_florida_names_floridas_cap() -> None:
    four = calls(*((MIAMI, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)),
                 *((NEW_YORK, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    got = audit(four, rules=US).findings
    florida = got[got["phone"] == MIAMI]
    [evidence] = florida["evidence"]
    assert florida["call_id"].tolist() == ["call_3"]
    assert evidence == ("4th call in the 24 hours up to this one to this person (no leads "
                        "given: the number stands for the person) on this subject (campaign "
                        "cmp_1), from any caller id; at most 3 allowed (Florida: "
                        + jurisdictions.cap_text(jurisdictions.get("US-FL")) + ", "
                        + jurisdictions.get("US-FL").cite("cap") + ")")
    assert florida["citation"].tolist() == ["Fla. Stat. 501.616(6)(b)"]
    assert (got["phone"] == MIAMI).all()  # New York sets no cap, nor does federal law
    with_policy = audit(four, rules=US, policy=HOUSE_RULES).findings
    [policy] = with_policy.loc[with_policy["phone"] == NEW_YORK, "evidence"]
    assert policy.endswith("at most 3 allowed (policy: " + HOUSE_RULES.name + ")")
    assert dict(zip(with_policy["phone"], with_policy["basis"], strict=True)) == {
        MIAMI: "law", NEW_YORK: "policy"}


def test_a_states_stricter_cap_decides_over_a_looser_policy() -> None:
    four = calls(*((MIAMI, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)),
                 *((NEW_YORK, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    loose = replace(US, max_calls_per_24h=5)
    got = audit(four, rules=loose).findings
    assert got[["rule", "call_id", "basis"]].values.tolist() == [
        ["call_frequency", "call_3", "law"]]
    assert audit(four, rules=replace(US_FEDERAL, max_calls_per_24h=5)).findings.empty


def test_a_call_over_both_caps_is_the_laws_and_one_over_the_policys_alone_is_policy() -> None:
    five = calls(*((MIAMI, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17, 18)))
    strict = audit(five, rules=US, policy=POLICY_OF_TWO).findings
    assert strict[["call_id", "basis"]].values.tolist() == [
        ["call_2", "policy"], ["call_3", "law"], ["call_4", "law"]]
    assert strict["policy"].tolist()[0] == POLICY_OF_TWO.name
    assert strict["policy"].isna().tolist() == [False, True, True]


def leads_of(frame: pd.DataFrame, **columns: object) -> pd.DataFrame:
    """One lead per called number, of the calls' campaign."""
    phones = frame["to_number"].drop_duplicates().reset_index(drop=True)
    return pd.DataFrame({"id": [f"lead_{n}" for n in range(len(phones))],
                         "campaign_id": "cmp_1", "phone": phones, "status": "new", **columns})


def test_the_leads_address_state_applies_too_and_the_finding_says_so() -> None:
    sunday = calls((NEW_YORK, "2026-11-22T16:14:00Z"))  # Sun 11:14 in New York: federal
    assert found(sunday) == []
    for leads in (leads_of(sunday, state=["LA"]),
                  leads_of(sunday, custom_fields=['{"state": "Louisiana", "zip": "70112"}'])):
        [(rule, _, evidence)] = list(zip(*(audit(sunday, leads=leads).findings[c] for c in (
            "rule", "call_id", "evidence")), strict=True))
        assert rule == "calling_hours"
        assert "(Louisiana (the lead's address state): no calls on Sunday, " in evidence


def test_the_numbers_state_decides_where_it_forbids_the_call() -> None:
    late = calls((MIAMI, "2026-11-24T01:30:00Z"))  # 20:30 in Florida
    leads = leads_of(late, state=["NY"])  # New York has no row: federal
    [evidence] = audit(late, leads=leads).findings["evidence"]
    assert "(Florida: window 08:00 through 20:00:00, " in evidence


def test_a_toll_free_number_with_an_address_state_is_judged_by_that_state() -> None:
    tuesday = calls((TOLL_FREE, "2026-11-24T21:00:00Z"))
    leads = leads_of(tuesday, state=["Texas"])
    got = audit(tuesday, leads=leads).findings
    assert "unknown_jurisdiction" not in set(got["rule"])


@pytest.mark.parametrize("fields", ['{"tier": "gold"}', None, '{"state": ""}'])
def test_a_lead_without_a_known_address_state_changes_nothing(fields: str | None) -> None:
    sunday = calls((TOLL_FREE, "2026-11-22T19:00:00Z"), (LOUISIANA, "2026-11-22T16:14:00Z"))
    alone = audit(sunday).findings
    with_leads = audit(sunday, leads=leads_of(sunday, custom_fields=[fields] * 2)).findings
    assert with_leads["rule"].tolist() == alone["rule"].tolist() == [
        "calling_hours", "unknown_jurisdiction"]
    assert with_leads["evidence"].tolist() == alone["evidence"].tolist()



def deciders(report_findings: pd.DataFrame) -> list[tuple[str, str, object, object]]:
    got = report_findings
    return list(zip(got["rule"], got["phone"], got["jurisdiction"], got["decided_by"],
                    strict=True))


def test_each_finding_names_the_row_that_decided_and_whose_it_is() -> None:
    """``jurisdiction``: the id of the row that decided; ``decided_by``: the number's row,
    or the strictest of the country's where the number's state is unknown."""
    frame = calls((LOUISIANA, "2026-11-22T16:14:00Z"),   # Sun 10:14 in Louisiana
                  (NEW_YORK, "2026-11-24T02:30:00Z"),    # Mon 21:30 in New York
                  (TOLL_FREE, "2026-11-22T19:00:00Z"),   # Sunday in every zone
                  (WINNIPEG, "2026-11-23T01:00:00Z"),    # Sun 19:00 in Winnipeg
                  *((MIAMI, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    assert deciders(audit(frame, rules=US).findings) == [  # by rule, then time
        ("calling_hours", LOUISIANA, "US-LA", "number"),
        ("calling_hours", WINNIPEG, "CA", "number"),
        ("calling_hours", NEW_YORK, "US", "number"),
        ("unknown_jurisdiction", TOLL_FREE, "US", "strictest"),
        ("call_frequency", MIAMI, "US-FL", "number")]


def test_no_row_decided_leaves_the_columns_missing() -> None:
    """The policy's window (a London call: UK law sets no hours) and cap (New York has
    none) are no row of the table: their findings are the policy's."""
    frame = calls((LONDON, "2026-11-24T21:30:00Z"),
                  *((NEW_YORK, f"2026-11-25T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    for rules in (US_WITH_HOUSE_RULES, US_FEDERAL.with_policy(HOUSE_RULES)):
        every = audit(frame, rules=rules).findings
        unheld = every["rule"] == "no_law_held"  # London under the federal rule alone
        assert every.loc[unheld, "phone"].tolist() == ([] if rules is US_WITH_HOUSE_RULES
                                                       else [LONDON])
        got = every[~unheld]
        assert got["rule"].tolist() == ["calling_hours", "call_frequency"]
        assert got["jurisdiction"].isna().all() and got["decided_by"].isna().all()
        assert str(got["jurisdiction"].dtype) == "str"
        assert (got["basis"] == "policy").all() and (got["policy"] == HOUSE_RULES.name).all()
    assert audit(frame, rules=US).findings.empty
    assert audit(frame, rules=US_FEDERAL).findings["rule"].tolist() == ["no_law_held"]


def test_the_leads_address_state_is_named_as_the_decider() -> None:
    sunday = calls((NEW_YORK, "2026-11-22T16:14:00Z"),  # Sun 11:14: only Louisiana forbids
                   *((NEW_YORK, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    got = audit(sunday, leads=leads_of(sunday, state=["LA"]), rules=US).findings
    assert deciders(got)[0] == ("calling_hours", NEW_YORK, "US-LA", "address")
    florida = calls(*((NEW_YORK, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    got = audit(florida, leads=leads_of(florida, state=["Florida"]), rules=US).findings
    assert deciders(got) == [("call_frequency", NEW_YORK, "US-FL", "address")]
    assert "at most 3 allowed (Florida (the lead's address state): 3 per 24 h" in \
        got["evidence"].iloc[0]
    # a number in a state with a cap as strict as the address's: the number's decides
    both = calls(*((MIAMI, f"2026-11-24T{hour}:00:00Z") for hour in (14, 15, 16, 17)))
    got = audit(both, leads=leads_of(both, state=["MD"]), rules=US).findings
    assert deciders(got) == [("call_frequency", MIAMI, "US-FL", "number")]


def test_findings_no_row_decides_have_the_columns_empty() -> None:
    frame = calls((NEW_YORK, "2026-11-24T02:30:00Z"))
    dnc = pd.DataFrame({"phone": [NEW_YORK], "listed": [True],
                        "checked_at": [pd.Timestamp("2026-11-01", tz="UTC")]})
    got = audit(frame, dnc=dnc, leads=leads_of(frame), as_of="2026-11-25").findings
    assert set(got["rule"]) == {"calling_hours", "dnc_call", "dnc_lead"}
    law = got["rule"] == "calling_hours"
    assert got.loc[law, "jurisdiction"].tolist() == ["US"]
    # the DNC findings name the list's law (issue 47, item 13)
    assert got.loc[~law, ["jurisdiction", "decided_by"]].values.tolist() == [["US", "list"]] * 2
