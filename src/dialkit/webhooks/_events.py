"""The event envelope of the contract, with typed ``data`` for the event types it shows.

Every model here is lenient the way a receiver must be: a field the contract
shows may be null or missing (the model says ``None``), and fields it does not
show are kept (``model_extra``). An event is verified before it is parsed, and
a verified event is never lost for a detail of its data: if ``data`` does not
fit its type's model it stays plain data, as it does for the types whose data
the contract does not show (``webhook.test``).
"""

from __future__ import annotations

from datetime import UTC
from typing import Any, TypeAlias

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
)

from dialkit.contract import WebhookDeliveryId, WebhookEventId, WebhookEventType

from .._utils._base_error import EnvelopeError


class _Data(BaseModel):
    """Base of the data models: frozen, unknown fields kept, ``from`` readable as ``from_``."""

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)


class CallCompletedData(_Data):
    """``call.completed``: a call ended (any direction)."""

    call_id: str | None = None
    direction: str | None = None
    status: str | None = None
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None
    campaign_id: str | None = None
    started_at: AwareDatetime | None = None
    answered_at: AwareDatetime | None = None
    ended_at: AwareDatetime | None = None
    duration_seconds: float | None = None
    hangup_cause: str | None = None


class AiCallCompletedData(_Data):
    """``ai_call.completed``: a call handled by an AI agent ended."""

    call_id: str | None = None
    direction: str | None = None
    from_: str | None = Field(default=None, alias="from")
    to: str | None = None
    ai_agent: JsonValue = None
    started_at: AwareDatetime | None = None
    answered_at: AwareDatetime | None = None
    ended_at: AwareDatetime | None = None
    duration_seconds: float | None = None
    outcome: str | None = None
    disposition_code: str | None = None
    sentiment: JsonValue = None
    requires_human_review: bool | None = None
    summary: JsonValue = None


class DispositionLoggedData(_Data):
    """``disposition.logged``: an agent logged a disposition for a call."""

    call_id: str | None = None
    campaign_id: str | None = None
    lead_id: str | None = None
    disposition_code: str | None = None
    notes: str | None = None
    phone: str | None = None
    logged_at: AwareDatetime | None = None


class Customer(_Data):
    """The customer of an appointment event."""

    name: str | None = None
    phone: str | None = None


class AppointmentData(_Data):
    """``appointment.booked`` and ``appointment.moved`` (the same fields)."""

    appointment_id: str | None = None
    status: str | None = None
    service: str | None = None
    starts_at: AwareDatetime | None = None
    timezone: str | None = None
    duration_minutes: int | None = None
    customer: Customer | None = None
    source: str | None = None


class AppointmentCancelledData(_Data):
    """``appointment.cancelled``: begins like the others; the rest is not shown (kept as
    extra fields)."""

    appointment_id: str | None = None
    status: str | None = None
    service: str | None = None


class SummaryDetails(_Data):
    """``call_details.summary``."""

    status: str | None = None
    text: str | None = None
    next_action: str | None = None
    language: str | None = None
    source: str | None = None
    generated_at: AwareDatetime | None = None
    truncated: bool | None = None


class DispositionDetails(_Data):
    """``call_details.disposition``."""

    status: str | None = None
    code: str | None = None
    notes: str | None = None
    follow_up_at: AwareDatetime | None = None
    logged_at: AwareDatetime | None = None


class CallDetails(_Data):
    """The envelope's ``call_details`` (with a ``schema_version`` of its own)."""

    schema_version: int | None = None
    summary: SummaryDetails | None = None
    disposition: DispositionDetails | None = None


EventData: TypeAlias = (CallCompletedData | AiCallCompletedData | DispositionLoggedData
                        | AppointmentData | AppointmentCancelledData | dict[str, Any])
"""An event's ``data``: a model for the types the contract shows, plain data otherwise."""

