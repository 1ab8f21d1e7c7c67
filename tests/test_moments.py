"""Times and lengths of time as the library and the CLI take them (issue 46, item 5): a
number without a unit, or text that is no ISO 8601 time, is refused naming the argument
or the option, never read as nanoseconds or guessed."""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit._utils._base_error import InputError, TimeRangeError
from dialkit._utils._moments import (
    EARLIEST,
    LATEST,
    LONGEST,
    duration,
    held,
    iso_date,
    iso_datetime,
    later,
    period_bound,
    utc_moment,
    utc_times,
)
from dialkit._utils._moments import HELD as HELD_TEXT
from dialkit.cli import app
from dialkit.compliance import audit, next_allowed, upcoming

runner = CliRunner()
UTC_2026 = pd.Timestamp("2026-11-01T14:00Z")


@pytest.mark.parametrize(("given", "length"), [
    ("7d", pd.Timedelta(days=7)), ("7D", pd.Timedelta(days=7)), ("48h", pd.Timedelta(hours=48)),
    ("90min", pd.Timedelta(minutes=90)), ("2w", pd.Timedelta(weeks=2)),
    ("1d12h", pd.Timedelta(hours=36)), ("1.5 hours", pd.Timedelta(minutes=90)),
    ("30s", pd.Timedelta(seconds=30)), (timedelta(days=3), pd.Timedelta(days=3)),
    (pd.Timedelta("2h"), pd.Timedelta(hours=2)),
])
def test_a_length_of_time_with_its_unit_is_taken(given: object, length: pd.Timedelta) -> None:
    assert duration(given, "horizon") == length


@pytest.mark.parametrize(("given", "said"), [
    ("30", "horizon='30': give a unit, e.g. '30d', '12h', '90min'"),
    (30, "horizon=30: give a unit"),
    (7.5, "horizon=7.5: give a unit"),
    (" 30 ", "horizon=' 30 ': give a unit"),
    ("30m", "horizon='30m' is not a length of time: pass a number and its unit (w, d, h, "
            "min, s)"),  # minutes to pandas, months to a reader
    ("1y", "horizon='1y' is not a length of time"),
    ("soon", "horizon='soon' is not a length of time"),
    ("-7d", "horizon='-7d' is not a length of time"),
    ("0d", "horizon='0d': pass a length of time above zero"),
    (timedelta(0), "above zero"),
    (pd.NaT, "horizon=NaT is not a length of time"),
])
def test_a_length_of_time_without_a_unit_or_none_at_all_is_refused(given: object,
                                                                   said: str) -> None:
    with pytest.raises(ValueError) as refused:
        duration(given, "horizon")
    assert said in str(refused.value)


@pytest.mark.parametrize(("given", "moment"), [
    ("2026", "2026-01-01T00:00Z"), ("2026-11", "2026-11-01T00:00Z"),
    ("2026-11-01", "2026-11-01T00:00Z"),  # a day, not a moment: it starts at midnight UTC
    ("2026-11-01T09:00Z", "2026-11-01T09:00Z"),
    ("2026-11-01T09:00-05:00", "2026-11-01T14:00Z"), ("2026-11-01T09:00+0530", "2026-11-01T03:30Z"),
    ("2026-11-01T09:00:00.25Z", "2026-11-01T09:00:00.25Z"),
    (datetime(2026, 11, 1, 9, tzinfo=UTC), "2026-11-01T09:00Z"),
    (date(2026, 11, 1), "2026-11-01T00:00Z"), (pd.Timestamp("2026-11-01T09:00-05:00"),
                                               "2026-11-01T14:00Z"),
])
def test_an_iso_time_with_its_zone_or_a_date_is_taken(given: object, moment: str) -> None:
    assert utc_moment(given, "since") == pd.Timestamp(moment)


@pytest.mark.parametrize("given", ["2026-11-01T09", "2026-11-01T09:00", "2026-11-22 19:00",
                                   "2026-11-01 09:00:00", datetime(2026, 11, 1, 9),
                                   pd.Timestamp("2026-11-22 19:00")])
def test_a_time_of_day_without_a_zone_is_refused_never_read_as_utc(given: object) -> None:
    with pytest.raises(ValueError, match=rf"^at={re.escape(repr(given))} has no time zone: "
                                         r"write it with one, .* or name the zone it is "
                                         r"read in \(tz='America/New_York'\)"):
        utc_moment(given, "at")


