"""The service clock: real time, or a manual clock that moves only when told.

Everything time-dependent in the emulator (timestamps, idempotency retention,
cursor expiry, callbacks coming due, webhook retries, the dialer simulation)
reads this clock, so a test can move a whole day in one request. Rate limits
alone use the process's monotonic clock: they protect the server in real time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ..._utils._moments import iso_datetime


def isoformat(moment: datetime) -> str:
    """The wire and storage form: UTC, millisecond precision, ``Z``; fixed width, so it sorts."""
    m = moment.astimezone(UTC)
    return (f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:"
            f"{m.second:02d}.{m.microsecond // 1000:03d}Z")


def parse_timestamp(text: str) -> datetime:
    """Inverse of :func:`isoformat` (accepts any ISO 8601 form with an offset)."""
    return iso_datetime(text).astimezone(UTC)


class Clock:
    """Real or manual time; ``advance`` and ``set`` only work on a manual clock."""

    def __init__(self, *, manual: bool, start: datetime | None = None) -> None:
        self.manual = manual
        self.start = (start or datetime.now(UTC)).astimezone(UTC)
        self._now = self.start

    def now(self) -> datetime:
        """The current service time (aware, UTC)."""
        return self._now if self.manual else datetime.now(UTC)

    def stamp(self) -> str:
        """The current service time in storage form."""
        return isoformat(self.now())

    def advance(self, seconds: float) -> datetime:
        """Move a manual clock forward; refuse to move it back or to move a real one."""
        if not self.manual:
            raise ValueError("the clock is real; start the sandbox with clock = \"manual\"")
        if seconds < 0:
            raise ValueError("the clock only moves forward; pass seconds >= 0")
        self._now += timedelta(seconds=seconds)
        return self._now

    def rewind(self) -> None:
        """Back to the start (the admin reset); a real clock ignores it."""
        self._now = self.start
