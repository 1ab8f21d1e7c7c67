"""The law of the place called, as arrays: each call's calling window from the rows of
:mod:`._jurisdictions` that apply where the person called is.

A preset names the table's countries it applies (:attr:`Rules.jurisdictions`). A
call to a number of one of them is judged by that country's row and, for a US
number, by its state's row too: the stricter decides, and is named. A US number
of no known state (toll-free, non-geographic) is judged by the strictest of the
country's rows, and its findings are ``unknown_jurisdiction``. Only confirmed rows
are applied: an unconfirmed one is named on the report's cover
(:func:`._rules.law_words`). The account's policy window (``Rules.window``), where
there is one, judges every call the law allows: row 0, whose findings are policy's.

A row whose text covers automated calls only (``applies_to = "campaign"``) judges the
calls the dialer places (a ``campaign_id``) and not an agent's click-to-call; for those,
a number of no known state is judged by the strictest of the other rows. Each finding
cites the section that decides it (the row's ``cites``: its hours, its day bans); one
decided by a strictest row cites the first row of it that forbids the call.

Each row is eight windows in seconds (Monday to Sunday, then its named
holidays), so a million (call, zone) pairs are judged by array lookups; the
holidays of the audited period are looked up once per row. A window's end is outside,
but where the row's words forbid calls only "after" it (``end_included``: "after 8 p.m.")
the end itself is inside: a call at 20:00:00 sharp, not one a nanosecond later.

A row whose law forbids solicitation during a declared state of emergency
(``emergency_ban``) judges each call at its moment (UTC) against the emergencies the
rules carry (:mod:`._emergencies`): one in force in its state forbids the call whatever
the hours, and decides it, for it is the ban that lasts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from functools import lru_cache

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..._law._jurisdictions import get as jurisdiction
from ..._phones._zones import regions_among
from ..._places._areas import territories
from ..._places._states import places
from ..._places._subdivisions import subdivision_of
from . import _jurisdictions as table
from ._emergencies import Bans, bans
from ._rules import Rules

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Floats = NDArray[np.float64]
Objects = NDArray[np.object_]

_HOLIDAY = 7
"""The slot of a row's named holidays, after Monday (0) to Sunday (6)."""
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_DAY_NS = 86_400 * 10**9
_FIRST, _LAST = np.iinfo(np.int64).min, np.iinfo(np.int64).max
_KEY = 1 << 20
"""A (row, day) key: the row times this, plus the day (days since 1970)."""


@dataclass(frozen=True)
class Law:
    """The rows an audit applies: row 0 is the policy's window (the whole day where there
    is none), then each applied row of the table, then each country's strictest row
    (``strictest`` marks them).
    ``start``/``end`` are each row's windows in seconds by slot (no calls: 0, 0)."""

    policy: str
    """The name of the policy whose window and cap are row 0 (empty: no policy)."""
    ids: list[str | None]
    """Each row's id in the table (``US-FL``; a strictest row's: its country's; None: the
    policy's window), for the findings' ``jurisdiction`` column."""
    names: list[str]
    citations: list[str]
    caps: list[tuple[int, int, str, str] | None]
    """Each row's frequency cap: calls, period in ms, in words, the section that sets it
    (its ``cap`` cite); None where it sets none."""
    cites: dict[str, list[str]]
    """Each row's section deciding its ``hours``, ``days`` (Sunday and holiday bans) and
    ``cap`` findings (:meth:`._jurisdictions.Jurisdiction.cite`); a strictest row's: its
    rows' ids."""
    members: dict[int, list[int]]
    """Each strictest row's rows, in the table's order: the first that forbids a call
    names the section that decides it."""
    campaign_only: Bools
    """Whether a row applies to campaign calls only (``applies_to = "campaign"``)."""
    lifted: Bools
    """Whether a row's hours bind only calls made without the person's consent
    (``consent_lifts_hours``): not a strictest row's, nor the policy's."""
    agent_row: Ints
    """The row that judges a call placed by an agent (no campaign) instead of each row:
    itself, the strictest of the rows for every call instead of a strictest row that
    counts a campaign-only row, the policy's (0) instead of a campaign-only row."""
    start: Floats
    end: Floats
    strictest: Bools
    holiday_keys: pd.Index
    holiday_names: Objects
    closed: Bools
    """Per row and slot, whether the window's end itself is inside (``end_included``)."""
    banned: Bools
    """Whether a row's law forbids calls during a declared emergency (``emergency_ban``)."""
    bans: Bans
    """The declared emergencies that forbid calls, each against a row (:mod:`._emergencies`)."""


