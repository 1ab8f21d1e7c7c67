"""An audit in plain text: what :meth:`AuditReport.to_text` prints, in a terminal or a log;
and how a finding writes times."""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import NDArray

from ._population import rate_text


def totals_text(totals: pd.DataFrame) -> str:
    """Per rule: findings, of which law's and policy's, among how many calls or leads, the
    rate, and the verdict.

    Examples:
        >>> totals = pd.DataFrame({"findings": [3], "law": [1], "policy": [2],
        ...                        "audited": [1200], "unit": ["calls"], "rate": [0.0025],
        ...                        "passed": [False]}, index=["calling_hours"])
        >>> print(totals_text(totals))
                       findings  law  policy audited     of   rate   verdict
        calling_hours         3    1       2   1,200  calls  0.25%  findings
    """
    return str(pd.DataFrame({
        "findings": totals["findings"], "law": totals["law"], "policy": totals["policy"],
        "audited": totals["audited"].map("{:,}".format),
        "of": totals["unit"], "rate": totals["rate"].map(rate_text),
        "verdict": totals["passed"].map({True: "passed", False: "findings"})}).to_string())


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
