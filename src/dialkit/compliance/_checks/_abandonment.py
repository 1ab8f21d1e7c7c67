"""Abandonment: answered calls no agent joined in time, and each campaign's rate of them
over the law's successive periods, place by place (:mod:`dialkit._law._abandonment`).

47 CFR 64.1200(a)(7) and 16 CFR 310.4(b)(4)(i) measure the rate "over a 30-day period
for a single calling campaign", "separately for each successive 30-day period or
portion thereof that such calling campaign continues": the periods are counted from the
campaign's first call, not rolled up to each call. The denominator is the calls answered
by a live person: not an answering machine's (status ``voicemail``, disposition
``answering_machine``), nor an attempt no one answered (busy, no answer, failed,
cancelled), as the vocabulary reads a dialer's words (:mod:`.._inputs._words._dialer_words`). A
call whose status or disposition says it was abandoned (``DROP``, ``Abandoned``) is
abandoned, whatever its join time or the proxy says. A campaign
calling several countries is measured country by country, each by its own row; the
account's own limit (``Rules.abandonment_limit``), where set, is policy on top.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

import numpy as np
import pandas as pd

from ..._arrays._groups import Bools, Ints, Rows, by_group_and_time, group_codes
from ..._arrays._kept import hashed
from ..._law import _abandonment as table
from ..._phones._zones import regions_among
from ...contract import CallStatus
from .._inputs._vocabulary import unread
from .._inputs._words._dialer_words import ABANDONED, ANSWERING_MACHINE, CANCELED
from .._rules._rules import Rules, period_words
from ._findings import findings

WINDOW_COLUMNS = ("window_rate", "window_answered", "window_abandoned", "window_start",
                  "window_end", "window_limit", "decider", "over")
"""What :func:`abandonment_windows` tells of each abandoned call: the rate, answered and
abandoned calls of the period that judges it, the period's bounds and limit, what decides
(:func:`places`' index of the law's row, :data:`POLICY` or :data:`UNMEASURED`) and
whether the rate is over the limit."""
POLICY, UNMEASURED = -2, -1
PLACE = "place"
"""The answered calls' column of the law's row of their number (:func:`place_codes`)."""
OPENED = ("campaign_id", "created_at")
"""The columns of :func:`first_calls`: each campaign's first call."""
NOT_LIVE = {
    "status": frozenset(status.value for status in (
        CallStatus.VOICEMAIL, CallStatus.BUSY, CallStatus.NO_ANSWER, CallStatus.FAILED)
    ) | {CANCELED},
    "disposition": frozenset((ANSWERING_MACHINE, "busy", "no_answer", "failed", CANCELED))}
"""Each of :data:`TOLD_BY`'s values of an answered call no live person answered: an
answering machine took it, or it is an attempt no one answered."""
TOLD_BY = ("status", "disposition")
"""The calls' named columns that tell whether a live person answered: a call whose value of
either is not understood (:func:`._inputs._vocabulary.unread`) is held out, no live answer
(a dialer's word for a dropped call read as a conversation let 7 of 71 pass)."""
UNMEASURED_SPAN = pd.Timedelta(days=30)
"""The periods an abandoned call no law row and no policy measures is shown over."""
_MS = 10**3


def places(rules: Rules) -> tuple[table.Place, ...]:
    """The rows of the table the rules apply: those of ``rules.jurisdictions``."""
    return tuple(row for row in table.all() if row.id in rules.jurisdictions)


def policy_span(rules: Rules) -> timedelta:
    """The period the account's own limit is measured over (30 days unless it says)."""
    return rules.abandonment_window or timedelta(days=30)


