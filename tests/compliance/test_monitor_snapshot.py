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

from dialkit.compliance import Monitor, audit
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
