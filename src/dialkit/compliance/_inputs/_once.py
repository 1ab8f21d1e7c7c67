"""A call is one call however often it was exported.

Two overlapping exports concatenated hold some calls twice, and each copy counted toward
Florida's cap: another call became a false ``call_frequency`` finding. Rows of one call
id are one call: identical rows are read once (the report's notes say how many were
repeats), and rows of one id that differ are refused naming the id, for which of them
tells the call is not the audit's to guess.

The rows are compared by hashes (:func:`call_keys`: the id's, and the whole row's as the
audit reads it, times in UTC), so that the same function finds the repeats of a pandas
frame at once and of a Dask frame once every row of an id is shuffled to one partition
(:func:`repeats`); only the rows of ids held more than once are compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..._arrays._kept import hashed
from ..._utils._base_error import AuditInputError

ID = "_id"
"""The hash of a call's id: what the rows of one call are gathered by."""
ROW = "_row"
"""The hash of a call's whole row, as the audit reads it."""
AT = "_at"
"""A row's place: its position on pandas, its partition and position on Dask."""
REPEATED = "repeated_calls"
"""The key of the report's note of the rows read once."""


def call_keys(calls: pd.DataFrame, at: np.ndarray[Any, Any]) -> pd.DataFrame:
    """Each row of ``calls`` that has an id (prepared: times in UTC, so one time written
    two ways is one) as the hash of its id and of its whole row, with its place (``at``,
    every row's). A row of no id names no call to be one with: it is kept as it is."""
    has = calls["id"].notna().to_numpy(bool)
    calls = calls if has.all() else calls[has]
    ids = pd.util.hash_array(calls["id"].astype(object).to_numpy())
    return pd.DataFrame({ID: ids.view(np.int64), ROW: _row_hashes(calls).view(np.int64),
                         AT: np.asarray(at, np.int64)[has]})


def _row_hashes(calls: pd.DataFrame) -> np.ndarray[Any, Any]:
    """Each row's hash over every column; a column of values pandas cannot hash (lists,
    mappings) by their text."""
    try:
        hashes = pd.util.hash_pandas_object(calls, index=False)
    except TypeError:
        hashes = pd.util.hash_pandas_object(calls.astype(str), index=False)
    return np.asarray(hashes, np.uint64)


def repeats(keys: pd.DataFrame) -> pd.DataFrame:
    """Of ``keys`` (:func:`call_keys`; every row of an id among them), the places of the
    rows that repeat an earlier row of their id (``again``: read once) and of every row of
    an id whose rows differ (``differs``); none of an id held once."""
    shared = keys[keys[ID].duplicated(keep=False).to_numpy()].sort_values(AT, kind="stable")
    differs = shared.groupby(ID)[ROW].transform("nunique").to_numpy() > 1
    again = shared.duplicated([ID, ROW]).to_numpy() & ~differs
    found = pd.DataFrame({AT: shared[AT].to_numpy(), "again": again, "differs": differs})
    return found[again | differs].reset_index(drop=True)


def kept(calls: pd.DataFrame, at: np.ndarray[Any, Any], found: pd.DataFrame) -> Any:
    """Which rows of ``calls`` (whose places are ``at``) are read: all but the repeats
    ``found`` (:func:`repeats`, of these rows and perhaps others); None where all are.

    Raises:
        AuditInputError: A row of an id whose rows differ is among ``calls``, naming it.
    """
    if not len(found):
        return None
    differ = np.isin(at, found.loc[found["differs"], AT].to_numpy())
    if differ.any():
        call = calls["id"].iloc[int(np.flatnonzero(differ)[0])]
        raise AuditInputError(
            f"calls holds rows of call id {call} that differ: a call is one row (a call "
            "exported twice is read once where its rows are equal); keep the row that "
            "tells the call and drop the others", frame="calls")
    keep = ~np.isin(at, found.loc[found["again"], AT].to_numpy())
    return None if keep.all() else keep


def once_each(calls: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """``calls`` (prepared) with each call's repeated rows read once, and how many rows
    were so dropped; a frame of no repeated id as it is (its ids' hash looked at, no row
    hashed).

    Raises:
        AuditInputError: Rows of one id differ, naming it.
    """
    if _each_once(calls["id"]):
        return calls, 0
    at = np.arange(len(calls))
    found = repeats(call_keys(calls, at))
    keep = kept(calls, at, found)
    read = calls if keep is None else calls[keep].reset_index(drop=True)
    return read, int(found["again"].sum())


def _each_once(ids: pd.Series) -> bool:
    """Whether no id is held twice: by the ids' hash (:func:`dialkit._arrays._kept.hashed`),
    kept while the column's data live, so that an audit of the same calls again pays
    nothing (``duplicated`` took 0.25 s of a million ids, where the warm audit of a
    million calls takes 0.5 s)."""
    codes, distinct = hashed(ids)
    return len(distinct) == int(np.count_nonzero(codes >= 0))


def repeated_note(count: int) -> dict[str, str]:
    """The report's note of ``count`` rows that repeated a call's (none where none did)."""
    if not count:
        return {}
    rows = "row repeats" if count == 1 else "rows repeat"
    return {REPEATED: f"{count:,} {rows} another of its call id, whole (a call exported "
                      "twice): each call was read once"}
