"""``biggest_loss`` names, per campaign, the stage furthest below the account's median rate:
on an account whose campaigns lose at different stages, each is named for its own."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from handmade import answered, calls, frame, leads

from dialkit.analytics import STAGES, AnalyticsInputError, biggest_loss, funnel

TALKS = {"cmp_a": [400] * 6 + [None] * 4, "cmp_b": [400] * 6 + [5] * 4, "cmp_c": [400] * 10}
"""Ten leads a campaign, all dialled, all calls sales: a talk in seconds, or None (no answer)."""
BOOKED = {"cmp_a": [0], "cmp_b": [0], "cmp_c": [0]}


def _phone(campaign: str, n: int) -> str:
    return f"+1212555{'abc'.index(campaign[-1])}{n:03d}"


def account() -> dict[str, pd.DataFrame]:
    """``cmp_a`` reaches 6 leads of 10 (the others 10), ``cmp_b`` talks with 6 of 10 (the
    others with all they reach), ``cmp_c`` books 1 of 10 (the others 1 of 6). Each loses
    most leads at ``booked``, but only ``cmp_c`` books less than the others."""
    rows = [{"to_number": _phone(c, n), "created_at": "2026-06-01T14:00:00Z",
             "campaign_id": c} if talk is None else answered(
                 _phone(c, n), "2026-06-01T14:00:00Z", talk, "sale", campaign_id=c)
            for c, talks in TALKS.items() for n, talk in enumerate(talks)]
    people = leads(*[(c, _phone(c, n)) for c, talks in TALKS.items()
                     for n in range(len(talks))])
    ids = people.set_index(["campaign_id", "phone"])["id"]
    booked = frame([{"lead_id": ids[(c, _phone(c, n))]} for c, ns in BOOKED.items()
                    for n in ns], "cb", {"status": "pending"})
    return {"leads": people, "calls": calls(*rows), "callbacks": booked}


def test_campaigns_that_lose_at_different_stages_are_named_for_their_own() -> None:
    table = biggest_loss(funnel(**account()))
    assert table["campaign_id"].tolist() == ["cmp_a", "cmp_b", "cmp_c"]
    assert table["biggest_loss"].tolist() == ["answered", "conversation", "booked"]
    assert table[["rate", "median", "shortfall"]].to_numpy().ravel().tolist() == pytest.approx([
        0.6, 1.0, 0.4, 0.6, 1.0, 0.4, 0.1, 1 / 6, 1 / 6 - 0.1])
    assert list(table["biggest_loss"].cat.categories) == list(STAGES)
    assert table["biggest_loss"].cat.ordered


def test_the_share_lost_names_booked_for_all_of_them() -> None:
    """What the column replaces: the stage where each campaign loses the largest share of
    its leads is ``booked`` for all three."""
    counts = funnel(**account()).pivot(index="campaign_id", columns="stage", values="leads")
    lost = -counts.diff(axis=1).drop(columns="leads")
    assert lost.idxmax(axis=1).tolist() == ["booked"] * 3


def test_a_campaign_at_or_above_the_median_everywhere_loses_nowhere() -> None:
    table = funnel(**account())
    single = biggest_loss(table[table["campaign_id"] == "cmp_a"])
    assert single["biggest_loss"].isna().all() and math.isnan(single["shortfall"].iloc[0])
    best = table[table["campaign_id"] == "cmp_c"].assign(
        campaign_id="cmp_d", rate=[math.nan, 1.0, 1.0, 1.0, 1.0, 1.0])
    found = biggest_loss(pd.concat([table, best])).set_index("campaign_id")
    assert pd.isna(found.loc["cmp_d", "biggest_loss"])
    assert found["biggest_loss"].notna().sum() == 3


def test_ties_name_the_earlier_stage_and_undefined_rates_set_no_median() -> None:
    rates = {"x": [None, 0.5, 0.5, 1.0, 1.0, 1.0], "y": [None, 1.0, 1.0, 1.0, 1.0, 1.0],
             "z": [None, 0.0, None, None, None, None]}
    table = pd.DataFrame([{"campaign_id": c, "stage": s, "rate": r}
                          for c, values in rates.items() for s, r in zip(STAGES, values,
                                                                         strict=True)])
    found = biggest_loss(table).set_index("campaign_id")
    assert found.loc["x", "biggest_loss"] == "answered"  # 0.25 short twice: the first
    assert found.loc["x", "median"] == 0.75  # of x and y: z's NaN is left out
    assert found.loc["z", "biggest_loss"] == "dialled"
    assert pd.isna(found.loc["y", "biggest_loss"])


def test_a_table_without_its_columns_is_named() -> None:
    with pytest.raises(AnalyticsInputError, match="table has no column rate"):
        biggest_loss(pd.DataFrame({"campaign_id": ["a"], "stage": ["leads"]}))
