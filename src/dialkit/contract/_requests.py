"""Request bodies, refusing unknown fields as the service does.

Optional fields default to ``None`` meaning "not sent"; serialise with
``model_dump(mode="json", exclude_unset=True)`` so only what the caller set
goes on the wire (for :class:`LeadUpdateRequest` an explicit ``None`` then
clears ``full_name`` or ``email``, and a ``None`` value in ``custom_fields``
removes that key).

Lead import and single add are checked in two layers. The contract's rules
for a lead's fields (:class:`LeadInput`) are answered per lead, in the lead's
result, and never refuse the request; only the request's shape is refused
whole. :class:`LeadImportBody` and :class:`LeadCreateBody` are that shape:
any JSON per lead field, unknown fields refused, and the single add's
options checked strictly. The emulator parses requests with them, and the
client checks arguments with them before sending.

Two refusals the contract gives their own code are plain validation errors
here: too many items in ``leads`` or ``phones`` (the service answers 400
``batch_too_large``) is a ``too_long`` error at that field, and a non-https
webhook URL is accepted here because the service answers 422
``webhook_url_refused`` for it.
"""

import functools
import re
from datetime import UTC, datetime
from importlib.resources import files
from typing import Annotated, Self

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    StringConstraints,
    WithJsonSchema,
    create_model,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ._enums import SUBSCRIBABLE_EVENT_TYPES, WebhookEventType
from ._ids import CampaignId, LeadId, WebhookEndpointId
from ._limits import (
    AGENT_EMAIL_MAX,
    AGENT_EMAIL_MIN,
    APPOINTMENT_CONTACT_NAME_MAX,
    APPOINTMENT_DURATION_MAX,
    APPOINTMENT_DURATION_MIN,
    APPOINTMENT_NOTES_MAX,
    APPOINTMENT_SERVICE_TYPE_MAX,
    APPOINTMENT_TIMEZONE_MAX,
    CALLBACK_NOTES_MAX,
    DIAL_WINDOW_DEFAULT,
    DIAL_WINDOW_MAX,
    DIAL_WINDOW_MIN,
    DNC_CHECK_BATCH,
    EMAIL_MAX,
    EXTERNAL_ID_MAX,
    FIRST_NAME_MAX,
    FULL_NAME_MAX,
    LAST_NAME_MAX,
    MAX_CUSTOM_FIELDS,
    MAX_IMPORT_BATCH,
    PHONE_MAX,
    SMS_BODY_MAX,
    SMS_CLIENT_REFERENCE_MAX,
    SOURCE_MAX,
    WEBHOOK_DESCRIPTION_MAX,
    WEBHOOK_EVENTS_MAX,
    WEBHOOK_EVENTS_MIN,
    WEBHOOK_URL_MAX,
    WEBHOOK_URL_MIN,
)

E164_PATTERN = r"^\+[1-9][0-9]{1,14}$"
"""What a number in E.164 form looks like: ``+``, then 2 to 15 digits, the first not 0."""

E164 = Annotated[str, StringConstraints(pattern=E164_PATTERN)]
"""A phone number in E.164 form, e.g. ``+14155550123``."""

_E164_SHAPE = re.compile(E164_PATTERN)


def is_e164(text: str) -> bool:
    """Whether ``text`` is written in E.164 form (:data:`E164_PATTERN`), all of it: the one
    reading of that shape, for the modules that ask it of text outside a model.

    Examples:
        >>> is_e164("+14155550123"), is_e164("+1 415 555 0123"), is_e164("+14155550123\\n")
        (True, False, False)
    """
    return _E164_SHAPE.fullmatch(text) is not None


def _in_utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("the instant falls outside years 1-9999 once in UTC") from None


_ISO_DATE_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ]")


def _iso_text(value: object) -> object:
    """A datetime, or text in ISO 8601: pydantic would take a number for a Unix time."""
    if isinstance(value, str) and _ISO_DATE_TIME.match(value) or isinstance(value, datetime):
        return value
    raise PydanticCustomError("datetime_parsing",
                              "Input should be an ISO 8601 date-time with an offset")


UtcDateTime = Annotated[AwareDatetime, BeforeValidator(_iso_text), AfterValidator(_in_utc)]
"""A request timestamp: ISO 8601 with an offset, converted to UTC (the service stores UTC)."""


def _subscribable(value: WebhookEventType) -> WebhookEventType:
    if value not in SUBSCRIBABLE_EVENT_TYPES:
        raise ValueError(f"{value.value!r} is not a subscribable event type")
    return value


