"""``dialkit.compliance.audit``: every rule over the account's frames, one report.

Pure functions over DataFrames with the frames' documented columns, so the
same audit runs on ``client.frames``, on the cache, on a CSV or Parquet export
with those column names, or on one partition of a large account.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import overload

import numpy as np
import pandas as pd
import pyarrow as pa
from numpy.typing import NDArray

from .._arrays._groups import Bools
from .._arrays._kept import hash_taken
from .._files._outputs_written import written
from .._phones._zones import Rows
from .._shown._words import counted
from .._utils._base_error import (
    AuditInputError,  # noqa: F401
)
from ..contract import LeadStatus
from ..frames import write_csv
from ._checks._abandonment import (
    ANSWERED_COLUMNS,
    PLACE,
    abandonment,
    abandonment_windows,
    campaign_codes,
    first_calls,
    has_join_times,
    live,
    place_codes,
    told,
)
from ._checks._account import blocked_country, caller_id, unverified_caller_id
from ._checks._consent import (
    PRERECORDED,
    Lines,
    assumed,
    dated_after,
    lifting,
    no_written_consent,
    resolved,
)
from ._checks._dnc import (
    Facts,
    assumed_facts,
    business_lines,
    contract_records,
    dnc_call,
    dnc_lead,
    requests,
    unanswered_note,
    unscreened_lead,
)
from ._checks._findings import COLUMNS
from ._checks._frequency import SUBJECT, call_frequency, with_subjects
from ._checks._hours import Clock, banned_states, calling_hours, clock, emergency_note, located
from ._checks._lead_of import (
    addresses,
    lead_rows,
    other_numbers,
    reads_addresses,
    unknown_address_state,
    unread_note,
)
from ._checks._ring import RING_COLUMNS, short_ring
from ._checks._state_lists import unscrubbed_note, unscrubbed_states
from ._checks._texts import (
    CHANNEL,
    calls_only,
    texts_as_calls,
    texts_counted,
    texts_note,
    with_channel,
)
from ._inputs._columns import typed
from ._inputs._declared import read_by_rules, required
from ._inputs._headers import read_as_note
from ._inputs._load import TEXT_COLUMNS
from ._inputs._once import once_each, repeated_note
from ._inputs._options import lacking, spelled
from ._inputs._population import LIVE, by_rule, population_of, sources_of, summarised
from ._inputs._vocabulary import (
    Values,
    held_out,
    summed_counts,
    unread_counts,
    values_note,
    values_said,
)
from ._report._evidence import PAGE_STYLE, Names, masked, page, write_workbook
from ._report._text import EMPTY, bases_text, period_said, risk_counts, totals_text
from ._rules._rules import BASES, RULE_IDS, Rules

CALL_COLUMNS = required("calls")
LEAD_COLUMNS = required("leads")
DNC_COLUMNS = required("dnc")
READ_COLUMNS = (*read_by_rules("calls"), CHANNEL)
"""The calls' columns the checks read (and a text's channel); the others are taken only
for the abandoned calls."""
_SCANNED = ("from_number", "to_number", "created_at", "answered_at", "ended_at", "campaign_id",
            "disposition", SUBJECT, CHANNEL, PRERECORDED)
"""The calls' columns the checks read of every outbound call; the id (for the findings),
the direction and the join time (for the abandoned calls) are taken for a few rows."""
FEW_VALUED = ("campaign_id", "from_number", "disposition")
"""The calls' text columns of few distinct values (campaigns, caller ids, dispositions):
the checks group, count and compare them by their hash (:func:`hash_taken`), and the
Dask audit shuffles them as categories."""
_NAMES = {"id": "call_id", "to_number": "phone", "created_at": "at"}
_OWN_NAMES = {*_NAMES.values(), "lead_id"}
"""The names the audit gives columns of its own in what it answers of a call."""
_LEADS_UNREAD = frozenset(COLUMNS) - {"campaign_id", "phone"}
"""The findings' own columns a lead's column of the same name would stand in for."""
_COUNTS = {"calls_in_24h", "window_answered", "window_abandoned"}
_FINDING_COLUMNS = (*COLUMNS, "calls_in_24h", "window_rate", "window_answered",
                    "window_abandoned", "country", "from_number", "listed_at", "checked_at",
                    "rang_seconds", "address_state")
"""The findings' columns, every rule's own after the common ones in the order the rules
run (:func:`audited`), so that the findings of many parts have one part's order."""
LEAD_STATUSES = tuple(status.value for status in LeadStatus)
"""A lead's ``status`` values (the contract's); another is refused, never read as open."""
CONSENT_COLUMNS = required("consents")
"""The consent records' columns the audit needs, beside ``phone`` or ``lead_id``."""
REASSIGNED_COLUMNS = required("reassigned")
NO_ANSWERED = "not judged: no call answered by a live person was audited"
"""The abandonment note where no answered call was audited, for how it was told is moot."""
NO_EXEMPTION = ("no consent records were given (consents=): no exemption (a written "
                "agreement, an established business relationship) was considered for any "
                "call to a listed number")


