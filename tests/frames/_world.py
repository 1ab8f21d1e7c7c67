"""What the frame tests share: a recorded client, data the seeded world lacks, and checks.

``World`` wraps a client of the session emulator whose requests are recorded,
so a test can tell a load from the network (requests sent) from one served by
the cache (none). Its ``add_*`` methods create what the seeded world has none
of (SMS, webhook events) or too little of (rows with null fields).
``COLUMNS`` is each frame's columns as the contract describes them, written
out independently of ``dialkit.frames.SCHEMAS``, and ``assert_schema`` and
``assert_matches_api`` compare frames against it and against the API's JSON.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime
from typing import Any, TypeVar

import pandas as pd
import pyarrow as pa

from client._recording import RecordingTransport
from conftest import advance
from dialkit import Client
from dialkit.frames import SCHEMAS
from dialkit.sandbox import Sandbox
from receivers import Receiver, wait_for

T = TypeVar("T")

EASTERN = "+12125550142"
"""New York: 10:00 local at the emulator's start, inside calling hours."""

UNREACHABLE = "+12125550999"
"""An SMS to a number ending in 999 ends ``failed`` with ``error_code`` ``unreachable``."""

PAGE = 100
"""The page size the frames load with (the contract's maximum)."""

CATEGORIES: Mapping[str, list[str]] = {
    "direction": ["inbound", "outbound"],
    "lead_status": ["new", "contacted", "callback", "dnc", "completed"],
    "campaign_status": ["draft", "ready", "running", "paused", "completed"],
    "callback_status": ["pending", "completed", "cancelled"],
    "event_type": ["call.completed", "ai_call.completed", "disposition.logged",
                   "appointment.booked", "appointment.moved", "appointment.cancelled",
                   "webhook.test"],
}
"""The contract's closed value sets, in the contract's order."""


def _columns(spec: str) -> list[tuple[str, str]]:
    """``"id:s created_at:t"`` as ``[("id", "s"), ("created_at", "t")]``."""
    return [(name, kind) for name, kind in (part.split(":") for part in spec.split())]


COLUMNS: Mapping[str, list[tuple[str, str]]] = {
    "calls": _columns(
        "id:s direction:direction from_number:s to_number:s status:s created_at:t "
        "answered_at:t ended_at:t duration_seconds:f campaign_id:s disposition:s "
        "hangup_cause:s agent_joined_at:t"),
    "leads": _columns(
        "id:s campaign_id:s external_id:s phone:s full_name:s email:s status:lead_status "
        "attempts:i custom_fields:j last_attempt_at:t next_attempt_at:t disposition_code:s "
        "hangup_cause:s created_at:t updated_at:t"),
    "campaigns": _columns(
        "id:s name:s status:campaign_status dialer_mode:s created_at:t updated_at:t "
        "started_at:t completed_at:t"),
    "callbacks": _columns(
        "id:s lead_id:s campaign_id:s scheduled_at:t status:callback_status notes:s "
        "created_at:t"),
    "appointments": _columns(
        "id:s status:s scheduled_at:t timezone:s duration_minutes:i service_type:s "
        "contact_name:s phone:s email:s notes:s source:s created_at:t updated_at:t"),
    "dispositions": _columns("from:d to:d campaign_id:s disposition_code:s count:i"),
    "dnc": _columns("phone:s listed:b checked_at:t listed_at:t"),
    "webhook_events": _columns(
        "id:s type:event_type created_at:t api_version:s schema_version:i deliveries:j "
        "data:j"),
    "sms_reports": _columns(
        "message_id:s to:s status:s error_code:s client_reference:s segments:i "
        "estimated_cost:f created_at:t updated_at:t"),
}
"""Each frame's columns in order, with a kind: ``s`` Arrow-backed string, ``t`` UTC
timestamp, ``i`` nullable integer, ``f`` nullable float, ``b`` nullable boolean, ``d`` date,
``j`` JSON text, else the name of a closed value set in ``CATEGORIES``."""

_FAMILIES: Mapping[str, Any] = {
    "s": "string[pyarrow]", "j": "string[pyarrow]", "t": "datetime64[us, UTC]", "i": "Int64",
    "f": "Float64", "b": "boolean", "d": pd.ArrowDtype(pa.date32()),
}


def assert_schema(frame: pd.DataFrame, name: str) -> None:
    """``frame`` has exactly the documented columns and dtypes of frame ``name``."""
    assert list(frame.columns) == [column for column, _ in COLUMNS[name]]
    assert frame.dtypes.to_dict() == SCHEMAS[name].dtypes
    assert isinstance(frame.index, pd.RangeIndex)
    assert list(frame.index) == list(range(len(frame)))
    for column, kind in COLUMNS[name]:
        dtype = frame[column].dtype
        if kind in CATEGORIES:
            assert isinstance(dtype, pd.CategoricalDtype), column
            assert list(dtype.categories) == CATEGORIES[kind], column
            assert not dtype.ordered, column
            continue
        assert dtype == _FAMILIES[kind], (column, dtype)
        if kind in "sj":
            assert isinstance(dtype, pd.StringDtype), column
            assert (dtype.storage, dtype.na_value) == ("pyarrow", pd.NA), column


