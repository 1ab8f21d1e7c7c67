"""``upcoming``: callbacks scheduled through the emulator's API, judged before they are
due, by the audit's own rules; the CLI's ``compliance upcoming`` and ``when``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from itertools import islice
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import dialkit
from conftest import KEYS, START
from dialkit.cli import app
from dialkit.compliance import HOUSE_RULES, AuditInputError, load, next_allowed, upcoming
from dialkit.sandbox import Sandbox, attach_environment

NOW = pd.Timestamp.now(tz="UTC").floor("min")
PLANTED = "a callback at a forbidden moment, for upcoming to find"
"""The override of the client's guard (issue 50), which refuses such a callback."""
"""The emulator's clock is real time: its world is made around the current hour."""


@pytest.fixture(scope="module")
def client() -> Iterator[dialkit.Client]:
    with dialkit.Client.sandbox() as made:
        yield made


def moments(phone: str, allowed: bool) -> pd.Timestamp:
    """The first whole hour after tomorrow's start at which a call to ``phone`` is (or is
    not) allowed, as ``next_allowed`` says, asked hour by hour until one answers (each
    question is a ``next_allowed`` of its own)."""
    hours = (NOW.floor("D") + timedelta(days=1, hours=h) for h in range(48))
    return next(at for at in hours if next_allowed(phone, at)["allowed"].item() is allowed)


def fresh_leads(client: dialkit.Client, count: int) -> list[dialkit.client.Lead]:
    """New leads of the seeded world, not on the DNC list, of US numbers of a known state."""
    leads = list(islice(client.leads.list(status="new"), 60))
    listed = {r.phone for r in client.dnc.check([lead.phone for lead in leads]) if r.listed}
    usable = [lead for lead in leads if lead.phone not in listed and lead.campaign_id]
    rules = next_allowed([lead.phone for lead in usable], NOW)["rule"].astype(object)
    return [lead for lead, rule in zip(usable, rules, strict=True)
            if rule not in ("unknown_jurisdiction", "unknown_timezone")][:count]


def test_a_callback_set_at_a_forbidden_moment_is_found_and_one_at_an_allowed_one_is_not(
        client: dialkit.Client) -> None:
    bad, good, listed = fresh_leads(client, 3)
    forbidden, fine = moments(bad.phone, False), moments(good.phone, True)
    late = client.callbacks.create(lead_id=bad.id, scheduled_at=forbidden.to_pydatetime(),
                                   override=PLANTED)
    client.callbacks.create(lead_id=good.id, scheduled_at=fine.to_pydatetime())
    at_dnc = client.callbacks.create(lead_id=listed.id,
                                     scheduled_at=moments(listed.phone, True).to_pydatetime())
    client.dnc.add(listed.phone)  # listed after the callback was set
    found = upcoming(client, horizon="3D", as_of=NOW)
    ours = found[found["lead_id"].isin([bad.id, good.id, listed.id])]
    risks = ours[(ours["basis"] == "risk").to_numpy(bool)]  # issue 79: a number of a state
    assert (risks["rule"] == "dnc_call").all()  # whose list is required, no scrub of it
    ours = ours[(ours["basis"] != "risk").to_numpy(bool)]
    assert set(zip(ours["call_id"], ours["rule"], ours["kind"], strict=True)) == {
        (late.id, "calling_hours", "callback"), (at_dnc.id, "dnc_call", "callback")}
    row = ours[ours["call_id"] == late.id].iloc[0]
    assert row["at"] == forbidden and row["due_in"] == forbidden - NOW
    assert row["evidence"].startswith("due ") and row["basis"] == "law"
    assert row["phone"] == bad.phone


def test_a_lead_whose_callback_is_its_next_attempt_is_found_once(
        client: dialkit.Client) -> None:
    found = upcoming(client, horizon="14D", as_of=NOW)
    keys = found[["lead_id", "at", "rule"]].astype(str).apply(tuple, axis=1)
    assert not keys.duplicated().any()
    assert set(found["kind"].astype(str)) <= {"callback", "next_attempt"}
    assert (found["due_in"] >= pd.Timedelta(0)).all()
    assert (found["due_in"] < pd.Timedelta(days=14)).all()


