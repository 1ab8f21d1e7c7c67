"""Calling hours: each outbound call in its recipient's time, in every zone of its
number, judged by the law of the place called (:mod:`.._rules._place_law`): its windows, its Sunday
and holiday bans, and its ban during a state of emergency declared there (the rules'
:attr:`~.._rules._rules.Rules.emergencies`), judged at the call's moment.

The declared states of emergency an audit is given (``emergencies=``) are read with the
other inputs (:mod:`.._inputs._prepared`) into the rules'
:class:`.._rules._emergencies.Emergency` values, which every judge of a call then reads
from the rules: the audit on pandas and on Dask, ``next_allowed``, ``upcoming`` and the
client's guard. Without the frame an emergency cannot be judged: a report
whose calls reached a state whose law bans them during one says so in its notes
(:func:`emergency_note`), naming the states, rather than passing those calls as if no
emergency had been declared."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..._arrays._groups import Bools, Ints, Rows
from ..._law import _jurisdictions as table
from ..._phones._zones import ZONES, Zoned, zoned
from ..._places._localtime import wall_clock
from .._inputs._options import spelled
from .._inputs._prepared import FRAME
from .._rules._address_clock import address_zones
from .._rules._place_law import Judged, closed_ends, deciders, evidence, hours_cites, judge
from .._rules._rules import Rules
from ._findings import WEEKDAYS, findings, written


@dataclass(frozen=True)
class Clock:
    """Each outbound call in its recipient's time: the (call, zone) ``pairs`` of its number,
    the wall-clock time of each pair (``local``), the first pair of each call outside the
    calling window of the law of the place called (``outside``; ``judged``: which rule
    decided), and the pair each call's findings name (``named``: that first pair outside,
    else the number's first zone; -1 where no zone is known)."""

    pairs: Zoned
    local: NDArray[np.datetime64]
    outside: Rows
    named: Ints
    judged: Judged


def clock(calls: pd.DataFrame, rules: Rules, address: NDArray[np.object_] | None = None,
          consented: NDArray[np.bool_] | None = None) -> Clock:
    """The calls' local times in every zone of their numbers, against the law of the place
    called (:mod:`.._rules._place_law`; ``rules.window`` where the preset applies no row): where the
    number is and, where given, each call's lead's ``address`` state. A row for campaign
    calls only judges the calls with a ``campaign_id`` (:func:`campaign_calls`); a row
    whose words bind calls made without consent does not judge the ``consented`` ones
    (:func:`._consent.lifting`); a row whose law forbids calls during a declared emergency
    judges each call at its moment against the emergencies the rules carry."""
    pairs = zoned(calls["phone"])
    clocks = None
    if address is not None and rules.jurisdictions:  # the address state on its own clock
        pairs, *judges = address_zones(calls["phone"], pairs, rules, address)
        clocks = (judges[0], judges[1])
    local = wall_clock(calls["at"], pairs)
    judged = judge(calls["phone"], pairs.row, local, rules, address, campaign_calls(calls),
                   clocks, consented, pd.DatetimeIndex(calls["at"]).as_unit("ns").asi8)
    outside = np.flatnonzero(judged.outside)
    first = outside[np.r_[True, np.diff(pairs.row[outside]) > 0]] if len(outside) else outside
    count = np.bincount(pairs.row, minlength=len(calls))
    named = np.where(count > 0, np.cumsum(count) - count, -1)
    named[pairs.row[first]] = first
    return Clock(pairs, local, first, named, judged)


def campaign_calls(calls: pd.DataFrame) -> NDArray[np.bool_] | None:
    """Which calls the dialer placed: those with a ``campaign_id`` (not null, not blank);
    one without is an agent's click-to-call. None where the frame has no such column
    (every row then applies: the stricter reading)."""
    if "campaign_id" not in calls:
        return None
    codes, named = pd.factorize(calls["campaign_id"])  # a few dozen campaigns
    blank = np.array([not str(name).strip() for name in named] + [True], bool)
    placed: NDArray[np.bool_] = ~blank[codes]  # a missing id's code, -1: the last
    return placed


