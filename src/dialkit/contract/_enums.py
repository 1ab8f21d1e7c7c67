"""Closed value sets of the contract, as string enums.

Only sets the contract closes are enums. Statuses whose full set the contract
leaves open (call, SMS and appointment status in responses) stay plain ``str``
in the response models, so a new value from the service never breaks a
client. :class:`AppointmentStatus` lists the names the contract has seen, for
request-side use and for the emulator.
"""

from enum import StrEnum


class ApiVersion(StrEnum):
    """Version carried by webhook events and envelopes (``api_version``)."""

    V1 = "v1"


class LeadStatus(StrEnum):
    """Status of a lead; also the values of the lead list's ``status`` filter."""

    NEW = "new"
    CONTACTED = "contacted"
    CALLBACK = "callback"
    DNC = "dnc"
    COMPLETED = "completed"


class CampaignStatus(StrEnum):
    """States of a campaign; also the campaign list's ``status`` filter."""

    DRAFT = "draft"
    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    COMPLETED = "completed"


IMPORTABLE_STATUSES = (CampaignStatus.DRAFT, CampaignStatus.READY, CampaignStatus.PAUSED)
"""Campaign states a lead import accepts (others: 409 ``campaign_not_importable``)."""


class CallDirection(StrEnum):
    """Direction of a call; also the call list's ``direction`` filter."""

    INBOUND = "inbound"
    OUTBOUND = "outbound"


class CallStatus(StrEnum):
    """Call status names the contract and the emulator write (the full set is not shown:
    a call record's ``status`` stays ``str``). ``dialing`` is a started call's, ``completed``
    appears in call data; the others are the emulator's outcomes of an unanswered call.
    What the audit reads a calls file's ``status`` by (a value none of these, in any case,
    is named and held out of the rules it decides, never read as one)."""

    DIALING = "dialing"
    COMPLETED = "completed"
    NO_ANSWER = "no-answer"
    BUSY = "busy"
    FAILED = "failed"
    VOICEMAIL = "voicemail"


class CallDisposition(StrEnum):
    """Disposition codes of a call the contract's service and its emulator write (the full
    set is not shown: a call record's ``disposition`` stays ``str``). ``do_not_call`` is
    the person's request not to be called again."""

    SALE = "sale"
    NOT_INTERESTED = "not_interested"
    CALLBACK_REQUESTED = "callback_requested"
    INFO_SENT = "info_sent"
    WRONG_NUMBER = "wrong_number"
    DO_NOT_CALL = "do_not_call"
    VOICEMAIL_LEFT = "voicemail_left"
    INQUIRY = "inquiry"


class HangupCause(StrEnum):
    """The carrier's outcomes of a call (``hangup_cause``) the service and its emulator
    write (the full set is not shown: the record's field stays ``str``)."""

    NORMAL_CLEARING = "normal_clearing"
    NO_ANSWER = "no_answer"
    USER_BUSY = "user_busy"
    CALL_REJECTED = "call_rejected"
    UNALLOCATED_NUMBER = "unallocated_number"
    NETWORK_OUT_OF_ORDER = "network_out_of_order"
    NO_ROUTE_DESTINATION = "no_route_destination"
    NUMBER_CHANGED = "number_changed"


class CallbackStatus(StrEnum):
    """States of a callback; also the callback list's ``status`` filter."""

    PENDING = "pending"
    COMPLETED = "completed"
    CANCELLED = "cancelled"


class AppointmentStatus(StrEnum):
    """Appointment state names seen in the contract (the full set is not shown)."""

    SCHEDULED = "scheduled"
    CONFIRMED = "confirmed"
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    NO_SHOW = "no-show"


class WebhookEventType(StrEnum):
    """Types of webhook events, including the non-subscribable test event."""

    CALL_COMPLETED = "call.completed"
    AI_CALL_COMPLETED = "ai_call.completed"
    DISPOSITION_LOGGED = "disposition.logged"
    APPOINTMENT_BOOKED = "appointment.booked"
    APPOINTMENT_MOVED = "appointment.moved"
    APPOINTMENT_CANCELLED = "appointment.cancelled"
    WEBHOOK_TEST = "webhook.test"


SUBSCRIBABLE_EVENT_TYPES: frozenset[WebhookEventType] = frozenset(WebhookEventType) - {
    WebhookEventType.WEBHOOK_TEST
}
"""The six event types an endpoint may subscribe to (all but ``webhook.test``)."""


class DeliveryStatus(StrEnum):
    """States of one webhook delivery."""

    PENDING = "pending"
    RETRY_SCHEDULED = "retry_scheduled"
    DELIVERED = "delivered"
    FAILED = "failed"
    CANCELLED = "cancelled"


class LeadResultStatus(StrEnum):
    """Per-lead outcome of an import (``LeadResult.status``)."""

    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"
    ON_DNC = "on_dnc"
    INVALID = "invalid"
    BLOCKED_COUNTRY = "blocked_country"
    FAILED = "failed"


class LeadResultReason(StrEnum):
    """Why an imported lead got its status; the field may also be null."""

    INVALID_PHONE = "invalid_phone"
    MISSING_PHONE = "missing_phone"
    FIELD_RULE = "field_rule"
    DUPLICATE_IN_REQUEST = "duplicate_in_request"
    DUPLICATE_IN_CAMPAIGN = "duplicate_in_campaign"
    NOT_STORED = "not_stored"
    UNRECOGNISED = "unrecognised"


class LeadCreatedStatus(StrEnum):
    """Outcome of a single lead add (``LeadCreated.status``)."""

    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"
    ON_DNC = "on_dnc"
    INVALID = "invalid"
    BLOCKED_COUNTRY = "blocked_country"


class LeadCreatedReason(StrEnum):
    """Why a single add got its status; the field may also be null."""

    INVALID_PHONE = "invalid_phone"
    MISSING_PHONE = "missing_phone"
    FIELD_RULE = "field_rule"
    DUPLICATE_IN_CAMPAIGN = "duplicate_in_campaign"
    UNKNOWN_SOURCE = "unknown_source"


class DialNowStatus(StrEnum):
    """What happened to a ``dial_now`` request of a single lead add."""

    NOT_REQUESTED = "not_requested"
    QUEUED = "queued"
    CAMPAIGN_NOT_RUNNING = "campaign_not_running"
    LEAD_NOT_ACCEPTED = "lead_not_accepted"
    UNAVAILABLE = "unavailable"


class SummaryStatus(StrEnum):
    """Status of a call summary; content is present only when ``ready``."""

    READY = "ready"
    PROCESSING = "processing"
    NOT_GENERATED = "not_generated"
