"""Every exception dialkit raises, in one tree.

Every error dialkit raises derives from :class:`DialkitError`, so one ``except
DialkitError`` catches them all; an error of bad input derives from :class:`InputError`,
a ``ValueError`` as it was, so one ``except InputError`` catches the caller's mistakes
and never dialkit's own bugs. Each keeps the built-in base it had beside (``OSError``,
``RuntimeError``, ``LookupError``, ``MemoryError``). The service's answers are defined
here; every other error in :mod:`dialkit._utils._base_error`, which imports nothing of
dialkit, so the lowest layers can raise them; all are importable from here, and
``tests/test_error_base.py`` holds this drawing to the classes that exist::

    DialkitError                    every error dialkit raises
    ├── ApiError                    every failure of a call to the service
    │    ├── ApiConnectionError     no answer: connection refused or dropped
    │    │    └── ApiTimeoutError   no answer within the timeout or the deadline
    │    ├── AuthenticationError    401 invalid_api_key
    │    ├── PermissionDeniedError  403 insufficient_scope, tier_not_enabled, ...
    │    ├── NotFoundError          404 not_found, route_not_available
    │    ├── ConflictError          409 conflict, campaign_not_importable, ...
    │    ├── ValidationError        400 and 422: validation_failed, on_dnc, ...
    │    ├── RateLimitError         429 rate_limit_exceeded, daily_cap_reached, ...
    │    ├── ServiceUnavailableError  5xx
    │    ├── MalformedResponseError an answer the client cannot use: not JSON, the
    │    │                          wrong shape, too large, or pages that never end
    │    ├── OutcomeUnknownError    409 outcome_unknown: never retry with a new key
    │    └── IdempotencyConflictError  409 idempotency_conflict
    ├── InputError (ValueError)     input refused on purpose, the caller's to fix
    │    ├── InvalidArgumentError   an argument refused before anything was sent
    │    ├── ColumnError            a column of the wrong kind of value
    │    ├── LimitError             a file past the lead files' limits
    │    ├── LawDataError           a row of the law's tables that cannot be read
    │    ├── DayRuleError           a day rule of the law's tables that cannot be read
    │    ├── UnknownJurisdictionError  a jurisdiction no table holds
    │    ├── AnalyticsInputError    a frame the analytics cannot use
    │    ├── AuditInputError        a frame or argument the audit cannot use
    │    ├── TimeRangeError         a time outside the range pandas holds
    │    ├── CampaignError          a campaign that cannot take the file's leads
    │    ├── ImportJournalError     an import journal that cannot be trusted
    │    ├── EncodingError          a lead file in no encoding that can be told
    │    ├── LeadFileError          a lead file that cannot be read
    │    ├── MonitorStateError      a file that is not a compliance monitor's state
    │    ├── WorkbookError          a workbook that cannot be read
    │    │    └── DoctypeError      a workbook whose XML declares a document type
    │    ├── ConfigError            an emulator configuration that cannot be used
    │    ├── SignatureError         a webhook delivery that must not be trusted
    │    ├── EnvelopeError          a signed body that is not an event envelope
    │    └── SymlinkError (OSError)  a link where dialkit writes a file: never followed
    ├── CacheMissError (LookupError)  refresh="offline" asked what the cache lacks
    ├── JournalWriteError (OSError)   an import journal's line not written whole
    ├── ImportRunningError (RuntimeError)  the same import running elsewhere
    ├── ImportStoppedError (RuntimeError)  an import stopped before its last batch
    ├── StoreError (RuntimeError)   the webhook event store not opened or written
    ├── SandboxStartError (RuntimeError)  the emulator did not start
    ├── ClientClosedError (RuntimeError)  a call on a closed client
    ├── ContactForbiddenError       a contact the law forbids at its moment (the
    │                               client's guard): nothing was sent
    ├── AccessRefusedError          a tool call's credentials refused (``mcp``)
    └── WorkerMemoryError (MemoryError)  a Dask worker that died, most likely of memory

Catch by kind and branch on ``.code`` (an :class:`~dialkit.contract.ErrorCode`
value, or ``None`` when the answer was not problem+json), never on the text.
Answers with another status (402, 405, 412, 413, 415) are plain
:class:`ApiError`. ``str(error)`` says what happened and, where the contract
says it, what to do next.

Examples:
    >>> from dialkit.errors import error_from_answer
    >>> error = error_from_answer(409, {"code": "outcome_unknown", "detail": "Not confirmed."})
    >>> type(error).__name__
    'OutcomeUnknownError'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import contract
from ._utils._base_error import (
    AccessRefusedError,
    AnalyticsInputError,
    AuditInputError,
    CacheMissError,
    CampaignError,
    ColumnError,
    ComplianceRiskWarning,
    ConfigError,
    DayRuleError,
    DialkitError,
    DoctypeError,
    EncodingError,
    EnvelopeError,
    ImportJournalError,
    ImportRunningError,
    ImportStoppedError,
    InputError,
    JournalWriteError,
    LawDataError,
    LeadFileError,
    LimitError,
    MonitorStateError,
    SandboxStartError,
    SignatureError,
    StoreError,
    SymlinkError,
    TimeRangeError,
    UnknownJurisdictionError,
    WorkbookError,
    WorkerMemoryError,
)

_E = contract.ErrorCode

_NEXT_STEP: Mapping[str, str] = MappingProxyType({
    _E.INVALID_API_KEY: "Check the key (DIALKIT_API_KEY or api_key=): it may be mistyped, "
    "revoked or expired, or a test key of an account without the sandbox.",
    _E.API_ACCESS_DISABLED: "API access of the account or client is switched off; "
    "ask the account administrator.",
    _E.IP_NOT_ALLOWED: "Call from an address on the account's and the client's allow-lists.",
    _E.INSUFFICIENT_SCOPE: "Ask the account administrator to grant the client this "
    "operation's scope.",
    _E.TIER_NOT_ENABLED: "This tier-2 operation needs its account switch (and, for sending, "
    "a key from the guided sending setup); ask the operator to enable it.",
    _E.CREDENTIAL_IN_URL: "Treat this key as exposed: rotate it in the console.",
    _E.CREDENTIAL_IN_BODY: "Treat this key as exposed: rotate it in the console.",
    _E.INVALID_CURSOR: "Start the list again without a cursor; cursors belong to one list "
    "with the same filters and expire.",
    _E.BATCH_TOO_LARGE: "Split the request into smaller batches.",
    _E.IDEMPOTENCY_KEY_REQUIRED: "Send an Idempotency-Key with every write.",
    _E.CONFLICT: "The first request with this Idempotency-Key is still running; retry later "
    "with the same key to receive its answer.",
    _E.IDEMPOTENCY_CONFLICT: "This Idempotency-Key was already used for a different request; "
    "use a new key for a new request.",
    _E.OUTCOME_UNKNOWN: "The service could not confirm whether the write happened. Never "
    "retry it with a new Idempotency-Key: check the data, or retry later with the same key.",
    _E.PRECONDITION_FAILED: "The resource changed since it was read: read it again and pass "
    "its new etag as if_match.",
    _E.RATE_LIMIT_EXCEEDED: "Slow down; wait Retry-After seconds before the next request.",
    _E.DAILY_CAP_REACHED: "The daily cap is reached; it resets at 00:00 UTC.",
    _E.SPEND_CAP_REACHED: "The daily estimated-spend limit is reached; it resets at 00:00 UTC.",
    _E.REPLAY_LIMIT_REACHED: "This event was replayed 5 times today (UTC); try tomorrow.",
    _E.DNC_SCREEN_UNAVAILABLE: "Nothing was written; retrying with the same "
    "Idempotency-Key is safe.",
    _E.WEBHOOKS_DISABLED: "Webhooks are not enabled for the account; ask the operator.",
    _E.WEBHOOK_LIMIT_REACHED: "The account has 10 endpoints; delete one first.",
})


class ApiError(DialkitError):
    """A call to the service failed; base of every dialkit client error.

    Attributes:
        status: HTTP status, or ``None`` when no answer arrived.
        code: The problem's ``code`` (compare with :class:`~dialkit.contract.ErrorCode`),
            or ``None`` when the answer was not problem+json.
        detail: The problem's ``detail``, or a description of what went wrong.
        request_id: ``X-Request-ID`` of the answer, if one arrived.
        errors: Per-field errors of a validation problem (``pointer``, ``code``).
        retry_after: Seconds the service asked to wait, from ``Retry-After``.
        idempotency_key: The Idempotency-Key the write was sent with; retry
            with it (``idempotency_key=``) to receive the stored answer.
        replayed: Whether this refusal is the stored answer of an earlier
            request with the same key (``Idempotency-Replayed: true``), not a
            new refusal.
    """

    def __init__(
        self,
        detail: str,
        *,
        status: int | None = None,
        code: str | None = None,
        request_id: str | None = None,
        errors: list[contract.FieldError] | None = None,
        retry_after: float | None = None,
        idempotency_key: str | None = None,
        replayed: bool = False,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.request_id = request_id
        self.errors = errors or []
        self.retry_after = retry_after
        self.idempotency_key = idempotency_key
        self.replayed = replayed

    def __str__(self) -> str:
        head = " ".join(str(part) for part in (self.status, self.code) if part is not None)
        parts = [f"{head}: {self.detail}" if head else self.detail]
        parts += [f"{e.pointer or '(body)'}: {e.code}" for e in self.errors]
        if self.code is not None and self.code in _NEXT_STEP:
            parts.append(_NEXT_STEP[self.code])
        if self.retry_after is not None:
            retry = f"Retry after {self.retry_after:g} s."
            parts += [] if retry in self.detail else [retry]  # the service may say it too
        if self.idempotency_key is not None:
            stored = " (the stored answer of an earlier request)" if self.replayed else ""
            parts.append(f"Idempotency-Key: {self.idempotency_key}{stored}.")
        if self.request_id is not None:
            parts.append(f"Request id: {self.request_id}.")
        return " ".join(parts)


class ApiConnectionError(ApiError):
    """No answer arrived: the connection failed or broke mid-answer.

    A write may or may not have been applied; retrying it with the same
    ``idempotency_key`` is safe and returns its answer.
    """


class ApiTimeoutError(ApiConnectionError):
    """No (complete) answer arrived within the client's ``timeout`` or the call's
    ``deadline``; or, before anything was sent, the guard's wait for a number held by
    another send outlasted the deadline (the message says which)."""


class AuthenticationError(ApiError):
    """401: the key is missing, malformed, unknown, expired or revoked."""


class PermissionDeniedError(ApiError):
    """403: access off, address not allowed, missing scope, tier or sending setup."""


class NotFoundError(ApiError):
    """404: an unknown id (or one of another account), or an unknown path."""


class ConflictError(ApiError):
    """409: the resource's state refuses the operation, or a request is still running."""


