"""Signature verification: one pure function, :func:`verify`, over the raw delivery.

The contract's receiver rules, in the order they are checked here:

1. ``Service-Timestamp``, ``Service-Signature``, ``Service-Event-Id`` and
   ``Service-Delivery-Id`` are present and well formed; a signature header holds
   one ``sha256=<hex>``, or two during a rotation (never more).
2. The timestamp is at most ``tolerance`` seconds from the receiver's clock,
   in the past or in the future.
3. One of the signatures is the HMAC-SHA256 of ``"<timestamp>." + body`` keyed
   with one of the secrets, compared in constant time.
4. Only then is the body parsed, and the unsigned ``Service-Event-Id`` must be
   the signed envelope's ``id`` (it is the key events are de-duplicated on).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import time
from collections.abc import Iterable, Mapping
from datetime import datetime

from dialkit.contract import SIGNATURE_TOLERANCE_SECONDS, is_valid_id

from .._utils._base_error import InputError, SignatureError
from .._utils._secrets import sendable
from ._events import Envelope, Event, event_of, parse_envelope

TIMESTAMP = "service-timestamp"
SIGNATURE = "service-signature"
EVENT_ID = "service-event-id"
EVENT_TYPE = "service-event"
DELIVERY_ID = "service-delivery-id"
HEADERS = {TIMESTAMP: "Service-Timestamp", SIGNATURE: "Service-Signature",
           EVENT_ID: "Service-Event-Id", EVENT_TYPE: "Service-Event",
           DELIVERY_ID: "Service-Delivery-Id"}
"""The contract's delivery headers: lower-cased name to the name as the contract writes it."""

MAX_SIGNATURES = 2
"""One signature, or two (new, old) during a rotation's overlap."""

SCHEME = "sha256="
_HEX = re.compile(r"[0-9a-f]{64}")
_DIGITS = re.compile(r"[0-9]{1,12}")

Secrets = str | Iterable[str]
"""One signing secret (``whsec_...``), or several during a rotation."""
Headers = Mapping[str, str] | Iterable[tuple[str | bytes, str | bytes]]
"""A request's headers: a mapping, or (name, value) pairs."""


def verify(body: bytes, headers: Headers, secrets: Secrets, *,
           tolerance: float = SIGNATURE_TOLERANCE_SECONDS,
           now: float | datetime | None = None) -> Event:
    """Verify a delivery over its raw bytes, then parse it into an :class:`Event`.

    Args:
        body: The request body exactly as received (bytes, before any parsing).
        headers: The request headers: any mapping, or (name, value) pairs, as ``str``
            or ``bytes``; names are matched case-insensitively.
        secrets: The endpoint's signing secret, or several during a rotation: a
            match on any of them passes.
        tolerance: Seconds the ``Service-Timestamp`` may be from ``now``, either way.
        now: The receiver's clock (Unix seconds or an aware datetime); the real
            clock when ``None``. A test against the emulator's manual clock passes
            the emulator's time here.

    Returns:
        The event, ``data`` typed for the event types the contract shows.

    Raises:
        SignatureError: A header missing or malformed, the timestamp out of
            tolerance, or no signature matching any secret (``.reason`` says which).
        EnvelopeError: The body is signed but is not an event envelope.
        TypeError: ``body`` is not bytes (a decoded body may not be what was signed).

    Examples:
        >>> import json, time
        >>> from dialkit.webhooks import sign
        >>> body = json.dumps({  # a delivery signed here as the service signs one
        ...     "id": "evt_5f0c6c1e-3b7a-4c55-9a51-2d4f6f3e8a10", "type": "call.completed",
        ...     "created_at": "2026-11-02T15:00:00Z", "api_version": "v1", "schema_version": 1,
        ...     "data": {"call_id": "call_1b4e28ba-2fa1-4d2e-883f-0016d3cca427"}}).encode()
        >>> sent = int(time.time())
        >>> headers = {"Service-Timestamp": str(sent), "Service-Signature": sign(body, "whsec_test",
        ...                                                                   timestamp=sent),
        ...            "Service-Event-Id": "evt_5f0c6c1e-3b7a-4c55-9a51-2d4f6f3e8a10",
        ...            "Service-Delivery-Id": "whd_0d6a3c8e-8f7b-4d0e-9c43-5b1e2a7f9d31"}
        >>> event = verify(body, headers, "whsec_test")  # a receiver's request.body, .headers
        >>> str(event.type), event.data.call_id
        ('call.completed', 'call_1b4e28ba-2fa1-4d2e-883f-0016d3cca427')
    """
    if not isinstance(body, bytes | bytearray | memoryview):
        raise TypeError(f"pass the raw body as bytes, not {type(body).__name__}: "
                        "a decoded or re-encoded body may differ from what was signed")
    return event_of(*check_lowered(bytes(body), _lowered(headers), secret_keys(secrets),
                                   tolerance=tolerance, now=clock_seconds(now)))


