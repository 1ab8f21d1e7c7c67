"""The funnel and the answer rates on Dask: the pandas path's plans, run on partitions.

Each function here only picks the columns its plan reads (so a Parquet dataset's
other columns are never loaded) and hands the plan to the Dask runner; the rules
are the pandas path's (:data:`dialkit._partitions.PLANS`).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .._partitions import PLANS
from .._partitions_dask import frame, run, whole
from ._inputs import FUNNEL_CALLS, FUNNEL_LEADS, LOCAL, prepared


def funnel(leads: Any, calls: Any, *, callbacks: Any, appointments: Any,
           conversation_seconds: float, positive: Collection[str],
           compute: bool) -> Any:
    """:func:`dialkit.analytics.funnel` with the leads and calls on Dask: shuffled by
    campaign, each partition's campaigns counted by the pandas path."""
    lead_frame = _columns(leads, FUNNEL_LEADS, "leads")
    call_frame = _columns(calls, ("direction", *FUNNEL_CALLS), "calls")
    return run(PLANS["funnel"], (lead_frame, call_frame), compute=compute,
               callbacks=None if callbacks is None else whole(callbacks),
               appointments=None if appointments is None else whole(appointments),
               conversation_seconds=conversation_seconds, positive=positive)


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
