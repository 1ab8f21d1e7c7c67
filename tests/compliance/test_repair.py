"""``repair``: what ``upcoming`` finds in the emulator's seeded world (its planted late
callback and early next attempt, and a callback whose number was listed after it was
set), planned, carried out over real HTTP, crashed half way and carried out again, then
looked for again; and ``upcoming --fix`` on the command line (issue 50)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pytest
from typer.testing import CliRunner

from client._recording import RecordingTransport
from conftest import KEYS, START, base_config
from dialkit import Client
from dialkit._utils._choices import AUDIT_INPUTS, RECORDS, SWITCH
from dialkit.analytics import answer_rates
from dialkit.cli import app
from dialkit.client._http._transport import tls_context
from dialkit.compliance import AuditInputError, next_allowed, repair, run_upcoming, upcoming
from dialkit.compliance._ahead._repair import REPAIR_TOLD
from dialkit.contract import Lead
from dialkit.sandbox import Sandbox, attach_environment

WRITES = ("/reschedule", "/cancel")


class Breaking(RecordingTransport):
    """Forwards ``working`` callback writes, then one more whose answer is lost on the
    way back (the service did it; the client never hears), then refuses every request:
    a crash half way."""

    def __init__(self, working: int) -> None:
        super().__init__(verify=tls_context())
        self.working = working

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        writing = request.url.path.endswith(WRITES)
        if self.working < 0:
            raise httpx.ConnectError("the network is gone", request=request)
        response = super().handle_request(request)
        if writing:
            self.working -= 1
            if self.working < 0:
                response.close()
                raise httpx.ReadError("the answer was lost", request=request)
        return response


def writes(wire: RecordingTransport) -> list[str]:
    """The Idempotency-Keys of the callback writes ``wire`` carried, in order."""
    return [str(s.idempotency_key) for s in wire.sent if s.path.endswith(WRITES)]


def fresh_lead(client: Client, at: pd.Timestamp) -> tuple[Lead, pd.Timestamp]:
    """A new lead of the seeded world, not listed, of a US or Canadian number of a known
    state, and the first moment from ``at`` a call to it is allowed."""
    leads = [lead for lead in islice(client.leads.list(status="new"), 40) if lead.campaign_id]
    listed = {r.phone for r in client.dnc.check([lead.phone for lead in leads]) if r.listed}
    leads = [lead for lead in leads if lead.phone not in listed]
    answer = next_allowed([lead.phone for lead in leads], at)
    known = answer["next_allowed_at"].notna() & ~answer["rule"].isin(
        ["unknown_jurisdiction", "unknown_timezone"])
    first = int(known.to_numpy().argmax())
    return leads[first], answer["next_allowed_at"].iloc[first]


@dataclass
class Flow:
    """What each step of one repair of the seeded world answered."""

    found: pd.DataFrame
    truth: dict[str, list[dict[str, Any]]]
    listed: str
    """The callback whose number was listed after it was set."""
    plan: pd.DataFrame
    dry_writes: list[str]
    best: pd.DataFrame
    rates: pd.DataFrame
    crashed: pd.DataFrame
    rerun: pd.DataFrame
    rerun_writes: list[str]
    history: dict[str, list[str]]
    again: pd.DataFrame
    again_plan: pd.DataFrame


@pytest.fixture(scope="module")
def flow(sandbox: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> Flow:
    """One repair of the seeded world, step by step (each step is the next's input), over
    the campaigns of the planted findings (loading the others' calls would only cost)."""
    admin = {"headers": sandbox.admin_headers, "verify": tls_context()}
    httpx.post(f"{sandbox.base_url}/_sandbox/reset", **admin).raise_for_status()
    truth = httpx.get(f"{sandbox.base_url}/_sandbox/upcoming-truth",
                      params={"account": "acme"}, **admin).json()["problems"]
    wire = RecordingTransport(verify=tls_context())
    options = {"base_url": sandbox.base_url, "rate_limit": None}
    with Client(KEYS["full"], transport=wire, cache_dir=tmp_path_factory.mktemp("cache"),
                **options) as client:
        lead, lawful = fresh_lead(client, pd.Timestamp(START) + pd.Timedelta(days=1))
        listed = client.callbacks.create(lead_id=lead.id, scheduled_at=lawful.to_pydatetime())
        client.dnc.add(lead.phone)  # listed after the callback was set
        planted = [p["lead_id"] for problems in truth.values() for p in problems]
        campaigns = sorted({str(client.leads.get(lead_id).campaign_id)
                            for lead_id in [*planted, lead.id]})  # not the whole account's
        found = upcoming(client, campaign_id=campaigns, horizon="14D", as_of=START)
        plan = repair(found, client)
        dry_writes = writes(wire)
        rates = answer_rates(client.frames.calls(campaign_id=campaigns))
        best = repair(found, client, strategy="best", prefer=rates)
        with Client(KEYS["full"], transport=Breaking(1), max_retries=0,
                    cache_dir=tmp_path_factory.mktemp("cache"), **options) as broken:
            crashed = repair(found, broken, dry_run=False)
        rerun = repair(found, client, dry_run=False)
        rerun_writes = writes(wire)[len(dry_writes):]
        history = {row.lead_id: [event["event"] for event in
                                 client.leads.history(row.lead_id)["data"]]
                   for row in plan.itertuples() if row.action != "leave"}
        again = upcoming(client, campaign_id=campaigns, horizon="14D", as_of=START)
        again_plan = repair(again, client)
    return Flow(found, truth, listed.id, plan, dry_writes, best, rates, crashed, rerun,
                rerun_writes, history, again, again_plan)


def test_the_plan_moves_cancels_or_leaves_each_scheduled_call_and_says_why(
        flow: Flow) -> None:
    plan = flow.plan.set_index(flow.plan["callback_id"].fillna(flow.plan["lead_id"]))
    late = flow.truth["upcoming_callback_hours"][0]
    early = flow.truth["upcoming_attempt_hours"][0]
    moved = plan[plan["lead_id"] == late["lead_id"]].iloc[0]
    assert (moved["action"], moved["kind"], moved["rules"]) == (
        "reschedule", "callback", "calling_hours")
    assert moved["at"] == pd.Timestamp(late["due_at"]) < moved["new_at"]
    lawful = next_allowed(moved["phone"], moved["at"])  # the first moment the law allows
    assert moved["new_at"] == lawful["next_allowed_at"].item()
    assert next_allowed(moved["phone"], moved["new_at"])["allowed"].item()
    assert moved["new_local_time"] == lawful["next_local_time"].item()
    cancelled = plan.loc[flow.listed]
    assert (cancelled["action"], cancelled["rules"]) == ("cancel", "dnc_call")
    assert "Do-Not-Call" in cancelled["reason"] and pd.isna(cancelled["new_at"])
    left = plan[plan["lead_id"] == early["lead_id"]].iloc[0]
    assert (left["action"], left["kind"], left["status"]) == ("leave", "next_attempt", "left")
    assert "PATCH /v1/leads/{lead_id}" in left["reason"] and "07:00" in left["reason"]
    campaign = flow.found.loc[flow.found["lead_id"] == early["lead_id"], "campaign_id"].item()
    assert left["campaign_id"] == campaign and left["reason"].endswith(
        f'until the law allows the call: client.campaigns.pause("{campaign}")')  # issue 62
    assert len(plan) == plan.index.nunique() == len(flow.found)  # one row a scheduled call
    acted = plan[plan["action"] != "leave"]
    assert (acted["status"] == "planned").all() and acted["idempotency_key"].is_unique
    assert flow.dry_writes == []  # a dry run sends nothing


def test_the_best_strategy_moves_to_the_lawful_hour_most_often_answered(flow: Flow) -> None:
    moved = flow.best[flow.best["action"] == "reschedule"].iloc[0]
    asked = next_allowed(moved["phone"], moved["at"], prefer=flow.rates)
    assert moved["new_at"] == asked["best_at"].item() >= asked["next_allowed_at"].item()
    assert moved["expected_rate"] == asked["best_rate"].item() >= asked["next_rate"].item()
    assert next_allowed(moved["phone"], moved["new_at"])["allowed"].item()
    assert moved["new_at"] - moved["at"] < pd.Timedelta("7D")
    zone = list(flow.plan.columns).index("timezone") + 1
    assert list(flow.best.columns) == [*flow.plan.columns[:zone], "expected_rate",
                                       *flow.plan.columns[zone:]]


def test_a_crash_half_way_and_a_run_again_do_each_action_once(flow: Flow) -> None:
    # soonest first: the listed callback cancelled, the late one's answer lost on the way;
    # the rest left (a callback to a number no scrub of its state's list answers for is a
    # risk, not a listing: issue 79)
    statuses = list(flow.crashed["status"].str[:6])
    assert statuses[:2] == ["done", "failed"] and set(statuses[2:]) == {"left"}
    assert "ApiConnectionError" in flow.crashed["status"].iloc[1]
    assert (flow.rerun["status"] == flow.plan["status"].replace("planned", "done")).all()
    planned = flow.plan.loc[flow.plan["action"] != "leave", "idempotency_key"]
    assert flow.rerun_writes == list(planned)  # the same keys: the service's first answers
    for lead, events in flow.history.items():
        kept = [e for e in events if e in ("callback_moved", "callback_cancelled")]
        assert len(kept) == 1, (lead, events)


def test_a_second_look_finds_nothing_to_do(flow: Flow) -> None:
    assert set(flow.again["kind"].astype(str)) == {"next_attempt"}
    assert (flow.again_plan["action"] == "leave").all()
    assert (flow.again_plan["status"] == "left").all()


def test_what_repair_cannot_use_is_refused_naming_it() -> None:
    with pytest.raises(AuditInputError, match=r"takes upcoming\(\)'s answer"):
        repair(pd.DataFrame({"phone": []}), None)
    found = pd.DataFrame(columns=["rule", "kind", "call_id", "lead_id", "phone", "at",
                                  "evidence"])
    with pytest.raises(AuditInputError, match="prefer=dialkit.analytics.answer_rates"):
        repair(found, None, strategy="best", frames={})
    with pytest.raises(ValueError, match="pass 'next_allowed' or 'best'"):
        repair(found, None, strategy="soonest", frames={})  # type: ignore[arg-type]
    with pytest.raises(AuditInputError, match="needs the client"):
        repair(found, None, dry_run=False, frames={})


def test_the_cli_prints_the_plan_carries_it_out_and_then_has_nothing_to_do(
        sandbox: Sandbox, client: Client, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """``--sandbox`` attaches to the session's emulator, whose world is of 2 November;
    the command looks from now, where a callback is set and its number listed after (at
    its campaign only: the whole account's calls are the flow's to load)."""
    for name, value in attach_environment(sandbox, "acme/full/test").items():
        monkeypatch.setenv(name, value)
    lead, lawful = fresh_lead(client, pd.Timestamp.now(tz="UTC") + pd.Timedelta(days=1))
    listed = client.callbacks.create(lead_id=lead.id, scheduled_at=lawful.to_pydatetime())
    client.dnc.add(lead.phone)
    said = [CliRunner().invoke(app, ["compliance", "upcoming", "--sandbox", "--fix",
                                     "--campaign", str(lead.campaign_id), *more])
            for more in ([], ["--apply"], [])]
    assert [result.exit_code for result in said] == [0, 0, 0], said[-1].output
    line = f"  cancel callback {listed.id} of lead {lead.id}: the number is on a Do-Not-Call"
    assert line in said[0].output and said[0].output.count("[planned]") == 1
    assert "(a dry run: --apply carries it out)" in said[0].output.splitlines()[0]
    assert line in said[1].output and "[done]" in said[1].output
    assert listed.id not in said[2].output
    assert client.callbacks.list(lead.campaign_id, status="cancelled").__next__().id == listed.id


@pytest.mark.parametrize(("given", "said"), [
    (["--apply"], "--apply and --strategy go with --fix"),
    (["--fix", "--strategy", "soonest"], "--strategy 'soonest': pass next_allowed or best"),
])
def test_the_cli_refuses_a_fix_asked_wrongly_as_a_usage_error(given: list[str],
                                                              said: str) -> None:
    result = CliRunner().invoke(app, ["compliance", "upcoming", "--sandbox", *given])
    assert result.exit_code == 2 and said in result.output


def test_a_callback_over_a_cap_moves_to_when_the_cap_frees_it_and_the_hours_allow() -> None:
    """Florida's cap (Fla. Stat. 501.616(6)(b): no more than three calls in 24 hours): a
    callback due after three calls today moves to the moment ``next_allowed`` gives with
    the account's calls, 08:00 in Miami the next day, not to the hours' answer alone."""
    miami, due = "+13055550123", pd.Timestamp("2026-11-24T15:00Z")  # Tuesday 10:00
    calls = pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": miami, "created_at": due - pd.Timedelta(hours=h), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None}
        for n, h in enumerate((5, 3, 1))])
    found = pd.DataFrame({"rule": ["call_frequency"], "kind": ["callback"], "call_id": ["cb_1"],
                          "lead_id": ["lead_1"], "phone": [miami], "at": [due],
                          "evidence": ["due Tue 10:00, the fourth call in 24 hours"]})
    dnc = pd.DataFrame({"phone": [miami], "listed": [False]})
    [row] = repair(found, None, frames={"calls": calls, "dnc": dnc}).to_dict("records")
    assert (row["action"], row["rules"]) == ("reschedule", "call_frequency")
    assert row["new_at"] == pd.Timestamp("2026-11-25T13:00Z")  # the cap frees it at 05:00
    assert row["new_at"] == next_allowed(miami, due, calls=calls)["next_allowed_at"].item()
    assert next_allowed(miami, due, calls=None)["allowed"].item()  # the hours alone: now


def test_the_cli_fixes_the_worlds_planted_findings_once(
        make_sandbox: Callable[..., Sandbox], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 50's "done when": ``upcoming --fix --apply`` carries out the plan for the
    findings the world planted, and a second run has nothing to do. The command looks
    from now, so the emulator here runs on a real clock, its world anchored at this hour:
    the planted callbacks lie ahead of now, as they do in the demo (a new world to build,
    about 5 s: the session's lies in November 2026)."""
    config = base_config()
    config["server"] = {key: value for key, value in config["server"].items()
                        if key != "start_time"} | {"clock": "real"}
    config["accounts"] = config["accounts"][:1]
    # a medium world: a small one, anchored at some hours, holds no pending callback of a
    # paused campaign ahead of now, so it plants none and the test would check nothing
    config["accounts"][0]["scale"] = "medium"
    running = make_sandbox(config)
    truth = httpx.get(f"{running.base_url}/_sandbox/upcoming-truth", params={"account": "acme"},
                      headers=running.admin_headers, verify=tls_context()).json()["problems"]
    for name, value in attach_environment(running, "acme/full/test").items():
        monkeypatch.setenv(name, value)
    with Client(KEYS["full"], base_url=running.base_url, rate_limit=None) as client:
        planted = [p["lead_id"] for problems in truth.values() for p in problems]
        campaigns = sorted({str(client.leads.get(lead).campaign_id) for lead in planted})
        left = truth["upcoming_attempt_hours"][0]
        paused = client.campaigns.get(str(client.leads.get(left["lead_id"]).campaign_id))
    asked = ["compliance", "upcoming", "--sandbox", "--fix",
             *(option for campaign in campaigns for option in ("--campaign", campaign))]
    said = [CliRunner().invoke(app, [*asked, *more]) for more in ([], ["--apply"], [])]
    assert [result.exit_code for result in said] == [0, 0, 0], said[-1].output
    moved = [p["lead_id"] for kind in ("upcoming_callback_hours", "upcoming_callback_dnc")
             for p in truth.get(kind, [])]
    assert moved and said[0].output.count("[planned]") == len(moved)
    assert said[1].output.count("[done]") == len(moved)
    assert all(lead in said[0].output and lead in said[1].output for lead in moved)
    assert "[planned]" not in said[2].output and "[done]" not in said[2].output
    again = [line for line in said[2].output.splitlines() if any(lead in line for lead in moved)]
    assert all(line.startswith("  leave ") and "risk" in line for line in again), again
    # a lead's next attempt: the contract moves none; its line names the campaign to pause
    # by id and name, and the call that pauses it (issue 62: "pause its campaign
    # (client.campaigns.pause)")
    [line] = [line for line in said[2].output.splitlines() if left["lead_id"] in line]
    assert line.startswith(f"  leave next attempt of lead {left['lead_id']}: ")
    assert line.endswith(f'; pause campaign {paused.id} "{paused.name}" until the law allows '
                         f'the call: client.campaigns.pause("{paused.id}")  [left]')


def test_a_stale_plan_keeps_the_users_newer_schedule(sandbox: Sandbox) -> None:
    """Issue 62: ``found = upcoming(client)``, then someone moves the callback to a lawful
    time three days later, then ``repair(found, client, dry_run=False)``: the plan no
    longer holds for it, so it is skipped with the reason and the user's time is kept."""
    night = pd.Timestamp("2026-11-03T07:00Z")  # 02:00 in New York, 23:00 in San Francisco
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                guard="off") as client:  # the world's own callback, set before any guard
        lead, lawful = fresh_lead(client, night)
        callback = client.callbacks.create(lead_id=lead.id, scheduled_at=night.to_pydatetime())
        found = upcoming(client, campaign_id=str(lead.campaign_id), horizon="14D",
                         as_of=START)
        assert callback.id in set(found["call_id"])
        newer = lawful + pd.Timedelta(days=3)
        client.callbacks.reschedule(callback.id, scheduled_at=newer.to_pydatetime())
        plan = repair(found, client, dry_run=False)
        [row] = plan[plan["callback_id"] == callback.id].itertuples()
        assert row.status.startswith("skipped: moved since the plan was made"), row.status
        assert "run upcoming() and repair() again" in row.status
        [now] = [c for c in client.callbacks.list(str(lead.campaign_id), status="pending")
                 if c.id == callback.id]
    assert pd.Timestamp(now.scheduled_at) == newer


UTAH, TORONTO = "+18015550123", "+14165550142"
SUNDAY_NOON = pd.Timestamp("2026-11-22T19:00Z")  # 12:00 in Salt Lake City: Utah bars Sundays
TUESDAY_NIGHT = pd.Timestamp("2026-11-25T04:00Z")  # 23:00 in Toronto: after 21:30


def listed_long_ago(phone: str) -> pd.DataFrame:
    """DNC results that list ``phone`` since January, naming no list (the national
    register of its country, as the audit reads them): past every grace."""
    return pd.DataFrame({"phone": [phone], "listed": [True],
                         "listed_at": [pd.Timestamp("2026-01-05T00:00Z")],
                         "checked_at": [pd.Timestamp("2026-11-20T00:00Z")]})


def found_at_night(phone: str, due: pd.Timestamp) -> pd.DataFrame:
    """``upcoming``'s answer of one callback due at an hour the law forbids, as it is where
    what lifts the list's rule was told: the hours its only finding."""
    return pd.DataFrame({"rule": ["calling_hours"], "kind": ["callback"], "call_id": ["cb_1"],
                         "lead_id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [phone],
                         "at": [due], "evidence": ["due at night"]})


BUSINESS_LEAD = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [TORONTO],
                              "status": ["callback"], "line": ["business"]})
