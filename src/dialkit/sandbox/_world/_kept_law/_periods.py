"""The world's abandoned calls, counted as the law counts them, by the world's own
arithmetic, not the audit's.

47 CFR 64.1200(a)(7) allows no more than "three percent of all telemarketing calls that
are answered live by a person, as measured over a 30-day period for a single calling
campaign", "calculated separately for each successive 30-day period or portion thereof
that such calling campaign continues"; 16 CFR 310.4(b)(4)(i) the same. So each campaign's
periods run in 30 days from its first call, and a period's rate is its abandoned calls
over its calls answered by a live person (an answering machine's, status ``voicemail``,
are not), by the time they were answered. An abandoned call: no agent joined within
two seconds of the answer (310.4(b)(1)(iv)'s "within two seconds of the person's
completed greeting"; the world has no greeting time, so the answer stands for it).

The world plants abandoned calls on US numbers only (the UK's 3% is Ofcom's policy over
24 hours, Canada's the CRTC's 5% a month: a single abandoned call could cross either):

- ``abandoned``: spread over the campaigns, at most 3% of any period's answered calls, so
  no period is over its limit and none is a finding;
- ``abandonment_period``: clustered in one campaign's one period (the one with the most
  answered calls that has room), one more than 3% of its answered calls: every one of
  them is a finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from .._numbers import COUNTRIES, DAY_MS, I64
from .._statuses import VOICEMAIL

if TYPE_CHECKING:
    from .._history import Calls, Frame

PERIOD_MS = 30 * DAY_MS
LIMIT = 0.03
JOIN_MS = 2_000
_KEY = 1 << 20
"""A (campaign, period) key is ``campaign * _KEY + period``: far more periods than any world's."""


@dataclass(frozen=True)
class Periods:
    """Per call: its (campaign, period) key (``-1``: not a US call answered by a live
    person), and its period's start, answered and abandoned calls."""

    key: I64
    start: I64
    answered: I64
    abandoned: I64

    def over(self) -> NDArray[np.bool_]:
        """Per call: its period's rate is over the limit ("more than three percent")."""
        over: NDArray[np.bool_] = (self.key >= 0) & (self.abandoned > LIMIT * self.answered)
        return over


def live(frame: Frame, calls: Calls) -> NDArray[np.bool_]:
    """Per call: an outbound call to a US number answered by a live person."""
    us = frame.lead_country[calls.lead] == COUNTRIES.index("US")
    found: NDArray[np.bool_] = ((calls.outbound == 1) & (calls.answered >= 0)
                                & (calls.status != VOICEMAIL) & us)
    return found


def abandoned(calls: Calls) -> NDArray[np.bool_]:
    """Per call: answered, and no agent joined within two seconds."""
    late: NDArray[np.bool_] = (calls.answered >= 0) & (
        (calls.joined < 0) | (calls.joined - calls.answered > JOIN_MS))
    return late


def measure(frame: Frame, calls: Calls) -> Periods:
    """Each call's period of its campaign, counted from the campaign's first outbound call."""
    campaign = frame.lead_campaign[calls.lead]
    out = calls.outbound == 1
    first = np.full(len(frame.campaign_status), np.iinfo(np.int64).max)
    np.minimum.at(first, campaign[out], calls.created[out])
    index = np.maximum(calls.answered - first[campaign], 0) // PERIOD_MS
    counted = live(frame, calls)
    key = np.where(counted, campaign * _KEY + index, -1)
    _, inverse = np.unique(key, return_inverse=True)
    answered = np.bincount(inverse, weights=counted).astype(np.int64)[inverse]
    dropped = np.bincount(inverse, weights=counted & abandoned(calls)).astype(np.int64)
    return Periods(key=key, start=first[campaign] + index * PERIOD_MS, answered=answered,
                   abandoned=dropped[inverse])


def choose(rng: np.random.Generator, frame: Frame, calls: Calls,
           taken: NDArray[np.bool_], k: int) -> tuple[I64, I64]:
    """Calls to abandon (positions in ``calls``, sorted by lead and time, none abandoned
    yet): up to ``k`` spread so that no period goes over, and the cluster that puts one
    period over. One call per lead, none a lead's last, none on a ``taken`` lead, none an
    AI agent's."""
    periods = measure(frame, calls)
    not_last = np.r_[calls.lead[1:] == calls.lead[:-1], False]
    fit = (periods.key >= 0) & not_last & (calls.ai < 0) & ~taken[calls.lead]
    shuffled = rng.permutation(np.flatnonzero(fit))
    _, first = np.unique(calls.lead[shuffled], return_index=True)
    pool = shuffled[np.sort(first)]  # one call per lead, in random order
    keys, at, room = np.unique(periods.key[pool], return_index=True, return_counts=True)
    size = periods.answered[pool[at]]
    need = np.floor(LIMIT * size).astype(np.int64) + 1
    feasible = np.flatnonzero(room >= need)
    if not len(feasible):
        return pool[:0], pool[:0]
    best = feasible[np.argmax(size[feasible])]
    cluster = pool[periods.key[pool] == keys[best]][:need[best]]
    spread = pool[periods.key[pool] != keys[best]][:k]
    order = np.argsort(periods.key[spread], kind="stable")
    ranked = periods.key[spread][order]
    rank = np.arange(len(order)) - np.searchsorted(ranked, ranked)
    cap = np.floor(LIMIT * periods.answered[spread][order]).astype(np.int64)
    return np.sort(spread[order][rank < cap]), np.sort(cluster)
