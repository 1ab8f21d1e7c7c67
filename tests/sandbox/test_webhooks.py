"""Webhook endpoints over HTTP: create, read, change, delete, test, rotate, and the URL rules.

The session emulator allows loopback receivers; the module's ``strict``
emulator does not, and holds an account whose webhooks are switched off.
Delivery itself is tested in ``test_webhook_delivery.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest

from conftest import KEYS, assert_problem, client_for, write
from dialkit.contract import Scope
from dialkit.sandbox import Sandbox, parse_config, start
from dialkit.sandbox._state._clock import parse_timestamp

URL = "https://hooks.example.com/dialer/in?token=abc"
EVENTS = ["call.completed", "appointment.booked"]
FIELDS = {"id", "url_preview", "host", "description", "events", "enabled", "secret_hint",
          "created_at", "updated_at"}
NOHOOKS_KEY = "svc_test_nohooks01_AAAAbbbbCCCCddddEEEEffff0010"
UNKNOWN = "wh_123e4567-e89b-42d3-a456-426614174000"


@pytest.fixture(scope="module")
def strict() -> Iterator[Sandbox]:
    """Loopback receivers not allowed; ``acme`` has webhooks on, ``nohooks`` off."""
    every = [s.value for s in Scope]
    config: dict[str, Any] = {
        "server": {"rate_limit_scale": 0, "clock": "manual", "start_time": "2026-11-02T15:00:00Z"},
        "accounts": [
            {"name": "acme", "recent_activity": False, "clients": [
                {"name": "full", "scopes": every, "keys": [{"key": KEYS["full"]}]}]},
            {"name": "nohooks", "webhooks_enabled": False, "clients": [
                {"name": "c", "scopes": every, "keys": [{"key": NOHOOKS_KEY}]}]},
        ],
    }
    with start(parse_config(config)) as running:
        yield running


@pytest.fixture
def strict_api(strict: Sandbox) -> Iterator[httpx.Client]:
    """The ``strict`` emulator, reset, with the full key of ``acme``."""
    httpx.post(strict.base_url + "/_sandbox/reset",
               headers=strict.admin_headers).raise_for_status()
    with client_for(strict, KEYS["full"]) as http:
        yield http


def create(http: httpx.Client, url: str = URL, *, key: str = "create",
           **fields: Any) -> httpx.Response:
    """POST /v1/webhooks with ``EVENTS`` unless other fields are given."""
    return write(http, "/v1/webhooks", {"url": url, "events": EVENTS, **fields}, key=key)


def created(http: httpx.Client, url: str = URL, *, key: str = "create",
            **fields: Any) -> dict[str, Any]:
    """A created endpoint (the create answer, secret included)."""
    response = create(http, url, key=key, **fields)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def advance(http: httpx.Client, seconds: float) -> None:
    """Move the emulator's manual clock."""
    http.post("/_sandbox/clock", json={"advance_seconds": seconds}).raise_for_status()


def test_create_shows_the_secret_once(api: httpx.Client) -> None:
    first = create(api, description="CRM")
    assert first.status_code == 201
    body = first.json()
    assert set(body) == FIELDS | {"secret"}
    assert re.fullmatch(r"wh_[0-9a-f-]{36}", body["id"])
    assert body["secret"].startswith("whsec_") and len(body["secret"]) > 30
    assert body["secret_hint"] == body["secret"][-4:]
    assert (body["url_preview"], body["host"]) == ("https://hooks.example.com/…",
                                                   "hooks.example.com")
    assert (body["description"], body["events"], body["enabled"]) == ("CRM", EVENTS, True)
    assert body["created_at"] == body["updated_at"]
    again = create(api, description="CRM")
    assert again.status_code == 201
    assert again.headers["idempotency-replayed"] == "true"
    assert again.json() == {**body, "secret": None}
    shown = api.get(f"/v1/webhooks/{body['id']}").json()
    assert shown == {k: v for k, v in body.items() if k != "secret"}


def test_create_defaults_and_deduplicates(api: httpx.Client) -> None:
    body = created(api, events=["appointment.moved", "appointment.moved", "call.completed"])
    assert body["description"] == ""
    assert body["events"] == ["appointment.moved", "call.completed"]


