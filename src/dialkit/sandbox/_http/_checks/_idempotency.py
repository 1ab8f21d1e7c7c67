"""Idempotency keys, the contract's rules 1-8.

A key is scoped to the API client (and to its data set, so a live and a test
key of one client never share answers) and kept 24 hours of service time. The
first request with a key records it as *running*; its answer is stored when it
ends, so the same key and request replays that answer, another request with the
key is a conflict, and a key whose first request still runs answers 409
``conflict``. Transient failures (409 ``conflict``, 429, 5xx) are not stored:
the contract promises that a retry with the same key is then safe. A key whose
write could not be confirmed answers 409 ``outcome_unknown`` for good.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

import orjson

from dialkit.contract import IDEMPOTENCY_RETENTION_SECONDS, ErrorCode

from ..._state._clock import Clock, isoformat
from ..._state._store import Store
from .._problems import ApiProblem

RUNNING, DONE, UNKNOWN = "running", "done", "outcome_unknown"
IN_FLIGHT_RETRY_AFTER = 1


@dataclass(frozen=True, slots=True)
class StoredAnswer:
    """A recorded answer, replayed as it was (with ``Idempotency-Replayed: true``)."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


def fingerprint(method: str, path: str, query: str, body: object) -> str:
    """What makes two requests "the same": method, path, query and the parsed body."""
    canonical = orjson.dumps([method, path, query, body], option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(canonical).hexdigest()


class IdempotencyKeys:
    """The key table of the store, read and written through the service clock."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self._store = store
        self._clock = clock
        store.conn.execute("UPDATE idempotency SET state = ? WHERE state = ?", (UNKNOWN, RUNNING))

    def begin(self, scope: str, key: str, digest: str) -> StoredAnswer | None:
        """Record a new key as running, or return the stored answer of a finished one."""
        cutoff = isoformat(self._clock.now() - timedelta(seconds=IDEMPOTENCY_RETENTION_SECONDS))
        row = self._store.row(
            "SELECT fingerprint, state, status, headers, body FROM idempotency "
            "WHERE scope = ? AND key = ? AND created_at > ?", (scope, key, cutoff))
        if row is None:
            self._store.conn.execute(
                "INSERT OR REPLACE INTO idempotency (scope, key, fingerprint, state, created_at) "
                "VALUES (?, ?, ?, ?, ?)", (scope, key, digest, RUNNING, self._clock.stamp()))
            return None
        if row["state"] == UNKNOWN:
            raise outcome_unknown()
        if row["fingerprint"] != digest:
            raise ApiProblem(ErrorCode.IDEMPOTENCY_CONFLICT,
                             "This Idempotency-Key was used with a different request. Use a new "
                             "key for a new request.")
        if row["state"] == RUNNING:
            raise ApiProblem(ErrorCode.CONFLICT,
                             "The first request with this Idempotency-Key is still running. "
                             "Retry later with the same key to receive its answer.",
                             retry_after=IN_FLIGHT_RETRY_AFTER)
        headers = [(str(k), str(v)) for k, v in orjson.loads(row["headers"])]
        return StoredAnswer(int(row["status"]), headers, bytes(row["body"]))

    def finish(self, scope: str, key: str, answer: StoredAnswer) -> None:
        """Store the answer of a final outcome, or forget the key after a transient failure."""
        if answer.status >= 500 or answer.status == 429:
            self.forget(scope, key)
            return
        self._store.conn.execute(
            "UPDATE idempotency SET state = ?, status = ?, headers = ?, body = ? "
            "WHERE scope = ? AND key = ?",
            (DONE, answer.status, orjson.dumps(answer.headers), answer.body, scope, key))

    def mark_unknown(self, scope: str, key: str) -> None:
        """The write's outcome is not confirmed: the key answers ``outcome_unknown`` from now on."""
        self._store.conn.execute("UPDATE idempotency SET state = ? WHERE scope = ? AND key = ?",
                                 (UNKNOWN, scope, key))

    def forget(self, scope: str, key: str) -> None:
        """Drop a key (its request failed transiently; a retry runs it again)."""
        self._store.conn.execute("DELETE FROM idempotency WHERE scope = ? AND key = ?",
                                 (scope, key))

    def clear(self) -> None:
        """Forget every key (the admin reset)."""
        self._store.conn.execute("DELETE FROM idempotency")


def outcome_unknown() -> ApiProblem:
    """409 ``outcome_unknown``: what every retry of an unconfirmed write answers."""
    return ApiProblem(ErrorCode.OUTCOME_UNKNOWN,
                      "The service could not confirm whether this write happened. Do not retry "
                      "it with a new Idempotency-Key; check the resource's state first.")
