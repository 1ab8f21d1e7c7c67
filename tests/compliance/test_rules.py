"""Each rule's edges, on frames made by hand: the window's last second, DST, a number
of two zones, one of none, the 4th call at exactly 24 h, a call on the day of listing."""

from __future__ import annotations

from dataclasses import replace
from datetime import time
from typing import Any

import pandas as pd
import phonenumbers
import pytest
from phonenumbers import timezone as phone_timezones

from dialkit.compliance import HOUSE_RULES, POLICY, UK_OFCOM, US_FEDERAL, AuditInputError, audit

NY = "+12125550123"  # America/New_York


def calls(*rows: dict[str, Any]) -> pd.DataFrame:
    """Outbound calls from a verified id, unanswered unless a row says otherwise."""
    base = {"direction": "outbound", "from_number": "+14155550100", "answered_at": None,
            "ended_at": None, "campaign_id": "cmp_1", "disposition": None}
    frame = pd.DataFrame([{**base, "id": f"call_{n}", **row} for n, row in enumerate(rows)])
    for column in ("created_at", "answered_at", "ended_at"):
        frame[column] = pd.to_datetime(frame[column], utc=True, format="ISO8601")
    return frame


def rules_found(frame: pd.DataFrame, **options: Any) -> list[tuple[str, str]]:
    found = audit(frame, **options).findings
    return list(zip(found["rule"], found["call_id"].astype(str), strict=True))


@pytest.mark.parametrize(("utc", "outside"), [
    ("2026-06-02T00:59:59Z", False),  # 20:59:59 EDT
    ("2026-06-02T01:00:00Z", True),   # 21:00:00 EDT: the window's end is outside
    ("2026-06-01T11:59:59Z", True),   # 07:59:59 EDT
    ("2026-06-01T12:00:00Z", False),  # 08:00:00 EDT
    ("2026-03-08T12:30:00Z", False),  # 08:30 EDT, the morning clocks went forward
    ("2026-03-07T12:30:00Z", True),   # 07:30 EST, the day before
    ("2026-11-01T12:30:00Z", True),   # 07:30 EST, the morning clocks went back
    ("2026-10-31T12:30:00Z", False),  # 08:30 EDT, the day before
])
def test_calling_hours_at_the_edges_and_across_dst(utc: str, outside: bool) -> None:
    found = audit(calls({"to_number": NY, "created_at": utc})).findings
    assert (found["rule"].tolist() == ["calling_hours"]) is outside
    if outside:
        assert found["timezone"][0] == "America/New_York"
        weekday = pd.Timestamp(found["local_time"][0]).strftime("%a")
        assert found["evidence"][0].startswith(
            f"called {weekday} {found['local_time'][0][11:16]} America/New_York "
            "(US federal (TSR, TCPA): window 08:00-21:00, 16 CFR 310.4(c)")


def test_a_policy_has_its_own_window_for_every_call() -> None:
    late = calls({"to_number": NY, "created_at": "2026-06-02T00:30:00Z"})  # 20:30 EDT
    assert rules_found(late) == []
    own = POLICY("08:00-20:00 everywhere", window=(time(8), time(20)))
    assert rules_found(late, rules=own) == [("calling_hours", "call_0")]


def two_zone_number() -> tuple[str, list[str]]:
    for area in range(201, 1000):
        number = phonenumbers.parse(f"+1{area}5550123")
        zones = phone_timezones.time_zones_for_number(number)
        if phonenumbers.is_valid_number(number) and len(zones) >= 2 and len({
                pd.Timestamp("2026-06-01T12:00Z").tz_convert(z).utcoffset() for z in zones}) > 1:
            return f"+1{area}5550123", list(zones)
    raise AssertionError("phonenumbers knows no NANP area code of two zones")