@pytest.mark.parametrize(("url", "preview", "host"), [
    ("https://h.example.com", "https://h.example.com/", "h.example.com"),
    ("https://H.Example.com/", "https://h.example.com/", "h.example.com"),
    ("https://h.example.com:8443/a/b?c=d", "https://h.example.com:8443/…", "h.example.com"),
    ("https://user:pw@h.example.com/x", "https://h.example.com/…", "h.example.com"),
    ("https://h.example.com/?q=1", "https://h.example.com/…", "h.example.com"),
])
def test_url_preview_hides_path_query_and_credentials(api: httpx.Client, url: str, preview: str,
                                                      host: str) -> None:
    body = created(api, url)
    assert (body["url_preview"], body["host"]) == (preview, host)


@pytest.mark.parametrize("url", [
    "http://hooks.example.com/in",  # not https
    "ftp://hooks.example.com/in",
    "not a url at all",
    "https:///no-host",
    "https://hooks.example.com:99999/",  # bad port
    "https://10.1.2.3/in",
    "https://192.168.1.10/in",
    "https://172.16.0.1/in",
    "https://100.64.0.1/in",  # shared address space
    "https://0.0.0.0/in",
    "https://169.254.10.1/in",  # link-local
    "https://169.254.169.254/latest/meta-data",  # cloud metadata
    "https://metadata.google.internal/computeMetadata",
    "https://[fd00:ec2::254]/",
    "https://[fd12:3456::1]/in",  # fd00::/8
    "https://[fe80::1]/in",
    "https://[::ffff:10.0.0.1]/in",  # IPv4-mapped private
    "https://db.internal/in",
    "https://printer.local/in",
])
def test_create_refuses_urls_that_are_not_public_https(api: httpx.Client, url: str) -> None:
    body = assert_problem(create(api, url), 422, "webhook_url_refused")
    assert body["detail"]
    assert api.get("/v1/webhooks").json()["data"] == []


@pytest.mark.parametrize("url", [
    "https://127.0.0.1/in",
    "https://127.9.9.9/in",
    "https://[::1]/in",
    "https://localhost/in",
    "https://api.localhost/in",
    "http://127.0.0.1:8080/in",
    "https://2130706433/in",  # 127.0.0.1 written as one number: resolved, then refused
])
def test_loopback_refused_without_the_server_flag(strict_api: httpx.Client, url: str) -> None:
    body = assert_problem(create(strict_api, url), 422, "webhook_url_refused")
    assert "allow_loopback_webhooks" in body["detail"]


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9000/hook", "https://[::1]:9000/hook", "http://localhost:9000/hook",
])
def test_loopback_and_plain_http_to_it_accepted_with_the_server_flag(api: httpx.Client,
                                                                     url: str) -> None:
    created(api, url)


@pytest.mark.parametrize("url", [
    "https://hooks.receiver-that-does-not-resolve.io/in",  # offline: accepted, checked again later
    "https://receiver.invalid/in",
    "https://receiver.test/in",
    "https://8.8.8.8/in",
    "https://[2001:4860:4860::8888]/in",
])
def test_public_and_unresolvable_hosts_accepted(api: httpx.Client, url: str) -> None:
    created(api, url)


def test_http_to_a_public_host_refused_even_with_the_flag(api: httpx.Client) -> None:
    assert_problem(create(api, "http://8.8.8.8/in"), 422, "webhook_url_refused")


@pytest.mark.parametrize(("fields", "pointer"), [
    ({"url": "https://"}, "/url"),  # under 9 characters
    ({"url": "https://h.example.com/" + "x" * 2030}, "/url"),
    ({"events": []}, "/events"),
    ({"events": EVENTS * 3 + ["ai_call.completed"]}, "/events"),
    ({"events": ["webhook.test"]}, "/events/0"),
    ({"events": ["call.started"]}, "/events/0"),
    ({"description": "d" * 201}, "/description"),
    ({"secret": "mine"}, "/secret"),
])
def test_create_validation(api: httpx.Client, fields: dict[str, Any], pointer: str) -> None:
    body = assert_problem(create(api, **fields), 400, "validation_failed")
    assert pointer in [e["pointer"] for e in body["errors"]]


