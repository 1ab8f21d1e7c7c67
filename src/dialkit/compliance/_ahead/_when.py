"""``next_allowed``: whether each number may be called at a moment and, if not, when.

The law is the audit's, judged by the audit's own code (:func:`._hours.clock` and
:func:`._hours.calling_hours`): the hours, Sunday and holiday bans of the place called
(the number's zones, its state's row, a lead's address state), and a policy's window
where one is added. Numbers with the same zones and the same rows of law are judged
alike at every moment, so each such *place* is asked once: a million numbers are a few
hundred places. The next allowed moment is found among the moments a window opens (each
distinct start of the applied windows, on each of the next :data:`HORIZON_DAYS` days, in
each of the place's zones), the earliest that every zone's law allows.

A number of a country whose law the rules do not hold (France under the presets, which
hold the US's, Canada's and the UK's) is judged by no row of law: it is not allowed, but
*not judged* (``judged`` False, ``no_law_held``: :mod:`._unjudged`), unless the caller
accepts its country (``accept_unjudged``), which leaves it to the policy.

Frequency caps and the Do-Not-Call list depend on what was done to a number, not on its
place: given the account's calls, texts and DNC results, :mod:`._when_past` judges them by
the audit's own checks, as :func:`._upcoming.upcoming` does for the calls the account has
scheduled, with what lifts a list's rule as the audit takes it (the account's
facts, its contracts, the reassigned answers, a lead's business line).
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Iterable
from typing import Unpack

import numpy as np
import pandas as pd

from ..._phones._zones import ZONES, zone_sets, zoned
from ..._places._localtime import zone_info
from ..._shown._words import counted
from ..._utils._base_error import AuditInputError, ComplianceRiskWarning
from ..._utils._choices import AUDIT_INPUTS
from ..._utils._moments import duration, utc_moment
from ...frames import as_pandas, is_tabular
from .._checks._findings import written
from .._checks._hours import Clock, allows, calling_hours, clock
from .._inputs._headers import read_as_note, readable
from .._inputs._keywords import AuditInputs, inputs_of
from .._inputs._prepared import CALL_COLUMNS, prepared_calls, prepared_texts, with_emergencies
from .._rules._address_clock import address_zones
from .._rules._emergencies import ends
from .._rules._place_law import law_rows
from .._rules._rules import Rules
from .._run import with_texts
from ._asked import numbers_asked, one_campaign
from ._best_hour import best_hours
from ._unjudged import NONE_ACCEPTED, Accepting, law_read
from ._when_past import (
    RISK,
    RISK_JURISDICTION,
    Asked,
    Lifting,
    has_lead_columns,
    judged_by_history,
)

HORIZON_DAYS = 14
"""How far ahead the next allowed moment is looked for; none within it: ``NaT``."""
_DAY_NS = 86_400 * 10**9
_TEXTS = ("rule", "forbidden_by", "jurisdiction", "basis", "policy")
_FRAMES = tuple(each.name for each in AUDIT_INPUTS
                if each.columns and "next_allowed" in each.readers)
"""The frames of the account :func:`next_allowed` reads besides the calls."""
COLUMNS = ("phone", "allowed", "judged", "next_allowed_at", "next_local_time", "timezone", "rule",
           "forbidden_by", "jurisdiction", "basis", "policy", "risk", "timezones")
"""The columns of :func:`next_allowed`'s answer (``lead_id`` first, for leads)."""


