"""What is coming, before it is a breach: the monitor's gauges and its provisional findings.

An abandonment period's rate is over its limit only when the period's abandoned calls are,
so an officer wants to see the margin while the period runs: how many more abandoned calls
put it over, with the calls answered so far. A number's calls count toward its caps for
24 hours, and its next lawful moment may be hours away. Both are read with the audit's own
functions (abandonment's periods as the audit measures them, ``next_allowed`` for each
number), so a gauge and the finding it warns of never disagree.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..._utils._base_error import ComplianceRiskWarning
from ..._utils._choices import AUDIT_INPUTS
from .._ahead._when import next_allowed
from .._ahead._when_past import cap_periods
from .._checks._abandonment import POLICY, UNMEASURED, abandonment_periods, places
from .._checks._unread._unjudged import unjudged_frame
from .._part import Options, history_findings
from .._report._audit_report import AuditReport
from .._run import ready

_NEXT_ALLOWED_READS = frozenset(each.name for each in AUDIT_INPUTS
                                if "next_allowed" in each.readers)
_DAY = pd.Timedelta(hours=24)
_UNSAID = ("answered_at", "ended_at", "agent_joined_at", "disposition", "status",
           "hangup_cause", "duration_seconds")
"""What a call tried ahead does not have yet (the latest call's, copied for the rest)."""
CAP_LOOKAHEAD = 5
"""The most calls a gauge tries ahead under the caps: ``left_under_caps`` of 5 is 5 or
more."""


@dataclass(frozen=True)
class Gauges:
    """The monitor's gauges at one moment.

    Attributes:
        abandonment: Each campaign's current abandonment period by the law's row that
            measures it (``jurisdiction``; ``policy`` for the account's own limit):
            ``period_start``, ``period_end``, ``answered``, ``abandoned``, ``rate``,
            ``limit`` and ``to_breach``, how many more abandoned calls put the rate over
            the limit (0: it is over).
        numbers: Each number called in the 24 hours up to the moment: ``contacts_24h``
            (its outbound calls then), ``left_under_caps`` (how many more calls the caps
            let through now, :data:`CAP_LOOKAHEAD` meaning that many or more), ``allowed``
            now, ``next_allowed_at``, ``hours_away`` and the ``rule`` that waits, as
            :func:`~dialkit.compliance.next_allowed` says of the number; where a lead
            links a person's numbers and the person's cap holds one (no call left under
            the caps, counted as the audit counts the person), it waits for the first
            moment a call then is one the caps let through, and then for its hours.
        as_of: The moment they look from.
        unjudged: What each rule could not judge of the calls so far, a row per reason
            (:attr:`Monitor.unjudged`): a gauge of a rule not judged for some calls reads
            only the calls it could.
    """

    abandonment: pd.DataFrame
    numbers: pd.DataFrame
    as_of: pd.Timestamp | None
    unjudged: pd.DataFrame = dataclasses.field(default_factory=unjudged_frame)


Persons = Callable[[set[str]], set[str]]
"""Numbers, and every other number of their persons (the monitor's
:meth:`._scope.Scope.person_numbers`)."""


def gauges_of(calls: pd.DataFrame, leads: pd.DataFrame | None, options: Options,
              as_of: pd.Timestamp | None, inputs: Mapping[str, Any],
              persons: Persons) -> Gauges:
    """The :class:`Gauges` of ``calls`` at ``as_of`` (None: before any event, empty)."""
    if as_of is None or not len(calls):
        return Gauges(_periods_now(pd.DataFrame(), options, as_of), _numbers(
            calls.iloc[:0], as_of, inputs, leads, options, persons), as_of)
    run = ready(calls, leads, options)
    periods = abandonment_periods(run.answered, options.rules, run.joined, run.opened)
    return Gauges(_periods_now(periods, options, as_of), _numbers(
        calls, as_of, inputs, leads, options, persons), as_of)


def _periods_now(periods: pd.DataFrame, options: Options, as_of: pd.Timestamp | None
                 ) -> pd.DataFrame:
    columns = ["campaign_id", "jurisdiction", "period_start", "period_end", "answered",
               "abandoned", "rate", "limit", "to_breach"]
    if as_of is None or not len(periods):
        return pd.DataFrame(columns=columns)
    now = periods[(periods["window_start"] <= as_of) & (as_of < periods["window_end"])
                  & (periods["decider"] != UNMEASURED)]
    rows = places(options.rules)
    names = {n: row.id for n, row in enumerate(rows)} | {POLICY: "policy"}
    limit, answered = now["window_limit"].to_numpy(float), now["window_answered"].to_numpy()
    abandoned = now["window_abandoned"].to_numpy()
    return pd.DataFrame({
        "campaign_id": now["campaign_id"].to_numpy(object),
        "jurisdiction": [names[int(d)] for d in now["decider"]],
        "period_start": now["window_start"].to_numpy(), "period_end": now["window_end"].to_numpy(),
        "answered": answered, "abandoned": abandoned,
        "rate": now["window_rate"].to_numpy(float), "limit": limit,
        "to_breach": [_to_breach(a, d, lim) for a, d, lim in zip(answered, abandoned, limit,
                                                                   strict=True)],
    }, columns=columns).sort_values(["campaign_id", "jurisdiction"], ignore_index=True)


def _to_breach(answered: int, abandoned: int, limit: float) -> int:
    """How many more abandoned calls (each answered too) put ``abandoned`` of ``answered``
    over ``limit``: the least k with (abandoned + k) / (answered + k) > limit."""
    if abandoned > limit * answered:
        return 0
    return math.floor((limit * answered - abandoned) / (1 - limit)) + 1


def _numbers(calls: pd.DataFrame, as_of: pd.Timestamp | None, inputs: Mapping[str, Any],
             leads: pd.DataFrame | None, options: Options, persons: Persons) -> pd.DataFrame:
    columns = ["to_number", "contacts_24h", "left_under_caps", "allowed", "next_allowed_at",
               "hours_away", "rule"]
    if as_of is None:
        return pd.DataFrame(columns=columns)
    outbound = calls[(calls["direction"].astype(object) == "outbound")
                     & (calls["created_at"] > as_of - _DAY) & (calls["created_at"] <= as_of)]
    counts = outbound.groupby("to_number", observed=True).size()
    if not len(counts):
        return pd.DataFrame(columns=columns)
    numbers = pd.Series(counts.index, dtype=object)
    asked = {name: value for name, value in inputs.items() if name in _NEXT_ALLOWED_READS}
    # no rule next_allowed asks looks beyond a person (the audit's parts rest on it): a
    # gauge judges a few persons' calls, not the account's
    calls = calls[calls["to_number"].isin(persons(set(numbers))).to_numpy(bool)]
    answer = _asked(numbers, as_of, calls, asked)
    left = _left(numbers, outbound, as_of, calls, leads, options)
    answer = _persons_capped(answer, numbers, left, outbound, as_of, calls, leads, options,
                             asked, persons)
    away = (answer["next_allowed_at"] - as_of) / pd.Timedelta(hours=1)
    return pd.DataFrame({
        "to_number": numbers.to_numpy(object), "contacts_24h": counts.to_numpy(np.int64),
        "left_under_caps": left,
        "allowed": answer["allowed"].to_numpy(bool),
        "next_allowed_at": answer["next_allowed_at"].to_numpy(),
        "hours_away": away.round(1).to_numpy(float),
        "rule": answer["rule"].to_numpy(object) if "rule" in answer else None,
    }, columns=columns)


def _asked(numbers: pd.Series, as_of: pd.Timestamp, calls: pd.DataFrame,
           asked: Mapping[str, Any]) -> pd.DataFrame:
    """:func:`next_allowed` of ``numbers`` at ``as_of`` given ``calls``; a risk is its
    answer's ``risk`` column, not a warning a gauge gives."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ComplianceRiskWarning)
        return next_allowed(numbers, as_of, calls=calls, **asked)


def _left(numbers: pd.Series, outbound: pd.DataFrame, as_of: pd.Timestamp,
          calls: pd.DataFrame, leads: pd.DataFrame | None, options: Options) -> np.ndarray:
    """How many more calls to each number the caps let through now, up to
    :data:`CAP_LOOKAHEAD` (that many or more): that many calls to each are added after the
    moment, a millisecond apart, and the first call a cap finds is one too many
    (:func:`_capped`)."""
    latest = _latest(numbers, outbound)
    tried = pd.concat([latest.assign(
        id=[f"gauge_{more}_{n}" for n in range(len(numbers))],
        created_at=as_of + pd.Timedelta(milliseconds=more))
        for more in range(1, CAP_LOOKAHEAD + 1)], ignore_index=True)
    more, number = _capped(tried, calls, leads, options)
    left = np.full(len(numbers), CAP_LOOKAHEAD, np.int64)
    np.minimum.at(left, number, more - 1)
    return left


def _latest(numbers: pd.Series, outbound: pd.DataFrame) -> pd.DataFrame:
    """Each number's latest call (its campaign, so its subject), as a call not yet made (no
    answer, no end), a row each in the order of ``numbers``."""
    latest = outbound.sort_values("created_at").drop_duplicates("to_number", keep="last")
    latest = latest.set_index("to_number").reindex(numbers.to_numpy()).rename_axis(
        "to_number").reset_index()
    unsaid = pd.Series(False, index=latest.index)
    return latest.assign(**{column: latest[column].where(unsaid) for column in _UNSAID
                            if column in latest})


def _capped(tried: pd.DataFrame, calls: pd.DataFrame, leads: pd.DataFrame | None,
            options: Options) -> tuple[np.ndarray, np.ndarray]:
    """Which of the calls ``tried`` (ids ``gauge_<k>_<n>``: a trial ``k`` of the ``n``-th
    number asked) a cap finds, beside ``calls``: their ``k`` and ``n``, judged once by the
    audit's own count (:func:`.._part.history_findings`: the person's other numbers, the
    subject, the policy's cap, the texts)."""
    at = tried["created_at"]
    trial = ready(pd.concat([calls, tried], ignore_index=True), leads, options).calls
    found = history_findings(trial, leads, None, dataclasses.replace(
        options, moment=at.max(), since=at.min(), until=None))
    capped = found.loc[found["rule"] == "call_frequency", "call_id"].astype(str)
    more, number = (capped.str.extract(r"^gauge_(\d+)_(\d+)$").dropna().astype(int)
                    .to_numpy().T.reshape(2, -1))
    return more, number