def test_a_number_of_several_zones_is_allowed_only_where_every_zone_allows() -> None:
    phone, zones = two_zone_number()
    offsets = {z: pd.Timestamp("2026-06-01T12:00Z").tz_convert(z).utcoffset() for z in zones}
    western = min(zones, key=lambda z: offsets[z])
    eastern = max(zones, key=lambda z: offsets[z])
    at = pd.Timestamp("2026-06-01 08:30").tz_localize(eastern).tz_convert("UTC")  # east 08:30
    found = audit(calls({"to_number": phone, "created_at": at})).findings
    assert found["rule"].tolist() == ["calling_hours"]
    assert found["timezone"][0] == western and western in found["evidence"][0]


def test_a_number_of_no_known_zone_is_its_own_finding() -> None:
    phone = "+80012345678"  # international freephone: no zone
    assert phone_timezones.time_zones_for_number(phonenumbers.parse(phone)) == ("Etc/Unknown",)
    assert rules_found(calls({"to_number": phone, "created_at": "2026-06-01T15:00Z"})) == [
        ("unknown_timezone", "call_0")]


@pytest.mark.parametrize(("fourth", "found"), [
    ("2026-06-02T14:00:00Z", False),      # exactly 24 h after the first: the first drops out
    ("2026-06-02T13:59:59.999Z", True),   # a millisecond sooner: the 4th in 24 h
])
def test_the_fourth_call_in_24_hours(fourth: str, found: bool) -> None:
    """New York sets no cap and nor does federal law: the fourth call is a finding of a
    policy of three a day only."""
    frame = calls(*({"to_number": NY, "created_at": at} for at in (
        "2026-06-01T14:00Z", "2026-06-01T16:00Z", "2026-06-01T18:00Z", fourth)))
    expected = [("call_frequency", "call_3")] if found else []
    assert rules_found(frame, policy=HOUSE_RULES) == expected
    assert rules_found(frame) == []
    if found:
        finding = audit(frame, policy=HOUSE_RULES).findings.iloc[0]
        assert finding["calls_in_24h"] == 4 and "4 outbound calls" in finding["evidence"]
        assert finding["basis"] == "policy"


def dnc(listed_at: str | None = None, **extra: Any) -> pd.DataFrame:
    frame = pd.DataFrame({"phone": [NY], "listed": [True],
                          "checked_at": [pd.Timestamp("2026-06-05", tz="UTC")], **extra})
    if listed_at is not None:
        frame["listed_at"] = pd.to_datetime([listed_at], utc=True)
    return frame


def test_a_call_on_the_day_of_listing_counts_only_after_the_listing() -> None:
    frame = calls({"to_number": NY, "created_at": "2026-06-01T13:00Z"},
                  {"to_number": NY, "created_at": "2026-06-01T19:00Z"})
    found = audit(frame, dnc=dnc("2026-06-01T15:00Z")).findings
    assert found[["rule", "call_id"]].values.tolist() == [["dnc_call", "call_1"]]
    assert "listed on 2026-06-01 15:00:00" in found["evidence"][0]


def test_without_a_listing_date_every_call_is_a_finding_that_says_so() -> None:
    frame = calls({"to_number": NY, "created_at": "2026-06-01T13:00Z"})
    found = audit(frame, dnc=dnc()).findings
    assert found["rule"].tolist() == ["dnc_call"]
    assert "the date it was listed is unknown" in found["evidence"][0]


def test_a_do_not_call_disposition_dates_the_listing() -> None:
    frame = calls({"to_number": NY, "created_at": "2026-06-01T13:00Z",
                   "answered_at": "2026-06-01T13:00:05Z", "ended_at": "2026-06-01T13:02Z",
                   "disposition": "do_not_call"},
                  {"to_number": NY, "created_at": "2026-06-03T13:00Z"})
    found = audit(frame, dnc=dnc().assign(listed=False)).findings  # the request alone
    assert found.loc[found["rule"] == "dnc_call", "call_id"].tolist() == ["call_1"]