CONTRACT = pd.DataFrame({"phone": [TORONTO], "signed_at": ["2026-10-01T00:00Z"],
                         "ends_at": [None]})


@pytest.mark.parametrize(("phone", "due", "told", "leads"), [
    (UTAH, SUNDAY_NOON, {"nonprofit": True}, None),
    (TORONTO, TUESDAY_NIGHT, {"charity": True}, None),
    (TORONTO, TUESDAY_NIGHT, {"newspaper": True}, None),
    (TORONTO, TUESDAY_NIGHT, {"contracts": CONTRACT}, None),
    (TORONTO, TUESDAY_NIGHT, {}, BUSINESS_LEAD),
], ids=["nonprofit", "charity", "newspaper", "contract", "business-line"])
def test_a_callback_whose_list_does_not_bind_it_is_moved_not_cancelled(
        phone: str, due: pd.Timestamp, told: dict[str, Any],
        leads: pd.DataFrame | None) -> None:
    """Issue 73: ``upcoming`` told what lifts a list's rule finds the hours alone; the plan
    told the same moves the callback where ``next_allowed``, told the same, says the call
    is allowed, and cancels it only where the list binds it (it cancelled every callback
    of a listed number, whatever the account had said)."""
    dnc = listed_long_ago(phone)
    frames = {"dnc": dnc} if leads is None else {"dnc": dnc, "leads": leads}
    asked = phone if leads is None else leads
    residential = phone if leads is None else leads.assign(line="residential")
    bound = repair(found_at_night(phone, due), None, frames={
        "dnc": dnc, **({} if leads is None else {"leads": residential})})
    assert bound.loc[0, "action"] == "cancel" and pd.isna(bound.loc[0, "new_at"])
    assert pd.isna(next_allowed(residential, due, dnc=dnc)["next_allowed_at"].item())
    moved = repair(found_at_night(phone, due), None, frames=frames, **told)
    assert moved.loc[0, "action"] == "reschedule", moved.loc[0, "reason"]
    said = next_allowed(asked, due, dnc=dnc, **told)
    assert moved.loc[0, "new_at"] == said["next_allowed_at"].item() > due
    assert next_allowed(asked, moved.loc[0, "new_at"], dnc=dnc, **told)["allowed"].item()


