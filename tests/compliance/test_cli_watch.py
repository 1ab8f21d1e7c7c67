"""``dialkit compliance watch`` (issue 83, item 3): the findings of a webhook receiver's store,
judged once or followed as its events land, ``--fail-on`` as the audit reads it, a restart on
``--state`` telling nothing twice, and bad input named.

Every store here is written by the real :class:`~dialkit.webhooks.EventStore` from signed
deliveries, verified as a receiver verifies them (one test through a real
:class:`~dialkit.webhooks.Receiver` over HTTP while the command follows the store); the
findings are held to the audit's of the calls the events carry, built here from the same
values, never from the monitor's reading of them.
"""

from __future__ import annotations

import json
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

import httpx
import pandas as pd
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import audit
from dialkit.compliance._live._state import FORMAT
from dialkit.frames import SCHEMAS
from dialkit.webhooks import EventStore, Receiver, verify

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "webhooks"))
from webhook_servers import delivery, envelope, serve  # noqa: E402

SECRET = "whsec_watch_0123456789abcdef"
VERIFIED = "+14155550100"
runner = CliRunner()


def call(n: int, start: str, *, to: str = "+12125550123", caller: str = VERIFIED,
         talk: int = 60) -> dict[str, Any]:
    """The ``call.completed`` envelope of call ``n``, answered 10 s after ``start`` and
    ``talk`` seconds long."""
    began = pd.Timestamp(start)
    answered, ended = began + pd.Timedelta(seconds=10), began + pd.Timedelta(seconds=10 + talk)
    return envelope(f"evt_{uuid.UUID(int=n)}", kind="call.completed", created_at=ended.isoformat(),
                    data={"call_id": f"call_{n}", "direction": "outbound", "status": "completed",
                          "from": caller, "to": to, "campaign_id": "cmp_1",
                          "started_at": began.isoformat(), "answered_at": answered.isoformat(),
                          "ended_at": ended.isoformat(), "duration_seconds": talk,
                          "hangup_cause": "normal_clearing"})


def logged(n: int, code: str) -> dict[str, Any]:
    """The ``disposition.logged`` envelope of call ``n``."""
    at = "2026-11-02T18:00:00+00:00"
    return envelope(f"evt_{uuid.UUID(int=1000 + n)}", kind="disposition.logged", created_at=at,
                    data={"call_id": f"call_{n}", "disposition_code": code, "logged_at": at})


