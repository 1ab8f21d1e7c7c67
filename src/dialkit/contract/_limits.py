"""Numeric limits of the API contract, named once and used everywhere.

Every value here is copied from the Limits, Conventions, Endpoints and
Resources sections of ``contract/api-v1.md``. The client validates against
them before sending and the emulator enforces them, so both sides agree.
"""

from dataclasses import dataclass

MAX_BODY_BYTES = 1_048_576
MAX_JSON_DEPTH = 20

DEFAULT_PAGE_LIMIT = 50
MAX_PAGE_LIMIT = 100
MAX_CURSOR_LENGTH = 1024

MAX_IMPORT_BATCH = 200
DNC_CHECK_BATCH = 100
REPORT_MAX_DAYS = 92

MAX_IDEMPOTENCY_KEY_LENGTH = 255
IDEMPOTENCY_RETENTION_SECONDS = 86_400

MAX_CORRELATION_ID_LENGTH = 128
CORRELATION_ID_PATTERN = r"^[A-Za-z0-9._:-]{1,128}$"

MAX_IF_MATCH_LENGTH = 128
ACCESS_CHANGE_LAG_SECONDS = 15

DIAL_WINDOW_DEFAULT = 300
DIAL_WINDOW_MIN = 30
DIAL_WINDOW_MAX = 3600
CLICK_TO_CALL_MAX_MINUTES = 30

EXTERNAL_ID_MAX = 128
PHONE_MAX = 32
FIRST_NAME_MAX = 100
LAST_NAME_MAX = 100
FULL_NAME_MAX = 200
EMAIL_MAX = 254
EMAIL_PATTERN = r"^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$"
"""What a lead's email must look like: ``local@domain.tld``, one ``@``, no spaces
(the service's field rule; the contract gives only the length)."""
SOURCE_MAX = 100
MAX_CUSTOM_FIELDS = 20

AGENT_EMAIL_MIN = 3
AGENT_EMAIL_MAX = 254

SMS_BODY_MAX = 918
SMS_CLIENT_REFERENCE_MAX = 64

CALLBACK_NOTES_MAX = 500
APPOINTMENT_NOTES_MAX = 1000
APPOINTMENT_DURATION_MIN = 5
APPOINTMENT_DURATION_MAX = 480
APPOINTMENT_TIMEZONE_MAX = 64
APPOINTMENT_SERVICE_TYPE_MAX = 100
APPOINTMENT_CONTACT_NAME_MAX = 200

MAX_WEBHOOK_ENDPOINTS = 10
MAX_REPLAYS_PER_EVENT_PER_DAY = 5
WEBHOOK_URL_MIN = 9
WEBHOOK_URL_MAX = 2048
WEBHOOK_DESCRIPTION_MAX = 200
WEBHOOK_EVENTS_MIN = 1
WEBHOOK_EVENTS_MAX = 6
WEBHOOK_ANSWER_SECONDS = 10
WEBHOOK_RETRY_MINUTES: tuple[int, ...] = (1, 5, 15, 60, 240)
WEBHOOK_RETENTION_DAYS = 30
SIGNATURE_TOLERANCE_SECONDS = 300
SECRET_ROTATION_OVERLAP_SECONDS = 86_400


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
RATE_LIMIT_PER_CLIENT = RateLimit(rate=20.0, burst=40)
RATE_LIMIT_PER_ACCOUNT = RateLimit(rate=30.0, burst=60)
RATE_LIMIT_PER_SOURCE_ADDRESS = RateLimit(rate=20.0, burst=40)