@dataclass(frozen=True)
class Judged:
    """Each (call, zone) pair judged: whether it is ``outside`` the law's window, the
    row that ``decided`` (the stricter that forbids it, else the number's own), and
    the ``slot`` of the day in that row (a weekday, or ``_HOLIDAY``)."""

    law: Law
    outside: Bools
    decided: Ints
    slot: Ints
    days: Ints
    own: tuple[Ints, Ints, Ints]
    """Each call's own law rows: its country's (or the strictest; 0: none, the policy's
    alone), its number's state's and its lead's address state's (-1: none)."""
    by_address: Bools
    """Whether the row that decided a pair is the lead's address state's."""
    cited: Ints
    """The row whose section decides each pair: the deciding row, or for a strictest row
    the first of its rows that forbids the pair."""
    emergency: Ints
    """The ban (:attr:`Law.bans`) that forbids each pair, a declared emergency in its
    state; -1 where none does."""


def judge(phones: pd.Series, row: Ints, local: NDArray[np.datetime64], rules: Rules,
          address: Objects | None = None, campaign: Bools | None = None,
          clocks: tuple[Bools, Bools] | None = None,
          consented: Bools | None = None, at: Ints | None = None) -> Judged:
    """Judge each (call, zone) pair (``row``: its call's position in ``phones``;
    ``local``: its wall-clock time) by the rows that apply where the number is and, where
    ``address`` gives a call's lead's address state, that state's row too: of the number's
    state and the address's, the one that forbids the call decides (the number's first).
    Where the law allows a pair, the policy's window (row 0) judges it, if there is one.
    ``campaign`` says which calls the dialer placed (None: all, the stricter reading): a
    row for campaign calls only does not judge the others.
    ``clocks``, where given, says per pair whether the number's rows judge it and whether
    the address state's row does (:mod:`._address_clock`: that state on its own zones).
    ``consented`` says which calls had the person's prior consent standing: a row whose
    words lift it for them (``consent_lifts_hours``) does not judge their hours (its cap
    still counts them: :attr:`Judged.own` keeps every row). ``at`` is each call's moment
    (UTC ns), which the declared emergencies the rules carry are judged at (None: none
    is judged)."""
    by_number, at_address = clocks if clocks is not None else (True, True)
    rows, by_country = _applied(rules)
    known = ~np.isnat(local)
    days = local.astype("datetime64[D]").view(np.int64)
    nanos = local.view(np.int64) - days * _DAY_NS  # into the day (a NaT's: not known)
    law = _law(rules, rows, by_country, (int(days.min(initial=_LAST, where=known)),
                                         int(days.max(initial=_FIRST, where=known))))
    own = _scoped(law, _call_rows(phones, by_country, _address_rows(
        address, by_country, len(phones))), campaign)
    hours = own if consented is None or not law.lifted.any() else _without(
        own, np.flatnonzero(consented), law.lifted,
        np.where(law.lifted, 0, np.arange(len(law.lifted))))
    weekday = (days + 3) % 7  # 1970-01-01 was a Thursday
    decided = hours[0][row]
    slot, outside = _outside(law, decided, days, weekday, nanos)
    outside &= (decided > 0) & by_number  # row 0, the policy's, is judged last
    by_address = np.zeros(len(row), bool)
    for which in (2, 1):  # the address's state, then the number's: the last that forbids
        if not (hours[which] >= 0).any():  # no call has such a row (a flat policy: none)
            continue
        its = hours[which][row]
        has = (its >= 0) & (at_address if which == 2 else by_number)
        slot_w, out_w = _outside(law, np.where(has, its, 0), days, weekday, nanos)
        out_w &= has
        decided, slot = np.where(out_w, its, decided), np.where(out_w, slot_w, slot)
        by_address = np.where(out_w, which == 2, by_address)
        outside |= out_w
    if rules.window is not None:  # the policy, where the law allows the call
        slot_p, out_p = _outside(law, np.zeros(len(row), np.int64), days, weekday, nanos)
        out_p &= ~outside & by_number
        decided, slot = np.where(out_p, 0, decided), np.where(out_p, slot_p, slot)
        outside |= out_p
    cited = _citing(law, decided, outside, days, weekday, nanos)
    emergency = np.full(len(row), -1, np.int64)
    if at is not None and len(law.bans.row):
        for which, judges in ((0, by_number), (2, at_address), (1, by_number)):
            banned = law.bans.during(hours[which][row], np.asarray(at)[row])
            banned = np.where(judges, banned, -1)  # the number's state named where both are
            hit = banned >= 0
            decided, emergency = np.where(hit, hours[which][row], decided), np.where(
                hit, banned, emergency)
            by_address = np.where(hit, which == 2, by_address)
            outside |= hit
        cited = np.where(emergency >= 0, law.bans.area_row[np.maximum(emergency, 0)], cited)
    return Judged(law, outside & known, decided, slot, days, own, by_address, cited,
                  emergency)


