"""``Monitor``: the audit's findings kept as the calls happen, equal to the audit at every
moment.

The monitor folds each event into its call's row (:mod:`._facts`), keeps every fact and
row in its state (:mod:`._state`), and judges the calls with the audit itself, with the
same inputs and ``as_of`` the latest event, so that its findings are the audit's by
construction (a second copy of the law would drift from the first). What an observation
returns is the difference: the findings added, and those withdrawn by a later fact (a late
call that makes another the fourth of a day moves the finding from one call to the other).
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Unpack

import pandas as pd

from ...frames import SCHEMAS
from .._entry import audit
from .._inputs._keywords import AuditInputs, inputs_of
from .._report._audit_report import AuditReport
from ._facts import FRAME, Fact, Held, facts_of, folded
from ._state import State


@dataclass(frozen=True)
class Changes:
    """What one :meth:`Monitor.observe` changed.

    Attributes:
        added: Findings that are new, or changed (a new figure in their evidence).
        withdrawn: Findings a later fact took back, or changed (their old row).
        events: Events read that the monitor had not seen.
        repeated: Events it had seen already (a retry, a replay): they change nothing.
        held: Events it could not read, and why (also in :attr:`Monitor.held`).
        as_of: The monitor's clock after it: the latest event's time.
    """

    added: pd.DataFrame
    withdrawn: pd.DataFrame
    events: int
    repeated: int
    held: tuple[Held, ...] = field(default=())
    as_of: pd.Timestamp | None = None

    def __repr__(self) -> str:
        return (f"Changes(added={len(self.added)}, withdrawn={len(self.withdrawn)}, "
                f"events={self.events}, repeated={self.repeated}, held={len(self.held)}, "
                f"as_of={None if self.as_of is None else self.as_of.isoformat()})")


class Monitor:
    """The audit's findings, kept as each call's events land.

    ``Monitor(state=None, **inputs)`` takes the audit's inputs (leads, DNC results,
    consents, texts, the account's facts, the rules or a preset: every keyword of
    :func:`dialkit.compliance.audit` but ``as_of``, which is the latest event's time) and
    keeps its state in the SQLite file ``state`` (``None``: in memory). Each
    :meth:`observe` reads events (a verified :class:`dialkit.webhooks.Event`, several, a
    frame of the receiver's store) or a frame of calls (``client.frames.calls()``), in any
    order and as often as they come, and answers what changed; :attr:`findings` is then
    what :func:`~dialkit.compliance.audit` finds in those calls.

    Examples:
        >>> from dialkit.compliance import Monitor
        >>> monitor = Monitor()
        >>> changes = monitor.observe({
        ...     "id": "evt_1", "type": "call.completed", "created_at": "2026-06-02T01:30:00Z",
        ...     "data": {"call_id": "call_1", "direction": "outbound", "status": "no_answer",
        ...              "from": "+14155550100", "to": "+12125550123",
        ...              "campaign_id": "cmp_1", "started_at": "2026-06-02T01:30:00Z"}})
        >>> changes.added["rule"].tolist()  # 21:30 in New York
        ['calling_hours']
        >>> monitor.close()
    """

    def __init__(self, state: str | Path | None = None,
                 **inputs: Unpack[AuditInputs]) -> None:
        inputs_of("Monitor", inputs)  # an input it does not read is refused, saying why
        self._inputs: dict[str, Any] = dict(inputs)
        self._lock = threading.Lock()
        self._state = State(state)
        try:
            self._calls = {row["id"]: row for row in self._state.calls()}
            kept_at = self._state.meta("as_of")
            self._as_of = None if kept_at is None else pd.Timestamp(kept_at)
            self._findings, self._notes = self._judged(self._calls, self._as_of)
        except BaseException:  # the inputs are read (or refused) by the judgment
            self._state.close()
            raise

    def close(self) -> None:
        """Close the state file."""
        self._state.close()

    def __enter__(self) -> Monitor:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @property
    def findings(self) -> pd.DataFrame:
        """The findings now: :func:`~dialkit.compliance.audit`'s of the calls observed, with
        the monitor's inputs, ``as_of`` :attr:`as_of`, row for row."""
        return self._findings.copy()

    @property
    def as_of(self) -> pd.Timestamp | None:
        """The latest event's time (None before any): the moment the findings look from."""
        return self._as_of

    @property
    def calls(self) -> pd.DataFrame:
        """The calls observed, a row each (its events folded), as ``client.frames.calls()``
        types them, by start time then id: what the findings judge."""
        return _calls_frame(self._calls.values())

    @property
    def held(self) -> pd.DataFrame:
        """The events the monitor could not read, and why (they judge nothing)."""
        return pd.DataFrame([dataclasses.asdict(each) for each in self._state.held()],
                            columns=["event_id", "kind", "why"])

    @property
    def notes(self) -> dict[str, str]:
        """The audit's notes for the findings now (a rule that did not run, and why)."""
        return dict(self._notes)

    def observe(self, events: Any) -> Changes:
        """Read ``events`` (an event, an iterable of them, a frame of the receiver's store or
        of calls) and judge what they change.

        Returns:
            The findings added and withdrawn, and what was read.
        """
        facts, held, _ = facts_of(events)
        with self._lock:
            new = self._new(facts)
            touched = self._state.facts_of({fact.call_id for fact in new})
            for fact in new:
                touched.setdefault(fact.call_id, []).append(fact)
            changed = {call_id: row for call_id, all_facts in touched.items()
                       if (row := folded(_latest_of_each(all_facts))) != self._calls.get(call_id)}
            as_of = max([t for t in (self._as_of, *(pd.Timestamp(f.at) for f in new))
                         if t is not None], default=None)
            calls = {**self._calls, **{k: v for k, v in changed.items() if v}}
            findings, notes = ((self._findings, self._notes) if not changed and as_of == self._as_of
                               else self._judged(calls, as_of))
            announced = self._state.announced()
            now = _announcements(findings)
            added = {key: row for key, row in now.items() if announced.get(key) != row}
            gone = [key for key in announced if key not in now]
            self._state.commit(new, changed, held, added, gone,
                               {} if as_of is None else {"as_of": as_of.isoformat()})
            self._calls, self._as_of = calls, as_of
            self._findings, self._notes = findings, notes
        keys = list(now)
        was = [json.loads(announced[key]) for key in announced if key in added or key in gone]
        return Changes(findings.iloc[[n for n, key in enumerate(keys) if key in added]]
                       .reset_index(drop=True), pd.DataFrame(was, columns=findings.columns),
                       len(new), len(facts) - len(new), tuple(held), as_of)

    def _new(self, facts: list[Fact]) -> list[Fact]:
        """The facts not kept yet, each once (a frame's row of a call: unless kept as it is)."""
        unique = list({fact.event_id: fact for fact in facts}.values())
        known = self._state.known([fact.event_id for fact in unique])
        kept = self._state.facts_of({f.call_id for f in unique
                                     if f.kind == FRAME and f.event_id in known})
        kept_as = {f.event_id: f for each in kept.values() for f in each}
        return [fact for fact in unique if fact.event_id not in known
                or (fact.kind == FRAME and kept_as.get(fact.event_id) != fact)]

    def _judged(self, calls: Mapping[str, dict[str, Any]], as_of: pd.Timestamp | None
                ) -> tuple[pd.DataFrame, dict[str, str]]:
        """The audit's findings and notes of ``calls`` at ``as_of`` (before any event: now)."""
        report: AuditReport = audit(_calls_frame(calls.values()), **self._inputs, as_of=as_of)
        return report.findings, dict(report.notes)


def _latest_of_each(facts: Iterable[Fact]) -> list[Fact]:
    """Each event id's fact once, the one read last (a frame's newer row of a call)."""
    return list({fact.event_id: fact for fact in facts}.values())


def _calls_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    frame = SCHEMAS["calls"].frame(rows)
    return frame.sort_values(["created_at", "id"], kind="stable").reset_index(drop=True)


def _announcements(findings: pd.DataFrame) -> dict[str, str]:
    """Each finding's row as JSON, by its key, in the findings' order: what the state keeps
    of the findings announced. The key tells one finding from another: its rule and call,
    or lead; a ``dnc_call`` may hold two rows of one call, its listing's and the state
    list's risk (``decided_by`` ``number``)."""
    rows = json.loads(findings.to_json(orient="records", date_format="iso", date_unit="us"))
    return {json.dumps([row.get("rule"), row.get("call_id"), row.get("lead_id"),
                        row.get("rule") == "dnc_call" and row.get("decided_by") == "number"]):
            json.dumps({k: v for k, v in row.items() if v is not None}, sort_keys=True)
            for row in rows}  # a column another rule's finding brings changes no row
