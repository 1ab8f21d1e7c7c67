"""The audit's faster paths against the plain pandas they replace: the last DNC check of each
lead's number by integer codes, the abandoned calls with every column of the calls though
the checks read only a few; and the recipient's local time on every finding of a call,
written as ``strftime`` writes it."""

from __future__ import annotations

from datetime import time

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
from hypothesis import example, given, settings
from hypothesis import strategies as st
from phonenumbers import timezone as phone_timezones

from dialkit._arrays._groups import by_group_and_time, millis_since_first
from dialkit._arrays._kept import hash_taken
from dialkit.compliance import HOUSE_RULES, AuditReport, audit
from dialkit.compliance._checks._dnc import _last_checks
from dialkit.compliance._checks._findings import LOCAL_FORMAT, WEEKDAYS, written
from dialkit.compliance._checks._frequency import _crowded
from dialkit.compliance._inputs._population import LIVE, population_of
from dialkit.compliance._rows import values_at
from dialkit.compliance._rules._rules import RULE_IDS
from dialkit.compliance._run import in_rule_order

NUMBERS = st.sampled_from(["+12125550123", "+13125550101", "+442071234567", "", None])
TIMES = st.one_of(st.none(), st.datetimes(min_value=pd.Timestamp("2026-01-01").to_pydatetime(),
                                          max_value=pd.Timestamp("2026-12-31").to_pydatetime()))
TEXT = st.sampled_from(["string[pyarrow]", object])


def checked_at(times: list[object]) -> pd.Series:
    return pd.Series(pd.to_datetime(times).tz_localize("UTC"), dtype="datetime64[us, UTC]")


@settings(max_examples=200, deadline=None)
@given(leads=st.lists(NUMBERS, max_size=8),
       checks=st.lists(st.tuples(NUMBERS, TIMES), min_size=1, max_size=8),
       lead_text=TEXT, dnc_text=TEXT)
def test_last_checks_are_the_group_by_and_map_they_replace(
        leads: list[str | None], checks: list[tuple[str | None, object]],
        lead_text: str | type, dnc_text: str | type) -> None:
    phones = pd.Series(leads, dtype=lead_text, name="phone")
    dnc = pd.DataFrame({"phone": pd.Series([p for p, _ in checks], dtype=dnc_text),
                        "checked_at": checked_at([t for _, t in checks])})
    latest = dnc.groupby("phone", sort=False)["checked_at"].max()
    expected = (phones.map(latest) if len(latest)  # map fails on an empty mapping
                else pd.Series(pd.NaT, index=phones.index, dtype=latest.dtype, name="phone"))
    pd.testing.assert_series_equal(_last_checks(phones, dnc), expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, 7, 2**15 - 1, 2**15, 2**40]),
                          st.one_of(st.none(), st.integers(0, 5))), max_size=30),
       st.data())
def test_rows_sort_by_group_then_time_as_a_lexsort_does(
        drawn: list[tuple[int, int | None]], data: st.DataObject) -> None:
    """By time and then stably by group (a radix sort for 16-bit groups, not above)."""
    group = np.array([g for g, _ in drawn], np.int64)
    at = pd.Series(pd.to_datetime([None if t is None else pd.Timestamp("2026-06-01") +
                                   pd.Timedelta(hours=t) for _, t in drawn], utc=True),
                   dtype="datetime64[us, UTC]")
    rows = np.array(sorted(data.draw(st.sets(st.sampled_from(range(len(drawn))))
                                     if drawn else st.just(set()))), np.intp)
    expected = rows[np.lexsort((pd.DatetimeIndex(at).asi8[rows], group[rows]))]
    assert by_group_and_time(group, at, rows).tolist() == expected.tolist()


NY = "+12125550123"


def test_with_no_dnc_result_every_active_lead_is_unscreened() -> None:
    """An empty DNC frame (nothing checked yet) once ended the audit with a pandas error."""
    leads = pd.DataFrame({"id": ["lead_a", "lead_b"], "campaign_id": "cmp_1",
                          "phone": [NY, "+13125550101"], "status": ["new", "completed"]})
    dnc = pd.DataFrame({"phone": pd.Series([], dtype=object), "listed": pd.Series([], dtype=bool),
                        "checked_at": checked_at([])})
    calls = pd.DataFrame({"id": ["call_0"], "direction": "outbound", "from_number": NY,
                          "to_number": NY, "created_at": pd.Timestamp("2026-06-01T15:00Z"),
                          "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
                          "disposition": None})
    found = audit(calls, leads=leads, dnc=dnc, as_of="2026-06-10").findings
    assert found[["rule", "lead_id"]].values.tolist() == [["unscreened_lead", "lead_a"]]
    assert found["evidence"].tolist() == ["no DNC check of the number"]


