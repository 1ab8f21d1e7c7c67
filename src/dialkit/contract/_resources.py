"""Response models: resources, outcome objects and list pages.

Field names, nullability and types follow the contract's tables: ``T?``
becomes ``T | None`` (still always present), date-times are timezone-aware,
ids are typed. Every model ignores unknown fields, because v1 responses may
gain fields. Statuses whose full set the contract leaves open are ``str``.

Every model can also tell what the answer's headers said about it
(:class:`ResponseInfo`: ``X-Request-ID``, ``Idempotency-Replayed``, ``ETag``)
through :attr:`Resource.request_id`, :attr:`Resource.replayed` and
:attr:`Resource.etag`; the client fills them in. Webhook signing secrets are
:class:`~dialkit._utils._secrets.MaskedStr`, so reprs and notebook outputs show only
their last four characters.

Resources the contract does not shape (me, lead history entry, campaign
progress, transcript, DNC entry, consent record, SMS delivery report, usage
counters, WhatsApp message, disposition report) have no model on purpose.
"""

from dataclasses import dataclass
from typing import Annotated, Generic, TypeVar

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PrivateAttr,
)

from .._utils._secrets import MaskedStr
from ._enums import (
    ApiVersion,
    CallbackStatus,
    CallDirection,
    CampaignStatus,
    DeliveryStatus,
    DialNowStatus,
    LeadCreatedReason,
    LeadCreatedStatus,
    LeadResultReason,
    LeadResultStatus,
    LeadStatus,
    SummaryStatus,
    WebhookEventType,
)
from ._ids import (
    AppointmentId,
    CallbackId,
    CallId,
    CampaignId,
    LeadId,
    MessageId,
    WebhookDeliveryId,
    WebhookEndpointId,
    WebhookEventId,
)
from ._limits import MAX_CURSOR_LENGTH

_T = TypeVar("_T")


def _masked(value: str) -> str:
    return MaskedStr(value)


WebhookSecret = Annotated[str, AfterValidator(_masked)]
"""A webhook signing secret (``whsec_...``) whose repr shows only its last four characters."""


@dataclass(frozen=True, slots=True)
class ResponseInfo:
    """What an answer's status and headers say about it.

    Attributes:
        request_id: ``X-Request-ID``: quote it to the service's support.
        replayed: ``Idempotency-Replayed: true``: the stored answer of an
            earlier request with the same Idempotency-Key; nothing was done
            again.
        status_code: The HTTP status.
        etag: ``ETag``, to send back as ``If-Match`` (leads, appointments).
    """

    request_id: str | None
    replayed: bool = False
    status_code: int = 200
    etag: str | None = None


class Answered:
    """Mixin of results that tell what their answer's headers said.

    Subclasses hold the answer's :class:`ResponseInfo` in ``_response``
    (``None`` for objects that did not come from an answer).
    """

    _response: ResponseInfo | None

    @property
    def request_id(self) -> str | None:
        """The ``X-Request-ID`` of the answer this came from, if it came from one."""
        return None if self._response is None else self._response.request_id

    @property
    def replayed(self) -> bool:
        """Whether the answer was an idempotent replay of an earlier request."""
        return self._response is not None and self._response.replayed

    @property
    def etag(self) -> str | None:
        """The answer's ``ETag``, to pass back as ``if_match=``."""
        return None if self._response is None else self._response.etag


class Resource(Answered, BaseModel):
    """Base of every response model: unknown fields are ignored."""

    model_config = ConfigDict(extra="ignore")

    _response: ResponseInfo | None = PrivateAttr(default=None)


class PageInfo(Resource):
    """Position in a cursor-paginated list.

    Attributes:
        next_cursor: Opaque cursor for the next page; null on the last page.
        has_more: Whether another page follows.
    """

    next_cursor: str | None = Field(max_length=MAX_CURSOR_LENGTH)
    has_more: bool


class Page(Resource, Generic[_T]):
    """One page of a list operation: ``{data: [...], page: {...}}``.

    Examples:
        >>> Page[Campaign].model_validate(
        ...     {"data": [], "page": {"next_cursor": None, "has_more": False}}
        ... ).page.has_more
        False
    """

    data: list[_T]
    page: PageInfo


class Lead(Resource):
    """A contact; ``phone`` never changes after creation."""

    id: LeadId
    campaign_id: CampaignId | None
    external_id: str | None
    phone: str
    full_name: str | None
    email: str | None
    status: LeadStatus
    attempts: int
    custom_fields: dict[str, JsonValue] | None
    last_attempt_at: AwareDatetime | None
    next_attempt_at: AwareDatetime | None
    disposition_code: str | None
    hangup_cause: str | None
    created_at: AwareDatetime
    updated_at: AwareDatetime


class Campaign(Resource):
    """A dialling campaign; ``dialer_mode`` values are not shown."""

    id: CampaignId
    name: str
    status: CampaignStatus
    dialer_mode: str
    created_at: AwareDatetime
    updated_at: AwareDatetime | None
    started_at: AwareDatetime | None
    completed_at: AwareDatetime | None


class Call(Resource):
    """A call record; the set of call statuses is not shown, so ``str``."""

    id: CallId
    direction: CallDirection
    from_number: str
    to_number: str
    status: str
    created_at: AwareDatetime
    answered_at: AwareDatetime | None
    ended_at: AwareDatetime | None
    duration_seconds: float | None
    campaign_id: CampaignId | None
    disposition: str | None
    hangup_cause: str | None


