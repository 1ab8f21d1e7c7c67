"""One function per rule: the findings of that rule over the audit's frames.

Each takes the outbound calls (or the leads) as prepared by :mod:`._audit`
and returns findings with the columns of :data:`COLUMNS`, plus the rule's own.
All of them work on whole columns; none loops over calls in Python.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._bools import arrow_bools
from .._places._codes import codes_in, codes_of
from .._places._kept import hashed
from .._places._localtime import wall_clock
from .._places._zones import ZONES, Zoned, regions_among, zoned
from ._law import Judged, cap_words, deciders, evidence, judge
from ._rules import ACCOUNT_RULES, SEVERITY, Rules, period_words
from ._text import WEEKDAYS, written

_DAY_MS = 24 * 3600 * 1000
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Rows = NDArray[np.intp]

COLUMNS = ("rule", "severity", "campaign_id", "call_id", "lead_id", "phone", "at",
           "local_time", "timezone", "evidence", "jurisdiction", "decided_by", "basis",
           "policy")
"""The columns every finding has, whatever its rule. ``jurisdiction`` and ``decided_by``
name the row of the law of the place called that decided (:func:`._law.deciders`); they
are missing for the findings no row decides (DNC, caller id, abandonment, ...).
``basis`` says whether law or the account's policy decides the finding, and ``policy``
names the policy (missing for law's findings)."""
_LAW = ("jurisdiction", "decided_by", "basis", "policy")
_NO_TIME = "datetime64[us, UTC]"
"""The ``at`` of a lead's finding, which has no moment: typed as the calls' times, so that
the findings' ``at`` stays a time column (``None`` made it text-like, and the report's
charts by day failed on it)."""


def findings(rule: str, rows: pd.DataFrame, evidence: pd.Series,
             **extra: pd.Series) -> pd.DataFrame:
    """Findings of ``rule`` for ``rows`` (calls or leads with the common columns; the
    law's columns text, missing where ``rows`` lack them). Where ``rows`` do not say
    their ``basis``, the rule does: the account's own settings' rules
    (:data:`._rules.ACCOUNT_RULES`) are policy, the others (Do-Not-Call, abandonment)
    law."""
    if "basis" not in rows:
        rows = rows.assign(basis="policy" if rule in ACCOUNT_RULES else "law",
                           policy=ACCOUNT_RULES.get(rule))
    frame = pd.DataFrame({
        "rule": rule, "severity": SEVERITY[rule],
        "campaign_id": rows.get("campaign_id"), "call_id": rows.get("call_id"),
        "lead_id": rows.get("lead_id"), "phone": rows.get("phone"),
        "at": rows["at"] if "at" in rows else pd.Series(pd.NaT, index=rows.index, dtype=_NO_TIME),
        "local_time": rows.get("local_time"), "timezone": rows.get("timezone"),
        "evidence": evidence, **{column: pd.Series(rows.get(column), index=rows.index,
                                                   dtype="str") for column in _LAW},
        **extra}, index=rows.index)
    return frame


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


def clock(calls: pd.DataFrame, rules: Rules,
          address: NDArray[np.object_] | None = None) -> Clock:
    """The calls' local times in every zone of their numbers, against the law of the place
    called (:mod:`._law`; ``rules.window`` where the preset applies no row): where the
    number is and, where given, each call's lead's ``address`` state."""
    pairs = zoned(calls["phone"])
    local = wall_clock(calls["at"], pairs)
    judged = judge(calls["phone"], pairs.row, local, rules, address)
    outside = np.flatnonzero(judged.outside)
    first = outside[np.r_[True, np.diff(pairs.row[outside]) > 0]] if len(outside) else outside
    count = np.bincount(pairs.row, minlength=len(calls))
    named = np.where(count > 0, np.cumsum(count) - count, -1)
    named[pairs.row[first]] = first
    return Clock(pairs, local, first, named, judged)


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
            judged.law, judged.decided[first], judged.by_address[first]).items()})
    rule = pd.Series(evidence(judged, first).to_numpy(object), index=hits.index)
    lawful = judged.decided[first] > 0
    shown = hits["local_time"].str[11:16] + " " + hits["timezone"]
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


