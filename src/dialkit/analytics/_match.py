"""Which lead each outbound call went to.

Call records carry no lead id, only ``campaign_id`` and ``to_number``, so a call
belongs to the leads of its campaign with that phone. The calls' campaigns are
dictionary-encoded with Arrow and the leads' looked up among them, and so are their
phones, so equal texts get equal integer codes without a join on text or a copy of the
calls' text columns (and the codes are kept while the columns' data live, see
:mod:`dialkit._places._kept`); the leads' (phone, campaign) pairs are then sorted
once, and each call finds its pair in a table by phone (almost every phone has one
pair, whose campaign is compared with the call's; the pair of a phone in several
campaigns is searched).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._places._kept import arrow_data, hashed_with, kept
from .._threads import in_background

TEXT = pd.StringDtype("pyarrow")
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Coded = tuple[Ints, Ints, pa.Array]
"""Codes of a short column's texts and a long one's, and the texts they index."""


@dataclass(frozen=True)
class Matched:
    """Leads and calls keyed by (campaign, phone).

    Attributes:
        campaigns: The leads' campaign ids, sorted.
        lead_campaign: Each lead's index into ``campaigns`` (-1: none).
        lead_pair: Each lead's (campaign, phone) pair, an index into the pairs; a lead
            without a campaign or a phone has the last one, which no call reaches.
        call_pair: Each call's pair (-1: not among ``calls_among``, or no lead of its
            campaign has that phone).
        pairs: How many pairs (the leads' distinct ones, and the last).
    """

    campaigns: list[str]
    lead_campaign: Ints
    lead_pair: Ints
    call_pair: Ints
    pairs: int

    def reached(self, bits: NDArray[np.uint8], nested: Sequence[int]) -> NDArray[np.uint8]:
        """Per lead: the ``bits`` of the calls of its pair, or-ed together. ``nested``
        splits the bits into runs within which a call with a bit has every lower one of
        the run: there the or of some calls' bits is their largest, and numpy's
        ``maximum.at`` is fast where ``bitwise_or.at`` is not (two of them 6.3 against
        10.6 ms of CPU for a million calls). Every call is read, those of no pair (-1) on a last
        entry no lead reads, rather than the calls of a pair gathered first."""
        per_pair = np.zeros(self.pairs + 1, np.uint8)
        for run in nested:
            largest = np.zeros_like(per_pair)
            np.maximum.at(largest, self.call_pair, bits & np.uint8(run))
            per_pair |= largest
        return per_pair[self.lead_pair]

    def per_campaign(self, kind: Ints, kinds: int) -> Ints:
        """How many leads of each campaign (rows) are of each kind (columns; ``kind``, each
        lead's, 0 to ``kinds`` - 1), from one pass over the leads."""
        known = self.lead_campaign >= 0
        flat = self.lead_campaign[known] * kinds + kind[known]
        counts: Ints = np.bincount(flat, minlength=len(self.campaigns) * kinds).reshape(
            len(self.campaigns), kinds)
        return counts


def matched(leads: pd.DataFrame, calls: pd.DataFrame, calls_among: Bools) -> Matched:
    """``leads`` (``campaign_id``, ``phone``) and the calls ``calls_among`` of ``calls``
    (``campaign_id``, ``to_number``) on one key."""
    campaign_codes = in_background(functools.partial(  # beside the phones': GIL released
        _codes, leads["campaign_id"], calls["campaign_id"]))
    lead_phone, call_phone, _ = _codes(leads["phone"], calls["to_number"])
    lead_campaign, call_campaign, names = campaign_codes.result()
    campaigns, rank = _sorted_campaigns(names, lead_campaign)
    width = max(len(names), 1)
    valid = (lead_campaign >= 0) & (lead_phone >= 0)
    distinct, inverse = np.unique(lead_phone[valid] * width + lead_campaign[valid],
                                  return_inverse=True)
    lead_pair = np.full(len(valid), len(distinct), np.int64)
    lead_pair[valid] = inverse.reshape(-1)
    call_pair = _pairs_of(call_phone, call_campaign, distinct, width,
                          calls_among & (call_campaign >= 0))
    return Matched(campaigns, rank[lead_campaign], lead_pair, call_pair, len(distinct) + 1)


def _sorted_campaigns(names: pa.Array, codes: Ints) -> tuple[list[str], Ints]:
    """The campaigns of ``codes`` (indexes into ``names``), sorted; and for each name,
    its index among them (-1: not met), then -1 for code -1 (null). The names met counted
    rather than the codes sorted: 0.45 against 3.4 ms for 200,000 leads."""
    met = np.flatnonzero(np.bincount(codes[codes >= 0], minlength=len(names)))
    texts = names.take(pa.array(met, pa.int64())).to_pylist()
    order = np.argsort(np.array(texts, dtype=object)).astype(np.int64)
    rank = np.full(len(names) + 1, -1, np.int64)
    rank[met[order]] = np.arange(len(order))
    return [texts[n] for n in order], rank


def _pairs_of(phone: Ints, campaign: Ints, distinct: Ints, width: int, among: Bools) -> Ints:
    """Each (phone, campaign)'s index into ``distinct`` (sorted keys ``phone * width +
    campaign``), -1 where not there, or not ``among``, or of no phone (-1). A phone of one
    pair (almost all) is looked up in a table by phone, its campaign compared; the key of a
    phone of several is searched. Every call is looked up, a phone of -1 in the table's
    last entry (no pair), rather than the calls asked gathered and scattered back (the
    match 37.5 against 48.8 ms for a million calls, 900,000 asked, its codes kept)."""
    pair_phone = distinct // width
    size = int(max(phone.max(initial=-1), pair_phone.max(initial=-1))) + 2
    alone = np.bincount(pair_phone, minlength=size)[pair_phone] == 1
    only_pair = np.full(size, -1, np.int64)
    only_pair[pair_phone] = -2  # several pairs
    only_pair[pair_phone[alone]] = np.flatnonzero(alone)
    only_campaign = np.full(size, -1, np.int64)
    only_campaign[pair_phone[alone]] = distinct[alone] % width
    found = only_pair[phone]
    several = np.flatnonzero((found == -2) & among)
    found = np.where(among & (only_campaign[phone] == campaign), found, -1)
    keys = phone[several] * width + campaign[several]
    at = np.minimum(np.searchsorted(distinct, keys), max(len(distinct) - 1, 0))
    found[several] = np.where(distinct[at] == keys, at, -1)
    return found


def codes_ahead(leads: pd.DataFrame, calls: pd.DataFrame) -> list[Future[Coded]]:
    """The codes of the leads' and the calls' phones (:func:`_codes`) started in another
    thread, to be kept for the :func:`matched` that follows: a funnel finds its calls'
    stages, then its campaigns' codes (:func:`campaign_codes`), in its own thread meanwhile
    (25 and 20 ms beside these codes' 55: two threads on two cores; with the campaigns' in
    a third thread the three shared the two cores: a cold funnel 187.7 against 157.1 ms,
    15 rounds interleaved). None is started where the match would not find them kept."""
    return [in_background(functools.partial(_codes, *columns))
            for columns in _keyable(leads, calls, "phone", "to_number")]


def campaign_codes(leads: pd.DataFrame, calls: pd.DataFrame) -> None:
    """The codes of the leads' and the calls' campaigns (:func:`_codes`) found in this
    thread, kept for the :func:`matched` that follows (see :func:`codes_ahead`)."""
    for columns in _keyable(leads, calls, "campaign_id", "campaign_id"):
        _codes(*columns)


def _keyable(leads: pd.DataFrame, calls: pd.DataFrame, short: str,
             long: str) -> list[tuple[pd.Series, pd.Series]]:
    """The leads' ``short`` and the calls' ``long`` column, where the match would find their
    codes kept (both there, as Arrow's text: the match names a column missing); each
    taken here, so a thread has its own."""
    if short not in leads or long not in calls:
        return []
    columns = leads[short], calls[long]
    return [columns] if all(isinstance(column.dtype, pd.StringDtype) and
                            arrow_data(column) is not None for column in columns) else []


def _codes(short: pd.Series, long: pd.Series) -> Coded:
    """Codes of the texts of ``short`` (the leads') and ``long`` (the calls'), equal for
    equal texts (-1: null), and the texts they index: ``long``'s hash (as the zones hash
    it, and kept), ``short``'s texts it lacks coded after (:func:`hashed_with`); the
    answer is kept while both columns' data live, so the same frames' next funnel or
    attempts hash nothing (a notebook asks both, a widget each redraw)."""
    short, long = (c if isinstance(c.dtype, pd.StringDtype) else c.astype(TEXT)  # ids
                   for c in (short, long))  # read from a CSV as numbers
    sources = (arrow_data(short), arrow_data(long))
    if None in sources:
        return _coded(short, long)
    return kept("codes", sources, lambda: _coded(short, long))


def _coded(short: pd.Series, long: pd.Series) -> Coded:
    long_codes, codes, texts = hashed_with(long, short)
    return codes, long_codes, texts


def contained(column: pd.Series, values: pd.Series) -> Bools:
    """Whether each value of ``column`` is among ``values`` (null: no): one Arrow ``is_in``
    (the few ``values`` hashed, the column probed: 9 ms for 200,000 lead ids among 60,000
    callbacks' and 4 ms for their phones among 2,000 appointments', where hashing the
    column and looking ``values`` up in it took 28 and 19 ms), kept while both columns'
    data live, so a frame's next funnel looks nothing up."""
    sources = (arrow_data(column), arrow_data(values))
    if None in sources:
        return _among(column, values)
    return kept("contained", sources, lambda: _among(column, values))


def _among(column: pd.Series, values: pd.Series) -> Bools:
    """Whether each of ``column``'s texts is among ``values``' (null: no)."""
    found: Bools = np.asarray(pc.is_in(as_arrow(column), value_set=as_arrow(values),
                                       skip_nulls=True).fill_null(False), np.bool_)
    found.setflags(write=False)  # kept, shared by every caller
    return found


def as_arrow(column: pd.Series) -> pa.Array:
    """A column as one Arrow string array."""
    values = pa.array(column.astype(TEXT).array, pa.string())
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