SubscribableEventType = Annotated[
    WebhookEventType,
    AfterValidator(_subscribable),
    WithJsonSchema({"type": "string", "enum": sorted(t.value for t in SUBSCRIBABLE_EVENT_TYPES)}),
]
"""A :class:`WebhookEventType` other than ``webhook.test``."""

WEBHOOK_URL_PATTERN = (r"^[Hh][Tt][Tt][Pp][Ss]://[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]{1,4})?"
                       r"([/?#][!-~]*)?$")
"""A webhook ``url`` as the OpenAPI document states it: https (in any case) to a host name
or IPv4 address, an optional port, then printable ASCII. Stated, not checked here: the
service answers a URL that is not https with 422 ``webhook_url_refused``, not 400."""

_WebhookUrl = Annotated[
    str, StringConstraints(min_length=WEBHOOK_URL_MIN, max_length=WEBHOOK_URL_MAX),
    Field(json_schema_extra={"pattern": WEBHOOK_URL_PATTERN}),
]
_WebhookEvents = Annotated[
    list[SubscribableEventType],
    Field(min_length=WEBHOOK_EVENTS_MIN, max_length=WEBHOOK_EVENTS_MAX),
]
_WebhookDescription = Annotated[str, Field(max_length=WEBHOOK_DESCRIPTION_MAX)]
_AppointmentDuration = Annotated[
    int, Field(ge=APPOINTMENT_DURATION_MIN, le=APPOINTMENT_DURATION_MAX)
]


@functools.cache
def time_zone_names() -> frozenset[str]:
    """The IANA zone names, from the tzdata package's list. Not ``available_timezones()``:
    that also lists the machine's ``localtime`` and other files that are not zones."""
    return frozenset(files("tzdata").joinpath("zones").read_text().split()) - {"Factory"}


_Timezone = Annotated[str, Field(max_length=APPOINTMENT_TIMEZONE_MAX)]
"""An IANA zone name: the emulator checks it is one of :func:`time_zone_names` (400
``invalid_timezone``), and its OpenAPI document lists them; the model's own JSON Schema
does not, so that an MCP tool's is not 600 names long."""