def place_codes(phones: pd.Series, rules: Rules) -> Ints:
    """Each number's row among :func:`places` (-1: none applies)."""
    rows = places(rules)
    codes: Ints = np.full(len(phones), -1, np.int64)
    if not rows or not len(phones):
        return codes
    of = {region: n for n, row in enumerate(rows) for region in row.regions}
    at, numbers = regions_among(phones, of)
    distinct = hashed(phones)[0][at]
    seen = np.unique(distinct)
    region = numbers.to_numpy(object)[np.searchsorted(seen, distinct)]
    codes[at] = pd.Series(region).map(of).to_numpy(np.int64)
    return codes


def first_calls(calls: pd.DataFrame, rows: Rows | None = None) -> pd.DataFrame:
    """Each campaign's first call among ``calls`` (at ``rows``, if given) (:data:`OPENED`;
    no campaign as ``""``): where the law's successive periods are counted from. Whole
    columns; the campaigns' text is taken for their first rows only."""
    campaign = calls["campaign_id"]
    codes, ticks = group_codes(campaign, sort=True), _millis(calls["created_at"])
    if rows is not None:
        codes, ticks = codes[rows], ticks[rows]
    at = pd.Series(ticks).groupby(codes).min()
    first = _first_rows(codes)[at.index.to_numpy()]
    names = campaign.take(first if rows is None else rows[first])
    return pd.DataFrame({"campaign_id": names.fillna("").to_numpy(object),
                         "created_at": at.to_numpy()})


def abandonment_windows(answered: pd.DataFrame, rules: Rules, joined: bool,
                        opened: pd.DataFrame) -> pd.DataFrame:
    """Each abandoned call among ``answered`` (calls answered by a live person, with the
    columns of :data:`ANSWERED_COLUMNS` and :data:`PLACE`) with the period that judges it
    (:data:`WINDOW_COLUMNS`), in the order of campaign and answer time; indexed as
    ``answered`` is. ``opened``: :func:`first_calls` of every outbound call (stacked from
    parts, a campaign may have several rows). The rate needs every answered call of the
    campaign and nothing else: on Dask this runs on the answered calls shuffled by campaign.

    ``joined`` is whether the calls hold join times anywhere (:func:`has_join_times`), so
    that every part tells abandonment one way (:func:`dropped`).
    """
    campaign, flags, chosen = _measured(answered, rules, joined, opened)
    order = by_group_and_time(campaign, answered["answered_at"], np.arange(len(answered)))
    picked = order[flags[order]]
    return pd.DataFrame({name: column[picked] for name, column in zip(
        WINDOW_COLUMNS, (*chosen[:3], _times(chosen[3]), _times(chosen[4]), *chosen[5:]),
        strict=True)}, index=answered.index[picked])


def abandonment_periods(answered: pd.DataFrame, rules: Rules, joined: bool,
                        opened: pd.DataFrame) -> pd.DataFrame:
    """Every period that judges an answered call, abandoned or not, a row each: its
    ``campaign_id`` (none as ``""``), the measure that decides it (``decider``, as
    :data:`WINDOW_COLUMNS` says), and that measure's figures, as :func:`abandonment_windows`
    tells them of each abandoned call: how near each period is to its limit, for the
    monitor's gauges."""
    _, _, chosen = _measured(answered, rules, joined, opened)
    frame = pd.DataFrame({"campaign_id": answered["campaign_id"].fillna("").to_numpy(object),
                          **{name: column for name, column in zip(
                              WINDOW_COLUMNS, (*chosen[:3], _times(chosen[3]),
                                               _times(chosen[4]), *chosen[5:]), strict=True)}})
    return frame.drop_duplicates(["campaign_id", "decider", "window_start"], ignore_index=True)


def _measured(answered: pd.DataFrame, rules: Rules, joined: bool, opened: pd.DataFrame
              ) -> tuple[Ints, Bools, Measure]:
    """Each answered call's campaign code, whether it was abandoned, and the measure of
    its period that decides it (the law's, or the policy's where that finds it over)."""
    campaign = campaign_codes(answered)
    flags = dropped(answered, rules, joined)
    at = _millis(answered["answered_at"])
    start = _starts(answered, campaign, opened)
    place = answered[PLACE].to_numpy(np.int64)
    chosen = _judged(campaign, place, at, start, flags, places(rules))
    if rules.abandonment_limit is not None:
        policy = _measure(campaign, at, start, flags, _span_ms(policy_span(rules)),
                          rules.abandonment_limit, POLICY)
        chosen = _chosen(chosen, policy, place)
    return campaign, flags, chosen