def call_frequency(calls: pd.DataFrame, rules: Rules, times: Clock) -> pd.DataFrame:
    """Calls that are at least the (cap + 1)th to their number in the cap's period up to and
    including them (a call exactly one period before does not count). The caps of the law
    of the place called (a state's) are counted first, and named where they decide; then
    the policy's (``max_calls_per_24h``), for the calls the law allows. Only the calls of
    numbers called more than a 24-hour cap in some two days are sorted and counted."""
    number = _groups(calls["phone"])
    millis = _millis(calls["at"])
    over = np.zeros(len(calls), bool)
    count = np.zeros(len(calls), np.int64)
    decided = np.zeros(len(calls), np.int64)
    by_address = np.zeros(len(calls), bool)
    for period, cap, row, address in _caps(len(calls), rules, times.judged):
        if not (cap < _NO_CAP).any():
            continue
        least = int(cap.min()) if len(cap) else 0
        rows = (_crowded(number, millis, least) if period == _DAY_MS
                and not calls["at"].isna().any() else np.arange(len(calls)))
        order = _sorted(number, calls["at"], rows)
        counts = np.arange(len(order)) - _window_starts(number[order], millis[order], period) + 1
        flag = (counts > cap[order]) & ~over[order]
        hit = order[flag]
        over[hit], decided[hit], count[hit] = True, row[hit], counts[flag]
        by_address[hit] = address[hit]
    at = np.flatnonzero(over)
    law = times.judged.law
    hits = calls.iloc[at].assign(
        calls_in_24h=count[at], cap=cap_words(law, decided[at], by_address[at]).to_numpy(
            object), limit=_limits(rules, times.judged, decided[at]),
        **deciders(law, decided[at], by_address[at])).sort_values(["phone", "at"],
                                                                  kind="stable")
    evidence = (hits["calls_in_24h"].astype(str) + " outbound calls to the number in the 24 "
                "hours up to this one; at most " + hits["limit"] + " allowed" + hits["cap"])
    return findings("call_frequency", hits, evidence, calls_in_24h=hits["calls_in_24h"])


def _caps(size: int, rules: Rules, judged: Judged) -> list[tuple[int, Ints, Ints, Bools]]:
    """Per period, the law's first and then the policy's: each call's cap in it
    (:data:`_NO_CAP`: none), the law row that sets it (0: the policy's) and whether that
    row is the lead's address state's. Of the number's state and the address's, the
    stricter decides, the number's where both are as strict (as for calling hours)."""
    periods: dict[int, tuple[Ints, Ints, Bools]] = {}
    country, number, address = judged.own
    for own, is_address in ((country, False), (address, True), (number, False)):
        for n, cap in ((n, cap) for n, cap in enumerate(judged.law.caps) if cap is not None):
            rows = np.flatnonzero(own == n)  # 2 ms a row of the law: only those with a cap
            if not len(rows):
                continue
            limit, source, by_address = periods.setdefault(cap[1], (
                np.full(size, _NO_CAP), np.zeros(size, np.int64), np.zeros(size, bool)))
            stricter = rows[cap[0] <= limit[rows]]
            limit[stricter], source[stricter], by_address[stricter] = cap[0], n, is_address
    found = [(period, *caps) for period, caps in periods.items()]
    if rules.max_calls_per_24h is not None:
        found.append((_DAY_MS, np.full(size, rules.max_calls_per_24h, np.int64),
                      np.zeros(size, np.int64), np.zeros(size, bool)))
    return found


_NO_CAP = np.iinfo(np.int64).max
"""A call's cap where no rule sets one."""


def _limits(rules: Rules, judged: Judged, rows: Ints) -> pd.Series:
    caps = np.array([rules.max_calls_per_24h or 0] + [cap[0] if cap else 0 for cap in
                                                     judged.law.caps[1:]], np.int64)
    return pd.Series(caps[rows]).astype(str).to_numpy(object)


