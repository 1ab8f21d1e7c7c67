"""Which lead each outbound call went to.

Call records carry no lead id, only ``campaign_id`` and ``to_number``, so a call
belongs to the leads of its campaign with that phone. The calls' campaigns are
dictionary-encoded with Arrow and the leads' looked up among them, and so are their
phones, so equal texts get equal integer codes without a join on text or a copy of the
calls' text columns (and the codes are kept while the columns' data live, see
:mod:`dialkit._arrays._kept`); the leads' (phone, campaign) pairs are then numbered
by phone, and each call finds its pair in a table of each phone's campaign (almost every
phone's leads are of one campaign, which is compared with the call's; the pairs of a
phone in several campaigns are sorted and searched).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from ..._arrays._bools import arrow_bools
from ..._arrays._kept import arrow_data, hashed_with, kept
from ..._parallel._threads import in_background

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
        lead_pair: Each lead's (campaign, phone) pair, its number (:class:`_Pairs`); a
            lead without a campaign or a phone has the last one, which no call reaches.
        call_pair: Each call's pair (-1: not among ``calls_among``, or no lead of its
            campaign has that phone).
        pairs: How many pair numbers (some a phone's without leads, and the last).
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
        10.6 ms of CPU for a million calls). Every call is read, those of no pair (-1) on
        a last entry no lead reads, rather than the calls of a pair gathered first."""
        per_pair = np.zeros(self.pairs + 1, np.uint8)
        for run in nested:
            largest = np.zeros_like(per_pair)
            np.maximum.at(largest, self.call_pair, bits & np.uint8(run))
            per_pair |= largest
        return per_pair[self.lead_pair]

    def per_campaign(self, kind: NDArray[np.unsignedinteger[Any]], kinds: int) -> Ints:
        """How many leads of each campaign (rows) are of each kind (columns; ``kind``, each
        lead's, 0 to ``kinds`` - 1), from one pass over the leads: those of no campaign
        (-1) are counted in a first row, dropped, rather than left out first."""
        flat = (self.lead_campaign + 1) * kinds + kind
        counts: Ints = np.bincount(flat, minlength=(len(self.campaigns) + 1) * kinds).reshape(
            -1, kinds)[1:]
        return counts


def matched(leads: pd.DataFrame, calls: pd.DataFrame, calls_among: Bools) -> Matched:
    """``leads`` (``campaign_id``, ``phone``) and the calls ``calls_among`` of ``calls``
    (``campaign_id``, ``to_number``) on one key."""
    campaign_codes = in_background(functools.partial(  # beside the phones': GIL released
        _codes, leads["campaign_id"], calls["campaign_id"]))
    lead_phone, call_phone, phones = _codes(leads["phone"], calls["to_number"])
    lead_campaign, call_campaign, names = campaign_codes.result()
    campaigns, rank = _sorted_campaigns(names, lead_campaign)
    pairs, lead_pair = _lead_pairs(lead_phone, lead_campaign, len(phones), len(names))
    call_pair = pairs.of(call_phone, call_campaign, calls_among)
    return Matched(campaigns, rank[lead_campaign], lead_pair, call_pair, pairs.count)


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


SEVERAL = -2
"""A phone's campaign in :class:`_Pairs` where its leads are of several campaigns."""
NO_LEAD = -3
"""A phone's campaign in :class:`_Pairs` where no lead has it: no call's campaign code
equals it, not even a null's (-1), so the calls of no campaign need no test of their own."""