def test_a_policy_makes_more_of_them_and_says_whose_they_are(client: dialkit.Client) -> None:
    law = upcoming(client, horizon="14D", as_of=NOW)
    with_policy = upcoming(client, horizon="14D", as_of=NOW, policy=HOUSE_RULES)
    assert len(with_policy) >= len(law)
    assert set(with_policy["basis"]) <= {"law", "policy", "risk"}  # risk: a state's list
    assert (with_policy["basis"] != "policy").sum() == len(law)  # the DNC results lack


def test_a_span_that_is_not_one_is_refused(client: dialkit.Client) -> None:
    with pytest.raises(ValueError, match="horizon='soon' is not a length of time"):
        upcoming(client, horizon="soon")
    with pytest.raises(AuditInputError, match=r"\['callbacks'\] are missing"):
        upcoming({"calls": pd.DataFrame(), "leads": pd.DataFrame()})


@pytest.mark.parametrize("subject", [None, "solar"])
def test_a_callback_after_three_calls_on_its_subject_is_found(subject: str | None) -> None:
    """Issue 61, item 4: a Florida lead called three times today in its campaign; its
    pending callback would be the fourth within 24 hours ("more than three ... on the
    same subject matter", Fla. Stat. 501.616(6)(b)), whether the calls keep a
    ``subject`` column (the callback has none yet: it takes its past calls') or not."""
    due = pd.Timestamp("2026-11-24T15:00Z")  # Tuesday 10:00 in Miami
    calls = pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": "+13055550123", "created_at": due - pd.Timedelta(hours=hours),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None} for n, hours in enumerate((5, 3, 1))])
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"],
                          "phone": ["+13055550123"], "status": ["new"],
                          "next_attempt_at": [pd.NaT]})
    callbacks = pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"], "campaign_id": ["cmp_1"],
                              "scheduled_at": [due], "status": ["pending"]})
    frames = {"calls": calls if subject is None else calls.assign(subject=subject),
              "leads": leads, "callbacks": callbacks}
    found = upcoming(frames, as_of=due - pd.Timedelta(minutes=30))
    assert found[["call_id", "rule", "jurisdiction"]].values.tolist() == [
        ["cb_1", "call_frequency", "US-FL"]]
    assert found["evidence"].iloc[0].startswith("4th call in the 24 hours")
    assert f"({'campaign cmp_1' if subject is None else 'subject solar'})" in \
        found["evidence"].iloc[0]


def test_the_cli_says_when_a_number_may_be_called() -> None:
    result = CliRunner().invoke(app, ["compliance", "when", "+18015550123", "+12125550123",
                                      "--at", "2026-11-22T19:00Z"])
    assert result.exit_code == 0, result.output
    utah, new_york = result.output.splitlines()
    assert utah.startswith("+18015550123: not allowed (Sun 12:00 America/Denver (Utah: ")
    assert utah.endswith("next allowed 2026-11-23 15:00 UTC, 2026-11-23 08:00 America/Denver")
    assert new_york == "+12125550123: allowed (2026-11-22 14:00 America/New_York)"
    bad = CliRunner().invoke(app, ["compliance", "when", "+18015550123", "--at", "someday"])
    assert bad.exit_code == 2 and "--at 'someday': pass an ISO date or time" in bad.output


