"""Fault injection: make chosen requests fail the way the real service can.

A rule matches a path (a glob such as ``/v1/leads/*``) and optionally a method,
fires with a probability or for the next N matching requests, and does one of:

- ``error``: answer ``status`` with ``code`` (and ``Retry-After``) before the
  operation runs, so nothing is written;
- ``dnc_screen_unavailable``: the same, as 503 ``dnc_screen_unavailable``;
- ``latency``: wait ``latency_ms`` before running the operation (a second
  request with the same Idempotency-Key then meets the first one in flight);
- ``drop``: run the operation, then break the connection in the middle of the
  answer;
- ``outcome_unknown``: run the operation, then answer 409 ``outcome_unknown``
  and keep answering it for that Idempotency-Key.
"""

from __future__ import annotations

import fnmatch
import random
import threading
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from dialkit.contract import ERROR_STATUS, ErrorCode

FaultKind = Literal["error", "dnc_screen_unavailable", "latency", "drop", "outcome_unknown"]


class FaultRule(BaseModel):
    """One rule, as posted to ``/_sandbox/faults``."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(min_length=1, description="glob over the request path, e.g. /v1/calls*")
    method: str | None = None
    kind: FaultKind = "error"
    status: int | None = Field(None, ge=400, le=599)
    code: ErrorCode | None = None
    retry_after: int | None = Field(None, ge=0)
    latency_ms: int = Field(0, ge=0, le=60_000)
    probability: float = Field(1.0, ge=0, le=1)
    count: int | None = Field(None, ge=1, description="fire for the next N matches, then stop")

    @model_validator(mode="after")
    def _complete(self) -> FaultRule:
        if self.kind == "dnc_screen_unavailable":
            self.status, self.code = 503, ErrorCode.DNC_SCREEN_UNAVAILABLE
        elif self.kind == "outcome_unknown":
            self.status, self.code = 409, ErrorCode.OUTCOME_UNKNOWN
        elif self.kind == "error":
            if self.code is None:
                raise ValueError("an error fault needs a code (and optionally a status)")
            self.status = self.status or ERROR_STATUS[self.code]
        if self.method is not None:
            self.method = self.method.upper()
        return self

    def matches(self, method: str, path: str) -> bool:
        """Whether the rule concerns this request."""
        return (self.method in (None, method)) and fnmatch.fnmatchcase(path, self.path)


class Faults:
    """The active rules; the first rule that matches and fires decides."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rules: list[FaultRule] = []
        self._rng = rng or random.Random()
        self._lock = threading.Lock()

    def add(self, rule: FaultRule) -> None:
        """Activate a rule."""
        with self._lock:
            self._rules.append(rule)

    def clear(self) -> None:
        """Remove every rule."""
        with self._lock:
            self._rules.clear()

    def rules(self) -> list[FaultRule]:
        """The active rules, oldest first."""
        with self._lock:
            return list(self._rules)

    def pick(self, method: str, path: str) -> FaultRule | None:
        """The rule that fires for this request, counting it down; ``None`` if none does."""
        with self._lock:
            for rule in self._rules:
                if not rule.matches(method, path) or self._rng.random() >= rule.probability:
                    continue
                if rule.count is not None:
                    rule.count -= 1
                    if rule.count == 0:
                        self._rules.remove(rule)
                return rule
        return None
