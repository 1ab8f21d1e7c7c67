"""The frames the analytics read: their columns checked, times as UTC, outbound calls.

Every function takes frames with the documented columns of ``client.frames``
(``docs/frames.md``), whether they came from the network, the cache, Parquet or
a CSV export: a CSV's times arrive as text and are read here as UTC. Phone numbers
that ``pd.read_csv`` read as integers (the ``+`` and any leading 0 gone) are refused
as the audit refuses them (:func:`dialkit._arrays._checked.check_text`), never given a
``+`` by guess (one file of a dataset held so once answered with wrong cells).
"""

from __future__ import annotations

import functools
from collections.abc import Collection

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from ..._arrays._bools import arrow_bools
from ..._arrays._checked import check_text
from ..._arrays._kept import arrow_data
from ..._utils._base_error import (
    AnalyticsInputError,  # noqa: F401
)
from ...frames import as_pandas, utc_times

TIMES = frozenset({"created_at", "answered_at", "ended_at"})
PHONES = frozenset({"to_number", "phone"})
FUNNEL_CALLS = ("campaign_id", "to_number", "answered_at", "ended_at", "disposition")
"""The calls' columns :func:`~dialkit.analytics.funnel` reads (with ``direction``)."""
FUNNEL_LEADS = ("id", "campaign_id", "phone")
"""The leads' columns :func:`~dialkit.analytics.funnel` reads."""
LOCAL = ("zone", "local_hour", "weekday", "state")
"""What :func:`~dialkit.analytics.answer_rates` can group by beyond the calls' own columns
(each read off ``to_number``: its zone and local time, its state)."""
SOURCES = {"calls": "client.frames.calls()", "leads": "client.frames.leads()",
           "callbacks": "client.frames.callbacks(campaign_id)",
           "appointments": "client.frames.appointments()"}
"""Where each frame of the account the analytics read comes from, as a refusal names it:
written whole, never built from the frame's name, so that a test looks each
method up."""
POSITIVE = ("sale", "callback_requested", "info_sent")
"""Dispositions counted as a positive outcome unless told otherwise: a sale, and the two
codes of a person who asked for more (a call back, information sent)."""

Bools = NDArray[np.bool_]


def prepared(frame: pd.DataFrame, needed: Collection[str], name: str,
             source: str | None = None) -> pd.DataFrame:
    """The ``needed`` columns of ``frame`` (a new frame), times as UTC; a Polars DataFrame
    or a pyarrow Table is read as pandas first (:func:`dialkit.frames.as_pandas`).

    ``source`` says where such a frame comes from (a plot's table comes from the
    function that computes it); by default the frame's method (:data:`SOURCES`, which
    names every frame of the account read without one) or an export.

    Raises:
        AnalyticsInputError: ``frame`` lacks one of them, or holds a time that is none.
        ColumnError: A phone column holds numbers, not E.164 text (named, with its row).
        TypeError: ``frame`` is no frame (:data:`dialkit.frames.ACCEPTED`).
    """
    source = source or f"{SOURCES[name]} or an export with its columns"
    frame = as_pandas(frame, name, source)
    missing = [column for column in needed if column not in frame.columns]
    if missing:
        raise AnalyticsInputError(
            f"{name} has no column {', '.join(missing)}: pass {source} "
            f"({', '.join(needed)})")
    out = frame[list(needed)]
    for column in TIMES.intersection(needed):
        try:
            out = out.assign(**{column: utc_times(out[column], f"{name}.{column}")})
        except ValueError as error:
            raise AnalyticsInputError(str(error)) from None
    for column in PHONES.intersection(needed):
        check_text(out[column], f"{name}.{column}", phone=True)
    return out


def outbound(calls: pd.DataFrame, needed: Collection[str]) -> pd.DataFrame:
    """The outbound calls' ``needed`` columns (``direction`` is checked too)."""
    frame = prepared(calls, ["direction", *needed], "calls")
    return frame[is_outbound(frame)].drop(columns="direction").reset_index(drop=True)