class ValidationError(ApiError):
    """400 or 422: the request was refused for its content; it will not succeed as sent."""


class RateLimitError(ApiError):
    """429: a rate limit, daily cap or spend limit was reached."""


class ServiceUnavailableError(ApiError):
    """5xx: the service or one of its upstreams failed."""


class MalformedResponseError(ApiError):
    """The service's answer cannot be used: not JSON, the wrong shape, too large,
    or a list whose pages never end.

    It is raised after the answer arrived, so a write it answers is not retried:
    the write may have been applied. ``status`` is the answer's status;
    ``operation`` names the operation whose answer it was.

    Attributes:
        operation: The operation's name in :data:`~dialkit.contract.OPERATIONS`.
    """

    def __init__(self, detail: str, *, operation: str, **info: Any) -> None:
        super().__init__(f"{operation}: {detail}", **info)
        self.operation = operation


class OutcomeUnknownError(ApiError):
    """409 ``outcome_unknown``: the write may or may not have happened.

    It is never retried automatically, and must never be retried with a new
    Idempotency-Key.
    """


class IdempotencyConflictError(ApiError):
    """409 ``idempotency_conflict``: the key was used for a different request."""


class FieldProblem(contract.FieldError):
    """One refused part of an argument: the service's ``pointer`` and ``code``, and why.

    Attributes:
        detail: What is wrong with the part and what to pass instead.
    """

    detail: str


