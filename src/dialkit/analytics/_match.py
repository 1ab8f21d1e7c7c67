"""Which lead each outbound call went to.

Call records carry no lead id, only ``campaign_id`` and ``to_number``, so a call
belongs to the leads of its campaign with that phone. Both columns are
dictionary-encoded once (Arrow) and joined as one integer per (campaign, phone):
the leads' keys sorted, each call's looked up in a direct table (or, for a huge key
space, by binary search); no string hash join.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

TEXT = pd.StringDtype("pyarrow")
TABLE_LIMIT = 1 << 25
"""The largest (campaign, phone) key space looked up by a direct table (256 MiB)."""
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]


@dataclass(frozen=True)
class Matched:
    """Leads and calls keyed by (campaign, phone).

    Attributes:
        campaigns: The campaign ids, sorted.
        lead_campaign: Each lead's index into ``campaigns`` (-1: none).
        lead_pair: Each lead's (campaign, phone) pair, an index into the distinct pairs.
        call_pair: Each call's pair (-1: no lead of its campaign has that phone).
        pairs: How many distinct pairs the leads hold.
    """

    campaigns: list[str]
    lead_campaign: Ints
    lead_pair: Ints
    call_pair: Ints
    pairs: int

    def reached(self, calls_mask: Bools) -> Bools:
        """Per lead: whether some call of its pair has ``calls_mask``."""
        per_pair = np.zeros(self.pairs, bool)
        per_pair[self.call_pair[calls_mask & (self.call_pair >= 0)]] = True
        return per_pair[self.lead_pair]

    def per_campaign(self, lead_mask: Bools) -> Ints:
        """How many leads of each campaign have ``lead_mask``."""
        known = self.lead_campaign >= 0
        return np.bincount(self.lead_campaign[known & lead_mask],
                           minlength=len(self.campaigns)).astype(np.int64)


def matched(leads: pd.DataFrame, calls: pd.DataFrame) -> Matched:
    """``leads`` (``campaign_id``, ``phone``) and ``calls`` (``campaign_id``,
    ``to_number``) on one key."""
    campaign, campaigns = _encoded(leads["campaign_id"])
    phone, phones = _encoded(leads["phone"])
    order = np.argsort(np.array(campaigns.to_pylist(), dtype=object)).astype(np.int64)
    rank = np.empty(len(order), np.int64)
    rank[order] = np.arange(len(order))
    width = max(len(phones), 1)
    lead_keys = np.where((campaign >= 0) & (phone >= 0), campaign * width + phone, -1)
    call_campaign, call_phone = _among(calls["campaign_id"], campaigns), _among(
        calls["to_number"], phones)
    call_keys = np.where((call_campaign >= 0) & (call_phone >= 0),
                         call_campaign * width + call_phone, -2)
    distinct, lead_pair = np.unique(lead_keys, return_inverse=True)
    return Matched(sorted(campaigns.to_pylist()), np.where(campaign >= 0, rank[campaign], -1),
                   lead_pair.astype(np.int64), _pairs_of(call_keys, distinct),
                   len(distinct))


def _pairs_of(keys: Ints, distinct: Ints) -> Ints:
    """Each key's index into ``distinct`` (sorted, non-negative where valid), -1 where not
    there: a direct table while the key space is small, else a binary search."""
    if len(distinct) == 0:
        return np.full(len(keys), -1, np.int64)
    size = int(distinct[-1]) + 1
    if size <= TABLE_LIMIT:
        table = np.full(size, -1, np.int64)
        valid = distinct >= 0
        table[distinct[valid]] = np.flatnonzero(valid)
        inside = (keys >= 0) & (keys < size)
        return np.where(inside, table[np.where(inside, keys, 0)], -1)
    at = np.minimum(np.searchsorted(distinct, keys), len(distinct) - 1)
    return np.where(distinct[at] == keys, at, -1).astype(np.int64)


def contained(column: pd.Series, values: pd.Series) -> Bools:
    """Whether each value of ``column`` is among ``values`` (null: no), on Arrow."""
    found = pc.is_in(_arrow(column), value_set=_arrow(values.dropna()))
    return np.asarray(found.fill_null(False).to_numpy(zero_copy_only=False), np.bool_)


def _arrow(column: pd.Series) -> pa.Array:
    """A column as one Arrow string array."""
    values = pa.array(column.astype(TEXT).array, pa.string())
    return values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values


def _encoded(column: pd.Series) -> tuple[Ints, pa.Array]:
    """Each value's index into the column's distinct values (-1: null), and those values."""
    encoded = _arrow(column).dictionary_encode()
    return _filled(encoded.indices), encoded.dictionary


def _among(column: pd.Series, values: pa.Array) -> Ints:
    """Each value's index into ``values`` (-1: null or not there)."""
    return _filled(pc.index_in(_arrow(column), value_set=values))


def _filled(indices: pa.Array) -> Ints:
    """Arrow indices as int64, null as -1."""
    return np.asarray(indices.fill_null(-1).to_numpy(zero_copy_only=False), np.int64)