def _scoped(law: Law, own: tuple[Ints, Ints, Ints],
            campaign: Bools | None) -> tuple[Ints, Ints, Ints]:
    """Each call's own rows, where a row applies to campaign calls only: for a call
    an agent placed (not ``campaign``), none of that row (its state's: -1), and for a
    number of no known state the strictest of the rows for every call."""
    if campaign is None or not law.campaign_only.any():
        return own
    agent = np.flatnonzero(~np.asarray(campaign, bool))  # by index: usually few
    return _without(own, agent, law.campaign_only, law.agent_row)


def _without(own: tuple[Ints, Ints, Ints], calls: Ints, dropped: Bools,
             country: Ints) -> tuple[Ints, Ints, Ints]:
    """Each call's own rows, the ``calls``' without the ``dropped`` rows: a state's
    row none (-1), the country's row the one ``country`` gives in its place."""
    first, number, address = (its.copy() for its in own)
    first[calls] = country[first[calls]]
    for its in (number, address):
        rows = its[calls]
        its[calls] = np.where((rows >= 0) & dropped[np.maximum(rows, 0)], -1, rows)
    return first, number, address


def _citing(law: Law, decided: Ints, outside: Bools, days: Ints, weekday: Ints,
            nanos: Ints) -> Ints:
    """The row whose section decides each pair: its deciding row, but for a pair a
    strictest row forbids, the first of that row's rows that forbids it (a loop over the
    few rows of each strictest row, over the pairs it decided only)."""
    cited = decided.copy()
    forbidden = np.flatnonzero(outside)  # few: the calls outside some window
    for at, members in law.members.items():
        pairs = forbidden[decided[forbidden] == at]
        for n in members:
            if not len(pairs):
                break
            _, out = _outside(law, np.full(len(pairs), n, np.int64), days[pairs],
                              weekday[pairs], nanos[pairs])
            cited[pairs[out]] = n
            pairs = pairs[~out]
    return cited


def law_rows(phones: pd.Series, rules: Rules,
             address: Objects | None = None) -> tuple[Ints, Ints, Ints]:
    """Each number's own law rows, as :func:`judge` finds them: its country's (or the
    strictest), its state's and its address state's (-1: none). Numbers with the same rows
    and the same zones are judged alike at every moment (:func:`._when.next_allowed`)."""
    _, by_country = _applied(rules)
    return _call_rows(phones, by_country, _address_rows(address, by_country, len(phones)))


@lru_cache(maxsize=4096)
def own_caps(phone: str, state: str | None, rules: Rules) -> tuple[int, ...]:
    """How many calls each cap of the law that counts the calls to ``phone`` allows: its
    country's row's, its state's and, where ``state`` (a lead's address) is given, that
    state's, the rows :func:`._frequency.call_frequency` counts its calls by (a
    country's strictest row, for a number of no known state, sets none); none: no cap of
    the law counts them. Kept per number: the client's guard asks at each contact."""
    rows, _ = _applied(rules)
    own = law_rows(pd.Series([phone], dtype=object), rules,
                   None if state is None else np.array([state], dtype=object))
    found = sorted({int(row[0]) for row in own if 0 < int(row[0]) <= len(rows)})
    return tuple(cap for cap in (rows[n - 1].max_calls for n in found) if cap is not None)