def next_allowed(phones_or_leads: pd.DataFrame | pd.Series | Iterable[str] | str,
                 at: pd.Timestamp | str | None = None, *, tz: str | None = None,
                 calls: pd.DataFrame | None = None, prefer: pd.DataFrame | None = None,
                 horizon: str | pd.Timedelta = "7D",
                 accept_unjudged: Collection[str] | str = (),
                 **inputs: Unpack[AuditInputs]) -> pd.DataFrame:
    """Whether a call to each number is allowed at ``at`` and, if not, the next moment it is.

    Args:
        phones_or_leads: Numbers (E.164 text: one, a list or a Series), or leads
            (``client.frames.leads()``: their ``phone``; a ``state`` column or the
            ``state`` of ``custom_fields`` applies the address state's law too, else the
            state of the person the lead's ``other_phones`` link it to among them). Leads
            with the audit's columns (``id``, ``campaign_id``, ``phone``, ``status``) are
            the account's leads beside ``calls`` and ``dnc`` too, read as the audit reads
            them: a number every lead of which says ``line`` ``business`` is no
            residential line, which the lists of residential subscribers do not protect.
        at: The moment asked about (default now): an ISO 8601 date or time or a
            ``datetime``, with its zone (``Z``, an offset) or read in ``tz``; a time of
            day without either is refused, never taken as UTC (a date alone starts at
            midnight UTC). Other text (``"30"``) is refused.
        tz: The zone ``at`` is read in where it has none (``"America/New_York"``).
        calls: The account's calls (``client.frames.calls()``): a call at ``at`` that
            a cap would count too many is not allowed until the cap frees the number
            (:mod:`._when_past`), judged by the audit's own count.
        prefer: The account's answer rates by the recipient's local hour and weekday
            (``dialkit.analytics.answer_rates(client.frames.calls())``): adds the best
            lawful hour within ``horizon`` (:mod:`._best_hour`: ``best_at``,
            ``best_local_time``, ``best_rate``) and ``next_rate``, the expected answer
            rate at ``next_allowed_at``.
        horizon: How far from ``at`` the best lawful hour is looked for (with
            ``prefer``): ``"7d"``, ``"48h"`` or a ``timedelta``.
        accept_unjudged: The countries whose law ``rules`` do not hold that the account
            calls on purpose, read as the audit reads ``blocked_countries`` (``["FR"]``,
            ``"FR, Spain"``): a number of one is judged by what is held (the policy, its
            caps, the DNC results given) and allowed where nothing forbids it, still
            ``judged`` False. Any other such number is ``no_law_held``.

    Keyword Args:
        rules: The law, as for :func:`audit` (default ``US``).
        policy: The account's own window, added as for :func:`audit`.
        texts: The account's texts (``client.frames.sms_reports()``), counted with the
            calls as the audit, :func:`upcoming` and the client's guard count them: a text
            is a call in law (47 CFR 64.1200(e)), so a Florida number texted three times
            in the last 24 hours may not be called until the cap frees it. A text's
            campaign is that of the leads asked about that hold its number, as the audit
            tells it by the account's leads.
        dnc: DNC results, as for :func:`audit`: a number the audit would find a call
            to (``dnc_call``) is not allowed, and has no next allowed moment.
        campaign_id: The campaign the call would be of, for caps counted per subject
            (default: the lead's, else the number's latest call's): one id (a call is of
            one campaign; several are refused).
        emergencies: The declared states of emergency, as :func:`audit` takes them: a
            call to a state whose law forbids solicitation during one is not allowed
            while it is declared there, and the next allowed moment is none inside it
            (its end, where a window is open then; NaT while it has no end).
        nonprofit: As for :func:`audit`: the account is a tax-exempt nonprofit calling
            for itself, so the National Do Not Call Registry's rule (and the state lists
            whose law exempts a nonprofit's calls) does not judge the call (with ``dnc``).
        charity: As for :func:`audit`: Canada's National DNCL does not bind the call
            (41.7(1)(a)).
        newspaper: As for :func:`audit`: Canada's National DNCL and the state lists whose
            law names a newspaper do not bind the call (41.7(1)(g)).
        contracts: The written contracts with the persons called, as :func:`audit` takes
            them (``phone``, or ``lead_id`` of the leads asked about; ``signed_at``,
            ``ends_at``): one in force lifts Canada's DNCL from the call.
        reassigned: The reassigned numbers database's answers, as :func:`audit` takes
            them: a ``yes`` voids the number's contracts and consents given before it.
        consents: The account's consent records, as :func:`audit` takes them (``phone``,
            or ``lead_id`` of the leads asked about; ``kind``, ``given_at``,
            ``revoked_at``): one standing at ``at`` exempts the call from each list whose
            law names it, and a ``written`` or ``oral`` one lifts the hours of the rows
            whose words bind only calls made without the person's consent (16 CFR
            310.4(c)), as the audit reads them. The next allowed moment is
            looked for with the consent as it stands at ``at``.
        values: What another tool's words mean, per named column, as :func:`audit`
            takes them (``{"disposition": {"DNC": "do_not_call"}}``).
        mapping: Which column of another tool's export holds a column the judge reads,
            as :func:`audit` takes it (``{"to_number": "Dialed"}``); the leads asked
            about are the ``leads``. ``attrs["notes"]`` of the answer says what was read
            as what.

    Returns:
        One row per number, in order: ``allowed``; ``judged``, False where no law of the
        place called was read (``no_law_held``: a country whose law ``rules`` do not hold,
        :data:`dialkit.compliance.US` holding the US's, Canada's and the UK's;
        ``unknown_timezone``), so that ``allowed`` False with ``judged`` False reads *not
        judged*, and True with it *allowed by no law, its country accepted*;
        ``next_allowed_at`` (UTC: ``at``
        itself where allowed; ``NaT`` where no time zone is known or nothing is allowed
        within :data:`HORIZON_DAYS` days), ``next_local_time`` and ``timezone`` (the
        recipient's wall clock then, in the number's first zone); where the call is not
        allowed now, the ``rule`` (``calling_hours``, ``unknown_jurisdiction``,
        ``unknown_timezone``, ``no_law_held``: basis ``risk``, ``jurisdiction`` the country,
        no next allowed moment, its words naming the law held and how to accept the
        country) and ``forbidden_by`` (the audit's evidence, ``Sun 12:00
        America/Denver (Utah: no calls on Sunday, Utah Code 13-25a-103(3) ...)``), with
        the ``jurisdiction``, ``basis`` and ``policy`` of the rule that forbids it;
        ``risk``, where the call is allowed but the audit would find it a risk (a state's
        required Do-Not-Call list no scrub given answers for; a listing a record would
        exempt had the list's words been read), the audit's words, with a
        :class:`~dialkit.errors.ComplianceRiskWarning`;
        ``timezones``, every zone the call is judged in: the number's
        (``America/New_York, America/Chicago`` for an area code the exchange does not
        place in one), then, for a lead whose address state is another state, that
        state's, on which its rule is judged (a New York number with a Texas address:
        ``America/New_York, America/Chicago, America/Denver``).

    Raises:
        TypeError: A keyword that is none of the judges' inputs (naming those it reads),
            or an input it does not read (saying why, as its declaration does).
        AuditInputError: A value that is not an E.164 number (``"415-555-0123"``, ``""``,
            ``None``), named as ``client.dnc.check`` names it, with its E.164 form where it
            can be told (``pass +14155550123 if it is a US number``); a number in E.164 that
            no zone is known for is an answer, ``unknown_timezone``, not an error. Leads
            with a ``line`` but without the audit's columns of a lead (it would go
            unread); a frame the audit would refuse (``contracts``, ``reassigned``),
            naming it.
        InputError: ``nonprofit``, ``charity`` or ``newspaper`` neither True nor False;
            ``accept_unjudged`` naming no country.

    Examples:
        >>> from dialkit.compliance import next_allowed
        >>> next_allowed("+18015550123", "2026-11-22T19:00:00Z")[
        ...     ["allowed", "next_allowed_at"]].to_dict("records")
        [{'allowed': False, 'next_allowed_at': Timestamp('2026-11-23 15:00:00+0000', tz='UTC')}]
    """
    given = inputs_of("next_allowed", inputs)
    accepting = Accepting.read(accept_unjudged, "next_allowed")
    campaign_id = one_campaign(given["campaign_id"])
    if is_tabular(phones_or_leads) and hasattr(phones_or_leads, "columns"):  # Polars or
        phones_or_leads = as_pandas(phones_or_leads, "leads")  # Arrow leads (not a Series)
    read, said = readable({
        "leads": phones_or_leads if isinstance(phones_or_leads, pd.DataFrame) else None,
        "calls": calls, **{name: given[name] for name in _FRAMES}},
        given["mapping"], given["values"])
    phones_or_leads = phones_or_leads if read["leads"] is None else read["leads"]
    calls, texts, dnc, emergencies, contracts, reassigned, consents = (
        read[name] for name in ("calls", "texts", "dnc", "emergencies", "contracts",
                                "reassigned", "consents"))
    phones, address, leads = numbers_asked(phones_or_leads)
    moment = utc_moment(pd.Timestamp.now(tz="UTC") if at is None else at, "at", tz=tz)
    rules = with_emergencies(with_policy(given["rules"], given["policy"]), emergencies)
    asked = phones_or_leads if leads is not None else None
    lifting = Lifting.read("next_allowed", has_leads=has_lead_columns(asked),
                           nonprofit=given["nonprofit"], charity=given["charity"],
                           newspaper=given["newspaper"], contracts=contracts,
                           reassigned=reassigned, consents=consents)
    consented = lifting.consented(phones, moment, asked)
    answer = judged(phones, address, moment, rules, asked_about(
        rules, _contacts(calls, texts, asked), dnc, campaign_id, asked, lifting),
        consented=consented, accepting=accepting)[list(COLUMNS)]
    if prefer is not None:
        answer = answer.join(best_of(answer["next_allowed_at"], phones, _at(moment, phones),
                                     rules, address, prefer, duration(horizon, "horizon")))
    if leads is not None:
        answer = answer.assign(lead_id=leads)
        answer = answer[["lead_id", *answer.columns[:-1]]]
    answer.attrs["notes"] = read_as_note(said)
    _warn_of_risks(answer["risk"])
    return answer


