"""Each rule's edges, seeded into the audit benchmark's frames at every size (issue 71 item 8).

At 1,000,000 calls ``bench_audit`` met calls its smoke run of 5,000 never did: UK and
Canadian numbers called within their list's grace, which its pandas baseline had not been
taught, so the full run stopped at its check while the test command stayed green. These
frames put into every run, whatever its size, each edge the benchmark's rules turn on:

- each Do-Not-Call list's grace (``dnc_lists.toml``): a call at the instant of the listing;
  the US registry's safe harbor at exactly its days after a check made before the listing
  and a millisecond later, and with the only check made after the listing; the last
  instant of the last day of a grace counted in days before the call's day (the TPS's 28,
  the DNCL's 31) and the first of the next; an account's own list, which gives none;
- a state's own list the DNC results hold no row of, whose law obliges a caller to obtain
  it (the first such row of ``dnc_lists.toml``, Colorado's): a number of its first area
  code called three times, its earliest call one risk, the two later ones none (issue 73);
- the next such list (Louisiana's), whose rows the results hold for some of the state's
  numbers only: a number its own row answers for (not listed) is no risk, and one with no
  row of its own, called twice, one risk on its earliest call: another number's scrub is
  none of it (issue 79);
- each country's scrub age (``jurisdictions.toml``'s ``dnc_scrub_days``, or the rules'
  where stricter): a lead checked exactly that long before the audit, and a millisecond
  longer; a listed lead still dialable, and one completed;
- the rules' calling window at both bounds and a millisecond outside each, and on the
  morning US daylight saving time ends;
- the rules' cap: the call at the cap, and the next at exactly 24 hours after the first
  and a millisecond sooner;
- the rules' abandonment limit: a campaign's first period at exactly the limit, its last
  call answered a millisecond before the next period, which opens with an abandoned call
  (created in the first, answered in the second); an agent joining at exactly the join
  time allowed, and a millisecond later.

Every date and count comes from the law's rows and the rules, so an edge moves when they
do. Each edge says whether the law makes it a finding; :func:`problems` holds a side's
findings to that, and names an edge missing from the frames.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from fractions import Fraction

import numpy as np
import pandas as pd

from dialkit._law import _dnc_lists, _jurisdictions
from dialkit._places._areas import area_states
from dialkit.compliance import Rules

MS = pd.Timedelta(milliseconds=1)
FICTIONAL = {"US": ("+1212555", range(100, 200), "America/New_York"),
             "CA": ("+1416555", range(100, 200), "America/Toronto"),
             "GB": ("+44207946", range(0, 1000), "Europe/London")}
"""Numbers for drama and tests, each area of one zone (NANP 555-0100 to 0199; Ofcom's
020 7946 0xxx), by the lists' countries: the edges' own numbers, never the generated
ones'."""
SEEDED_LISTS = ("national", "company")
"""The lists the benchmark's data can hold: a DNC result without ``list`` is the national
register's, a ``do_not_call`` disposition the account's own list's."""
ANSWER, TALK, JOIN = pd.Timedelta(seconds=5), pd.Timedelta(seconds=60), pd.Timedelta(seconds=1)
"""An edge call's ring before its answer, its length once answered, and how soon an agent
joins it where the edge is not the join."""
RECENT = pd.Timedelta(days=2)
"""How long before the audit an edge number not at a scrub edge was checked."""
SECOND = 10
"""The calls answered in the abandonment edges' second period, 2 of them abandoned."""


@dataclass
class Seeded:
    """The edges' calls, leads and DNC results (plain columns, the generated frames'
    names), and the edges: ``what`` in words, ``rule``, the call or lead ``id``, its
    ``phone`` and whether the law makes it a finding (``found``)."""

    calls: list[dict[str, object]] = field(default_factory=list)
    leads: list[dict[str, object]] = field(default_factory=list)
    dnc: list[dict[str, object]] = field(default_factory=list)
    edges: list[dict[str, object]] = field(default_factory=list)

    def frames(self) -> dict[str, pd.DataFrame]:
        return {name: pd.DataFrame(getattr(self, name))
                for name in ("calls", "leads", "dnc", "edges")}