@dataclass(frozen=True)
class AuditReport:
    """What an audit found.

    Attributes:
        findings: One row per finding: ``rule``, ``severity``, ``campaign_id``,
            ``call_id`` (a text's message id), ``channel`` (``call`` or ``text``;
            missing for a lead's finding), ``lead_id``, ``phone``, ``at`` (UTC), ``local_time``,
            ``timezone``, ``evidence`` (in words), ``jurisdiction`` and ``decided_by``
            (the law's row that decided), ``basis`` (``law`` or ``policy``: a
            violation; ``risk``: a call that may have broken a law, or a lead that
            could be called wrongly: :attr:`risks`) and
            ``policy`` (the policy's name), and each rule's own columns.
        abandoned: Every abandoned call (of the period asked, where one was), with its
            campaign's period and that period's figures (``window_*``), counted over
            every call given from the campaign's first.
        rules: The rules applied.
        ran: The rules that ran.
        population: Per campaign, what was audited: ``calls`` (outbound, of the period
            asked where one was), ``answered`` (of those) and ``leads``; ``texts`` where
            texts were given.
        sources: Each input frame in words: rows, period, where it came from
            and when it was fetched (from the frame's ``attrs``, as
            :func:`load` sets them).
        notes: Each rule that did not run and why; how abandonment was told.
        period: The period of calls asked for (``since=``, ``until=``), in words
            (``since 30d (2026-10-26 21:40 UTC)``); None where every call given was
            audited.
        unread: Each value of the calls' named columns not understood (``column``,
            ``value``, ``rows``), never read as a default: its rows were held out of the
            rules it would decide, and the notes name it (``values=`` maps it).
    """

    findings: pd.DataFrame
    abandoned: pd.DataFrame
    rules: Rules
    ran: tuple[str, ...]
    population: pd.DataFrame
    sources: Mapping[str, str]
    notes: Mapping[str, str] = field(default_factory=dict)
    period: str | None = None
    unread: pd.DataFrame = field(default_factory=lambda: summed_counts([]))
    """Each value of the calls' named columns not understood (:mod:`._inputs._vocabulary`):
    ``column``, ``value``, ``rows``; its rows were held out of the rules it would decide."""
    spoken: Callable[[str], str] = field(default=str, compare=False, repr=False)
    """How what the report says of the library's arguments (``values={...}``) is said to
    its reader: as it is, in Python; the command line's words where the command wrote it
    (``--value ...``), on its text, its workbook's cover and its page alike."""

    @property
    def calls_audited(self) -> int:
        """How many outbound calls were audited: none (an empty period, a campaign with no
        calls) and every rule of calls "passes" with nothing to check, which
        :attr:`empty` and every output of the report say."""
        return int(self.population["calls"].sum())

    @property
    def held_out(self) -> int:
        """How many calls were not audited at all for a ``direction`` not understood
        (:attr:`unread`): an audit of no call where the file held some is no quiet period,
        and fails ``fail_on`` whatever ``allow_empty`` says."""
        return held_out(self.unread)

    @property
    def texts_audited(self) -> int:
        """How many texts were audited as calls (``texts=``), apart from the calls."""
        return int(self.population["texts"].sum()) if "texts" in self.population else 0

    @property
    def empty(self) -> bool:
        """Whether no call (and no text) was audited (:attr:`calls_audited` is 0): a
        report to read as "nothing was checked", not as "nothing was wrong"."""
        return self.calls_audited == 0 and self.texts_audited == 0

    @property
    def summary(self) -> pd.DataFrame:
        """Per rule that ran and campaign: ``findings`` (of which ``law``, ``policy`` and
        ``risk``), what they are counted among (``audited`` of ``unit``: outbound calls,
        answered calls or leads) and ``rate``."""
        return summarised(self.findings, self.population, self.ran)

    @property
    def totals(self) -> pd.DataFrame:
        """The summary over every campaign, one row per rule that ran: ``findings`` (of
        which ``law``, ``policy`` and ``risk``), ``audited``, ``unit``, ``rate``,
        ``passed``."""
        return by_rule(self.summary)

    @property
    def passed(self) -> pd.Series:
        """Per rule that ran: whether it found nothing."""
        found = set(self.findings["rule"])
        return pd.Series({rule: rule not in found for rule in self.ran}, name="passed")

    def to_csv(self, path: str | os.PathLike[str], *, mask_pii: bool = False,
               escape_formulas: bool = True) -> None:
        """Every finding as one CSV row (times in UTC).

        Ids and numbers come from the account's data and can hold a formula; by default
        a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
        return is written with a leading ``'`` so that a spreadsheet shows it as text
        (a whole E.164 number is left as it is; a masked one is text, and escaped).
        ``escape_formulas=False`` writes the values as they are, for programs.
        """
        write_csv(masked(self.findings, mask_pii), path, escape_formulas=escape_formulas)

    def to_excel(self, path: str | os.PathLike[str], *, mask_pii: bool = False,
                 about: Mapping[str, str] | None = None, names: Names = None) -> None:
        """The evidence workbook: a cover (what was audited: ``about``, e.g. the account
        and auditor, then how many calls were audited, the period asked for beside the
        data's own, the rules and their parameters and how abandonment was told), the
        summary, and one sheet per rule with every finding, headers frozen and filtered;
        ``mask_pii`` shows phone numbers as ``+1415*****23``; ``names`` (the campaigns,
        ``client.frames.campaigns()``, or their names by id) shows each campaign as
        ``Spring renewals (cmp_...)``."""
        write_workbook(self, path, mask_pii=mask_pii, about=about or {}, names=names)

    @overload
    def to_html(self, path: None = None, *, mask_pii: bool = ...,
                about: Mapping[str, str] | None = ..., names: Names = ...) -> str: ...
    @overload
    def to_html(self, path: str | os.PathLike[str], *, mask_pii: bool = ...,
                about: Mapping[str, str] | None = ..., names: Names = ...) -> None: ...
    def to_html(self, path: str | os.PathLike[str] | None = None, *, mask_pii: bool = False,
                about: Mapping[str, str] | None = None, names: Names = None) -> str | None:
        """One self-contained page: what was audited, the summary, a chart and the
        findings of each rule, campaigns by name and id when ``names`` are given (as
        :meth:`to_excel`); returned, or written to ``path`` and nothing returned, as
        pandas' ``to_html(buf)`` does (a notebook cell ending with it showed 150,000
        characters of HTML, issue 72)."""
        body = page(self, mask_pii=mask_pii, about=about or {}, names=names)
        text = ("<!doctype html><meta charset='utf-8'><title>Compliance audit</title>"
                f"<style>{PAGE_STYLE}</style>{body}")
        if path is None:
            return text
        with written(path, "path") as partial:
            partial.write_text(text, encoding="utf-8")
        return None

    @property
    def by_basis(self) -> pd.Series:
        """How many findings law decides, how many the account's policy does (the
        violations), and how many are risks (a call that may have broken a law, a lead that
        could be called wrongly: no rule is known broken; :attr:`risks` counts them by what
        they are), by each finding's ``basis``: a count of findings, each in one."""
        counts = self.findings["basis"].value_counts()
        return pd.Series({basis: int(counts.get(basis, 0)) for basis in BASES},
                         name="findings")

    @property
    def risks(self) -> pd.Series:
        """The risks (:attr:`by_basis`' ``risk``) by what they are, each counted in its own
        unit: ``calls`` that may have broken a law (the data cannot tell: a campaign call
        without written consent to a number that may be wireless; the first call to a
        number of a state whose own Do-Not-Call list is required and was not given, one a
        number) and ``leads`` that could be called wrongly (listed, unscreened, an
        address state unread)."""
        return risk_counts(self.findings)

    def masked_findings(self) -> pd.DataFrame:
        """The findings with every phone number masked to its last digits, as the evidence
        written with ``mask_pii=True`` shows them: findings to share or print without the
        numbers (``dialkit compliance audit --mask-pii``)."""
        return masked(self.findings, True)

    def to_text(self) -> str:
        """The audit in plain text: how many findings, of law, of policy and risks, then
        the period asked for (``since=``, ``until=``) with its dates, then per rule the
        findings (law's, policy's, risks), among how many calls or leads, the rate and the
        verdict, then each note (a rule that did not run and why), a line each.

        Examples:
            >>> calls = pd.DataFrame({
            ...     "id": ["call_1"], "direction": "outbound", "from_number": "+14155550100",
            ...     "to_number": "+12125550123", "created_at": pd.Timestamp("2026-06-01T15:00Z"),
            ...     "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
            ...     "disposition": None})
            >>> from dialkit.compliance import audit
            >>> print(audit(calls).to_text())  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
            0 findings: 0 of law, 0 of policy, 0 risks (US federal and state law (TSR,
            TCPA, state statutes))
                                  findings  law  policy  risk audited              of   rate verdict
            rule
            calling_hours                0    0       0     0       1  outbound calls  0.00%  passed
            ...
            unverified_caller_id: not run: pass verified_caller_ids=
            ...
        """
        notes = (f"{rule}: {note}" for rule, note in self.notes.items())
        return "\n".join([*([self.empty_said] if self.empty else []),
                          f"{bases_text(self.by_basis, self.risks)} ({self.rules.name})",
                          *period_said(self.period),
                          totals_text(self.totals), *notes])

    @property
    def empty_said(self) -> str:
        """What a report of no call says first, in its text, on the workbook's cover and
        at the top of its page: which values held its calls out, where some did, not the
        period asked for (:data:`EMPTY`)."""
        return EMPTY if not self.held_out else self.spoken(values_said(self.unread))

    def _repr_html_(self) -> str:
        return page(self, mask_pii=False, about={}, shown=5)

    def __repr__(self) -> str:
        counts = self.findings["rule"].value_counts()
        shown = ", ".join(f"{rule} {counts[rule]}" for rule in RULE_IDS if rule in counts)
        law, policy, risk = self.by_basis
        empty = f" {EMPTY.split(':')[0]}:" if self.empty else ""
        return (f"<AuditReport {self.rules.name}:{empty} "
                f"{counted(len(self.findings), 'finding')} ({law} law, {policy} policy, "
                f"{risk} risk): {shown or 'none'}>")


