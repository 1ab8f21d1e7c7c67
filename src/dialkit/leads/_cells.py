"""The phone cells a clean normalises, in parts: shared by the pandas path
(:mod:`._clean`) and the Dask one (:mod:`._dask`), which imports nothing of the other."""

from __future__ import annotations

import pandas as pd

CHUNK_ROWS = 250_000
"""Rows normalised at a time. :func:`normalize` has a fixed cost per call and reads a
part of 200,000 rows or more on two threads; its working memory grows with the part.
On the 1,000,000-row mix (``benchmarks/bench_clean.py``, whole clean, CPU seconds and
peak RSS): 100,000 rows 7.3 s and 528 MiB, 250,000 6.3 s and 546 MiB, 500,000 5.3 s and
621 MiB."""


def cell_frame(cells: pd.Series, countries: pd.Series | None) -> pd.DataFrame:
    """The cells (``cell``) and, when given, each one's row's country (``country``)."""
    if countries is None:
        return pd.DataFrame({"cell": cells})
    country = countries if countries.index.equals(cells.index) else countries.loc[cells.index]
    return pd.DataFrame({"cell": cells, "country": country})
