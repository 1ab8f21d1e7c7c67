"""The law's judge of the client's guard: one contact, or a campaign's leads,
judged by :func:`._when.next_allowed`, the audit's own code, never a copy of it.

The client gathers the evidence over the API (:mod:`dialkit.client._guard`): the number's
live DNC answer, its calls and texts within :attr:`LawJudge.lookback`, the moment of the
contact. Here they become the frames ``next_allowed`` reads (``calls=``, ``dnc=``), a text
a call row as the audit makes it (:func:`._texts.texts_as_calls`: a text is a call in
law, and a cap counts it), so the guard, ``next_allowed``, ``upcoming`` and the audit
answer alike. The account's blocked countries are judged by the audit's
:func:`._account.blocked_country`. A contact to a country whose law the rules do not hold
is refused as ``next_allowed`` answers it, ``no_law_held`` (:mod:`._unjudged`), unless
the settings accept its country (``accept_unjudged``).

What the settings give by the audit's names (the declared emergencies, DNC
results beside the live answer, the leads' lines, the contracts, the reassigned answers,
the account's facts) is read once, by the audit's readers (:class:`ReadSettings`), and judged by
``next_allowed``'s code with the rest: the emergencies in the rules, the DNC rows of the
number beside its live answer (which names no list and is read as the national register,
so a state's list is known from the rows given alone), what lifts a list's rule as the
audit's check of a listing reads it (:class:`._when_past.Lifting`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import pandas as pd

from ..._guarding import (
    GuardSettings,
    LiveDnc,
    ResumeJudgment,
    RuleSet,
    Verdict,
    address_state,
    other_phones,
)
from ..._shown._words import counted
from ..._utils._base_error import AuditInputError, InputError
from ..._utils._moments import utc_times
from ...contract import Call, Lead, SmsMessage
from ...frames import maybe_pandas
from .._checks._account import blocked_country
from .._checks._lead_of import OTHER_PHONES
from .._checks._texts import COUNTED_TEXTS, texts_as_calls
from .._inputs._prepared import CALL_COLUMNS, prepared_dnc, with_emergencies
from .._rules._place_law import own_caps
from .._rules._rules import US, Rules
from ._asked import numbers_asked
from ._unjudged import Accepting
from ._when import asked_about, judged, with_policy
from ._when_past import RISK, RISK_JURISDICTION, Asked, Lifting, cap_periods


class LawJudge:
    """The law's judge the client's guard (:class:`dialkit.client.Guard`) asks before an
    operation reaches a person: one contact, or a campaign's leads, judged by
    :func:`next_allowed`'s code. Public so that the client imports it by name;
    a notebook can ask it too, as the guard would."""

    lookback: timedelta
    """The longest cap's period: older calls count towards no cap (read from the law's
    table when a judge is made, not when ``dialkit.compliance`` is imported)."""

    def __init__(self) -> None:
        self.lookback = max(cap_periods()).to_pytimedelta()
        self._known: ReadSettings | None = None

    def read(self, settings: GuardSettings) -> None:
        """Read ``settings`` now (:class:`ReadSettings`): a client made with frames in its guard's
        settings has them read then, so a frame the audit would refuse is named before
        any contact is asked about."""
        self._settings(settings)

    def _settings(self, settings: GuardSettings) -> ReadSettings:
        """``settings`` as read, once for the settings of this judge's guard (read again
        for others: a notebook may ask one judge with several)."""
        known = self._known
        if known is None or known.settings is not settings:
            known = self._known = ReadSettings.of(settings)
        return known

    def capped(self, phone: str, state: str | None, contacts: int,
               settings: GuardSettings) -> bool:
        """Whether a cap could count the number's past ``contacts`` (its calls and texts):
        a contact is over a cap when more than its ``max_calls`` are within its period,
        itself included, so fewer past contacts than the smallest cap of its place (of
        ``state``, the lead's address, too) and of the policy can break none, and the
        hours alone judge the contact (the verdict then holds for the minute whatever
        contacts were made: ``Guard._verdict``)."""
        known = self._settings(settings)
        policy = known.policy
        caps = [*own_caps(phone, state, known.law)]
        caps += [policy.max_calls_per_24h] if policy and policy.max_calls_per_24h else []
        return bool(caps) and contacts >= min(caps)

    def contact(self, phone: str, at: datetime, *, state: str | None,
                campaign_id: str | None, calls: Sequence[Call], texts: Sequence[SmsMessage],
                dnc: LiveDnc, settings: GuardSettings) -> Verdict | None:
        """The refusal of a contact to ``phone`` at ``at`` (None: allowed): the hours and
        days of its place (and of ``state``, the lead's address) and a declared emergency
        there, a cap its ``calls`` and ``texts`` would break, a DNC list ``dnc`` or the
        settings' DNC rows say it is on, unless what the settings say lifts that list's
        rule; with the policy, its rules and the blocked countries."""
        known = self._settings(settings)
        blocked = _blocked(phone, at, settings)
        if blocked is not None:
            return blocked
        past = replace(asked_about(known.rules, _contacts(calls, texts),
                                   _dnc(dnc, at, known.rows_of(phone)), campaign_id, None,
                                   known.lifting.of(phone)), scrubs=known.dnc is not None)
        verdicts = [_judged(asked, pd.Timestamp(at), past, known.accepting)
                    for asked in _asked(phone, state, campaign_id, calls, texts)]
        return self._texts_said(_strictest(verdicts, at), texts, at)

    def _texts_said(self, verdict: Verdict | None, texts: Sequence[SmsMessage],
                    at: datetime) -> Verdict | None:
        """``verdict``, its evidence saying how many texts its cap counted where it
        counted any (those within the caps' period before ``at``)."""
        if verdict is None or verdict.rule != "call_frequency":
            return verdict
        within = sum(at - self.lookback < text.created_at <= at for text in texts)
        if not within:
            return verdict
        return replace(verdict, evidence=verdict.evidence
                       + COUNTED_TEXTS.format(counted(within, "text")))

    def campaign(self, campaign_id: str, leads: Sequence[Lead], at: datetime,
                 settings: GuardSettings) -> ResumeJudgment:
        """How many of ``leads`` the hours and days of their place and address state
        forbid at ``at``, by rule, and when they open, judged at once (``next_allowed``'s
        code asks each place once), a lead of a country whose law is not held among them
        (``no_law_held``) unless the settings accept it; the first refusal in full. A lead
        whose own record says no state takes its person's (its ``other_phones`` linking it
        to another of the leads: :func:`._lead_of.lead_states`), as the audit judges its
        calls."""
        frame = pd.DataFrame({"phone": [lead.phone for lead in leads],
                              "campaign_id": [campaign_id] * len(leads),  # the leads': asked
                              "state": [address_state(lead.custom_fields) for lead in leads],
                              OTHER_PHONES: [other_phones(lead.custom_fields)
                                             for lead in leads]}, dtype=object)
        known = self._settings(settings)
        answer = _hours_judged(frame, pd.Timestamp(at), known) if leads else None
        if answer is None or answer["allowed"].all():
            return ResumeJudgment(campaign_id, at, len(leads), 0)
        refused = answer[~answer["allowed"].to_numpy(bool)]
        opens = refused["next_allowed_at"].dropna()
        return ResumeJudgment(
            campaign_id, at, len(leads), len(refused),
            {str(k): int(n) for k, n in refused["rule"].value_counts().items()},
            opens.min().to_pydatetime() if len(opens) else None,
            opens.max().to_pydatetime() if len(opens) else None,
            _verdict(_rows(refused.iloc[:1])[0]))


@dataclass(frozen=True)
class ReadSettings:
    """A guard's ``settings`` as the judge reads them, once: the ``law`` they name (default
    :data:`US`) with their declared emergencies, the ``policy`` where enforced, the
    ``rules`` a contact is judged by (both), their DNC rows (``dnc``, checked as the
    audit's ``dnc=``), what lifts a list's rule (:class:`._when_past.Lifting`) and the
    countries accepted unjudged (:class:`._unjudged.Accepting`). Each frame is read by the
    reader of the audit's input of its name."""

    settings: GuardSettings
    law: Rules
    policy: Rules | None
    rules: Rules
    dnc: pd.DataFrame | None
    lifting: Lifting
    accepting: Accepting

    @classmethod
    def of(cls, settings: GuardSettings) -> ReadSettings:
        """Read ``settings``.

        Raises:
            InputError: Rules that are not the compliance layer's, a frame the audit
                would refuse (an :class:`AuditInputError` naming ``GuardSettings(name=...)``
                and the column; its ``frame`` is the input's name).
        """
        own = _compliance_rules(settings.rules, "rules") or US
        policy = (_compliance_rules(settings.policy, "policy")
                  if settings.enforce == "law_and_policy" else None)
        try:
            law = with_emergencies(own, settings.emergencies)
            dnc = prepared_dnc(maybe_pandas(settings.dnc, "dnc"))
            lifting = Lifting.read("GuardSettings", leads=settings.leads,
                                   consents=settings.consents, contracts=settings.contracts,
                                   reassigned=settings.reassigned,
                                   nonprofit=settings.nonprofit, charity=settings.charity,
                                   newspaper=settings.newspaper)
        except AuditInputError as error:
            where = f"GuardSettings({error.frame}=...)" if error.frame else "GuardSettings"
            raise AuditInputError(f"{where}: {error}", frame=error.frame) from None
        return cls(settings, law, policy, with_policy(law, policy), dnc, lifting,
                   Accepting(tuple(settings.accept_unjudged), "GuardSettings"))

    def rows_of(self, phone: str) -> pd.DataFrame | None:
        """The settings' DNC rows of ``phone``: none (an empty frame) where the settings
        hold DNC rows but none of it, so that its state's required list is judged unscrubbed;
        None where the settings hold no DNC rows."""
        if self.dnc is None:
            return None
        return self.dnc[(self.dnc["phone"].astype(object) == phone).to_numpy(bool)]


def _compliance_rules(given: RuleSet | None, name: str) -> Rules | None:
    """``given`` as the audit's own :class:`Rules`: the settings hold a
    :class:`~dialkit._guarding.RuleSet`, for they may not name this layer."""
    if given is None or isinstance(given, Rules):
        return given
    raise InputError(f"GuardSettings({name}={given!r}) is not a set of dialkit.compliance's "
                     "Rules: pass US, UK, CA, US_FEDERAL, HOUSE_RULES or a POLICY(...)")


def _blocked(phone: str, at: datetime, settings: GuardSettings) -> Verdict | None:
    """The audit's ``blocked_country`` finding of a contact, where the policy is enforced."""
    if settings.enforce != "law_and_policy" or not settings.blocked_countries:
        return None
    found = blocked_country(pd.DataFrame({"phone": [phone], "at": [pd.Timestamp(at)]}),
                            settings.blocked_countries)
    if not len(found):
        return None
    return Verdict("blocked_country", "policy", None,
                   str(found["evidence"].iloc[0]).removeprefix("called "), None)


def _asked(phone: str, state: str | None, campaign_id: str | None, calls: Sequence[Call],
           texts: Sequence[SmsMessage]) -> list[pd.DataFrame | str]:
    """What ``next_allowed`` is asked of the contact: the number (with ``state``, the
    lead's address, as a lead). Where a cap counts its past contacts, a contact of no
    campaign (a text, a click-to-call of none) is asked as a lead of none, the subject
    the audit counts it under; and, where the number's calls are of a campaign, as the
    number alone too, under its latest call's campaign (``next_allowed``'s default): the
    subject the audit counts a text under when its lead is of that campaign
    (:func:`._texts.texts_as_calls`). The guard reads no leads, so it judges under both,
    the strictest standing."""
    alone: pd.DataFrame | str = phone if state is None else pd.DataFrame(
        {"phone": [phone], "state": [state]})
    if campaign_id is not None or not (calls or texts):  # the subject counts nothing
        return [alone]
    of_none = pd.DataFrame({"id": ["asked"], "phone": [phone], "state": [state],
                            "campaign_id": [None]}, dtype=object)
    campaigns = any(call.campaign_id is not None for call in calls)
    return [of_none, alone] if campaigns else [of_none]


def _judged(asked: pd.DataFrame | str, moment: pd.Timestamp, past: Asked,
            accepting: Accepting) -> Verdict | None:
    """The verdict of ``next_allowed``'s code (:func:`._when.judged`) on ``asked`` (the
    number, or the lead: :func:`_asked`) at ``moment``, its past as ``past`` holds it, the
    countries ``accepting`` accepts unjudged."""
    phones, address, ids = numbers_asked(asked)
    leads = asked if ids is not None and isinstance(asked, pd.DataFrame) else None
    consented = past.lifting.consented(phones, moment, None)
    return _verdict(_rows(judged(phones, address, moment, past.rules,
                                 replace(past, leads=leads), consented=consented,
                                 accepting=accepting))[0])


def _hours_judged(leads: pd.DataFrame, moment: pd.Timestamp,
                  known: ReadSettings) -> pd.DataFrame:
    """``next_allowed``'s answer (:func:`._when.judged`) for a campaign's ``leads`` at
    ``moment`` by their places alone (no past, no list), as ``known`` settings say, with
    the countries they accept unjudged."""
    phones, address, _ = numbers_asked(leads)
    return judged(phones, address, moment, known.rules,
                  asked_about(known.rules, None, None, None, None, Lifting()),
                  accepting=known.accepting)


def _strictest(verdicts: Sequence[Verdict | None], at: datetime) -> Verdict | None:
    """Of a contact's verdicts at ``at`` under each subject asked, the refusal that lasts
    longest (one with no next allowed moment above all), a risk below every refusal; None
    where each allows it."""
    found = [verdict for verdict in verdicts if verdict is not None]
    return max(found, key=lambda verdict: (not verdict.risk, verdict.next_allowed_at is None,
                                           verdict.next_allowed_at or at), default=None)


def _contacts(calls: Sequence[Call], texts: Sequence[SmsMessage]) -> pd.DataFrame | None:
    """The number's calls as the audit reads them, and its texts after them as the audit
    reads those (:func:`._texts.texts_as_calls`: a call row each, its ``channel``
    ``text``); None: neither, no cap can count."""
    if not calls and not texts:
        return None
    frame = pd.DataFrame([call.model_dump(include=set(CALL_COLUMNS)) for call in calls],
                         columns=list(CALL_COLUMNS))
    for column in ("created_at", "answered_at", "ended_at"):
        frame[column] = utc_times(frame[column], f"calls.{column}")
    if not texts:
        return frame
    sent = pd.DataFrame({"message_id": [text.id for text in texts],
                         "to": [text.to for text in texts],
                         "created_at": utc_times(pd.Series(
                             [text.created_at for text in texts], dtype=object),
                             "texts.created_at")})
    return texts_as_calls(sent, frame, None)


def _dnc(live: LiveDnc, at: datetime, given: pd.DataFrame | None) -> pd.DataFrame | None:
    """The live DNC answer as the audit's ``dnc=`` row where it says listed, ``listed_at``
    where the service says it, ``checked_at`` when the check was made (not the contact's
    moment: a callback's is days ahead, and evidence dated in its future would be false),
    or the contact's, if that is sooner; after it the ``given`` rows of the number (the
    settings' ``dnc``: a state's scrub, which the live answer never names; none of the
    number, an empty frame: the settings' scrubs hold none of it). None where neither
    says anything: nothing for a list's rule to judge."""
    answer = live.answer
    rows = [] if given is None else [given]
    if answer.listed:
        since = (answer.model_extra or {}).get("listed_at")
        rows.insert(0, pd.DataFrame({
            "phone": [answer.phone], "listed": [True],
            "checked_at": [pd.Timestamp(min(live.checked_at, at))],
            "listed_at": [pd.Timestamp(since) if since else pd.NaT]}))
    said = [frame for frame in rows if len(frame)]
    return pd.concat(said, ignore_index=True) if said else (rows or [None])[0]


def _rows(answer: pd.DataFrame) -> list[dict[str, object]]:
    """``next_allowed``'s answer as plain rows (``None`` where a cell is empty), read
    column by column: a campaign's thousands of refusals are not ``iloc``-ed one by one."""
    columns = {column: answer[column].astype(object).where(answer[column].notna(), None)
               .tolist() for column in answer.columns}
    return [dict(zip(columns, values, strict=True)) for values in zip(*columns.values(),
                                                                      strict=True)]


def _verdict(row: dict[str, object]) -> Verdict | None:
    """A row of ``next_allowed``'s answer as a refusal, or, allowed, as the risk its
    ``risk`` names (None: allowed, and no risk)."""
    def text(column: str) -> str | None:
        value = row[column]
        return None if value is None else str(value)

    if row["allowed"]:
        risk = text(RISK)
        return None if risk is None else Verdict("dnc_call", RISK, text(RISK_JURISDICTION),
                                                 risk, None)

    later = row["next_allowed_at"]
    return Verdict(str(row["rule"]), text("basis"), text("jurisdiction"),
                   text("forbidden_by") or str(row["rule"]),
                   None if later is None else pd.Timestamp(later).to_pydatetime(),
                   text("next_local_time"), text("timezone"), bool(row["judged"]))
