"""Running a :class:`~dialkit._parallel._partitions.Plan` on Dask: its ``part`` mapped over the
partitions, then its ``combine`` over the parts' answers.

Where the plan has a ``key``, every frame is first shuffled on it into the same number
of partitions: the key's values are hashed alike in every frame (the column is cast to
one text type first, unless it holds integers in every frame), so partition ``i`` of
each frame holds the same keys, and ``part`` meets all rows of a key at once. The parts'
answers are small (a table per campaign, counts per cell); they are joined on the client
(``compute=True``) or in one last partition (``compute=False``). A plan not stacked (the
audit, whose parts' findings are not small: 857,000 of them at 10,000,000 calls) has
each part's answer brought to the client as soon as it is done, on a
``dask.distributed`` client, and released on its worker (:func:`computed`), so that a
worker's memory does not grow with the findings of every partition it audited.

A worker that dies of memory, every time a task is tried (``KilledWorker``), is told as
:class:`~dialkit.errors.WorkerMemoryError`, saying what to do (:func:`memory_told`).

Imported only when a Dask frame or a dataset path is given: ``dialkit`` runs without
Dask installed.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import pandas as pd

from .._utils import _extras
from .._utils._base_error import WorkerMemoryError
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
AUDIT_WORKER = "1 GiB a worker for partitions of 250,000 calls"
"""What a worker needs for the audit, as docs/scale.md ("Memory") measures it."""


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
        with memory_told(plan):
            parts, options, finished = computed(parts, options, dict(finish or {}))
        return plan.combine(parts, **options, **finished)
    if plan.key is not None:
        frames = co_partitioned(frames, plan.key)
    meta = plan.part(*(meta_of(part) for part in frames), **options)
    parts = dd.map_partitions(plan.part, *frames, meta=meta, align_dataframes=False,
                              **options)
    options = {**options, **(finish or {})}
    if compute:
        with memory_told(plan):
            answers = parts.compute()
        return plan.combine(answers, **options)
    joined = parts.repartition(npartitions=1).map_partitions(
        plan.combine, meta=plan.combine(meta, **options), **options)
    return joined


def computed(parts: list[Any], *rest: Any) -> tuple[Any, ...]:
    """``parts`` (``dask.delayed`` objects) and ``rest`` (objects holding some) computed
    in one graph, as ``dask.compute(parts, *rest)`` gives them.

    On a ``dask.distributed`` client (the scheduler Dask would use), each part's answer
    is brought to the client as soon as it is done and then released, so a worker
    holds the answers of the parts it has just finished, not of every part it ran:
    computed in one go, every answer stayed on its worker until the last was done (the
    audit of 10,000,000 calls: 470 MiB of findings on two workers of 1 GiB, which
    their nannies restarted until Dask gave up). The answers are put back in the
    order of ``parts``, so the result does not hang on which finished first."""
    client = _distributed_client()
    if client is None:
        together: tuple[Any, ...] = dask.compute(parts, *rest)
        return together
    distributed = importlib.import_module("distributed")
    futures = client.compute([*parts, *rest])  # one graph: a task they share runs once
    place = {id(future): n for n, future in enumerate(futures[:len(parts)])}
    answers: list[Any] = [None] * len(parts)
    try:
        for future, answer in distributed.as_completed(futures[:len(parts)],
                                                       with_results=True):
            answers[place[id(future)]] = answer
            future.release()
        return (answers, *client.gather(futures[len(parts):]))
    finally:
        for future in futures:
            future.release()  # on an error too: no part runs on that nobody will read


def _distributed_client() -> Any:
    """The ``dask.distributed`` client that ``dask.compute`` would run on, or None (no
    client, or another scheduler asked for in ``dask.config``)."""
    scheduler = dask.base.get_scheduler()
    owner = getattr(scheduler, "__self__", None)
    return owner if type(owner).__module__.startswith("distributed.") else None


@contextmanager
def memory_told(plan: Plan) -> Iterator[None]:
    """Within, a ``KilledWorker`` (every worker that tried a task died while running it)
    raises :class:`~dialkit.errors.WorkerMemoryError`, which says that memory is the
    likely cause and what to do, where Dask's error names a task and a worker."""
    try:
        yield
    except Exception as error:
        distributed = sys.modules.get("distributed")  # a KilledWorker means it is loaded
        if distributed is None or not isinstance(error, distributed.KilledWorker):
            raise
        raise WorkerMemoryError(_lost_words(plan, error)) from error


def _lost_words(plan: Plan, error: Any) -> str:
    """What :func:`memory_told` says of ``error``, a ``KilledWorker`` of ``plan``'s run."""
    limit = getattr(error.last_worker, "memory_limit", None)
    of = f" of {limit / 2**30:.2f} GiB" if limit else ""
    return (f"{plan.name} on Dask: the workers{of} that ran {error.task!r} died, "
            f"{error.allowed_failures + 1} in turn (as many as Dask tries a task on), most "
            "likely of memory (a nanny stops its worker at 95 % of its memory limit). Give "
            "the workers more memory or the data smaller partitions: the audit needs "
            f"{AUDIT_WORKER}, and the workers a p2p buffer of 100 MiB "
            "(docs/scale.md, \"Memory\"); make partitions smaller with "
            "calls.repartition(npartitions=...) on the Dask frame, or export(..., "
            "partition_by=\"day\"). The workers' logs "
            "(distributed.Client.get_worker_logs(nanny=True)) say whether a nanny stopped "
            "them for memory.")


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
