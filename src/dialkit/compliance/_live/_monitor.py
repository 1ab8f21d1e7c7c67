"""``Monitor``: the audit's findings kept as the calls happen, equal to the audit at every
moment.

The monitor folds each event into its call's row (:mod:`._facts`), keeps every fact and
row in its state (:mod:`._state`), and judges the calls with the audit itself, with the
same inputs and ``as_of`` the latest event, so that its findings are the audit's by
construction (a second copy of the law would drift from the first): after the first
judgment, only what the changed calls can change is judged again, by the audit's own
parts (:mod:`._scope`). What an observation returns is the difference: the findings
added, and those withdrawn by a later fact (a late call that makes another the fourth of
a day moves the finding from one call to the other).
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Unpack

import numpy as np
import pandas as pd

from ..._arrays._groups import isin
from ..._parallel._partitions import read_whole
from ...frames import maybe_pandas
from .._entry import read_inputs
from .._inputs._keywords import AuditInputs
from .._part import Options
from .._report._audit_report import AuditReport
from .._run import is_risk_of_a_list
from ._calls import AT_LEAST, MADE_AGAIN_AFTER, Calls, calls_frame
from ._facts import FRAME, Fact, Held, facts_of, folded
from ._gauges import Gauges, gauges_of, provisional_of
from ._scope import Judged, Scope
from ._settle import LATE, STEP, Settled, kept_calls, look_back
from ._snapshot import fingerprint, to_blob
from ._state import SNAPSHOT_FRAMES, TOLD, State

if TYPE_CHECKING:
    from ._view import LiveView


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
        judged: How many calls it judged again: those of the numbers (and persons) the
            events touched and the answered calls of their campaigns, or every call where
            a part could not tell (:mod:`dialkit.compliance` docs, "Live").
    """

    added: pd.DataFrame
    withdrawn: pd.DataFrame
    events: int
    repeated: int
    held: tuple[Held, ...] = field(default=())
    as_of: pd.Timestamp | None = None
    judged: int = 0

    def __repr__(self) -> str:
        return (f"Changes(added={len(self.added)}, withdrawn={len(self.withdrawn)}, "
                f"events={self.events}, repeated={self.repeated}, held={len(self.held)}, "
                f"as_of={None if self.as_of is None else self.as_of.isoformat()}, "
                f"judged={self.judged})")


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

    def __init__(self, state: str | Path | None = None, *,
                 on_finding: Callable[[pd.DataFrame], object] | None = None,
                 **inputs: Unpack[AuditInputs]) -> None:
        _, leads, dnc, self._options = read_inputs("Monitor", calls_frame(()), inputs)
        self._leads = maybe_pandas(read_whole(leads), "leads")
        self._dnc = maybe_pandas(read_whole(dnc), "dnc")
        self._inputs: dict[str, Any] = dict(inputs)
        self._on_finding = on_finding
        self._listeners: list[Callable[[Changes], object]] = []
        self._lock = threading.Lock()
        self._gauged: tuple[Judged, Gauges] | None = None  # the gauges of a judgment
        self._scope = Scope(self._leads, self._dnc, self._options)
        self._look_back = look_back(self._options.rules)
        self._fingerprint = fingerprint(self._leads, self._dnc, self._options)
        self._state = State(state)
        try:
            self._scope.settled = self._state.settled()
            kept_at = self._state.meta("as_of")
            self._as_of = None if kept_at is None else pd.Timestamp(kept_at)
            self._unsnapped: set[str] = set()  # the calls changed since the last snapshot
            self._told = Told(self._state.announced())
            self._calls, self._judged, due = self._restarted()
            if due and self._as_of is not None:
                self._snapshot()
        except BaseException:
            self._state.close()
            raise

    def close(self) -> None:
        """Close the state file, its calls and judgment kept whole (a restart reads them
        back, :mod:`._snapshot`)."""
        with self._lock:
            if self._unsnapped:
                self._snapshot()
        self._state.close()

    def _restarted(self) -> tuple[Calls, Judged, bool]:
        """The calls and their judgment as the state keeps them: the last snapshot's, the
        calls changed since judged again as one observation (:meth:`Scope.again`), what
        it told taken as told (:meth:`Told.resume`); or, with no snapshot (or one of other
        inputs), every call judged, and whether a snapshot is due (so that the next
        restart reads this judgment)."""
        kept = self._state.snapshot()
        if kept is None:
            calls = Calls(calls_frame(self._state.calls()))
            return calls, self._scope.whole(calls.frame, self._at(self._as_of)), True
        now, was = self._state.since_snapshot()
        fresh = calls_frame(now.values())
        calls = Calls(kept["calls"])
        calls.update(fresh)
        self._unsnapped = set(now)
        if self._state.meta("snapshot_inputs") != self._fingerprint:  # judged by others
            return calls, self._scope.whole(calls.frame, self._at(self._as_of)), True
        at = self._state.meta("snapshot_as_of")
        then = pd.Timestamp(at) if at else None
        findings = kept["findings"]
        judged = Judged(findings, kept["opened"], self._state.meta("snapshot_joined") == "1",
                        kept["dropped"], kept["answered"], None, 0, np.arange(len(findings)))
        again = None if not now and then == self._as_of else self._scope.again(
            judged, calls, was, now, fresh, then, self._at(self._as_of))
        self._told.resume(kept.get(TOLD), len(findings), again, self._scope.settled)
        return calls, judged if again is None else again, False

    def _snapshot(self) -> None:
        """Keep the calls and their judgment whole in the state (:mod:`._snapshot`)."""
        if self._state.path is None:  # a state in memory is never read again
            self._unsnapped.clear()
            return
        judged, told = self._judged, self._told.kept()
        frames = {name: self._calls.frame if name == "calls" else getattr(judged, name)
                  for name in SNAPSHOT_FRAMES}
        self._state.keep_snapshot(
            {name: to_blob(frame) for name, frame in
             {**frames, **({} if told is None else {TOLD: told})}.items()},
            {"snapshot_inputs": self._fingerprint,
             "snapshot_as_of": "" if self._as_of is None else self._as_of.isoformat(),
             "snapshot_joined": "1" if judged.joined else "0"})
        self._unsnapped.clear()

    def __enter__(self) -> Monitor:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @property
    def findings(self) -> pd.DataFrame:
        """The findings now: :func:`~dialkit.compliance.audit`'s of the calls observed, with
        the monitor's inputs, ``as_of`` :attr:`as_of`, row for row."""
        with self._lock:  # an observation's calls and findings, seen together
            return self._judged.findings.copy()

    @property
    def as_of(self) -> pd.Timestamp | None:
        """The latest event's time (None before any): the moment the findings look from."""
        with self._lock:
            return self._as_of

    @property
    def calls(self) -> pd.DataFrame:
        """The calls observed, a row each (its events folded), as ``client.frames.calls()``
        types them, by start time then id: what the findings judge."""
        with self._lock:
            return self._calls.frame.copy()

    @property
    def held(self) -> pd.DataFrame:
        """The events the monitor could not read, and why (they judge nothing)."""
        return pd.DataFrame([dataclasses.asdict(each) for each in self._state.held()],
                            columns=["event_id", "kind", "why"])

    @property
    def notes(self) -> dict[str, str]:
        """The audit's notes for the findings now (a rule that did not run, and why)."""
        return dict(self._report().notes)

    @property
    def unjudged(self) -> pd.DataFrame:
        """What each rule could not judge of the calls observed, a row per reason
        (``rule``, ``calls``, ``why``, ``give``, ``country``), as the audit of them says
        (:attr:`AuditReport.unjudged`): a rule with a row here has not passed those
        calls."""
        return self._report().unjudged.copy()

    @property
    def provisional(self) -> pd.DataFrame:
        """The findings a later event can still change, and ``why``: an abandonment in a
        period still running (its rate moves with every answered call to come), or told by
        the proxy before the call's disposition is logged (a disposition takes it back)."""
        return provisional_of(self._report(), self._as_of)

    def gauges(self) -> Gauges:
        """What is coming, at :attr:`as_of`: each campaign's current abandonment period by
        country (its rate, limit, and how many more abandoned calls breach it), and each
        number called in the last 24 hours (its contacts then, the calls its caps still let
        through, whether a call is allowed now, and when next), and what each rule could not
        judge (:attr:`unjudged`): :class:`Gauges`. Judged
        once per judgment of the calls: asked again before an observation changes them (a
        view redrawing, and its notebook reading the same figures), the same answer,
        copied."""
        with self._lock:
            judged, calls, as_of = self._judged, self._calls.frame, self._as_of
        kept = self._gauged
        if kept is None or kept[0] is not judged:
            kept = (judged, gauges_of(calls.copy(), self._leads, self._options, as_of,
                                      self._inputs, self._scope.person_numbers))
            self._gauged = kept
        gauges = kept[1]
        return dataclasses.replace(gauges, abandonment=gauges.abandonment.copy(),
                                   numbers=gauges.numbers.copy(), unjudged=self.unjudged)

    def observe(self, events: Any, *, read_to: tuple[str, int] | None = None) -> Changes:
        """Read ``events`` (an event, an iterable of them, a frame of the receiver's store or
        of calls) and judge what they change.

        Args:
            events: What to read.
            read_to: Where a reader of a store has read it to, ``(store, cursor)``: kept
                in the same transaction as what the events change, so that a reader that
                restarts reads on from there (:meth:`read_to`), never an event twice
                uncounted nor one lost.

        Returns:
            The findings added and withdrawn, and what was read.
        """
        facts, held, _ = facts_of(events)
        with self._lock:
            new = self._new(facts)
            touched = self._state.facts_of({fact.call_id for fact in new})
            for fact in new:
                touched.setdefault(fact.call_id, []).append(fact)
            kept = self._state.rows_of(touched)
            rows = {call_id: folded(_latest_of_each(all_facts))
                    for call_id, all_facts in touched.items()}
            changed = {call_id: row for call_id, row in rows.items()
                       if row is not None and row != kept.get(call_id)}
            waiting = [call_id for call_id, row in rows.items() if row is None]
            new, held = self._settled_apart(new, changed, held)
            as_of = max([t for t in (self._as_of, *(pd.Timestamp(f.at) for f in new))
                         if t is not None], default=None)
            same = not changed and as_of == self._as_of
            try:
                fresh = calls_frame(changed.values())
                self._calls.update(fresh)
                judged = (self._judged if same else self._scope.again(
                    self._judged, self._calls, {i: kept[i] for i in changed if i in kept},
                    changed, fresh, self._as_of, self._at(as_of)))
                told = (self._told.changes(judged, self._scope.settled) if not same
                        else Told.NOTHING)
                meta = {} if as_of is None else {"as_of": as_of.isoformat()}
                if read_to is not None:
                    meta[f"read_to:{read_to[0]}"] = str(int(read_to[1]))
                self._state.commit(new, changed, waiting, held, told.added, told.gone, meta)
            except BaseException:  # the state holds none of it: nor do the calls
                self._calls = Calls(calls_frame(self._state.calls()))
                raise
            was = self._told.settle(told)
            self._as_of, self._judged = as_of, judged
            self._unsnapped.update(changed)
            unwaited = self._settle()
            if unwaited is not None or len(self._unsnapped) > max(
                    AT_LEAST, MADE_AGAIN_AFTER * self._calls.made):
                self._snapshot()
            findings = judged.findings
            changes = Changes(findings.iloc[told.places].reset_index(drop=True),
                              pd.DataFrame(was, columns=findings.columns),
                              len(new), len(facts) - len(new),
                              (*held, *(unwaited or ())), as_of, 0 if same else judged.judged)
        if self._on_finding is not None and len(changes.added):
            self._on_finding(changes.added)  # after the state holds them: none lost
        for listener in list(self._listeners):  # one may unsubscribe as it hears
            listener(changes)
        return changes

    def read_to(self, store: str) -> int:
        """Where the events of ``store`` were read to (:meth:`observe`'s ``read_to``); 0
        where none were."""
        kept = self._state.meta(f"read_to:{store}")
        return 0 if kept is None else int(kept)

    def subscribe(self, listener: Callable[[Changes], object]) -> None:
        """Call ``listener`` with each observation's :class:`Changes`, once the state
        holds them (a live view redraws so)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[Changes], object]) -> None:
        """Stop calling ``listener`` (:meth:`subscribe`); one never subscribed is refused."""
        try:
            self._listeners.remove(listener)
        except ValueError:
            raise ValueError("unsubscribe(): that listener was not subscribed to this "
                             "monitor (or was unsubscribed already)") from None

    def view(self) -> LiveView:
        """The monitor's gauges and latest findings in a notebook, redrawn as events land
        (:class:`~dialkit.compliance.LiveView`; needs the ``notebook`` extra)."""
        from ._view import LiveView  # ipywidgets: imported where a view is asked for

        return LiveView(self)

    def _new(self, facts: list[Fact]) -> list[Fact]:
        """The facts not kept yet, each once (a frame's row of a call: unless kept as it is)."""
        unique = _latest_of_each(facts)
        known = self._state.known([fact.event_id for fact in unique])
        kept = self._state.facts_of({f.call_id for f in unique
                                     if f.kind == FRAME and f.event_id in known})
        kept_as = {f.event_id: f for each in kept.values() for f in each}
        return [fact for fact in unique if fact.event_id not in known
                or (fact.kind == FRAME and kept_as.get(fact.event_id) != fact)]

    def _settled_apart(self, new: list[Fact], changed: dict[str, dict[str, Any]],
                       held: list[Held]) -> tuple[list[Fact], list[Held]]:
        """The facts of calls started before the settled moment held, not read
        (:mod:`._settle`: a disposition logged weeks after its call); ``changed`` without
        their calls."""
        late = {call_id for call_id, row in changed.items()
                if self._scope.settled.late(pd.Timestamp(row.get("created_at")))}
        if not late:
            return new, held
        for call_id in late:
            del changed[call_id]
        return ([fact for fact in new if fact.call_id not in late],
                [*held, *self._scope.settled.held(f for f in new if f.call_id in late)])

    def _settle(self) -> list[Held] | None:
        """Settle the findings no event can change any more, drop the calls no finding
        still judged reads, and hold the facts no call will come for (:mod:`._settle`),
        once the settled moment can move a step: the facts it held (None: it did not)."""
        scope, as_of, judged = self._scope, self._as_of, self._judged
        if as_of is None or not scope.scoped:
            return None
        before = as_of - LATE - self._look_back
        if scope.settled.before is not None and before < scope.settled.before + STEP:
            return None
        still = scope.open_numbers(as_of)
        if still is None:  # a dated row of no number: no finding can be told settled
            return None
        now = Settled(before, still)
        findings = judged.findings
        rows = now.rows(findings)
        new = findings[rows & ~scope.settled.rows(findings)]
        risky = set(findings.loc[is_risk_of_a_list(findings), "phone"].dropna().tolist())
        frame = self._calls.frame
        keep = kept_calls(frame, before - self._look_back, judged.opened, still | risky)
        gone = frame["id"][~keep].astype(str).tolist()
        keys, unwaited = _keys(new), now.unwaited(self._state.waiting())
        held = now.held(unwaited)
        self._state.settle(new, gone, keys, {"settled_before": before.isoformat(),
                                             "settled_open": json.dumps(sorted(still))},
                           unwaited, held)
        scope.settled = dataclasses.replace(now, findings=findings[rows].reset_index(drop=True))
        self._calls = Calls(frame[keep].reset_index(drop=True))
        self._judged = dataclasses.replace(
            judged, answered=judged.answered[~isin(judged.answered.index, gone, keep=False)],
            dropped=judged.dropped[~isin(judged.dropped.index, gone, keep=False)])
        self._told.forget(keys)
        return held

    def _at(self, as_of: pd.Timestamp | None) -> Options:
        """The audit's options at ``as_of`` (before any event: now)."""
        return self._options if as_of is None else dataclasses.replace(
            self._options, moment=as_of)

    def _report(self) -> AuditReport:
        """The whole audit's report of the calls now (its notes, its abandoned calls),
        judged whole once where only a part was judged again since."""
        with self._lock:
            report = self._judged.report
            if report is None:
                self._judged = self._scope.whole(self._calls.frame, self._at(self._as_of))
                report = self._judged.report
            assert report is not None  # a whole judgment's
            return report


def _latest_of_each(facts: Iterable[Fact]) -> list[Fact]:
    """Each event id's fact once, the one read last (a frame's newer row of a call)."""
    return list({fact.event_id: fact for fact in facts}.values())


@dataclass(frozen=True)
class Telling:
    """What one judgment tells (:meth:`Told.changes`).

    Attributes:
        added: The findings to announce (new, or changed): their row as JSON, by key.
        gone: The keys of the findings withdrawn.
        places: The positions among the judgment's findings of those announced.
        keys: Every finding's key, in order.
        hashes: The row hash of each finding read, by key.
        dropped: The keys read before that this judgment no longer holds.
    """

    added: dict[str, str]
    gone: list[str]
    places: list[int]
    keys: np.ndarray
    hashes: dict[str, int]
    dropped: list[str]


class Told:
    """The findings announced, as the state keeps them (each one's row as JSON, by its
    key), and the row hashes and keys of the findings last judged, so that an observation
    writes as JSON only the findings that are new or changed, and reads only those judged
    anew, not every finding again (after its first, which reads all: what a restart's
    judgment changed, its inputs new, is told once)."""

    NOTHING = Telling({}, [], [], np.zeros(0, object), {}, [])
    """What a judgment that judged nothing tells."""

    def __init__(self, announced: Mapping[str, str]) -> None:
        self.announced = dict(announced)
        self._hashes: dict[str, int] = {}
        self._keys: np.ndarray | None = None  # None: nothing read yet

    def changes(self, judged: Judged, settled: Settled) -> Telling:
        """What ``judged`` tells beside the judgment before: of the findings it judged
        anew (``judged.fresh``; the first read every one but those ``settled``), those
        whose row changed; of those it did not keep, those gone."""
        findings, before = judged.findings, self._keys
        whole = before is None or judged.kept is None
        fresh = judged.fresh if before is not None else np.flatnonzero(
            ~settled.rows(findings))  # the first: every finding judged, not those settled
        read = findings.iloc[fresh]
        keys = _keys(read)
        hashes = pd.util.hash_pandas_object(read, index=False).to_numpy().tolist()
        told = [n for n, (key, value) in enumerate(zip(keys, hashes, strict=True))
                if self._hashes.get(key) != value]
        added = {keys[n]: row for n, row in zip(told, _rows_json(read.iloc[told]), strict=True)
                 if self.announced.get(keys[n]) != row}
        every = np.empty(len(findings), object)
        every[fresh] = keys
        now = set(keys)
        if whole:
            dropped = list(self._hashes)
            gone = [key for key in self.announced if key not in now]
        else:
            assert before is not None and judged.kept is not None
            rest = np.ones(len(every), bool)
            rest[fresh] = False
            every[rest] = before[judged.kept]
            dropped = [key for key in before[~judged.kept].tolist() if key not in now]
            gone = [key for key in dropped if key in self.announced]
        places = sorted(int(fresh[n]) for n, key in enumerate(keys) if key in added)
        return Telling(added, gone, places, every, dict(zip(keys, hashes, strict=True)),
                       dropped)

    def kept(self) -> pd.DataFrame | None:
        """The key and row hash of each finding last judged, as a snapshot keeps them
        beside the findings (None: none read yet, a judgment not told)."""
        if self._keys is None:
            return None
        keys = self._keys.tolist()
        return pd.DataFrame({"key": pd.Series(keys, dtype=object), "hash": pd.array(
            [None if key is None else self._hashes.get(key) for key in keys], "UInt64")})

    def resume(self, kept: pd.DataFrame | None, findings: int, again: Judged | None,
               settled: Settled) -> None:
        """Take a snapshot's ``findings`` (how many) as told, by what :meth:`kept` kept of
        them, then ``again``, the restart's judgment of the calls changed since, as an
        observation takes it: the first observation after a restart reads only what it
        judges anew, where it read every finding as JSON (1.5 s of 78,000). A snapshot of
        a judgment not told (none kept), or an ``again`` that tells anything (its rows
        are not what the state says was told), takes nothing: the first observation
        reads every finding, as after new inputs."""
        if kept is None or len(kept) != findings:
            return
        keys, known = kept["key"].to_numpy(object), kept["hash"].notna().to_numpy(bool)
        self._keys, self._hashes = keys, dict(zip(
            keys[known].tolist(), kept["hash"].to_numpy(np.uint64, na_value=0)[known].tolist(),
            strict=True))
        telling = Told.NOTHING if again is None else self.changes(again, settled)
        if telling.added or telling.gone:
            self._keys, self._hashes = None, {}
        else:
            self.settle(telling)

    def forget(self, keys: Iterable[str]) -> None:
        """Forget the findings of ``keys`` (settled: never judged again, so never told)."""
        for key in keys:
            self.announced.pop(key, None)
            self._hashes.pop(key, None)

    def settle(self, told: Telling) -> list[dict[str, Any]]:
        """Take ``told`` as told (once the state holds it); the rows it replaces or
        withdraws, as they were told."""
        was = [json.loads(self.announced[key]) for key in [*told.added, *told.gone]
               if key in self.announced]
        for key in told.gone:
            del self.announced[key]
        self.announced.update(told.added)
        if told is not Told.NOTHING:
            for key in told.dropped:
                self._hashes.pop(key, None)
            self._hashes.update(told.hashes)
            self._keys = told.keys
        return was


def _keys(findings: pd.DataFrame) -> list[str]:
    """Each finding's key: its rule and call, or lead; a ``dnc_call`` may hold two rows of
    one call, its listing's and the state list's risk (``decided_by`` ``number``). Each
    id is written after its length, so that no id, whatever it holds, reads as two."""
    def said(column: str) -> pd.Series:
        text = findings[column].astype("string").fillna("")
        return text.str.len().astype(str) + ":" + text

    keys = (said("rule") + said("call_id") + said("lead_id")
            + is_risk_of_a_list(findings).astype(int).astype(str))
    return [str(key) for key in keys]


def _rows_json(findings: pd.DataFrame) -> list[str]:
    """Each finding's row as JSON, its nulls left out (a column another rule's finding
    brings changes no row)."""
    rows = json.loads(findings.to_json(orient="records", date_format="iso", date_unit="us"))
    return [json.dumps({k: v for k, v in row.items() if v is not None}, sort_keys=True)
            for row in rows]
