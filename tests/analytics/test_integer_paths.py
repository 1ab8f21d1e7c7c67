"""The integer paths of the funnel, the attempts and the answer rates (calls matched to leads
on dictionary codes, local times read off each zone's ticks, talk time from ticks) against
the row-by-row reference, on random small accounts: a phone in several campaigns, twice in
one campaign, nulls, calls of a campaign with no leads, inbound calls, times across DST
changes, before 1970, and a zone half an hour off the hour (Adelaide, changing at half
past a UTC hour)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import phonenumbers.timezone
import pytest
import rowwise
from handmade import answered, arrow, calls, frame, leads
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit.analytics import answer_rates, attempts_to_contact, funnel
from dialkit.analytics._funnel import FUNNEL
from dialkit.analytics._inputs._inputs import talked
from dialkit.analytics._reach import call_stages

PHONES = ["+12125550101", "+12125550102", "+12135550123", "+61882123456",  # Adelaide: +9:30
          "+442079460958", "+80012345678", None]
CAMPAIGNS = ["cmp_a", "cmp_b", "cmp_c", None]
MOMENTS = [pd.Timestamp(t) for t in (
    "2026-03-08T06:30:00Z",  # New York springs forward at 07:00 UTC
    "2026-11-01T05:30:00Z",  # and falls back at 06:00 UTC
    "2026-04-04T16:00:00Z",  # Adelaide falls back at 16:30 UTC
    "2026-03-29T00:30:00Z",  # London at 01:00 UTC
    "2026-06-01T14:00:00Z")]
"""Within a year: local times come from a table of each zone's offset per UTC hour."""
SPREAD = [*MOMENTS, pd.Timestamp("1969-12-31T23:00:00Z")]
"""Over decades, more hours than calls: local times moment by moment."""
DISPOSITIONS = ["sale", "not_interested", "info_sent", None]


@st.composite
def call_rows(draw: st.DrawFn, moments: list[pd.Timestamp]) -> dict[str, Any]:
    at = draw(st.sampled_from(moments)) + pd.Timedelta(minutes=draw(st.integers(0, 120)))
    row = {"to_number": draw(st.sampled_from(PHONES)), "created_at": at.isoformat(),
           "campaign_id": draw(st.sampled_from([*CAMPAIGNS, "cmp_z"])),
           "direction": draw(st.sampled_from(["outbound", "outbound", "inbound"]))}
    if draw(st.booleans()):
        talk = draw(st.sampled_from([0, 29_999, 30_000, 30_001, 400_000]))  # ms
        row |= {"answered_at": at + pd.Timedelta(seconds=5),
                "ended_at": at + pd.Timedelta(milliseconds=5_000 + talk),
                "disposition": draw(st.sampled_from(DISPOSITIONS))}
    return row


@st.composite
def accounts(draw: st.DrawFn, moments: list[pd.Timestamp] = SPREAD) -> dict[str, pd.DataFrame]:
    people = leads(*draw(st.lists(st.tuples(st.sampled_from(CAMPAIGNS),
                                            st.sampled_from(PHONES)), max_size=12))).reindex(
        columns=["id", "campaign_id", "phone", "status", "attempts", "created_at"])
    made = calls(*draw(st.lists(call_rows(moments), max_size=25)))
    if made.empty:
        made = calls({"to_number": PHONES[0], "created_at": "2026-06-01T14:00:00Z"}).iloc[:0]
    booked = draw(st.lists(st.integers(0, 12), max_size=4))
    callbacks = frame([{"lead_id": f"lead_{n}"} for n in booked], "cb", {"status": "pending"})
    appointments = frame([{"phone": p} for p in draw(st.lists(st.sampled_from(PHONES),
                                                               max_size=2))],
                         "appt", {"status": "scheduled"})
    return {"leads": people, "calls": made,
            "callbacks": callbacks.reindex(columns=["id", "lead_id", "status"]),
            "appointments": appointments.reindex(columns=["id", "phone", "status"])}


@settings(max_examples=60, deadline=None)
@given(account=accounts())
def test_the_funnel_and_the_attempts_equal_the_row_by_row_counts(
        account: dict[str, pd.DataFrame]) -> None:
    """On the frames as made, and as Arrow text twice: hashed, then from what was kept."""
    expected = _campaigned(rowwise.funnel(**account))
    expected_tries = _campaigned(rowwise.attempts(account["leads"], account["calls"]))
    as_arrow = {name: arrow(made) for name, made in account.items()}
    for frames in (account, as_arrow, as_arrow):
        table = funnel(**frames)
        got = {(c, str(s)): n for c, s, n in table[["campaign_id", "stage", "leads"]]
               .itertuples(index=False) if n}
        assert got == expected
        tries = attempts_to_contact(frames["leads"], frames["calls"])
        got_tries = {(c, None if pd.isna(a) else int(a)): n for c, a, n in tries[
            ["campaign_id", "attempts", "leads"]].itertuples(index=False)}
        assert got_tries == expected_tries