def _warn_of_risks(risks: pd.Series) -> None:
    """A :class:`~dialkit.errors.ComplianceRiskWarning` where an answer's ``risk`` says
    something: the call is allowed, but the law may forbid it (a scrub the law requires
    is missing, or a list's words on what exempts the call were not read), in the first
    risk's own words."""
    said = risks.dropna()
    if len(said):
        warnings.warn(f"{counted(len(said), 'number')} allowed may be a call the law "
                      f"forbids, though nothing given says so (the answer's risk column "
                      f"says why, for each): {said.iloc[0]}", ComplianceRiskWarning,
                      stacklevel=3)


def judged(phones: pd.Series, address: np.ndarray | None, moment: pd.Timestamp,
           rules: Rules, asked: Asked, *, consented: np.ndarray | None = None,
           accepting: Accepting = NONE_ACCEPTED) -> pd.DataFrame:
    """:func:`next_allowed`'s answer (its :data:`COLUMNS`, and a risk's jurisdiction:
    :data:`._when_past.RISK_JURISDICTION`, for the guard's verdict) for ``phones`` at ``moment``,
    each read already (:func:`._asked.numbers_asked`; ``rules`` with the policy and emergencies
    added): the hours of their places, then, where ``asked`` holds the account's calls or
    DNC results, what was done to each number (:func:`._when_past.judged_by_history`);
    ``consented``: which numbers' hours a standing consent lifts (None: none); last, the
    numbers whose law no row of ``rules`` holds (:func:`._unjudged.law_read`),
    ``accepting`` the countries accepted unjudged. What the client guard's judge asks too,
    with what it read of its settings once."""
    answer = hours_at(phones, _at(moment, phones), rules, address, consented=consented)
    if asked.calls is not None or asked.dnc is not None:
        answer = judged_by_history(answer, moment, asked)
    else:
        none = pd.Series(pd.NA, index=answer.index, dtype="str")
        answer = answer.assign(**{RISK: none, RISK_JURISDICTION: none})
    return law_read(answer, phones, rules, accepting)[[*COLUMNS, RISK_JURISDICTION]]


