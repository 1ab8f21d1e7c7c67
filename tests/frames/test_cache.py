"""The Parquet cache behind ``client.frames``, against the emulator over real HTTP.

Incremental and full refreshes, the refresh modes and ``max_age``, resuming an
interrupted load (after a dropped connection, an error answer or a kernel
interrupt) and restarting it when its saved cursor expired, corrupt cache
files, concurrent loads from threads and processes, and the cache's layout:
private permissions, no key material on disk, ``info()`` and ``clear()``, and
one cache per key and service.

Requests are counted with the recording transport (a spy that forwards every
request to the emulator). Interruptions are real: a fault rule is armed in the
emulator just before the chosen page is requested, so the emulator itself
drops the connection or answers an error; a kernel interrupt is raised where a
user's Ctrl-C lands, inside the request.
"""

from __future__ import annotations

import math
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import orjson
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from client._recording import RecordingTransport, recording
from conftest import KEYS, add_fault, advance
from dialkit import Client
from dialkit.errors import ApiConnectionError, ServiceUnavailableError
from dialkit.frames import CacheMissError
from dialkit.sandbox import Sandbox
from receivers import wait_for

CALLS = "/v1/calls"
LEADS = "/v1/leads"
PAGE = 100
"""Rows per page of a frame load (the contract's largest ``limit``)."""
INBOUND = {"direction": "inbound"}
"""About a tenth of the calls: a frame of a few pages."""
EASTERN = "+12125550142"
"""New York: 10:00 local at the emulator's start (15:00 UTC), inside calling hours."""
LONDON_LEADS = [{"phone": f"+44207946{n:04d}", "full_name": f"Lead {n}"} for n in range(200)]
"""Fictional London numbers: 15:00 local at the emulator's start, inside dialling hours."""

ClientAs = Callable[..., Client]


# --- helpers -------------------------------------------------------------------------------


def gets(wire: RecordingTransport, path: str) -> int:
    """How many GET requests went to ``path``."""
    return len(wire.to(path, "GET"))


def reference_calls(client_as: ClientAs, tmp_path: Path,
                    **filters: Any) -> tuple[pd.DataFrame, int]:
    """A clean full load of the calls frame, in a cache of its own: (frame, requests)."""
    wire = RecordingTransport()
    clean = client_as("full", transport=wire, cache_dir=tmp_path / "reference")
    frame = clean.frames.calls(**filters, refresh="full", progress=False)
    return frame, gets(wire, CALLS)


def files_under(root: Path) -> Iterator[Path]:
    """Every file under ``root``, at any depth."""
    return (path for path in root.rglob("*") if path.is_file())


class Interrupting(RecordingTransport):
    """Records requests, and breaks a load at its ``at``-th GET of ``path``.

    ``how`` is ``"drop"`` or ``"error"`` (a real fault rule armed in the
    emulator just before that request, fired once) or ``"interrupt"`` (a
    ``KeyboardInterrupt`` raised as the request goes out, like Ctrl-C).
    """

    def __init__(self, sandbox: Sandbox, path: str, at: int, how: str) -> None:
        super().__init__()
        self.sandbox = sandbox
        self.path = path
        self.at = at
        self.how = how
        self.seen = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path == self.path:
            self.seen += 1
            if self.seen == self.at:
                if self.how == "interrupt":
                    raise KeyboardInterrupt
                rule: dict[str, Any] = {"kind": "drop"} if self.how == "drop" else {
                    "kind": "error", "status": 503, "code": "temporarily_unavailable"}
                add_fault(self.sandbox, path=self.path, method="GET", count=1, **rule)
        return super().handle_request(request)


RAISED: dict[str, type[BaseException]] = {
    "drop": ApiConnectionError, "error": ServiceUnavailableError, "interrupt": KeyboardInterrupt,
}


def interrupted(sandbox: Sandbox, client_as: ClientAs, at: int, how: str = "drop",
                path: str = CALLS, filters: dict[str, Any] | None = None,
                **client_options: Any) -> Client:
    """A client whose first load of ``path`` (calls or leads, with ``filters``) was broken at
    page ``at``: ``at - 1`` pages are saved."""
    wire = Interrupting(sandbox, path, at, how)
    broken = client_as("full", transport=wire, max_retries=0, **client_options)
    load = broken.frames.calls if path == CALLS else broken.frames.leads
    with pytest.raises(RAISED[how]):
        load(**(filters or {}), progress=False)
    assert wire.seen == at
    return broken