def _crowded(group: Ints, millis: Ints, limit: int) -> Rows:
    """The rows of the groups with more than ``limit`` rows in some two consecutive days
    (counted from the first moment): any 24 hours lie within two such days. A (group,
    day) key's next day, where any row has it, is the next distinct key: compared with
    its neighbour, not looked up (a ``searchsorted`` of 840,000 keys took 25 ms); keys
    that fit are sorted as 32-bit integers (9 ms against 19 ms, 900,000 calls)."""
    if not len(group):
        return np.zeros(0, np.intp)
    day = millis // _DAY_MS
    width = int(day.max()) + 2  # a group's last day + 1 is no other group's day
    key = group * width + day
    narrow = int(group.max()) < np.iinfo(np.int32).max // width
    keys, per_key = np.unique(key.astype(np.int32) if narrow else key, return_counts=True)
    follows = np.r_[keys[1:] == keys[:-1] + 1, False]
    busy = per_key + np.where(follows, np.r_[per_key[1:], 0], 0) > limit
    crowded = np.zeros(int(group.max()) + 1, bool)
    crowded[keys[busy] // width] = True
    rows: Rows = np.flatnonzero(crowded[group])
    return rows


def _groups(column: pd.Series, *, sort: bool = False) -> Ints:
    """Each row's group: the rank of its value among the column's distinct values (as first
    seen, or sorted as its text sorts), nulls one group after all others."""
    codes = codes_of(column, sort=sort)
    return np.where(codes < 0, codes.max(initial=-1) + 1, codes)


def _sorted(group: Ints, at: pd.Series, rows: Rows) -> Rows:
    """``rows`` sorted by group, then ``at``, stably: as numbers, where a frame's
    ``sort_values`` on the text costs half a second a million rows; by time, then stably
    by group, a radix sort for groups that fit 16 bits (half the time of a ``lexsort``)."""
    by_time = rows[np.argsort(pd.DatetimeIndex(at).asi8[rows], kind="stable")]
    keys = group[by_time]
    narrow = len(keys) > 0 and keys.min() >= 0 and keys.max() < 2**15
    order: Rows = by_time[np.argsort(keys.astype(np.int16) if narrow else keys, kind="stable")]
    return order


def _millis(at: pd.Series) -> Ints:
    """Milliseconds since the first of ``at``, rounded down: in integers (0.03 s on a
    million calls), where a null time is not (its value then is as a float made it)."""
    times = pd.DatetimeIndex(at)
    if times.hasnans:
        millis: Ints = ((at - at.min()).dt.total_seconds().to_numpy() * 1000).astype(np.int64)
        return millis
    ticks = times.asi8
    since = (ticks - (ticks.min() if len(ticks) else 0)).view(f"m8[{times.unit}]")
    whole: Ints = since // np.timedelta64(1, "ms")
    return whole


def _window_starts(group: Ints, millis: Ints, span: int) -> Ints:
    """For rows sorted by group and time: the first row of each one's group less than
    ``span`` ms before it. One sorted key, the group in the high digits and the time's
    milliseconds in the low 12 (31 years): a window never reaches into another group."""
    key = group * 10**12 + millis
    starts: Ints = np.searchsorted(key, key - span, side="right")
    return starts


def dnc_call(calls: pd.DataFrame, dnc: pd.DataFrame) -> pd.DataFrame:
    """Calls to a listed number placed after it was listed; where the listing date is
    unknown, every call to it, saying so."""
    listed = dnc.loc[dnc["listed"].fillna(False).astype(bool)]
    since = listed.set_index("phone")["listed_at"] if "listed_at" in listed else pd.Series(
        pd.NaT, index=listed["phone"], dtype="datetime64[ns, UTC]")
    asked = calls.loc[_isin(calls["disposition"], ["do_not_call"]),  # by the kept hash
                      ["phone", "ended_at"]].groupby("phone")["ended_at"].min()
    if len(asked):  # the earlier of the listing and the first do_not_call, where either is
        dated = [times for times in (since.dropna(), asked) if len(times)]
        since = pd.concat(dated).groupby(level=0).min()
    rows = np.flatnonzero(_isin(calls["phone"], listed["phone"]))
    to_listed = calls.iloc[rows].assign(  # not map: it fails on an empty mapping
        listed_at=lambda c: since.reindex(c["phone"]).array)
    dated = to_listed["listed_at"].notna()
    hits = to_listed[~dated | (to_listed["at"] > to_listed["listed_at"])]
    evidence = pd.Series(np.where(
        hits["listed_at"].notna(),
        "called after the number was listed on "
        + written(hits["listed_at"]),
        "the number is on the DNC list; the date it was listed is unknown, so this call "
        "may have been placed before"), index=hits.index)
    return findings("dnc_call", hits, evidence, listed_at=hits["listed_at"])


def dnc_lead(leads: pd.DataFrame, dnc: pd.DataFrame) -> pd.DataFrame:
    """Leads whose number is listed while their status still lets them be dialled."""
    listed = dnc.loc[dnc["listed"].fillna(False).astype(bool), "phone"]
    dialable = ~leads["status"].isin(["dnc", "completed"]).to_numpy(dtype=bool)
    hits = _read(leads).iloc[np.flatnonzero(_isin(leads["phone"], listed) & dialable)]
    evidence = "the number is on the DNC list but the lead is " + hits["status"].astype(str)
    return findings("dnc_lead", hits, evidence)


def unscreened_lead(leads: pd.DataFrame, dnc: pd.DataFrame, rules: Rules,
                    as_of: pd.Timestamp) -> pd.DataFrame:
    """Leads with no DNC check of their number, or one older than the scrub age."""
    last = _last_checks(leads["phone"], dnc)
    stale = last.isna() | (last < as_of - rules.scrub_age)
    hits = _read(leads)[stale & ~leads["status"].isin(["dnc", "completed"])]
    when = last[hits.index]
    evidence = pd.Series(np.where(
        when.isna(), "no DNC check of the number",
        "last DNC check " + written(when, "D")
        + f", more than {rules.scrub_age.days} days before the audit"), index=hits.index)
    return findings("unscreened_lead", hits, evidence, checked_at=when)


def _read(leads: pd.DataFrame) -> pd.DataFrame:
    """The leads' columns a finding of a lead reads (:func:`findings`; ``status`` for the
    evidence): of 200,000 leads, taking a few rows of all their columns (names, emails,
    custom fields) took 15 ms of joining each text column's chunks."""
    return leads[[c for c in leads.columns if c in (*COLUMNS, "status")]]


def _last_checks(phones: pd.Series, dnc: pd.DataFrame) -> pd.Series:
    """The latest ``checked_at`` of each of ``phones`` in ``dnc`` (``NaT``: never checked),
    grouped by integer codes of the numbers: a group-by on their text and a ``map`` took
    0.1 s for 200,000 leads. A null number has no check."""
    codes = codes_in(phones, dnc["phone"])
    lead_codes, dnc_codes = codes[:len(phones)], codes[len(phones):]
    checked = dnc["checked_at"].reset_index(drop=True)
    known = dnc["phone"].notna().to_numpy()
    latest = checked[known].groupby(dnc_codes[known]).max()
    found = latest.reindex(np.where(phones.notna().to_numpy(), lead_codes, -1))
    return pd.Series(found.array, index=phones.index, name=phones.name)


def blocked_country(calls: pd.DataFrame, blocked: Collection[str]) -> pd.DataFrame:
    """Calls to a number of a blocked country."""
    if not blocked:
        return findings("blocked_country", calls.iloc[:0], pd.Series(dtype=str))
    rows, numbers = regions_among(calls["phone"], blocked)
    hits = calls.iloc[rows]
    country = hits["phone"].map(numbers)
    return findings("blocked_country", hits,
                    "called a number in " + country.astype(str) + ", a blocked country",
                    country=country)


def unverified_caller_id(calls: pd.DataFrame, verified: Collection[str]) -> pd.DataFrame:
    """Calls whose caller id is not one of the account's verified numbers."""
    hits = calls.iloc[np.flatnonzero(~_isin(calls["from_number"], list(verified)))]
    return findings("unverified_caller_id", hits,
                    "caller id " + hits["from_number"].astype(str) + " is not verified",
                    from_number=hits["from_number"])


def _isin(column: pd.Series, values: pd.Series | pd.Index | list[str]) -> Bools:
    """``column.isin(values)``; an Arrow text column by its distinct texts (its hash,
    :func:`hashed`, kept where the audit took the column: a ``pyarrow`` ``is_in`` of the
    185,000 distinct numbers and a gather, 8 ms, where one of 900,000 calls took 25 ms);
    pandas would first make an Arrow scalar of each value (50 ms for 10,000 numbers)."""
    dtype = column.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow":
        try:
            wanted = pa.array(values, pa.large_string(), from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            pass  # not all text: as pandas does it
        else:
            codes, distinct = hashed(column)
            among = arrow_bools(pc.is_in(distinct, value_set=wanted.cast(distinct.type)))
            found: Bools = np.r_[among, wanted.null_count > 0][codes]  # a null: -1, the last
            return found
    among_values: Bools = column.isin(values).to_numpy(dtype=bool)
    return among_values


WINDOW_COLUMNS = ("window_rate", "window_answered", "window_abandoned", "opening")
"""What :func:`abandonment_windows` tells of each abandoned call: its campaign's rate over
its window, the answered and abandoned calls in it, and whether it is the opening one."""


def abandonment_windows(answered: pd.DataFrame, rules: Rules,
                        joined: bool) -> pd.DataFrame:
    """Each abandoned call among ``answered`` (calls with an answer time; the columns of
    :data:`ANSWERED_COLUMNS`) with its window (:data:`WINDOW_COLUMNS`), in the order of
    campaign and answer time (the calls' own order among equal times); indexed as
    ``answered`` is. The rate needs every answered call of the campaign, and nothing else:
    on Dask this runs on the answered calls shuffled by campaign.

    ``joined`` is whether the calls hold join times anywhere (:func:`has_join_times` of
    them all), so that every part of a campaign's calls tells abandonment one way. With
    join times, a call is abandoned when it was answered and no agent joined within
    ``agent_join_seconds``; without them, when it was answered, got no disposition, and
    ended within ``proxy_talk_seconds`` of the answer.
    """
    campaign = campaign_codes(answered)
    order = _sorted(campaign, answered["answered_at"], np.arange(len(answered)))
    flags = dropped(answered, rules, joined)[order]  # the calls' columns are not reordered:
    first, last, opening = _abandonment_windows(  # 30 ms of 315,000 answered calls
        campaign[order], _millis(answered["answered_at"])[order],
        int(rules.abandonment_window.total_seconds() * 1000))
    total = last - first + 1
    dropped_so_far = np.r_[0, np.cumsum(flags)]
    in_window = dropped_so_far[last + 1] - dropped_so_far[first]
    rate = np.divide(in_window, total, out=np.zeros(len(total)), where=total > 0)
    return pd.DataFrame({"window_rate": rate[flags], "window_answered": total[flags],
                         "window_abandoned": in_window[flags], "opening": opening[flags]},
                        index=answered.index[order[flags]])


def campaign_codes(calls: pd.DataFrame) -> Ints:
    """Each call's campaign as the rank of its id's text (no campaign as ``""``): the
    order abandoned calls are found and listed in. A column of no null is ranked by its
    own hash (kept, where the audit took it: 9 ms of 315,000 answered calls)."""
    campaign = calls["campaign_id"]
    return _groups(campaign.fillna("") if campaign.hasnans else campaign, sort=True)


def abandonment(calls: pd.DataFrame, windows: pd.DataFrame,
                rules: Rules, joined: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Abandoned calls in campaigns whose abandonment rate over the rolling window
    exceeds the limit; also every abandoned call. ``windows`` are the abandoned calls'
    windows (:func:`abandonment_windows`), indexed by their rows' positions in ``calls``;
    ``joined`` says how they were told apart, for the evidence.
    """
    abandoned = calls.iloc[windows.index.to_numpy()].assign(
        **{column: windows[column].to_numpy() for column in WINDOW_COLUMNS[:3]})
    over = (abandoned["window_rate"] > rules.abandonment_limit).to_numpy()
    hits = abandoned[over]
    span = period_words(rules.abandonment_window)
    period = np.where(windows["opening"].to_numpy()[over], f"in the campaign's first {span}",
                      f"in the {span} up to this call")
    evidence = (f"abandoned ({told(rules, joined)[1]}); the campaign abandoned "
                + hits["window_abandoned"].astype(str) + " of "
                + hits["window_answered"].astype(str) + " answered calls ("
                + (hits["window_rate"] * 100).round(1).astype(str) + "%) "
                + pd.Series(period, index=hits.index) + f"; limit {rules.abandonment_limit:.0%}")
    found = findings("abandonment", hits, evidence, window_rate=hits["window_rate"],
                     window_answered=hits["window_answered"],
                     window_abandoned=hits["window_abandoned"])
    return found, abandoned


def told(rules: Rules, joined: bool) -> tuple[str, str]:
    """How abandoned calls were told apart: in full (for the report's notes) and in short
    (for each finding's evidence)."""
    if joined:
        return (f"agent_joined_at: answered, and no agent joined within "
                f"{rules.agent_join_seconds:g} s", "no agent joined in time")
    return (f"proxy (the data have no agent join times): answered, no disposition, "
            f"ended within {rules.proxy_talk_seconds:g} s of the answer", "by the proxy")


ANSWERED_COLUMNS = ("campaign_id", "answered_at", "agent_joined_at", "ended_at", "disposition")
"""The columns of the answered calls that :func:`abandonment_windows` reads."""


def _abandonment_windows(group: Ints, millis: Ints, span: int) -> tuple[Ints, Ints, Bools]:
    """For answered calls sorted by campaign and time: each one's window, its first and
    last row, and whether it is the campaign's opening window.

    A call ``span`` or more after its campaign's first answered call is judged over the
    ``span`` up to it. One sooner is judged over the campaign's first ``span`` (its whole
    length if shorter), as the TSR measures a campaign shorter than its period: over
    the few calls before it, the first abandoned call of a campaign would be 100%.
    """
    key = group * 10**12 + millis  # the campaign in the high digits: windows stay inside it
    heads = np.r_[0, np.flatnonzero(np.diff(group)) + 1] if len(key) else np.zeros(0, np.int64)
    head = np.repeat(heads, np.diff(np.r_[heads, len(key)]))
    opening = key < key[head] + span
    first = np.where(opening, head, np.searchsorted(key, key - span, side="right"))
    last = np.where(opening, np.searchsorted(key, key[head] + span, side="left") - 1,
                    np.arange(len(key)))
    return first, last, opening


def dropped(answered: pd.DataFrame, rules: Rules, joined: bool) -> Bools:
    """Which answered calls were abandoned, told as :func:`told` says."""
    if joined:
        late = answered["agent_joined_at"] - answered["answered_at"]
        told_so = answered["agent_joined_at"].isna() | (
            late > pd.Timedelta(seconds=rules.agent_join_seconds))
    else:
        talk = answered["ended_at"] - answered["answered_at"]
        told_so = answered["disposition"].isna() & (
            talk < pd.Timedelta(seconds=rules.proxy_talk_seconds))
    flags: Bools = told_so.to_numpy(dtype=bool)
    return flags


def has_join_times(answered: pd.DataFrame) -> bool:
    """Whether the answered calls hold join times. Not whether the column exists:
    ``client.frames.calls`` always has ``agent_joined_at``, null throughout when the
    service does not send it, and read as join times that would make every answered
    call one no agent joined."""
    return "agent_joined_at" in answered and bool(answered["agent_joined_at"].notna().any())