def abandonment(calls: pd.DataFrame, windows: pd.DataFrame,
                rules: Rules, joined: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Abandoned calls in a period whose rate exceeds its limit, one finding each, and
    every abandoned call with its period. ``windows`` are the abandoned calls' periods
    (:func:`abandonment_windows`), indexed by their rows' positions in ``calls``;
    ``joined`` says how they were told apart, for the evidence."""
    abandoned = calls.iloc[windows.index.to_numpy()].assign(
        **{column: windows[column].array for column in WINDOW_COLUMNS[:6]})
    over = windows["over"].to_numpy(bool)
    hits = abandoned[over]
    decider = windows["decider"].to_numpy(np.int64)[over]
    rows = places(rules)
    law = _law_columns(decider, rows, rules)
    evidence = (f"abandoned ({abandonment_said(rules, joined)[1]}); the campaign abandoned "
                + hits["window_abandoned"].astype(str) + " of "
                + hits["window_answered"].astype(str) + " calls answered by a live person ("
                + (hits["window_rate"] * 100).round(1).astype(str) + "%) in its period "
                + _dates(hits["window_start"]) + " to " + _dates(hits["window_end"])
                + " (counted from the campaign's first call); limit "
                + pd.Series(_limits(decider, rows, rules), index=hits.index))
    found = findings("abandonment", hits.assign(**{k: pd.Series(v, index=hits.index)
                                                   for k, v in law.items()}),
                     evidence, window_rate=hits["window_rate"],
                     window_answered=hits["window_answered"],
                     window_abandoned=hits["window_abandoned"])
    return found, abandoned


def campaign_codes(calls: pd.DataFrame) -> Ints:
    """Each call's campaign as the rank of its id's text (no campaign as ``""``): the
    order abandoned calls are found and listed in. A column of no null is ranked by its
    own hash (kept, where the audit took it: 9 ms of 315,000 answered calls)."""
    campaign = calls["campaign_id"]
    return group_codes(campaign.fillna("") if campaign.hasnans else campaign, sort=True)


def abandonment_said(rules: Rules, joined: bool) -> tuple[str, str]:
    """How abandoned calls were told apart: in full (for the report's notes) and in short
    (for each finding's evidence)."""
    counted = ("; a call whose status or disposition says abandoned is abandoned; counted "
               "among calls answered by a live person (not an answering machine's nor an "
               "attempt no one answered), per campaign and country, over the law's "
               "successive periods from the campaign's first call")
    if joined:
        return (f"agent_joined_at: answered, and no agent joined within "
                f"{rules.agent_join_seconds:g} s{counted}", "no agent joined in time")
    return (f"proxy (the data have no agent join times): answered, no disposition, "
            f"ended within {rules.proxy_talk_seconds:g} s of the answer{counted}",
            "by the proxy")


ANSWERED_COLUMNS = ("campaign_id", "to_number", "answered_at", "agent_joined_at",
                    "ended_at", "disposition", "status")
"""The columns of the answered calls that :func:`abandonment_windows` reads (``status``
where the calls have it): the :data:`TOLD_BY` columns in both modes, which say a call was
abandoned whatever the join times or the proxy say (:func:`dropped`)."""


def live(prepared: pd.DataFrame, rows: Rows) -> Rows:
    """Which of ``rows`` of the calls were answered by a live person: answered, of no
    status or disposition that says otherwise (:data:`NOT_LIVE`: an answering machine's, an
    attempt no one answered) and of none not understood (:data:`TOLD_BY`: held out, never
    read as a live answer); read for the answered rows only."""
    answered: Rows = rows[prepared["answered_at"].notna().to_numpy()[rows]]
    out: Bools = np.zeros(len(answered), bool)
    for column in (c for c in TOLD_BY if c in prepared):  # the whole column's distinct
        out |= unread(prepared[column], "calls", column)[answered]  # values: kept
        taken = pd.Series(prepared[column].array.take(answered))
        out |= _said(taken, NOT_LIVE[column])
    return answered[~out]


def dropped(answered: pd.DataFrame, rules: Rules, joined: bool) -> Bools:
    """Which answered calls were abandoned: those whose status or disposition says so
    (:data:`ABANDONED`), and the others as the join times or the proxy tell
    (:func:`abandonment_said`)."""
    if joined:
        late = answered["agent_joined_at"] - answered["answered_at"]
        told_so = answered["agent_joined_at"].isna() | (
            late > pd.Timedelta(seconds=rules.agent_join_seconds))
    else:
        talk = answered["ended_at"] - answered["answered_at"]
        told_so = answered["disposition"].isna() & (
            talk < pd.Timedelta(seconds=rules.proxy_talk_seconds))
    flags: Bools = told_so.to_numpy(dtype=bool, copy=True)  # the proxy's may be read-only
    for column in (c for c in TOLD_BY if c in answered):
        flags |= _said(answered[column], {ABANDONED})
    return flags


def _said(values: pd.Series, words: Collection[str]) -> Bools:
    """Which of ``values`` (a named column, read by the vocabulary) is one of ``words``."""
    said: Bools = values.astype("string").isin(words).fillna(False).to_numpy(dtype=bool)
    return said


def has_join_times(answered: pd.DataFrame) -> bool:
    """Whether the answered calls hold join times. Not whether the column exists:
    ``client.frames.calls`` always has ``agent_joined_at``, null throughout when the
    service does not send it, and read as join times that would make every answered
    call one no agent joined."""
    return "agent_joined_at" in answered and bool(answered["agent_joined_at"].notna().any())


Measure = tuple[np.ndarray, ...]
"""Per answered call: rate, answered, abandoned, period start and end (ms), limit,
decider, over."""


def _judged(campaign: Ints, place: Ints, at: Ints, start: Ints, flags: Bools,
            rows: tuple[table.Place, ...]) -> Measure:
    """Each answered call measured by its place's row (a few rows: one pass each), or
    over 30-day periods with no limit where no row applies."""
    unmeasured = _measure(campaign, at, start, flags, _span_ms(UNMEASURED_SPAN), np.inf,
                          UNMEASURED)
    columns = [np.array(column, copy=True) for column in unmeasured]
    for n, row in enumerate(rows):
        mine = np.flatnonzero(place == n)
        if not len(mine):
            continue
        span = None if row.span is None else _span_ms(row.span)
        measured = _measure(campaign[mine], at[mine], start[mine], flags[mine], span,
                            row.limit, n)
        for column, values in zip(columns, measured, strict=True):
            column[mine] = values
    return tuple(columns)


def _measure(group: Ints, at: Ints, start: Ints, flags: Bools, span: int | None,
             limit: float, decider: int) -> Measure:
    """Each call's period (successive ``span`` ms from its campaign's ``start``, or the
    calendar month where ``span`` is None) and that period's counts in its ``group``."""
    if span is None:
        month = at.astype("datetime64[ms]").astype("datetime64[M]")
        period = month.astype(np.int64)
        begin = month.astype("datetime64[ms]").astype(np.int64)
        end = (month + 1).astype("datetime64[ms]").astype(np.int64)
    else:
        period = np.maximum(at - start, 0) // span
        begin = start + period * span
        end = begin + span
    _, inverse = np.unique(group * 2**24 + period, return_inverse=True)
    answered = np.bincount(inverse)[inverse]
    abandoned = np.bincount(inverse, weights=flags).astype(np.int64)[inverse]
    rate = abandoned / np.maximum(answered, 1)
    return (rate, answered, abandoned, begin, end, np.full(len(at), limit),
            np.full(len(at), decider, np.int64), rate > limit)


def _chosen(law: Measure, policy: Measure, place: Ints) -> Measure:
    """Per call, the measure that decides: the law's where it finds the rate over its
    limit, else the policy's where that does, else the law's where a row applies."""
    use_policy = ~law[7] & (policy[7] | (place < 0))
    return tuple(np.where(use_policy, p, n) for n, p in zip(law, policy, strict=True))


def _law_columns(decider: Ints, rows: tuple[table.Place, ...],
                 rules: Rules) -> dict[str, np.ndarray]:
    """The findings' law columns per deciding row (a policy row's findings are policy)."""
    pick = np.where(decider >= 0, decider, len(rows))
    of_rows = [*rows, None]
    columns: dict[str, list[str | None]] = {
        "jurisdiction": [None if r is None else r.id for r in of_rows],
        "decided_by": [None if r is None else "number" for r in of_rows],
        "basis": [("policy" if r is None or r.basis == "policy" else "law") for r in of_rows],
        "policy": [rules.policy or "own policy" if r is None else r.policy for r in of_rows],
        "citation": [None if r is None or r.basis == "policy" else r.citation
                     for r in of_rows]}
    return {name: np.array(values, object)[pick] for name, values in columns.items()}


def _limits(decider: Ints, rows: tuple[table.Place, ...], rules: Rules) -> np.ndarray:
    """The words of each finding's limit: the rate, and what sets it."""
    words = [f"{row.limit:.0%} ({row.policy if row.basis == 'policy' else row.citation})"
             + ("" if row.confirmed else "; doubtful: the rule's own text was not read, "
                "the rate is a secondary source's") for row in rows]
    policy = (f"{rules.abandonment_limit:.0%} over each {period_words(policy_span(rules))} "
              f"({rules.policy or 'own policy'})" if rules.abandonment_limit is not None else "")
    return np.array([*words, policy], object)[np.where(decider >= 0, decider, len(rows))]


def _starts(answered: pd.DataFrame, campaign: Ints, opened: pd.DataFrame) -> Ints:
    """Each answered call's campaign's first call (ms)."""
    first = opened.groupby("campaign_id", observed=True)["created_at"].min()
    if not len(campaign):
        return np.zeros(0, np.int64)
    heads = pd.Series(np.arange(len(campaign))).groupby(campaign).first()  # codes may skip
    texts = answered["campaign_id"].take(heads.to_numpy()).fillna("").to_numpy(object)
    found = first.reindex(texts).to_numpy(np.float64)
    own = pd.Series(_millis(answered["answered_at"])).groupby(campaign).min().to_numpy()
    starts: Ints = np.minimum(np.where(np.isnan(found), own, found).astype(np.int64), own)
    return starts[np.searchsorted(heads.index.to_numpy(), campaign)]


def _first_rows(codes: Ints) -> Ints:
    """Each code's first row."""
    first: Ints = np.full(codes.max(initial=-1) + 1, -1, np.int64)
    first[codes[::-1]] = np.arange(len(codes))[::-1]
    return first


def _millis(at: pd.Series) -> Ints:
    """Times as milliseconds since the epoch."""
    times = pd.DatetimeIndex(at)
    millis: Ints = times.asi8.view(f"M8[{times.unit}]").astype("M8[ms]").view(np.int64)
    return millis


def _span_ms(span: pd.Timedelta | object) -> int:
    return int(pd.Timedelta(span).total_seconds() * _MS)


def _times(millis: Ints) -> pd.DatetimeIndex:
    return pd.DatetimeIndex(millis.astype("datetime64[ms]")).tz_localize("UTC")


def _dates(times: pd.Series) -> pd.Series:
    return times.dt.strftime("%Y-%m-%d %H:%M UTC")
