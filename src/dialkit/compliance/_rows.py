"""The rows the audit takes of the prepared calls: the outbound ones by position, with the
findings' names (``phone``, ``at``) and only the columns its checks read of every call;
a few rows' ids, leads and other columns taken only where a finding or an abandoned call
needs them; the calls a live person answered, for abandonment and the population.

Rows are taken by position and Arrow text chunk by chunk, never by a boolean mask over
every row's text: the audit of a million calls spends its time in the checks, not here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np
import pandas as pd
import pyarrow as pa
from numpy.typing import NDArray

from .._arrays._kept import hash_taken
from .._phones._zones import Rows
from ._checks._abandonment import ANSWERED_COLUMNS, PLACE, live, place_codes
from ._checks._consent import PRERECORDED
from ._checks._frequency import SUBJECT
from ._checks._lead_of import lead_rows
from ._checks._texts import CHANNEL
from ._inputs._declared import read_by_rules
from ._rules._rules import Rules

READ_COLUMNS = (*read_by_rules("calls"), CHANNEL)
"""The calls' columns the checks read (and a text's channel); the others are taken only
for the abandoned calls."""
_SCANNED = ("from_number", "to_number", "created_at", "answered_at", "ended_at", "campaign_id",
            "disposition", SUBJECT, CHANNEL, PRERECORDED)
"""The calls' columns the checks read of every outbound call; the id (for the findings),
the direction and the join time (for the abandoned calls) are taken for a few rows."""
FEW_VALUED = ("campaign_id", "from_number", "disposition")
"""The calls' text columns of few distinct values (campaigns, caller ids, dispositions):
the checks group, count and compare them by their hash (:func:`hash_taken`), and the
Dask audit shuffles them as categories."""
_NAMES = {"id": "call_id", "to_number": "phone", "created_at": "at"}
_OWN_NAMES = {*_NAMES.values(), "lead_id"}
"""The names the audit gives columns of its own in what it answers of a call."""


def outbound_rows(prepared: pd.DataFrame, campaigns: Collection[str] | None) -> Rows:
    """The positions of the outbound calls (of ``campaigns``, if given), without a boolean
    mask over the rows' text."""
    direction = prepared["direction"]
    if isinstance(direction.dtype, pd.CategoricalDtype):  # the categories' text, not the rows'
        wanted = np.flatnonzero(direction.cat.categories.astype(str) == "outbound")
        keep = np.isin(direction.cat.codes.to_numpy(), wanted)
    else:
        keep = (direction.astype(str) == "outbound").to_numpy(dtype=bool)
    if campaigns is not None:
        keep = keep & prepared["campaign_id"].isin(campaigns).to_numpy(dtype=bool)
    return np.flatnonzero(keep)


def outbound_calls(prepared: pd.DataFrame, rows: Rows) -> pd.DataFrame:
    """The outbound calls at ``rows`` with the findings' names (``phone``, ``at``), only the
    columns the checks read of every call (:data:`_SCANNED`): the call's id and lead are
    named on the findings alone (:func:`with_ids`), and :func:`every_column` adds the rest
    to the abandoned calls. Rows are taken by position: a boolean mask took most of a
    second on a million calls, and taking every column (status, hangup cause, duration)
    another 0.2 s; the id and the lead of every call, 0.1 s more. Arrow text is filtered
    instead (:func:`_filtered`)."""
    outbound = columns_at(prepared, [c for c in prepared.columns if c in _SCANNED],
                          rows).rename(columns=_NAMES)
    for column, taken_from in (("phone", "to_number"), *((c, c) for c in FEW_VALUED)):
        hash_taken(outbound[column], prepared[taken_from], rows)
    return outbound


def call_ids(prepared: pd.DataFrame, rows: Rows) -> Callable[[Rows], NDArray[np.object_]]:
    """The ids of the outbound calls at the rows asked (positions among ``rows``), taken
    only when asked: the outbound calls keep none (:func:`outbound_calls`)."""
    return lambda at: np.asarray(values_at(prepared["id"], rows[at]), dtype=object)


def columns_at(frame: pd.DataFrame, columns: list[str], rows: Rows) -> pd.DataFrame:
    """The ``columns`` of ``frame`` at its ascending ``rows`` (:func:`_filtered`)."""
    keep = np.zeros(len(frame), bool)
    keep[rows] = True
    mask = pa.array(keep)
    return pd.DataFrame({c: _filtered(frame[c], rows, mask) for c in columns}, copy=False)


def _filtered(column: pd.Series, rows: Rows,
              keep: pa.BooleanArray) -> pd.api.extensions.ExtensionArray:
    """``column``'s ascending ``rows`` (``keep`` as a mask): Arrow text filtered chunk by
    chunk and joined into one chunk, where a take joins the chunks first (8.7 against 13 ms
    of CPU, 900,000 of a million numbers in 8 chunks); one chunk, so that each
    check's few rows are taken from it without joining them again."""
    if not (isinstance(column.dtype, pd.StringDtype) and column.dtype.storage == "pyarrow"):
        return column.array.take(rows)
    arrow = pa.chunked_array(column.array.__arrow_array__())
    return pd.array(arrow.filter(keep).combine_chunks(), dtype=column.dtype)


