"""Click-to-calls come to an end as the simulation runs.

``POST /v1/calls`` leaves a call ``dialing`` with its agent held. Each run of
the simulation ends the click-to-calls whose drawn course (ringing, answer,
talk; the same tables as the dialer's calls, at most 30 minutes) is over by the
interval's end:
the call record gets its outcome, the agent is released, and the call's
webhook events are recorded. The course is drawn from the call id, so it does
not depend on how the clock was moved.
"""

from __future__ import annotations

import dataclasses
import random

from dialkit.contract import CLICK_TO_CALL_MAX_MINUTES

from .._state._clock import parse_timestamp
from .._state._store import Store
from ._one_call import Outcome, PlacedCall, draw_outcome, epoch_ms, record_call_events, stamp


def finish_click_to_calls(store: Store, dataset: str, account: str, end_ms: int) -> list[int]:
    """End the data set's click-to-calls that are over by ``end_ms``.

    Returns:
        The number of events recorded for each call ended.
    """
    recorded = []
    for row in store.rows("SELECT * FROM calls WHERE dataset = ? AND status = 'dialing' "
                          "ORDER BY created_at, id", (dataset,)):
        call = PlacedCall(
            id=row["id"], dataset=dataset, account=account, campaign_id=row["campaign_id"],
            lead_id=row["lead_id"], caller_id=row["from_number"], phone=row["to_number"],
            dialled=epoch_ms(parse_timestamp(row["created_at"])),
            outcome=_course(row["id"]),
            agent_extension=row["agent_extension"])
        if call.ended_at <= end_ms:
            _write_end(store, call)
            recorded.append(record_call_events(store, call, None))
    return recorded


def _course(call_id: str) -> Outcome:
    """The call's drawn course, ended after the contract's 30 minutes at the latest."""
    outcome = draw_outcome(random.Random(call_id))
    longest = CLICK_TO_CALL_MAX_MINUTES * 60_000 - outcome.ring_ms
    return dataclasses.replace(outcome, talk_ms=min(outcome.talk_ms, longest))


def _write_end(store: Store, call: PlacedCall) -> None:
    o = call.outcome
    answered, joined = call.answered_at, call.joined_at
    store.conn.execute(
        "UPDATE calls SET status = ?, answered_at = ?, ended_at = ?, duration_seconds = ?, "
        "disposition = ?, hangup_cause = ?, agent_joined_at = ?, recording = ? "
        "WHERE dataset = ? AND id = ?",
        (o.status, None if answered is None else stamp(answered), stamp(call.ended_at),
         o.duration_ms / 1000, o.disposition, o.hangup_cause,
         None if joined is None else stamp(joined), int(o.answered), call.dataset, call.id))
    store.conn.execute("UPDATE agents SET held_until = NULL WHERE dataset = ? AND extension = ?",
                       (call.dataset, call.agent_extension))
