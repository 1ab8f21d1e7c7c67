"""``upcoming``: the calls the account has scheduled, judged before they happen.

The service calls a pending callback when it is due ("when due the platform calls the
lead") and dials a lead again at its ``next_attempt_at``. Each such call is judged as if
it had been made: it is added to the account's calls at its due time, on the subject the
past calls of its lead and campaign took (under each, where they took several:
:func:`._when_past.judged_beside`), and the audit itself (:func:`._entry.audit`) judges
them all, so that a scheduled call is judged by the same law, the same code and the
same evidence as a call already made: the hours, days and holidays of the place called,
a number on the Do-Not-Call list now (or listed after the callback was set), a cap the
call would exceed given the calls and texts already made (a text is a call in law, and
the audit counts it: :mod:`._texts`) and the others scheduled before it, a blocked
country. What lifts a list's rule from a call is the audit's too, taken by the audit's
names: the consent records, the reassigned answers, the written contracts, the
account's facts and the leads' business lines.

A call due to a number of a country whose law the rules do not hold (France under the
presets) is judged by no row of law: it is found ``no_law_held`` (:mod:`._unjudged`: *not
judged*, with what law is held and how to accept the country), never passed over, unless
its country is accepted (``accept_unjudged``), which leaves it to the policy.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Unpack

import numpy as np
import pandas as pd

from ..._places._localtime import first_zones, local_times
from ..._utils._base_error import AuditInputError
from ..._utils._choices import AUDIT_INPUTS, RECORDS
from ..._utils._moments import later, utc_moment, utc_times
from ...contract import CallbackStatus
from ...frames import pandas_frames
from .._entry import audit
from .._inputs._columns import named
from .._inputs._headers import read_as_note, readable
from .._inputs._keywords import AuditInputs, inputs_of
from .._inputs._load import gathered
from .._inputs._prepared import LEAD_STATUSES
from .._rules._rules import SEVERITY, US, Rules
from ._unjudged import NO_LAW_HELD, Accepting
from ._when_past import FACTS, NOT_YET_MADE, RISK, checked_facts, judged_beside

if TYPE_CHECKING:
    from ...client import Client

RULES = ("calling_hours", "unknown_jurisdiction", "unknown_timezone", NO_LAW_HELD,
         "call_frequency", "dnc_call", "blocked_country")
"""The rules a scheduled call can break: those of a call, not of a lead or a campaign."""
KINDS = ("callback", "next_attempt")
_READ = ("calls", "leads", "dnc", "texts")
"""The frames given to :func:`upcoming` that are the audit's inputs (its callbacks are not)."""
_RECORDS = tuple(each.name for each in AUDIT_INPUTS
                 if each.kind == RECORDS and "upcoming" in each.readers)
"""The account's records :func:`upcoming` is told, read as the audit reads them."""
_PLANNED = "planned:"
CALLBACK_STATUSES = tuple(status.value for status in CallbackStatus)
"""The prefix of a scheduled call's id among the calls the audit judges."""


