"""Do-Not-Call: calls to listed numbers, listed leads still dialable, and leads whose
numbers were not screened recently enough, each judged by the law of the list the number
is on (:mod:`dialkit._law._dnc_lists`: the US registry, the UK's TPS, Canada's DNCL, the
account's own list, a US state's own list) and that list's grace.

A state's own list is told by the DNC results' ``list`` (``US-IN``): a scrub of
the state's download or a vendor's file. A listing on it is judged by the state's row
wherever the number's area code is, for the list is the state's record of who objected.
Where the DNC results hold no row of a state's list, calls to that state's numbers were
judged against it by nothing: :mod:`._state_lists` names them and finds their risks.

A number is on a list from its listing: a row of the DNC results (its ``list``, read as
the national register where the results do not say, and ``listed_at``), a call whose
disposition was ``do_not_call`` (a request to the account: its own list, from the call's
end) or a consent revoked (:mod:`._consent`; its own list, from ``revoked_at``). The
calls to listed numbers are few: they are joined with the listings and judged list by
list, a loop over the table's few rows, never over calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..._arrays._codes import codes_in
from ..._arrays._groups import isin
from ..._law import _dnc_lists as lists
from ..._phones._zones import regions_among
from ..._shown._words import counted
from ..._utils._moments import utc_times
from .._inputs._declared import TIME_TYPE
from .._rules._place_law import COUNTRIES, scrub_ages
from .._rules._rules import FINDING_COLUMNS, Rules
from ._consent import _offset, exempted, standing
from ._findings import findings, written

UNREAD = "the DNC results do not say which list; read as the national register"
UNANSWERED = "dnc_unanswered"
"""The report's note on DNC results that do not say whether their number is listed."""
NO_ROW = "the account's DNC results (no list of the number's country in the law's table)"
"""The policy a call to a listed number of a country the table lacks is a finding of."""


@dataclass(frozen=True)
class Facts:
    """Facts a list's law turns on that the contract's records do not carry, as the
    caller told them: the numbers that are ``business`` lines (a lead's
    ``line``); whether the account is a tax-exempt ``nonprofit`` calling for itself, a
    registered ``charity`` (or calls for one) soliciting a donation, a ``newspaper`` (or
    calls for one) soliciting subscriptions (each its own fact,
    :data:`dialkit._law._dnc_lists.FACTS`); and the written ``contracts`` in force, as records
    of kind ``contract`` (:func:`contract_records`, resolved as consents are)."""

    business: frozenset[str] = frozenset()
    nonprofit: bool = False
    charity: bool = False
    newspaper: bool = False
    contracts: pd.DataFrame | None = field(default=None, compare=False)

    def lifting(self, row: lists.DncList) -> bool:
        """Whether a fact the caller gave lifts ``row``'s rule from every call."""
        held = {name for name in lists.FACTS if getattr(self, name)}
        return bool(held.intersection(row.exempt_facts))


def contract_records(contracts: pd.DataFrame | None) -> pd.DataFrame | None:
    """``contracts=`` (``phone`` or ``lead_id``, ``signed_at``, ``ends_at``) as the
    records the consent checks read (:func:`._consent.resolved`, :func:`._consent.standing`):
    kind ``contract`` from ``signed_at``, its ``ends_at`` kept for :func:`_in_force`, so
    that a contract is voided by a reassigned ``yes`` and read after ``as_of`` as a
    consent is, by the same code. None without contracts."""
    if contracts is None:
        return None
    return contracts.assign(kind=lists.CONTRACT, given_at=contracts["signed_at"],
                            revoked_at=pd.Series(pd.NaT, index=contracts.index,
                                                 dtype=TIME_TYPE))


