"""What the monitor reads of an event or a call row, and how a call's facts fold into one row.

The service delivers each event at least once and in no particular order (contract,
*Events*): a call's ``disposition.logged`` may come before its ``call.completed``, an event
twice, a replay a day late. So a call's row is a function of the *set* of its facts, never
of their order: the best call record (a frame's row, then ``call.completed``, then
``ai_call.completed``; of two alike, the later event, then the greater id) with the latest
logged disposition over it (a ``disposition.logged``, or the disposition a call event's
envelope carries in ``call_details``, by when each was logged). A fact seen twice changes
nothing; a disposition whose call has not come is kept and waits for it. An event the audit
could not read (no call id, a number called not in E.164, a time without its offset) is
held and named, never read as a default: one such row would make the whole audit refuse
its calls.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from dialkit.contract import E164_PATTERN

CALL_EVENTS = ("call.completed", "ai_call.completed")
DISPOSITION_EVENT = "disposition.logged"
FRAME = "frame"
"""A call row observed from a frame of calls, as ``client.frames.calls()`` gives them."""
_RANK = {FRAME: 3, "call.completed": 2, "ai_call.completed": 1}
"""Which record of a call the fold keeps: the service's own row, then the call's event,
then the AI agent's (which carries no status and no campaign)."""
_E164 = re.compile(E164_PATTERN)
_TIMES = ("created_at", "answered_at", "ended_at", "agent_joined_at")
_TEXTS = ("direction", "status", "campaign_id", "hangup_cause", "disposition")


@dataclass(frozen=True, slots=True)
class Fact:
    """One event (or frame row) as the monitor reads it.

    Attributes:
        event_id: The event's id (``frame:<call id>`` for a frame's row: a newer
            snapshot of the call replaces it).
        kind: The event type, or :data:`FRAME`.
        at: When the event happened (UTC, ISO 8601): the monitor's clock is the latest.
        call_id: The call it is about.
        call: The call's columns, as the calls frame names them (none for a disposition).
        disposition: The disposition code it logs, if any.
        logged_at: When that disposition was logged (ISO 8601), if said.
    """

    event_id: str
    kind: str
    at: str
    call_id: str
    call: Mapping[str, Any] | None = None
    disposition: str | None = None
    logged_at: str | None = None

    def to_json(self) -> str:
        """The fact as the state keeps it."""
        return json.dumps({"event_id": self.event_id, "kind": self.kind, "at": self.at,
                           "call_id": self.call_id, "call": self.call,
                           "disposition": self.disposition, "logged_at": self.logged_at})

    @classmethod
    def from_json(cls, text: str) -> Fact:
        """A fact the state kept (:meth:`to_json`)."""
        return cls(**json.loads(text))


@dataclass(frozen=True, slots=True)
class Held:
    """An event the monitor could not read, and why: it is kept and named, not judged."""

    event_id: str
    kind: str
    why: str


class _Unread(ValueError):
    """Why one event cannot be read (becomes a :class:`Held`)."""


def facts_of(value: Any) -> tuple[list[Fact], list[Held], int]:
    """The facts of what ``observe`` was given (an event, events, a frame of events or of
    calls), the events held, and how many events were of other types (appointments)."""
    if isinstance(value, pd.DataFrame):
        records = value.to_dict("records")
        if not {"type", "data"} <= set(value.columns):  # a frame of calls
            return _read_all({"type": FRAME, "data": row} for row in records)
        return _read_all(records)
    if isinstance(value, Mapping) or hasattr(value, "type"):
        return _read_all([value])
    return _read_all(value)


def _read_all(events: Iterable[Any]) -> tuple[list[Fact], list[Held], int]:
    facts: list[Fact] = []
    held: list[Held] = []
    other = 0
    for place, event in enumerate(events):
        kind = str(_field(event, "type"))
        if kind not in (*CALL_EVENTS, DISPOSITION_EVENT, FRAME):
            other += 1
            continue
        try:
            facts.append(_fact(kind, event))
        except _Unread as why:
            held.append(Held(_named(kind, event, place), kind, str(why)))
    return facts, held, other


def _named(kind: str, event: Any, place: int) -> str:
    """What names an event held: its id; a frame's row, its call's id (else its place,
    counted from 0, as the frame's rows are)."""
    if kind != FRAME:
        return str(_field(event, "id") or f"(event {place} given, without an id)")
    call_id = (_field(event, "data") or {}).get("id")
    return f"{FRAME}:{call_id}" if call_id else f"{FRAME}: row {place}, without an id"


def _field(event: Any, name: str) -> Any:
    return event.get(name) if isinstance(event, Mapping) else getattr(event, name, None)


