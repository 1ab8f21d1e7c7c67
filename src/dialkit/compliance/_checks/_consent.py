"""Evidence that exempts: the account's consent records and reassigned-number answers.

``consents=``: a row per record, by ``phone`` or
``lead_id``, of ``kind`` ``written`` (prior express written consent, a signed written
agreement), ``ebr`` (an established business relationship, from ``given_at``: its
``relationship``, ``purchase`` or ``inquiry``, says which, absent a purchase), ``oral``
or ``invitation`` (the person asked or invited the caller to call),
with ``given_at`` and ``revoked_at`` (a revocation is an opt-out:
:mod:`._dnc` puts the number on the account's own list from then). ``reassigned=``: the
reassigned numbers database's answers (``phone``, ``asked_at``, ``answer`` ``yes``, ``no``
or ``no_data``); a ``yes`` says the number was disconnected since the consent was given,
so the consent no longer speaks for whoever holds it now (47 CFR 64.1200(m)).

A record exempts a call to a listed number where its kind is one the list's law names
(:class:`dialkit._law._dnc_lists.DncList`'s ``exempt_by``) and it stands at the call (an
``ebr`` while the period of every law of the country that counts it holds: the TSR's
and the FCC's in the US, :func:`dialkit._law._dnc_lists.relationships`); the
TCPA's rule for wireless numbers (:func:`no_written_consent`) needs a ``written`` one.
Records are joined with the few calls to listed numbers, or with the campaign calls to US
numbers for the TCPA's rule, on the number: no loop over calls.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._arrays._groups import isin
from ..._law import _dnc_lists as lists
from ..._phones._types import MAYBE_MOBILE, MOBILE, number_types
from ..._phones._zones import regions_among
from ..._shown._words import counted
from ..._utils._moments import utc_times
from ._findings import findings, written

PRERECORDED = "prerecorded"
"""The calls' optional column: whether a call used an artificial or prerecorded voice."""
LIFTING = ("written", "oral")
"""The kinds of consent record that are a person's prior consent to a call."""
US_REGIONS = ("US", "PR", "VI", "GU", "MP", "AS")


AFTER_AS_OF = "after_as_of"
"""The resolved records' column: whether the record is read as standing at no call, for a
time it (or a reassigned ``yes`` of its number) holds is after the audit's ``as_of``
(:func:`_after_as_of`)."""


def resolved(consents: pd.DataFrame | None, leads: pd.DataFrame | None,
             reassigned: pd.DataFrame | None, as_of: pd.Timestamp) -> pd.DataFrame | None:
    """The consent records by number: a record naming a lead takes the lead's ``phone``
    (one of ``leads``' ids; others are left out: on Dask, another part's), and each gets
    ``void_from``, the first ``yes`` of the reassigned numbers database asked on or after
    its ``given_at`` (NaT: none), and :data:`AFTER_AS_OF`."""
    if consents is None:
        return None
    phone = consents["phone"].astype(object) if "phone" in consents else pd.Series(
        None, index=consents.index, dtype=object)
    if "lead_id" in consents and leads is not None:
        by_lead = leads.drop_duplicates("lead_id").set_index("lead_id")["phone"].astype(object)
        phone = phone.fillna(consents["lead_id"].astype(object).map(by_lead))
    records = consents.assign(phone=phone)[phone.notna().to_numpy()]
    return records.assign(void_from=_void_from(records, reassigned),
                          **{AFTER_AS_OF: _after_as_of(records, reassigned, as_of)})


def _after_as_of(records: pd.DataFrame, reassigned: pd.DataFrame | None,
                 as_of: pd.Timestamp) -> np.ndarray:
    """Which records hold a ``given_at`` or ``revoked_at`` after ``as_of``, or are of a
    number with a reassigned ``yes`` asked after it. No record made by then could hold
    such a time (a ``listed_at`` and a ``checked_at`` are read so too), and read as it
    stands it let the calls before it pass: a consent "revoked" in 2036 stood at every
    call. The moment it was given, revoked or voided is unknown, so the record
    is read as standing at no call: the stricter reading, never permission."""
    later: np.ndarray = _after(records["given_at"], as_of) | _after(records["revoked_at"], as_of)
    if reassigned is None:
        return later
    yes = (reassigned["answer"] == "yes").fillna(False).to_numpy(bool)
    asked = reassigned[yes & _after(reassigned["asked_at"], as_of)]
    voided: np.ndarray = later | isin(records["phone"], asked["phone"].astype(str).tolist())
    return voided


