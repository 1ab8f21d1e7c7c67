"""Call frequency: the caps of the law of the place called and of the account's policy,
counted over each cap's period."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._findings import (
    Bools,
    Ints,
    Rows,
    by_group_and_time,
    findings,
    group_codes,
    millis_since_first,
)
from ._hours import Clock
from ._law import Judged, cap_words, deciders
from ._rules import Rules

_DAY_MS = 24 * 3600 * 1000


def call_frequency(calls: pd.DataFrame, rules: Rules, times: Clock) -> pd.DataFrame:
    """Calls that are at least the (cap + 1)th to their number in the cap's period up to and
    including them (a call exactly one period before does not count). The caps of the law
    of the place called (a state's) are counted first, and named where they decide; then
    the policy's (``max_calls_per_24h``), for the calls the law allows. Only the calls of
    numbers called more than a 24-hour cap in some two days are sorted and counted."""
    number = group_codes(calls["phone"])
    millis = millis_since_first(calls["at"])
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
        order = by_group_and_time(number, calls["at"], rows)
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



def _window_starts(group: Ints, millis: Ints, span: int) -> Ints:
    """For rows sorted by group and time: the first row of each one's group less than
    ``span`` ms before it. One sorted key, the group in the high digits and the time's
    milliseconds in the low 12 (31 years): a window never reaches into another group."""
    key = group * 10**12 + millis
    starts: Ints = np.searchsorted(key, key - span, side="right")
    return starts


