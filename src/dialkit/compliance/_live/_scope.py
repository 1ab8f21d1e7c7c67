"""What an observation can change, judged again alone: the monitor's findings kept equal to
the whole audit's without the whole audit after each event.

The audit is built to be judged in parts (:mod:`.._part`, as Dask judges it): every rule
but abandonment's rate looks at one number's calls, leads and DNC results, and a person's
numbers (those the leads link, :func:`.._checks._lead_of.other_numbers`) go together; the
rate looks at one campaign's answered calls. So the findings a changed call can change
are those of its person's numbers and, for abandonment, those of its campaign, and the
monitor judges those again with the same functions, by the same :func:`.._run.report`,
and keeps every other finding as it was (:meth:`Scope.again`). The moment (``as_of``)
moves findings of its own: a DNC check, listing or consent dated between the old moment
and the new one changes how its number is judged, so its number is judged again too.

What the parts cannot tell is judged whole (:meth:`Scope.whole`): the first judgment,
whether any call holds an agent's join time changing (it changes how every answered call
is told abandoned), a campaign's first call moving, a call of no number, texts (judged
beside the calls of their person, not yet scoped), a window of calls asked for, and a
dated row of no number.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..._arrays._groups import isin
from .._checks._abandonment import abandonment_windows, dropped, first_calls
from .._checks._lead_of import other_numbers, smallest_linked
from .._inputs._once import once_each
from .._inputs._population import sources_of
from .._inputs._prepared import prepared_calls, prepared_dnc, prepared_leads
from .._part import Options, Part, audited
from .._report._audit_report import AuditReport
from .._rows import answered_calls, outbound_rows
from .._rules._place_law import scrub_ages
from .._run import arranged, in_rule_order, judgment, report
from ._calls import Calls, in_one_chunk
from ._settle import Settled


@dataclass(frozen=True)
class Judged:
    """The monitor's judgment of its calls, and what judging a part of them again needs.

    Attributes:
        findings: The audit's findings of the calls, row for row.
        opened: Each campaign's first call (:func:`.._checks._abandonment.first_calls`).
        joined: Whether any answered call holds an agent's join time.
        dropped: Every abandoned call made ready for abandonment's rate, by call id.
        answered: Every call a live person answered, as abandonment's rate reads it
            (:func:`.._rows.answered_calls`), by call id.
        report: The whole audit's report, where this judgment was one (None: a part was
            judged again; the notes and the abandoned calls are then asked of a whole
            judgment).
        judged: How many calls were judged to make it (every call, for a whole one).
        fresh: The positions among ``findings`` of those judged anew (every one, for a
            whole judgment).
        kept: Which findings of the judgment before were kept as they were, in their
            order among ``findings`` (None: none, a whole judgment).
    """

    findings: pd.DataFrame
    opened: pd.DataFrame
    joined: bool
    dropped: pd.DataFrame
    answered: pd.DataFrame
    report: AuditReport | None
    judged: int
    fresh: np.ndarray
    kept: np.ndarray | None = None


class Scope:
    """The monitor's inputs, prepared once, and how far a change of calls reaches."""

    def __init__(self, leads: pd.DataFrame | None, dnc: pd.DataFrame | None,
                 options: Options) -> None:
        self._raw = leads, dnc
        self.sources = sources_of({"calls": None, "leads": leads, "dnc": dnc,
                                   "texts": options.texts})
        prepared = (prepared_leads(leads, options.campaigns, options.values),
                    prepared_dnc(dnc, options.values))  # each part takes its numbers' rows
        self.leads, self.dnc = (None if frame is None else in_one_chunk(frame)
                                for frame in prepared)
        self.scoped = (options.texts is None or not len(options.texts)) and (
            options.since is None and options.until is None) and (
            self.leads is None or bool(self.leads["lead_id"].is_unique))
        self._people = _people(self.leads)
        self._places = (pd.Series(np.arange(len(self.leads)), index=self.leads["lead_id"])
                        if self.leads is not None else None)
        self._dated = _dated(self.dnc, options)
        self.settled = Settled()

    def open_numbers(self, as_of: pd.Timestamp) -> frozenset[str] | None:
        """The numbers whose findings cannot settle at ``as_of``: those of a row dated
        after it (read as unknown, the finding quoting the moment) and their persons'
        other numbers; None where such a row has no number."""
        dates, numbers = self._dated[0]
        after = numbers[np.searchsorted(dates, as_of.value, "right"):]
        if pd.isna(after).any():
            return None
        return frozenset(self.person_numbers(set(after.tolist())))

    def whole(self, calls: pd.DataFrame, options: Options) -> Judged:
        """The audit of every call."""
        judged = judgment(calls, *self._raw, options)
        part, found, run = judged.part, judged.report.findings, judged.ready
        fresh = np.arange(len(found))
        if self.settled.before is not None:  # the settled findings in place of their calls'
            found, fresh = self._gathered(self.settled.findings,
                                          found[~self.settled.rows(found)])
        return Judged(found, run.opened, run.joined,
                      part.dropped.set_axis(part.dropped["call_id"].astype(object)),
                      _by_id(run.answered, run.calls, run.rows),
                      dataclasses.replace(judged.report, findings=found), len(calls), fresh)

    def again(self, kept: Judged, calls: Calls, was: Mapping[str, Mapping[str, Any]],
              now: Mapping[str, Mapping[str, Any]], fresh: pd.DataFrame,
              moved_from: pd.Timestamp | None, options: Options) -> Judged:
        """``kept`` judged again where the rows ``was`` became ``now`` (by call id; typed as
        a frame of calls: ``fresh``) and the moment moved from ``moved_from`` to
        ``options.moment``, ``calls`` being every call now: the findings of the calls of the
        numbers (and persons) they touched, and abandonment's of their campaigns where a
        row was answered (before or now: no other call is in its rate) or the first call
        moved; the whole audit where a part cannot tell. The findings kept stay in the
        order they were, so that those judged anew are placed among them by one sort."""
        rows = [*was.values(), *now.values()]
        crossed = self._crossed(moved_from, options.moment)
        if (not self.scoped or moved_from is None or crossed is None
                or any(pd.isna(row.get("to_number")) for row in rows)
                or _joined(was.values() if kept.joined else now.values())  # join times
                or any(_moved(row, now[call_id]) for call_id, row in was.items())):
            return self.whole(calls.frame, options)
        numbers = self.person_numbers({str(row["to_number"]) for row in rows} | crossed)
        opened = _opened(kept.opened, fresh, options)
        campaigns = {"" if pd.isna(row.get("campaign_id")) else str(row["campaign_id"])
                     for row in rows if pd.notna(row.get("answered_at"))} | _moved_first(
            kept.opened, opened)
        mine = calls.of_numbers(numbers)
        part, dropped_now = self._part(mine, numbers, kept.joined, options)
        gone = mine["id"]
        store = pd.concat([kept.dropped[~isin(kept.dropped.index, gone, keep=False)],
                           dropped_now])
        answered = _answered(kept.answered, fresh, options)
        asked = answered[_among(answered["campaign_id"], campaigns)]
        windows = abandonment_windows(asked, options.rules, kept.joined, opened)
        found = report([dataclasses.replace(part, dropped=store)], windows=windows,
                       options=options, joined=kept.joined, sources=self.sources).findings
        old = kept.findings
        abandonment = (old["rule"] == "abandonment").to_numpy(bool)
        touched = np.where(abandonment, _among(old["campaign_id"], campaigns),
                           _among(old["phone"], numbers)) & ~self.settled.rows(old)
        live = ~self.settled.rows(found)
        if not (len(old) - touched.sum() + live.sum()):
            return self.whole(calls.frame, options)  # none left: the types of none are its
        merged, fresh = self._gathered(old[~touched], found[live])
        return Judged(merged, opened, kept.joined, store, answered, None,
                      len(mine) + int((~isin(asked.index, gone, keep=False)).sum()), fresh,
                      ~touched)

    def _gathered(self, kept: pd.DataFrame, fresh: pd.DataFrame) -> tuple[pd.DataFrame,
                                                                         np.ndarray]:
        """The findings ``kept`` and those judged anew (``fresh``) as one audit orders and
        types them, and where the fresh ones are placed among them."""
        merged = pd.concat([part for part in (kept, fresh) if len(part)] or [fresh],
                           ignore_index=True)
        order = in_rule_order(merged, self._ties(merged))
        placed = np.empty(len(order), np.int64)
        placed[order] = np.arange(len(order))
        return (arranged(merged, gathered=True).iloc[order].reset_index(drop=True),
                placed[len(kept):])

    def _part(self, mine: pd.DataFrame, numbers: Collection[str], joined: bool,
              options: Options) -> tuple[Part, pd.DataFrame]:
        """Every rule but abandonment's rate over the calls ``mine``, and the leads and DNC
        results, of ``numbers``; and their abandoned calls made ready, by call id."""
        prepared, _ = once_each(prepared_calls(mine, options.values))
        rows = outbound_rows(prepared, options.campaigns)
        answered = answered_calls(prepared, rows, options.rules)
        flags = dropped(answered, options.rules, joined)
        part = audited(prepared, rows, _of(self.leads, numbers), _of(self.dnc, numbers),
                       answered.index.to_numpy()[flags], options=options, joined=joined,
                       spoken=answered.index.to_numpy())
        return part, part.dropped.set_axis(part.dropped["call_id"].astype(object))

    def person_numbers(self, numbers: set[str]) -> set[str]:
        """``numbers`` and every number the leads link to one of them (its person's)."""
        group, members = self._people
        linked = {group[n] for n in numbers if n in group}
        return numbers.union(*(members[g] for g in linked))

    def _crossed(self, was: pd.Timestamp | None, now: pd.Timestamp) -> set[str] | None:
        """The numbers a moment moved from ``was`` to ``now`` judges anew: those of a DNC
        result, consent, contract or reassigned answer dated from ``was`` on (one dated
        after the moment is read as unknown, and its finding says the moment), or of a
        check made, or whose age runs out, between the two; None where such a row has no
        number, or ``was`` is None."""
        if was is None:
            return None
        (dates, of_dates), (passed, of_passed) = self._dated
        low, high = sorted((was.value, now.value))
        inside = np.r_[of_dates[np.searchsorted(dates, low, "left"):],
                       of_passed[np.searchsorted(passed, low, "left"):
                                 np.searchsorted(passed, high, "right")]]
        if pd.isna(inside).any():
            return None
        return set(inside.tolist())

    def _ties(self, findings: pd.DataFrame) -> Callable[[np.ndarray], np.ndarray]:
        """How findings of one rule and moment gathered from several judgments are
        ordered as one audit of the calls orders them: a call's by its id (the monitor's
        calls are in order of time, then id), a lead's by its place among the leads."""
        def keys(rows: np.ndarray) -> np.ndarray:
            tied = findings.iloc[rows]
            call: np.ndarray = pd.factorize(tied["call_id"].astype(object), sort=True)[0]
            if self._places is None:
                return call
            lead = self._places.reindex(tied["lead_id"].astype(object).to_numpy())
            found: np.ndarray = np.where(call >= 0, call, lead.fillna(-1).to_numpy(np.int64))
            return found

        return keys