def test_no_callback_is_moved_into_a_declared_emergency() -> None:
    """La. R.S. 45:844.31(A): no telephonic solicitation during a declared state of
    emergency. A callback due at 22:30 in New Orleans moved to 08:00 the next morning, inside
    the emergency; told of it (as ``upcoming`` is), the plan moves it to the emergency's
    end, Thursday 10 September 18:00 CDT, inside Louisiana's hours and outside the ban."""
    new_orleans = "+15045550142"
    emergency = pd.DataFrame({"area": ["Louisiana"], "starts_at": ["2026-09-01T06:00-05:00"],
                              "ends_at": ["2026-09-10T18:00-05:00"]})
    found = found_at_night(new_orleans, pd.Timestamp("2026-09-02T03:30Z"))
    frames = {"dnc": pd.DataFrame({"phone": [new_orleans], "listed": [False]})}
    unaware = repair(found, None, frames=frames).loc[0, "new_at"]
    assert unaware == pd.Timestamp("2026-09-02T13:00Z")
    assert not next_allowed(new_orleans, unaware, emergencies=emergency)["allowed"].item()
    moved = repair(found, None, frames=frames, emergencies=emergency).loc[0]
    assert (moved["action"], moved["new_local_time"]) == ("reschedule", "2026-09-10 18:00:00")
    assert next_allowed(new_orleans, moved["new_at"], emergencies=emergency)["allowed"].item()