def test_at_most_ten_endpoints_per_client_data_set(api: httpx.Client,
                                                   key_client: Any) -> None:
    ids = [created(api, key=f"c{i}")["id"] for i in range(10)]
    body = assert_problem(create(api, key="c10"), 409, "webhook_limit_reached")
    assert "10" in body["detail"]
    assert created(key_client("other"))["id"] not in ids  # another client's own data set
    assert write(api, f"/v1/webhooks/{ids[0]}", method="DELETE", key="d").status_code == 204
    created(api, key="c11")


def test_list_newest_first_with_cursor(strict_api: httpx.Client) -> None:
    ids = []
    for i in range(3):
        ids.append(created(strict_api, key=f"c{i}")["id"])
        advance(strict_api, 1)
    first = strict_api.get("/v1/webhooks", params={"limit": 2}).json()
    assert [w["id"] for w in first["data"]] == ids[:0:-1]
    assert first["page"]["has_more"] is True
    assert all(set(w) == FIELDS for w in first["data"])
    rest = strict_api.get("/v1/webhooks",
                          params={"limit": 2, "cursor": first["page"]["next_cursor"]}).json()
    assert [w["id"] for w in rest["data"]] == ids[:1]
    assert rest["page"] == {"next_cursor": None, "has_more": False}


def test_endpoints_of_another_client_are_not_found(api: httpx.Client, key_client: Any) -> None:
    webhook_id = created(api)["id"]
    assert_problem(key_client("other").get(f"/v1/webhooks/{webhook_id}"), 404, "not_found")


@pytest.mark.parametrize(("method", "suffix", "body"), [
    ("GET", "", None),
    ("PATCH", "", {"enabled": False}),
    ("DELETE", "", None),
    ("POST", "/test", None),
    ("POST", "/rotate-secret", None),
])
def test_unknown_endpoint_is_not_found(api: httpx.Client, method: str, suffix: str,
                                       body: Any) -> None:
    response = write(api, f"/v1/webhooks/{UNKNOWN}{suffix}", body, method=method)
    assert_problem(response, 404, "not_found")


def test_update_changes_only_what_is_sent(strict_api: httpx.Client) -> None:
    before = created(strict_api, description="old")
    advance(strict_api, 5)
    path = f"/v1/webhooks/{before['id']}"
    changed = strict_api.patch(path, json={"events": ["appointment.cancelled"],
                                           "description": None, "enabled": False})
    assert changed.status_code == 200
    after = changed.json()
    assert set(after) == FIELDS
    assert (after["events"], after["enabled"], after["description"]) == (
        ["appointment.cancelled"], False, "old")
    assert after["updated_at"] > before["updated_at"] == after["created_at"]
    moved = strict_api.patch(path, json={"url": "https://other.example.net/x", "description": ""})
    assert (moved.json()["host"], moved.json()["description"]) == ("other.example.net", "")
    assert moved.json()["secret_hint"] == before["secret_hint"]


@pytest.mark.parametrize("url", ["http://other.example.net/x", "https://10.0.0.8/x",
                                 "https://127.0.0.1/x"])
def test_update_refuses_a_url_and_keeps_the_old_one(strict_api: httpx.Client, url: str) -> None:
    webhook_id = created(strict_api)["id"]
    response = strict_api.patch(f"/v1/webhooks/{webhook_id}", json={"url": url})
    assert_problem(response, 422, "webhook_url_refused")
    assert strict_api.get(f"/v1/webhooks/{webhook_id}").json()["host"] == "hooks.example.com"


@pytest.mark.parametrize("body", [{"events": []}, {"enabled": "maybe"}, {"id": UNKNOWN}])
def test_update_validation(api: httpx.Client, body: dict[str, Any]) -> None:
    webhook_id = created(api)["id"]
    assert_problem(api.patch(f"/v1/webhooks/{webhook_id}", json=body), 400, "validation_failed")


