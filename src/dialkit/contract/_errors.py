"""Error codes, their HTTP statuses, and the problem+json body.

Errors are ``application/problem+json`` (RFC 9457). Clients branch on the
HTTP status and :class:`ErrorCode`, never on ``detail``. The emulator answers
with :data:`ERROR_STATUS` and :data:`ERROR_TITLES`, so both sides read one
table.
"""

from collections.abc import Iterable, Mapping
from enum import StrEnum
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict


class ErrorCode(StrEnum):
    """Every ``code`` of the contract's Errors table and Conventions."""

    INVALID_API_KEY = "invalid_api_key"
    API_ACCESS_DISABLED = "api_access_disabled"
    IP_NOT_ALLOWED = "ip_not_allowed"
    INSUFFICIENT_SCOPE = "insufficient_scope"
    CREDENTIAL_IN_URL = "credential_in_url"
    CREDENTIAL_IN_BODY = "credential_in_body"
    VALIDATION_FAILED = "validation_failed"
    BATCH_TOO_LARGE = "batch_too_large"
    INVALID_CURSOR = "invalid_cursor"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    IDEMPOTENCY_KEY_REQUIRED = "idempotency_key_required"
    TIER_NOT_ENABLED = "tier_not_enabled"
    NOT_FOUND = "not_found"
    ROUTE_NOT_AVAILABLE = "route_not_available"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    CONFLICT = "conflict"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    OUTCOME_UNKNOWN = "outcome_unknown"
    AGENT_UNAVAILABLE = "agent_unavailable"
    DIAL_REFUSED = "dial_refused"
    ON_DNC = "on_dnc"
    BLOCKED_COUNTRY = "blocked_country"
    MESSAGE_REFUSED = "message_refused"
    INSUFFICIENT_BALANCE = "insufficient_balance"
    SENDING_SUSPENDED = "sending_suspended"
    OUTBOUND_NOT_APPROVED = "outbound_not_approved"
    DUPLICATE_CLIENT_REFERENCE = "duplicate_client_reference"
    RATE_LIMIT_EXCEEDED = "rate_limit_exceeded"
    DAILY_CAP_REACHED = "daily_cap_reached"
    SPEND_CAP_REACHED = "spend_cap_reached"
    WEBHOOKS_DISABLED = "webhooks_disabled"
    WEBHOOK_URL_REFUSED = "webhook_url_refused"
    WEBHOOK_LIMIT_REACHED = "webhook_limit_reached"
    REPLAY_UNAVAILABLE = "replay_unavailable"
    REPLAY_LIMIT_REACHED = "replay_limit_reached"
    CAMPAIGN_NOT_IMPORTABLE = "campaign_not_importable"
    DNC_SCREEN_UNAVAILABLE = "dnc_screen_unavailable"
    CAMPAIGN_NOT_PAUSED = "campaign_not_paused"
    CAMPAIGN_NOT_RUNNING = "campaign_not_running"
    REGISTRY_STALE_BLOCKED = "registry_stale_blocked"
    CALLBACK_NOT_PENDING = "callback_not_pending"
    APPOINTMENT_NOT_MODIFIABLE = "appointment_not_modifiable"
    PRECONDITION_FAILED = "precondition_failed"
    TEMPORARILY_UNAVAILABLE = "temporarily_unavailable"
    UPSTREAM_UNAVAILABLE = "upstream_unavailable"
    UPSTREAM_INVALID_RESPONSE = "upstream_invalid_response"
    INTERNAL_ERROR = "internal_error"


_E = ErrorCode

