"""``funnel``: where a campaign loses its leads, stage by stage.

Each stage counts the leads that reached the stage before it and meet its own
condition; a lead that meets a stage's condition without having reached the
stage before it (a callback booked for a lead nobody dialled) is not counted
there but in ``skipped``, so every stage is part of the one before it and the
rates never exceed 1.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import Any, Literal, overload

import numpy as np
import pandas as pd

from .._parallel._partitions import Lazy, Plan, on_dask, read_whole, register
from .._parallel._threads import in_background
from .._places._states import state_of
from .._utils._base_error import InputError
from ..frames import as_pandas, maybe_pandas
from ._inputs._inputs import FUNNEL_LEADS, POSITIVE, Bools, prepared
from ._inputs._match import Ints, Matched, campaign_codes, codes_ahead, contained, keyable, matched
from ._reach import CALL_STAGES, NESTED_STAGES, call_stages

STAGES = ("leads", *CALL_STAGES, "booked")
"""The funnel's stages, in order."""
CONVERSATION_SECONDS = 30
"""Talk time (``ended_at - answered_at``) from which an answered call is a conversation."""


@overload
def funnel(leads: pd.DataFrame, calls: pd.DataFrame, *,
           callbacks: pd.DataFrame | None = ..., appointments: pd.DataFrame | None = ...,
           conversation_seconds: float = ..., positive: Collection[str] = ...,
           by: Sequence[str] = ..., compute: Literal[True] = ...) -> pd.DataFrame: ...
@overload
def funnel(leads: pd.DataFrame, calls: pd.DataFrame, *,
           callbacks: pd.DataFrame | None = ..., appointments: pd.DataFrame | None = ...,
           conversation_seconds: float = ..., positive: Collection[str] = ...,
           by: Sequence[str] = ..., compute: bool) -> pd.DataFrame | Lazy[pd.DataFrame]: ...
def funnel(leads: pd.DataFrame, calls: pd.DataFrame, *,
           callbacks: pd.DataFrame | None = None, appointments: pd.DataFrame | None = None,
           conversation_seconds: float = CONVERSATION_SECONDS,
           positive: Collection[str] = POSITIVE, by: Sequence[str] = (),
           compute: bool = True) -> pd.DataFrame | Lazy[pd.DataFrame]:
    """Per campaign, how many leads reached each stage, and the rates between stages.

    The stages: ``leads``; ``dialled`` (an outbound call of the lead's campaign went
    to its phone: calls carry no lead id); ``answered`` (one of those calls has an
    ``answered_at``); ``conversation`` (talk time, ``ended_at - answered_at``, of at
    least ``conversation_seconds``); ``positive`` (a call's disposition is one of
    ``positive``); ``booked`` (a callback for the lead, by ``lead_id``, or an
    appointment for its phone: appointments carry no lead or campaign). Only
    outbound calls count. Callbacks and appointments of every status count: filter
    the frames first to count, say, only pending ones.

    Every frame may also be a Polars DataFrame or a pyarrow Table, with the same answer.

    Args:
        leads: ``client.frames.leads()`` or an export with its columns; or a Dask
            DataFrame of them, or the path of a Parquet dataset of them
            (:func:`dialkit.frames.export`'s ``leads``), read with Dask when it is
            installed (``docs/scale.md``), else with pandas.
        calls: ``client.frames.calls()`` (inbound calls are left out); or as ``leads``.
        callbacks: ``client.frames.callbacks(...)``; without it (and
            ``appointments``) the ``booked`` stage counts nothing.
        appointments: ``client.frames.appointments()``.
        conversation_seconds: The talk time that makes a conversation.
        positive: The disposition codes that are a positive outcome.
        by: ``("state",)`` for a funnel per campaign and state of the lead's ``phone``
            (:func:`state_of`: its US state or Canadian province), a ``state`` column
            first (missing for the leads of no state); pandas' frames only.
        compute: For Dask's input: ``False`` returns the lazy Dask frame of the answer
            (typed ``Lazy[pd.DataFrame]``); pandas' input is counted at once either way.

    Returns:
        One row per campaign (sorted) and stage: ``campaign_id``, ``stage`` (an
        ordered categorical of :data:`STAGES`), ``leads`` (the count), ``skipped``
        (leads meeting the stage's condition without the stage before it),
        ``rate`` (of the stage before; NaN when that is 0) and ``overall`` (of
        the campaign's leads).

    Raises:
        AnalyticsInputError: A frame lacks a column this needs.
        ValueError: ``by`` names anything but ``state``, or comes with Dask's frames.
        TypeError: A frame is neither pandas', Polars' nor a pyarrow Table.

    Examples:
        >>> client = dialkit.Client.sandbox()
        >>> table = funnel(client.frames.leads(), client.frames.calls())
        >>> table.pivot(index="campaign_id", columns="stage", values="leads").columns.tolist()
        ['leads', 'dialled', 'answered', 'conversation', 'positive', 'booked']
        >>> client.close()
    """
    if by:
        return _by_state(leads, calls, by, callbacks=callbacks, appointments=appointments,
                         conversation_seconds=conversation_seconds, positive=positive)
    if on_dask((leads, calls), compute):
        from . import _dask  # Dask is imported for Dask's frames only
        return _dask.funnel(leads, calls, compute=compute, callbacks=callbacks,
                            appointments=appointments,
                            conversation_seconds=conversation_seconds, positive=positive)
    leads, calls = as_pandas(read_whole(leads), "leads"), as_pandas(read_whole(calls), "calls")
    callbacks = maybe_pandas(callbacks, "callbacks")
    appointments = maybe_pandas(appointments, "appointments")
    options: dict[str, Any] = {"callbacks": callbacks, "appointments": appointments,
                               "conversation_seconds": conversation_seconds,
                               "positive": positive}
    ahead = codes_ahead(leads, calls)  # the phones', in another thread
    stages = call_stages(calls, conversation_seconds=conversation_seconds, positive=positive)
    campaign_codes(leads, calls)  # in this one meanwhile
    if not all(codes.done() for codes in ahead):
        _appointments_ahead(leads, appointments)
    for codes in ahead:
        codes.result()
    return FUNNEL.local(leads, stages, **options)


