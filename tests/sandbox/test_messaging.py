"""SMS sending, delivery reports and usage, and WhatsApp, over HTTP against the emulator.

The session emulator's manual clock may have been moved by other tests, so a
test that needs a recipient inside (or outside) calling hours picks one by its
local time now, from numbers in five time zones that together cover every hour.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from conftest import KEYS, advance, assert_problem, base_config, client_for, service_time, write
from dialkit.contract import id_pattern
from dialkit.sandbox import Sandbox

LOCAL_PREFIXES = {
    "America/New_York": "+1212555",
    "America/Los_Angeles": "+1415555",
    "Pacific/Honolulu": "+1808555",
    "Europe/London": "+44207946",
    "Asia/Tokyo": "+81901234",
}
"""Number prefixes (four digits of line to follow) whose numbers are in one time zone."""

KP = "+8501921234567"
"""A valid number in a country the account blocks (KP and IR by default)."""

EASTERN = "+12125550142"
"""10:00 local at the start time of a fresh emulator (15:00 UTC)."""

_refs = count()






def number_at(running: Sandbox, *, allowed: bool, line: str = "0142") -> str:
    """A number whose local time now is inside (``allowed``) or outside 08:00-21:00."""
    now = service_time(running)
    for zone, prefix in LOCAL_PREFIXES.items():
        if (8 <= now.astimezone(ZoneInfo(zone)).hour < 21) == allowed:
            return prefix + line
    raise AssertionError("the zones of LOCAL_PREFIXES cover every hour")


def sms(to: str, text: str = "Your table is ready.",
        reference: str | None = None) -> dict[str, Any]:
    """An SMS send body with a fresh client_reference unless one is given."""
    return {"to": to, "body": text, "client_reference": reference or f"ref-{next(_refs)}"}


def send(http: httpx.Client, body: dict[str, Any]) -> httpx.Response:
    """POST /v1/sms with a fresh Idempotency-Key."""
    return write(http, "/v1/sms", body, key=f"idem-{next(_refs)}")


@pytest.fixture
def sender(key_client: Callable[[str], httpx.Client]) -> httpx.Client:
    """A client with the session emulator's sending key (same data set as ``api``)."""
    return key_client("sending")


