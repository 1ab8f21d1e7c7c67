"""Refreshing cached frames, against the emulator over real HTTP.

Incremental and full refreshes, the refresh modes and ``max_age``, resuming an
interrupted load (after a dropped connection, an error answer or a kernel
interrupt) and restarting it when its saved cursor expired. Requests are
counted with the recording transport (a spy that forwards every request to the
emulator). Interruptions are real: a fault rule is armed in the emulator just
before the chosen page is requested, or a kernel interrupt is raised where a
user's Ctrl-C lands, inside the request.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from client._recording import recording
from conftest import advance
from dialkit import Client
from dialkit.errors import ApiConnectionError
from dialkit.frames import CacheMissError
from dialkit.frames._cache import RESUME_WINDOW
from dialkit.sandbox import Sandbox
from receivers import wait_for

from ._cache_helpers import (
    CALLS,
    EASTERN,
    INBOUND,
    LEADS,
    LONDON_LEADS,
    PAGE,
    ClientAs,
    Interrupting,
    gets,
    interrupted,
    ready_agent,
    reference_calls,
)

# --- incremental refresh -------------------------------------------------------------------


@pytest.mark.parametrize(("options", "busy"), [
    ({"refresh": "incremental"}, True),
    ({"refresh": "auto", "max_age": 0}, True),
    ({"refresh": "auto", "max_age": timedelta(0)}, False),
], ids=["incremental", "auto-stale", "nothing-new"])
def test_an_incremental_refresh_fetches_only_the_new_pages(
        sandbox: Sandbox, client_as: ClientAs, options: dict[str, Any], busy: bool) -> None:
    client, wire = recording(client_as)
    campaign = next(client.campaigns.list(status="paused")).id
    if busy:  # 200 leads to dial, so the dialer adds a few pages of calls in two hours
        assert client.leads.import_batch(campaign, LONDON_LEADS).summary.accepted == 200
    started = client_as("sending").calls.create(to=EASTERN,
                                                agent_extension=ready_agent(sandbox, client))
    assert started.call_id is not None
    before = client.frames.calls(progress=False)
    assert before.set_index("id").at[started.call_id, "status"] == "dialing"
    if busy:
        client.campaigns.resume(campaign)
        advance(sandbox, 2 * 3600)

    sent = gets(wire, CALLS)
    after = client.frames.calls(progress=False, **options)
    requests = gets(wire, CALLS) - sent

    full = client.frames.calls(refresh="full", progress=False)
    assert_frame_equal(after, full)
    new = len(full) - len(before)
    assert set(before["id"]) <= set(full["id"])
    assert new > 2 * PAGE if busy else new == 0
    assert 1 <= requests <= math.ceil(new / PAGE) + 2
    assert requests < gets(wire, CALLS) - sent - requests  # far fewer than the full reload
    # the click-to-call was still dialling when first cached: the newer copy won (or, with
    # nothing new, the record is what the service says now)
    ended = after.set_index("id").loc[started.call_id]
    assert (ended["status"] != "dialing") if busy else ended["status"] == "dialing"
    assert after["id"].is_unique
    assert_frame_equal(client.frames.calls(refresh="offline"), full)


def due_deliveries(sandbox: Sandbox) -> int:
    """Webhook deliveries the emulator's delivery worker has yet to attempt (service clock)."""
    row = sandbox.service.store.row(
        "SELECT count(*) AS n FROM webhook_deliveries WHERE status IN ('pending', "
        "'retry_scheduled') AND next_attempt_at <= ?", (sandbox.service.clock.stamp(),))
    assert row is not None
    return int(row["n"])