def business_lines(leads: pd.DataFrame | None) -> frozenset[str]:
    """The numbers the leads say are business lines: each of whose leads says ``line``
    ``business`` (a number any lead says is residential, or says nothing of, is read as
    residential: the stricter reading)."""
    if leads is None or "line" not in leads or not len(leads):
        return frozenset()
    said = leads["line"].astype(object).eq("business").groupby(
        leads["phone"].astype(object)).all()
    return frozenset(said.index[said.to_numpy(bool)])


def assumed_facts(found: pd.DataFrame) -> dict[str, str]:
    """The report's note on the facts :class:`Facts` reads, where a finding rests on what
    was assumed of them: a call to a number on a list whose law protects residential
    lines or binds solicitations only."""
    rows = [row for row in lists.all() if row.residential_only or row.exempt_facts]
    hits = found[(found["rule"] == "dnc_call") & (found["basis"] == "law")]
    cited = hits["citation"].astype(str)
    rows = [row for row in rows if cited.str.contains(row.citation, regex=False).any()]
    if not rows:
        return {}
    facts = sorted({fact for row in rows for fact in row.exempt_facts})
    return {"facts": "the findings of " + ", ".join(row.name for row in rows) + " read each "
            "number as a residential line where its leads do not say it is a business one "
            "(leads' line column: business or residential)" + (
                ", and the account as none of " + "; ".join(lists.FACTS[f] for f in facts)
                if facts else "")}


def countries(phones: pd.Series) -> pd.Series:
    """The lists' country (``US``, ``CA``, ``GB``) of each number; None for another."""
    rows, numbers = regions_among(phones, COUNTRIES)
    found = np.full(len(phones), None, object)
    found[rows] = phones.iloc[rows].astype(object).map(numbers).map(COUNTRIES).to_numpy()
    return pd.Series(found, index=phones.index, dtype=object)


def listings(calls: pd.DataFrame, dnc: pd.DataFrame, consents: pd.DataFrame | None,
             as_of: pd.Timestamp | None = None) -> pd.DataFrame:
    """Every listing of a number: ``phone``, ``list``, ``since`` (NaT: unknown), ``source``
    in words and ``reading`` (how the list was told, where the data did not say). A
    ``listed_at`` or a consent's ``revoked_at`` after ``as_of`` is no date a record made
    by then can hold: read as unknown (every call to the number a finding, saying so),
    never as a later listing that lets the calls before it pass (:func:`_dated`)."""
    listed = dnc.loc[dnc["listed"].fillna(False).astype(bool)]
    told = listed["list"].astype(object) if "list" in listed else pd.Series(
        None, index=listed.index, dtype=object)
    since, reading = _dated(listed["listed_at"] if "listed_at" in listed else pd.Series(
        pd.NaT, index=listed.index, dtype=TIME_TYPE), "listed_at", as_of,
        np.where(told.isna(), UNREAD, ""))
    parts = [pd.DataFrame({"phone": listed["phone"].astype(object), "list": told.fillna("national"),
                           "since": since, "source": "the DNC results", "reading": reading})]
    return _with_requests([*parts, *requests(calls, consents, as_of)])


def requests(calls: pd.DataFrame, consents: pd.DataFrame | None,
             as_of: pd.Timestamp | None = None) -> list[pd.DataFrame]:
    """The listings on the account's own list that the account's records make (a part
    each, :func:`listings`' columns): a person's request not to be called again, a call's
    ``do_not_call`` disposition (from the call's end), and a consent revoked (an opt-out,
    from ``revoked_at``, read as :func:`_dated` reads it)."""
    parts = []
    asked = calls.loc[isin(calls["disposition"], ["do_not_call"])]
    if len(asked):
        first = asked["ended_at"].fillna(asked["at"]).groupby(asked["phone"].astype(object)).min()
        parts.append(pd.DataFrame({"phone": first.index, "list": "company", "since": first.array,
                                   "source": "a call's do_not_call disposition",
                                   "reading": ""}))
    if consents is not None:
        revoked = consents[consents["revoked_at"].notna()]
        since, reading = _dated(revoked["revoked_at"], "revoked_at", as_of,
                                np.full(len(revoked), "", object))
        parts.append(pd.DataFrame({"phone": revoked["phone"].astype(object), "list": "company",
                                   "since": since, "source": "a consent revoked (an opt-out)",
                                   "reading": reading}))
    return parts