def audit_frames(calls: pd.DataFrame, leads: pd.DataFrame | None, dnc: pd.DataFrame | None,
                 options: Options) -> AuditReport:
    """:func:`dialkit.compliance.audit` of pandas frames: every rule over the whole account
    as one part."""
    given = {"calls": calls, "leads": leads, "dnc": dnc, "texts": options.texts}
    read = prepared_calls(calls, options.values)
    prepared, repeated = once_each(read)
    placed = len(prepared)  # the calls' rows; the texts' follow them
    campaign_leads = prepared_leads(leads, options.campaigns, options.values)
    prepared = with_texts(prepared, options.texts, campaign_leads)
    rows = outbound_rows(prepared, options.campaigns)
    answered = answered_calls(prepared, rows, options.rules)
    joined = has_join_times(answered)
    opened = first_calls(prepared, rows[rows < placed])  # a campaign's periods: its calls'
    windows = abandonment_windows(answered, options.rules, joined, opened)
    part = audited(prepared, rows, campaign_leads,
                   prepared_dnc(dnc, options.values), windows.index.to_numpy(),
                   options=options, joined=joined, spoken=answered.index.to_numpy())
    return report([part], windows=windows, options=options, joined=joined,
                  sources=sources_of(given), repeated=repeated,
                  unread=unread_counts(read, "calls"))


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
    (:func:`prepared_consents`): small, so every part gets them whole."""
    period: str | None = None
    """The period of calls asked for, in words (``since 12d (2026-11-14 09:00 UTC)``)."""
    since: pd.Timestamp | None = None
    until: pd.Timestamp | None = None
    """The window asked for (UTC): only the calls placed from ``since`` to before ``until``
    are reported, each judged against every call given (the history its rules count)."""
    texts: pd.DataFrame | None = field(default=None, compare=False)
    """The account's texts (:func:`prepared_texts`), audited as calls (:mod:`._texts`);
    small, so every part gets them whole (on Dask, their rows are shuffled with the calls)."""
    nonprofit: bool = False
    """Whether the account is a tax-exempt nonprofit calling for itself (issue 61)."""
    charity: bool = False
    newspaper: bool = False
    """Whether the account is (or calls for) a registered charity soliciting a donation, a
    newspaper soliciting subscriptions (issue 73: Canada's DNCL does not bind them)."""
    contracts: pd.DataFrame | None = field(default=None, compare=False)
    """The written contracts in force (:func:`prepared_contracts`), small, whole in each part."""
    dnc_lists: frozenset[str] | None = None
    """The state lists the DNC results hold a row of (:func:`._state_lists.lists_given`); None
    where the DNC results are not the account's scrubs (the judges before a call ask so
    of what they make up: :func:`history_findings`), and no number's missing scrub of its
    state's list is judged. Which number a scrub answers for is its own row's
    (:func:`._state_lists.unscrubbed_states`, issue 79)."""
    dnc_unanswered: int = 0
    """How many DNC results leave ``listed`` empty (:func:`._dnc.unanswered`), for the note."""
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
    campaign's rate) and the ``population`` (:class:`AuditReport`'s)."""

    findings: pd.DataFrame
    dropped: pd.DataFrame
    population: pd.DataFrame
    reached: frozenset[str] = frozenset()
    """The state lists whose states' numbers were called with no scrub of the list
    answering for them (:func:`._state_lists.unscrubbed_states`), for the report's note."""
    banned: frozenset[str] = frozenset()
    """The states whose law bans calls during a declared emergency that the reported calls
    reached (:func:`._hours.banned_states`), for the report's note (issue 73)."""