def _lowered(headers: Headers) -> dict[str, str]:
    """The headers as text under lower-cased names, from a mapping or (name, value) pairs,
    names and values as ``str`` or as the ``bytes`` an ASGI scope holds."""
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    try:
        return {_text(name).lower(): _text(value) for name, value in pairs}
    except (TypeError, ValueError):
        raise TypeError("pass the request's headers as a mapping (request.headers) or as "
                        "(name, value) pairs") from None


def _text(value: str | bytes) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def check_lowered(body: bytes, headers: Mapping[str, str], keys: tuple[bytes, ...], *,
                  tolerance: float, now: float) -> tuple[Envelope, str, int]:
    """Every check of :func:`verify`; the envelope (``data`` untyped), the delivery id and
    the signed ``Service-Timestamp``.

    The receiver's fast path: storing an event needs no typed ``data``.
    """
    timestamp = _timestamp(headers)
    signatures = _signatures(headers)
    event_id, delivery_id = _id_header(headers, EVENT_ID, "evt_"), _id_header(
        headers, DELIVERY_ID, "whd_")
    _check_tolerance(int(timestamp), tolerance, now)
    _check_signature(timestamp.encode() + b"." + body, signatures, keys)
    envelope = parse_envelope(body)
    if envelope.id != event_id:
        raise SignatureError("malformed_header", f"Service-Event-Id {event_id} is not the "
                             f"signed event's id {envelope.id}")
    kind = headers.get(EVENT_TYPE)
    if kind is not None and kind != envelope.type:
        raise SignatureError("malformed_header", f"Service-Event {kind[:60]!r} is not the signed "
                             f"event's type {envelope.type!r}")
    return envelope, delivery_id, int(timestamp)


def sign(body: bytes, secrets: Secrets, *, timestamp: int) -> str:
    """The ``Service-Signature`` value the service sends: ``sha256=<hex>``, one per secret
    (new first during a rotation). For tests of a receiver.

    Examples:
        >>> sign(b"{}", "whsec_test", timestamp=1700000000)[:7]
        'sha256='
    """
    signed = f"{timestamp}.".encode() + body
    return ",".join(SCHEME + hmac.digest(key, signed, hashlib.sha256).hex()
                    for key in secret_keys(secrets))


def secret_keys(secrets: Secrets) -> tuple[bytes, ...]:
    """The HMAC keys of ``secrets``: each whole secret string, UTF-8.

    Raises:
        ValueError: No secret, or an empty one.
        TypeError: A secret that is not a string.
    """
    given = [secrets] if isinstance(secrets, str) else list(secrets)
    if not given:
        raise InputError("pass the endpoint's signing secret (whsec_...), or several "
                         "during a rotation")
    keys = []
    for secret in given:
        if not isinstance(secret, str):
            raise TypeError(f"a signing secret is a str (whsec_...), not {type(secret).__name__}")
        if not secret:
            raise InputError("a signing secret is empty; pass the whsec_... value the service "
                             "gave when the endpoint was created or its secret rotated")
        keys.append(secret.encode())
    return tuple(keys)


SECRETS_VARIABLE = "DIALKIT_WEBHOOK_SECRETS"
"""Where the signing secrets come from: never code or a command line (shell history, ``ps``)."""


