"""The audit run: the inputs made ready, the parts audited (:mod:`._part`: one on pandas,
one per partition on Dask), then abandonment's rate judged over every part and the parts'
findings, abandoned calls and counts gathered into one :class:`AuditReport`, with a note
for each rule that did not run and why. :func:`audit_frames` is the run on pandas frames;
the Dask audit runs the same part and the same :func:`report` on its partitions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._arrays._groups import Bools
from .._phones._zones import Rows
from .._utils._base_error import AuditInputError
from ._checks._abandonment import (
    abandonment,
    abandonment_said,
    abandonment_windows,
    campaign_codes,
    first_calls,
    has_join_times,
)
from ._checks._consent import assumed, dated_after
from ._checks._dnc import assumed_facts, unanswered_note
from ._checks._hours import emergency_note
from ._checks._lead_of import reads_addresses, unread_note
from ._checks._state_lists import unscrubbed_note
from ._checks._texts import CHANNEL, texts_as_calls, texts_note, with_channel
from ._checks._unread._no_law import RULE as NO_LAW
from ._checks._unread._unjudged import of_every_rule, summed
from ._inputs._headers import read_as_note
from ._inputs._once import once_each, repeated_note
from ._inputs._options import spelled
from ._inputs._population import UNITS, sources_of
from ._inputs._prepared import prepared_calls, prepared_dnc, prepared_leads
from ._inputs._vocabulary import summed_counts, unread_counts, values_note
from ._part import Options, Part, audited, concatenated
from ._report._audit_report import AuditReport
from ._rows import answered_calls, outbound_rows
from ._rules._rules import FINDING_COLUMNS, RULE_IDS

_COUNTS = {"calls_in_24h", "window_answered", "window_abandoned"}
OWN_COLUMNS = {"call_frequency": ("calls_in_24h",),
               "abandonment": ("window_rate", "window_answered", "window_abandoned"),
               "blocked_country": ("country",), "caller_id": ("from_number",),
               "unverified_caller_id": ("from_number",), "dnc_call": ("listed_at",),
               "unscreened_lead": ("checked_at",), "short_ring": ("rang_seconds",),
               "unknown_address_state": ("address_state",)}
"""The columns each rule's findings add to the common ones (a ``dnc_call`` of a state
list's risk adds none: :func:`is_risk_of_a_list`): the findings hold a rule's columns
where they hold one of its findings, as the rules' frames concatenated give them."""
_COLUMN_ORDER = tuple(dict.fromkeys(
    [*FINDING_COLUMNS, *(column for own in OWN_COLUMNS.values() for column in own)]))
"""The findings' columns, every rule's own after the common ones in the order the rules
run (:func:`._part.audited`), so that the findings of many parts have one part's order."""
NO_ANSWERED = "not judged: no call answered by a live person was audited"
"""The abandonment note where no answered call was audited, for how it was told is moot."""
NO_EXEMPTION = ("no consent records were given (consents=): no exemption (a written "
                "agreement, an established business relationship) was considered for any "
                "call to a listed number")


def audit_frames(calls: pd.DataFrame, leads: pd.DataFrame | None, dnc: pd.DataFrame | None,
                 options: Options) -> AuditReport:
    """:func:`dialkit.compliance.audit` of pandas frames: every rule over the whole account
    as one part."""
    return judgment(calls, leads, dnc, options).report


@dataclass(frozen=True)
class Judgment:
    """An audit of pandas frames (:func:`judgment`): its report, and what a monitor keeps
    of the run to judge a part of the calls again (:mod:`._live._scope`).

    Attributes:
        report: The audit's report.
        part: The one part's audit: its ``dropped`` calls are every abandoned call made
            ready for abandonment's rate.
        ready: The calls as made ready.
    """

    report: AuditReport
    part: Part
    ready: Ready