def prepared_calls(calls: pd.DataFrame, values: Values = None) -> pd.DataFrame:
    """The calls checked for the audit's columns, times in UTC, their named columns
    (direction, status, disposition, hangup cause) read through the vocabulary with the
    user's ``values`` (:mod:`._inputs._vocabulary`: a value not understood is kept as
    written, and its rows held out of the rules it would decide)."""
    return _prepared(calls, CALL_COLUMNS, "calls", values)


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


def prepared_texts(texts: pd.DataFrame | None) -> pd.DataFrame | None:
    """The texts (``client.frames.sms_reports()``) checked, times in UTC, their
    ``attrs`` kept (where :func:`~dialkit.compliance.load` says why none were read)."""
    if texts is None:
        return None
    prepared = _prepared(texts, TEXT_COLUMNS, "texts")
    prepared.attrs.update(texts.attrs)
    return prepared


def prepared_leads(leads: pd.DataFrame | None, campaigns: Collection[str] | None,
                   values: Values = None) -> pd.DataFrame | None:
    """The leads of the audited campaigns, checked, their ``id`` as ``lead_id``. A column
    of their own under a name a finding gives its own (``lead_id``, ``at``, ``timezone``,
    ``basis``, ...: a lead file's time zone) is not kept: no rule reads it, and a finding
    of a lead would have said it as the audit's. Its ``status`` and ``line`` are read
    through the vocabulary (a value not understood refused, naming it)."""
    if leads is None:
        return None
    leads = _prepared(leads, LEAD_COLUMNS, "leads", values)
    theirs = [column for column in leads.columns if column in _LEADS_UNREAD]
    if theirs:
        leads = leads.drop(columns=theirs)
    leads = leads.rename(columns={"id": "lead_id"})
    return leads if campaigns is None else leads[leads["campaign_id"].isin(campaigns)]


