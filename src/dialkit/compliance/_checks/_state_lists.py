"""The states' own Do-Not-Call lists the DNC results hold no scrub of a number called
against.

A scrub of a state's list is a row of the DNC results whose ``list`` is the state's id
(``US-IN``). The scrub that answers for a number is that number's own row of the list,
whose ``listed`` answers (true or false): another number's row of the same list says
nothing of it, and a row whose ``listed`` is empty (a check that did not answer) is no
scrub, as :func:`~.._inputs._prepared.prepared_dnc` leaves it out. A call to a number (of a
state, by its area code) that no such row answers for was judged against the state's list by
nothing: :func:`unscrubbed_states` names those states for the report's note
(:func:`unscrubbed_note`), and where the state's law obliges a caller to obtain its list
(``dnc_lists.toml``'s ``required``), makes each such number called one ``dnc_call`` risk
(whether or not other numbers or other states' lists were scrubbed), on its first call in
the period audited that the list's law would not exempt were the number on it: a consent
record its law names, a business line for a list of residential subscribers, a fact of
the account (``nonprofit=``, ``newspaper=``) that lifts the list from every call.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._arrays._kept import hashed
from ..._law import _dnc_lists as lists
from ..._places._states import places
from ..._places._subdivisions import subdivision_name
from ..._shown._words import counted
from ._consent import exempted
from ._dnc import Facts
from ._findings import findings, written

NO_FACTS = Facts()
"""No fact told: no business line, no fact of the account lifting a list."""


def unscrubbed_states(calls: pd.DataFrame, scrubs: pd.DataFrame | None,
                      facts: Facts = NO_FACTS,
                      consents: pd.DataFrame | None = None,
                      reassigned: pd.DataFrame | None = None
                      ) -> tuple[pd.DataFrame, frozenset[str]]:
    """Of ``calls`` (``phone``, ``at``) to numbers of a state that keeps a list, those to
    a number no answered row of ``scrubs`` (the DNC results as
    :func:`~.._inputs._prepared.prepared_dnc` gives them, of these numbers at least; None:
    not judged, as :func:`~.._part.history_findings` asks by default) scrubs against its
    state's list (:func:`_unscrubbed`): the ``risk`` findings of ``dnc_call`` where the state's law
    obliges a caller to obtain its list, whether or not the results hold other numbers'
    scrubs of it or other states' lists (:func:`_risks`: one a number); and the states
    reached (their lists' ids), for the report's note. A list whose law a fact of the
    account lifts from every call (``facts``: ``nonprofit=True`` and Pennsylvania's) is
    neither: no scrub of it was owed."""
    none = findings("dnc_call", calls.iloc[:0], pd.Series(dtype=object))
    if scrubs is None or not len(calls):
        return none, frozenset()
    where = places(calls["phone"])
    owed = {row.state: row for row in lists.all() if row.state and not facts.lifting(row)}
    left = _unscrubbed(calls["phone"], where.state, owed, scrubs)
    reached = frozenset(owed[code].id for code in set(left[_called(where.number)])
                        if code in owed)
    risky = [owed[code] for code in sorted(owed)
             if owed[code].required and owed[code].id in reached]
    if not risky:
        return none, reached
    states = pd.Series(left, dtype=object).map(
        {row.state: n for n, row in enumerate(risky)}).fillna(-1).to_numpy(np.int64)
    on = np.append(states, -1)[where.number]  # each call's risky list (-1: none, no number)
    for n, row in enumerate(risky if consents is not None or facts.business else ()):
        rows = np.flatnonzero(on == n)  # a consent its law names, a business line
        on[rows[_exempt(calls.iloc[rows], row, facts, consents, reassigned)]] = -1
    hits = _risks(calls, where.number, on, risky)
    return (hits if len(hits) else none), reached


def _called(number: np.ndarray) -> np.ndarray:
    """The distinct numbers ``calls`` reached (each call's code, :func:`places`' ``number``;
    -1 for none). A column's codes may name numbers none of these calls reached: a
    campaign's calls, or a window's, keep the dictionary of every call, and the note named
    the states of those numbers too (a Wyoming number of another campaign)."""
    called = np.unique(number)
    return called[called >= 0]


def _unscrubbed(phones: pd.Series, state: np.ndarray, owed: dict[str, lists.DncList],
                scrubs: pd.DataFrame) -> np.ndarray:
    """Each distinct number of ``phones``' state (``state``, as :func:`places` gives it)
    where its list is ``owed`` and no row of ``scrubs`` of that number is of that list,
    else None. By the number's own row alone: counting a state's scrub of other
    numbers made every number of the state pass, unscrubbed ones too. A loop over the few states
    whose list has rows (:func:`_scrubbed_numbers`), each a look-up of its numbers among
    them."""
    left: np.ndarray = np.array(state, dtype=object)
    left[~pd.Series(state, dtype=object).isin(list(owed)).to_numpy(bool)] = None
    scrubbed = _scrubbed_numbers(scrubs, owed)
    if scrubbed:
        numbers = hashed(phones)[1].to_numpy(zero_copy_only=False)
        for code, done in scrubbed.items():
            of_state = np.flatnonzero(left == code)
            left[of_state[pd.Index(numbers[of_state]).isin(done)]] = None
    return left


def _scrubbed_numbers(scrubs: pd.DataFrame, owed: dict[str, lists.DncList]
                      ) -> dict[str, np.ndarray]:
    """The numbers of the rows of ``scrubs`` of each ``owed`` state's list, by state; a
    state whose list has no row is left out. The ``list`` column is read once and only
    those rows' numbers taken as text: most DNC results hold no state's list, and taking
    every number for each state's list cost 0.08 s of the 200,000 results of a million
    calls (Run F)."""
    if "list" not in scrubs:
        return {}
    state_of = {row.results_name: code for code, row in owed.items()}
    told = scrubs["list"].astype(object)
    of_a_state = told.isin(list(state_of)).to_numpy(bool)
    if not of_a_state.any():
        return {}
    rows = pd.DataFrame({"list": told[of_a_state].to_numpy(),
                         "phone": scrubs["phone"][of_a_state].to_numpy(object)})
    return {state_of[list_]: numbers.to_numpy()
            for list_, numbers in rows.groupby("list", sort=False)["phone"]}


def _exempt(calls: pd.DataFrame, row: lists.DncList, facts: Facts,
            consents: pd.DataFrame | None, reassigned: pd.DataFrame | None) -> np.ndarray:
    """Which ``calls`` ``row``'s list could not forbid were the number on it: a consent
    record its law names standing at the call, or a business line where it holds
    residential subscribers only (as :func:`._dnc._judged` exempts a listed number's call)."""
    exempt = exempted(calls, consents, reassigned, row)
    if row.residential_only and facts.business:
        exempt |= calls["phone"].isin(facts.business).to_numpy(bool)
    return exempt


def _risks(calls: pd.DataFrame, number: np.ndarray, on: np.ndarray,
           risky: list[lists.DncList]) -> pd.DataFrame:
    """The risks of the calls to numbers no scrub of their state's list answers for (``on``:
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
    words = (f"; the DNC results hold no scrub of the {row.name} (list {row.id}) that answers "
             "for the number (a row of it whose listed is true or false), which its "
             f"law obliges a caller to obtain ({row.scrub}): the number may be on it, and "
             f"each call after its listing{' and grace' if row.grace else ''} a breach of "
             f"{row.citation} (one risk a number: its scrub judges every call)")
    if not row.confirmed:
        words += f" (a doubtful reading: see the doubts of the lists' row {row.id})"
    return words


def unscrubbed_note(reached: frozenset[str], found: pd.DataFrame) -> dict[str, str]:
    """The report's note on the states whose numbers were called with no scrub of their
    own list answering for them (none: no note): how to bring each number's scrub, and how
    many numbers of the states whose list is required are risks (``found``, the report's
    findings: one a number, :func:`_risks`)."""
    if not reached:
        return {}
    rows = [row for row in lists.all() if row.id in reached]
    named = ", ".join(f"{row.name} ({row.id}{', required' if row.required else ''})"
                      for row in rows)
    risks = found[(found["rule"] == "dnc_call").to_numpy(bool)
                  & (found["basis"] == "risk").to_numpy(bool)
                  & found["jurisdiction"].isin(reached).to_numpy(bool)]
    risk = ("each such number of a state whose list is required is one dnc_call risk, "
            f"on its first call the law's exemptions leave ({counted(len(risks), 'number')})"
            if any(row.required for row in rows) else
            "none of these states' laws obliges a caller to obtain its list: no risk")
    return {"state_lists": (
        "calls reached numbers of states that keep a Do-Not-Call list of their own, "
        f"numbers the DNC results hold no scrub of against that list: {named}; those "
        "calls were judged by the national registry and the account's own list only. Give "
        "each number's scrub of its state's list (the state's own download or a vendor's "
        "file) as a row of dnc= whose list is the state's id (US-TX) and whose listed is "
        "true or false (a row of another number, or one whose listed is empty, is no scrub "
        f"of it); {risk}")}
