"""Each plot draws its frame on the Axes it is given, says what it shows, and leaves
matplotlib's global state alone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
import pandas as pd
import pytest
from handmade import answered, calls
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Text
from test_known import P, account

from dialkit.analytics import (
    AnalyticsInputError,
    answer_rates,
    attempts_to_contact,
    disposition_mix,
    funnel,
    hangup_causes,
    plot_answer_heatmap,
    plot_attempts,
    plot_disposition_mix,
    plot_funnel,
)


def tables() -> dict[str, tuple[Callable[..., Axes], pd.DataFrame]]:
    given = account()
    return {"funnel": (plot_funnel, funnel(**given)),
            "heatmap": (plot_answer_heatmap, answer_rates(given["calls"])),
            "mix": (plot_disposition_mix, disposition_mix(given["calls"])),
            "hangups": (plot_disposition_mix, hangup_causes(given["calls"])),
            "attempts": (plot_attempts, attempts_to_contact(given["leads"], given["calls"]))}


@pytest.fixture
def untouched() -> Iterator[None]:
    """Fails the test if it changed rcParams or left a pyplot figure open."""
    before, figures = dict(matplotlib.rcParams), plt.get_fignums()
    yield
    assert dict(matplotlib.rcParams) == before and plt.get_fignums() == figures


@pytest.mark.parametrize("name", ["funnel", "heatmap", "mix", "hangups", "attempts"])
def test_a_plot_draws_on_the_axes_given_and_nowhere_else(name: str, untouched: None) -> None:
    plot, table = tables()[name]
    figure = Figure()
    ax = figure.add_subplot()
    assert plot(table, ax=ax) is ax
    assert ax.get_title() and (ax.patches or ax.images)
    figure.savefig(__import__("io").BytesIO(), format="png")


def test_without_axes_a_plot_makes_one_figure_for_the_notebook(untouched: None) -> None:
    plot, table = tables()["funnel"]
    ax = plot(table)
    try:
        assert plt.get_fignums() == [ax.figure.number]  # type: ignore[union-attr]
    finally:
        plt.close(ax.figure)  # type: ignore[arg-type]


def texts(ax: Axes) -> list[str]:
    return [text.get_text() for text in ax.texts]


def test_the_funnel_bars_carry_counts_and_rates() -> None:
    ax = plot_funnel(funnel(**account()), ax=Figure().add_subplot())
    assert [round(bar.get_width()) for bar in ax.patches] == [8, 6, 5, 3, 2, 1]
    assert texts(ax)[2] == "  5  (62.5% of leads, 83.3% of dialled)"
    assert ax.get_title() == "Funnel: 2 campaigns, 8 leads"


def test_the_heatmap_labels_each_cell_with_rate_and_calls() -> None:
    made = calls(answered(P[1], "2026-06-01T16:30:00Z", 60),  # Mon 12:30 New York
                 {"to_number": P[2], "created_at": "2026-06-01T16:40:00Z"},
                 {"to_number": P[3], "created_at": "2026-06-02T22:10:00Z"},  # Tue 18:10
                 {"to_number": "+80012345678", "created_at": "2026-06-02T22:10:00Z"})
    ax = plot_answer_heatmap(answer_rates(made), ax=Figure().add_subplot())
    assert sorted(texts(ax)) == ["0%\n1", "50%\n2"]
    positions = sorted(text.get_position() for text in ax.texts)
    assert positions == [(12, 0), (18, 1)]  # (hour, weekday row)
    assert "3 outbound calls" in ax.get_title() and "1 to numbers of no known zone" in \
        ax.get_title()


def test_the_attempts_histogram_has_a_never_bar() -> None:
    given = account()
    ax = plot_attempts(attempts_to_contact(given["leads"], given["calls"]),
                       ax=Figure().add_subplot())
    assert [label.get_text() for label in ax.get_xticklabels()] == ["1", "2", "never"]
    assert [round(bar.get_height()) for bar in ax.patches] == [4, 1, 1]
    assert ax.get_title().endswith("6 dialled leads, 16.7% never reached")


def test_the_mix_stacks_shares_per_period(untouched: None) -> Any:
    made = calls(answered(P[1], "2026-06-01T10:00:00Z", 60, "sale"),
                 answered(P[2], "2026-06-09T10:00:00Z", 60, "sale"),
                 answered(P[3], "2026-06-10T10:00:00Z", 60))
    ax = plot_disposition_mix(disposition_mix(made), ax=Figure().add_subplot())
    heights = {(round(bar.get_x() + bar.get_width() / 2), bar.get_height()) for bar in
               ax.patches if bar.get_height()}
    assert heights == {(0, 1.0), (1, 0.5)}
    assert [label.get_text() for label in ax.get_xticklabels()] == ["2026-06-01", "2026-06-08"]
    assert ax.get_legend() is not None and [t.get_text() for t in ax.get_legend().get_texts()
                                            ] == ["none logged", "sale"]


def test_the_mix_folds_the_rarer_of_many_kinds_into_other() -> None:
    made = calls(*({"to_number": P[1 + n % 3], "created_at": "2026-06-01T10:00:00Z",
                    "hangup_cause": f"cause_{n:02d}"} for n in range(15) for _ in range(15 - n)))
    ax = plot_disposition_mix(hangup_causes(made), ax=Figure().add_subplot())
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [*(f"cause_{n:02d}" for n in range(11)), "other (4 kinds)"]
    assert sum(bar.get_height() for bar in ax.patches) == pytest.approx(1.0)


def test_a_campaign_is_titled_by_name_and_id_when_the_table_knows_its_name() -> None:
    table = funnel(**account())
    table = table[table["campaign_id"] == "cmp_2"].copy()
    table.attrs["campaign_names"] = {"cmp_2": "Spring renewals"}
    ax = plot_funnel(table, ax=Figure().add_subplot())
    assert ax.get_title().startswith("Funnel: campaign Spring renewals (cmp_2), ")


def test_a_table_without_campaigns_is_titled_as_all_calls() -> None:
    given = account()
    table = funnel(**given).groupby("stage", observed=True, as_index=False)["leads"].sum()
    ax = plot_funnel(table, ax=Figure().add_subplot())
    assert ax.get_title() == "Funnel: all calls, 8 leads"
    attempts = attempts_to_contact(given["leads"], given["calls"]).drop(columns="campaign_id")
    ax = plot_attempts(attempts, ax=Figure().add_subplot())
    assert ax.get_title().startswith("Attempts to contact: all calls, 6 dialled leads")


def test_the_mix_plot_takes_the_hangup_cause_of_a_table_without_dispositions() -> None:
    made = calls({"to_number": P[1], "created_at": "2026-06-01T10:00:00Z",
                  "hangup_cause": "no_answer"},
                 {"to_number": P[2], "created_at": "2026-06-01T11:00:00Z",
                  "hangup_cause": "user_busy"})
    ax = plot_disposition_mix(hangup_causes(made), ax=Figure().add_subplot())
    assert ax.get_title().startswith("Hangup cause mix per period: campaign cmp_1, 2 calls")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["no_answer", "user_busy"]


@pytest.mark.parametrize(("plot", "computed_by"), [
    (plot_funnel, "funnel()"), (plot_answer_heatmap, "answer_rates()"),
    (plot_disposition_mix, "disposition_mix()"), (plot_attempts, "attempts_to_contact()")])
def test_a_plot_of_a_table_it_cannot_read_names_the_function_that_makes_one(
        plot: Callable[..., Axes], computed_by: str) -> None:
    with pytest.raises(AnalyticsInputError, match=rf"pass the table of {computed_by}"):
        plot(pd.DataFrame({"x": [1]}), ax=Figure().add_subplot())


HOSTILE = [r"Bad $\nosuchcommand{$ maths", r"$\frac{1}{0}$", "<b>1</b> \\ 2"]
"""Names matplotlib would read as mathematics (the first fails to parse), and markup."""


def drawn(text: Text) -> tuple[str, object]:
    """What matplotlib draws of ``text``: the string, and whether as mathematics (or TeX)."""
    shown: tuple[str, object] = text._preprocess_math(text.get_text())
    return shown


@pytest.mark.parametrize(("name", "make"), [
    ("funnel", lambda given: funnel(**given)),
    ("attempts", lambda given: attempts_to_contact(given["leads"], given["calls"])),
    ("mix", lambda given: disposition_mix(given["calls"])),
])
@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_campaigns_name_is_drawn_as_written(name: str, make: Callable[..., pd.DataFrame],
                                              hostile: str) -> None:
    table = make(account())
    table = table[table["campaign_id"] == "cmp_2"].copy()
    table.attrs["campaign_names"] = {"cmp_2": hostile}
    plot = {"funnel": plot_funnel, "attempts": plot_attempts, "mix": plot_disposition_mix}[name]
    ax = plot(table, ax=Figure().add_subplot())
    ax.figure.draw_without_rendering()  # a formula matplotlib cannot parse would raise here
    shown, mathematics = drawn(ax.title)
    assert f"campaign {hostile} (cmp_2)" in shown and mathematics is False


def test_a_disposition_in_the_legend_is_drawn_as_written() -> None:
    mix = disposition_mix(account()["calls"])
    mix["disposition"] = mix["disposition"].astype(object).where(
        mix["disposition"].astype(object) != "sale", HOSTILE[0])
    ax = plot_disposition_mix(mix, ax=Figure().add_subplot())
    ax.figure.draw_without_rendering()
    shown = dict(drawn(text) for text in ax.get_legend().get_texts())
    assert HOSTILE[0] in shown and not any(shown.values())