def upcoming(source: Client | Mapping[str, pd.DataFrame], *,
             horizon: str | pd.Timedelta = "7D", tz: str | None = None,
             accept_unjudged: Collection[str] | str = (),
             **inputs: Unpack[AuditInputs]) -> pd.DataFrame:
    """The scheduled calls that would break a rule, or that no law held judges, found
    before they are made.

    Args:
        source: A client (its calls, texts, leads, DNC results and pending callbacks
            are loaded), or the frames as ``load`` gives them plus ``callbacks``
            (``client.frames.callbacks(campaign_id, status="pending")``); ``texts``, where
            given, count toward the caps with the calls, as in the audit. ``leads=``,
            ``dnc=`` and ``texts=`` given by keyword join the frames given (a client loads
            its own: beside one they are refused).
        horizon: How far ahead to look: a number and its unit (``"7d"``, ``"48h"``,
            ``"90min"``, ``"2w"``) or a ``timedelta``. A number without a unit
            (``"30"``: 30 nanoseconds to pandas) is refused.
        tz: The zone ``as_of`` is read in where it has none (``"America/New_York"``).
        accept_unjudged: The countries whose law ``rules`` do not hold that the account
            calls on purpose, as :func:`next_allowed` takes them (``["FR"]``): a call due
            to one is judged by the policy and the blocked countries alone. A call due to
            any other such country is found ``no_law_held`` (basis ``risk``,
            ``jurisdiction`` the country): not judged.

    Keyword Args:
        campaign_id: Only this campaign's scheduled calls, or these campaigns', of a
            client or of frames given (whose other campaigns' calls still count toward
            the caps).
        rules: The law, as for :func:`audit` (default ``US``).
        policy: The account's own stricter rule, as for :func:`audit`.
        blocked_countries: As for :func:`audit`.
        as_of: The moment to look from (default now): an ISO 8601 date or time or a
            ``datetime``, with its zone or read in ``tz``; a time of day without either
            is refused, never taken as UTC (a date alone starts at midnight UTC).
        emergencies: The declared states of emergency, as :func:`audit` takes them: a
            call due in a state whose law forbids solicitation during one, while one is
            declared there, is a ``calling_hours`` finding.
        consents: The account's consent records, as :func:`audit` takes them: one that
            stands at a call due exempts it from the lists whose law names it, or from
            the hours whose words say so; a revocation lists the number.
        reassigned: The reassigned numbers database's answers, as for :func:`audit`: a
            ``yes`` voids the consents and contracts of its number given before it.
        contracts: The written contracts with the persons called, as for :func:`audit`.
        nonprofit: As for :func:`audit` (the National Do Not Call Registry's rule, and the
            state lists whose law exempts a nonprofit's calls, do not judge the calls).
        charity: As for :func:`audit` (Canada's National DNCL does not bind the calls).
        newspaper: As for :func:`audit` (nor Canada's DNCL, nor the state lists whose law
            names a newspaper).
        values: What another tool's words mean, per named column, as :func:`audit`
            takes them.
        mapping: Which column of another tool's export holds a column the judge reads,
            as :func:`audit` takes it (of the frames given, and of the records);
            ``attrs["notes"]`` of the answer says what was read as what.

    Returns:
        The findings, one per scheduled call and rule it would break, in the audit's
        columns (``call_id`` is the callback's id, or None for a lead's next attempt;
        ``at`` the moment it is due; ``basis`` law or policy), plus ``kind``
        (``callback`` or ``next_attempt``), ``due_in`` (the time left before the call)
        and the evidence, which says ``due Sun 21:30 ...`` where the audit says
        ``called`` (``due Sat 22:30 Europe/Paris: not judged: dialkit holds no law for
        France (FR) ...`` for a call no law held judges).

    Raises:
        TypeError: A keyword that is none of the judges' inputs (naming those it reads),
            or an input it does not read (saying why, as its declaration does).
        ValueError: ``horizon`` is not a length of time above zero, or ``as_of`` not a
            time; the message names the argument. ``nonprofit``, ``charity`` or
            ``newspaper`` neither True nor False, ``accept_unjudged`` naming no country
            (an ``InputError``); a frame the audit would refuse (an ``AuditInputError``
            naming it).

    Examples:
        >>> import dialkit
        >>> from dialkit.compliance import upcoming
        >>> with dialkit.Client.sandbox() as client:
        ...     latest = client.frames.calls()["created_at"].max()  # the world's "now"
        ...     soon = upcoming(client, horizon="14D", as_of=latest)
        >>> sorted(set(soon["kind"].astype(str)))
        ['callback', 'next_attempt']
    """
    told = inputs_of("upcoming", inputs)
    accepting = Accepting.read(accept_unjudged, "upcoming")
    campaign_id = told["campaign_id"]
    moment = _moment(told["as_of"], tz)
    until = _until(moment, horizon)  # the arguments refused before anything is read
    facts = checked_facts("upcoming", **{name: told[name] for name in FACTS})
    given = _given(source, told)
    read, said = readable({**{name: given.get(name) for name in _READ},
                           **{name: told[name] for name in _RECORDS}},
                          told["mapping"], told["values"])
    frames = _frames({**given, **{name: read[name] for name in _READ if name in given}}
                     if isinstance(source, Mapping) else source, campaign_id)
    planned = _planned(frames["leads"], frames["callbacks"], moment, until, campaign_id)
    found = judged_beside(frames["calls"], planned, frames["leads"], lambda calls: audit(
        calls, leads=frames["leads"], dnc=frames.get("dnc"), texts=frames.get("texts"),
        rules=told["rules"], policy=told["policy"],
        blocked_countries=told["blocked_countries"],
        as_of=moment, since=moment,  # a number's risk on its first call to come
        emergencies=read["emergencies"], consents=read["consents"],
        reassigned=read["reassigned"], contracts=read["contracts"],
        nonprofit=facts["nonprofit"], charity=facts["charity"],
        newspaper=facts["newspaper"]).findings)
    found = pd.concat([found[found["rule"] != NO_LAW_HELD],  # said for the call to come:
                       _unjudged(planned, told["rules"], accepting, found.columns)],
                      ignore_index=True)  # when due, how to accept it in upcoming's words
    answer = _said(_unless_law(found[found["rule"].isin(RULES)]), planned, moment)
    answer.attrs["notes"] = read_as_note(said)
    return answer


