"""A restart reads the calls and their judgment kept whole at the last snapshot and judges
again only the calls changed since, and its findings are the audit's, as a restart that
judged every call (issue 83, item 4 and the restart target).

The account is the audit benchmark's: its calls observed as one frame (a snapshot is kept
after it, so many calls having changed), then the benchmark's stream of deliveries in
batches (too few calls for another), and a second monitor opened on the state as the first
was killed: its file let go without a snapshot.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from dialkit.compliance import Changes, Monitor, audit
from dialkit.compliance._live._snapshot import fingerprint, from_blob, to_blob
from dialkit.errors import MonitorStateError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_monitor  # noqa: E402

MADE = bench_monitor.account(2500, 600, 200)
INPUTS = bench_monitor.inputs_of(MADE["leads"], MADE["dnc"])
DELIVERIES = bench_monitor.stream(MADE["tail"])
KEPT_AT = bench_monitor.latest(MADE["kept"])


def expected(deliveries: list[dict]) -> pd.DataFrame:
    calls, as_of = bench_monitor.so_far(MADE["kept"], MADE["tail"], KEPT_AT, deliveries)
    ordered = calls.sort_values(["created_at", "id"], kind="stable", ignore_index=True)
    return audit(ordered, **INPUTS, as_of=as_of).findings


def test_a_restart_after_a_kill_judges_only_the_calls_changed_since_the_snapshot(
        tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    half = len(DELIVERIES) // 2
    killed = Monitor(path, **INPUTS)
    killed.observe(MADE["kept"])
    for start in range(0, half, 50):
        killed.observe(DELIVERIES[start:min(start + 50, half)])
    with pytest.raises(MonitorStateError, match="is held by another monitor"):
        Monitor(path, **INPUTS)  # two monitors of one state would write over each other
    killed._state.close()  # as a kill leaves it: no snapshot at its close, its lock let go
    with Monitor(path, **INPUTS) as again:
        assert_frame_equal(again.findings, killed.findings)
        assert_frame_equal(again.findings, expected(DELIVERIES[:half]))
        assert_frame_equal(again.calls, killed.calls)
        assert 0 < again._judged.judged < len(MADE["kept"]) / 2  # the calls since, a part
        again.observe(DELIVERIES[half:])
        assert_frame_equal(again.findings, expected(DELIVERIES))
        findings = again.findings
    with Monitor(path, **INPUTS) as closed:  # closed: its snapshot holds every call
        assert_frame_equal(closed.findings, findings)
        assert closed._judged.judged == 0


def test_a_frame_kept_is_read_back_with_its_types() -> None:
    """Arrow reads Python text back as pandas' text, and a category of no values without
    its categories: a snapshot gives back the types it was given."""
    index = pd.Index(["call_1", "call_2"], dtype=object)
    frame = pd.DataFrame({
        "text": pd.Series(["a", None], index=index, dtype=object),
        "arrow": pd.Series(["b", None], index=index, dtype="string"),
        "direction": pd.Series(pd.Categorical([None, None], categories=["inbound",
                                                                        "outbound"]),
                               index=index),
        "at": pd.Series(pd.to_datetime(["2026-11-02T10:00:00Z", None], utc=True),
                        index=index).dt.as_unit("us"),
        "count": pd.Series([1, None], index=index, dtype="Int64")})
    assert frame["text"].dtype == object and frame["text"].tolist() == ["a", None]
    back = from_blob(to_blob(frame))
    assert_frame_equal(back, frame)
    assert back["text"].tolist() == ["a", None]
    assert back.index.dtype == object


def test_a_snapshot_that_cannot_be_read_is_made_again_from_the_calls(tmp_path: Path) -> None:
    """A snapshot only saves judging the calls, whose rows the state keeps: one that cannot
    be read (a disk's bad sector, another program's write) is not the monitor's truth."""
    path = tmp_path / "state.sqlite"
    with Monitor(path, **INPUTS) as monitor:
        monitor.observe(MADE["kept"])
        findings = monitor.findings
    with closing(sqlite3.connect(path)) as state, state:
        state.execute("UPDATE snapshot SET frame = x'00ff' WHERE name = 'findings'")
    with Monitor(path, **INPUTS) as again:
        assert_frame_equal(again.findings, findings)
        assert again._judged.judged == len(MADE["kept"])  # every call, from its row
    with Monitor(path, **INPUTS) as later:  # the snapshot made again at that restart
        assert_frame_equal(later.findings, findings)
        assert later._judged.judged == 0


