"""Each call's lead, and the lead's address state: for the findings' ``lead_id`` and for
the law of the place called (a state's row applies where the lead's address is).

The leads are looked up by integer codes of their campaigns' and numbers' text, kept
with those columns' hash (:func:`.._places._codes.codes_in`) while their data live, as
a notebook audits the same frames again and again.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._places._codes import codes_in
from .._places._kept import arrow_data, kept
from .._places._zones import Rows


def lead_rows(calls: pd.DataFrame, leads: pd.DataFrame, at: Rows | None = None) -> Rows:
    """Each call's lead (of the calls ``at``, if given): the position among ``leads`` of the
    first lead of the call's campaign with its number, as a left merge finds it (-1:
    none), by integer keys of the two texts (a merge on them took most of a second on a
    million calls): the codes of the leads' texts (:func:`codes_in`, kept with their
    hash), and the first lead of each key kept while the leads' columns live
    (:func:`_first_leads`); 2 ms a lookup of 30,000 calls, where hashing them anew took
    20 ms and the leads' keys 15 ms more."""
    campaign, phone = (codes_in(leads[c], calls[c], at) for c in ("campaign_id", "phone"))
    size = len(leads)
    width = int(phone[:size].max(initial=0)) + 2  # above every call's code too
    keys, first = _first_leads(leads, campaign[:size] * width + phone[:size])
    found = keys.get_indexer(campaign[size:] * width + phone[size:])
    lead: Rows = np.where(found >= 0, first[found], -1) if size else np.full(len(found), -1)
    return lead


def _first_leads(leads: pd.DataFrame, key: Rows) -> tuple[pd.Index, Rows]:
    """The distinct ``key`` of the leads (an index, its hash table built once), and the
    position of the first lead of each: kept while the leads' campaign and number columns
    live, where they are Arrow data (the key is theirs alone)."""
    def first() -> tuple[pd.Index, Rows]:
        keys = pd.Index(key)
        at = np.flatnonzero(~keys.duplicated())
        return keys[at], at
    sources = tuple(arrow_data(leads[c]) for c in ("campaign_id", "phone"))
    return first() if None in sources else kept("first leads", sources, first)


def addresses(outbound: pd.DataFrame, leads: pd.DataFrame | None,
               addressed: bool) -> tuple[Rows | None, NDArray[np.object_] | None]:
    """If ``addressed`` (the rules apply the law of the place called) and the leads hold
    addresses (:func:`address_states`): each call's lead (:func:`lead_rows`) and its
    address state; else None for both."""
    states = address_states(leads) if leads is not None and addressed else None
    if leads is None or states is None:
        return None, None
    lead = lead_rows(outbound, leads)
    with_none = np.r_[states, np.array([None], object)]
    return lead, with_none[np.where(lead >= 0, lead, len(states))]


_STATE_FIELD = r'"state"\s*:\s*"(?P<state>[^"]*)"'
"""A ``state`` key of a lead's ``custom_fields`` JSON text, read by one regex over the
column (a million ``json.loads`` would take a second)."""


def address_states(leads: pd.DataFrame) -> NDArray[np.object_] | None:
    """Each lead's address state as its text (``"LA"``, ``"Louisiana"``; None where it has
    none): a ``state`` column (a column mapped to it), else the ``state`` key of the
    ``custom_fields`` JSON text; None where the leads have neither."""
    if "state" in leads.columns:
        column: NDArray[np.object_] = leads["state"].astype(object).where(
            leads["state"].notna(), None).to_numpy(object)
        return column
    if "custom_fields" not in leads.columns:
        return None
    fields = leads["custom_fields"]
    try:
        text = pa.array(fields.array, pa.string(), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # a hand-made frame's dicts
        text = pa.array([None if pd.isna(v) else json.dumps(v) if not isinstance(v, str)
                         else v for v in fields.astype(object)], pa.string())
    if isinstance(text, pa.ChunkedArray):  # as pandas' Arrow columns give it
        text = text.combine_chunks()
    found: NDArray[np.object_] = np.asarray(
        pc.struct_field(pc.extract_regex(text, _STATE_FIELD), "state").to_pylist(), object)
    return found