def test_an_incremental_refresh_updates_every_record_within_the_overlap(
        sandbox: Sandbox, client_as: ClientAs) -> None:
    """Webhook events change for hours (their deliveries are retried): every event younger
    than the newest cached one minus 6 h is fetched again, not only the first page's."""
    client = client_as("full")
    client.webhooks.create(url="http://127.0.0.1:9/refused", events=["call.completed"])
    campaign = next(client.campaigns.list(status="paused")).id
    client.leads.import_batch(campaign, LONDON_LEADS)
    client.campaigns.resume(campaign)
    advance(sandbox, 3600)  # calls, their events, and a first failed delivery of each
    wait_for(lambda: due_deliveries(sandbox) == 0, timeout=20)
    before = client.frames.webhook_events(progress=False)
    advance(sandbox, 1800)  # newer events, and a second failed attempt of the older ones
    wait_for(lambda: due_deliveries(sandbox) == 0, timeout=20)

    after = client.frames.webhook_events(refresh="incremental", progress=False)
    full = client.frames.webhook_events(refresh="full", progress=False)
    assert_frame_equal(after, full)
    old = before.set_index("id")["deliveries"]
    changed = (old != after.set_index("id")["deliveries"].loc[old.index]).sum()
    assert changed > PAGE  # beyond the first page that reaches the cached records
    assert len(full) - len(before) < PAGE


# --- full refresh for records that change at any time ---------------------------------------


@dataclass(frozen=True)
class Mutable:
    """A frame whose records change after creation, and one change made through the client."""

    name: str
    resource: str
    path: str
    target: Callable[[Client], tuple[dict[str, Any], str]]
    """The frame's filters and the id of a record to change."""
    change: Callable[[Client, str], tuple[str, Any] | None]
    """Make the change; the column that changed and its new value, or ``None`` when the
    record has left the filtered list."""


def _lead(client: Client) -> tuple[dict[str, Any], str]:
    return {}, next(client.leads.list(limit=1)).id


def _rename(client: Client, lead_id: str) -> tuple[str, Any]:
    client.leads.update(lead_id, full_name="Renamed By The Cache Test")
    return "full_name", "Renamed By The Cache Test"


def _pending_callback(client: Client) -> tuple[dict[str, Any], str]:
    for campaign in client.campaigns.list():
        for callback in client.callbacks.list(campaign.id, status="pending"):
            return {"campaign_id": campaign.id}, callback.id
    raise AssertionError("the seeded world has a pending callback")


def _pending_callbacks(client: Client) -> tuple[dict[str, Any], str]:
    filters, callback = _pending_callback(client)
    return {**filters, "status": "pending"}, callback


def _cancel_callback(client: Client, callback_id: str) -> None:
    client.callbacks.cancel(callback_id)


MOVED_TO = datetime(2026, 11, 20, 18, 30, tzinfo=UTC)  # 10:30 in Vancouver: lawful


def _move(client: Client, callback_id: str) -> tuple[str, Any]:
    client.callbacks.reschedule(callback_id, scheduled_at=MOVED_TO)
    return "scheduled_at", pd.Timestamp(MOVED_TO)


def _open_appointment(client: Client) -> tuple[dict[str, Any], str]:
    for appointment in client.appointments.list():
        if appointment.status in ("scheduled", "confirmed"):
            return {}, appointment.id
    raise AssertionError("the seeded world has a scheduled appointment")


def _cancel(client: Client, appointment_id: str) -> tuple[str, Any]:
    client.appointments.cancel(appointment_id)
    return "status", "cancelled"


def _running(client: Client) -> tuple[dict[str, Any], str]:
    return {}, next(client.campaigns.list(status="running")).id


def _pause(client: Client, campaign_id: str) -> tuple[str, Any]:
    client.campaigns.pause(campaign_id)
    return "status", "paused"


MUTABLE = [
    Mutable("leads", "leads", LEADS, _lead, _rename),
    Mutable("callbacks", "callbacks", "/v1/callbacks", _pending_callback, _move),
    Mutable("pending-callbacks", "callbacks", "/v1/callbacks", _pending_callbacks,
            _cancel_callback),
    Mutable("appointments", "appointments", "/v1/appointments", _open_appointment, _cancel),
    Mutable("campaigns", "campaigns", "/v1/campaigns", _running, _pause),
]


@pytest.mark.parametrize("options", [{"refresh": "auto", "max_age": 0},
                                     {"refresh": "incremental"}], ids=["auto-stale", "incremental"])