@pytest.mark.parametrize(("given", "zone", "moment"), [
    ("2026-11-22 19:00", "America/New_York", "2026-11-23T00:00Z"),   # EST, UTC-5
    ("2026-07-22 19:00", "America/New_York", "2026-07-22T23:00Z"),   # EDT, UTC-4
    ("2026-11-22T19:00", "Europe/London", "2026-11-22T19:00Z"),
    ("2026-11-22", "America/Denver", "2026-11-22T07:00Z"),           # the day starts there
    (datetime(2026, 11, 22, 19), "America/Chicago", "2026-11-23T01:00Z"),
    ("2026-11-22T19:00-05:00", "Asia/Tokyo", "2026-11-23T00:00Z"),   # its own zone wins
])
def test_a_time_without_a_zone_is_read_in_the_zone_named(given: object, zone: str,
                                                         moment: str) -> None:
    assert utc_moment(given, "at", tz=zone) == pd.Timestamp(moment)


@pytest.mark.parametrize(("given", "zone", "said"), [
    ("2026-11-01T01:30", "America/New_York", "is not one moment in America/New_York"),
    ("2026-03-08T02:30", "America/New_York", "is not one moment in America/New_York"),
    ("2026-11-22 19:00", "Mars/Olympus", "tz='Mars/Olympus' is not a time zone"),
    ("2026-11-22 19:00", "EST5EDT,M3.2.0", "is not a time zone"),
])
def test_a_time_the_zone_does_not_make_one_moment_or_no_zone_is_refused(
        given: str, zone: str, said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        utc_moment(given, "at", tz=zone)


@pytest.mark.parametrize("given", ["30", 30, 1.7e18, "now", "today", "yesterday",
                                   "11/01/2026", "01.11.2026", "20261101", "2026-13-01",
                                   "2026-11-01 09:00 EST", "", pd.NaT])
def test_what_is_no_iso_time_is_refused_naming_the_argument(given: object) -> None:
    with pytest.raises(ValueError, match=rf"^since={re.escape(repr(given))}: "
                                         r"pass an ISO date or time, e.g. '2026-11-01'"):
        utc_moment(given, "since")


def test_the_library_refuses_a_horizon_or_a_moment_it_would_have_misread() -> None:
    with pytest.raises(ValueError, match="^horizon='30': give a unit"):
        upcoming({"calls": pd.DataFrame(), "leads": pd.DataFrame(),
                  "callbacks": pd.DataFrame()}, horizon="30")
    with pytest.raises(ValueError, match="^at=30: pass an ISO date or time"):
        next_allowed("+18015550123", 30)  # type: ignore[arg-type]  # was 1970, 30 ns after
    calls = pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                          "from_number": "+14155550100", "to_number": "+12125550123",
                          "created_at": UTC_2026, "answered_at": pd.NaT, "ended_at": pd.NaT,
                          "campaign_id": "cmp_1", "disposition": None})
    with pytest.raises(ValueError, match="^as_of='yesterday': pass an ISO date or time"):
        audit(calls, as_of="yesterday")


@pytest.mark.parametrize(("arguments", "said"), [
    (["compliance", "upcoming", "--horizon", "30"],
     "error: --horizon '30': give a unit, e.g. '30d', '12h', '90min' or '2w'"),
    (["compliance", "upcoming", "--horizon", "0d"],
     "error: --horizon '0d': pass a length of time above zero"),
    (["compliance", "when", "+18015550123", "--at", "11/02/2026"],
     "error: --at '11/02/2026': pass an ISO date or time, e.g. '2026-11-01'"),
    (["compliance", "when", "+18015550123", "--at", "now"],
     "error: --at 'now': pass an ISO date or time"),
    (["compliance", "audit", "--sandbox", "--since", "30"],
     "error: --since '30': pass an ISO date or time"),
    (["compliance", "audit", "--sandbox", "--until", "last week"],  # yesterday: issue 48
     "error: --until 'last week': pass an ISO date or time ('2026-11-01', "),
])
def test_the_cli_refuses_them_naming_the_option_before_reaching_the_account(
        arguments: list[str], said: str) -> None:
    result = runner.invoke(app, arguments, env={"DIALKIT_BASE_URL": "http://127.0.0.1:9"})
    assert result.exit_code == 2, result.output
    assert said in result.output


def test_the_frames_and_the_analytics_name_the_argument_they_cannot_read() -> None:
    from dialkit import Client
    from dialkit.analytics import disposition_mix

    with Client.sandbox() as client:
        with pytest.raises(ValueError, match="^max_age='30': give a unit"):
            client.frames.calls(max_age="30")  # was "could not convert string to float"
        calls = client.frames.calls(max_age="1d")  # text with its unit, as a horizon
        assert len(client.frames.calls(max_age=0)) == len(calls)  # seconds: as documented
        with pytest.raises(ValueError, match="^start='30': pass a day as '2026-11-01'"):
            client.frames.dispositions("30", "2026-11-02")
    with pytest.raises(ValueError, match="^freq='30': pass a pandas period alias"):
        disposition_mix(calls, freq="30")


