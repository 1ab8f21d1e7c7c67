"""What every rule's findings share: each finding made with the common columns (named
once with the rules, :data:`.._rules._rules.FINDING_COLUMNS`), and the whole-column
helpers the rules group, sort and compare calls with (none loops over calls in Python)."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
import pyarrow as pa
from numpy.typing import NDArray

from .._rules._rules import ACCOUNT_RULES, RISK_RULES, SEVERITY

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


LOCAL_FORMAT = "%Y-%m-%d %H:%M:%S"
"""How a finding writes the recipient's wall-clock time (``local_time``)."""



WEEKDAYS = np.array(["Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat ", "Sun "], object)
"""How a calling-hours finding names the day (``strftime``'s ``%a`` in the C locale)."""



def written(times: NDArray[np.datetime64] | pd.Series,
            unit: Literal["s", "D"] = "s") -> NDArray[np.object_]:
    """Times as ``strftime`` writes :data:`LOCAL_FORMAT` (``unit`` ``"s"``) or ``%Y-%m-%d``
    (``"D"``): the second (the day) each falls in, as numpy's ISO text with a space for
    the ``T``; NaT as ``NaT``; a series of UTC times in UTC. pandas' ``strftime`` of a
    format asks Python's of each time: 55 ms for 7,000 calls' local times, 110 ms for
    the audit's findings; this, a few ms."""
    if isinstance(times, pd.Series):
        times = pd.DatetimeIndex(times).tz_convert("UTC").tz_localize(None).to_numpy()
    text = np.datetime_as_string(times, unit=unit)
    if unit == "s" and len(text):  # np.char.replace fails on no text
        text = np.where(np.isnat(times), text, np.char.replace(text, "T", " "))
    return text.astype(object)