def signed(event: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    return delivery(event, SECRET, int(time.time()))


def stored(path: Path, events: Iterable[dict[str, Any]]) -> Path:
    """``events`` delivered to the store at ``path`` (made if missing), each verified."""
    with EventStore(path) as store:
        for event in events:
            body, headers = signed(event)
            store.add(verify(body, headers, SECRET), body)
    return path


def expected(events: list[dict[str, Any]]) -> pd.DataFrame:
    """The audit's findings of the calls ``events`` carry, as of the latest event, told the
    verified caller id: what the command must find."""
    rows = [{"id": e["data"]["call_id"], "direction": "outbound", "from_number": e["data"]["from"],
             "to_number": e["data"]["to"], "created_at": e["data"]["started_at"],
             "answered_at": e["data"]["answered_at"], "ended_at": e["data"]["ended_at"],
             "campaign_id": "cmp_1", "disposition": None, "status": "completed",
             "duration_seconds": float(e["data"]["duration_seconds"]),
             "hangup_cause": "normal_clearing"} for e in events]
    calls = SCHEMAS["calls"].frame(rows).sort_values(["created_at", "id"], ignore_index=True)
    as_of = max(pd.Timestamp(e["created_at"]) for e in events)
    return audit(calls, verified_caller_ids=[VERIFIED], as_of=as_of).findings


DAY = [call(1, "2026-11-02T15:00:00Z"), call(2, "2026-11-03T02:30:00Z"),  # 21:30 in New York
       call(3, "2026-11-02T16:00:00Z", caller="+14155550199"),  # a caller id not verified
       call(4, "2026-11-02T17:00:00Z", to="+13055550166")]


def watch(tmp_path: Path, *options: str) -> Any:
    """``dialkit compliance watch`` told the verified caller id, in this process."""
    ids = tmp_path / "ids.txt"
    ids.write_text(VERIFIED + "\n")
    return runner.invoke(app, ["compliance", "watch", "--verified-caller-ids", str(ids),
                               *options])


def test_once_it_prints_the_audits_findings_of_the_stores_events(tmp_path: Path) -> None:
    store = stored(tmp_path / "events.sqlite", [*DAY, DAY[0]])  # a retry: stored once
    truth = expected(DAY)
    assert set(truth["rule"]) == {"calling_hours", "unverified_caller_id"}
    table = watch(tmp_path, "--events", str(store), "--json")
    assert table.exit_code == 0, table.output
    rows = json.loads(table.stdout)
    assert [(r["rule"], r["call_id"], r["evidence"]) for r in rows] == list(
        truth[["rule", "call_id", "evidence"]].itertuples(index=False, name=None))
    said = watch(tmp_path, "--events", str(store))
    assert said.exit_code == 0, said.stderr
    lines = said.stdout.splitlines()
    assert [line.split("  ")[1:3] for line in lines] == truth[["rule", "basis"]].values.tolist()
    assert lines[0].startswith("2026-11-03 02:30 UTC  calling_hours  law  call call_2 (cmp_1): "
                               "called Mon 21:30 America/New_York")
    assert "4 events read (0 seen before), 4 calls judged" in said.stderr
    assert "note: dnc_call: not run: pass --dnc FILE" in said.stderr  # in the command's words


def test_fail_on_exits_as_the_audits_does(tmp_path: Path) -> None:
    store = stored(tmp_path / "events.sqlite", DAY)
    assert expected(DAY)["basis"].value_counts().to_dict() == {"law": 1, "policy": 1}
    failed = watch(tmp_path, "--events", str(store), "--fail-on", "law", "--fail-on", "any")
    assert failed.exit_code == 1
    assert failed.stderr.splitlines()[-1] == ("--fail-on law any: 1 finding of law, 1 finding "
                                              "of policy")
    assert watch(tmp_path, "--events", str(store), "--fail-on", "risk").exit_code == 0
    refused = watch(tmp_path, "--events", str(store), "--fail-on", "laws")
    assert (refused.exit_code, refused.stderr) == (
        2, "error: --fail-on 'laws': pass law, any or risk\n")
    empty = stored(tmp_path / "quiet.sqlite", [])
    unchecked = watch(tmp_path, "--events", str(empty), "--fail-on", "law")
    assert unchecked.exit_code == 1 and "0 calls judged, nothing was checked" in unchecked.stderr
    quiet = watch(tmp_path, "--events", str(empty), "--fail-on", "law", "--allow-empty")
    assert quiet.exit_code == 0, quiet.stderr


def test_fail_on_stops_on_a_rule_not_judged_unless_accepted(tmp_path: Path) -> None:
    """Issue 98: a call to Paris (libphonenumber's example French mobile) on a weekday
    morning breaks no rule dialkit holds, and is judged by none: --fail-on law stops on
    the rules not judged (exit 3, not 1: nothing was found), --accept-unjudged France
    passes it, and --fail-on risk stops on its no_law_held risk unless accepted too."""
    store = stored(tmp_path / "events.sqlite", [call(1, "2026-11-02T09:00:00Z",
                                                     to="+33612345678")])
    stopped = watch(tmp_path, "--events", str(store), "--fail-on", "law")
    assert stopped.exit_code == 3, stopped.stderr
    assert stopped.stderr.splitlines()[-1].startswith(
        "--fail-on law: 4 rules not judged: calling_hours (1 call), call_frequency (1 call), "
        "abandonment (1 call), caller_id (1 call)")
    accepted = watch(tmp_path, "--events", str(store), "--fail-on", "law", "--fail-on", "risk",
                     "--accept-unjudged", "France")
    assert accepted.exit_code == 0, accepted.stderr
    risky = watch(tmp_path, "--events", str(store), "--fail-on", "risk")
    assert (risky.exit_code, risky.stderr.splitlines()[-1]) == (1, "--fail-on risk: 1 risk")


def test_a_restart_on_its_state_tells_nothing_twice_and_a_withdrawal_once(
        tmp_path: Path) -> None:
    """Twenty calls talked, one hung up in 2 s with no disposition: abandoned by the proxy
    (over 3 %); its disposition, stored later, takes the finding back."""
    events = [call(n, f"2026-11-02T15:{n:02d}:00Z", to=f"+1212555{n + 100:04d}")
              for n in range(20)] + [call(20, "2026-11-02T15:30:00Z", talk=2)]
    store, state = stored(tmp_path / "events.sqlite", events), tmp_path / "state.sqlite"
    first = watch(tmp_path, "--events", str(store), "--state", str(state))
    assert first.exit_code == 0, first.stderr
    assert [line.split("  ")[1] for line in first.stdout.splitlines()] == ["abandonment"]
    again = watch(tmp_path, "--events", str(store), "--state", str(state))
    assert (again.exit_code, again.stdout) == (0, "")
    assert "0 events read (0 seen before)" in again.stderr  # read on from where it was
    stored(store, [logged(20, "not_interested")])
    later = watch(tmp_path, "--events", str(store), "--state", str(state))
    assert "1 event read (0 seen before)" in later.stderr
    assert later.stdout.startswith("withdrawn: 2026-11-02 15:30 UTC  abandonment  law  call "
                                   "call_20")
    assert len(later.stdout.splitlines()) == 1
    assert watch(tmp_path, "--events", str(store), "--state", str(state)).stdout == ""
    store.rename(tmp_path / "old.sqlite")  # a store made anew: its cursor counts from 0 again
    anew = watch(tmp_path, "--events", str(stored(store, events)), "--state", str(state))
    assert (anew.exit_code, anew.stdout) == (0, "")
    assert "0 events read (21 seen before)" in anew.stderr


def _lines(stream: IO[str]) -> queue.Queue[str]:
    """The lines of ``stream`` as they come, read on a thread of their own."""
    found: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stream:
            found.put(line)

    threading.Thread(target=read, daemon=True).start()
    return found


def _until(lines: queue.Queue[str], wanted: str, seconds: float = 30) -> str:
    """The first line holding ``wanted``, within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        line = lines.get(timeout=max(deadline - time.monotonic(), 0.01))
        if wanted in line:
            return line


def test_follow_prints_a_finding_as_it_lands_until_stopped(tmp_path: Path) -> None:
    """The command follows a store a real receiver writes: a call delivered over HTTP after
    it started is printed as it lands; SIGTERM stops it, exit 0."""
    store = stored(tmp_path / "events.sqlite", DAY[:1])  # no finding yet
    with subprocess.Popen(
            [sys.executable, "-m", "dialkit", "compliance", "watch", "--events", str(store),
             "--follow", "--interval", "0.05"], cwd=tmp_path, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE) as follower:
        assert follower.stdout is not None and follower.stderr is not None
        out, err = _lines(follower.stdout), _lines(follower.stderr)
        _until(err, "watching")
        with serve(Receiver(store, SECRET)) as url:
            body, headers = signed(DAY[1])
            assert httpx.post(url, content=body, headers=headers).status_code == 200
            line = _until(out, "call_2")
        follower.send_signal(signal.SIGTERM)
        assert follower.wait(timeout=30) == 0
    assert line.startswith("2026-11-03 02:30 UTC  calling_hours  law  call call_2 (cmp_1): ")
    assert out.empty()
    assert _until(err, "stopped", 1)


def test_follow_with_fail_on_stops_at_the_first_finding_it_names(tmp_path: Path) -> None:
    store = stored(tmp_path / "events.sqlite", DAY[:1])
    later = threading.Timer(0.3, stored, (store, DAY[1:2]))
    later.start()
    try:
        result = watch(tmp_path, "--events", str(store), "--follow", "--interval", "0.05",
                       "--fail-on", "law")
    finally:
        later.join()
    assert result.exit_code == 1, result.stderr
    assert result.stdout.splitlines()[-1].split("  ")[1:3] == ["calling_hours", "law"]
    assert result.stderr.splitlines()[-1] == "--fail-on law: 1 finding of law"


def test_bad_input_is_named_with_what_to_pass(tmp_path: Path) -> None:
    missing = tmp_path / "nope.sqlite"
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as made:  # a monitor's state of a later dialkit
        made.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        made.execute("INSERT INTO meta VALUES ('format', '99')")
    made.close()
    store = stored(tmp_path / "events.sqlite", DAY[:1])
    said = {
        (str(missing),): f"error: --events: no event store at {missing}: pass the SQLite "
                         "file `dialkit webhooks listen --db` stores events in",
        (str(other),): f"error: --events: cannot read the event store {other}: no such table: "
                       "events: pass the SQLite file `dialkit webhooks listen --db` stores "
                       "events in",
        (str(store), "--state", str(other)): f"error: --state {other} is a monitor's state of "
                                              f"format 99; this dialkit reads format {FORMAT}: "
                                              "name a new file",
        (str(store), "--state", str(store)): f"error: --state {store} is the --events store: "
                                              "name a file of its own for the monitor's state",
        (str(store), "--follow", "--json"): "error: --json and --csv print the findings once, "
                                            "as a table: leave out --follow",
    }
    for options, message in said.items():
        result = watch(tmp_path, "--events", *options)
        assert (result.exit_code, result.stderr) == (2, message + "\n"), options
        assert result.stdout == ""