@pytest.mark.parametrize("case", MUTABLE, ids=[case.name for case in MUTABLE])
def test_a_stale_frame_of_changing_records_is_reloaded_in_full(
        client_as: ClientAs, case: Mutable, options: dict[str, Any]) -> None:
    client, wire = recording(client_as)
    filters, record = case.target(client)
    load = getattr(client.frames, case.resource)
    sent = gets(wire, case.path)
    before = load(**filters, progress=False)
    pages = gets(wire, case.path) - sent
    assert pages == math.ceil(len(before) / PAGE) >= 1
    changed = case.change(client, record)
    if changed is not None:
        assert before.set_index("id").at[record, changed[0]] != changed[1]

    sent = gets(wire, case.path)
    after = load(**filters, progress=False, **options)
    assert gets(wire, case.path) - sent == pages
    if changed is None:  # the record left the filtered list: the refresh drops it
        assert record in set(before["id"]) and record not in set(after["id"])
    else:
        assert after.set_index("id").at[record, changed[0]] == changed[1]
    assert_frame_equal(after, load(**filters, refresh="full", progress=False))


# --- refresh modes and max_age ---------------------------------------------------------------


@pytest.mark.parametrize(("resource", "path", "filters", "options", "network"), [
    ("leads", LEADS, {}, {}, False),
    ("leads", LEADS, {}, {"refresh": "auto", "max_age": 3600}, False),
    ("leads", LEADS, {}, {"max_age": timedelta(minutes=5)}, False),
    ("leads", LEADS, {}, {"refresh": "offline"}, False),
    ("leads", LEADS, {}, {"refresh": "offline", "max_age": 0}, False),
    ("calls", CALLS, INBOUND, {"refresh": "offline", "max_age": 0}, False),
    ("leads", LEADS, {}, {"refresh": "full"}, True),
    ("leads", LEADS, {}, {"refresh": "full", "max_age": timedelta(days=1)}, True),
    ("calls", CALLS, INBOUND, {"refresh": "full"}, True),
    ("leads", LEADS, {}, {"refresh": "auto", "max_age": 0}, True),
])
def test_refresh_modes_on_a_cached_frame(client_as: ClientAs, resource: str, path: str,
                                         filters: dict[str, Any], options: dict[str, Any],
                                         network: bool) -> None:
    client, wire = recording(client_as)
    load = getattr(client.frames, resource)
    first = load(**filters, progress=False)
    pages = gets(wire, path)
    assert pages == math.ceil(len(first) / PAGE) > 1

    again = load(**filters, progress=False, **options)
    assert gets(wire, path) - pages == (pages if network else 0)
    assert len(wire.sent) == pages + (pages if network else 0)  # nothing else was asked
    assert_frame_equal(again, first)


@pytest.mark.parametrize("load", [
    lambda client: client.frames.calls(refresh="offline"),
    lambda client: client.frames.calls(direction="inbound", refresh="offline"),
    lambda client: client.frames.leads(refresh="offline", max_age=10**9),
    lambda client: client.frames.callbacks(["cmp_a", "cmp_b"], refresh="offline"),
], ids=["calls", "calls-inbound", "leads", "callbacks-partitions"])
def test_offline_without_a_cached_frame_raises_without_a_request(
        client_as: ClientAs, load: Callable[[Client], pd.DataFrame]) -> None:
    client, wire = recording(client_as)
    client.frames.campaigns(progress=False)  # another entry is no substitute
    sent = len(wire.sent)
    with pytest.raises(CacheMissError):
        load(client)
    assert len(wire.sent) == sent


# --- resume ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("how", "at", "filters"), [
    ("drop", 2, INBOUND), ("error", 3, INBOUND), ("interrupt", 4, INBOUND), ("drop", 30, {}),
], ids=["drop-2nd-page", "error-3rd-page", "interrupt-last-page", "drop-30th-page"])
def test_an_interrupted_load_resumes_from_its_last_saved_page(
        sandbox: Sandbox, client_as: ClientAs, tmp_path: Path, how: str, at: int,
        filters: dict[str, Any]) -> None:
    clean, pages = reference_calls(client_as, tmp_path, **filters)
    assert pages >= at
    broken = interrupted(sandbox, client_as, at, how, filters=filters)
    partial = broken.cache.entry("calls", filters).path / "partial"
    assert len(list(partial.glob("*.parquet"))) == at - 1
    with pytest.raises(CacheMissError):  # the pages of a load in progress are not a frame
        broken.frames.calls(**filters, refresh="offline")

    again, wire = recording(client_as)  # a new client, as after a kernel restart
    resumed = again.frames.calls(**filters, progress=False)
    assert gets(wire, CALLS) == pages - (at - 1)
    assert_frame_equal(resumed, clean)
    assert not partial.exists()
    assert_frame_equal(again.frames.calls(**filters, refresh="offline"), clean)


