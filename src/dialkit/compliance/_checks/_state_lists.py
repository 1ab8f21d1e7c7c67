"""The states' own Do-Not-Call lists the DNC results hold no scrub of (issue 73).

A scrub of a state's list is a row of the DNC results whose ``list`` is the state's id
(``US-IN``). Where the results hold none of a state's list, calls to that state's numbers
(by area code) were judged against it by nothing: :func:`unscrubbed_states` names those
states for the report's note (:func:`unscrubbed_note`), and where the state's law obliges
a caller to obtain its list (``dnc_lists.toml``'s ``required``), makes each number called
one ``dnc_call`` risk (whether or not other states' lists were given), on its first call
in the period audited that the list's law would not exempt were the number on it: a
consent record its law names, a business line for a list of residential subscribers, a
fact of the account (``nonprofit=``, ``newspaper=``) that lifts the list from every call.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._law import _dnc_lists as lists
from ..._places._states import places
from ..._places._subdivisions import subdivision_name
from ..._shown._words import counted
from .._inputs._columns import reduced
from ._consent import exempted
from ._dnc import Facts, list_named
from ._findings import findings, written

NO_FACTS = Facts()
"""No fact told: no business line, no fact of the account lifting a list."""


def lists_given(dnc: object) -> frozenset[str]:
    """The state lists (``US-IN``, ...) the DNC results hold a row of, listed or not: a
    scrub against them was given. Of a pandas or Dask frame (its ``list`` column's few
    values computed), or a Parquet dataset's path (that column alone read); none where
    the results have no ``list`` column."""
    told = None if dnc is None else reduced(
        dnc, "list", lambda column: column.dropna().astype(str).unique())
    if told is None:
        return frozenset()
    return frozenset(str(list_named(value)) for value in told) & {
        row.told_as for row in lists.all() if row.state}


def unscrubbed_states(calls: pd.DataFrame, given: frozenset[str] | None,
                      facts: Facts = NO_FACTS,
                      consents: pd.DataFrame | None = None,
                      reassigned: pd.DataFrame | None = None
                      ) -> tuple[pd.DataFrame, frozenset[str]]:
    """Of ``calls`` (``phone``, ``at``) to numbers of a state whose own list the DNC
    results hold no row of (``given``: those they hold; None: not known, as
    :func:`~.._audit.history_findings` asks, nothing judged): the ``risk`` findings of
    ``dnc_call`` where the state's law obliges a caller to obtain its list, whether or not
    the results hold other states' lists (:func:`_unscrubbed`: one a number); and the
    states reached (their lists' ids), for the report's note. A list whose law a fact of
    the account lifts from every call (``facts``: ``nonprofit=True`` and Pennsylvania's)
    is neither: no scrub of it was owed."""
    none = findings("dnc_call", calls.iloc[:0], pd.Series(dtype=object))
    if given is None or not len(calls):
        return none, frozenset()
    where = places(calls["phone"])
    missing = {row.state: row for row in lists.all()
               if row.state and row.id not in given and not facts.lifting(row)}
    reached = frozenset(missing[code].id for code in set(where.state) if code in missing)
    risky = [missing[code] for code in sorted(missing)
             if missing[code].required and missing[code].id in reached]
    if not risky:
        return none, reached
    states = pd.Series(where.state, dtype=object).map(
        {row.state: n for n, row in enumerate(risky)}).fillna(-1).to_numpy(np.int64)
    on = np.append(states, -1)[where.number]  # each call's risky list (-1: none, no number)
    for n, row in enumerate(risky if consents is not None or facts.business else ()):
        rows = np.flatnonzero(on == n)  # a consent its law names, a business line
        on[rows[_exempt(calls.iloc[rows], row, facts, consents, reassigned)]] = -1
    hits = _unscrubbed(calls, where.number, on, risky)
    return (hits if len(hits) else none), reached


def _exempt(calls: pd.DataFrame, row: lists.DncList, facts: Facts,
            consents: pd.DataFrame | None, reassigned: pd.DataFrame | None) -> np.ndarray:
    """Which ``calls`` ``row``'s list could not forbid were the number on it: a consent
    record its law names standing at the call, or a business line where it holds
    residential subscribers only (as :func:`._dnc._judged` exempts a listed number's call)."""
    exempt = exempted(calls, consents, reassigned, row)
    if row.residential_only and facts.business:
        exempt |= calls["phone"].isin(facts.business).to_numpy(bool)
    return exempt


def _unscrubbed(calls: pd.DataFrame, number: np.ndarray, on: np.ndarray,
                risky: list[lists.DncList]) -> pd.DataFrame:
    """The risks of the calls to numbers of a state whose list the results lack (``on``:
    each call's row of ``risky``, -1 for none or a call its law exempts; ``number``: each
    call's code of its number): one a number, on its first call, its evidence counting
    the number's calls. What is unknown is the number's (is it on the list, and since
    when?), and one scrub of it answers for all its calls: a risk a call would grow with
    how often a number was redialled, not with how many went unscrubbed, and a month's
    redials would bury the findings of law. So a number is one risk, as
    :func:`._dnc.unscreened_lead` makes a lead one; once its scrub is given, each call after
    its listing is a finding of law. By the numbers' integer codes, all states at once,
    without a sort: a sort and a group-by of their text, state by state, took 1.2 s of the
    550,000 calls of a million to such states' numbers; a ``lexsort`` of the codes, 0.3 s."""
    kept = np.flatnonzero(on >= 0)
    if not len(kept):
        return calls.iloc[:0]
    num, at = number[kept], pd.DatetimeIndex(calls["at"]).asi8[kept]
    never, size = np.iinfo(np.int64).min, int(num.max()) + 1
    at = np.where(at == never, np.iinfo(np.int64).max, at)  # NaT: after every call
    count = np.bincount(num, minlength=size)
    earliest, latest = np.full(size, np.iinfo(np.int64).max), np.full(size, never)
    np.minimum.at(earliest, num, at)
    np.maximum.at(latest, num, at)
    first = np.sort(_one_each(kept, num, at == earliest[num]))  # the earliest, then in order
    last = np.zeros(len(count), np.intp)
    ends = _one_each(kept, num, at == latest[num])
    last[number[ends]] = ends
    code = number[first]
    row, count = on[first], count[code]
    called = np.where(count == 1, "once", count.astype(str).astype(object) + " times")
    more = np.where(count == 1, "", ", this the first, the last on "
                    + written(calls["at"].iloc[last[code]]) + " UTC")
    hits = calls.iloc[first]
    said = np.array([_unscrubbed_words(r) for r in risky], object)
    of = np.array([f"a number of {subdivision_name(r.id)} (its area code), called "
                   for r in risky], object)
    evidence = pd.Series(of[row] + called + " in the calls audited with no exemption from "
                         "its list" + more + said[row], index=hits.index, dtype=object)
    pick = np.array([(r.id, r.citation) for r in risky], object)[row]
    return findings("dnc_call", hits.assign(basis="risk", policy=None, decided_by="number",
                                            jurisdiction=pick[:, 0], citation=pick[:, 1]),
                    evidence)


def _one_each(rows: np.ndarray, number: np.ndarray, among: np.ndarray) -> np.ndarray:
    """Of the ``rows`` (ascending) where ``among`` holds, the first of each ``number``."""
    held = np.flatnonzero(among)
    return rows[held[np.unique(number[held], return_index=True)[1]]]


def _unscrubbed_words(row: lists.DncList) -> str:
    """What a risk of ``row``'s list not given says after the number's calls."""
    words = (f"; the DNC results hold no scrub of the {row.name} (list {row.id}), which its "
             f"law obliges a caller to obtain ({row.scrub}): the number may be on it, and "
             f"each call after its listing{' and grace' if row.grace else ''} a breach of "
             f"{row.citation} (one risk a number: its scrub judges every call)")
    if not row.confirmed:
        words += f" (a doubtful reading: see the doubts of the lists' row {row.id})"
    return words


def unscrubbed_note(reached: frozenset[str], found: pd.DataFrame) -> dict[str, str]:
    """The report's note on the states whose numbers were called and whose own list the
    DNC results hold no row of (none: no note): how to bring its scrub, and how many
    numbers of the states whose list is required are risks (``found``, the report's
    findings: one a number, :func:`_unscrubbed`)."""
    if not reached:
        return {}
    rows = [row for row in lists.all() if row.id in reached]
    named = ", ".join(f"{row.name} ({row.id}{', required' if row.required else ''})"
                      for row in rows)
    risks = found[(found["rule"] == "dnc_call").to_numpy(bool)
                  & (found["basis"] == "risk").to_numpy(bool)
                  & found["jurisdiction"].isin(reached).to_numpy(bool)]
    risk = (f"each number called of a state whose list is required is one dnc_call risk, "
            f"on its first call the law's exemptions leave ({counted(len(risks), 'number')})"
            if any(row.required for row in rows) else
            "none of these states' laws obliges a caller to obtain its list: no risk")
    return {"state_lists": (
        f"calls reached numbers of states that keep a Do-Not-Call list of their own, which "
        f"the DNC results hold no scrub of: {named}; those calls were judged by the "
        "national registry and the account's own list only. Give each state's scrub (its "
        "own download or a vendor's file) as rows of dnc= whose list is the state's id "
        f"(US-TX); {risk}")}