def test_the_inputs_fingerprint_is_the_same_in_every_process() -> None:
    """A restart reads the snapshot's judgment only where the inputs' fingerprint is the
    one kept: sets of text (verified caller ids, blocked countries) hash in another order
    in each process, and a fingerprint that followed them would judge every restart whole."""
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import bench_monitor; "
              "from dialkit.compliance import Monitor; "
              "made = bench_monitor.account(300, 60, 10); "
              "print(Monitor(**bench_monitor.inputs_of(made['leads'], made['dnc']))"
              "._fingerprint)")
    folder = str(Path(__file__).resolve().parents[2] / "benchmarks")
    printed = {subprocess.run([sys.executable, "-c", script, folder], check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2")}
    assert len(printed) == 1 and len(printed.pop().strip()) == 64
    assert fingerprint(INPUTS["leads"]) != fingerprint(INPUTS["leads"].iloc[1:])
    mixed = pd.DataFrame({"other_phones": [["+13055550177"], "+13055550188", None]})
    assert fingerprint(mixed) == fingerprint(mixed.copy())
    assert fingerprint(mixed) != fingerprint(mixed.iloc[::-1])


def _same_changes(mine: Changes, theirs: Changes) -> None:
    assert_frame_equal(mine.added, theirs.added)
    assert_frame_equal(mine.withdrawn, theirs.withdrawn)


def test_after_a_restart_a_monitor_tells_what_one_never_stopped_tells(tmp_path: Path) -> None:
    """A snapshot keeps, beside its findings, the key and row hash of each as they were
    told, and a restart takes them (and what it judges again of the calls changed since)
    as told: its observations then tell, added and withdrawn, what a monitor that never
    stopped tells of the same events, after a close and after a kill alike."""
    path, quarter = tmp_path / "state.sqlite", len(DELIVERIES) // 4
    parts = [DELIVERIES[n * quarter:(n + 1) * quarter] for n in range(3)]
    never = Monitor(**INPUTS)
    never.observe(MADE["kept"])
    monitor = Monitor(path, **INPUTS)
    monitor.observe(MADE["kept"])
    _same_changes(monitor.observe(parts[0]), never.observe(parts[0]))
    monitor.close()  # a snapshot of the judgment told
    monitor = Monitor(path, **INPUTS)
    assert monitor._told.kept() is not None  # resumed: the next reads only what it judges
    for part in parts[1:]:
        _same_changes(monitor.observe(part), never.observe(part))
    monitor._state.close()  # as a kill leaves it: the calls of two parts to judge again
    with Monitor(path, **INPUTS) as monitor:
        assert monitor._told.kept() is not None and monitor._judged.judged > 0
        _same_changes(monitor.observe(DELIVERIES[3 * quarter:]),
                      never.observe(DELIVERIES[3 * quarter:]))
        assert_frame_equal(monitor.findings, expected(DELIVERIES))


def test_a_restart_whose_judgment_is_not_what_was_told_tells_it_again(
        tmp_path: Path) -> None:
    """Where what a restart judges again is not what the state says was told (a row of
    ``announced`` lost), nothing is taken as told: the first observation reads every
    finding and tells the lost one again."""
    path, half = tmp_path / "state.sqlite", len(DELIVERIES) // 2
    monitor = Monitor(path, **INPUTS)
    monitor.observe(MADE["kept"])
    for start in range(0, half, 20):
        monitor.observe(DELIVERIES[start:min(start + 20, half)])
    findings, since = monitor.findings, monitor._unsnapped  # calls since the last snapshot
    lost = findings[findings["call_id"].isin(since)].iloc[0]
    monitor._state.close()  # killed: the calls since are judged again at the restart
    with closing(sqlite3.connect(path)) as state, state:
        gone = [key for (key,) in state.execute("SELECT key FROM announced")
                if key.startswith(f"{len(lost['rule'])}:{lost['rule']}")
                and f":{lost['call_id']}" in key]
        assert len(gone) == 1
        state.execute("DELETE FROM announced WHERE key = ?", gone)
    with Monitor(path, **INPUTS) as again:
        assert again._told.kept() is None  # not resumed: the next reads every finding
        added = again.observe(DELIVERIES[half:]).added
        assert ((added["rule"] == lost["rule"]) & (added["call_id"] == lost["call_id"])).any()
