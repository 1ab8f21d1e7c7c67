"""The audit of a part: every rule but abandonment's rate over some numbers' calls, leads
and DNC results (all of the account's on pandas, one partition's on Dask), each rule a
check of its own (:mod:`._checks`), and what the caller asked of the audit
(:class:`Options`), as every part needs it. No rule but abandonment's rate looks beyond
one number, so a part is judged alone; that rate is judged over every part by the run
(:func:`._run.report`).

The judges before a call ask of the calls they make up only the rules of a number's past
(:func:`history_findings`), by the same functions, so that their answer and the audit's
cannot differ.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from .._arrays._groups import Bools
from .._phones._zones import Rows
from ._checks._account import blocked_country, caller_id, unverified_caller_id
from ._checks._consent import Lines, lifting, no_written_consent, resolved
from ._checks._dnc import (
    Facts,
    business_lines,
    contract_records,
    dnc_call,
    dnc_lead,
    requests,
    unscreened_lead,
)
from ._checks._frequency import call_frequency, with_subjects
from ._checks._hours import Clock, banned_states, calling_hours, clock, located
from ._checks._lead_of import addresses, other_numbers, reads_addresses, unknown_address_state
from ._checks._ring import RING_COLUMNS, short_ring
from ._checks._state_lists import unscrubbed_states
from ._checks._texts import CHANNEL, calls_only, texts_counted
from ._checks._unread._no_law import no_law_held
from ._checks._unread._unjudged import of_part, unjudged_frame
from ._inputs._once import once_each
from ._inputs._population import LIVE, population_of
from ._inputs._prepared import prepared_calls, prepared_dnc, prepared_leads
from ._inputs._vocabulary import Values
from ._rows import (
    call_ids,
    columns_at,
    every_column,
    live_at,
    outbound_calls,
    outbound_rows,
    with_ids,
)
from ._rules._rules import Rules


@dataclass(frozen=True)
class Options:
    """What the caller asked of the audit, as every part of it needs it."""

    rules: Rules
    blocked: tuple[str, ...]
    verified: frozenset[str] | None
    campaigns: frozenset[str] | None
    moment: pd.Timestamp
    consents: pd.DataFrame | None = field(default=None, compare=False)
    reassigned: pd.DataFrame | None = field(default=None, compare=False)
    """The consent records and reassigned-number answers (:mod:`._consent`), prepared
    (:func:`._inputs._prepared.prepared_consents`): small, so every part gets them whole."""
    period: str | None = None
    """The period of calls asked for, in words (``since 12d (2026-11-14 09:00 UTC)``)."""
    since: pd.Timestamp | None = None
    until: pd.Timestamp | None = None
    """The window asked for (UTC): only the calls placed from ``since`` to before ``until``
    are reported, each judged against every call given (the history its rules count)."""
    texts: pd.DataFrame | None = field(default=None, compare=False)
    """The account's texts (:func:`._inputs._prepared.prepared_texts`), audited as calls
    (:mod:`._texts`); small, so every part gets them whole (on Dask, their rows are
    shuffled with the calls)."""
    nonprofit: bool = False
    """Whether the account is a tax-exempt nonprofit calling for itself."""
    charity: bool = False
    newspaper: bool = False
    """Whether the account is (or calls for) a registered charity soliciting a donation, a
    newspaper soliciting subscriptions (Canada's DNCL does not bind them)."""
    contracts: pd.DataFrame | None = field(default=None, compare=False)
    """The written contracts in force (:func:`._inputs._prepared.prepared_contracts`),
    small, whole in each part."""
    dnc_lists: frozenset[str] | None = None
    """The state lists the DNC results hold a row of
    (:func:`._inputs._prepared.lists_given`); None where the DNC results are not the
    account's scrubs (the judges before a call ask so of what they make up:
    :func:`history_findings`), and no number's missing scrub of its state's list is judged.
    Which number a scrub answers for is its own row's
    (:func:`._state_lists.unscrubbed_states`)."""
    dnc_unanswered: int = 0
    """How many DNC results leave ``listed`` empty (:func:`._inputs._prepared.unanswered`),
    for the note."""
    values: Values = field(default=None, compare=False)
    """The user's meanings of the words of the inputs' named columns
    (:mod:`._inputs._vocabulary`), checked: every path reads each input through them."""
    read_as: str = ""
    """The columns of the inputs read by another name, in words (:mod:`._inputs._headers`),
    for the report's note."""

    def windowed(self, at: pd.Series) -> Bools | None:
        """Which calls placed ``at`` are in the window (a call of no time is in none);
        None where no window was asked for, every call reported."""
        if self.since is None and self.until is None:
            return None
        inside: Bools = at.notna().to_numpy(dtype=bool)
        if self.since is not None:
            inside = inside & (at >= self.since).to_numpy(dtype=bool, na_value=False)
        if self.until is not None:
            inside = inside & (at < self.until).to_numpy(dtype=bool, na_value=False)
        return inside


@dataclass(frozen=True)
class Part:
    """The audit of some numbers' calls and leads (all of the account's, on pandas):
    their ``findings`` but abandonment's, the ``dropped`` calls (the abandoned ones, each
    with every column, its lead and its local time, not yet judged against its
    campaign's rate) and the ``population``
    (:class:`._report._audit_report.AuditReport`'s)."""

    findings: pd.DataFrame
    dropped: pd.DataFrame
    population: pd.DataFrame
    reached: frozenset[str] = frozenset()
    """The state lists whose states' numbers were called with no scrub of the list
    answering for them (:func:`._state_lists.unscrubbed_states`), for the report's note."""
    banned: frozenset[str] = frozenset()
    """The states whose law bans calls during a declared emergency that the reported calls
    reached (:func:`._hours.banned_states`), for the report's note."""
    unjudged: pd.DataFrame = field(default_factory=unjudged_frame)
    """What the rules could not judge of the part's calls in the window
    (:func:`._checks._unread._unjudged.of_part`)."""


def audited(prepared: pd.DataFrame, rows: Rows, leads: pd.DataFrame | None,
            dnc: pd.DataFrame | None, dropped: Rows, *, options: Options,
            joined: bool, spoken: Rows | None = None) -> Part:
    """Every rule but abandonment's rate over the outbound calls at ``rows`` of the
    ``prepared`` calls and the ``leads`` (both as the ``prepared_*`` functions give them);
    the abandoned calls (``dropped``: their positions among the outbound calls, as
    :func:`._abandonment.dropped` tells them) made ready for it. All of the account's calls,
    or on Dask all calls, leads and DNC results of some numbers: no rule but
    abandonment's rate looks beyond one number, and that rate is judged in
    :func:`._run.report`, so that a part need not wait for every campaign's windows. Only
    the findings of the calls in ``options``' window are kept, and only they are counted in
    the population; every call given is history that the rules count. ``spoken``: the
    positions of the calls a live person answered, where the caller read them already
    (:func:`._rows.answered_calls`; else :func:`._rows.live_at` here)."""
    rules = options.rules
    outbound = outbound_calls(prepared, rows)
    judged = _Judged.of(outbound, leads, options, call_ids(prepared, rows))
    lead, consents, times = judged.lead, judged.consents, judged.times
    inside = options.windowed(outbound["at"])
    calls = calls_only(outbound)  # the rules of a voice call: not a text's
    found = [*calling_hours(outbound, times), located(no_law_held(outbound, rules), times),
             judged.frequency()]
    found += [located(blocked_country(outbound, options.blocked), times)]
    found.append(located(caller_id(calls), times))
    if options.verified is not None:
        found.append(located(unverified_caller_id(calls, options.verified),
                                    times))
    reached: frozenset[str] = frozenset()
    if dnc is not None:
        risks, reached = judged.unscrubbed(dnc)
        found += [judged.dnc_calls(dnc), risks]
    if consents is not None:
        lines = Lines.of(leads, business_lines(leads))
        found.append(located(no_written_consent(outbound, consents, lines), times))
    found.append(located(short_ring(outbound, rules, lambda at: columns_at(
        prepared, [c for c in RING_COLUMNS if c in prepared], rows[at])), times))
    found = [with_ids(_reported(concatenated(found), inside), prepared, rows, outbound, leads,
                      lead)]
    if dnc is not None and leads is not None:
        found += [dnc_lead(leads, dnc, requests(outbound, consents, options.moment)),
                  unscreened_lead(leads, dnc, rules, options.moment)]
    if leads is not None and reads_addresses(rules):
        found.append(unknown_address_state(leads))
    abandoned = located(outbound.iloc[dropped], times)
    named = with_ids(abandoned, prepared, rows, outbound, leads, lead)
    spoke = live_at(prepared, rows) if spoken is None else spoken
    counted = _counted(outbound, spoke, inside)
    return Part(concatenated(found).reset_index(drop=True), every_column(named, prepared, rows),
                texts_counted(population_of(calls_only(counted), leads), counted), reached,
                banned_states(times, inside),
                of_part(outbound, prepared, rows, rules, inside, spoke))


def _counted(outbound: pd.DataFrame, spoken: Rows, inside: Bools | None) -> pd.DataFrame:
    """The outbound calls the population counts (those in the window, ``inside``), with
    :data:`._population.LIVE`: whether a live person answered each (``spoken``: their
    positions, :func:`._rows.live_at`). Only the columns counted: the campaigns' text is the
    calls' own, whose hash is kept."""
    spoke = np.zeros(len(outbound), bool)
    spoke[spoken] = True
    counted = outbound[[c for c in ("campaign_id", CHANNEL) if c in outbound]].assign(
        **{LIVE: spoke})
    return counted if inside is None else counted[inside]


def history_findings(calls: pd.DataFrame, leads: pd.DataFrame | None,
                     dnc: pd.DataFrame | None, options: Options) -> pd.DataFrame:
    """The findings of the two rules that read what was done to a number before, the caps
    (``call_frequency``) and a listing (``dnc_call``, with the risk of a number no scrub of
    its state's required list answers for, where ``options.dnc_lists`` is not None: on
    its first call in ``options``' window), of pandas ``calls`` beside the
    ``leads`` and ``dnc`` results, each with its ``call_id`` and ``lead_id``: the rows
    :func:`._run.audit_frames` finds of these rules, by the same functions, without the other
    rules' work. What :func:`~._ahead._when.next_allowed` and the guard's judge ask of the
    calls they make up (they call the checks, not the public audit)."""
    prepared, _ = once_each(prepared_calls(calls))
    leads = prepared_leads(leads, options.campaigns)
    rows = outbound_rows(prepared, options.campaigns)
    outbound = outbound_calls(prepared, rows)
    judged = _Judged.of(outbound, leads, options, call_ids(prepared, rows))
    dnc = prepared_dnc(dnc)
    found = [judged.frequency(), *([] if dnc is None else [judged.dnc_calls(dnc),
                                                           judged.unscrubbed(dnc)[0]])]
    return with_ids(concatenated(found), prepared, rows, outbound, leads, judged.lead)


@dataclass(frozen=True)
class _Judged:
    """What the rules of a contact share about the ``outbound`` calls: each call's lead
    row and the consents that stand, the clocks each is judged on, the numbers each lead
    links (:func:`audited`, :func:`history_findings`)."""

    outbound: pd.DataFrame
    leads: pd.DataFrame | None
    options: Options
    lead: Rows | None
    consents: pd.DataFrame | None
    times: Clock
    others: pd.DataFrame | None
    ids: Callable[[Rows], NDArray[np.object_]]

    @classmethod
    def of(cls, outbound: pd.DataFrame, leads: pd.DataFrame | None, options: Options,
           ids: Callable[[Rows], NDArray[np.object_]]) -> _Judged:
        rules = options.rules
        others = None if leads is None else other_numbers(leads)
        lead, address = addresses(outbound, leads, bool(rules.jurisdictions), others)
        consents = resolved(options.consents, leads, options.reassigned, options.moment)
        times = clock(outbound, rules, address, lifting(outbound, consents))
        return cls(outbound, leads, options, lead, consents, times, others, ids)

    def frequency(self) -> pd.DataFrame:
        """The caps' findings (:func:`._frequency.call_frequency`), located."""
        subjects = with_subjects(self.outbound, self.leads, self.lead, self.others)
        return located(call_frequency(subjects, self.options.rules, self.times, self.others,
                                      self.ids), self.times)

    def facts(self) -> Facts:
        """The facts the lists' laws turn on (:class:`._dnc.Facts`), as the caller told them."""
        options = self.options
        contracts = resolved(contract_records(options.contracts), self.leads,
                             options.reassigned, options.moment)
        return Facts(business_lines(self.leads), options.nonprofit, options.charity,
                     options.newspaper, contracts)

    def unscrubbed(self, dnc: pd.DataFrame) -> tuple[pd.DataFrame, frozenset[str]]:
        """The risks of the calls in the window to numbers no answered row of ``dnc``
        scrubs against their state's required list (:func:`._state_lists.unscrubbed_states`,
        none where ``options.dnc_lists`` is None), located; and the states reached, for
        the note. One function for the audit and the judges before a call
        (:func:`history_findings`), so that both read a number's scrub alike."""
        options = self.options
        inside = options.windowed(self.outbound["at"])
        risks, reached = unscrubbed_states(
            _reported(self.outbound, inside), None if options.dnc_lists is None else dnc,
            self.facts(), self.consents, options.reassigned)
        return located(risks, self.times), reached

    def dnc_calls(self, dnc: pd.DataFrame) -> pd.DataFrame:
        """The calls to listed numbers (:func:`._dnc.dnc_call`), located."""
        options = self.options
        return located(dnc_call(self.outbound, dnc, self.consents, options.reassigned,
                                options.moment, self.facts()), self.times)


def _reported(found: pd.DataFrame, inside: Bools | None) -> pd.DataFrame:
    """The findings of calls (indexed by position among the outbound calls) that the
    report gives: those of the calls in the window (``inside``: :meth:`Options.windowed`),
    each judged against every call before it."""
    return found if inside is None else found[inside[found.index.to_numpy()]]


def concatenated(found: list[pd.DataFrame]) -> pd.DataFrame:
    """The findings of several rules as one frame, each row's index kept (the first rule's
    findings, empty, if none)."""
    return pd.concat([f for f in found if len(f)] or [found[0]])