def seeded(taken: Collection[str], rules: Rules, start: pd.Timestamp, end: pd.Timestamp,
           as_of: pd.Timestamp, caller: str, seed: int = 71) -> dict[str, pd.DataFrame]:
    """The edges of ``rules`` and the law, placed between ``start`` and ``end`` (the
    generated calls' days), judged at ``as_of``, on numbers not in ``taken``, called
    from ``caller``: frames ``calls``, ``leads``, ``dnc`` and ``edges``."""
    made = _Maker(taken, start, as_of, caller, random.Random(seed))
    _lists(made)
    _state_list(made, taken)
    _state_scrubs(made, taken)
    _scrub_ages(made, rules)
    _hours(made, rules)
    _cap(made, rules)
    _abandonment(made, rules)
    frames = made.seeded.frames()
    late = frames["calls"]["ended_at"].max()
    assert late < end, f"an edge call ends at {late}, after the calls' last day"
    return frames


def problems(frame: dict[str, pd.DataFrame], findings: set[tuple[str, str]]) -> list[str]:
    """Each seeded edge of ``frame`` whose call or lead is missing from its frames, or
    whose finding ``findings`` (rule, call or lead id) has where the law has none, or
    lacks: empty where every edge is as the law says."""
    present = set(frame["calls"]["id"].astype(object)) | set(frame["leads"]["id"].astype(object))
    wrong = []
    for edge in frame["edges"].itertuples(index=False):
        if edge.id not in present:
            wrong.append(f"missing from the frames: {edge.what} ({edge.rule} {edge.id})")
        elif ((edge.rule, edge.id) in findings) != edge.found:
            wrong.append(f"{'not ' if edge.found else ''}found, where the law "
                         f"{'finds' if edge.found else 'has no finding'}: {edge.what} "
                         f"({edge.rule} {edge.id})")
    return wrong


class _Maker:
    """What the edges are made with: fresh numbers of each country, ids, and rows."""

    def __init__(self, taken: Collection[str], start: pd.Timestamp, as_of: pd.Timestamp,
                 caller: str, rng: random.Random) -> None:
        self.start, self.as_of, self.caller, self.rng = start, as_of, caller, rng
        self.seeded = Seeded()
        self._free = {country: _unused(prefix, tails, taken)
                      for country, (prefix, tails, _) in FICTIONAL.items()}
        self.campaign, self.abandoning = self.id("cmp_"), self.id("cmp_")

    def id(self, prefix: str) -> str:
        """An id of the contract's shape: ``prefix`` and a lower-case UUID."""
        return prefix + str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def number(self, country: str, *, status: str = "contacted", campaign: str | None = None,
               checked: pd.Timestamp | None = None, listed: bool = False) -> tuple[str, str]:
        """A fresh number of ``country``, its lead (of ``status``) and its DNC result
        (checked ``checked``, else recently; not listed unless said): the number and
        its lead's id."""
        phone = next(self._free[country])
        lead = self.id("lead_")
        self.seeded.leads.append({
            "id": lead, "campaign_id": campaign or self.campaign, "phone": phone,
            "status": status, "created_at": self.start - pd.Timedelta(days=30),
            "updated_at": self.start - pd.Timedelta(days=30)})
        if not listed:
            self.dnc(phone, checked if checked is not None else self.as_of - RECENT)
        return phone, lead

    def dnc(self, phone: str, checked: pd.Timestamp, listed_at: pd.Timestamp | None = None,
            of_list: str | None = None) -> None:
        """A DNC result of ``phone``: listed since ``listed_at`` where given; a scrub of the
        list ``of_list`` (a state's id, ``US-LA``), else of the national register."""
        self.seeded.dnc.append({"phone": phone, "listed": listed_at is not None,
                                "checked_at": checked, "listed_at": listed_at,
                                "list": of_list})

    def call(self, phone: str, created: pd.Timestamp, *, campaign: str | None = None,
             answered: pd.Timestamp | None = None, joined: pd.Timestamp | None = None,
             disposition: str | None = None) -> tuple[str, pd.Timestamp]:
        """An outbound call (unanswered unless ``answered``): its id and its end."""
        ended = created + pd.Timedelta(seconds=20) if answered is None else answered + TALK
        call = self.id("call_")
        self.seeded.calls.append({
            "id": call, "direction": "outbound", "from_number": self.caller, "to_number": phone,
            "status": "no-answer" if answered is None else "completed", "created_at": created,
            "answered_at": answered, "ended_at": ended,
            "duration_seconds": 0.0 if answered is None else TALK.total_seconds(),
            "campaign_id": campaign or self.campaign, "disposition": disposition,
            "hangup_cause": "no_answer" if answered is None else "normal_clearing",
            "agent_joined_at": joined})
        return call, ended

    def edge(self, what: str, rule: str, id_: str, phone: str, found: bool) -> None:
        self.seeded.edges.append({"what": what, "rule": rule, "id": id_, "phone": phone,
                                  "found": found})

    def called(self, what: str, rule: str, phone: str, at: pd.Timestamp, found: bool) -> None:
        """An unanswered call at ``at`` that is an edge of ``rule``."""
        self.edge(what, rule, self.call(phone, at)[0], phone, found)

    def local(self, country: str, day: pd.Timestamp, at: time) -> pd.Timestamp:
        """The moment ``at`` o'clock on ``day`` in the zone of ``country``'s numbers."""
        zone = FICTIONAL[country][2]
        naive = datetime.combine(day.date(), at)
        return pd.Timestamp(naive).tz_localize(zone).tz_convert("UTC")

    def day(self, n: int, hour: int = 0) -> pd.Timestamp:
        """``n`` days after the first day, at ``hour`` UTC."""
        return self.start.normalize() + pd.Timedelta(days=n, hours=hour)