def prepared_dnc(dnc: pd.DataFrame | None, values: Values = None) -> pd.DataFrame | None:
    """The DNC results checked, times in UTC, ``listed`` as booleans, a ``list`` column's
    values ``national``, ``company`` (shared decision 3 of issue 47) or a state's list
    (issue 73), each read as people write it (the vocabulary's
    :func:`._inputs._vocabulary.list_named`). A result whose
    ``listed`` is empty (not known) is left out: no check of its number, nor a scrub of it
    against a state's list (issue 79: it let a required list's risk pass), which the
    report's note counts (:func:`._checks._dnc.unanswered`)."""
    if dnc is None:
        return None
    prepared = _prepared(dnc, DNC_COLUMNS, "dnc", values)
    answered = prepared["listed"].notna().to_numpy(bool)
    return prepared if answered.all() else prepared[answered]


def prepared_contracts(contracts: pd.DataFrame | None,
                       has_leads: bool) -> pd.DataFrame | None:
    """The written contracts (issue 73) checked as the consent records are: ``phone`` or
    ``lead_id``, ``signed_at`` and ``ends_at`` (added empty: in force) in UTC."""
    if contracts is None:
        return None
    prepared = _prepared(contracts, required("contracts"), "contracts")
    if "phone" not in prepared and ("lead_id" not in prepared or not has_leads):
        raise AuditInputError("contracts name no phone (or a lead_id, with leads=): give "
                              "each contract's number (E.164)", frame="contracts")
    if "ends_at" not in prepared:
        prepared["ends_at"] = pd.Series(pd.NaT, index=prepared.index,
                                        dtype="datetime64[ns, UTC]")
    return prepared


def prepared_consents(consents: pd.DataFrame | None, has_leads: bool,
                      values: Values = None) -> pd.DataFrame | None:
    """The consent records checked: ``phone`` or ``lead_id`` (``lead_id`` needs leads),
    ``kind`` and ``relationship`` read through the vocabulary, times in UTC, ``revoked_at`` added
    empty where absent."""
    if consents is None:
        return None
    prepared = _prepared(consents, CONSENT_COLUMNS, "consents", values)
    if "phone" not in prepared and "lead_id" not in prepared:
        raise AuditInputError("consents has no column phone or lead_id: give each record's "
                              "number (E.164) or its lead's id", frame="consents")
    if "phone" not in prepared and not has_leads:
        raise AuditInputError("consents name leads by lead_id: pass leads= too, or give each "
                              "record's phone", frame="consents")
    if "revoked_at" not in prepared:
        prepared["revoked_at"] = pd.Series(pd.NaT, index=prepared.index,
                                           dtype="datetime64[ns, UTC]")
    return prepared


def prepared_reassigned(reassigned: pd.DataFrame | None,
                        values: Values = None) -> pd.DataFrame | None:
    """The reassigned numbers database's answers checked: ``answer`` one of
    :data:`._inputs._vocabulary.ANSWERS`, ``asked_at`` in UTC."""
    if reassigned is None:
        return None
    return _prepared(reassigned, REASSIGNED_COLUMNS, "reassigned", values)


def answered_calls(prepared: pd.DataFrame, rows: Rows, rules: Rules) -> pd.DataFrame:
    """The calls answered by a live person among the outbound ones at ``rows``
    (:func:`._abandonment.live`), with the columns abandonment reads and the law's row of
    their number (:data:`._abandonment.PLACE`), indexed by their position among the
    outbound calls; their campaigns' hash is the calls' own, kept (:func:`hash_taken`),
    for the order of the campaigns."""
    where = live_at(prepared, rows)
    columns = [c for c in ANSWERED_COLUMNS if c in prepared]
    answered = _columns_at(prepared, columns, rows[where]).set_axis(
        pd.RangeIndex(len(rows))[where])
    hash_taken(answered["campaign_id"], prepared["campaign_id"], rows[where])
    return answered.assign(**{PLACE: place_codes(answered["to_number"], rules).astype(np.int8)})