class InvalidArgumentError(InputError):
    """An argument the service would refuse whole; nothing was sent.

    Every method checks the request it is about to send against the
    contract's request model, and refuses here what the service would refuse
    as a whole, in the service's terms. Per-lead problems of an import or a
    single add (no phone, an invalid phone, a bad email) are not refused
    here: the service answers them in the lead's result.

    The message names each argument (``phones[0]``, ``leads[3].plan``) and
    what to pass instead.

    Attributes:
        code: The problem's code the service would answer with
            (``validation_failed``, or ``batch_too_large``).
        detail: The message.
        errors: The per-field errors the service would list: ``pointer`` (a
            JSON pointer into the request body, e.g. ``/leads/3/plan``),
            ``code`` (``invalid_format``, ``unknown_field``, ``too_long``, ...)
            and ``detail``.
    """

    def __init__(self, detail: str, *, code: str = _E.VALIDATION_FAILED,
                 errors: list[FieldProblem] | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.errors = errors or []


class ClientClosedError(DialkitError, RuntimeError):
    """The client was closed (``close()`` or the end of its ``with`` block); nothing was sent."""


class ContactForbiddenError(DialkitError):
    """The client's guard refused a contact the law (or the policy) forbids at its moment;
    nothing was sent. Pass ``override="reason"`` to send it anyway, recorded.

    Attributes:
        operation: The operation refused (``calls.create``, ``sms.send``, ...).
        phone: The number that would have been reached (None: a campaign's resume).
        at: When the contact would happen (the service's now, or ``scheduled_at``).
        rule: The rule that forbids it (``calling_hours``, ``dnc_call``,
            ``call_frequency``, ``unknown_timezone``, ...), as the audit names it.
        basis: ``law`` or ``policy``, with the ``jurisdiction`` and its citation in
            ``evidence`` as the audit writes it.
        jurisdiction: The jurisdiction whose rule forbids it (None where none is named).
        evidence: The audit's evidence (``Sun 22:00 America/Chicago (Texas: ...)``).
        next_allowed_at: The next moment the contact is allowed (UTC), or None where
            none is known (a listed number; nothing within the horizon).
        next_local_time: That moment on the recipient's clock, with ``timezone``.
    """

    def __init__(self, operation: str, phone: str | None, at: Any, *, rule: str,
                 basis: str | None, jurisdiction: str | None, evidence: str,
                 next_allowed_at: Any, next_local_time: str | None = None,
                 timezone: str | None = None) -> None:
        self.operation, self.phone, self.at, self.rule = operation, phone, at, rule
        self.basis, self.jurisdiction, self.evidence = basis, jurisdiction, evidence
        self.next_allowed_at, self.next_local_time = next_allowed_at, next_local_time
        self.timezone = timezone
        opens = ("no allowed moment is known" if next_allowed_at is None else
                 f"next allowed {next_allowed_at:%Y-%m-%d %H:%M} UTC"
                 + (f" ({next_local_time} {timezone})" if next_local_time else ""))
        whom = f" to {phone}" if phone else ""
        super().__init__(f"{operation}{whom} not sent: {rule} ({basis or 'law'}): {evidence}; "
                         f"{opens}. Pass override=\"reason\" to send it anyway (recorded).")


_BY_STATUS: Mapping[int, type[ApiError]] = MappingProxyType({
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
})

_BY_CODE: Mapping[str, type[ApiError]] = MappingProxyType({
    _E.OUTCOME_UNKNOWN: OutcomeUnknownError,
    _E.IDEMPOTENCY_CONFLICT: IdempotencyConflictError,
})


def error_class(status: int, code: str | None) -> type[ApiError]:
    """The exception class for an error answer's status and code."""
    if code is not None and code in _BY_CODE:
        return _BY_CODE[code]
    if status >= 500:
        return ServiceUnavailableError
    return _BY_STATUS.get(status, ApiError)


def error_from_answer(
    status: int,
    problem: Mapping[str, Any],
    *,
    request_id: str | None = None,
    retry_after: float | None = None,
    idempotency_key: str | None = None,
    replayed: bool = False,
) -> ApiError:
    """Build the exception for an error answer from its status and problem body.

    Args:
        status: The HTTP status of the answer.
        problem: The problem+json body; fields that are missing or of the
            wrong type are tolerated, so a garbled answer still gives an error.
        request_id: ``X-Request-ID``, used when the body names none.
        retry_after: Seconds from ``Retry-After``.
        idempotency_key: The key the request was sent with, if any.
        replayed: Whether the answer was a stored one (``Idempotency-Replayed``).
    """
    code = problem.get("code")
    code = code if isinstance(code, str) else None
    detail = problem.get("detail")
    if not isinstance(detail, str) or not detail:
        detail = f"The service answered {status} without an explanation."
    body_request_id = problem.get("request_id")
    return error_class(status, code)(
        detail,
        status=status,
        code=code,
        request_id=request_id or (body_request_id if isinstance(body_request_id, str) else None),
        errors=_field_errors(problem.get("errors")),
        retry_after=retry_after,
        idempotency_key=idempotency_key,
        replayed=replayed,
    )


def _field_errors(raw: object) -> list[contract.FieldError]:
    """The well-formed entries of a problem's ``errors`` array."""
    if not isinstance(raw, list):
        return []
    return [
        contract.FieldError(pointer=item["pointer"], code=item["code"])
        for item in raw
        if isinstance(item, dict)
        and isinstance(item.get("pointer"), str)
        and isinstance(item.get("code"), str)
    ]


__all__ = [
    "AccessRefusedError",
    "AnalyticsInputError",
    "ApiConnectionError",
    "ApiError",
    "ApiTimeoutError",
    "AuditInputError",
    "AuthenticationError",
    "CacheMissError",
    "CampaignError",
    "ClientClosedError",
    "ColumnError",
    "ComplianceRiskWarning",
    "ConfigError",
    "ConflictError",
    "ContactForbiddenError",
    "DayRuleError",
    "DialkitError",
    "DoctypeError",
    "EncodingError",
    "EnvelopeError",
    "FieldProblem",
    "IdempotencyConflictError",
    "ImportJournalError",
    "ImportRunningError",
    "ImportStoppedError",
    "InputError",
    "InvalidArgumentError",
    "JournalWriteError",
    "LawDataError",
    "LeadFileError",
    "LimitError",
    "MalformedResponseError",
    "MonitorStateError",
    "NotFoundError",
    "OutcomeUnknownError",
    "PermissionDeniedError",
    "RateLimitError",
    "SandboxStartError",
    "ServiceUnavailableError",
    "SignatureError",
    "StoreError",
    "SymlinkError",
    "TimeRangeError",
    "UnknownJurisdictionError",
    "ValidationError",
    "WorkbookError",
    "WorkerMemoryError",
    "error_class",
    "error_from_answer",
]
