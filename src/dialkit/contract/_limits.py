"""Numeric limits of the API contract, named once and used everywhere.

Every value here is copied from the Limits, Conventions, Endpoints and
Resources sections of ``contract/api-v1.md``. The client validates against
them before sending and the emulator enforces them, so both sides agree.
"""

from dataclasses import dataclass

MAX_BODY_BYTES = 1_048_576
"""Largest request body the service reads (1 MiB); a larger one answers 413."""
MAX_JSON_DEPTH = 20
"""Deepest nesting of a request's JSON."""

DEFAULT_PAGE_LIMIT = 50
"""Items per page of a list when ``limit`` is not given."""
MAX_PAGE_LIMIT = 100
"""Most items a page of a list may hold (``limit``)."""
MAX_CURSOR_LENGTH = 1024
"""Longest pagination cursor the service takes back."""

MAX_IMPORT_BATCH = 200
"""Most leads per ``POST /v1/leads/import`` batch."""
DNC_CHECK_BATCH = 100
"""Most numbers per Do-Not-Call check."""
REPORT_MAX_DAYS = 92
"""Longest date range of a report, in days."""

MAX_IDEMPOTENCY_KEY_LENGTH = 255
"""Longest ``Idempotency-Key`` header."""
IDEMPOTENCY_RETENTION_SECONDS = 86_400
"""How long the service keeps an idempotency key and its answer (24 hours)."""

MAX_CORRELATION_ID_LENGTH = 128
"""Longest ``X-Correlation-ID`` header."""
CORRELATION_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,128}$"
"""What an ``X-Correlation-ID`` may hold: 1-128 of ``A-Z a-z 0-9 . _ : -``."""

MAX_IF_MATCH_LENGTH = 128
"""Longest ``If-Match`` header (an ETag of the last read)."""
ACCESS_CHANGE_LAG_SECONDS = 15
"""Seconds within which an access change (a revoked key, a disabled client, an IP list,
a switch) takes effect."""

DIAL_WINDOW_DEFAULT = 300
"""Seconds within which a lead created with ``dial_now`` is dialled, by default
(``dial_within_seconds``)."""
DIAL_WINDOW_MIN = 30
"""Fewest seconds ``dial_within_seconds`` may ask for."""
DIAL_WINDOW_MAX = 3600
"""Most seconds ``dial_within_seconds`` may ask for."""
CLICK_TO_CALL_MAX_MINUTES = 30
"""Minutes after which a click-to-call is ended, by default."""
CALLING_HOURS = (8, 21)
"""The service's own calling hours, its check before a click-to-call or an SMS: from the
first hour to before the second, in the recipient's local time (08:00 to 21:00). The
contract names the check (422 ``dial_refused`` or ``message_refused``, ``calling_hours``);
the law's windows, which can be narrower, are the compliance audit's."""

EXTERNAL_ID_MAX = 128
"""Longest ``external_id`` of a lead."""
PHONE_MAX = 32
"""Longest ``phone`` text a lead request may carry (before E.164 normalisation)."""
FIRST_NAME_MAX = 100
"""Longest ``first_name`` of a lead."""
LAST_NAME_MAX = 100
"""Longest ``last_name`` of a lead."""
FULL_NAME_MAX = 200
"""Longest ``full_name`` of a lead."""
EMAIL_MAX = 254
"""Longest ``email`` of a lead."""
EMAIL_PATTERN = r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$"
"""What a lead's email must look like: ``local@domain.tld``, one ``@``, no spaces
(the service's field rule; the contract gives only the length)."""
SOURCE_MAX = 100
"""Longest ``source`` code of a lead."""
MAX_CUSTOM_FIELDS = 20
"""Most keys of a lead's ``custom_fields``."""

AGENT_EMAIL_MIN = 3
"""Shortest agent email a click-to-call takes."""
AGENT_EMAIL_MAX = 254
"""Longest agent email a click-to-call takes."""

SMS_BODY_MAX = 918
"""Longest SMS ``body``, in characters."""
SMS_CLIENT_REFERENCE_MAX = 64
"""Longest ``client_reference`` of an SMS (unique per message)."""

CALLBACK_NOTES_MAX = 500
"""Longest ``notes`` of a callback."""
APPOINTMENT_NOTES_MAX = 1000
"""Longest ``notes`` of an appointment."""
APPOINTMENT_DURATION_MIN = 5
"""Shortest appointment, in minutes."""
APPOINTMENT_DURATION_MAX = 480
"""Longest appointment, in minutes."""
APPOINTMENT_TIMEZONE_MAX = 64
"""Longest ``timezone`` of an appointment."""
APPOINTMENT_SERVICE_TYPE_MAX = 100
"""Longest ``service_type`` of an appointment."""
APPOINTMENT_CONTACT_NAME_MAX = 200
"""Longest ``contact_name`` of an appointment."""

MAX_WEBHOOK_ENDPOINTS = 10
"""Most webhook endpoints an account may have."""
MAX_REPLAYS_PER_EVENT_PER_DAY = 5
"""Most replays of one webhook event per UTC day; more answer 429
``replay_limit_reached``."""
WEBHOOK_URL_MIN = 9
"""Shortest webhook ``url``."""
WEBHOOK_URL_MAX = 2048
"""Longest webhook ``url``."""
WEBHOOK_DESCRIPTION_MAX = 200
"""Longest webhook ``description``."""
WEBHOOK_EVENTS_MIN = 1
"""Fewest event types a webhook endpoint subscribes to."""
WEBHOOK_EVENTS_MAX = 6
"""Most event types a webhook endpoint subscribes to."""
WEBHOOK_ANSWER_SECONDS = 10
"""Seconds a receiver has to answer a delivery with a 2xx before it is retried."""
WEBHOOK_RETRY_MINUTES: tuple[int, ...] = (1, 5, 15, 60, 240)
"""Minutes after which a failed delivery is retried, in order; after the last, it fails."""
WEBHOOK_RETENTION_DAYS = 30
"""Days the history of events and deliveries is kept."""
SIGNATURE_TOLERANCE_SECONDS = 300
"""Most seconds a delivery's signed timestamp may be from the receiver's clock."""
SECRET_ROTATION_OVERLAP_SECONDS = 86_400
"""Seconds after a secret rotation during which deliveries carry both signatures (24
hours)."""


@dataclass(frozen=True, slots=True)
class RateLimit:
    """One token bucket of the service's rate limiting.

    Attributes:
        rate: Tokens refilled per second (sustained requests per second).
        burst: Bucket size, the most requests accepted at once.
    """

    rate: float
    burst: int


RATE_LIMIT_PER_KEY = RateLimit(rate=10.0, burst=20)
"""The token bucket of each API key."""
RATE_LIMIT_PER_CLIENT = RateLimit(rate=20.0, burst=40)
"""The token bucket of each API client (all its keys)."""
RATE_LIMIT_PER_ACCOUNT = RateLimit(rate=30.0, burst=60)
"""The token bucket of each account (all its clients)."""
RATE_LIMIT_PER_SOURCE_ADDRESS = RateLimit(rate=20.0, burst=40)
"""The token bucket of each source IP address."""
