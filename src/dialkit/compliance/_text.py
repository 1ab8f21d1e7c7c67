"""An audit in plain text: what :meth:`AuditReport.to_text` prints, in a terminal or a log."""

from __future__ import annotations

import pandas as pd

from ._population import rate_text


def totals_text(totals: pd.DataFrame) -> str:
    """Per rule: findings, among how many calls or leads, the rate, and the verdict.

    Example:
        >>> totals = pd.DataFrame({"findings": [0], "audited": [1200], "unit": ["calls"],
        ...                        "rate": [0.0], "passed": [True]}, index=["calling_hours"])
        >>> print(totals_text(totals))
                       findings audited     of   rate verdict
        calling_hours         0   1,200  calls  0.00%  passed
    """
    return str(pd.DataFrame({
        "findings": totals["findings"], "audited": totals["audited"].map("{:,}".format),
        "of": totals["unit"], "rate": totals["rate"].map(rate_text),
        "verdict": totals["passed"].map({True: "passed", False: "findings"})}).to_string())