def _given(source: Client | Mapping[str, pd.DataFrame],
           told: dict[str, Any]) -> dict[str, pd.DataFrame]:
    """The frames given, of a mapping and by keyword (``leads=``, ``dnc=``, ``texts=``, which
    join the mapping's); a client loads its own, so a frame given beside one is refused."""
    framed = {name: told[name] for name in _READ if told.get(name) is not None}
    if framed and not isinstance(source, Mapping):
        raise AuditInputError(
            f"upcoming(client, {'=, '.join(framed)}=) loads the account's own frames: pass "
            "the frames as one mapping (calls, leads, callbacks and these), or leave them out")
    return {**(dict(source) if isinstance(source, Mapping) else {}), **framed}


def scheduled(source: Client | Mapping[str, pd.DataFrame], *,
              campaign_id: str | Sequence[str] | None = None,
              horizon: str | pd.Timedelta = "7D",
              as_of: pd.Timestamp | str | None = None,
              tz: str | None = None) -> pd.DataFrame:
    """Every call the account has scheduled within ``horizon``, lawful or not: what
    :func:`upcoming` judges (arguments as there).

    Returns:
        One row per scheduled call, soonest first: ``kind`` (``callback`` or
        ``next_attempt``), ``scheduled_id`` (the callback's id), ``lead_id``,
        ``campaign_id``, ``phone``, ``at`` (UTC) and ``local_time`` and ``timezone``
        (the recipient's wall clock then, in the number's first zone).
    """
    moment = _moment(as_of, tz)
    until = _until(moment, horizon)
    frames = _frames(source, campaign_id)
    planned = _planned(frames["leads"], frames["callbacks"], moment, until, campaign_id)
    planned = planned.sort_values("created_at", kind="stable").reset_index(drop=True)
    names, zone, _ = first_zones(planned["to_number"])
    zones = pd.Series(np.asarray([*names, None], object)[zone])  # -1, no zone: None
    at = utc_times(planned["created_at"], "planned.created_at")
    local = local_times(at, zones)
    return pd.DataFrame({
        "kind": pd.Categorical(planned["kind"], KINDS),
        "scheduled_id": planned["scheduled_id"].astype("str"),
        "lead_id": planned["lead_id"].astype("str"),
        "campaign_id": planned["campaign_id"].astype("str"),
        "phone": planned["to_number"].astype("str"),
        "at": at,
        "local_time": local,
        "timezone": zones.astype("str")})


def _moment(as_of: pd.Timestamp | str | None, tz: str | None) -> pd.Timestamp:
    return utc_moment(pd.Timestamp.now(tz="UTC") if as_of is None else as_of, "as_of", tz=tz)


def _until(moment: pd.Timestamp, horizon: str | pd.Timedelta) -> pd.Timestamp:
    return later(moment, horizon, "horizon")


