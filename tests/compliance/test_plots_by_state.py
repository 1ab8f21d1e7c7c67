"""``plot_by_state``: findings by the jurisdiction whose rule decided them, on audits of
calls made by hand (every call at 01:00 Eastern, outside every row's window)."""

from __future__ import annotations

from datetime import time

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.figure import Figure

from dialkit.compliance import POLICY, US, US_WITH_HOUSE_RULES, AuditReport, audit, plot_by_state
from test_notebooks import unreadable

AREA_CODES = {"US-AL": "205", "US-CT": "203", "US-FL": "305", "US-KY": "502",
              "US-LA": "504", "US-MA": "617", "US-MD": "410", "US-MS": "601",
              "US-NM": "505", "US-OK": "405", "US-PA": "215", "US-RI": "401",
              "US-TX": "214", "US-WA": "206", "US": "212"}
"""An area code of each state with a row (New York's: the federal row decides)."""


def report(rules: object = US) -> AuditReport:
    """The n-th state above called n + 1 times, each call to its own number, plus two
    calls to toll-free numbers (no known state) and one to London (no row applied)."""
    numbers = [f"+1{code}55501{k:02d}" for n, code in enumerate(AREA_CODES.values())
               for k in range(n + 1)] + ["+18005550101", "+18885550102", "+442079460000"]
    calls = pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(numbers))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": numbers,
        "created_at": pd.Timestamp("2026-11-24T06:00:00Z"), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
    return audit(calls, rules=rules)  # type: ignore[arg-type]


def bars(ax: object) -> list[tuple[str, int]]:
    labels = [label.get_text() for label in ax.get_yticklabels()]  # type: ignore[attr-defined]
    totals = [int(text.get_text().replace(",", "")) for text in ax.texts]  # type: ignore[attr-defined]
    return list(zip(labels, totals, strict=True))[::-1]  # top first


def test_each_jurisdiction_by_name_the_most_findings_at_the_top() -> None:
    """The London call is a finding of the house rules' window alone: not drawn."""
    ax = plot_by_state(report(US_WITH_HOUSE_RULES))  # its own figure, sized for its bars
    shown = bars(ax)
    assert shown[:3] == [("US federal (TSR, TCPA)", 15), ("Washington (US-WA)", 14),
                         ("Texas (US-TX)", 13)]
    assert shown[-2:] == [("US, no known state: strictest row", 2), ("Alabama (US-AL)", 1)]
    assert len(shown) == 16 and sum(total for _, total in shown) == 122
    assert ax.get_title() == ("Findings by the jurisdiction whose rule decided: 122 in 16 "
                              "jurisdictions\n1 other finding, which no jurisdiction's row "
                              "decided, is not drawn")
    try:
        assert unreadable(ax.figure) == []
    finally:
        plt.close(ax.figure)


def test_past_top_bars_the_rest_is_one_other_bar() -> None:
    shown = bars(plot_by_state(report(), ax=Figure().subplots(), top=5))
    assert [label for label, _ in shown] == [
        "US federal (TSR, TCPA)", "Washington (US-WA)", "Texas (US-TX)", "Rhode Island (US-RI)",
        "other (12 jurisdictions)"]
    assert shown[-1][1] == 122 - 15 - 14 - 13 - 12


def test_a_flat_policy_draws_no_bar_and_says_why() -> None:
    flat = POLICY("ours", window=(time(9), time(20)))
    ax = plot_by_state(report(flat), ax=Figure().subplots())
    assert bars(ax) == []
    assert ax.get_title() == ("No finding was decided by a jurisdiction's rule\n123 other "
                              "findings, which no jurisdiction's row decided, are not drawn")


def test_it_draws_on_the_axes_given_and_nowhere_else() -> None:
    before = plt.get_fignums()
    figure = Figure()
    ax = figure.subplots()
    assert plot_by_state(report(), ax=ax) is ax and plt.get_fignums() == before


@pytest.mark.parametrize("top", [1, 0, 2.5, True])
def test_a_top_that_is_not_a_count_of_bars_is_refused(top: object) -> None:
    with pytest.raises(ValueError, match=r"top=.*: pass the number of bars to draw at most"):
        plot_by_state(report(), top=top)  # type: ignore[arg-type]
