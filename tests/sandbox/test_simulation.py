"""The dialer simulation that moves with the manual clock, seen over the API.

Each test starts its own emulator (only the ``acme`` account, clock at
``START``, 10:00 in New York), so that moving its clock disturbs no other test.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pandas as pd
import phonenumbers
import pytest
from phonenumbers import timezone as phone_timezones

from conftest import KEYS, START, advance, base_config, client_for, write
from dialkit import Client
from dialkit.compliance import audit
from dialkit.sandbox import Sandbox, default_config
from dialkit.sandbox._simulation import _dialer as _simulation

NOW = datetime.fromisoformat(START)
COUNTERS = {"calls_placed", "calls_answered", "callbacks_due", "callbacks_completed",
            "callbacks_scheduled", "leads_screened_dnc", "dnc_added", "events_recorded",
            "campaigns_completed", "click_to_calls_ended"}
FINAL = {"sale": "completed", "not_interested": "completed", "wrong_number": "completed",
         "do_not_call": "dnc", "callback_requested": "callback"}
"""Lead status after an answered call with this disposition (else ``contacted``)."""


@pytest.fixture
def world(make_sandbox: Callable[..., Sandbox]) -> Sandbox:
    """A fresh emulator with the ``acme`` account alone."""
    config = base_config()
    config["accounts"] = config["accounts"][:1]
    return make_sandbox(config)


@pytest.fixture
def full(world: Sandbox) -> Iterator[httpx.Client]:
    """The ``full`` client's test key on ``world``."""
    with client_for(world, KEYS["full"]) as http:
        yield http




def every(http: httpx.Client, path: str, **params: Any) -> list[dict[str, Any]]:
    """Every item of a list, page by page."""
    items: list[dict[str, Any]] = []
    query: dict[str, Any] = {"limit": 100, **params}
    while True:
        page = http.get(path, params=query)
        assert page.status_code == 200, page.text
        items += page.json()["data"]
        cursor = page.json()["page"]["next_cursor"]
        if cursor is None:
            return items
        query["cursor"] = cursor


def simulated_calls(http: httpx.Client) -> list[dict[str, Any]]:
    """The calls that ended after ``START`` (the seeded world's all ended before), newest first."""
    found: list[dict[str, Any]] = []
    query: dict[str, Any] = {"limit": 100}
    while True:
        page = http.get("/v1/calls", params=query).json()
        found += [c for c in page["data"] if c["ended_at"] and c["ended_at"] > START]
        oldest = page["data"][-1]["created_at"]
        if page["page"]["next_cursor"] is None or when(oldest) < NOW - timedelta(hours=3):
            return found
        query["cursor"] = page["page"]["next_cursor"]


def when(stamp: str) -> datetime:
    """A timestamp of the API as a datetime."""
    return datetime.fromisoformat(stamp)


def running_ids(http: httpx.Client) -> list[str]:
    """Ids of the running campaigns."""
    return [c["id"] for c in every(http, "/v1/campaigns", status="running")]


def leads_by_phone(http: httpx.Client, campaigns: list[str]) -> dict[str, dict[str, Any]]:
    """The leads of ``campaigns`` by phone number."""
    return {lead["phone"]: lead for cid in campaigns
            for lead in every(http, "/v1/leads", campaign_id=cid)}


def local_hour(phone: str, stamp: str) -> int:
    """The hour at the recipient (the number's first time zone)."""
    zone = phone_timezones.time_zones_for_number(phonenumbers.parse(phone))[0]
    return when(stamp).astimezone(ZoneInfo(zone)).hour


