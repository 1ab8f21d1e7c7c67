"""The monitor's calls, held so that judging a part of them takes that part's rows, not a
pass over every call.

The calls are a frame as of the last time it was made (in order of start, then id, as
``client.frames.calls()`` types them) and the rows changed since, typed as one frame. A part's
rows (a few numbers' calls) are taken from the frame by an index of its rows by number,
with the changed rows in their place. The frame is made again (a sort of every call) only
where the whole is asked for (the whole audit, :attr:`Calls.frame`) or the changed rows
grow past a share of it: re-sorting a million calls for each event took 0.2 s of an
observation's 0.6 s at 200,000 calls.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ..._arrays._groups import isin, stably_by
from ...frames import SCHEMAS

MADE_AGAIN_AFTER = 0.05
"""The share of the calls changed since the frame was made at which it is made again: the
changed rows are read into a frame for each part taken, so they are kept few."""
AT_LEAST = 2_000
"""Changed rows kept before the frame is made again, however few the calls."""


def calls_frame(rows: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Call rows as ``client.frames.calls()`` types them, by start time then id."""
    frame = SCHEMAS["calls"].frame(rows)
    return frame.sort_values(["created_at", "id"], kind="stable", ignore_index=True)


_DIRECTION = next(column for column in SCHEMAS["calls"].columns if column.name == "direction")


def _with_typed(frame: pd.DataFrame, fresh: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the calls ``fresh`` (typed as it is) in place of its rows of them."""
    kept = frame[~isin(frame["id"], fresh["id"], keep=False)]
    return _stacked([kept, fresh]).sort_values(["created_at", "id"], kind="stable",
                                               ignore_index=True)


def _stacked(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Frames of calls one after the other, the direction's categories of all of them (the
    contract's values, and a newer one in any)."""
    direction = _DIRECTION.categorical(
        [value for part in parts for value in part["direction"].cat.categories])
    return pd.concat([part.astype({"direction": direction}) for part in parts],
                     ignore_index=True)


def in_one_chunk(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with each Arrow column in one chunk: pyarrow joins a column's chunks to
    take rows from it, a copy of the whole column for each part taken (the calls, and the
    leads and DNC results a part reads). A part of 8 calls from the million of a snapshot
    read back (16 chunks a column) took 24 ms so, 0.3 ms from one chunk; joining them once
    took 0.19 s."""
    joined = {}
    for name, column in frame.items():
        arrow = column.array.__arrow_array__() if isinstance(
            column.dtype, pd.StringDtype | pd.ArrowDtype) else None
        if isinstance(arrow, pa.ChunkedArray) and arrow.num_chunks > 1:
            joined[name] = pd.Series(pd.array(arrow.combine_chunks(), dtype=column.dtype),
                                     index=frame.index)
    return frame.assign(**joined) if joined else frame


class Calls:
    """The monitor's calls: :attr:`frame` whole, :meth:`of_numbers` a part,
    :meth:`update` with rows changed."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._made(frame)

    def _made(self, frame: pd.DataFrame) -> None:
        self._frame = in_one_chunk(frame)
        self._changed = frame.iloc[:0]  # the rows changed since it was made, typed
        self._by_number = _Index(frame["to_number"])

    @property
    def frame(self) -> pd.DataFrame:
        """Every call, in order of start, then id."""
        if len(self._changed):
            self._made(_with_typed(self._frame, self._changed))
        return self._frame

    @property
    def made(self) -> int:
        """How many calls the frame held when it was last made (the rows changed since
        not counted): a size to measure a share against, without making it again."""
        return len(self._frame)

    def update(self, rows: pd.DataFrame) -> None:
        """Take the calls ``rows`` (typed as :func:`calls_frame` types them) in place of
        their rows, or as new calls."""
        kept = self._changed[~isin(self._changed["id"], rows["id"], keep=False)]
        self._changed = _stacked([kept, rows])
        if len(self._changed) > max(AT_LEAST, MADE_AGAIN_AFTER * len(self._frame)):
            self._made(_with_typed(self._frame, self._changed))

    def of_numbers(self, numbers: Collection[str]) -> pd.DataFrame:
        """The calls to ``numbers``, in order: the frame's rows of them but those changed
        since it was made, and the changed rows of them."""
        taken = self._frame.take(np.sort(self._by_number.rows(numbers)))
        if not len(self._changed):
            return taken.reset_index(drop=True)
        changed = self._changed
        mine = changed[isin(changed["to_number"], list(numbers))]
        taken = taken[~isin(taken["id"], changed["id"], keep=False)]  # pandas': 0.09 s
        return _stacked([taken, mine]).sort_values(["created_at", "id"], kind="stable",
                                                   ignore_index=True)


class _Index:
    """The rows of a column's values: each value's rows, in one array ordered by value."""

    def __init__(self, column: pd.Series) -> None:
        codes, values = pd.factorize(column.fillna(""))  # Arrow's: 5x pandas' of objects
        self._codes = dict(zip(values.tolist(), range(len(values)), strict=True))
        self._order = stably_by(codes)
        self._bounds = np.r_[0, np.cumsum(np.bincount(codes, minlength=len(values)))]

    def rows(self, values: Collection[str]) -> np.ndarray:
        """The rows of ``values`` (no value as ``""``), unordered."""
        codes = [self._codes[value] for value in values if value in self._codes]
        if not codes:
            return np.zeros(0, np.int64)
        return np.concatenate([self._order[self._bounds[c]:self._bounds[c + 1]]
                               for c in codes])