def test_an_undated_listing_beside_a_request_is_not_read_as_the_request() -> None:
    """Issue 61: a listing of the DNC results that says neither its list nor its date may
    be older than the request (the national register's), so the call before the request
    is a finding whose evidence says the date is unknown: never read as permission."""
    frame = calls({"to_number": NY, "created_at": "2026-06-01T13:00Z",
                   "answered_at": "2026-06-01T13:00:05Z", "ended_at": "2026-06-01T13:02Z",
                   "disposition": "do_not_call"},
                  {"to_number": NY, "created_at": "2026-06-03T13:00Z"})
    found = audit(frame, dnc=dnc()).findings
    listed = found[found["rule"] == "dnc_call"]
    assert listed["call_id"].tolist() == ["call_0", "call_1"]
    assert "the date it was listed is unknown" in listed["evidence"].iloc[0]


def test_leads_on_the_list_and_leads_never_screened() -> None:
    leads = pd.DataFrame({"id": ["lead_a", "lead_b", "lead_c", "lead_d"],
                          "campaign_id": "cmp_1",
                          "phone": [NY, NY, "+13125550101", "+13125550102"],
                          "status": ["new", "dnc", "contacted", "new"]})
    checks = pd.concat([dnc(), pd.DataFrame({
        "phone": ["+13125550101"], "listed": [False],
        "checked_at": [pd.Timestamp("2026-04-01", tz="UTC")]})], ignore_index=True)
    found = audit(calls({"to_number": NY, "created_at": "2026-06-01T15:00Z"}).iloc[:0],
                  leads=leads, dnc=checks, as_of="2026-06-10").findings
    assert found[["rule", "lead_id"]].values.tolist() == [
        ["dnc_lead", "lead_a"], ["unscreened_lead", "lead_c"], ["unscreened_lead", "lead_d"]]
    assert "no DNC check" in found["evidence"].iloc[-1]
    assert "more than 31 days" in found["evidence"].iloc[-2]


def test_blocked_countries_caller_ids_and_inbound_calls() -> None:
    frame = calls({"to_number": "+982122223333", "created_at": "2026-06-01T08:00Z"},
                  {"to_number": NY, "created_at": "2026-06-01T15:00Z",
                   "from_number": "+14155550199"},
                  {"to_number": NY, "created_at": "2026-06-01T04:00Z", "direction": "inbound",
                   "from_number": "+19995550100"})
    found = rules_found(frame, blocked_countries=["IR"], verified_caller_ids=["+14155550100"])
    assert found == [("no_law_held", "call_0"),  # and Iran's law is not held: a risk besides
                     ("blocked_country", "call_0"), ("unverified_caller_id", "call_1")]


def answered(n: int, at: str, joined_after: float | None) -> dict[str, Any]:
    answer = pd.Timestamp(at) + pd.Timedelta(minutes=n)
    return {"to_number": f"+1212555{n:04d}", "created_at": answer - pd.Timedelta(seconds=10),
            "answered_at": answer, "ended_at": answer + pd.Timedelta(minutes=2),
            "disposition": "sale" if joined_after is not None else None,
            "agent_joined_at": None if joined_after is None else
            answer + pd.Timedelta(seconds=joined_after)}


def test_abandonment_over_the_limit_in_the_window() -> None:
    rows = [answered(n, "2026-06-01T15:00Z", 1.0) for n in range(30)]
    rows.append(answered(40, "2026-06-01T15:00Z", 3.0))  # joined late: abandoned, 1 of 31
    frame = calls(*rows)
    frame["agent_joined_at"] = pd.to_datetime(frame["agent_joined_at"], utc=True)
    report = audit(frame)
    assert report.abandoned["call_id"].tolist() == ["call_30"]
    assert report.findings["rule"].tolist() == ["abandonment"]  # 3.2% > 3%
    assert "1 of 31 calls answered by a live person (3.2%)" in report.findings["evidence"][0]
    assert report.notes["abandonment"].startswith("agent_joined_at")
    assert audit(frame, rules=replace(US_FEDERAL, jurisdictions=())).findings.empty  # no law


