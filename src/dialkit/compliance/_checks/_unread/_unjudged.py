"""What the audit could not judge: the calls a rule applies to that were not read, so
that the rule is neither broken nor passed for them but *not judged* (issue 98).

Before, three kinds of "not read" became "passed": a call to a country whose law dialkit
holds no row of (France, Australia: every rule passed it), a value of a column a rule
reads that was not understood (a dialer's ``Abandoned`` held 3 of 20 live answers out of
abandonment, which passed at 0.0 over 17), and a fact a rule needs that the data lack
(an unanswered call of no end time rang however long). Each is counted here, per rule,
with why and what to give, so that a rule's verdict is *broken* (a finding), *passed*
(every call it applies to was read and none breaks it) or *not judged*, wherever a
verdict shows.

A row of :func:`unjudged_frame` says of one rule: how many ``calls`` it could not judge,
``why`` in words, what to ``give`` so it can, and the ``country`` whose law is not held
(None for a value or a fact). ``accept_unjudged`` (a country's code, or a rule's id)
accepts rows, so that ``fail_on`` passes them; accepted rows are still shown.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import numpy as np
import pandas as pd

from ...._arrays._groups import Bools
from ...._phones._zones import Rows, regions_among
from ...._places._blocked import blocked_regions
from ...._shown._words import counted
from ...._utils._base_error import AuditInputError, InputError
from ..._inputs._vocabulary import mapping_hint, unread
from ..._rules._held import held_said, unheld
from ..._rules._rules import RULE_IDS, Rules
from .._abandonment import TOLD_BY, places
from .._ring import RING_COLUMNS
from .._texts import CHANNEL
from ._no_law import RULE as NO_LAW

COLUMNS = ("rule", "calls", "why", "give", "country")
"""The columns of :func:`unjudged_frame`."""
BY_PLACE = {"calling_hours": "contacts", "call_frequency": "contacts", "dnc_call": "contacts",
            "caller_id": "voice", "short_ring": "unanswered", "abandonment": "live"}
"""The rules of law that judge a call by the law of the place called, and which of a
country's calls each applies to (every contact, the voice calls, the unanswered ones,
those a live person answered): each is not judged for the calls to a country whose law
is not held."""
ACCEPT = "accept_unjudged"
"""The argument every judge accepts what was not judged by (``--accept-unjudged`` on the
command line): countries, and for the audit and the monitor rules too."""


def unjudged_frame(rows: Iterable[tuple[str, int, str, str, str | None]] = ()) -> pd.DataFrame:
    """Rows of what a rule could not judge (:data:`COLUMNS`), typed alike however many."""
    frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
    return frame.astype({"rule": object, "calls": np.int64, "why": object, "give": object,
                         "country": object})


def of_part(outbound: pd.DataFrame, prepared: pd.DataFrame, rows: Rows, rules: Rules,
            inside: Bools | None, spoken: Rows) -> pd.DataFrame:
    """What the rules could not judge of a part's ``outbound`` calls (the prepared calls at
    ``rows``) placed in the window (``inside``; None: all): their country's law not held,
    a value of a column a rule reads not understood, a fact a rule needs missing.
    ``spoken``: the positions of the calls a live person answered."""
    window = np.ones(len(outbound), bool) if inside is None else inside
    voice = window.copy()
    if CHANNEL in outbound:
        voice &= outbound[CHANNEL].to_numpy(object) != "text"
    unanswered = voice & outbound["answered_at"].isna().to_numpy(bool)
    live = np.zeros(len(outbound), bool)
    live[spoken] = True
    applies = {"contacts": window, "voice": voice, "unanswered": unanswered,
               "live": live & voice}
    found = _unheld_rows(outbound, rules, applies)
    answered = voice & ~unanswered
    found += _unread_rows("abandonment", TOLD_BY, answered, prepared, rows)
    ringing = unanswered & _ring_place(outbound, rules)
    rang = (outbound["ended_at"] - outbound["at"]).dt.total_seconds().to_numpy(
        float, na_value=np.nan)
    soon = ringing & (rang < _longest_ring(rules))
    found += _unread_rows("short_ring", RING_COLUMNS, soon, prepared, rows)
    endless = ringing & np.isnan(rang)
    endless[endless] = ~_still_dialing(prepared, rows[endless])
    if endless.any():
        found.append(("short_ring", int(endless.sum()),
                      "no end time (ended_at): how long the call rang is not known",
                      "the calls' ended_at", None))
    return unjudged_frame(found)


def _unheld_rows(outbound: pd.DataFrame, rules: Rules,
                 applies: dict[str, Bools]) -> list[tuple[str, int, str, str, str | None]]:
    """A row per rule of :data:`BY_PLACE` and country whose law is not held, counting the
    calls to it the rule applies to."""
    at, regions = unheld(outbound["phone"], rules)
    found: list[tuple[str, int, str, str, str | None]] = []
    for region in sorted(set(regions)):
        mine = np.zeros(len(outbound), bool)
        mine[at[regions == region]] = True
        for rule, which in BY_PLACE.items():
            calls = int((mine & applies[which]).sum())
            if calls:
                found.append((rule, calls, f"no law held for {region}: {held_said(rules)}",
                              f"accept it with {ACCEPT}=['{region}']", region))
    return found


def _unread_rows(rule: str, columns: tuple[str, ...], applies: Bools, prepared: pd.DataFrame,
                 rows: Rows) -> list[tuple[str, int, str, str, str | None]]:
    """A row per value not understood of ``columns`` among the calls ``rule`` applies to
    (``applies``, of the outbound calls at ``rows``), each call counted once, by the first
    of its columns not understood."""
    found: list[tuple[str, int, str, str, str | None]] = []
    left = applies.copy()
    for column in (c for c in columns if c in prepared):
        held = left & unread(prepared[column], "calls", column)[rows]
        if not held.any():
            continue
        left &= ~held
        values = pd.Series(prepared[column].array.take(rows[held])).astype(str).value_counts()
        for value, calls in values.items():
            found.append((rule, int(calls), f"{column} {value!r} not understood",
                          "map it: " + mapping_hint(f"calls.{column}", str(value)), None))
    return found


def _ring_place(outbound: pd.DataFrame, rules: Rules) -> Bools:
    """Which calls are to a place whose row sets a ring time."""
    ringing = np.zeros(len(outbound), bool)
    for row in (row for row in places(rules) if row.ring_seconds is not None):
        ringing[regions_among(outbound["phone"], row.regions)[0]] = True
    return ringing


def _longest_ring(rules: Rules) -> float:
    """The longest ring time the rules' rows set: a call that rang at least so long is no
    finding whatever its words, so a word not understood leaves nothing unjudged."""
    return max((row.ring_seconds for row in places(rules) if row.ring_seconds is not None),
               default=0.0)


def _still_dialing(prepared: pd.DataFrame, rows: Rows) -> Bools:
    """Which of the prepared calls at ``rows`` (the few of no end time) the service says
    are still being dialled (status ``dialing``): no end time yet is no missing fact."""
    if "status" not in prepared:
        return np.zeros(len(rows), bool)
    status = pd.Series(prepared["status"].array.take(rows)).astype("string")
    dialing: Bools = (status == "dialing").fillna(False).to_numpy(bool)
    return dialing


def summed(parts: Iterable[pd.DataFrame], ran: Collection[str]) -> pd.DataFrame:
    """The rows of several parts as one, each rule's and reason's calls summed, of the
    rules that ran only, in the rules' order."""
    every = [part for part in parts if len(part)]
    if not every:
        return unjudged_frame()
    whole = pd.concat(every).groupby(["rule", "why", "give"], sort=False, dropna=False).agg(
        calls=("calls", "sum"), country=("country", "first")).reset_index()
    whole = whole[whole["rule"].isin(list(ran))]
    order = np.lexsort((whole["why"].to_numpy(str),
                        pd.Categorical(whole["rule"], categories=RULE_IDS).codes))
    return unjudged_frame(whole.iloc[order][list(COLUMNS)].itertuples(index=False, name=None))


