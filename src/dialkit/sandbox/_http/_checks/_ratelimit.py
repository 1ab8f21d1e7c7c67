"""Token buckets: per key, per API client, per account and per source address.

A request passes only if every bucket it draws on holds a token; then it takes
one from each. Refill uses the monotonic clock, so rate limiting behaves the
same whether the service clock is real or manual.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from dialkit.contract import RateLimit


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; starts full."""

    __slots__ = ("rate", "burst", "tokens", "updated")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.tokens, self.updated = rate, burst, burst, now

    def refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def wait(self) -> float:
        """Seconds until one token is there (0 when one is there now)."""
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


class RateLimiter:
    """All buckets of the emulator, created on first use, scaled by ``scale`` (0 = off)."""

    def __init__(self, scale: float, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.scale = scale
        self._monotonic = monotonic
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, draws: Sequence[tuple[str, RateLimit]]) -> int | None:
        """Take a token from each named bucket; or return the seconds to wait (``Retry-After``)."""
        if self.scale == 0:
            return None
        now = self._monotonic()
        buckets = [self._bucket(name, limit, now) for name, limit in draws]
        wait = max(b.wait() for b in buckets)
        if wait > 0:
            return max(1, math.ceil(wait))
        for bucket in buckets:
            bucket.tokens -= 1
        return None

    def _bucket(self, name: str, limit: RateLimit, now: float) -> TokenBucket:
        bucket = self._buckets.get(name)
        if bucket is None:
            bucket = self._buckets[name] = TokenBucket(
                limit.rate * self.scale, max(1.0, limit.burst * self.scale), now
            )
        else:
            bucket.refill(now)
        return bucket
