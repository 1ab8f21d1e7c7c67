"""Calls during a declared state of emergency (issue 73, item 3): the rows whose law bans
them, the account's declared emergencies (``emergencies=``), and the audit (pandas and
Dask), ``next_allowed``, ``upcoming`` and the client's guard judging them alike.

Every case is derived by hand from the rows' quoted words and the emergencies given:
La. R.S. 45:844.31(A), "During a state of emergency as declared by the governor, no
telephonic solicitor shall engage in telephonic solicitation"; N.Y. Gen. Bus. Law
399-z(5-a), no "unsolicited telemarketing sales call to any person in a county, city, town
or village under a declared state of emergency". A declared emergency runs from its start
to the moment calls may resume (its end, outside it), each read to the minute it falls in
(the start from the minute's first second, the end to its last). Louisiana is on Central
time (UTC-5 in September, UTC-6 in November), its hours 08:00-20:00 Monday to Saturday.
"""

from __future__ import annotations

from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS
from dialkit import Client
from dialkit._law import _jurisdictions
from dialkit.cli import app
from dialkit.client import GuardSettings
from dialkit.compliance import (
    US,
    US_FEDERAL,
    AuditInputError,
    audit,
    next_allowed,
    run_audit,
    upcoming,
)
from dialkit.errors import ContactForbiddenError, InputError
from dialkit.sandbox import Sandbox

LOUISIANA = "+15045550142"   # New Orleans, Central time
NEW_YORK = "+12125550142"
TEXAS = "+12145550142"       # Dallas, Central time: its law bans no calls in an emergency
TOLL_FREE = "+18005550142"   # no state: judged by the strictest US row
LA_BAN = "La. R.S. 45:844.31(A); La. PSC General Order R-29617"
NY_BAN = "N.Y. Gen. Bus. Law 399-z(5-a); 399-pp(7)(f)"
STARTS, ENDS = "2026-09-01T06:00-05:00", "2026-09-10T18:00-05:00"
"""Hurricane season: from Tuesday 1 September 06:00 CDT (11:00 UTC) to Thursday 10
September 18:00 CDT (23:00 UTC), when calls may resume."""
INSIDE = "2026-09-02T16:00Z"  # Wednesday 11:00 CDT: inside Louisiana's hours


def declared(area: str = "Louisiana", starts: str = STARTS, ends: str | None = ENDS,
             **more: object) -> pd.DataFrame:
    """An ``emergencies`` frame of one declared emergency."""
    return pd.DataFrame({"area": [area], "starts_at": [starts], "ends_at": [ends], **{
        name: [value] for name, value in more.items()}})


def called(*calls: tuple[str, str]) -> pd.DataFrame:
    """Outbound calls, one per (number, UTC time)."""
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(calls))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": [phone for phone, _ in calls],
        "created_at": pd.to_datetime([at for _, at in calls], utc=True),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None})


def hours(found: pd.DataFrame) -> list[tuple[str, str, str]]:
    """The calls' findings of the hours' rules: (call, jurisdiction, citation)."""
    found = found[found["rule"].isin(["calling_hours", "unknown_jurisdiction"])]
    return list(zip(found["call_id"], found["jurisdiction"], found["citation"], strict=True))


# --- the rows -------------------------------------------------------------------------

def test_the_bans_are_rows_of_law_that_quote_their_words() -> None:
    banning = {row.id: row for row in _jurisdictions.all() if row.emergency_ban}
    assert set(banning) == {"US-LA", "US-NY"}
    assert "During a state of emergency as declared by the governor, no telephonic " \
           "solicitor shall engage in telephonic solicitation" in banning["US-LA"].text
    assert "under a declared state of emergency or disaster emergency" in banning["US-NY"].text
    for row in banning.values():
        assert row.confirmed and row.reviewed.isoformat() == "2026-11-27"
        assert all(part in row.text for part in row.cite("emergency").split("; ")), row.id
    assert (banning["US-LA"].cite("emergency"), banning["US-NY"].cite("emergency")) == (
        LA_BAN, NY_BAN)


@pytest.mark.parametrize("state", ["US-FL", "US-AL", "US-MS", "US-PA", "US-TX", "US"])
def test_the_states_read_and_found_without_a_ban_say_what_was_read(state: str) -> None:
    row = _jurisdictions.get(state)
    assert not row.emergency_ban
    assert "emergency" in row.doubts and row.reviewed.isoformat() == "2026-11-27"


