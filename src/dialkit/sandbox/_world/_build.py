"""The seeded synthetic world of an account: campaigns, leads, calls, callbacks, DNC list.

:func:`build_world` writes the world into the account's seed data set. Its rows
are a pure function of ``(seed, scale, anchor)`` and, for the ids, the account:
every random choice comes from a numpy generator seeded by ``seed`` and a fixed
stream number per part, so two builds give byte-identical rows. Ids are UUIDv4
from a generator that also takes the account name, so accounts built from one
seed share a world but no ids, as a real service's ids never collide.
``anchor`` is the world's "now": history lies before it, pending callbacks and
appointments after it.

The ids of a table are sorted and handed out in creation order. They still look
random, but the B-trees of a million calls then fill by appending, which keeps
the large world within its build budget. For the same reason ids are formatted
column-wise, and SQLite formats the timestamps as it stores them.

The world is clean except for compliance problems planted on purpose and listed
in the ``planted`` table (see :mod:`._planted` for the rules).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import repeat
from typing import Any, Literal
from zoneinfo import ZoneInfo

import numpy as np
from numpy.typing import NDArray

from .._state._clock import isoformat
from .._state._store import COPIED_TABLES, LAYERED_TABLES, Store, seed_dataset
from . import _guarded as wg
from . import _history as wc
from . import _planted as wp
from . import _upcoming as wu
from ._activity import write_activity
from ._history import HOUR_MS, MINUTE_MS, Calls, Frame
from ._kept_law._periods import PERIOD_MS, measure
from ._kept_law._place import detail, law_of
from ._kept_law._plants import ANONYMOUS, split_detail
from ._numbers import COUNTRIES, DAY_MS, I64, LocalClock, Numbers, world_numbers
from ._statuses import STATUSES

Scale = Literal["small", "medium", "large"]
Row = tuple[Any, ...]


@dataclass(frozen=True)
class Shape:
    """The size of a world."""

    weeks: int
    campaigns: int
    archived: int
    leads: int
    agents: int
    appointments: int
    planted: int
    state_planted: int


SHAPES: dict[str, Shape] = {
    "small": Shape(weeks=3, campaigns=9, archived=2, leads=1_000, agents=8, appointments=40,
                   planted=5, state_planted=1),
    "medium": Shape(weeks=6, campaigns=22, archived=4, leads=15_000, agents=40,
                    appointments=400, planted=40, state_planted=2),
    "large": Shape(weeks=6, campaigns=48, archived=8, leads=230_000, agents=150,
                   appointments=3_000, planted=300, state_planted=5),
}
"""Tests use ``small``, the demo ``medium`` (~70k calls), benchmarks ``large`` (>1M calls).

``planted`` problems of each federal kind; ``state_planted`` of each (row, kind) of the
place's law (:mod:`._kept_law._place`)."""

_FIRST_NAMES = ("Ada", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jamal",
                "Kira", "Liam", "Maya", "Noah", "Olga", "Priya", "Rosa", "Sam", "Uma", "Wen")
_LAST_NAMES = ("Adams", "Brooks", "Chen", "Diaz", "Evans", "Garcia", "Haddad", "Ito", "Khan",
               "Lopez", "Murphy", "Nguyen", "Okafor", "Patel", "Rossi", "Smith", "Tanaka", "Walsh")
_THEMES = ("Solar Savings", "Home Insurance Renewal", "Broadband Upgrade", "Loyalty Win-back",
           "Energy Audit", "Mortgage Review", "Gym Reactivation", "Charity Appeal",
           "Event Invitations", "Warranty Extension", "Survey Follow-up", "Spring Promotion")
_DIALER_MODES = ("predictive", "progressive", "preview", "power")
_CUSTOM_FIELDS = (None, None, *(json.dumps(fields) for fields in (
    {"lead_source": "web_form"}, {"lead_source": "referral"}, {"lead_source": "trade_show"},
    {"lead_source": "web_form", "product": "solar"}, {"product": "broadband", "plan": "fibre"},
    {"lead_source": "partner_api", "tier": "gold"})))
_EMAIL_DOMAINS = ("example.com", "example.org", "example.net")
_AGENT_STATES = ("ready", "on_call", "wrap_up", "break", "signed_out")
_SERVICES = ("consultation", "site_survey", "product_demo", "follow_up", None)
_NOTES = (None, None, "Prefers mornings.", "Asked for a call after work.",
          "Wants the price list first.")
_APPOINTMENT_STATUSES = ("scheduled", "confirmed", "cancelled", "completed", "no-show")
_CALLER_IDS = {"US": 3, "CA": 1, "GB": 1}
_INBOUND_SHARE = 0.1
_CHUNK = 100_000
_STREAMS = ("campaigns", "phones", "leads", "calls", "listing", "plant", "inbound", "outcomes",
            "callbacks", "appointments", "agents")
