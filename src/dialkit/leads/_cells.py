"""The phone cells a clean normalises, in parts: shared by the pandas path
(:mod:`._clean`) and the Dask one (:mod:`._dask`), which imports nothing of the other."""

from __future__ import annotations

import pandas as pd

CHUNK_ROWS = 500_000
"""Rows normalised at a time. :func:`normalize` pays a fixed cost per region met in a
call (~0.5 ms each: the mix has 221), and its working memory grows with the call's
rows, which it reads on two threads in parts of ``_fast.PART_ROWS``. On the
1,000,000-row mix (``benchmarks/bench_clean.py``; normalising the phone column, CPU
seconds against 250,000 rows a call, interleaved in one process; the whole clean's peak
RSS): 250,000 rows 1.00x and 524-545 MiB, 500,000 0.90x and 506-537 MiB, 1,000,000
0.89x and 559-594 MiB."""


def cell_frame(cells: pd.Series, countries: pd.Series | None) -> pd.DataFrame:
    """The cells (``cell``) and, when given, each one's row's country (``country``)."""
    if countries is None:
        return pd.DataFrame({"cell": cells})
    country = countries if countries.index.equals(cells.index) else countries.loc[cells.index]
    return pd.DataFrame({"cell": cells, "country": country})
