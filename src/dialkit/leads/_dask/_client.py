"""Lead cleaning of a Dask frame or a Parquet dataset with a ``client``: the phones
normalised on Dask, the rows judged on the client.

The checks that need the account ask the service from the client, for every distinct
number and id of the file (a clean without ``client`` stays on the workers,
:mod:`._clean`). Normalising the phones is the clean's work per row, and most of
its time; the checks after it need the whole file (a duplicate's first row, the DNC
screen of every distinct number, the hints by the file's commonest regions) and its
answer, a :class:`CleanResult`, holds every row. So the rows come to the client, the
phone cells go back out in partitions to the pandas path's own
:data:`~dialkit.leads._clean._judge.NORMALIZED` plan, and everything else is the pandas
path as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from dialkit._parallel._partitions import PLANS, is_dataset
from dialkit._parallel._partitions_dask import dd, run
from dialkit._utils import _tuning

from .._normalize._cells import cell_frame

Normalizer = Callable[[pd.Series, str, "pd.Series | None"], pd.DataFrame]


def whole(source: Any) -> pd.DataFrame:
    """A Dask frame or a dataset's rows, on the client."""
    data = dd.read_parquet(str(source)) if is_dataset(source) else source
    frame: pd.DataFrame = data.compute()
    return frame


def normalizer(source: Any) -> Normalizer:
    """The clean's phone normaliser on Dask, in as many partitions as ``source`` has (at
    least one per :data:`~dialkit._utils._tuning.CHUNK_ROWS` cells)."""
    parts = dd.read_parquet(str(source)).npartitions if is_dataset(source) else \
        source.npartitions

    def clean(cells: pd.Series, region: str, countries: pd.Series | None) -> pd.DataFrame:
        frame = cell_frame(cells, countries)
        count = max(1, min(len(frame), max(parts, -(-len(frame) // _tuning.CHUNK_ROWS))))
        found: pd.DataFrame = run(PLANS["clean"], (dd.from_pandas(frame, npartitions=count),),
                                  compute=True, region=region)
        return found

    return clean