def _after(times: pd.Series, as_of: pd.Timestamp) -> np.ndarray:
    """Whether each of ``times`` is after ``as_of`` (an unknown one is not)."""
    after: np.ndarray = (times > as_of).fillna(False).to_numpy(bool)
    return after


def _void_from(records: pd.DataFrame, reassigned: pd.DataFrame | None) -> pd.Series:
    """Each record's first ``yes`` answer asked on or after its ``given_at``."""
    none = pd.Series(pd.NaT, index=records.index, dtype="datetime64[ns, UTC]")
    if reassigned is None or not len(records):
        return none
    yes = reassigned.loc[reassigned["answer"] == "yes", ["phone", "asked_at"]]
    pairs = records[["phone", "given_at"]].assign(phone=records["phone"].astype(object),
                                                  _record=np.arange(len(records)))
    joined = pairs.merge(yes.assign(phone=yes["phone"].astype(object)), on="phone")
    joined = joined[joined["asked_at"] >= joined["given_at"]]
    first = joined.groupby("_record")["asked_at"].min()
    return pd.Series(utc_times(first.reindex(np.arange(len(records))),
                               "reassigned.asked_at").array, index=records.index)


def standing(calls: pd.DataFrame, records: pd.DataFrame | None, kinds: tuple[str, ...],
             laws: tuple[lists.Relationship, ...] = ()) -> np.ndarray:
    """Whether a record of one of ``kinds`` stands at each call (``phone``, ``at``): given
    before it, not revoked, not voided by a reassigned answer, none of its times after the
    audit's ``as_of`` (:func:`_after_as_of`), and (an ``ebr``) within the period of each of
    ``laws`` for its relationship."""
    if records is None or not kinds or not len(calls):
        return np.zeros(len(calls), bool)
    mine = records[records["kind"].isin(kinds)]
    pairs = pd.DataFrame({"phone": calls["phone"].astype(object).to_numpy(),
                          "at": calls["at"].to_numpy(), "_call": np.arange(len(calls))})
    joined = pairs.merge(mine.assign(phone=mine["phone"].astype(object)), on="phone")
    at = utc_times(joined["at"], "calls.at")
    ok = (joined["given_at"] <= at) & ~(joined["revoked_at"] <= at) & ~(joined["void_from"] <= at)
    ok &= ~joined[AFTER_AS_OF].to_numpy(bool)
    if laws:
        ok &= (joined["kind"] != "ebr") | _related(joined, at, laws)
    found = np.zeros(len(calls), bool)
    found[joined.loc[ok.to_numpy(), "_call"].to_numpy()] = True
    return found


def _related(records: pd.DataFrame, at: pd.Series,
             laws: tuple[lists.Relationship, ...]) -> pd.Series:
    """Whether each record's relationship still holds at ``at`` under every one of
    ``laws``: its period after a purchase, or (``relationship`` ``inquiry``) after an
    inquiry, counted from ``given_at``."""
    inquiry = (records["relationship"] == "inquiry").fillna(False) if (
        "relationship" in records) else pd.Series(False, index=records.index)
    held = pd.Series(True, index=records.index)
    for law in laws:
        for period, which in ((law.purchase, ~inquiry), (law.inquiry, inquiry)):
            if period.unit == lists.UNCOUNTED:
                held &= ~which
            elif period.unit != lists.LASTING:
                held &= ~which | (at < records["given_at"] + _offset(period))
    return held


