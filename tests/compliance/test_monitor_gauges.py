"""What is coming (issue 83, items 1 and 3): each gauge held to what the audit then finds.

A gauge that says "2 more abandoned calls breach the period" is tried: one more is no
finding, the second is. A provisional finding is one a later event does change; the hook
is called once a finding is kept.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from dialkit.compliance import Monitor, audit, next_allowed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_monitor import _answered, _logged  # noqa: E402

VERIFIED = ["+14155550100"]


def _talked(monitor: Monitor, calls: range) -> None:
    monitor.observe([*(_answered(n, 60) for n in calls), *(_logged(n, "sale") for n in calls)])


@pytest.mark.parametrize("answered", [20, 33, 70])
def test_the_calls_to_breach_a_period_are_exactly_those_the_audit_then_finds(
        answered: int) -> None:
    with Monitor(verified_caller_ids=VERIFIED) as monitor:
        _talked(monitor, range(answered))
        (period,) = monitor.gauges().abandonment.itertuples()
        assert (period.jurisdiction, period.answered, period.abandoned, period.limit) == (
            "US", answered, 0, 0.03)
        for n in range(answered, answered + period.to_breach - 1):
            monitor.observe(_answered(n, 2))  # hung up in 2 s, no disposition: abandoned
        assert monitor.findings.empty, "one short of the gauge's count is no breach"
        assert monitor.gauges().abandonment["to_breach"].tolist() == [1]
        monitor.observe(_answered(answered + period.to_breach - 1, 2))
        assert set(monitor.findings["rule"]) == {"abandonment"}
        assert monitor.gauges().abandonment["to_breach"].tolist() == [0]


def test_a_provisional_finding_is_one_a_later_event_changes() -> None:
    with Monitor(verified_caller_ids=VERIFIED) as monitor:
        _talked(monitor, range(20))
        monitor.observe(_answered(20, 2))
        marked = monitor.provisional
        assert marked["call_id"].tolist() == ["call_20"]
        assert "a disposition logged for it takes it back" in marked["why"][0]
        assert "its period runs to 2026-12-02 15:00 UTC" in marked["why"][0]
        monitor.observe(_logged(20, "not_interested"))  # as the mark said
        assert monitor.findings.empty and monitor.provisional.empty


def test_a_number_called_in_the_last_day_shows_its_contacts_and_next_moment() -> None:
    florida = "+13055550166"  # 3 calls per person and subject in 24 hours
    events = [{"id": f"evt_{n}", "type": "call.completed", "created_at": f"{at}:30Z",
               "data": {"call_id": f"call_{n}", "direction": "outbound", "status": "completed",
                        "from": VERIFIED[0], "to": florida, "campaign_id": "cmp_1",
                        "started_at": f"{at}:00Z", "ended_at": f"{at}:30Z"}}
              for n, at in enumerate(["2026-11-02T14:00", "2026-11-02T15:00",
                                      "2026-11-02T16:00"])]  # each event as the call ends
    with Monitor(verified_caller_ids=VERIFIED) as monitor:
        monitor.observe(events)
        numbers = monitor.gauges().numbers.set_index("to_number")
        assert numbers.loc[florida, "contacts_24h"] == 3
        assert numbers.loc[florida, "left_under_caps"] == 0
        assert not numbers.loc[florida, "allowed"]
        assert numbers.loc[florida, "next_allowed_at"] == pd.Timestamp("2026-11-03T14:00:00Z")
        assert numbers.loc[florida, "hours_away"] == 22.0  # from 16:00:30
        assert numbers.loc[florida, "rule"] == "call_frequency"


def test_the_hook_hears_each_finding_once_after_the_state_holds_it(tmp_path: Path) -> None:
    heard: list[pd.DataFrame] = []
    path = tmp_path / "state.sqlite"
    with Monitor(path, verified_caller_ids=VERIFIED, on_finding=heard.append) as monitor:
        _talked(monitor, range(20))
        monitor.observe(_answered(20, 2))
        monitor.observe(_answered(20, 2))  # a retry: nothing new
        assert [frame["call_id"].tolist() for frame in heard] == [["call_20"]]
        assert not monitor.observe(_answered(20, 2)).added.shape[0]
    with Monitor(path, verified_caller_ids=VERIFIED, on_finding=heard.append) as again:
        again.observe(_answered(20, 2))
    assert len(heard) == 1


@pytest.mark.parametrize(("called", "left"), [(1, 2), (2, 1)])
def test_the_calls_left_under_a_cap_are_those_the_audit_then_allows(
        called: int, left: int) -> None:
    """Florida allows 3 a day; New York none but the policy's (here none): 5 is 5 or more."""
    numbers = {"+13055550166": called, "+12125550123": called}
    events = [{"id": f"evt_{number}_{n}", "type": "call.completed",
               "created_at": f"2026-11-02T1{4 + n}:00:30Z",
               "data": {"call_id": f"call_{number}_{n}", "direction": "outbound",
                        "status": "completed", "from": VERIFIED[0], "to": number,
                        "campaign_id": "cmp_1", "started_at": f"2026-11-02T1{4 + n}:00:00Z"}}
              for number, count in numbers.items() for n in range(count)]
    with Monitor(verified_caller_ids=VERIFIED) as monitor:
        monitor.observe(events)
        shown = monitor.gauges().numbers.set_index("to_number")["left_under_caps"]
        assert shown.to_dict() == {"+13055550166": left, "+12125550123": 5}
        at = monitor.as_of + pd.Timedelta(seconds=1)
        more = [{"id": f"evt_more_{n}", "type": "call.completed", "created_at": at.isoformat(),
                 "data": {"call_id": f"call_more_{n}", "direction": "outbound",
                          "status": "completed", "from": VERIFIED[0], "to": "+13055550166",
                          "campaign_id": "cmp_1", "started_at": at.isoformat()}}
                for n in range(left + 1)]
        monitor.observe(more[:left])
        assert "call_frequency" not in set(monitor.findings["rule"])
        monitor.observe(more[left:])
        assert set(monitor.findings["rule"]) == {"call_frequency"}


