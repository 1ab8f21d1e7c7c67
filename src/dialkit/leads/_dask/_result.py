"""What a clean of a Dask frame or a Parquet dataset answers: :class:`CleanedDataset`;
and the folders its partitions are written to.

Importing this imports no Dask: the class can be named (``isinstance``, a type hint)
where Dask is not installed; only :mod:`._clean`, which makes one, needs it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from dialkit._files._outputs_written import UNFINISHED, written

from ..._utils._base_error import InputError
from .._clean._chunked import CleanedFile
from .._clean._result import CleanResult

MARK = ".dialkit-cleaned"
"""The file that says a folder holds a clean's partitions, and may be replaced by
another clean's (Parquet readers skip a name that starts with a dot)."""


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
        with replaced(output_folder("folder", folder), "folder") as partial:
            self.frame.to_parquet(str(partial), write_index=False, name_function=part_name)


def part_name(number: int) -> str:
    """The file a partition is written to, named unfinished until the folder is complete
    (a glob over the folder's parent finds no half of it)."""
    return f"part.{number}.parquet{UNFINISHED}"


def output_folder(option: str, path: Any) -> Path | None:
    """An output folder of a Dask clean: a path with no suffix or ``.parquet``."""
    if path is None:
        return None
    folder = Path(path)
    if folder.suffix.lower() not in ("", ".parquet"):
        raise InputError(
            f"{option}={str(path)!r}: a Dask frame or dataset is cleaned on the workers, "
            "which write its partitions as Parquet into a folder: name a folder "
            "('cleaned' or 'cleaned.parquet'); for one CSV or workbook, write "
            "clean(...).compute() (every row on this machine), or clean the CSV itself")
    if folder.exists() and not (folder.is_dir() and (
            (folder / MARK).exists() or not any(folder.iterdir()))):
        raise InputError(f"{option}={str(path)!r} holds files a clean did not write: name a "
                         "new folder, or one a clean wrote, which is replaced")
    return folder


@contextlib.contextmanager
def replaced(folder: Path | None, option: str) -> Iterator[Path | None]:
    """A hidden folder beside ``folder`` to write into, put in its place once complete
    (an earlier one replaced) and marked as a clean's; removed, and ``folder`` left as it
    was, if the clean stops (:func:`written`)."""
    if folder is None:
        yield None
        return
    with written(folder, option, folder=True) as partial:
        yield partial
        (partial / MARK).touch()