ERROR_STATUS: Mapping[ErrorCode, int] = MappingProxyType(
    {
        _E.INVALID_API_KEY: 401,
        _E.API_ACCESS_DISABLED: 403,
        _E.IP_NOT_ALLOWED: 403,
        _E.INSUFFICIENT_SCOPE: 403,
        _E.CREDENTIAL_IN_URL: 400,
        _E.CREDENTIAL_IN_BODY: 400,
        _E.VALIDATION_FAILED: 400,
        _E.BATCH_TOO_LARGE: 400,
        _E.INVALID_CURSOR: 400,
        _E.PAYLOAD_TOO_LARGE: 413,
        _E.UNSUPPORTED_MEDIA_TYPE: 415,
        _E.IDEMPOTENCY_KEY_REQUIRED: 400,
        _E.TIER_NOT_ENABLED: 403,
        _E.NOT_FOUND: 404,
        _E.ROUTE_NOT_AVAILABLE: 404,
        _E.METHOD_NOT_ALLOWED: 405,
        _E.CONFLICT: 409,
        _E.IDEMPOTENCY_CONFLICT: 409,
        _E.OUTCOME_UNKNOWN: 409,
        _E.AGENT_UNAVAILABLE: 409,
        _E.DIAL_REFUSED: 422,
        _E.ON_DNC: 422,
        _E.BLOCKED_COUNTRY: 422,
        _E.MESSAGE_REFUSED: 422,
        _E.INSUFFICIENT_BALANCE: 402,
        _E.SENDING_SUSPENDED: 403,
        _E.OUTBOUND_NOT_APPROVED: 403,
        _E.DUPLICATE_CLIENT_REFERENCE: 409,
        _E.RATE_LIMIT_EXCEEDED: 429,
        _E.DAILY_CAP_REACHED: 429,
        _E.SPEND_CAP_REACHED: 429,
        _E.WEBHOOKS_DISABLED: 403,
        _E.WEBHOOK_URL_REFUSED: 422,
        _E.WEBHOOK_LIMIT_REACHED: 409,
        _E.REPLAY_UNAVAILABLE: 409,
        _E.REPLAY_LIMIT_REACHED: 429,
        _E.CAMPAIGN_NOT_IMPORTABLE: 409,
        _E.DNC_SCREEN_UNAVAILABLE: 503,
        _E.CAMPAIGN_NOT_PAUSED: 409,
        _E.CAMPAIGN_NOT_RUNNING: 409,
        _E.REGISTRY_STALE_BLOCKED: 409,
        _E.CALLBACK_NOT_PENDING: 409,
        _E.APPOINTMENT_NOT_MODIFIABLE: 409,
        _E.PRECONDITION_FAILED: 412,
        _E.TEMPORARILY_UNAVAILABLE: 503,
        _E.UPSTREAM_UNAVAILABLE: 503,
        _E.UPSTREAM_INVALID_RESPONSE: 502,
        _E.INTERNAL_ERROR: 500,
    }
)
"""HTTP status the service answers with for each code.

``validation_failed`` maps to 400; the contract allows 400 or 422 for it, so
clients must accept both.
"""

ERROR_TITLES: Mapping[ErrorCode, str] = MappingProxyType(
    {
        _E.INVALID_API_KEY: "Invalid API key",
        _E.API_ACCESS_DISABLED: "API access disabled",
        _E.IP_NOT_ALLOWED: "Address not allowed",
        _E.INSUFFICIENT_SCOPE: "Insufficient scope",
        _E.CREDENTIAL_IN_URL: "Credential in URL",
        _E.CREDENTIAL_IN_BODY: "Credential in body",
        _E.VALIDATION_FAILED: "Validation failed",
        _E.BATCH_TOO_LARGE: "Batch too large",
        _E.INVALID_CURSOR: "Invalid cursor",
        _E.PAYLOAD_TOO_LARGE: "Payload too large",
        _E.UNSUPPORTED_MEDIA_TYPE: "Unsupported media type",
        _E.IDEMPOTENCY_KEY_REQUIRED: "Idempotency key required",
        _E.TIER_NOT_ENABLED: "Tier not enabled",
        _E.NOT_FOUND: "Not found",
        _E.ROUTE_NOT_AVAILABLE: "Route not available",
        _E.METHOD_NOT_ALLOWED: "Method not allowed",
        _E.CONFLICT: "Request still in progress",
        _E.IDEMPOTENCY_CONFLICT: "Idempotency key reused",
        _E.OUTCOME_UNKNOWN: "Outcome unknown",
        _E.AGENT_UNAVAILABLE: "Agent unavailable",
        _E.DIAL_REFUSED: "Dial refused",
        _E.ON_DNC: "Number on Do-Not-Call list",
        _E.BLOCKED_COUNTRY: "Country blocked",
        _E.MESSAGE_REFUSED: "Message refused",
        _E.INSUFFICIENT_BALANCE: "Insufficient balance",
        _E.SENDING_SUSPENDED: "Sending suspended",
        _E.OUTBOUND_NOT_APPROVED: "Outbound not approved",
        _E.DUPLICATE_CLIENT_REFERENCE: "Duplicate client reference",
        _E.RATE_LIMIT_EXCEEDED: "Rate limit exceeded",
        _E.DAILY_CAP_REACHED: "Daily cap reached",
        _E.SPEND_CAP_REACHED: "Spend cap reached",
        _E.WEBHOOKS_DISABLED: "Webhooks disabled",
        _E.WEBHOOK_URL_REFUSED: "Webhook URL refused",
        _E.WEBHOOK_LIMIT_REACHED: "Webhook limit reached",
        _E.REPLAY_UNAVAILABLE: "Replay unavailable",
        _E.REPLAY_LIMIT_REACHED: "Replay limit reached",
        _E.CAMPAIGN_NOT_IMPORTABLE: "Campaign not importable",
        _E.DNC_SCREEN_UNAVAILABLE: "Do-Not-Call screen unavailable",
        _E.CAMPAIGN_NOT_PAUSED: "Campaign not paused",
        _E.CAMPAIGN_NOT_RUNNING: "Campaign not running",
        _E.REGISTRY_STALE_BLOCKED: "Do-Not-Call registry stale",
        _E.CALLBACK_NOT_PENDING: "Callback not pending",
        _E.APPOINTMENT_NOT_MODIFIABLE: "Appointment not modifiable",
        _E.PRECONDITION_FAILED: "Precondition failed",
        _E.TEMPORARILY_UNAVAILABLE: "Temporarily unavailable",
        _E.UPSTREAM_UNAVAILABLE: "Upstream unavailable",
        _E.UPSTREAM_INVALID_RESPONSE: "Upstream invalid response",
        _E.INTERNAL_ERROR: "Internal error",
    }
)
"""Short human title the service puts in a problem's ``title`` per code."""