def judgment(calls: pd.DataFrame, leads: pd.DataFrame | None, dnc: pd.DataFrame | None,
             options: Options) -> Judgment:
    """:func:`audit_frames`, with the part and the calls made ready kept."""
    given = {"calls": calls, "leads": leads, "dnc": dnc, "texts": options.texts}
    run = ready(calls, leads, options)
    windows = abandonment_windows(run.answered, options.rules, run.joined, run.opened)
    part = audited(run.calls, run.rows, run.leads, prepared_dnc(dnc, options.values),
                   windows.index.to_numpy(), options=options, joined=run.joined,
                   spoken=run.answered.index.to_numpy())
    return Judgment(report([part], windows=windows, options=options, joined=run.joined,
                           sources=sources_of(given), repeated=run.repeated,
                           unread=unread_counts(run.read, "calls")), part, run)


@dataclass(frozen=True)
class Ready:
    """The calls made ready for the rules (:func:`ready`), and what abandonment's rate
    reads of all of them.

    Attributes:
        calls: The calls prepared and read once each, the texts after them.
        rows: The outbound rows among them (of the campaigns asked for).
        leads: The leads prepared (of those campaigns).
        answered: The outbound calls a live person answered
            (:func:`._rows.answered_calls`).
        joined: Whether they hold agent join times (:func:`._abandonment.has_join_times`).
        opened: Each campaign's first call, where its periods are counted from.
        repeated: Rows of a call read once (:mod:`._inputs._once`).
        read: The calls as read, for the values not understood.
    """

    calls: pd.DataFrame
    rows: np.ndarray
    leads: pd.DataFrame | None
    answered: pd.DataFrame
    joined: bool
    opened: pd.DataFrame
    repeated: int
    read: pd.DataFrame


def ready(calls: pd.DataFrame, leads: pd.DataFrame | None, options: Options) -> Ready:
    """The calls and leads made ready for the rules, as :func:`audit_frames` judges them
    and the monitor measures abandonment's periods (:class:`Ready`)."""
    read = prepared_calls(calls, options.values)
    prepared, repeated = once_each(read)
    placed = len(prepared)  # the calls' rows; the texts' follow them
    campaign_leads = prepared_leads(leads, options.campaigns, options.values)
    prepared = with_texts(prepared, options.texts, campaign_leads)
    rows = outbound_rows(prepared, options.campaigns)
    answered = answered_calls(prepared, rows, options.rules)
    opened = first_calls(prepared, rows[rows < placed])  # a campaign's periods: its calls'
    return Ready(prepared, rows, campaign_leads, answered, has_join_times(answered), opened,
                 int(repeated), read)


def with_texts(prepared: pd.DataFrame, texts: pd.DataFrame | None,
               leads: pd.DataFrame | None) -> pd.DataFrame:
    """The prepared calls with the texts after them as outbound calls
    (:func:`._texts.texts_as_calls`); as they are where no text was given. What the
    audit judges, and :func:`~._ahead._when.next_allowed` counts toward a cap."""
    if texts is None or not len(texts):
        return prepared
    try:
        return texts_as_calls(texts, prepared, leads)
    except ValueError as error:
        raise AuditInputError(str(error), frame="texts") from None


