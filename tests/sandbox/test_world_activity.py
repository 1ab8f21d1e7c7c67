"""The default world's recent activity: webhook events with delivery history, and SMS.

A newcomer's first ``frames.webhook_events()`` and ``frames.sms_reports()``
find the world's recent past, as the live service would have recorded it:
the dialer's own events for the newest outbound calls, delivered to a
(now disabled) endpoint, and text messages with their reports.
"""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pandas as pd
import pytest

from dialkit import Client
from dialkit.errors import ApiError
from dialkit.sandbox import parse_config, start
from dialkit.sandbox._world._activity import EVENT_CALLS, SMS_MESSAGES


@pytest.fixture(scope="module")
def newcomer() -> Iterator[Client]:
    """What ``dialkit.Client.sandbox()`` gives a new user: the default configuration."""
    with Client.sandbox() as client:
        yield client


def test_the_default_world_has_webhook_events_with_delivery_history(newcomer: Client) -> None:
    events = newcomer.frames.webhook_events(progress=False)
    counts = events["type"].value_counts()
    assert counts["call.completed"] == EVENT_CALLS
    assert 0 < counts["disposition.logged"] < EVENT_CALLS
    statuses = pd.Series([d["status"] for cell in events["deliveries"]
                          for d in orjson.loads(cell)])
    assert set(statuses) == {"delivered", "failed"}
    assert (statuses == "delivered").mean() > 0.8


def test_seeded_events_are_the_dialers_own_for_its_newest_calls(newcomer: Client) -> None:
    events = list(newcomer.webhook_events.list(type="call.completed"))
    calls = {call.id: call for call in newcomer.calls.list(direction="outbound")}
    for event in events[:20]:
        data = event.data
        call = calls[data["call_id"]]
        assert (data["to"], data["status"], data["campaign_id"]) == (
            call.to_number, call.status, call.campaign_id)
        assert event.created_at == call.ended_at
    newest = max(c.ended_at for c in calls.values() if c.campaign_id is not None)
    assert max(e.created_at for e in events) == newest


def test_the_default_world_has_text_messages_with_reports(newcomer: Client) -> None:
    reports = newcomer.frames.sms_reports(progress=False)
    assert len(reports) == SMS_MESSAGES
    assert set(reports["status"]) == {"delivered"}
    assert reports["client_reference"].str.startswith("world-").all()
    assert reports["created_at"].is_monotonic_decreasing


def test_the_seeded_endpoint_is_disabled_and_receives_nothing_new(newcomer: Client) -> None:
    (endpoint,) = list(newcomer.webhooks.list())
    assert endpoint.enabled is False
    event = next(newcomer.webhook_events.list())
    with pytest.raises(ApiError) as caught:
        newcomer.webhook_events.replay(event.id)
    assert caught.value.code == "replay_unavailable"


def test_the_activity_is_the_same_for_the_same_seed_and_off_on_request() -> None:
    config = {"server": {"start_time": "2026-11-02T15:00:00Z", "clock": "manual"},
              "accounts": [{"name": "acme", "clients": [{"name": "c", "scopes": [
                  "webhooks:read", "sms:read"], "keys": [
                      {"key": "svc_test_actv0001_AAAAbbbbCCCCddddEEEEffff0001"}]}]}]}
    seen = []
    for _ in range(2):
        with Client.sandbox(parse_config(config)) as client:
            seen.append([(e.id, e.type) for e in client.webhook_events.list()])
    assert seen[0] == seen[1] and len(seen[0]) > EVENT_CALLS
    config["accounts"][0]["recent_activity"] = False
    with start(parse_config(config)) as quiet:
        rows = quiet.service.store.rows("SELECT COUNT(*) FROM webhook_events", ())
        assert rows[0][0] == 0