def _people(leads: pd.DataFrame | None) -> tuple[dict[str, int], dict[int, set[str]]]:
    """Each number a lead links to another (its person's), as a group of every campaign's
    links at once, and each group's numbers: a part of some numbers holds all their
    persons' numbers, whatever campaign links them."""
    linked = other_numbers(leads)
    if not len(linked):
        return {}, {}
    codes, texts = pd.factorize(np.r_[linked["number"].to_numpy(object),
                                      linked["phone"].to_numpy(object)])
    half = len(linked)
    root = smallest_linked(codes[:half], codes[half:], len(texts))
    group = dict(zip(texts.astype(str).tolist(), root.tolist(), strict=True))
    members: dict[int, set[str]] = {}
    for number, each in group.items():
        members.setdefault(each, set()).add(number)
    return group, members


Dated = tuple[np.ndarray, np.ndarray]
"""Moments in order, and the number of each (None: a row of no number)."""


def _dated(dnc: pd.DataFrame | None, options: Options) -> tuple[Dated, Dated]:
    """The moments the moment passing changes how a number is judged: every date a finding
    quotes the moment against while it is after it (a DNC result's listing, a consent's,
    contract's or reassigned answer's dates); and the moments that change a finding only
    as the moment passes them: each DNC check (a check after the moment screens no lead
    until then, and no finding quotes the moment against it) and its age running out
    (:func:`.._rules._place_law.scrub_ages`). Read as quoted, the checks of a scrub dated
    after the calls judged each of their numbers again at every event: 8,392 numbers,
    36,805 calls a part, of the benchmark's million calls."""
    frames = [frame for frame in (options.consents, options.reassigned, options.contracts)
              if frame is not None]
    crossing = []
    if dnc is not None:  # prepared: checked_at is required
        frames.append(dnc.drop(columns="checked_at"))
        crossing.append(pd.DataFrame({
            "phone": dnc["phone"].to_numpy(object), "checked_at": dnc["checked_at"],
            "aged": dnc["checked_at"] + scrub_ages(dnc["phone"], options.rules).to_numpy()}))
    return _moments(frames), _moments(crossing)