def asked_about(rules: Rules, calls: pd.DataFrame | None, dnc: pd.DataFrame | None,
                campaign_id: str | None, leads: pd.DataFrame | None,
                lifting: Lifting) -> Asked:
    """What :func:`judged` judges a number's past by (:class:`._when_past.Asked`): the
    account's ``calls`` (texts among them) and ``dnc`` results, the call's campaign, the
    ``leads`` asked about, what lifts a list's rule, and the hours of ``rules`` for the
    moment a cap frees a number."""
    def hours(numbers: list[str], at: pd.Timestamp) -> pd.DataFrame:
        asked = pd.Series(numbers, dtype=object)
        return hours_at(asked, _at(at, asked), rules, None,
                        consented=lifting.consented(asked, at, leads))

    return Asked(rules, calls, dnc, campaign_id, leads, hours, lifting)


def _at(moment: pd.Timestamp, phones: pd.Series) -> np.ndarray:
    """``moment`` for each of ``phones``, as :func:`hours_at` takes moments."""
    return np.full(len(phones), moment.tz_convert(None).to_datetime64(), "datetime64[ns]")


def _contacts(calls: pd.DataFrame | None, texts: pd.DataFrame | None,
              leads: object) -> pd.DataFrame | None:
    """The account's calls with its texts after them as the calls they are in law
    (:func:`.._run.with_texts`: the audit's own rows), for the caps to count both; the
    calls as given without texts. A text's campaign is told by ``leads`` (the leads asked
    about, where they name campaigns), as the audit tells it by the account's."""
    if texts is None:
        return calls
    past = prepared_calls(pd.DataFrame(columns=list(CALL_COLUMNS)) if calls is None else calls)
    held = leads if isinstance(leads, pd.DataFrame) and "campaign_id" in leads else None
    return with_texts(past, prepared_texts(texts), held)