def report(parts: Sequence[Part], *, windows: pd.DataFrame, options: Options, joined: bool,
           sources: Mapping[str, str], repeated: int = 0,
           unread: pd.DataFrame | None = None) -> AuditReport:
    """The report of the ``parts`` (one on pandas; one per partition on Dask): their
    findings and those of abandonment's rate, judged here from every campaign's
    ``windows`` (:func:`._abandonment.abandonment_windows`, indexed as the parts' dropped calls
    are), in order of rule and time; the abandoned calls in order of campaign and answer
    time; the population summed; ``sources`` names the frames given
    (:func:`._population.sources_of`), so the rules that need leads or DNC results ran
    where they name them; ``repeated`` calls' rows were read once (:mod:`._once`);
    ``unread``: the calls' values not understood (:func:`._vocabulary.unread_counts`)."""
    rules = options.rules
    has_leads, has_dnc = "leads" in sources, "dnc" in sources
    ran = ["calling_hours", "unknown_timezone", "call_frequency", "abandonment",
           "blocked_country", "short_ring", "caller_id",
           *(["unknown_jurisdiction"] if rules.jurisdictions and rules.states else []),
           *([NO_LAW] if rules.jurisdictions else [])]
    notes = {"abandonment": abandonment_said(rules, joined)[0]}
    if options.verified is None:
        notes["unverified_caller_id"] = f"not run: pass {spelled('verified_caller_ids')}"
    else:
        ran.append("unverified_caller_id")
    if not has_dnc:
        notes.update(dict.fromkeys(("dnc_call", "dnc_lead", "unscreened_lead"),
                                   f"not run: pass {spelled('dnc')}"))
    elif not has_leads:
        ran.append("dnc_call")
        notes.update(dict.fromkeys(("dnc_lead", "unscreened_lead"),
                                   f"not run: pass {spelled('leads')}"))
    else:
        ran += ["dnc_call", "dnc_lead", "unscreened_lead"]
    if options.consents is None:
        notes["no_written_consent"] = f"not run: pass {spelled('consents')}"
        if has_dnc:
            notes["exemptions"] = NO_EXEMPTION
    else:
        ran.append("no_written_consent")
        notes.update(assumed(options.consents))
        notes.update(dated_after(options.consents, options.reassigned, options.moment))
    if has_leads and reads_addresses(rules):
        ran.append("unknown_address_state")
    dropped = parts[0].dropped if len(parts) == 1 else pd.concat(
        [part.dropped for part in parts])
    at = dropped.index.get_indexer(windows.index)
    if (at < 0).any():
        raise RuntimeError("an abandoned call's window has no call: the parts and the "
                           "windows were told apart differently")
    found, abandoned = abandonment(dropped, windows.set_axis(at), rules, joined)
    found, abandoned = _placed_in(found, options), _placed_in(abandoned, options)
    frame = arranged(concatenated([*(part.findings for part in parts), found])
                     .reset_index(drop=True))
    frame = with_channel(frame.iloc[in_rule_order(frame)].reset_index(drop=True),
                         options.texts)
    notes.update(unread_note(frame))
    notes.update(repeated_note(int(repeated)))
    notes.update(assumed_facts(frame))
    if has_dnc and options.dnc_lists is not None:
        notes.update(unscrubbed_note(frozenset().union(*(part.reached for part in parts)),
                                     frame))
    notes.update(emergency_note(rules, frozenset().union(*(part.banned for part in parts))))
    notes.update(unanswered_note(options.dnc_unanswered))
    unread = summed_counts([]) if unread is None else unread
    notes.update(values_note(unread))
    notes.update(read_as_note(options.read_as))
    abandoned = abandoned.drop(columns=["local_time", "timezone"])
    if len(parts) > 1:
        abandoned = _in_campaign_order(abandoned)
    population = parts[0].population if len(parts) == 1 else _summed(
        [part.population for part in parts])
    if not population["answered"].sum():  # how abandonment would be told is moot
        notes["abandonment"] = NO_ANSWERED
    notes["texts"] = texts_note(options.texts, int(population.get("texts", pd.Series(
        dtype="int64")).sum()))
    ran = [r for r in RULE_IDS if r in ran]
    timezones = int((frame["rule"] == "unknown_timezone").sum())
    unjudged = summed([*(part.unjudged for part in parts),
                       of_every_rule(unread, ran, UNITS, timezones)], ran)
    return AuditReport(frame, abandoned, rules, tuple(ran), population, sources, notes,
                       options.period, unread, unjudged=unjudged)


def _placed_in(calls: pd.DataFrame, options: Options) -> pd.DataFrame:
    """The rows of ``calls`` (abandonment's findings, the abandoned calls) placed in the
    window, judged by their periods' figures over every call given."""
    inside = options.windowed(calls["at"])
    return calls if inside is None else calls[inside]


