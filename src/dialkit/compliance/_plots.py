"""The audit's summary as a picture: one bar per rule, findings against what was audited.

Like the plots of :mod:`dialkit.analytics`, it takes what it draws and an
optional ``ax``, returns the Axes, and changes no global state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from ._audit import AuditReport

_FOUND, _PASSED = "#c0504d", "#9bbb59"


def plot_summary(report: AuditReport, ax: Any = None) -> Any:
    """Findings per rule that ran, each bar labelled with its count among the calls or
    leads audited and its rate; a rule that found nothing is marked passed.

    Args:
        report: What :func:`~dialkit.compliance.audit` returned.
        ax: The matplotlib Axes to draw on; a new figure's (``pyplot.subplots``, so it
            shows under a notebook cell) when ``None``.

    Returns:
        The Axes drawn on.

    Example:
        >>> compliance.plot_summary(report)  # doctest: +SKIP
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(8, 0.45 * max(len(report.ran), 2) + 1))
    totals = report.totals.iloc[::-1]  # the first rule at the top
    ax.barh(totals.index, totals["findings"],
            color=[_PASSED if passed else _FOUND for passed in totals["passed"]])
    for y, (_, row) in enumerate(totals.iterrows()):
        ax.annotate(_label(row), (row["findings"], y), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_xlim(0, max(float(totals["findings"].max()), 1.0) * 1.6)
    ax.set_xlabel("findings")
    ax.set_title(f"Compliance audit, {report.rules.name}: "
                 f"{int(totals['findings'].sum()):,} findings, "
                 f"{int(totals['passed'].sum())} of {len(totals)} rules passed")
    ax.spines[["top", "right"]].set_visible(False)
    return ax


def _label(row: pd.Series) -> str:
    if row["passed"]:
        return f"passed: 0 of {int(row['audited']):,} {row['unit']}"
    return f"{int(row['findings']):,} of {int(row['audited']):,} {row['unit']} ({row['rate']:.2%})"