def test_new_york_is_a_row_for_its_ban_its_hours_judged_by_the_federal_row() -> None:
    """399-z(2)'s hours are the TSR's words; the federal row judges them, so a call at
    21:30 is named by one row, the federal one, as before New York had a row."""
    row = _jurisdictions.get("US-NY")
    assert row.federal_hours and row.weekday == _jurisdictions.WHOLE_DAY
    [(_, jid, _)] = hours(audit(called((NEW_YORK, "2026-11-03T02:30Z"))).findings)
    assert jid == "US"


# --- the audit -------------------------------------------------------------------------

@pytest.mark.parametrize(("at", "banned"), [
    ("2026-09-01T10:59:59Z", False),  # 05:59:59 CDT, before the emergency (and the hours)
    ("2026-09-01T13:00:00Z", True),   # 08:00 CDT on its first day, inside the hours
    ("2026-08-31T16:00:00Z", False),  # Monday 11:00 CDT, the day before it
    ("2026-09-02T16:00:00Z", True),   # Wednesday 11:00 CDT
    ("2026-09-10T22:59:59Z", True),   # 17:59:59 CDT, its last second
    ("2026-09-10T23:00:00Z", False),  # 18:00 CDT: calls may resume
])
def test_a_call_to_louisiana_is_a_finding_while_its_emergency_is_declared(
        at: str, banned: bool) -> None:
    found = hours(audit(called((LOUISIANA, at)), emergencies=declared()).findings)
    cited = [citation for _, _, citation in found]
    assert (LA_BAN in cited) is banned, found


def test_the_finding_names_the_emergency_and_the_law_it_breaks() -> None:
    report = audit(called((LOUISIANA, INSIDE)), emergencies=declared(
        declaration="Proclamation 115 JML 2026"))
    [finding] = report.findings.to_dict("records")
    assert (finding["rule"], finding["jurisdiction"], finding["basis"], finding["citation"]) \
        == ("calling_hours", "US-LA", "law", LA_BAN)
    assert finding["evidence"] == (
        "called Wed 11:00 America/Chicago (Louisiana: no calls during the state of emergency "
        "declared in US-LA from 2026-09-01 11:00 UTC to 2026-09-10 23:00 UTC (Proclamation "
        f"115 JML 2026), {LA_BAN})")
    assert report.rules.describe()["declared emergencies"].startswith("US-LA from 2026-09-01")


def test_new_yorks_ban_judges_a_call_in_its_hours() -> None:
    found = hours(audit(called((NEW_YORK, "2026-09-02T15:00Z")),  # 11:00 EDT
                        emergencies=declared("NY", "2026-09-01T00:00-04:00", None)).findings)
    assert found == [("call_0", "US-NY", NY_BAN)]


def test_an_emergency_elsewhere_or_in_a_state_without_a_ban_forbids_nothing() -> None:
    given = pd.concat([declared("TX"), declared("New York")], ignore_index=True)
    report = audit(called((LOUISIANA, INSIDE), (TEXAS, INSIDE)), emergencies=given)
    assert hours(report.findings) == []
    assert report.notes["emergencies"].startswith("US-TX: no row of the law applied forbids")
    federal = audit(called((LOUISIANA, INSIDE)), rules=US_FEDERAL, emergencies=declared())
    assert hours(federal.findings) == []  # the federal rule alone: no state's ban
    assert federal.notes["emergencies"].startswith("US-LA: no row of the law applied")


def test_the_address_state_is_judged_by_its_ban_too() -> None:
    """A Texas number of a lead who lives in Louisiana: Louisiana's row judges it."""
    calls = called((TEXAS, INSIDE))
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": [TEXAS],
                          "status": "contacted", "state": "LA"})
    report = audit(calls, leads=leads, emergencies=declared())
    found = report.findings[report.findings["rule"] == "calling_hours"]
    assert found[["jurisdiction", "decided_by", "citation"]].values.tolist() == [
        ["US-LA", "address", LA_BAN]]


def test_a_number_of_no_state_is_judged_by_every_states_ban() -> None:
    found = hours(audit(called((TOLL_FREE, INSIDE)), emergencies=declared()).findings)
    [(call, jid, citation)] = found
    assert (call, jid) == ("call_0", "US") and citation.endswith(LA_BAN)