def _dated(since: pd.Series, column: str, as_of: pd.Timestamp | None,
           reading: np.ndarray) -> tuple[pd.Series, pd.Series]:
    """A listing's ``since`` (its ``column``), NaT where it is after ``as_of`` (no
    record made by then could hold it, as a consent's ``revoked_at`` is read too), and
    its ``reading`` with the words saying so after what it said."""
    said = pd.Series(reading, index=since.index, dtype=object)
    later = np.zeros(0, bool) if as_of is None else (since > as_of).fillna(False).to_numpy(bool)
    if not later.any():
        return since, said
    words = (f"its {column}, " + written(since) + ", is after the audit's as_of ("
             + str(written(pd.Series([as_of]))[0]) + "), when no record could hold it: "
             "read as unknown")
    return since.mask(later), said.where(~later, np.where(reading != "",
                                                          reading + "; " + words, words))


def _with_requests(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The listings of ``parts`` as one frame, times in UTC. A listing of the DNC results
    that says neither its list nor its date stays beside the account's own request for
    the number: it may be that request, or a national listing older than it,
    and read as the request it let the calls between the two pass; undated, every call
    to the number is a finding that says the date is unknown, the stricter reading."""
    whole = pd.concat([p for p in parts if len(p)] or parts[:1], ignore_index=True)
    return whole.assign(since=utc_times(whole["since"], "dnc.since"))


def dnc_call(calls: pd.DataFrame, dnc: pd.DataFrame, consents: pd.DataFrame | None = None,
             reassigned: pd.DataFrame | None = None, as_of: pd.Timestamp | None = None,
             facts: Facts = Facts()) -> pd.DataFrame:
    """Calls to a listed number placed after it was listed and past its list's grace,
    unless a consent record or the ``facts`` exempt them; where the listing date is
    unknown (or after ``as_of``: :func:`listings`), every call to it, saying so. One
    finding per call, naming each list it broke."""
    listing = listings(calls, dnc, consents, as_of)
    rows = np.flatnonzero(isin(calls["phone"], listing["phone"]))
    if not len(rows):  # no call to a listed number: none of the work below
        return _no_call(calls)
    pairs = calls.iloc[rows][["phone", "at"]].assign(
        _row=rows, phone=lambda c: c["phone"].astype(object)).merge(listing, on="phone")
    pairs["country"] = countries(pairs["phone"]).to_numpy()
    pairs["checked"] = _checks_before(pairs, dnc)
    judged = [_judged(pairs, row, consents, reassigned, facts) for row in lists.all()
              if not facts.lifting(row)]
    judged = [hits for hits in (*judged, _unlisted_country(pairs)) if len(hits)]
    if not judged:
        return _no_call(calls)
    return _one_per_call(calls, pd.concat(judged).sort_values(["_row", "since"],
                                                              kind="stable"))


def _no_call(calls: pd.DataFrame) -> pd.DataFrame:
    """The findings of ``dnc_call`` where no call broke a list's rule: none."""
    return findings("dnc_call", calls.iloc[:0], pd.Series(dtype=object),
                    listed_at=pd.Series(dtype=TIME_TYPE))


def _on(pairs: pd.DataFrame, row: lists.DncList) -> np.ndarray:
    """Which pairs' listing is on ``row``'s list: a state's list by the results' word for
    it (``US-IN``) whatever the number's area code; another by the number's country and
    the list's kind."""
    told: np.ndarray = (pairs["list"] == row.results_name).to_numpy(bool)
    if row.state:
        return told
    of_country: np.ndarray = told & (pairs["country"] == row.country).to_numpy(bool)
    return of_country


def _in_force(contracts: pd.DataFrame, row: lists.DncList) -> pd.DataFrame:
    """The contract records (:func:`contract_records`, resolved) as standing while in
    force: until their ``ends_at`` and, where a law of ``row`` counts a contract expired
    since (the CRTC's 18 months), until that long after it; a contract with no end
    stands."""
    periods = [law.contract for law in lists.relationships(row.relationships)
               if law.contract is not None]
    ends = contracts["ends_at"]
    if periods:  # the shortest of the laws' periods decides
        ends = pd.concat([ends + _offset(period) for period in periods], axis=1).min(axis=1)
    return contracts.assign(revoked_at=ends)


def _judged(pairs: pd.DataFrame, row: lists.DncList, consents: pd.DataFrame | None,
            reassigned: pd.DataFrame | None, facts: Facts) -> pd.DataFrame:
    """The pairs of a call and a listing on ``row``'s list that break its rule, with their
    ``evidence``, ``citation`` and ``jurisdiction`` (none of these where no pair is on
    the list: :func:`dnc_call` leaves out the lists that found nothing)."""
    on = pairs[_on(pairs, row)]
    if not len(on):  # most lists have no call to judge: none of the work below
        return on
    at, since, checked = on["at"], on["since"], on["checked"]
    unknown = since.isna()
    after = unknown | (at > since)
    if row.grace_needs_check:  # the safe harbor: a check before the listing, recent enough
        safe = checked.notna() & (checked < since) & (at - checked <= row.grace)
    else:  # the law's own grace, in whole days before the call's day
        safe = at < _grace_end(since, row)
    exempt = exempted(on, consents, reassigned, row)
    if row.residential_only:  # a business line is no residential subscriber's
        exempt |= on["phone"].isin(facts.business).to_numpy(bool)
    if lists.CONTRACT in row.exempt_by and facts.contracts is not None:
        exempt |= standing(on, _in_force(facts.contracts, row), (lists.CONTRACT,))
    hits = _once_each(on, after & ~safe.fillna(False) & ~exempt)
    unsure = _unread(hits, row, consents, facts)
    late = _late(hits, row)
    source = hits["source"] + _runs(hits)
    words = pd.Series(np.where(
        hits["since"].isna(),
        f"the number is on the {row.name} (" + source + "); the date it was listed "
        "is unknown, so this call may have been placed before it, or within its grace",
        f"the number is on the {row.name} (" + source + "), listed on "
        + written(hits["since"]) + _grace_words(hits, row)), index=hits.index, dtype=object)
    words = words + _check_words(hits, row) + np.where(hits["reading"] != "",
                                                       "; " + hits["reading"], "")
    words = words + np.where(unsure, f"; a record stands at the call that the other lists' "
                             f"words name as exempting it, and the {row.name}'s words on its "
                             f"exemptions ({row.unread}) were not read: a risk, not a breach",
                             "")
    if not row.confirmed:
        words = words + f" (a doubtful reading: see the doubts of the lists' row {row.id})"
    return hits.assign(evidence=words, jurisdiction=row.id if row.state else row.country,
                       decided_by="list",
                       citation=np.where(late, f"{row.citation}; {row.late_citation}",
                                         row.citation),
                       basis=np.where(unsure, "risk", "law"), policy=None)


def _unread(hits: pd.DataFrame, row: lists.DncList, consents: pd.DataFrame | None,
            facts: Facts) -> np.ndarray:
    """Which calls of ``hits`` a record would exempt under the other lists' readings (a
    consent record of any kind, its relationship bounded by the country's laws, or a
    contract in force), where the list's words on its exemptions were not reached
    (:attr:`~dialkit._law._dnc_lists.DncList.unread`): each is a risk, not a breach."""
    unsure = np.zeros(len(hits), bool)
    if not row.unread or not len(hits):
        return unsure
    unsure |= standing(hits, consents, lists.KINDS, lists.relationships(row.country))
    if facts.contracts is not None:
        unsure |= standing(hits, _in_force(facts.contracts, row), (lists.CONTRACT,))
    return unsure


_ONE_FACT = ["_row", "list", "source"]
"""What makes a listing of a call one fact: its call, its list and where it was read."""


def _once_each(pairs: pd.DataFrame, broken: pd.Series | np.ndarray) -> pd.DataFrame:
    """The ``pairs`` of a call and a listing where the call ``broken`` the list's rule, each
    call's listings on one list from one source as one, the earliest (the one that
    decides), with ``_rows``: how many rows of the source list it (broken or not). A
    vendor's file of two scrub runs holds a number's listing twice, and the evidence said
    each fact twice. Where no call is in two of ``pairs`` (most lists of most
    DNC results), each pair is a fact of one row and the grouping, the sort and the
    look-up of duplicates are skipped: over the lists judged, 0.02 s of a million calls
    (Run F). The pairs are then in their own order, by call as :func:`dnc_call` makes
    them, which is what the sort gives where each call has one."""
    if pairs["_row"].is_unique:
        return pairs[np.asarray(broken, bool)].assign(_rows=1)
    rows = pairs.groupby(_ONE_FACT, sort=False)["_row"].transform("size")
    hits = pairs.assign(_rows=rows)[np.asarray(broken, bool)]
    ordered = hits.sort_values(["_row", "since"], kind="stable")
    return ordered[~ordered.duplicated(_ONE_FACT).to_numpy(bool)]


def _runs(hits: pd.DataFrame) -> np.ndarray:
    """How many rows gave each listing of :func:`_once_each`, in words where more than one
    did (the scrub runs given, of which the earliest listing is the one judged)."""
    many = hits["_rows"].to_numpy() > 1
    said: np.ndarray = np.where(many, ", " + hits["_rows"].astype(str).to_numpy(object)
                                + " rows (scrub runs): the earliest listing the call breaks "
                                "is judged", "")
    return said


def _grace_words(hits: pd.DataFrame, row: lists.DncList) -> pd.Series:
    """What the list's grace is, in words, after the listing's date: where the law gives
    whole days, when the grace ended (:func:`_grace_end`) and whether the call was before
    it, at it or after it; the calendar days alone read as within the grace where they
    were not (a finding said "30 days before the call; the law's grace is 30 days")."""
    if not row.grace:
        return _days_before(hits) + "; the law gives no time to honour it"
    if row.grace_needs_check:
        return _days_before(hits) + (
            f"; the safe harbor needs a check of the number made before it was listed and "
            f"no more than {row.grace.days} days before the call")
    return (f"; the law's grace of {row.grace.days} days, counted in whole days from the "
            "day of the listing (UTC), ended at " + _ended(_grace_end(hits["since"], row),
                                                          hits["at"]))


def _days_before(hits: pd.DataFrame) -> pd.Series:
    """How many whole days each listing came before its call, in words (a grace of whole
    days says when it ended instead: :func:`_grace_words`)."""
    return ", " + (hits["at"] - hits["since"]).dt.days.astype("Int64").astype(str) + (
        " days before the call")


def _grace_end(since: pd.Series, row: lists.DncList) -> pd.Series:
    """The moment a list's grace of whole days ends: the listing's day (UTC) and the grace
    after it (a call is safe while its day is fewer days from the listing's day than the
    grace). :func:`_judged` judges a call by it and the evidence says it: one moment."""
    return since.dt.normalize() + row.grace


def _ended(end: pd.Series, at: pd.Series) -> pd.Series:
    """A period's ``end`` (UTC) in words, and where the call ``at`` falls against it: at
    the moment it ended, after it (the call's moment given), or before it."""
    call = " (the call: " + pd.Series(written(at), index=at.index) + " UTC)"
    where = np.select([at.to_numpy() == end.to_numpy(), (at > end).to_numpy(bool)],
                      [", the moment of the call", ", before the call" + call],
                      ", after the call" + call)
    return pd.Series(written(end), index=end.index) + " UTC" + where


def _check_words(hits: pd.DataFrame, row: lists.DncList) -> pd.Series:
    """For a list whose grace needs a check: the number's last check before the call, and
    where it was made before the listing, when the harbor from it ended (said of those
    calls alone: most checks come after the listing, and the words of every call's
    harbor, thrown away, cost 0.03 s of a million calls: Run F)."""
    if not row.grace_needs_check:
        return pd.Series("", index=hits.index)
    checked = hits["checked"]
    age = (hits["at"] - checked).dt.days
    said = (": its last check before the call was on " + written(checked, "D") + ", "
            + age.astype("Int64").astype(str) + " days before")
    before = (checked < hits["since"]).fillna(False).to_numpy(bool)
    harbor = np.full(len(hits), "", object)
    if before.any():
        harbor[before] = (f"; the {row.grace.days} days from it ended at " + _ended(
            checked[before] + row.grace, hits["at"][before])).to_numpy(object)
    return pd.Series(np.where(
        checked.isna(), ": the DNC results hold no check of it before the call",
        said + harbor), index=hits.index)


def _late(hits: pd.DataFrame, row: lists.DncList) -> np.ndarray:
    """Whether each call came after the second rule's longer period too (the FCC's ten
    business days from 11 April 2025, thirty days before): False where there is none."""
    if not row.late_citation or not len(hits):
        return np.zeros(len(hits), bool)
    day = hits["since"].dt.tz_convert("UTC").dt.tz_localize(None).to_numpy().astype("M8[D]")
    known = ~np.isnat(day)
    end = day.copy()
    business = np.busday_offset(day[known], row.late_business_days, roll="forward")
    end[known] = np.where(day[known] >= np.datetime64(row.late_since),
                          business, day[known] + np.timedelta64(row.late_days_before, "D"))
    called = hits["at"].dt.tz_convert("UTC").dt.tz_localize(None).to_numpy().astype("M8[D]")
    late: np.ndarray = known & (called > end)
    return late


def _unlisted_country(pairs: pd.DataFrame) -> pd.DataFrame:
    """Calls after the listing to a number of a country the table has no list for: the
    account's own DNC results forbid them, so they are policy's findings. Those pairs are
    taken first, and :func:`_once_each` counts and merges among them alone: the rows of one
    fact share its call's number, so its country, and its list."""
    state = pairs["list"].isin([row.results_name for row in lists.all() if row.state])
    unlisted = pairs[(pairs["country"].isna() & ~state).to_numpy(bool)]
    hits = _once_each(unlisted, unlisted["since"].isna() | (unlisted["at"] > unlisted["since"]))
    return hits.assign(evidence="the number is on the account's DNC results since "
                       + written(hits["since"]) + _runs(hits) + "; no law of its country is "
                       "in dialkit's table", jurisdiction=None, decided_by=None, citation=None,
                       basis="policy", policy=NO_ROW)


def _one_per_call(calls: pd.DataFrame, hits: pd.DataFrame) -> pd.DataFrame:
    """One finding per call of the ``hits`` (sorted by call, then listing; a call may break
    several lists' rules): the first listing's columns, and each further one's evidence
    and citation added. A group-by joining texts asked Python of every call (8.6 s of
    11,000 findings); here only a call's second or third listing is. The evidence is held
    as Python text while the further listings' are added: setting a few rows of Arrow text
    rewrites the whole column (0.006 s of a million calls' evidence, Run F)."""
    nth = hits.groupby("_row", sort=False).cumcount().to_numpy()
    first = hits[nth == 0].set_index("_row")
    evidence, citation = first["evidence"].astype(object), first["citation"].astype(object)
    for n in range(1, int(nth.max(initial=0)) + 1):
        more = hits[nth == n].set_index("_row")
        evidence[more.index] = evidence[more.index] + "; and " + more["evidence"]
        citation[more.index] = [_cited(had, new) for had, new in
                                zip(citation[more.index], more["citation"], strict=True)]
    found = calls.iloc[first.index.to_numpy()].assign(
        **{c: first[c].to_numpy() for c in ("jurisdiction", "decided_by", "basis", "policy")},
        citation=citation.to_numpy())
    return findings("dnc_call", found,
                    pd.Series(evidence.to_numpy(), index=found.index, dtype=object),
                    listed_at=pd.Series(first["since"].array, index=found.index))


def _cited(had: str | None, new: str | None) -> str | None:
    """Two citations as one, each section once."""
    parts = [p for text in (had, new) if isinstance(text, str) for p in text.split("; ")]
    return "; ".join(dict.fromkeys(parts)) or None


def _checks_before(pairs: pd.DataFrame, dnc: pd.DataFrame) -> pd.Series:
    """Each pair's number's latest DNC check at or before the call (NaT: none), for the
    pairs on a list whose grace needs one (the US registry's): by integer codes of the
    numbers, where ``merge_asof`` by their text spent 0.3 s factorising them."""
    found = pd.Series(pd.NaT, index=pairs.index, dtype=TIME_TYPE)
    needs = np.zeros(len(pairs), bool)
    for row in (r for r in lists.all() if r.grace_needs_check):
        needs |= ((pairs["country"] == row.country) & (pairs["list"] == row.list)).to_numpy()
    asked = pairs[needs]
    checks = dnc.loc[dnc["checked_at"].notna() & dnc["phone"].notna(), ["phone", "checked_at"]]
    if not len(asked) or not len(checks):
        return found
    codes = codes_in(asked["phone"], checks["phone"])
    left = pd.DataFrame({"key": codes[:len(asked)], "_pair": np.arange(len(asked)),
                         "at": _naive(asked["at"])})
    right = pd.DataFrame({"key": codes[len(asked):], "checked_at": _naive(checks["checked_at"])})
    near = pd.merge_asof(left.sort_values("at"), right.sort_values("checked_at"),
                         left_on="at", right_on="checked_at", by="key", direction="backward")
    found[asked.index] = pd.DatetimeIndex(
        near.sort_values("_pair")["checked_at"]).tz_localize("UTC")
    return found


def _naive(times: pd.Series) -> np.ndarray:
    """UTC times without their zone, as numpy's (a zoned column's ``to_numpy`` is Python
    objects: 1.2 s of 30,000 pairs' times)."""
    naive: np.ndarray = pd.DatetimeIndex(times).tz_convert("UTC").tz_localize(None).to_numpy()
    return naive


def dnc_lead(leads: pd.DataFrame, dnc: pd.DataFrame,
             asked: Sequence[pd.DataFrame] = ()) -> pd.DataFrame:
    """Leads whose number is listed while their status still lets them be dialled, each
    naming the list's law (its country's row of the lists' table): listed in the DNC
    results, or on the account's own list by a request its records hold (``asked``:
    :func:`requests`, a ``do_not_call`` disposition or a consent revoked; read
    otherwise, such a lead was no finding, and the dialer would call the person again)."""
    listed = dnc.loc[dnc["listed"].fillna(False).astype(bool)]
    kind = (listed["list"].astype(object).fillna("national") if "list" in listed
            else pd.Series("national", index=listed.index))
    told = pd.DataFrame({"phone": listed["phone"].astype(object), "list": kind,
                         "source": None})
    requested = [part[["phone", "list", "source"]] for part in asked if len(part)]
    on_list = pd.concat([told, *requested], ignore_index=True) if requested else told
    dialable = ~leads["status"].isin(["dnc", "completed"]).to_numpy(dtype=bool)
    hits = _read(leads).iloc[np.flatnonzero(isin(leads["phone"], on_list["phone"])
                                            & dialable)]
    first = on_list.groupby("phone", sort=False).first()  # the first row's list
    on = hits["phone"].astype(object).map(first["list"]).fillna("national")
    source = hits["phone"].astype(object).map(first["source"])
    country = countries(hits["phone"])
    row = [lists.state_list(k) or (lists.get(c, k) if c else None)
           for c, k in zip(country, on, strict=True)]
    name = pd.Series([r.name if r else "the DNC list" for r in row], index=hits.index)
    evidence = ("the number is on " + name + source.map(
        lambda said: "" if pd.isna(said) else f" ({said})") + " but the lead is "
        + hits["status"].astype(str))
    return findings("dnc_lead", hits.assign(
        jurisdiction=[(r.id if r.state else r.country) if r else None for r in row],
        decided_by=["list" if r else None for r in row],
        citation=[r.citation if r else None for r in row]), evidence)


def unscreened_lead(leads: pd.DataFrame, dnc: pd.DataFrame, rules: Rules,
                    as_of: pd.Timestamp) -> pd.DataFrame:
    """Leads with no DNC check of their number, or one older than the scrub age of the
    number's country (its jurisdiction row's ``dnc_scrub_days``: the UK's 28, PECR reg.
    21(3)'s; 31 elsewhere), or the rules' own, where stricter. A check dated after
    ``as_of`` is none the audit's moment had: it does not screen the lead."""
    last = _last_checks(leads["phone"], dnc[~(dnc["checked_at"] > as_of).to_numpy(bool)])
    age = scrub_ages(leads["phone"], rules)
    stale = last.isna() | (last < as_of - age)
    hits = _read(leads)[stale & ~leads["status"].isin(["dnc", "completed"])]
    when, days = last[hits.index], age[hits.index].dt.days.astype(str)
    evidence = pd.Series(np.where(
        when.isna(), "no DNC check of the number",
        "last DNC check " + written(when, "D") + ", more than " + days
        + " days before the audit"), index=hits.index)
    return findings("unscreened_lead", hits, evidence, checked_at=when)


def unanswered_note(count: int) -> dict[str, str]:
    """The report's note on ``count`` DNC results that do not say whether their number is
    listed (none: no note): what the audit made of them, so that no reader takes a call
    to such a number, found by no list, for a call to a number not listed."""
    if not count:
        return {}
    return {UNANSWERED: (
        f"listed is empty (not known) in {counted(count, 'DNC result')}: each is read as no "
        "check of its number, so a call to it is judged by no Do-Not-Call list and a lead "
        "of it is unscreened, unless another result of the number answers; check those "
        "numbers again")}


def _read(leads: pd.DataFrame) -> pd.DataFrame:
    """The leads' columns a finding of a lead reads (:func:`findings`; ``status`` for the
    evidence): of 200,000 leads, taking a few rows of all their columns (names, emails,
    custom fields) took 15 ms of joining each text column's chunks."""
    return leads[[c for c in leads.columns if c in (*FINDING_COLUMNS, "status")]]


def _last_checks(phones: pd.Series, dnc: pd.DataFrame) -> pd.Series:
    """The latest ``checked_at`` of each of ``phones`` in ``dnc`` (``NaT``: never checked),
    grouped by integer codes of the numbers: a group-by on their text and a ``map`` took
    0.1 s for 200,000 leads. A null number has no check."""
    codes = codes_in(phones, dnc["phone"])
    lead_codes, dnc_codes = codes[:len(phones)], codes[len(phones):]
    checked = dnc["checked_at"].reset_index(drop=True)
    known = dnc["phone"].notna().to_numpy()
    latest = checked[known].groupby(dnc_codes[known]).max()
    found = latest.reindex(np.where(phones.notna().to_numpy(), lead_codes, -1))
    return pd.Series(found.array, index=phones.index, name=phones.name)
