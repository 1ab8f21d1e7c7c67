"""Each function on frames made by hand, whose answers are known: a lead never dialled, a
call answered with no disposition, a callback without a call, talk time of exactly the
threshold, a number spanning two zones, one of no known zone, inbound calls left out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import phonenumbers
import pytest
from handmade import answered, calls, frame, leads
from phonenumbers import timezone as phone_timezones

from dialkit.analytics import (
    STAGES,
    AnalyticsInputError,
    answer_rates,
    attempts_to_contact,
    compare,
    disposition_mix,
    funnel,
    hangup_causes,
    two_proportion_test,
)

P = {n: f"+1212555010{n}" for n in range(1, 8)}  # New York numbers
OTHER = "+12125550201"


def account() -> dict[str, pd.DataFrame]:
    """Campaign ``cmp_1``: L1 never dialled; L2 dialled, never answered; L3 answered, no
    disposition; L4 a 45 s conversation (not interested) after a no-answer, and an
    appointment; L5 exactly 30 s and a sale, and a callback; L6 a callback and no call;
    L7 a 5 s sale. ``cmp_2``: one lead, a 60 s ``info_sent``. Plus an inbound call and
    a ``cmp_2`` call to L1's number, which count for nobody in ``cmp_1``."""
    made = calls(
        {"to_number": P[2], "created_at": "2026-06-01T14:00:00Z", "status": "no-answer"},
        answered(P[3], "2026-06-01T14:05:00Z", 10),
        answered(P[4], "2026-06-02T14:00:00Z", 45, "not_interested"),
        {"to_number": P[4], "created_at": "2026-06-01T14:10:00Z", "status": "no-answer"},
        answered(P[5], "2026-06-01T14:15:00Z", 30, "sale"),
        answered(P[7], "2026-06-01T14:20:00Z", 5, "sale"),
        answered(OTHER, "2026-06-01T14:25:00Z", 60, "info_sent", campaign_id="cmp_2"),
        answered(P[1], "2026-06-01T14:30:00Z", 60, "sale", campaign_id="cmp_2"),
        answered(P[2], "2026-06-01T14:35:00Z", 60, "sale", direction="inbound"))
    people = leads(*[("cmp_1", P[n]) for n in range(1, 8)], ("cmp_2", OTHER))
    callbacks = frame([{"lead_id": "lead_4"}, {"lead_id": "lead_5"}, {"lead_id": None}], "cb",
                      {"campaign_id": "cmp_1", "status": "pending",
                       "scheduled_at": "2026-06-05T15:00:00Z",
                       "created_at": "2026-06-01T15:00:00Z"})
    appointments = frame([{"phone": P[4]}], "appt", {"status": "scheduled",
                                                     "scheduled_at": "2026-06-06T15:00:00Z"})
    return {"leads": people, "calls": made, "callbacks": callbacks,
            "appointments": appointments}


def test_the_funnel_counts_each_lead_at_the_furthest_stage_it_reached() -> None:
    table = funnel(**account())
    first, second = (table[table["campaign_id"] == c] for c in ("cmp_1", "cmp_2"))
    assert first["leads"].tolist() == [7, 5, 4, 2, 1, 1]
    assert first["skipped"].tolist() == [0, 0, 0, 0, 1, 2]  # L7; L4 and L6
    assert second["leads"].tolist() == [1, 1, 1, 1, 1, 0]
    rates = first["rate"].tolist()
    assert pd.isna(rates[0]) and rates[1:] == pytest.approx([5 / 7, 4 / 5, 2 / 4, 1 / 2, 1])
    assert first["overall"].tolist() == pytest.approx([1, 5 / 7, 4 / 7, 2 / 7, 1 / 7, 1 / 7])


def test_the_funnel_frame_is_tidy() -> None:
    table = funnel(**account())
    assert list(table.columns) == ["campaign_id", "stage", "leads", "skipped", "rate",
                                   "overall"]
    assert table["stage"].cat.categories.tolist() == list(STAGES)
    assert table["stage"].cat.ordered and len(table) == 2 * len(STAGES)