def test_advance_places_calls_in_running_campaigns(world: Sandbox, full: httpx.Client) -> None:
    running = running_ids(full)
    seeded_lines = {c["from_number"] for c in every(full, "/v1/calls", direction="outbound")}
    body = advance(world, 3600)
    assert body["now"] == "2026-11-02T16:00:00.000Z" and body["manual"] is True
    assert set(body["simulated"]) == COUNTERS
    assert body["datasets"] == {"client:acme/full": body["simulated"]}
    calls = simulated_calls(full)
    assert len(calls) == body["simulated"]["calls_placed"] > 0
    assert calls == sorted(calls, key=lambda c: (c["created_at"], c["id"]), reverse=True)
    for call in calls:
        assert call["direction"] == "outbound" and call["campaign_id"] in running
        assert call["from_number"] in seeded_lines
        assert START < call["ended_at"] <= body["now"]
        spent = (when(call["ended_at"]) - when(call["created_at"])).total_seconds()
        assert call["duration_seconds"] == pytest.approx(spent, abs=0.002)
        assert (call["answered_at"] is not None) == (call["status"] == "completed")
        assert call["status"] in {"completed", "no-answer", "busy", "failed", "voicemail"}
        if call["status"] == "completed" and call["agent_joined_at"] is not None:
            assert call["disposition"] in FINAL.keys() | {"info_sent"}
        elif call["status"] == "completed":  # abandoned: no agent was free to take it
            assert call["disposition"] is None
        else:
            voicemail = call["status"] == "voicemail"
            assert call["disposition"] == ("voicemail_left" if voicemail else None)
    answered = sum(c["status"] == "completed" for c in calls)
    assert body["simulated"]["calls_answered"] == answered


def test_a_predictive_campaign_abandons_a_share_of_its_answered_calls(
        world: Sandbox, full: httpx.Client) -> None:
    modes = {c["id"]: c["dialer_mode"] for c in every(full, "/v1/campaigns")}
    for campaign in every(full, "/v1/campaigns", status="paused"):
        assert write(full, f"/v1/campaigns/{campaign['id']}/resume",
                     key=f"r-{campaign['id']}").status_code == 200
    dialling = set(running_ids(full))
    assert {modes[c] for c in dialling} >= {"predictive", "power"}
    advance(world, 30 * 86400)
    answered = [c for c in simulated_calls(full) if c["status"] == "completed"]
    dropped = [c for c in answered if c["agent_joined_at"] is None]
    predictive = [c for c in answered if modes[c["campaign_id"]] == "predictive"]
    assert {modes[c["campaign_id"]] for c in dropped} == {"predictive"}
    assert 0.01 < len(dropped) / len(predictive) < 0.1  # ABANDON_SHARE, 4 %
    for call in dropped:  # the recorded message, then the line drops: nobody logs a thing
        talk = (when(call["ended_at"]) - when(call["answered_at"])).total_seconds()
        assert 2 <= talk <= 4 and call["disposition"] is None
        assert call["hangup_cause"] == "normal_clearing"


def test_leads_follow_their_calls(world: Sandbox, full: httpx.Client) -> None:
    running = running_ids(full)
    before = leads_by_phone(full, running)
    advance(world, 2 * 3600)
    after = leads_by_phone(full, running)
    calls: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for call in reversed(simulated_calls(full)):
        calls[call["to_number"]].append(call)
    assert calls
    for phone, lead in after.items():
        made, old = calls.get(phone, []), before[phone]
        if not made:
            assert lead == old
            continue
        last = made[-1]
        assert lead["attempts"] == old["attempts"] + len(made)
        assert lead["last_attempt_at"] == last["created_at"]
        assert lead["disposition_code"] == last["disposition"]
        assert lead["hangup_cause"] == last["hangup_cause"]
        expected = FINAL.get(last["disposition"] or "", "contacted")
        if last["hangup_cause"] == "unallocated_number":
            expected = "completed"
        assert lead["status"] == expected
        assert (lead["next_attempt_at"] is not None) == (expected in ("contacted", "callback"))
    phone = next(iter(calls))
    history = full.get(f"/v1/leads/{after[phone]['id']}/history").json()["data"]
    assert history[-1]["event"] == "call_attempt"
    assert history[-1]["detail"]["call_id"] == calls[phone][-1]["id"]


