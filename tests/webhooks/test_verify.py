"""verify(): the contract's receiver rules as one pure function, and the typed envelope."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import orjson
import pytest
from webhook_servers import delivery, envelope, new_id

from dialkit.contract import WebhookEventType
from dialkit.errors import InputError
from dialkit.webhooks import (
    AppointmentData,
    CallCompletedData,
    DispositionLoggedData,
    EnvelopeError,
    SignatureError,
    secrets_from_env,
    sign,
    verify,
)
from dialkit.webhooks.handlers import Handlers

SECRET, OLD, WRONG = "whsec_current0123456789abcdef", "whsec_previous0123456789", "whsec_wrong99"
NOW = 1_793_631_600  # 2026-11-02T15:00:00Z, the emulator tests' start


def test_a_signed_delivery_verifies_into_the_envelope() -> None:
    body, headers = delivery(envelope(), SECRET, NOW)
    event = verify(body, headers, SECRET, now=NOW)
    assert (event.type, event.api_version, event.schema_version) == (
        WebhookEventType.WEBHOOK_TEST, "v1", 1)
    assert event.created_at == datetime(2026, 11, 2, 15, tzinfo=UTC)
    assert (event.id, event.delivery_id) == (headers["Service-Event-Id"],
                                             headers["Service-Delivery-Id"])
    assert event.data == {"message": "hello"} and event.call_details is None


def test_the_signature_is_the_contracts_hmac() -> None:
    body = b'{"id":"x"}'
    import hashlib
    import hmac
    expected = hmac.new(SECRET.encode(), b"1700000000." + body, hashlib.sha256).hexdigest()
    assert sign(body, SECRET, timestamp=1_700_000_000) == f"sha256={expected}"
    assert sign(body, [SECRET, OLD], timestamp=1) == ",".join(
        sign(body, s, timestamp=1) for s in (SECRET, OLD))


@pytest.mark.parametrize("signed_with, accepted_with", [
    ([SECRET, OLD], [SECRET]), ([SECRET, OLD], [OLD]), ([SECRET, OLD], [WRONG, OLD]),
    ([SECRET], [OLD, SECRET]), ([SECRET], SECRET),
], ids=["rotation-new", "rotation-old", "rotation-one-of-mine", "one-sig-two-secrets", "str"])
def test_a_match_on_any_secret_passes(signed_with: list[str], accepted_with: Any) -> None:
    body, headers = delivery(envelope(), signed_with, NOW)
    assert verify(body, headers, accepted_with, now=NOW).id == headers["Service-Event-Id"]


@pytest.mark.parametrize("make_headers", [
    lambda h: {k.lower(): v for k, v in h.items()},
    lambda h: {k.upper(): v for k, v in h.items()},
    httpx.Headers,
    lambda h: list(h.items()),
    lambda h: [(k.lower().encode(), v.encode()) for k, v in h.items()],
], ids=["lower", "upper", "httpx.Headers", "pairs", "asgi-bytes"])
def test_header_names_are_case_insensitive(make_headers: Any) -> None:
    body, headers = delivery(envelope(), SECRET, NOW)
    assert verify(body, make_headers(headers), SECRET, now=NOW).id == headers["Service-Event-Id"]


def _tampered(body: bytes, headers: dict[str, str]) -> tuple[bytes, dict[str, str]]:
    return body.replace(b"hello", b"hellO"), headers


REFUSALS: list[tuple[str, Any, str, str]] = [
    ("tampered body", _tampered, "no_matching_signature", "no signature in Service-Signature"),
    ("wrong secret", lambda b, h: delivery(b, WRONG, NOW), "no_matching_signature",
     "matches any of the 2 secret(s)"),
    ("old timestamp", lambda b, h: delivery(b, SECRET, NOW - 301), "timestamp_out_of_tolerance",
     "301 s in the past; the tolerance is 300 s"),
    ("future timestamp", lambda b, h: delivery(b, SECRET, NOW + 4000),
     "timestamp_out_of_tolerance", "4000 s in the future"),
    ("missing timestamp", lambda b, h: delivery(b, SECRET, NOW, Service_Timestamp=None),
     "missing_header", "the Service-Timestamp header is missing"),
    ("missing signature", lambda b, h: delivery(b, SECRET, NOW, Service_Signature=None),
     "missing_header", "the Service-Signature header is missing"),
    ("missing event id", lambda b, h: delivery(b, SECRET, NOW, Service_Event_Id=None),
     "missing_header", "the Service-Event-Id header is missing"),
    ("missing delivery id", lambda b, h: delivery(b, SECRET, NOW, Service_Delivery_Id=None),
     "missing_header", "the Service-Delivery-Id header is missing"),
    ("three signatures", lambda b, h: delivery(b, [SECRET, OLD, WRONG], NOW),
     "malformed_header", "carries 3 signatures"),
    ("no scheme", lambda b, h: (b, {**h, "Service-Signature": h["Service-Signature"][7:]}),
     "malformed_header", "is not sha256=<64 hex digits>"),
    ("timestamp not seconds", lambda b, h: (b, {**h, "Service-Timestamp": "2026-11-02"}),
     "malformed_header", "is not Unix seconds"),
    ("event id not the body's", lambda b, h: (b, {**h, "Service-Event-Id": new_id("evt_")}),
     "malformed_header", "is not the signed event's id"),
    ("event type not the body's", lambda b, h: (b, {**h, "Service-Event": "call.completed"}),
     "malformed_header", "is not the signed event's type"),
    ("event id not an id", lambda b, h: (b, {**h, "Service-Event-Id": "evt_1"}),
     "malformed_header", "is not evt_ and a lower-case UUID"),
]


@pytest.mark.parametrize("change, reason, message", [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_each_refusal_says_which_check_failed(change: Any, reason: str, message: str) -> None:
    body, headers = change(*delivery(envelope(), SECRET, NOW))
    with pytest.raises(SignatureError) as refused:
        verify(body, headers, [SECRET, OLD], now=NOW)
    assert refused.value.reason == reason
    assert message in str(refused.value)
    assert isinstance(refused.value, ValueError)
    for secret in (SECRET, OLD, SECRET[6:], OLD[-12:]):
        assert secret not in str(refused.value) and secret not in repr(refused.value)


def test_tolerance_is_inclusive_and_now_may_be_a_datetime() -> None:
    body, headers = delivery(envelope(), SECRET, NOW - 300)
    assert verify(body, headers, SECRET, now=NOW)
    assert verify(body, headers, SECRET, now=datetime.fromtimestamp(NOW, UTC))
    assert verify(body, headers, SECRET, now=NOW + 600, tolerance=900)
    with pytest.raises(ValueError, match="naive datetime"):
        verify(body, headers, SECRET, now=datetime(2026, 11, 2, 15))


def test_the_real_clock_is_the_default() -> None:
    body, headers = delivery(envelope(), SECRET, NOW)
    with pytest.raises(SignatureError, match="in the past") as refused:
        verify(body, headers, SECRET)
    assert refused.value.reason == "timestamp_out_of_tolerance"


@pytest.mark.parametrize("body, secrets, error, message", [
    ("{}", SECRET, TypeError, "pass the raw body as bytes"),
    (b"{}", [], ValueError, "pass the endpoint's signing secret"),
    (b"{}", "", ValueError, "a signing secret is empty"),
    (b"{}", [b"whsec_x"], TypeError, "a signing secret is a str"),
])
def test_bad_arguments_say_what_to_pass(body: Any, secrets: Any, error: type[Exception],
                                        message: str) -> None:
    with pytest.raises(error, match=message):
        verify(body, {}, secrets)


@pytest.mark.parametrize("headers", [["service-timestamp"], 42], ids=["not-pairs", "int"])
def test_headers_that_are_neither_a_mapping_nor_pairs_say_what_to_pass(headers: Any) -> None:
    with pytest.raises(TypeError, match=r"as a mapping \(request.headers\) or as"):
        verify(b"{}", headers, SECRET)


@pytest.mark.parametrize(("value", "expected"), [
    ("whsec_a", ["whsec_a"]), ("whsec_new, whsec_old ", ["whsec_new", "whsec_old"])])
def test_secrets_from_env_reads_one_or_a_rotations_two(
        monkeypatch: pytest.MonkeyPatch, value: str, expected: list[str]) -> None:
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", value)
    assert secrets_from_env() == expected


@pytest.mark.parametrize("value", [None, "", " , "])
def test_secrets_from_env_unset_or_empty_says_what_to_set(
        monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    monkeypatch.delenv("DIALKIT_WEBHOOK_SECRETS", raising=False)
    if value is not None:
        monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", value)
    with pytest.raises(ValueError, match="set DIALKIT_WEBHOOK_SECRETS to the endpoint's"):
        secrets_from_env()


@pytest.mark.parametrize(("value", "said"), [
    ("whsec_abc\u2013def0123", "an en dash (U+2013) at character 10 of 17"),
    ("whsec_new, whsec_old\u200b", "a zero width space (U+200B) at character 10 of 10")])
def test_a_secret_pasted_with_a_typographic_character_is_refused_unshown(
        monkeypatch: pytest.MonkeyPatch, value: str, said: str) -> None:
    """It signs nothing the service signed: every delivery would be refused as forged."""
    monkeypatch.setenv("DIALKIT_WEBHOOK_SECRETS", value)
    with pytest.raises(InputError) as refused:
        secrets_from_env()
    assert said in str(refused.value)
    assert "the secret in DIALKIT_WEBHOOK_SECRETS" in str(refused.value)
    assert "whsec_abc" not in str(refused.value) and "whsec_old" not in str(refused.value)


@pytest.mark.parametrize("raw, message", [
    (b"not json", "not a v1 event envelope"),
    (orjson.dumps({"id": new_id("evt_"), "type": "webhook.test"}), "created_at: Field required"),
], ids=["not json", "no created_at"])  # fixed ids: pytest-xdist's workers must collect the same
def test_a_signed_body_that_is_no_envelope_is_an_envelope_error(raw: bytes,
                                                                message: str) -> None:
    body, headers = delivery(raw, SECRET, NOW, Service_Event_Id=new_id("evt_"))
    with pytest.raises(EnvelopeError, match=message):
        verify(body, headers, SECRET, now=NOW)


CALL = {"call_id": "call_1", "direction": "outbound", "status": "completed",
        "from": "+14155550100", "to": "+12125550123", "campaign_id": None,
        "started_at": "2026-11-02T14:58:00.000Z", "answered_at": None,
        "ended_at": "2026-11-02T14:59:00.000Z", "duration_seconds": 12.5,
        "hangup_cause": "no_answer"}
DETAILS = {"schema_version": 1, "summary": {"status": "ready", "text": "Booked.",
                                            "truncated": False},
           "disposition": {"status": "ready", "code": "booked", "notes": None,
                           "follow_up_at": None, "logged_at": "2026-11-02T14:59:00Z"}}


def test_shown_event_types_get_typed_data() -> None:
    body, headers = delivery(envelope(kind="call.completed", data=CALL, call_details=DETAILS),
                             SECRET, NOW)
    event = verify(body, headers, SECRET, now=NOW)
    assert isinstance(event.data, CallCompletedData)
    assert (event.data.from_, event.data.duration_seconds) == ("+14155550100", 12.5)
    assert event.data.ended_at == datetime(2026, 11, 2, 14, 59, tzinfo=UTC)
    assert event.call_details is not None and event.call_details.disposition is not None
    assert event.call_details.disposition.code == "booked"
    booked = {"appointment_id": "appt_1", "status": "scheduled", "service": "demo",
              "starts_at": "2026-11-03T10:00:00Z", "timezone": "Europe/Berlin",
              "duration_minutes": 30, "customer": {"name": "Ada", "phone": "+4930"},
              "source": "api", "later_field": 1}
    for kind in ("appointment.booked", "appointment.moved"):
        body, headers = delivery(envelope(kind=kind, data=booked), SECRET, NOW)
        data = verify(body, headers, SECRET, now=NOW).data
        assert isinstance(data, AppointmentData) and data.customer is not None
        assert (data.customer.name, data.duration_minutes) == ("Ada", 30)
        assert data.model_extra == {"later_field": 1}
    body, headers = delivery(envelope(kind="disposition.logged", data={"notes": None}),
                             SECRET, NOW)
    assert isinstance(verify(body, headers, SECRET, now=NOW).data, DispositionLoggedData)


def test_data_that_does_not_fit_its_model_stays_plain_and_unknown_types_pass() -> None:
    odd = {**CALL, "duration_seconds": "long"}
    body, headers = delivery(envelope(kind="call.completed", data=odd), SECRET, NOW)
    assert verify(body, headers, SECRET, now=NOW).data == odd
    body, headers = delivery(envelope(kind="call.transferred", data={"x": 1}), SECRET, NOW)
    event = verify(body, headers, SECRET, now=NOW)
    assert (event.type, event.data) == ("call.transferred", {"x": 1})


def test_handlers_dispatch_by_type() -> None:
    handlers, seen = Handlers(), []
    handlers.on("call.completed")(lambda e: seen.append(("call", e.id)))
    handlers.on("*")(lambda e: seen.append(("any", e.id)))
    body, headers = delivery(envelope(kind="call.completed", data=CALL), SECRET, NOW)
    event = verify(body, headers, SECRET, now=NOW)
    assert handlers.dispatch(event) == 2 and seen == [("call", event.id), ("any", event.id)]
    with pytest.raises(ValueError, match="'call.complete' is not an event type"):
        handlers.on("call.complete")
    with pytest.raises(TypeError, match="name the event types"):
        handlers.on()
