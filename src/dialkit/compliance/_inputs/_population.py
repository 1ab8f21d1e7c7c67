"""What an audit looked at: how many calls and leads per campaign, and where they came from.

A count of findings means little to a regulator without what it is counted
among ("3 of 4,512 outbound calls"), nor without the data it was drawn from
and when that was fetched. These are kept beside the findings, for the summary
and the workbook's cover.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa

from ..._arrays._kept import hashed
from ..._utils._moments import utc_times
from .._rules._rules import BASES, TEXT_RULES

UNITS = {"dnc_lead": "leads", "unscreened_lead": "leads", "unknown_address_state": "leads",
         "abandonment": "answered calls"}
"""What each rule's findings are counted among; every other rule's, outbound calls."""

_COUNTED = {"outbound calls": "calls", "answered calls": "answered", "leads": "leads",
            "calls and texts": "contacts"}
TEXTED = "calls and texts"
"""The unit of a rule that judges texts too (:data:`._texts.TEXT_RULES`), where texts were
audited: its findings are counted among the outbound calls and the texts."""
_NONE = "\0no campaign"
"""The key of the findings of calls (and texts) of no campaign: their ``campaign_id`` is
null, ``None`` or NaN, which a lookup by key never matched, so the summary counted none
of them (a text of no campaign at 22:15 was a finding and its rule "passed")."""
SPANS = {"calls": "created_at", "leads": "created_at", "dnc": "checked_at",
         "texts": "created_at"}
"""The column that dates each frame's rows, for its period in the report's sources."""


LIVE = "_live"
"""The column of the outbound calls :func:`population_of` counts as ``answered``: whether a
live person answered the call, as abandonment reads it (``dialkit.compliance._rows.live_at``),
not whether it has an answer time (an answering machine's has one)."""


def population_of(outbound: pd.DataFrame, leads: pd.DataFrame | None) -> pd.DataFrame:
    """Per campaign (null: calls of none): outbound ``calls``, ``answered`` (by a live
    person: :data:`LIVE`), ``leads``."""
    counts = _call_counts(outbound)
    if leads is not None:
        counts = counts.join(leads.groupby("campaign_id", dropna=False, observed=True)
                             .size().rename("leads"), how="outer")
    counts = counts.reindex(columns=["calls", "answered", "leads"]).fillna(0).astype("int64")
    counts.index.name = "campaign_id"
    return counts.sort_index()


def _call_counts(outbound: pd.DataFrame) -> pd.DataFrame:
    """Per campaign, outbound ``calls`` and ``answered`` (:data:`LIVE`). Arrow text is
    counted by its hash (kept, where the audit took the column: :func:`hashed`), then its
    distinct texts grouped as the calls would be (the same index): a group-by of 900,000
    calls' text took 30 ms, hashing them again."""
    campaign = outbound["campaign_id"]
    answered = outbound[LIVE].to_numpy(bool)
    if not (isinstance(campaign.dtype, pd.StringDtype) and campaign.dtype.storage == "pyarrow"):
        by_campaign = outbound.groupby("campaign_id", dropna=False, observed=True)
        return pd.DataFrame({"calls": by_campaign.size(),
                             "answered": by_campaign[LIVE].sum().astype("int64")})
    codes, distinct = hashed(campaign)
    calls = np.bincount(codes + 1, minlength=len(distinct) + 1)  # a null's code: -1
    taken = np.bincount(codes + 1, weights=answered, minlength=len(distinct) + 1)
    texts = pa.concat_arrays([pa.nulls(1, distinct.type), distinct])
    seen = np.flatnonzero(calls)  # the kept hash's texts may hold some no call has
    each = pd.DataFrame({"campaign_id": pd.array(texts.take(pa.array(seen)), dtype=campaign.dtype),
                         "calls": calls[seen], "answered": taken[seen].astype(np.int64)})
    return each.groupby("campaign_id", dropna=False, observed=True).sum()


def summarised(findings: pd.DataFrame, population: pd.DataFrame,
               ran: tuple[str, ...]) -> pd.DataFrame:
    """Per rule that ran and campaign: ``findings``, of which ``law``, ``policy`` and
    ``risk`` (each finding's ``basis``: what decided it, or that it is a risk, not a
    violation), ``audited`` of ``unit``, ``rate`` (:func:`violation_rate`)."""
    campaign = findings["campaign_id"].astype(object)  # a call of none: one key, not NaN's
    found = findings.assign(campaign_id=campaign.where(campaign.notna(), _NONE)).groupby(
        ["rule", "campaign_id", "basis"], dropna=False, observed=True).size()
    rows = []
    counted = population if len(population) else pd.DataFrame(  # nothing audited: a row
        0, index=pd.Index([None], name="campaign_id"), columns=list(_COUNTED.values()))
    texted = "texts" in counted
    counted = counted.assign(contacts=counted["calls"] + counted.get("texts", 0))
    for rule in ran:  # of zeros per rule, not no row (a table of nothing says nothing)
        unit = TEXTED if texted and rule in TEXT_RULES else UNITS.get(rule, "outbound calls")
        for campaign, audited in counted[_COUNTED[unit]].items():
            key = campaign if pd.notna(campaign) else _NONE
            counts = [int(found.get((rule, key, basis), 0)) for basis in BASES]
            rows.append((rule, campaign, sum(counts), *counts, int(audited), unit))
    table = pd.DataFrame(rows, columns=["rule", "campaign_id", "findings", *BASES,
                                        "audited", "unit"])
    return table.assign(rate=violation_rate(table))


def violation_rate(counts: pd.DataFrame) -> pd.Series:
    """The share of what was audited that broke the rule: the violations (``law`` and
    ``policy``) over ``audited``, NaN where nothing was audited. The risks are counted in
    their own column and not here (``dnc_call``'s rate once mixed the calls that
    broke a list's law with those that only may have), so that a rule of risks alone
    shows a rate of 0."""
    audited = counts["audited"].where(counts["audited"] > 0)
    rate: pd.Series = (counts["law"] + counts["policy"]) / audited
    return rate


def sources_of(frames: Mapping[str, pd.DataFrame | None]) -> dict[str, str]:
    """Each given frame in words: its rows and period, and its ``attrs``' ``source`` and
    ``fetched_at`` where it has them (as :func:`~dialkit.compliance.load` sets them)."""
    return {name: source_words(name, span_of(frame, name), frame.attrs)
            for name, frame in frames.items() if frame is not None}


def span_of(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """One row: the frame's ``rows`` and the ``first`` and ``last`` time of its period's
    column (NaT where it has none). A Dask frame's is its partitions' spans, joined by
    :func:`source_words`."""
    times = utc_times(frame.get(SPANS[name], pd.Series(dtype=object)), f"{name}.{SPANS[name]}",
                      strict=False)
    return pd.DataFrame({"rows": [len(frame)], "first": [times.min()], "last": [times.max()]})


def source_words(name: str, spans: pd.DataFrame, attrs: Mapping[str, object]) -> str:
    """A frame in words from the spans of its parts (:func:`span_of`) and its ``attrs``."""
    text = f"{int(spans['rows'].sum()):,} rows"
    first, last = spans["first"].min(), spans["last"].max()
    if pd.notna(first):
        text += f", {SPANS[name]} {first:%Y-%m-%d} to {last:%Y-%m-%d}"
    if "source" in attrs:
        text += f"; from {attrs['source']}"
    if "fetched_at" in attrs:
        text += f", fetched {attrs['fetched_at']}"
    return text


def by_rule(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary over every campaign: per rule, ``findings`` (of which ``law``,
    ``policy`` and ``risk``), ``audited``, ``unit``, ``rate`` (of the violations:
    :func:`violation_rate`) and ``passed``, in the order the rules ran."""
    totals = summary.groupby("rule", sort=False).agg(
        findings=("findings", "sum"), **{basis: (basis, "sum") for basis in BASES},
        audited=("audited", "sum"), unit=("unit", "first"))
    return totals.assign(rate=violation_rate(totals).round(4),
                         passed=totals["findings"] == 0)


def rate_text(rate: float) -> str:
    """A rate as a percentage, or "–" where there was nothing to count among (no answered
    calls, no leads): a rate of nothing is not a number, and "nan%" reads as a fault."""
    return "–" if pd.isna(rate) else f"{rate:.2%}"
