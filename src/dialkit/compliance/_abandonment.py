"""Abandonment: answered calls no agent joined in time, and each campaign's rate of them
over its period."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._findings import Bools, Ints, by_group_and_time, findings, group_codes, millis_since_first
from ._rules import Rules, period_words

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
    order = by_group_and_time(campaign, answered["answered_at"], np.arange(len(answered)))
    flags = dropped(answered, rules, joined)[order]  # the calls' columns are not reordered:
    first, last, opening = _abandonment_windows(  # 30 ms of 315,000 answered calls
        campaign[order], millis_since_first(answered["answered_at"])[order],
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
    return group_codes(campaign.fillna("") if campaign.hasnans else campaign, sort=True)


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