@settings(max_examples=200, deadline=None)
@given(chunks=st.lists(st.lists(st.one_of(st.none(), st.text(max_size=3)), max_size=5),
                       min_size=1, max_size=4),
       dtype=st.sampled_from(["string[pyarrow]", "str", "object"]), data=st.data())
def test_a_few_rows_taken_chunk_by_chunk_are_what_pandas_takes(
        chunks: list[list[str | None]], dtype: str, data: st.DataObject) -> None:
    """Findings name their calls by a take from each chunk of the column (pyarrow joins
    the chunks to take): the same values, order and type as the column's own take."""
    arrow = pa.chunked_array([pa.array(chunk, pa.large_string()) for chunk in chunks])
    column = pd.Series(arrow.to_pylist() if dtype == "object" else pd.array(arrow, dtype=dtype),
                       dtype=dtype)
    size = len(column)
    at = np.array(data.draw(st.lists(st.integers(0, size - 1), max_size=8) if size
                            else st.just([])), np.intp)
    expected = column.array.take(at)
    got = values_at(column, at)
    assert got.dtype == expected.dtype
    pd.testing.assert_extension_array_equal(got, expected)


@settings(max_examples=200, deadline=None)
@given(offsets=st.lists(st.integers(0, 10**15), max_size=6),
       unit=st.sampled_from(["ns", "us", "ms", "s"]))
def test_milliseconds_since_the_first_are_whole_ones_rounded_down(offsets: list[int],
                                                                 unit: str) -> None:
    """The windows' milliseconds, in integers: each time's whole milliseconds after the
    first, as Python's own arithmetic of the times gives them."""
    times = pd.Series(pd.Timestamp("2026-03-01", tz="UTC")
                      + pd.to_timedelta(offsets, unit="us")).dt.as_unit(unit)
    first = times.min()
    expected = [(t - first) // pd.Timedelta(milliseconds=1) for t in times]
    assert millis_since_first(times).tolist() == expected


def test_abandoned_calls_keep_every_column_of_the_calls_in_order() -> None:
    """The checks take only the columns they read; the abandoned calls are shown whole."""
    answer = pd.Timestamp("2026-06-01T15:00Z")
    calls = pd.DataFrame({
        "id": ["call_0", "call_1"], "status": "completed", "direction": "outbound",
        "from_number": NY, "to_number": [NY, "+13125550101"],
        "created_at": answer - pd.Timedelta(seconds=10), "answered_at": answer,
        "ended_at": answer + pd.Timedelta(seconds=3), "campaign_id": "cmp_1",
        "disposition": None, "hangup_cause": ["normal_clearing", "caller_hangup"],
        "duration_seconds": [3.0, 4.0]})
    abandoned = audit(calls).abandoned
    assert abandoned.columns.tolist() == [
        "call_id", "status", "direction", "from_number", "phone", "at", "answered_at",
        "ended_at", "campaign_id", "disposition", "hangup_cause", "duration_seconds",
        "lead_id", "window_rate", "window_answered", "window_abandoned", "window_start",
        "window_end", "window_limit"]
    assert abandoned["hangup_cause"].tolist() == ["normal_clearing", "caller_hangup"]
    assert abandoned["duration_seconds"].tolist() == [3.0, 4.0]


# The recipient's local time on every finding of a call ------------------------------------

def outbound(phones: list[str], times: list[pd.Timestamp]) -> pd.DataFrame:
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(phones))], "direction": "outbound",
        "from_number": NY, "to_number": phones,
        "created_at": pd.to_datetime(times, utc=True, format="ISO8601"),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})


def listed(*phones: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": list(phones), "listed": True,
                         "checked_at": pd.Timestamp("2026-06-05", tz="UTC")})


def two_zones() -> tuple[str, tuple[str, ...]]:
    """A NANP number of two zones an hour or more apart (their order as phonenumbers
    lists them)."""
    for area in range(201, 1000):
        number = phonenumbers.parse(f"+1{area}5550123")
        zones = phone_timezones.time_zones_for_number(number)
        if phonenumbers.is_valid_number(number) and len({
                pd.Timestamp("2026-06-01T12:00Z").tz_convert(z).utcoffset() for z in zones}) > 1:
            return f"+1{area}5550123", zones
    raise AssertionError("phonenumbers knows no NANP area code of two zones")


def test_a_frequency_finding_shows_the_local_time_of_the_call_over_the_cap() -> None:
    times = ["2026-06-01T14:00Z", "2026-06-01T16:00Z", "2026-06-01T18:00Z",
             "2026-06-01T19:30:15Z"]
    found = audit(outbound([NY] * 4, times), policy=HOUSE_RULES).findings
    assert found[["rule", "call_id", "local_time", "timezone"]].values.tolist() == [
        ["call_frequency", "call_3", "2026-06-01 15:30:15", "America/New_York"]]


