"""``next_allowed(..., prefer=rates)``: the best lawful hour by the account's answer rates,
each cell shrunk toward the overall rate (issue 50)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialkit.compliance import US, AuditInputError, next_allowed
from dialkit.compliance._ahead._best_hour import MAX_PRIOR_WEIGHT, shrunk
from dialkit.compliance._ahead._when import COLUMNS, hours_at

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
SUNDAY = pd.Timestamp("2026-11-22T19:00:00Z")  # Utah bars Sunday calls; New York does not
PHONES = {"+18015550123": "America/Denver", "+12125550100": "America/New_York",
          "+14155550100": "America/Los_Angeles", "+15795550183": "America/Toronto"}


def rates(cells: dict[tuple[str, int], tuple[int, int]], base: tuple[int, int] = (100, 20)
          ) -> pd.DataFrame:
    """A table as ``answer_rates`` gives it: every hour of the week ``base`` (calls,
    answered) but the ``cells`` given."""
    rows = [(day, hour, *cells.get((day, hour), base)) for day in DAYS for hour in range(24)]
    return pd.DataFrame(rows, columns=["weekday", "local_hour", "calls", "answered"])


def test_without_prefer_the_columns_are_as_they_were_and_with_it_four_more() -> None:
    plain = next_allowed(list(PHONES), SUNDAY)
    best = next_allowed(list(PHONES), SUNDAY, prefer=rates({}))
    assert list(plain.columns) == list(COLUMNS)
    assert list(best.columns) == [*COLUMNS, "best_at", "best_local_time", "best_rate",
                                  "next_rate"]
    pd.testing.assert_frame_equal(best[list(COLUMNS)], plain)
    leads = pd.DataFrame({"id": ["lead_a"], "phone": ["+12125550100"]})
    assert list(next_allowed(leads, SUNDAY, prefer=rates({})).columns)[:2] == ["lead_id",
                                                                              "phone"]


def test_a_few_lucky_calls_do_not_outweigh_many_good_ones() -> None:
    """Monday 18:00 answered 2 of 2, Monday 19:00 600 of 1,000: shrunk toward the overall
    rate, two calls say little, and 19:00 is preferred."""
    table = rates({("Mon", 18): (2, 2), ("Mon", 19): (1000, 600)})
    answer = next_allowed("+12125550100", SUNDAY, prefer=table).iloc[0]
    assert answer["best_local_time"] == "2026-11-23 19:00:00"
    assert answer["best_rate"] == pytest.approx(shrunk(table)[0, 19])
    assert shrunk(table)[0, 18] < shrunk(table)[0, 19] < 0.6
    assert answer["next_rate"] == pytest.approx(shrunk(table)[6, 14])  # Sunday 14:00


def test_cells_that_differ_by_chance_alone_are_all_the_overall_rate() -> None:
    table = rates({}, base=(100, 25))
    assert np.allclose(shrunk(table), 0.25)
    spread = rates({("Tue", 10): (1, 1)}, base=(100, 25))  # one call more, no spread
    overall = (168 * 25 - 25 + 1) / (167 * 100 + 1)
    assert shrunk(spread)[1, 10] == pytest.approx((1 + MAX_PRIOR_WEIGHT * overall)
                                                  / (1 + MAX_PRIOR_WEIGHT))


def test_a_number_with_no_allowed_moment_has_no_best_one_and_bad_rates_are_refused() -> None:
    answer = next_allowed(["+999123"], SUNDAY, prefer=rates({})).iloc[0]
    assert pd.isna(answer["best_at"]) and pd.isna(answer["best_rate"])
    with pytest.raises(AuditInputError, match=r"prefer= takes dialkit.analytics.answer_rates"):
        next_allowed("+12125550100", SUNDAY, prefer=pd.DataFrame({"rate": [0.5]}))
    with pytest.raises(AuditInputError, match="holds no calls"):
        next_allowed("+12125550100", SUNDAY, prefer=rates({}, base=(0, 0)))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cells=st.dictionaries(st.tuples(st.sampled_from(DAYS), st.integers(0, 23)),
                             st.integers(0, 40).flatmap(lambda n: st.tuples(
                                 st.just(n), st.integers(0, n))), max_size=30),
       hours=st.integers(0, 96))
def test_the_best_moment_is_allowed_and_no_allowed_whole_hour_is_better(
        cells: dict[tuple[str, int], tuple[int, int]], hours: int) -> None:
    """For each number, every whole hour on its clock from the next allowed moment to the
    horizon's end, judged by the hours' own judge (the best moment too) and scored on the
    number's clock by Python's zoneinfo, scores no more than the best, and those scoring
    as much come no earlier. Numbers and hours are asked together: a call each."""
    at = SUNDAY + pd.Timedelta(hours=hours)
    table, score = rates(cells, base=(10, 3)), shrunk(rates(cells, base=(10, 3)))
    answers = next_allowed(list(PHONES), at, prefer=table, horizon="2D")
    asked = []
    for answer in answers.itertuples():
        zone = ZoneInfo(PHONES[answer.phone])
        start = answer.next_allowed_at.tz_convert(zone).floor("h").tz_convert("UTC")
        tried = pd.date_range(start, at + pd.Timedelta("2D"), freq="h", inclusive="left")
        tried = tried[tried > answer.next_allowed_at].append(pd.DatetimeIndex([answer.best_at]))
        asked.append(pd.DataFrame({"phone": answer.phone, "at": tried}))
    tried = pd.concat(asked, ignore_index=True)
    tried["allowed"] = hours_at(tried["phone"].astype(object), tried["at"].dt.tz_convert(
        None).to_numpy("datetime64[ns]"), US, None)["allowed"].to_numpy()
    for answer, (phone, hours_tried) in zip(answers.itertuples(), tried.groupby(
            "phone", sort=False), strict=True):
        assert hours_tried["allowed"].iloc[-1], phone  # the best moment itself
        assert answer.best_rate >= answer.next_rate
        fine = hours_tried[hours_tried["allowed"]].iloc[:-1]
        local = [datetime.fromtimestamp(t.timestamp(), ZoneInfo(PHONES[phone]))
                 for t in fine["at"]]
        scores = np.array([score[t.weekday(), t.hour] for t in local])
        assert (scores <= answer.best_rate + 1e-12).all(), phone
        assert (fine["at"][scores >= answer.best_rate - 1e-12] >= answer.best_at).all()
