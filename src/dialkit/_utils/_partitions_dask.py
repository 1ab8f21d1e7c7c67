"""Running a :class:`~dialkit._utils._partitions.Plan` on Dask: its ``part`` mapped over the
partitions, then its ``combine`` over the parts' answers.

Where the plan has a ``key``, every frame is first shuffled on it into the same number
of partitions: the key's values are hashed alike in every frame (the column is cast to
one text type first, unless it holds integers in every frame), so partition ``i`` of
each frame holds the same keys, and ``part`` meets all rows of a key at once. The parts'
answers are small (a table per campaign, counts per cell); they are joined on the client
(``compute=True``) or in one last partition (``compute=False``).

Imported only when a Dask frame or a dataset path is given: ``dialkit`` runs without
Dask installed.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from . import _extras
from ._partitions import Plan, checked, is_dask, is_dataset

with _extras.needs("dask"):
    dask: Any = importlib.import_module("dask")
    dd: Any = importlib.import_module("dask.dataframe")
    delayed: Any = dask.delayed
    meta_of: Any = importlib.import_module("dask.dataframe.utils").make_meta
"""Dask and its DataFrame module (``meta_of``: a Dask frame's empty pandas twin, as the
public ``make_meta`` gives it, not its private ``_meta``), typed loosely: their
functions are not typed for a strict checker, and a checker without Dask installed
checks this module too."""

TEXT = pd.StringDtype("pyarrow")


def frame(source: Any, columns: Sequence[str] | None, name: str, check: Any = None) -> Any:
    """``source`` (a Dask frame, a dataset path or a pandas frame) as a Dask frame of
    ``columns`` only (the rest is never read; ``None``: every column); a dataset's files
    checked against each other (:func:`~._partitions.checked`), and ``check(meta)``
    first, which raises the pandas path's own error for a frame that lacks a column.

    The columns are chosen in an optimised graph (the read told which to read), since
    the graphs of the parts are taken unoptimised (:func:`listed_parts`)."""
    data = dd.read_parquet(str(checked(source))) if is_dataset(source) else (
        source if is_dask(source) else dd.from_pandas(source, npartitions=1))
    if check is not None:
        check(meta_of(data))
    return data if columns is None else data[list(columns)].optimize(fuse=False)


def whole(source: Any) -> Any:
    """A small frame every part needs (callbacks, appointments) as pandas."""
    if is_dataset(source):
        return pd.read_parquet(checked(source))
    return source.compute() if is_dask(source) else source


def run(plan: Plan, frames: Sequence[Any], *, compute: bool,
        finish: Mapping[str, Any] | None = None, to_parts: Mapping[str, Any] | None = None,
        **options: Any) -> Any:
    """``plan`` over Dask ``frames``: pandas' answer, or with ``compute=False`` the lazy
    Dask frame (of a stacked plan; else the ``dask.delayed`` object) that computes to it.
    ``combine`` is given the ``options`` and ``finish``, ``part`` the ``options`` (a Dask
    scalar or delayed object among them is computed first) and, of a plan not stacked,
    ``to_parts``."""
    if not plan.stacked:
        options = {name: value.to_delayed(optimize_graph=False) if is_dask(value) else value
                   for name, value in options.items()}
        parts = listed_parts(plan, frames, **options, **(to_parts or {}))
        if not compute:
            return delayed(plan.combine)(parts, **options, **(finish or {}))
        # combined here, not on a worker: the audit's report of 4,000,000 calls, made and
        # then sent from a worker of 1 GiB, passed 95 % of it and the worker was restarted
        parts, options, finished = dask.compute(parts, options, dict(finish or {}))
        return plan.combine(parts, **options, **finished)
    if plan.key is not None:
        frames = co_partitioned(frames, plan.key)
    meta = plan.part(*(meta_of(part) for part in frames), **options)
    parts = dd.map_partitions(plan.part, *frames, meta=meta, align_dataframes=False,
                              **options)
    options = {**options, **(finish or {})}
    if compute:
        return plan.combine(parts.compute(), **options)
    joined = parts.repartition(npartitions=1).map_partitions(
        plan.combine, meta=plan.combine(meta, **options), **options)
    return joined


def combined(plan: Plan, frames: Sequence[Any], **options: Any) -> Any:
    """The ``dask.delayed`` answer of a stacked plan over ``frames`` (shuffled on its
    ``key`` first), where an option may be a Dask object (a scalar the parts need,
    computed first): for another plan's ``combine`` that needs it whole (the audit's
    report, every campaign's windows)."""
    options = {name: value.to_delayed(optimize_graph=False) if is_dask(value) else value
               for name, value in options.items()}
    stacked = delayed(pd.concat)(listed_parts(plan, frames, **options), ignore_index=True)
    return delayed(plan.combine)(stacked, **options)


def listed_parts(plan: Plan, frames: Sequence[Any | None], **options: Any) -> list[Any]:
    """A ``dask.delayed`` part of ``plan`` per partition of ``frames`` shuffled on its
    ``key``; a ``None`` among ``frames`` (a frame not given) is given to every part as
    ``None``. An option that is a Dask object is given as its ``to_delayed()``.

    The graphs are taken unoptimised: optimising each alone fuses a frame they share (the
    audit's outbound calls feed two shuffles and a scalar) into tasks of other names in
    each, and the shared frame was read and prepared once for each."""
    given = [part for part in frames if part is not None]
    shuffled = iter(co_partitioned(given, plan.key) if plan.key is not None else given)
    pieces = [None if part is None else next(shuffled).to_delayed(optimize_graph=False)
              for part in frames]
    count = max(len(piece) for piece in pieces if piece is not None)
    return [delayed(plan.part)(*(None if piece is None else piece[n] for piece in pieces),
                               **options) for n in range(count)]


def co_partitioned(frames: Sequence[Any], key: str) -> list[Any]:
    """``frames`` shuffled on ``key`` into one number of partitions, each key's rows of
    every frame in the partition of the same number."""
    count = max(part.npartitions for part in frames)
    return [(part if pd.api.types.is_integer_dtype(part[key].dtype) else part.assign(
        **{key: part[key].astype(TEXT)})).shuffle(key, npartitions=count) for part in frames]