def _campaigned(counts: Any) -> dict[Any, int]:
    """The reference's counts but those of leads of no campaign (which the tables leave
    out: a lead belongs to no campaign's funnel without one)."""
    return {key: n for key, n in counts.items() if key[0] is not None}


@pytest.mark.parametrize("moments", [MOMENTS, SPREAD], ids=["hourly-table", "one-by-one"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_answer_rates_equal_the_call_by_call_count(moments: list[pd.Timestamp],
                                                   data: st.DataObject) -> None:
    account = data.draw(accounts(moments))
    expected = rowwise.answer_rates(account["calls"])
    as_arrow = arrow(account["calls"])
    for made in (account["calls"], as_arrow, as_arrow):  # hashed, then from what was kept
        table = answer_rates(made)
        got = {(None if pd.isna(h) else int(h), None if pd.isna(d) else str(d)): (n, k)
               for h, d, n, k in table[["local_hour", "weekday", "calls", "answered"]]
               .itertuples(index=False)}
        assert got == expected


@pytest.mark.parametrize("moments", [MOMENTS, SPREAD], ids=["hourly-table", "one-by-one"])
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_a_call_of_no_time_counts_as_one_of_no_zone(moments: list[pd.Timestamp],
                                                    data: st.DataObject) -> None:
    """A call without ``created_at`` has no local time: its cell is the one of the calls to
    numbers of no zone, whatever its number and wherever it falls among the others."""
    made = data.draw(accounts(moments))["calls"]
    timeless = data.draw(st.lists(st.booleans(), min_size=len(made), max_size=len(made)))
    made = made.assign(created_at=made["created_at"].mask(np.array(timeless, bool)))
    expected = rowwise.answer_rates(made.assign(
        to_number=made["to_number"].mask(made["created_at"].isna()),
        created_at=made["created_at"].fillna(pd.Timestamp("2026-06-01", tz="UTC"))))
    table = answer_rates(arrow(made))
    assert {(None if pd.isna(h) else int(h), None if pd.isna(d) else str(d)): (n, k)
            for h, d, n, k in table[["local_hour", "weekday", "calls", "answered"]]
            .itertuples(index=False)} == expected


def test_a_phone_in_several_campaigns_counts_for_the_lead_of_the_call_s_campaign() -> None:
    people = leads(("cmp_a", PHONES[0]), ("cmp_b", PHONES[0]), ("cmp_c", PHONES[0]),
                   ("cmp_b", PHONES[1]))
    made = calls({"to_number": PHONES[0], "created_at": "2026-06-01T14:00:00Z",
                  "campaign_id": "cmp_b"},
                 {"to_number": PHONES[1], "created_at": "2026-06-01T14:00:00Z",
                  "campaign_id": "cmp_a"})
    table = funnel(people, made)
    dialled = table[table["stage"] == "dialled"].set_index("campaign_id")["leads"]
    assert dialled.to_dict() == {"cmp_a": 0, "cmp_b": 1, "cmp_c": 0}


def test_a_call_of_no_campaign_to_a_phone_in_several_campaigns_is_no_lead_s() -> None:
    """Its key (phone * campaigns - 1) is that of the phone before's pair with the last
    campaign, which is a lead's: the call is still none of its calls."""
    people = leads(("cmp_a", PHONES[0]), ("cmp_b", PHONES[0]), ("cmp_a", PHONES[1]),
                   ("cmp_b", PHONES[1]))
    made = calls({"to_number": PHONES[0], "created_at": "2026-06-01T14:00:00Z",
                  "campaign_id": "cmp_a"},
                 {"to_number": PHONES[1], "created_at": "2026-06-01T14:00:00Z",
                  "campaign_id": None})
    for frames in ({"leads": people, "calls": made},
                   {"leads": arrow(people), "calls": arrow(made)}):
        table = funnel(**frames)
        dialled = table[table["stage"] == "dialled"].set_index("campaign_id")["leads"]
        assert dialled.to_dict() == {"cmp_a": 1, "cmp_b": 0}


def test_an_inbound_call_to_a_phone_in_several_campaigns_is_no_attempt() -> None:
    """The calls not asked (inbound) are left out of the search among a phone's several
    pairs too: the lead of cmp_a was tried once and never reached."""
    people = leads(("cmp_a", PHONES[0]), ("cmp_b", PHONES[0]))
    made = calls(answered(PHONES[0], "2026-06-01T14:00:00Z", 60, campaign_id="cmp_a",
                          direction="inbound"),
                 {"to_number": PHONES[0], "created_at": "2026-06-01T15:00:00Z",
                  "campaign_id": "cmp_a"})
    tries = attempts_to_contact(people, made)
    assert {(c, None if pd.isna(a) else int(a)): n for c, a, n in tries[
        ["campaign_id", "attempts", "leads"]].itertuples(index=False)} == rowwise.attempts(
        people, made) == {("cmp_a", None): 1}


def test_more_campaigns_than_a_byte_codes_equal_the_row_by_row_counts() -> None:
    """300 campaigns, whose codes (first seen in the calls) are then 0 to 299, past what a
    byte holds: a call of campaign n + 256 to the phone of campaign n's lead is none of
    its calls."""
    names = [f"cmp_{n:03d}" for n in range(300)]
    phones = [f"+1212555{n:04d}" for n in range(300)]
    people = leads(*zip(names, phones, strict=True),
                   *[(names[299 - n], phones[n]) for n in range(10)])  # some shared
    made = calls(*[answered(phones[n], "2026-06-01T14:00:00Z", 45 * (n % 2),
                            campaign_id=names[(n + shift) % 300])
                   for shift in (0, 256) for n in range(300)])
    for frames in ({"leads": people, "calls": made},
                   {"leads": arrow(people), "calls": arrow(made)}):
        table = funnel(**frames)
        assert {(c, str(s)): n for c, s, n in table[["campaign_id", "stage", "leads"]]
                .itertuples(index=False) if n} == _campaigned(rowwise.funnel(**frames))


@settings(max_examples=150, deadline=None)
@given(ticks=st.lists(st.integers(-10**6, 10**9), min_size=1, max_size=8),
       unit=st.sampled_from(["s", "ms", "us", "ns"]), other=st.sampled_from(["us", "ns"]),
       seconds=st.sampled_from([0, 0.1, 29.999999, 30, 30.0000001, 1e6]))
def test_talk_time_is_pandas_total_seconds(ticks: list[int], unit: str, other: str,
                                           seconds: float) -> None:
    start = pd.Timestamp("2026-06-01T14:00:00Z")
    ended = pd.Series(start + pd.to_timedelta(np.array(ticks), unit)).astype(
        f"datetime64[{unit}, UTC]")
    began = pd.Series([start, pd.NaT, *[start] * (len(ticks) - 1)][:len(ticks)]).astype(
        f"datetime64[{other}, UTC]")
    made = pd.DataFrame({"answered_at": began, "ended_at": ended})
    expected = ((ended - began).dt.total_seconds() >= seconds).fillna(False).to_numpy(bool)
    assert talked(made, seconds).tolist() == expected.tolist()


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("seconds", [0, 30, -30, 2_000_000, 3_000_000])
def test_talk_time_at_a_whole_number_of_seconds_and_a_tick_either_side(unit: str,
                                                                       seconds: int) -> None:
    """Whole seconds are compared as integer ticks (up to 2**51 of them: 2.25 million
    seconds in nanoseconds, past which pandas' float sum is compared): one tick short, the
    tick itself and one past, as pandas' ``total_seconds()`` counts them."""
    start = pd.Timestamp("2026-06-01T14:00:00Z")
    tick = pd.Timedelta(1, unit)
    ended = pd.Series([start + pd.Timedelta(seconds=seconds) + n * tick for n in (-1, 0, 1)]
                      ).astype(f"datetime64[{unit}, UTC]")
    began = pd.Series([start] * 3).astype(f"datetime64[{unit}, UTC]")
    made = pd.DataFrame({"answered_at": began, "ended_at": ended})
    expected = ((ended - began).dt.total_seconds() >= seconds).to_numpy(bool)
    assert talked(made, seconds).tolist() == expected.tolist()


@pytest.mark.parametrize("far", ["2250-01-01T00:00:00.5Z", "1800-01-01T00:00:00.5Z"])
def test_talk_time_of_a_span_pandas_nudges_goes_through_pandas(far: str) -> None:
    began = pd.Series(pd.to_datetime(["2026-06-01T14:00:00Z"] * 2, utc=True)).astype(
        "datetime64[ns, UTC]")
    ended = pd.Series(pd.to_datetime([far, "2026-06-01T14:00:30Z"], utc=True,
                                     format="ISO8601")).astype("datetime64[ns, UTC]")
    made = pd.DataFrame({"answered_at": began, "ended_at": ended})
    expected = ((ended - began).dt.total_seconds() >= 30).to_numpy(bool)
    assert talked(made, 30).tolist() == expected.tolist()


@pytest.mark.parametrize(("number", "moments"), [
    ("+97714567890", ["2026-06-01T14:10:00Z", "2026-06-01T14:20:00Z", "2026-06-01T14:50:00Z"]),
    ("+917410410123", ["2026-06-01T14:29:59Z", "2026-06-01T14:30:00Z"]),
    ("+12125550101", ["1880-06-01T14:00:00Z", "1880-06-01T14:57:00Z", "1880-06-01T18:05:00Z"]),
], ids=["Kathmandu +5:45", "Kolkata +5:30", "New York's local mean time -4:56:02"])
def test_local_hours_of_zones_off_the_hour_are_zoneinfo_s(number: str, moments: list[str]) -> None:
    """Local hours are read from a table per UTC quarter hour: Nepal's quarter past, India's
    half past, and a local mean time of no whole quarters (converted call by call) each as
    ``zoneinfo`` gives them, the calls side by side with a spread of other moments."""
    made = calls(*[{"to_number": number, "created_at": at} for at in moments])
    zone = phonenumbers.timezone.time_zones_for_number(phonenumbers.parse(number))[0]
    expected = sorted(pd.Timestamp(at).tz_convert(zone).hour for at in moments)
    table = answer_rates(made, by=("local_hour",))
    assert [h for h, n in table[["local_hour", "calls"]].values.tolist() for _ in range(n)
            ] == expected


def test_moments_years_apart_are_converted_call_by_call() -> None:
    """Calls spanning more quarter hours than there are calls skip the table: each local
    hour as ``zoneinfo`` gives it, and a number of no known zone (+800) in the null cell."""
    moments = ["2020-03-08T06:30:00Z", "2026-06-01T14:10:00Z", "2026-11-01T05:45:00Z"]
    made = calls(*[{"to_number": "+12125550101", "created_at": at} for at in moments],
                 {"to_number": "+80012345678", "created_at": "2023-01-01T00:00:00Z"})
    expected = sorted(pd.Timestamp(at).tz_convert("America/New_York").hour for at in moments)
    table = answer_rates(made, by=("local_hour",))
    assert [None if pd.isna(h) else h for h, n in table[["local_hour", "calls"]].values
            .tolist() for _ in range(n)] == [*expected, None]


def test_an_hour_in_which_the_offset_changes_half_past_is_read_call_by_call() -> None:
    """Adelaide falls back at 16:30 UTC on 4 April 2026 (03:00 ACDT to 02:00 ACST): the
    calls a quarter before and after fall in one UTC hour of two offsets."""
    made = calls(*[{"to_number": PHONES[3], "created_at": at} for at in (
        "2026-04-04T16:15:00Z", "2026-04-04T16:45:00Z", "2026-04-04T15:15:00Z")])
    table = answer_rates(made, by=("local_hour",))
    assert table[["local_hour", "calls"]].values.tolist() == [[1, 1], [2, 2]]


@settings(max_examples=60, deadline=None)
@given(account=accounts(), cuts=st.lists(st.integers(0, 25), max_size=3))
def test_the_calls_reduced_part_by_part_give_the_same_funnel(
        account: dict[str, pd.DataFrame], cuts: list[int]) -> None:
    """The Dask path's reduction: each part of the calls (any split) reduced to its distinct
    (campaign, number, stages) and stacked counts as the calls themselves do."""
    rules = {"conversation_seconds": 30, "positive": ("sale", "info_sent")}
    calls = account["calls"]
    parts = np.split(np.arange(len(calls)), sorted(min(cut, len(calls)) for cut in cuts))
    reduced = pd.concat([call_stages(calls.iloc[rows], distinct=True, **rules)
                         for rows in parts], ignore_index=True)
    assert len(reduced) <= (calls["direction"] == "outbound").sum()
    bookings = {"callbacks": account["callbacks"], "appointments": account["appointments"]}
    pd.testing.assert_frame_equal(
        FUNNEL.local(account["leads"], reduced, **bookings, **rules),
        funnel(account["leads"], calls, **bookings, **rules))
