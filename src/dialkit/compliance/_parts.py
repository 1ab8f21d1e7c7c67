"""The audit in parts, for Dask: the pandas path's functions over partitions of the frames.

Every rule but one looks at one number at a time (its calls, its leads, its DNC results),
so the audit of a partition that holds all rows of some numbers is those numbers' share
of the whole audit (:func:`numbers_part`, which is the pandas path's
:func:`._audit.audited`). The one exception is abandonment, whose rate is over a
campaign's answered calls: :func:`campaign_part` finds each abandoned call's window over
a partition that holds whole campaigns, and the windows are then shuffled on the number
like the rest. The functions here only prepare partitions (the pandas path's
``prepared_*`` functions, plus each row's place in the frame and the key it is shuffled
on) and hand them to the pandas path; :mod:`._dask` builds the Dask graph of them.

Rows are put back in the frame's order (:data:`ORDER`) before a part runs, so that what
depends on order (the first lead with a number, ties in time) is decided as on pandas.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._partitions import Plan, register
from . import _checks as checks
from ._audit import (
    Options,
    Part,
    answered_calls,
    audited,
    outbound_rows,
    prepared_calls,
    prepared_dnc,
    prepared_leads,
    report,
)
from ._rules import Rules

NUMBER = "_number"
"""The column the calls, leads, DNC results and windows are shuffled on: the number called."""
CAMPAIGN = "_campaign"
"""The column the answered calls are shuffled on: the campaign (no campaign as ``""``,
as abandonment groups it)."""
ORDER = "_order"
"""Each call's and lead's place in its frame: partition number, then row."""
_ROWS_PER_PARTITION = 2**32


def outbound_part(calls: pd.DataFrame, *, campaigns: frozenset[str] | None,
                  partition_info: dict[str, Any] | None = None) -> pd.DataFrame:
    """A partition's outbound calls (of ``campaigns``, if given), prepared, with every
    column, their :data:`ORDER` and :data:`NUMBER`."""
    prepared = prepared_calls(calls)
    rows = outbound_rows(prepared, campaigns)
    return prepared.take(rows).assign(**{ORDER: _ordinals(rows, partition_info),
                                         NUMBER: prepared["to_number"].take(rows).array})


def leads_part(leads: pd.DataFrame, *, campaigns: frozenset[str] | None,
               partition_info: dict[str, Any] | None = None) -> pd.DataFrame:
    """A partition's leads (of ``campaigns``, if given), prepared, with :data:`ORDER` and
    :data:`NUMBER`."""
    prepared = prepared_leads(leads.reset_index(drop=True), campaigns)
    assert prepared is not None
    rows = prepared.index.to_numpy()
    return prepared.reset_index(drop=True).assign(**{
        ORDER: _ordinals(rows, partition_info), NUMBER: prepared["phone"].array})


def dnc_part(dnc: pd.DataFrame) -> pd.DataFrame:
    """A partition's DNC results, prepared, with :data:`NUMBER`."""
    prepared = prepared_dnc(dnc)
    assert prepared is not None
    return prepared.assign(**{NUMBER: prepared["phone"].array})


def answered_part(outbound: pd.DataFrame) -> pd.DataFrame:
    """The answered calls of a partition of :func:`outbound_part`, with the columns
    abandonment reads, their :data:`ORDER`, :data:`NUMBER` and :data:`CAMPAIGN`."""
    answered = answered_calls(outbound, np.arange(len(outbound)))
    at = answered.index.to_numpy()
    campaign = answered["campaign_id"].astype(object).where(answered["campaign_id"].notna(), "")
    return answered.reset_index(drop=True).assign(**{
        ORDER: outbound[ORDER].to_numpy()[at], NUMBER: outbound[NUMBER].array.take(at),
        CAMPAIGN: campaign.to_numpy(object)})


def campaign_part(answered: pd.DataFrame, *, rules: Rules, joined: bool) -> pd.DataFrame:
    """The windows of the abandoned calls among ``answered`` (:func:`answered_part`'s rows
    of whole campaigns), with their :data:`ORDER` and :data:`NUMBER`."""
    answered = _in_order(answered)
    windows = checks.abandonment_windows(answered, rules, bool(joined))
    at = windows.index.to_numpy()
    return windows.reset_index(drop=True).assign(**{
        ORDER: answered[ORDER].to_numpy()[at], NUMBER: answered[NUMBER].array.take(at)})


def numbers_part(calls: pd.DataFrame, leads: pd.DataFrame | None, dnc: pd.DataFrame | None,
                 windows: pd.DataFrame, *, options: Options, joined: bool) -> Part:
    """The audit of the numbers of a partition: all their outbound calls
    (:func:`outbound_part`), leads, DNC results and abandoned calls' windows
    (:func:`campaign_part`); the abandoned calls indexed by their :data:`ORDER`."""
    calls = _in_order(calls)
    order = calls[ORDER].to_numpy()
    windows = windows[list(checks.WINDOW_COLUMNS)].set_axis(
        pd.Index(order).get_indexer(windows[ORDER]))
    if leads is not None:
        leads = _in_order(leads).drop(columns=[ORDER, NUMBER])
    part = audited(calls.drop(columns=[ORDER, NUMBER]), np.arange(len(calls)), leads,
                   None if dnc is None else dnc.drop(columns=[NUMBER]), windows,
                   options=options, joined=bool(joined))
    abandoned = part.abandoned.set_axis(order[part.abandoned.index.to_numpy()])
    return Part(part.findings, abandoned, part.population)


def _in_order(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame``'s rows in their frame's order (:data:`ORDER`), indexed by position; a
    shuffle mostly keeps them so, and then nothing is copied."""
    if frame[ORDER].is_monotonic_increasing:
        return frame.reset_index(drop=True)
    return frame.sort_values(ORDER, kind="stable", ignore_index=True)


def _ordinals(rows: np.ndarray[Any, Any], partition_info: dict[str, Any] | None) -> Any:
    """The :data:`ORDER` of a partition's ``rows``."""
    number = 0 if partition_info is None else int(partition_info["number"])
    return rows.astype(np.int64) + number * _ROWS_PER_PARTITION


def every_window(windows: pd.DataFrame, *, rules: Rules, joined: bool) -> pd.DataFrame:
    """The windows of every campaign: the parts' stacked, as they are (each campaign's
    are in one part)."""
    return windows


WINDOWS = register(Plan("audit:abandonment", campaign_part, every_window, key=CAMPAIGN))
"""The abandoned calls' windows, campaign by campaign."""
AUDIT = register(Plan("audit", numbers_part, report, key=NUMBER, stacked=False))
"""The audit, number by number."""
