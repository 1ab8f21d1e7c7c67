"""The event store on its own: group commits, duplicates, the file, the frame, the exports."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import stat
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from webhook_servers import delivery, envelope

import dialkit.webhooks
from dialkit.frames import SCHEMAS
from dialkit.webhooks import EventStore, StoreError, events_frame, verify
from dialkit.webhooks._store import Stored, row_of

SECRET, CLOCK = "whsec_store_0123456789abcdef", 1_793_631_600


def verified(created_at: str = "2026-11-02T15:00:00.000Z") -> tuple[bytes, dialkit.webhooks.Event]:
    body, headers = delivery(envelope(created_at=created_at), SECRET, CLOCK)
    return body, verify(body, headers, SECRET, now=CLOCK)


def test_threads_adding_at_once_are_committed_and_counted(tmp_path: Path) -> None:
    events = [verified() for _ in range(200)]
    with EventStore(tmp_path / "e.sqlite") as store, ThreadPoolExecutor(16) as pool:
        results = list(pool.map(lambda e: store.add(e[1], e[0]), events + events[:50]))
    assert sum(r.duplicate for r in results) == sum(r.repeated for r in results) == 50
    frame = events_frame(tmp_path / "e.sqlite")
    assert len(frame) == 200 and frame["deliveries_seen"].sum() == 200
    assert frame["repeats"].sum() == 50


def test_the_file_is_owner_only_and_reopens(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    body, event = verified()
    with EventStore(path) as store:
        assert store.add(event, body).deliveries_seen == 1
        assert repr(store) == f"EventStore({str(path)!r}, synchronous='full')"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with EventStore(path, synchronous="normal") as again:
        assert again.add(event, body) == Stored(event.id, 1, repeated=True)
    with pytest.raises(StoreError, match="is closed"):
        again.add(event, body)
    with pytest.raises(ValueError, match="pass 'full' or 'normal'"):
        EventStore(path, synchronous="off")  # type: ignore[arg-type]


def test_the_frame_is_ordered_by_created_at_and_typed_when_empty(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite"
    late, early = verified("2026-11-02T16:00:00.000Z"), verified("2026-11-02T14:00:00+00:00")
    with EventStore(path) as store:
        assert events_frame(store).empty
        empty = events_frame(store)
        for body, event in (late, early):
            store.add(event, body)
    expected = {**SCHEMAS["webhook_events"].dtypes}
    assert dict(empty.dtypes.drop(["received_at", "deliveries_seen", "repeats"])) == expected
    assert list(events_frame(path)["id"]) == [early[1].id, late[1].id]
    with pytest.raises(StoreError, match="no event store at"):
        events_frame(tmp_path / "missing.sqlite")


def test_an_event_type_newer_than_the_contracts_keeps_its_name_in_the_frame(
        tmp_path: Path) -> None:
    body, headers = delivery(envelope(kind="call.transferred", data={"x": 1}), SECRET, CLOCK)
    known, event = verified()
    with EventStore(tmp_path / "e.sqlite") as store:
        store.add(verify(body, headers, SECRET, now=CLOCK), body)
        store.add(event, known)
    frame = events_frame(tmp_path / "e.sqlite")
    assert sorted(frame["type"].astype(str)) == ["call.transferred", "webhook.test"]
    assert "call.completed" in frame["type"].cat.categories  # the contract's kept as well


def test_stored_events_come_back_typed_oldest_first_to_run_handlers_again(
        tmp_path: Path) -> None:
    late, early = verified("2026-11-02T16:00:00.000Z"), verified("2026-11-02T14:00:00.000Z")
    with EventStore(tmp_path / "e.sqlite") as store:
        for body, event in (late, early, late):
            store.add(event, body)
        again = store.events()
    assert again == [early[1], late[1]]
    with pytest.raises(StoreError, match="is closed"):
        store.events()


def test_one_batch_counts_new_deliveries_and_repeats_in_order(tmp_path: Path) -> None:
    body, event = verified()
    moment = datetime(2026, 11, 2, 15, tzinfo=UTC)
    first, second = row_of(event, body, moment, "whd_a"), row_of(event, body, moment, "whd_b")
    unnamed = row_of(event, body, moment, None)
    with EventStore(tmp_path / "e.sqlite") as store:
        outcomes = store.write([first, first, second, unnamed, second, unnamed])
        later = store.write([first])
    assert [(o.deliveries_seen, o.repeated) for o in outcomes + later] == [
        (1, False), (1, True), (2, False), (3, False), (3, True), (4, False), (4, True)]
    frame = events_frame(tmp_path / "e.sqlite")
    assert (frame["deliveries_seen"][0], frame["repeats"][0]) == (4, 3)


def test_a_store_of_format_1_is_brought_up_to_date_when_opened(tmp_path: Path) -> None:
    """A store written before repeats were counted apart: its repeated delivery ids move
    from ``deliveries_seen`` to ``repeats``, by ``EventStore`` or by ``events_frame``."""
    body, event = verified()
    deliveries = [{"id": i, "received_at": "2026-11-02T15:00:00.000000+00:00"}
                  for i in ("whd_a", "whd_a", "whd_b", "whd_a")]
    for opener in (EventStore, events_frame):
        path = tmp_path / f"{opener.__name__}.sqlite"
        with contextlib.closing(sqlite3.connect(path)) as conn, conn:
            conn.execute("CREATE TABLE events (id TEXT PRIMARY KEY, type TEXT NOT NULL, "
                         "created_at TEXT NOT NULL, received_at TEXT NOT NULL, deliveries_seen "
                         "INTEGER NOT NULL, deliveries TEXT NOT NULL, body TEXT NOT NULL)")
            conn.execute("INSERT INTO events VALUES (?, 'webhook.test', ?, ?, 4, ?, ?)",
                         (event.id, deliveries[0]["received_at"], deliveries[0]["received_at"],
                          json.dumps(deliveries), body.decode()))
            conn.execute("PRAGMA user_version = 1")
        if opener is EventStore:
            EventStore(path).close()
        frame = events_frame(path)
        assert (frame["deliveries_seen"][0], frame["repeats"][0]) == (2, 2)
        assert [d["id"] for d in json.loads(frame["deliveries"][0])] == ["whd_a", "whd_b"]
        with contextlib.closing(sqlite3.connect(path)) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == 2


def test_a_sqlite_file_of_another_kind_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StoreError, match="cannot read the event store"):
        events_frame(path)
    with contextlib.closing(sqlite3.connect(path)) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]