def test_due_callbacks_are_called_and_completed(world: Sandbox, full: httpx.Client) -> None:
    campaigns = {c["id"]: c["status"] for c in every(full, "/v1/campaigns")}
    pending = [cb for cid in campaigns
               for cb in every(full, "/v1/callbacks", campaign_id=cid, status="pending")]
    due = [cb for cb in pending if campaigns[cb["campaign_id"]] == "running"]
    held = [cb for cb in pending if campaigns[cb["campaign_id"]] == "paused"]
    assert due and held
    latest = max(when(cb["scheduled_at"]) for cb in due)
    body = advance(world, (latest - NOW).total_seconds() + 86400)
    assert body["simulated"]["callbacks_due"] >= len(due)
    calls = simulated_calls(full)
    for callback in due:
        by_id = {cb["id"]: cb for cb in every(full, "/v1/callbacks",
                                               campaign_id=callback["campaign_id"])}
        assert by_id[callback["id"]]["status"] == "completed"
        phone = full.get(f"/v1/leads/{callback['lead_id']}").json()["phone"]
        assert any(c["to_number"] == phone and c["created_at"] >= callback["scheduled_at"]
                   for c in calls)
    for callback in held:
        still = every(full, "/v1/callbacks", campaign_id=callback["campaign_id"],
                      status="pending")
        assert callback["id"] in {cb["id"] for cb in still}


@pytest.mark.parametrize("seconds", [0, 6 * 3600])
def test_nothing_happens_without_running_campaigns(world: Sandbox, full: httpx.Client,
                                                  seconds: int) -> None:
    for cid in running_ids(full):
        assert write(full, f"/v1/campaigns/{cid}/pause", key=f"p-{cid}").status_code == 200
    leads = every(full, "/v1/leads")
    newest = full.get("/v1/calls", params={"limit": 1}).json()["data"]
    body = advance(world, seconds)
    assert body["simulated"] == dict.fromkeys(COUNTERS, 0)
    assert full.get("/v1/calls", params={"limit": 1}).json()["data"] == newest
    assert every(full, "/v1/leads") == leads


def test_no_call_outside_calling_hours_or_to_a_listed_number(world: Sandbox,
                                                            full: httpx.Client) -> None:
    running = running_ids(full)
    fresh = [lead for cid in running
             for lead in every(full, "/v1/leads", campaign_id=cid, status="new")]
    listed = fresh[0]
    assert write(full, "/v1/dnc", {"phone": listed["phone"]}, key="dnc").status_code == 201
    body = advance(world, 36 * 3600)
    calls = simulated_calls(full)
    assert body["simulated"]["leads_screened_dnc"] == 1
    assert full.get(f"/v1/leads/{listed['id']}").json()["status"] == "dnc"
    assert all(c["to_number"] != listed["phone"] for c in calls)
    assert {8 <= local_hour(c["to_number"], c["created_at"]) < 21 for c in calls} == {True}
    assert len({local_hour(c["to_number"], c["created_at"]) for c in calls}) > 6
    numbers = sorted({c["to_number"] for c in calls})
    last: dict[str, dict[str, Any]] = {}
    for call in reversed(calls):
        last[call["to_number"]] = call
    for start in range(0, len(numbers), 100):
        checked = full.post("/v1/dnc/check", json={"phones": numbers[start:start + 100]})
        for result in checked.json()["data"]:
            if result["listed"]:
                assert last[result["phone"]]["disposition"] == "do_not_call"


def test_one_clients_simulation_is_invisible_to_another(world: Sandbox,
                                                       full: httpx.Client) -> None:
    assert running_ids(full)
    with client_for(world, KEYS["other"]) as other:
        for cid in running_ids(other):
            assert write(other, f"/v1/campaigns/{cid}/pause", key=cid).status_code == 200
        body = advance(world, 3600)
        assert body["datasets"]["client:acme/other"]["calls_placed"] == 0
        assert body["datasets"]["client:acme/full"]["calls_placed"] > 0
        assert simulated_calls(other) == []
        assert len(simulated_calls(full)) == body["datasets"]["client:acme/full"]["calls_placed"]