def of_every_rule(unread: pd.DataFrame, ran: Collection[str], units: dict[str, str],
                  timezones: int) -> pd.DataFrame:
    """The rows the whole run adds: every rule of calls not judged for the calls whose
    ``direction`` was not understood (``unread``: :func:`._vocabulary.unread_counts`; none
    was audited), and ``calling_hours`` for the ``timezones`` calls of no known time zone
    (``unknown_timezone``'s findings)."""
    found: list[tuple[str, int, str, str, str | None]] = []
    of_calls = [rule for rule in ran if units.get(rule, "outbound calls") != "leads"]
    for row in unread[unread["column"] == "calls.direction"].itertuples(index=False):
        found += [(rule, int(row.rows), f"direction {row.value!r} not understood",
                   "map it: " + mapping_hint("calls.direction", str(row.value), "outbound"),
                   None) for rule in of_calls]
    if timezones and "calling_hours" in ran:
        found.append(("calling_hours", timezones, "no time zone known for the number",
                      "the number in E.164, of a known place", None))
    return unjudged_frame(found)


def accepted_keys(accept: str | Collection[str] | None) -> frozenset[str]:
    """``accept_unjudged`` as given (``"FR, abandonment"``, ``["France", "abandonment"]``):
    each a rule's id or a country, read as ``blocked_countries`` reads one (its ISO code in
    any case, its name), as its code; anything else refused, naming it."""
    if accept is None:
        return frozenset()
    given = [accept] if isinstance(accept, str) else list(accept)
    words = [word.strip() for text in given for word in str(text).split(",") if word.strip()]
    rules = {word for word in words if word in RULE_IDS}
    try:
        countries = blocked_regions([word for word in words if word not in rules], ACCEPT)
    except InputError as error:
        raise AuditInputError(f"{error}; or rules' ids ({', '.join(RULE_IDS)})") from None
    return frozenset({*rules, *countries})


