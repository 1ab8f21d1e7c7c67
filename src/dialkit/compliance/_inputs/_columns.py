"""The audit's inputs checked column by column, where they are read.

Each column the audit reads must hold what ``client.frames`` gives: text (ids, numbers
called, campaigns, statuses), times (checked by :func:`dialkit.frames.utc_times`),
numbers (``duration_seconds``) and true/false (``listed``). Ids or a direction held as
numbers were audited as nothing at all, and phone numbers held as integers ended in a
traceback deep in pyarrow. Each is refused with a :class:`ColumnError` (which
:class:`~dialkit.compliance.AuditInputError` carries with the frame's name) naming the
column, the first value at fault and its row, and what to write instead. The text and the dataset's
checks are the shared ones (:mod:`dialkit._arrays._checked`), which the analytics apply too.

A row whose times cannot both be true (:data:`ORDERS`: a number listed after the check
that found it listed, a consent revoked before it was given, a contract ended before it
was signed) is refused too, naming the
row: read as it stands, the later ``listed_at`` let the calls before it pass.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pandas as pd
from pyarrow import ArrowInvalid

from ..._arrays._checked import check_text, checked_dataset, first_row
from ..._utils._base_error import ColumnError
from ..._utils._moments import utc_times
from ._declared import INPUTS, TIME_TYPE, declared
from ._vocabulary import Values, named, read_named

TEXTS = {name: declared(name, "text", "phone") for name in INPUTS}
"""The text columns of each frame the audit reads (where the frame has them)."""
ORDERS = {"dnc": ("listed_at", "checked_at", "a number cannot be listed after the check "
                   "that found it listed"),
          "consents": ("given_at", "revoked_at", "a consent cannot be revoked before it "
                       "was given"),
          "contracts": ("signed_at", "ends_at", "a contract cannot end before it was "
                        "signed"),
          "emergencies": ("starts_at", "ends_at", "an emergency cannot end before it "
                          "began")}
"""Of each frame, two times of a row that must come in this order (the first at or before
the second, where both are known), and why: every dated interval of the evidence is read
alike, by every judge (``audit``, ``next_allowed``, ``upcoming``, ``repair``,
the guard), since each reads its frames through :func:`typed`. A contract that "ended"
before it was signed lifted Canada's DNCL where consents and emergencies refused the same
inversion."""
BOOLEANS = {name: declared(name, "boolean") for name in INPUTS}
"""The true/false columns: the DNC results' ``listed``, the calls' ``prerecorded``."""
PHONES = {name: declared(name, "phone") for name in INPUTS}
_TRUE = frozenset({"true", "1", "yes", "t", "y"})
_FALSE = frozenset({"false", "0", "no", "f", "n"})


def typed(frame: pd.DataFrame, name: str, values: Values = None) -> pd.DataFrame:
    """``frame`` (a copy the caller owns) read by its declaration (:mod:`._declared`): its
    times in UTC as :data:`._declared.TIME_TYPE`, its text columns checked, its numbers
    (``duration_seconds``) as numbers and :data:`BOOLEANS` as booleans (as a CSV writes
    them), its named columns through the vocabulary, with the user's ``values``
    (:func:`._vocabulary.read_named`).

    Raises:
        ColumnError: A column holds another kind of value, or a row two times that cannot
            both be true (:data:`ORDERS`); the message names it.
        AuditInputError: A record's named column holds a value not understood.
    """
    for column in (c for c in declared(name, "time") if c in frame):
        frame[column] = _times(frame[column], f"{name}.{column}")
    for column in (c for c in TEXTS[name] if c in frame):
        check_text(frame[column], f"{name}.{column}", column in PHONES[name])
    for column in (c for c in declared(name, "number") if c in frame):
        frame[column] = _numbers(frame[column], f"{name}.{column}")
    for column in (c for c in BOOLEANS[name] if c in frame):
        if not pd.api.types.is_bool_dtype(frame[column]):
            frame[column] = _booleans(frame[column], f"{name}.{column}")
    _check_order(frame, name)
    return read_named(frame, name, values)


def _times(column: pd.Series, where: str) -> pd.Series:
    """``column`` as UTC times of :data:`._declared.TIME_TYPE` whatever resolution it came
    in, so that the audit's parts compare and join times of every frame alike."""
    read = utc_times(column, where)
    return read if read.dtype == TIME_TYPE else read.astype(TIME_TYPE)


def _check_order(frame: pd.DataFrame, name: str) -> None:
    """Refuse a row whose two times of :data:`ORDERS` come the wrong way round (times in
    UTC, as the audit reads them), naming the frame, the column and the row."""
    if name not in ORDERS or not {ORDERS[name][0], ORDERS[name][1]} <= set(frame):
        return
    first, then, why = ORDERS[name]
    wrong = (frame[first] > frame[then]).fillna(False).to_numpy(bool)
    if wrong.any():
        at = first_row(pd.Series(wrong))
        raise ColumnError(f"{name}.{first} holds {frame[first].iloc[at]} at row {at}, after "
                          f"the row's {then} ({frame[then].iloc[at]}): {why}; correct the "
                          "row (an unknown time is an empty cell, never a guess)")


def _numbers(column: pd.Series, where: str) -> pd.Series:
    """``column`` as numbers (a CSV's text read as such); text that is no number refused."""
    if pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(
            column.dtype):
        return column
    read = pd.to_numeric(column.astype(object), errors="coerce").astype("Float64")
    wrong = read.isna().to_numpy(bool) & column.notna().to_numpy(bool)
    if wrong.any():
        at = first_row(pd.Series(wrong))
        raise ColumnError(f"{where} holds {column.iloc[at]!r} at row {at}, which is not a "
                          "number of seconds: write it as a number (12 or 12.5), or leave "
                          "the cell empty")
    return read


def _booleans(column: pd.Series, where: str) -> pd.Series:
    """``column`` as booleans: ``true``/``false`` as a CSV export writes them (``1``,
    ``yes``, ``t`` too), missing where empty; anything else refused, where it was read as
    missing (a listed number taken for one not checked)."""
    text = column.astype(object).map(lambda v: None if pd.isna(v) else str(v).strip().casefold())
    read = text.map(lambda v: True if v in _TRUE else False if v in _FALSE else None)
    wrong = read.isna().to_numpy(bool) & text.notna().to_numpy(bool)
    if wrong.any():
        at = first_row(pd.Series(wrong))
        raise ColumnError(f"{where} holds {column.iloc[at]!r} at row {at}: write true or "
                          "false (or leave the cell empty where it is not known)")
    return read.astype("boolean")


def reduced(frame: object, name: str, reduce: Callable[[Any], Any]) -> Any:
    """``reduce`` of the column ``name`` of an input in any form the audit takes it: a
    pandas or Dask frame (reduced on Dask, then computed: a count, a few values, never
    the column), or a Parquet dataset's path (that column alone read); None where the
    input has no such column."""
    if isinstance(frame, (str, os.PathLike)):
        try:
            frame = pd.read_parquet(frame, columns=[name])
        except (KeyError, ValueError, ArrowInvalid):  # a dataset without the column
            return None
    if name not in getattr(frame, "columns", ()):
        return None
    answer = reduce(frame[name])  # type: ignore[index]
    return answer.compute() if hasattr(answer, "compute") else answer


__all__ = ["checked_dataset", "named", "typed"]  # the shared check, upcoming's named: ours