def test_delete_answers_204_and_the_endpoint_is_gone(api: httpx.Client) -> None:
    webhook_id = created(api)["id"]
    path = f"/v1/webhooks/{webhook_id}"
    response = write(api, path, method="DELETE", key="del")
    assert (response.status_code, response.content) == (204, b"")
    assert_problem(api.get(path), 404, "not_found")
    assert api.get("/v1/webhooks").json()["data"] == []
    replayed = write(api, path, method="DELETE", key="del")
    assert (replayed.status_code, replayed.headers["idempotency-replayed"]) == (204, "true")
    assert_problem(write(api, path, method="DELETE", key="del2"), 404, "not_found")


def test_test_queues_a_webhook_test_event_for_that_endpoint_only(api: httpx.Client) -> None:
    webhook_id = created(api, key="a")["id"]
    created(api, "https://second.example.com/in", key="b")
    response = write(api, f"/v1/webhooks/{webhook_id}/test", key="t")
    assert response.status_code == 202
    answer = response.json()
    assert set(answer) == {"event_id", "delivery_id"}
    event = api.get(f"/v1/webhook-events/{answer['event_id']}").json()
    assert (event["type"], event["api_version"], event["schema_version"]) == (
        "webhook.test", "v1", 1)
    assert event["data"]["webhook_id"] == webhook_id
    assert [(d["id"], d["webhook_id"], d["replay_of"]) for d in event["deliveries"]] == [
        (answer["delivery_id"], webhook_id, None)]


def test_test_refuses_a_body_with_fields(api: httpx.Client) -> None:
    webhook_id = created(api)["id"]
    response = write(api, f"/v1/webhooks/{webhook_id}/test", {"event": "call.completed"})
    assert_problem(response, 400, "validation_failed")


def test_rotate_secret(strict_api: httpx.Client) -> None:
    endpoint = created(strict_api)
    path = f"/v1/webhooks/{endpoint['id']}/rotate-secret"
    response = write(strict_api, path, {}, key="rot")
    assert response.status_code == 200
    rotation = response.json()
    assert set(rotation) == {"webhook_id", "secret", "secret_hint", "previous_secret_expires_at"}
    assert rotation["webhook_id"] == endpoint["id"]
    assert rotation["secret"].startswith("whsec_") and rotation["secret"] != endpoint["secret"]
    assert rotation["secret_hint"] == rotation["secret"][-4:]
    now = parse_timestamp(strict_api.get("/_sandbox/clock").json()["now"])
    assert parse_timestamp(rotation["previous_secret_expires_at"]) == now + timedelta(hours=24)
    shown = strict_api.get(f"/v1/webhooks/{endpoint['id']}").json()
    assert shown["secret_hint"] == rotation["secret_hint"]
    replayed = write(strict_api, path, {}, key="rot")
    assert replayed.headers["idempotency-replayed"] == "true"
    assert replayed.json() == {**rotation, "secret": None}


OPERATIONS = [
    ("GET", "/v1/webhooks", None),
    ("GET", f"/v1/webhooks/{UNKNOWN}", None),
    ("POST", "/v1/webhooks", {"url": "ftp://x", "events": []}),  # checked before the body
    ("PATCH", f"/v1/webhooks/{UNKNOWN}", {"enabled": True}),
    ("DELETE", f"/v1/webhooks/{UNKNOWN}", None),
    ("POST", f"/v1/webhooks/{UNKNOWN}/test", None),
    ("POST", f"/v1/webhooks/{UNKNOWN}/rotate-secret", None),
    ("GET", "/v1/webhook-events", None),
    ("GET", "/v1/webhook-events/evt_123e4567-e89b-42d3-a456-426614174000", None),
    ("POST", "/v1/webhook-events/evt_123e4567-e89b-42d3-a456-426614174000/replay", None),
]


@pytest.mark.parametrize(("method", "path", "body"), OPERATIONS)
def test_every_webhook_operation_answers_webhooks_disabled(strict: Sandbox, method: str,
                                                          path: str, body: Any) -> None:
    with client_for(strict, NOHOOKS_KEY) as http:
        response = write(http, path, body, method=method, key=f"{method} {path}")
    body_out = assert_problem(response, 403, "webhooks_disabled")
    assert "operator" in body_out["detail"]
