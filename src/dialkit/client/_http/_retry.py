"""When to retry a failed call, and how long to wait first.

Retries always resend the same request with the same Idempotency-Key, so a
retried write is applied at most once. Only failures a later attempt can
change are retried: the contract's transient answers, gateway errors without
a problem body, and no answer at all. ``outcome_unknown`` and the caps are
never retried: the first must not be, the second cannot succeed today. The key's
rate limit is no failure: its 429s are waited out until the deadline, uncounted.
"""

from __future__ import annotations

import random

from ...contract import ErrorCode
from ...errors import ApiConnectionError, ApiError

BACKOFF_BASE_SECONDS = 0.5
"""First backoff ceiling; it doubles with every attempt."""

BACKOFF_MAX_SECONDS = 8.0
"""Highest backoff ceiling, before jitter."""

MIN_LIMIT_WAIT_SECONDS = 0.1
"""Shortest wait after a 429 ``rate_limit_exceeded``: those are waited out until the
deadline, so a ``Retry-After: 0`` must not make a busy loop of them."""

DEFAULT_DEADLINE_SECONDS = 120.0
"""Longest a call may take in total, retries and their waits included."""

_E = ErrorCode

TRANSIENT: frozenset[tuple[int, str | None]] = frozenset({
    (429, _E.RATE_LIMIT_EXCEEDED),
    (503, _E.TEMPORARILY_UNAVAILABLE),
    (503, _E.UPSTREAM_UNAVAILABLE),
    (503, _E.DNC_SCREEN_UNAVAILABLE),
    (409, _E.CONFLICT),
    (502, None),
    (503, None),
    (504, None),
})
"""(status, code) of answers worth retrying; code ``None`` is a gateway's
answer that is not problem+json (the request may not have reached the API)."""

_NOT_REFUSALS = frozenset({_E.OUTCOME_UNKNOWN, _E.CONFLICT, _E.IDEMPOTENCY_CONFLICT})
"""Stored 4xx answers that are no refusal: the write's outcome is unknown, still running,
or another request's."""


def is_transient(error: ApiError) -> bool:
    """Whether a retry with the same request and key may succeed."""
    if isinstance(error, ApiConnectionError):
        return True
    return (error.status, error.code) in TRANSIENT


def stored_refusal(error: ApiError) -> bool:
    """Whether ``error`` is a refusal (4xx, nothing written) that is the stored answer of
    an earlier request under the same Idempotency-Key: sending again under that key meets
    it again, so a write that may go again (a lead import, its journal's rechecks) walks
    on to the next key of its chain. Public as ``dialkit.client.stored_refusal``: it asks
    what a service's answer means, which the client knows and the layers above ask."""
    return (error.replayed and error.status is not None and 400 <= error.status < 500
            and error.code not in _NOT_REFUSALS)


def rate_limited(error: ApiError) -> bool:
    """Whether ``error`` is the key's rate limit (429 ``rate_limit_exceeded``): a wait,
    not a failure, retried until the call's deadline however often it comes."""
    return error.status == 429 and error.code == _E.RATE_LIMIT_EXCEEDED


def backoff(attempt: int, retry_after: float | None, rng: random.Random | None = None) -> float:
    """Seconds to wait before retry number ``attempt`` (1 for the first retry).

    ``Retry-After`` is honoured when the service sent it; otherwise the wait is
    exponential backoff with full jitter: uniform between 0 and
    ``min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** (attempt - 1))``, so
    clients that failed together do not retry together.
    """
    if retry_after is not None:
        return retry_after
    ceiling = min(BACKOFF_MAX_SECONDS, BACKOFF_BASE_SECONDS * 2 ** (attempt - 1))
    return (rng or random).uniform(0.0, ceiling)
