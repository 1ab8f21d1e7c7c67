"""The funnel and the answer rates on Dask: the pandas path's plans, run on partitions.

Each function here only picks the columns its plan reads (so a Parquet dataset's
other columns are never loaded) and hands the plan to the Dask runner; the rules
are the pandas path's (:data:`dialkit._parallel._partitions.PLANS`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .._parallel._partitions import PLANS
from .._parallel._partitions_dask import frame, run, whole
from ._inputs._inputs import FUNNEL_CALLS, FUNNEL_LEADS, LOCAL, prepared
from ._reach import call_stages


def funnel(leads: Any, calls: Any, *, callbacks: Any, appointments: Any,
           conversation_seconds: float, positive: Collection[str],
           compute: bool) -> Any:
    """:func:`dialkit.analytics.funnel` with the leads and calls on Dask: each partition of
    the calls reduced to its distinct (campaign, number, stages reached) by the pandas
    path's :func:`~dialkit.analytics._reach.call_stages`, then those and the leads
    shuffled by campaign, each partition's campaigns counted by the pandas path. The
    reduction shuffles three columns instead of six, and a row per pair and stages met
    in the partition instead of a row per call."""
    lead_frame = _columns(leads, FUNNEL_LEADS, "leads")
    call_frame = _columns(calls, ("direction", *FUNNEL_CALLS), "calls")
    rules: dict[str, Any] = {"conversation_seconds": conversation_seconds,
                             "positive": positive}
    stages = call_frame.map_partitions(call_stages, **rules, distinct=True,
                                       meta=call_stages(call_frame._meta, **rules))
    return run(PLANS["funnel"], (lead_frame, stages), compute=compute,
               callbacks=None if callbacks is None else whole(callbacks),
               appointments=None if appointments is None else whole(appointments),
               **rules)


def answer_rates(calls: Any, *, by: list[str], compute: bool) -> Any:
    """:func:`dialkit.analytics.answer_rates` with the calls on Dask: cells counted per
    partition, then summed."""
    own = [column for column in by if column not in LOCAL]
    needed = dict.fromkeys(["direction", "to_number", "created_at", "answered_at", *own])
    return run(PLANS["answer_rates"], (_columns(calls, needed, "calls"),), compute=compute,
               by=by)


def _columns(source: Any, needed: Collection[str], name: str) -> Any:
    """``source``'s ``needed`` columns on Dask, refused as the pandas path refuses a
    frame that lacks one."""
    return frame(source, list(needed), name, lambda meta: prepared(meta, needed, name))