def _unused(prefix: str, tails: range, taken: Collection[str]) -> Iterator[str]:
    """The numbers of ``prefix`` and each of ``tails`` (four digits) not in ``taken``."""
    return (number for number in (f"{prefix}{n:04d}" for n in tails) if number not in taken)


def _lists(made: _Maker) -> None:
    """Each list's grace at its bounds, for the lists the data can hold."""
    for row in _dnc_lists.all():
        if row.list in SEEDED_LISTS:
            (_safe_harbor if row.grace_needs_check else _grace_in_days)(made, row)


def _safe_harbor(made: _Maker, row: _dnc_lists.DncList) -> None:
    """A grace that holds only with a check before the listing no older than it (the US
    registry): a call at its end and a millisecond after; and a number whose only check
    came after the listing, called the next day."""
    grace = pd.Timedelta(row.grace)
    checked, listed_at = made.day(2, 14), made.day(3, 12)
    phone, _ = made.number(row.country, status="dnc", listed=True)
    made.dnc(phone, checked)
    made.dnc(phone, made.as_of - RECENT, listed_at)
    made.called(f"{row.id}: called at the instant of the listing", "dnc_call", phone,
                listed_at, False)
    made.called(f"{row.id}: called {row.grace.days} days after a check made before the "
                "listing", "dnc_call", phone, checked + grace, False)
    made.called(f"{row.id}: called {row.grace.days} days and 1 ms after a check made before "
                "the listing", "dnc_call", phone, checked + grace + MS, True)
    late, _ = made.number(row.country, status="dnc", listed=True)
    made.dnc(late, listed_at + pd.Timedelta(hours=1), listed_at)
    made.called(f"{row.id}: called a day after the listing, checked only after it",
                "dnc_call", late, listed_at + pd.Timedelta(days=1), True)


def _grace_in_days(made: _Maker, row: _dnc_lists.DncList) -> None:
    """A grace in whole days before the call's day (UTC): the last instant of its last
    day and the first of the next; none (an account's own list): the listing's instant
    and a millisecond after. A national listing is a DNC result's, a company one a
    ``do_not_call`` disposition's, from the end of its call."""
    phone, _ = made.number(row.country, status="dnc", listed=row.list == "national")
    if row.list == "national":
        since = made.day(3, 20)
        made.dnc(phone, made.as_of - RECENT, since)
    else:
        answered = made.day(5, 14)
        _, since = made.call(phone, answered - ANSWER, answered=answered,
                             joined=answered + JOIN, disposition="do_not_call")
    made.called(f"{row.id}: called at the instant of the listing", "dnc_call", phone, since,
                False)
    if not row.grace:
        made.called(f"{row.id}: called 1 ms after the listing (no grace)", "dnc_call", phone,
                    since + MS, True)
        return
    last_day = since.normalize() + pd.Timedelta(row.grace)
    made.called(f"{row.id}: called on the last instant of day {row.grace.days - 1} after the "
                "listing's (inside its grace)", "dnc_call", phone, last_day - MS, False)
    made.called(f"{row.id}: called at the start of day {row.grace.days} after the listing's, "
                f"{(last_day - since) / pd.Timedelta(hours=1):g} hours short of "
                f"{row.grace.days} days after it", "dnc_call", phone, last_day, True)