def test_the_cli_writes_its_findings_as_every_csv_for_people(
        client: dialkit.Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out`` is a CSV for a spreadsheet, as the audit's is (``write_csv``): lines end
    in CRLF, so a cell holding a carriage return is quoted, and text is kept from being
    read as a formula. Each printed line names what a user reschedules or cancels: the
    callback (and its lead), or the lead whose next attempt it is (issue 48). The
    command's ``--sandbox`` attaches to the module's emulator, where a callback is set at
    07:00 UTC, night in every zone of North America."""
    assert client.emulator is not None
    for name, value in attach_environment(client.emulator).items():
        monkeypatch.setenv(name, value)
    lead = fresh_leads(client, 1)[0]
    late = client.callbacks.create(lead_id=lead.id, scheduled_at=(
        NOW.floor("D") + timedelta(days=2, hours=7)).to_pydatetime(), override=PLANTED)
    out = tmp_path / "upcoming.csv"
    result = CliRunner().invoke(app, ["compliance", "upcoming", "--sandbox", "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = out.read_bytes()
    assert written.count(b"\n") == written.count(b"\r\n") > 1  # a header and findings
    found = pd.read_csv(out, dtype=str)
    assert {"rule", "evidence", "kind", "due_in"} <= set(found.columns)
    lines = result.output.splitlines()[1:]
    assert any(f"callback {late.id} of lead {lead.id}  calling_hours  law: due " in line
               for line in lines), result.output
    assert all(" callback cb_" in line or " next attempt of lead lead_" in line
               for line in lines), result.output


@pytest.mark.parametrize(("numbers", "said"), [
    (["415-555-0123"], "error: NUMBER '415-555-0123' is not E.164 (pass +14155550123 if it "
                       "is a US number)"),
    (["+14155550123", ""], "error: NUMBER[2] '' is not E.164 (E.164 is + then the country"),
])
def test_the_cli_refuses_a_number_not_in_e164_as_a_usage_error(numbers: list[str],
                                                                said: str) -> None:
    result = CliRunner().invoke(app, ["compliance", "when", *numbers])
    assert result.exit_code == 2, result.output
    assert said in result.output and "not allowed" not in result.output


def test_a_callback_after_a_call_and_two_texts_is_found() -> None:
    """Issue 62: a text is a call in law (47 CFR 64.1200(e)) and the audit counts it
    toward the cap with the calls; a callback after a call and two texts to the Florida
    lead today would be the fourth contact, and ``upcoming`` says so before it is due
    (the frames as ``load`` gives them hold the texts)."""
    due = pd.Timestamp("2026-11-24T15:00Z")  # Tuesday 10:00 in Miami
    calls = pd.DataFrame([{
        "id": "call_0", "direction": "outbound", "from_number": "+14155550100",
        "to_number": "+13055550123", "created_at": due - pd.Timedelta(hours=5),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None}])
    texts = pd.DataFrame({"message_id": ["msg_1", "msg_2"], "to": ["+13055550123"] * 2,
                          "created_at": [due - pd.Timedelta(hours=h) for h in (3, 1)]})
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"],
                          "phone": ["+13055550123"], "status": ["new"],
                          "next_attempt_at": [pd.NaT]})
    callbacks = pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"], "campaign_id": ["cmp_1"],
                              "scheduled_at": [due], "status": ["pending"]})
    frames = {"calls": calls, "leads": leads, "callbacks": callbacks}
    before = pd.Timestamp(due - pd.Timedelta(minutes=30))
    assert upcoming(frames, as_of=before).empty  # the call alone: the first of the day
    found = upcoming({**frames, "texts": texts}, as_of=before)
    assert found[["call_id", "rule", "jurisdiction"]].values.tolist() == [
        ["cb_1", "call_frequency", "US-FL"]]
    assert found["evidence"].iloc[0].startswith("4th call in the 24 hours")


def test_a_campaign_of_the_frames_given_is_judged_as_the_same_campaign_of_the_account(
        sandbox: Sandbox, tmp_path: Path) -> None:
    """``upcoming(frames, campaign_id=...)`` judged every campaign's scheduled calls: the
    argument was read only of a client. Given the account's frames whole, a campaign's
    scheduled calls are found as the client's campaign finds them, and no other's. The
    session's emulator, on its manual clock: the account does not move between the reads
    (this module's own emulator dials on a real clock)."""
    with dialkit.Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                        cache_dir=tmp_path) as client:
        whole = upcoming(client, horizon="14D", as_of=START)
        campaigns = sorted(set(whole["campaign_id"].astype(str)))
        assert len(campaigns) > 1, "the seeded world schedules calls in several campaigns"
        frames = {**load(client), "callbacks": client.frames.callbacks(
            sorted(set(client.frames.leads()["campaign_id"].dropna())), status="pending")}
        key = ["kind", "call_id", "lead_id", "rule", "at"]
        for campaign in campaigns[:2]:
            on_account = upcoming(client, campaign_id=campaign, horizon="14D", as_of=START)
            given = upcoming(frames, campaign_id=campaign, horizon="14D", as_of=START)
            assert set(given["campaign_id"].astype(str)) == {campaign}
            assert given[key].astype(str).sort_values(key).to_numpy().tolist() == (
                on_account[key].astype(str).sort_values(key).to_numpy().tolist())