RETRY_AFTER_STATUSES: frozenset[int] = frozenset({429, 503})
"""Statuses whose answers always carry ``Retry-After`` in seconds."""


def problem_type(docs_base: str, code: str) -> str:
    """Build a problem's ``type`` URI: the code's page under ``docs_base``.

    Args:
        docs_base: The service's error documentation base, without a
            trailing slash (one is tolerated).
        code: An error code such as ``"invalid_api_key"``.

    Examples:
        >>> problem_type("https://docs.example.com", "invalid_api_key")
        'https://docs.example.com/errors/invalid-api-key'
    """
    return f"{docs_base.rstrip('/')}/errors/{code.replace('_', '-')}"


FIELD_ERROR_CODES: Mapping[str, str] = MappingProxyType(
    {
        "missing": "missing",
        "extra_forbidden": "unknown_field",
        "string_too_long": "too_long",
        "too_long": "too_long",
        "string_too_short": "too_short",
        "too_short": "too_short",
        "string_pattern_mismatch": "invalid_format",
    }
)
"""Per-field ``code`` of a validation problem, by the pydantic error type of a
request model's refusal. The contract shows only ``missing``; the emulator
answers these, and the client's local checks name the same codes."""


def field_error_code(error_type: str) -> str:
    """The per-field ``code`` for a pydantic error type (see :data:`FIELD_ERROR_CODES`).

    Examples:
        >>> field_error_code("extra_forbidden"), field_error_code("int_parsing")
        ('unknown_field', 'invalid_type')
    """
    if error_type in FIELD_ERROR_CODES:
        return FIELD_ERROR_CODES[error_type]
    if error_type.startswith(("greater_than", "less_than")):
        return "out_of_range"
    if error_type.endswith(("_type", "_parsing")):
        return "invalid_type"
    return "invalid"


def json_pointer(path: Iterable[str | int]) -> str:
    """The JSON pointer (RFC 6901) of a location in a body, as a problem's ``pointer``.

    Examples:
        >>> json_pointer(["leads", 3, "a/b"])
        '/leads/3/a~1b'
    """
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


class FieldError(BaseModel):
    """One entry of a validation problem's ``errors`` array.

    Attributes:
        pointer: JSON pointer to the offending request part.
        code: Per-field code; the full set is not shown (``missing`` appears).
    """

    model_config = ConfigDict(extra="ignore")

    pointer: str
    code: str


class Problem(BaseModel):
    """An RFC 9457 problem body as the service sends it.

    ``code`` stays a ``str`` so a code added within v1 still parses; compare
    it with :class:`ErrorCode` members, which are strings too. Unknown fields
    are ignored, as in every response model.
    """

    model_config = ConfigDict(extra="ignore")

    type: str
    title: str
    status: int
    detail: str
    instance: str
    code: str
    request_id: str
    errors: list[FieldError] | None = None