def test_dial_now_lead_is_called_within_its_window(world: Sandbox) -> None:
    with client_for(world, KEYS["sending"]) as sender:
        campaign = running_ids(sender)[0]
        added = write(sender, "/v1/leads", {"campaign_id": campaign, "phone": "+442079460999",
                                            "dial_now": True, "dial_within_seconds": 300})
        assert added.status_code == 200, added.text
        assert added.json()["dial_now"]["status"] == "queued"
        advance(world, 300)
        lead = sender.get(f"/v1/leads/{added.json()['lead_id']}").json()
    assert lead["attempts"] == 1
    assert START <= lead["last_attempt_at"] <= added.json()["dial_now"]["expires_at"]


def test_call_events_carry_the_contract_fields(world: Sandbox, full: httpx.Client) -> None:
    advance(world, 3600)
    calls = {c["id"]: c for c in simulated_calls(full)}
    completed = every(full, "/v1/webhook-events", type="call.completed")
    logged = every(full, "/v1/webhook-events", type="disposition.logged")
    assert {e["data"]["call_id"] for e in completed} == set(calls)
    for event in completed:
        data, call = event["data"], calls[event["data"]["call_id"]]
        assert set(data) == {"call_id", "direction", "status", "from", "to", "campaign_id",
                             "started_at", "answered_at", "ended_at", "duration_seconds",
                             "hangup_cause"}
        assert (data["from"], data["to"], data["started_at"], data["status"]) == (
            call["from_number"], call["to_number"], call["created_at"], call["status"])
        assert event["created_at"] == call["ended_at"]
    agent_logged = {i for i, c in calls.items() if c["status"] == "completed"}
    assert {e["data"]["call_id"] for e in logged} == agent_logged
    for event in logged:
        assert set(event["data"]) == {"call_id", "campaign_id", "lead_id", "disposition_code",
                                      "notes", "phone", "logged_at"}
        assert event["data"]["disposition_code"] == calls[event["data"]["call_id"]]["disposition"]


def test_a_click_to_call_ends_within_30_minutes_and_frees_its_agent(world: Sandbox) -> None:
    with client_for(world, KEYS["sending"]) as sender:
        call = {"to": "+442079460998", "agent_extension": "1001"}
        assert write(sender, "/v1/calls", call, key="c1").status_code == 201
        assert write(sender, "/v1/calls", call, key="c2").status_code == 409
        assert advance(world, 30 * 60 + 1)["simulated"]["click_to_calls_ended"] == 1
        assert write(sender, "/v1/calls", call, key="c3").status_code == 201


def test_thirty_days_finish_the_running_campaigns_quickly(world: Sandbox,
                                                          full: httpx.Client) -> None:
    running = running_ids(full)
    started = time.perf_counter()
    body = advance(world, 30 * 86400)
    assert time.perf_counter() - started < 3
    assert body["simulated"]["campaigns_completed"] == len(running)
    for cid in running:
        campaign = full.get(f"/v1/campaigns/{cid}").json()
        assert campaign["status"] == "completed"
        assert START < campaign["completed_at"] <= body["now"]
        statuses = {lead["status"] for lead in every(full, "/v1/leads", campaign_id=cid)}
        assert statuses <= {"completed", "dnc"}


def test_runs_are_reproducible(world: Sandbox, full: httpx.Client,
                               make_sandbox: Callable[..., Sandbox]) -> None:
    config = base_config()
    config["accounts"] = config["accounts"][:1]
    twin = make_sandbox(config)
    with client_for(twin, KEYS["full"]) as again:
        again.get("/v1/me")
        full.get("/v1/me")
        assert advance(world, 3600) == advance(twin, 3600)
        assert simulated_calls(full) == simulated_calls(again)