def test_a_persons_numbers_are_gauged_as_the_audit_counts_the_person() -> None:
    """The gauges read only the calls of the persons called in the last day. A Florida
    person's own number and the one their lead names (3 calls a person in 24 hours) have
    no call left, and wait for the moment the first of the person's three calls leaves the
    24 hours: a call to either number before it is a finding of the audit, one then is
    not. A number of nobody's person says what ``next_allowed`` says of it."""
    own, other, stranger = "+13055550166", "+13055550177", "+12125550123"
    leads = pd.DataFrame({"id": ["lead_1", "lead_2"], "campaign_id": "cmp_1",
                          "phone": [own, stranger], "status": "contacted",
                          "other_phones": [other, None]})
    called = [(own, "2026-10-20T15:00"), (stranger, "2026-11-02T13:00"),
              (own, "2026-11-02T14:00"), (other, "2026-11-02T15:00"), (own, "2026-11-02T16:00")]
    events = [{"id": f"evt_{n}", "type": "call.completed", "created_at": f"{at}:30Z",
               "data": {"call_id": f"call_{n}", "direction": "outbound", "status": "completed",
                        "from": VERIFIED[0], "to": number, "campaign_id": "cmp_1",
                        "started_at": f"{at}:00Z"}} for n, (number, at) in enumerate(called)]
    with Monitor(leads=leads, verified_caller_ids=VERIFIED) as monitor:
        monitor.observe(events)
        shown = monitor.gauges().numbers.set_index("to_number").sort_index()
        whole = next_allowed(pd.Series([stranger]), monitor.as_of, calls=monitor.calls)
        calls = monitor.calls
    columns = ["allowed", "next_allowed_at", "rule"]
    assert_frame_equal(shown.loc[[stranger], columns], whole.set_index("phone")[
        columns].rename_axis("to_number"), check_dtype=False)
    assert shown["left_under_caps"].to_dict() == {other: 0, own: 0, stranger: 5}
    freed = pd.Timestamp("2026-11-03T14:00:00Z")  # the person's 14:00 call, 24 hours on
    for number in (own, other):
        assert shown.loc[number, columns].tolist() == [False, freed, "call_frequency"]
        for at, capped in ((freed - pd.Timedelta(milliseconds=1), True), (freed, False)):
            tried = calls[calls["to_number"] == number].iloc[[-1]].assign(
                id="call_tried", created_at=at)
            found = audit(pd.concat([calls, tried], ignore_index=True), leads=leads,
                          verified_caller_ids=VERIFIED).findings
            assert capped == ("call_tried" in set(
                found.loc[found["rule"] == "call_frequency", "call_id"]))


def test_the_gauges_of_one_judgment_are_the_same_answer_each_time_asked() -> None:
    """A view and its notebook ask the gauges after the same observation: one answer,
    which neither can change for the other, and a new one once an event changes the calls."""
    with Monitor(verified_caller_ids=VERIFIED) as monitor:
        _talked(monitor, range(20))
        first = monitor.gauges()
        first.abandonment.loc[:, "to_breach"] = 99  # the caller's copy
        first.numbers.loc[:, "contacts_24h"] = -1
        again = monitor.gauges()
        assert again.abandonment["to_breach"].tolist() == [1]
        assert again.numbers["contacts_24h"].tolist() == [1] * 20 and again.as_of == first.as_of
        monitor.observe(_answered(19, 60))  # a repeat: nothing changes
        assert_frame_equal(monitor.gauges().abandonment, again.abandonment)
        monitor.observe(_answered(20, 2))  # abandoned: over the limit
        assert monitor.gauges().abandonment["to_breach"].tolist() == [0]
