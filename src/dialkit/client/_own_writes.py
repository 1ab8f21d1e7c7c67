"""What a client's own writes changed, and when, recorded from its first request.

``client.frames`` imports :mod:`dialkit.frames` on first use (docs/design.md), so the
frames cannot watch the writes sent before that use: their cache, written by an earlier
run, said a number the client had just listed was not, and gave a lead as it was before
the client's own update. The client records every write it tries from the start, by what
the contract says each changes (:data:`dialkit.contract.CHANGED_BY`); the frames read the
record whenever they load, and a cached frame older than the client's last write to its
list is read again.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from datetime import UTC, datetime

from ..contract import CHANGED_BY
from ._http._transport import Answer, Call


class OwnWrites:
    """The client's own writes, by what they made stale: the time of its last write to
    each list (``leads``, ``callbacks``, ...) and to each number's DNC listing. A write
    whose answer was lost may have been done all the same: it counts either way."""

    EVERY_NUMBER = ""
    """The key of :meth:`numbers` for a write to the DNC lists that named no number (a
    consent recorded without a ``phone``): every number's check is stale."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lists: dict[str, datetime] = {}
        self._numbers: dict[str, datetime] = {}

    def record(self, call: Call, answer: Answer | None = None) -> None:
        """Note what ``call`` (a write the client tried) made stale, and when: the
        transport calls it after each write (:meth:`Transport.on_write`)."""
        stale = CHANGED_BY.get(call.operation, ())
        body = call.body if isinstance(call.body, Mapping) else {}
        phone = body.get("phone")
        now = datetime.now(UTC)
        with self._lock:
            self._lists.update(dict.fromkeys(stale, now))
            if "dnc" in stale:
                self._numbers[phone if isinstance(phone, str) else self.EVERY_NUMBER] = now

    def to_list(self, name: str) -> datetime | None:
        """When the client last wrote to the list ``name`` (a frame's name; None: never)."""
        with self._lock:
            return self._lists.get(name)

    def numbers(self) -> dict[str, datetime]:
        """When the client last wrote to each number's DNC listing (:attr:`EVERY_NUMBER`:
        to any number's)."""
        with self._lock:
            return dict(self._numbers)