def test_a_declaration_is_read_to_its_minute_and_one_without_an_end_holds() -> None:
    """Started 11:00:30 UTC: the whole minute 11:00 is inside (the stricter reading)."""
    given = declared(starts="2026-09-01T11:00:30Z", ends=None)
    at = ["2026-09-01T10:59:59Z", "2026-09-01T11:00:10Z", "2027-09-01T15:00:00Z"]
    found = hours(audit(called(*((LOUISIANA, each) for each in at)), emergencies=given)
                  .findings)
    assert [call for call, _, citation in found if citation == LA_BAN] == ["call_1", "call_2"]


def test_without_emergencies_the_notes_name_the_banning_states_the_calls_reached() -> None:
    report = audit(called((LOUISIANA, INSIDE), (NEW_YORK, INSIDE)))
    assert hours(report.findings) == []
    assert report.notes["emergencies"] == (
        "not judged: calls reached Louisiana (US-LA) and New York (US-NY), whose law forbids "
        "telephone solicitation during a declared state of emergency, and no declared "
        "emergencies were given: pass emergencies= (the declared states of emergency)")
    assert "emergencies" not in audit(called((TEXAS, INSIDE))).notes
    given_none = audit(called((LOUISIANA, INSIDE)), emergencies=declared().iloc[:0])
    assert "emergencies" not in given_none.notes  # given: none declared


def test_the_dask_audit_reads_them_by_the_same_declaration() -> None:
    calls = called((LOUISIANA, INSIDE), (LOUISIANA, "2026-09-11T16:00Z"), (TEXAS, INSIDE))
    on_pandas = audit(calls, emergencies=declared())
    on_dask = audit(dd.from_pandas(calls, npartitions=2), emergencies=declared())
    assert hours(on_dask.findings) == hours(on_pandas.findings) == [
        ("call_0", "US-LA", LA_BAN)]
    unjudged = audit(dd.from_pandas(calls, npartitions=2)).notes["emergencies"]
    assert unjudged == audit(calls).notes["emergencies"]


@pytest.mark.parametrize(("given", "message"), [
    (declared("Dade County"), r"^emergencies row 0\.area 'Dade County' names no state"),
    (declared(ends="2026-09-01T05:00-05:00"), r"^emergencies\.starts_at holds .* at row 0, "
                                              r"after the row's ends_at"),  # as a consent's
    (declared().drop(columns="starts_at"), r"^emergencies has no column starts_at"),
    (declared(starts="tomorrow"), r"^emergencies\.starts_at holds 'tomorrow'"),
])
def test_an_emergency_the_audit_cannot_read_is_refused_naming_it(
        given: pd.DataFrame, message: str) -> None:
    with pytest.raises(AuditInputError, match=message) as refused:
        audit(called((LOUISIANA, INSIDE)), emergencies=given)
    assert refused.value.frame == "emergencies"


def test_the_rules_take_them_as_values_with_their_zones() -> None:
    with pytest.raises(InputError, match="has no time zone"):
        US.with_emergencies([("LA", "2026-09-01 06:00", None)])
    with pytest.raises(InputError, match="frame of them is read as audit"):
        US.with_emergencies(declared())  # type: ignore[arg-type]
    rules = US.with_emergencies([("Louisiana", STARTS, ENDS)])
    assert hours(audit(called((LOUISIANA, INSIDE)), rules=rules).findings) == hours(
        audit(called((LOUISIANA, INSIDE)), emergencies=declared()).findings)


def test_the_command_reads_them_from_a_file(tmp_path: Path) -> None:
    """``--emergencies FILE`` and ``run_audit(emergencies=...)``: the same finding as the
    library's, from a CSV as a spreadsheet writes it."""
    calls, given = tmp_path / "calls.csv", tmp_path / "emergencies.csv"
    called((LOUISIANA, INSIDE), (TEXAS, INSIDE)).to_csv(calls, index=False)
    declared(declaration="Proclamation 115 JML 2026").to_csv(given, index=False)
    run = run_audit(calls=calls, emergencies=given)
    assert hours(run.report.findings) == [("call_0", "US-LA", LA_BAN)]
    shown = CliRunner().invoke(app, ["compliance", "audit", "--calls", str(calls),
                                     "--emergencies", str(given), "--fail-on", "law"])
    assert shown.exit_code == 1, shown.output
    broken = tmp_path / "broken.csv"
    declared("Dade County").to_csv(broken, index=False)
    refused = CliRunner().invoke(app, ["compliance", "audit", "--calls", str(calls),
                                       "--emergencies", str(broken)])
    assert refused.exit_code == 2 and "names no state" in refused.output


