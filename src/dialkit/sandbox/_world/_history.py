"""The seeded world's call history, generated column-wise with numpy: the dialer's calls,
the customers' calls back, and what the calls leave on each lead (its status, its
callbacks, when its number joined the DNC list).

A large world holds a million calls and must build in well under a minute, so
no Python code runs per call: every column is an integer array (timestamps in
epoch milliseconds, ``-1`` for null; statuses and dispositions as indexes into
the tuples below) and becomes text only when it is written.

Clean by construction. The dialer reaches a lead at most once per local
calendar day, between 08:00 and 20:55 at the recipient (the first time zone
``phonenumbers`` gives the number) or inside the shorter window of the law of
the place called, never on a day that law bans (:mod:`._kept_law._place`), never
after the number joined the DNC list,
and an agent (or an AI agent) joins every answered call within 1.5 s. So no
24-hour window holds more than two outbound calls to one number, and every
problem in the world is one planted on purpose (:mod:`._planted`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
from numpy.typing import NDArray

from ._kept_law import _place as law
from ._numbers import DAY_MS, I64, LocalClock
from ._statuses import COMPLETED, FAILED, NO_ANSWER, VOICEMAIL

MINUTE_MS, HOUR_MS = 60_000, 3_600_000

DISPOSITIONS = (None, "sale", "not_interested", "callback_requested", "info_sent", "wrong_number",
                "do_not_call", "voicemail_left", "inquiry")
NONE, SALE, NOT_INTERESTED, CALLBACK, INFO_SENT, WRONG_NUMBER, DO_NOT_CALL, VOICEMAIL_LEFT, \
    INQUIRY = range(9)
HANGUP_CAUSES = ("normal_clearing", "no_answer", "user_busy", "call_rejected",
                 "unallocated_number", "network_out_of_order")
NORMAL, NO_ANSWER_CAUSE, USER_BUSY, REJECTED, UNALLOCATED, OUT_OF_ORDER = range(6)
LIST_OF_SOURCE = {"customer_request": "company", "registry": "national"}
"""The DNC list a listing's source puts the number on: the account's own list
where the customer asked, the national registry where the registry listed it."""
AI_AGENTS = ("Ava (AI)", "Orion (AI)")
CAMPAIGN_STATUSES = ("draft", "ready", "running", "paused", "completed")
DRAFT, READY, RUNNING, PAUSED, FINISHED = range(5)
LEAD_STATUSES = ("new", "contacted", "callback", "dnc", "completed")
NEW, CONTACTED, CALLBACK_DUE, LISTED, DONE = range(5)
CALLBACK_STATUSES = ("pending", "completed", "cancelled")
PENDING, HELD, CANCELLED = range(3)

CONCLUSIVE = (SALE, NOT_INTERESTED, WRONG_NUMBER, DO_NOT_CALL)
"""Agent outcomes after which the dialer never calls the lead again."""

_DIAL_HOURS = np.arange(8, 21)
_DIAL_VOLUME = np.array([4, 7, 9, 9, 7, 7, 8, 8, 8, 9, 8, 6, 4], dtype=float)
_LAST_DIAL_MS = 20 * HOUR_MS + 55 * MINUTE_MS
_ANSWER_BY_HOUR = np.array([.1] * 6 + [.12, .14, .18, .21, .23, .24, .28, .25, .21, .22, .25, .31,
                                       .36, .34, .29, .22, .2, .15])
"""Chance that the recipient picks up, by local hour: low mid-morning, high early evening."""
_ANSWER_BY_WEEKDAY = np.array([.95, 1.0, 1.0, 1.0, .9, 1.15, .85])
_KEEP_BY_WEEKDAY = np.array([1.0, 1.0, 1.0, 1.0, 1.0, .6, .35])
"""Share of planned dialling kept per weekday (Monday first): less at weekends."""
_UNANSWERED = np.array([.55, .11, .07, .27])
"""Split of unanswered calls over no-answer, busy, failed, voicemail (status order)."""
ANSWERED_OUTCOMES = (
    np.array([SALE, NOT_INTERESTED, CALLBACK, INFO_SENT, WRONG_NUMBER, DO_NOT_CALL]),
    np.array([.12, .3, .2, .28, .06, .04]))
"""The dispositions of an answered outbound call, and how often each is drawn."""
_FAILED = np.array([REJECTED, OUT_OF_ORDER, UNALLOCATED]), np.array([.55, .3, .15])
_CAUSE_BY_STATUS = np.array([NORMAL, NO_ANSWER_CAUSE, USER_BUSY, REJECTED, NORMAL])
_RING_MS = np.array([[4_000, 22_000], [25_000, 45_000], [1_000, 5_000], [500, 6_000],
                     [15_000, 30_000]])
"""Time from dialling to answer or give-up, per status."""
_TALK_MEDIAN_S = np.array([0, 480, 50, 90, 180, 15, 20, 0, 150], dtype=float)
"""Median conversation length per disposition."""
_AI_SHARE, _MAX_SLOTS = 0.02, 12


@dataclass(frozen=True)
class Frame:
    """What call generation needs to know of the world; times in epoch ms, per-lead arrays."""

    anchor: int
    clock: LocalClock
    lead_zone: I64
    lead_campaign: I64
    lead_country: I64
    lead_dialed: NDArray[np.bool_]
    campaign_status: I64
    dial_start: I64
    dial_end: I64
    max_attempts: I64
    agents: int
    caller_first: I64
    caller_count: I64
    law: law.Law

    def at(self, lead: I64, day: I64, local: I64) -> I64:
        """UTC of ``local`` ms into local ``day`` at the lead's number."""
        return self.clock.to_utc(self.lead_zone[lead], day, local)

    def day_of(self, lead: I64, utc: I64) -> I64:
        """The local day at the lead's number at ``utc``."""
        return self.clock.to_local(self.lead_zone[lead], utc)[0]

    def window(self, lead: I64) -> tuple[I64, I64]:
        """When the lead's campaign dialled; two hours short of the anchor, so calls have ended."""
        campaign = self.lead_campaign[lead]
        return self.dial_start[campaign], np.minimum(self.dial_end[campaign],
                                                     self.anchor - 2 * HOUR_MS)