_GUARDED_STREAM = len(_STREAMS) + 3
"""The stream of the guard's capped number's calls (:mod:`._guarded`): drawn apart, so
every other draw of the world stays as it was."""


def build_world(store: Store, account: str, *, seed: int, scale: Scale,
                anchor: datetime, activity: bool = True) -> None:
    """Replace the account's seeded world (and its planted problems) with a fresh build.

    With ``activity``, the world also holds its recent webhook events and text
    messages (:mod:`._activity`).

    Raises:
        ValueError: ``scale`` is not one of ``small``, ``medium``, ``large``, or
            ``anchor`` is not timezone-aware.
    """
    if scale not in SHAPES:
        raise ValueError(f"unknown scale {scale!r}; pass one of {', '.join(SHAPES)}")
    if anchor.tzinfo is None:
        raise ValueError("anchor must be timezone-aware; pass e.g. datetime.now(UTC)")
    world = _World(seed, SHAPES[scale], (anchor - _EPOCH) // timedelta(milliseconds=1),
                   account)
    with store.transaction() as conn:
        for table in (*COPIED_TABLES, *LAYERED_TABLES):
            conn.execute(f"DELETE FROM {table} WHERE dataset = ?", (seed_dataset(account),))
        conn.execute("DELETE FROM planted WHERE account = ?", (account,))
        world.write(conn, seed_dataset(account), account, activity=activity)


_HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
STAMP_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', ? / 1000.0, 'unixepoch')"
"""SQL writing epoch ms (or NULL) exactly as :func:`.._state._clock.isoformat` does, at C speed."""


def uuid_texts(rng: np.random.Generator, prefix: str, n: int) -> list[str]:
    """``n`` prefixed random lower-case UUIDv4 texts, in ascending order.

    The text is built as one byte matrix, decoded once and split at NULs: far
    faster than ``uuid.UUID`` or numpy's string casts for a million ids.
    """
    return drawn_uuid_texts(rng, prefix, n)[0]


def drawn_uuid_texts(rng: np.random.Generator, prefix: str,
                     n: int) -> tuple[list[str], NDArray[np.intp]]:
    """:func:`uuid_texts`, and each one's place in the draw: the k-th id drawn is the same
    id at every scale (a larger world draws more after it), where its place in the
    sorted texts is not."""
    raw = rng.integers(0, 256, size=(n, 16), dtype=np.uint8)
    raw[:, 6] = (raw[:, 6] & 0x0F) | 0x40
    raw[:, 8] = (raw[:, 8] & 0x3F) | 0x80
    halves = raw.view(">u8")
    drawn = np.lexsort((halves[:, 1], halves[:, 0]))
    raw = raw[drawn]
    digits = np.empty((n, 32), dtype=np.uint8)
    digits[:, 0::2], digits[:, 1::2] = _HEX[raw >> 4], _HEX[raw & 0x0F]
    head = len(prefix)
    chars = np.full((n, head + 37), ord("-"), dtype=np.uint8)
    chars[:, :head] = np.frombuffer(prefix.encode(), dtype=np.uint8)
    for start, stop, at in ((0, 8, 0), (8, 12, 9), (12, 16, 14), (16, 20, 19), (20, 32, 24)):
        chars[:, head + at:head + at + stop - start] = digits[:, start:stop]
    chars[:, -1] = 0
    texts = chars.tobytes().decode("ascii").split("\0")
    texts.pop()
    return texts, drawn


def _objects(values: tuple[Any, ...] | list[Any]) -> NDArray[np.object_]:
    return np.array(values, dtype=object)


def _ms(values: I64) -> list[int | None]:
    """Epoch ms for :data:`STAMP_SQL`, ``None`` where ``-1``."""
    return [None if v < 0 else v for v in values.tolist()]


def _attempt_detail(call_id: str, disposition: str) -> str:
    """A ``call_attempt`` event's detail: its call and disposition (JSON already)."""
    return f'{{"call_id": "{call_id}", "disposition": {disposition}}}'


def _insert(conn: sqlite3.Connection, table: str, columns: str, rows: Iterable[Row]) -> None:
    """``executemany`` into ``columns`` (space-separated; ``*`` marks epoch ms to format)."""
    names = columns.split()
    marks = ", ".join(STAMP_SQL if name.endswith("*") else "?" for name in names)
    conn.executemany(f"INSERT INTO {table} ({', '.join(n.rstrip('*') for n in names)}) "
                     f"VALUES ({marks})", rows)