def _state_list(made: _Maker, taken: Collection[str]) -> None:
    """The first state list whose law requires it (the table's order), never in the DNC
    results: a number of the state's first area code (NANP 555-0100 to 0199), called on
    three days at midday there, seeded out of their times' order; its earliest call is the
    number's one risk."""
    row = _required_state_lists()[0]
    phone = next(_state_numbers(row, taken))
    for day, found in ((9, False), (7, True), (8, False)):
        made.called(f"{row.id} not given: a number of the state called on day {day} "
                    f"({'its first call' if found else 'a later call'})", "dnc_call", phone,
                    made.day(day, 18), found)


def _state_scrubs(made: _Maker, taken: Collection[str]) -> None:
    """The second state list whose law requires it (the table's order), scrubbed for some
    of the state's numbers (issue 79): two numbers of its first area code whose own rows
    of it answer (not listed), each called once, no risk; and one with no row of its own,
    called on two days at midday there, one risk of that list on its earliest call."""
    row = _required_state_lists()[1]
    numbers = _state_numbers(row, taken)
    for n in range(2):
        phone = next(numbers)
        made.dnc(phone, made.as_of - RECENT, of_list=row.id)
        made.called(f"{row.id} given for this number (its own row, not listed): called on "
                    f"day {10 + n}", "dnc_call", phone, made.day(10 + n, 18), False)
    phone = next(numbers)
    for day, found in ((12, False), (11, True)):
        said = "its first call: one risk of the list" if found else "a later call"
        made.called(f"{row.id} given for other numbers of the state, none of this one: "
                    f"called on day {day} ({said})", "dnc_call", phone, made.day(day, 18),
                    found)


def _required_state_lists() -> list[_dnc_lists.DncList]:
    """The states' own lists whose law obliges a caller to obtain them, in the table's
    order."""
    return [row for row in _dnc_lists.all() if row.state and row.required]


def _state_numbers(row: _dnc_lists.DncList, taken: Collection[str]) -> Iterator[str]:
    """Fresh numbers of the first area code of ``row``'s state (NANP 555-0100 to 0199)."""
    areas = np.arange(200, 1000)
    area = int(areas[area_states(areas) == row.state][0])
    return _unused(f"+1{area}555", range(100, 200), taken)


def _scrub_ages(made: _Maker, rules: Rules) -> None:
    """Each country's scrub age, the rules' where stricter: a lead checked exactly that
    long before the audit, and one a millisecond longer; a listed lead the dialer may
    still call, and a completed one."""
    for country in FICTIONAL:
        own = _jurisdictions.get(country).dnc_scrub_age
        age = pd.Timedelta(min(own, rules.scrub_age) if own is not None else rules.scrub_age)
        for older, found in ((pd.Timedelta(0), False), (MS, True)):
            phone, lead = made.number(country, checked=made.as_of - age - older)
            made.edge(f"{country}: a lead checked {age.days} days{' and 1 ms' if found else ''} "
                      "before the audit", "unscreened_lead", lead, phone, found)
    for status, found in (("callback", True), ("completed", False)):
        phone, lead = made.number("US", status=status, listed=True)
        made.dnc(phone, made.as_of - RECENT, made.day(1))
        made.edge(f"a listed number's lead, {status}", "dnc_lead", lead, phone, found)


def _hours(made: _Maker, rules: Rules) -> None:
    """The rules' window at its bounds in New York, and across the end of daylight
    saving time: 30 minutes before the window opens on the first morning of standard
    time, and the same UTC time the day before (30 minutes after it opened)."""
    if rules.window is None:
        return
    opens, closes = rules.window
    phone, _ = made.number("US")
    for n, (at, shift, found) in enumerate(((opens, 0 * MS, False), (opens, -MS, True),
                                            (closes, -MS, False), (closes, 0 * MS, True))):
        moment = made.local("US", made.day(1 + n), at) + shift
        made.called(f"called at {moment.tz_convert(FICTIONAL['US'][2]):%H:%M:%S.%f}"[:-3]
                    + " New York time", "calling_hours", phone, moment, found)
    change = _standard_time(made)
    early = made.local("US", change, opens) - pd.Timedelta(minutes=30)
    made.called(f"called 30 minutes before {opens:%H:%M} on {change:%d %B}, the first morning "
                "of standard time", "calling_hours", phone, early, True)
    made.called(f"the same UTC time on {change - pd.Timedelta(days=1):%d %B}, daylight saving "
                f"time: 30 minutes after {opens:%H:%M}", "calling_hours", phone,
                early - pd.Timedelta(days=1), False)