def with_policy(rules: Rules, policy: Rules | None) -> Rules:
    """``rules`` with the account's ``policy`` added, refused as the audit refuses it."""
    if policy is None:
        return rules
    try:
        return rules.with_policy(policy)
    except ValueError as error:
        raise AuditInputError(str(error)) from None


def hours_at(phones: pd.Series, moments: np.ndarray, rules: Rules,
             address: np.ndarray | None, *, every_zone: bool = True,
             consented: np.ndarray | None = None) -> pd.DataFrame:
    """The hours' answer for each number at its own moment (UTC ``datetime64[ns]``),
    asked once per place and moment: :func:`next_allowed`'s columns but for what the
    number's history adds (:mod:`._when_past`); ``timezones`` only if ``every_zone``,
    listed once per place (a place is one set of zones and rows of law: its numbers'
    lists are alike) and gathered to its numbers. ``consented``: which numbers' hours a
    standing consent lifts (:func:`.._checks._consent.lifting`), a place apart."""
    place, first = _places(phones, rules, address, consented)
    zones = _every_zone(phones.iloc[first], rules, None if address is None
                        else address[first]).take(place) if every_zone else None
    law_place, asked = np.arange(len(first)), first  # each asked (place, moment)'s place
    if len(moments) and moments.min() != moments.max():  # each place at each of its moments
        pairs, _ = pd.factorize(pd.MultiIndex.from_arrays([place, moments]))
        asked = np.unique(pairs, return_index=True)[1]
        place, law_place = pairs, place[asked]
    number = first[law_place]  # its place's first: 10,000 moments' numbers not parsed again
    reps = phones.iloc[number].reset_index(drop=True)
    reps_address = None if address is None else address[number]
    reps_consented = None if consented is None else consented[number]
    now = _judged_now(reps, moments[asked], rules, reps_address, reps_consented)
    later = _next_moments(reps, now["allowed"].to_numpy(), moments[asked], rules,
                          reps_address, law_place, reps_consented)
    answer = now.assign(next_allowed_at=later).pipe(_with_local_times, reps, rules,
                                                    reps_address)
    answer = answer.iloc[place].reset_index(drop=True).assign(phone=phones.astype("str").array)
    return answer if zones is None else answer.assign(timezones=zones)


def best_of(next_at: pd.Series, phones: pd.Series, moments: np.ndarray, rules: Rules,
            address: np.ndarray | None, prefer: pd.DataFrame,
            horizon: pd.Timedelta) -> pd.DataFrame:
    """The best lawful hour of each number from its next allowed moment
    (:func:`._best_hour.best_hours`), its hours made once per place."""
    place = _places(phones, rules, address)[0]
    return best_hours(next_at, phones, place, moments, rules, address, prefer, horizon)


