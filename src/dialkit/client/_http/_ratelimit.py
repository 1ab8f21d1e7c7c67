"""Client-side rate limiting: a token bucket per key, shared by every thread.

The service limits each key to 10 requests per second with a burst of 20 and
answers 429 beyond that. Waiting on our side before sending, on the same
bucket, is cheaper than drawing a 429 and sleeping on its ``Retry-After``: a
loop or a thread pool runs at the limit and never past it. Two clients that
use the same key share one bucket (:func:`dialkit.client._per_key.per_key`), as the
service does.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from ...contract import RateLimit
from ...errors import RateLimitError

SAFETY_TOKENS = 1.0
"""Tokens held back from the burst, so that network jitter (a request that
reaches the service a little sooner than the one before it) cannot draw a 429."""

SLOWDOWN_FACTOR = 0.5
"""The sending rate is multiplied by this when a 429 arrives anyway."""

MIN_RATE_SHARE = 0.125
"""The rate never drops below this share of the configured rate."""

RECOVERY_SECONDS = 10.0
"""Time a slowed-down bucket takes to climb back to the configured rate."""

MAX_PAUSE_SECONDS = 60.0
"""Longest pause one 429 imposes on the bucket, whatever its ``Retry-After``:
the bucket is shared by every client of the key in the process, so one
absurd answer must not stall them all. A call that must wait longer draws the
429 again and gives up on its own deadline."""


class TokenBucket:
    """A thread-safe token bucket that makes callers wait instead of failing.

    :meth:`acquire` reserves the next token and sleeps, outside the lock, until
    it is due, so waiting threads are served in order. After a 429,
    :meth:`slow_down` empties the bucket, pauses it for ``Retry-After`` and
    halves the rate, which then recovers linearly.

    Examples:
        >>> bucket = TokenBucket(RateLimit(rate=10.0, burst=20))
        >>> bucket.acquire()  # returns at once while the burst lasts
    """

    def __init__(
        self,
        limit: RateLimit,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.limit = limit
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._capacity = max(1.0, limit.burst - SAFETY_TOKENS)
        self._tokens = self._capacity
        self._rate = limit.rate
        self._updated = clock()
        self._resume_at = float("-inf")

    @property
    def rate(self) -> float:
        """The current sending rate in requests per second."""
        with self._lock:
            self._refill(self._clock())
            return self._rate

    def acquire(self, max_wait: float = math.inf) -> None:
        """Take one token, waiting until one is available.

        Raises:
            RateLimitError: The token is due only after ``max_wait`` seconds
                (the caller's deadline); no token is taken, and the error's
                ``retry_after`` says when one will be.
        """
        with self._lock:
            now = self._clock()
            self._refill(now)
            paused = max(0.0, self._resume_at - now)
            wait = paused + max(0.0, 1.0 - self._tokens) / self._rate
            if wait > max_wait:
                raise RateLimitError(
                    f"The key's rate limit lets the next request go in {wait:.1f} s, after "
                    "this call's deadline; nothing was sent. The limit is shared by every "
                    "client of this key in the process.", retry_after=wait)
            self._tokens -= 1.0
        if wait > 0:
            self._sleep(wait)

    def slow_down(self, retry_after: float | None) -> None:
        """React to a 429: empty the bucket, pause ``retry_after``, halve the rate.

        The pause is at most :data:`MAX_PAUSE_SECONDS`, and a value that is not
        a finite non-negative number is taken as no ``Retry-After``.
        """
        with self._lock:
            now = self._clock()
            self._refill(now)
            self._rate = max(self.limit.rate * MIN_RATE_SHARE, self._rate * SLOWDOWN_FACTOR)
            if retry_after is None or not 0.0 <= retry_after < math.inf:
                retry_after = 1.0 / self._rate
            self._resume_at = max(self._resume_at, now + min(retry_after, MAX_PAUSE_SECONDS))
            self._tokens = min(self._tokens, 0.0)

    def _refill(self, now: float) -> None:
        """Add the tokens earned since the last update; none are earned while paused."""
        earning = max(0.0, now - max(self._updated, self._resume_at))
        if self._rate < self.limit.rate:
            regained = self.limit.rate * max(0.0, now - self._updated) / RECOVERY_SECONDS
            self._rate = min(self.limit.rate, self._rate + regained)
        self._updated = now
        self._tokens = min(self._capacity, self._tokens + earning * self._rate)