@dataclass(frozen=True)
class _Campaigns:
    """Per-campaign arrays (times in ms, ``-1`` for null), sorted by creation."""

    status: I64
    archived: I64
    times: I64
    max_attempts: I64
    modes: list[str]


def _campaigns(rng: np.random.Generator, shape: Shape, start: int, anchor: int) -> _Campaigns:
    """Every status among the listed campaigns, plus archived ones the API never lists.

    Campaigns that ran dialled from ``started`` to their end (the anchor while
    running); the others were created in the last three weeks.
    """
    status = np.r_[np.arange(5), rng.choice(5, size=shape.campaigns - 5, p=[.07, .08, .4, .15, .3]),
                   rng.choice([wc.FINISHED, wc.PAUSED, wc.DRAFT], size=shape.archived,
                              p=[.7, .15, .15])]
    n, ran, running = len(status), status >= wc.RUNNING, status == wc.RUNNING
    started = start + (rng.uniform(0, 0.35, n) * (anchor - start)).astype(np.int64)
    end = np.where(running, anchor, started + (rng.uniform(.45, .95, n) * (anchor - started)))
    created = np.where(ran, started - rng.uniform(1, 10, n) * DAY_MS,
                       anchor - rng.uniform(0.5, 20, n) * DAY_MS).astype(np.int64)
    updated = np.where(ran, np.where(running, started, end),
                       created + rng.uniform(0, 0.5, n) * (anchor - created))
    times = np.c_[created, updated, np.where(ran, started, -1),
                  np.where(status == wc.FINISHED, end, -1), started * ran, end * ran]
    order = np.argsort(created, kind="stable")
    rng.permutation(n)  # drew the names once (now by id: _campaign_name); kept, so every
    # draw after it (caps, dialer modes) and so every world's calls stay as they were
    return _Campaigns(status=status[order], archived=(np.arange(n) >= shape.campaigns)[order]
                      .astype(np.int64), times=times[order].astype(np.int64),
                      max_attempts=rng.choice([8, 10, 12], size=n),
                      modes=rng.choice(_DIALER_MODES, size=n).tolist())


def _campaign_name(drawn: int) -> str:
    """The name of the campaign whose id was drawn ``drawn``-th: the same id at every
    scale, so the same name (names drawn at random, from as many as the scale has
    campaigns, named one id differently in the small and medium worlds). Themes in a
    stride coprime to their count, so neighbours differ."""
    return f"{_THEMES[drawn * 5 % len(_THEMES)]} {drawn // len(_THEMES) + 1}"


@dataclass(frozen=True)
class _Leads:
    """Per-lead arrays, sorted by creation."""

    campaign: I64
    created: I64
    phones: Numbers
    dialed: NDArray[np.bool_]
    names: NDArray[np.object_]
    emails: NDArray[np.object_]
    custom: NDArray[np.object_]


def _leads(rng: np.random.Generator, n: int, campaigns: _Campaigns, phones: Numbers,
           anchor: int) -> _Leads:
    """Leads spread over campaigns; those of campaigns that dialled arrived before the start."""
    created_c, started_c = campaigns.times[:, 0], campaigns.times[:, 2]
    dialling = started_c >= 0
    weight = rng.gamma(2.0, size=len(dialling)) * np.where(dialling, 1.0, 0.35)
    campaign = rng.choice(len(dialling), size=n, p=weight / weight.sum())
    until = np.where(dialling, started_c, anchor)[campaign]
    created = created_c[campaign] + (rng.random(n) * (until - created_c[campaign])).astype(
        np.int64)
    reach = np.array([0, 0, .85, .9, .97])[campaigns.status[campaign]]
    dialed = rng.random(n) < reach
    order = np.argsort(created, kind="stable")
    first = rng.choice(_FIRST_NAMES, size=n).tolist()
    last = rng.choice(_LAST_NAMES, size=n).tolist()
    number = rng.integers(1, 100, size=n).tolist()
    domain = rng.choice(_EMAIL_DOMAINS, size=n).tolist()
    with_email = (rng.random(n) < 0.75).tolist()
    names = [f"{f} {s}" for f, s in zip(first, last, strict=True)]
    return _Leads(
        campaign=campaign[order], created=created[order], phones=phones.take(order),
        dialed=dialed[order], names=_objects(names),
        emails=_objects([f"{f.lower()}.{s.lower()}{k}@{d}" if e else None for f, s, k, d, e
                         in zip(first, last, number, domain, with_email, strict=True)]),
        custom=_objects(_CUSTOM_FIELDS)[rng.integers(0, len(_CUSTOM_FIELDS), size=n)])