def _frames(source: Client | Mapping[str, pd.DataFrame],
            campaign_id: str | Sequence[str] | None) -> Mapping[str, pd.DataFrame]:
    """The calls, leads, DNC results and pending callbacks to judge (frames given of
    Polars or Arrow read as pandas, as the audit reads them)."""
    if isinstance(source, Mapping):
        missing = [name for name in ("calls", "leads", "callbacks") if name not in source]
        if missing:
            raise AuditInputError(f"upcoming() needs the frames calls, leads and callbacks "
                                  f"(and dnc); {missing} are missing")
        given = pandas_frames(source)
        return {**given, "leads": _statuses(given["leads"], "leads", LEAD_STATUSES,
                                            "client.frames.leads()"),
                "callbacks": _statuses(given["callbacks"], "callbacks", CALLBACK_STATUSES,
                                       'client.frames.callbacks(campaign_id, status="pending")')}
    frames = gathered(source, campaign_id=campaign_id, since=None, until=None, rules=US,
                      leads="auto")
    campaigns = ([campaign_id] if isinstance(campaign_id, str) else list(campaign_id)
                 if campaign_id is not None else  # the leads' campaigns: archived ones too
                 sorted(set(frames["leads"]["campaign_id"].dropna().astype(object))))
    callbacks = (source.frames.callbacks(campaigns, status="pending") if campaigns else
                 pd.DataFrame(columns=["id", "lead_id", "campaign_id", "scheduled_at",
                                       "status"]))
    return {**frames, "callbacks": callbacks}


def _statuses(frame: pd.DataFrame, name: str, allowed: tuple[str, ...],
              source: str) -> pd.DataFrame:
    """``frame`` given (not read from the account) with its ``status`` read as the audit
    reads a named value (``Pending`` is ``pending``); a status the contract does not name
    is refused by name, never read as one that is not scheduled. A frame without one is
    refused naming ``source``, the ``client.frames`` method that gives it."""
    if "status" not in frame:
        raise AuditInputError(f"{name} has no column status: pass {source} as it comes, or "
                              "an export with its columns", frame=name)
    return frame.assign(status=named(frame["status"], allowed, name, "status"))


def _planned(leads: pd.DataFrame, callbacks: pd.DataFrame, moment: pd.Timestamp,
             until: pd.Timestamp, campaign_id: str | Sequence[str] | None) -> pd.DataFrame:
    """The calls due from ``moment`` to ``until``, as outbound calls the audit reads: the
    pending callbacks (to their lead's number) and the leads' next attempts, of the
    campaigns ``campaign_id`` names (all: None). A client's frames hold those campaigns'
    alone already; frames given hold the account's, whose calls still count toward the
    caps, but only the campaigns' scheduled calls are judged."""
    phones = leads.set_index(leads["id"].astype(object))["phone"]
    pending = callbacks[_between(callbacks["scheduled_at"], moment, until)
                        & (callbacks["status"].astype(object) == "pending")]
    from_callbacks = pd.DataFrame({
        "id": _PLANNED + pending["id"].astype(object), "kind": "callback",
        "scheduled_id": pending["id"].astype(object),
        "lead_id": pending["lead_id"].astype(object),
        "to_number": phones.reindex(pending["lead_id"].astype(object)).to_numpy(object),
        "created_at": pending["scheduled_at"], "campaign_id": pending["campaign_id"]})
    open_leads = ~leads["status"].astype(object).isin(["dnc", "completed"])
    due = leads[open_leads & _between(leads["next_attempt_at"], moment, until)]
    called_back = pd.MultiIndex.from_arrays([from_callbacks["lead_id"], utc_times(
        from_callbacks["created_at"], "callbacks.scheduled_at")])  # a lead's next attempt
    due = due[~pd.MultiIndex.from_arrays([due["id"].astype(object), utc_times(
        due["next_attempt_at"], "leads.next_attempt_at")]).isin(called_back)]
    from_leads = pd.DataFrame({
        "id": _PLANNED + due["id"].astype(object), "kind": "next_attempt",
        "scheduled_id": None, "lead_id": due["id"].astype(object),
        "to_number": due["phone"].astype(object), "created_at": due["next_attempt_at"],
        "campaign_id": due["campaign_id"]})
    planned = pd.concat([from_callbacks, from_leads], ignore_index=True)
    if campaign_id is not None:
        chosen = [campaign_id] if isinstance(campaign_id, str) else list(campaign_id)
        planned = planned[planned["campaign_id"].astype(object).isin(chosen)]
    return planned.assign(status="queued", **NOT_YET_MADE)


