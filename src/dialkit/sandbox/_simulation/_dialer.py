"""The dialer simulation: as service time passes, running campaigns call their leads.

:func:`simulate` moves one data set through an interval of service time. For
each running campaign it places calls at a bounded rate
(:data:`CALLS_PER_MINUTE`), choosing among the leads that are due (``new``
leads; ``contacted`` ones whose ``next_attempt_at`` has come; leads with a
pending callback at its ``scheduled_at``), dial-now leads first, and only
within 08:00-21:00 at the recipient (in each of its number's zones) and the hours
and days the law of the place called allows (:mod:`.._world._kept_law._place`),
and never to a number on the Do-Not-Call list (a due lead whose number was listed
meanwhile becomes ``dnc`` without a call). A ``predictive`` campaign abandons a
share of its answered calls (:data:`~._one_call.ABANDON_SHARE`), as such dialers
do. A callback is completed by the call it brought. Each call leaves a call
record, the lead's new state, a history entry and its webhook events
(:mod:`._one_call`). Click-to-calls that are over end and free their agent
(:mod:`._clicks`), and a campaign whose leads are all finished becomes
``completed``.

A call is written once it has ended, so nothing the API shows lies in the
future: the rate counts calls by their end, and a call that ends in the
interval may have been dialled shortly before it (never before its campaign
started running). A run is reproducible: its random choices come from a
generator seeded with the data set and the interval's start.

The manual clock runs it through ``POST /_sandbox/clock``; with the real
clock, :func:`simulation_loop` runs it every :data:`SIMULATION_STEP_SECONDS`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

import pandas as pd

from dialkit._phones._asked import PhoneNumber, valid_number
from dialkit._phones._zones import zones_of
from dialkit.contract import CALLING_HOURS

from .._state._clock import parse_timestamp
from .._state._service import Service
from .._world._kept_law._place import allows, area_jurisdiction
from .._world._numbers import country_of
from ._clicks import finish_click_to_calls
from ._one_call import (
    ABANDON_SHARE,
    MAX_ATTEMPTS,
    RETRY_AFTER_MS,
    Outcome,
    PlacedCall,
    abandoned,
    draw_outcome,
    epoch_ms,
    lead_status,
    next_attempt,
    record_call_events,
    stamp,
    typed_id,
    write_call,
)

log = logging.getLogger("dialkit.sandbox.simulation")

CALLS_PER_MINUTE = 2
"""Calls one running campaign completes per minute of service time, at most."""

MAX_CALLS_PER_RUN = 2000
"""Calls one campaign places in one run at most, so that a long advance stays fast."""

SIMULATION_STEP_SECONDS = 5.0
"""How often :func:`simulation_loop` moves the simulation with the real clock, at most."""

SIMULATION_SHARE = 20
"""The real-clock loop pauses at least this many times as long as its last run took."""

COUNTERS = ("calls_placed", "calls_answered", "callbacks_due", "callbacks_completed",
            "callbacks_scheduled", "leads_screened_dnc", "dnc_added", "events_recorded",
            "campaigns_completed", "click_to_calls_ended")
"""What a run reports, each a count."""

_SLOT_MS = 60_000 // CALLS_PER_MINUTE
_QUARTER_MS = 15 * 60_000
"""Local hours change only on UTC quarter hours, so calling hours are known per quarter."""
_UNFINISHED = ("new", "contacted", "callback")
_LEAD_COLUMNS = ("id, phone, country, status, attempts, created_at, last_attempt_at, "
                 "next_attempt_at, priority_until")
"""What the dialer reads of a lead (fewer columns: a cheaper load of a large campaign)."""


def simulate(service: Service, dataset: str, account: str, start: datetime,
             end: datetime) -> dict[str, int]:
    """Run the dialer of ``dataset`` from ``start`` to ``end``; return what happened, counted.

    Args:
        service: The emulator's service (store and account configuration).
        dataset: The data set to move, e.g. ``client:acme/full``.
        account: The data set's account name.
        start: The interval's start (service time).
        end: The interval's end; nothing happens when it is not after ``start``.
    """
    run = _Run(service, dataset, account, epoch_ms(start), epoch_ms(end))
    if run.end <= run.start:
        return run.counts
    with service.store.transaction():
        ended = finish_click_to_calls(service.store, dataset, account, run.end)
        run.counts["click_to_calls_ended"] += len(ended)
        run.counts["events_recorded"] += sum(ended)
        for campaign in run.running_campaigns():
            _Dialer(run, campaign).dial()
    return run.counts


def simulate_all(service: Service, start: datetime, end: datetime) -> dict[str, dict[str, int]]:
    """:func:`simulate` every data set that exists (the seeds never change), by name."""
    rows = service.store.rows("SELECT dataset, account, created_at FROM datasets "
                              "ORDER BY dataset")
    return {row["dataset"]: simulate(service, row["dataset"], row["account"],
                                     max(start, parse_timestamp(row["created_at"])), end)
            for row in rows}


def totals(results: dict[str, dict[str, int]]) -> dict[str, int]:
    """The counts of :func:`simulate_all` summed over the data sets."""
    return {name: sum(counts[name] for counts in results.values()) for name in COUNTERS}


async def simulation_loop(service: Service) -> None:
    """Move the simulation with the real clock, every :data:`SIMULATION_STEP_SECONDS` or more.

    A manual clock is moved by ``POST /_sandbox/clock``, which runs the
    simulation itself, so the loop returns at once for one. The pause after a
    run is at least :data:`SIMULATION_SHARE` times as long as the run took, so
    that the dialer never takes more than a small share of the server's time
    (a run holds the event loop that answers requests). A failed run is logged
    and the loop carries on.
    """
    if service.clock.manual:
        return
    last, pause = service.clock.now(), SIMULATION_STEP_SECONDS
    while True:
        await asyncio.sleep(pause)
        now, began = service.clock.now(), time.perf_counter()
        try:
            simulate_all(service, last, now)
        except Exception:
            log.exception("the dialer simulation failed for %s - %s", last, now)
        last = now
        pause = max(SIMULATION_STEP_SECONDS, (time.perf_counter() - began) * SIMULATION_SHARE)


@dataclass
class _Lead:
    """A lead the dialer may call, with the time it is due (epoch ms)."""

    id: str
    phone: str
    country: str | None
    number: PhoneNumber
    zones: tuple[str, ...]
    place: str
    created: int
    due: int
    priority_until: int | None
    attempts: int
    callbacks: list[tuple[int, str]] = field(default_factory=list)

    def order(self, moment: int) -> tuple[bool, int, int, str]:
        """Dialling order: dial-now leads first, then the longest due."""
        urgent = self.priority_until is not None and self.priority_until > moment
        return not urgent, self.due, self.created, self.id


@functools.lru_cache(maxsize=1_000_000)
def _parsed(phone: str) -> PhoneNumber | None:
    """A lead's parsed number, kept across runs: parsing every due lead again each run
    would cost the real-clock loop seconds on the large world."""
    return valid_number(phone)


def _zones(phones: list[str]) -> dict[str, tuple[str, ...]]:
    """Each number's time zones as the compliance audit judges its hours (every zone of
    an area code whose exchanges lie in two: 807 in Toronto's and Winnipeg's); UTC where
    none is known. Read in one call for the numbers not met before and kept across runs
    (:data:`ZONES_KEPT` at most), as :func:`_parsed` keeps the numbers: 200,000 numbers
    take about a second to read."""
    with _ZONES_LOCK:  # one process may run several emulators' dialers
        new = [phone for phone in dict.fromkeys(phones) if phone not in _ZONES_SEEN]
        if len(_ZONES_SEEN) + len(new) > ZONES_KEPT:
            _ZONES_SEEN.clear()
            new = list(dict.fromkeys(phones))
        found: dict[str, list[str]] = {phone: [] for phone in new}
        if new:
            read = zones_of(pd.Series(new, dtype=object))
            for phone, zone in zip(read["phone"].tolist(), read["zone"].tolist(), strict=True):
                found[phone].extend([zone] if zone else [])
        _ZONES_SEEN.update((phone, tuple(each) or ("UTC",)) for phone, each in found.items())
        return {phone: _ZONES_SEEN[phone] for phone in phones}


ZONES_KEPT = 1_000_000
"""Numbers whose zones :func:`_zones` keeps across runs."""
_ZONES_SEEN: dict[str, tuple[str, ...]] = {}
_ZONES_LOCK = threading.Lock()


def _ms(text: str | None) -> int | None:
    return None if text is None else epoch_ms(parse_timestamp(text))


def _due(row: sqlite3.Row, callbacks: list[tuple[int, str]]) -> int:
    """When a lead is next due (0: at once): its earliest pending callback; a new lead at
    once; else its ``next_attempt_at``, or a retry delay after its last attempt."""
    if callbacks:
        return callbacks[0][0]
    due, last = _ms(row["next_attempt_at"]), _ms(row["last_attempt_at"])
    if row["status"] == "new":
        return 0
    if due is not None:
        return due
    return 0 if last is None else last + RETRY_AFTER_MS[0]


class _Run:
    """One data set's run: the interval, its random generator, caches and the counts."""

    def __init__(self, service: Service, dataset: str, account: str, start: int,
                 end: int) -> None:
        self.store, self.conn = service.store, service.store.conn
        self.dataset, self.account, self.start, self.end = dataset, account, start, end
        self.blocked = set(service.accounts[account].blocked_countries)
        self.rng = random.Random(f"{dataset}|{stamp(start)}")
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.layers = self.store.layers(dataset, account)
        self._hours: dict[tuple[tuple[str, ...], str, int], bool] = {}
        self._listed: dict[str, bool] = {}
        self.callers = self._caller_ids()
        self.agents = self._agent_extensions()

    def running_campaigns(self) -> list[sqlite3.Row]:
        """The running campaigns in id order (so that runs are reproducible); none when the
        account has no verified caller id to dial from."""
        if not self.callers:
            return []
        return self.store.rows("SELECT * FROM campaigns WHERE dataset = ? AND status = 'running' "
                               "ORDER BY id", (self.dataset,))

    def callable_at(self, lead: _Lead, moment: int) -> bool:
        """Whether ``moment`` is within calling hours at the lead, federal and those of the
        place called (:mod:`.._world._kept_law._place`), in each of its number's time zones
        (as the audit judges a split area code), cached per zones, place and quarter."""
        quarter = moment // _QUARTER_MS
        key = (lead.zones, lead.place, quarter)
        if key not in self._hours:
            when = parse_timestamp(stamp(quarter * _QUARTER_MS))
            start, end = CALLING_HOURS
            self._hours[key] = all(
                start <= local.hour < end and allows(lead.place, local)
                for local in (when.astimezone(ZoneInfo(zone)).replace(tzinfo=None)
                              for zone in lead.zones))
        return self._hours[key]

    def next_opening(self, lead: _Lead, moment: int) -> int:
        """The next quarter hour after ``moment`` within calling hours at the lead."""
        at = (moment // _QUARTER_MS + 1) * _QUARTER_MS
        while not self.callable_at(lead, at):
            at += _QUARTER_MS
        return at

    def listed(self, phone: str) -> bool:
        """Whether ``phone`` is on the account's Do-Not-Call list (seeded or added)."""
        if phone not in self._listed:
            self._listed[phone] = self.store.row(
                "SELECT 1 FROM dnc WHERE phone = ? AND dataset IN (?, ?)",
                (phone, *self.layers)) is not None
        return self._listed[phone]

    def add_to_dnc(self, phone: str, at: int) -> None:
        """List a number whose owner asked not to be called again."""
        self.conn.execute("INSERT OR IGNORE INTO dnc (dataset, phone, added_at, source) "
                          "VALUES (?, ?, ?, 'customer_request')",
                          (self.dataset, phone, stamp(at)))
        self._listed[phone] = True
        self.counts["dnc_added"] += 1

    def _caller_ids(self) -> dict[str | None, list[str]]:
        """The verified caller ids by country, and all of them under ``None``."""
        callers: dict[str | None, list[str]] = {}
        for row in self.store.rows("SELECT DISTINCT phone FROM caller_ids WHERE dataset IN "
                                   "(?, ?) ORDER BY phone", self.layers):
            callers.setdefault(country_of(row[0]), []).append(row[0])
            callers.setdefault(None, []).append(row[0])
        return callers

    def caller_id(self, country: str | None) -> str:
        """A verified caller id of the lead's country if there is one, else any."""
        return self.rng.choice(self.callers.get(country) or self.callers[None])

    def _agent_extensions(self) -> list[str]:
        """The agents who may join answered calls: the signed-in ones, else all."""
        rows = self.store.rows("SELECT extension, state FROM agents WHERE dataset = ? "
                               "ORDER BY extension", (self.dataset,))
        return [r[0] for r in rows if r[1] != "signed_out"] or [r[0] for r in rows]

    def agent(self) -> str | None:
        """The extension of an agent to join an answered call."""
        return self.rng.choice(self.agents) if self.agents else None


class _Dialer:
    """One running campaign's dialling through the run's interval."""

    def __init__(self, run: _Run, campaign: sqlite3.Row) -> None:
        self.run, self.campaign_id = run, str(campaign["id"])
        since = campaign["updated_at"] or campaign["started_at"] or campaign["created_at"]
        self.since = epoch_ms(parse_timestamp(since))
        self.leads = self._load()
        self.last_end: int | None = None
        # which answered calls a predictive campaign abandons: a generator of its own,
        # seeded as the run's is, and by the campaign
        self.drops = (random.Random(f"{run.dataset}|{self.campaign_id}|{stamp(run.start)}")
                      if campaign["dialer_mode"] == "predictive" else None)

    def _load(self) -> dict[str, _Lead]:
        """The campaign's leads that may still be called, by id."""
        run, marks = self.run, ", ".join("?" * len(_UNFINISHED))
        callbacks: dict[str, list[tuple[int, str]]] = {}
        for row in run.store.rows(
                "SELECT id, lead_id, scheduled_at FROM callbacks WHERE dataset = ? AND "
                "campaign_id = ? AND status = 'pending' AND lead_id IS NOT NULL "
                "ORDER BY scheduled_at, id", (run.dataset, self.campaign_id)):
            due = epoch_ms(parse_timestamp(row["scheduled_at"]))
            callbacks.setdefault(row["lead_id"], []).append((due, row["id"]))
            run.counts["callbacks_due"] += run.start < due <= run.end
        rows = run.store.rows(
            f"SELECT {_LEAD_COLUMNS} FROM leads WHERE dataset = ? AND campaign_id = ? "
            f"AND status <> 'dnc' "
            f"AND (status IN ({marks}) OR id IN (SELECT lead_id FROM callbacks WHERE "
            f"dataset = ? AND status = 'pending')) ORDER BY id",
            (run.dataset, self.campaign_id, *_UNFINISHED, run.dataset))
        zones = _zones([row["phone"] for row in rows])
        leads = (self._lead(row, callbacks.get(row["id"], []), zones.get(row["phone"], ("UTC",)))
                 for row in rows)
        return {lead.id: lead for lead in leads if lead is not None}

    def _lead(self, row: sqlite3.Row, callbacks: list[tuple[int, str]],
              zones: tuple[str, ...]) -> _Lead | None:
        """A lead as the dialer sees it (``zones``: its number's), or ``None`` if it must
        not or cannot be called."""
        number = _parsed(row["phone"])
        if number is None or row["country"] in self.run.blocked:
            return None
        if not callbacks and row["attempts"] >= MAX_ATTEMPTS:
            return None
        created = epoch_ms(parse_timestamp(row["created_at"]))
        # the place's law: the lead's country, else its number's (as the audit reads it)
        place = area_jurisdiction(row["country"] or country_of(row["phone"]) or "",
                                  row["phone"][:5])
        return _Lead(row["id"], row["phone"], row["country"], number, zones, place, created,
                     max(_due(row, callbacks), created), _ms(row["priority_until"]),
                     row["attempts"], callbacks)

    def dial(self) -> None:
        """Place calls slot by slot through the interval, then complete the campaign if done."""
        run, placed = self.run, 0
        end = run.start + run.rng.randrange(_SLOT_MS)
        while end < run.end and placed < MAX_CALLS_PER_RUN and self.leads:
            outcome = draw_outcome(run.rng)
            dialled = end - outcome.duration_ms
            lead = self._pick(dialled)
            if lead is None:
                opening = self._next_opportunity(dialled)
                end = max(end + _SLOT_MS, opening + outcome.duration_ms)
                continue
            outcome, dialled = self._dropped(outcome, lead, end)
            call = PlacedCall(typed_id(run.rng, "call_"), run.dataset, run.account,
                              self.campaign_id, lead.id, run.caller_id(lead.country), lead.phone,
                              dialled, outcome, run.agent())
            self._place(lead, call)
            placed += 1
            end += _SLOT_MS
        self._complete_if_done()

    def _dropped(self, outcome: Outcome, lead: _Lead, end: int) -> tuple[Outcome, int]:
        """``outcome`` and when it was dialled to end at ``end``; for a predictive campaign's
        answered call that no agent was free for, its abandoned form, dialled later to end
        then (where that is still within the lead's calling hours). Drawn once a lead is
        picked: a short call drawn before would more often fit the next lead's opening."""
        dialled = end - outcome.duration_ms
        if self.drops is None or not outcome.answered or self.drops.random() >= ABANDON_SHARE:
            return outcome, dialled
        dropped = abandoned(outcome, self.drops)
        later = end - dropped.duration_ms
        return (dropped, later) if self.run.callable_at(lead, later) else (outcome, dialled)

    def _pick(self, moment: int) -> _Lead | None:
        """The first lead in dialling order that may be called at ``moment``.

        A due lead whose number is on the Do-Not-Call list becomes ``dnc`` instead.
        """
        if moment < self.since:
            return None
        while True:
            ready = [lead for lead in self.leads.values()
                     if lead.due <= moment and self.run.callable_at(lead, moment)]
            if not ready:
                return None
            lead = min(ready, key=lambda item: item.order(moment))
            if not self.run.listed(lead.phone):
                return lead
            self._screen_out(lead, moment)

    def _next_opportunity(self, moment: int) -> int:
        """The earliest time after ``moment`` at which some lead may become callable."""
        if moment < self.since:
            return self.since
        return min((lead.due if lead.due > moment else self.run.next_opening(lead, moment)
                    for lead in self.leads.values()), default=self.run.end)

    def _screen_out(self, lead: _Lead, moment: int) -> None:
        """A lead whose number joined the Do-Not-Call list is never called again."""
        self.run.conn.execute(
            "UPDATE leads SET status = 'dnc', next_attempt_at = NULL, priority_until = NULL, "
            "updated_at = ?, version = version + 1 WHERE dataset = ? AND id = ?",
            (stamp(moment), self.run.dataset, lead.id))
        del self.leads[lead.id]
        self.run.counts["leads_screened_dnc"] += 1

    def _place(self, lead: _Lead, call: PlacedCall) -> None:
        """Write the call and move the lead, its callbacks and the counts on."""
        run, outcome = self.run, call.outcome
        write_call(run.conn, call)
        lead.attempts += 1
        status = lead_status(outcome, lead.attempts)
        follow_up = next_attempt(run.rng, status, call.ended_at)
        self._complete_callbacks(lead, call.dialled)
        if status == "callback" and follow_up is not None:
            self._schedule_callback(lead, follow_up, call.ended_at)
        if status == "dnc":
            run.add_to_dnc(lead.phone, call.ended_at)
        elif lead.callbacks:
            status, follow_up = "callback", lead.callbacks[0][0]
        self._update_lead(lead, call, status, follow_up)
        run.counts["events_recorded"] += record_call_events(run.store, call, follow_up)
        run.counts["calls_placed"] += 1
        run.counts["calls_answered"] += outcome.answered
        self.last_end = call.ended_at

    def _complete_callbacks(self, lead: _Lead, dialled: int) -> None:
        """The lead's callbacks that were due when it was dialled are done."""
        done = [cb for cb in lead.callbacks if cb[0] <= dialled]
        for _, callback_id in done:
            self.run.conn.execute(
                "UPDATE callbacks SET status = 'completed', updated_at = ? "
                "WHERE dataset = ? AND id = ?", (stamp(dialled), self.run.dataset, callback_id))
        lead.callbacks = lead.callbacks[len(done):]
        self.run.counts["callbacks_completed"] += len(done)

    def _schedule_callback(self, lead: _Lead, scheduled: int, at: int) -> None:
        """The customer asked to be called back: a pending callback at ``scheduled``."""
        callback_id = typed_id(self.run.rng, "cb_")
        self.run.conn.execute(
            "INSERT INTO callbacks (dataset, id, lead_id, campaign_id, scheduled_at, status, "
            "notes, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', NULL, ?, ?)",
            (self.run.dataset, callback_id, lead.id, self.campaign_id, stamp(scheduled),
             stamp(at), stamp(at)))
        lead.callbacks = sorted([*lead.callbacks, (scheduled, callback_id)])
        self.run.counts["callbacks_scheduled"] += 1

    def _update_lead(self, lead: _Lead, call: PlacedCall, status: str,
                     follow_up: int | None) -> None:
        """Store the lead's new state; a finished lead leaves the dialling order."""
        o = call.outcome
        self.run.conn.execute(
            "UPDATE leads SET status = ?, attempts = ?, last_attempt_at = ?, next_attempt_at = ?, "
            "disposition_code = ?, hangup_cause = ?, priority_until = NULL, updated_at = ?, "
            "version = version + 1 WHERE dataset = ? AND id = ?",
            (status, lead.attempts, stamp(call.dialled),
             None if follow_up is None else stamp(follow_up), o.disposition, o.hangup_cause,
             stamp(call.ended_at), self.run.dataset, lead.id))
        if status in _UNFINISHED and follow_up is not None:
            lead.due, lead.priority_until = follow_up, None
        else:
            del self.leads[lead.id]

    def _complete_if_done(self) -> None:
        """A campaign with leads, all of them finished and none awaiting a callback, ends."""
        if self.leads:  # a lead is still to be called: the campaign goes on
            return
        run, marks = self.run, ", ".join("?" * len(_UNFINISHED))
        row = run.store.row(
            f"SELECT COUNT(*), SUM(status IN ({marks}) OR id IN (SELECT lead_id FROM callbacks "
            f"WHERE dataset = ? AND status = 'pending')) FROM leads "
            f"WHERE dataset = ? AND campaign_id = ?",
            (*_UNFINISHED, run.dataset, run.dataset, self.campaign_id))
        if row is None or row[0] == 0 or row[1]:
            return
        at = stamp(self.last_end if self.last_end is not None else max(run.start, self.since))
        run.conn.execute(
            "UPDATE campaigns SET status = 'completed', completed_at = ?, updated_at = ? "
            "WHERE dataset = ? AND id = ?", (at, at, run.dataset, self.campaign_id))
        run.counts["campaigns_completed"] += 1

