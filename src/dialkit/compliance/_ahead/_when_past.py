"""What :func:`._when.next_allowed` knows from what was done to a number: its past calls
(a cap the next call would break) and the DNC results (a list it is on).

Judged by the audit's own checks, not by a second count: the call asked about is added to
the account's calls at the moment asked and the audit's functions of these two rules
(:func:`.._part.history_findings`) judge them all, so the answer and the audit cannot
disagree, whatever the audit counts (per number, person or
subject). A call a cap forbids is asked again at each moment a past call leaves a cap's
period (a call exactly one period before does not count), the earliest the audit allows
being the moment the cap frees the number; the law's hours then give the first allowed
moment from there. A number the audit finds listed has no next allowed moment.

What lifts a list's rule from a call besides a consent (the account's facts, its
written contracts and the reassigned answers that void one, a number's business line) is
read by the audit's own readers (:class:`Lifting`) and given to the audit's check of a
listing as the audit gives it, so that a judge before the call lifts what the audit lifts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from ..._utils._base_error import AuditInputError
from ..._utils._choices import AUDIT_INPUTS
from ...frames import maybe_pandas, utc_times
from .._checks._consent import lifting, resolved
from .._checks._frequency import SUBJECT, subjects_to_come
from .._checks._lead_of import other_numbers
from .._inputs._declared import INPUTS
from .._inputs._prepared import (
    CALL_COLUMNS,
    LEAD_COLUMNS,
    lists_given,
    prepared_consents,
    prepared_contracts,
    prepared_leads,
    prepared_reassigned,
)
from .._part import Options, history_findings
from .._rules import _jurisdictions as table
from .._rules._rules import Rules

RULES = ("dnc_call", "call_frequency")
"""The rules of a call that depend on what was done to the number, most lasting first."""
MAX_ROUNDS = 24
"""How many moments a cap's end is looked for at (a cap of a few calls frees a number
within as many); none found: no next allowed moment is known."""
_ASKED = "asked:"
"""The prefix of the asked calls' ids among the calls the audit judges."""
RISK = "risk"
"""A finding's ``basis`` that says the call may break the law, not that it does (a state's
required list no scrub answers for: :mod:`.._checks._state_lists`; a listing whose list's
words on its exemptions were not read, where a record would exempt it: :mod:`.._checks._dnc`):
it forbids no call, and the answer's ``risk`` column says it."""
RISK_JURISDICTION = "risk_jurisdiction"
"""The jurisdiction of the finding a ``risk`` says (``US-CO``), beside the answer's own
columns for the client's guard, whose verdict names it as a refusal's names its own."""
_TEXTS = ("rule", "forbidden_by", "jurisdiction", "basis", "policy", "next_local_time",
          "timezone", RISK, RISK_JURISDICTION)

FACTS = ("nonprofit", "charity", "newspaper")
"""The facts of the account that lift a list's rule from every call (the audit's switches
of the same names, :data:`dialkit._utils._choices.AUDIT_INPUTS`)."""
LISTS_READ = tuple(column.name for column in INPUTS["leads"]
                   if column.required or "dnc_call" in column.read_by)
"""The leads' columns a listing's judgment reads (the declaration's: ``line``, and the ids
a contract names), where a judge reads the account's leads for the lists alone."""

Hours = Callable[[list[str], pd.Timestamp], pd.DataFrame]