def test_repair_is_told_what_upcoming_is_told_of_the_account() -> None:
    """The account's records and facts ``upcoming`` takes by the declaration
    (:data:`AUDIT_INPUTS`) are what ``repair`` reads, by the same names, and what the
    command's fix passes it (:data:`REPAIR_TOLD`): a new one cannot be left out."""
    told = {each.name for each in AUDIT_INPUTS
            if "upcoming" in each.readers and each.kind in (RECORDS, SWITCH)}
    assert told == set(REPAIR_TOLD)


def test_the_commands_fix_is_told_what_upcoming_was(sandbox: Sandbox) -> None:
    """``dialkit compliance upcoming --fix --nonprofit`` (``run_upcoming``) over real HTTP:
    a nonprofit's callback at night to a number on the account's DNC list is moved, as
    the nonprofit's ``upcoming`` found only its hours; without ``--nonprofit`` the same
    callback is cancelled. Before, the fix was never told, and cancelled it both times."""
    night = pd.Timestamp("2026-11-03T07:00Z")  # 02:00 in New York, 23:00 in San Francisco
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                guard="off") as client:  # a callback at night, as a dialer may leave one
        lead, _ = fresh_lead(client, night)
        callback = client.callbacks.create(lead_id=lead.id, scheduled_at=night.to_pydatetime())
        client.dnc.add(lead.phone)
        asked = {"campaign_id": str(lead.campaign_id), "horizon": "14d", "as_of": START,
                 "fix": True}
        plans = [run_upcoming(client, **asked, **told).plan for told in ({"nonprofit": True},
                                                                          {})]
    actions = [plan.loc[plan["callback_id"] == callback.id, "action"].tolist()
               for plan in plans if plan is not None]
    assert actions == [["reschedule"], ["cancel"]]