def secrets_from_env() -> list[str]:
    """The signing secrets in ``DIALKIT_WEBHOOK_SECRETS``: one, or the new and the old one
    comma-separated during a rotation (spaces around each ignored).

    Raises:
        InputError: The variable is unset or holds no secret, or a secret holds a
            character no secret of the service holds (an en dash pasted for a hyphen).
    """
    secrets = [s.strip() for s in os.environ.get(SECRETS_VARIABLE, "").split(",") if s.strip()]
    if not secrets:
        raise InputError(f"set {SECRETS_VARIABLE} to the endpoint's signing secret "
                         "(whsec_...), or to the new and the old one, comma-separated, during "
                         "a rotation; secrets are not taken from code or the command line")
    # A secret pasted with a typographic character signs nothing the service signed: every
    # delivery would be refused as forged, with nothing to say why.
    return [sendable(secret, f"the secret in {SECRETS_VARIABLE}",
                     "which no secret the service makes holds") for secret in secrets]


def clock_seconds(now: float | datetime | None) -> float:
    """Unix seconds of ``now`` (the real clock when ``None``); a naive datetime refused."""
    if now is None:
        return time.time()
    if isinstance(now, datetime):
        if now.tzinfo is None:
            raise InputError("now= is a naive datetime; pass an aware one (UTC) or Unix seconds")
        return now.timestamp()
    return float(now)


def _header(headers: Mapping[str, str], name: str) -> str:
    value = headers.get(name)
    if value is None or not value.strip():
        raise SignatureError("missing_header", f"the {HEADERS[name]} header is missing")
    return value.strip()


def _timestamp(headers: Mapping[str, str]) -> str:
    value = _header(headers, TIMESTAMP)
    if not _DIGITS.fullmatch(value):
        raise SignatureError("malformed_header", f"Service-Timestamp {value[:40]!r} is not "
                             "Unix seconds")
    return value


def _signatures(headers: Mapping[str, str]) -> list[str]:
    parts = [part.strip() for part in _header(headers, SIGNATURE).split(",")]
    if len(parts) > MAX_SIGNATURES:
        raise SignatureError("malformed_header", f"Service-Signature carries {len(parts)} "
                             "signatures; the service sends one, or two during a rotation")
    for part in parts:
        if not (part.startswith(SCHEME) and _HEX.fullmatch(part[len(SCHEME):].lower())):
            raise SignatureError("malformed_header", "Service-Signature is not sha256=<64 hex "
                                 "digits>, or two of them separated by a comma")
    return [part[len(SCHEME):].lower() for part in parts]


def _id_header(headers: Mapping[str, str], name: str, prefix: str) -> str:
    value = _header(headers, name)
    if not is_valid_id(prefix, value):
        raise SignatureError("malformed_header", f"{HEADERS[name]} {value[:60]!r} is not "
                             f"{prefix} and a lower-case UUID")
    return value


def _check_tolerance(timestamp: int, tolerance: float, now: float) -> None:
    skew = now - timestamp
    if abs(skew) > tolerance:
        direction = "in the past" if skew > 0 else "in the future"
        raise SignatureError("timestamp_out_of_tolerance", (
            f"Service-Timestamp is {abs(skew):.0f} s {direction}; the tolerance is "
            f"{tolerance:g} s (check the receiver's clock; a test against the emulator's "
            "manual clock passes now=)"))


def _check_signature(signed: bytes, signatures: list[str], keys: tuple[bytes, ...]) -> None:
    matched = False
    for key in keys:
        expected = hmac.digest(key, signed, hashlib.sha256).hex()
        for given in signatures:  # every comparison made: the time says nothing of which
            matched |= hmac.compare_digest(expected, given)
    if not matched:
        raise SignatureError("no_matching_signature", (
            f"no signature in Service-Signature ({len(signatures)} given) matches any of the "
            f"{len(keys)} secret(s): the body or timestamp was altered, or the secret is "
            "not this endpoint's (after a rotation, pass the new secret too)"))