@dataclass(frozen=True)
class Lifting:
    """What lifts a Do-Not-Call list's rule from a call to come, as the audit takes it (its
    inputs of the same names, read by its readers): the account's facts (``nonprofit``,
    ``charity``, ``newspaper``), its written ``contracts``, its ``consents`` (which lift
    the hours of some rows too: :meth:`consented`) and the ``reassigned`` answers that void
    either, and ``leads``: the account's leads read for the
    lists alone (:data:`LISTS_READ`: a number every lead of which says ``line``
    ``business``; the lead a contract names by id), for a judge that reads no leads of its
    own (the client's guard). The audit's check of a listing (:func:`.._checks._dnc.dnc_call`,
    through :func:`.._part.history_findings`) reads them as it reads them for a call made."""

    nonprofit: bool = False
    charity: bool = False
    newspaper: bool = False
    contracts: pd.DataFrame | None = field(default=None, compare=False)
    reassigned: pd.DataFrame | None = field(default=None, compare=False)
    leads: pd.DataFrame | None = field(default=None, compare=False)
    consents: pd.DataFrame | None = field(default=None, compare=False)

    @classmethod
    def read(cls, where: str, *, leads: object = None, has_leads: bool = False,
             contracts: object = None, reassigned: object = None, consents: object = None,
             **facts: object) -> Lifting:
        """The inputs given to ``where`` (``next_allowed``, ``GuardSettings``), each read
        as the audit reads it: a fact ``True`` or ``False`` (:meth:`AuditInput.checked_switch`), the
        frames (pandas, Polars or Arrow) checked by the audit's declaration of them.
        ``has_leads``: the judge reads leads of its own, by which a contract may name a
        lead (``next_allowed``'s leads asked about).

        Raises:
            InputError: A fact that is not ``True`` or ``False``, naming it.
            AuditInputError: A frame the audit would refuse, naming the frame and the
                column (``frame`` is it).
        """
        named = has_leads or leads is not None
        return cls(**checked_facts(where, **facts), leads=_lists_part(leads),
                   reassigned=prepared_reassigned(maybe_pandas(reassigned, "reassigned")),
                   contracts=prepared_contracts(maybe_pandas(contracts, "contracts"), named),
                   consents=prepared_consents(maybe_pandas(consents, "consents"), named))

    def of(self, phone: str) -> Lifting:
        """These, with the leads of ``phone`` alone (the one number a contact judges)."""
        if self.leads is None:
            return self
        mine = self.leads[(self.leads["phone"].astype(object) == phone).to_numpy(bool)]
        return replace(self, leads=mine if len(mine) else None)

    def options(self) -> dict[str, Any]:
        """The audit's :class:`~.._part.Options` these are."""
        return {"nonprofit": self.nonprofit, "charity": self.charity,
                "newspaper": self.newspaper, "contracts": self.contracts,
                "reassigned": self.reassigned, "consents": self.consents}

    def consented(self, phones: pd.Series, moment: pd.Timestamp,
                  leads: pd.DataFrame | None) -> np.ndarray | None:
        """Which of ``phones`` a consent standing at ``moment`` lifts the hours of (the
        audit's :func:`.._checks._consent.lifting`: a ``written`` or ``oral`` record, not
        revoked nor voided by a reassigned ``yes``); a record naming a lead by id takes the
        phone of the lead of ``leads`` (its ``id`` and ``phone``; None: the account's
        leads these hold, the guard's). None without consents."""
        if self.consents is None:
            return None
        leads = self.leads if leads is None else leads
        named = None if leads is None or "id" not in leads else pd.DataFrame(
            {"lead_id": leads["id"].to_numpy(object), "phone": leads["phone"].to_numpy(object)})
        records = resolved(self.consents, named, self.reassigned, moment)
        calls = pd.DataFrame({"phone": phones.to_numpy(object),
                              "at": pd.Series(moment, index=range(len(phones)))})
        return lifting(calls, records)


_DECLARED = {each.name: each for each in AUDIT_INPUTS if each.name in FACTS}


NOT_YET_MADE = {"direction": "outbound", "from_number": None, "answered_at": pd.NaT,
                "ended_at": pd.NaT, "disposition": None}
"""The columns of a call still to come (asked about, scheduled, or a callback's new moment),
as the audit reads a call: outbound, from no caller id yet, neither answered nor ended."""


def checked_facts(where: str, **facts: object) -> dict[str, bool]:
    """The account's :data:`FACTS` given to ``where``, each read by its declaration
    (:meth:`~dialkit._utils._choices.AuditInput.checked_switch`: True or False, else refused)."""
    return {name: _DECLARED[name].checked_switch(value, where) for name, value in facts.items()}


def _lists_part(leads: object) -> pd.DataFrame | None:
    """The account's ``leads`` checked as the audit checks them, and kept of them the
    columns the lists read (:data:`LISTS_READ`), under the names the audit reads."""
    read = prepared_leads(maybe_pandas(leads, "leads"), None)
    if read is None:
        return None
    read = read.rename(columns={"lead_id": "id"})
    return read[[column for column in LISTS_READ if column in read.columns]]


@dataclass(frozen=True)
class Asked:
    """What the caller gave :func:`._when.next_allowed` beside the numbers: the rules
    (with the policy added), the account's ``calls`` and ``dnc`` results, the campaign
    the call would be of, the ``leads`` asked about (None: numbers), ``hours``, the
    hours' own answer for numbers at a moment, and what lifts a list's rule
    (:class:`Lifting`); ``scrubs``: whether ``dnc`` holds the account's scrubs, by which
    a number of a state whose list is required is a risk where no answered row of its own
    scrubs it against that list, as the audit finds it; the client's guard
    without DNC rows in its settings holds the live answer alone, which names no state's
    list (False)."""

    rules: Rules
    calls: pd.DataFrame | None
    dnc: pd.DataFrame | None
    campaign_id: str | None
    leads: pd.DataFrame | None
    hours: Hours
    lifting: Lifting = Lifting()
    scrubs: bool = True