def _by_state(leads: pd.DataFrame, calls: pd.DataFrame, by: Sequence[str],
              **options: Any) -> pd.DataFrame:
    """:func:`funnel` of the leads of each state apart, stacked under a ``state`` column:
    a lead's calls are those of its campaign to its phone, so the leads of one state
    reach their stages on their own calls only."""
    if ([by] if isinstance(by, str) else list(by)) != ["state"]:
        raise InputError(f"funnel's by= takes ('state',), not {tuple(by)!r}: the funnel is "
                         "per campaign already; filter the leads first for another split")
    if on_dask((leads, calls), True):
        raise InputError("funnel(by=('state',)) takes pandas' frames: pass "
                         "leads.compute() and calls.compute(), or filter the Dask frames "
                         "by dialkit.analytics.state_of first")
    leads = as_pandas(read_whole(leads), "leads")
    states = state_of(prepared(leads, ("phone",), "leads")["phone"])
    parts = {state: funnel(leads.take(rows), calls, **options) for state, rows in
             leads.groupby(states.to_numpy(), dropna=False, sort=True).indices.items()}
    table = pd.concat(parts.values(), ignore_index=True)
    table.insert(0, "state", pd.array(np.repeat([None if pd.isna(s) else s for s in parts],
                                                [len(p) for p in parts.values()]),
                                      "string[pyarrow]"))
    return table


def campaign_stages(leads: pd.DataFrame, stages: pd.DataFrame, *,
                    callbacks: pd.DataFrame | None, appointments: pd.DataFrame | None,
                    **_: Any) -> pd.DataFrame:
    """The funnel of the campaigns of ``leads``, which must come with the :func:`call_stages`
    of every call of those campaigns (``stages`` may hold others'); callbacks and
    appointments whole."""
    lead_frame = prepared(leads, FUNNEL_LEADS, "leads")
    booked = in_background(functools.partial(  # the columns taken here, each thread its own
        _booked, lead_frame["id"], lead_frame["phone"], callbacks, appointments))
    bits = stages["stages"].to_numpy(np.uint8)
    keyed = matched(lead_frame, stages, bits != 0)
    reached = keyed.reached(bits, NESTED_STAGES)
    conditions = [np.ones(len(lead_frame), bool),
                  *[reached & (1 << n) != 0 for n in range(len(CALL_STAGES))],
                  booked.result()]
    return _table(keyed, conditions)


def by_campaign(tables: pd.DataFrame, **_: Any) -> pd.DataFrame:
    """Funnel tables of parts holding distinct campaigns, stacked, as one sorted by
    campaign (each campaign's stages in order)."""
    return tables.sort_values("campaign_id", kind="stable", ignore_index=True)


FUNNEL = register(Plan("funnel", campaign_stages, by_campaign, key="campaign_id"))
"""The funnel of each campaign needs its leads and its calls' stages together; campaigns
apart."""


def _appointments_ahead(leads: pd.DataFrame, appointments: pd.DataFrame | None) -> None:
    """:func:`_booked`'s lookup of the leads' phones among the appointments', kept for it
    (where it would be): a funnel's own thread does it while the other still finds the
    phones' codes, where :func:`campaign_stages` would do it beside the match (a cold
    funnel 89.4 against 95.0 and 102.6 against 106.8 ms, 21 rounds interleaved in one
    process, twice). The callbacks' lookup, twice as long, outlasts the codes there."""
    if appointments is not None:
        for columns in keyable(leads, appointments, "phone", "phone"):
            contained(*columns)


def _booked(ids: pd.Series, phones: pd.Series, callbacks: pd.DataFrame | None,
            appointments: pd.DataFrame | None) -> Bools:
    """Per lead (its ``id`` and ``phone``): a callback names it, or an appointment is for
    its phone. Run beside the matching of the calls (:func:`campaign_stages`): its lookups
    are Arrow kernels, which release the GIL."""
    booked = np.zeros(len(ids), bool)
    if callbacks is not None:
        booked |= contained(ids, prepared(callbacks, ("lead_id",), "callbacks")["lead_id"])
    if appointments is not None:
        booked |= contained(phones, prepared(appointments, ("phone",), "appointments")["phone"])
    return booked


