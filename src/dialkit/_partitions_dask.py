"""Running a :class:`~dialkit._partitions.Plan` on Dask: its ``part`` mapped over the
partitions, then its ``combine`` over the parts' answers.

Where the plan has a ``key``, every frame is first shuffled on it into the same number
of partitions: the key's values are hashed alike in every frame (the column is cast to
one text type first), so partition ``i`` of each frame holds the same keys, and
``part`` meets all rows of a key at once. The parts' answers are small (a table per
campaign, counts per cell); they are joined on the client (``compute=True``) or in one
last partition (``compute=False``).

Imported only when a Dask frame or a dataset path is given: ``dialkit`` runs without
Dask installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import pandas as pd

from . import _extras
from ._partitions import Plan, is_dask, is_dataset

with _extras.needs("dask"):
    dd: Any = importlib.import_module("dask.dataframe")
"""Dask's DataFrame module, typed loosely: its functions are not typed for a strict
checker, and a checker without Dask installed checks this module too."""

TEXT = pd.StringDtype("pyarrow")


def frame(source: Any, columns: Sequence[str], name: str, check: Any = None) -> Any:
    """``source`` (a Dask frame, a dataset path or a pandas frame) as a Dask frame of
    ``columns`` only (the rest is never read); ``check(meta)`` first, which raises the
    pandas path's own error for a frame that lacks a column."""
    data = dd.read_parquet(str(source)) if is_dataset(source) else (
        source if is_dask(source) else dd.from_pandas(source, npartitions=1))
    if check is not None:
        check(data._meta)
    return data[list(columns)]


def whole(source: Any) -> Any:
    """A small frame every part needs (callbacks, appointments) as pandas."""
    if is_dataset(source):
        return pd.read_parquet(source)
    return source.compute() if is_dask(source) else source


def run(plan: Plan, frames: Sequence[Any], *, compute: bool, **options: Any) -> Any:
    """``plan`` over Dask ``frames``: pandas' answer, or with ``compute=False`` the lazy
    Dask frame that computes to it."""
    if plan.key is not None:
        frames = co_partitioned(frames, plan.key)
    meta = plan.part(*(part._meta for part in frames), **options)
    parts = dd.map_partitions(plan.part, *frames, meta=meta, align_dataframes=False,
                              **options)
    if compute:
        return plan.combine(parts.compute(), **options)
    joined = parts.repartition(npartitions=1).map_partitions(
        plan.combine, meta=plan.combine(meta, **options), **options)
    return joined


def co_partitioned(frames: Sequence[Any], key: str) -> list[Any]:
    """``frames`` shuffled on ``key`` into one number of partitions, each key's rows of
    every frame in the partition of the same number."""
    count = max(part.npartitions for part in frames)
    return [part.assign(**{key: part[key].astype(TEXT)}).shuffle(key, npartitions=count)
            for part in frames]