def test_the_readers_of_one_instant_load_no_pandas_for_it() -> None:
    code = ("import sys\nimport dialkit._utils._moments as m\n"
            "m.iso_datetime('2026-11-02T15:00:00Z')\nprint('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize(("text", "expected"), [
    ("2026-11-02T15:00:00Z", datetime(2026, 11, 2, 15, tzinfo=UTC)),
    ("2026-11-02T10:00:00-05:00", datetime(2026, 11, 2, 15, tzinfo=UTC)),
    ("2026-11-02", datetime(2026, 11, 2)),
])
def test_one_instant_is_read_as_python_reads_iso_8601(text: str, expected: datetime) -> None:
    assert iso_datetime(text) == expected
    assert (iso_datetime(text).tzinfo is None) is (expected.tzinfo is None)


@pytest.mark.parametrize("text", ["", "tomorrow", "2026-13-01", "11/02/2026"])
def test_text_that_is_no_instant_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        iso_datetime(text)


@pytest.mark.parametrize("values", [
    pd.Series(["2026-11-02T15:00:00Z", "2026-11-02T10:00:00-05:00", None], dtype=object),
    pd.Series(pd.to_datetime(["2026-11-02T15:00:00Z", "2026-11-02T15:00:00Z", None])),
    pd.Series(pd.to_datetime(["2026-11-02T15:00:00Z"] * 2 + [None], utc=True)
              .tz_convert("America/New_York")),
])
def test_utc_times_read_every_form_of_the_same_moments_alike(values: pd.Series) -> None:
    """Issue 63: every column of times is read here: text with its offset, naive times
    (taken as UTC) and times of another zone are the same instants."""
    read = utc_times(values, "calls.created_at")
    assert str(read.dt.tz) == "UTC" and read.isna().tolist() == [False, False, True]
    assert (read.dropna() == pd.Timestamp("2026-11-02T15:00:00Z")).all()


def test_utc_times_refuse_what_is_no_time_naming_the_column_unless_not_strict() -> None:
    values = pd.Series(["2026-11-02T15:00:00Z", "yesterday"], dtype=object)
    with pytest.raises(InputError, match=r"calls.created_at holds 'yesterday' at row 1"):
        utc_times(values, "calls.created_at")
    read = utc_times(values, "calls.created_at", strict=False)
    assert read.isna().tolist() == [False, True]  # a figure of the data, not a verdict


# --- times pandas cannot hold (issue 72, item 2) ------------------------------------------
# pandas keeps the audit's times in nanoseconds, 1677-09-21 to 2262-04-11: `compliance when
# --at 0206-11-03T15:00Z` was answered for another moment, exit 0. Every reader that answers
# in pandas' types refuses such a time naming it and the range; none wraps it.

HELD = "1677-09-21 00:12:43 to 2262-04-11 23:47:16 UTC"
OUT_OF_RANGE = [
    "0206-11-03T15:00Z", "9999-11-03T15:00Z", "0206-11-03", "9999-11-03",
    datetime(206, 11, 3, 15, tzinfo=UTC), datetime(9999, 11, 3, 15, tzinfo=UTC),
    date(206, 11, 3), date(9999, 11, 3), "1677-09-21", "2262-04-12",
]


def test_the_range_is_pandas_own() -> None:
    assert pd.Timestamp(EARLIEST) == pd.Timestamp.min.tz_localize("UTC").ceil("us")
    assert pd.Timestamp(LATEST) == pd.Timestamp.max.tz_localize("UTC").floor("us")
    assert pd.Timedelta(LONGEST) == pd.Timedelta.max.floor("us")
    assert HELD_TEXT == HELD


@pytest.mark.parametrize("given", OUT_OF_RANGE, ids=str)
def test_utc_moment_refuses_a_time_pandas_cannot_hold(given: object) -> None:
    with pytest.raises(TimeRangeError, match=rf"^at={re.escape(repr(given))} is outside the "
                                             rf"times pandas holds, {HELD}: pass a time"):
        utc_moment(given, "at")


@pytest.mark.parametrize("given", ["0206-11-03 15:00", "9999-11-03 15:00"])
def test_utc_moment_refuses_one_read_in_a_zone_too(given: str) -> None:
    with pytest.raises(TimeRangeError, match=rf"^at='{given}' is outside"):
        utc_moment(given, "at", tz="America/New_York")