def test_abandonment_by_proxy_without_join_times() -> None:
    rows = [answered(n, "2026-06-01T15:00Z", 1.0) for n in range(10)]
    short = answered(20, "2026-06-01T15:00Z", None)
    short["ended_at"] = short["answered_at"] + pd.Timedelta(seconds=3)
    frame = calls(*rows, short).drop(columns="agent_joined_at")
    report = audit(frame, rules=UK_OFCOM)
    assert report.abandoned["call_id"].tolist() == ["call_10"]
    assert "proxy" in report.notes["abandonment"] and "5 s" in report.notes["abandonment"]
    assert report.findings["rule"].tolist() == ["abandonment"]  # 1 of 11 in 24 hours
    assert "(counted from the campaign's first call)" in report.findings["evidence"][0]


@pytest.mark.parametrize("empty", [
    pd.Series(pd.NaT, index=range(11), dtype="datetime64[ns, UTC]"),  # as client.frames types it
    pd.Series(None, index=range(11), dtype=object),                   # as a CSV export reads
])
def test_a_join_time_column_with_no_time_in_it_means_the_proxy(empty: pd.Series) -> None:
    """``client.frames.calls`` has the column even for a service that never sends it: read
    as join times, every answered call would be one no agent joined."""
    rows = [answered(n, "2026-06-01T15:00Z", 1.0) for n in range(10)]  # talked, disposed
    short = answered(20, "2026-06-01T15:00Z", None)
    short["ended_at"] = short["answered_at"] + pd.Timedelta(seconds=3)
    frame = calls(*rows, short).assign(agent_joined_at=empty)
    report = audit(frame, rules=UK_OFCOM)
    assert report.abandoned["call_id"].tolist() == ["call_10"]
    assert report.notes["abandonment"].startswith("proxy")
    assert report.findings["evidence"].str.startswith("abandoned (by the proxy)").tolist() == [
        True]


def test_a_campaigns_opening_weeks_are_judged_whole() -> None:
    rows = [answered(0, "2026-06-01T15:00Z", 5.0)]  # the campaign's first call, abandoned
    rows += [answered(n, "2026-06-01T15:00Z", 1.0) for n in range(1, 40)]  # then 39 good
    frame = calls(*rows)
    frame["agent_joined_at"] = pd.to_datetime(frame["agent_joined_at"], utc=True)
    report = audit(frame)
    assert report.abandoned["call_id"].tolist() == ["call_0"]
    assert report.abandoned["window_answered"].tolist() == [40]  # not 1 of 1: 1 of 40
    assert report.findings.empty


def test_after_the_first_period_the_next_one_is_judged_alone() -> None:
    opening = [answered(n, "2026-06-01T15:00Z", 1.0) for n in range(40)]
    later = [answered(n, "2026-08-01T15:00Z", 1.0) for n in range(20)]
    later.append(answered(30, "2026-08-01T15:00Z", 4.0))  # 1 of the 21 in the 30 days to it
    frame = calls(*opening, *later)
    frame["agent_joined_at"] = pd.to_datetime(frame["agent_joined_at"], utc=True)
    report = audit(frame)
    assert report.findings["call_id"].tolist() == ["call_60"]
    assert ("1 of 21 calls answered by a live person (4.8%) in its period 2026-07-31 "
            "14:59 UTC to 2026-08-30 14:59 UTC") in report.findings["evidence"][0]


def test_a_frame_without_a_needed_column_is_named() -> None:
    with pytest.raises(AuditInputError, match="calls has no column to_number"):
        audit(pd.DataFrame({"id": ["c"], "direction": ["outbound"]}).assign(
            from_number="x", created_at="2026-06-01T00:00Z", answered_at=None, ended_at=None,
            campaign_id=None, disposition=None))


def test_rules_that_did_not_run_say_why() -> None:
    report = audit(calls({"to_number": NY, "created_at": "2026-06-01T15:00Z",
                          "ended_at": "2026-06-01T15:00:30Z"}))  # rang 30 s: judged
    assert set(report.notes) >= {"dnc_call", "dnc_lead", "unscreened_lead",
                                 "unverified_caller_id"}
    assert report.passed.to_dict() == {rule: True for rule in report.ran}