def with_ids(found: pd.DataFrame, prepared: pd.DataFrame, rows: Rows, outbound: pd.DataFrame,
             leads: pd.DataFrame | None, lead: Rows | None) -> pd.DataFrame:
    """Findings (or abandoned calls) of the ``outbound`` calls, indexed by position among
    them, with their ``call_id`` and ``lead_id`` (:func:`._lead_of.lead_rows`; ``lead``, where every
    call's lead was found already): looked up for these few rows only."""
    at = found.index.to_numpy()
    call_id = pd.Series(values_at(prepared["id"], rows[at]), index=found.index)
    if leads is None:
        return found.assign(call_id=call_id, lead_id=pd.NA)
    its = lead[at] if lead is not None else lead_rows(outbound, leads, at)
    lead_id = pd.Series(leads["lead_id"].array.take(its, allow_fill=True), index=found.index,
                        dtype=leads["lead_id"].dtype)
    return found.assign(call_id=call_id, lead_id=lead_id)


def values_at(column: pd.Series, at: Rows) -> pd.api.extensions.ExtensionArray:
    """``column.array.take(at)`` for a few rows; of an Arrow text column in chunks (as
    Parquet gives it), chunk by chunk: ``pyarrow`` joins a column's chunks to take from it,
    a copy of the whole column (6 ms for 8,000 of a million ids in 8 chunks; 0.9 ms chunk
    by chunk)."""
    arrow = column.array.__arrow_array__() if isinstance(column.dtype, pd.StringDtype) and (
        column.dtype.storage == "pyarrow") else None
    if not isinstance(arrow, pa.ChunkedArray) or arrow.num_chunks < 2:
        return column.array.take(at)
    sizes = np.array([len(chunk) for chunk in arrow.chunks])
    starts = np.cumsum(sizes) - sizes
    chunk = np.searchsorted(starts, at, side="right") - 1
    order = np.argsort(chunk, kind="stable")
    parts = [arrow.chunks[n].take(pa.array(at[order][chunk[order] == n] - starts[n]))
             for n in range(len(sizes))]
    back = np.empty(len(order), np.intp)
    back[order] = np.arange(len(order))
    joined = pa.chunked_array(parts, arrow.type).combine_chunks().take(pa.array(back))
    return pd.array(joined, dtype=column.dtype)


def every_column(taken: pd.DataFrame, prepared: pd.DataFrame, rows: Rows) -> pd.DataFrame:
    """Outbound calls as a check returned them (``taken``, indexed by position among the
    outbound calls, named by :func:`with_ids`), with every column of the calls again, in
    the calls' order, then ``lead_id`` and the columns the check added. Only the columns
    ``taken`` lacks are taken from the calls, chunk by chunk (:func:`take`). A column of
    the calls' own under a name the audit gives its own (``phone``, ``call_id``, ``at``,
    ``lead_id``: an export of another dialer's) is not read, so that a column no rule
    reads changes no answer: the number called is ``to_number``'s, the lead the one the
    audit found (:func:`with_ids`)."""
    at = rows[taken.index.to_numpy()]
    names = {c: _NAMES.get(c, c) for c in prepared.columns if c not in _OWN_NAMES}
    rest = pd.DataFrame({name: values_at(prepared[c], at) for c, name in names.items()
                         if name not in taken}, index=taken.index)
    added = [c for c in taken.columns if c not in names.values() and c != "lead_id"]
    return pd.concat([taken, rest], axis=1)[[*names.values(), "lead_id", *added]]


def answered_calls(prepared: pd.DataFrame, rows: Rows, rules: Rules) -> pd.DataFrame:
    """The calls answered by a live person among the outbound ones at ``rows``
    (:func:`._abandonment.live`), with the columns abandonment reads and the law's row of
    their number (:data:`._abandonment.PLACE`), indexed by their position among the
    outbound calls; their campaigns' hash is the calls' own, kept (:func:`hash_taken`),
    for the order of the campaigns."""
    where = live_at(prepared, rows)
    columns = [c for c in ANSWERED_COLUMNS if c in prepared]
    answered = columns_at(prepared, columns, rows[where]).set_axis(
        pd.RangeIndex(len(rows))[where])
    hash_taken(answered["campaign_id"], prepared["campaign_id"], rows[where])
    return answered.assign(**{PLACE: place_codes(answered["to_number"], rules).astype(np.int8)})


def live_at(prepared: pd.DataFrame, rows: Rows) -> Rows:
    """The positions among the outbound calls at ``rows`` of those a live person answered
    (:func:`._abandonment.live`): the one reading of a live answer, which abandonment's
    rate counts among and the population's ``answered`` counts too, so that the
    summary's answered calls are the findings' (a summary that counted
    voicemails said 7 of 93 where the finding said 7 of 71)."""
    found: Rows = np.searchsorted(rows, live(prepared, rows))
    return found
