"""The monitor's findings equal the audit's of the calls its events carry, after every event,
in any order, with repeats (issue 83, items 1, 2 and 4).

The calls are the audit benchmark's edges of every rule (``audit_edges``: each list's grace
at its instant, the cap's fourth call at 24 hours less a millisecond, abandonment's periods
at their limit, the calling window's bounds, the morning clocks go back), each sent as the
service sends it: a ``call.completed`` and, where the call has one, a ``disposition.logged``.
The truth the monitor is held to is the audit of those calls (the generator's rows, their
disposition only once its event has come), built here from the generator's frame, never
from the monitor's reading of the events.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pandas.testing import assert_frame_equal

from dialkit.compliance import Monitor, audit
from dialkit.frames import SCHEMAS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import audit_edges  # noqa: E402
import bench_audit  # noqa: E402
import bench_monitor  # noqa: E402

EDGES = audit_edges.seeded(set(), bench_audit.RULES, bench_audit.START,
                           bench_audit.START + pd.Timedelta(days=bench_audit.DAYS),
                           bench_audit.AS_OF, bench_audit.VERIFIED[0])
TRUTH = SCHEMAS["calls"].conform(EDGES["calls"]).set_index("id", drop=False)
TRUTH["agent_joined_at"] = TRUTH["agent_joined_at"].where(TRUTH["agent_joined_at"].isna())
"""The edges' calls as the events carry them: no event says when an agent joined."""
INPUTS: dict[str, Any] = {"leads": EDGES["leads"], "dnc": EDGES["dnc"],
                          "verified_caller_ids": bench_audit.VERIFIED,
                          "blocked_countries": bench_audit.BLOCKED, "rules": bench_audit.RULES}


def events_of(call_id: str) -> list[dict[str, Any]]:
    """The events the service sends of one call: its end, and its disposition if logged
    (the benchmark's mapping of a call row to its deliveries)."""
    return bench_monitor.events_of(TRUTH.loc[call_id])