def _persons_capped(answer: pd.DataFrame, numbers: pd.Series, left: np.ndarray,
                    outbound: pd.DataFrame, as_of: pd.Timestamp, calls: pd.DataFrame,
                    leads: pd.DataFrame | None, options: Options, asked: Mapping[str, Any],
                    persons: Persons) -> pd.DataFrame:
    """``answer`` (``next_allowed``'s, asked of the numbers) where a person's cap holds a
    number it does not count: no call left under the caps (:func:`_left`, which counts the
    person) while the number alone is allowed. Such a number waits for the first moment a
    call of its person's last 24 hours leaves the cap's window and a call then is one the
    caps let through (tried by :func:`_capped`, the person's numbers one at a time, as a
    number's trials would count each other's), then for what ``next_allowed`` says of it
    at that moment (its hours)."""
    held = np.flatnonzero((left == 0) & answer["allowed"].to_numpy(bool))
    if not len(held):
        return answer
    answer = answer.copy()
    latest = _latest(numbers, outbound)
    moments = _freeing(numbers, held, as_of, calls, persons)
    freed: dict[int, pd.Timestamp] = {}
    for turn in _turns(numbers, held, persons):  # a number of each person at a time
        for tried_at in range(max(len(moments[n]) for n in turn)):
            left_to_try = [n for n in turn if n not in freed and tried_at < len(moments[n])]
            if not left_to_try:
                break
            tried = latest.iloc[left_to_try].assign(
                id=[f"gauge_0_{n}" for n in left_to_try],
                created_at=[moments[n][tried_at] for n in left_to_try])
            still = set(_capped(tried, calls, leads, options)[1].tolist())
            freed.update({n: moments[n][tried_at] for n in left_to_try if n not in still})
    for at in sorted(set(freed.values())):  # one ask a moment (a person's numbers share it)
        held_then = [n for n, freed_at in freed.items() if freed_at == at]
        then = _asked(numbers.iloc[held_then], at, calls, asked)
        waits = then["allowed"].to_numpy(bool)
        answer.loc[answer.index[held_then], ["allowed", "next_allowed_at", "rule"]] = (
            pd.DataFrame({"allowed": False,
                          "next_allowed_at": then["next_allowed_at"].where(~waits, at),
                          "rule": then["rule"].astype(object).where(~waits, "call_frequency")}
                         ).to_numpy(object))
    return answer


