"""Call frequency: the caps of the law of the place called and of the account's policy,
counted over each cap's period."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ..._arrays._groups import Bools, Ints, Rows, by_group_and_time, group_codes, millis_since_first
from .._rules._place_law import Judged, Objects, cap_words, deciders
from .._rules._rules import Rules
from ._findings import findings
from ._hours import Clock
from ._lead_of import lead_rows, other_numbers, own_numbers, people

_DAY_MS = 24 * 3600 * 1000


SUBJECT = "subject"
"""The calls' optional column of each call's subject matter, where the account keeps one
(a product, an offer); without it a call's subject is its campaign."""


def call_frequency(calls: pd.DataFrame, rules: Rules, times: Clock,
                   others: pd.DataFrame | None = None,
                   ids: Callable[[Rows], NDArray[np.object_]] | None = None) -> pd.DataFrame:
    """Calls that are at least the (cap + 1)th in the cap's period up to and including them
    (a call exactly one period before does not count). The law's caps (a state's) count
    what their statutes count, calls "to a person ... on the same subject matter or issue,
    regardless of the phone number used" (Fla. Stat. 501.616(6)(b)): per person (a lead's
    calls to any of its numbers, ``others``: :func:`._lead_of.other_numbers`; the number
    where no lead names others) and subject (:data:`SUBJECT`, else the campaign), from any
    caller id; they are counted first and named where they decide. Then the policy's
    (``max_calls_per_24h``), per number as the policy says, for the calls the law allows.
    Only the calls of groups with more than a 24-hour cap in some two days are sorted;
    calls of one group at one instant by their ``ids`` (the ids of calls at given rows),
    so that the one over the cap is the same in any order of the rows."""
    number = group_codes(calls["phone"])
    person, moved = people(calls, others) if others is not None and len(others) else (
        number, np.zeros(0, np.intp))
    subject = group_codes(_subjects(calls) if SUBJECT in calls else calls["campaign_id"])
    millis = millis_since_first(calls["at"])
    over = np.zeros(len(calls), bool)
    count = np.zeros(len(calls), np.int64)
    decided = np.zeros(len(calls), np.int64)
    by_address = np.zeros(len(calls), bool)
    for period, cap, row, address, law in _caps(len(calls), rules, times.judged):
        if not (cap < _NO_CAP).any():
            continue
        least = int(cap.min()) if len(cap) else 0
        coarse = person if law else number
        rows = (_crowded(coarse, millis, least) if period == _DAY_MS
                and not calls["at"].isna().any() else np.arange(len(calls)))
        group = _person_and_subject(person, subject, rows) if law else number
        order = by_group_and_time(group, calls["at"], rows, ties=ids)
        counts = np.arange(len(order)) - _window_starts(group[order], millis[order], period) + 1
        flag = (counts > cap[order]) & ~over[order]
        hit = order[flag]
        over[hit], decided[hit], count[hit] = True, row[hit], counts[flag]
        by_address[hit] = address[hit]
    at = np.flatnonzero(over)
    law_rows = times.judged.law
    other = np.zeros(len(calls), bool)
    other[moved] = True
    hits = calls.iloc[at].assign(
        calls_in_24h=count[at], cap=cap_words(law_rows, decided[at], by_address[at]).to_numpy(
            object), limit=_limits(rules, times.judged, decided[at]), other=other[at],
        **deciders(law_rows, decided[at], by_address[at])).sort_values(["phone", "at"],
                                                                       kind="stable")
    return findings("call_frequency", hits, _evidence(hits, others is not None),
                    calls_in_24h=hits["calls_in_24h"])


def with_subjects(calls: pd.DataFrame, leads: pd.DataFrame | None, lead: Rows | None,
                  others: pd.DataFrame | None) -> pd.DataFrame:
    """The calls with the :data:`SUBJECT` of their leads, where the leads keep one and the
    calls do not (``lead``: each call's lead, where :func:`._lead_of.addresses` found
    them already; a call to a number no lead has as its own, but a person's, ``others``,
    is the lead's whose number stands for the person); a call of no lead, or a lead of
    no subject, keeps its campaign's."""
    if leads is None or SUBJECT not in leads or SUBJECT in calls:
        return calls
    its = lead if lead is not None else lead_rows(calls, leads)
    if others is not None and len(others):
        moved, own = own_numbers(calls, others)
        asked = pd.DataFrame({"campaign_id": calls["campaign_id"].take(moved).array,
                              "phone": own.array})
        its = its.copy()
        its[moved] = np.where(its[moved] >= 0, its[moved], lead_rows(asked, leads))
    subject = leads[SUBJECT].array.take(its, allow_fill=True)
    return calls.assign(**{SUBJECT: pd.Series(subject, index=calls.index)})