def test_a_dnc_finding_shows_the_local_time_of_the_call_to_the_listed_number() -> None:
    london = "+442071234567"
    found = audit(outbound([NY, london], ["2026-06-01T13:00Z", "2026-06-01T13:00Z"]),
                  dnc=listed(NY, london)).findings
    assert found[["call_id", "local_time", "timezone"]].values.tolist() == [
        ["call_0", "2026-06-01 09:00:00", "America/New_York"],
        ["call_1", "2026-06-01 14:00:00", "Europe/London"]]


def test_a_call_of_no_known_zone_shows_none() -> None:
    freephone = "+80012345678"
    found = audit(outbound([freephone], ["2026-06-01T13:00Z"]), dnc=listed(freephone)).findings
    assert found["rule"].tolist() == ["unknown_timezone", "dnc_call"]
    assert found["local_time"].tolist() == [None, None]
    assert found["timezone"].tolist() == [None, None]


PHONES = [NY, "+442071234567", "+61212345678", "+80012345678", two_zones()[0]]


def expected_local(phone: str, at: pd.Timestamp) -> tuple[str | None, str | None]:
    """Per call, as a calling-hours finding names it: the first zone whose window the call
    is outside, else the number's first zone."""
    zones = [z for z in phone_timezones.time_zones_for_number(phonenumbers.parse(phone))
             if z != "Etc/Unknown"]
    if not zones:
        return None, None
    outside = [z for z in zones if not time(8) <= at.tz_convert(z).time() < time(21)]
    zone = (outside or zones)[0]
    return at.tz_convert(zone).strftime("%Y-%m-%d %H:%M:%S"), zone


EVERY_HOUR = [(phone, day + hour * 60) for phone in PHONES for day in (0, 60 * 24 * 181)
              for hour in range(24)]
"""Each number called at every hour of a winter day and of a summer one: each zone's
window edges and its daylight-saving offset, in one audit (its fixed cost, some 0.25 s,
is most of an example's)."""


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PHONES), st.integers(0, 60 * 24 * 200)),
                min_size=1, max_size=12))
@example(EVERY_HOUR)
def test_every_call_finding_shows_the_local_time_a_row_by_row_reading_gives(
        drawn: list[tuple[str, int]]) -> None:
    """Every call to a listed number is a DNC finding (no listing date), at any hour, in
    any season, to a number of one zone, two or none."""
    phones = [phone for phone, _ in drawn]
    times = [pd.Timestamp("2026-01-01T00:00:30Z") + pd.Timedelta(minutes=m) for _, m in drawn]
    found = audit(outbound(phones, times), dnc=listed(*set(phones))).findings
    calls = found[found["rule"] == "dnc_call"]
    assert len(calls) == len(drawn)
    for call_id, local_time, zone in calls[["call_id", "local_time", "timezone"]].values:
        n = int(call_id.removeprefix("call_"))
        assert (local_time, zone) == expected_local(phones[n], times[n])


@settings(max_examples=6, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PHONES), st.integers(0, 60 * 24 * 200),
                          st.booleans()), min_size=1, max_size=12),
       st.integers(0, 11), st.sampled_from(PHONES))
@example([(phone, minutes, n % 3 == 0) for n, (phone, minutes) in enumerate(EVERY_HOUR)],
         1, PHONES[-1])
def test_calls_audited_again_or_changed_in_place_are_judged_as_new_ones(
        drawn: list[tuple[str, int, bool]], changed: int, phone: str) -> None:
    """The outbound calls' numbers take the hash and zones kept with the calls' own column
    (``_kept.hash_taken``): on Arrow text, among inbound calls, audited twice and again
    after a number is set anew, each report is the one of the same calls as plain objects,
    which keep nothing."""
    made = outbound([p for p, _, _ in drawn], [
        pd.Timestamp("2026-01-01T00:00:30Z") + pd.Timedelta(minutes=m) for _, m, _ in drawn])
    made["direction"] = ["inbound" if inbound else "outbound" for _, _, inbound in drawn]
    arrow = made.astype({"to_number": "string[pyarrow]"})
    plain = made.astype({"to_number": object})  # pandas 3 would infer Arrow-backed str
    dnc = listed(*PHONES[:2])
    for _ in range(2):
        same_findings(audit(arrow, dnc=dnc), audit(plain, dnc=dnc))
    arrow.loc[changed % len(made), "to_number"] = phone
    plain.loc[changed % len(made), "to_number"] = phone
    same_findings(audit(arrow, dnc=dnc), audit(plain, dnc=dnc))