def evidence(judged: Judged, pairs: Ints) -> pd.Series:
    """The rule that decided each of ``pairs``, in words: ``Louisiana: no calls on
    Sunday, La. R.S. 45:844.14``; for the policy's window, ``window 08:00-21:00``."""
    law, decided, slot = judged.law, judged.decided[pairs], judged.slot[pairs]
    start, end = law.start[decided, slot], law.end[decided, slot]
    window = pd.Series(np.where(law.closed[decided, slot],
                                "window " + _clock(start) + " through " + _clock(end) + ":00",
                                "window " + _clock(start) + "-" + _clock(end)), dtype=object)
    banned = end <= start
    day = pd.Series(np.array(_DAY_NAMES + ("",), object)[slot])
    holiday = slot == _HOLIDAY
    if holiday.any():
        at = law.holiday_keys.get_indexer(decided[holiday] * _KEY
                                          + judged.days[pairs][holiday])
        day[holiday] = law.holiday_names[at]
    rule = pd.Series(np.where(banned, "no calls on " + day, np.where(
        holiday, window + " on " + day, window)), dtype=object)
    ban = judged.emergency[pairs]
    rule = rule.where(ban < 0, "no calls during the state of emergency declared in "
                      + pd.Series(law.bans.words(ban), dtype=object))
    named = np.array(law.names, object)[decided]
    named = np.where(judged.by_address[pairs], named + " (the lead's address state)", named)
    by = judged.cited[pairs]
    cited = _cited(law, by, banned, ban >= 0)
    wide = np.flatnonzero(law.strictest[decided])  # few: numbers of no known state
    cited[wide] = (np.array(law.citations, object)[decided[wide]] + "; forbidden by "
                   + np.array(law.names, object)[by[wide]] + ", " + cited[wide])
    said = pd.Series(np.where(decided == 0, rule, named + ": " + rule + ", " + cited),
                     dtype=object)
    return said


def _cited(law: Law, rows: Ints, banned: Bools, emergency: Bools) -> Objects:
    """The section of each row deciding a finding of hours: its emergency ban's where a
    declared ``emergency`` forbids the call, its day ban's where the day is ``banned``,
    else its hours'."""
    return np.where(emergency, np.array(law.cites["emergency"], object)[rows], np.where(
        banned, np.array(law.cites["days"], object)[rows],
        np.array(law.cites["hours"], object)[rows]))


def deciders(law: Law, rows: Ints, by_address: Bools,
             cited: Objects | None = None) -> dict[str, Objects]:
    """The findings' ``jurisdiction``, ``decided_by``, ``basis``, ``policy`` and ``citation``
    for the law
    ``rows`` that decided them: the row's id (``US-FL``; ``US`` for the federal row and for
    the strictest US row) and whose row it is: ``number`` (the number's country or
    state), ``address`` (the lead's address state) or ``strictest`` (no state is known
    for the number: the strictest of its country's rows); ``law``, no policy. Where the
    policy's window or cap decided (row 0), no row of the table did: ``jurisdiction`` and
    ``decided_by`` None, ``basis`` ``policy`` and ``policy`` its name, no citation.
    ``cited`` is each finding's section (:func:`hours_cites`); by default the row's cap's."""
    ids = np.array(law.ids, object)[rows]
    by = np.where(by_address, "address", np.where(law.strictest[rows], "strictest",
                                                  "number")).astype(object)
    ours = rows == 0
    by[ours] = None
    basis = np.where(ours, "policy", "law").astype(object)
    policy = np.full(len(rows), None, object)
    policy[ours] = law.policy
    citation = (np.array(law.cites["cap"], object)[rows] if cited is None
                else np.asarray(cited, object).copy())
    citation[ours] = None
    return {"jurisdiction": ids, "decided_by": by, "basis": basis, "policy": policy,
            "citation": citation}


def hours_cites(judged: Judged, pairs: Ints) -> Objects:
    """The section deciding each of ``pairs``' calling-hours findings: the hours' or the
    day ban's of the row that forbids it (a strictest row's: its first row that does)."""
    law, decided, slot = judged.law, judged.decided[pairs], judged.slot[pairs]
    return _cited(law, judged.cited[pairs], law.end[decided, slot] <= law.start[decided, slot],
                  judged.emergency[pairs] >= 0)