def test_a_callback_over_a_cap_counting_a_text_moves_to_when_the_cap_frees_it() -> None:
    """A text is a call in law (47 CFR 64.1200(e)), and ``upcoming`` counts it toward
    Florida's cap: two calls and a text today put a callback due now over it, and the plan
    moves it to where ``next_allowed`` of its lead given the texts too says the cap frees
    it (08:00 the next day), not to its due time, which the calls alone allow."""
    miami, due = "+13055550123", pd.Timestamp("2026-11-24T15:00Z")  # Tuesday 10:00
    calls = pd.DataFrame([{
        "id": f"call_{n}", "direction": "outbound", "from_number": "+14155550100",
        "to_number": miami, "created_at": due - pd.Timedelta(hours=h), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None}
        for n, h in enumerate((5, 3))])
    texts = pd.DataFrame({"message_id": ["sms_1"], "to": [miami],
                          "created_at": [due - pd.Timedelta(hours=1)]})
    found = pd.DataFrame({"rule": ["call_frequency"], "kind": ["callback"], "call_id": ["cb_1"],
                          "lead_id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [miami],
                          "at": [due], "evidence": ["due Tue 10:00, the third call and a text"]})
    dnc = pd.DataFrame({"phone": [miami], "listed": [False]})
    [row] = repair(found, None, frames={"calls": calls, "texts": texts, "dnc": dnc}).to_dict(
        "records")
    lead = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [miami],
                         "status": ["callback"]})  # its campaign tells the text's
    freed = next_allowed(lead, due, calls=calls, texts=texts)["next_allowed_at"].item()
    assert row["action"] == "reschedule" and row["new_at"] == freed > due
    assert next_allowed(miami, due, calls=calls)["allowed"].item()  # the calls alone: now