class StartedCall(Resource):
    """Answer to a click-to-call; ``status`` is ``dialing``.

    ``call_id`` is null when the record cannot be matched at once; the call
    still appears in the call list and call events.
    """

    call_id: CallId | None
    status: str
    to: str
    agent_extension: str
    caller_id: str | None
    campaign_id: CampaignId | None
    lead_id: LeadId | None
    recording: bool
    created_at: AwareDatetime


class Callback(Resource):
    """A scheduled callback; ``lead_id`` is null if the lead was deleted."""

    id: CallbackId
    lead_id: LeadId | None
    campaign_id: CampaignId
    scheduled_at: AwareDatetime
    status: CallbackStatus
    notes: str | None
    created_at: AwareDatetime


class Appointment(Resource):
    """A booked appointment; its full status set is not shown, so ``str``."""

    id: AppointmentId
    status: str
    scheduled_at: AwareDatetime
    timezone: str | None
    duration_minutes: int
    service_type: str | None
    contact_name: str | None
    phone: str
    email: str | None
    notes: str | None
    source: str
    created_at: AwareDatetime
    updated_at: AwareDatetime


class WebhookEndpoint(Resource):
    """A webhook endpoint; the full URL is never shown after creation."""

    id: WebhookEndpointId
    url_preview: str
    host: str
    description: str
    events: list[WebhookEventType]
    enabled: bool
    secret_hint: str
    created_at: AwareDatetime
    updated_at: AwareDatetime


class WebhookEndpointCreated(WebhookEndpoint):
    """Create answer: the endpoint plus ``secret``, null on a replayed answer."""

    secret: WebhookSecret | None


class SecretRotation(Resource):
    """Answer to rotate-secret; ``secret`` is null on a replayed answer."""

    webhook_id: WebhookEndpointId
    secret: WebhookSecret | None
    secret_hint: str
    previous_secret_expires_at: AwareDatetime | None


class WebhookDelivery(Resource):
    """One delivery of an event to one endpoint; a replay is a new delivery."""

    id: WebhookDeliveryId
    webhook_id: WebhookEndpointId
    status: DeliveryStatus
    attempts: int
    replay_of: WebhookDeliveryId | None
    last_status_code: int | None
    last_attempt_at: AwareDatetime | None
    next_attempt_at: AwareDatetime | None
    delivered_at: AwareDatetime | None
    failure_reason: str | None
    created_at: AwareDatetime


class WebhookEvent(Resource):
    """Detail of a webhook event; ``data`` is exactly as delivered."""

    id: WebhookEventId
    type: WebhookEventType
    created_at: AwareDatetime
    api_version: ApiVersion
    schema_version: int = Field(ge=1)
    deliveries: list[WebhookDelivery]
    data: dict[str, JsonValue]


class SmsMessage(Resource):
    """An SMS message; ``status`` is ``queued`` on acceptance, others open."""

    id: MessageId
    to: str
    status: str
    client_reference: str
    created_at: AwareDatetime


class LeadResult(Resource):
    """Outcome of one imported lead, matched to the input by 0-based ``index``.

    ``field`` names the first field a ``field_rule`` refusal concerns, as the
    request sent it (e.g. ``custom_fields.<name>``), and is null otherwise.
    """

    index: int = Field(ge=0)
    external_id: str | None
    status: LeadResultStatus
    reason: LeadResultReason | None
    field: str | None
    lead_id: LeadId | None


class ImportSummary(Resource):
    """Counts of an import: leads received, accepted and rejected."""

    received: int
    accepted: int
    rejected: int


class ImportResponse(Resource):
    """Answer to a lead import: one :class:`LeadResult` per input lead."""

    campaign_id: CampaignId
    data: list[LeadResult]
    summary: ImportSummary


class DialNowOutcome(Resource):
    """What became of ``dial_now``; ``expires_at`` ends the front-of-queue slot."""

    status: DialNowStatus
    expires_at: AwareDatetime | None


class LeadCreated(Resource):
    """Answer to a single lead add."""

    status: LeadCreatedStatus
    reason: LeadCreatedReason | None
    field: str | None
    lead_id: LeadId | None
    external_id: str | None
    campaign_id: CampaignId
    dial_now: DialNowOutcome


class DncCheckResult(Resource):
    """Whether one checked number is on the Do-Not-Call list.

    Fields a service adds within v1 are kept as plain data in ``model_extra``
    rather than dropped: the emulator's ``listed_at`` (since when the number is
    listed) is what dates a listing for a compliance audit.
    """

    model_config = ConfigDict(extra="allow")

    phone: str
    listed: bool


class DncCheckResponse(Resource):
    """Answer to a DNC check: one result per input number, in input order."""

    data: list[DncCheckResult]


class ReplayDelivery(Resource):
    """One new delivery created by a replay."""

    event_id: WebhookEventId
    delivery_id: WebhookDeliveryId


class ReplayResponse(Resource):
    """Answer to an event replay (202)."""

    event_id: WebhookEventId
    deliveries: list[ReplayDelivery]


class CallSummary(Resource):
    """AI summary of a call; content fields are null unless ``ready``.

    The full shape is not shown by the contract: only ``status``,
    ``schema_version`` and the known content fields are modelled.
    """

    status: SummaryStatus
    schema_version: int
    not_generated_reason: str | None = None
    reason_for_contact: str | None = None
    intent: str | None = None
    next_action: str | None = None
    outcome_candidate: str | None = None
    language: str | None = None
    source: str | None = None
    generated_at: AwareDatetime | None = None
