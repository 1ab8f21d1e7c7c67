"""A monitor's state is bounded: the findings no event can change any more are settled and
the calls no finding still judged reads are dropped, and its findings stay the audit's of
every call observed, row for row (issue 83, item 4).

The account is the audit benchmark's six weeks of calls, run four times one after the
other (each run's calls a new call id, 42 days later: half a year, every number called
in each run), with what settling could get wrong: a campaign over its abandonment limit,
``do_not_call`` requests (every later call to the number is judged by them), numbers at
risk of a state's list not scrubbed (one finding counting every call, for ever), and a
listing dated after every call (its number's findings quote the moment). The calls are
observed a week at a time.
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from dialkit.compliance import Monitor, audit
from dialkit.compliance._live._settle import LATE, look_back
from dialkit.compliance._run import is_risk_of_a_list
from dialkit.errors import MonitorStateError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_audit  # noqa: E402
import bench_monitor  # noqa: E402

RUNS, APART = 4, pd.Timedelta(days=42)


def _account() -> tuple[pd.DataFrame, dict[str, Any]]:
    """Every call of the four runs, in order, and the inputs."""
    made = bench_monitor.account(2000, 500, 1)
    calls = pd.concat([made["kept"], made["tail"]], ignore_index=True)
    busiest = calls["campaign_id"].value_counts().index[0]
    abandoned = calls.index[(calls["campaign_id"] == busiest).fillna(False).to_numpy(bool)
                            & calls["answered_at"].notna().to_numpy(bool)
                            & (calls["status"] != "voicemail").fillna(True).to_numpy(bool)][::6]
    calls.loc[abandoned, "disposition"] = None
    calls.loc[abandoned, "ended_at"] = calls.loc[abandoned, "answered_at"] + pd.Timedelta(
        seconds=2)
    runs = []
    for run in range(RUNS):
        shifted = calls.copy()
        shifted["id"] = shifted["id"] + f"_{run}"
        for column in ("created_at", "answered_at", "ended_at"):
            shifted[column] = shifted[column] + run * APART
        runs.append(shifted)
    every = pd.concat(runs, ignore_index=True).sort_values(["created_at", "id"],
                                                           ignore_index=True)
    late = every["created_at"].max() + pd.Timedelta(days=5)
    dialled = every["to_number"][(every["direction"] == "outbound").to_numpy(bool)
                                 & every["campaign_id"].notna().to_numpy(bool)
                                 & every["to_number"].str.startswith("+1").to_numpy(bool)
                                 & ~every["to_number"].isin(made["dnc"]["phone"])]
    first = str(dialled.iloc[0])  # a US number called in every run, listed by nothing else
    dnc = pd.concat([made["dnc"], pd.DataFrame({
        "phone": [first], "listed": [True], "checked_at": [late], "listed_at": [late],
        "list": ["national"]})], ignore_index=True)
    return every, {**bench_monitor.inputs_of(made["leads"], dnc),
                   "dnc_lists": bench_audit.frames(2000, 500).get("dnc_lists")}


CALLS, INPUTS = _account()
INPUTS = {key: value for key, value in INPUTS.items() if value is not None}


def _weeks() -> list[pd.DataFrame]:
    """The calls a week at a time."""
    week = (CALLS["created_at"] - CALLS["created_at"].min()) // pd.Timedelta(days=7)
    return [part for _, part in CALLS.groupby(week, sort=True)]


def _audit(calls: pd.DataFrame, as_of: pd.Timestamp) -> pd.DataFrame:
    return audit(calls, **INPUTS, as_of=as_of).findings


def test_the_account_holds_what_settling_could_get_wrong() -> None:
    found = _audit(CALLS, CALLS["created_at"].max())
    assert {"abandonment", "call_frequency", "dnc_call", "dnc_lead"} <= set(found["rule"])
    assert is_risk_of_a_list(found).any()
    listed_later = INPUTS["dnc"]["listed_at"].max()
    assert found["evidence"].str.contains("is after the audit's as_of").any()
    assert (found["at"] < listed_later - LATE - 2 * look_back(INPUTS["rules"])).any()
    assert (CALLS["disposition"] == "do_not_call").sum() >= RUNS
    assert CALLS["created_at"].max() - CALLS["created_at"].min() > LATE + 2 * look_back(
        INPUTS["rules"])


def test_settled_the_findings_stay_the_audits_and_the_calls_kept_are_bounded(
        tmp_path: Path) -> None:
    state = tmp_path / "monitor.sqlite"
    seen = CALLS.iloc[:0]
    kept = []
    with Monitor(state, **INPUTS) as monitor:
        for week in _weeks():
            monitor.observe(week)
            seen = pd.concat([seen, week], ignore_index=True)
            assert_frame_equal(monitor.findings, _audit(seen, monitor.as_of))
            kept.append(len(monitor.calls))
        findings, as_of = monitor.findings, monitor.as_of
    assert kept[-1] < 0.7 * len(CALLS)  # the first run's calls dropped but what is read
    assert max(kept[-8:]) < max(kept) * 1.2
    heard: list[pd.DataFrame] = []
    with Monitor(state, on_finding=heard.append, **INPUTS) as monitor:  # a restart
        assert_frame_equal(monitor.findings, findings)
        assert monitor.as_of == as_of
        assert len(monitor.calls) == kept[-1]
        night = as_of + pd.Timedelta(hours=1)  # a call to New York at night: one finding
        changes = monitor.observe({
            "id": "evt_after_restart", "type": "call.completed", "created_at": night.isoformat(),
            "data": {"call_id": "call_after_restart", "direction": "outbound",
                     "status": "no_answer", "from": "+14155550100", "to": "+12125550123",
                     "campaign_id": "cmp_after", "started_at": night.isoformat()}})
        assert_frame_equal(monitor.findings, _audit(pd.concat(
            [seen, monitor.calls.tail(1)], ignore_index=True), night))
        after = monitor.findings
    now = set(bench_monitor.told(after))  # told: what changed, and only that
    before = set(bench_monitor.told(findings))
    assert set(bench_monitor.told(changes.added)) == now - before
    assert set(bench_monitor.told(changes.withdrawn)) == before - now
    assert "call_after_restart" in set(changes.added["call_id"])
    assert [len(told) for told in heard] == [len(changes.added)]
    with closing(sqlite3.connect(state)) as kept, kept:  # the settled findings lost
        kept.execute("UPDATE settled SET findings = x'00ff'")
    with pytest.raises(MonitorStateError, match="the findings it settled cannot be read"):
        Monitor(state, **INPUTS)


def test_an_event_of_a_call_older_than_the_settled_moment_is_held_and_named() -> None:
    """A call that lands after its findings would be settled (older than the service's
    history of events: the contract has it land never) is named, not judged."""
    with Monitor(**INPUTS) as monitor:
        for week in _weeks():
            monitor.observe(week)
        findings, calls = monitor.findings, len(monitor.calls)
        old = CALLS.iloc[0]
        started = old["created_at"].isoformat()
        changes = monitor.observe({
            "id": "evt_too_late", "type": "call.completed", "created_at": started,
            "data": {"call_id": "call_too_late", "direction": "outbound",
                     "status": "no_answer", "from": str(old["from_number"]),
                     "to": str(old["to_number"]), "campaign_id": str(old["campaign_id"]),
                     "started_at": started, "ended_at": started}})
        assert_frame_equal(monitor.findings, findings)
        assert len(monitor.calls) == calls
        assert [held.event_id for held in changes.held] == ["evt_too_late"]
        assert "settled" in changes.held[0].why
        assert monitor.held["event_id"].tolist() == ["evt_too_late"]


def _disposition(call_id: str, at: pd.Timestamp) -> dict[str, Any]:
    return {"id": f"evt_disposition_{call_id}", "type": "disposition.logged",
            "created_at": at.isoformat(),
            "data": {"call_id": call_id, "logged_at": at.isoformat(),
                     "disposition_code": "sale"}}


def test_a_disposition_whose_call_never_came_waits_while_the_call_could_land(
        tmp_path: Path) -> None:
    """A monitor reading a store from its middle meets dispositions of calls before it:
    each waits for its call until it is older than the settled moment (were the call to
    land then, it would be held), then is held and named, its fact no longer kept; one
    logged since still waits, and one whose call came later is the call's."""
    state = tmp_path / "monitor.sqlite"
    weeks = _weeks()
    logged = weeks[1][weeks[1]["disposition"].notna().to_numpy(bool)].iloc[0]
    early = {**_disposition(str(logged["id"]), logged["ended_at"]),  # before its call came
             "data": {"call_id": str(logged["id"]), "logged_at": logged["ended_at"].isoformat(),
                      "disposition_code": str(logged["disposition"])}}
    with Monitor(state, **INPUTS) as monitor:
        monitor.observe(weeks[0])
        first = _disposition("call_before_the_store", monitor.as_of)
        assert monitor.observe([first, early]).held == ()
        held: list[str] = []
        for n, week in enumerate(weeks[1:], 1):
            if n == len(weeks) - 2:
                monitor.observe(_disposition("call_lately", monitor.as_of))
            held += [each.event_id for each in monitor.observe(week).held]
            if monitor.as_of - pd.Timestamp(first["created_at"]) < LATE + look_back(
                    INPUTS["rules"]):
                assert not held  # were its call to land, it would be judged
        assert_frame_equal(monitor.findings, _audit(CALLS, monitor.as_of))
        assert held == [first["id"]]
        assert monitor.held["event_id"].tolist() == [first["id"]]
        assert "settled" in monitor.held["why"].iloc[0]
    with closing(sqlite3.connect(state)) as kept:
        waiting = [call for (call,) in kept.execute(
            "SELECT call_id FROM facts WHERE call_id NOT IN (SELECT id FROM calls)")]
    assert waiting == ["call_lately"]