def with_direction(calls: pd.DataFrame, needed: Collection[str]) -> tuple[pd.DataFrame, Bools]:
    """All the calls' ``needed`` columns and ``direction`` (no row copied), and which calls
    are outbound: for work that keeps to integer codes and masks until its table."""
    frame = prepared(calls, ["direction", *needed], "calls")
    return frame, is_outbound(frame)


def is_outbound(calls: pd.DataFrame) -> Bools:
    """Whether each call is outbound."""
    return bools(calls["direction"] == "outbound")


def answered(calls: pd.DataFrame) -> Bools:
    """Whether each call was answered: it has an ``answered_at``."""
    return bools(calls["answered_at"].notna())


def talked(calls: pd.DataFrame, seconds: float) -> Bools:
    """Whether each call's talk time (``ended_at - answered_at``) is at least ``seconds``.

    The seconds are pandas' ``total_seconds()`` (whole seconds plus the rest, divided
    apart), computed on the times' integer ticks rather than through a column of
    timedeltas; times of two units, or of a span pandas would nudge, go through pandas.
    For whole ``seconds`` (the default 30) that sum reaches them exactly when the whole
    seconds do (the rest is under one, and below 2**51 ticks a float of their size tells
    a tick apart): one integer comparison instead of four passes.
    """
    ended, began = pd.DatetimeIndex(calls["ended_at"]), pd.DatetimeIndex(calls["answered_at"])
    known = ~(ended.isna() | began.isna())
    ticks = ended.asi8 - began.asi8
    ticks *= known  # NaT's difference (wrapped round) never read: 0
    if ended.dtype != began.dtype or max(ticks.max(initial=0), -ticks.min(initial=0)) > 2**53:
        return bools((calls["ended_at"] - calls["answered_at"]).dt.total_seconds() >= seconds)
    per_second = int(np.timedelta64(1, "s") // np.timedelta64(1, ended.unit))
    if float(seconds).is_integer() and abs(seconds) * per_second < 2**51:
        whole_enough: Bools = known & (ticks >= int(seconds) * per_second)
        return whole_enough
    whole, rest = np.divmod(ticks, per_second)
    talk: Bools = known & (whole + rest / per_second >= seconds)
    return talk


FEW_CODES = 4
"""Most disposition codes an Arrow column is compared with one at a time rather than
looked up in a hash of them: a comparison is a pass over the bytes, about 2 ms for a
million calls, where ``isin`` hashes every call's text (about 11 ms)."""


def positive_calls(calls: pd.DataFrame, positive: Collection[str]) -> Bools:
    """Whether each call's disposition is one of ``positive``: compared code by code where
    they are few texts and the column is Arrow's (:data:`FEW_CODES`; the default three:
    7.5 against 14.4 ms for a million calls), else by ``isin``."""
    codes = checked_codes(positive)
    column = calls["disposition"]
    data = arrow_data(column)
    if (not 0 < len(codes) <= FEW_CODES or not all(isinstance(code, str) for code in codes)
            or not isinstance(data, pa.ChunkedArray | pa.Array)
            or not pa.types.is_string(data.type) and not pa.types.is_large_string(data.type)):
        return bools(column.isin(codes))
    found = functools.reduce(pc.or_, [pc.equal(data, code) for code in codes])
    return arrow_bools(found)


def checked_codes(positive: Collection[str]) -> list[str]:
    """``positive`` as a list, refusing a lone string (``"sale"`` would be five letters)."""
    if isinstance(positive, str):
        raise TypeError(f"positive= takes a collection of disposition codes: "
                        f"positive=({positive!r},), not positive={positive!r}")
    return list(positive)


def bools(mask: pd.Series) -> Bools:
    """A boolean column as a numpy array, null as False."""
    return np.asarray(mask.fillna(False).to_numpy(bool), np.bool_)