def accepted(unjudged: pd.DataFrame, keys: frozenset[str]) -> Bools:
    """Which rows ``keys`` (:func:`accepted_keys`) accept: by their rule, or their country."""
    rows: Bools = (unjudged["rule"].isin(list(keys)) | unjudged["country"].isin(list(keys))
                   ).to_numpy(bool)
    return rows


def said(row: Any) -> str:
    """One row (a Series, or a named tuple of :data:`COLUMNS`) in words: ``not judged for 3
    calls: disposition 'Abandoned' not understood; map it: values={...}``."""
    return f"not judged for {counted(int(row.calls), 'call')}: {row.why}; {row.give}"


def rules_said(unjudged: pd.DataFrame) -> list[tuple[str, str]]:
    """Each rule's rows in words, a rule's countries whose law is not held said together
    (``not judged for 3 calls: no law held for AU (1), DE (1), FR (1): dialkit holds the
    law of ...; accept them with accept_unjudged=['AU', 'DE', 'FR']``), each other row as
    :func:`said` says it: what every output of a report shows beside the rule."""
    shown: list[tuple[str, str]] = []
    for rule, rows in unjudged.groupby("rule", sort=False):
        places = rows[rows["country"].notna()]
        if len(places):
            held = str(places["why"].iloc[0]).partition(": ")[2]
            each = ", ".join(f"{c} ({n:,})" for c, n in zip(places["country"], places["calls"],
                                                           strict=True))
            shown.append((str(rule), f"not judged for {counted(int(places['calls'].sum()), 'call')}"
                          f": no law held for {each}: {held}; accept "
                          f"{'them' if len(places) > 1 else 'it'} with {ACCEPT}="
                          f"{sorted(places['country'])}"))
        shown += [(str(rule), said(row)) for row in rows[rows["country"].isna()].itertuples(
            index=False)]
    return shown