def ready_agent(sandbox: Sandbox, client: Client) -> str:
    """The extension of a ready agent of the ``full`` client's data set."""
    client.me()  # the data set is copied from the seeded world on the client's first request
    row = sandbox.service.store.row(
        "SELECT extension FROM agents WHERE dataset = 'client:acme/full' AND state = 'ready' "
        "ORDER BY extension")
    assert row is not None
    return str(row["extension"])


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


MOVED_TO = datetime(2026, 11, 20, 16, 30, tzinfo=UTC)


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


# --- corrupt cache -----------------------------------------------------------------------------


def _truncate(entry: Path) -> None:
    data = entry / "data.parquet"
    data.write_bytes(data.read_bytes()[: data.stat().st_size // 2])


def _overwrite_middle(entry: Path) -> None:
    data = entry / "data.parquet"
    raw = bytearray(data.read_bytes())
    middle = len(raw) // 2
    raw[middle:middle + 64] = bytes(byte ^ 0xFF for byte in raw[middle:middle + 64])
    data.write_bytes(bytes(raw))


def _overwrite_footer(entry: Path) -> None:
    data = entry / "data.parquet"
    raw = bytearray(data.read_bytes())
    raw[-200:-8] = b"\x00" * 192
    data.write_bytes(bytes(raw))


def _delete(entry: Path) -> None:
    (entry / "data.parquet").unlink()


def _empty(entry: Path) -> None:
    (entry / "data.parquet").write_bytes(b"")


def _data_of_another_entry(entry: Path) -> None:
    """A valid calls file of other filters (no rows), the manifest left as it was."""
    other = next(p for p in entry.parent.glob("calls-*") if p != entry)
    (entry / "data.parquet").write_bytes((other / "data.parquet").read_bytes())


def _garbage_manifest(entry: Path) -> None:
    (entry / "manifest.json").write_bytes(b"\x00\xffnot json {")


def _manifest_of_another_format(entry: Path) -> None:
    (entry / "manifest.json").write_text('{"format": 999, "resource": "calls", "bytes": 1}')


def _delete_manifest(entry: Path) -> None:
    (entry / "manifest.json").unlink()


def _data_of_another_frame(entry: Path) -> None:
    """The campaigns frame's file in place of the calls frame's, its size in the manifest."""
    other = next(entry.parent.glob("campaigns-*/data.parquet")).read_bytes()
    (entry / "data.parquet").write_bytes(other)
    manifest = orjson.loads((entry / "manifest.json").read_bytes())
    (entry / "manifest.json").write_bytes(orjson.dumps({**manifest, "bytes": len(other)}))


CORRUPTIONS = [_truncate, _overwrite_middle, _overwrite_footer, _delete, _empty,
               _data_of_another_entry, _garbage_manifest, _manifest_of_another_format,
               _delete_manifest, _data_of_another_frame]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=[c.__name__[1:] for c in CORRUPTIONS])
def test_a_corrupt_cache_is_fetched_again_never_returned(
        client_as: ClientAs, corrupt: Callable[[Path], None]) -> None:
    client, wire = recording(client_as)
    draft = client.frames.campaigns(status="draft", progress=False)["id"].iloc[0]
    assert client.frames.calls(campaign_id=draft, progress=False).empty
    sent = gets(wire, CALLS)
    clean = client.frames.calls(**INBOUND, progress=False)
    pages = gets(wire, CALLS) - sent
    assert pages > 1
    corrupt(client.cache.entry("calls", INBOUND).path)

    with pytest.raises(CacheMissError):
        client.frames.calls(**INBOUND, refresh="offline")
    frame = client.frames.calls(**INBOUND, progress=False)
    assert gets(wire, CALLS) == sent + 2 * pages
    assert_frame_equal(frame, clean)
    assert_frame_equal(client.frames.calls(**INBOUND, refresh="offline"), clean)  # repaired
    assert gets(wire, CALLS) == sent + 2 * pages


def test_bytes_changed_anywhere_in_the_file_never_come_back_as_data(
        client_as: ClientAs) -> None:
    client, wire = recording(client_as)
    clean = client.frames.calls(**INBOUND, progress=False)
    data = client.cache.entry("calls", INBOUND).data_path
    original = data.read_bytes()
    sent = len(wire.sent)
    refused = 0
    for n in range(48):  # the same size, four bytes changed, at 48 places from head to footer
        at = 4 + (len(original) - 16) * n // 48
        data.write_bytes(original[:at] + bytes(b ^ 0x5A for b in original[at:at + 4])
                         + original[at + 4:])
        try:
            frame = client.frames.calls(**INBOUND, refresh="offline")
        except CacheMissError:
            refused += 1
        else:  # a change the reader does not depend on (statistics, padding) is harmless
            assert_frame_equal(frame, clean, obj=f"the frame read with bytes {at}-{at + 3} changed")
    assert refused >= 40
    assert len(wire.sent) == sent


# --- concurrent loads --------------------------------------------------------------------------


def test_threads_loading_one_frame_at_once_share_one_load(client_as: ClientAs,
                                                          tmp_path: Path) -> None:
    wire = RecordingTransport()
    clients = [client_as("full", transport=wire) for _ in range(4)]
    start = threading.Barrier(len(clients))

    def load(client: Client) -> pd.DataFrame:
        start.wait()
        return client.frames.calls(progress=False)

    with ThreadPoolExecutor(len(clients)) as pool:
        frames = list(pool.map(load, clients))
    clean, pages = reference_calls(client_as, tmp_path)
    for frame in frames:
        assert_frame_equal(frame, clean)
    assert gets(wire, CALLS) == pages  # one load; the others waited and read the cache
    entry = clients[0].cache.entry("calls", {}).path
    assert sorted(p.name for p in entry.iterdir()) in (
        [".lock", "data.parquet", "manifest.json"], ["data.parquet", "manifest.json"])


SCRIPT = """
import sys
from dialkit import Client

with Client(rate_limit=None) as client:
    client.frames.calls(progress=False).to_pickle(sys.argv[1])
"""


def test_processes_loading_one_frame_at_once_get_the_same_frame(
        sandbox: Sandbox, client_as: ClientAs, tmp_path: Path) -> None:
    env = {**os.environ, "DIALKIT_API_KEY": KEYS["full"], "DIALKIT_BASE_URL": sandbox.base_url}
    outputs = [tmp_path / f"frame-{n}.pkl" for n in range(2)]
    running = [subprocess.Popen([sys.executable, "-c", SCRIPT, str(out)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for out in outputs]
    for process in running:
        _, err = process.communicate(timeout=60)
        assert process.returncode == 0, err.decode()

    clean, _ = reference_calls(client_as, tmp_path)
    for out in outputs:
        assert_frame_equal(pd.read_pickle(out), clean)
    client, wire = recording(client_as)
    assert_frame_equal(client.frames.calls(refresh="offline"), clean)
    assert wire.sent == []
    entry = client.cache.entry("calls", {}).path
    leftovers = [p.name for p in entry.iterdir() if p.name not in (".lock", "data.parquet",
                                                                   "manifest.json")]
    assert leftovers == []


# --- security and layout -----------------------------------------------------------------------


def test_every_cache_folder_and_file_is_private(sandbox: Sandbox, client_as: ClientAs,
                                                tmp_path: Path) -> None:
    made = tmp_path / "made"
    root = made / "deeper" / "cache"
    umask = os.umask(0)  # modes must be set by the cache, not inherited from a strict umask
    try:
        client = client_as("full", cache_dir=root)
        client.frames.calls(direction="inbound", progress=False)
        client.frames.campaigns(progress=False)
        interrupted(sandbox, client_as, 3, "drop", path=LEADS, cache_dir=root)
    finally:
        os.umask(umask)
    partial = client.cache.entry("leads", {}).path / "partial"
    assert len(list(partial.iterdir())) >= 3  # state and two pages are on disk too
    folders = [made, *(p for p in made.rglob("*") if p.is_dir())]
    assert {root, client.cache.path, partial} <= set(folders)
    for folder in folders:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    files = list(files_under(made))
    assert len(files) >= 7
    for file in files:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file


@pytest.mark.parametrize("role", ["full", "full_live", "sending"])
def test_no_key_material_is_written_to_the_cache(client_as: ClientAs, sandbox: Sandbox,
                                                 role: str, tmp_path: Path) -> None:
    client = client_as(role, cache_dir=tmp_path / "cache")
    client.frames.campaigns(progress=False)
    client.frames.calls(direction="inbound", progress=False)
    interrupted(sandbox, client_as, 2, "drop", cache_dir=tmp_path / "cache")  # the full key
    files = list(files_under(tmp_path / "cache"))
    assert any(file.parent.name == "partial" for file in files)
    assert any(file.name == "manifest.json" for file in files)
    for key in (KEYS[role], KEYS["full"]):
        secret = key.rsplit("_", 1)[1]
        for file in files:
            content = file.read_bytes()
            for material in (key, secret, secret[:12], secret[-12:]):
                assert material.encode() not in content, (file, material[:4])
        assert secret not in str(client.cache.path) and secret not in repr(client.cache)


def test_info_lists_every_cached_frame_and_its_file_reads_back(client_as: ClientAs) -> None:
    client = client_as("full")
    assert client.cache.info().empty
    loaded_from = datetime.now(UTC)
    frames = {
        ("calls", '{"direction":"inbound"}'): client.frames.calls(direction="inbound",
                                                                  progress=False),
        ("leads", '{"status":"new"}'): client.frames.leads(status="new", progress=False),
        ("campaigns", "{}"): client.frames.campaigns(progress=False),
    }
    info = client.cache.info()
    assert list(info.columns) == ["resource", "filters", "rows", "bytes", "fetched_at", "path"]
    rows = {(row.resource, orjson.dumps(row.filters).decode()): row
            for row in info.itertuples(index=False)}
    assert set(rows) == set(frames)
    for key, frame in frames.items():
        row = rows[key]
        assert row.rows == len(frame)
        assert row.bytes == Path(row.path).stat().st_size
        assert loaded_from <= row.fetched_at <= datetime.now(UTC)
        assert Path(row.path).parent.parent == client.cache.path
        assert_frame_equal(pd.read_parquet(row.path), frame)


def test_clear_removes_only_the_named_resource(sandbox: Sandbox, client_as: ClientAs) -> None:
    client = client_as("full")
    campaigns = client.frames.campaigns(progress=False)
    client.frames.calls(direction="inbound", progress=False)
    client.frames.calls(campaign_id=campaigns["id"].iloc[0], progress=False)
    calls_folders = sorted(client.cache.path.glob("calls-*"))
    assert len(calls_folders) == 2

    assert client.cache.clear("calls") == 2
    assert list(client.cache.info()["resource"]) == ["campaigns"]
    assert not any(folder.exists() for folder in calls_folders)
    with pytest.raises(CacheMissError):
        client.frames.calls(direction="inbound", refresh="offline")
    assert_frame_equal(client.frames.campaigns(refresh="offline"), campaigns)
    assert client.cache.clear("calls") == 0
    assert client.cache.clear() == 1
    assert client.cache.info().empty


def test_clear_also_forgets_an_interrupted_load(sandbox: Sandbox, client_as: ClientAs,
                                                tmp_path: Path) -> None:
    broken = interrupted(sandbox, client_as, 3, "drop", filters=INBOUND)
    partial = broken.cache.entry("calls", INBOUND).path / "partial"
    assert partial.exists()
    broken.cache.clear("calls")
    assert not partial.exists()  # the saved pages hold personal data too

    again, wire = recording(client_as)
    frame = again.frames.calls(**INBOUND, progress=False)
    clean, pages = reference_calls(client_as, tmp_path, **INBOUND)
    assert gets(wire, CALLS) == pages  # started from the top, nothing resumed
    assert_frame_equal(frame, clean)


@pytest.mark.parametrize(("role", "base_url"), [
    ("other", None), ("full_live", None), ("sending", None), ("full", "http://127.0.0.1:9"),
], ids=["another-client", "live-key-of-the-client", "another-key-of-the-client",
        "another-service"])
def test_two_keys_or_services_never_share_an_entry(client_as: ClientAs, role: str,
                                                   base_url: str | None) -> None:
    first = client_as("full")
    first.frames.calls(**INBOUND, progress=False)
    first.frames.leads(progress=False)
    with ExitStack() as stack:
        second = client_as(role) if base_url is None else stack.enter_context(
            Client(KEYS[role], base_url=base_url, rate_limit=None, max_retries=0))
        assert_nothing_shared(first, second)


def assert_nothing_shared(first: Client, second: Client) -> None:
    """``second`` sees none of the entries ``first`` cached, and clearing its cache keeps them."""
    assert second.cache.path != first.cache.path
    assert second.cache.path.parent == first.cache.path.parent
    assert second.cache.info().empty
    with pytest.raises(CacheMissError):
        second.frames.calls(**INBOUND, refresh="offline")
    with pytest.raises(CacheMissError):
        second.frames.leads(refresh="offline")
    assert second.cache.clear() == 0
    assert len(first.cache.info()) == 2