def in_rule_order(findings: pd.DataFrame,
                  ties: Callable[[Rows], Rows] | None = None) -> Rows:
    """The order of findings by rule (as :data:`RULE_IDS` lists them), then time (none
    last), then as given: one ``lexsort`` of integers, where a ``sort_values`` keyed by
    a map of the rules' text took 27 ms of 34,000 findings. ``ties`` orders the findings
    of one rule and time before that (the monitor's, gathered from several judgments:
    :func:`._live._scope.Scope.again`): given the positions of those that tie, their keys,
    compared only among them."""
    rule = pd.Categorical(findings["rule"], categories=RULE_IDS).codes
    at = findings["at"]
    when = np.where(at.isna().to_numpy(), np.iinfo(np.int64).max, pd.DatetimeIndex(at).asi8)
    order: Rows = np.lexsort((when, rule))
    if ties is None:
        return order
    same = (rule[order][1:] == rule[order][:-1]) & (when[order][1:] == when[order][:-1])
    tied = np.zeros(len(order), bool)
    tied[1:] |= same
    tied[:-1] |= same
    if not tied.any():
        return order
    keys = np.zeros(len(order), np.int64)
    keys[order[tied]] = ties(order[tied])
    order = np.lexsort((keys, when, rule))
    return order


def is_risk_of_a_list(findings: pd.DataFrame) -> Bools:
    """Which findings are a ``dnc_call`` of a state list's risk (a number no scrub of its
    state's list answers for: ``decided_by`` ``number``), not of a listing."""
    risk: Bools = ((findings["rule"] == "dnc_call") & (findings["decided_by"] == "number")
                   ).fillna(False).to_numpy(dtype=bool)
    return risk


_TYPES = {"campaign_id": "string", "phone": "string", "evidence": object}
"""The types of the common columns whose rules' frames differ (a lead's text, a call's),
so that the findings' types are the same whichever rules found them (``evidence`` as
Python text, as most audits' findings already held it: as Arrow text, the cast of
120,000 findings' words cost 4 % of a 1M-call audit)."""
_NONE_WHERE_UNKNOWN = ("call_id", "lead_id", "local_time", "timezone")
"""The common columns of Python text, None where a finding has none (a lead's finding no
call, a call no lead of the campaign, a number no known zone: as
:func:`._checks._hours.located` gives the zones), whichever rules' frames they came in."""


def arranged(frame: pd.DataFrame, *, gathered: bool = False) -> pd.DataFrame:
    """Findings of the rules, with the columns in the order the rules run
    (:data:`_COLUMN_ORDER`, as one part has them), of the same types whichever rules found
    them (:data:`_TYPES`), the counts as integers (left float by the concat's gaps).
    ``gathered`` from several judgments of calls with no window (the monitor's), with the
    columns one audit of them all gives: the common ones and each present rule's own
    (:data:`OWN_COLUMNS`); a window's findings keep the columns of the rules of every
    call given."""
    columns = [c for c in _COLUMN_ORDER if c in frame.columns]
    if gathered:
        rules = frame.loc[~is_risk_of_a_list(frame), "rule"].unique().tolist()
        own = {column for rule in rules for column in OWN_COLUMNS.get(rule, ())}
        columns = [c for c in columns if c in FINDING_COLUMNS or c in own]
    if CHANNEL in frame.columns:  # as :func:`._texts.with_channel` places it
        columns.insert(columns.index("call_id") + 1, CHANNEL)
    frame = frame[columns].astype({**_TYPES, **dict.fromkeys(
        _COUNTS.intersection(columns), "Int64")})
    return frame.assign(**{column: frame[column].astype(object).where(frame[column].notna(),
                                                                       None)
                           for column in _NONE_WHERE_UNKNOWN})


def _in_campaign_order(abandoned: pd.DataFrame) -> pd.DataFrame:
    """Abandoned calls of several parts, indexed by their calls' order, in the order one
    part of them all gives: by campaign (as its text sorts), answer time, then the calls'
    order; the index then counts them."""
    order = np.lexsort((abandoned.index.to_numpy(),
                        pd.DatetimeIndex(abandoned["answered_at"]).asi8,
                        campaign_codes(abandoned)))
    return abandoned.iloc[order].reset_index(drop=True)


def _summed(populations: list[pd.DataFrame]) -> pd.DataFrame:
    """The population of several parts: each campaign's counts summed."""
    whole = pd.concat(populations).groupby(level=0, dropna=False).sum()
    return whole.astype("int64").rename_axis("campaign_id").sort_index()
