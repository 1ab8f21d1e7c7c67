"""One simulated dialer call: its outcome, and every row and event it leaves behind.

The outcome model follows the seeded world (:mod:`.._world._history`), so that
simulated calls read like the seeded ones: the same statuses, dispositions and
hangup causes, similar ring and talk times, an agent who joins an answered
call within 1.5 s (but on a call a predictive dialer abandons: :func:`abandoned`),
and a ``call_attempt`` history entry of the same form. The
lead then moves by the world's rules: a final agent outcome or an unallocated
number completes it, a ``do_not_call`` disposition lists its number, a
requested callback schedules one, and anything else leaves it ``contacted``
with a next attempt a day later.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .._state._clock import isoformat
from .._state._events import CallFacts, call_events, record_event
from .._state._store import Store
from .._world._history import DISPOSITIONS, HANGUP_CAUSES
from .._world._statuses import STATUSES

MINUTE_MS, HOUR_MS = 60_000, 3_600_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

MAX_ATTEMPTS = 12
"""Attempts after which a lead is ``completed`` (the seeded campaigns stop at 8-12)."""

RETRY_AFTER_MS = (20 * HOUR_MS, 28 * HOUR_MS)
"""Range of the wait before the next attempt: at most two calls to a number in 24 hours."""

CALLBACK_AFTER_MS = (2 * HOUR_MS, 72 * HOUR_MS)
"""Range of the delay of a callback the customer asked for."""

ANSWER_RATE = 0.25
ABANDON_SHARE = 0.04
"""Share of a predictive campaign's answered calls that find no agent free: such a dialer
dials ahead of its agents, and a person who answers when none is free hears the recorded
message and is hung up on. 47 CFR 64.1200(a)(7) allows 3 % of a campaign's answered
calls in 30 days; a dialer tuned for its agents' time goes over."""
_UNANSWERED = (("no-answer", .55), ("busy", .11), ("failed", .07), ("voicemail", .27))
_ANSWERED = (("sale", .12), ("not_interested", .3), ("callback_requested", .2),
             ("info_sent", .28), ("wrong_number", .06), ("do_not_call", .04))
_FAILED_CAUSES = (("call_rejected", .55), ("network_out_of_order", .3),
                  ("unallocated_number", .15))
_CAUSE = {"completed": "normal_clearing", "no-answer": "no_answer", "busy": "user_busy",
          "voicemail": "normal_clearing"}
_RING_S = {"completed": (4, 22), "no-answer": (25, 45), "busy": (1, 5), "failed": (0.5, 6),
           "voicemail": (15, 30)}
_TALK_MEDIAN_S = {"sale": 480, "not_interested": 50, "callback_requested": 90, "info_sent": 180,
                  "wrong_number": 15, "do_not_call": 20}
_FINAL = frozenset({"sale", "not_interested", "wrong_number"})
"""Agent outcomes after which the dialer never calls the lead again."""

assert set(_RING_S) == set(STATUSES) and set(HANGUP_CAUSES) >= {
    c for c, _ in _FAILED_CAUSES} | set(_CAUSE.values())
assert set(_TALK_MEDIAN_S) | {"voicemail_left"} <= set(DISPOSITIONS)


def stamp(ms: int) -> str:
    """Epoch milliseconds in storage form."""
    return isoformat(_EPOCH + timedelta(milliseconds=ms))


def epoch_ms(moment: datetime) -> int:
    """A datetime as epoch milliseconds."""
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def typed_id(rng: random.Random, prefix: str) -> str:
    """A typed id drawn from ``rng`` (so that a simulation run is reproducible)."""
    return f"{prefix}{uuid.UUID(int=rng.getrandbits(128), version=4)}"


def _weighted(rng: random.Random, table: tuple[tuple[str, float], ...]) -> str:
    return rng.choices([v for v, _ in table], weights=[w for _, w in table])[0]


@dataclass(frozen=True)
class Outcome:
    """How a call goes, before it is given a lead and a time (durations in ms)."""

    status: str
    disposition: str | None
    hangup_cause: str
    ring_ms: int
    talk_ms: int
    join_ms: int | None

    @property
    def answered(self) -> bool:
        """Whether the customer picked up."""
        return self.status == "completed"

    @property
    def duration_ms(self) -> int:
        """From dialling to hang-up."""
        return self.ring_ms + self.talk_ms