def expected(seen: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """The audit's findings of the calls whose end has come, each with its disposition once
    that has come, as of the latest event."""
    seen = list(seen)
    ended = {e["data"]["call_id"] for e in seen if e["type"] == "call.completed"}
    logged = {e["data"]["call_id"] for e in seen if e["type"] == "disposition.logged"}
    calls = TRUTH.loc[TRUTH.index.isin(ended)].reset_index(drop=True)
    calls["disposition"] = calls["disposition"].where(calls["id"].isin(logged))
    calls = calls.sort_values(["created_at", "id"], kind="stable", ignore_index=True)
    as_of = max(pd.Timestamp(e["created_at"]) for e in seen)
    return audit(calls, **INPUTS, as_of=as_of).findings


def test_the_edges_stream_in_any_order_with_repeats_equals_the_audit_at_every_batch(
        tmp_path: Path) -> None:
    events = [event for call_id in TRUTH.index for event in events_of(call_id)]
    rng = random.Random(83)
    stream = events + rng.sample(events, 40)  # retries and replays
    rng.shuffle(stream)
    with Monitor(tmp_path / "state.sqlite", **INPUTS) as monitor:
        seen: list[dict[str, Any]] = []
        for start in range(0, len(stream), 37):
            batch = stream[start:start + 37]
            changes = monitor.observe(batch)
            repeats = sum(e["id"] in {s["id"] for s in seen} for e in batch)
            seen += batch
            assert changes.repeated == repeats + len(batch) - len({e["id"] for e in batch})
            assert_frame_equal(monitor.findings, expected(seen))
        assert monitor.calls["id"].nunique() == len(TRUTH)
        found = set(monitor.findings["rule"])
    assert {"calling_hours", "call_frequency", "dnc_call", "dnc_lead"} <= found


NUMBERS = sorted(set(TRUTH["to_number"]))


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(numbers=st.sets(st.sampled_from(NUMBERS), min_size=1, max_size=3),
       order=st.randoms(use_true_random=False), repeats=st.integers(0, 4))
def test_after_every_event_the_findings_are_the_audits(
        numbers: set[str], order: random.Random, repeats: int) -> None:
    """A few numbers' calls (a cap's, a list's grace, a period's), event by event, in an
    order and with repeats hypothesis draws: equal after each one."""
    events = [event for call_id in TRUTH.index[TRUTH["to_number"].isin(numbers)]
              for event in events_of(call_id)][:12]
    stream = events + [order.choice(events) for _ in range(repeats)]
    order.shuffle(stream)
    with Monitor(**INPUTS) as monitor:
        for n, event in enumerate(stream, 1):
            monitor.observe(event)
            assert_frame_equal(monitor.findings, expected(stream[:n]))


def test_a_late_earlier_call_moves_the_fourth_call_of_a_day() -> None:
    florida = "+13055550166"  # Florida: 3 calls per person and subject in 24 hours
    starts = ["2026-11-02T15:00:00Z", "2026-11-02T16:00:00Z", "2026-11-02T17:00:00Z",
              "2026-11-02T18:00:00Z"]

    def ended(n: int, start: str) -> dict[str, Any]:
        return {"id": f"evt_{n}", "type": "call.completed", "created_at": start,
                "data": {"call_id": f"call_{n}", "direction": "outbound", "status": "completed",
                         "from": "+14155550100", "to": florida, "campaign_id": "cmp_1",
                         "started_at": start}}

    with Monitor(verified_caller_ids=["+14155550100"]) as monitor:
        first = monitor.observe([ended(n, start) for n, start in enumerate(starts) if n])
        assert first.added[["rule", "call_id"]].values.tolist() == []
        late = monitor.observe(ended(0, starts[0]))
        assert late.added[["rule", "call_id"]].values.tolist() == [["call_frequency", "call_3"]]
        assert late.withdrawn.empty


def _answered(n: int, seconds: int) -> dict[str, Any]:
    """Call ``n`` of a campaign, answered and ``seconds`` long, on 2 November 2026."""
    start = pd.Timestamp("2026-11-02T15:00:00Z") + pd.Timedelta(minutes=n)
    answered, end = start + pd.Timedelta(seconds=10), start + pd.Timedelta(seconds=10 + seconds)
    return {"id": f"evt_end_{n}", "type": "call.completed", "created_at": end.isoformat(),
            "data": {"call_id": f"call_{n}", "direction": "outbound", "status": "completed",
                     "from": "+14155550100", "to": f"+1212555{n + 100:04d}",
                     "campaign_id": "cmp_1", "started_at": start.isoformat(),
                     "answered_at": answered.isoformat(), "ended_at": end.isoformat(),
                     "duration_seconds": seconds}}


def _logged(n: int, code: str) -> dict[str, Any]:
    at = (pd.Timestamp("2026-11-02T15:05:00Z") + pd.Timedelta(minutes=n)).isoformat()
    return {"id": f"evt_disposition_{n}", "type": "disposition.logged", "created_at": at,
            "data": {"call_id": f"call_{n}", "disposition_code": code, "logged_at": at}}


def test_a_disposition_before_its_call_waits_for_it_and_withdraws_an_abandonment() -> None:
    """One call of 21 answered hung up in 2 s: abandoned by the proxy (no disposition, under
    5 s), over 3 %; its disposition, logged before the call's end came, takes it back."""
    talks = [_answered(n, 60) for n in range(20)]
    with Monitor(verified_caller_ids=["+14155550100"]) as monitor:
        monitor.observe([*talks, *(_logged(n, "sale") for n in range(20))])
        waiting = monitor.observe(_logged(20, "not_interested"))
        assert (waiting.events, len(monitor.calls), waiting.added.empty) == (1, 20, True)
        came = monitor.observe(_answered(20, 2))
        assert came.added.empty, "its disposition was logged before it ended"
        assert monitor.calls.set_index("id").loc["call_20", "disposition"] == "not_interested"
    with Monitor(verified_caller_ids=["+14155550100"]) as monitor:
        monitor.observe([*talks, *(_logged(n, "sale") for n in range(20))])
        dropped = monitor.observe(_answered(20, 2))
        assert dropped.added[["rule", "call_id"]].values.tolist() == [["abandonment", "call_20"]]
        logged = monitor.observe(_logged(20, "not_interested"))
        assert logged.withdrawn[["rule", "call_id"]].values.tolist() == [
            ["abandonment", "call_20"]]
        assert monitor.findings.empty


def test_an_event_it_cannot_read_is_held_named_and_judges_nothing() -> None:
    good = events_of(str(TRUTH.index[0]))[0]
    bad = {**good, "id": "evt_bad", "data": {**good["data"], "call_id": "call_bad",
                                             "to": "2125550123"}}
    with Monitor(**INPUTS) as monitor:
        changes = monitor.observe([bad, good])
        assert [(h.event_id, h.why) for h in changes.held] == [
            ("evt_bad", "its to number '2125550123' is not in E.164 (+ and the country code)")]
        assert monitor.held["event_id"].tolist() == ["evt_bad"]
        assert monitor.calls["id"].tolist() == [good["data"]["call_id"]]
        assert_frame_equal(monitor.findings, expected([good]))


def test_a_frame_of_calls_is_the_same_facts_as_their_events() -> None:
    ids = list(TRUTH.index[:60])
    events = [event for call_id in ids for event in events_of(call_id)]
    with Monitor(**INPUTS) as by_events, Monitor(**INPUTS) as by_frame:
        by_events.observe(events)
        frame = TRUTH.loc[ids].reset_index(drop=True)
        by_frame.observe(frame)
        assert_frame_equal(by_frame.calls, by_events.calls)
        ends = TRUTH.loc[ids, "ended_at"].fillna(TRUTH.loc[ids, "created_at"])
        assert by_frame.as_of == by_events.as_of == ends.max()
        assert_frame_equal(by_frame.findings, by_events.findings)


def test_a_restart_reads_the_state_and_a_replay_adds_nothing(tmp_path: Path) -> None:
    events = [event for call_id in TRUTH.index[:50] for event in events_of(call_id)]
    path = tmp_path / "state.sqlite"
    with Monitor(path, **INPUTS) as monitor:
        monitor.observe(events)
        before, calls = monitor.findings, monitor.calls
    assert path.stat().st_mode & 0o777 == 0o600
    with Monitor(path, **INPUTS) as again:
        assert_frame_equal(again.findings, before)
        assert_frame_equal(again.calls, calls)
        replay = again.observe(events)
        assert (replay.events, replay.repeated, len(replay.added), len(replay.withdrawn)) == (
            0, len(events), 0, 0)
    unverified = {**INPUTS, "verified_caller_ids": ()}
    with Monitor(path, **unverified) as other:  # other inputs: the calls judged again
        assert_frame_equal(other.findings,
                           audit(calls, **unverified, as_of=again.as_of).findings)


def test_a_file_that_is_not_a_monitors_state_is_refused_naming_it(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as made:
        made.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        made.execute("INSERT INTO meta VALUES ('format', '99')")
    with pytest.raises(ValueError, match=r"other\.sqlite is a monitor's state of format 99"):
        Monitor(other)


CHILD = """
import json, sys
sys.path.insert(0, sys.argv[3])
from test_monitor import INPUTS
from dialkit.compliance import Monitor
with Monitor(sys.argv[1], **INPUTS) as monitor:
    for event in json.loads(open(sys.argv[2]).read()):
        monitor.observe(event)
        print(event["id"], flush=True)
"""


def test_killed_mid_stream_it_restarts_with_no_finding_lost_or_told_twice(
        tmp_path: Path) -> None:
    """A real process observing event by event is killed (SIGKILL) after a number of them;
    a new monitor on its state, given every event again (as the receiver's store holds
    them), ends equal to the audit, and tells no finding twice."""
    events = [event for call_id in TRUTH.index[:40] for event in events_of(call_id)]
    random.Random(9).shuffle(events)
    (tmp_path / "events.json").write_text(json.dumps(events))
    state = tmp_path / "state.sqlite"
    with subprocess.Popen([sys.executable, "-c", CHILD, str(state),
                           str(tmp_path / "events.json"), str(Path(__file__).parent)],
                          stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        observed = [child.stdout.readline().strip() for _ in range(25)]
        child.send_signal(signal.SIGKILL)
    assert child.returncode == -signal.SIGKILL
    assert observed == [event["id"] for event in events[:25]]
    with Monitor(state, **INPUTS) as restarted:
        before = restarted.findings
        assert len(restarted.calls) >= len({e["data"]["call_id"] for e in events[:25]
                                            if e["type"] == "call.completed"})
        caught_up = restarted.observe(events)
        assert_frame_equal(restarted.findings, expected(events))
        assert not set(_told(caught_up.added)) & set(_told(before)), "told twice"
        assert set(_told(restarted.findings)) <= set(_told(before)) | set(_told(caught_up.added))
        assert restarted.observe(events).added.empty  # told once


def _told(findings: pd.DataFrame) -> list[str]:
    """Each finding as it was told: its values, nulls left out."""
    rows = json.loads(findings.to_json(orient="records", date_format="iso", date_unit="us"))
    return [json.dumps({k: v for k, v in row.items() if v is not None}, sort_keys=True)
            for row in rows]


def test_a_call_that_showed_no_caller_number_is_judged_as_the_audit_judges_it() -> None:
    """The caller id may be anything a carrier shows (the contract types it as text): only
    the number called must be E.164."""
    good = events_of(str(TRUTH.index[0]))[0]
    hidden = [{**good, "id": f"evt_hidden_{shown}", "data": {
        **good["data"], "call_id": f"call_hidden_{shown}", "from": shown}}
        for shown in ("anonymous", "Restricted", "")]
    calls = pd.concat([TRUTH.iloc[[0]]] * 3, ignore_index=True).assign(
        id=[e["data"]["call_id"] for e in hidden], disposition=None,
        from_number=pd.array(["anonymous", "Restricted", ""], dtype="string"))
    calls = calls.sort_values(["created_at", "id"], ignore_index=True)
    with Monitor(**INPUTS) as monitor:
        assert monitor.observe(hidden).held == ()
        found = monitor.findings
        assert_frame_equal(found, audit(calls, **INPUTS, as_of=monitor.as_of).findings)
        assert {"call_hidden_anonymous", "call_hidden_Restricted"} <= set(
            found.loc[found["rule"] == "caller_id", "call_id"])


def test_each_row_of_a_frame_it_cannot_read_is_held_by_its_call() -> None:
    frame = TRUTH.iloc[:4].reset_index(drop=True)
    frame["to_number"] = frame["to_number"].astype(object)
    frame.loc[1:3, "to_number"] = ["2125550100", None, "+1 212 555 0100"]
    with Monitor(**INPUTS) as monitor:
        monitor.observe(frame)
        assert monitor.held["event_id"].tolist() == [f"frame:{i}" for i in frame["id"][1:]]
        assert monitor.calls["id"].tolist() == [frame["id"][0]]
