"""The monitor's calls, held so that judging a part of them takes that part's rows, not a
pass over every call.

The calls are a frame as of the last time it was made (in order of start, then id, as
``client.frames.calls()`` types them) and the rows changed since, by call id. A part's
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


def with_rows(frame: pd.DataFrame, rows: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """``frame`` with ``rows`` (by call id) in place of its rows of those calls, in order."""
    fresh = calls_frame(rows.values())
    kept = frame[~frame["id"].isin(list(rows)).to_numpy(dtype=bool)]
    direction = _DIRECTION.categorical(  # the contract's values, and a newer one in either
        [*kept["direction"].cat.categories, *fresh["direction"].cat.categories])
    both = pd.concat([part.astype({"direction": direction}) for part in (kept, fresh)],
                     ignore_index=True)
    return both.sort_values(["created_at", "id"], kind="stable", ignore_index=True)


class Calls:
    """The monitor's calls: :attr:`frame` whole, :meth:`of_numbers` a part,
    :meth:`update` with rows changed."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._made(frame)

    def _made(self, frame: pd.DataFrame) -> None:
        self._frame = frame
        self._changed: dict[str, Mapping[str, Any]] = {}
        self._by_number = _Index(frame["to_number"])

    @property
    def frame(self) -> pd.DataFrame:
        """Every call, in order of start, then id."""
        if self._changed:
            self._made(with_rows(self._frame, self._changed))
        return self._frame

    @property
    def made(self) -> int:
        """How many calls the frame held when it was last made (the rows changed since
        not counted): a size to measure a share against, without making it again."""
        return len(self._frame)

    def update(self, rows: Mapping[str, Mapping[str, Any]]) -> None:
        """Take ``rows`` (by call id) in place of the calls' rows, or as new calls."""
        self._changed.update(rows)
        if len(self._changed) > max(AT_LEAST, MADE_AGAIN_AFTER * len(self._frame)):
            self._made(with_rows(self._frame, self._changed))

    def of_numbers(self, numbers: Collection[str]) -> pd.DataFrame:
        """The calls to ``numbers``, in order: the frame's rows of them but those changed
        since it was made, and the changed rows of them."""
        taken = self._frame.take(np.sort(self._by_number.rows(numbers)))
        if not self._changed:
            return taken.reset_index(drop=True)
        taken = taken[~taken["id"].isin(list(self._changed)).to_numpy(bool)]
        mine = {call_id: row for call_id, row in self._changed.items()
                if row.get("to_number") in numbers}
        return with_rows(taken, mine) if mine else taken.reset_index(drop=True)


class _Index:
    """The rows of a column's values: each value's rows, in one array ordered by value."""

    def __init__(self, column: pd.Series) -> None:
        codes, values = pd.factorize(column.astype(object).fillna(""))
        self._codes = dict(zip(values.tolist(), range(len(values)), strict=True))
        self._order = np.argsort(codes, kind="stable")
        self._bounds = np.searchsorted(codes[self._order], np.arange(len(values) + 1))

    def rows(self, values: Collection[str]) -> np.ndarray:
        """The rows of ``values`` (no value as ``""``), unordered."""
        codes = [self._codes[value] for value in values if value in self._codes]
        if not codes:
            return np.zeros(0, np.int64)
        return np.concatenate([self._order[self._bounds[c]:self._bounds[c + 1]]
                               for c in codes])