def _data(event: Any) -> dict[str, Any]:
    data = _field(event, "data")
    if isinstance(data, str):  # a row of the receiver's store as a frame: JSON text
        try:
            data = json.loads(data)
        except json.JSONDecodeError:
            raise _Unread("its data is not JSON") from None
    if hasattr(data, "model_dump"):  # a verified Event's typed data
        data = data.model_dump(by_alias=True, mode="json")
    if not isinstance(data, Mapping):
        raise _Unread("it has no data")
    return {key: (None if _missing(value) else value) for key, value in data.items()}


def _missing(value: Any) -> bool:
    return value is None or (not isinstance(value, (str, Mapping, list)) and bool(pd.isna(value)))


def _fact(kind: str, event: Any) -> Fact:
    data = _data(event)
    call_id = data.get("call_id") if kind != FRAME else data.get("id")
    if not call_id:
        raise _Unread("it names no call (call_id)")
    if kind == FRAME:
        call = _call(data, data.get("created_at"))
        return Fact(f"{FRAME}:{call_id}", kind, _latest(call), str(call_id), call)
    event_id = _field(event, "id")
    if not event_id:
        raise _Unread("it has no event id")
    at = _time(_field(event, "created_at"), "created_at")
    if at is None:
        raise _Unread("it has no created_at")
    if kind == DISPOSITION_EVENT:
        code = data.get("disposition_code")
        if not code:
            raise _Unread("it logs no disposition_code")
        return Fact(str(event_id), kind, at, str(call_id), None, str(code),
                    _time(data.get("logged_at"), "logged_at"))
    call = _call({**data, "id": call_id, "from_number": data.get("from"),
                  "to_number": data.get("to"),
                  "disposition": data.get("disposition_code")}, data.get("started_at"))
    code, logged_at = _details_disposition(event)
    return Fact(str(event_id), kind, at, str(call_id), call, code, logged_at)


def _details_disposition(event: Any) -> tuple[str | None, str | None]:
    """The disposition the envelope's ``call_details`` says the call was logged with (its
    code and when), where it says one: the contract's call events carry it there, and a
    call the agent never spoke on has no ``disposition.logged`` of its own."""
    details = _field(event, "call_details")
    if hasattr(details, "model_dump"):
        details = details.model_dump(mode="json")
    said = details.get("disposition") if isinstance(details, Mapping) else None
    if not isinstance(said, Mapping) or not said.get("code"):
        return None, None
    try:
        logged_at = _time(said.get("logged_at"), "call_details.disposition.logged_at")
    except _Unread:  # a detail the call's record does not rest on: the disposition, undated
        logged_at = None
    return str(said["code"]), logged_at


def _call(data: Mapping[str, Any], started: Any) -> dict[str, Any]:
    """The calls frame's columns of a call record, checked as the audit would check them."""
    number = data.get("to_number")  # the caller id may be anything: the audit judges it
    if number is None:
        raise _Unread("it names no number called (to)")
    if not _E164.match(str(number)):
        raise _Unread(f"its to number {number!r} is not in E.164 (+ and the country code)")
    created = _time(started, "started_at")
    if created is None:
        raise _Unread("it has no start time (started_at)")
    call: dict[str, Any] = {"id": str(data["id"]), "from_number": data.get("from_number"),
                            "to_number": str(data["to_number"]), "created_at": created}
    for column in _TIMES[1:]:
        call[column] = _time(data.get(column), column)
    for column in _TEXTS:
        call[column] = None if data.get(column) is None else str(data[column])
    seconds = data.get("duration_seconds")
    try:
        call["duration_seconds"] = None if seconds is None else float(seconds)
    except (TypeError, ValueError):
        raise _Unread(f"its duration_seconds {seconds!r} is not a number") from None
    return call


def _time(value: Any, name: str) -> str | None:
    """A time as UTC ISO 8601 text; a time without its offset is not read as UTC."""
    if value is None:
        return None
    try:
        moment = pd.Timestamp(value)
    except (TypeError, ValueError):
        raise _Unread(f"its {name} {value!r} is not a time") from None
    if moment.tzinfo is None:
        raise _Unread(f"its {name} {value!r} has no UTC offset")
    return str(moment.tz_convert("UTC").isoformat())


def _latest(call: Mapping[str, Any]) -> str:
    return max(str(call[column]) for column in _TIMES if call.get(column) is not None)


def folded(facts: Iterable[Fact]) -> dict[str, Any] | None:
    """The call's row from every fact of it, in any order (none until its record comes)."""
    facts = list(facts)
    records = [fact for fact in facts if fact.call is not None]
    dispositions = [fact for fact in facts if fact.disposition is not None]
    if not records:
        return None
    best = max(records, key=lambda fact: (_RANK[fact.kind], fact.at, fact.event_id))
    row = dict(best.call or {})
    if dispositions:
        last = max(dispositions, key=lambda fact: (fact.logged_at or fact.at, fact.at,
                                                  fact.event_id))
        row["disposition"] = last.disposition
    return row
