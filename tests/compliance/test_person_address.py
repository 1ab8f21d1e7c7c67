"""A person's address state follows every number that is theirs (issue 71, item 6).

Fla. Stat. 501.616(6)(a): a telephone solicitor may not call "before 8 a.m. or after 8
p.m. local time at the called person's location"; the person is a lead across its numbers
(its ``phone`` and those its ``other_phones`` names, and every number linked to those
through other leads of the campaign: docs/compliance.md, ``call_frequency``). A call to a
Florida lead's New York number at 20:30 New York time is inside the federal window
(08:00-21:00) and outside Florida's: on main it found no lead, and was no finding, while
the same call to the lead's own number was one. The audit (pandas and Dask),
``upcoming`` and ``next_allowed`` now judge it by the person's state.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dialkit._guarding import GuardSettings
from dialkit.compliance import LawJudge, audit, next_allowed, upcoming
from dialkit.contract import Lead

MIAMI, NEW_YORK = "+13055550123", "+12125550187"
EVENING = "2026-06-03T00:30Z"  # Tuesday 2 June 2026, 20:30 EDT in Miami and New York
FLORIDA = ("US-FL", "Fla. Stat. 501.616(6)(a)")
CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000001"


def lead(lead_id: str, phone: str, state: str | None = None, others: list[str] | None = None,
         campaign: str = "cmp_1") -> dict[str, object]:
    """A lead as ``client.frames.leads()`` holds it: its other numbers and, where it has
    none in its ``state`` cell, its address in ``custom_fields``."""
    fields = {} if others is None else {"other_phones": others}
    return {"id": lead_id, "campaign_id": campaign, "phone": phone, "status": "contacted",
            "state": state, "custom_fields": json.dumps(fields)}


def leads_of(*rows: dict[str, object]) -> pd.DataFrame:
    return pd.DataFrame(list(rows)).assign(next_attempt_at=pd.Series(
        pd.NaT, index=range(len(rows)), dtype="datetime64[ns, UTC]"))


def calls_to(*phones: str, at: str = EVENING) -> pd.DataFrame:
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(phones))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": list(phones),
        "created_at": pd.to_datetime([at] * len(phones), utc=True), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})


def hours(report: object) -> list[tuple[str, str, str, str]]:
    """The calling-hours findings: the call, its row, what decided and the section."""
    found = report.findings  # type: ignore[attr-defined]
    found = found[found["rule"] == "calling_hours"]
    return list(zip(found["call_id"], found["jurisdiction"], found["decided_by"],
                    found["citation"], strict=True))


PERSONS = {
    "other-number": (leads_of(lead("lead_1", MIAMI, "FL", [NEW_YORK])), "address"),
    "own-number": (leads_of(lead("lead_1", MIAMI, "FL", [NEW_YORK])), "number"),
    "not-named": (leads_of(lead("lead_1", MIAMI, "FL")), None),
    "other-campaign": (leads_of(lead("lead_1", MIAMI, "FL", [NEW_YORK], "cmp_2")), None),
    # two leads of one person, as a deduplication writes them: the number's own lead
    # says no state, the person's other lead lives in Florida
    "linked-lead": (leads_of(lead("lead_1", MIAMI, "FL"),
                             lead("lead_2", NEW_YORK, None, [MIAMI])), "address"),
    # the number's own lead says where it lives: that comes first
    "own-lead-first": (leads_of(lead("lead_1", MIAMI, "FL", [NEW_YORK]),
                                lead("lead_2", NEW_YORK, "NY")), None),
}


@pytest.mark.parametrize("case", list(PERSONS))
def test_a_persons_address_state_follows_each_of_their_numbers(case: str) -> None:
    leads, decided = PERSONS[case]
    called = MIAMI if case == "own-number" else NEW_YORK
    found = hours(audit(calls_to(called), leads=leads, as_of="2026-06-04"))
    assert found == ([] if decided is None else [("call_0", *FLORIDA[:1], decided,
                                                   FLORIDA[1])])


def test_other_phones_as_a_column_are_read_alike() -> None:
    leads = leads_of(lead("lead_1", MIAMI, "FL")).assign(other_phones=[[NEW_YORK]])
    assert hours(audit(calls_to(NEW_YORK), leads=leads, as_of="2026-06-04")) == [
        ("call_0", FLORIDA[0], "address", FLORIDA[1])]


def texts_to(*phones: str, at: str = EVENING) -> pd.DataFrame:
    return pd.DataFrame({"message_id": [f"msg_{n}" for n in range(len(phones))],
                         "to": list(phones),
                         "created_at": pd.to_datetime([at] * len(phones), utc=True)})


def test_a_text_to_a_persons_other_number_is_of_their_campaign_and_state() -> None:
    """A text carries no campaign: it takes that of the leads holding its number, the
    person's other numbers too, and so the person's address state (a text is a call:
    47 CFR 64.1200(e))."""
    leads = leads_of(lead("lead_1", MIAMI, "FL", [NEW_YORK]))
    noon = calls_to(MIAMI, at="2026-06-02T16:00Z")
    report = audit(noon, leads=leads, texts=texts_to(NEW_YORK), as_of="2026-06-04")
    assert hours(report) == [("msg_0", FLORIDA[0], "address", FLORIDA[1])]
    assert report.findings["campaign_id"].tolist() == ["cmp_1"]


def test_the_person_is_judged_alike_on_dask() -> None:
    dd = pytest.importorskip("dask.dataframe")
    second, third = "+17185550111", "+13055550177"
    leads = leads_of(lead("lead_1", MIAMI, "FL", [NEW_YORK]),
                     lead("lead_2", third, "FL"), lead("lead_3", second, None, [third]),
                     lead("lead_4", "+16465550100", None, ["+16465550101"]))
    calls = calls_to(NEW_YORK, second, "+16465550101", MIAMI)
    texts = texts_to(NEW_YORK)
    expected = audit(calls, leads=leads, texts=texts, as_of="2026-06-04")
    found = audit(dd.from_pandas(calls, npartitions=3), leads=dd.from_pandas(leads, 2),
                  texts=texts, as_of="2026-06-04")

    def ordered(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.sort_values(["rule", "call_id"], ignore_index=True)

    pd.testing.assert_frame_equal(ordered(found.findings), ordered(expected.findings),
                                  check_dtype=False)
    assert sorted(hours(expected)) == [
        ("call_0", FLORIDA[0], "address", FLORIDA[1]),
        ("call_1", FLORIDA[0], "address", FLORIDA[1]),
        ("call_3", FLORIDA[0], "number", FLORIDA[1]),
        ("msg_0", FLORIDA[0], "address", FLORIDA[1])]


def test_upcoming_judges_a_callback_by_the_persons_state() -> None:
    """A callback to the lead whose own record says no state, of a person who lives in
    Florida, due at 20:30 New York time."""
    leads = leads_of(lead("lead_1", MIAMI, "FL"), lead("lead_2", NEW_YORK, None, [MIAMI]))
    callbacks = pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_2"], "campaign_id": "cmp_1",
                              "scheduled_at": pd.to_datetime([EVENING], utc=True),
                              "status": "pending"})
    frames = {"calls": calls_to().iloc[:0], "leads": leads, "callbacks": callbacks}
    found = upcoming(frames, as_of="2026-06-02T12:00Z", horizon="2d")
    assert list(zip(found["call_id"], found["rule"], found["jurisdiction"],
                    found["decided_by"], strict=True)) == [
        ("cb_1", "calling_hours", FLORIDA[0], "address")]


def test_next_allowed_judges_a_lead_by_its_persons_state() -> None:
    leads = leads_of(lead("lead_1", MIAMI, "FL"), lead("lead_2", NEW_YORK, None, [MIAMI]),
                     lead("lead_3", "+12125550188"))
    answer = next_allowed(leads, EVENING)
    assert answer["allowed"].tolist() == [False, False, True]
    assert answer["jurisdiction"].tolist()[:2] == [FLORIDA[0], FLORIDA[0]]
    # 08:00 on the last of Florida's clocks to open, the panhandle's Central time
    assert answer["next_allowed_at"].iloc[1] == pd.Timestamp("2026-06-03T13:00Z")


def test_the_guards_judge_of_a_resume_reads_each_lead_by_its_persons_state() -> None:
    """``campaigns.resume``: the leads the campaign would dial, as the service gives them
    (their address and other numbers in ``custom_fields``), judged as the audit would
    judge their calls."""
    def record(lead_id: str, phone: str, fields: dict[str, object]) -> Lead:
        return Lead.model_validate({
            "id": f"lead_{lead_id}", "campaign_id": CAMPAIGN, "external_id": None,
            "phone": phone, "full_name": None, "email": None, "status": "new",
            "attempts": 0, "custom_fields": fields, "last_attempt_at": None,
            "next_attempt_at": None, "disposition_code": None, "hangup_cause": None,
            "created_at": "2026-05-01T00:00:00Z", "updated_at": "2026-05-01T00:00:00Z"})

    ids = [f"{n:08x}-0000-4000-8000-000000000000" for n in range(3)]
    leads = [record(ids[0], MIAMI, {"state": "FL"}),
             record(ids[1], NEW_YORK, {"other_phones": [MIAMI]}),
             record(ids[2], "+12125550188", {})]
    judged = LawJudge().campaign(CAMPAIGN, leads, pd.Timestamp(EVENING).to_pydatetime(),
                                 GuardSettings())
    assert (judged.diallable, judged.forbidden, judged.by_rule) == (
        3, 2, {"calling_hours": 2})
