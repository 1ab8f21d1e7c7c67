"""The caller id a call showed, and the account's own settings: the countries it blocks
and the caller ids it verified.

A call that showed no number breaks the law of the country called (``caller_id``: the
rows of :mod:`dialkit._law._caller_id`); a number the account did not verify is only
its own policy (``unverified_caller_id``), and a call that showed no number is not that
too."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..._arrays._bools import arrow_bools
from ..._arrays._groups import Bools, isin
from ..._arrays._kept import hashed
from ..._law import _caller_id as law
from ..._phones._zones import regions_among
from ._findings import findings


def blocked_country(calls: pd.DataFrame, blocked: Collection[str]) -> pd.DataFrame:
    """Calls to a number of a blocked country."""
    if not blocked:
        return findings("blocked_country", calls.iloc[:0], pd.Series(dtype=str))
    rows, numbers = regions_among(calls["phone"], blocked)
    hits = calls.iloc[rows]
    country = hits["phone"].map(numbers)
    return findings("blocked_country", hits,
                    "called a number in " + country.astype(str) + ", a blocked country",
                    country=country)


def caller_id(calls: pd.DataFrame) -> pd.DataFrame:
    """Calls that showed the person called no number (shared decision 4: a null or empty
    ``from_number``, or ``anonymous``, ``restricted``, ... in any case), to a number of a
    country whose law requires one (:mod:`dialkit._law._caller_id`): a finding of law,
    citing the section; where the row's text could not be read in full, the evidence
    says the reading is doubtful."""
    absent = np.flatnonzero(absent_caller_ids(calls["from_number"]))
    rows, regions = regions_among(calls["phone"].iloc[absent], list(law.by_region()))
    hits = calls.iloc[absent[rows]]
    row = hits["phone"].map(regions).map(law.by_region())
    shown = hits["from_number"].astype(object)
    said = pd.Series(np.where(
        shown.fillna("").astype(str).str.strip() == "",
        "caller id: none (the call transmitted no number)",
        "caller id: '" + shown.astype(str) + "', a blocked id (no number was shown)"),
        index=hits.index, dtype=object)
    words = row.map(lambda r: f"; {r.name}: {r.rule}, {r.citation}" + (
        "" if r.confirmed else " (a doubtful reading: the section's own words were not "
        "read in full; see its doubts in dialkit's caller id table)"))
    hits = hits.assign(jurisdiction=row.map(lambda r: r.id), decided_by="number",
                       basis="law", policy=None, citation=row.map(lambda r: r.citation))
    return findings("caller_id", hits, said + words.astype(object),
                    from_number=hits["from_number"])


def absent_caller_ids(from_number: pd.Series) -> Bools:
    """Whether each call showed no number: asked of the column's distinct texts (a few
    caller ids among a million calls), then gathered by each row's hash."""
    codes, distinct = hashed(from_number)
    said = pc.utf8_lower(pc.utf8_trim_whitespace(distinct.cast(pa.large_string())))
    blocked = arrow_bools(pc.or_(pc.equal(said, ""), pc.is_in(
        said, value_set=pa.array(law.BLOCKED_IDS, pa.large_string()))))
    absent: Bools = np.r_[blocked, True][codes]  # a null's row (-1) takes the last
    return absent


def unverified_caller_id(calls: pd.DataFrame, verified: Collection[str]) -> pd.DataFrame:
    """Calls whose caller id is not one of the account's verified numbers (a call that
    showed no number is :func:`caller_id`'s, not this rule's)."""
    shown = ~absent_caller_ids(calls["from_number"])
    hits = calls.iloc[np.flatnonzero(shown & ~isin(calls["from_number"], list(verified)))]
    return findings("unverified_caller_id", hits,
                    "caller id " + hits["from_number"].astype(str) + " is not verified",
                    from_number=hits["from_number"])