@pytest.mark.parametrize(("options", "cmp_1"), [
    ({"conversation_seconds": 31}, [7, 5, 4, 1, 0, 0]),
    ({"conversation_seconds": 0}, [7, 5, 4, 4, 2, 1]),
    ({"positive": ("not_interested",)}, [7, 5, 4, 2, 1, 1]),
    ({"callbacks": None, "appointments": None}, [7, 5, 4, 2, 1, 0]),
])
def test_the_funnel_follows_its_options(options: dict[str, object], cmp_1: list[int]) -> None:
    table = funnel(**{**account(), **options})  # type: ignore[arg-type]
    assert table.loc[table["campaign_id"] == "cmp_1", "leads"].tolist() == cmp_1


def test_frames_read_from_csv_give_the_same_answers(tmp_path: Path) -> None:
    """Phone numbers read as text (``pd.read_csv`` would read them as numbers, which are
    refused: test_phone_columns.py); the times as text, read as UTC."""
    given = account()
    read = {}
    for name, made in given.items():
        made.to_csv(tmp_path / f"{name}.csv", index=False)
        read[name] = pd.read_csv(tmp_path / f"{name}.csv",
                                 dtype={"to_number": str, "phone": str})
    pd.testing.assert_frame_equal(funnel(**read), funnel(**given))
    pd.testing.assert_frame_equal(attempts_to_contact(read["leads"], read["calls"]),
                                  attempts_to_contact(given["leads"], given["calls"]))
    pd.testing.assert_frame_equal(answer_rates(read["calls"]), answer_rates(given["calls"]))


@pytest.mark.parametrize(("name", "column"), [("calls", "answered_at"), ("leads", "phone"),
                                               ("callbacks", "lead_id"),
                                               ("appointments", "phone")])
def test_a_missing_column_is_named_with_its_frame(name: str, column: str) -> None:
    given = account()
    given[name] = given[name].drop(columns=column)
    with pytest.raises(AnalyticsInputError, match=f"^{name} has no column {column}:"):
        funnel(**given)
    assert issubclass(AnalyticsInputError, ValueError)


@pytest.mark.parametrize(("column", "reads"), [("created_at", answer_rates),
                                              ("answered_at", funnel), ("ended_at", funnel)])
def test_a_time_that_is_not_one_is_named_with_its_frame_and_row(column: str, reads: Any) -> None:
    given = account()
    given["calls"] = given["calls"].astype({column: object})
    given["calls"].loc[1, column] = "tomorrow at noon"
    with pytest.raises(AnalyticsInputError, match=rf"^calls\.{column} holds 'tomorrow at "
                       "noon' at row 1, which is not an ISO 8601 time"):
        reads(**given) if reads is funnel else reads(given["calls"])


def test_bad_arguments_say_what_to_pass() -> None:
    given = account()
    with pytest.raises(TypeError, match=r"positive=\('sale',\)"):
        funnel(given["leads"], given["calls"], positive="sale")
    with pytest.raises(ValueError, match="by= needs"):
        answer_rates(given["calls"], by=())
    with pytest.raises(ValueError, match="direction='both'"):
        disposition_mix(given["calls"], direction="both")
    with pytest.raises(TypeError, match="calls must be a pandas DataFrame"):
        answer_rates([1, 2])  # type: ignore[arg-type]


def test_attempts_count_calls_in_time_order_until_the_first_answer() -> None:
    given = account()
    table = attempts_to_contact(given["leads"], given["calls"])
    got = {(c, None if pd.isna(a) else int(a)): (n, s) for c, a, n, s in table.itertuples(
        index=False)}
    assert got == {("cmp_1", 1): (3, 3 / 5), ("cmp_1", 2): (1, 1 / 5),
                   ("cmp_1", None): (1, 1 / 5), ("cmp_2", 1): (1, 1.0)}
    assert str(table["attempts"].dtype) == "Int64"


def two_zone_number() -> tuple[str, list[str]]:
    """A valid NANP number whose zones differ in their UTC offset on 1 June 2026."""
    moment = pd.Timestamp("2026-06-01T12:00Z")
    for area in range(201, 1000):
        number = phonenumbers.parse(f"+1{area}5550123")
        zones = phone_timezones.time_zones_for_number(number)
        if phonenumbers.is_valid_number(number) and len(
                {moment.tz_convert(z).utcoffset() for z in zones}) > 1:
            return f"+1{area}5550123", list(zones)
    raise AssertionError("phonenumbers knows no NANP area code of two zones")