class RequestBody(BaseModel):
    """Base of every request body: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class EmptyBody(RequestBody):
    """Body of pause, resume, cancel, rotate-secret and test: empty or ``{}``."""


class LeadInput(RequestBody):
    """One lead as imported or added; only ``phone`` is required."""

    external_id: str | None = Field(default=None, min_length=1, max_length=EXTERNAL_ID_MAX)
    phone: str = Field(min_length=1, max_length=PHONE_MAX)
    first_name: str | None = Field(default=None, max_length=FIRST_NAME_MAX)
    last_name: str | None = Field(default=None, max_length=LAST_NAME_MAX)
    full_name: str | None = Field(default=None, max_length=FULL_NAME_MAX)
    email: str | None = Field(default=None, max_length=EMAIL_MAX)
    custom_fields: dict[str, JsonValue] | None = Field(default=None, max_length=MAX_CUSTOM_FIELDS)


class LeadImportRequest(RequestBody):
    """Body of ``POST /v1/leads/import?campaign_id=...``."""

    leads: list[LeadInput] = Field(min_length=1, max_length=MAX_IMPORT_BATCH)


class LeadCreateRequest(LeadInput):
    """Body of ``POST /v1/leads``: a lead plus campaign and dial-now options.

    ``source`` is the code of one of the account's lead sources; it is stored
    on the lead as the custom field ``lead_source``.
    """

    campaign_id: CampaignId
    source: str | None = Field(default=None, min_length=1, max_length=SOURCE_MAX)
    dial_now: bool = False
    dial_within_seconds: int = Field(
        default=DIAL_WINDOW_DEFAULT, ge=DIAL_WINDOW_MIN, le=DIAL_WINDOW_MAX
    )


_LENIENT = ("Any JSON. A value breaking the contract's rule for this field makes this lead's "
            "result `invalid`; the request is not refused.")
_LEAD_FIELDS = {name: (JsonValue, Field(None, description=_LENIENT))
                for name in LeadInput.model_fields}
_CREATE_OPTIONS = {name: (info.annotation, info)
                   for name, info in LeadCreateRequest.model_fields.items()
                   if name not in LeadInput.model_fields}

LeadItem = create_model(  # type: ignore[call-overload]
    "LeadItem", __base__=RequestBody, **_LEAD_FIELDS)
"""One lead of an import; each field is judged per lead."""
LeadCreateBody = create_model(  # type: ignore[call-overload]
    "LeadCreateBody", __base__=RequestBody, **_CREATE_OPTIONS, **_LEAD_FIELDS)
"""Body of POST /v1/leads: strict options, lead fields judged per lead."""


class LeadImportBody(RequestBody):
    """Body of ``POST /v1/leads/import`` as refused whole: 1 or more leads of known fields.

    More than 200 leads is refused as 400 ``batch_too_large`` once the shape
    is valid, so the limit is in the schema only.
    """

    leads: list[LeadItem] = Field(
        min_length=1, json_schema_extra={"maxItems": MAX_IMPORT_BATCH})


class LeadUpdateRequest(RequestBody):
    """Body of ``PATCH /v1/leads/{lead_id}``; only these fields can change.

    In ``custom_fields`` a key set to null is removed and keys not sent are
    kept.
    """

    full_name: str | None = Field(default=None, max_length=FULL_NAME_MAX)
    email: str | None = Field(default=None, max_length=EMAIL_MAX)
    custom_fields: dict[str, JsonValue] | None = Field(default=None, max_length=MAX_CUSTOM_FIELDS)


class CallCreateRequest(RequestBody):
    """Body of ``POST /v1/calls`` (click-to-call).

    The agent is named by exactly one of ``agent_extension`` or
    ``agent_email``.
    """

    to: E164
    agent_extension: str | None = Field(default=None, min_length=1)
    agent_email: str | None = Field(
        default=None, min_length=AGENT_EMAIL_MIN, max_length=AGENT_EMAIL_MAX
    )
    caller_id: E164 | None = None
    campaign_id: CampaignId | None = None
    lead_id: LeadId | None = None

    @model_validator(mode="after")
    def _one_agent(self) -> Self:
        if (self.agent_extension is None) == (self.agent_email is None):
            raise ValueError("name the agent by exactly one of agent_extension or agent_email")
        return self


class WebhookCreateRequest(RequestBody):
    """Body of ``POST /v1/webhooks``; the URL must be https and public."""

    url: _WebhookUrl
    events: _WebhookEvents
    description: _WebhookDescription | None = None


class WebhookUpdateRequest(RequestBody):
    """Body of ``PATCH /v1/webhooks/{webhook_id}``: any of these fields."""

    url: _WebhookUrl | None = None
    events: _WebhookEvents | None = None
    description: _WebhookDescription | None = None
    enabled: bool | None = None


class ReplayRequest(RequestBody):
    """Body of an event replay; without ``webhook_id`` every endpoint gets it."""

    webhook_id: WebhookEndpointId | None = None


class DncCheckRequest(RequestBody):
    """Body of ``POST /v1/dnc/check`` (read-only)."""

    phones: list[E164] = Field(min_length=1, max_length=DNC_CHECK_BATCH)


class DncAddRequest(RequestBody):
    """Body of ``POST /v1/dnc``; the contract does not show more than ``phone``."""

    phone: E164


class SmsSendRequest(RequestBody):
    """Body of ``POST /v1/sms``; ``client_reference`` must be unique."""

    to: E164
    body: str = Field(min_length=1, max_length=SMS_BODY_MAX)
    client_reference: str = Field(min_length=1, max_length=SMS_CLIENT_REFERENCE_MAX)


class CallbackCreateRequest(RequestBody):
    """Body of ``POST /v1/callbacks``."""

    lead_id: LeadId
    scheduled_at: UtcDateTime
    notes: str | None = Field(default=None, max_length=CALLBACK_NOTES_MAX)


class CallbackRescheduleRequest(RequestBody):
    """Body of ``POST /v1/callbacks/{callback_id}/reschedule``."""

    scheduled_at: UtcDateTime


class AppointmentCreateRequest(RequestBody):
    """Body of ``POST /v1/appointments``; no email is accepted.

    The contract gives ``duration_minutes`` no default, so it is omitted
    unless set.
    """

    phone: E164
    scheduled_at: UtcDateTime
    duration_minutes: _AppointmentDuration | None = None
    timezone: _Timezone | None = None
    service_type: str | None = Field(default=None, max_length=APPOINTMENT_SERVICE_TYPE_MAX)
    contact_name: str | None = Field(default=None, max_length=APPOINTMENT_CONTACT_NAME_MAX)
    notes: str | None = Field(default=None, max_length=APPOINTMENT_NOTES_MAX)


class AppointmentRescheduleRequest(RequestBody):
    """Body of an appointment reschedule.

    The contract does not show this shape; these fields mirror the create
    body's time fields.
    """

    scheduled_at: UtcDateTime
    duration_minutes: _AppointmentDuration | None = None
    timezone: _Timezone | None = None
