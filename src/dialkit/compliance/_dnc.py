"""Do-Not-Call: calls to listed numbers, listed leads still dialable, and leads whose
numbers were not screened recently enough."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._places._codes import codes_in
from ._findings import COLUMNS, findings, isin
from ._rules import Rules
from ._text import written


def dnc_call(calls: pd.DataFrame, dnc: pd.DataFrame) -> pd.DataFrame:
    """Calls to a listed number placed after it was listed; where the listing date is
    unknown, every call to it, saying so."""
    listed = dnc.loc[dnc["listed"].fillna(False).astype(bool)]
    since = listed.set_index("phone")["listed_at"] if "listed_at" in listed else pd.Series(
        pd.NaT, index=listed["phone"], dtype="datetime64[ns, UTC]")
    asked = calls.loc[isin(calls["disposition"], ["do_not_call"]),  # by the kept hash
                      ["phone", "ended_at"]].groupby("phone")["ended_at"].min()
    if len(asked):  # the earlier of the listing and the first do_not_call, where either is
        dated = [times for times in (since.dropna(), asked) if len(times)]
        since = pd.concat(dated).groupby(level=0).min()
    rows = np.flatnonzero(isin(calls["phone"], listed["phone"]))
    to_listed = calls.iloc[rows].assign(  # not map: it fails on an empty mapping
        listed_at=lambda c: since.reindex(c["phone"]).array)
    dated = to_listed["listed_at"].notna()
    hits = to_listed[~dated | (to_listed["at"] > to_listed["listed_at"])]
    evidence = pd.Series(np.where(
        hits["listed_at"].notna(),
        "called after the number was listed on "
        + written(hits["listed_at"]),
        "the number is on the DNC list; the date it was listed is unknown, so this call "
        "may have been placed before"), index=hits.index)
    return findings("dnc_call", hits, evidence, listed_at=hits["listed_at"])


def dnc_lead(leads: pd.DataFrame, dnc: pd.DataFrame) -> pd.DataFrame:
    """Leads whose number is listed while their status still lets them be dialled."""
    listed = dnc.loc[dnc["listed"].fillna(False).astype(bool), "phone"]
    dialable = ~leads["status"].isin(["dnc", "completed"]).to_numpy(dtype=bool)
    hits = _read(leads).iloc[np.flatnonzero(isin(leads["phone"], listed) & dialable)]
    evidence = "the number is on the DNC list but the lead is " + hits["status"].astype(str)
    return findings("dnc_lead", hits, evidence)


def unscreened_lead(leads: pd.DataFrame, dnc: pd.DataFrame, rules: Rules,
                    as_of: pd.Timestamp) -> pd.DataFrame:
    """Leads with no DNC check of their number, or one older than the scrub age."""
    last = _last_checks(leads["phone"], dnc)
    stale = last.isna() | (last < as_of - rules.scrub_age)
    hits = _read(leads)[stale & ~leads["status"].isin(["dnc", "completed"])]
    when = last[hits.index]
    evidence = pd.Series(np.where(
        when.isna(), "no DNC check of the number",
        "last DNC check " + written(when, "D")
        + f", more than {rules.scrub_age.days} days before the audit"), index=hits.index)
    return findings("unscreened_lead", hits, evidence, checked_at=when)


def _read(leads: pd.DataFrame) -> pd.DataFrame:
    """The leads' columns a finding of a lead reads (:func:`findings`; ``status`` for the
    evidence): of 200,000 leads, taking a few rows of all their columns (names, emails,
    custom fields) took 15 ms of joining each text column's chunks."""
    return leads[[c for c in leads.columns if c in (*COLUMNS, "status")]]


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