@dataclass(frozen=True)
class _Pairs:
    """The leads' (phone, campaign) pairs, numbered without sorting them: the pair of a
    phone whose leads are of one campaign (almost every phone) is numbered by the phone's
    code; the pairs of a phone of several campaigns after all the phones, in the order of
    their keys ``phone * width + campaign``; the last number is no lead's pair. Where the
    match sorted every lead's key and looked each call's phone up in two tables (its one
    pair, its one campaign), it now sorts few and reads one: the match and the leads'
    stages 14.4 against 26.3 ms for a million calls and 200,000 leads, codes kept.

    Attributes:
        campaign_of: Per phone code, and last for no phone (-1): the campaign of its
            leads, :data:`SEVERAL` or :data:`NO_LEAD`; in the fewest bytes that hold them
            (one byte for up to 125 campaigns), so a million calls' gather of it and compare
            read less (the match's pairs 5.2 against 7.3 ms with eight bytes).
        shared: The keys of the pairs of phones of several campaigns, sorted.
        width: The campaigns' code space.
    """

    campaign_of: NDArray[np.signedinteger[Any]]
    shared: Ints
    width: int

    @property
    def count(self) -> int:
        """How many pair numbers (the last no lead's)."""
        return len(self.campaign_of) + len(self.shared)

    def of(self, phone: Ints, campaign: Ints, among: Bools) -> Ints:
        """Each (phone, campaign)'s pair, -1 where no lead has it (a null campaign, -1,
        none) or not ``among``. One gather of each phone's campaign, compared with the
        call's, for all but the few calls to a phone of several campaigns, whose keys are
        searched."""
        phones = len(self.campaign_of) - 1
        expected = self.campaign_of[phone]
        found = np.where((expected == campaign) & among, phone, -1)
        several = np.flatnonzero((expected == SEVERAL) & among)
        several = several[campaign[several] >= 0]
        keys = phone[several] * self.width + campaign[several]
        at = np.minimum(np.searchsorted(self.shared, keys), max(len(self.shared) - 1, 0))
        found[several] = np.where(self.shared[at] == keys, phones + at, -1)
        return found


def _lead_pairs(phone: Ints, campaign: Ints, phones: int, width: int) -> tuple[_Pairs, Ints]:
    """The pairs of leads of ``phone`` and ``campaign`` codes (of ``phones`` and
    ``width`` texts), and each lead's pair (no phone or no campaign: the last)."""
    valid = (campaign >= 0) & (phone >= 0)
    campaign_of = np.full(phones + 1, NO_LEAD, np.min_scalar_type(-width - 3))
    campaign_of[phone[valid]] = campaign[valid]
    campaign_of[phone[valid & (campaign_of[phone] != campaign)]] = SEVERAL
    sharing = valid & (campaign_of[phone] == SEVERAL)
    shared, inverse = np.unique(phone[sharing] * width + campaign[sharing],
                                return_inverse=True)
    pair = np.where(valid, phone, phones + len(shared))
    pair[sharing] = phones + inverse.reshape(-1)
    return _Pairs(campaign_of, shared, width), pair


def codes_ahead(leads: pd.DataFrame, calls: pd.DataFrame) -> list[Future[Coded]]:
    """The codes of the leads' and the calls' phones (:func:`_codes`) started in another
    thread, to be kept for the :func:`matched` that follows: a funnel finds its calls'
    stages, then its campaigns' codes (:func:`campaign_codes`), in its own thread meanwhile
    (25 and 20 ms beside these codes' 55: two threads on two cores; with the campaigns' in
    a third thread the three shared the two cores: a cold funnel 187.7 against 157.1 ms,
    15 rounds interleaved). None is started where the match would not find them kept."""
    return [in_background(functools.partial(_codes, *columns))
            for columns in keyable(leads, calls, "phone", "to_number")]


def campaign_codes(leads: pd.DataFrame, calls: pd.DataFrame) -> None:
    """The codes of the leads' and the calls' campaigns (:func:`_codes`) found in this
    thread, kept for the :func:`matched` that follows (see :func:`codes_ahead`)."""
    for columns in keyable(leads, calls, "campaign_id", "campaign_id"):
        _codes(*columns)


def keyable(frame: pd.DataFrame, other: pd.DataFrame, column: str,
            other_column: str) -> list[tuple[pd.Series, pd.Series]]:
    """``frame``'s ``column`` and ``other``'s ``other_column``, where what is asked of them
    would be found kept (both there, as Arrow's text: the asker names a column missing);
    each taken here, so a thread has its own."""
    if column not in frame or other_column not in other:
        return []
    columns = frame[column], other[other_column]
    return [columns] if all(isinstance(found.dtype, pd.StringDtype) and
                            arrow_data(found) is not None for found in columns) else []


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
    found = arrow_bools(pc.is_in(as_arrow(column), value_set=as_arrow(values),
                                 skip_nulls=True))
    found.setflags(write=False)  # kept, shared by every caller
    return found


def as_arrow(column: pd.Series) -> pa.Array:
    """A column as one Arrow string array."""
    values = pa.array(column.astype(TEXT).array, pa.string())
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