def calling_hours(calls: pd.DataFrame, times: Clock) -> tuple[pd.DataFrame, ...]:
    """Calls outside the window of the law of the place called in any of their number's
    zones (the first such zone is named, with the rule that decided); of those, calls to
    a number of no known state, judged by the strictest row (``unknown_jurisdiction``);
    calls to numbers of no known zone (``unknown_timezone``)."""
    pairs, local, first = times.pairs, times.local, times.outside
    hits = calls.iloc[pairs.row[first]]
    judged = times.judged
    hits = hits.assign(
        local_time=pd.Series(written(local[first]), index=hits.index, dtype="str"),
        timezone=pd.Series(np.array(ZONES, object)[pairs.zone[first]], index=hits.index),
        **{column: pd.Series(values, index=hits.index) for column, values in deciders(
            judged.law, judged.decided[first], judged.by_address[first],
            hours_cites(judged, first)).items()})
    rule = pd.Series(evidence(judged, first).to_numpy(object), index=hits.index)
    lawful = judged.decided[first] > 0
    shown = _clock_shown(hits["local_time"], local[first], closed_ends(judged, first)) + (
        " " + hits["timezone"])
    weekday = pd.Series(WEEKDAYS[(judged.days[first] + 3) % 7], index=hits.index,
                        dtype="str")  # 1970-01-01 was a Thursday
    said = pd.Series(np.where(lawful, "called " + weekday + shown + " (" + rule + ")",
                              "called " + weekday + shown + " (policy: " + judged.law.policy
                              + ", " + rule + ")"), index=hits.index)
    unknown_state = judged.law.strictest[judged.decided[first]]
    unknown = calls.iloc[pairs.unknown].assign(local_time=None, timezone=None)
    if len(judged.law.ids) == 1:  # no row of law applies: the policy's window could not
        unknown = unknown.assign(basis="policy", policy=judged.law.policy)  # be checked
    return (findings("calling_hours", hits[~unknown_state], said[~unknown_state]),
            findings("unknown_jurisdiction", hits[unknown_state], said[unknown_state]),
            findings("unknown_timezone", unknown,
                     pd.Series("no time zone is known for this number, so the local time "
                               "of the call cannot be checked", index=unknown.index)))


def _clock_shown(written_at: pd.Series, local: NDArray[np.datetime64],
                 ends: NDArray[np.float64]) -> pd.Series:
    """Each call's local time as its evidence says it: ``20:30``, to the minute, but to
    the second (``20:00:30``) in the minute of a window's end that is itself allowed
    (``ends``, seconds into the day; NaN: none), where the minute does not tell a call
    at 20:00:00 sharp, lawful, from one after it."""
    into = (local - local.astype("datetime64[D]")) / np.timedelta64(1, "s")
    edge = (into >= ends) & (into < ends + 60)
    return pd.Series(np.where(edge, written_at.str[11:19], written_at.str[11:16]),
                     index=written_at.index, dtype=object)


def located(found: pd.DataFrame, times: Clock) -> pd.DataFrame:
    """Findings of calls (indexed by the call's position among the outbound calls) with
    ``local_time`` and ``timezone`` as a calling-hours finding shows them: the call's
    wall-clock time in the zone its findings name; ``None`` where no zone is known."""
    pair = times.named[found.index.to_numpy()]
    known = pair >= 0
    shown = np.full(len(found), None, object), np.full(len(found), None, object)
    shown[0][known] = written(times.local[pair[known]])
    shown[1][known] = np.array(ZONES, object)[times.pairs.zone[pair[known]]]
    return found.assign(**{name: pd.Series(values, index=found.index, dtype=object)
                           for name, values in zip(("local_time", "timezone"), shown,
                                                   strict=True)})




def allows(phones: NDArray[np.object_], at: NDArray[np.datetime64], rules: Rules,
           address: NDArray[np.object_] | None = None,
           consented: NDArray[np.bool_] | None = None) -> NDArray[np.bool_]:
    """Whether the hours of the place called allow a call to each number at its moment,
    in every zone (a number of no known zone is not refused here: it has no moments to
    ask about); ``consented``, as :func:`clock` takes it."""
    times = clock(pd.DataFrame({"phone": phones, "at": at}), rules, address, consented)
    refused = np.zeros(len(phones), bool)
    refused[times.pairs.row[times.outside]] = True
    return ~refused


def banned_states(times: Clock, inside: Bools | None = None) -> frozenset[str]:
    """The states whose law bans calls during a declared emergency (``emergency_ban``)
    that the calls reached (``inside``: those reported; None: every call), by each call's
    number's state and lead's address state, as the hours judge them."""
    law, own = times.judged.law, times.judged.own
    reached = np.r_[own[1], own[2]] if inside is None else np.r_[own[1][inside],
                                                                  own[2][inside]]
    return frozenset(str(law.ids[n]) for n in np.unique(reached[reached >= 0])
                     if law.banned[n])


def emergency_note(rules: Rules, reached: frozenset[str]) -> dict[str, str]:
    """The report's note on declared emergencies: where none were given and the calls
    reached a state whose law bans calls during one, that they were not judged, naming
    the states; where some were given for a state whose law bans none, that they forbid
    nothing there; nothing otherwise."""
    if rules.emergencies is None:
        if not reached:
            return {}
        return {FRAME: f"not judged: calls reached {_named(reached)}, whose law forbids "
                       "telephone solicitation during a declared state of emergency, and no "
                       f"declared emergencies were given: pass {spelled(FRAME)}"}
    idle = sorted({each.area for each in rules.emergencies} - _banning(rules))
    if not idle:
        return {}
    return {FRAME: f"{', '.join(idle)}: no row of the law applied forbids calls there during "
                   "a declared emergency, so the emergencies given there forbid nothing"}


def _banning(rules: Rules) -> set[str]:
    """The states whose row the ``rules`` apply (confirmed, of their countries, a state's
    where they apply states') bans calls during a declared emergency."""
    return {row.id for row in table.all() if row.emergency_ban and row.confirmed
            and row.country in rules.jurisdictions and (rules.states or not row.subdivision)}


def _named(states: frozenset[str]) -> str:
    return " and ".join(f"{table.get(state).name} ({state})" for state in sorted(states))