def same_findings(got: AuditReport, expected: AuditReport) -> None:
    """The same findings, the numbers' text type aside (the calls' own)."""
    pd.testing.assert_frame_equal(got.findings, expected.findings, check_dtype=False)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.integers(0, 6), st.just(2**17)), st.one_of(
    st.integers(0, 5 * 86_400_000), st.just(40_000 * 86_400_000))), min_size=1, max_size=30),
       st.integers(0, 4))
def test_crowded_groups_are_those_a_groupby_by_day_finds(drawn: list[tuple[int, int]],
                                                         limit: int) -> None:
    """Groups with more than ``limit`` rows in some two consecutive days, as pandas counts
    them per (group, day); keys sorted as 32-bit integers where they fit, else (a group
    of 2**17 over 40,000 days) as 64-bit ones."""
    group = np.array([g for g, _ in drawn], np.int64)
    millis = np.array([m for _, m in drawn], np.int64)
    per_day = pd.Series(1, index=pd.MultiIndex.from_arrays([group, millis // 86_400_000])
                        ).groupby(level=[0, 1]).sum()
    busy = {g for (g, d), n in per_day.items() if n + per_day.get((g, d + 1), 0) > limit}
    assert _crowded(group, millis, limit).tolist() == [n for n, g in enumerate(group)
                                                       if g in busy]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-2**62, 2**62)), max_size=20))
def test_times_are_written_as_strftime_writes_them(ticks: list[int | None]) -> None:
    """Local times (naive, before 1970 too, with fractions of a second) and UTC ones (NaT
    among them) as pandas' ``strftime`` writes them, the weekday as ``%a``."""
    naive = np.array([t for t in ticks if t is not None], "datetime64[ns]")
    pandas = pd.Series(naive).dt.strftime(LOCAL_FORMAT).tolist()
    assert written(naive).tolist() == pandas
    utc = pd.Series(pd.to_datetime(ticks, utc=True), dtype="datetime64[us, UTC]")
    known = utc.notna().to_numpy()
    for unit, pattern in (("s", LOCAL_FORMAT), ("D", "%Y-%m-%d")):
        assert written(utc, unit)[known].tolist() == utc[known].dt.strftime(pattern).tolist()
        assert set(written(utc, unit)[~known]) <= {"NaT"}
    days = naive.astype("datetime64[D]").astype(np.int64)
    assert WEEKDAYS[(days + 3) % 7].tolist() == pd.Series(naive).dt.strftime("%a ").tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["cmp_b", "cmp_a", "", None]), st.booleans()),
                max_size=12), TEXT, st.booleans())
def test_population_counts_calls_as_the_group_by_it_replaces(
        calls: list[tuple[str | None, bool]], text: str | type, taken: bool) -> None:
    """Per campaign, the outbound and answered calls as a group-by of the campaigns' text
    counts them; of a column taken from a longer one whose hash is kept (:func:`hash_taken`:
    its distinct texts hold one that no call has) too."""
    whole = pd.Series([c for c, _ in calls] + ["cmp_z"], dtype=text)
    rows = np.arange(len(calls))
    campaign = whole.take(rows).reset_index(drop=True)
    if taken:
        hash_taken(campaign, whole, rows)
    outbound = pd.DataFrame({"campaign_id": campaign, LIVE: [a for _, a in calls]})
    by_campaign = outbound.groupby("campaign_id", dropna=False, observed=True)
    expected = pd.DataFrame({"calls": by_campaign.size(), "answered": by_campaign[
        LIVE].sum(), "leads": 0}).astype("int64").rename_axis("campaign_id")
    pd.testing.assert_frame_equal(population_of(outbound, None), expected.sort_index())


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(RULE_IDS), st.one_of(st.none(), st.integers(0, 3))),
                max_size=20))
def test_findings_are_in_the_order_of_rule_then_time(found: list[tuple[str, int | None]]) -> None:
    """By rule as ``RULE_IDS`` lists them, then time (none last), ties as given: the
    keyed ``sort_values`` the lexsort replaces."""
    frame = pd.DataFrame({"rule": pd.Series([r for r, _ in found], dtype="str"), "at": pd.Series(
        [pd.NaT if t is None else pd.Timestamp("2026-06-01", tz="UTC") + pd.Timedelta(hours=t)
         for _, t in found], dtype="datetime64[us, UTC]")})
    order = {rule: n for n, rule in enumerate(RULE_IDS)}
    expected = frame.sort_values(["rule", "at"], key=lambda c: c.map(order) if c.name == "rule"
                                 else c, kind="stable")
    assert in_rule_order(frame).tolist() == expected.index.tolist()