@pytest.mark.parametrize("given", ["1677-09-22", "2262-04-11T23:47Z", "1677-09-21T00:13Z"])
def test_the_times_at_the_edges_are_held(given: str) -> None:
    assert utc_moment(given, "at") == pd.Timestamp(given, tz="UTC")
    assert utc_moment(given, "at").as_unit("ns").year in (1677, 2262)  # no overflow


@pytest.mark.parametrize("given", OUT_OF_RANGE, ids=str)
def test_period_bound_refuses_them(given: object) -> None:
    with pytest.raises(TimeRangeError, match=rf"^since={re.escape(repr(given))} is outside"):
        period_bound(given, "since", now=UTC_2026)


def test_period_bound_refuses_a_span_back_past_the_range() -> None:
    with pytest.raises(TimeRangeError, match=r"^since='99999999d' is longer than pandas holds"):
        period_bound("99999999d", "since", now=UTC_2026)
    with pytest.raises(TimeRangeError, match=r"^since='106000d' from 1800-01-01 00:00 UTC "
                                             r"starts before 1677-09-21 00:12:43 UTC"):
        period_bound("106000d", "since", now=pd.Timestamp("1800-01-01T00:00Z"))
    assert period_bound("106000d", "since", now=UTC_2026).year == 1736


@pytest.mark.parametrize("given", ["99999999d", "99999999999999999999d", "106752d",
                                   "15251w", timedelta(days=200_000),
                                   pd.Timedelta(days=200_000)], ids=str)
def test_duration_refuses_a_length_pandas_cannot_hold(given: object) -> None:
    with pytest.raises(TimeRangeError, match=rf"^horizon={re.escape(repr(given))} is longer "
                                             r"than pandas holds, 106,751 days \(about 292 "
                                             r"years\): pass a shorter length of time"):
        duration(given, "horizon")


def test_later_refuses_a_horizon_that_ends_past_the_range() -> None:
    assert later(UTC_2026, "7d", "horizon") == UTC_2026 + pd.Timedelta(days=7)
    with pytest.raises(TimeRangeError, match=r"^horizon='100000d' from 2026-11-01 14:00 UTC "
                                             r"ends past 2262-04-11 23:47:16 UTC"):
        later(UTC_2026, "100000d", "horizon")  # UTC_2026 + 100000 days: OutOfBoundsDatetime


@pytest.mark.parametrize(("values", "shown"), [
    (pd.Series(["2026-11-02T15:00:00Z", None, "0206-11-03T15:00:00Z"], dtype=object),
     "'0206-11-03T15:00:00Z'"),
    (pd.Series(["2026-11-02T15:00:00Z", None, "9999-11-03T15:00:00Z"], dtype=object),
     "'9999-11-03T15:00:00Z'"),
    (pd.Series(pd.to_datetime(["2026-11-02T15:00:00Z", None, "9999-11-03T15:00:00Z"],
                              utc=True)), "Timestamp('9999-11-03 15:00:00+0000', tz='UTC')"),
], ids=["text-0206", "text-9999", "times-9999"])
def test_utc_times_refuse_a_time_pandas_cannot_hold_naming_its_row_unless_not_strict(
        values: pd.Series, shown: str) -> None:
    with pytest.raises(TimeRangeError, match=rf"^calls.created_at holds {re.escape(shown)} at "
                                             rf"row 2, which is outside the times pandas "
                                             rf"holds, {HELD}: correct it"):
        utc_times(values, "calls.created_at")
    read = utc_times(values, "calls.created_at", strict=False)
    assert read.isna().tolist() == [False, True, True]  # missing, as what is no time


@pytest.mark.parametrize(("text", "expected"), [
    ("0206-11-03T15:00Z", datetime(206, 11, 3, 15, tzinfo=UTC)),
    ("9999-11-03T15:00Z", datetime(9999, 11, 3, 15, tzinfo=UTC)),
])
def test_the_readers_without_pandas_keep_such_a_time_exactly_and_held_refuses_it(
        text: str, expected: datetime) -> None:
    """Python's types hold years 1 to 9999: read without pandas, the time is kept as it
    was written, never wrapped; where it is handed to pandas, :func:`held` refuses it."""
    assert iso_datetime(text) == expected
    assert iso_date(text[:10]) == expected.date()
    with pytest.raises(TimeRangeError, match=rf"^scheduled_at='{text}' is outside"):
        held(iso_datetime(text), "scheduled_at", text)
    assert held(datetime(2026, 11, 2), "at") == datetime(2026, 11, 2)  # naive: as UTC