def judged_by_history(answer: pd.DataFrame, moment: pd.Timestamp,
                      asked: Asked) -> pd.DataFrame:
    """``answer`` (the hours' answer, a row per number) with the numbers a DNC list or a
    cap forbids at ``moment`` not allowed, naming the finding that forbids them; a cap's
    with the moment it frees the number and the first moment the hours allow from there.
    A :data:`RISK` forbids nothing: its words and jurisdiction are the number's ``risk``
    and :data:`RISK_JURISDICTION`."""
    answer = answer.assign(**{RISK: None, RISK_JURISDICTION: None}).astype(
        {column: object for column in _TEXTS})
    phones = answer["phone"].astype(object)
    campaigns = _campaigns(phones, asked)
    every = _findings(phones, campaigns, pd.Series(moment, index=phones.index), asked)
    risky = (every["basis"] == RISK).to_numpy(bool)
    found = _first(every[~risky])
    for row in _first(every[risky]).itertuples():
        answer.loc[row.Index, [RISK, RISK_JURISDICTION]] = [_said(row), row.jurisdiction]
    for rule in reversed(RULES):  # the most lasting named last, over the others
        hits = found[found["rule"] == rule]
        if rule == "call_frequency":
            hits = _freed(hits, phones, campaigns, moment, asked)
        for row in hits.itertuples():
            _forbid(answer, row)
    return answer.astype({column: "str" for column in _TEXTS})


def _judged(phones: pd.Series, campaigns: pd.Series, at: pd.Series,
            asked: Asked) -> pd.DataFrame:
    """The audit's findings of :data:`RULES` that forbid a call to each of ``phones`` (of
    ``campaigns``) at ``at``, beside the account's calls (not a :data:`RISK`): the first
    per number, by :data:`RULES`' order, indexed as ``phones``."""
    found = _findings(phones, campaigns, at, asked)
    return _first(found[(found["basis"] != RISK).to_numpy(bool)])


def _first(found: pd.DataFrame) -> pd.DataFrame:
    """The first of ``found`` per number asked (its index)."""
    return found[~found.index.duplicated()]


def _findings(phones: pd.Series, campaigns: pd.Series, at: pd.Series,
              asked: Asked) -> pd.DataFrame:
    """Every finding of :data:`RULES` of a call to each of ``phones`` (of ``campaigns``)
    at ``at``, beside the account's calls, by :data:`RULES`' order, indexed as
    ``phones`` (a number's several in a row)."""
    proposed = pd.DataFrame({
        "id": _ASKED + pd.Series(phones.index.astype(str), index=phones.index),
        "to_number": phones, "created_at": at, "campaign_id": campaigns, **NOT_YET_MADE})
    leads = _leads(asked)
    options = Options(rules=asked.rules, blocked=(), verified=None, campaigns=None,
                      moment=at.max(), dnc_lists=_lists_given(asked), since=at.min(),
                      **asked.lifting.options())
    found = judged_beside(None if asked.calls is None else _past(asked.calls), proposed,
                          leads, lambda calls: history_findings(calls, leads, asked.dnc,
                                                                options))
    found = found[found["rule"].isin(RULES)]
    order = found["rule"].map({rule: n for n, rule in enumerate(RULES)})
    found = found.iloc[np.argsort(order.to_numpy(), kind="stable")]
    where = found["call_id"].astype(str).str.removeprefix(_ASKED).astype(int).to_numpy()
    return found.set_axis(where)


def _lists_given(asked: Asked) -> frozenset[str] | None:
    """The audit's :attr:`~.._part.Options.dnc_lists` of ``asked``'s DNC results where
    they are the account's scrubs (:attr:`Asked.scrubs`), so that a number no row of its
    own scrubs against its state's required list is the risk the audit finds, on the call
    asked (the first in the window from the earliest moment asked); None without them."""
    return lists_given(asked.dnc) if asked.dnc is not None and asked.scrubs else None