DENVER = "+13035550142"


@pytest.mark.parametrize(("due", "action"), [
    ("2026-11-24T17:00Z", "leave"),  # Tuesday 10:00 in Denver: the risk alone
    ("2026-11-25T05:00Z", "reschedule"),  # Tuesday 22:00: the hours too
])
def test_a_risk_of_a_state_list_not_given_cancels_no_callback(due: str, action: str) -> None:
    """Colorado obliges a caller to obtain its list (C.R.S. 6-1-904(4)): a callback to a
    Denver number, where the DNC results hold no scrub of it, is a ``dnc_call`` risk. The
    number is not known to be on the list, so the plan does not cancel the callback (it
    did, saying "the number is on a Do-Not-Call list"): it leaves it, saying why, or
    moves it for the hours."""
    frames = {
        "leads": pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [DENVER],
                               "status": ["callback"], "next_attempt_at": [pd.NaT]}),
        "calls": pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                               "from_number": "+14155550100", "to_number": ["+12145550100"],
                               "created_at": [pd.Timestamp("2026-11-20T17:00Z")],
                               "answered_at": pd.NaT, "ended_at": pd.NaT,
                               "campaign_id": "cmp_1", "disposition": None}),
        "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"],
                                   "campaign_id": ["cmp_1"], "scheduled_at": [pd.Timestamp(due)],
                                   "status": ["pending"]}),
        "dnc": pd.DataFrame({"phone": ["+12145550100", DENVER], "listed": [False, False],
                             "checked_at": pd.Timestamp("2026-11-20T00:00Z"),
                             "list": ["US-TX", "national"]})}
    found = upcoming(frames, as_of="2026-11-22T00:00Z")
    assert ("dnc_call", "risk") in set(zip(found["rule"].astype(str),
                                           found["basis"].astype(str), strict=True))
    [row] = repair(found, None, frames=frames).to_dict("records")
    assert row["action"] == action
    if action == "leave":
        assert row["reason"].startswith("a risk, not a breach: the law may forbid the call")
    assert "is on a Do-Not-Call list" not in row["reason"]