def live_at(prepared: pd.DataFrame, rows: Rows) -> Rows:
    """The positions among the outbound calls at ``rows`` of those a live person answered
    (:func:`._abandonment.live`): the one reading of a live answer, which abandonment's
    rate counts among and the population's ``answered`` counts too, so that the
    summary's answered calls are the findings' (issue 79: a summary that counted
    voicemails said 7 of 93 where the finding said 7 of 71)."""
    found: Rows = np.searchsorted(rows, live(prepared, rows))
    return found


def _counted(outbound: pd.DataFrame, spoken: Rows, inside: Bools | None) -> pd.DataFrame:
    """The outbound calls the population counts (those in the window, ``inside``), with
    :data:`._population.LIVE`: whether a live person answered each (``spoken``: their
    positions, :func:`live_at`). Only the columns counted: the campaigns' text is the
    calls' own, whose hash is kept."""
    spoke = np.zeros(len(outbound), bool)
    spoke[spoken] = True
    counted = outbound[[c for c in ("campaign_id", CHANNEL) if c in outbound]].assign(
        **{LIVE: spoke})
    return counted if inside is None else counted[inside]


def audited(prepared: pd.DataFrame, rows: Rows, leads: pd.DataFrame | None,
            dnc: pd.DataFrame | None, dropped: Rows, *, options: Options,
            joined: bool, spoken: Rows | None = None) -> Part:
    """Every rule but abandonment's rate over the outbound calls at ``rows`` of the
    ``prepared`` calls and the ``leads`` (both as the ``prepared_*`` functions give them);
    the abandoned calls (``dropped``: their positions among the outbound calls, as
    :func:`._abandonment.dropped` tells them) made ready for it. All of the account's calls,
    or on Dask all calls, leads and DNC results of some numbers: no rule but
    abandonment's rate looks beyond one number, and that rate is judged in
    :func:`report`, so that a part need not wait for every campaign's windows. Only the
    findings of the calls in ``options``' window are kept, and only they are counted in
    the population; every call given is history that the rules count. ``spoken``: the
    positions of the calls a live person answered, where the caller read them already
    (:func:`answered_calls`; else :func:`live_at` here)."""
    rules = options.rules
    outbound = _outbound(prepared, rows)
    judged = _Judged.of(outbound, leads, options, _ids(prepared, rows))
    lead, consents, times = judged.lead, judged.consents, judged.times
    inside = options.windowed(outbound["at"])
    calls = calls_only(outbound)  # the rules of a voice call: not a text's
    found = [*calling_hours(outbound, times), judged.frequency()]
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
    found.append(located(short_ring(outbound, rules, lambda at: _columns_at(
        prepared, [c for c in RING_COLUMNS if c in prepared], rows[at])), times))
    found = [_named(_reported(_concat(found), inside), prepared, rows, outbound, leads, lead)]
    if dnc is not None and leads is not None:
        found += [dnc_lead(leads, dnc, requests(outbound, consents, options.moment)),
                  unscreened_lead(leads, dnc, rules, options.moment)]
    if leads is not None and reads_addresses(rules):
        found.append(unknown_address_state(leads))
    abandoned = located(outbound.iloc[dropped], times)
    named = _named(abandoned, prepared, rows, outbound, leads, lead)
    counted = _counted(outbound, live_at(prepared, rows) if spoken is None else spoken,
                       inside)
    return Part(_concat(found).reset_index(drop=True), _every_column(named, prepared, rows),
                texts_counted(population_of(calls_only(counted), leads), counted), reached,
                banned_states(times, inside))


def history_findings(calls: pd.DataFrame, leads: pd.DataFrame | None,
                     dnc: pd.DataFrame | None, options: Options) -> pd.DataFrame:
    """The findings of the two rules that read what was done to a number before, the caps
    (``call_frequency``) and a listing (``dnc_call``, with the risk of a number no scrub of
    its state's required list answers for, where ``options.dnc_lists`` is not None: on
    its first call in ``options``' window), of pandas ``calls`` beside the
    ``leads`` and ``dnc`` results, each with its ``call_id`` and ``lead_id``: the rows
    :func:`audit_frames` finds of these rules, by the same functions, without the other
    rules' work. What :func:`~._ahead._when.next_allowed` and the guard's judge ask of the
    calls they make up (issue 63: they call the checks, not the public audit)."""
    prepared, _ = once_each(prepared_calls(calls))
    leads = prepared_leads(leads, options.campaigns)
    rows = outbound_rows(prepared, options.campaigns)
    outbound = _outbound(prepared, rows)
    judged = _Judged.of(outbound, leads, options, _ids(prepared, rows))
    dnc = prepared_dnc(dnc)
    found = [judged.frequency(), *([] if dnc is None else [judged.dnc_calls(dnc),
                                                           judged.unscrubbed(dnc)[0]])]
    return _named(_concat(found), prepared, rows, outbound, leads, judged.lead)


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