def _moments(frames: list[pd.DataFrame]) -> Dated:
    """Every time of ``frames``, in order, with its row's number."""
    times: list[np.ndarray] = [np.zeros(0, np.int64)]
    numbers: list[np.ndarray] = [np.zeros(0, object)]
    for frame in frames:
        phone = (frame["phone"].astype(object).to_numpy() if "phone" in frame
                 else np.full(len(frame), None, object))
        for column in frame.columns:
            if isinstance(frame[column].dtype, pd.DatetimeTZDtype):
                at = frame[column].notna().to_numpy(bool)
                times.append(pd.DatetimeIndex(frame[column]).as_unit("ns").asi8[at])
                numbers.append(phone[at])
    every, whose = np.concatenate(times), np.concatenate(numbers)
    order = np.argsort(every, kind="stable")
    return every[order], whose[order]


def _among(column: pd.Series, values: Collection[str]) -> np.ndarray:
    """Which of ``column``'s text is among ``values`` (missing as ``""``)."""
    found: np.ndarray = isin(column, list(values))
    return found | column.isna().to_numpy(bool) if "" in values else found


def _of(frame: pd.DataFrame | None, numbers: Collection[str]) -> pd.DataFrame | None:
    """The rows of ``frame`` (leads, DNC results) of ``numbers``, in their order."""
    if frame is None:
        return None
    return frame[_among(frame["phone"], numbers)]


