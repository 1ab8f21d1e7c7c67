"""What each call reaches of the funnel: the one step of it that needs the calls.

:func:`~dialkit.analytics.funnel` (``_funnel``) counts leads from these rows, not from
the calls; the Dask path reduces each partition of the calls to them before its
shuffle. Apart from ``_funnel`` so that the Dask path imports it without importing the
module that imports the Dask path.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd

from ._inputs._inputs import FUNNEL_CALLS, answered, positive_calls, talked, with_direction

CALL_STAGES = ("dialled", "answered", "conversation", "positive")
"""The funnel's stages a call reaches by itself: bits 1, 2, 4, 8 of :func:`call_stages`'
``stages``."""
NESTED_STAGES = (0b0111, 0b1000)
""":func:`call_stages`' bits in nested runs: a call reaches ``answered`` only if dialled
and ``conversation`` only if answered, so within a run a call's bits are one of 0, 1, 3,
7 and the or of some calls' is their largest (``positive`` needs only ``dialled``)."""


def call_stages(calls: pd.DataFrame, *, conversation_seconds: float,
                positive: Collection[str], distinct: bool = False) -> pd.DataFrame:
    """Each call's ``campaign_id``, ``to_number`` and ``stages``, the bits of the stages of
    :data:`CALL_STAGES` it reaches (0 for an inbound call, which reaches none): all the
    funnel needs of a call, so the Dask path shuffles this instead of the calls.

    A lead reaches a stage when some call of its (campaign, number) does, so calls of one
    pair with the same bits say no more than one of them: ``distinct=True`` keeps one row
    per (campaign, number, stages) met, and none of no stage (the Dask path's reduction of
    each partition before the shuffle; the pandas path keeps every row, as hashing the
    pairs here would cost what matching them costs later)."""
    frame, out = with_direction(calls, FUNNEL_CALLS)
    picked = out & answered(frame)
    bits = out.view(np.uint8) | picked.view(np.uint8) << 1  # a bool's byte is 0 or 1
    bits |= (picked & talked(frame, conversation_seconds)).view(np.uint8) << 2
    bits |= (out & positive_calls(frame, positive)).view(np.uint8) << 3
    stages = pd.DataFrame({"campaign_id": frame["campaign_id"],
                           "to_number": frame["to_number"], "stages": bits})
    if not distinct:
        return stages
    return stages[out].drop_duplicates(ignore_index=True)