def python(value: Any, kind: str) -> Any:
    """A frame cell as plain Python: ``None`` for a null, a datetime, a date, decoded JSON."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if kind == "t":
        assert isinstance(value, pd.Timestamp)
        return value.to_pydatetime()
    if kind == "j":
        return json.loads(value)
    if kind == "d":
        assert isinstance(value, date)
    return value


def api_value(value: Any, kind: str) -> Any:
    """A field of the API's JSON as the frame should hold it."""
    if value is None:
        return None
    if kind == "t":
        return datetime.fromisoformat(value)
    if kind == "d":
        return date.fromisoformat(value)
    return value


def column(frame: pd.DataFrame, name: str, kind: str) -> list[Any]:
    """One column of ``frame`` as plain Python values."""
    return [python(value, kind) for value in frame[name].astype(object)]


def assert_matches_api(frame: pd.DataFrame, name: str, items: list[dict[str, Any]]) -> None:
    """``frame`` holds the API's ``items`` row for row and column by column, nulls included."""
    assert len(frame) == len(items)
    for item in items:
        assert {column_name for column_name, _ in COLUMNS[name]} <= item.keys(), item
    for column_name, kind in COLUMNS[name]:
        expected = [api_value(item[column_name], kind) for item in items]
        assert column(frame, column_name, kind) == expected, column_name


def raw_items(pages: Iterable[Any]) -> list[dict[str, Any]]:
    """Every item of a list's ``raw_pages()``."""
    return [item for page in pages for item in page.data]


def newest_first(frame: pd.DataFrame) -> bool:
    """Whether ``frame`` is ordered ``created_at`` descending, then ``id`` descending."""
    keys = list(zip(frame["created_at"], frame["id"], strict=True))
    return keys == sorted(keys, reverse=True)


class World:
    """The session emulator's seeded world, seen through a recorded ``full`` client.

    Attributes:
        client: The ``full`` client; every request it sends is in ``wire``.
        wire: The recording transport of ``client``.
        sender: A client with the ``full`` client's sending key (same data set).
        sandbox: The emulator.
        receiver: A webhook receiver that answers 500, so deliveries wait for a retry.
        busy: A running campaign with calls over several pages, leads and callbacks.
        other: A second campaign with calls and callbacks.
        idle: A draft campaign: no calls, no callbacks.
    """

    def __init__(self, client_as: Callable[..., Client], sandbox: Sandbox,
                 receiver: Receiver) -> None:
        self.wire = RecordingTransport()
        self.client = client_as("full", transport=self.wire)
        self.sender = client_as("sending")
        self.sandbox = sandbox
        self.receiver = receiver
        receiver.default = 500
        campaigns = sorted(self.client.campaigns.list(), key=lambda c: c.id)
        active = [c.id for c in campaigns if c.status in ("running", "paused")]
        self.busy, self.other = active[0], active[1]
        self.idle = next(c.id for c in campaigns if c.status == "draft")
        self.wire.sent.clear()
        self.wire.requests.clear()

    def sent(self, run: Callable[[], T]) -> tuple[T, int]:
        """``run()``'s result and how many requests the client sent during it."""
        before = len(self.wire.sent)
        result = run()
        return result, len(self.wire.sent) - before

    def add_sms(self) -> None:
        """Two SMS: one delivered, one failed (``error_code`` set), 10 s later."""
        self.sender.sms.send(to=EASTERN, body="Your table is ready.", client_reference="ok-1")
        self.sender.sms.send(to=UNREACHABLE, body="x" * 200, client_reference="fails-1")
        advance(self.sandbox, 10)

    def add_appointment(self) -> None:
        """An appointment with only the required fields (the rest null)."""
        self.client.appointments.create(phone=EASTERN, scheduled_at="2026-11-10T15:00:00Z")

    def add_callback(self) -> None:
        """A callback without notes, for a new lead of the busy campaign."""
        lead = next(lead for lead in self.client.leads.list(campaign_id=self.busy, status="new"))
        self.client.callbacks.create(lead_id=lead.id, scheduled_at="2026-11-05T15:00:00Z")

    def add_events(self, *, settle: bool = True) -> None:
        """A test event, an appointment event and the dialer's call events.

        The endpoint takes appointment and call events, so some events have a
        delivery and others (``disposition.logged``) none; the receiver answers
        500, so each delivery ends its first attempt ``retry_scheduled`` and then
        waits on the manual clock. With ``settle``, returns once no delivery is
        pending any more (so the events no longer change).
        """
        hook = self.client.webhooks.create(url=self.receiver.url,
                                           events=["appointment.booked", "call.completed"])
        self.client.webhooks.test(hook.id)
        self.add_appointment()
        advance(self.sandbox, 120)
        if not settle:
            return

        def settled() -> bool:
            events = list(self.client.webhook_events.list())
            return all(d.status != "pending" for event in events for d in event.deliveries)

        wait_for(settled, timeout=10)