def _concat(found: list[pd.DataFrame]) -> pd.DataFrame:
    """The findings of several rules as one frame, each row's index kept (the first rule's
    findings, empty, if none)."""
    return pd.concat([f for f in found if len(f)] or [found[0]])


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
           *(["unknown_jurisdiction"] if rules.jurisdictions and rules.states else [])]
    notes = {"abandonment": told(rules, joined)[0]}
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
    frame = _concat([*(part.findings for part in parts), found]).reset_index(drop=True)
    frame = frame[sorted(frame.columns, key=_FINDING_COLUMNS.index)]  # as one part has them
    for column in _COUNTS.intersection(frame.columns):  # left float by the concat's gaps
        frame[column] = frame[column].astype("Int64")
    frame = with_channel(frame.iloc[_in_rule_order(frame)].reset_index(drop=True),
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
    return AuditReport(frame, abandoned, rules, tuple(r for r in RULE_IDS if r in ran),
                       population, sources, notes, options.period, unread)


def _placed_in(calls: pd.DataFrame, options: Options) -> pd.DataFrame:
    """The rows of ``calls`` (abandonment's findings, the abandoned calls) placed in the
    window, judged by their periods' figures over every call given."""
    inside = options.windowed(calls["at"])
    return calls if inside is None else calls[inside]


def _in_rule_order(findings: pd.DataFrame) -> Rows:
    """The order of findings by rule (as :data:`RULE_IDS` lists them), then time (none
    last), then as given: one ``lexsort`` of integers, where a ``sort_values`` keyed by
    a map of the rules' text took 27 ms of 34,000 findings."""
    rule = pd.Categorical(findings["rule"], categories=RULE_IDS).codes
    at = findings["at"]
    when = np.where(at.isna().to_numpy(), np.iinfo(np.int64).max, pd.DatetimeIndex(at).asi8)
    order: Rows = np.lexsort((when, rule))
    return order


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


def _prepared(frame: pd.DataFrame, needed: tuple[str, ...], name: str,
              values: Values = None) -> pd.DataFrame:
    """A copy with the needed columns checked and the times as UTC (a column already in
    UTC, as ``client.frames`` types it, is kept as it is: the copy shares its data), its
    named columns read through the vocabulary with the user's ``values``."""
    missing = [column for column in needed if column not in frame.columns]
    if missing:
        raise AuditInputError(lacking(name, missing, needed), frame=name)
    try:
        return typed(frame.copy(deep=False), name, values)
    except ValueError as error:  # the column, its value and row, what to write instead
        raise AuditInputError(str(error), frame=name) from None


def outbound_rows(prepared: pd.DataFrame, campaigns: Collection[str] | None) -> Rows:
    """The positions of the outbound calls (of ``campaigns``, if given), without a boolean
    mask over the rows' text."""
    direction = prepared["direction"]
    if isinstance(direction.dtype, pd.CategoricalDtype):  # the categories' text, not the rows'
        wanted = np.flatnonzero(direction.cat.categories.astype(str) == "outbound")
        keep = np.isin(direction.cat.codes.to_numpy(), wanted)
    else:
        keep = (direction.astype(str) == "outbound").to_numpy(dtype=bool)
    if campaigns is not None:
        keep = keep & prepared["campaign_id"].isin(campaigns).to_numpy(dtype=bool)
    return np.flatnonzero(keep)


def _outbound(prepared: pd.DataFrame, rows: Rows) -> pd.DataFrame:
    """The outbound calls at ``rows`` with the findings' names (``phone``, ``at``), only the
    columns the checks read of every call (:data:`_SCANNED`): the call's id and lead are
    named on the findings alone (:func:`_named`), and :func:`_every_column` adds the rest
    to the abandoned calls. Rows are taken by position: a boolean mask took most of a
    second on a million calls, and taking every column (status, hangup cause, duration)
    another 0.2 s; the id and the lead of every call, 0.1 s more. Arrow text is filtered
    instead (:func:`_filtered`)."""
    outbound = _columns_at(prepared, [c for c in prepared.columns if c in _SCANNED],
                           rows).rename(columns=_NAMES)
    for column, taken_from in (("phone", "to_number"), *((c, c) for c in FEW_VALUED)):
        hash_taken(outbound[column], prepared[taken_from], rows)
    return outbound


def _ids(prepared: pd.DataFrame, rows: Rows) -> Callable[[Rows], NDArray[np.object_]]:
    """The ids of the outbound calls at the rows asked (positions among ``rows``), taken
    only when asked: the outbound calls keep none (:func:`_outbound`)."""
    return lambda at: np.asarray(take(prepared["id"], rows[at]), dtype=object)


def _columns_at(frame: pd.DataFrame, columns: list[str], rows: Rows) -> pd.DataFrame:
    """The ``columns`` of ``frame`` at its ascending ``rows`` (:func:`_filtered`)."""
    keep = np.zeros(len(frame), bool)
    keep[rows] = True
    mask = pa.array(keep)
    return pd.DataFrame({c: _filtered(frame[c], rows, mask) for c in columns}, copy=False)


def _filtered(column: pd.Series, rows: Rows,
              keep: pa.BooleanArray) -> pd.api.extensions.ExtensionArray:
    """``column``'s ascending ``rows`` (``keep`` as a mask): Arrow text filtered chunk by
    chunk and joined into one chunk, where a take joins the chunks first (8.7 against 13 ms
    of CPU, 900,000 of a million numbers in 8 chunks); one chunk, so that each
    check's few rows are taken from it without joining them again."""
    if not (isinstance(column.dtype, pd.StringDtype) and column.dtype.storage == "pyarrow"):
        return column.array.take(rows)
    arrow = pa.chunked_array(column.array.__arrow_array__())
    return pd.array(arrow.filter(keep).combine_chunks(), dtype=column.dtype)


def _named(found: pd.DataFrame, prepared: pd.DataFrame, rows: Rows, outbound: pd.DataFrame,
           leads: pd.DataFrame | None, lead: Rows | None) -> pd.DataFrame:
    """Findings (or abandoned calls) of the ``outbound`` calls, indexed by position among
    them, with their ``call_id`` and ``lead_id`` (:func:`._lead_of.lead_rows`; ``lead``, where every
    call's lead was found already): looked up for these few rows only."""
    at = found.index.to_numpy()
    call_id = pd.Series(take(prepared["id"], rows[at]), index=found.index)
    if leads is None:
        return found.assign(call_id=call_id, lead_id=pd.NA)
    its = lead[at] if lead is not None else lead_rows(outbound, leads, at)
    lead_id = pd.Series(leads["lead_id"].array.take(its, allow_fill=True), index=found.index,
                        dtype=leads["lead_id"].dtype)
    return found.assign(call_id=call_id, lead_id=lead_id)


def take(column: pd.Series, at: Rows) -> pd.api.extensions.ExtensionArray:
    """``column.array.take(at)`` for a few rows; of an Arrow text column in chunks (as
    Parquet gives it), chunk by chunk: ``pyarrow`` joins a column's chunks to take from it,
    a copy of the whole column (6 ms for 8,000 of a million ids in 8 chunks; 0.9 ms chunk
    by chunk)."""
    arrow = column.array.__arrow_array__() if isinstance(column.dtype, pd.StringDtype) and (
        column.dtype.storage == "pyarrow") else None
    if not isinstance(arrow, pa.ChunkedArray) or arrow.num_chunks < 2:
        return column.array.take(at)
    sizes = np.array([len(chunk) for chunk in arrow.chunks])
    starts = np.cumsum(sizes) - sizes
    chunk = np.searchsorted(starts, at, side="right") - 1
    order = np.argsort(chunk, kind="stable")
    parts = [arrow.chunks[n].take(pa.array(at[order][chunk[order] == n] - starts[n]))
             for n in range(len(sizes))]
    back = np.empty(len(order), np.intp)
    back[order] = np.arange(len(order))
    joined = pa.chunked_array(parts, arrow.type).combine_chunks().take(pa.array(back))
    return pd.array(joined, dtype=column.dtype)


def _every_column(taken: pd.DataFrame, prepared: pd.DataFrame, rows: Rows) -> pd.DataFrame:
    """Outbound calls as a check returned them (``taken``, indexed by position among the
    outbound calls, named by :func:`_named`), with every column of the calls again, in the
    calls' order, then ``lead_id`` and the columns the check added. Only the columns
    ``taken`` lacks are taken from the calls, chunk by chunk (:func:`take`). A column of
    the calls' own under a name the audit gives its own (``phone``, ``call_id``, ``at``,
    ``lead_id``: an export of another dialer's) is not read, so that a column no rule
    reads changes no answer: the number called is ``to_number``'s, the lead the one the
    audit found (:func:`_named`)."""
    at = rows[taken.index.to_numpy()]
    names = {c: _NAMES.get(c, c) for c in prepared.columns if c not in _OWN_NAMES}
    rest = pd.DataFrame({name: take(prepared[c], at) for c, name in names.items()
                         if name not in taken}, index=taken.index)
    added = [c for c in taken.columns if c not in names.values() and c != "lead_id"]
    return pd.concat([taken, rest], axis=1)[[*names.values(), "lead_id", *added]]