def judged_beside(calls: pd.DataFrame | None, coming: pd.DataFrame,
                  leads: pd.DataFrame | None,
                  judge: Callable[[pd.DataFrame], pd.DataFrame]) -> pd.DataFrame:
    """The audit's findings of the calls still ``coming`` (outbound calls, each with an
    ``id`` of its own), judged beside the account's ``calls`` by ``judge`` (the audit's
    findings of a frame of calls: the whole audit's, or :func:`.._part.history_findings`),
    so that what is said of a call before it is made and the audit of it once made
    cannot disagree. A call to come takes its subject as the past
    calls of its person and campaign took theirs (:func:`._frequency.subjects_to_come`);
    where they took several, it is judged under each, an audit each, and of each rule
    it breaks the strictest finding stands (the highest count a cap finds): an
    ambiguous subject never makes an all-clear."""
    subjects = [None] if calls is None else subjects_to_come(calls, coming, leads) or [None]
    found = []
    for subject in subjects:
        judged = coming if subject is None else coming.assign(**{SUBJECT: subject})
        if calls is not None:
            judged = pd.concat([calls, judged.reindex(columns=calls.columns)],
                               ignore_index=True)
        report = judge(judged)
        found.append(report[report["call_id"].astype(object).isin(set(coming["id"]))])
    return found[0] if len(found) == 1 else _strictest(pd.concat(found, ignore_index=True))


def _strictest(found: pd.DataFrame) -> pd.DataFrame:
    """Of each call's findings of one rule, the one of the highest count (``calls_in_24h``,
    where a cap counted), the first where they are alike; in the order they were found."""
    counted = found["calls_in_24h"].astype("Float64").fillna(-1).to_numpy(float) if (
        "calls_in_24h" in found) else np.zeros(len(found))
    return found.iloc[np.argsort(-counted, kind="stable")].drop_duplicates(
        ["call_id", "rule"]).sort_index()


def _leads(asked: Asked) -> pd.DataFrame | None:
    """The account's leads the audit reads beside the calls: those read for the lists
    alone (:attr:`Lifting.leads`, the guard's), else the leads asked about where they hold
    the columns the audit reads (else None: numbers, or leads of a few columns, such as
    the guard's asked contact)."""
    if asked.lifting.leads is not None:
        return asked.lifting.leads
    leads = asked.leads
    return leads if has_lead_columns(leads) else None


def has_lead_columns(leads: object) -> bool:
    """Whether ``leads`` (the leads asked about) hold the columns the audit reads of a lead,
    so that it reads them as the account's leads (each call's lead, person and line)."""
    return isinstance(leads, pd.DataFrame) and all(c in leads for c in LEAD_COLUMNS)


def _past(calls: pd.DataFrame) -> pd.DataFrame:
    """The account's calls, checked for the columns the audit reads, as the audit's
    refusal names them (``calls`` of next_allowed)."""
    missing = [column for column in CALL_COLUMNS if column not in calls]
    if missing:
        raise AuditInputError(f"next_allowed(calls=...) has no column {', '.join(missing)}: "
                              "pass client.frames.calls() or an export with its columns",
                              frame="calls")
    return calls


def _campaigns(phones: pd.Series, asked: Asked) -> pd.Series:
    """The campaign each asked call would be of: ``campaign_id`` where given, else the
    lead's, else the number's latest call's (a cap counted per subject counts the calls
    of that campaign)."""
    if asked.campaign_id is not None:
        return pd.Series(asked.campaign_id, index=phones.index, dtype=object)
    if asked.leads is not None and "campaign_id" in asked.leads:
        return pd.Series(asked.leads["campaign_id"].astype(object).to_numpy(),
                         index=phones.index)
    if asked.calls is None or not len(asked.calls):
        return pd.Series(None, index=phones.index, dtype=object)
    calls = asked.calls.assign(at=utc_times(asked.calls["created_at"], "calls.created_at"))
    latest = calls.sort_values("at").groupby(calls["to_number"].astype(object))[
        "campaign_id"].last()
    return phones.map(latest.astype(object)).astype(object)


def _freed(hits: pd.DataFrame, phones: pd.Series, campaigns: pd.Series,
           moment: pd.Timestamp, asked: Asked) -> pd.DataFrame:
    """The cap's findings, each with ``freed_at``: the first moment a past call leaves a
    cap's period at which the audit finds the call no longer over a cap (NaT: none
    within :data:`MAX_ROUNDS` such moments), and ``next_at``, the hours' first allowed
    moment from then."""
    hits = hits.assign(freed_at=pd.Series(pd.NaT, index=hits.index,
                                          dtype="datetime64[ns, UTC]"))
    if not len(hits):
        return hits.assign(next_at=hits["freed_at"], next_local=None, next_zone=None)
    ends = _ends(phones[hits.index], moment, asked)
    pending = list(hits.index)
    for _ in range(MAX_ROUNDS):
        trying = {row: ends[row].pop(0) for row in pending if ends[row]}
        if not trying:
            break
        rows = pd.Index(list(trying))
        still = _judged(phones[rows], campaigns[rows], pd.Series(trying), asked)
        free = rows[~rows.isin(still.index[still["rule"] == "call_frequency"])]
        hits.loc[free, "freed_at"] = [trying[row] for row in free]
        pending = [row for row in pending if row not in set(free) and ends[row]]
    shown = [asked.hours([phones[row]], at).iloc[0] if pd.notna(at) else None
             for row, at in hits["freed_at"].items()]
    return hits.assign(**{name: pd.Series([None if s is None else s[column] for s in shown],
                                          index=hits.index, dtype=kind)
                          for name, column, kind in (
                              ("next_at", "next_allowed_at", "datetime64[ns, UTC]"),
                              ("next_local", "next_local_time", object),
                              ("next_zone", "timezone", object))})


