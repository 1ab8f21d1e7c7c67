"""What every rule's findings share: their columns, and the whole-column helpers the
rules group, sort and compare calls with (none loops over calls in Python)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from ..._arrays._bools import arrow_bools
from ..._arrays._codes import codes_of
from ..._arrays._kept import hashed
from .._rules._rules import ACCOUNT_RULES, RISK_RULES, SEVERITY

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Rows = NDArray[np.intp]

COLUMNS = ("rule", "severity", "campaign_id", "call_id", "lead_id", "phone", "at",
           "local_time", "timezone", "evidence", "jurisdiction", "decided_by", "basis",
           "policy", "citation")
"""The columns every finding has, whatever its rule. ``jurisdiction`` and ``decided_by``
name the row of the law of the place called that decided (:func:`._law.deciders`); they
are missing for the findings no row decides (DNC, caller id, abandonment, ...).
``basis`` says whether law or the account's policy decides the finding, and ``policy``
names the policy (missing for law's findings); ``citation`` names the section of law that
decides a finding of law (missing for policy's)."""
_LAW = ("jurisdiction", "decided_by", "basis", "policy", "citation")
_NO_TIME = "datetime64[us, UTC]"
"""The ``at`` of a lead's finding, which has no moment: typed as the calls' times, so that
the findings' ``at`` stays a time column (``None`` made it text-like, and the report's
charts by day failed on it)."""


def findings(rule: str, rows: pd.DataFrame, evidence: pd.Series,
             **extra: pd.Series) -> pd.DataFrame:
    """Findings of ``rule`` for ``rows`` (calls or leads with the common columns; the
    law's columns text, missing where ``rows`` lack them). Where ``rows`` do not say
    their ``basis``, the rule does: the account's own settings' rules
    (:data:`._rules.ACCOUNT_RULES`) are policy, the leads' rules
    (:data:`._rules.RISK_RULES`) risks, the others (Do-Not-Call, abandonment) law."""
    law = {column: rows.get(column) for column in _LAW}
    if "basis" not in rows:  # the rule's, as scalars: no copy of ``rows`` to add them
        law.update(basis=_basis_of(rule), policy=ACCOUNT_RULES.get(rule))
    frame = pd.DataFrame({
        "rule": rule, "severity": SEVERITY[rule],
        "campaign_id": rows.get("campaign_id"), "call_id": rows.get("call_id"),
        "lead_id": rows.get("lead_id"), "phone": rows.get("phone"),
        "at": rows["at"] if "at" in rows else pd.Series(pd.NaT, index=rows.index, dtype=_NO_TIME),
        "local_time": rows.get("local_time"), "timezone": rows.get("timezone"),
        "evidence": evidence, **{column: _texts(value, rows.index)
                                 for column, value in law.items()},
        **extra}, index=rows.index, copy=False)
    return frame


def _texts(value: pd.Series | str | None, index: pd.Index) -> pd.Series:
    """A law column (``rows``' own, or the rule's one text or none) as text on ``index``:
    one text repeated in Arrow, where a Series of a scalar made an Arrow scalar and
    a Python list of it (a third of a millisecond each, five a rule, a dozen rules a
    part of the Dask audit)."""
    if isinstance(value, pd.Series):
        return pd.Series(value, index=index, dtype="str")
    repeated = pa.repeat(pa.scalar(value, pa.large_string()), len(index))
    return pd.Series(pd.array(repeated, dtype="str"), index=index)


def _basis_of(rule: str) -> str:
    """The basis of a rule whose findings do not say theirs."""
    return "policy" if rule in ACCOUNT_RULES else "risk" if rule in RISK_RULES else "law"


def group_codes(column: pd.Series, *, sort: bool = False) -> Ints:
    """Each row's group: the rank of its value among the column's distinct values (as first
    seen, or sorted as its text sorts), nulls one group after all others."""
    codes = codes_of(column, sort=sort)
    return np.where(codes < 0, codes.max(initial=-1) + 1, codes)


def by_group_and_time(group: Ints, at: pd.Series, rows: Rows) -> Rows:
    """``rows`` sorted by group, then ``at``, stably: as numbers, where a frame's
    ``sort_values`` on the text costs half a second a million rows; by time, then stably
    by group, a radix sort for groups that fit 16 bits (half the time of a ``lexsort``)."""
    by_time = rows[np.argsort(pd.DatetimeIndex(at).asi8[rows], kind="stable")]
    keys = group[by_time]
    narrow = len(keys) > 0 and keys.min() >= 0 and keys.max() < 2**15
    order: Rows = by_time[np.argsort(keys.astype(np.int16) if narrow else keys, kind="stable")]
    return order


def millis_since_first(at: pd.Series) -> Ints:
    """Milliseconds since the first of ``at``, rounded down: in integers (0.03 s on a
    million calls), where a null time is not (its value then is as a float made it)."""
    times = pd.DatetimeIndex(at)
    if times.hasnans:
        millis: Ints = ((at - at.min()).dt.total_seconds().to_numpy() * 1000).astype(np.int64)
        return millis
    ticks = times.asi8
    since = (ticks - (ticks.min() if len(ticks) else 0)).view(f"m8[{times.unit}]")
    whole: Ints = since // np.timedelta64(1, "ms")
    return whole



def isin(column: pd.Series, values: pd.Series | pd.Index | list[str]) -> Bools:
    """``column.isin(values)``; an Arrow text column by its distinct texts (its hash,
    :func:`hashed`, kept where the audit took the column: a ``pyarrow`` ``is_in`` of the
    185,000 distinct numbers and a gather, 8 ms, where one of 900,000 calls took 25 ms);
    pandas would first make an Arrow scalar of each value (50 ms for 10,000 numbers)."""
    dtype = column.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow":
        try:
            wanted = pa.array(values, pa.large_string(), from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            pass  # not all text: as pandas does it
        else:
            codes, distinct = hashed(column)
            among = arrow_bools(pc.is_in(distinct, value_set=wanted.cast(distinct.type)))
            found: Bools = np.r_[among, wanted.null_count > 0][codes]  # a null: -1, the last
            return found
    among_values: Bools = column.isin(values).to_numpy(dtype=bool)
    return among_values


