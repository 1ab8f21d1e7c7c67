"""What no rule can look back to any more: the findings of calls old enough are settled
(kept as they were judged, never judged again) and their calls dropped, so that a
monitor's state is bounded however long it runs.

Two spans decide it. An event can still land for :data:`LATE` after it happened (the
contract keeps the history of events, and so replays them, for
``WEBHOOK_RETENTION_DAYS``); and a call reads other calls back at most :func:`look_back`
(24 hours of caps; abandonment's period: 30 days, a calendar month, the policy's span).
So, the moment being ``as_of``:

- no call that can still land reads a call started before ``as_of - LATE - look_back``,
  nor shares its abandonment period: the findings of those calls are **settled**
  (:attr:`Settled.before`), but those that keep changing: a state list's risk, which
  counts the number's calls for ever, and those of a number whose rows are dated after
  the moment (a date after the moment reads as unknown, and the finding quotes the
  moment), with its person's other numbers;
- a call started a look-back before that is read by no finding still judged: it is
  **dropped**, but what later calls still read of it: its campaign's first call (the
  periods count from it), a ``do_not_call`` disposition (a request every later call to
  the number is judged by), and every call of a number whose findings are not settled.

An event about a call started before :attr:`Settled.before` (a disposition logged weeks
after its call) would change nothing the monitor still judges: it is held and named; and
so is a disposition waiting for a call not kept (never read, or dropped) once it is older
than :attr:`Settled.before` (:meth:`Settled.unwaited`), so that the facts stay bounded too.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..._arrays._groups import Bools, isin
from ...contract import WEBHOOK_RETENTION_DAYS
from .._ahead._when_past import cap_periods
from .._checks._abandonment import UNMEASURED_SPAN, places, policy_span
from .._rules._rules import Rules
from .._run import is_risk_of_a_list
from ._facts import Fact, Held

LATE = pd.Timedelta(days=WEBHOOK_RETENTION_DAYS)
"""How long after it happened an event can still land: the contract's history of events,
which a replay reads from."""
CALENDAR_MONTH = pd.Timedelta(days=31)
"""The longest calendar month: a period that counts by months looks back no further."""
STEP = pd.Timedelta(days=1)
"""How far the settled moment moves before the monitor settles again: a day's calls at a
time, not a pass over every call at each event."""


def look_back(rules: Rules) -> pd.Timedelta:
    """The furthest a finding of a call reads other calls back: the caps' periods, and the
    longest abandonment period of the law's rows and of the account's policy (and the
    periods an abandoned call nothing measures is shown over)."""
    spans = [*cap_periods(), UNMEASURED_SPAN, pd.Timedelta(policy_span(rules))]
    spans += [CALENDAR_MONTH if row.span is None else pd.Timedelta(row.span)
              for row in places(rules)]
    return max(spans)


@dataclass(frozen=True)
class Settled:
    """The findings settled, and which stay judged.

    Attributes:
        before: Findings of calls started before it are settled (None: none yet).
        open: The numbers whose findings are never settled while some of their rows are
            dated after the moment (and their persons' other numbers).
        findings: The findings settled, as they were judged.
    """

    before: pd.Timestamp | None = None
    open: frozenset[str] = frozenset()
    findings: pd.DataFrame = field(default_factory=pd.DataFrame)

    def rows(self, findings: pd.DataFrame) -> Bools:
        """Which of ``findings`` are of calls this settles (of those judged, the rows the
        settled ones stand in for)."""
        if self.before is None or not len(findings):
            return np.zeros(len(findings), bool)
        old = (findings["call_id"].notna() & (findings["at"] < self.before)).to_numpy(bool)
        still = is_risk_of_a_list(findings) | (
            (findings["rule"] != "abandonment").to_numpy(bool)
            & isin(findings["phone"], list(self.open)))
        found: Bools = old & ~still
        return found

    def late(self, started: pd.Timestamp) -> bool:
        """Whether a call started at ``started`` is settled (an event of it is held)."""
        return self.before is not None and pd.notna(started) and started < self.before

    def held(self, facts: Iterable[Fact]) -> list[Held]:
        """``facts`` of calls started before :attr:`before`, held and named."""
        why = (f"its call started before {self.before}: the findings of calls that old are "
               "settled (no event older than the service's history of events can land), so "
               "the monitor no longer judges them")
        return [Held(fact.event_id, fact.kind, why) for fact in facts]

    def unwaited(self, waiting: Collection[Fact]) -> list[Fact]:
        """Of the facts of calls not kept (:meth:`._state.State.waiting`: a disposition
        waiting for its call), those of calls whose every fact is before :attr:`before`,
        to be held (:meth:`held`): a call's event happens before any disposition logged of
        it, so such a call started before it too, and would be held were it to land."""
        if self.before is None:
            return []
        latest: dict[str, pd.Timestamp] = {}
        for fact in waiting:
            at = pd.Timestamp(fact.at)
            latest[fact.call_id] = max(latest.get(fact.call_id, at), at)
        return [fact for fact in waiting if latest[fact.call_id] < self.before]


def kept_calls(calls: pd.DataFrame, before: pd.Timestamp, opened: pd.DataFrame,
               still: Collection[str]) -> Bools:
    """Which of ``calls`` are kept when those started before ``before`` are dropped: the
    later ones, each campaign's first call (``opened``, as
    :func:`.._checks._abandonment.first_calls` gives them), a ``do_not_call`` disposition,
    and every call of the numbers ``still`` judged."""
    first_at = pd.Series(opened["created_at"].to_numpy(), index=opened["campaign_id"])
    opening = calls["campaign_id"].astype(object).fillna("").map(first_at).to_numpy(float)
    first = opening == pd.DatetimeIndex(calls["created_at"]).as_unit("ms").asi8
    kept: Bools = ((calls["created_at"] >= before).fillna(True).to_numpy(bool) | first
                   | (calls["disposition"] == "do_not_call").fillna(False).to_numpy(bool)
                   | isin(calls["to_number"], list(still)))
    return kept

