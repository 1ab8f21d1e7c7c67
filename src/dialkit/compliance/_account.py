"""The account's own settings: the countries it blocks and the caller ids it verified."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd

from .._places._zones import regions_among
from ._findings import findings, isin


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


def unverified_caller_id(calls: pd.DataFrame, verified: Collection[str]) -> pd.DataFrame:
    """Calls whose caller id is not one of the account's verified numbers."""
    hits = calls.iloc[np.flatnonzero(~isin(calls["from_number"], list(verified)))]
    return findings("unverified_caller_id", hits,
                    "caller id " + hits["from_number"].astype(str) + " is not verified",
                    from_number=hits["from_number"])