def closed_ends(judged: Judged, pairs: Ints) -> Floats:
    """The end (seconds into the day) of each of ``pairs``' deciding window where that end
    itself is inside (``end_included``); NaN elsewhere."""
    law, decided, slot = judged.law, judged.decided[pairs], judged.slot[pairs]
    ends: Floats = np.where(law.closed[decided, slot], law.end[decided, slot], np.nan)
    return ends


def _clock(seconds: Floats) -> pd.Series:
    """Seconds into a day as ``HH:MM`` (the end of a whole day as ``24:00``)."""
    minutes = np.ceil(seconds / 60).astype(np.int64)
    return (pd.Series(minutes // 60).astype(str).str.zfill(2) + ":"
            + pd.Series(minutes % 60).astype(str).str.zfill(2))


def _outside(law: Law, rows: Ints, days: Ints, weekday: Ints,
             nanos: Ints) -> tuple[Ints, Bools]:
    """Each pair's slot in its row (its holiday, else its weekday), and whether its time
    (``nanos`` into its day) is outside that slot's window. In integers, by one flat
    index into the windows (of whole seconds, so as exact as seconds in floats): 10 ms
    of a million pairs, where a float division and a 2-D fancy index took 20."""
    holiday = law.holiday_keys.get_indexer(rows * _KEY + days) >= 0 if len(
        law.holiday_keys) else np.zeros(len(rows), bool)
    slot = np.where(holiday, _HOLIDAY, weekday)
    cell = rows * law.start.shape[1] + slot
    start, end = ((edge * 10**9).astype(np.int64).ravel()[cell] for edge in (law.start, law.end))
    outside: Bools = (nanos < start) | (nanos > end) | ((nanos == end) & ~law.closed.ravel()[cell])
    return slot, outside


def _applied(rules: Rules) -> tuple[list[table.Jurisdiction], dict[str, dict[str, int]]]:
    """The confirmed rows of the preset's countries, and per country the law row of its
    own row (``""``; 0, the policy's alone, where it has none confirmed), of each state
    (its postal code; none where ``rules.states`` is False) and, for a country with
    state rows, its strictest (``"*"``, after every row of the table)."""
    rows: list[table.Jurisdiction] = []
    by_country: dict[str, dict[str, int]] = {}
    for country in rules.jurisdictions:
        found = by_country.setdefault(country, {"": 0})
        for row in table.all():
            if row.country == country and row.confirmed and (
                    rules.states or not row.subdivision):
                rows.append(row)
                found[row.subdivision or ""] = len(rows)
    after = len(rows) + 1
    for found in by_country.values():
        if len(found) > 1 + ("" in found and found[""] > 0):
            found["*"], after = after, after + 1
    return rows, by_country


def _address_rows(address: Objects | None, by_country: dict[str, dict[str, int]],
                  size: int) -> Ints:
    """Each call's address state's US row (-1: none), as :func:`subdivision_of` reads the
    state (``FL``, ``US-FL``, ``Fla.``, ``Florida``, any case and width), each distinct
    text once."""
    states = by_country.get("US", {})
    if address is None or "*" not in states:
        return np.full(size, -1, np.int64)
    rows = {f"US-{code}": n for code, n in states.items() if code not in ("", "*")}
    codes, distinct = pd.factorize(pd.Series(address, dtype=object))
    found = np.array([rows.get(subdivision_of(text) or "", -1) for text in distinct] + [-1],
                     np.int64)
    return found[np.where(codes >= 0, codes, len(distinct))]


def _call_rows(phones: pd.Series, by_country: dict[str, dict[str, int]],
               address: Ints) -> tuple[Ints, Ints, Ints]:
    """Each call's own law row (its country's, for a number of its territories too: a
    Puerto Rico number's is the US federal row; the strictest where a country with
    state rows knows neither the number's state nor the lead's address state; else 0),
    its number's state's (-1: none), and ``address``."""
    if not by_country:  # the preset's own window for every call
        return np.zeros(len(phones), np.int64), address, address
    where = places(phones)
    primary = np.zeros(len(where.region) + 1, np.int64)  # the last: no number
    secondary = np.full(len(where.region) + 1, -1, np.int64)
    for country, found in by_country.items():
        ours = np.flatnonzero(where.region == country)
        primary[ours] = found[""]
        held = [region for region, of in territories().items() if of == country]
        primary[np.flatnonzero(np.isin(where.region, held))] = found[""]  # no state's row
        if "*" not in found:
            continue
        states = {k: v for k, v in found.items() if k not in ("", "*")}
        state = where.state[ours]
        primary[ours[pd.isna(state)]] = found["*"]
        codes, named = pd.factorize(state)  # a few dozen states among a million numbers
        secondary[ours] = np.array([states.get(code, -1) for code in named] + [-1],
                                   np.int64)[codes]
    primary = primary[where.number]
    if "US" in by_country:  # a US number of no known state, but of a known address state
        primary = np.where((primary == by_country["US"].get("*", -2)) & (address >= 0),
                           by_country["US"][""], primary)
    return primary, secondary[where.number], address


def _law(rules: Rules, rows: list[table.Jurisdiction], by_country: dict[str, dict[str, int]],
         span: tuple[int, int]) -> Law:
    """The arrays of the policy's window, the applied rows and each country's strictest,
    with the holidays from the first to the last day of ``span`` (days since 1970; none
    known: the first after the last)."""
    policy = [(*_seconds(rules.window or table.WHOLE_DAY), False)] * 8
    windows = [policy] + [_row_windows(row) for row in rows]
    ids: list[str | None] = [None, *(row.id for row in rows)]
    names = ["", *(row.name for row in rows)]
    citations = ["", *(row.citation for row in rows)]
    cites = {kind: ["", *(row.cite(kind) for row in rows)] for kind in table.CITE_KINDS}
    campaign_only = [False, *(row.applies_to == "campaign" for row in rows)]
    members: dict[int, list[int]] = {}
    keys: list[int] = []
    holiday_names: list[str] = []
    first, last = (date.fromordinal(d + 719163) for d in (span if span[0] <= span[1]
                                                          else (0, 0)))
    found = {row.id: row.holidays_between(first, last) for row in rows}
    for n, row in enumerate(rows, start=1):
        for day, name in found[row.id].items():
            keys.append(n * _KEY + day.toordinal() - 719163)
            holiday_names.append(name)
    strictest = []

    def _strictest(at: int, ours: list[int], country: str, name: str) -> None:
        """Add row ``at``: the window every one of ``ours`` allows, and their holidays."""
        members[at] = ours
        windows.append(_intersection([windows[n] for n in ours]))
        ids.append(country)
        names.append(name)
        citations.append("each of " + ", ".join(rows[n - 1].id for n in ours))
        for kind in cites:
            cites[kind].append(citations[-1])
        for n in ours:
            for day, holiday in found[rows[n - 1].id].items():
                keys.append(at * _KEY + day.toordinal() - 719163)
                holiday_names.append(holiday)

    for country, found_rows in by_country.items():
        if "*" not in found_rows:
            continue
        ours = sorted(n for key, n in found_rows.items() if key != "*" and n > 0)
        at = found_rows["*"]
        strictest.append(at)
        _strictest(at, ours, country, f"no state is known for this number, so the "
                   f"strictest {country} row")
    agent_row = np.arange(len(windows) + sum(  # a strictest row for the agents' calls
        any(campaign_only[n] for n in ours) for ours in members.values()), dtype=np.int64)
    for at, ours in list(members.items()):
        if any(campaign_only[n] for n in ours):
            agent_row[at] = len(windows)
            strictest.append(len(windows))
            _strictest(len(windows), [n for n in ours if not campaign_only[n]],
                       str(ids[at]), names[at] + " for calls an agent places")
    campaign_only += [False] * (len(windows) - len(campaign_only))
    lifted = [False, *(row.consent_lifts_hours for row in rows)]
    lifted += [False] * (len(windows) - len(lifted))
    agent_row[np.flatnonzero(campaign_only)] = 0
    start, end, closed = (np.array([[w[i] for w in row] for row in windows], kind)
                          for i, kind in ((0, np.float64), (1, np.float64), (2, bool)))
    banned = [False, *(row.emergency_ban for row in rows)]
    banned += [False] * (len(windows) - len(banned))
    index = pd.Index(keys)
    unique = ~index.duplicated()
    flags = np.zeros(len(windows), bool)
    flags[strictest] = True
    caps = [None, *(_cap(row) for row in rows)]
    caps += [None] * (len(windows) - len(caps))  # the strictest rows: caps by state only
    return Law(rules.policy, ids, names, citations, caps, cites, members,
               np.array(campaign_only, bool), np.array(lifted, bool), agent_row, start, end,
               flags, index[unique],
               np.array(holiday_names, object)[unique], closed, np.array(banned, bool),
               bans(rules.emergencies, ids, np.array(banned, bool), members))


def _cap(row: table.Jurisdiction) -> tuple[int, int, str, str] | None:
    """A row's cap: calls, period in ms, in words, and the section that sets it."""
    if row.max_calls is None or row.cap_period is None:
        return None
    return (row.max_calls, int(row.cap_period.total_seconds() * 1000), table.cap_text(row),
            row.cite("cap"))



def cap_words(law: Law, rows: Ints, by_address: Bools) -> pd.Series:
    """The cap that decided each finding, in words: `` (Florida: 3 per 24 h (...), Fla.
    Stat. ...)``, the state's name followed by ``(the lead's address state)`` where that
    state's cap decided; `` (policy: house rules ...)`` for the policy's cap (row 0)."""
    named = np.array(law.names, object)[rows]
    named = np.where(by_address, named + " (the lead's address state)", named)
    each = np.array([f": {cap[2]}, {cap[3]})" if cap and n else "" for n, cap
                     in enumerate(law.caps)], object)[rows]
    return pd.Series(np.where(rows == 0, f" (policy: {law.policy})",
                              np.where(each == "", "", " (" + named + each)), dtype=object)


Slot = tuple[float, float, bool]
"""A day's window in seconds into the day, and whether its end itself is inside."""


def _row_windows(row: table.Jurisdiction) -> list[Slot]:
    """A row's windows, Monday to Sunday and its holidays, each with whether its end
    itself is inside (the row's ``end_included``, of a window with an end in the day)."""
    days = [row.weekday] * 5 + [row.saturday, row.sunday, row.holiday]
    return [(start, end, row.end_included and start < end < 86400.0)
            for start, end in map(_seconds, days)]


def _seconds(window: tuple[time, time] | None) -> tuple[float, float]:
    """A window as seconds into the day (no calls: 0, 0; the whole day: 0, 86400)."""
    if window is None:
        return 0.0, 0.0
    if window == table.WHOLE_DAY:
        return 0.0, 86400.0
    start, end = (t.hour * 3600 + t.minute * 60 + t.second for t in window)
    return float(start), float(end)


def _intersection(rows: list[list[Slot]]) -> list[Slot]:
    """Per slot, the window every row allows (no calls where they share none); its end
    is inside only where every row's window takes it in."""
    joined: list[Slot] = []
    for slot in zip(*rows, strict=True):
        start, end = max(w[0] for w in slot), min(w[1] for w in slot)
        closed = all(w[1] > end or w[2] for w in slot)
        joined.append((start, end, closed) if end > start else (0.0, 0.0, False))
    return joined


COUNTRIES = {**dict.fromkeys(("US", "PR", "VI", "GU", "MP", "AS"), "US"), "CA": "CA",
             "GB": "GB"}
"""The regions whose numbers the lists' table covers, by the table's country: the US
registry holds the numbers of the territories too (47 U.S.C. 153's "United States")."""



def scrub_ages(phones: pd.Series, rules: Rules) -> pd.Series:
    """How old each number's DNC check may be: its country's row's scrub age, or the
    rules' where stricter (the rules' alone for a number of another country)."""
    age = np.full(len(phones), pd.Timedelta(rules.scrub_age).to_timedelta64())
    for code in ("US", "CA", "GB"):
        own = jurisdiction(code).dnc_scrub_age
        if own is not None and own < rules.scrub_age:  # its regions' numbers alone asked
            rows, _ = regions_among(phones, [r for r, c in COUNTRIES.items() if c == code])
            age[rows] = pd.Timedelta(own).to_timedelta64()
    return pd.Series(age, index=phones.index)