@dataclass
class Calls:
    """Call records as parallel integer arrays (``-1`` or ``NONE`` for null)."""

    lead: I64
    outbound: I64
    created: I64
    answered: I64
    ended: I64
    status: I64
    disposition: I64
    hangup: I64
    agent: I64
    joined: I64
    ai: I64
    caller: I64
    kind: I64
    line: I64
    """``1``: the call went to the lead's other number (``person_frequency``), else ``0``."""

    def __len__(self) -> int:
        return len(self.lead)

    def take(self, index: NDArray[np.int64] | NDArray[np.bool_]) -> Calls:
        """The calls at ``index`` (positions or a mask), as a new table."""
        return Calls(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    @staticmethod
    def concat(*parts: Calls) -> Calls:
        """One table holding ``parts`` in order."""
        return Calls(**{f.name: np.concatenate([getattr(p, f.name) for p in parts])
                        for f in fields(Calls)})

    def shift(self, index: I64, delta: I64) -> None:
        """Move calls in time, keeping their inner durations."""
        for name in ("created", "answered", "ended", "joined"):
            column = getattr(self, name)
            column[index] = np.where(column[index] >= 0, column[index] + delta, -1)


def outbound_calls(rng: np.random.Generator, frame: Frame) -> Calls:
    """The dialer's calls to every reached lead, clean, sorted by lead and time."""
    lead, day, local, created = _slots(rng, frame)
    answer = _ANSWER_BY_HOUR[local // HOUR_MS] * _ANSWER_BY_WEEKDAY[frame.clock.weekday(day)]
    status = np.where(rng.random(len(lead)) < answer, COMPLETED,
                      1 + rng.choice(4, size=len(lead), p=_UNANSWERED))
    disposition, hangup = drawn_outcomes(rng, status, ANSWERED_OUTCOMES)
    conclusive = np.isin(disposition, CONCLUSIVE) | (hangup == UNALLOCATED)
    keep = _before_conclusion(lead, conclusive)
    return finished(rng, frame, lead[keep], created[keep], status[keep], disposition[keep],
                    hangup[keep], outbound=True)


def _slots(rng: np.random.Generator, frame: Frame) -> tuple[I64, I64, I64, I64]:
    """Up to ``_MAX_SLOTS`` attempts per reached lead, on distinct local days."""
    leads = np.flatnonzero(frame.lead_dialed)
    start, end = frame.window(leads)
    span_days = np.maximum((end - start) // DAY_MS, 1)
    first = (start // DAY_MS - frame.clock.first_day
             + (rng.random(len(leads)) * span_days * 0.3).astype(np.int64))
    gaps = rng.geometric(0.75, size=(len(leads), _MAX_SLOTS))
    day = first[:, None] + np.cumsum(gaps, axis=1) - gaps[:, :1]
    lead = np.broadcast_to(leads[:, None], day.shape)
    opens, closes = frame.law.allowed(lead, day)
    local = law.squeeze(_dial_times(rng, day.shape), opens, closes, _LAST_DIAL_MS)
    created = frame.at(lead, day, local)
    keep = ((created >= start[:, None]) & (created < end[:, None]) & (opens >= 0)
            & (rng.random(day.shape) < _KEEP_BY_WEEKDAY[frame.clock.weekday(day)]))
    keep &= np.cumsum(keep, axis=1) <= frame.max_attempts[frame.lead_campaign[leads]][:, None]
    return lead[keep], day[keep], local[keep], created[keep]


def _dial_times(rng: np.random.Generator, shape: tuple[int, ...]) -> I64:
    """Local times of day in 08:00-20:55, weighted by the dialer's hourly volume."""
    hour = rng.choice(_DIAL_HOURS, size=shape, p=_DIAL_VOLUME / _DIAL_VOLUME.sum())
    width = np.minimum(HOUR_MS, _LAST_DIAL_MS - hour * HOUR_MS)
    times: I64 = hour * HOUR_MS + (rng.random(shape) * width).astype(np.int64)
    return times


def drawn_outcomes(rng: np.random.Generator, status: I64,
                   answered: tuple[I64, NDArray[np.float64]]) -> tuple[I64, I64]:
    """Agent disposition (drawn from ``answered`` when answered) and hangup cause per call."""
    n = len(status)
    disposition = np.where(status == COMPLETED, rng.choice(answered[0], size=n, p=answered[1]),
                           np.where(status == VOICEMAIL, VOICEMAIL_LEFT, NONE))
    failed = rng.choice(_FAILED[0], size=n, p=_FAILED[1])
    return disposition, np.where(status == FAILED, failed, _CAUSE_BY_STATUS[status])


def _before_conclusion(lead: I64, conclusive: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Mask of calls with no conclusive call before them on the same lead (sorted by lead)."""
    hits = conclusive.astype(np.int64)
    before = np.cumsum(hits) - hits
    starts = np.r_[True, lead[1:] != lead[:-1]]
    kept: NDArray[np.bool_] = before == np.maximum.accumulate(np.where(starts, before, 0))
    return kept


def finished(rng: np.random.Generator, frame: Frame, lead: I64, created: I64, status: I64,
             disposition: I64, hangup: I64, *, outbound: bool) -> Calls:
    """Complete calls with timings, staff and caller id."""
    n = len(lead)
    ring = (_RING_MS[status, 0] + rng.random(n) * np.diff(_RING_MS)[status, 0]).astype(np.int64)
    talk = rng.lognormal(np.log(np.maximum(_TALK_MEDIAN_S[disposition], 1) * 1000), 0.6)
    spoken = np.where(status == COMPLETED, np.clip(talk, 5_000, 3_600_000),
                      np.where(status == VOICEMAIL, rng.integers(12_000, 35_000, size=n), 0))
    answered = np.where(status == COMPLETED, created + ring, -1)
    ai = np.where((answered >= 0) & (rng.random(n) < _AI_SHARE * outbound),
                  rng.integers(0, len(AI_AGENTS), size=n), -1)
    human = (answered >= 0) & (ai < 0)
    delay = np.where(ai >= 0, rng.integers(0, 400, size=n), rng.integers(0, 1500, size=n))
    country = frame.lead_country[lead]
    caller = frame.caller_first[country] + (rng.random(n) * frame.caller_count[country]).astype(
        np.int64)
    return Calls(lead=lead, outbound=np.full(n, int(outbound)), created=created,
                 answered=answered, ended=created + ring + spoken.astype(np.int64),
                 status=status, disposition=disposition, hangup=hangup,
                 agent=np.where(human, rng.integers(0, frame.agents, size=n), -1),
                 joined=np.where(answered >= 0, answered + delay, -1), ai=ai, caller=caller,
                 kind=np.zeros(n, dtype=np.int64), line=np.zeros(n, dtype=np.int64))


def unanswered_calls(rng: np.random.Generator, frame: Frame, lead: I64, created: I64) -> Calls:
    """Outbound calls to ``lead`` at ``created`` that nobody answered."""
    status = np.full(len(lead), NO_ANSWER)
    return finished(rng, frame, lead, created, status, np.full(len(lead), NONE),
                    np.full(len(lead), NO_ANSWER_CAUSE), outbound=True)


def inbound_calls(rng: np.random.Generator, frame: Frame, calls: Calls, share: float) -> Calls:
    """Customers calling back 1-48 h after an outbound call, in their daytime, mostly answered."""
    source = rng.choice(len(calls), size=int(len(calls) * share))
    lead, after = calls.lead[source], calls.created[source]
    day = frame.day_of(lead, after + rng.integers(HOUR_MS, 2 * DAY_MS, size=len(lead)))
    created = frame.at(lead, day, rng.integers(9 * HOUR_MS, 19 * HOUR_MS, size=len(lead)))
    keep = (created > after) & (created < frame.anchor - 2 * HOUR_MS)
    status = np.where(rng.random(int(keep.sum())) < .85, COMPLETED, NO_ANSWER)
    disposition, hangup = drawn_outcomes(rng, status, (np.array([INQUIRY, INFO_SENT]),
                                                       np.array([.6, .4])))
    return finished(rng, frame, lead[keep], created[keep], status, disposition, hangup,
                    outbound=False)


def frequency_counts(calls: Calls) -> I64:
    """Per call: outbound calls to its lead in the 24 h up to and including it (by-lead order)."""
    out = np.flatnonzero(calls.outbound == 1)
    key = calls.lead[out] * (1 << 42) + calls.created[out]
    counts = np.zeros(len(calls), dtype=np.int64)
    counts[out] = np.arange(len(out)) - np.searchsorted(key, key - DAY_MS, side="right") + 1
    return counts


def dnc_listing(rng: np.random.Generator, calls: Calls, created: I64, dialed: NDArray[np.bool_],
                anchor: int) -> tuple[I64, NDArray[np.str_]]:
    """When each lead's number joined the DNC list (-1: never) and on whose word.

    Numbers join after the lead's last call (sorted by lead): the customer asked,
    or the registry listed them later. Some never-dialled leads were listed before import.
    """
    at = np.full(len(created), -1, dtype=np.int64)
    source = np.full(len(created), "registry", dtype="U16")
    last = np.flatnonzero(np.r_[calls.lead[1:] != calls.lead[:-1], True])
    asked = last[calls.disposition[last] == DO_NOT_CALL]
    at[calls.lead[asked]] = calls.ended[asked] + rng.integers(5_000, 600_000, size=len(asked))
    source[calls.lead[asked]] = "customer_request"
    later = last[(calls.disposition[last] != DO_NOT_CALL) & (rng.random(len(last)) < 0.02)]
    room = np.maximum(anchor - HOUR_MS - calls.ended[later], 0)
    at[calls.lead[later]] = calls.ended[later] + (rng.random(len(later)) * room).astype(np.int64)
    screened = ~dialed & (rng.random(len(created)) < 0.04)
    at[screened] = created[screened] - rng.integers(DAY_MS, 300 * DAY_MS, size=int(screened.sum()))
    return at, source


@dataclass(frozen=True)
class Outcomes:
    """What each lead's outbound calls left on the lead (times in ms, ``-1`` for null)."""

    status: I64
    attempts: I64
    last: I64
    next_attempt: I64
    updated: I64


def lead_outcomes(rng: np.random.Generator, frame: Frame, calls: Calls, created: I64,
                  listed_at: I64) -> Outcomes:
    """Lead status and attempt fields that agree with the lead's calls (sorted by lead).

    A listed number makes the lead ``dnc``; a final agent outcome, an
    unallocated number or the campaign's last attempt make it ``completed``; a
    requested callback keeps it ``callback`` while its campaign can still dial.
    """
    n, out = len(created), np.flatnonzero(calls.outbound == 1)
    attempts = np.bincount(calls.lead[out], minlength=n)
    last = np.full(n, -1, dtype=np.int64)
    ends = out[np.r_[calls.lead[out][1:] != calls.lead[out][:-1], True]] if len(out) else out
    last[calls.lead[ends]] = ends
    disposition = np.where(last >= 0, calls.disposition[last], NONE)
    campaign = frame.campaign_status[frame.lead_campaign]
    status = np.where(attempts == 0, NEW, CONTACTED)
    status[np.isin(disposition, (SALE, NOT_INTERESTED, WRONG_NUMBER))
           | (np.where(last >= 0, calls.hangup[last], NORMAL) == UNALLOCATED)
           | (attempts >= frame.max_attempts[frame.lead_campaign])] = DONE
    wants = disposition == CALLBACK
    status[wants] = np.where(np.isin(campaign[wants], (RUNNING, PAUSED)), CALLBACK_DUE, DONE)
    status[listed_at >= 0] = LISTED
    soon = frame.anchor + rng.integers(2 * HOUR_MS, 5 * DAY_MS, size=n) // (15 * MINUTE_MS) * (
        15 * MINUTE_MS)
    redial = (status == CONTACTED) & (campaign == RUNNING)
    next_attempt = np.where((status == CALLBACK_DUE) | redial, soon, -1)
    ended = np.where(last >= 0, calls.ended[last], -1)
    updated = np.maximum(np.maximum(created, ended), listed_at)
    return Outcomes(status=status, attempts=attempts, last=last, next_attempt=next_attempt,
                    updated=updated)


@dataclass(frozen=True)
class Callbacks:
    """Callback records, one per ``callback_requested`` outbound call."""

    lead: I64
    status: I64
    scheduled: I64
    created: I64
    updated: I64


def make_callbacks(rng: np.random.Generator, calls: Calls, outcomes: Outcomes,
                   anchor: int) -> Callbacks:
    """Callbacks that agree with the calls (sorted by lead): the next call kept the callback.

    A callback followed by another call to the lead was completed by that call
    (or, now and then, cancelled before it); one on the lead's last call is
    pending while the lead waits for it, else cancelled.
    """
    asked = np.flatnonzero((calls.disposition == CALLBACK) & (calls.outbound == 1))
    following = np.minimum(asked + 1, len(calls) - 1)
    followed = (asked + 1 < len(calls)) & (calls.lead[following] == calls.lead[asked])
    lead, created = calls.lead[asked], calls.ended[asked]
    due = outcomes.status[lead] == CALLBACK_DUE
    kept = followed & (rng.random(len(asked)) < 0.85)
    status = np.where(kept, HELD, np.where(due & ~followed, PENDING, CANCELLED))
    later = (created + rng.integers(DAY_MS, 3 * DAY_MS, size=len(asked))) // MINUTE_MS * MINUTE_MS
    scheduled = np.where(followed, calls.created[following] // MINUTE_MS * MINUTE_MS, later)
    scheduled = np.where(status == PENDING, outcomes.next_attempt[lead], scheduled)
    cancelled = np.minimum(created + rng.integers(HOUR_MS, 20 * HOUR_MS, size=len(asked)),
                           anchor - MINUTE_MS)
    updated = np.where(status == HELD, calls.created[following],
                       np.where(status == PENDING, created, cancelled))
    return Callbacks(lead=lead, status=status, scheduled=scheduled, created=created,
                     updated=updated)