def _freeing(numbers: pd.Series, held: np.ndarray, as_of: pd.Timestamp,
             calls: pd.DataFrame, persons: Persons) -> dict[int, list[pd.Timestamp]]:
    """For each number at ``held``, the moments after ``as_of`` its person's calls leave
    a cap's window (:func:`.._ahead._when_past.cap_periods`), in order: a call exactly a
    period before another does not count in it."""
    spans = cap_periods()
    recent = calls[(calls["direction"].astype(object) == "outbound").to_numpy(bool)
                   & (calls["created_at"] > as_of - max(spans)).to_numpy(bool)]
    found = {}
    for n in held.tolist():
        theirs = recent.loc[recent["to_number"].isin(persons({str(numbers.iloc[n])})),
                            "created_at"]
        found[n] = sorted({at + span for at in theirs for span in spans if at + span > as_of})
    return found


def _turns(numbers: pd.Series, held: np.ndarray, persons: Persons) -> list[list[int]]:
    """The numbers at ``held`` in turns of at most one number of each person."""
    turns: list[list[int]] = []
    seen: dict[frozenset[str], int] = {}
    for n in held.tolist():
        person = frozenset(persons({str(numbers.iloc[n])}))
        turn = seen.get(person, 0)
        seen[person] = turn + 1
        if turn == len(turns):
            turns.append([])
        turns[turn].append(n)
    return turns


def provisional_of(report: AuditReport, as_of: pd.Timestamp | None) -> pd.DataFrame:
    """The abandonment findings of ``report`` a later event can still change, and why."""
    found = report.findings[report.findings["rule"] == "abandonment"]
    abandoned = report.abandoned.set_index("call_id")
    whys = []
    for call_id in found["call_id"]:
        call, said = abandoned.loc[call_id], []
        if as_of is None or call["window_end"] > as_of:
            said.append(f"its period runs to {call['window_end']:%Y-%m-%d %H:%M UTC}: each "
                        "call answered until then changes its rate")
        if pd.isna(call["disposition"]) and pd.isna(call.get("agent_joined_at")):
            said.append("told abandoned by the proxy: a disposition logged for it takes it back")
        whys.append("; ".join(said))
    marked = found.assign(why=whys)
    return marked[marked["why"] != ""].reset_index(drop=True)