def _offset(period: lists.Period) -> pd.DateOffset | pd.Timedelta:
    """A law's period as pandas adds it to a time: calendar months, or days."""
    if period.unit == "months":
        return pd.DateOffset(months=period.count)
    return pd.Timedelta(days=period.count)


def lifting(calls: pd.DataFrame, records: pd.DataFrame | None) -> np.ndarray | None:
    """Whether the person's prior consent stood at each call, as the hours' rules that
    bind calls made "without the prior consent of a person" (16 CFR 310.4(c); the rows
    with ``consent_lifts_hours``) read it: a ``written`` or ``oral`` record standing at
    the call (an ``ebr`` is a relationship, not a consent). None without records."""
    return None if records is None else standing(calls, records, LIFTING)


def exempted(pairs: pd.DataFrame, records: pd.DataFrame | None,
             reassigned: pd.DataFrame | None, row: lists.DncList) -> np.ndarray:
    """Whether a consent record the list's law names exempts each call to a listed number."""
    return standing(pairs, records, row.exempt_by, lists.relationships(row.relationships))


def assumed(records: pd.DataFrame | None) -> dict[str, str]:
    """The report's notes on what the consent records left to assume: how a call was
    told prerecorded, and the ``ebr`` records that do not say their relationship, read as
    a purchase."""
    if records is None:
        return {}
    notes = {"prerecorded": (
        "no_written_consent judges as prerecorded (47 CFR 64.1200(a)(3)) the calls whose "
        "prerecorded column is true; a call without it, or with it empty, is read as a "
        "live voice")}
    ebr = records[records["kind"] == "ebr"]
    unsaid = int(ebr["relationship"].isna().sum()) if "relationship" in ebr else len(ebr)
    if not unsaid:
        return notes
    periods = "; ".join(f"{law.citation}: {law.purchase} after a purchase, {law.inquiry} "
                        "after an inquiry" for law in lists.relationships())
    return {**notes, "relationships": (
        f"{unsaid} consent record(s) of kind ebr do not say their relationship "
        "(consents' relationship column, purchase or inquiry): read as a purchase, which "
        f"lasts longest ({periods})")}


def dated_after(records: pd.DataFrame | None, reassigned: pd.DataFrame | None,
                as_of: pd.Timestamp) -> dict[str, str]:
    """The report's note on the consent records and reassigned answers dated after
    ``as_of`` (none: no note): the findings they bear on (the hours a consent would lift,
    a listed number it would exempt) do not name the record, so the note says how each
    was read (:func:`_after_as_of`)."""
    if records is None:
        return {}
    consents = int((_after(records["given_at"], as_of)
                    | _after(records["revoked_at"], as_of)).sum())
    answers = 0 if reassigned is None else int((
        (reassigned["answer"] == "yes").fillna(False).to_numpy(bool)
        & _after(reassigned["asked_at"], as_of)).sum())
    if not consents and not answers:
        return {}
    return {"dated_after_as_of": (
        f"{counted(consents, 'consent record')} with a given_at or revoked_at and "
        f"{counted(answers, 'reassigned yes answer')} with an asked_at after the audit's as_of "
        f"({str(written(pd.Series([as_of]))[0])}), when no record could hold it: each such "
        "record, and every record of a number with such a yes, is read as standing at no "
        "call, and such a revocation lists its number from a date unknown")}


@dataclass(frozen=True)
class Lines:
    """What the leads' ``line`` says of each number, of the facts the consent rule reads:
    a number any lead says is ``wireless`` is one (the stricter reading); one its leads say
    is ``voip``, and none wireless, may be (whether the called party pays for the call is
    unknown); one they say is a ``landline``, and none wireless or voip, is not. The
    others (``business``, ``residential``, no word) are what the numbering plan says."""

    wireless: frozenset[str] = frozenset()
    voip: frozenset[str] = frozenset()
    landline: frozenset[str] = frozenset()
    business: frozenset[str] = frozenset()

    @classmethod
    def of(cls, leads: pd.DataFrame | None, business: frozenset[str]) -> Lines:
        """The lines ``leads`` say (``business``: :func:`._dnc.business_lines`)."""
        if leads is None or "line" not in leads or not len(leads):
            return cls(business=business)
        said = leads[["phone", "line"]].dropna().astype(object)
        words = said.groupby("phone")["line"].agg(frozenset)
        wireless = {p for p, w in words.items() if "wireless" in w}
        voip = {p for p, w in words.items() if "voip" in w} - wireless
        landline = {p for p, w in words.items() if "landline" in w} - wireless - voip
        return cls(frozenset(wireless), frozenset(voip), frozenset(landline), business)