VERDICTS = ("broken", "not judged", "risks", "unchecked", "passed")
"""A rule's verdict over the calls audited, the first that holds: ``broken`` (a finding of
law or policy), ``not judged`` (some calls it applies to were not read), ``risks`` (it
found risks alone), ``unchecked`` (nothing to check), ``passed``."""


_SAID = {"risks": "of risks alone", "unchecked": "with nothing to check"}


def with_verdicts(totals: pd.DataFrame, unjudged: pd.DataFrame) -> pd.DataFrame:
    """``totals`` (per rule: ``findings``, ``law``, ``policy``, ``risk``, ``audited``, ...)
    with ``not_judged`` (the calls each rule could not judge, :func:`summed`'s, a call
    counted once per reason) and ``verdict`` (:data:`VERDICTS`); ``passed`` only where the
    verdict is: a rule not judged for some calls has not passed."""
    not_judged = unjudged.groupby("rule", sort=False)["calls"].sum().reindex(
        totals.index, fill_value=0).astype(np.int64)
    verdict = np.select(
        [(totals["law"] + totals["policy"]) > 0, not_judged > 0, totals["risk"] > 0,
         totals["audited"] == 0], list(VERDICTS[:4]), VERDICTS[4])
    return totals.assign(not_judged=not_judged, verdict=verdict,
                         passed=verdict == VERDICTS[4])


def verdicts_said(totals: pd.DataFrame) -> str:
    """How many rules had each verdict, in words: ``verdicts: 2 rules broken, 1 not judged,
    9 passed`` (and the rules of risks alone, or of nothing to check, where some are)."""
    count = totals["verdict"].value_counts()
    parts = [f"{counted(int(count.get(VERDICTS[0], 0)), 'rule')} {VERDICTS[0]}",
             *(f"{int(count[v]):,} {_SAID.get(v, v)}" for v in VERDICTS[1:4]
               if count.get(v, 0)),
             f"{int(count.get(VERDICTS[4], 0)):,} {VERDICTS[4]}"]
    return "verdicts: " + ", ".join(parts)


def failing(unjudged: pd.DataFrame, fail_on: Iterable[str],
            keys: frozenset[str]) -> dict[str, int]:
    """The rules not judged that ``fail_on`` stops on, with their calls not judged, the
    rows ``keys`` accept (:func:`accepted_keys`) left out: every rule not judged is one of
    law (a row of the law of the place called, or a rule of law that could not read a
    call), so ``law`` and ``any`` stop on it, ``risk`` does not."""
    if not {"law", "any"} & set(fail_on):
        return {}
    kept = unjudged[~accepted(unjudged, keys)]
    calls = kept.groupby("rule", sort=False)["calls"].sum()
    return {str(rule): int(n) for rule, n in calls.items()}


def accepted_risks(findings: pd.DataFrame, keys: frozenset[str]) -> pd.DataFrame:
    """``findings`` without the :data:`NO_LAW` risks of the countries ``keys`` accept: an
    accepted country fails no ``fail_on``, ``risk`` neither."""
    dropped = ((findings["rule"] == NO_LAW) & findings["jurisdiction"].isin(list(keys))
               ).to_numpy(bool)
    return findings[~dropped]


def failing_said(rules: dict[str, int]) -> str:
    """The rules :func:`failing` names, in words: ``2 rules not judged: abandonment (3
    calls), short_ring (1 call); accept what you accept with accept_unjudged=``."""
    each = ", ".join(f"{rule} ({counted(n, 'call')})" for rule, n in rules.items())
    return (f"{counted(len(rules), 'rule')} not judged: {each} (the report says why; "
            f"accept what may stay unjudged with {ACCEPT}=, by country or rule)")
