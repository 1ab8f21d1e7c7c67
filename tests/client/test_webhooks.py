"""``client.webhooks`` and ``client.webhook_events`` against the emulator, over real HTTP.

Endpoints point at a receiver on 127.0.0.1 (the session emulator allows loopback
receivers and runs its delivery worker), so the signing secrets the client
returns are checked against the signatures of real deliveries.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from conftest import advance, service_time
from dialkit import Client, ResponseInfo
from dialkit.contract import (
    ReplayResponse,
    SecretRotation,
    WebhookEndpoint,
    WebhookEndpointCreated,
    WebhookEvent,
)
from dialkit.errors import (
    ConflictError,
    IdempotencyConflictError,
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ValidationError,
)
from dialkit.sandbox import Sandbox
from receivers import Receiver

from ._recording import RecordingTransport

EVENTS = ["appointment.booked", "appointment.cancelled"]


def signature(secret: str, headers: dict[str, str], body: bytes) -> str:
    """``sha256=<hex>`` of one secret over ``<Service-Timestamp>.<body>``."""
    signed = headers["service-timestamp"].encode() + b"." + body
    return "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def new_endpoint(client: Client, url: str, **fields: Any) -> WebhookEndpointCreated:
    """A created endpoint for ``EVENTS``."""
    return client.webhooks.create(url=url, events=EVENTS, **fields)


def test_create_returns_the_secret_once_and_masks_it(client: Client, sandbox: Sandbox,
                                                     receiver: Receiver) -> None:
    created = new_endpoint(client, receiver.url, description="CRM", idempotency_key="create-1")
    assert isinstance(created, WebhookEndpointCreated)
    assert isinstance(created.secret, str) and created.secret.startswith("whsec_")
    secret = str(created.secret)
    assert len(secret) > 10
    assert created.secret_hint == secret[-4:]
    assert secret not in repr(created) and secret not in str(created)
    assert f"…{secret[-4:]}" in repr(created)
    assert created.id.startswith("wh_")
    assert (created.host, created.url_preview) == ("127.0.0.1", receiver.url.rsplit("/", 2)[0]
                                                   + "/…")
    assert (created.description, created.events, created.enabled) == ("CRM", EVENTS, True)
    assert created.created_at == created.updated_at == service_time(sandbox)
    assert created.replayed is False and created.request_id is not None

    again = new_endpoint(client, receiver.url, description="CRM", idempotency_key="create-1")
    assert again.replayed is True
    assert again.secret is None
    assert again.model_dump(exclude={"secret"}) == created.model_dump(exclude={"secret"})
    assert [e.id for e in client.webhooks.list()] == [created.id]
    with pytest.raises(IdempotencyConflictError) as caught:
        new_endpoint(client, receiver.url, description="Other", idempotency_key="create-1")
    assert (caught.value.status, caught.value.code) == (409, "idempotency_conflict")


def test_the_create_secret_signs_deliveries(client: Client, receiver: Receiver) -> None:
    created = new_endpoint(client, receiver.url)
    assert created.secret is not None
    sent = client.webhooks.test(created.id)
    headers, body = receiver.received(sent["delivery_id"])
    assert headers["service-event-id"] == sent["event_id"]
    assert headers["service-signature"] == signature(created.secret, headers, body)


def test_get_list_and_update(client: Client, sandbox: Sandbox, receiver: Receiver) -> None:
    first = new_endpoint(client, receiver.url, idempotency_key="a")
    advance(sandbox, 60)
    second = new_endpoint(client, "https://hooks.example.com/in?token=x", idempotency_key="b")
    fetched = client.webhooks.get(first.id)
    assert isinstance(fetched, WebhookEndpoint) and not isinstance(fetched,
                                                                   WebhookEndpointCreated)
    assert fetched.model_dump() == first.model_dump(exclude={"secret"})
    assert fetched.request_id is not None and fetched.request_id.startswith("req_")
    assert [e.id for e in client.webhooks.list()] == [second.id, first.id]
    assert [e.id for e in client.webhooks.list(limit=1)] == [second.id, first.id]

    advance(sandbox, 60)
    changed = client.webhooks.update(first.id, description="Billing", events=["call.completed"],
                                     enabled=False, url="https://other.example.org/x")
    assert isinstance(changed, WebhookEndpoint)
    assert (changed.description, changed.events, changed.enabled) == (
        "Billing", ["call.completed"], False)
    assert (changed.host, changed.url_preview) == ("other.example.org",
                                                   "https://other.example.org/…")
    assert changed.updated_at == service_time(sandbox) > changed.created_at == first.created_at
    assert client.webhooks.get(first.id).model_dump() == changed.model_dump()
    kept = client.webhooks.update(first.id, enabled=True)
    assert (kept.enabled, kept.description, kept.events) == (True, "Billing", ["call.completed"])


def test_delete_answers_info_and_the_endpoint_is_gone(client: Client,
                                                      receiver: Receiver) -> None:
    hook = new_endpoint(client, receiver.url)
    info = client.webhooks.delete(hook.id, idempotency_key="delete-1")
    assert isinstance(info, ResponseInfo)
    assert (info.status_code, info.replayed) == (204, False)
    assert info.request_id is not None and info.request_id.startswith("req_")
    again = client.webhooks.delete(hook.id, idempotency_key="delete-1")
    assert (again.status_code, again.replayed) == (204, True)
    with pytest.raises(NotFoundError) as caught:
        client.webhooks.get(hook.id)
    assert (caught.value.status, caught.value.code) == (404, "not_found")
    with pytest.raises(NotFoundError):
        client.webhooks.delete(hook.id)  # a new key: deleted already
    assert list(client.webhooks.list()) == []


def test_rotate_secret_gives_a_new_secret_that_signs_with_the_old(
        client: Client, sandbox: Sandbox, receiver: Receiver) -> None:
    hook = new_endpoint(client, receiver.url)
    rotation = client.webhooks.rotate_secret(hook.id)
    assert isinstance(rotation, SecretRotation)
    assert rotation.webhook_id == hook.id
    assert rotation.secret is not None and rotation.secret.startswith("whsec_")
    assert hook.secret is not None and rotation.secret != hook.secret
    assert rotation.secret_hint == rotation.secret[-4:] == client.webhooks.get(hook.id).secret_hint
    assert str(rotation.secret) not in repr(rotation)
    assert rotation.previous_secret_expires_at == service_time(sandbox) + timedelta(hours=24)
    sent = client.webhooks.test(hook.id)
    headers, body = receiver.received(sent["delivery_id"])
    assert headers["service-signature"] == ",".join(
        signature(s, headers, body) for s in (rotation.secret, hook.secret))


def test_test_event_is_listed_and_read(client: Client, receiver: Receiver) -> None:
    hook = new_endpoint(client, receiver.url)
    sent = client.webhooks.test(hook.id)
    assert sent["event_id"].startswith("evt_") and sent["delivery_id"].startswith("whd_")
    assert sent.request_id is not None
    event = client.webhook_events.get(sent["event_id"])
    assert isinstance(event, WebhookEvent)
    assert (event.id, event.type, event.api_version) == (sent["event_id"], "webhook.test", "v1")
    assert event.data["webhook_id"] == hook.id
    assert [(d.id, d.webhook_id) for d in event.deliveries] == [(sent["delivery_id"], hook.id)]
    assert [e.id for e in client.webhook_events.list()] == [event.id]


def test_event_list_filters_by_type(client: Client, sandbox: Sandbox,
                                    receiver: Receiver) -> None:
    sent = client.webhooks.test(new_endpoint(client, receiver.url).id)
    advance(sandbox, 600)  # the dialer simulation records call events
    every = list(client.webhook_events.list())
    calls = [e.id for e in every if e.type == "call.completed"]
    assert len(calls) > 10
    assert [e.id for e in client.webhook_events.list(type="call.completed", limit=10)] == calls
    assert [e.id for e in client.webhook_events.list(type="webhook.test")] == [sent["event_id"]]
    assert list(client.webhook_events.list(type="appointment.moved")) == []
    with pytest.raises(ValidationError) as caught:
        list(client.webhook_events.list(type="call.started"))
    assert caught.value.code == "validation_failed"


def test_replay_is_a_new_delivery_of_the_same_event(client: Client,
                                                    receiver: Receiver) -> None:
    hook = new_endpoint(client, receiver.url)
    sent = client.webhooks.test(hook.id)
    answer = client.webhook_events.replay(sent["event_id"], webhook_id=hook.id)
    assert isinstance(answer, ReplayResponse)
    assert answer.event_id == sent["event_id"]
    [new] = answer.deliveries
    assert new.event_id == sent["event_id"] and new.delivery_id != sent["delivery_id"]
    replays = {d.id: d for d in client.webhook_events.get(sent["event_id"]).deliveries}
    assert (replays[new.delivery_id].replay_of, replays[new.delivery_id].webhook_id) == (
        sent["delivery_id"], hook.id)
    headers, _ = receiver.received(new.delivery_id)
    assert headers["service-event-id"] == sent["event_id"]


def test_replay_to_an_endpoint_that_never_received_it_is_unavailable(
        client: Client, receiver: Receiver) -> None:
    hook = new_endpoint(client, receiver.url, idempotency_key="a")
    other = new_endpoint(client, receiver.url, idempotency_key="b")
    sent = client.webhooks.test(hook.id)
    with pytest.raises(ConflictError) as caught:
        client.webhook_events.replay(sent["event_id"], webhook_id=other.id)
    assert (caught.value.status, caught.value.code) == (409, "replay_unavailable")


def test_replay_limit_is_not_retried(client_as: Callable[..., Client], sandbox: Sandbox,
                                     receiver: Receiver) -> None:
    recorder = RecordingTransport()
    client = client_as("full", transport=recorder, max_retries=5)
    sent = client.webhooks.test(new_endpoint(client, receiver.url).id)
    now = service_time(sandbox)
    midnight = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    advance(sandbox, (midnight - now).total_seconds() - 1)  # Retry-After will be 1 s
    for _ in range(5):
        client.webhook_events.replay(sent["event_id"])
    recorder.requests.clear()
    with pytest.raises(RateLimitError) as caught:
        client.webhook_events.replay(sent["event_id"])
    assert (caught.value.status, caught.value.code) == (429, "replay_limit_reached")
    assert caught.value.retry_after == 1
    assert [(r.method, r.url.path) for r in recorder.requests] == [
        ("POST", f"/v1/webhook-events/{sent['event_id']}/replay")]


@pytest.mark.parametrize("operation", [
    lambda c: list(c.webhooks.list()),
    lambda c: c.webhooks.create(url="https://hooks.example.com/in", events=EVENTS),
    lambda c: c.webhooks.get("wh_123e4567-e89b-42d3-a456-426614174000"),
    lambda c: list(c.webhook_events.list()),
], ids=["list", "create", "get", "events"])
def test_webhooks_disabled_is_permission_denied(client: Client, sandbox: Sandbox,
                                                operation: Callable[[Client], object]) -> None:
    httpx.patch(sandbox.base_url + "/_sandbox/accounts/acme", headers=sandbox.admin_headers,
                json={"webhooks_enabled": False}).raise_for_status()
    with pytest.raises(PermissionDeniedError) as caught:
        operation(client)
    assert (caught.value.status, caught.value.code) == (403, "webhooks_disabled")


def test_a_private_url_is_refused_by_the_service(client: Client) -> None:
    with pytest.raises(ValidationError) as caught:
        new_endpoint(client, "https://10.1.2.3/in")
    assert (caught.value.status, caught.value.code) == (422, "webhook_url_refused")
    assert list(client.webhooks.list()) == []


@pytest.mark.parametrize(("url", "events"), [
    ("https://hooks.example.com/in", []),
    ("https://hooks.example.com/in", ["webhook.test"]),
    ("https://hooks.example.com/in", ["call.started"]),
    ("https://", EVENTS),  # shorter than 9 characters
])
def test_bad_create_arguments_are_refused_before_sending(client_as: Callable[..., Client],
                                                         url: str, events: list[str]) -> None:
    recorder = RecordingTransport()
    client = client_as("full", transport=recorder)
    with pytest.raises(InvalidArgumentError) as caught:
        client.webhooks.create(url=url, events=events)
    refused = "/url" if url == "https://" else "/events"
    assert [e.pointer.startswith(refused) for e in caught.value.errors] == [True]
    assert recorder.requests == []
