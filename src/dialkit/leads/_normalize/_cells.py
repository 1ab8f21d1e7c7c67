"""The phone cells a clean normalises, in parts: shared by the pandas path
(:mod:`.._clean._judge`) and the Dask one (:mod:`.._dask._client`), which imports nothing of the
other."""

from __future__ import annotations

import pandas as pd


def cell_frame(cells: pd.Series, countries: pd.Series | None) -> pd.DataFrame:
    """The cells (``cell``) and, when given, each one's row's country (``country``)."""
    if countries is None:
        return pd.DataFrame({"cell": cells})
    country = countries if countries.index.equals(cells.index) else countries.loc[cells.index]
    return pd.DataFrame({"cell": cells, "country": country})