def _table(keyed: Matched, conditions: list[Bools]) -> pd.DataFrame:
    """The tidy table from each stage's condition per lead."""
    counts, skipped = _counts(keyed, conditions)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.vstack([np.full(len(keyed.campaigns), np.nan), counts[1:] / counts[:-1]])
        overall = counts / counts[0]
    rate[np.vstack([np.zeros((1, counts.shape[1]), bool), counts[:-1] == 0])] = np.nan
    overall[:, counts[0] == 0] = np.nan
    stage = pd.Categorical(np.tile(STAGES, len(keyed.campaigns)), categories=STAGES,
                           ordered=True)
    return pd.DataFrame({
        "campaign_id": pd.array(np.repeat(keyed.campaigns, len(STAGES)), "string[pyarrow]"),
        "stage": stage, "leads": counts.T.ravel(), "skipped": skipped.T.ravel(),
        "rate": rate.T.ravel(), "overall": overall.T.ravel()})


def _counts(keyed: Matched, conditions: list[Bools]) -> tuple[Ints, Ints]:
    """Per stage (rows) and campaign: the leads that reach the stage, and those that meet
    its condition without having reached the stage before (``skipped``). Each lead's
    conditions are read as one number, a bit a stage; the leads of each campaign are
    counted once per number, and every stage's counts summed from those: one pass over
    the leads instead of eleven (2.2 against 9.7 ms for 200,000 leads). The number is
    built a byte a lead (a bool's byte is 0 or 1), not eight: with the campaigns' count
    (:meth:`Matched.per_campaign`) 1.2 against 2.5 ms."""
    kinds = 1 << len(conditions)
    kind = np.zeros(len(conditions[0]), np.min_scalar_type(kinds - 1))
    for bit, condition in enumerate(conditions):
        kind |= condition.view(np.uint8) << bit
    met = (np.arange(kinds)[:, None] >> np.arange(len(conditions))) & 1 == 1  # kind, stage
    reached = np.logical_and.accumulate(met, axis=1)
    skipped = met & ~np.hstack([np.ones((kinds, 1), bool), reached[:, :-1]])
    table = keyed.per_campaign(kind, kinds)
    return (table @ reached).T, (table @ skipped).T


def biggest_loss(table: pd.DataFrame) -> pd.DataFrame:
    """Per campaign, the stage where it loses leads most against the rest of the account:
    the stage whose ``rate`` (of the stage before) is furthest below the account's median
    ``rate`` for that stage.

    The share of leads lost is largest at the same late stage for almost every campaign
    (few leads book), so it tells campaigns apart by nothing; measured against the
    account's median at each stage, each campaign's weakest step shows. The median of a
    stage is over the campaigns whose rate there is defined (not NaN: the stage before
    has leads), so a campaign never dialled sets no median past ``dialled``. On a tie the
    earlier stage is named. A campaign at or above the median at every stage has no
    biggest loss (null), as has every campaign of an account of one campaign.

    Args:
        table: What :func:`funnel` returns (``campaign_id``, ``stage``, ``rate``); filter
            it first to compare only some campaigns (say, those that have dialled).

    Returns:
        One row per campaign (sorted): ``campaign_id``, ``biggest_loss`` (the stage, an
        ordered categorical of :data:`STAGES`; null when none is below the median),
        ``rate`` (the campaign's rate at that stage), ``median`` (the account's) and
        ``shortfall`` (``median - rate``; NaN where there is no such stage).

    Examples:
        >>> import dialkit.analytics
        >>> client = dialkit.Client.sandbox()
        >>> frames = dialkit.analytics.load(client)
        >>> biggest_loss(funnel(**frames)).columns.tolist()
        ['campaign_id', 'biggest_loss', 'rate', 'median', 'shortfall']
        >>> client.close()
    """
    frame = prepared(table, ("campaign_id", "stage", "rate"), "table", "funnel(...)")
    rates = frame.assign(stage=frame["stage"].astype(str)).pivot(
        index="campaign_id", columns="stage", values="rate").reindex(columns=list(STAGES[1:]))
    values = rates.to_numpy(np.float64, na_value=np.nan)
    median = rates.median().to_numpy(np.float64, na_value=np.nan)
    with np.errstate(invalid="ignore"):
        shortfall = np.where(median - values > 0, median - values, np.nan)
    pick = np.where(np.isnan(shortfall), -np.inf, shortfall).argmax(axis=1)
    found = ~np.isnan(shortfall).all(axis=1)
    rows = np.arange(len(values))
    return pd.DataFrame({
        "campaign_id": pd.array(rates.index.astype(str), "string[pyarrow]"),
        "biggest_loss": pd.Categorical.from_codes(np.where(found, pick + 1, -1),
                                                  categories=STAGES, ordered=True),
        "rate": np.where(found, values[rows, pick], np.nan),
        "median": np.where(found, median[pick], np.nan),
        "shortfall": np.where(found, shortfall[rows, pick], np.nan)})
