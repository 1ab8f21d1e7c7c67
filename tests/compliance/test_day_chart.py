"""The findings-per-day chart of an evidence page is ticked on days, never half-days."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.dates import num2date

from dialkit.compliance._report._evidence import day_figure


@pytest.mark.parametrize("days", [1, 2, 3, 9, 40])
def test_a_chart_of_days_is_ticked_on_whole_days(days: int) -> None:
    """Two days of findings were ticked every 12 hours ("06-02 12:00")."""
    at = pd.Series(pd.date_range("2026-06-01T09:30Z", periods=days, freq="D"))
    axes = day_figure(pd.DataFrame({"at": at}), "calling_hours", "#c0504d").axes[0]
    ticks = [num2date(tick) for tick in axes.get_xticks()]
    labels = [label.get_text() for label in axes.get_xticklabels()]
    assert all((tick.hour, tick.minute) == (0, 0) for tick in ticks)
    assert labels[0] == "2026-06-01" and 1 <= len(labels) <= 8
    assert len(set(labels)) == len(labels)