def subjects_to_come(calls: pd.DataFrame, coming: pd.DataFrame,
                     leads: pd.DataFrame | None) -> list[pd.Series]:
    """The subjects (:data:`SUBJECT`) each call still ``coming`` (outbound calls, in the account's
    ``calls``' columns) is to be judged under, where the calls keep one: a call to come
    has none yet, and would be counted under its campaign, apart from the calls it
    follows. They are the subjects the outbound calls of its person (the number, or the
    leads' person: :func:`._lead_of.other_numbers`) and campaign took. One Series
    (indexed as ``coming``) per judgement: in the n-th, each call's n-th subject (its
    last where it has fewer; None, its campaign's, where its person has no call in the
    campaign); where a call has several, the strictest judgement stands
    (:func:`._when_past.judged_beside`). None where the calls keep no subject: the audit
    then reads the leads' for every call alike (:func:`with_subjects`)."""
    if SUBJECT not in calls:
        return []
    past = calls[calls["direction"].astype(object).to_numpy() == "outbound"]
    frame = pd.DataFrame({column: np.r_[past[source].astype(object).to_numpy(),
                                        coming[source].astype(object).to_numpy()]
                          for column, source in (("campaign_id", "campaign_id"),
                                                 ("phone", "to_number"))})
    others = other_numbers(leads)
    person = people(frame, others)[0] if len(others) else group_codes(frame["phone"])
    key = _person_and_subject(person, group_codes(frame["campaign_id"]),
                              np.arange(len(frame)))
    said = pd.DataFrame({"key": key[:len(past)],
                         SUBJECT: past[SUBJECT].astype(object).to_numpy()}).drop_duplicates()
    said = said.assign(rank=said.groupby("key").cumcount()).set_index(["key", "rank"])
    wanted = key[len(past):]
    count = said.index.get_level_values("key").value_counts().reindex(
        wanted, fill_value=0).to_numpy(np.int64)
    return [pd.Series(said[SUBJECT].reindex(pd.MultiIndex.from_arrays([
        wanted, np.clip(count - 1, 0, n)])).to_numpy(object), index=coming.index,
        dtype=object) for n in range(max(int(count.max(initial=0)), 1))]


def _person_and_subject(person: Ints, subject: Ints, rows: Rows) -> Ints:
    """Each of ``rows``' (person, subject) group as a small integer (others: 0), so that a
    window's key (:func:`_window_starts`) cannot overflow however many subjects there are."""
    group = np.zeros(len(person), np.int64)
    width = int(subject.max(initial=0)) + 1
    group[rows] = pd.factorize(person[rows] * width + subject[rows])[0]
    return group


def _evidence(hits: pd.DataFrame, leads: bool) -> pd.Series:
    """What each finding counted, in words: the law's per person and subject ("4th call in
    24 hours to this person on this subject (campaign cmp_1), from any caller id"), saying
    whose number stands for the person; the policy's per number. In object arrays: a
    few hundred findings, where pandas' text operations cost 40 ms."""
    count = hits["calls_in_24h"].to_numpy(np.int64)
    counted = count.astype(str).astype(object)
    subject = _subjects(hits).to_numpy(object)
    who = np.where(hits["other"].to_numpy(bool),
                   "this person (the lead's other number counted with its own)",
                   "this person" if leads else "this person (no leads given: the number "
                   "stands for the person)").astype(object)
    allowed = "at most " + hits["limit"].to_numpy(object) + " allowed" + hits["cap"].to_numpy(
        object)
    law = (counted + _suffix(count) + " call in the 24 hours up to this one to " + who
           + " on this subject (" + subject + "), from any caller id; " + allowed)
    policy = counted + " outbound calls to the number in the 24 hours up to this one; " + allowed
    return pd.Series(np.where(hits["basis"].to_numpy(object) == "law", law, policy),
                     index=hits.index, dtype=object)


def _subjects(calls: pd.DataFrame) -> pd.Series:
    """Each call's subject in words: ``subject solar`` (its :data:`SUBJECT`), else
    ``campaign cmp_1`` (a call of no campaign: ``campaign none``)."""
    campaign = "campaign " + _texts(calls["campaign_id"])
    if SUBJECT not in calls:
        return pd.Series(campaign, index=calls.index, dtype=object)
    said = calls[SUBJECT].astype(object).to_numpy(object)
    return pd.Series(np.where(pd.isna(said), campaign, "subject " + _texts(calls[SUBJECT])),
                     index=calls.index, dtype=object)


def _texts(column: pd.Series) -> Objects:
    """A text column's values as Python text (a missing one as ``none``)."""
    values = column.astype(object).to_numpy(object)
    said: Objects = np.where(pd.isna(values), "none", values).astype(str).astype(object)
    return said


def _suffix(n: Ints) -> Objects:
    """The English ordinal suffix of each count (``st``, ``nd``, ``rd``, ``th``)."""
    last, tens = n % 10, n % 100
    suffix: Objects = np.where((tens // 10 == 1) | (last > 3) | (last == 0), "th",
                               np.array(["th", "st", "nd", "rd"])[np.minimum(last, 3)]
                               ).astype(object)
    return suffix


def _caps(size: int, rules: Rules, judged: Judged) -> list[
        tuple[int, Ints, Ints, Bools, bool]]:
    """Per period, the law's first and then the policy's: each call's cap in it
    (:data:`_NO_CAP`: none), the law row that sets it (0: the policy's), whether that
    row is the lead's address state's, and whether the caps are the law's (counted per
    person and subject) or the policy's (per number). Of the number's state and the
    address's, the stricter decides, the number's where both are as strict (as for
    calling hours)."""
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
    found = [(period, *caps, True) for period, caps in periods.items()]
    if rules.max_calls_per_24h is not None:
        found.append((_DAY_MS, np.full(size, rules.max_calls_per_24h, np.int64),
                      np.zeros(size, np.int64), np.zeros(size, bool), False))
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



def _window_starts(group: Ints, millis: Ints, span: int) -> Ints:
    """For rows sorted by group and time: the first row of each one's group less than
    ``span`` ms before it. One sorted key, the group in the high digits and the time's
    milliseconds in the low 12 (31 years): a window never reaches into another group."""
    key = group * 10**12 + millis
    starts: Ints = np.searchsorted(key, key - span, side="right")
    return starts