def no_written_consent(calls: pd.DataFrame, records: pd.DataFrame, lines: Lines) -> pd.DataFrame:
    """Calls with no prior express written consent standing at them that need one: campaign
    calls (placed by the dialer, so autodialled) to US wireless numbers (47 CFR
    64.1200(a)(2)): of law where the number is wireless (its type in the numbering plan,
    or its leads' ``line``); a risk where neither tells (``fixed line or mobile``, most US
    numbers, and no lead says ``wireless`` or ``landline``, or one says ``voip``); and any
    call marked ``prerecorded`` (an artificial or prerecorded voice) to a US number that
    is not a ``business`` line (47 CFR 64.1200(a)(3); (a)(2) where the number is
    wireless): of law. A risk's evidence names the fact that would settle it."""
    rows, _ = regions_among(calls["phone"], US_REGIONS)
    taken = calls.iloc[rows]
    kind = number_types(taken["phone"])
    phones = taken["phone"]
    recorded = _prerecorded(taken) & ~phones.isin(lines.business).to_numpy(bool)
    placed = taken["campaign_id"].notna().to_numpy()
    told = phones.isin(lines.wireless).to_numpy(bool)
    mobile = (kind == MOBILE) | told
    unsure = (kind == MAYBE_MOBILE) & ~mobile & ~phones.isin(lines.landline).to_numpy(bool)
    lacking = ((placed & (mobile | unsure)) | recorded) & ~standing(taken, records,
                                                                    ("written",))
    hits, sure = taken[lacking], (mobile | recorded)[lacking]
    voice, mobile, told = recorded[lacking], mobile[lacking], told[lacking]
    voip = hits["phone"].isin(lines.voip).to_numpy(bool)
    evidence = pd.Series(np.where(
        voice, "a call with an artificial or prerecorded voice to a residential line (the "
        "leads do not say it is a business line)" + np.where(mobile, " or wireless number", ""),
        np.where(sure, "a campaign call to a wireless number" + np.where(
            told, " (its leads' line says so)", ""),
            np.where(voip, "a campaign call to a number its leads say is a VoIP line, which "
                     "may be wireless (whether the called party is charged for the call is "
                     "unknown)", "a campaign call to a number the numbering plan does not "
                     "tell wireless from landline") + "; the number's line (leads' line: "
                     "wireless or landline) would settle it")),
        index=hits.index, dtype=object) + (
        "; no written consent in the consent records stands at the call (none for the number, "
        "given later, revoked or voided by a reassigned-number answer)")
    wireless_rule, voice_rule = lists.consent_rule("US-wireless"), lists.consent_rule(
        "US-prerecorded")
    evidence = evidence + np.where(voice & ~mobile & (not voice_rule.confirmed),
                                   " (a doubtful reading: see the doubts of the consent row "
                                   "US-prerecorded)", "")
    return findings("no_written_consent", hits.assign(
        basis=np.where(sure, "law", "risk"), policy=None, jurisdiction="US",
        decided_by="number", citation=np.where(voice & ~mobile, voice_rule.citation,
                                               wireless_rule.citation)), evidence)


def _prerecorded(calls: pd.DataFrame) -> np.ndarray:
    """Whether each call was marked ``prerecorded`` (absent or empty: a live voice, as the
    report's notes say)."""
    if PRERECORDED not in calls:
        return np.zeros(len(calls), bool)
    marked: np.ndarray = calls[PRERECORDED].fillna(False).to_numpy(bool)
    return marked