# --- before the call ---------------------------------------------------------------------

@pytest.mark.parametrize(("at", "allowed", "next_at"), [
    ("2026-08-31T16:00Z", True, "2026-08-31T16:00Z"),  # before it: now
    (INSIDE, False, "2026-09-10T23:00Z"),               # its end, 18:00 CDT, in the hours
    ("2026-09-10T22:59Z", False, "2026-09-10T23:00Z"),
    ("2026-09-10T23:00Z", True, "2026-09-10T23:00Z"),
])
def test_next_allowed_offers_no_moment_inside_a_declared_emergency(
        at: str, allowed: bool, next_at: str) -> None:
    answer = next_allowed(LOUISIANA, at, emergencies=declared()).iloc[0]
    assert (answer["allowed"], answer["next_allowed_at"]) == (allowed, pd.Timestamp(next_at))
    if not allowed:
        assert answer["rule"] == "calling_hours" and LA_BAN in answer["forbidden_by"]


def test_next_allowed_after_an_emergency_that_ends_at_night_is_the_next_window() -> None:
    """Ended 21:30 CDT on Thursday 10 September: Louisiana's window opens Friday 08:00."""
    late = declared(ends="2026-09-10T21:30-05:00")
    answer = next_allowed(LOUISIANA, INSIDE, emergencies=late).iloc[0]
    assert answer["next_allowed_at"] == pd.Timestamp("2026-09-11T13:00Z")
    endless = next_allowed(LOUISIANA, INSIDE, emergencies=declared(ends=None)).iloc[0]
    assert not endless["allowed"] and pd.isna(endless["next_allowed_at"])


def test_upcoming_finds_a_callback_due_inside_a_declared_emergency() -> None:
    leads = pd.DataFrame({"id": ["lead_1", "lead_2"], "campaign_id": "cmp_1",
                          "phone": [LOUISIANA, TEXAS], "status": "callback",
                          "next_attempt_at": pd.NaT})
    callbacks = pd.DataFrame({
        "id": ["cb_1", "cb_2", "cb_3"], "lead_id": ["lead_1", "lead_1", "lead_2"],
        "campaign_id": "cmp_1", "status": "pending",
        "scheduled_at": pd.to_datetime([INSIDE, "2026-09-11T16:00Z", INSIDE], utc=True)})
    frames = {"calls": called().iloc[:0], "leads": leads, "callbacks": callbacks}
    found = upcoming(frames, as_of="2026-09-01T12:00Z", horizon="14d",
                     emergencies=declared())
    assert found[["call_id", "rule", "jurisdiction", "citation"]].values.tolist() == [
        ["cb_1", "calling_hours", "US-LA", LA_BAN]]
    assert found["evidence"].iloc[0].startswith("due Wed 11:00 America/Chicago (Louisiana: "
                                                "no calls during the state of emergency")


def test_the_guard_refuses_a_contact_inside_a_declared_emergency(sandbox: Sandbox) -> None:
    """Over real HTTP: a text to Louisiana while an emergency is declared there is refused,
    with the moment it ends; one to Texas is sent; so is one once it has ended."""
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None) as probe:
        probe.me()
        now = pd.Timestamp(probe.guard.now()).floor("min")
    during = US.with_emergencies([("LA", now - pd.Timedelta(hours=1),
                                   now + pd.Timedelta(hours=2), "a test's declaration")])
    ended = US.with_emergencies([("LA", now - pd.Timedelta(hours=2),
                                  now - pd.Timedelta(minutes=1))])
    guarded = Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                     guard=GuardSettings("law", rules=during))
    with guarded as client:
        assert next_allowed(LOUISIANA, now, rules=US)["allowed"].item()  # the hours allow it
        with pytest.raises(ContactForbiddenError) as refused:
            client.sms.send(to=LOUISIANA, body="Storm sale!", client_reference="sos-la")
        assert (refused.value.rule, refused.value.jurisdiction) == ("calling_hours", "US-LA")
        assert "no calls during the state of emergency declared in US-LA" in \
            refused.value.evidence and LA_BAN in refused.value.evidence
        assert pd.Timestamp(refused.value.next_allowed_at) == now + pd.Timedelta(hours=2)
        client.sms.send(to=TEXAS, body="Storm sale!", client_reference="sos-tx")
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None,
                guard=GuardSettings("law", rules=ended)) as client:
        client.sms.send(to=LOUISIANA, body="Open again.", client_reference="sos-la-after")