DATA_MODELS: dict[str, type[_Data]] = {
    WebhookEventType.CALL_COMPLETED: CallCompletedData,
    WebhookEventType.AI_CALL_COMPLETED: AiCallCompletedData,
    WebhookEventType.DISPOSITION_LOGGED: DispositionLoggedData,
    WebhookEventType.APPOINTMENT_BOOKED: AppointmentData,
    WebhookEventType.APPOINTMENT_MOVED: AppointmentData,
    WebhookEventType.APPOINTMENT_CANCELLED: AppointmentCancelledData,
}
"""The data model of each event type whose data the contract shows."""

_KNOWN_TYPES = frozenset(t.value for t in WebhookEventType)


class Envelope(BaseModel):
    """The envelope as parsed from the raw body, before ``data`` is typed."""

    model_config = ConfigDict(extra="ignore")

    id: WebhookEventId
    type: str = Field(min_length=1)
    created_at: AwareDatetime
    api_version: str
    schema_version: int = Field(ge=1)
    data: dict[str, Any]
    call_details: dict[str, Any] | None = None


class Event(BaseModel):
    """A verified webhook event: the contract's envelope plus the delivery it came in.

    Attributes:
        id: ``evt_...``; retries and replays keep it: the key to de-duplicate on.
        type: The event type (a :class:`~dialkit.contract.WebhookEventType` when known).
        created_at: When the event happened; order events by it, not by arrival.
        api_version: ``v1``.
        schema_version: The data's schema version (1 or more).
        data: A typed model for the types the contract shows, plain data otherwise.
        call_details: The envelope's ``call_details``, when present.
        delivery_id: ``Service-Delivery-Id`` (``whd_...``); a replay has a new one.
        signed_at: ``Service-Timestamp``, Unix seconds: when the service signed this
            attempt. The signature covers it and the body, not the delivery id, so the
            store tells deliveries apart by it too (``None`` when not known).
    """

    model_config = ConfigDict(frozen=True)

    id: WebhookEventId
    type: WebhookEventType | str
    created_at: AwareDatetime
    api_version: str
    schema_version: int
    data: EventData
    call_details: CallDetails | None = None
    delivery_id: WebhookDeliveryId | None = None
    signed_at: int | None = None


def parse_envelope(body: bytes) -> Envelope:
    """The envelope of a verified raw body, ``data`` not yet typed (all a store needs).

    Raises:
        EnvelopeError: If the body is not JSON or lacks an envelope field.
    """
    try:
        return Envelope.model_validate_json(body)
    except ValidationError as exc:
        raise EnvelopeError(f"the signed body is not a v1 event envelope: {_first(exc)}") from None


def event_of(envelope: Envelope, delivery_id: str | None, signed_at: int | None = None
             ) -> Event:
    """The typed :class:`Event` of a parsed envelope."""
    kind: WebhookEventType | str = envelope.type
    if kind in _KNOWN_TYPES:
        kind = WebhookEventType(kind)
    return Event.model_construct(
        id=envelope.id, type=kind, created_at=envelope.created_at.astimezone(UTC),
        api_version=envelope.api_version, schema_version=envelope.schema_version,
        data=_typed(envelope.type, envelope.data),
        call_details=_details(envelope.call_details), delivery_id=delivery_id,
        signed_at=signed_at)


def _typed(kind: str, data: dict[str, Any]) -> EventData:
    model = DATA_MODELS.get(kind)
    if model is None:
        return data
    try:
        typed: EventData = model.model_validate(data)  # type: ignore[assignment]
    except ValidationError:
        return data
    return typed


def _details(details: dict[str, Any] | None) -> CallDetails | None:
    if details is None:
        return None
    try:
        return CallDetails.model_validate(details)
    except ValidationError:  # the raw body, kept by the store, still has it
        return None


def _first(exc: ValidationError) -> str:
    """The first problem of a validation error, without the input value."""
    error = exc.errors(include_input=False, include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"]) or "body"
    return f"{where}: {error['msg']}"