def test_a_resume_whose_saved_cursor_expired_starts_again_from_the_top(
        sandbox: Sandbox, client_as: ClientAs, tmp_path: Path) -> None:
    interrupted(sandbox, client_as, 6, "drop")
    advance(sandbox, 25 * 3600)  # cursors expire after 24 h of service time; new calls arrive

    again, wire = recording(client_as)
    frame = again.frames.calls(progress=False)
    statuses = [sent.status for sent in wire.to(CALLS, "GET")]
    assert statuses[0] == 400  # the saved cursor: invalid_cursor
    assert set(statuses[1:]) == {200}
    clean, pages = reference_calls(client_as, tmp_path)
    assert len(statuses) == 1 + pages
    assert frame["id"].is_unique
    assert_frame_equal(frame, clean)
    assert not (again.cache.entry("calls", {}).path / "partial").exists()


def test_a_corrupt_saved_page_makes_the_load_start_again(
        sandbox: Sandbox, client_as: ClientAs, tmp_path: Path) -> None:
    broken = interrupted(sandbox, client_as, 4, "error", filters=INBOUND)
    chunk = sorted((broken.cache.entry("calls", INBOUND).path / "partial").glob("*.parquet"))[1]
    chunk.write_bytes(chunk.read_bytes()[: chunk.stat().st_size // 2])

    again, wire = recording(client_as)
    frame = again.frames.calls(**INBOUND, progress=False)
    clean, pages = reference_calls(client_as, tmp_path, **INBOUND)
    assert gets(wire, CALLS) == pages
    assert_frame_equal(frame, clean)


# --- what a resume may return ------------------------------------------------------------------


def test_a_full_refresh_never_returns_pages_read_before_it(sandbox: Sandbox,
                                                           client_as: ClientAs) -> None:
    wire = Interrupting(sandbox, LEADS, 3, "drop")
    broken = client_as("full", transport=wire, max_retries=0)
    with pytest.raises(ApiConnectionError):  # killed half-way: two pages are saved
        broken.frames.leads(refresh="full", progress=False)
    newest = next(broken.leads.list())  # on the first, saved, page
    broken.leads.update(newest.id, full_name="Renamed After The Crash")

    again, wire = recording(client_as)
    frame = again.frames.leads(refresh="full", progress=False)
    assert frame.set_index("id").loc[newest.id, "full_name"] == "Renamed After The Crash"
    assert gets(wire, LEADS) == math.ceil(len(frame) / PAGE)  # every page read again


def _started_at(client: Client, resource: str, filters: dict[str, Any]) -> datetime:
    state = orjson.loads((client.cache.entry(resource, filters).path / "partial"
                          / "state.json").read_bytes())
    return datetime.fromisoformat(state["started_at"])


def test_a_resumed_frame_is_as_old_as_its_first_page(sandbox: Sandbox,
                                                     client_as: ClientAs) -> None:
    broken = interrupted(sandbox, client_as, 3, "drop", filters=INBOUND)
    started = _started_at(broken, "calls", INBOUND)

    again, _ = recording(client_as)
    again.frames.calls(**INBOUND, progress=False)
    fetched = again.cache.info().set_index("resource").loc["calls", "fetched_at"]
    assert fetched.to_pydatetime() == started


def test_pages_older_than_the_resume_window_are_read_again(sandbox: Sandbox,
                                                           client_as: ClientAs) -> None:
    broken = interrupted(sandbox, client_as, 3, "drop", filters=INBOUND)
    state_file = broken.cache.entry("calls", INBOUND).path / "partial" / "state.json"
    state = orjson.loads(state_file.read_bytes())
    state["started_at"] = (datetime.now(UTC) - RESUME_WINDOW - timedelta(seconds=1)).isoformat()
    state_file.write_bytes(orjson.dumps(state))

    again, wire = recording(client_as)
    frame = again.frames.calls(**INBOUND, progress=False)
    assert gets(wire, CALLS) == math.ceil(len(frame) / PAGE)
    fetched = again.cache.info().set_index("resource").loc["calls", "fetched_at"]
    assert datetime.now(UTC) - fetched.to_pydatetime() < timedelta(minutes=1)


# --- temporary files -------------------------------------------------------------------------

LEFT_BY_A_KILL = [".data.parquet.k9x2", ".manifest.json.a1b2", "partial/.000003.parquet.zz",
                  "partial/.state.json.q7"]


@pytest.mark.parametrize("refresh", ["auto", "full", "offline"])
def test_temporary_files_left_by_a_kill_are_removed_by_the_next_load(
        sandbox: Sandbox, client_as: ClientAs, refresh: str) -> None:
    client, _ = recording(client_as)
    client.frames.calls(**INBOUND, progress=False)
    entry = client.cache.entry("calls", INBOUND).path
    (entry / "partial").mkdir(mode=0o700)
    for name in [*LEFT_BY_A_KILL, "partial/notes.txt"]:
        (entry / name).write_bytes(b"half of a file")

    client.frames.calls(**INBOUND, refresh=refresh, progress=False)
    assert not [name for name in LEFT_BY_A_KILL if (entry / name).exists()]
    assert (entry / "partial" / "notes.txt").exists() or refresh == "full"


def test_new_leads_are_added_to_the_cached_ones_until_a_week_after_the_whole_read(
        client_as: ClientAs) -> None:
    """``refresh="new"`` (what the month-end audit asks, issue 62): one page for a lead
    another client created since, the cached leads as they were read (its rename since
    unseen), and once the last whole read is a week old, the whole list again, the rename
    with it."""
    client, wire = recording(client_as)
    before = client.frames.leads(progress=False)
    oldest = before["id"].iloc[-1]
    other = client_as("full")  # another client's writes: this one's own make its cache stale
    other.leads.update(oldest, full_name="Renamed After The Read")
    paused = next(other.campaigns.list(status="paused")).id
    added = other.leads.create(campaign_id=paused, phone="+442079460577").lead_id

    sent = gets(wire, LEADS)
    after = client.frames.leads(refresh="new", progress=False)
    assert gets(wire, LEADS) - sent == 1
    assert set(after["id"]) == {*before["id"], added}
    assert after.set_index("id").at[oldest, "full_name"] == before["full_name"].iloc[-1]

    manifest = client.cache.entry("leads", {}).path / "manifest.json"
    facts = orjson.loads(manifest.read_bytes())
    week_ago = datetime.fromisoformat(facts["whole_at"]) - timedelta(days=7, minutes=1)
    manifest.write_bytes(orjson.dumps({**facts, "whole_at": week_ago.isoformat()}))
    sent = gets(wire, LEADS)
    again = client.frames.leads(refresh="new", progress=False)
    assert gets(wire, LEADS) - sent == math.ceil(len(again) / PAGE)
    assert again.set_index("id").at[oldest, "full_name"] == "Renamed After The Read"
    assert_frame_equal(again, client.frames.leads(refresh="full", progress=False))


@pytest.mark.parametrize("case", MUTABLE, ids=[case.name for case in MUTABLE])
def test_the_clients_own_write_makes_its_cached_frame_stale_at_once(
        client_as: ClientAs, case: Mutable) -> None:
    """A notebook that moved a callback or renamed a lead sees it in the next load, not
    an hour later when the cached frame ages (issue 62)."""
    client, _ = recording(client_as)
    filters, record = case.target(client)
    load = getattr(client.frames, case.resource)
    load(**filters, progress=False)
    changed = case.change(client, record)
    after = load(**filters, progress=False)  # "auto", within max_age
    if changed is None:
        assert record not in set(after["id"])
    else:
        assert after.set_index("id").at[record, changed[0]] == changed[1]
    assert_frame_equal(after, load(**filters, refresh="full", progress=False))
    if case.resource == "leads":  # "new" reads whole again: the write may be to any lead
        assert_frame_equal(load(**filters, refresh="new", progress=False), after)