def reports(http: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    """The first page of delivery reports."""
    response = http.get("/v1/sms/delivery-reports", params=params)
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def test_send_accepts_a_message(sender: httpx.Client, sandbox: Sandbox) -> None:
    to = number_at(sandbox, allowed=True)
    response = send(sender, sms(to, reference="order-1"))
    assert response.status_code == 202, response.text
    message = response.json()
    assert re.fullmatch(id_pattern("msg_"), message.pop("id"))
    assert message == {"to": to, "status": "queued", "client_reference": "order-1",
                       "created_at": service_time(sandbox).isoformat(timespec="milliseconds")
                       .replace("+00:00", "Z")}


def test_send_is_replayed_for_the_same_idempotency_key(sender: httpx.Client,
                                                       sandbox: Sandbox) -> None:
    body = sms(number_at(sandbox, allowed=True))
    first = write(sender, "/v1/sms", body, key="one")
    again = write(sender, "/v1/sms", body, key="one")
    assert (again.status_code, again.json()) == (202, first.json())
    assert again.headers["idempotency-replayed"] == "true"
    assert len(reports(sender)) == 1


@pytest.mark.parametrize(("role", "status", "code"), [
    ("full", 403, "tier_not_enabled"),
    ("noswitch", 403, "tier_not_enabled"),
    ("reader", 403, "insufficient_scope"),
])
def test_send_needs_scope_switch_and_a_sending_key(key_client: Callable[[str], httpx.Client],
                                                   role: str, status: int, code: str) -> None:
    assert_problem(send(key_client(role), sms(EASTERN)), status, code)


def test_a_repeated_client_reference_sends_nothing_again(sender: httpx.Client,
                                                         sandbox: Sandbox) -> None:
    to = number_at(sandbox, allowed=True)
    first = send(sender, sms(to, reference="dup"))
    problem = assert_problem(send(sender, sms(to, "Other text", reference="dup")), 409,
                             "duplicate_client_reference")
    assert first.json()["id"] in problem["detail"]
    assert [r["message_id"] for r in reports(sender)] == [first.json()["id"]]


@pytest.mark.parametrize(("change", "error"), [
    ({"body": ""}, {"pointer": "/body", "code": "too_short"}),
    ({"body": "x" * 919}, {"pointer": "/body", "code": "too_long"}),
    ({"client_reference": ""}, {"pointer": "/client_reference", "code": "too_short"}),
    ({"client_reference": "r" * 65}, {"pointer": "/client_reference", "code": "too_long"}),
    ({"to": "2125550142"}, {"pointer": "/to", "code": "invalid_format"}),
    ({"to": "+1555"}, {"pointer": "/to", "code": "invalid_phone"}),
    ({"media_url": "https://example.com/a.png"}, {"pointer": "/media_url",
                                                  "code": "unknown_field"}),
])
def test_send_refuses_invalid_bodies(sender: httpx.Client, change: dict[str, Any],
                                     error: dict[str, str]) -> None:
    problem = assert_problem(send(sender, {**sms(EASTERN), **change}), 400, "validation_failed")
    assert problem["errors"] == [error]
    assert reports(sender) == []


@pytest.mark.parametrize("field", ["to", "body", "client_reference"])
def test_send_requires_its_fields(sender: httpx.Client, field: str) -> None:
    body = {k: v for k, v in sms(EASTERN).items() if k != field}
    problem = assert_problem(send(sender, body), 400, "validation_failed")
    assert problem["errors"] == [{"pointer": f"/{field}", "code": "missing"}]


def test_a_number_on_the_dnc_list_is_refused(api: httpx.Client, sender: httpx.Client,
                                             sandbox: Sandbox) -> None:
    to = number_at(sandbox, allowed=True)
    write(api, "/v1/dnc", {"phone": to}).raise_for_status()
    assert_problem(send(sender, sms(to)), 422, "on_dnc")
    seeded = sandbox.service.store.row("SELECT phone FROM dnc WHERE dataset = 'seed:acme'")
    assert seeded is not None
    assert_problem(send(sender, sms(seeded["phone"])), 422, "on_dnc")
    assert reports(sender) == []


def test_a_blocked_country_is_refused_after_the_dnc_check(api: httpx.Client,
                                                          sender: httpx.Client) -> None:
    assert_problem(send(sender, sms(KP)), 422, "blocked_country")
    write(api, "/v1/dnc", {"phone": KP}).raise_for_status()
    assert_problem(send(sender, sms(KP)), 422, "on_dnc")


def test_outside_calling_hours_is_refused(sender: httpx.Client, sandbox: Sandbox) -> None:
    problem = assert_problem(send(sender, sms(number_at(sandbox, allowed=False))), 422,
                             "message_refused")
    assert problem["errors"] == [{"pointer": "/to", "code": "calling_hours"}]
    assert reports(sender) == []


def consent(http: httpx.Client, phone: str, *, granted: bool, captured_at: str,
            channel: str = "sms") -> None:
    """Record a consent record for ``phone``."""
    write(http, "/v1/consents", {"phone": phone, "channel": channel, "granted": granted,
                                 "captured_at": captured_at, "method": "verbal"},
          key=f"idem-{next(_refs)}").raise_for_status()


def test_withdrawn_consent_refuses_and_new_consent_allows(api: httpx.Client, sender: httpx.Client,
                                                          sandbox: Sandbox) -> None:
    to = number_at(sandbox, allowed=True)
    consent(api, to, granted=True, captured_at="2026-10-01T10:00:00Z")
    consent(api, to, granted=False, captured_at="2026-10-20T10:00:00Z")
    consent(api, to, granted=True, captured_at="2026-10-10T10:00:00Z", channel="sms")
    problem = assert_problem(send(sender, sms(to)), 422, "message_refused")
    assert problem["errors"] == [{"pointer": "/to", "code": "no_consent"}]
    consent(api, to, granted=True, captured_at="2026-10-30T10:00:00Z")
    assert send(sender, sms(to)).status_code == 202


def test_consent_of_another_channel_does_not_refuse(api: httpx.Client, sender: httpx.Client,
                                                    sandbox: Sandbox) -> None:
    to = number_at(sandbox, allowed=True)
    consent(api, to, granted=False, captured_at="2026-10-20T10:00:00Z", channel="call")
    assert send(sender, sms(to)).status_code == 202


def test_calling_hours_are_checked_before_consent(api: httpx.Client, sender: httpx.Client,
                                                  sandbox: Sandbox) -> None:
    to = number_at(sandbox, allowed=False)
    consent(api, to, granted=False, captured_at="2026-10-20T10:00:00Z")
    problem = assert_problem(send(sender, sms(to)), 422, "message_refused")
    assert problem["errors"][0]["code"] == "calling_hours"


def limited(account: dict[str, Any] | None = None,
            key: dict[str, Any] | None = None) -> dict[str, Any]:
    """The session configuration with the acme account and its sending key changed."""
    config = base_config()
    acme = config["accounts"][0]
    acme.update(account or {})
    sending = next(k for k in acme["clients"][0]["keys"] if k.get("sending"))
    sending.update(key or {})
    return config


@pytest.fixture
def limited_sender(make_sandbox: Callable[..., Sandbox]
                   ) -> Iterator[Callable[..., tuple[Sandbox, httpx.Client]]]:
    """``limited_sender(account=..., key=...)``: a fresh emulator and its sending client."""
    clients: list[httpx.Client] = []

    def make(**changes: Any) -> tuple[Sandbox, httpx.Client]:
        running = make_sandbox(limited(**changes))
        clients.append(client_for(running, KEYS["sending"]))
        return running, clients[-1]

    yield make
    for http in clients:
        http.close()


@pytest.mark.parametrize(("account", "key", "code"), [
    ({"sending_suspended": True}, {}, "sending_suspended"),
    ({"outbound_approved": False}, {}, "outbound_not_approved"),
])
def test_account_sending_state_refuses(limited_sender: Callable[..., tuple[Sandbox, httpx.Client]],
                                       account: dict[str, Any], key: dict[str, Any],
                                       code: str) -> None:
    _, http = limited_sender(account=account, key=key)
    assert_problem(send(http, sms(EASTERN)), 403, code)


@pytest.mark.parametrize(("account", "key", "status", "code"), [
    ({"daily_cap": 1}, {}, 429, "daily_cap_reached"),
    ({}, {"daily_cap": 1}, 429, "daily_cap_reached"),
    ({}, {"per_minute_cap": 1}, 429, "rate_limit_exceeded"),
    ({"spend_limit": 0.015}, {}, 429, "spend_cap_reached"),
])
def test_caps_refuse_the_second_message(
        limited_sender: Callable[..., tuple[Sandbox, httpx.Client]], account: dict[str, Any],
        key: dict[str, Any], status: int, code: str) -> None:
    _, http = limited_sender(account=account, key=key)
    assert send(http, sms(EASTERN)).status_code == 202
    assert_problem(send(http, sms("+12125550143")), status, code)
    assert len(reports(http)) == 1


def test_an_empty_balance_refuses_after_the_compliance_checks(
        limited_sender: Callable[..., tuple[Sandbox, httpx.Client]]) -> None:
    running, http = limited_sender(account={"balance": 0})
    assert_problem(send(http, sms(EASTERN)), 402, "insufficient_balance")
    assert_problem(send(http, sms(KP)), 422, "blocked_country")
    advance(running, 12 * 3600)  # 22:00 in New York
    assert_problem(send(http, sms(EASTERN)), 422, "message_refused")


def test_the_per_minute_cap_frees_up_after_a_minute(
        limited_sender: Callable[..., tuple[Sandbox, httpx.Client]]) -> None:
    running, http = limited_sender(key={"per_minute_cap": 1})
    assert send(http, sms(EASTERN)).status_code == 202
    assert_problem(send(http, sms(EASTERN)), 429, "rate_limit_exceeded")
    advance(running, 61)
    assert send(http, sms(EASTERN)).status_code == 202


@pytest.mark.parametrize(("length", "segments"), [(1, 1), (160, 1), (161, 2), (306, 2),
                                                  (307, 3), (918, 6)])
def test_segments_and_cost_follow_the_body_length(sender: httpx.Client, sandbox: Sandbox,
                                                  length: int, segments: int) -> None:
    send(sender, sms(number_at(sandbox, allowed=True), "x" * length)).raise_for_status()
    report = reports(sender)[0]
    assert (report["segments"], report["estimated_cost"]) == (segments, round(segments * 0.01, 4))


def test_delivery_moves_on_with_the_clock(sender: httpx.Client, sandbox: Sandbox) -> None:
    ok = send(sender, sms(number_at(sandbox, allowed=True))).json()
    failing = send(sender, sms(number_at(sandbox, allowed=True, line="0999"))).json()

    def states() -> dict[str, tuple[str, str | None]]:
        return {r["message_id"]: (r["status"], r["error_code"]) for r in reports(sender)}

    assert states() == {ok["id"]: ("queued", None), failing["id"]: ("queued", None)}
    advance(sandbox, 1)
    assert states() == {ok["id"]: ("sent", None), failing["id"]: ("sent", None)}
    advance(sandbox, 4)
    assert states() == {ok["id"]: ("delivered", None), failing["id"]: ("failed", "unreachable")}
    report = reports(sender)[0]
    assert report["updated_at"] == service_time(sandbox).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")
    assert report["created_at"] < report["updated_at"]


def test_delivery_report_fields(sender: httpx.Client, sandbox: Sandbox) -> None:
    to = number_at(sandbox, allowed=True)
    message = send(sender, sms(to, reference="shape")).json()
    assert reports(sender) == [{
        "message_id": message["id"], "to": to, "status": "queued", "error_code": None,
        "client_reference": "shape", "segments": 1, "estimated_cost": 0.01,
        "created_at": message["created_at"], "updated_at": message["created_at"]}]


def test_delivery_reports_page_newest_first_and_filter(sender: httpx.Client,
                                                       sandbox: Sandbox) -> None:
    ids = []
    for _ in range(3):
        ids.append(send(sender, sms(number_at(sandbox, allowed=True))).json()["id"])
        advance(sandbox, 1)
    first = sender.get("/v1/sms/delivery-reports", params={"limit": 2}).json()
    assert [r["message_id"] for r in first["data"]] == ids[:0:-1]
    assert first["page"]["has_more"] is True
    rest = sender.get("/v1/sms/delivery-reports",
                      params={"limit": 2, "cursor": first["page"]["next_cursor"]}).json()
    assert [r["message_id"] for r in rest["data"]] == ids[:1]
    assert rest["page"] == {"next_cursor": None, "has_more": False}
    reference = reports(sender)[1]["client_reference"]
    assert [r["message_id"] for r in reports(sender, client_reference=reference)] == [ids[1]]


@pytest.mark.parametrize(("params", "status", "code"), [
    ({"cursor": "garbage"}, 400, "invalid_cursor"),
    ({"limit": 0}, 400, "validation_failed"),
    ({"limit": 101}, 400, "validation_failed"),
    ({"status": "delivered"}, 400, "validation_failed"),
    ({"client_reference": "r" * 65}, 400, "validation_failed"),
])
def test_delivery_reports_refuse_bad_queries(api: httpx.Client, params: dict[str, Any],
                                             status: int, code: str) -> None:
    assert_problem(api.get("/v1/sms/delivery-reports", params=params), status, code)


def test_a_cursor_is_bound_to_its_filters(sender: httpx.Client, sandbox: Sandbox) -> None:
    for _ in range(2):
        send(sender, sms(number_at(sandbox, allowed=True))).raise_for_status()
    cursor = sender.get("/v1/sms/delivery-reports", params={"limit": 1}).json()["page"]
    assert_problem(sender.get("/v1/sms/delivery-reports",
                              params={"cursor": cursor["next_cursor"], "client_reference": "x"}),
                   400, "invalid_cursor")


def test_reports_and_usage_belong_to_the_clients_data_set(
        sender: httpx.Client, sandbox: Sandbox,
        key_client: Callable[[str], httpx.Client]) -> None:
    send(sender, sms(number_at(sandbox, allowed=True))).raise_for_status()
    reader = key_client("reader")
    assert reports(reader) == []
    assert reader.get("/v1/sms/usage").json()["today"]["messages"] == 0


@pytest.mark.parametrize("path", ["/v1/sms/delivery-reports", "/v1/sms/usage"])
def test_reads_need_the_sms_read_scope(key_client: Callable[[str], httpx.Client],
                                       path: str) -> None:
    assert_problem(key_client("noscope").get(path), 403, "insufficient_scope")


def test_usage_counts_today_and_this_month(
        limited_sender: Callable[..., tuple[Sandbox, httpx.Client]]) -> None:
    running, http = limited_sender(account={"daily_cap": 10, "spend_limit": 5.0},
                                   key={"daily_cap": 3, "per_minute_cap": 2})
    send(http, sms(EASTERN, "x" * 200)).raise_for_status()
    advance(running, 86400)
    send(http, sms(EASTERN)).raise_for_status()
    usage = http.get("/v1/sms/usage").json()
    assert usage == {
        "as_of": "2026-11-03T15:00:00.000Z",
        "today": {"since": "2026-11-03T00:00:00.000Z", "messages": 1, "segments": 1,
                  "estimated_spend": 0.01},
        "month": {"since": "2026-11-01T00:00:00.000Z", "messages": 2, "segments": 3,
                  "estimated_spend": 0.03},
        "caps": {"key_daily_cap": 3, "key_per_minute_cap": 2, "key_sent_today": 1,
                 "account_daily_cap": 10, "account_sent_today": 1, "spend_limit": 5.0,
                 "spend_today": 0.01, "balance": 1000.0},
    }


def test_usage_of_a_key_without_caps(api: httpx.Client) -> None:
    caps = api.get("/v1/sms/usage").json()["caps"]
    assert caps == {"key_daily_cap": None, "key_per_minute_cap": None, "key_sent_today": 0,
                    "account_daily_cap": None, "account_sent_today": 0, "spend_limit": None,
                    "spend_today": 0.0, "balance": 1000.0}


WHATSAPP = {"to": EASTERN, "text": "Hello", "client_reference": "wa-1"}


@pytest.mark.parametrize("request_parts", [
    {"json": WHATSAPP},
    {"json": {"nonsense": [1, 2, 3]}},
    {"content": b"{not json", "headers": {"Content-Type": "application/json"}},
    {"content": b"garbage", "headers": {"Content-Type": "text/plain"}},
    {},
])
@pytest.mark.parametrize("role", ["full", "sending"])
def test_whatsapp_is_never_enabled(key_client: Callable[[str], httpx.Client], role: str,
                                   request_parts: dict[str, Any]) -> None:
    headers = {"Idempotency-Key": "wa", **request_parts.get("headers", {})}
    response = key_client(role).post("/v1/whatsapp/messages", headers=headers,
                                     json=request_parts.get("json"),
                                     content=request_parts.get("content"))
    assert_problem(response, 403, "tier_not_enabled")


def test_whatsapp_without_an_idempotency_key_is_still_not_enabled(api: httpx.Client) -> None:
    assert_problem(api.post("/v1/whatsapp/messages", json=WHATSAPP), 403, "tier_not_enabled")


@pytest.mark.parametrize("role", ["reader", "noscope"])
def test_whatsapp_needs_its_scope(key_client: Callable[[str], httpx.Client], role: str) -> None:
    response = write(key_client(role), "/v1/whatsapp/messages", WHATSAPP)
    assert_problem(response, 403, "insufficient_scope")


def test_the_openapi_document_publishes_the_bodies(sandbox: Sandbox) -> None:
    paths = httpx.get(sandbox.base_url + "/_sandbox/openapi.json").json()["paths"]
    whatsapp = paths["/v1/whatsapp/messages"]["post"]["requestBody"]["content"]
    assert whatsapp["application/json"]["schema"]["required"] == ["to", "client_reference"]
    assert "requestBody" in paths["/v1/sms"]["post"]