def _frame(campaigns: _Campaigns, leads: _Leads, callers: Numbers, start: int, anchor: int,
           agents: int) -> Frame:
    """Call generation's view of the world."""
    zones, zone = np.unique(leads.phones.zone, return_inverse=True)
    clock = LocalClock(zones.tolist(), start // DAY_MS - 2, anchor // DAY_MS + 40)
    count = np.bincount(callers.country, minlength=len(COUNTRIES))
    return Frame(anchor=anchor, clock=clock, lead_zone=zone.astype(np.int64),
                 lead_campaign=leads.campaign, lead_country=leads.phones.country,
                 lead_dialed=leads.dialed, campaign_status=campaigns.status,
                 dial_start=campaigns.times[:, 4], dial_end=campaigns.times[:, 5],
                 max_attempts=campaigns.max_attempts, agents=agents,
                 caller_first=np.cumsum(count) - count, caller_count=count,
                 law=law_of(leads.phones, clock))


def _appointments(rng: np.random.Generator, frame: Frame, pool: I64,
                  n: int) -> tuple[I64, ...]:
    """Appointments of leads in ``pool`` in the contact's office hours, on a quarter hour.

    Scheduled and confirmed ones lie ahead, completed and no-show ones behind,
    cancelled ones either way. Returns status, lead, scheduled, created, updated
    and minutes, sorted by creation.
    """
    lead = rng.choice(pool, size=min(n, len(pool)), replace=False)
    n, anchor = len(lead), frame.anchor
    status = rng.choice(5, size=n, p=[.3, .2, .15, .25, .1])
    ahead = (status < 2) | ((status == 2) & (rng.random(n) < 0.5))
    day = anchor // DAY_MS - frame.clock.first_day + np.where(
        ahead, rng.integers(1, 21, size=n), -rng.integers(2, 21, size=n))
    scheduled = frame.at(lead, day, rng.integers(36, 68, size=n) * 15 * MINUTE_MS)
    created = np.where(ahead, anchor - rng.integers(HOUR_MS, 14 * DAY_MS, size=n),
                       scheduled - rng.integers(DAY_MS, 14 * DAY_MS, size=n))
    minutes = rng.choice([15, 30, 45, 60, 90, 120], size=n)
    touched = created + (rng.random(n) * (np.minimum(scheduled, anchor) - created)).astype(
        np.int64)
    updated = np.where(status == 0, created,
                       np.where(status >= 3, scheduled + minutes * MINUTE_MS, touched))
    order = np.argsort(created, kind="stable")
    return tuple(column[order] for column in (status, lead, scheduled, created, updated, minutes))