def _between(times: pd.Series, start: pd.Timestamp, end: pd.Timestamp) -> pd.Series:
    moments = utc_times(times, "leads.next_attempt_at")
    return (moments >= start) & (moments < end)


def _unjudged(planned: pd.DataFrame, rules: Rules, accepting: Accepting,
              columns: pd.Index) -> pd.DataFrame:
    """The ``no_law_held`` finding of each call ``planned`` to a number whose country's law
    ``rules`` do not hold and ``accepting`` does not accept, in the audit's ``columns``:
    its evidence says when it is due on the recipient's clock (in the number's first
    zone) and why no law judged it (:meth:`._unjudged.Accepting.said`)."""
    calls = planned.reset_index(drop=True)
    rows, regions, accepted = accepting.unheld(calls["to_number"], rules)
    calls, regions = calls.iloc[rows[~accepted]], regions[~accepted].astype(str)
    names, zone, _ = first_zones(calls["to_number"])
    zones = pd.Series(np.asarray([*names, None], object)[zone], index=calls.index)
    at = utc_times(calls["created_at"], "planned.created_at")
    local = local_times(at, zones)
    shown = local.dt.strftime("%a %H:%M ").fillna("") + zones.fillna("")
    said = [accepting.said(region, rules) for region in regions]
    return pd.DataFrame({
        "rule": NO_LAW_HELD, "severity": SEVERITY[NO_LAW_HELD], "campaign_id": calls["campaign_id"],
        "call_id": calls["id"], "lead_id": calls["lead_id"], "phone": calls["to_number"],
        "at": at, "local_time": local.dt.strftime("%Y-%m-%d %H:%M:%S"), "timezone": zones,
        "evidence": "called " + shown.str.strip() + ": " + pd.Series(said, index=calls.index),
        "jurisdiction": regions, "basis": RISK}).reindex(columns=columns)


def _unless_law(found: pd.DataFrame) -> pd.DataFrame:
    """The findings, less a call's risk of a rule that a finding of law of the call names
    already: a number on the national registry whose state's list no scrub of it answers
    for is forbidden by the listing, and the call is one row of ``dnc_call`` (the
    risk falls on the call to come, beside the listing's finding), as ``next_allowed``
    names the listing alone."""
    risk = (found["basis"].astype(object) == "risk").to_numpy(bool)
    keys = found["call_id"].astype(str) + " " + found["rule"].astype(str)
    return found[~(risk & keys.isin(set(keys[~risk])).to_numpy(bool))]


def _said(found: pd.DataFrame, planned: pd.DataFrame, moment: pd.Timestamp) -> pd.DataFrame:
    """The findings of scheduled calls as a scheduled call's: its kind, its own id (the
    callback's), the time left, and ``due`` for ``called`` in the evidence."""
    by_id = planned.set_index("id")
    ids = found["call_id"].astype(object)
    evidence = found["evidence"].astype(object).str.replace("^called ", "due ", regex=True)
    return found.assign(
        call_id=by_id["scheduled_id"].reindex(ids).to_numpy(object),
        lead_id=by_id["lead_id"].reindex(ids).to_numpy(object),
        kind=by_id["kind"].reindex(ids).to_numpy(object),
        due_in=utc_times(found["at"], "findings.at") - moment,
        evidence=evidence.to_numpy(object)).reset_index(drop=True).astype(
        {"kind": pd.CategoricalDtype(KINDS)}).pipe(_ordered)


def _ordered(found: pd.DataFrame) -> pd.DataFrame:
    """Soonest first, then by rule as the audit orders them."""
    order = np.lexsort((found["rule"].map({rule: n for n, rule in enumerate(RULES)}),
                        found["due_in"].to_numpy()))
    return found.iloc[order].reset_index(drop=True)
