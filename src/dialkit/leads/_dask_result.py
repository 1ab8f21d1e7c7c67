"""What a clean of a Dask frame or a Parquet dataset answers: :class:`CleanedDataset`.

Importing this imports no Dask: the class can be named (``isinstance``, a type hint)
where Dask is not installed; only :mod:`._dask_clean`, which makes one, needs it.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ._result import CleanResult
from ._stream import CleanedFile


@dataclass(frozen=True, kw_only=True, repr=False)  # CleanedFile's repr
class CleanedDataset(CleanedFile):
    """A clean whose rows stay on Dask's workers: the counts, the summary and the notes
    (computed from each partition's counts), and the cleaned rows as a lazy Dask frame.

    Attributes:
        frame: The cleaned rows, a lazy Dask DataFrame with :attr:`CleanResult.frame`'s
            columns and dtypes, in the source's order (``row`` counts on across
            partitions). Each ``compute`` or write of it runs the clean's partitions
            again; :meth:`to_parquet`, or ``out=`` given to :func:`clean`, writes them
            from the workers.
        out: The folder the cleaned partitions were written to (``None``: none asked).
        rejects: The folder the rejected rows' partitions were written to.
    """

    frame: Any = field(repr=False)
    empty: CleanResult = field(repr=False)  # frame empty: all the rest compute() answers

    def compute(self) -> CleanResult:
        """Every cleaned row on this machine: the :class:`CleanResult` a pandas frame's
        clean answers (the rows must fit in memory here)."""
        frame: pd.DataFrame = self.frame.compute()
        frame.index = pd.RangeIndex(len(frame))  # the rows' places in the source
        return dataclasses.replace(self.empty, frame=frame)

    def to_parquet(self, folder: str | os.PathLike[str]) -> None:
        """Write the cleaned partitions to ``folder`` from the workers, a file each (the
        clean's partitions run again: pass ``out=`` to :func:`clean` to write as it counts)."""
        from ._dask_clean import written  # imports Dask

        written(self.frame, folder)