def _joined(rows: Collection[Mapping[str, Any]]) -> bool:
    """Whether any of the call rows holds an agent's join time."""
    return any(pd.notna(row.get("agent_joined_at")) for row in rows)


def _moved(was: Mapping[str, Any], now: Mapping[str, Any]) -> bool:
    """Whether a call's campaign, direction or start changed (it may have been, or be, its
    campaign's first call, from which abandonment's periods count)."""
    return any(was.get(key) != now.get(key) for key in ("campaign_id", "direction",
                                                       "created_at"))


def _by_id(answered: pd.DataFrame, prepared: pd.DataFrame, rows: np.ndarray) -> pd.DataFrame:
    """The answered calls (indexed by position among the outbound calls at ``rows`` of the
    ``prepared`` calls), indexed by call id."""
    ids = prepared["id"].to_numpy(object)[rows[answered.index.to_numpy()]]
    return answered.set_axis(pd.Index(ids, dtype=object))


def _answered(kept: pd.DataFrame, fresh: pd.DataFrame, options: Options) -> pd.DataFrame:
    """The answered calls (:func:`_by_id`), the calls ``fresh`` in place of their rows:
    ``kept`` itself where none of them was or is answered (most events), not a copy of
    every answered call."""
    prepared = prepared_calls(fresh, options.values)
    rows = outbound_rows(prepared, options.campaigns)
    now = _by_id(answered_calls(prepared, rows, options.rules), prepared, rows)
    was = isin(kept.index, fresh["id"], keep=False)
    if not len(now) and not was.any():
        return kept
    return pd.concat([kept[~was], now])


def _moved_first(was: pd.DataFrame, now: pd.DataFrame) -> set[str]:
    """The campaigns whose first call (:func:`_opened`) is not what it was: all their
    abandonment periods count from it."""
    both = now.merge(was, on="campaign_id", how="left", suffixes=("", "_was"))
    return set(both.loc[both["created_at"] != both["created_at_was"], "campaign_id"])


def _opened(kept: pd.DataFrame, rows: pd.DataFrame, options: Options) -> pd.DataFrame:
    """Each campaign's first call, the calls ``rows`` added."""
    prepared = prepared_calls(rows, options.values)
    both = pd.concat([kept, first_calls(prepared, outbound_rows(prepared, options.campaigns))],
                     ignore_index=True)
    return both.groupby("campaign_id", sort=True, as_index=False)["created_at"].min()
