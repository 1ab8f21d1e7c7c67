"""The minute at a window's end, settled from the words (issue 73, item 4).

Fla. Stat. 501.616(6)(a) forbids "a commercial telephone solicitation phone call before
8 a.m. or after 8 p.m. local time in the called person's time zone". A call at 20:00:00
sharp is not after 8 p.m.: it is allowed. A call at 20:00:00.000001 is after it: a
finding. The same words ("after") are Alabama's, New Mexico's, Pennsylvania's and
Washington's; where the words are "between 8:00 a.m. and 9:00 p.m." (the TSR) or "between
the hours of 8:00 P.M. to 8:00 A.M." (Massachusetts) they do not say whether the end is
inside, and the stricter reading keeps it outside. Miami on Tuesday 3 November 2026 is
on EST (UTC-5): 20:00:00 there is 01:00:00 UTC on the 4th. Each case is asked of the
audit, ``next_allowed``, ``upcoming`` and the client's guard (over real HTTP).
"""

from __future__ import annotations

from datetime import datetime

import pandas as pd
import pytest

from dialkit import Client
from dialkit._law import _jurisdictions
from dialkit.compliance import audit, next_allowed, upcoming
from dialkit.errors import ContactForbiddenError

MIAMI = "+13055550142"
SHARP = "2026-11-04T01:00:00Z"         # Tuesday 20:00:00 EST in Miami
AFTER = "2026-11-04T01:00:00.000001Z"  # a microsecond after 8 p.m.
SECOND = "2026-11-04T01:00:01Z"        # 20:00:01
BEFORE = "2026-11-04T00:59:59Z"        # 19:59:59
FLORIDA = "Fla. Stat. 501.616(6)(a)"


def called(*at: str, phone: str = MIAMI) -> pd.DataFrame:
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(at))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": phone,
        "created_at": pd.to_datetime(list(at), utc=True, format="ISO8601"),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None})


def test_the_rows_whose_words_say_after_take_their_end_in() -> None:
    taken = {row.id for row in _jurisdictions.all() if row.end_included}
    assert taken == {"US-AL", "US-FL", "US-NM", "US-PA", "US-WA"}
    assert "before 8 a.m. or after 8 p.m. local time" in _jurisdictions.get("US-FL").text
    assert "after 9 p.m. or before 8 a.m." in _jurisdictions.get("US-PA").text
    for jid in ("US", "US-MA", "US-LA", "US-MS", "US-OK", "US-TX", "US-MD"):
        assert not _jurisdictions.get(jid).end_included, jid


@pytest.mark.parametrize(("jid", "local", "allowed"), [
    ("US-FL", datetime(2026, 11, 3, 20, 0), True),
    ("US-FL", datetime(2026, 11, 3, 20, 0, 0, 1), False),
    ("US-WA", datetime(2026, 11, 3, 20, 0), True),
    ("US-NM", datetime(2026, 11, 3, 21, 0), True),
    ("US-MA", datetime(2026, 11, 3, 20, 0), False),
    ("US", datetime(2026, 11, 3, 21, 0), False),
    ("US-FL", datetime(2026, 11, 3, 8, 0), True),       # "before 8 a.m.": 08:00 is not
    ("US-FL", datetime(2026, 11, 3, 7, 59, 59), False),
])
def test_a_row_allows_its_end_only_where_its_words_say_after(
        jid: str, local: datetime, allowed: bool) -> None:
    assert _jurisdictions.get(jid).allows(local) is allowed


def test_the_audit_allows_20_00_00_sharp_and_finds_a_moment_later() -> None:
    found = audit(called(BEFORE, SHARP, AFTER, SECOND)).findings
    found = found[found["rule"] == "calling_hours"]  # (the 4th is Florida's cap's too)
    assert found["call_id"].tolist() == ["call_2", "call_3"]
    assert set(found["citation"]) == {FLORIDA}
    assert found["evidence"].tolist()[1] == (
        "called Tue 20:00:01 America/New_York (Florida: window 08:00 through 20:00:00, "
        f"{FLORIDA})")


def test_the_federal_end_stays_outside_where_pennsylvania_takes_its_in() -> None:
    """Pittsburgh, Thursday 5 November 21:00:00 EST (Tuesday the 3rd is Election Day, a
    Pennsylvania holiday): 2245(a)(1)'s 'after 9 p.m.' allows it, the TSR's 'between 8:00
    a.m. and 9:00 p.m.' is read the stricter way: the federal row's finding."""
    found = audit(called("2026-11-06T02:00:00Z", phone="+14125550142")).findings
    assert found[["jurisdiction", "citation"]].values.tolist() == [
        ["US", "16 CFR 310.4(c); 47 CFR 64.1200(c)(1)"]]


@pytest.mark.parametrize(("at", "allowed", "next_at"), [
    (SHARP, True, SHARP),
    (SECOND, False, "2026-11-04T13:00:00Z"),  # Wednesday 08:00 EST
])
def test_next_allowed_takes_the_end_in_as_the_audit_does(
        at: str, allowed: bool, next_at: str) -> None:
    answer = next_allowed(MIAMI, at).iloc[0]
    assert (answer["allowed"], answer["next_allowed_at"]) == (allowed, pd.Timestamp(next_at))


def test_upcoming_finds_the_callback_a_second_after_8_pm_only() -> None:
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": [MIAMI],
                          "status": "callback", "next_attempt_at": pd.NaT})
    callbacks = pd.DataFrame({"id": ["cb_sharp", "cb_second"], "lead_id": "lead_1",
                              "campaign_id": "cmp_1", "status": "pending",
                              "scheduled_at": pd.to_datetime([SHARP, SECOND], utc=True)})
    found = upcoming({"calls": called().iloc[:0], "leads": leads, "callbacks": callbacks},
                     as_of="2026-11-03T12:00Z", horizon="2d")
    assert found[["call_id", "citation"]].values.tolist() == [["cb_second", FLORIDA]]


def florida_lead(client: Client, phone: str) -> str:
    """A new lead of a draft campaign with a Miami number no list holds."""
    assert not client.dnc.check([phone])[0].listed
    draft = next(iter(client.campaigns.list(status="draft"))).id
    made = client.leads.create(campaign_id=draft, phone=phone).lead_id
    assert made is not None
    return made


def test_the_guard_sends_a_callback_at_20_00_00_and_refuses_one_a_second_later(
        client: Client) -> None:
    sharp = florida_lead(client, "+13055550161")
    client.callbacks.create(lead_id=sharp, scheduled_at=pd.Timestamp(SHARP).to_pydatetime())
    later = florida_lead(client, "+13055550162")
    with pytest.raises(ContactForbiddenError) as refused:
        client.callbacks.create(lead_id=later,
                                scheduled_at=pd.Timestamp(SECOND).to_pydatetime())
    assert (refused.value.rule, refused.value.jurisdiction) == ("calling_hours", "US-FL")
    assert "window 08:00 through 20:00:00" in refused.value.evidence
    assert pd.Timestamp(refused.value.next_allowed_at) == pd.Timestamp("2026-11-04T13:00Z")


def test_the_guard_judges_each_second_of_the_minute_at_a_window_end(client: Client) -> None:
    lead = florida_lead(client, "+13055550163")
    client.callbacks.create(lead_id=lead, scheduled_at=pd.Timestamp(SHARP).to_pydatetime())
    with pytest.raises(ContactForbiddenError):
        client.callbacks.create(lead_id=lead, scheduled_at=pd.Timestamp(SECOND).to_pydatetime())