def test_answer_rates_place_a_number_of_two_zones_in_its_first() -> None:
    phone, zones = two_zone_number()
    nowhere = phonenumbers.format_number(phonenumbers.example_number_for_non_geo_entity(800),
                                         phonenumbers.PhoneNumberFormat.E164)
    made = calls(answered(P[1], "2026-06-01T16:30:00Z", 60),  # 12:30 Mon in New York
                 {"to_number": P[2], "created_at": "2026-06-01T16:40:00Z"},
                 answered(phone, "2026-06-01T16:30:00Z", 60),
                 {"to_number": nowhere, "created_at": "2026-06-01T16:30:00Z"},
                 answered(P[3], "2026-06-01T16:30:00Z", 60, direction="inbound"))
    table = answer_rates(made)
    local = pd.Timestamp("2026-06-01T16:30:00Z").tz_convert(zones[0])
    rows = {(None if pd.isna(h) else int(h), None if pd.isna(d) else d): (n, k, m)
            for h, d, n, k, m in table[["local_hour", "weekday", "calls", "answered",
                                        "multi_zone"]].itertuples(index=False)}
    expected = {(12, "Mon"): [2, 1, 0], (None, None): [1, 0, 0]}
    key = (local.hour, ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")[local.weekday()])
    expected[key] = [a + b for a, b in zip(expected.get(key, [0, 0, 0]), [1, 1, 1],
                                           strict=True)]
    assert rows == {k: tuple(v) for k, v in expected.items()}
    new_york = table[(table["local_hour"] == 12) & (table["weekday"] == "Mon")].iloc[0]
    assert new_york["rate"] == pytest.approx(0.5)
    assert (new_york["low"], new_york["high"]) == pytest.approx((0.0945, 0.9055), abs=1e-4)


def test_answer_rates_group_by_any_column_of_the_calls() -> None:
    table = answer_rates(account()["calls"], by=("campaign_id",))
    assert table[["campaign_id", "calls", "answered"]].values.tolist() == [
        ["cmp_1", 6, 4], ["cmp_2", 2, 2]]


def test_answer_rates_group_by_the_first_zone_of_each_number() -> None:
    made = calls(answered(P[1], "2026-06-01T16:30:00Z", 60),  # New York
                 {"to_number": P[2], "created_at": "2026-06-01T16:40:00Z"},
                 answered("+12135550123", "2026-06-01T18:00:00Z", 60),  # Los Angeles
                 {"to_number": "+80012345678", "created_at": "2026-06-01T18:00:00Z"},
                 answered(P[3], "2026-06-01T16:30:00Z", 60, direction="inbound"))
    table = answer_rates(made, by=("zone",))
    assert list(table.columns) == ["zone", "calls", "answered", "rate", "low", "high",
                                   "multi_zone"]
    assert str(table["zone"].dtype) == "string"
    rows = [(None if pd.isna(z) else z, n, k) for z, n, k in table[
        ["zone", "calls", "answered"]].itertuples(index=False)]
    assert rows == [("America/Los_Angeles", 1, 1), ("America/New_York", 2, 1), (None, 1, 0)]


def test_answer_rates_group_by_zone_and_local_hour_together() -> None:
    made = calls(answered(P[1], "2026-06-01T16:30:00Z", 60),  # 12:30 in New York
                 answered("+12135550123", "2026-06-01T16:30:00Z", 60))  # 09:30 in LA
    table = answer_rates(made, by=("zone", "local_hour"))
    assert table[["zone", "local_hour", "calls"]].values.tolist() == [
        ["America/Los_Angeles", 9, 1], ["America/New_York", 12, 1]]


@pytest.mark.parametrize("by", [("local_hour", "local_hour"), ("campaign_id", "zone",
                                                               "campaign_id")])
def test_answer_rates_refuse_a_by_name_given_twice(by: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match=rf"^by= names {by[0]} more than once: give each "
                       "column once"):
        answer_rates(account()["calls"], by=by)


@pytest.mark.parametrize("name", ["calls", "answered", "rate", "low", "high", "multi_zone"])
def test_answer_rates_refuse_a_by_name_they_would_overwrite(name: str) -> None:
    given = account()["calls"].assign(**{name: "x"})
    with pytest.raises(ValueError, match=rf"^by= cannot take {name}: answer_rates writes a "
                       rf"{name} column of its own.*calls\.rename\(columns=\{{'{name}': "
                       rf"'by_{name}'\}}\)"):
        answer_rates(given, by=("local_hour", name))


def test_a_renamed_column_of_an_output_name_groups_as_the_refusal_says() -> None:
    given = account()["calls"]
    given = given.assign(rate=given["campaign_id"].map({"cmp_1": "cheap", "cmp_2": "premium"}))
    table = answer_rates(given.rename(columns={"rate": "by_rate"}), by=("by_rate",))
    assert table[["by_rate", "calls", "answered"]].values.tolist() == [["cheap", 6, 4],
                                                                       ["premium", 2, 2]]


def test_answer_rates_refuse_to_group_by_direction() -> None:
    with pytest.raises(ValueError, match="^by= cannot take direction: only outbound calls "
                       "count"):
        answer_rates(account()["calls"], by=("direction",))


def test_the_disposition_mix_counts_per_campaign_and_week() -> None:
    made = calls(answered(P[1], "2026-06-01T10:00:00Z", 60, "sale"),
                 answered(P[2], "2026-06-03T10:00:00Z", 60, "sale"),
                 answered(P[3], "2026-06-07T23:59:00Z", 60),  # Sunday: the same week
                 answered(P[4], "2026-06-08T00:00:00Z", 60),
                 answered(P[5], "2026-06-02T10:00:00Z", 60, "inquiry", direction="inbound"))
    table = disposition_mix(made)
    assert [(str(p), d if pd.notna(d) else None, n) for p, d, n in
            table[["period", "disposition", "calls"]].itertuples(index=False)] == [
        ("2026-06-01/2026-06-07", "sale", 2), ("2026-06-01/2026-06-07", None, 1),
        ("2026-06-08/2026-06-14", None, 1)]
    assert table["share"].tolist() == pytest.approx([2 / 3, 1 / 3, 1.0])
    both = disposition_mix(made, direction=None, freq="M")
    assert both["calls"].tolist() == [1, 2, 2]  # inquiry, sale, none in June


def test_hangup_causes_have_the_same_shape() -> None:
    made = calls({"to_number": P[1], "created_at": "2026-06-01T10:00:00Z",
                  "hangup_cause": "no_answer"},
                 {"to_number": P[2], "created_at": "2026-06-01T11:00:00Z",
                  "hangup_cause": "user_busy"},
                 {"to_number": P[2], "created_at": "2026-06-01T12:00:00Z",
                  "hangup_cause": "no_answer"})
    table = hangup_causes(made, freq="D")
    assert table[["hangup_cause", "calls"]].values.tolist() == [["no_answer", 2],
                                                               ["user_busy", 1]]


def test_compare_tests_both_rates() -> None:
    made = account()["calls"]
    table = compare(made[made["campaign_id"] == "cmp_1"], made[made["campaign_id"] == "cmp_2"])
    answer, conversion = table.to_dict("records")
    assert (answer["successes_a"], answer["trials_a"], answer["successes_b"],
            answer["trials_b"]) == (4, 6, 2, 2)
    assert (conversion["successes_a"], conversion["trials_a"], conversion["successes_b"],
            conversion["trials_b"]) == (2, 4, 2, 2)  # sale of L5 and L7, of 4 answered
    test = two_proportion_test(4, 6, 2, 2)
    assert answer["difference"] == pytest.approx(1 / 3) and answer["p_value"] == test["p_value"]


def test_compare_z_sets_the_width_of_the_interval_only() -> None:
    made = account()["calls"]
    sides = made[made["campaign_id"] == "cmp_1"], made[made["campaign_id"] == "cmp_2"]
    usual, wider = compare(*sides), compare(*sides, z=2.576)
    half = (usual["high"] - usual["difference"]) / 1.959963984540054
    assert (wider["high"] - wider["difference"]).tolist() == pytest.approx(
        (half * 2.576).tolist())
    assert wider["p_value"].tolist() == usual["p_value"].tolist()
    assert wider["z"].tolist() == usual["z"].tolist()