def test_a_resumed_campaign_dials_only_after_it_was_resumed(world: Sandbox,
                                                            full: httpx.Client) -> None:
    running = running_ids(full)
    for cid in running:
        assert write(full, f"/v1/campaigns/{cid}/pause", key=f"p-{cid}").status_code == 200
    advance(world, 3600)
    for cid in running:
        resumed = write(full, f"/v1/campaigns/{cid}/resume", key=f"r-{cid}")
        assert resumed.status_code == 200, resumed.text
    body = advance(world, 1800)
    calls = simulated_calls(full)
    assert len(calls) == body["simulated"]["calls_placed"] > 0
    assert min(c["created_at"] for c in calls) >= "2026-11-02T16:00:00.000Z"


def test_the_loop_leaves_a_manual_clock_to_the_admin_surface(world: Sandbox) -> None:
    asyncio.run(asyncio.wait_for(_simulation.simulation_loop(world.service), timeout=1))


def test_the_loop_moves_a_real_clock_interval_by_interval(
        make_sandbox: Callable[..., Sandbox], monkeypatch: pytest.MonkeyPatch) -> None:
    config = base_config()
    config["server"]["clock"] = "real"
    config["accounts"] = config["accounts"][:1]
    real = make_sandbox(config)
    seen: list[tuple[datetime, datetime]] = []
    mine = threading.get_ident()

    def record(service: Any, start: datetime, end: datetime) -> dict[str, dict[str, int]]:
        if threading.get_ident() != mine:  # the emulator's own loop, on its server's thread:
            return {}  # under load it wakes within the test's 0.3 s, and is not the loop run
        seen.append((start, end))
        if len(seen) == 1:
            raise RuntimeError("a failed run is logged, and the loop carries on")
        return {}

    monkeypatch.setattr(_simulation, "SIMULATION_STEP_SECONDS", 0.02)
    monkeypatch.setattr(_simulation, "simulate_all", record)

    async def run_a_while() -> None:
        loop = asyncio.create_task(_simulation.simulation_loop(real.service))
        await asyncio.sleep(0.3)
        loop.cancel()

    asyncio.run(run_a_while())
    assert len(seen) >= 3
    assert all(end > start for start, end in seen)
    assert all(later[0] == earlier[1] for earlier, later in pairwise(seen))


def test_the_dialers_calls_keep_the_hours_the_audit_judges(tmp_path: Path) -> None:
    """Every simulated call is inside the hours the compliance audit judges it by, in each
    zone of its number and by the law of its place (its lead's country or, without one,
    its number's): a lead of 807, which spans Toronto's zone and Winnipeg's, added to be
    dialled at once at 9:00 in Toronto is not called before 9:00 in Kenora, Canada's
    opening hour."""
    config = default_config(start_time=datetime.fromisoformat("2026-11-02T14:00:00+00:00"),
                            clock="manual")
    with Client.sandbox(config, cache_dir=tmp_path) as client:
        campaign = next(client.campaigns.list(status="paused")).id
        client.campaigns.resume(campaign)
        client.leads.create(campaign_id=campaign, phone="+18075550150", dial_now=True,
                            dial_within_seconds=3600,  # the guard refuses it: 8:00 in Kenora
                            override="the emulator's dialer is to wait for 9:00 in Kenora")
        placed = client.emulator.advance(3 * 3600).simulated["calls_placed"]
        calls = client.frames.calls(refresh="full", progress=False)
        leads = client.frames.leads(refresh="full", progress=False)
    calls = calls[calls["ended_at"] > pd.Timestamp("2026-11-02T14:00:00Z")]
    assert len(calls) == placed > 0
    kenora = calls[calls["to_number"] == "+18075550150"]
    assert len(kenora) == 1 and kenora["created_at"].iloc[0] >= pd.Timestamp("2026-11-02T15:00Z")
    report = audit(calls, leads=leads, as_of=calls["ended_at"].max())
    hours = report.findings[report.findings["rule"] == "calling_hours"]
    assert hours.empty, hours[["phone", "evidence"]].to_string()