def _every_zone(phones: pd.Series, rules: Rules,
                address: np.ndarray | None) -> pd.api.extensions.ExtensionArray:
    """Each number's zones, as :func:`.._phones._zones.zoned` pairs them, then those of its
    lead's address state where that is another state's (:mod:`._address_clock`), joined
    by commas (None where none is known)."""
    phones = phones.reset_index(drop=True)
    pairs = zoned(phones)
    if address is not None and rules.jurisdictions:
        pairs = address_zones(phones, pairs, rules, address)[0]
    return _joined(np.asarray(pairs.row), np.asarray(pairs.zone), len(phones))


def _joined(row: np.ndarray, zone: np.ndarray, size: int) -> pd.api.extensions.ExtensionArray:
    """Each of ``size`` rows' zone names, in the pairs' order, joined by commas (None: none).
    The rows are places, a few hundred for a campaign's 100,000 leads (:func:`hours_at`)."""
    names: list[list[str]] = [[] for _ in range(size)]
    for each, at in zip(row.tolist(), zone.tolist(), strict=True):
        names[each].append(ZONES[at])
    return pd.array([", ".join(these) or None for these in names], dtype="str")


def _places(phones: pd.Series, rules: Rules, address: np.ndarray | None,
            consented: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each number's place (an index into the distinct places), and each place's first
    number: a place is one set of zones and one set of law rows, and whether a consent
    lifts its hours."""
    primary, state, by_address = law_rows(phones, rules, address)
    lifted = 0 if consented is None else consented.astype(np.int64) << 62
    key = ((zone_sets(phones).astype(np.int64) << 36) | ((primary + 1) << 24)
           | ((state + 1) << 12) | (by_address + 1) | lifted)
    place, _ = pd.factorize(key)
    _, first = np.unique(place, return_index=True)
    return place, first


def _judged_now(reps: pd.Series, moment: np.ndarray, rules: Rules,
                address: np.ndarray | None, consented: np.ndarray | None) -> pd.DataFrame:
    """Each place's answer at its ``moment``: allowed, else the finding that forbids it."""
    calls = pd.DataFrame({"phone": reps, "at": pd.DatetimeIndex(moment).tz_localize("UTC")})
    found = pd.concat(calling_hours(calls, clock(calls, rules, address, consented)))
    answer = pd.DataFrame({"allowed": True, "rule": None, "forbidden_by": None,
                           "jurisdiction": None, "basis": None, "policy": None},
                          index=reps.index).astype(object)
    if len(found):
        found = found[~found.index.duplicated()]
        answer.loc[found.index, "allowed"] = False
        answer.loc[found.index, "rule"] = found["rule"].to_numpy(object)
        answer.loc[found.index, "forbidden_by"] = found["evidence"].astype(
            object).str.removeprefix("called ").to_numpy(object)
        for column in ("jurisdiction", "basis", "policy"):
            answer.loc[found.index, column] = found[column].astype(object).where(
                found[column].notna(), None).to_numpy(object)
    return answer.astype({"allowed": bool, **{column: "str" for column in _TEXTS}})


def _next_moments(reps: pd.Series, allowed: np.ndarray, moment: np.ndarray, rules: Rules,
                  address: np.ndarray | None, place: np.ndarray,
                  consented: np.ndarray | None) -> pd.Series:
    """Each (place, moment)'s next allowed moment (its ``moment``, UTC ``datetime64[ns]``,
    where allowed then; NaT where none is known within :data:`HORIZON_DAYS` days): the
    earliest opening of a window that the law of every zone allows. The openings are
    made and judged once per ``place``, from its earliest moment asked, over the days its
    later moments need too: 10,000 callbacks due at their own moments are a few hundred
    places' openings, not 10,000 numbers'."""
    later = pd.Series(pd.NaT, index=reps.index, dtype="datetime64[ns, UTC]")
    later[allowed] = pd.DatetimeIndex(moment[allowed]).tz_localize("UTC")
    asked = np.flatnonzero(~allowed)
    if not len(asked):
        return later
    by_place = asked[np.lexsort((moment[asked], place[asked]))]
    starters = by_place[np.r_[True, np.diff(place[by_place]) != 0]]  # its earliest moment
    extra = (moment[asked].max() - moment[asked].min()) // np.timedelta64(1, "D")
    calls = pd.DataFrame({"phone": reps.iloc[starters].to_numpy(object),
                          "at": pd.DatetimeIndex(moment[starters]).tz_localize("UTC")})
    address = None if address is None else address[starters]
    consented = None if consented is None else consented[starters]
    candidates = _openings(clock(calls, rules, address, consented), rules,
                           HORIZON_DAYS + int(extra))
    if not len(candidates):
        return later
    row = candidates["row"].to_numpy()
    opening = candidates["at"].to_numpy("datetime64[ns]")  # not Timestamps, an object each
    ok = allows(calls["phone"].to_numpy(object)[row], opening, rules,
                None if address is None else address[row],
                None if consented is None else consented[row])
    opens = opening[ok]
    key = np.sort((place[starters][row[ok]].astype(np.int64) << 42)
                  + opens.astype("datetime64[s]").astype(np.int64))
    if not len(key):
        return later
    asked_key = ((place[asked].astype(np.int64) << 42)
                 + moment[asked].astype("datetime64[s]").astype(np.int64))
    at = np.searchsorted(key, asked_key, side="right")  # the first opening after it
    found = at < len(key)
    seconds = key[np.minimum(at, len(key) - 1)]
    found &= (seconds >> 42) == place[asked]
    first = ((seconds & ((1 << 42) - 1)).astype("datetime64[s]")).astype("datetime64[ns]")
    found &= first < moment[asked] + np.timedelta64(HORIZON_DAYS + 1, "D")
    later.iloc[asked[found]] = pd.DatetimeIndex(first[found]).tz_localize("UTC")
    return later


def _openings(times: Clock, rules: Rules, days: int) -> pd.DataFrame:
    """The moments a window opens near each asked place: every distinct start of the
    applied windows (``00:00`` too), on each of the next ``days`` days, in each of its
    zones, and the end of each declared emergency the rules carry (a window may be open
    when it ends), as UTC: ``row`` (the place among those asked) and ``at``."""
    law = times.judged.law
    starts = np.unique(np.r_[0.0, law.start[law.end > law.start]])
    pairs, local = times.pairs, times.local
    day = local.astype("datetime64[D]").astype("datetime64[ns]").view(np.int64)
    offsets = (np.arange(days + 1)[:, None] * _DAY_NS
               + (starts * 10**9).astype(np.int64)[None, :]).ravel()
    found = []
    for zone in np.unique(pairs.zone):
        ours = np.flatnonzero(pairs.zone == zone)
        wall = (day[ours][:, None] + offsets[None, :]).ravel()
        utc = pd.DatetimeIndex(wall).tz_localize(
            zone_info(ZONES[int(zone)]), ambiguous=False,
            nonexistent="shift_forward").tz_convert("UTC")
        found.append(pd.DataFrame({"row": np.repeat(pairs.row[ours], len(offsets)),
                                   "at": utc}))
    found += [pd.DataFrame({"row": np.unique(pairs.row), "at": end})
              for end in ends(rules.emergencies)]
    return pd.concat(found, ignore_index=True) if found else pd.DataFrame(
        {"row": [], "at": []})


def _with_local_times(answer: pd.DataFrame, reps: pd.Series, rules: Rules,
                      address: np.ndarray | None) -> pd.DataFrame:
    """``next_local_time`` and ``timezone``: the next allowed moment on the recipient's
    wall clock in the number's first zone (None where there is no such moment)."""
    known = np.flatnonzero(answer["next_allowed_at"].notna().to_numpy())
    shown = np.full(len(answer), None, object), np.full(len(answer), None, object)
    if len(known):
        calls = pd.DataFrame({"phone": reps.iloc[known].to_numpy(object),
                              "at": answer["next_allowed_at"].iloc[known].to_numpy()})
        times = clock(calls, rules, None if address is None else address[known])
        pair = times.named
        has = pair >= 0
        shown[0][known[has]] = written(times.local[pair[has]])
        shown[1][known[has]] = np.array(ZONES, object)[times.pairs.zone[pair[has]]]
    return answer.assign(next_local_time=pd.array(shown[0], dtype="str"),
                         timezone=pd.array(shown[1], dtype="str"))