def draw_outcome(rng: random.Random) -> Outcome:
    """A random call outcome, with the seeded world's shares and timings."""
    answered = rng.random() < ANSWER_RATE
    status = "completed" if answered else _weighted(rng, _UNANSWERED)
    low, high = _RING_S[status]
    ring = round(rng.uniform(low, high) * 1000)
    disposition: str | None = None
    talk = 0
    if answered:
        disposition = _weighted(rng, _ANSWERED)
        talk = round(min(max(rng.lognormvariate(0, 0.6) * _TALK_MEDIAN_S[disposition], 5),
                         3600) * 1000)
    elif status == "voicemail":
        disposition, talk = "voicemail_left", rng.randint(12_000, 35_000)
    cause = _weighted(rng, _FAILED_CAUSES) if status == "failed" else _CAUSE[status]
    return Outcome(status, disposition, cause, ring, talk, rng.randint(0, 1500))


def abandoned(outcome: Outcome, rng: random.Random) -> Outcome:
    """``outcome``, answered, as a call no agent was free for: nobody joins, nothing is
    logged, and the line drops after the 2-4 s of the recorded message."""
    return dataclasses.replace(outcome, disposition=None, talk_ms=rng.randint(2_000, 4_000),
                               join_ms=None)


def lead_status(outcome: Outcome, attempts: int) -> str:
    """The lead's status after a call with ``outcome`` (its ``attempts`` counting it)."""
    if outcome.disposition == "do_not_call":
        return "dnc"
    if outcome.disposition in _FINAL or outcome.hangup_cause == "unallocated_number":
        return "completed"
    if outcome.disposition == "callback_requested":
        return "callback"
    return "completed" if attempts >= MAX_ATTEMPTS else "contacted"


def next_attempt(rng: random.Random, status: str, ended: int) -> int | None:
    """When a ``contacted`` lead is due again, or a requested callback is scheduled."""
    if status == "contacted":
        return ended + rng.randint(*RETRY_AFTER_MS) // MINUTE_MS * MINUTE_MS
    if status == "callback":
        quarter = 15 * MINUTE_MS
        return (ended + rng.randint(*CALLBACK_AFTER_MS)) // quarter * quarter
    return None


@dataclass(frozen=True)
class PlacedCall:
    """A simulated call with everything needed to write it (times in epoch ms)."""

    id: str
    dataset: str
    account: str
    campaign_id: str | None
    lead_id: str | None
    caller_id: str
    phone: str
    dialled: int
    outcome: Outcome
    agent_extension: str | None

    @property
    def answered_at(self) -> int | None:
        """When the customer picked up."""
        return self.dialled + self.outcome.ring_ms if self.outcome.answered else None

    @property
    def ended_at(self) -> int:
        """When the call ended."""
        return self.dialled + self.outcome.duration_ms

    @property
    def joined_at(self) -> int | None:
        """When the agent joined the answered call."""
        answered, join = self.answered_at, self.outcome.join_ms
        return None if answered is None or join is None else answered + join


def _optional(ms: int | None) -> str | None:
    return None if ms is None else stamp(ms)


def write_call(conn: sqlite3.Connection, call: PlacedCall) -> None:
    """The call's row and the lead's ``call_attempt`` history entry."""
    o = call.outcome
    conn.execute(
        "INSERT INTO calls (dataset, account, id, direction, from_number, to_number, status, "
        "created_at, answered_at, ended_at, duration_seconds, campaign_id, lead_id, disposition, "
        "hangup_cause, agent_extension, agent_joined_at, ai_agent, recording) "
        "VALUES (?, ?, ?, 'outbound', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)",
        (call.dataset, call.account, call.id, call.caller_id, call.phone, o.status,
         stamp(call.dialled), _optional(call.answered_at), stamp(call.ended_at),
         o.duration_ms / 1000, call.campaign_id, call.lead_id, o.disposition, o.hangup_cause,
         None if call.joined_at is None else call.agent_extension, _optional(call.joined_at),
         int(o.answered)))
    conn.execute(
        "INSERT INTO lead_history (dataset, lead_id, at, event, detail) "
        "VALUES (?, ?, ?, 'call_attempt', ?)",
        (call.dataset, call.lead_id, stamp(call.dialled),
         json.dumps({"call_id": call.id, "disposition": o.disposition})))


def record_call_events(store: Store, call: PlacedCall, follow_up: int | None) -> int:
    """``call.completed`` and, when an agent logged an outcome, ``disposition.logged``.

    Both are stamped with the call's end. Returns how many events were recorded.
    """
    o, ended = call.outcome, stamp(call.ended_at)
    facts = CallFacts(
        call_id=call.id, campaign_id=call.campaign_id, lead_id=call.lead_id,
        from_number=call.caller_id, to_number=call.phone, status=o.status,
        started_at=stamp(call.dialled), answered_at=_optional(call.answered_at),
        ended_at=ended, duration_seconds=o.duration_ms / 1000, hangup_cause=o.hangup_cause,
        disposition=o.disposition, follow_up_at=_optional(follow_up))
    events = call_events(facts)
    for kind, data, details in events:
        record_event(store, call.dataset, kind, data, ended, call_details=details)
    return len(events)