def _ends(phones: pd.Series, moment: pd.Timestamp,
          asked: Asked) -> dict[int, list[pd.Timestamp]]:
    """Per asked number, the moments after ``moment`` at which one of its person's past
    calls (to any number the asked leads link to it: :func:`._lead_of.other_numbers`, in
    any campaign, for each moment is asked of the audit) leaves one of the caps' periods
    (the policy's 24 hours and each row's), soonest first."""
    periods = cap_periods()
    calls = asked.calls if asked.calls is not None else pd.DataFrame(
        {"to_number": [], "created_at": pd.Series(dtype="datetime64[ns, UTC]")})
    at = utc_times(calls["created_at"], "calls.created_at")
    others = other_numbers(_leads(asked)).drop_duplicates("number")
    person = pd.Series(others["phone"].to_numpy(object), index=others["number"].to_numpy(object))
    past = pd.DataFrame({"phone": _person_of(calls["to_number"], person).to_numpy(),
                         "at": at.to_numpy()})
    theirs = _person_of(phones, person)
    past = past[past["phone"].isin(set(theirs)) & (past["at"] <= moment)]
    ends = pd.concat([past.assign(end=past["at"] + period) for period in periods])
    ends = ends[ends["end"] > moment].drop_duplicates(["phone", "end"]).sort_values("end")
    by_phone = ends.groupby("phone")["end"].agg(list)
    return {row: list(by_phone.get(phone, [])) for row, phone in theirs.items()}


def _person_of(numbers: pd.Series, person: pd.Series) -> pd.Series:
    """Each of ``numbers`` as its person's number (``person``: a number to it), else
    itself, as Python text."""
    numbers = numbers.astype(object)
    mapped = numbers.map(person).astype(object)
    return numbers.where(mapped.isna(), mapped)


def cap_periods() -> set[pd.Timedelta]:
    """The periods the caps count calls in: the policy's 24 hours and each row's."""
    return {pd.Timedelta(hours=24)} | {pd.Timedelta(row.cap_period) for row in table.all()
                                       if row.cap_period is not None}


def _said(row: Any) -> str:
    """A finding (a row of ``itertuples``) in the answer's words: its evidence, and its
    citation where the evidence does not hold it."""
    said = str(row.evidence).removeprefix("called ")
    cited = row.citation if isinstance(row.citation, str) else ""
    return said + (f"; {cited}" if cited and cited not in said else "")


def _forbid(answer: pd.DataFrame, row: Any) -> None:
    """``answer``'s number not allowed by the finding ``row`` (a row of ``itertuples``): a
    DNC listing for good; a cap until it frees the number, where that is later than the
    hours' own answer. The words are the finding's evidence and its citation where the
    evidence does not hold it (a listing's evidence names its list, the citation the law:
    Texas's list, Tex. Bus. & Com. Code 304.052), as an answer of the hours holds its
    statute."""
    at, said = row.Index, _said(row)
    if row.rule == "call_frequency":
        freed, later = row.freed_at, row.next_at
        hours_at = answer.at[at, "next_allowed_at"]
        if not answer.at[at, "allowed"] and pd.notna(later) and pd.notna(hours_at) \
                and later <= hours_at:
            return  # the hours forbid it longer than the cap does: their answer stands
        said += (f"; the cap frees the number at {freed:%Y-%m-%d %H:%M} UTC" if pd.notna(freed)
                 else "; no moment the cap frees the number is known")
        answer.loc[at, ["next_allowed_at", "next_local_time", "timezone"]] = [
            later, row.next_local, row.next_zone]
    else:
        answer.loc[at, ["next_allowed_at", "next_local_time", "timezone"]] = [pd.NaT, None,
                                                                              None]
    answer.loc[at, ["allowed", "rule", "forbidden_by"]] = [False, row.rule, said]
    for column in ("jurisdiction", "basis", "policy"):
        value = getattr(row, column)
        answer.at[at, column] = None if pd.isna(value) else str(value)
