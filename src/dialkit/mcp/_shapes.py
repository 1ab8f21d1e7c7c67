"""Each operation's request and answer shapes, as the contract gives them.

The operation table says method, path and scope; this module adds what a
tool needs besides: the query parameters, the request body model and the
answer model. Where the contract shows no shape, the body is any JSON object
(``FREE_BODY``) and the answer any JSON object (``ANY_OBJECT``). Query filters
the contract does not show are the client's (``dialkit.Client``), so both
front doors take the same arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from dialkit.contract import (
    DEFAULT_PAGE_LIMIT,
    EXTERNAL_ID_MAX,
    MAX_CURSOR_LENGTH,
    MAX_IF_MATCH_LENGTH,
    MAX_PAGE_LIMIT,
    SMS_CLIENT_REFERENCE_MAX,
    Appointment,
    AppointmentCreateRequest,
    AppointmentRescheduleRequest,
    AppointmentStatus,
    Call,
    Callback,
    CallbackCreateRequest,
    CallbackRescheduleRequest,
    CallbackStatus,
    CallCreateRequest,
    CallDirection,
    CallSummary,
    Campaign,
    CampaignId,
    CampaignStatus,
    DncAddRequest,
    DncCheckRequest,
    DncCheckResponse,
    ImportResponse,
    Lead,
    LeadCreateBody,
    LeadCreated,
    LeadImportBody,
    LeadStatus,
    LeadUpdateRequest,
    Page,
    ReplayRequest,
    ReplayResponse,
    SecretRotation,
    SmsMessage,
    SmsSendRequest,
    StartedCall,
    WebhookCreateRequest,
    WebhookEndpoint,
    WebhookEndpointCreated,
    WebhookEvent,
    WebhookEventType,
    WebhookUpdateRequest,
)

EMPTY_BODY: Final = "empty"
"""The operation takes ``{}`` (pause, resume, cancel, rotate-secret, test)."""
FREE_BODY: Final = "free"
"""The contract does not show the body: the tool takes any fields and sends them."""
ANY_OBJECT: Final = "object"
"""The contract does not show the answer: any JSON object."""
NO_JSON: Final = "none"
"""The answer is not JSON: no body (a delete) or a stream (a recording)."""


class _Query(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ListQuery(_Query):
    """``limit`` and ``cursor`` of every list operation."""

    limit: int = Field(DEFAULT_PAGE_LIMIT, ge=1, le=MAX_PAGE_LIMIT,
                       description="Items per page (1-100).")
    cursor: str | None = Field(None, min_length=1, max_length=MAX_CURSOR_LENGTH,
                               description="page.next_cursor of the previous page.")


class LeadListQuery(ListQuery):
    """Filters of ``GET /v1/leads``."""

    campaign_id: CampaignId | None = None
    status: LeadStatus | None = None
    external_id: str | None = Field(None, min_length=1, max_length=EXTERNAL_ID_MAX)


class CampaignListQuery(ListQuery):
    """Filters of ``GET /v1/campaigns``."""

    status: CampaignStatus | None = None


class CallListQuery(ListQuery):
    """Filters of ``GET /v1/calls``."""

    campaign_id: CampaignId | None = None
    direction: CallDirection | None = None


class CallbackListQuery(ListQuery):
    """Filters of ``GET /v1/callbacks``; ``campaign_id`` is required."""

    campaign_id: CampaignId


class EventListQuery(ListQuery):
    """Filters of ``GET /v1/webhook-events`` (``type`` is the client's filter)."""

    type: WebhookEventType | None = None


class AppointmentListQuery(ListQuery):
    """Filters of ``GET /v1/appointments`` (``status`` is the client's filter)."""

    status: AppointmentStatus | None = None


class DeliveryReportQuery(ListQuery):
    """Filters of ``GET /v1/sms/delivery-reports`` (the client's filter)."""

    client_reference: str | None = Field(None, min_length=1,
                                         max_length=SMS_CLIENT_REFERENCE_MAX)


class CallbackStatusQuery(CallbackListQuery):
    """``GET /v1/callbacks`` with its status filter."""

    status: CallbackStatus | None = None


class ImportQuery(_Query):
    """Query of ``POST /v1/leads/import``."""

    campaign_id: CampaignId


class DispositionQuery(_Query):
    """Query of the disposition report (the client's parameters)."""

    from_: date | None = Field(None, alias="from", description="First day, UTC (inclusive).")
    to: date | None = Field(None, description="Last day, UTC (inclusive).")
    campaign_id: CampaignId | None = None


@dataclass(frozen=True, slots=True)
class Shape:
    """What a tool of one operation takes and gives.

    Attributes:
        query: The query parameters' model, if any.
        body: The body model, :data:`EMPTY_BODY`, :data:`FREE_BODY` or ``None``.
        answer: The answer model (or type), :data:`ANY_OBJECT` or :data:`NO_JSON`.
        if_match: Whether the operation takes ``If-Match``.
    """

    query: type[BaseModel] | None = None
    body: type[BaseModel] | str | None = None
    answer: Any = ANY_OBJECT
    if_match: bool = False


SHAPES: dict[str, Shape] = {
    "me": Shape(),
    "leads.list": Shape(query=LeadListQuery, answer=Page[Lead]),
    "leads.get": Shape(answer=Lead),
    "leads.history": Shape(),
    "leads.create": Shape(body=LeadCreateBody, answer=LeadCreated),
    "leads.update": Shape(body=LeadUpdateRequest, answer=Lead, if_match=True),
    "leads.import": Shape(query=ImportQuery, body=LeadImportBody, answer=ImportResponse),
    "campaigns.list": Shape(query=CampaignListQuery, answer=Page[Campaign]),
    "campaigns.get": Shape(answer=Campaign),
    "campaigns.progress": Shape(),
    "campaigns.pause": Shape(body=EMPTY_BODY, answer=Campaign),
    "campaigns.resume": Shape(body=EMPTY_BODY, answer=Campaign),
    "calls.list": Shape(query=CallListQuery, answer=Page[Call]),
    "calls.get": Shape(answer=Call),
    "calls.create": Shape(body=CallCreateRequest, answer=StartedCall),
    "calls.recording": Shape(answer=NO_JSON),
    "calls.transcript": Shape(),
    "calls.summary": Shape(answer=CallSummary),
    "webhooks.list": Shape(query=ListQuery, answer=Page[WebhookEndpoint]),
    "webhooks.get": Shape(answer=WebhookEndpoint),
    "webhooks.create": Shape(body=WebhookCreateRequest, answer=WebhookEndpointCreated),
    "webhooks.update": Shape(body=WebhookUpdateRequest, answer=WebhookEndpoint),
    "webhooks.delete": Shape(answer=NO_JSON),
    "webhooks.test": Shape(body=EMPTY_BODY),
    "webhooks.rotate_secret": Shape(body=EMPTY_BODY, answer=SecretRotation),
    "webhook_events.list": Shape(query=EventListQuery, answer=Page[WebhookEvent]),
    "webhook_events.get": Shape(answer=WebhookEvent),
    "webhook_events.replay": Shape(body=ReplayRequest, answer=ReplayResponse),
    "dnc.check": Shape(body=DncCheckRequest, answer=DncCheckResponse),
    "dnc.add": Shape(body=DncAddRequest),
    "consents.create": Shape(body=FREE_BODY),
    "callbacks.list": Shape(query=CallbackStatusQuery, answer=Page[Callback]),
    "callbacks.create": Shape(body=CallbackCreateRequest, answer=Callback),
    "callbacks.cancel": Shape(body=EMPTY_BODY, answer=Callback),
    "callbacks.reschedule": Shape(body=CallbackRescheduleRequest, answer=Callback),
    "appointments.list": Shape(query=AppointmentListQuery, answer=Page[Appointment]),
    "appointments.get": Shape(answer=Appointment),
    "appointments.create": Shape(body=AppointmentCreateRequest, answer=Appointment),
    "appointments.cancel": Shape(body=EMPTY_BODY, answer=Appointment, if_match=True),
    "appointments.reschedule": Shape(body=AppointmentRescheduleRequest, answer=Appointment),
    "sms.send": Shape(body=SmsSendRequest, answer=SmsMessage),
    "sms.delivery_reports": Shape(query=DeliveryReportQuery),
    "sms.usage": Shape(),
    "whatsapp.send": Shape(body=FREE_BODY),
    "reports.dispositions": Shape(query=DispositionQuery),
}
"""The shape of every operation of :data:`dialkit.contract.OPERATIONS`, by name."""

IF_MATCH_FIELD = Field(None, max_length=MAX_IF_MATCH_LENGTH,
                       description="ETag of your last read (If-Match); a changed resource "
                       "answers 412 precondition_failed.")