def _standard_time(made: _Maker) -> pd.Timestamp:
    """The first day of the calls' weeks on which New York keeps standard time after
    daylight saving time."""
    days = made.day(0, 12) + pd.to_timedelta(range(60), unit="D")  # noon: after 02:00 local
    offsets = days.tz_convert(FICTIONAL["US"][2]).map(lambda d: d.utcoffset())
    changed = [d for d, before, after in zip(days[1:], offsets[:-1], offsets[1:], strict=True)
               if after < before]
    return changed[0]


def _cap(made: _Maker, rules: Rules) -> None:
    """The rules' cap: calls up to it within a few minutes, then one more exactly 24 hours
    after the first (the first no longer counts) and, to another number, a millisecond
    sooner."""
    cap = rules.max_calls_per_24h
    if cap is None:
        return
    first = made.day(7, 14)
    for later, found in ((pd.Timedelta(0), False), (-MS, True)):
        phone, _ = made.number("US")
        for n in range(cap - 1):
            made.call(phone, first + pd.Timedelta(minutes=n))
        made.called(f"call {cap} in 24 hours: the cap", "call_frequency", phone,
                    first + pd.Timedelta(minutes=cap - 1), False)
        made.called(f"call {cap + 1} at 24 hours{' less 1 ms' if found else ''} after the "
                    "first", "call_frequency", phone, first + pd.Timedelta(hours=24) + later,
                    found)


def _abandonment(made: _Maker, rules: Rules) -> None:
    """The rules' abandonment limit over successive periods from the campaign's first call:
    a first period abandoning exactly the limit (a few calls a day to four numbers, the
    last abandoned one answered a millisecond before the second period), then a second
    that opens with an abandoned call created in the first, and the join time allowed
    exactly and a millisecond over."""
    if rules.abandonment_limit is None:
        return
    span = pd.Timedelta(rules.abandonment_window or timedelta(days=30))
    answered, abandoned = _at_the_limit(rules.abandonment_limit)
    numbers = [made.number("US", campaign=made.abandoning)[0] for _ in range(4)]
    opened = made.day(0, 14)

    def call(phone: str, at: pd.Timestamp, late: pd.Timedelta | None, found: bool | None,
             what: str = "") -> None:
        """A campaign call answered at ``at``, an agent joining ``late`` after (never:
        None); an edge where ``found`` is given."""
        made_id, _ = made.call(phone, at - ANSWER, campaign=made.abandoning, answered=at,
                               joined=None if late is None else at + late,
                               disposition=None if late is None else "info_sent")
        if found is not None:
            made.edge(what, "abandonment", made_id, phone, found)

    for n in range(answered - 1):  # the first period, the last call apart
        at = opened + ANSWER + pd.Timedelta(days=n // 4, hours=n % 4)
        assert at < opened + span - pd.Timedelta(days=1), "the first period is too short"
        call(numbers[n % 4], at, None if 0 < n < abandoned else JOIN,
             False if n == 1 else None, f"abandoned in a first period at {abandoned} of "
             f"{answered} answered: the limit")
    call(numbers[0], opened + span - MS, None, False,
         "abandoned, answered 1 ms before the second period: the first's, at the limit")
    call(numbers[1], opened + span, None, True,
         "abandoned, created in the first period and answered as the second opens (over)")
    join = pd.Timedelta(seconds=rules.agent_join_seconds)
    call(numbers[2], opened + span + pd.Timedelta(days=1), join, False,
         f"an agent joined exactly {join.total_seconds():g} s after the answer")
    call(numbers[3], opened + span + pd.Timedelta(days=1, hours=1), join + MS, True,
         f"an agent joined {join.total_seconds():g} s and 1 ms after the answer")
    for n in range(SECOND - 3):  # joined in time
        call(numbers[n % 4], opened + span + pd.Timedelta(days=2 + n // 4, hours=n % 4), JOIN,
             None)
    assert Fraction(2, SECOND) > rules.abandonment_limit, "the second period is not over"


def _at_the_limit(limit: float) -> tuple[int, int]:
    """The fewest calls answered (and of them abandoned) whose share is exactly ``limit``,
    as the rate is computed (abandoned / answered)."""
    for answered in range(1, 1001):
        abandoned = round(answered * limit)
        if abandoned > 1 and abandoned / answered == limit:
            return answered, abandoned
    raise AssertionError(f"no count up to 1,000 abandons exactly {limit:.2%}")