class _World:
    """One generated world, kept as arrays until it is written."""

    def __init__(self, seed: int, shape: Shape, anchor: int, account: str) -> None:
        self.rng = {name: np.random.default_rng([i, seed % 2**64])
                    for i, name in enumerate(_STREAMS)}
        account_key = int.from_bytes(hashlib.sha256(account.encode()).digest()[:8], "big")
        self.rng["ids"] = np.random.default_rng([len(_STREAMS), seed % 2**64, account_key])
        self.rng["activity"] = np.random.default_rng([len(_STREAMS) + 1, seed % 2**64])
        self.rng["scheduled"] = np.random.default_rng([len(_STREAMS) + 2, seed % 2**64])
        self.rng["guarded"] = np.random.default_rng([_GUARDED_STREAM, seed % 2**64, account_key])
        self.shape, self.anchor = shape, anchor
        start = anchor - shape.weeks * 7 * DAY_MS
        self.campaigns = _campaigns(self.rng["campaigns"], shape, start, anchor)
        self.callers, self.extras, phones = world_numbers(
            self.rng["phones"], shape.leads, _CALLER_IDS, max(2, shape.leads // 150))
        self.leads = _leads(self.rng["leads"], shape.leads, self.campaigns, phones, anchor)
        self.frame = _frame(self.campaigns, self.leads, self.callers, start, anchor, shape.agents)
        base = wc.outbound_calls(self.rng["calls"], self.frame)
        self.listed_at, self.listed_by = wc.dnc_listing(
            self.rng["listing"], base, self.leads.created, self.leads.dialed, anchor)
        self.by_lead = wp.plant(self.rng["plant"], self.frame, base, self.listed_at,
                                self.listed_by,
                                shape.planted, shape.state_planted)
        self.periods = measure(self.frame, self.by_lead)
        self.other = _other_numbers(self.by_lead, self.leads.phones.e164,
                                    (self.extras.e164, self.callers.e164))
        inbound = wc.inbound_calls(self.rng["inbound"], self.frame, self.by_lead, _INBOUND_SHARE)
        self.outcomes = wc.lead_outcomes(self.rng["outcomes"], self.frame, self.by_lead,
                                         self.leads.created, self.listed_at)
        self.scheduled = wu.scheduled(self.rng["scheduled"], self.frame, self.by_lead,
                                      self.outcomes, self.listed_at, self.listed_by,
                                      shape.state_planted,
                                      self.campaigns.archived[self.leads.campaign] == 0)
        self.outcomes, self.listed_at, self.listed_by = (
            self.scheduled.outcomes, self.scheduled.listed_at, self.scheduled.listed_by)
        self.guarded = self._guarded()
        every = Calls.concat(self.by_lead, inbound)
        order = np.lexsort((every.lead, every.created))
        self.calls = every.take(order)
        self.rank = np.argsort(order)

    def _guarded(self) -> wg.Guarded:
        """The numbers the guard must refuse, on leads no other plant holds."""
        calls, last = self.by_lead, self.outcomes.last
        taken = np.zeros(len(self.leads.created), dtype=bool)
        taken[calls.lead[calls.kind > 0]] = True
        taken[[lead for _, lead in self.scheduled.planted]] = True
        return wg.choose(self.frame, self.outcomes, self.listed_at,
                         self.campaigns.archived[self.leads.campaign] == 0,
                         np.where(last >= 0, calls.created[np.maximum(last, 0)], -1), taken)

    def write(self, conn: sqlite3.Connection, dataset: str, account: str, *,
              activity: bool = True) -> None:
        """Insert every table of the world into ``dataset`` (and ``planted``)."""
        ids = self.rng["ids"]
        texts, drawn = drawn_uuid_texts(ids, "cmp_", len(self.campaigns.status))
        campaign_ids = _objects(texts)
        lead_ids = _objects(uuid_texts(ids, "lead_", len(self.leads.created)))
        call_ids = _objects(uuid_texts(ids, "call_", len(self.calls)))
        c = self.campaigns
        _insert(conn, "campaigns", "dataset id name status dialer_mode archived created_at* "
                "updated_at* started_at* completed_at*", zip(
                    repeat(dataset), campaign_ids.tolist(), map(_campaign_name, drawn),
                    _objects(wc.CAMPAIGN_STATUSES)[c.status].tolist(), c.modes,
                    c.archived.tolist(), *(_ms(c.times[:, k]) for k in range(4)), strict=False))
        self._write_leads(conn, dataset, campaign_ids, lead_ids)
        for start in range(0, len(self.calls), _CHUNK):
            part = np.arange(start, min(start + _CHUNK, len(self.calls)))
            self._write_calls(conn, dataset, account, self.calls.take(part),
                              (campaign_ids, lead_ids, call_ids[part]))
        self._write_history(conn, dataset, lead_ids, call_ids)
        self._write_callbacks(conn, dataset, campaign_ids, lead_ids)
        self._write_appointments(conn, dataset)
        _insert(conn, "agents", "dataset id extension email name state", self._agent_rows(dataset))
        self._write_dnc(conn, dataset)
        _insert(conn, "caller_ids", "dataset phone",
                ((dataset, p) for p in sorted(self.callers.e164.tolist())))
        _insert(conn, "planted", "account kind call_id phone detail",
                self._planted_rows(account, call_ids))
        _insert(conn, "planted", "account kind call_id phone detail", wu.planted_rows(
            account, self.scheduled.planted, self.outcomes.next_attempt, lead_ids,
            self.leads.phones.e164))
        self._write_guarded(conn, dataset, account, campaign_ids, lead_ids)
        if activity:
            write_activity(conn, dataset, _stamp(self.anchor), self.rng["activity"],
                           lambda prefix, n: uuid_texts(ids, prefix, n))

    def _write_guarded(self, conn: sqlite3.Connection, dataset: str, account: str,
                       campaign_ids: NDArray[np.object_], lead_ids: NDArray[np.object_]) -> None:
        """The numbers the guard must refuse (:mod:`._guarded`): the capped number's calls,
        with its lead's history and attempts as its calls leave them, and the ``guard_*``
        rows of ``planted``."""
        guarded, rng = self.guarded, self.rng["guarded"]
        ids: list[str] = []
        if guarded.cap >= 0:
            lead = np.full(len(guarded.cap_calls), guarded.cap)
            calls = wc.unanswered_calls(rng, self.frame, lead, guarded.cap_calls)
            ids = uuid_texts(rng, "call_", len(lead))
            self._write_calls(conn, dataset, account, calls,
                              (campaign_ids, lead_ids, _objects(ids)))
            _insert(conn, "lead_history", "dataset lead_id at* event detail", (
                (dataset, lead_ids[guarded.cap], at, "call_attempt",
                 _attempt_detail(call, "null"))
                for at, call in zip(calls.created.tolist(), ids, strict=True)))
            conn.execute(
                f"UPDATE leads SET status = ?, attempts = ?, last_attempt_at = {STAMP_SQL}, "
                f"disposition_code = NULL, hangup_cause = ?, updated_at = {STAMP_SQL} "
                "WHERE dataset = ? AND id = ?",
                (wc.LEAD_STATUSES[max(wc.CONTACTED, int(self.outcomes.status[guarded.cap]))],
                 int(self.outcomes.attempts[guarded.cap]) + len(ids), int(calls.created[-1]),
                 wc.HANGUP_CAUSES[wc.NO_ANSWER_CAUSE], int(calls.ended[-1]), dataset,
                 lead_ids[guarded.cap]))
        _insert(conn, "planted", "account kind call_id phone detail", wg.planted_rows(
            account, guarded, self.frame, self.listed_at, lead_ids, self.leads.phones.e164,
            self.leads.phones.zone, ids))

    def _write_leads(self, conn: sqlite3.Connection, dataset: str,
                     campaign_ids: NDArray[np.object_], lead_ids: NDArray[np.object_]) -> None:
        leads, out, calls = self.leads, self.outcomes, self.by_lead
        seen, last = out.last >= 0, np.maximum(out.last, 0)
        _insert(conn, "leads", "dataset id campaign_id phone country full_name email status "
                "attempts custom_fields last_attempt_at* next_attempt_at* disposition_code "
                "hangup_cause created_at* updated_at*", zip(
                    repeat(dataset), lead_ids.tolist(), campaign_ids[leads.campaign].tolist(),
                    leads.phones.e164.tolist(),
                    _objects(COUNTRIES)[leads.phones.country].tolist(), leads.names.tolist(),
                    leads.emails.tolist(), _objects(wc.LEAD_STATUSES)[out.status].tolist(),
                    out.attempts.tolist(), self._custom().tolist(),
                    _ms(np.where(seen, calls.created[last], -1)), _ms(out.next_attempt),
                    _objects(wc.DISPOSITIONS)[np.where(seen, calls.disposition[last], 0)].tolist(),
                    _objects((None, *wc.HANGUP_CAUSES))[np.where(seen, calls.hangup[last] + 1, 0)]
                    .tolist(), leads.created.tolist(), out.updated.tolist(), strict=False))

    def _custom(self) -> NDArray[np.object_]:
        """Each lead's custom fields, with its other number where it has one."""
        custom = self.leads.custom.copy()
        for lead, number in self.other.items():
            fields = json.loads(custom[lead] or "{}")
            custom[lead] = json.dumps(fields | {"other_phones": [number]})
        return custom

    def _dialled(self, calls: Calls) -> NDArray[np.object_]:
        """The number each of ``calls`` went to: its lead's, or the lead's other number."""
        numbers = self.leads.phones.e164.astype(object)[calls.lead]
        other = np.flatnonzero(calls.line == 1)
        numbers[other] = [self.other[lead] for lead in calls.lead[other].tolist()]
        return numbers

    def _write_calls(self, conn: sqlite3.Connection, dataset: str, account: str, c: Calls,
                     ids: tuple[NDArray[np.object_], ...]) -> None:
        """Insert the calls ``c``, whose ids are the last of ``ids``."""
        campaign_ids, lead_ids, call_ids = ids
        customer = self._dialled(c)
        line = np.where(c.caller == ANONYMOUS, "anonymous",
                        self.callers.e164.astype(object)[c.caller])
        out = c.outbound == 1
        extensions = _objects([None, *(str(1001 + k) for k in range(self.shape.agents))])
        _insert(conn, "calls", "dataset account id direction from_number to_number status "
                "created_at* answered_at* ended_at* duration_seconds campaign_id lead_id "
                "disposition hangup_cause agent_extension agent_joined_at* ai_agent recording",
                zip(repeat(dataset), repeat(account), call_ids.tolist(),
                    _objects(("inbound", "outbound"))[c.outbound].tolist(),
                    np.where(out, line, customer).tolist(), np.where(out, customer, line).tolist(),
                    _objects(STATUSES)[c.status].tolist(), c.created.tolist(),
                    _ms(c.answered), c.ended.tolist(), ((c.ended - c.created) / 1000).tolist(),
                    campaign_ids[self.leads.campaign[c.lead]].tolist(), lead_ids[c.lead].tolist(),
                    _objects(wc.DISPOSITIONS)[c.disposition].tolist(),
                    _objects(wc.HANGUP_CAUSES)[c.hangup].tolist(),
                    extensions[c.agent + 1].tolist(), _ms(c.joined),
                    _objects((None, *wc.AI_AGENTS))[c.ai + 1].tolist(),
                    (c.answered >= 0).astype(np.int64).tolist(), strict=False))

    def _write_history(self, conn: sqlite3.Connection, dataset: str,
                       lead_ids: NDArray[np.object_], call_ids: NDArray[np.object_]) -> None:
        """A ``created`` event per lead and a ``call_attempt`` per outbound call, by lead."""
        calls, n = self.by_lead, len(self.leads.created)
        out = np.flatnonzero(calls.outbound == 1)
        outcome = _objects(("null", *(f'"{d}"' for d in wc.DISPOSITIONS[1:])))
        details = [_attempt_detail(c, d) for c, d in zip(
            call_ids[self.rank[out]].tolist(), outcome[calls.disposition[out]].tolist(),
            strict=True)]
        lead = np.r_[np.arange(n), calls.lead[out]]
        at = np.r_[self.leads.created, calls.created[out]]
        order = np.lexsort((at, lead))
        _insert(conn, "lead_history", "dataset lead_id at* event detail", zip(
            repeat(dataset), lead_ids[lead[order]].tolist(), at[order].tolist(),
            _objects(("created", "call_attempt"))[(order >= n).astype(np.int64)].tolist(),
            _objects([None] * n + details)[order].tolist(), strict=False))

    def _write_callbacks(self, conn: sqlite3.Connection, dataset: str,
                         campaign_ids: NDArray[np.object_], lead_ids: NDArray[np.object_]) -> None:
        rng = self.rng["callbacks"]
        cb = wc.make_callbacks(rng, self.by_lead, self.outcomes, self.anchor)
        o = np.argsort(cb.created, kind="stable")
        lead = cb.lead[o]
        _insert(conn, "callbacks", "dataset id lead_id campaign_id scheduled_at* status notes "
                "created_at* updated_at*", zip(
                    repeat(dataset), uuid_texts(self.rng["ids"], "cb_", len(lead)),
                    lead_ids[lead].tolist(), campaign_ids[self.leads.campaign[lead]].tolist(),
                    cb.scheduled[o].tolist(), _objects(wc.CALLBACK_STATUSES)[cb.status[o]].tolist(),
                    _objects(_NOTES)[rng.integers(0, len(_NOTES), size=len(lead))].tolist(),
                    cb.created[o].tolist(), cb.updated[o].tolist(), strict=False))

    def _write_appointments(self, conn: sqlite3.Connection, dataset: str) -> None:
        rng, leads = self.rng["appointments"], self.leads
        status, lead, scheduled, created, updated, minutes = _appointments(
            rng, self.frame, np.flatnonzero(self.listed_at < 0), self.shape.appointments)
        n = len(lead)
        _insert(conn, "appointments", "dataset id status scheduled_at* timezone "
                "duration_minutes service_type contact_name phone email notes source "
                "created_at* updated_at* version", zip(
                    repeat(dataset), uuid_texts(self.rng["ids"], "appt_", n),
                    _objects(_APPOINTMENT_STATUSES)[status].tolist(), scheduled.tolist(),
                    leads.phones.zone[lead].tolist(), minutes.tolist(),
                    _objects(_SERVICES)[rng.integers(0, len(_SERVICES), size=n)].tolist(),
                    leads.names[lead].tolist(), leads.phones.e164[lead].tolist(),
                    leads.emails[lead].tolist(),
                    _objects(_NOTES)[rng.integers(0, len(_NOTES), size=n)].tolist(),
                    rng.choice(["agent", "web"], size=n, p=[.6, .4]).tolist(), created.tolist(),
                    updated.tolist(), np.where(status == 0, 1, 2).tolist(), strict=False))

    def _agent_rows(self, dataset: str) -> Iterator[Row]:
        """Agents ``1001``... in every state, the first two ``ready`` for click-to-call."""
        n, rng = self.shape.agents, self.rng["agents"]
        states = ["ready", "ready", "on_call", "wrap_up", "break", "signed_out",
                  *rng.choice(_AGENT_STATES, size=n - 6, p=[.3, .35, .1, .1, .15]).tolist()]
        first = rng.choice(_FIRST_NAMES, size=n).tolist()
        last = rng.choice(_LAST_NAMES, size=n).tolist()
        ids = uuid_texts(self.rng["ids"], "agt_", n)
        return ((dataset, ids[k], str(1001 + k), f"agent{k + 1}@example.com",
                 f"{first[k]} {last[k]}", states[k]) for k in range(n))

    def _write_dnc(self, conn: sqlite3.Connection, dataset: str) -> None:
        """The listed leads' numbers plus numbers that belong to no lead."""
        rng = self.rng["listing"]
        listed = np.flatnonzero(self.listed_at >= 0)
        extra = len(self.extras.e164)
        phone = np.r_[self.leads.phones.e164[listed], self.extras.e164]
        at = np.r_[self.listed_at[listed],
                   self.anchor - rng.integers(DAY_MS, 400 * DAY_MS, size=extra)]
        source = np.r_[self.listed_by[listed],
                       rng.choice(["registry", "customer_request"], size=extra, p=[.8, .2])]
        o = np.argsort(phone, kind="stable")
        _insert(conn, "dnc", "dataset phone added_at* source", zip(
            repeat(dataset), phone[o].tolist(), at[o].tolist(), source[o].tolist(), strict=False))

    def _planted_rows(self, account: str, call_ids: NDArray[np.object_]) -> Iterator[Row]:
        calls, counts = self.by_lead, wc.frequency_counts(self.by_lead)
        dialled = self._dialled(calls)
        for i in np.flatnonzero(calls.kind > 0).tolist():
            phone = str(dialled[i])
            kinds = (wp.FREQUENCY, wp.STATE_FREQUENCY) if calls.kind[i] == wp.STATE_FREQUENCY \
                else (int(calls.kind[i]),)
            for kind in kinds:  # today's federal preset finds a state's cap too (cap 3)
                yield (account, wp.KINDS[kind], call_ids[self.rank[i]], phone,
                       json.dumps(self._detail(i, kind, int(counts[i]))))

    def _detail(self, i: int, kind: int, count: int) -> dict[str, Any]:
        calls, lead = self.by_lead, int(self.by_lead.lead[i])
        zone = str(self.leads.phones.zone[lead])
        local = datetime.fromtimestamp(int(calls.created[i]) / 1000, ZoneInfo(zone))
        if kind == wp.SPLIT_ZONE_HOURS:
            return split_detail(str(self.leads.phones.e164[lead]), local)
        if kind == wp.CALLER_ID:
            return {"from_number": "anonymous", "citation": "16 CFR 310.4(a)(8)"}
        if wp.ABANDONED < kind < wp.SPLIT_ZONE_HOURS:
            found = detail(self.frame.law, wp.KINDS[kind] or "", lead, local, zone)
            return found | ({"calls_in_24h": count} if kind == wp.STATE_FREQUENCY else {})
        if kind == wp.OUTSIDE_HOURS:
            return {"local_time": local.strftime("%H:%M"), "timezone": zone}
        if kind in (wp.DNC_CALL, wp.DNC_GRACE):
            return _listing(int(self.listed_at[lead]), str(self.listed_by[lead]),
                            grace=kind == wp.DNC_GRACE)
        if kind == wp.FREQUENCY:
            return {"calls_in_24h": count}
        if kind == wp.PERSON_FREQUENCY:
            return {"calls_in_24h": count, "lead_phone": str(self.leads.phones.e164[lead]),
                    "other_phone": self.other[lead], "citation": "Fla. Stat. 501.616(6)(b)"}
        joined, start = int(calls.joined[i]), int(self.periods.start[i])
        return {"answered_at": _stamp(int(calls.answered[i])),
                "agent_joined_at": None if joined < 0 else _stamp(joined),
                "period_start": _stamp(start), "period_end": _stamp(start + PERIOD_MS),
                "answered": int(self.periods.answered[i]),
                "abandoned": int(self.periods.abandoned[i])}


def _other_numbers(calls: Calls, phones: NDArray[np.str_],
                   taken: tuple[NDArray[np.str_], ...]) -> dict[int, str]:
    """A second number for each lead some of ``calls`` went to on its other line: the
    first of its own number's fictional range (the same area code, so the same place and
    zone) that no lead, DNC entry or caller id holds. A few leads: a loop over them."""
    used = {*phones.tolist(), *(number for numbers in taken for number in numbers.tolist())}
    other: dict[int, str] = {}
    for lead in np.unique(calls.lead[calls.line == 1]).tolist():
        prefix = str(phones[lead])[:-4]
        other[lead] = next(number for number in (f"{prefix}{line:04d}" for line in
                                                 range(100, 200)) if number not in used)
        used.add(other[lead])
    return other


def _listing(listed_at: int, source: str, *, grace: bool) -> dict[str, Any]:
    """A call to a listed number's ground truth: when and on whose word it was listed, the
    list that makes it (the account's own, where the customer asked; else the national
    registry) and, for a ``dnc_grace`` call, the registry check that covers it."""
    found = {"listed_at": _stamp(listed_at), "source": source,
             "list": wc.LIST_OF_SOURCE[source]}
    return found | ({"checked_at": _stamp(wp.registry_check(listed_at))} if grace else {})


def _stamp(ms: int) -> str:
    return isoformat(_EPOCH + timedelta(milliseconds=ms))
